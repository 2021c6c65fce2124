/**
 * The artwork endpoints on the tiny market: every filter against a direct count, every sort
 * against an order computed here, pagination, the public and full schemas per caller, image
 * objects, preferred currency, DU per endpoint, shares, the chart band, editions, CAGR, followed
 * and recommended lists, 422 shapes and 404s, and the query plans of the sorts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { artworkUid } from "../../src/db/artwork-uid";
import { ARTWORK_LIST, ARTWORK_SORTS } from "../../src/serve/modules/artworks/fields";
import { CATEGORY_PLAN, categoryPlan, listStatements } from "../../src/serve/modules/artworks/service";
import { keptCategoryCount } from "../../src/serve/modules/artworks/category-counts";
import { ESTIMATE_BANDS_PER_DOUBLING } from "../../src/db/market-indexes/artworks";
import { parseList } from "../../src/serve/query/grammar";
import { createTestContext, type TestContext } from "../helpers/app";
import { Z80 } from "../../src/analytics/index-model";

let ctx: TestContext;

interface Row {
  id: number;
  uid: string;
  artist_id: number;
  title: string;
  category_id: number;
  medium: string;
  creation_year: number | null;
  height_cm: number | null;
  width_cm: number | null;
  depth_cm: number | null;
  size_bucket: string;
  edition_group_id: number | null;
  edition_number: number | null;
  edition_size: number | null;
  image_id: number | null;
  last_lot_status: string;
  date_last_upcoming: string | null;
  date_last_sold: string | null;
  last_hammer_usd: number | null;
  last_premium_usd: number | null;
  estimate_usd: number | null;
  estimate_min_usd: number | null;
  estimate_max_usd: number | null;
  price_momentum_12mo: number | null;
  cagr: number | null;
  artist_market_cap: number;
}

let rows: Row[];
/** A work's served uid (a default one is stored as ''). */
const uidOf = (r: Row) => artworkUid(r.id, r.title, r.uid);
let byId: Map<number, Row>;

beforeAll(async () => {
  ctx = await createTestContext();
  // the stored cents and millionths read back as the API serves them
  rows = ctx.deps.market
    .query(
      `SELECT *, last_hammer_usd_cents / 100.0 AS last_hammer_usd, last_premium_usd_cents / 100.0 AS last_premium_usd,
         price_momentum_12mo_ppm / 1000000.0 AS price_momentum_12mo, price_momentum_24mo_ppm / 1000000.0 AS price_momentum_24mo,
         cagr_ppm / 1000000.0 AS cagr, date(day_last_sold * 86400, 'unixepoch') AS date_last_sold FROM artworks ORDER BY id`,
    )
    .all() as Row[];
  byId = new Map(rows.map((r) => [r.id, r]));
});
afterAll(() => ctx.close());

const sql = <T = any>(text: string, ...params: (string | number | null)[]): T[] => ctx.deps.market.query(text).all(...params) as T[];
const one = <T = any>(text: string, ...params: (string | number | null)[]): T => sql<T>(text, ...params)[0]!;

async function get(path: string, key: string | null | undefined = undefined, init: { method?: string; body?: unknown } = {}) {
  const res = await ctx.call(path, { key, ...init });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, du: res.headers.get("X-Service-DataUnits") };
}

/** Every id a list query returns, paging with limit 1000 (anonymous: unmetered). */
async function allIds(query: string): Promise<{ ids: number[]; total: number }> {
  const ids: number[] = [];
  let total = -1;
  for (let offset = 0; ; offset += 1000) {
    const r = await get(`/v1/artworks?${query}${query ? "&" : ""}limit=1000&offset=${offset}`, null);
    expect(r.status).toBe(200);
    if (total === -1) total = r.body.total_count;
    expect(r.body.total_count).toBe(total);
    ids.push(...r.body.items.map((i: { id: number }) => i.id));
    if (r.body.items.length < 1000) break;
  }
  return { ids, total };
}

const FINANCIAL = [
  "current_estimated_price",
  "current_estimated_price_min",
  "current_estimated_price_max",
  "current_estimated_price_currency",
  "price_momentum_12mo",
  "price_change_12mo",
  "price_momentum_24mo",
  "price_change_24mo",
  "price",
].sort();

// ---------------------------------------------------------------- filters

