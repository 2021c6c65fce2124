/**
 * The official TypeScript client (clients/typescript/): its types are the ones the generator makes
 * from a running server's /openapi.json (so the checked-in file cannot go stale), a program using it
 * type-checks with uploads as Blobs and is refused with a wrong field, and against a real `serve`
 * on loopback it walks a list by cursor exactly as the offset walk does, reports each call's Data
 * Units as the formula prices it, uploads a Blob, and retries a 429 after its Retry-After. A loopback
 * stub answering 429/503 times the waits (seconds and HTTP dates), the cap and the retry count.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArtmarketClient, responseMeta, retryAfterMs } from "../../clients/typescript/src/index";
import { SCHEMA_FILE } from "../../clients/typescript/generate";
import { openAccountDb } from "../../src/db/connection";
import { loadSharp } from "../../src/platform/native";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { SqliteAccountStore } from "../../src/serve/accounts/store";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { spawnServe } from "../helpers/server";
import { virtualTypeChecker } from "../helpers/typecheck";

const CLIENT_DIR = join(import.meta.dir, "../../clients/typescript");

let dataDir: string;
let server: Awaited<ReturnType<typeof spawnServe>>;
let keys: { enterprise: string; sandbox: string };
let picture: Blob;
const scratch = mkdtempSync(join(tmpdir(), "artmarket-ts-client-"));

beforeAll(async () => {
  dataDir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  const db = openAccountDb(dataDir);
  new SqliteAccountStore(db).seedPlans();
  keys = { enterprise: (await createUserWithKey(db, "enterprise", "ts client")).key, sandbox: (await createUserWithKey(db, "sandbox", "ts client sandbox")).key };
  db.close();
  server = await spawnServe(dataDir, ["--workers", "1", "--log-format", "off"]);
  const sharp = loadSharp(dataDir);
  const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 40, g: 120, b: 180 } } })
    .png()
    .toBuffer();
  picture = new Blob([new Uint8Array(png)], { type: "image/png" });
  // the tiny market is built first when no other test of this run has built it
}, 180_000);

afterAll(async () => {
  server?.proc.kill("SIGKILL");
  await server?.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe("the generated types", () => {
  test("the generator run on the server's /openapi.json writes the checked-in schema.d.ts, file parts as Blob | File", async () => {
    const out = join(scratch, "schema.d.ts");
    const proc = Bun.spawn([process.execPath, join(CLIENT_DIR, "generate.ts"), "--url", server.url, "--out", out], { stdout: "pipe", stderr: "pipe" });
    const [code, stderr] = [await proc.exited, await new Response(proc.stderr).text()];
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const fresh = readFileSync(out, "utf8");
    const checkedIn = readFileSync(SCHEMA_FILE, "utf8");
    if (fresh !== checkedIn) throw new Error("clients/typescript/src/schema.d.ts is stale: run `npx bun clients/typescript/generate.ts` and commit it");
    expect(fresh).toContain("export interface paths");
    // the three uploads (search by image, collectable create, collectable image) take a Blob or File, none a string
    expect(fresh.match(/\bimage\??: Blob \| File;/g)?.length).toBe(3);
    expect(fresh).not.toMatch(/Format: binary\s*\*\/\s*\w+\??: string;/);
  }, 60_000);
});

/** A program using the client, type-checked as if it lay in clients/typescript/ (for node_modules). */
const PROGRAM = `
import { createArtmarketClient, type ResponseMeta } from "../src/index";

const am = createArtmarketClient({ baseUrl: "http://127.0.0.1:8080", apiKey: "am_key" });

export async function use(picture: Blob, file: File): Promise<ResponseMeta> {
  const search = await am.POST("/v1/artworks/search-by-image", { body: { image: picture, limit: 5 } });
  if (search.data) {
    const ids: number[] = search.data.results.map((r) => r.artwork.id);
    void ids;
  }
  await am.PUT("/v1/collectables/{collectable_id}/image", { params: { path: { collectable_id: 1 } }, body: { image: file } });
  for await (const { page, meta } of am.paginate("/v1/artists", { params: { query: { limit: 10 } } })) {
    const rows: number = page.artists.length;
    const du: number | null = meta.dataUnits;
    void rows, du;
  }
  for await (const lot of am.items("/v1/lots", "lots")) {
    const id: number = lot.id;
    void id;
  }
  // @ts-expect-error: a file part is a Blob or File, not text
  await am.PUT("/v1/collectables/{collectable_id}/image", { params: { path: { collectable_id: 1 } }, body: { image: "a picture" } });
  // @ts-expect-error: the upload's image part is required
  await am.PUT("/v1/collectables/{collectable_id}/image", { params: { path: { collectable_id: 1 } }, body: {} });
  // @ts-expect-error: /v1/categories is no cursor list
  am.paginate("/v1/categories");
  // @ts-expect-error: a lot page has no "artists"
  am.items("/v1/lots", "artists");
  return search.meta;
}
`;

