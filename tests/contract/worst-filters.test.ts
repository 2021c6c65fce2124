/**
 * The worst documented filter shapes at their maxima against one worker (issue 32, item 1): every
 * `__in` filter and list parameter of the four market lists with 1,000 values, every `__ilike` and
 * free-text parameter at its longest, several at once and without a key. Each is answered (200,
 * or the time budget's 503, never a 500), and /healthcheck on the same worker stays under 1 s
 * meanwhile.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { MAX_IN_VALUES, type ListSpec, type ScalarType } from "../../src/serve/query/grammar";
import { ARTWORK_LIST } from "../../src/serve/modules/artworks/fields";
import { LOT_LIST } from "../../src/serve/modules/lots/fields";
import { SALE_LIST } from "../../src/serve/modules/sales/fields";
import { ARTIST_LIST } from "../../src/serve/modules/artists/fields";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { spawnServe } from "../helpers/server";

const LISTS: [string, ListSpec][] = [
  ["/v1/artworks", ARTWORK_LIST],
  ["/v1/lots", LOT_LIST],
  ["/v1/sales", SALE_LIST],
  ["/v1/artists", ARTIST_LIST],
];

/** 1,000 values of a type (distinct where the type allows; words that occur in media among them). */
function values(type: ScalarType, name: string): string[] {
  const words = ["oil", "canvas", "paper", "bronze", "silver_gelatin", "oil on canvas"];
  return Array.from({ length: MAX_IN_VALUES }, (_, i) => {
    switch (type.kind) {
      case "integer":
        return String(i + 1);
      case "number":
        return String(i * 1.5);
      case "enum":
        return type.values[i % type.values.length]!;
      case "boolean":
        return i % 2 ? "true" : "false";
      default:
        return i < words.length ? words[i]! : `${name}${i}`;
    }
  });
}

/** The longest text a 200-character parameter takes, words that miss every row. */
const LONG_TEXT = "zq ".repeat(66).concat("zq");

/**
 * Every worst shape: one request per list parameter at its maximum, and the materials list with
 * each artwork sort and with the planned category list (the default page: what a filter costs,
 * not what a page of 1,000 works costs to write).
 */
function worstShapes(): string[] {
  const urls: string[] = [];
  for (const [path, spec] of LISTS) {
    for (const [field, decl] of Object.entries(spec.fields)) {
      if (decl.suffixes.includes("__in")) urls.push(`${path}?${field}__in=${encodeURIComponent(values(decl.type, field).join(","))}`);
      if (decl.suffixes.includes("__ilike")) urls.push(`${path}?${field}__ilike=${encodeURIComponent(LONG_TEXT)}`);
    }
    for (const [name, decl] of Object.entries(spec.params ?? {})) {
      if (decl.many) urls.push(`${path}?${name}=${encodeURIComponent(values(decl.type, name).join(","))}`);
      else if (decl.type.kind === "string" && name !== "cursor") urls.push(`${path}?${name}=${encodeURIComponent(LONG_TEXT)}`);
    }
  }
  const materials = encodeURIComponent(values({ kind: "string" }, "material").join(","));
  for (const sort of Object.keys(ARTWORK_LIST.sorts ?? {})) urls.push(`/v1/artworks?materials__in=${materials}&sort=${sort}`);
  urls.push(`/v1/artworks?materials__in=${materials}&category_id=1&creation_year__gte=1900`);
  return urls;
}

let dataDir: string;
let server: Awaited<ReturnType<typeof spawnServe>>;

beforeAll(async () => {
  dataDir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  server = await spawnServe(dataDir, ["--workers", "1", "--log-format", "off"]);
}, 180_000);

afterAll(() => {
  server?.proc.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

test("the worst filter shapes at their maxima: each answered, /healthcheck under 1 s meanwhile", async () => {
  const urls = worstShapes();
  expect(urls.length).toBeGreaterThan(30);
  // six requests in flight at a time (the probe's six), without a key: the public lists are open
  const statuses = new Map<string, number>();
  const queue = [...urls];
  let done = false;
  const streams = Array.from({ length: 6 }, async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      const res = await fetch(server.url + url);
      await res.arrayBuffer();
      statuses.set(url, res.status);
      if (res.status === 503) expect(res.headers.get("retry-after")).toBe("1");
    }
  });
  const health: number[] = [];
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      const res = await fetch(`${server.url}/healthcheck`);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      health.push(performance.now() - t);
      await Bun.sleep(50);
    }
  })();
  await Promise.all(streams);
  done = true;
  await probe;
  expect(statuses.size).toBe(urls.length);
  const unexpected = [...statuses].filter(([, status]) => status !== 200 && status !== 503);
  expect(unexpected).toEqual([]);
  expect(health.length).toBeGreaterThan(0);
  expect(Math.max(...health)).toBeLessThan(1000);
}, 180_000);