describe("filters", () => {
  const medium = (r: Row) => ` ${r.medium.toLowerCase().replace(/,/g, " ")} `;
  const upcoming = () =>
    sql<{ artwork_id: number; house_id: number; sale_datetime: string }>(
      "SELECT artwork_id, house_id, strftime('%Y-%m-%dT%H:%M:%SZ', sale_datetime, 'unixepoch') AS sale_datetime FROM lots WHERE status = 'upcoming'",
    );

  /** [query, predicate over the stored row]; the expected rows are computed here, not by the service. */
  const cases: () => [string, (r: Row) => boolean][] = () => {
    const topArtist = one<{ artist_id: number }>("SELECT artist_id FROM artworks GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1").artist_id;
    const houses = one<{ h: string }>("SELECT group_concat(house_id) AS h FROM (SELECT house_id FROM lots WHERE status = 'upcoming' GROUP BY 1 ORDER BY count(*) DESC LIMIT 2)").h;
    const houseSet = new Set(houses.split(",").map(Number));
    const up = upcoming();
    const capMedian = [...rows].map((r) => r.artist_market_cap).sort((a, b) => a - b)[rows.length >> 1]!;
    const someIds = [rows[3]!.id, rows[50]!.id, rows[700]!.id];
    return [
      [`artist_id=${topArtist}`, (r) => r.artist_id === topArtist],
      [`artist_id__in=${topArtist},1,2`, (r) => [topArtist, 1, 2].includes(r.artist_id)],
      ["category_id=1", (r) => r.category_id === 1],
      ["category_id__in=2&category_id__in=5", (r) => r.category_id === 2 || r.category_id === 5],
      ["creation_year__gte=1990&creation_year__lte=2005", (r) => r.creation_year !== null && r.creation_year >= 1990 && r.creation_year <= 2005],
      ["size__in=small,big", (r) => r.size_bucket === "small" || r.size_bucket === "big"],
      ["size__eq=medium", (r) => r.size_bucket === "medium"],
      ["size=other", (r) => r.size_bucket === "other"],
      ["measurements_height_cm__gte=50&measurements_height_cm__lte=120", (r) => r.height_cm !== null && r.height_cm >= 50 && r.height_cm <= 120],
      ["measurements_width_cm__lte=30", (r) => r.width_cm !== null && r.width_cm <= 30],
      ["measurements_depth_cm__gte=10", (r) => r.depth_cm !== null && r.depth_cm >= 10],
      ["materials=oil", (r) => medium(r).includes(" oil ")],
      ["materials=OIL%20on%20Canvas", (r) => medium(r).includes(" oil on canvas ")],
      ["materials__in=bronze,silver_gelatin", (r) => medium(r).includes(" bronze ") || medium(r).includes(" silver gelatin ")],
      ["materials=paper&materials=on", (r) => medium(r).includes(" on ")],
      ["last_lot_status=passed", (r) => r.last_lot_status === "passed"],
      ["last_lot_status__in=upcoming,withdrawn", (r) => r.last_lot_status === "upcoming" || r.last_lot_status === "withdrawn"],
      ["date_last_sold__gte=2020-01-01&date_last_sold__lte=2022-12-31", (r) => r.date_last_sold !== null && r.date_last_sold >= "2020-01-01" && r.date_last_sold <= "2022-12-31"],
      ["date_last_upcoming__gte=2026-12-15", (r) => r.date_last_upcoming !== null && r.date_last_upcoming >= "2026-12-15"],
      ["current_estimated_price__gte=10000&current_estimated_price__lte=50000", (r) => r.estimate_usd !== null && r.estimate_usd >= 10000 && r.estimate_usd <= 50000],
      ["price_momentum_12mo__gte=0.01&price_momentum_12mo__lte=0.5", (r) => r.price_momentum_12mo !== null && r.price_momentum_12mo >= 0.01 && r.price_momentum_12mo <= 0.5],
      ["price_momentum_12mo__lte=-0.01", (r) => r.price_momentum_12mo !== null && r.price_momentum_12mo <= -0.01],
      ["last_hammer_price_usd__gte=20000", (r) => r.last_hammer_usd !== null && r.last_hammer_usd >= 20000],
      ["last_premium_price_usd__lte=10000", (r) => r.last_premium_usd !== null && r.last_premium_usd <= 10000],
      ["without_editions=true", (r) => r.edition_group_id === null],
      ["without_editions=false", () => true],
      ["with_images=true", (r) => r.image_id !== null],
      ["with_images=false", () => true],
      [`sale_auction_house_id__in=${houses}`, (r) => up.some((l) => l.artwork_id === r.id && houseSet.has(l.house_id))],
      [
        "sale_start_datetime__gte=2026-12-10T00:00:00Z&sale_start_datetime__lte=2027-01-05",
        (r) => up.some((l) => l.artwork_id === r.id && l.sale_datetime >= "2026-12-10T00:00:00Z" && l.sale_datetime <= "2027-01-05T00:00:00Z"),
      ],
      [
        `sale_auction_house_id__in=${houses}&sale_start_datetime__lte=2026-12-31T23:59:59`,
        (r) => up.some((l) => l.artwork_id === r.id && houseSet.has(l.house_id) && l.sale_datetime <= "2026-12-31T23:59:59Z"),
      ],
      [`market_cap__gte=${capMedian}`, (r) => r.artist_market_cap >= capMedian],
      [`id__in=${someIds.join(",")}`, (r) => someIds.includes(r.id)],
      // a default uid (stored as '' and made on read) and two more, one of them naming no work
      [`uid=${encodeURIComponent(uidOf(rows[10]!))}`, (r) => r.id === rows[10]!.id],
      [`uid__in=${[rows[3]!, rows[7]!].map(uidOf).join(",")},aw-${rows[5]!.id.toString(36)}-not-its-title`, (r) => r.id === rows[3]!.id || r.id === rows[7]!.id],
      ["category_id=1&size__in=big&without_editions=true", (r) => r.category_id === 1 && r.size_bucket === "big" && r.edition_group_id === null],
    ];
  };

  test("each filter returns exactly the rows that satisfy it; total_count is their count", async () => {
    for (const [query, pred] of cases()) {
      const expected = rows.filter(pred).map((r) => r.id);
      const { ids, total } = await allIds(query);
      expect({ query, total }).toEqual({ query, total: expected.length });
      expect({ query, ids }).toEqual({ query, ids: expected });
      const trivial = ["without_editions=false", "with_images=true", "with_images=false"].includes(query);
      if (!trivial) expect({ query, nontrivial: expected.length > 0 && expected.length < rows.length }).toEqual({ query, nontrivial: true });
    }
  });

  test("total_count matches a direct SQL count", async () => {
    const direct: [string, string, (string | number)[]][] = [
      ["category_id=1&creation_year__gte=1990", "category_id = ? AND creation_year >= ?", [1, 1990]],
      ["size__in=small,medium&with_images=true", "size_bucket IN ('small', 'medium') AND image_id IS NOT NULL", []],
      ["current_estimated_price__gte=25000", "estimate_usd >= ?", [25000]],
      ["materials=canvas", "(' ' || lower(medium) || ' ') LIKE '% canvas %'", []],
      ["date_last_sold__lte=2010-06-30&last_lot_status=sold", "date(day_last_sold * 86400, 'unixepoch') <= ? AND last_lot_status = 'sold'", ["2010-06-30"]],
      [
        "sale_start_datetime__gte=2026-01-01",
        "EXISTS (SELECT 1 FROM lots l WHERE l.artwork_id = artworks.id AND l.status = 'upcoming' AND l.sale_datetime >= unixepoch(?))",
        ["2026-01-01"],
      ],
    ];
    for (const [query, where, params] of direct) {
      const n = one<{ n: number }>(`SELECT count(*) AS n FROM artworks WHERE ${where}`, ...params).n;
      const r = await get(`/v1/artworks?${query}&limit=1`, null);
      expect({ query, total: r.body.total_count }).toEqual({ query, total: n });
    }
  });

  test("the returned fields satisfy the filters (full schema)", async () => {
    const r = await get("/v1/artworks?price_momentum_12mo__gte=0.01&current_estimated_price__lte=30000&size__in=small&category_id=2&limit=100");
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeGreaterThan(0);
    for (const a of r.body.items) {
      expect(a.price_momentum_12mo).toBeGreaterThanOrEqual(0.01);
      expect(a.current_estimated_price).toBeLessThanOrEqual(30000);
      expect(a.description.measurements.size).toBe("small");
      expect(a.description.category_id).toBe(2);
    }
  });
});

// ---------------------------------------------------------------- sorts and pages

