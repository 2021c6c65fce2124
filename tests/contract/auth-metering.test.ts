/**
 * Auth, entitlements, public schemas and DU metering, on endpoints declared here over the real
 * pipeline (the market resources arrive with their own modules; the mechanism is tested now).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type as t } from "@sinclair/typebox";
import { createApp } from "../../src/serve/app";
import { gunzipSync } from "node:zlib";
import { defineEndpoint, type Endpoint, STREAM_BYTES } from "../../src/serve/http/endpoint";
import { streamedBytes } from "../../src/serve/http/compression";
import { T } from "../../src/serve/query/grammar";
import { createTestContext, type TestContext } from "../helpers/app";
import { IDLE_MS, Ledger } from "../../src/serve/accounts/ledger";
import { DU } from "../../src/serve/http/pricing";

const FULL_FIELDS = ["id", "name", "market_cap"];
const PUBLIC_FIELDS = ["id", "name"];

/** A list priced like GET /v1/artists (2 + 1 per record) that returns `limit` rows of either schema. */
const probeList = defineEndpoint({
  method: "GET",
  path: "/v1/artists",
  price: DU.spec(2, 1),
  summary: "probe list",
  tag: "Test",
  auth: "optional",
  list: { fields: { id: { column: "id", type: T.int(), suffixes: ["", "__in"] } }, limit: { default: 20, max: 1000 } },
  response: { full: t.Object({}), public: t.Object({}) },
  records: (body: { artists: unknown[] }) => body.artists.length,
  handle: ({ query, schema }) => ({
    artists: Array.from({ length: query.limit }, (_, i) => (schema === "full" ? { id: i + 1, name: `a${i}`, market_cap: 1000 * i } : { id: i + 1, name: `a${i}` })),
    total: 5000,
    limit: query.limit,
    offset: query.offset,
  }),
});

const probeAnalytics = defineEndpoint({
  method: "GET",
  path: "/v1/artists/{artist_id}/sharpe-ratio",
  price: DU.ANALYTICS,
  summary: "probe analytics",
  tag: "Test",
  auth: "required",
  entitlement: "analytics",
  pathParams: { artist_id: T.int(1) },
  response: { full: t.Object({}) },
  handle: ({ params }) => ({ artist_id: params.artist_id }),
});

const probeArtworks = defineEndpoint({
  method: "GET",
  path: "/v1/artworks",
  price: DU.spec(2, 1.5),
  summary: "probe artworks",
  tag: "Test",
  auth: "optional",
  list: { fields: {}, limit: { default: 20, max: 1000 } },
  response: { full: t.Object({}) },
  records: (body: { items: unknown[] }) => body.items.length,
  handle: ({ query }) => ({ items: Array.from({ length: query.limit }, (_, i) => ({ id: i })), total_count: 9999 }),
});

const probeFail = defineEndpoint({
  method: "GET",
  path: "/v1/artworks/{artwork_id}",
  price: DU.DETAIL,
  summary: "probe failure",
  tag: "Test",
  auth: "required",
  pathParams: { artwork_id: T.int(1) },
  response: { full: t.Object({}) },
  handle: ({ params }) => {
    if (params.artwork_id === 13) throw new Error("boom: SELECT secret FROM internals");
    throw Object.assign(new Error("Artwork not found"), { status: 404 });
  },
});

const probes: Endpoint[] = [probeList, probeAnalytics, probeArtworks, probeFail].map((p, i) => ({ ...p, operationId: `probe${i}` }));

