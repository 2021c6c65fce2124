/**
 * The docs held to the code: the browsable API page at /docs works with no network (every asset
 * it loads is served by this process), is public and unmetered; docs/du.md is what
 * scripts/gen-docs.ts makes of the pricing table, covers every mounted endpoint, and agrees with
 * the specification's DU table.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { DU_DOC_PATH, renderDuDoc } from "../../scripts/gen-docs";
import { PRICES } from "../../src/serve/app";
import { createTestContext, type TestContext } from "../helpers/app";

const ORIGIN = "http://artmarket.test";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Every URL the page makes the browser load by itself: script src, link href, img/source src, CSS url(), @import. */
function loadedUrls(html: string): string[] {
  const urls: string[] = [];
  for (const m of html.matchAll(/<(script|link|img|source|iframe)\b[^>]*>/gi)) {
    for (const a of m[0].matchAll(/\s(src|href|srcset)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi)) urls.push(a[3] ?? a[4] ?? a[5]!);
  }
  for (const m of html.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/gi)) urls.push(m[1]!);
  for (const m of html.matchAll(/@import\s+['"]([^'"]+)['"]/gi)) urls.push(m[1]!);
  return urls;
}

/** Relative, or absolute on our own origin (data: URLs load nothing either). */
function isOwn(url: string): boolean {
  if (url.startsWith("data:") || url.startsWith("#")) return true;
  return new URL(url, `${ORIGIN}/docs`).origin === ORIGIN;
}

describe("/docs", () => {
  let res: Response;
  let html: string;
  beforeAll(async () => {
    res = await ctx.call("/docs", { key: null });
    html = await res.text();
  });

  test("serves the API reference page without a key", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(html).toContain('id="api-reference"');
  });

  test("references no http(s) URL outside the service, and every asset it loads is served here", async () => {
    const urls = loadedUrls(html);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((u) => !isOwn(u))).toEqual([]);
    // Not even in inline styles or configuration: nothing on the page names another host.
    const external = [...html.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/gi)].map((m) => m[0]).filter((u) => !isOwn(u.startsWith("//") ? `http:${u}` : u));
    expect(external).toEqual([]);
    const scripts = [...html.matchAll(/<script\b[^>]*\ssrc\s*=\s*"([^"]+)"/gi)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const url of urls.filter((u) => !u.startsWith("data:") && !u.startsWith("#"))) {
      const asset = await ctx.call(new URL(url, `${ORIGIN}/docs`).pathname, { key: null });
      expect({ url, status: asset.status }).toEqual({ url, status: 200 });
      expect({ url, big: (await asset.arrayBuffer()).byteLength > 10_000 }).toEqual({ url, big: true });
    }
  });

  test("the UI's script is served as cacheable JavaScript, gzipped on request, revalidated by ETag", async () => {
    const path = [...html.matchAll(/<script\b[^>]*\ssrc\s*=\s*"([^"]+)"/gi)].map((m) => m[1]!)[0]!;
    expect(path).toStartWith("/docs/");
    const plain = await ctx.call(path, { key: null });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toMatch(/^(text|application)\/javascript/);
    expect(plain.headers.get("cache-control")).toMatch(/max-age=\d{3,}/);
    expect(plain.headers.get("content-encoding")).toBeNull();
    const body = new Uint8Array(await plain.arrayBuffer());
    expect(body.byteLength).toBeGreaterThan(1_000_000);
    expect(new TextDecoder().decode(body.subarray(0, 400))).toContain("@scalar/api-reference");

    const gz = await ctx.call(path, { key: null, headers: { "Accept-Encoding": "gzip, deflate, br" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer()))).toEqual(body);

    const etag = plain.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await ctx.call(path, { key: null, headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
  });

  test("points the UI at our OpenAPI 3.1.0 document, with its CDN fonts and hosted agent off", async () => {
    const dataUrl = /data-url="([^"]*)"/.exec(html)?.[1];
    expect(dataUrl).toBe("/openapi.json");
    const config = JSON.parse(/data-configuration='([^']*)'/.exec(html)![1]!);
    expect(config.url ?? config.spec?.url).toBe("/openapi.json");
    if (config.spec) expect(config.spec.url).toBe("/openapi.json");
    expect(config.withDefaultFonts).toBe(false);
    expect(config.agent?.disabled).toBe(true);
    const doc = (await (await ctx.call(dataUrl!, { key: null })).json()) as { openapi: string };
    expect(doc.openapi).toBe("3.1.0");
  });

  test("Try it starts with the bearer key selected: the page names the document's bearer scheme as the preferred one", async () => {
    const config = JSON.parse(/data-configuration='([^']*)'/.exec(html)![1]!);
    expect(config.authentication).toEqual({ preferredSecurityScheme: "bearerAuth" });
    const doc = (await (await ctx.call("/openapi.json", { key: null })).json()) as { components: { securitySchemes: Record<string, unknown> }; info: { description: string } };
    expect(doc.components.securitySchemes[config.authentication.preferredSecurityScheme]).toMatchObject({ type: "http", scheme: "bearer" });
    // the page's introduction (the document's) says where a key comes from
    expect(doc.info.description).toContain("artmarket keys create --plan SLUG");
  });

  test("the plugin's own 3.0.3 document is not offered: /docs/json redirects to /openapi.json", async () => {
    const res = await ctx.call("/docs/json", { key: null });
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe("/openapi.json");
  });

  test("is public and unmetered: a key changes nothing and is charged nothing", async () => {
    const caller = (await ctx.deps.verifier.verify(ctx.keys.sandbox))!;
    const before = ctx.deps.ledger.windows(caller).periodConsumed;
    const path = [...html.matchAll(/<script\b[^>]*\ssrc\s*=\s*"([^"]+)"/gi)].map((m) => m[1]!)[0]!;
    for (const url of ["/docs", path, "/openapi.json"]) {
      for (const key of [null, ctx.keys.sandbox, "not-a-key"]) {
        const r = await ctx.call(url, { key });
        expect({ url, key, status: r.status }).toEqual({ url, key, status: 200 });
        expect({ url, key, du: r.headers.get("X-Service-DataUnits") }).toEqual({ url, key, du: null });
        await r.arrayBuffer();
      }
    }
    expect(ctx.deps.ledger.windows(caller).periodConsumed).toBe(before);
  });
});