describe("sorts", () => {
  const nocase = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const size = (r: Row) => {
    const m = Math.max(r.height_cm ?? 0, r.width_cm ?? 0, r.depth_cm ?? 0);
    return m === 0 ? null : m;
  };
  const keys: Record<string, (r: Row) => string | number | null> = {
    NAME: (r) => nocase(r.title),
    CREATION_YEAR: (r) => r.creation_year,
    SALE_DATE: (r) => r.date_last_sold,
    SIZE: size,
  };
  function expectedOrder(key: (r: Row) => string | number | null, dir: "ASC" | "DESC", subset = rows): number[] {
    const s = dir === "ASC" ? 1 : -1;
    return [...subset]
      .sort((a, b) => {
        const x = key(a);
        const y = key(b);
        if (x === null && y !== null) return 1;
        if (y === null && x !== null) return -1;
        if (x !== null && y !== null && x !== y) return (x < y ? -1 : 1) * s;
        return (a.id - b.id) * s;
      })
      .map((r) => r.id);
  }

  test("every sort value is covered here", () => {
    expect(Object.keys(ARTWORK_SORTS).sort()).toEqual(
      Object.keys(keys)
        .flatMap((k) => [`${k}_ASC`, `${k}_DESC`])
        .sort(),
    );
  });

  for (const field of ["NAME", "CREATION_YEAR", "SALE_DATE", "SIZE"]) {
    for (const dir of ["ASC", "DESC"] as const) {
      test(`sort=${field}_${dir}: the order, NULLs last, id tiebreak, over all pages`, async () => {
        const { ids, total } = await allIds(`sort=${field}_${dir}`);
        expect(total).toBe(rows.length);
        expect(ids).toEqual(expectedOrder(keys[field]!, dir));
      });
    }
  }

  for (const dir of ["asc", "desc"] as const) {
    test(`sort_by_price=${dir}: by estimate, NULLs last, wins over sort`, async () => {
      const expected = expectedOrder((r) => r.estimate_usd, dir === "asc" ? "ASC" : "DESC");
      expect((await allIds(`sort_by_price=${dir}`)).ids).toEqual(expected);
      expect((await allIds(`sort_by_price=${dir}&sort=NAME_ASC`)).ids).toEqual(expected);
    });
  }

  test("a sort with a filter orders the filtered rows", async () => {
    const subset = rows.filter((r) => r.category_id === 1);
    expect((await allIds("category_id=1&sort=SIZE_DESC")).ids).toEqual(expectedOrder(size, "DESC", subset));
  });

  test("no sort: by id", async () => {
    expect((await allIds("")).ids).toEqual(rows.map((r) => r.id));
  });

  test("pages of 7 put together are the whole list, total_count the same on every page", async () => {
    const query = "category_id=2&sort=CREATION_YEAR_DESC";
    const whole = (await allIds(query)).ids;
    const paged: number[] = [];
    for (let offset = 0; offset < whole.length + 7; offset += 7) {
      const r = await get(`/v1/artworks?${query}&limit=7&offset=${offset}`, null);
      expect(r.body.total_count).toBe(whole.length);
      expect(r.body.limit).toBe(7);
      expect(r.body.offset).toBe(offset);
      expect(r.body.items.length).toBe(Math.max(0, Math.min(7, whole.length - offset)));
      paged.push(...r.body.items.map((i: { id: number }) => i.id));
    }
    expect(paged).toEqual(whole);
  });

  test("limit defaults to 20 and allows 1000; 1001 is 422", async () => {
    const d = await get("/v1/artworks", null);
    expect(d.body.items.length).toBe(20);
    expect(d.body.limit).toBe(20);
    expect((await get("/v1/artworks?limit=1000", null)).body.items.length).toBe(1000);
    const r = await get("/v1/artworks?limit=1001", null);
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ["query", "limit"], type: "less_than_equal", ctx: { le: 1000 } });
  });
});

