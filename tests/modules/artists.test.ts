/**
 * The artist endpoints on the tiny market: every filter and sort of the list against direct SQL,
 * pagination, the public/full schema scenario table, include_chart, 422/404/403, DU arithmetic,
 * the analytics shapes, stats, related, chart, and the query plans of the list.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { createTestContext, type TestContext } from "../helpers/app";
import { RateLimiter, type RateState } from "../../src/serve/http/metering";
import type { Caller } from "../../src/serve/accounts/keys";
import { ARTIST_LIST, SORT_BY, SORTS, type SortBy } from "../../src/serve/modules/artists/fields";
import {
  ArtistChartResponse,
  ArtistEventsResponse,
  ArtistListResponse,
  ArtistPublicListResponse,
  ArtistPublicSchema,
  ArtistSchema,
  ArtistStatsResponse,
  CareerPathCountResponse,
  CareerPathEstimateResponse,
  CompoundAnnualReturnsResponse,
  EVENT_TYPES,
  RelatedArtistsResponse,
  ReturnsVsPeriodResponse,
  SalesVolumeResponse,
  SharpeRatioResponse,
} from "../../src/serve/modules/artists/model";
import { listSql } from "../../src/serve/modules/artists/service";
import { parseList } from "../../src/serve/query/grammar";
import { unpackSeries } from "../../src/db/series";
import { Z80 } from "../../src/analytics/index-model";

type Row = Record<string, any>;
type Json = Record<string, any>;

/** The spec's ArtistPublicSchema omissions, copied from the spec text (not from the code). */
const SPEC_PUBLIC_OMITS = [
  "total_sales",
  "market_cap",
  "max_price",
  "min_price",
  "price_momentum_percentage_12mo",
  "artworks_count",
  "recent_lots_count",
  "total_sales_lots_1yr",
  "total_sales_price_median_1yr",
  "artist_index_chart",
  "artist_index_vector",
  "bio",
  "long_bio",
  "is_followed",
];
/** Every field of the spec's ArtistSchema. */
const SPEC_FIELDS = [
  "id",
  "uid",
  "name",
  "nationality",
  "birth",
  "death",
  "bio",
  "long_bio",
  "total_sales",
  "market_cap",
  "max_price",
  "min_price",
  "price_momentum_percentage_12mo",
  "price_momentum_percentage_5y",
  "artworks_count",
  "recent_lots_count",
  "total_sales_lots_1yr",
  "total_sales_price_median_1yr",
  "artist_index_chart",
  "artist_index_vector",
  "is_followed",
  "photo_thumbnail_url",
];
const FULL_ROW_KEYS = SPEC_FIELDS.filter((f) => f !== "artist_index_chart").sort();
const PUBLIC_ROW_KEYS = SPEC_FIELDS.filter((f) => !SPEC_PUBLIC_OMITS.includes(f)).sort();

let ctx: TestContext;
let all: Row[]; // every artist row of the market, straight from SQL
let enterpriseUser: number;
const userOf = (plan: string) => (ctx.deps.account.query("SELECT id FROM users WHERE plan_slug = ?").get(plan) as { id: number }).id;
/**
 * The app's rate limiter on a clock of its own: each request comes 110 ms after the one before,
 * so the sandbox plan's 10 requests a second are never exceeded, without waiting on the wall clock.
 */
class PacedLimiter extends RateLimiter {
  private t = 0;
  override check(caller: Caller): RateState {
    this.t += 110;
    return super.check(caller, this.t);
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  (ctx.deps as { limiter: RateLimiter }).limiter = new PacedLimiter();
  all = ctx.deps.market.query("SELECT * FROM artists ORDER BY id").all() as Row[];
  enterpriseUser = userOf("enterprise");
});
afterAll(() => ctx.close());

async function get(path: string, key?: string | null): Promise<{ status: number; body: any; du: string | null; res: Response }> {
  // the sandbox plan allows 10 requests a second: PacedLimiter spaces every call 110 ms apart
  const res = await ctx.call(path, { key });
  return { status: res.status, body: await res.json(), du: res.headers.get("X-Service-DataUnits"), res };
}

const sql = (q: string, ...params: (string | number)[]) => ctx.deps.market.query(q).all(...params) as Row[];
const ids = (rows: Row[]) => rows.map((r) => r.id as number);
const sortedNums = (xs: number[]) => [...xs].sort((a, b) => a - b);
const quantileOf = (xs: number[], p: number) => sortedNums(xs)[Math.floor(p * (xs.length - 1))]!;
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

function checkSchema(schema: TSchema, value: unknown) {
  const errors = [...Value.Errors(schema, value)].slice(0, 3).map((e) => `${e.path}: ${e.message}`);
  expect(errors).toEqual([]);
}

// ---------------------------------------------------------------- filters