/** The usage program, type-checked as if it lay in the client's folder (.usage-check/). */
const typeCheck = virtualTypeChecker(join(CLIENT_DIR, ".usage-check"), CLIENT_DIR);

describe("a program using the client type-checks", () => {
  test("uploads of a Blob and a File, pages and rows compile; each @ts-expect-error line is an error; a wrong field is refused", () => {
    expect(typeCheck({ "program.ts": PROGRAM })).toEqual([]);
    // a misspelt upload field is refused where the Blob was accepted
    const misspelt = PROGRAM.replace("body: { image: picture, limit: 5 }", "body: { imagee: picture, limit: 5 }");
    expect(typeCheck({ "program.ts": misspelt }).join("\n")).toMatch(/\.usage-check\/program\.ts:7: .*imagee/s);
    // so is a misspelt query parameter
    const typo = PROGRAM.replace("query: { limit: 10 }", "query: { limt: 10 }");
    expect(typeCheck({ "program.ts": typo }).join("\n")).toMatch(/program\.ts:13: .*limt/s);
    // a wrong value type in a query is refused
    const wrongQuery = PROGRAM.replace("query: { limit: 10 }", 'query: { limit: "ten" }');
    expect(typeCheck({ "program.ts": wrongQuery }).join("\n")).toMatch(/program\.ts:13: .*string.*number/s);
  }, 180_000);
});