describe("query plans", () => {
  /** The plan of the statement the list runs: the category's own plan when it has one, else SQLite's. */
  const plan = (query: string, which: "page" | "count" = "page") => {
    const q = parseList(ARTWORK_LIST, new URLSearchParams(query));
    const stmt = (categoryPlan(ctx.deps.market, q) ?? listStatements(q))[which];
    // prepare + finalize: a cached EXPLAIN statement stays active after .all() in bun:sqlite and
    // would hold the reader's snapshot (later follows and shares would not be seen)
    const explain = ctx.deps.market.prepare(`EXPLAIN QUERY PLAN ${stmt.sql}`);
    try {
      return (explain.all(...(stmt.params as (string | number)[])) as { detail: string }[]).map((r) => r.detail);
    } finally {
      explain.finalize();
    }
  };
  const sorts = [...Object.keys(ARTWORK_SORTS).map((s) => `sort=${s}`), "sort_by_price=asc", "sort_by_price=desc", ""];

  test("every sort reads its order from an index: no temp b-tree", () => {
    for (const s of sorts) {
      const p = plan(`${s}&limit=20`);
      expect({ s, p, temp: p.some((d) => d.includes("TEMP B-TREE")) }).toEqual({ s, p, temp: false });
    }
  });

  // The category indexes carry creation_year and estimate_usd after their sort key, so ties of the
  // key are put in id order by a sort of each group of equal keys ("LAST TERM"), never of the list.
  const wholeSort = (p: string[]) => p.some((d) => d.includes("USE TEMP B-TREE FOR ORDER BY"));

  test("category_id = ? with every sort (and the default order): no sort of the category", () => {
    for (const s of sorts) {
      const p = plan(`category_id=1&${s}&limit=20`);
      expect({ s, p, temp: wholeSort(p) }).toEqual({ s, p, temp: false });
    }
  });

  describe("the plan chosen per request within one category", () => {
    const explain = (stmt: { sql: string; params: unknown[] }) => {
      const e = ctx.deps.market.prepare(`EXPLAIN QUERY PLAN ${stmt.sql}`);
      try {
        return (e.all(...(stmt.params as (string | number)[])) as { detail: string }[]).map((r) => r.detail);
      } finally {
        e.finalize();
      }
    };
    const exact = (query: string) => {
      const q = parseList(ARTWORK_LIST, new URLSearchParams(query));
      const { count } = listStatements(q);
      const e = ctx.deps.market.prepare(count.sql);
      try {
        return (e.get(...(count.params as (string | number)[])) as { n: number }).n;
      } finally {
        e.finalize();
      }
    };
    const filters = [
      "",
      "&creation_year__gte=1950&creation_year__lte=2000",
      "&current_estimated_price__gte=10000",
      "&creation_year__gte=1900&current_estimated_price__gte=5000&current_estimated_price__lte=500000",
      "&creation_year__lte=1990&size=small",
      "&materials=oil&current_estimated_price__gte=1000",
    ];
    // tiny thresholds reach both branches (probe ended / not, page from the range / the sort's index)
    const settings = [CATEGORY_PLAN, { probeRows: 3, rowCost: 30 }, { probeRows: 3, rowCost: 0.001 }, { probeRows: 10_000, rowCost: 1e9 }];

    test("every sort with the covered filters: exact count, the page from a category index, never a whole scan or sort", () => {
      const drivers = new Set<string>();
      for (const category of [1, 2]) {
        for (const f of filters) {
          for (const s of sorts) {
            for (const limits of settings) {
              const query = `category_id=${category}${f}&${s}&limit=5`;
              const planned = categoryPlan(ctx.deps.market, parseList(ARTWORK_LIST, new URLSearchParams(query)), limits)!;
              expect(planned).not.toBeNull();
              drivers.add(planned.driver);
              expect({ query, total: planned.total }).toEqual({ query, total: exact(query) });
              for (const stmt of [planned.page, planned.count]) {
                const p = explain(stmt);
                expect({
                  query,
                  p,
                  ok:
                    p.every((d) => !/^SCAN a\b(?! USING)/.test(d)) && p.some((d) => /USING (COVERING )?INDEX (artworks_category\w*|artworks_title_nocase|artworks_size)\b/.test(d)),
                }).toEqual({ query, p, ok: true });
                if (planned.driver === "sort" && stmt === planned.page) expect({ query, p, whole: wholeSort(p) }).toEqual({ query, p, whole: false });
              }
            }
          }
        }
      }
      expect([...drivers].sort()).toEqual(["filter", "sort"]);
    });

    test("the page it plans is the page SQLite's own plan gives", () => {
      for (const f of filters) {
        for (const s of sorts) {
          for (const limits of settings) {
            const query = `category_id=1${f}&${s}&limit=7&offset=3`;
            const q = parseList(ARTWORK_LIST, new URLSearchParams(query));
            const run = (stmt: { sql: string; params: unknown[] }) => {
              const e = ctx.deps.market.prepare(stmt.sql);
              try {
                return (e.all(...(stmt.params as (string | number)[])) as { id: number }[]).map((r) => r.id);
              } finally {
                e.finalize();
              }
            };
            expect({ query, ids: run(categoryPlan(ctx.deps.market, q, limits)!.page) }).toEqual({ query, ids: run(listStatements(q).page) });
          }
        }
      }
    });

    test("a year range with or without an estimate range: the kept counts equal a count of the works, at the bands' edges too", () => {
      const db = ctx.deps.market;
      const values = (sql: string, ...p: number[]) => (db.query(sql).all(...p) as { v: number }[]).map((r) => r.v);
      let nonzero = 0;
      for (const category of values("SELECT DISTINCT category_id AS v FROM artworks ORDER BY 1")) {
        const estimates = values("SELECT DISTINCT estimate_usd AS v FROM artworks WHERE category_id = ? AND estimate_usd IS NOT NULL ORDER BY 1", category);
        const years = values("SELECT DISTINCT creation_year AS v FROM artworks WHERE category_id = ? AND creation_year IS NOT NULL ORDER BY 1", category);
        const at = (xs: number[], f: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * f))]!;
        // a work's own estimate (inclusive bounds), a band's lower edge exactly (2^(b/4)), just
        // above and below it, zero, and a value past every estimate
        const edge = 2 ** (Math.floor(Math.log2(at(estimates, 0.5)) * ESTIMATE_BANDS_PER_DOUBLING) / ESTIMATE_BANDS_PER_DOUBLING);
        const bounds = [at(estimates, 0.2), at(estimates, 0.5), at(estimates, 0.8), edge, edge * (1 + 1e-12), edge * (1 - 1e-12), 0, 1e12];
        const yearRanges = [
          `creation_year__gte=${at(years, 0.3)}&creation_year__lte=${at(years, 0.6)}`,
          `creation_year__gte=${at(years, 0.5)}`,
          `creation_year__lte=${at(years, 0.5)}`,
          `creation_year__gte=${at(years, 0.4)}&creation_year__lte=${at(years, 0.4)}`,
          `creation_year__gte=${at(years, 0.9)}&creation_year__lte=${at(years, 0.1)}`,
        ];
        for (const y of yearRanges) {
          const queries = [y, ...bounds.map((b) => `${y}&current_estimated_price__gte=${b}`), ...bounds.map((b) => `${y}&current_estimated_price__lte=${b}`)];
          for (const [lo, hi] of [
            [bounds[0]!, bounds[2]!],
            [edge, edge * 1.1],
            [bounds[1]!, bounds[1]!],
            [bounds[2]!, bounds[0]!],
          ])
            queries.push(`${y}&current_estimated_price__gte=${lo}&current_estimated_price__lte=${hi}`);
          for (const qs of queries) {
            const q = parseList(ARTWORK_LIST, new URLSearchParams(`category_id=${category}&${qs}`));
            const kept = keptCategoryCount(db, category, q.filters, true);
            const n = exact(`category_id=${category}&${qs}`);
            if (n > 0) nonzero++;
            expect({ category, qs, kept }).toEqual({ category, qs, kept: n });
          }
        }
      }
      expect(nonzero).toBeGreaterThan(50);
      // what it does not answer: no year range, another filter, or a market without the table
      const of = (qs: string, has = true) => keptCategoryCount(db, 1, parseList(ARTWORK_LIST, new URLSearchParams(`category_id=1&${qs}`)).filters, has);
      expect([of("current_estimated_price__gte=1000"), of("creation_year__gte=1900&size=small"), of("creation_year__gte=1900", false)]).toEqual([null, null, null]);
    });

    test("other filters (artist, ids, indexed ranges, upcoming sales) and several categories leave the plan to SQLite", () => {
      for (const f of ["artist_id=62&category_id=1", "category_id__in=1,2", "category_id=1&date_last_sold__gte=2020-01-01", "category_id=1&sale_auction_house_id__in=1"]) {
        expect(categoryPlan(ctx.deps.market, parseList(ARTWORK_LIST, new URLSearchParams(f)))).toBeNull();
      }
    });
  });

  test("with the main filters: never a temp b-tree over a full scan of artworks", () => {
    const filters = [
      "artist_id=62",
      "category_id=1",
      "category_id__in=1,2",
      "creation_year__gte=1990",
      "size__in=small,big",
      "current_estimated_price__gte=10000",
      "price_momentum_12mo__gte=0.01",
      "date_last_sold__gte=2020-01-01",
      "last_lot_status=sold",
      "materials=oil",
      "with_images=true",
      "without_editions=true",
      "market_cap__gte=1000000",
      "sale_auction_house_id__in=1,2",
      "sale_start_datetime__gte=2026-12-01",
    ];
    for (const f of filters) {
      for (const s of sorts) {
        const p = plan(`${f}&${s}&limit=20`);
        const temp = p.some((d) => d.includes("USE TEMP B-TREE FOR ORDER BY"));
        const fullScan = p.some((d) => /^SCAN a\b/.test(d));
        expect({ f, s, p, tempOverFullScan: temp && fullScan }).toEqual({ f, s, p, tempOverFullScan: false });
      }
    }
  });

  test("the upcoming-sale filters drive from the partial index of upcoming lots", () => {
    for (const f of ["sale_auction_house_id__in=1,2", "sale_start_datetime__gte=2026-12-01"]) {
      expect(plan(f, "count").join(" | ")).toContain("artworks_upcoming_lots");
    }
  });
});

// ---------------------------------------------------------------- schemas per caller