describe("GET /v1/artists filters", () => {
  // Values picked from the market so that every filter keeps some rows and drops others.
  const cases: () => { param: string; where: string; binds?: (string | number)[]; field?: string; check?: (r: Row) => boolean }[] = () => {
    const v = (col: string, p: number) =>
      quantileOf(
        all.map((r) => r[col]).filter((x) => x !== null),
        p,
      );
    const natTop = sql("SELECT nationality, count(*) n FROM artists GROUP BY 1 ORDER BY n DESC, 1 LIMIT 2").map((r) => r.nationality as string);
    const someIds = [all[3]!.id, all[17]!.id, all[150]!.id];
    const someUids = [all[5]!.uid, all[60]!.uid];
    const out: ReturnType<typeof cases> = [
      { param: `id__in=${someIds.join(",")}`, where: `id IN (${someIds.join(",")})`, check: (r) => someIds.includes(r.id) },
      { param: `id__in=${someIds[0]}&id__in=${someIds[1]}`, where: `id IN (${someIds[0]},${someIds[1]})` },
      { param: `uid__in=${someUids.join(",")}`, where: "uid IN (?, ?)", binds: someUids, check: (r) => someUids.includes(r.uid) },
      { param: "is_top=true", where: "is_top = 1" },
      { param: "is_top=false", where: "is_top = 0" },
      { param: `nationality__in=${natTop.join(",")}`, where: "nationality IN (?, ?)", binds: natTop, check: (r) => natTop.includes(r.nationality) },
      { param: "is_living=true", where: "death IS NULL", check: (r) => r.death === null },
      { param: "is_living=false", where: "death IS NOT NULL", check: (r) => r.death !== null },
    ];
    const ranges: [string, string][] = [
      ["birth", "birth"],
      ["market_cap", "market_cap"],
      ["total_sales", "total_sales"],
      ["max_price", "max_price"],
      ["artworks_count", "artworks_count"],
      ["recent_lots_count", "recent_lots_count"],
      ["total_sales_lots_1yr", "total_sales_lots_1yr"],
      ["total_sales_price_median_1yr", "total_sales_price_median_1yr"],
      ["price_momentum_percentage_12mo", "price_momentum_percentage_12mo"],
      ["price_momentum_percentage_5y", "price_momentum_percentage_5y"],
    ];
    for (const [field, col] of ranges) {
      // strictly inside the range of values, so that each bound drops rows
      const distinct = [...new Set(all.map((r) => r[col]).filter((x) => x !== null) as number[])].sort((a, b) => a - b);
      const lo = Math.max(v(col, 0.3), distinct[1]!);
      const hi = Math.min(v(col, 0.7), distinct.at(-2)!);
      out.push({ param: `${field}__gte=${lo}`, where: `${col} >= ${lo}`, field, check: (r) => r[field] !== null && r[field] >= lo });
      out.push({ param: `${field}__lte=${hi}`, where: `${col} <= ${hi}`, field, check: (r) => r[field] !== null && r[field] <= hi });
    }
    out.push({
      param: `birth__gte=1900&market_cap__lte=${v("market_cap", 0.8)}&is_living=true`,
      where: `birth >= 1900 AND market_cap <= ${v("market_cap", 0.8)} AND death IS NULL`,
      check: (r) => r.birth >= 1900 && r.death === null,
    });
    return out;
  };

  test("every filter: each row satisfies it, and the rows and total are what direct SQL finds", async () => {
    const list = cases();
    expect(list.length).toBeGreaterThan(25);
    for (const c of list) {
      const { status, body } = await get(`/v1/artists?limit=1000&${c.param}`);
      expect(status, c.param).toBe(200);
      const expected = sql(`SELECT id FROM artists WHERE ${c.where} ORDER BY id`, ...(c.binds ?? []));
      expect(expected.length, `${c.param} keeps some rows`).toBeGreaterThan(0);
      if (!c.param.startsWith("id__in") && !c.param.startsWith("uid__in")) expect(expected.length, `${c.param} drops some rows`).toBeLessThan(all.length);
      expect(body.total, c.param).toBe(expected.length);
      expect(sortedNums(ids(body.artists)), c.param).toEqual(ids(expected));
      if (c.check) for (const r of body.artists) expect(c.check(r), `${c.param}: row ${r.id}`).toBe(true);
    }
  });

  test("a small page still reports the full total (count cross-check)", async () => {
    for (const c of cases().slice(0, 12)) {
      const { body } = await get(`/v1/artists?limit=2&${c.param}`);
      const n = (sql(`SELECT count(*) AS n FROM artists WHERE ${c.where}`, ...(c.binds ?? []))[0] as { n: number }).n;
      expect(body.total, c.param).toBe(n);
      expect(body.artists.length).toBe(Math.min(2, n));
    }
  });

  test("q: every word begins a word of the name or a synonym, case and accents ignored", async () => {
    const matches = (r: Row, q: string) => {
      const words = fold(`${r.name} ${r.synonyms}`).split(/[^\p{L}\p{N}]+/u);
      return fold(q)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
        .every((w) => words.some((x) => x.startsWith(w)));
    };
    const withAccent = all.find((r) => /[À-ÿ]/.test(r.name))!;
    const firstName = withAccent.name.split(" ")[0] as string;
    const lastName = all[10]!.name.split(" ").at(-1) as string;
    const synonym = all.find((r) => r.synonyms.includes("|"))!.synonyms.split("|")[1] as string;
    for (const q of [fold(firstName), firstName.toUpperCase(), lastName.slice(0, 3).toLowerCase(), `${lastName} ${all[10]!.name.split(" ")[0]}`, synonym]) {
      const { status, body } = await get(`/v1/artists?limit=1000&q=${encodeURIComponent(q)}`);
      expect(status, q).toBe(200);
      const expected = all.filter((r) => matches(r, q));
      expect(expected.length, q).toBeGreaterThan(0);
      expect(sortedNums(ids(body.artists)), q).toEqual(ids(expected));
      expect(body.total).toBe(expected.length);
    }
    const none = await get("/v1/artists?q=zzqqxxnotaname");
    expect(none.body).toMatchObject({ artists: [], total: 0 });
  });

  test("followed=true: only the caller's follows; false or absent: everyone; without a key: 401", async () => {
    const picks = [all[2]!.id, all[40]!.id, all[99]!.id];
    for (const id of picks) expect((await ctx.call(`/v1/artists/${id}/follow`, { method: "POST" })).status).toBe(204);
    const mine = await get("/v1/artists?followed=true&limit=1000");
    expect(sortedNums(ids(mine.body.artists))).toEqual(sortedNums(picks));
    expect(mine.body.total).toBe(3);
    for (const r of mine.body.artists) expect(r.is_followed).toBe(true);
    // relative to the caller: the pro key follows nothing
    const theirs = await get("/v1/artists?followed=true", ctx.keys.pro);
    expect(theirs.body.total).toBe(0);
    const everyone = await get("/v1/artists?followed=false&limit=1000");
    expect(everyone.body.total).toBe(all.length);
    const flags = new Map(everyone.body.artists.map((r: Row) => [r.id, r.is_followed]));
    for (const r of all) expect(flags.get(r.id)).toBe(picks.includes(r.id));
    const byPro = await get("/v1/artists?limit=1000", ctx.keys.pro);
    expect(byPro.body.artists.every((r: Row) => r.is_followed === false)).toBe(true);
    const anon = await get("/v1/artists?followed=true", null);
    expect(anon.status).toBe(401);
    expect(typeof anon.body.detail).toBe("string");
    for (const id of picks) await ctx.call(`/v1/artists/${id}/follow`, { method: "DELETE" });
  });
});