describe("against a real server", () => {
  test("paginate follows next_cursor over several pages, the rows those of the offset walk; each page's DU is 2 + 1 × rows", async () => {
    const am = createArtmarketClient({ baseUrl: server.url, apiKey: keys.enterprise });
    const pages: { ids: number[]; du: number | null; remaining: number | null; end: string | null; policy: number }[] = [];
    for await (const { page, meta } of am.paginate("/v1/artists", { params: { query: { limit: 45, sort_by: "NAME" } } })) {
      pages.push({ ids: page.artists.map((a) => a.id), du: meta.dataUnits, remaining: meta.dataUnitsRemaining, end: meta.dataUnitsPeriodEnd, policy: meta.rateLimitPolicy.length });
    }
    const offsetWalk: number[] = [];
    for (let offset = 0; ; offset += 45) {
      const res = await fetch(`${server.url}/v1/artists?limit=45&sort_by=NAME&offset=${offset}`, { headers: { Authorization: `Bearer ${keys.enterprise}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { artists: { id: number }[]; total: number };
      offsetWalk.push(...body.artists.map((a) => a.id));
      if (offset + 45 >= body.total) break;
    }
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.flatMap((p) => p.ids)).toEqual(offsetWalk);
    expect(new Set(offsetWalk).size).toBe(offsetWalk.length);
    for (const [i, p] of pages.entries()) {
      expect(p.du).toBe(2 + 1 * p.ids.length);
      expect(p.end).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(p.policy).toBe(2);
      // what remains falls by exactly what each page cost
      if (i > 0) expect(p.remaining).toBeCloseTo(pages[i - 1]!.remaining! - p.du!, 6);
    }
    // items yields the same rows
    const rows: number[] = [];
    for await (const artist of am.items("/v1/artists", "artists", { params: { query: { limit: 45, sort_by: "NAME" } } })) rows.push(artist.id);
    expect(rows).toEqual(offsetWalk);
  }, 60_000);

  test("an upload of a Blob to search by image: the same results as a hand-made form, DU 10 + 1.5 × results", async () => {
    const am = createArtmarketClient({ baseUrl: server.url, apiKey: keys.enterprise });
    const { data, error, meta } = await am.POST("/v1/artworks/search-by-image", { body: { image: picture, limit: 6 } });
    expect(error).toBeUndefined();
    const got = data!.results.map((r) => ({ id: r.artwork.id, score: r.score }));
    expect(got.length).toBe(6);
    expect(meta.status).toBe(200);
    expect(meta.dataUnits).toBe(10 + 1.5 * got.length);
    expect(meta.requestId).toMatch(/\S/);

    const form = new FormData();
    form.append("image", picture, "query.png");
    form.append("limit", "6");
    const direct = await fetch(`${server.url}/v1/artworks/search-by-image`, { method: "POST", headers: { Authorization: `Bearer ${keys.enterprise}` }, body: form });
    expect(direct.status).toBe(200);
    const expected = ((await direct.json()) as { results: { score: number; artwork: { id: number } }[] }).results.map((r) => ({ id: r.artwork.id, score: r.score }));
    expect(got).toEqual(expected);
  }, 60_000);

  test("a burst past a sandbox key's 10 requests a second: 429s with Retry-After without retries, all 200 with them", async () => {
    const burst = (maxRetries: number) => {
      const am = createArtmarketClient({ baseUrl: server.url, apiKey: keys.sandbox, maxRetries });
      return Promise.all(Array.from({ length: 30 }, () => am.GET("/v1/categories")));
    };
    const refused = (await burst(0)).filter((r) => r.meta.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.meta.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(r.meta.retries).toBe(0);
      expect(r.meta.rateLimit?.remaining).toBe(0);
    }
    await Bun.sleep(1100);
    const started = performance.now();
    const served = await burst(5);
    expect(served.map((r) => r.meta.status)).toEqual(Array(30).fill(200));
    const retried = served.filter((r) => r.meta.retries > 0);
    expect(retried.length).toBeGreaterThan(0);
    // a retried call waited out the Retry-After (at least 1 s) before it was served
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    for (const r of served) expect(r.meta.dataUnits).toBe(1);
  }, 60_000);
});

/** A loopback server answering each call from a script of responses; records when each arrived and what it carried. */
function stub(script: (n: number, request: Request) => Response) {
  const seen: { at: number; image: string | null }[] = [];
  const s = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      let image: string | null = null;
      if (request.method === "POST") {
        const part = (await request.formData()).get("image");
        image = part instanceof Blob ? new TextDecoder().decode(await part.arrayBuffer()) : null;
      }
      seen.push({ at: performance.now(), image });
      return script(seen.length, request);
    },
  });
  return { url: `http://127.0.0.1:${s.port}`, seen, stop: () => s.stop(true) };
}

const ok = () => Response.json({ categories: [{ id: 1, name: "Painting" }] }, { headers: { "X-Service-DataUnits": "1" } });

describe("retries, against a loopback stub", () => {
  test("429 with Retry-After: 1, then 200: one retry about a second later", async () => {
    const s = stub((n) => (n === 1 ? new Response('{"detail":"slow down"}', { status: 429, headers: { "Retry-After": "1" } }) : ok()));
    try {
      const { data, meta } = await createArtmarketClient({ baseUrl: s.url, apiKey: "am_test" }).GET("/v1/categories");
      expect(meta).toMatchObject({ status: 200, retries: 1, dataUnits: 1 });
      expect(data).toEqual({ categories: [{ id: 1, name: "Painting" }] } as never);
      expect(s.seen.length).toBe(2);
      const waited = s.seen[1]!.at - s.seen[0]!.at;
      expect(waited).toBeGreaterThanOrEqual(990);
      expect(waited).toBeLessThan(4000);
    } finally {
      s.stop();
    }
  }, 20_000);

  test("503 with an HTTP-date Retry-After is waited out; an upload's Blob is sent again whole", async () => {
    const until = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    const s = stub((n) => (n === 1 ? new Response('{"detail":"busy"}', { status: 503, headers: { "Retry-After": until.toUTCString() } }) : Response.json({ results: [] })));
    try {
      const am = createArtmarketClient({ baseUrl: s.url, apiKey: "am_test" });
      const { meta } = await am.POST("/v1/artworks/search-by-image", { body: { image: new Blob(["picture bytes"], { type: "image/png" }), limit: 3 } });
      expect(meta).toMatchObject({ status: 200, retries: 1 });
      expect(s.seen.map((x) => x.image)).toEqual(["picture bytes", "picture bytes"]);
      // the second try came at the date, not before (HTTP dates have whole seconds)
      expect(performance.timeOrigin + s.seen[1]!.at).toBeGreaterThanOrEqual(until.getTime() - 50);
    } finally {
      s.stop();
    }
  }, 20_000);

  test("a Retry-After beyond maxRetryDelayMs is returned at once; retries stop at maxRetries", async () => {
    const long = stub(() => new Response('{"detail":"allowance used up"}', { status: 429, headers: { "Retry-After": "86400" } }));
    const always = stub(() => new Response('{"detail":"busy"}', { status: 503, headers: { "Retry-After": "0" } }));
    try {
      const started = performance.now();
      const capped = await createArtmarketClient({ baseUrl: long.url, apiKey: "am_test", maxRetryDelayMs: 5_000 }).GET("/v1/categories");
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(capped.meta).toMatchObject({ status: 429, retries: 0, retryAfterSeconds: 86400 });
      expect(capped.error).toEqual({ detail: "allowance used up" });
      expect(long.seen.length).toBe(1);

      const given = await createArtmarketClient({ baseUrl: always.url, apiKey: "am_test", maxRetries: 2 }).GET("/v1/categories");
      expect(given.meta).toMatchObject({ status: 503, retries: 2 });
      expect(always.seen.length).toBe(3);
    } finally {
      long.stop();
      always.stop();
    }
  }, 20_000);

  test("Retry-After and the rate-limit headers are parsed as the contract writes them", () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs("Sun, 22 Nov 2026 12:00:03 GMT", now)).toBe(3000);
    expect(retryAfterMs("soon", now)).toBeNull();
    const meta = responseMeta(
      new Response(null, {
        headers: {
          RateLimit: '"second";r=4;t=1',
          "RateLimit-Policy": '"second";q=10;w=1, "minute";q=300;w=60',
          "X-Service-DataUnits": "9.5",
          "X-Service-DataUnits-Remaining": "9990.5",
          "X-Service-DataUnits-Period-End": "2026-11-30",
          "X-Service-DataUnits-Quote": "47",
        },
      }),
    );
    expect(meta).toMatchObject({
      rateLimit: { window: "second", remaining: 4, resetSeconds: 1 },
      rateLimitPolicy: [
        { window: "second", quota: 10, windowSeconds: 1 },
        { window: "minute", quota: 300, windowSeconds: 60 },
      ],
      dataUnits: 9.5,
      dataUnitsRemaining: 9990.5,
      dataUnitsPeriodEnd: "2026-11-30",
      dataUnitsQuote: 47,
      retries: 0,
    });
  });
});