describe("schemas", () => {
  const scenarios = [
    { who: "anonymous", key: () => null, schema: "public", du: null, blur: true },
    { who: "sandbox", key: () => ctx.keys.sandbox, schema: "public", du: "3.5", blur: false },
    { who: "pro", key: () => ctx.keys.pro, schema: "full", du: "3.5", blur: false },
    { who: "enterprise", key: () => ctx.keys.enterprise, schema: "full", du: "3.5", blur: false },
  ] as const;

  for (const s of scenarios) {
    test(`${s.who}: ${s.schema} schema on list and detail, DU ${s.du ?? "none"}`, async () => {
      const full = await get("/v1/artworks?limit=1", ctx.keys.enterprise);
      const r = await get("/v1/artworks?limit=1", s.key());
      expect(r.status).toBe(200);
      expect(r.du).toBe(s.du);
      const item = r.body.items[0];
      const fullItem = full.body.items[0];
      const missing = Object.keys(fullItem)
        .filter((k) => !(k in item))
        .sort();
      expect(missing).toEqual(s.schema === "public" ? [...FINANCIAL, "is_followed"].sort() : []);
      expect(Object.keys(item).filter((k) => !(k in fullItem))).toEqual([]);
      expect(item.description.image.urls.w240.includes("-blur")).toBe(s.blur);
      // the detail needs a key, like every endpoint outside the four lists and the shared ones
      const d = await get(`/v1/artworks/${item.id}`, s.key());
      expect(d.status).toBe(s.du === null ? 401 : 200);
      if (s.du !== null) {
        expect(d.du).toBe("1");
        expect(Object.keys(d.body).sort()).toEqual(Object.keys(item).sort());
      }
      // preferred_currency adds nothing to the public schema
      const p = await get("/v1/artworks?limit=1&preferred_currency=EUR", s.key());
      expect(Object.keys(p.body.items[0]).some((k) => k.endsWith("_preferred"))).toBe(s.schema === "full");
    });
  }

  test("full schema: the fields of the stored row, edition type, price of the most recent lot", async () => {
    const edition = rows.find((r) => r.edition_group_id !== null && r.last_lot_status === "sold")!;
    const r = await get(`/v1/artworks/${edition.id}`);
    const a = r.body;
    expect(a.current_estimated_price).toBe(edition.estimate_usd);
    expect(a.current_estimated_price_min).toBe(edition.estimate_min_usd);
    expect(a.current_estimated_price_max).toBe(edition.estimate_max_usd);
    expect(a.current_estimated_price_currency).toBe("USD");
    // the slug: the title's words in lower case joined by "-", then the id in base 36
    expect(a.slug).toBe(
      `${
        edition.title
          .toLowerCase()
          .normalize("NFKD")
          .replace(/[\u0300-\u036f]/g, "")
          .replace(/[^a-z0-9]+/g, "-")
          .replace(/^-|-$/g, "") || "untitled"
      }-${edition.id.toString(36)}`,
    );
    expect(a.slug.endsWith(`-${edition.id.toString(36)}`)).toBe(true);
    // the uid of a work generated without one: "aw-", the id in base 36, the title's slug (stored as '')
    expect(edition.uid).toBe("");
    expect(a.uid).toBe(`aw-${edition.id.toString(36)}-${a.slug.slice(0, -edition.id.toString(36).length - 1).slice(0, 40)}`);
    expect(a.description.edition).toEqual({
      edition_group_id: edition.edition_group_id,
      edition_number: edition.edition_number,
      edition_size: edition.edition_size,
      edition_unique_type: "edition",
    });
    expect(a.description.artist).toEqual({ id: edition.artist_id, name: one<{ name: string }>("SELECT name FROM artists WHERE id = ?", edition.artist_id).name });
    const last = one<any>("SELECT * FROM lots WHERE artwork_id = ? ORDER BY sale_datetime DESC, id DESC LIMIT 1", edition.id);
    const usd = (cents: number | null) => (cents === null ? null : cents / 100);
    expect(a.price).toMatchObject({ currency: last.currency, hammer: last.hammer, hammer_usd: usd(last.hammer_usd_cents), premium_usd: usd(last.premium_usd_cents) });
    expect(a.currency).toBe(last.currency);
    const unique = rows.find((x) => x.edition_group_id === null)!;
    expect((await get(`/v1/artworks/${unique.id}`)).body.description.edition.edition_unique_type).toBe("unique");
  });

  test("image object: exactly the five widths, signed URLs that verify, retired fields null", async () => {
    for (const key of [ctx.keys.pro, null]) {
      const r = await get("/v1/artworks?limit=3", key);
      for (const a of r.body.items) {
        const img = a.description.image;
        expect(Object.keys(img).sort()).toEqual(["id", "large_url", "medium_url", "thumbnail_url", "urls"]);
        expect(img.id).toBe(byId.get(a.id)!.image_id);
        expect(Object.keys(img.urls)).toEqual(["w240", "w480", "w768", "w1200", "w1920"]);
        for (const [w, url] of Object.entries(img.urls as Record<string, string>)) {
          const u = new URL(url);
          expect(u.pathname).toBe(`/images/${img.id}/${w}${key ? "" : "-blur"}.jpg`);
          expect(ctx.deps.signer.verify(u.pathname, u.searchParams.get("exp"), u.searchParams.get("sig"))).toBe(true);
          expect(ctx.deps.signer.verify(u.pathname.replace(w, "w1920x"), u.searchParams.get("exp"), u.searchParams.get("sig"))).toBe(false);
        }
        expect([img.large_url, img.medium_url, img.thumbnail_url]).toEqual([null, null, null]);
      }
    }
  });

  test("preferred_currency: *_preferred = USD / the reference rate (sale day for prices, as-of date for estimates)", async () => {
    const rate = (code: string, day: string) =>
      one<{ r: number }>("SELECT usd_per_unit AS r FROM fx_rates WHERE code = ? AND day <= ? ORDER BY day DESC LIMIT 1", code, day.slice(0, 10)).r;
    const sold = rows.find((r) => r.last_lot_status === "sold" && r.estimate_usd !== null)!;
    const r = await get(`/v1/artworks/${sold.id}?preferred_currency=GBP`);
    const a = r.body;
    const last = one<any>(
      "SELECT *, strftime('%Y-%m-%dT%H:%M:%SZ', sale_datetime, 'unixepoch') AS sale_datetime FROM lots WHERE artwork_id = ? ORDER BY lots.sale_datetime DESC, id DESC LIMIT 1",
      sold.id,
    );
    const saleRate = rate("GBP", last.sale_datetime);
    expect(a.price.preferred_currency).toBe("GBP");
    expect(a.price.hammer_preferred).toBeCloseTo(last.hammer_usd_cents / 100 / saleRate, 2);
    expect(a.price.premium_preferred).toBeCloseTo(last.premium_usd_cents / 100 / saleRate, 2);
    const asOfRate = rate("GBP", ctx.deps.asOf);
    expect(a.preferred_currency).toBe("GBP");
    expect(a.current_estimated_price_preferred).toBeCloseTo(sold.estimate_usd! / asOfRate, 2);
    expect(a.current_estimated_price_min_preferred).toBeCloseTo(sold.estimate_min_usd! / asOfRate, 2);
    expect(a.current_estimated_price_max_preferred).toBeCloseTo(sold.estimate_max_usd! / asOfRate, 2);
    expect(a.current_estimated_price).toBe(sold.estimate_usd);
    // USD as preferred: the same numbers
    const usd = (await get(`/v1/artworks/${sold.id}?preferred_currency=USD`)).body;
    expect(usd.current_estimated_price_preferred).toBe(sold.estimate_usd);
    // without it: no *_preferred anywhere
    const plain = (await get(`/v1/artworks/${sold.id}`)).body;
    expect(JSON.stringify(plain)).not.toContain("_preferred");
    expect((await get("/v1/artworks?preferred_currency=XYZ")).status).toBe(422);
  });
});

// ---------------------------------------------------------------- DU