let ctx: TestContext;
let app: ReturnType<typeof createApp>;
const call = (path: string, key: string | null) => app.handle(new Request(`http://artmarket.test${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} }));
const ledgerRows = () => (ctx.deps.account.query("SELECT count(*) AS n FROM du_ledger").get() as { n: number }).n;

beforeAll(async () => {
  ctx = await createTestContext();
  app = createApp(ctx.deps, probes);
});
afterAll(() => ctx.close());

describe("authentication", () => {
  test("a required endpoint without a key is 401 with {detail}", async () => {
    const res = await call("/v1/artists/1/sharpe-ratio", null);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: expect.any(String) });
    expect(res.headers.get("X-Service-DataUnits")).toBeNull();
  });

  for (const bad of ["nonsense", "am_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "Bearer"]) {
    test(`a bad key (${bad.slice(0, 12)}…) is 401, also on endpoints that allow no key`, async () => {
      expect((await call("/v1/artists/1/sharpe-ratio", bad)).status).toBe(401);
      expect((await call("/v1/artists", bad)).status).toBe(401);
    });
  }

  test("a right kid with a wrong secret is 401", async () => {
    const forged = `${ctx.keys.pro.slice(0, 20)}${"A".repeat(43)}`;
    expect((await call("/v1/artists", forged)).status).toBe(401);
  });

  test("a non-Bearer Authorization scheme is 401", async () => {
    const res = await app.handle(new Request("http://artmarket.test/v1/artists/1/sharpe-ratio", { headers: { Authorization: `Basic ${btoa("a:b")}` } }));
    expect(res.status).toBe(401);
  });

  test("argon2 runs once per key, not per request", async () => {
    const before = ctx.deps.verifier.argon2Runs;
    for (let i = 0; i < 5; i++) expect((await call("/v1/artists?limit=1", ctx.keys.pro)).status).toBe(200);
    const after = ctx.deps.verifier.argon2Runs;
    expect(after - before).toBeLessThanOrEqual(1);
    for (let i = 0; i < 5; i++) await call("/v1/artists?limit=1", ctx.keys.pro);
    expect(ctx.deps.verifier.argon2Runs).toBe(after);
  });

  test("a key revoked by another process stops working at once", async () => {
    const { createUserWithKey } = await import("../../src/serve/accounts/keys");
    const made = await createUserWithKey(ctx.deps.account, "pro", "to revoke");
    expect((await call("/v1/artists?limit=1", made.key)).status).toBe(200);
    ctx.otherConnection().run("UPDATE api_keys SET revoked_at = ? WHERE id = ?", [Date.now(), made.keyId]);
    expect((await call("/v1/artists?limit=1", made.key)).status).toBe(401);
  });
});

describe("entitlements and schemas", () => {
  test("sandbox gets 403 on analytics, pro and enterprise get 200", async () => {
    const denied = await call("/v1/artists/5/sharpe-ratio", ctx.keys.sandbox);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ detail: expect.any(String) });
    expect((await call("/v1/artists/5/sharpe-ratio", ctx.keys.pro)).status).toBe(200);
    expect((await call("/v1/artists/5/sharpe-ratio", ctx.keys.enterprise)).status).toBe(200);
  });

  const scenarios: [string, () => string | null, string[], boolean][] = [
    ["anonymous", () => null, PUBLIC_FIELDS, false],
    ["sandbox", () => ctx.keys.sandbox, PUBLIC_FIELDS, true],
    ["pro", () => ctx.keys.pro, FULL_FIELDS, true],
    ["enterprise", () => ctx.keys.enterprise, FULL_FIELDS, true],
  ];
  for (const [who, key, fields, metered] of scenarios) {
    test(`${who} on a market list gets the ${fields === FULL_FIELDS ? "full" : "public"} schema${metered ? "" : ", unmetered"}`, async () => {
      const res = await call("/v1/artists?limit=3", key());
      expect(res.status).toBe(200);
      const body = (await res.json()) as { artists: Record<string, unknown>[] };
      for (const row of body.artists) expect(Object.keys(row).sort()).toEqual([...fields].sort());
      expect(res.headers.get("X-Service-DataUnits") !== null).toBe(metered);
    });
  }
});

describe("Data Units", () => {
  for (const n of [0, 1, 20, 100, 1000]) {
    test(`an artist list of ${n} records costs 2 + 1 × ${n}`, async () => {
      const res = await call(`/v1/artists?limit=${Math.max(n, 1)}`, ctx.keys.enterprise);
      const body = (await res.json()) as { artists: unknown[] };
      expect(body.artists.length).toBe(Math.max(n, 1));
      expect(Number(res.headers.get("X-Service-DataUnits"))).toBe(2 + 1 * body.artists.length);
    });
  }

  test("an artwork list of 500 records costs 2 + 1.5 × 500 = 752", async () => {
    const res = await call("/v1/artworks?limit=500", ctx.keys.enterprise);
    expect(res.headers.get("X-Service-DataUnits")).toBe("752");
  });

  test("an odd number of artworks costs a half DU, written as a decimal", async () => {
    const res = await call("/v1/artworks?limit=3", ctx.keys.enterprise);
    expect(res.headers.get("X-Service-DataUnits")).toBe("6.5");
  });

  test("Remaining falls by exactly the cost, and Period-End is an ISO date", async () => {
    const a = await call("/v1/artists?limit=10", ctx.keys.pro);
    const b = await call("/v1/artists?limit=7", ctx.keys.pro);
    const remainingA = Number(a.headers.get("X-Service-DataUnits-Remaining"));
    const remainingB = Number(b.headers.get("X-Service-DataUnits-Remaining"));
    expect(remainingA - remainingB).toBe(9);
    expect(b.headers.get("X-Service-DataUnits-Period-End")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test("concurrent requests each see their own Remaining: distinct, one cost apart", async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, () => call("/v1/artists?limit=3", ctx.keys.enterprise)));
    const remaining = responses.map((r) => Number(r.headers.get("X-Service-DataUnits-Remaining"))).sort((a, b) => b - a);
    for (let i = 1; i < remaining.length; i++) expect(remaining[i - 1]! - remaining[i]!).toBe(5);
  });

  test("DU headers are exposed to browsers through CORS", async () => {
    const res = await call("/v1/artists?limit=1", ctx.keys.pro);
    const exposed = (res.headers.get("Access-Control-Expose-Headers") ?? "").split(/,\s*/);
    for (const h of ["X-Service-DataUnits", "X-Service-DataUnits-Remaining", "X-Service-DataUnits-Period-End"]) {
      expect(exposed).toContain(h);
    }
    const pre = await app.handle(new Request("http://artmarket.test/v1/artists", { method: "OPTIONS" }));
    expect(pre.status).toBe(204);
    expect(pre.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
  });

  test("4xx responses cost nothing and write no ledger row", async () => {
    const before = ledgerRows();
    const responses = [
      await call("/v1/artists?limit=0", ctx.keys.pro), // 422
      await call("/v1/artists?limit=abc", ctx.keys.pro), // 422
      await call("/v1/artists/1/sharpe-ratio", ctx.keys.sandbox), // 403
      await call("/v1/artworks/7", ctx.keys.pro), // 404
      await call("/v1/artists/1/sharpe-ratio", null), // 401
    ];
    expect(responses.map((r) => r.status)).toEqual([422, 422, 403, 404, 401]);
    for (const r of responses) expect(r.headers.get("X-Service-DataUnits")).toBeNull();
    expect(ledgerRows()).toBe(before);
  });

  test("an internal error is a 500 with a generic body, costs nothing and leaks nothing", async () => {
    const before = ledgerRows();
    const res = await call("/v1/artworks/13", ctx.keys.pro);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("SELECT");
    expect(JSON.parse(text)).toEqual({ detail: expect.any(String) });
    expect(ledgerRows()).toBe(before);
  });

  test("public routes: a valid key makes the call authenticated, free and with DU headers; no key or a bad key, no headers", async () => {
    const share = await ctx.call("/v1/artworks/share", { method: "POST", body: { ids: [1, 2] }, key: ctx.keys.pro });
    expect(share.status).toBe(200);
    const token = ((await share.json()) as { token: string }).token;
    for (const path of ["/healthcheck", `/v1/artworks/shared/${token}`]) {
      const remainingBefore = Number((await ctx.call("/v1/categories", { key: ctx.keys.pro })).headers.get("X-Service-DataUnits-Remaining"));
      const keyed = await ctx.call(path, { key: ctx.keys.pro });
      expect(keyed.status).toBe(200);
      expect(keyed.headers.get("X-Service-DataUnits")).toBe("0");
      expect(Number(keyed.headers.get("X-Service-DataUnits-Remaining"))).toBe(remainingBefore);
      expect(keyed.headers.get("X-Service-DataUnits-Period-End")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const keyless = await ctx.call(path, { key: null });
      expect(keyless.status).toBe(200);
      expect(keyless.headers.get("X-Service-DataUnits")).toBeNull();
      const badKey = await ctx.call(path, { key: "am_nokey_notasecret" });
      expect(badKey.status).toBe(200);
      expect(badKey.headers.get("X-Service-DataUnits")).toBeNull();
    }
  });

  test("the ledger row of a request holds the header's DU, route and record count", async () => {
    const res = await call("/v1/artworks?limit=11", ctx.keys.pro);
    const row = ctx.deps.account.query("SELECT method, route, records, du, status FROM du_ledger ORDER BY id DESC LIMIT 1").get();
    expect(row).toEqual({ method: "GET", route: "/v1/artworks", records: 11, du: 18.5, status: 200 });
    expect(res.headers.get("X-Service-DataUnits")).toBe("18.5");
  });

  test("group commit: a lone request is committed in its own turn; concurrent ones share a commit, all before their responses", async () => {
    // the app's ledger, swapped for one on a clock moved by hand: "idle" (IDLE_MS since the last
    // commit) is then a fact of the test, not a sleep racing the wall clock
    const deps = ctx.deps as { ledger: Ledger };
    const appLedger = deps.ledger;
    appLedger.flush();
    let clock = 1_000;
    const ledger = new Ledger(ctx.deps.account, { now: () => clock });
    deps.ledger = ledger;
    try {
      // a lone request: its row is committed before the response is built, on the same turn
      let before = ledgerRows();
      const commits = { ...ledger.commits };
      const res = await call("/v1/artworks?limit=3", ctx.keys.pro);
      expect(res.status).toBe(200);
      expect(ledgerRows()).toBe(before + 1);
      expect(ledger.commits.immediate).toBe(commits.immediate + 1);
      // 20 at once: every row committed when the responses arrive, in fewer commits than requests
      clock += 10 * IDLE_MS;
      before = ledgerRows();
      const total = ledger.commits.total;
      const responses = await Promise.all(Array.from({ length: 20 }, () => call("/v1/artworks?limit=2", ctx.keys.pro)));
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(ledgerRows()).toBe(before + 20);
      expect(ledger.commits.total - total).toBeLessThan(20);
      expect(ledger.commits.total - total).toBeGreaterThanOrEqual(1);
      // after a commit of several rows a request opens a batch, however late; after a lone one it
      // is committed at once only when IDLE_MS have passed
      const immediate = ledger.commits.immediate;
      clock += 10 * IDLE_MS;
      await call("/v1/artworks?limit=1", ctx.keys.pro); // the last commit held several: a batch (of one)
      clock += 10 * IDLE_MS;
      await call("/v1/artworks?limit=1", ctx.keys.pro); // idle: committed at once
      await call("/v1/artworks?limit=1", ctx.keys.pro); // the clock stood still: a batch
      expect(ledger.commits.immediate - immediate).toBe(1);
    } finally {
      ledger.flush();
      deps.ledger = appLedger;
      appLedger.reset(); // its cached windows did not see the requests above
    }
  });

  test("a response over STREAM_BYTES as sent waits for the group commit and streams; a smaller one keeps its Content-Length", async () => {
    const deps = ctx.deps as { ledger: Ledger };
    const appLedger = deps.ledger;
    appLedger.flush();
    const clock = 1_000; // never moves: no request finds the ledger idle
    const ledger = new Ledger(ctx.deps.account, { now: () => clock });
    deps.ledger = ledger;
    const big = "/v1/artists?limit=1000"; // the probe list: 1,000 rows, about 40 KB
    const gzip = (path: string) => app.handle(new Request(`http://artmarket.test${path}`, { headers: { Authorization: `Bearer ${ctx.keys.pro}`, "Accept-Encoding": "gzip" } }));
    try {
      await call("/v1/artworks?limit=1", ctx.keys.pro); // the first commit ever: idle
      const immediate = ledger.commits.immediate;
      // small ones and a large one together: one batch, committed on a later turn, before any response
      const total = ledger.commits.total;
      const before = ledgerRows();
      const small = Array.from({ length: 5 }, () => call("/v1/artworks?limit=1", ctx.keys.pro));
      const large = call(big, ctx.keys.pro);
      const responses = await Promise.all([...small, large]);
      expect(responses.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(ledgerRows()).toBe(before + 6);
      expect(ledger.commits.total - total).toBe(1);
      expect(ledger.commits.immediate).toBe(immediate);
      // the large body streams (no Content-Length: chunked on the wire), its size known to the access log
      const res = responses[5]!;
      expect(res.headers.get("content-length")).toBeNull();
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.byteLength).toBeGreaterThan(STREAM_BYTES);
      expect(streamedBytes(res)).toBe(bytes.byteLength);
      const list = JSON.parse(new TextDecoder().decode(bytes)) as { artists: { id: number }[] };
      expect(list.artists).toHaveLength(1000);
      // a small one goes as it is
      const one = responses[0]!;
      expect(streamedBytes(one)).toBeUndefined();
      expect(Number(one.headers.get("content-length") ?? (await one.clone().arrayBuffer()).byteLength)).toBeLessThan(STREAM_BYTES);
      // the same list compressed to under STREAM_BYTES: not streamed, Content-Length the encoded bytes, the same rows
      const zipped = await gzip(big);
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      const encoded = new Uint8Array(await zipped.arrayBuffer());
      expect(Number(zipped.headers.get("content-length"))).toBe(encoded.byteLength);
      expect(encoded.byteLength).toBeLessThan(STREAM_BYTES);
      expect(streamedBytes(zipped)).toBeUndefined();
      expect((JSON.parse(gunzipSync(encoded).toString("utf8")) as { artists: { id: number }[] }).artists.map((r) => r.id)).toEqual(list.artists.map((r) => r.id));
    } finally {
      ledger.flush();
      deps.ledger = appLedger;
      appLedger.reset();
    }
  });
});