// ---------------------------------------------------------------- sorts and pagination

/** The expected order of the whole market for a sort: by field, NULLs last either way, then id in the same direction. */
function expectedOrder(sort: SortBy, dir: "asc" | "desc"): number[] {
  const field = SORTS[sort].field;
  const key = (r: Row) => (sort === "NAME" ? (r.name as string).replace(/[A-Z]/g, (c) => c.toLowerCase()) : r[field]);
  const sign = dir === "asc" ? 1 : -1;
  return [...all]
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x === null && y !== null) return 1;
      if (y === null && x !== null) return -1;
      if (x !== null && y !== null && x !== y) return (x < y ? -1 : 1) * sign;
      return (a.id - b.id) * sign;
    })
    .map((r) => r.id);
}

describe("GET /v1/artists sorts", () => {
  test("every sort_by, default direction and both explicit ones, orders by its field with NULLs last and the id as tiebreak", async () => {
    for (const sort of SORT_BY) {
      const def = SORTS[sort].defaultDir;
      expect(def).toBe(sort === "NAME" || sort === "BIRTH" ? "asc" : "desc");
      for (const dir of [undefined, "asc", "desc"] as const) {
        const { status, body } = await get(`/v1/artists?limit=1000&sort_by=${sort}${dir ? `&sort_dir=${dir}` : ""}`);
        expect(status).toBe(200);
        expect(ids(body.artists), `${sort} ${dir ?? "default"}`).toEqual(expectedOrder(sort, dir ?? def));
      }
    }
  });

  test("nullable sort fields really have NULLs in the market, so NULLs-last is exercised", () => {
    const nullable = SORT_BY.filter((s) => SORTS[s].nullable);
    expect(nullable.some((s) => all.some((r) => r[SORTS[s].field] === null))).toBe(true);
  });

  test("default order is MARKET_CAP desc; legacy sorts work; sort_by wins over them", async () => {
    expect(ids((await get("/v1/artists?limit=1000")).body.artists)).toEqual(expectedOrder("MARKET_CAP", "desc"));
    expect(ids((await get("/v1/artists?limit=1000&sort_dir=asc")).body.artists)).toEqual(expectedOrder("MARKET_CAP", "asc"));
    expect(ids((await get("/v1/artists?limit=1000&sort_by_total_sales=asc")).body.artists)).toEqual(expectedOrder("TOTAL_SALES", "asc"));
    expect(ids((await get("/v1/artists?limit=1000&sort_by_total_sales=desc")).body.artists)).toEqual(expectedOrder("TOTAL_SALES", "desc"));
    expect(ids((await get("/v1/artists?limit=1000&sort_by_market_cap=asc")).body.artists)).toEqual(expectedOrder("MARKET_CAP", "asc"));
    expect(ids((await get("/v1/artists?limit=1000&sort_by_market_cap=asc&sort_by_total_sales=desc")).body.artists)).toEqual(expectedOrder("TOTAL_SALES", "desc"));
    expect(ids((await get("/v1/artists?limit=1000&sort_by=NAME&sort_by_market_cap=desc")).body.artists)).toEqual(expectedOrder("NAME", "asc"));
  });

  test("pages are consistent with total: no overlap, their union is the first N, total the same on each", async () => {
    for (const order of ["sort_by=MARKET_CAP", "sort_by=NAME", "sort_by=MOMENTUM_12MO&sort_dir=asc", "is_living=true&sort_by=BIRTH"]) {
      const whole = (await get(`/v1/artists?limit=1000&${order}`)).body;
      const seen: number[] = [];
      for (let offset = 0; offset < whole.total + 37; offset += 37) {
        const page = (await get(`/v1/artists?limit=37&offset=${offset}&${order}`)).body;
        expect(page.total).toBe(whole.total);
        expect(page.limit).toBe(37);
        expect(page.offset).toBe(offset);
        expect(page.artists.length).toBe(Math.max(0, Math.min(37, whole.total - offset)));
        seen.push(...ids(page.artists));
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(ids(whole.artists));
    }
  });

  test("limit defaults to 100", async () => {
    const { body } = await get("/v1/artists");
    expect(body.limit).toBe(100);
    expect(body.offset).toBe(0);
    expect(body.artists.length).toBe(Math.min(100, all.length));
  });
});

// ---------------------------------------------------------------- schemas by caller

describe("schema by caller", () => {
  test("the public schema omits exactly the spec's fields", () => {
    expect(Object.keys(ArtistSchema.properties).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(Object.keys(ArtistPublicSchema.properties).sort()).toEqual(PUBLIC_ROW_KEYS);
  });

  const scenarios = [
    { who: "anonymous", key: () => null, rows: PUBLIC_ROW_KEYS, du: false, detail: 401, blur: true },
    { who: "sandbox", key: () => ctx.keys.sandbox, rows: PUBLIC_ROW_KEYS, du: true, detail: 200, blur: false },
    { who: "pro", key: () => ctx.keys.pro, rows: FULL_ROW_KEYS, du: true, detail: 200, blur: false },
    { who: "enterprise", key: () => ctx.keys.enterprise, rows: FULL_ROW_KEYS, du: true, detail: 200, blur: false },
  ];
  for (const s of scenarios) {
    test(`${s.who}: list rows carry exactly ${s.rows === FULL_ROW_KEYS ? "ArtistSchema" : "ArtistPublicSchema"}; DU headers ${s.du ? "present" : "absent"}`, async () => {
      const { status, body, res } = await get("/v1/artists?limit=5", s.key());
      expect(status).toBe(200);
      expect(body.artists.length).toBe(5);
      for (const r of body.artists) expect(Object.keys(r).sort()).toEqual(s.rows);
      checkSchema(s.rows === FULL_ROW_KEYS ? ArtistListResponse : ArtistPublicListResponse, body);
      for (const h of ["X-Service-DataUnits", "X-Service-DataUnits-Remaining", "X-Service-DataUnits-Period-End"]) {
        expect(res.headers.get(h) !== null, h).toBe(s.du);
      }
      if (s.du) expect(res.headers.get("X-Service-DataUnits")).toBe("7");
      const withPhoto = body.artists.find((r: Row) => r.photo_thumbnail_url);
      expect(withPhoto.photo_thumbnail_url).toContain(s.blur ? "/w240-blur.jpg?" : "/w240.jpg?");
      expect(withPhoto.photo_thumbnail_url).toMatch(/[?&]exp=\d+&sig=[0-9a-f]{64}$/);
      // the detail: full for full plans, public for sandbox, 401 without a key
      const detail = await get(`/v1/artists/${all[0]!.id}`, s.key());
      expect(detail.status).toBe(s.detail);
      if (s.detail === 200) {
        expect(Object.keys(detail.body).sort()).toEqual(s.rows);
        checkSchema(s.rows === FULL_ROW_KEYS ? ArtistSchema : ArtistPublicSchema, detail.body);
        expect(detail.du).toBe("1");
      }
    });
  }

  test("values match the table; the vector has 64 numbers and the photo is the artist's image", async () => {
    const { body } = await get("/v1/artists?limit=1000");
    const byId = new Map(all.map((r) => [r.id, r]));
    for (const r of body.artists) {
      const src = byId.get(r.id)!;
      for (const f of ["uid", "name", "nationality", "birth", "death", "bio", "long_bio", "total_sales", "market_cap", "max_price", "min_price", "artworks_count"]) {
        expect(r[f], `${r.id}.${f}`).toEqual(src[f]);
      }
      expect(r.artist_index_vector).toHaveLength(64);
      if (src.photo_image_id !== null) expect(r.photo_thumbnail_url).toContain(`/images/${src.photo_image_id}/w240.jpg`);
      else expect(r.photo_thumbnail_url).toBeNull();
    }
  });

  test("a public caller may sort by a hidden field but not filter on one (anonymous 401, sandbox 403, no DU)", async () => {
    const sorted = await get("/v1/artists?limit=1000&sort_by=MARKET_CAP", null);
    expect(ids(sorted.body.artists)).toEqual(expectedOrder("MARKET_CAP", "desc"));
    for (const param of [
      "market_cap__gte=1",
      "total_sales__lte=5",
      "max_price__gte=1",
      "artworks_count__gte=1",
      "recent_lots_count__lte=1",
      "total_sales_lots_1yr__gte=1",
      "total_sales_price_median_1yr__gte=1",
      "price_momentum_percentage_12mo__gte=0",
    ]) {
      const anon = await get(`/v1/artists?${param}`, null);
      expect(anon.status, param).toBe(401);
      expect(anon.body.detail).toContain(param.split("=")[0]!);
      const sandbox = await get(`/v1/artists?${param}`, ctx.keys.sandbox);
      expect(sandbox.status, param).toBe(403);
      expect(sandbox.du).toBeNull();
    }
    // the public fields filter as usual
    const ok = await get("/v1/artists?price_momentum_percentage_5y__gte=0&birth__gte=1900&is_living=true&nationality__in=French", ctx.keys.sandbox);
    expect(ok.status).toBe(200);
  });
});

// ---------------------------------------------------------------- include_chart

describe("include_chart", () => {
  test("absent by default and with false; with true a monthly series from 1986-01 that matches the stored points", async () => {
    for (const q of ["", "&include_chart=false"]) {
      const { body } = await get(`/v1/artists?limit=3${q}`);
      for (const r of body.artists) expect("artist_index_chart" in r).toBe(false);
    }
    const { body } = await get("/v1/artists?limit=3&include_chart=true");
    for (const r of body.artists) {
      const chart = r.artist_index_chart as { time: string; value: number }[];
      expect(chart.length).toBeGreaterThan(400);
      expect(chart[0]!.time).toBe("1986-01-01");
      for (let i = 1; i < chart.length; i++) expect(chart[i]!.time > chart[i - 1]!.time).toBe(true);
      for (const p of chart) {
        expect(p.time).toMatch(/^\d{4}-\d{2}-01$/);
        expect(Number.isFinite(p.value)).toBe(true);
      }
      const stored = ctx.deps.market.query("SELECT points FROM artist_charts WHERE artist_id = ?").get(r.id) as { points: Uint8Array };
      const values = unpackSeries(stored.points);
      expect(chart[0]!.value).toBeCloseTo(values[0]!, 1);
      expect(chart.at(-1)!.value).toBeCloseTo(values[values.length - 1]!, 1);
    }
    checkSchema(ArtistListResponse, body);
  });

  test("public callers never get it, even when asking", async () => {
    const { body } = await get("/v1/artists?limit=3&include_chart=true", null);
    for (const r of body.artists) expect(Object.keys(r).sort()).toEqual(PUBLIC_ROW_KEYS);
  });
});

// ---------------------------------------------------------------- validation, 404, entitlement

describe("errors", () => {
  test("422 for bad values, with the spec's detail shape, and no DU", async () => {
    const cases: [string, string, string, unknown][] = [
      ["limit=1001", "limit", "less_than_equal", { le: 1000 }],
      ["limit=0", "limit", "greater_than_equal", { ge: 1 }],
      ["offset=-1", "offset", "greater_than_equal", { ge: 0 }],
      ["sort_by=FOO", "sort_by", "enum", undefined],
      ["sort_dir=up", "sort_dir", "enum", undefined],
      ["sort_by_total_sales=big", "sort_by_total_sales", "enum", undefined],
      ["birth__gte=abc", "birth__gte", "int_parsing", {}],
      ["market_cap__lte=lots", "market_cap__lte", "float_parsing", {}],
      ["is_living=maybe", "is_living", "bool_parsing", {}],
      ["include_chart=2", "include_chart", "bool_parsing", {}],
      ["q=%21%21", "q", "value_error", {}],
    ];
    for (const [qs, name, type, c] of cases) {
      const { status, body, du } = await get(`/v1/artists?${qs}`, ctx.keys.pro);
      expect(status, qs).toBe(422);
      expect(du).toBeNull();
      expect(body.detail.length).toBe(1);
      const d = body.detail[0];
      expect(Object.keys(d).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
      expect(d.loc).toEqual(["query", name]);
      expect(d.type).toBe(type);
      expect(d.input).toBe(decodeURIComponent(qs.split("=")[1]!));
      if (c !== undefined) expect(d.ctx).toEqual(c);
    }
    const many = await get("/v1/artists?limit=1001&sort_by=FOO&birth__gte=abc", null);
    expect(many.status).toBe(422);
    expect(many.body.detail.map((d: Json) => d.loc[1]).sort()).toEqual(["birth__gte", "limit", "sort_by"]);
    expect((await get("/v1/artists/abc")).status).toBe(422);
    expect((await get(`/v1/artists/${all[0]!.id}/chart?resolution=weekly`)).status).toBe(422);
    expect((await get(`/v1/artists/${all[0]!.id}/events?type=Parties`)).status).toBe(422);
    expect((await get(`/v1/artists/${all[0]!.id}/related?limit=101`)).body.detail).toEqual([
      { loc: ["query", "limit"], msg: "Input should be less than or equal to 100", type: "less_than_equal", input: "101", ctx: { le: 100 } },
    ]);
  });

  const SUBPATHS = ["chart", "related", "events", "sales-volume", "sharpe-ratio", "career-path-count", "career-path-lae", "returns-vs-period", "compound-annual-returns"];

  test("404 with {detail} for an unknown artist, on the detail and every sub-resource", async () => {
    for (const p of ["", ...SUBPATHS.map((s) => `/${s}`)]) {
      const { status, body, du } = await get(`/v1/artists/99999999${p}`);
      expect(status, p).toBe(404);
      expect(typeof body.detail).toBe("string");
      expect(du).toBeNull();
    }
  });

  test("sandbox: 403 on stats, chart, related, events and the analytics; no key: 401", async () => {
    const id = all[0]!.id;
    for (const p of ["/v1/artists/stats", ...SUBPATHS.map((s) => `/v1/artists/${id}/${s}`)]) {
      const sb = await get(p, ctx.keys.sandbox);
      expect(sb.status, p).toBe(403);
      expect(typeof sb.body.detail).toBe("string");
      expect(sb.du).toBeNull();
      expect((await get(p, null)).status, p).toBe(401);
      expect((await get(p, ctx.keys.pro)).status, p).toBe(200);
    }
    expect((await get("/v1/artists/followed", null)).status).toBe(401);
  });
});

// ---------------------------------------------------------------- DU

describe("Data Units", () => {
  test("list: 2 + 1 per row, also when a filter leaves fewer rows than the limit", async () => {
    for (const qs of ["limit=1", "limit=7", "limit=250", "id__in=1,2,3&limit=50", "q=zzqqxxnotaname"]) {
      const { body, du } = await get(`/v1/artists?${qs}`, ctx.keys.pro);
      expect(Number(du), qs).toBe(2 + body.artists.length);
    }
  });

  test("followed: 2 + 1 per row, most recently followed first, total and paging", async () => {
    const proUser = userOf("pro");
    const picks = [all[7]!.id, all[8]!.id, all[120]!.id, all[33]!.id];
    const t0 = Date.now();
    // created_at spaced out so the order is unambiguous
    picks.forEach((id, i) => ctx.deps.account.query("INSERT INTO follows (user_id, kind, target_id, created_at) VALUES (?, 'artist', ?, ?)").run(proUser, id, t0 + i * 1000));
    // rows written around the store: its copy of the user's follows is told, as its own writes tell it
    ctx.deps.ledger.counters.touchFollows(proUser);
    const { body, du } = await get("/v1/artists/followed", ctx.keys.pro);
    expect(ids(body.artists)).toEqual([...picks].reverse());
    expect(body.total).toBe(4);
    expect(Number(du)).toBe(2 + 4);
    for (const r of body.artists) expect(r.is_followed).toBe(true);
    checkSchema(ArtistListResponse, body);
    const page = await get("/v1/artists/followed?limit=3&offset=2", ctx.keys.pro);
    expect(ids(page.body.artists)).toEqual([...picks].reverse().slice(2));
    expect(page.body).toMatchObject({ total: 4, limit: 3, offset: 2 });
    expect(Number(page.du)).toBe(2 + 2);
    // sandbox: the public schema, priced the same
    const sb = await get("/v1/artists/followed", ctx.keys.sandbox);
    expect(sb.body).toMatchObject({ artists: [], total: 0 });
    expect(Number(sb.du)).toBe(2);
    ctx.deps.account.query("DELETE FROM follows WHERE user_id = ?").run(proUser);
    ctx.deps.ledger.counters.touchFollows(proUser);
  });

  test("related: 10 + 1 per row; detail 1; chart, stats, events and analytics 10", async () => {
    const id = all[4]!.id;
    for (const n of [1, 5, 20, 100]) {
      const { body, du } = await get(`/v1/artists/${id}/related?limit=${n}`, ctx.keys.pro);
      expect(body.artists.length).toBe(n);
      expect(Number(du)).toBe(10 + n);
    }
    expect((await get(`/v1/artists/${id}/related`, ctx.keys.pro)).body.artists.length).toBe(20);
    expect((await get(`/v1/artists/${id}`, ctx.keys.pro)).du).toBe("1");
    for (const p of ["chart", "events", "sales-volume", "sharpe-ratio", "career-path-count", "career-path-lae", "returns-vs-period", "compound-annual-returns"]) {
      expect((await get(`/v1/artists/${id}/${p}`, ctx.keys.pro)).du, p).toBe("10");
    }
    expect((await get("/v1/artists/stats", ctx.keys.pro)).du).toBe("10");
  });
});

// ---------------------------------------------------------------- related

describe("related", () => {
  const cosine = (a: Float32Array, b: Float32Array) => {
    let d = 0,
      na = 0,
      nb = 0;
    for (let i = 0; i < a.length; i++) {
      d += a[i]! * b[i]!;
      na += a[i]! ** 2;
      nb += b[i]! ** 2;
    }
    return d / Math.sqrt(na * nb);
  };
  test("nearest by cosine of artist_index_vector, best first, self excluded, matching a brute force in the test", async () => {
    const vectors = new Map(sql("SELECT artist_id, vector FROM artist_charts").map((r) => [r.artist_id as number, new Float32Array(new Uint8Array(r.vector).buffer)]));
    for (const id of [all[0]!.id, all[50]!.id, all[199]!.id]) {
      const { body } = await get(`/v1/artists/${id}/related?limit=8`);
      checkSchema(RelatedArtistsResponse, body);
      expect(body.artist_id).toBe(id);
      const got = body.artists as Row[];
      expect(got.map((r) => r.id)).not.toContain(id);
      for (let i = 1; i < got.length; i++) expect(got[i]!.similarity).toBeLessThanOrEqual(got[i - 1]!.similarity);
      const q = vectors.get(id)!;
      const brute = [...vectors]
        .filter(([other]) => other !== id)
        .map(([other, v]) => ({ id: other, s: cosine(q, v) }))
        .sort((a, b) => b.s - a.s || a.id - b.id)
        .slice(0, 8);
      expect(got.map((r) => r.similarity)).toEqual(brute.map((b) => expect.closeTo(b.s, 4)) as never);
      expect(got[0]!.id).toBe(brute[0]!.id);
      for (const r of got) expect(Object.keys(r).sort()).toEqual([...FULL_ROW_KEYS, "similarity"].sort());
    }
  });
});

// ---------------------------------------------------------------- chart

describe("chart", () => {
  test("monthly (default), yearly and daily: service_index series, bands around the value", async () => {
    const id = all.find((r) => r.max_price !== null)!.id;
    const monthly = (await get(`/v1/artists/${id}/chart`)).body;
    checkSchema(ArtistChartResponse, monthly);
    expect(monthly).toMatchObject({ resolution: "monthly", unit: "USD", currency: "USD" });
    expect(monthly.series).toHaveLength(1);
    expect(monthly.series[0].id).toBe("service_index");
    const m = monthly.series[0].data as Row[];
    expect(m.length).toBeGreaterThan(400);
    expect(m[0]!.time).toBe("1986-01-01");
    for (const p of m) {
      expect(p.time).toMatch(/^\d{4}-\d{2}-01$/);
      expect(p.value_low).toBeLessThanOrEqual(p.value);
      expect(p.value_high).toBeGreaterThanOrEqual(p.value);
    }
    const last = m.at(-1)!;
    expect(last.time.slice(0, 7)).toBe(ctx.deps.asOf.slice(0, 7));

    const yearly = (await get(`/v1/artists/${id}/chart?resolution=yearly`)).body;
    checkSchema(ArtistChartResponse, yearly);
    const y = yearly.series[0].data as Row[];
    expect(y.length).toBe(Number(last.time.slice(0, 4)) - 1986 + 1);
    for (const p of y.slice(0, -1)) expect(p.time.slice(5)).toBe("12-01");
    expect(y.at(-1)!.time).toBe(last.time);
    const decMonthly = m.find((p) => p.time === "2000-12-01")!;
    expect(y.find((p) => p.time === "2000-12-01")!.value).toBe(decMonthly.value);

    const daily = (await get(`/v1/artists/${id}/chart?resolution=daily`)).body;
    checkSchema(ArtistChartResponse, daily);
    const d = daily.series[0].data as Row[];
    const start = new Date(`${last.time}T00:00:00Z`);
    start.setUTCMonth(start.getUTCMonth() - 24);
    expect(d[0]!.time).toBe(start.toISOString().slice(0, 10));
    expect(d.at(-1)!.time).toBe(last.time);
    for (let i = 1; i < d.length; i++) expect(Date.parse(d[i]!.time) - Date.parse(d[i - 1]!.time)).toBe(86_400_000);
    // on the first of a month the daily value is the monthly point
    for (const p of d.filter((p) => p.time.endsWith("-01"))) expect(p.value).toBeCloseTo(m.find((q) => q.time === p.time)!.value, 1);
    // between, it lies between the two monthly neighbours
    const mid = d.find((p) => p.time.endsWith("-15"))!;
    const before = m.find((q) => q.time === `${mid.time.slice(0, 8)}01`)!.value;
    const after = m[m.findIndex((q) => q.time === `${mid.time.slice(0, 8)}01`) + 1]!.value;
    expect(mid.value).toBeGreaterThanOrEqual(Math.min(before, after) - 0.01);
    expect(mid.value).toBeLessThanOrEqual(Math.max(before, after) + 0.01);
  });

  test("monthly: each point is the stored index, its band exp(∓Z80 · the stored standard error) around it", async () => {
    for (const a of all.filter((r) => r.max_price !== null).slice(0, 5)) {
      const stored = sql("SELECT points, stderr FROM artist_charts WHERE artist_id = ?", a.id)[0] as { points: Uint8Array; stderr: Uint8Array };
      const values = unpackSeries(stored.points);
      const errs = unpackSeries(stored.stderr);
      const data = (await get(`/v1/artists/${a.id}/chart`)).body.series[0].data as Row[];
      expect(data).toHaveLength(values.length);
      // the level's standard error is positive in every month
      expect(errs.every((e) => e > 0)).toBe(true);
      data.forEach((p, i) => {
        expect(p.value).toBeCloseTo(values[i]!, 2);
        expect(p.value_low).toBeCloseTo(values[i]! * Math.exp(-Z80 * errs[i]!), 1);
        expect(p.value_high).toBeCloseTo(values[i]! * Math.exp(Z80 * errs[i]!), 1);
      });
    }
  });
});

// ---------------------------------------------------------------- events and analytics shapes

describe("events and analytics", () => {
  const sample = () => [0, 1, 2, 10, 25, 60, 120, 199].map((i) => all[i]!.id);

  test("events: visible only, ascending by date, of the asked types", async () => {
    for (const id of sample()) {
      const allEvents = (await get(`/v1/artists/${id}/events`)).body;
      checkSchema(ArtistEventsResponse, allEvents);
      const n = (sql("SELECT count(*) AS n FROM artist_events WHERE artist_id = ? AND visible = 1", id)[0] as { n: number }).n;
      expect(allEvents.events.length).toBe(n);
      const hidden = sql("SELECT id FROM artist_events WHERE artist_id = ? AND visible = 0", id).map((r) => r.id);
      for (const e of allEvents.events) expect(hidden).not.toContain(e.id);
      for (let i = 1; i < allEvents.events.length; i++) expect(allEvents.events[i].date >= allEvents.events[i - 1].date).toBe(true);
      for (const type of EVENT_TYPES) {
        const one = (await get(`/v1/artists/${id}/events?type=${encodeURIComponent(type)}`)).body;
        expect(one.events.every((e: Row) => e.type === type)).toBe(true);
        expect(one.events.length).toBe(allEvents.events.filter((e: Row) => e.type === type).length);
      }
      const two = (await get(`/v1/artists/${id}/events?type=Life%20Events&type=Major%20Sales`)).body;
      expect(two.events.length).toBe(allEvents.events.filter((e: Row) => e.type === "Life Events" || e.type === "Major Sales").length);
    }
    // the market has hidden events at all
    expect((sql("SELECT count(*) AS n FROM artist_events WHERE visible = 0")[0] as { n: number }).n).toBeGreaterThan(0);
  });

  test("sharpe-ratio: horizons 1, 2, 3, 5, 7, 10, each a number or null", async () => {
    let numbers = 0;
    // every artist: a tiny market's artists are thinly traded, and a Sharpe ratio needs a
    // horizon with sales in most of its months
    for (const id of all.map((a) => a.id as number)) {
      const { body } = await get(`/v1/artists/${id}/sharpe-ratio`);
      checkSchema(SharpeRatioResponse, body);
      expect(body.artist_id).toBe(id);
      expect(body.horizons.map((h: Row) => h.horizon_years)).toEqual([1, 2, 3, 5, 7, 10]);
      for (const h of body.horizons) {
        expect(h.sharpe_ratio === null || Number.isFinite(h.sharpe_ratio)).toBe(true);
        if (h.sharpe_ratio !== null) numbers++;
      }
    }
    expect(numbers).toBeGreaterThan(0);
  });

  test("sales-volume: overall item first, arrays aligned with dates", async () => {
    for (const id of sample()) {
      const { body } = await get(`/v1/artists/${id}/sales-volume`);
      checkSchema(SalesVolumeResponse, body);
      expect(body.items[0].category_id).toBeNull();
      for (const item of body.items) {
        for (const k of ["lots_above_estimate", "lots_within_estimate", "lots_below_estimate", "lots_not_sold"]) expect(item[k].length).toBe(item.dates.length);
        expect(item.dates).toEqual(body.items[0].dates);
      }
    }
  });

  test("returns-vs-period: no pair held under 12 months; compound-annual-returns: ascending years", async () => {
    let points = 0;
    for (const id of sample()) {
      const r = (await get(`/v1/artists/${id}/returns-vs-period`)).body;
      checkSchema(ReturnsVsPeriodResponse, r);
      for (const p of r.items) expect(p.period_months).toBeGreaterThanOrEqual(12);
      points += r.items.length;
      const c = (await get(`/v1/artists/${id}/compound-annual-returns`)).body;
      checkSchema(CompoundAnnualReturnsResponse, c);
      for (let i = 1; i < c.items.length; i++) expect(c.items[i].year).toBeGreaterThan(c.items[i - 1].year);
      const sold = new Set(r.items.map((p: Row) => Number(p.sell_date.slice(0, 4))));
      for (const y of c.items) expect(sold.has(y.year)).toBe(true);
    }
    expect(points).toBeGreaterThan(0);
  });

  test("career paths: count and estimate-weighted, same media and years, within birth and death", async () => {
    for (const id of sample()) {
      const count = (await get(`/v1/artists/${id}/career-path-count`)).body;
      const lae = (await get(`/v1/artists/${id}/career-path-lae`)).body;
      checkSchema(CareerPathCountResponse, count);
      checkSchema(CareerPathEstimateResponse, lae);
      expect(count.unit).toBe("artworks");
      expect(lae.unit).toBe("USD");
      const artist = all.find((r) => r.id === id)!;
      for (const item of count.items) {
        for (const p of item.points) {
          expect(Number.isInteger(p.value)).toBe(true);
          if (artist.birth !== null) expect(p.year).toBeGreaterThanOrEqual(artist.birth);
          if (artist.death !== null) expect(p.year).toBeLessThanOrEqual(artist.death);
        }
      }
      expect(lae.items.map((i: Row) => i.medium).sort()).toEqual(count.items.map((i: Row) => i.medium).sort());
    }
  });
});

// ---------------------------------------------------------------- stats

describe("stats", () => {
  test("per field min ≤ p50 ≤ p95 ≤ max, matching SQL; nationality counts sum to the list's total", async () => {
    for (const qs of ["", "is_living=true", "birth__gte=1900&nationality__in=French,German,American", "q=zzqqxxnotaname"]) {
      const { status, body } = await get(`/v1/artists/stats?${qs}`);
      expect(status, qs).toBe(200);
      checkSchema(ArtistStatsResponse, body);
      const list = (await get(`/v1/artists?limit=1000&${qs}`)).body;
      expect(body.total).toBe(list.total);
      expect(body.nationalities.reduce((s: number, n: Row) => s + n.count, 0)).toBe(list.total);
      for (let i = 1; i < body.nationalities.length; i++) expect(body.nationalities[i].count).toBeLessThanOrEqual(body.nationalities[i - 1].count);
      for (const f of [
        "market_cap",
        "total_sales",
        "max_price",
        "min_price",
        "birth",
        "artworks_count",
        "recent_lots_count",
        "total_sales_lots_1yr",
        "total_sales_price_median_1yr",
        "price_momentum_percentage_12mo",
        "price_momentum_percentage_5y",
      ]) {
        const s = body[f];
        const values = list.artists.map((r: Row) => r[f]).filter((v: unknown) => v !== null) as number[];
        if (values.length === 0) {
          expect(s).toEqual({ min: null, max: null, p50: null, p95: null });
          continue;
        }
        expect(s.min, f).toBe(Math.min(...values));
        expect(s.max, f).toBe(Math.max(...values));
        expect(s.p50).toBeGreaterThanOrEqual(s.min);
        expect(s.p95).toBeGreaterThanOrEqual(s.p50);
        expect(s.max).toBeGreaterThanOrEqual(s.p95);
      }
    }
  });
});

// ---------------------------------------------------------------- query plans

describe("query plans of the list (limit 100)", () => {
  // prepare + finalize: a cached EXPLAIN statement stays active and would hold the reader's snapshot
  const explain = (sql: string, params: unknown[]) => {
    const e = ctx.deps.market.prepare(`EXPLAIN QUERY PLAN ${sql}`);
    try {
      return (e.all(...(params as (string | number)[])) as { detail: string }[]).map((r) => r.detail);
    } finally {
      e.finalize();
    }
  };
  const plan = (qs: string, probeRows?: number, which: "page" | "count" = "page") => {
    const q = listSql(ctx.deps.market, parseList(ARTIST_LIST, new URLSearchParams(`limit=100&${qs}`)), ctx.deps.accounts.followedIds(enterpriseUser, "artist"), probeRows);
    return which === "page" ? explain(q.sql, q.params) : explain(q.count, q.params.slice(0, -2));
  };
  const fullScan = (steps: string[]) => steps.some((s) => /^SCAN (a|artists)$/.test(s));

  test("every sort, both directions, walks an index: no full scan, no sort of the table", () => {
    for (const sort of SORT_BY) {
      for (const dir of ["asc", "desc"]) {
        const steps = plan(`sort_by=${sort}&sort_dir=${dir}`);
        expect(fullScan(steps), `${sort} ${dir}: ${steps}`).toBe(false);
        expect(
          steps.some((s) => s.includes("TEMP B-TREE")),
          `${sort} ${dir}: ${steps}`,
        ).toBe(false);
        expect(
          steps.some((s) => /^SCAN a USING (COVERING )?INDEX /.test(s)),
          `${sort} ${dir}: ${steps}`,
        ).toBe(true);
      }
    }
  });

  test("every documented filter: no full scan of artists without an index", () => {
    const filters = [
      "id__in=1,2",
      "uid__in=a,b",
      "is_top=true",
      "is_top=false",
      "nationality__in=French,German",
      "birth__gte=1900",
      "birth__lte=1900",
      "is_living=true",
      "is_living=false",
      "market_cap__gte=1",
      "market_cap__lte=1",
      "total_sales__gte=1",
      "total_sales__lte=1",
      "max_price__gte=1",
      "max_price__lte=1",
      "artworks_count__gte=1",
      "artworks_count__lte=1",
      "recent_lots_count__gte=1",
      "recent_lots_count__lte=1",
      "total_sales_lots_1yr__gte=1",
      "total_sales_lots_1yr__lte=1",
      "total_sales_price_median_1yr__gte=1",
      "total_sales_price_median_1yr__lte=1",
      "price_momentum_percentage_12mo__gte=1",
      "price_momentum_percentage_12mo__lte=1",
      "price_momentum_percentage_5y__gte=1",
      "price_momentum_percentage_5y__lte=1",
      "q=etienne",
      "followed=true",
      "followed=false",
    ];
    // every filter parameter of the grammar is in the list above
    const declared = Object.entries(ARTIST_LIST.fields).flatMap(([f, d]) => d.suffixes.map((s) => f + s));
    for (const p of [...declared, "q", "is_living", "followed"])
      expect(
        filters.some((f) => f.startsWith(`${p}=`)),
        p,
      ).toBe(true);
    for (const f of filters) {
      for (const sort of ["", "&sort_by=NAME"]) {
        // the probes' threshold decides between the filter's range and the sort's index: both ways
        for (const probeRows of [undefined, 2, 1e9]) {
          for (const which of ["page", "count"] as const) {
            const steps = plan(f + sort, probeRows, which);
            expect(fullScan(steps), `${f}${sort} ${probeRows} ${which}: ${steps}`).toBe(false);
          }
        }
      }
    }
  });

  test("the plan chosen per request: the same page and total as SQLite's own plan, whichever index it picks", () => {
    const combos = [
      "nationality__in=French,German&market_cap__gte=1000&sort_by=MOMENTUM_12MO",
      "is_living=true&total_sales__gte=1000&sort_by=TOTAL_SALES",
      "is_living=false&birth__gte=1900&sort_by=MARKET_CAP",
      "price_momentum_percentage_12mo__gte=5&sort_by=MEDIAN_1YR",
      "total_sales__gte=1&sort_by=MOMENTUM_5Y&sort_dir=asc",
      "nationality__in=French&sort_by=NAME",
      "birth__gte=1950&birth__lte=1970&max_price__gte=1000&sort_by=BIRTH&offset=3",
    ];
    const used = new Set<string>();
    for (const c of combos) {
      const q = parseList(ARTIST_LIST, new URLSearchParams(`limit=7&${c}`));
      const run = (sql: string, params: unknown[]) => {
        const e = ctx.deps.market.prepare(sql);
        try {
          return e.all(...(params as (string | number)[])) as { id?: number; n?: number }[];
        } finally {
          e.finalize();
        }
      };
      const strip = (sql: string) => sql.replace(/ INDEXED BY \w+/g, "");
      for (const probeRows of [undefined, 2, 1e9]) {
        const planned = listSql(ctx.deps.market, q, ctx.deps.accounts.followedIds(enterpriseUser, "artist"), probeRows);
        for (const m of `${planned.sql} ${planned.count}`.matchAll(/INDEXED BY (\w+)/g)) used.add(m[1]!);
        const expected = run(strip(planned.sql), planned.params).map((r) => r.id);
        expect({ c, probeRows, ids: run(planned.sql, planned.params).map((r) => r.id) }).toEqual({ c, probeRows, ids: expected });
        const total = run(strip(planned.count), planned.params.slice(0, -2))[0]!.n;
        expect({ c, probeRows, total: planned.total ?? run(planned.count, planned.params.slice(0, -2))[0]!.n }).toEqual({ c, probeRows, total });
      }
    }
    // both kinds of plan were taken: a filter's range and a sort's index
    expect(used.has("artists_nationality_market_cap") && used.has("artists_living_total_sales") && used.has("artists_nationality_name")).toBe(true);
    expect([...used].some((i) => i.endsWith("_nulls_last") || i === "artists_name_nocase")).toBe(true);
  });
});