describe("DU", () => {
  test("list: 2 + 1.5 per item; detail 1; chart and cagr 10; editions 2 + 1.5 per copy", async () => {
    for (const n of [1, 7, 20]) expect((await get(`/v1/artworks?limit=${n}`, ctx.keys.pro)).du).toBe(String(2 + 1.5 * n));
    expect((await get("/v1/artworks?limit=500", ctx.keys.enterprise)).du).toBe("752");
    expect((await get("/v1/artworks?artist_id=999999", ctx.keys.pro)).du).toBe("2");
    expect((await get(`/v1/artworks/${rows[0]!.id}`, ctx.keys.pro)).du).toBe("1");
    expect((await get(`/v1/artworks/${rows[0]!.id}/chart`, ctx.keys.pro)).du).toBe("10");
    expect((await get(`/v1/artworks/${rows[0]!.id}/cagr`, ctx.keys.pro)).du).toBe("10");
    const group = one<{ g: number; n: number }>(
      "SELECT edition_group_id AS g, count(*) AS n FROM artworks WHERE edition_group_id IS NOT NULL GROUP BY 1 HAVING n > 1 ORDER BY n DESC LIMIT 1",
    );
    const member = rows.find((r) => r.edition_group_id === group.g)!;
    const e = await get(`/v1/artworks/${member.id}/editions`, ctx.keys.pro);
    expect(e.body.editions.length).toBe(group.n);
    expect(e.du).toBe(String(2 + 1.5 * group.n));
  });

  test("errors cost nothing and carry no DU header", async () => {
    const rows = () => (ctx.deps.account.query("SELECT count(*) AS n FROM du_ledger").get() as { n: number }).n;
    const before = rows();
    expect((await get("/v1/artworks/999999999", ctx.keys.pro)).du).toBeNull();
    expect((await get("/v1/artworks?sort=FOO", ctx.keys.pro)).du).toBeNull();
    ctx.deps.ledger.flush();
    expect(rows()).toBe(before);
  });
});

// ---------------------------------------------------------------- 422 and 404

describe("validation and 404", () => {
  test("422 shapes for bad filters", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["price_momentum_12mo__gte=2", { loc: ["query", "price_momentum_12mo__gte"], type: "less_than_equal", input: "2", ctx: { le: 1 } }],
      ["price_momentum_12mo__lte=-1.5", { loc: ["query", "price_momentum_12mo__lte"], type: "greater_than_equal", input: "-1.5", ctx: { ge: -1 } }],
      ["sort=FOO", { loc: ["query", "sort"], type: "enum", input: "FOO" }],
      ["size__in=small,huge", { loc: ["query", "size__in", 1], type: "enum", input: "huge" }],
      ["size__eq=huge", { loc: ["query", "size__eq"], type: "enum", input: "huge" }],
      ["limit=0", { loc: ["query", "limit"], type: "greater_than_equal", input: "0", ctx: { ge: 1 } }],
      ["offset=-1", { loc: ["query", "offset"], type: "greater_than_equal", input: "-1" }],
      ["sort_by_price=up", { loc: ["query", "sort_by_price"], type: "enum", input: "up" }],
      ["date_last_sold__gte=2020-13-01", { loc: ["query", "date_last_sold__gte"], type: "date_parsing" }],
      ["sale_start_datetime__gte=tomorrow", { loc: ["query", "sale_start_datetime__gte"], type: "datetime_parsing" }],
      ["artist_id=abc", { loc: ["query", "artist_id"], type: "int_parsing" }],
      ["last_hammer_price_usd__gte=1.5", { loc: ["query", "last_hammer_price_usd__gte"], type: "int_parsing" }],
      ["without_editions=maybe", { loc: ["query", "without_editions"], type: "bool_parsing" }],
      ["last_lot_status=lost", { loc: ["query", "last_lot_status"], type: "enum" }],
    ];
    for (const [query, issue] of cases) {
      const r = await get(`/v1/artworks?${query}`, null);
      expect({ query, status: r.status }).toEqual({ query, status: 422 });
      expect(r.body.detail).toHaveLength(1);
      expect(r.body.detail[0]).toMatchObject(issue);
      expect(Object.keys(r.body.detail[0]).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
    }
    const many = await get("/v1/artworks?price_momentum_12mo__gte=2&sort=FOO&size__in=huge&limit=0", null);
    expect(many.body.detail.map((d: { loc: unknown[] }) => d.loc[1]).sort()).toEqual(["limit", "price_momentum_12mo__gte", "size__in", "sort"]);
  });

  test("404s: unknown artwork on every per-artwork endpoint, CAGR without prediction; 422 for a bad id", async () => {
    for (const p of ["", "/chart", "/editions", "/cagr"]) {
      const r = await get(`/v1/artworks/999999999${p}`);
      expect({ p, status: r.status }).toEqual({ p, status: 404 });
      expect(r.body).toEqual({ detail: expect.any(String) });
      expect((await get(`/v1/artworks/abc${p}`)).status).toBe(422);
    }
    const noEstimate = rows.find((r) => r.estimate_usd === null)!;
    expect(noEstimate).toBeDefined();
    const r = await get(`/v1/artworks/${noEstimate.id}/cagr`);
    expect(r.status).toBe(404);
    expect(r.body.detail).toContain("no price prediction");
    expect((await get(`/v1/artworks/${noEstimate.id}`)).body.current_estimated_price).toBeNull();
    const chart = await get(`/v1/artworks/${noEstimate.id}/chart`);
    expect(chart.status).toBe(200);
    expect(chart.body.series[1].data).toEqual([]);
  });

  test("analytics entitlement: sandbox 403 on chart and cagr, 401 without key", async () => {
    for (const p of ["/chart", "/cagr"]) {
      expect((await get(`/v1/artworks/${rows[0]!.id}${p}`, ctx.keys.sandbox)).status).toBe(403);
      expect((await get(`/v1/artworks/${rows[0]!.id}${p}`, null)).status).toBe(401);
    }
    for (const p of ["/v1/artworks/followed", "/v1/artworks/recommended", `/v1/artworks/${rows[0]!.id}/editions`]) {
      expect((await get(p, null)).status).toBe(401);
    }
  });
});

// ---------------------------------------------------------------- chart, editions, cagr

describe("chart", () => {
  test("hammer prices of the sold lots and a widening 12-month band from the stored 80 % band", async () => {
    const a = rows.find((r) => r.estimate_usd !== null && r.last_lot_status === "sold")!;
    const r = await get(`/v1/artworks/${a.id}/chart`);
    expect(r.status).toBe(200);
    const c = r.body;
    expect(c).toMatchObject({ resolution: "monthly", unit: "USD", currency: "USD" });
    expect(c.series.map((s: { id: string }) => s.id)).toEqual(["hammer_prices", "estimate", "estimate_history"]);
    // a seeded market has no history: the estimate as served since its as-of date
    const round2 = (v: number) => Math.round(v * 100) / 100;
    expect(c.series[2].data).toEqual([{ time: ctx.deps.asOf, value: round2(a.estimate_usd!), value_low: round2(a.estimate_min_usd!), value_high: round2(a.estimate_max_usd!) }]);
    const sold = sql<{ sale_datetime: string; hammer_usd: number }>(
      "SELECT strftime('%Y-%m-%dT%H:%M:%SZ', sale_datetime, 'unixepoch') AS sale_datetime, hammer_usd_cents / 100.0 AS hammer_usd FROM lots WHERE artwork_id = ? AND status = 'sold' ORDER BY lots.sale_datetime, id",
      a.id,
    );
    expect(c.series[0].data).toEqual(sold.map((l) => ({ time: l.sale_datetime.slice(0, 10), value: l.hammer_usd })));
    const band = c.series[1].data;
    expect(band).toHaveLength(12);
    const sigma0 = Math.log(a.estimate_max_usd! / a.estimate_min_usd!) / (2 * Z80);
    let width = 0;
    band.forEach((p: { time: string; value: number; value_low: number; value_high: number }, i: number) => {
      const h = i + 1;
      const sigma = Math.sqrt(sigma0 ** 2 + 0.0004 * h);
      expect(p.value).toBeCloseTo(a.estimate_usd!, 1);
      expect(p.value_low).toBeCloseTo(a.estimate_usd! * Math.exp(-Z80 * sigma), 1);
      expect(p.value_high).toBeCloseTo(a.estimate_usd! * Math.exp(Z80 * sigma), 1);
      expect(p.value_high - p.value_low).toBeGreaterThan(width);
      width = p.value_high - p.value_low;
      expect(p.time > ctx.deps.asOf).toBe(true);
    });
    expect(band[0].time.slice(0, 7)).not.toBe(ctx.deps.asOf.slice(0, 7));
    // preferred currency: hammers at the sale day's rate
    const gbp = (await get(`/v1/artworks/${a.id}/chart?preferred_currency=GBP`)).body;
    expect(gbp.unit).toBe("GBP");
    const rate = (day: string) => one<{ r: number }>("SELECT usd_per_unit AS r FROM fx_rates WHERE code = 'GBP' AND day <= ? ORDER BY day DESC LIMIT 1", day).r;
    gbp.series[0].data.forEach((p: { time: string; value: number }, i: number) => {
      expect(p.value).toBeCloseTo(sold[i]!.hammer_usd / rate(p.time), 2);
    });
  });
});