/** The spec's "Data Unit metering" table, copied literally: route → [base, per record]. */
const SPEC_DU_TABLE: readonly [string, number, number][] = [
  ["GET /v1/artists/{artist_id}", 1, 0],
  ["GET /v1/artists/{artist_id}/chart", 10, 0],
  ["GET /v1/artworks/{artwork_id}/chart", 10, 0],
  ["GET /v1/artworks/{artwork_id}/editions", 2, 1.5],
  ["GET /v1/artworks/{artwork_id}/similar", 10, 1.5],
  ["GET /v1/artists/{artist_id}/related", 10, 1],
  ["GET /v1/artists", 2, 1],
  ["GET /v1/artists/followed", 2, 1],
  ["GET /v1/artworks", 2, 1.5],
  ["GET /v1/lots", 2, 1],
  ["GET /v1/lots/followed", 2, 1],
  ["GET /v1/sales", 2, 1],
  ["GET /v1/sales/followed", 2, 1],
  ["GET /v1/categories", 1, 0],
  ["GET /v1/auction-houses", 1, 0],
];

interface Row {
  base: number;
  perRecord: number;
  source: string;
}

/** The rows of the table in docs/du.md, by "METHOD /path". */
function duRows(markdown: string): Map<string, Row> {
  const rows = new Map<string, Row>();
  for (const line of markdown.split("\n")) {
    const m = /^\|\s*((?:GET|POST|PUT|PATCH|DELETE) \/\S*)\s*\|\s*([\d.]+)\s*\|\s*(none|[\d.]+)\s*\|\s*(\w+)\s*\|$/.exec(line);
    if (!m) continue;
    expect({ duplicate: m[1], seen: rows.has(m[1]!) }).toEqual({ duplicate: m[1], seen: false });
    rows.set(m[1]!, { base: Number(m[2]), perRecord: m[3] === "none" ? 0 : Number(m[3]), source: m[4]! });
  }
  return rows;
}

describe("docs/du.md", () => {
  const onDisk = readFileSync(DU_DOC_PATH, "utf8");
  const rows = duRows(onDisk);

  test("is exactly what scripts/gen-docs.ts writes now (run `bun scripts/gen-docs.ts` after changing prices)", () => {
    expect(onDisk).toBe(renderDuDoc());
  });

  test("has one row per priced route, with the pricing table's figures", () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(PRICES).sort());
    for (const [route, p] of Object.entries(PRICES)) {
      expect({ route, ...rows.get(route) }).toEqual({ route, base: p.base, perRecord: p.perRecord, source: p.source });
    }
  });

  test("every mounted endpoint has a row", () => {
    expect(ctx.app.endpoints.length).toBeGreaterThan(0);
    for (const e of ctx.app.endpoints) expect({ route: `${e.method} ${e.path}`, row: rows.has(`${e.method} ${e.path}`) }).toEqual({ route: `${e.method} ${e.path}`, row: true });
  });

  test("every row of the spec's DU table has exactly the spec's base and per-record price, marked as from the spec", () => {
    expect(SPEC_DU_TABLE.length).toBe(15);
    for (const [route, base, perRecord] of SPEC_DU_TABLE) {
      expect({ route, ...rows.get(route) }).toEqual({ route, base, perRecord, source: "spec" });
    }
  });

  test("the spec's zero-cost rule: follow, unfollow, share, shared-token retrieval, usage and healthcheck cost 0", () => {
    const free = [...rows.keys()].filter((r) => /\/follow$|\/share$|\/shared\/\{token\}$|^GET \/v1\/usage$|^GET \/healthcheck$/.test(r));
    expect(free.length).toBeGreaterThanOrEqual(14);
    for (const route of free) expect({ route, ...rows.get(route) }).toEqual({ route, base: 0, perRecord: 0, source: "spec" });
  });

  test("the spec's write rule: POST, PUT, PATCH and DELETE cost their base only (search by image is a read)", () => {
    for (const [route, row] of rows) {
      if (route.startsWith("GET ") || route === "POST /v1/artworks/search-by-image") continue;
      expect({ route, perRecord: row.perRecord }).toEqual({ route, perRecord: 0 });
    }
  });
});
