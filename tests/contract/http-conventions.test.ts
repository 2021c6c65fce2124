/**
 * The HTTP conventions of the operating contract: JSON of 1 KiB or more compressed as
 * Accept-Encoding allows (br, then gzip) with Vary; weak ETags on market reads, If-None-Match
 * answering 304 at the base price; HEAD on a metered GET charging nothing and quoting the GET.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createTestContext, checkResponse, type TestContext } from "../helpers/app";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { today } from "../../src/market/time";
import { bodyOver, type Coding, MIN_COMPRESSED_BYTES, negotiateCoding } from "../../src/serve/http/compression";
import { ifNoneMatch, isMarketRead, snapshotId } from "../../src/serve/http/etag";
import { RESPONSE_HEADERS } from "../../src/serve/http/endpoint";
import { costOf, formatDu } from "../../src/serve/http/pricing";
import { PRICES } from "../../src/serve/app";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** A request straight to the app (no schema check: the body may be encoded). */
async function raw(path: string, init: { key?: string | null; method?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  const key = init.key === undefined ? ctx.keys.enterprise : init.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  return ctx.app.handle(new Request(`http://artmarket.test${path}`, { method: init.method ?? "GET", headers }));
}

/** The decoded text of a response, by its Content-Encoding. */
async function decoded(res: Response): Promise<string> {
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(Number(res.headers.get("content-length") ?? bytes.byteLength)).toBe(bytes.byteLength);
  const coding = res.headers.get("content-encoding");
  if (coding === "gzip") return gunzipSync(bytes).toString("utf8");
  if (coding === "br") return brotliDecompressSync(bytes).toString("utf8");
  expect(coding).toBeNull();
  return bytes.toString("utf8");
}

const varies = (res: Response) => (res.headers.get("vary") ?? "").split(",").some((v) => v.trim().toLowerCase() === "accept-encoding");
const usage = async (key: string) => ((await (await ctx.call("/v1/usage", { key })).json()) as { du_consumed: number }).du_consumed;
const lastLedgerRow = () =>
  ctx.deps.account.query("SELECT method, route, status, records, du FROM du_ledger ORDER BY id DESC LIMIT 1").get() as {
    method: string;
    route: string;
    status: number;
    records: number;
    du: number;
  };

describe("Accept-Encoding negotiation", () => {
  test("q-values, *, identity and x-gzip as RFC 9110 reads them; br first on a tie", () => {
    const cases: [string | null, Coding | null][] = [
      [null, null],
      ["", null],
      ["identity", null],
      ["gzip", "gzip"],
      ["x-gzip", "gzip"],
      ["br", "br"],
      ["gzip, deflate, br", "br"],
      ["gzip, br;q=0.5", "gzip"],
      ["br;q=0.9, gzip;q=0.9", "br"],
      ["GZIP;Q=0.2", "gzip"],
      ["*", "br"],
      ["*;q=0", null],
      ["*, br;q=0", "gzip"],
      ["gzip;q=0, br;q=0", null],
      ["gzip;q=0, *", "br"],
      ["deflate", null],
      ["identity;q=1, gzip;q=0.5", null],
      ["identity;q=0.1, gzip", "gzip"],
      ["gzip;q=bad", null],
      ["gzip;q=bad, br", "br"],
    ];
    for (const [header, coding] of cases) expect({ header, coding: negotiateCoding(header) }).toEqual({ header, coding });
  });
});

describe("body sizes", () => {
  test("bodyOver counts a text's UTF-8 bytes, not its characters, and a byte array's length", () => {
    const n = 15 * 1024;
    const cases: [string | Uint8Array, boolean][] = [
      ["a".repeat(n), false],
      ["a".repeat(n + 1), true],
      ["é".repeat(n / 2), false], // 2 bytes each: exactly n
      [`${"é".repeat(n / 2)}a`, true],
      ["€".repeat(n / 3 + 1), true], // 3 bytes each, n / 3 + 1 characters
      ["€".repeat(n / 3), false],
      [new Uint8Array(n), false],
      [new Uint8Array(n + 1), true],
    ];
    for (const [body, over] of cases) {
      const bytes = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
      expect({ bytes, over: bodyOver(body, n) }).toEqual({ bytes, over });
    }
  });
});

describe("compression", () => {
  const LIST = "/v1/artists?limit=40";

  test("a large JSON body decodes, br and gzip, to exactly the identity body; Vary on all three", async () => {
    const plain = await raw(LIST);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(varies(plain)).toBe(true);
    const text = await plain.text();
    expect(Buffer.byteLength(text)).toBeGreaterThan(MIN_COMPRESSED_BYTES);
    for (const [accept, coding] of [
      ["gzip", "gzip"],
      ["br", "br"],
      ["gzip, deflate, br", "br"],
      ["br;q=0.1, gzip", "gzip"],
    ] as const) {
      const res = await raw(LIST, { headers: { "Accept-Encoding": accept } });
      expect({ accept, status: res.status, coding: res.headers.get("content-encoding"), vary: varies(res) }).toEqual({ accept, status: 200, coding, vary: true });
      const body = await decoded(res);
      expect(body).toBe(text);
      // the decoded body is the endpoint's schema, as the helper checks uncompressed answers
      await checkResponse(ctx.app, ctx.deps, "GET", LIST, ctx.keys.enterprise, new Response(body, { headers: { "Content-Type": "application/json" } }));
    }
  });

  test("compressed bytes are much fewer, and Content-Length counts them", async () => {
    const plain = Buffer.byteLength(await (await raw(LIST)).text());
    for (const coding of ["gzip", "br"]) {
      const res = await raw(LIST, { headers: { "Accept-Encoding": coding } });
      const bytes = (await res.arrayBuffer()).byteLength;
      expect(Number(res.headers.get("content-length"))).toBe(bytes);
      expect(bytes).toBeLessThan(plain / 2);
    }
  });

  test("identity, q=0 for both codings, an unknown coding or no header: not compressed", async () => {
    for (const accept of ["identity", "gzip;q=0, br;q=0", "deflate", "*;q=0", null]) {
      const res = await raw(LIST, { headers: accept === null ? {} : { "Accept-Encoding": accept } });
      expect({ accept, coding: res.headers.get("content-encoding"), vary: varies(res) }).toEqual({ accept, coding: null, vary: true });
      expect(((await res.json()) as { artists: unknown[] }).artists.length).toBe(40);
    }
  });

  test("a body under 1 KiB is never compressed, and does not vary", async () => {
    const res = await raw("/v1/categories", { headers: { "Accept-Encoding": "br, gzip" } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBeLessThan(MIN_COMPRESSED_BYTES);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(varies(res)).toBe(false);
    expect((JSON.parse(text) as unknown[]).length).toBeGreaterThan(0);
  });

  test("an error body of 1 KiB or more (a 422 with many issues) is compressed; a small 404 is not", async () => {
    const bad = `offset=-5&market_cap__gte=${"z".repeat(1500)}`;
    const plain = await raw(`/v1/artists?limit=abc&${bad}`);
    expect(plain.status).toBe(422);
    const text = await plain.text();
    expect(Buffer.byteLength(text)).toBeGreaterThan(MIN_COMPRESSED_BYTES);
    const res = await raw(`/v1/artists?limit=abc&${bad}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(varies(res)).toBe(true);
    expect(await decoded(res)).toBe(text);
    expect((JSON.parse(text) as { detail: unknown[] }).detail.length).toBe(3);

    const missing = await raw("/v1/artists/999999999", { headers: { "Accept-Encoding": "gzip" } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-encoding")).toBeNull();
    expect(await missing.json()).toEqual({ detail: expect.any(String) });
  });

  test("images stay as they are", async () => {
    type Listed = { description: { image: { urls: { w240: string } } | null } };
    const artworks = (await (await ctx.call("/v1/artworks?limit=20")).json()) as { items: Listed[] };
    const url = new URL(artworks.items.find((a) => a.description.image)!.description.image!.urls.w240);
    const res = await ctx.app.handle(new Request(`http://artmarket.test${url.pathname}${url.search}`, { headers: { "Accept-Encoding": "br, gzip" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("image/");
    expect(res.headers.get("content-encoding")).toBeNull();
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  });
});

describe("ETag on market reads", () => {
  const tag = async (path: string, key?: string | null, headers?: Record<string, string>) => {
    const res = await raw(path, { key, headers });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    await res.arrayBuffer();
    return res.headers.get("etag");
  };

  test("weak, named after the snapshot, stable for the same request, whatever the encoding or the order of the query", async () => {
    const a = await tag("/v1/artists?limit=5&offset=10");
    expect(a).toMatch(new RegExp(`^W/"${snapshotId(ctx.deps.snapshot)}-[0-9a-f]{16}"$`));
    expect(await tag("/v1/artists?limit=5&offset=10")).toBe(a);
    expect(await tag("/v1/artists?offset=10&limit=5")).toBe(a);
    expect(await tag("/v1/artists?limit=5&offset=10", undefined, { "Accept-Encoding": "br" })).toBe(a);
  });

  test("differs with the query, the path and the schema (sandbox's public, enterprise's full), and without a key", async () => {
    const tags = [
      await tag("/v1/artists?limit=5&offset=10"),
      await tag("/v1/artists?limit=5&offset=11"),
      await tag("/v1/artists?limit=6&offset=10"),
      await tag("/v1/artists?limit=5&offset=10", ctx.keys.sandbox),
      await tag("/v1/artists?limit=5&offset=10", null),
      await tag("/v1/lots?limit=5&offset=10"),
    ];
    expect(tags.every((t) => t?.startsWith('W/"'))).toBe(true);
    expect(new Set(tags).size).toBe(tags.length);
    // the same plan's schema: another pro or enterprise caller with the same view gets the same tag
    expect(await tag("/v1/categories", ctx.keys.pro)).toBe(await tag("/v1/categories", ctx.keys.enterprise));
  });

  test("every kind of market read has one: lists, details, charts, analytics, reference lists", async () => {
    const artist = ((await (await ctx.call("/v1/artists?limit=1")).json()) as { artists: { id: number }[] }).artists[0]!.id;
    for (const path of [
      "/v1/artists",
      `/v1/artists/${artist}`,
      `/v1/artists/${artist}/chart`,
      `/v1/artists/${artist}/sales-volume`,
      "/v1/artworks?limit=3",
      "/v1/lots?limit=3",
      "/v1/sales?limit=3",
      "/v1/market/index-chart",
      "/v1/categories",
      "/v1/currencies",
      "/v1/auction-houses",
    ]) {
      expect({ path, etag: (await tag(path))?.startsWith('W/"') }).toEqual({ path, etag: true });
    }
  });

  test("account data carries none, and If-None-Match there is ignored: collectables, followed lists, usage, plans", async () => {
    const created = await ctx.call("/v1/collectables", { method: "POST", body: { artist_id: 2, category_id: 3, edition_unique_type: "unique" } });
    expect(created.status).toBe(200);
    const id = ((await created.json()) as { id: number }).id;
    for (const path of ["/v1/collectables", `/v1/collectables/${id}`, "/v1/artists/followed", "/v1/artworks/recommended", "/v1/usage", "/v1/plans"]) {
      const res = await raw(path, { headers: { "If-None-Match": "*" } });
      expect({ path, status: res.status, etag: res.headers.get("etag") }).toEqual({ path, status: 200, etag: null });
    }
    expect(isMarketRead("GET", "/v1/collectables/{collectable_id}")).toBe(false);
    expect(isMarketRead("GET", "/v1/lots/shared/{token}")).toBe(false);
    expect(isMarketRead("POST", "/v1/artworks/search-by-image")).toBe(false);
    expect(isMarketRead("GET", "/v1/artworks/{artwork_id}/similar")).toBe(true);
  });

  test("the tag follows the body: following an artist changes its detail's tag (is_followed)", async () => {
    const artist = ((await (await ctx.call("/v1/artists?limit=1&offset=3", { key: ctx.keys.pro })).json()) as { artists: { id: number }[] }).artists[0]!.id;
    const before = await tag(`/v1/artists/${artist}`, ctx.keys.pro);
    expect((await ctx.call(`/v1/artists/${artist}/follow`, { method: "POST", key: ctx.keys.pro })).status).toBeLessThan(300);
    const after = await tag(`/v1/artists/${artist}`, ctx.keys.pro);
    expect(after).not.toBe(before);
    const res = await raw(`/v1/artists/${artist}`, { key: ctx.keys.pro, headers: { "If-None-Match": before! } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { is_followed: boolean }).is_followed).toBe(true);
  });

  test("another snapshot, another tag: the same rows under another market_meta", async () => {
    const other = await createTestContext({ prepareMarket: (db) => db.run("UPDATE market_meta SET value = '2000-01-01T00:00:00.000Z' WHERE key = 'built_at'") });
    try {
      const path = "/v1/categories";
      const here = await raw(path);
      const there = await other.app.handle(new Request(`http://artmarket.test${path}`, { headers: { Authorization: `Bearer ${other.keys.enterprise}` } }));
      expect(await there.text()).toBe(await here.text());
      expect(snapshotId(other.deps.snapshot)).not.toBe(snapshotId(ctx.deps.snapshot));
      expect(there.headers.get("etag")).toStartWith(`W/"${snapshotId(other.deps.snapshot)}-`);
      expect(there.headers.get("etag")).not.toBe(here.headers.get("etag"));
    } finally {
      other.close();
    }
  });
});

describe("If-None-Match: 304 at the base price", () => {
  const PATH = "/v1/artists?limit=25";
  const price = PRICES["GET /v1/artists"]!;

  test("the current tag answers 304 with no body, the ETag and the DU headers of the base cost; the ledger and /v1/usage move by the base", async () => {
    const first = await raw(PATH, { key: ctx.keys.pro });
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("x-service-dataunits")).toBe(formatDu(costOf(price, 25)));
    await first.arrayBuffer();
    const before = await usage(ctx.keys.pro);
    const res = await raw(PATH, { key: ctx.keys.pro, headers: { "If-None-Match": etag, "Accept-Encoding": "gzip" } });
    expect(res.status).toBe(304);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(varies(res)).toBe(true);
    expect(res.headers.get("x-service-dataunits")).toBe(formatDu(costOf(price, 0)));
    expect(res.headers.get("x-service-dataunits")).toBe(formatDu(price.base));
    expect(res.headers.get("x-service-dataunits-period-end")).toBe(first.headers.get("x-service-dataunits-period-end"));
    expect(Number(res.headers.get("x-service-dataunits-remaining"))).toBe(Number(first.headers.get("x-service-dataunits-remaining")) - price.base);
    expect(lastLedgerRow()).toEqual({ method: "GET", route: "/v1/artists", status: 304, records: 0, du: price.base });
    expect((await usage(ctx.keys.pro)) - before).toBe(price.base);
  });

  test("a list of tags with the current one, the weak or strong form of it, or *: 304; another tag: 200 at the full price", async () => {
    const etag = (await raw(PATH)).headers.get("etag")!;
    const opaque = etag.slice(2);
    for (const header of [etag, opaque, `W/"nope", ${etag}`, `"a", "b",${opaque}`, "*"]) {
      const res = await raw(PATH, { headers: { "If-None-Match": header } });
      expect({ header, status: res.status, du: res.headers.get("x-service-dataunits") }).toEqual({ header, status: 304, du: formatDu(price.base) });
    }
    for (const header of ['W/"nope"', `${etag.slice(0, -2)}x"`, "garbage", ""]) {
      const res = await raw(PATH, { headers: { "If-None-Match": header } });
      expect({ header, status: res.status, du: res.headers.get("x-service-dataunits") }).toEqual({ header, status: 200, du: formatDu(costOf(price, 25)) });
      await res.arrayBuffer();
    }
    expect(ifNoneMatch(null, etag)).toBe(false);
  });

  test("an analytics read: 304 costs its base, the whole price when there is no per-record part", async () => {
    const artist = ((await (await ctx.call("/v1/artists?limit=1")).json()) as { artists: { id: number }[] }).artists[0]!.id;
    const path = `/v1/artists/${artist}/sales-volume`;
    const etag = (await raw(path)).headers.get("etag")!;
    const res = await raw(path, { headers: { "If-None-Match": etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get("x-service-dataunits")).toBe(formatDu(PRICES["GET /v1/artists/{artist_id}/sales-volume"]!.base));
  });
});

describe("HEAD on a metered GET", () => {
  test("no body, 0 DU, the GET's cost as the quote, Remaining untouched; the ledger has a 0-DU HEAD row", async () => {
    const path = "/v1/artworks?limit=7";
    const get1 = await raw(path, { key: ctx.keys.pro, headers: { "Accept-Encoding": "gzip" } });
    const getBytes = (await get1.arrayBuffer()).byteLength;
    const getDu = get1.headers.get("x-service-dataunits")!;
    expect(getDu).toBe(formatDu(costOf(PRICES["GET /v1/artworks"]!, 7)));
    const before = await usage(ctx.keys.pro);

    const head = await raw(path, { key: ctx.keys.pro, method: "HEAD", headers: { "Accept-Encoding": "gzip" } });
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect(head.headers.get("x-service-dataunits")).toBe("0");
    expect(head.headers.get("x-service-dataunits-quote")).toBe(getDu);
    expect(head.headers.get("x-service-dataunits-remaining")).toBe(get1.headers.get("x-service-dataunits-remaining"));
    expect(head.headers.get("x-service-dataunits-period-end")).toBe(get1.headers.get("x-service-dataunits-period-end"));
    expect(head.headers.get("etag")).toBe(get1.headers.get("etag"));
    expect(head.headers.get("content-type")).toBe("application/json");
    expect(head.headers.get("content-encoding")).toBe("gzip");
    expect(Number(head.headers.get("content-length"))).toBe(getBytes);
    expect(lastLedgerRow()).toEqual({ method: "HEAD", route: "/v1/artworks", status: 200, records: 0, du: 0 });
    expect(await usage(ctx.keys.pro)).toBe(before);

    const get2 = await raw(path, { key: ctx.keys.pro });
    await get2.arrayBuffer();
    expect(get2.headers.get("x-service-dataunits")).toBe(getDu);
    expect(Number(get2.headers.get("x-service-dataunits-remaining"))).toBe(Number(get1.headers.get("x-service-dataunits-remaining")) - Number(getDu));
  });

  test("the quote is what that GET would cost: per record, and the base for a 304", async () => {
    for (const limit of [1, 13]) {
      const path = `/v1/lots?limit=${limit}`;
      const head = await raw(path, { method: "HEAD" });
      const get = await raw(path);
      await get.arrayBuffer();
      expect(head.headers.get("x-service-dataunits-quote")).toBe(get.headers.get("x-service-dataunits"));
      expect(head.headers.get("x-service-dataunits-quote")).toBe(formatDu(costOf(PRICES["GET /v1/lots"]!, limit)));
    }
    const etag = (await raw("/v1/lots?limit=13", { method: "HEAD" })).headers.get("etag")!;
    const head304 = await raw("/v1/lots?limit=13", { method: "HEAD", headers: { "If-None-Match": etag } });
    expect(head304.status).toBe(304);
    expect(head304.headers.get("x-service-dataunits")).toBe("0");
    expect(head304.headers.get("x-service-dataunits-quote")).toBe(formatDu(PRICES["GET /v1/lots"]!.base));
  });

  test("costing nothing, a HEAD is served past a hard cap, quoting the GET that is refused", async () => {
    const { key, userId } = await createUserWithKey(ctx.deps.account, "sandbox", "capped quoter");
    ctx.otherConnection().run("INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, 'GET /v1/artworks', 10000, 1)", [userId, today()]);
    ctx.deps.ledger.reset();
    const get = await raw("/v1/categories", { key });
    expect(get.status).toBe(429);
    const head = await raw("/v1/categories", { key, method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-service-dataunits")).toBe("0");
    expect(head.headers.get("x-service-dataunits-remaining")).toBe("0");
    expect(head.headers.get("x-service-dataunits-quote")).toBe(formatDu(PRICES["GET /v1/categories"]!.base));
  });

  test("entitlements still hold: a sandbox HEAD on analytics is 403", async () => {
    const res = await raw("/v1/artists/1/sales-volume", { key: ctx.keys.sandbox, method: "HEAD" });
    expect(res.status).toBe(403);
  });

  test("the quote and the ETag are exposed to browsers", () => {
    const exposed = RESPONSE_HEADERS["Access-Control-Expose-Headers"]!.split(", ");
    expect(exposed).toContain("X-Service-DataUnits-Quote");
    expect(exposed).toContain("ETag");
  });
});

describe("the OpenAPI document and CORS", () => {
  test("/openapi.json is compressed when the client allows it, and decompresses to the same document", async () => {
    const plain = await ctx.app.handle(new Request("http://artmarket.test/openapi.json"));
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    const text = await plain.text();
    const br = await ctx.app.handle(new Request("http://artmarket.test/openapi.json", { headers: { "Accept-Encoding": "br, gzip" } }));
    expect(br.headers.get("Content-Encoding")).toBe("br");
    expect(br.headers.get("Vary")).toContain("Accept-Encoding");
    const bytes = new Uint8Array(await br.arrayBuffer());
    expect(Number(br.headers.get("Content-Length"))).toBe(bytes.byteLength);
    expect(brotliDecompressSync(bytes).toString()).toBe(text);
    expect(bytes.byteLength).toBeLessThan(text.length / 3);
  });

  test("OPTIONS answers the path's methods in Allow, as a 405 does; an unknown path is 404", async () => {
    for (const [path, wrong] of [
      ["/v1/artists", "DELETE"],
      ["/v1/artists/1/follow", "PUT"],
      ["/v1/collectables/1", "PUT"],
      ["/healthcheck", "POST"],
      ["/readyz", "POST"],
    ] as const) {
      const options = await raw(path, { method: "OPTIONS", key: null });
      expect(`${path} ${options.status}`).toBe(`${path} 204`);
      const not = await raw(path, { method: wrong });
      expect(`${wrong} ${path} ${not.status}`).toBe(`${wrong} ${path} 405`);
      expect(options.headers.get("Allow")).toBe(not.headers.get("Allow"));
      expect(options.headers.get("Allow")!.split(", ")).toContain("OPTIONS");
    }
    expect((await raw("/v1/artists", { method: "OPTIONS" })).headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    expect((await raw("/v1/artists/1/follow", { method: "OPTIONS" })).headers.get("Allow")).toBe("POST, DELETE, OPTIONS");
    const unknown = await raw("/v1/nothing-here", { method: "OPTIONS" });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toBe("Not Found");
  });

  test("every kind of response carries X-Content-Type-Options: nosniff; /docs has a policy and UTF-8", async () => {
    const cases: [string, string, string | null, number][] = [
      ["GET", "/v1/categories", ctx.keys.enterprise, 200],
      ["GET", "/v1/usage", null, 401],
      ["GET", "/v1/nothing-here", null, 404],
      ["POST", "/v1/categories", null, 405],
      ["GET", "/v1/artists?limit=0", ctx.keys.enterprise, 422],
      ["GET", "/healthcheck", null, 200],
      ["GET", "/openapi.json", null, 200],
      ["GET", "/docs", null, 200],
      ["GET", "/docs/json", null, 308],
      ["GET", "/metrics", null, 200],
      ["GET", "/readyz", null, 200],
      ["GET", "/", null, 302],
      ["OPTIONS", "/v1/artists", null, 204],
      ["GET", "/images/1/nothing.webp", null, 403],
    ];
    for (const [method, path, key, status] of cases) {
      const res = await raw(path, { method, key });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} ${status}`);
      expect(`${method} ${path} ${res.headers.get("X-Content-Type-Options")}`).toBe(`${method} ${path} nosniff`);
      await res.arrayBuffer();
    }
    const docs = await raw("/docs", { key: null });
    expect(docs.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const csp = docs.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self' 'sha256-");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    // the hash allows exactly the page's inline script element
    const html = await docs.text();
    const inline = /<script\b(?![^>]*\ssrc\s*=)[^>]*>([\s\S]*?)<\/script>/i.exec(html)![1]!;
    expect(csp).toContain(`'sha256-${new Bun.CryptoHasher("sha256").update(inline).digest("base64")}'`);
    const head = await raw("/docs", { method: "HEAD", key: null });
    expect(head.headers.get("Content-Security-Policy")).toBe(csp);
  });

  test("a preflight allows If-None-Match and X-Request-Id", async () => {
    const res = await ctx.app.handle(new Request("http://artmarket.test/v1/artists", { method: "OPTIONS" }));
    expect(res.status).toBe(204);
    const allowed = res.headers.get("Access-Control-Allow-Headers")!.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["Authorization", "If-None-Match", "X-Request-Id"]));
  });
});