describe("editions", () => {
  test("an edition: every copy of its group, each with its lots oldest first", async () => {
    const group = one<{ g: number }>("SELECT edition_group_id AS g FROM artworks WHERE edition_group_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1").g;
    const members = sql<{ id: number }>("SELECT id FROM artworks WHERE edition_group_id = ? ORDER BY edition_number, id", group).map((r) => r.id);
    const r = await get(`/v1/artworks/${members.at(-1)}/editions?preferred_currency=EUR`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ artwork_id: members.at(-1), edition_group_id: group, edition_unique_type: "edition" });
    expect(r.body.editions.map((e: { artwork: { id: number } }) => e.artwork.id)).toEqual(members);
    for (const e of r.body.editions) {
      const lots = sql<{ id: number }>("SELECT id FROM lots WHERE artwork_id = ? ORDER BY sale_datetime, id", e.artwork.id).map((l) => l.id);
      expect(e.lots.map((l: { id: number }) => l.id)).toEqual(lots);
      for (const l of e.lots) expect(l.price.preferred_currency).toBe("EUR");
      expect(e.artwork.current_estimated_price_preferred).toBeDefined();
    }
  });

  test("a unique work: just itself; sandbox gets the public schema (no prices)", async () => {
    const unique = rows.find((r) => r.edition_group_id === null && r.last_lot_status === "sold")!;
    const r = await get(`/v1/artworks/${unique.id}/editions`, ctx.keys.sandbox);
    expect(r.status).toBe(200);
    expect(r.body.edition_unique_type).toBe("unique");
    expect(r.body.editions).toHaveLength(1);
    expect(r.body.editions[0].artwork.id).toBe(unique.id);
    expect(r.body.editions[0].artwork.current_estimated_price).toBeUndefined();
    expect(r.body.editions[0].lots.length).toBeGreaterThan(0);
    for (const l of r.body.editions[0].lots) expect(l.price).toBeUndefined();
  });
});

describe("cagr", () => {
  test("the stored fraction per year", async () => {
    const a = rows.find((r) => r.cagr !== null)!;
    const r = await get(`/v1/artworks/${a.id}/cagr`);
    expect(r.body).toEqual({ artwork_id: a.id, cagr: a.cagr });
  });
});

// ---------------------------------------------------------------- followed and recommended