describe("validation (422)", () => {
  test("limit above the maximum: loc, msg, type, input as sent, ctx with the bound", async () => {
    const res = await call("/v1/artists?limit=1001", ctx.keys.pro);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [
        {
          loc: ["query", "limit"],
          msg: "Input should be less than or equal to 1000",
          type: "less_than_equal",
          input: "1001",
          ctx: { le: 1000 },
        },
      ],
    });
  });

  test("negative offset and a non-integer limit are reported together", async () => {
    const res = await call("/v1/artists?limit=ten&offset=-1", ctx.keys.pro);
    const body = (await res.json()) as { detail: { loc: string[]; type: string; input: unknown; ctx: object }[] };
    expect(body.detail.map((d) => [d.loc.join("."), d.type, d.input])).toEqual([
      ["query.limit", "int_parsing", "ten"],
      ["query.offset", "greater_than_equal", "-1"],
    ]);
    expect(body.detail[1]!.ctx).toEqual({ ge: 0 });
  });

  test("a bad value inside an __in list names its index", async () => {
    const res = await call("/v1/artists?id__in=1,x,3", ctx.keys.pro);
    expect(res.status).toBe(422);
    const [d] = ((await res.json()) as { detail: { loc: unknown[]; input: unknown }[] }).detail;
    expect(d!.loc).toEqual(["query", "id__in", 1]);
    expect(d!.input).toBe("x");
  });

  test("a path parameter that is not an integer is 422 at loc path", async () => {
    for (const bad of ["abc", "%ZZ", "0"]) {
      const res = await call(`/v1/artists/${bad}/sharpe-ratio`, ctx.keys.pro);
      expect(res.status).toBe(422);
      const [d] = ((await res.json()) as { detail: { loc: unknown[] }[] }).detail;
      expect(d!.loc).toEqual(["path", "artist_id"]);
    }
  });

  test("unknown query parameters are 422 extra_forbidden, one entry each, and cost nothing", async () => {
    const before = ledgerRows();
    const res = await call("/v1/artists?limit=2&future_param=1&id_in=3", ctx.keys.pro);
    expect(res.status).toBe(422);
    expect(res.headers.get("X-Service-DataUnits")).toBeNull();
    const { detail } = (await res.json()) as { detail: { loc: unknown[]; type: string; input: unknown; ctx: unknown }[] };
    expect(detail.map((d) => [d.loc, d.type, d.input, d.ctx])).toEqual([
      [["query", "future_param"], "extra_forbidden", "1", {}],
      [["query", "id_in"], "extra_forbidden", "3", { suggestion: "id__in" }],
    ]);
    expect(ledgerRows()).toBe(before);
  });

  test("an unknown route is 404 {detail}", async () => {
    const res = await call("/v1/nothing-here", ctx.keys.pro);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: expect.any(String) });
  });
});