describe("followed and recommended", () => {
  test("followed: most recently followed first, is_followed, filters apply, 2 + 1.5 per item", async () => {
    const empty = await get("/v1/artworks/followed", ctx.keys.pro);
    expect(empty.body).toEqual({ items: [], total_count: 0, limit: 20, offset: 0, next_cursor: null });
    expect(empty.du).toBe("2");
    const picks = [rows[10]!, rows[400]!, rows[1200]!];
    for (const p of picks) expect((await get(`/v1/artworks/${p.id}/follow`, ctx.keys.pro, { method: "POST" })).status).toBe(204);
    const r = await get("/v1/artworks/followed", ctx.keys.pro);
    expect(r.body.items.map((i: { id: number }) => i.id)).toEqual(picks.map((p) => p.id).reverse());
    expect(r.body.total_count).toBe(3);
    expect(r.body.items.every((i: { is_followed: boolean }) => i.is_followed)).toBe(true);
    expect(r.du).toBe(String(2 + 1.5 * 3));
    const page = await get("/v1/artworks/followed?limit=1&offset=1", ctx.keys.pro);
    expect(page.body.items.map((i: { id: number }) => i.id)).toEqual([picks[1]!.id]);
    expect(page.body.total_count).toBe(3);
    const cat = picks[0]!.category_id;
    const filtered = await get(`/v1/artworks/followed?category_id=${cat}`, ctx.keys.pro);
    expect(filtered.body.total_count).toBe(picks.filter((p) => p.category_id === cat).length);
    // is_followed on the list and detail, for this caller only
    expect((await get(`/v1/artworks/${picks[0]!.id}`, ctx.keys.pro)).body.is_followed).toBe(true);
    expect((await get(`/v1/artworks/${picks[0]!.id}`, ctx.keys.enterprise)).body.is_followed).toBe(false);
    for (const p of picks) await get(`/v1/artworks/${p.id}/follow`, ctx.keys.pro, { method: "DELETE" });
  });

  test("recommended: empty when following nothing; otherwise by the rule, followed works left out", async () => {
    const none = await get("/v1/artworks/recommended", ctx.keys.pro);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ items: [], total_count: 0, limit: 20, offset: 0 });
    expect(none.du).toBe("2");

    const anchor = rows.find((r) => r.estimate_usd !== null && r.artist_id === 62)!;
    await get(`/v1/artworks/${anchor.id}/follow`, ctx.keys.pro, { method: "POST" });
    const sameArtist = rows.filter((r) => r.artist_id === anchor.artist_id && r.id !== anchor.id).map((r) => r.id);
    const close = rows
      .filter(
        (r) =>
          r.id !== anchor.id &&
          r.artist_id !== anchor.artist_id &&
          r.category_id === anchor.category_id &&
          r.estimate_usd !== null &&
          r.estimate_usd >= anchor.estimate_usd! / 1.5 &&
          r.estimate_usd <= anchor.estimate_usd! * 1.5,
      )
      .map((r) => r.id);
    const r = await get("/v1/artworks/recommended?limit=100", ctx.keys.pro);
    expect(r.status).toBe(200);
    expect(r.body.total_count).toBe(sameArtist.length + close.length);
    const ids: number[] = r.body.items.map((i: { id: number }) => i.id);
    expect(ids).not.toContain(anchor.id);
    // works of the followed work's artist come first
    expect(new Set(ids.slice(0, sameArtist.length))).toEqual(new Set(sameArtist));
    expect(ids.slice(sameArtist.length).every((id) => close.includes(id))).toBe(true);
    expect(r.du).toBe(String(2 + 1.5 * ids.length));
    const p2 = await get("/v1/artworks/recommended?limit=5&offset=5", ctx.keys.pro);
    expect(p2.body.items.map((i: { id: number }) => i.id)).toEqual(ids.slice(5, 10));

    // a followed artist adds its works with a lot in the last 12 months (or upcoming)
    const since = new Date(Date.parse(`${ctx.deps.asOf}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
    const artist = one<{ a: number }>(
      "SELECT artist_id AS a FROM lots WHERE sale_datetime >= unixepoch(?) AND artist_id <> ? GROUP BY 1 ORDER BY count(*) DESC LIMIT 1",
      since,
      anchor.artist_id,
    ).a;
    const recent = sql<{ id: number }>("SELECT DISTINCT artwork_id AS id FROM lots WHERE artist_id = ? AND sale_datetime >= unixepoch(?)", artist, since).map((x) => x.id);
    expect((await get(`/v1/artists/${artist}/follow`, ctx.keys.pro, { method: "POST" })).status).toBe(204);
    const all: number[] = [];
    let total = 0;
    for (let offset = 0; offset === 0 || offset < total; offset += 100) {
      const page = await get(`/v1/artworks/recommended?limit=100&offset=${offset}`, ctx.keys.pro);
      expect(page.status).toBe(200);
      total = page.body.total_count;
      all.push(...page.body.items.map((i: { id: number }) => i.id));
    }
    expect(all.length).toBe(total);
    expect(new Set(all).size).toBe(total);
    const expected = new Set([...sameArtist, ...close, ...recent]);
    expected.delete(anchor.id);
    expect(new Set(all)).toEqual(expected);
    expect((await get("/v1/artworks/recommended?limit=101", ctx.keys.pro)).status).toBe(422);
    await get(`/v1/artists/${artist}/follow`, ctx.keys.pro, { method: "DELETE" });
    await get(`/v1/artworks/${anchor.id}/follow`, ctx.keys.pro, { method: "DELETE" });
  });
});

// ---------------------------------------------------------------- shares

describe("shares", () => {
  test("create (0 DU), fetch without a key (200, unmetered, same ids in order, public schema)", async () => {
    const ids = [rows[30]!.id, rows[5]!.id, rows[900]!.id, rows[5]!.id];
    const c = await get("/v1/artworks/share", ctx.keys.pro, { method: "POST", body: { ids, title: "For the board" } });
    expect(c.status).toBe(200);
    expect(c.du).toBe("0");
    expect(Object.keys(c.body).sort()).toEqual(["expires_at", "token", "url"]);
    expect(c.body.url).toBe(`http://artmarket.test/v1/artworks/shared/${c.body.token}`);
    const days = (Date.parse(c.body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const s = await get(new URL(c.body.url).pathname, null);
    expect(s.status).toBe(200);
    expect(s.du).toBeNull();
    expect(s.body.title).toBe("For the board");
    expect(s.body.items.map((i: { id: number }) => i.id)).toEqual([rows[30]!.id, rows[5]!.id, rows[900]!.id]);
    expect(s.body.total_count).toBe(3);
    for (const item of s.body.items) {
      for (const f of FINANCIAL) expect(item[f]).toBeUndefined();
      expect(item.description.image.urls.w480).toContain("-blur");
    }
    // with a key: still the public view, free (an authenticated call: 0 in the DU header)
    const k = await get(new URL(c.body.url).pathname, ctx.keys.enterprise);
    expect(k.status).toBe(200);
    expect(k.du).toBe("0");
    for (const item of k.body.items) for (const f of FINANCIAL) expect(item[f]).toBeUndefined();
    const paged = await get(`${new URL(c.body.url).pathname}?limit=1&offset=1`, null);
    expect(paged.body.items.map((i: { id: number }) => i.id)).toEqual([rows[5]!.id]);
  });

  test("unknown and expired tokens are 404", async () => {
    expect((await get("/v1/artworks/shared/doesnotexist123", null)).status).toBe(404);
    expect((await get("/v1/artworks/shared/x", null)).status).toBe(404);
    const other = ctx.otherConnection();
    const now = Date.now();
    other
      .query("INSERT INTO shares (token, user_id, kind, ids, title, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .run("expiredtoken0000000001", 1, "artwork", JSON.stringify([rows[0]!.id]), null, now - 31 * 86_400_000, now - 86_400_000);
    other
      .query("INSERT INTO shares (token, user_id, kind, ids, title, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .run("lotsharetoken000000001", 1, "lot", JSON.stringify([1]), null, now, now + 86_400_000);
    const expired = await get("/v1/artworks/shared/expiredtoken0000000001", null);
    expect(expired.status).toBe(404);
    expect(expired.body).toEqual({ detail: expect.any(String) });
    expect((await get("/v1/artworks/shared/lotsharetoken000000001", null)).status).toBe(404);
  });

  test("422: unknown ids (each named), empty, more than 500, a long title, no key 401", async () => {
    const bad = await get("/v1/artworks/share", ctx.keys.pro, { method: "POST", body: { ids: [rows[0]!.id, 999999991, 999999992] } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ["body", "ids", 1],
      ["body", "ids", 2],
    ]);
    expect(bad.body.detail[0]).toMatchObject({ type: "value_error", input: 999999991 });
    for (const body of [{ ids: [] }, { ids: Array.from({ length: 501 }, (_, i) => rows[i]!.id) }, { ids: [rows[0]!.id], title: "x".repeat(201) }, { ids: ["a"] }, {}]) {
      const r = await get("/v1/artworks/share", ctx.keys.pro, { method: "POST", body });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe("body");
    }
    expect((await get("/v1/artworks/share", ctx.keys.pro, { method: "POST", body: { ids: rows.slice(0, 500).map((r) => r.id) } })).status).toBe(200);
    expect((await get("/v1/artworks/share", null, { method: "POST", body: { ids: [rows[0]!.id] } })).status).toBe(401);
  });
});

describe("openapi", () => {
  test("the artwork schemas: public = full minus the financial fields; every endpoint documented", async () => {
    const doc = (await get("/openapi.json", null)).body;
    const s = doc.components.schemas;
    const full = Object.keys(s.ArtworkSchema.properties);
    const pub = Object.keys(s.ArtworkPublicSchema.properties);
    const removed = full.filter((k) => !pub.includes(k));
    expect(removed.filter((k) => !k.endsWith("_preferred") && k !== "preferred_currency").sort()).toEqual([...FINANCIAL, "is_followed"].sort());
    expect(pub.filter((k) => !full.includes(k))).toEqual([]);
    for (const name of ["ArtworksResponse", "ArtworksPublicResponse", "EditionsResponse", "ArtworkChartResponse", "ArtworkCagrResponse", "SharedArtworksResponse"]) {
      expect(s[name]).toBeDefined();
    }
    for (const [path, method] of [
      ["/v1/artworks", "get"],
      ["/v1/artworks/{artwork_id}", "get"],
      ["/v1/artworks/{artwork_id}/chart", "get"],
      ["/v1/artworks/{artwork_id}/editions", "get"],
      ["/v1/artworks/{artwork_id}/cagr", "get"],
      ["/v1/artworks/recommended", "get"],
      ["/v1/artworks/followed", "get"],
      ["/v1/artworks/share", "post"],
      ["/v1/artworks/shared/{token}", "get"],
    ] as const) {
      expect(doc.paths[path]?.[method]).toBeDefined();
    }
  });
});
