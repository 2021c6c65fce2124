/**
 * Lots on the tiny market: every filter against a direct SQL query, every sort against a sort in
 * JS (NULLs last, id tiebreak), has_more and paging, search (and FTS syntax as plain words),
 * public vs full schema per caller, DU, followed, share and shared, *_preferred, 422s and 404s,
 * and the query plans of every filter and sort.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { artworkUid } from "../../src/db/artwork-uid";
import { LOT_LIST, LOT_SORTS, NULLS_APART } from "../../src/serve/modules/lots/fields";
import { ftsQuery, HEAD_WALK, lotListIds, lotListSql, lotPage, PLANNER, SEARCH_PLAN } from "../../src/serve/modules/lots/service";
import { parseList } from "../../src/serve/query/grammar";
import { createTestContext, type TestContext } from "../helpers/app";

let ctx: TestContext;
let db: Database;

interface Raw {
  id: number;
  sale_id: number;
  lot_seq: number;
  sale_datetime: string;
  creation_year: number | null;
  estimate_min_usd: number | null;
  estimate_max_usd: number | null;
  hammer_usd: number | null;
  premium_usd: number | null;
  artist_id: number;
  artwork_id: number;
  status: string;
  sale_probability: number | null;
}
let all: Raw[];

beforeAll(async () => {
  ctx = await createTestContext();
  db = ctx.deps.market;
  all = db
    .query(
      `SELECT id, sale_id, lot_seq, strftime('%Y-%m-%dT%H:%M:%SZ', sale_datetime, 'unixepoch') AS sale_datetime, creation_year, estimate_min_usd_cents / 100.0 AS estimate_min_usd, estimate_max_usd_cents / 100.0 AS estimate_max_usd,
         hammer_usd_cents / 100.0 AS hammer_usd, premium_usd_cents / 100.0 AS premium_usd, artist_id, artwork_id, status, sale_probability FROM lots`,
    )
    .all() as Raw[];
});
afterAll(() => ctx.close());

async function get(path: string, key?: string | null) {
  const res = await ctx.call(path, { key });
  const body = (await res.json()) as any;
  return { status: res.status, body, du: res.headers.get("X-Service-DataUnits"), res };
}

const ids = (body: { lots: { id: number }[] }) => body.lots.map((l) => l.id);
const one = <T>(sql: string, ...params: (string | number)[]) => db.query(sql).get(...params) as T;
const column = (sql: string, ...params: (string | number)[]) => (db.query(sql).all(...params) as { id: number }[]).map((r) => r.id);

describe("filters", () => {
  /** [query string, SQL condition over lots that it must equal]. */
  const cases = (): [string, string, (string | number)[]][] => {
    const artist = one<{ artist_id: number; uid: string }>(
      "SELECT l.artist_id, a.uid FROM lots l JOIN artists a ON a.id = l.artist_id GROUP BY l.artist_id ORDER BY count(*) DESC LIMIT 1 OFFSET 3",
    );
    const work = one<{ artwork_id: number; uid: string; title: string }>(
      "SELECT l.artwork_id, w.uid, w.title FROM lots l JOIN artworks w ON w.id = l.artwork_id GROUP BY l.artwork_id HAVING count(*) >= 3 LIMIT 1",
    );
    const artwork = { ...work, uid: artworkUid(work.artwork_id, work.title, work.uid) };
    const house = one<{ house_id: number }>("SELECT house_id FROM lots GROUP BY house_id ORDER BY count(*) DESC LIMIT 1 OFFSET 2").house_id;
    const [s1, s2] = column("SELECT sale_id AS id FROM lots GROUP BY sale_id ORDER BY count(*) DESC LIMIT 2");
    const [loc1, loc2] = db
      .query("SELECT a.id, a.name FROM lots l JOIN auction_locations a ON a.id = l.location_id GROUP BY a.id ORDER BY count(*) DESC LIMIT 2 OFFSET 1")
      .all() as { id: number; name: string }[];
    const at = one<{ sale_datetime: string }>(
      "SELECT strftime('%Y-%m-%dT%H:%M:%SZ', sale_datetime, 'unixepoch') AS sale_datetime FROM lots ORDER BY id LIMIT 1 OFFSET 500",
    ).sale_datetime;
    return [
      ["status=sold", "status = 'sold'", []],
      ["status__in=passed,withdrawn", "status IN ('passed', 'withdrawn')", []],
      ["status__in=passed&status__in=upcoming", "status IN ('passed', 'upcoming')", []],
      ["sale_status=closed", "sale_status = 'closed'", []],
      ["sale_status__in=upcoming,live,session_off", "sale_status IN ('upcoming', 'live', 'session_off')", []],
      [`auction_house_id=${house}`, "house_id = ?", [house]],
      [`sale_auction_house_id=${house}`, "house_id = ?", [house]],
      [`sale_id=${s1}`, "sale_id = ?", [s1!]],
      [`sale_id__in=${s1},${s2}`, "sale_id IN (?, ?)", [s1!, s2!]],
      [`sale_location=${encodeURIComponent(loc1!.name)}`, "location_id = ?", [loc1!.id]],
      [`sale_location=${encodeURIComponent(loc1!.name.toUpperCase())}`, "location_id = ?", [loc1!.id]],
      [`sale_location__in=${encodeURIComponent(loc1!.name)},${encodeURIComponent(loc2!.name)}`, "location_id IN (?, ?)", [loc1!.id, loc2!.id]],
      ["sale_location=Atlantis", "0", []],
      [`sale_datetime__gte=${at}`, "sale_datetime >= unixepoch(?)", [at]],
      [`sale_datetime__lte=${at}`, "sale_datetime <= unixepoch(?)", [at]],
      [`sale_datetime__gte=${at}&sale_datetime__lte=${at}`, "sale_datetime = unixepoch(?)", [at]],
      ["sale_datetime__gte=2001-01-01&sale_datetime__lte=2003-06-30T12:00", "sale_datetime BETWEEN unixepoch('2001-01-01') AND unixepoch('2003-06-30T12:00:00Z')", []],
      ["hammer_price_usd__gte=100000", "hammer_usd_cents >= 100000 * 100", []],
      ["hammer_price_usd__lte=2000", "hammer_usd_cents <= 2000 * 100", []],
      ["hammer_price_estimate_max_usd__gte=50000&hammer_price_estimate_max_usd__lte=80000", "estimate_max_usd_cents BETWEEN 50000 * 100 AND 80000 * 100", []],
      ["premium_price_usd__gte=250000", "premium_usd_cents >= 250000 * 100", []],
      ["premium_price_usd__lte=1500", "premium_usd_cents <= 1500 * 100", []],
      [`artist_id=${artist.artist_id}`, "artist_id = ?", [artist.artist_id]],
      [`artist_uid=${artist.uid}`, "artist_id = ?", [artist.artist_id]],
      ["artist_uid=nobody-1900", "0", []],
      [`artwork_id=${artwork.artwork_id}`, "artwork_id = ?", [artwork.artwork_id]],
      [`artwork_uid=${artwork.uid}`, "artwork_id = ?", [artwork.artwork_id]],
      ["creation_year__gte=2015", "creation_year >= 2015", []],
      ["creation_year__lte=1900", "creation_year <= 1900", []],
      ["is_top=true", "is_top = 1", []],
      ["is_top=no", "is_top = 0", []],
      ["status=sold&hammer_price_usd__gte=20000&hammer_price_usd__lte=60000", "status = 'sold' AND hammer_usd_cents BETWEEN 20000 * 100 AND 60000 * 100", []],
      ["is_top=true&creation_year__lte=1950&premium_price_usd__gte=5000", "is_top = 1 AND creation_year <= 1950 AND premium_usd_cents >= 5000 * 100", []],
      [
        `sale_datetime__gte=2015-01-01&hammer_price_estimate_max_usd__lte=3000&creation_year__gte=1990`,
        "sale_datetime >= unixepoch('2015-01-01') AND estimate_max_usd_cents <= 3000 * 100 AND creation_year >= 1990",
        [],
      ],
      [`artist_id=${artist.artist_id}&status=sold&hammer_price_usd__gte=1000`, "artist_id = ? AND status = 'sold' AND hammer_usd_cents >= 1000 * 100", [artist.artist_id]],
    ];
  };

  /** Both branches of the adaptive plans: driven by a narrow range's own index, or by the sort's index. */
  const BRANCHES: [string, typeof PLANNER][] = [
    ["narrow (the tiny market's ranges and searches are all under the thresholds)", { ...PLANNER }],
    ["broad (thresholds at 1: every range and search is checked row by row)", { rangeRows: 1, searchRows: 1, walkSlack: PLANNER.walkSlack, sortRows: PLANNER.sortRows }],
  ];
  for (const [branch, thresholds] of BRANCHES) {
    test(`every filter returns exactly the lots its SQL condition selects, newest first, with has_more: ${branch}`, async () => {
      const saved = { ...PLANNER };
      Object.assign(PLANNER, thresholds);
      try {
        await checkFilters();
      } finally {
        Object.assign(PLANNER, saved);
      }
    });
  }

  async function checkFilters() {
    let nonEmpty = 0;
    for (const [query, cond, params] of cases()) {
      const expected = column(`SELECT id FROM lots WHERE ${cond} ORDER BY sale_datetime DESC, id DESC`, ...params);
      const { status, body } = await get(`/v1/lots?${query}&limit=100`);
      expect({ query, status }).toEqual({ query, status: 200 });
      expect({ query, ids: ids(body) }).toEqual({ query, ids: expected.slice(0, 100) });
      expect({ query, has_more: body.has_more }).toEqual({ query, has_more: expected.length > 100 });
      if (expected.length) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(25);
  }

  test("the rows carry the values they were filtered on", async () => {
    const { body } = await get("/v1/lots?status=sold&hammer_price_usd__gte=50000&is_top=true&limit=100");
    expect(body.lots.length).toBeGreaterThan(0);
    for (const lot of body.lots) {
      expect(lot.status).toBe("sold");
      expect(lot.is_top).toBe(true);
      expect(lot.price.hammer_usd).toBeGreaterThanOrEqual(50000);
    }
  });
});

describe("sorts", () => {
  type Key = (r: Raw) => number | string | null;
  const KEYS: Record<string, Key[]> = {
    RAW_LOT_ID: [],
    NUMBER: [(r) => r.sale_id, (r) => r.lot_seq],
    SALE_DATE: [(r) => r.sale_datetime],
    CREATION_YEAR: [(r) => r.creation_year],
    HAMMER_PRICE_ESTIMATE_MIN: [(r) => r.estimate_min_usd],
    HAMMER_PRICE_ESTIMATE_MAX: [(r) => r.estimate_max_usd],
    SALE_PROBABILITY: [(r) => r.sale_probability],
  };
  /** NULLs last in both directions; id tiebreak in the sort's direction. */
  const comparator = (keys: Key[], dir: 1 | -1) => (a: Raw, b: Raw) => {
    for (const k of keys) {
      const x = k(a);
      const y = k(b);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * dir;
    }
    return (a.id - b.id) * dir;
  };

  test("every sort value is declared", () => {
    expect(Object.keys(LOT_SORTS).sort()).toEqual(
      Object.keys(KEYS)
        .flatMap((k) => [`${k}_ASC`, `${k}_DESC`])
        .sort(),
    );
    expect(LOT_LIST.defaultSort).toBe("SALE_DATE_DESC");
  });

  for (const [name, keys] of Object.entries(KEYS)) {
    for (const dir of ["ASC", "DESC"] as const) {
      test(`${name}_${dir}: the first pages equal a sort of every lot, the order is total`, async () => {
        const expected = [...all].sort(comparator(keys, dir === "ASC" ? 1 : -1)).map((r) => r.id);
        const first = await get(`/v1/lots?sort=${name}_${dir}&limit=100`);
        const second = await get(`/v1/lots?sort=${name}_${dir}&limit=100&offset=100`);
        expect(first.status).toBe(200);
        expect([...ids(first.body), ...ids(second.body)]).toEqual(expected.slice(0, 200));
        // at the end of the list too
        const tail = await get(`/v1/lots?sort=${name}_${dir}&limit=100&offset=${all.length - 50}`);
        expect(ids(tail.body)).toEqual(expected.slice(all.length - 50));
        expect(tail.body.has_more).toBe(false);
      });
    }
  }

  test("a filtered sort: an artist's lots by number within their sales", async () => {
    const artist = one<{ artist_id: number }>("SELECT artist_id FROM lots GROUP BY artist_id ORDER BY count(*) DESC LIMIT 1").artist_id;
    const expected = all
      .filter((r) => r.artist_id === artist)
      .sort(comparator(KEYS.NUMBER!, -1))
      .map((r) => r.id);
    const { body } = await get(`/v1/lots?artist_id=${artist}&sort=NUMBER_DESC&limit=100`);
    expect(ids(body)).toEqual(expected.slice(0, 100));
  });
});

describe("sorts in two ranges (NULLS_APART): the rows with a value from the column's index, then the NULLs", () => {
  // the generated market has every creation year and estimate: this copy gets NULLs in runs of ids
  let nctx: TestContext;
  let ndb: Database;
  const followed: number[] = [];
  beforeAll(async () => {
    nctx = await createTestContext({
      prepareMarket: (w) => {
        w.run("UPDATE lots SET creation_year = NULL WHERE id % 3 = 0 OR id % 11 = 1");
        w.run("UPDATE lots SET estimate_min_usd_cents = NULL, estimate_max_usd_cents = NULL WHERE id % 5 IN (1, 2)");
        w.run("UPDATE lots SET estimate_max_usd_cents = NULL WHERE id % 7 = 0");
      },
    });
    ndb = nctx.deps.market;
    // followed: every 40th lot, with and without values
    for (const r of ndb.query("SELECT id FROM lots WHERE id % 40 = 0").all() as { id: number }[]) {
      expect((await nctx.call(`/v1/lots/${r.id}/follow`, { method: "POST" })).status).toBe(204);
      followed.push(r.id);
    }
  });
  afterAll(() => nctx.close());

  /** [query string, the same condition in SQL over lots]. */
  const filters = (): [string, string, (string | number)[]][] => {
    const house = (ndb.query("SELECT house_id AS v FROM lots GROUP BY house_id ORDER BY count(*) DESC LIMIT 1").get() as { v: number }).v;
    const artist = (ndb.query("SELECT artist_id AS v FROM lots GROUP BY artist_id ORDER BY count(*) DESC LIMIT 1").get() as { v: number }).v;
    const hammer = (
      ndb.query("SELECT hammer_usd_cents / 100.0 AS v FROM lots WHERE hammer_usd_cents IS NOT NULL ORDER BY hammer_usd_cents DESC LIMIT 1 OFFSET 300").get() as { v: number }
    ).v;
    return [
      ["", "1", []],
      ["status=sold", "status = 'sold'", []],
      [`auction_house_id=${house}`, "house_id = ?", [house]],
      [`artist_id=${artist}`, "artist_id = ?", [artist]],
      [`hammer_price_usd__gte=${Math.ceil(hammer)}`, "hammer_usd_cents >= ?", [Math.ceil(hammer) * 100]],
      ["creation_year__gte=1950", "creation_year >= 1950", []],
      ["hammer_price_estimate_max_usd__lte=50000", "estimate_max_usd_cents <= 50000 * 100", []],
      ["search=signed", "id IN (SELECT rowid FROM lots_fts WHERE lots_fts MATCH 'signed')", []],
      ["search=signed&status=passed", "id IN (SELECT rowid FROM lots_fts WHERE lots_fts MATCH 'signed') AND status = 'passed'", []],
    ];
  };

  for (const [branch, thresholds] of [
    ["narrow", { ...PLANNER }],
    ["broad", { rangeRows: 1, searchRows: 1, walkSlack: PLANNER.walkSlack, sortRows: PLANNER.sortRows }],
  ] as [string, typeof PLANNER][]) {
    for (const [sort, x] of Object.entries(NULLS_APART)) {
      test(`${sort} (${branch} plans): pages before, at and after the last row with a value equal its ORDER BY, NULLs last`, async () => {
        const saved = { ...PLANNER };
        Object.assign(PLANNER, thresholds);
        try {
          // the follower's followed lots, as the service reads them from the account store
          const user = (nctx.deps.account.query("SELECT DISTINCT user_id AS v FROM follows WHERE kind = 'lot'").get() as { v: number }).v;
          const mine = nctx.deps.accounts.followedIds(user, "lot");
          const cases = [
            ...filters().map(([q, cond, params]) => ({ q, cond, params, followedIds: null as number[] | null })),
            { q: "followed", cond: `id IN (${followed.join(", ")})`, params: [], followedIds: mine },
            { q: "followed status=sold", cond: `id IN (${followed.join(", ")}) AND status = 'sold'`, params: [], followedIds: mine },
          ];
          for (const c of cases) {
            const expected = (ndb.query(`SELECT id FROM lots WHERE ${c.cond} ORDER BY ${LOT_SORTS[sort]}`).all(...c.params) as { id: number }[]).map((r) => r.id);
            const withValue = (ndb.query(`SELECT count(*) AS n FROM lots WHERE ${c.cond} AND ${x} IS NOT NULL`).get(...c.params) as { n: number }).n;
            expect({ q: c.q, some: expected.length > 0 }).toEqual({ q: c.q, some: true });
            const offsets = new Set([
              0,
              1,
              withValue - 4,
              withValue - 3,
              withValue - 1,
              withValue,
              withValue + 1,
              withValue + 2,
              expected.length - 1,
              expected.length,
              expected.length + 5,
            ]);
            for (const offset of [...offsets].filter((o) => o >= 0)) {
              for (const limit of [1, 3]) {
                const qs = `${c.q.startsWith("followed") ? c.q.slice(9).trim() : c.q}&sort=${sort}&limit=${limit}&offset=${offset}`;
                const got = lotListIds(ndb, parseList(LOT_LIST, new URLSearchParams(qs)), c.followedIds);
                // limit + 1 ids: the page and has_more
                expect({ q: c.q, offset, limit, ids: got }).toEqual({ q: c.q, offset, limit, ids: expected.slice(offset, offset + limit + 1) });
              }
            }
          }
          // through the API: a page across the boundary, with has_more
          const n = (ndb.query(`SELECT count(*) AS n FROM lots WHERE ${x} IS NOT NULL`).get() as { n: number }).n;
          const all = (ndb.query(`SELECT id FROM lots ORDER BY ${LOT_SORTS[sort]}`).all() as { id: number }[]).map((r) => r.id);
          for (const offset of [n - 2, n, n + 2]) {
            const res = await nctx.call(`/v1/lots?sort=${sort}&limit=4&offset=${offset}`);
            const body = (await res.json()) as { lots: { id: number }[]; has_more: boolean };
            expect({ offset, status: res.status, ids: ids(body), has_more: body.has_more }).toEqual({ offset, status: 200, ids: all.slice(offset, offset + 4), has_more: true });
          }
          // by cursor, from a page just before the boundary into the NULL rows, and on within them
          const before = lotPage(ndb, nctx.deps.signer, parseList(LOT_LIST, new URLSearchParams(`sort=${sort}&limit=3&offset=${n - 2}`)));
          const across = lotPage(ndb, nctx.deps.signer, parseList(LOT_LIST, new URLSearchParams(`sort=${sort}&limit=4&cursor=${before.nextCursor}`)));
          const within = lotPage(ndb, nctx.deps.signer, parseList(LOT_LIST, new URLSearchParams(`sort=${sort}&limit=4&cursor=${across.nextCursor}`)));
          expect({ sort, ids: [...across.ids, ...within.ids] }).toEqual({ sort, ids: all.slice(n + 1, n + 9) });
        } finally {
          Object.assign(PLANNER, saved);
        }
      });
    }
  }

  test("a DESC sort with a status or is_top: its head range's rows with a value as a seek, then the NULL rows; pages by offset and cursor equal ORDER BY", () => {
    const cases: [string, string][] = [
      ["status=sold", "status = 'sold'"],
      ["status=withdrawn", "status = 'withdrawn'"],
      ["is_top=false", "is_top = 0"],
      ["status=passed&is_top=false", "status = 'passed' AND is_top = 0"],
    ];
    const columns: Record<string, string> = {
      CREATION_YEAR_DESC: "creation_year",
      HAMMER_PRICE_ESTIMATE_MIN_DESC: "estimate_min_usd_cents",
      HAMMER_PRICE_ESTIMATE_MAX_DESC: "estimate_max_usd_cents",
    };
    let split = 0;
    for (const [sort, x] of Object.entries(columns)) {
      for (const [qs, cond] of cases) {
        const list = lotListSql(ndb, parseList(LOT_LIST, new URLSearchParams(`${qs}&sort=${sort}&limit=20`)));
        if (list.nulls) {
          split++;
          expect({ qs, sort, or: list.sql.includes("IS NULL") }).toEqual({ qs, sort, or: false });
        }
        const expected = (ndb.query(`SELECT id FROM lots WHERE ${cond} ORDER BY ${LOT_SORTS[sort]}`).all() as { id: number }[]).map((r) => r.id);
        const withValue = (ndb.query(`SELECT count(*) AS n FROM lots WHERE ${cond} AND ${x} IS NOT NULL`).get() as { n: number }).n;
        expect(expected.length).toBeGreaterThan(withValue);
        for (const offset of [0, 7, withValue - 3, withValue, withValue + 2]) {
          const got = lotListIds(ndb, parseList(LOT_LIST, new URLSearchParams(`${qs}&sort=${sort}&limit=5&offset=${offset}`)));
          expect({ qs, sort, offset, got }).toEqual({ qs, sort, offset, got: expected.slice(offset, offset + 6) });
        }
        // by cursor, from a page just before the boundary into the NULL rows
        const at = Math.max(0, withValue - 3);
        const before = lotPage(ndb, nctx.deps.signer, parseList(LOT_LIST, new URLSearchParams(`${qs}&sort=${sort}&limit=3&offset=${at}`)));
        const next = lotPage(ndb, nctx.deps.signer, parseList(LOT_LIST, new URLSearchParams(`${qs}&sort=${sort}&limit=5&cursor=${before.nextCursor}`)));
        expect({ qs, sort, ids: next.ids }).toEqual({ qs, sort, ids: expected.slice(at + 3, at + 8) });
      }
    }
    expect(split).toBeGreaterThan(0);
  });

  test("each range reads the column's index in order: no temp B-tree unfiltered, the NULL range only when a NULL can match", () => {
    for (const [sort, x] of Object.entries(NULLS_APART)) {
      const index = {
        creation_year: "lots_creation_year",
        estimate_min_usd_cents: "lots_estimate_min_usd",
        estimate_max_usd_cents: "lots_estimate_max_usd",
        sale_probability: "lots_sale_probability_known",
      }[x]!;
      const list = lotListSql(ndb, parseList(LOT_LIST, new URLSearchParams(`sort=${sort}&limit=20`)));
      const plans = [list.sql, list.nulls!.rows.sql].map((sql) =>
        (ndb.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql === list.sql ? list.params : [...list.nulls!.rows.params, 21, 0])) as { detail: string }[]).map((r) => r.detail),
      );
      // the NULL rows: the plain index's NULL run in id order, or (an index of the values alone) the table's
      const nullRange = x === "sale_probability" ? "SCAN lots" : `SEARCH lots USING COVERING INDEX ${index} (${x}=?)`;
      expect({ sort, plans }).toEqual({ sort, plans: [[`SEARCH lots USING COVERING INDEX ${index} (${x}>?)`], [nullRange]] });
      const filter = { creation_year: "creation_year__gte=1900", sale_probability: "sale_probability__gte=0.5" }[x] ?? "hammer_price_estimate_max_usd__gte=1000";
      const ranged = lotListSql(ndb, parseList(LOT_LIST, new URLSearchParams(`sort=${sort}&${filter}`)));
      expect(ranged.nulls === undefined).toBe(x !== "estimate_min_usd_cents");
    }
  });
});

describe("paging", () => {
  test("has_more is true exactly while more rows exist; pages do not overlap and cover the list", async () => {
    for (const limit of [7, 10]) {
      // an artist with a lot count that is a multiple of 10, and one that is not, if the market has them
      const artist =
        one<{ artist_id: number; n: number }>(`SELECT artist_id, count(*) AS n FROM lots GROUP BY artist_id HAVING n BETWEEN 21 AND 60 AND n % ? = 0 ORDER BY n LIMIT 1`, limit) ??
        one<{ artist_id: number; n: number }>("SELECT artist_id, count(*) AS n FROM lots GROUP BY artist_id HAVING n BETWEEN 21 AND 60 LIMIT 1");
      const total = one<{ n: number }>("SELECT count(*) AS n FROM lots WHERE artist_id = ?", artist.artist_id).n;
      const seen: number[] = [];
      for (let offset = 0; ; offset += limit) {
        const { body } = await get(`/v1/lots?artist_id=${artist.artist_id}&limit=${limit}&offset=${offset}`);
        expect(body.limit).toBe(limit);
        expect(body.offset).toBe(offset);
        expect(body.has_more).toBe(offset + limit < total);
        seen.push(...ids(body));
        if (!body.has_more) break;
      }
      expect(seen.length).toBe(total);
      expect(new Set(seen).size).toBe(total);
      expect(seen).toEqual(column("SELECT id FROM lots WHERE artist_id = ? ORDER BY sale_datetime DESC, id DESC", artist.artist_id));
    }
  });

  test("an offset past the end: no lots, has_more false", async () => {
    const { body } = await get(`/v1/lots?offset=${all.length}`);
    expect(body).toMatchObject({ lots: [], has_more: false, limit: 20, offset: all.length });
  });
});

describe("search", () => {
  const words = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.normalize("NFD").replace(/\p{M}/gu, ""));
  // a lot's words, read once per lot for all the direct scans below (the market does not change)
  const texts = new Map<number, Set<string>>();
  const textOf = (id: number) => {
    let text = texts.get(id);
    if (!text) {
      const r = one<{ t: string }>(
        `SELECT a.name || ' ' || a.synonyms || ' ' || w.title || ' ' || coalesce(n.text, '') AS t FROM lots l
         JOIN artists a ON a.id = l.artist_id JOIN artworks w ON w.id = l.artwork_id LEFT JOIN lot_notes n ON n.id = l.notes_id WHERE l.id = ?`,
        id,
      );
      text = new Set(words(r.t.replace(/\|/g, " ")));
      texts.set(id, text);
    }
    return text;
  };
  const pick = () =>
    one<{ id: number; artist_id: number; name: string; title: string; notes: string }>(
      `SELECT l.id, l.artist_id, a.name, w.title, n.text AS notes FROM lots l JOIN artists a ON a.id = l.artist_id
       JOIN artworks w ON w.id = l.artwork_id JOIN lot_notes n ON n.id = l.notes_id
       WHERE n.text LIKE '%retrospective%' AND w.title NOT LIKE 'Untitled%' LIMIT 1 OFFSET 2`,
    );

  test("finds a lot by a word of its artist's name, of its title and of its notes", async () => {
    const lot = pick();
    for (const word of [lot.name.split(" ").at(-1)!, lot.title.split(" ")[0]!, "retrospective"]) {
      const { status, body } = await get(`/v1/lots?search=${encodeURIComponent(word)}&artist_id=${lot.artist_id}&limit=100`);
      expect(status).toBe(200);
      expect({ word, found: ids(body).includes(lot.id) }).toEqual({ word, found: true });
      for (const l of body.lots) expect(textOf(l.id).has(words(word)[0]!)).toBe(true);
    }
  });

  for (const [searchRows, listRows] of [
    [PLANNER.searchRows, SEARCH_PLAN.listRows],
    [1, SEARCH_PLAN.listRows],
    [1, 1],
  ]) {
    test(`every word must occur; case is ignored; the result equals a direct scan (search thresholds ${searchRows}, ${listRows})`, async () => {
      const saved = PLANNER.searchRows;
      const savedList = SEARCH_PLAN.listRows;
      PLANNER.searchRows = searchRows!;
      SEARCH_PLAN.listRows = listRows!;
      try {
        const lot = pick();
        const last = lot.name.split(" ").at(-1)!;
        for (const [q, extra, keep] of [
          [`${last.toUpperCase()} retrospective`, "", () => true],
          ["signed", "&status=passed", (r: Raw) => r.status === "passed"],
          ["Study", "&sort=CREATION_YEAR_DESC", () => true],
        ] as [string, string, (r: Raw) => boolean][]) {
          const { body } = await get(`/v1/lots?search=${encodeURIComponent(q)}${extra}&limit=100`);
          const byDate = (a: Raw, b: Raw) => (a.sale_datetime === b.sale_datetime ? b.id - a.id : a.sale_datetime < b.sale_datetime ? 1 : -1);
          const byYear = (a: Raw, b: Raw) => (a.creation_year === b.creation_year ? b.id - a.id : (b.creation_year ?? -1e9) - (a.creation_year ?? -1e9));
          const expected = all
            .filter((r) => keep(r) && words(q).every((w) => textOf(r.id).has(w)))
            .sort(extra.includes("CREATION_YEAR") ? byYear : byDate)
            .map((r) => r.id);
          expect({ q, n: expected.length > 0 }).toEqual({ q, n: true });
          expect({ q, ids: ids(body) }).toEqual({ q, ids: expected.slice(0, 100) });
          expect(body.has_more).toBe(expected.length > 100);
        }
      } finally {
        PLANNER.searchRows = saved;
        SEARCH_PLAN.listRows = savedList;
      }
    });
  }

  test("FTS syntax is taken as plain words, never as syntax, and never fails", async () => {
    const nasty = [
      '"signed"',
      'signed"',
      '"',
      "*",
      "sign*",
      "(signed)",
      "signed AND dated",
      "signed OR dated",
      "NOT signed",
      "signed NOT dated",
      "NEAR(signed dated)",
      "text:signed",
      "-signed",
      "^signed",
      "{text}: signed",
      "signed + dated",
      "'",
      "\\",
      "()",
      "AND",
      "OR",
      "NOT",
      "a\u0000b",
      "🙂",
      "signé",
      "%",
      "_",
      "signed -- dated; DROP TABLE lots",
    ];
    for (const q of nasty) {
      const { status, body } = await get(`/v1/lots?search=${encodeURIComponent(q)}&limit=5`);
      expect({ q, status }).toEqual({ q, status: 200 });
      expect(Array.isArray(body.lots)).toBe(true);
    }
    // the operators are words: "signed AND dated" needs the word "and" too, as "signed and dated" does
    const a = await get(`/v1/lots?search=${encodeURIComponent('"signed" AND (dated*)')}&limit=100`);
    const b = await get(`/v1/lots?search=${encodeURIComponent("signed and dated")}&limit=100`);
    expect(ids(a.body)).toEqual(ids(b.body));
    expect(a.body.lots.length).toBeGreaterThan(0);
    // "OR" is a word that no lot has, not a disjunction
    expect((await get(`/v1/lots?search=${encodeURIComponent("signed OR dated")}`)).body.lots).toEqual([]);
    // nothing left of the words: no search condition at all
    const none = await get(`/v1/lots?search=${encodeURIComponent("*()")}&limit=100`);
    expect(ids(none.body)).toEqual(ids((await get("/v1/lots?limit=100")).body));
  });

  test("the FTS query is single quoted tokens, cut and folded as the index cuts its text", () => {
    expect(ftsQuery('say "hi" AND (x*) OR y:z')).toBe('"say" "hi" "and" "x" "or" "y" "z"');
    expect(ftsQuery("O'Keeffe")).toBe('"o" "keeffe"');
    expect(ftsQuery("Saint-Rémy signé SIGNÉ")).toBe('"saint" "remy" "signe"');
    expect(ftsQuery('* ( ) "')).toBeNull();
  });

  test("a hyphenated or accented word still matches: its words, accents and case ignored, equal a direct scan", async () => {
    const hyphenated = one<{ name: string; artist_id: number }>(
      "SELECT a.name, l.artist_id FROM lots l JOIN artists a ON a.id = l.artist_id WHERE a.name GLOB '*?-?*' GROUP BY l.artist_id ORDER BY count(*) DESC LIMIT 1",
    );
    const accented = one<{ name: string }>("SELECT a.name FROM lots l JOIN artists a ON a.id = l.artist_id WHERE a.name GLOB '*[ÉéáíóúřšýčŽ]*' LIMIT 1");
    const first = hyphenated.name.split(" ")[0]!; // e.g. "Tae-yang"
    const cases = [
      first,
      first.toUpperCase().replace("-", "‐"),
      `${first.split("-")[1]} ${first.split("-")[0]}`, // the same words, another order
      accented.name,
      accented.name.normalize("NFD").toLowerCase(),
      accented.name.normalize("NFD").replace(/\p{M}/gu, "").replaceAll(" ", "-"),
      "raisonné",
      "RAISONNE",
      "catalogue-raisonné",
    ];
    for (const q of cases) {
      const { status, body } = await get(`/v1/lots?search=${encodeURIComponent(q)}&sort=RAW_LOT_ID_ASC&limit=100`);
      const expected = all.filter((r) => words(q.normalize("NFC")).every((w) => textOf(r.id).has(w))).map((r) => r.id);
      expect({ q, status, n: expected.length > 0 }).toEqual({ q, status: 200, n: true });
      expect({ q, ids: ids(body) }).toEqual({ q, ids: expected.slice(0, 100) });
    }
    // every lot of the artist matches their first name (a page of 100 at most)
    const { body } = await get(`/v1/lots?search=${encodeURIComponent(first)}&artist_id=${hyphenated.artist_id}&limit=100`);
    expect(body.lots.length).toBe(Math.min(100, one<{ n: number }>("SELECT count(*) AS n FROM lots WHERE artist_id = ?", hyphenated.artist_id).n));
  });

  test("no letter, digit or mark between two letters makes a query that lots_fts (no positions) refuses", () => {
    const letters = /[\p{L}\p{N}\p{M}]/u;
    const match = db.query("SELECT count(*) AS n FROM lots_fts WHERE lots_fts MATCH ?");
    let chunk: string[] = [];
    const check = () => {
      const q = ftsQuery(chunk.join(" "));
      if (q) expect(() => match.get(q)).not.toThrow();
      chunk = [];
    };
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (!letters.test(c)) continue;
      chunk.push(`a${c}b${c}`);
      if (chunk.length === 32) check();
    }
    check();
  });
});

describe("schemas by caller", () => {
  const FULL_ONLY = ["price", "is_followed"];
  const ALWAYS = ["id", "lot_num", "status", "auction_house_id", "auction_house_name", "sale_id", "is_top", "reserve_mark", "third_party_mark", "artwork", "sale", "image"];
  const scenarios: [string, () => string | null, "full" | "public", boolean][] = [
    ["anonymous", () => null, "public", false],
    ["sandbox", () => ctx.keys.sandbox, "public", true],
    ["pro", () => ctx.keys.pro, "full", true],
    ["enterprise", () => ctx.keys.enterprise, "full", true],
  ];
  for (const [who, key, schema, metered] of scenarios) {
    test(`${who}: ${schema} schema, ${metered ? "DU headers" : "no DU headers"}`, async () => {
      const { status, body, res } = await get("/v1/lots?limit=5&sort=RAW_LOT_ID_ASC&preferred_currency=EUR", key());
      expect(status).toBe(200);
      expect(body.lots.length).toBe(5);
      expect("total" in body).toBe(false);
      for (const lot of body.lots) {
        for (const f of ALWAYS) expect(lot).toHaveProperty(f);
        for (const f of FULL_ONLY) expect(f in lot).toBe(schema === "full");
        expect(Object.keys(lot.artwork).sort()).toEqual(["creation_year", "id", "name"]);
        expect(lot.sale).toMatchObject({ id: lot.sale_id });
        expect(Object.keys(lot.sale)).toEqual(expect.arrayContaining(["id", "name", "location"]));
        if (lot.image) {
          expect(Object.keys(lot.image.urls)).toEqual(["w240", "w480", "w768", "w1200", "w1920"]);
          expect(lot.image.urls.w480.includes("-blur.jpg")).toBe(key() === null);
        }
        if (schema === "full") expect(lot.price).toHaveProperty("hammer_estimate_max_preferred");
      }
      for (const h of ["X-Service-DataUnits", "X-Service-DataUnits-Remaining", "X-Service-DataUnits-Period-End"]) {
        expect(res.headers.has(h)).toBe(metered);
      }
      if (metered) expect(res.headers.get("X-Service-DataUnits")).toBe("7");
      // the detail: a key is needed; the schema follows the plan
      const detail = await get(`/v1/lots/${body.lots[0].id}`, key());
      if (key() === null) expect(detail.status).toBe(401);
      else {
        expect(detail.status).toBe(200);
        for (const f of FULL_ONLY) expect(f in detail.body).toBe(schema === "full");
        expect(detail.du).toBe("1");
      }
    });
  }
});

describe("detail, DU, preferred currency", () => {
  test("a lot's detail equals its row in the list", async () => {
    const id = all[100]!.id;
    const list = await get(`/v1/lots?sort=RAW_LOT_ID_ASC&offset=100&limit=1`);
    const detail = await get(`/v1/lots/${id}`);
    expect(detail.body).toEqual(list.body.lots[0]);
    expect(detail.du).toBe("1");
  });

  test("DU: 2 + 1 per lot returned, also for an empty page", async () => {
    for (const [q, n] of [
      ["limit=13", 13],
      ["limit=100", 100],
      ["sale_location=Atlantis", 0],
    ] as const) {
      const { du, body } = await get(`/v1/lots?${q}`);
      expect(body.lots.length).toBe(n);
      expect(du).toBe(String(2 + n));
    }
  });

  test("*_preferred = USD / the rate of the sale's day, rounded to cents", async () => {
    for (const code of ["EUR", "JPY", "GBP", "USD"]) {
      const { body } = await get(`/v1/lots?preferred_currency=${code}&status=sold&limit=30&sort=RAW_LOT_ID_ASC`);
      for (const lot of body.lots) {
        const rate = code === "USD" ? 1 : one<{ r: number }>("SELECT usd_per_unit AS r FROM fx_rates WHERE code = ? AND day = ?", code, lot.sale_datetime.slice(0, 10)).r;
        expect(lot.price.preferred_currency).toBe(code);
        for (const f of ["hammer", "hammer_estimate_min", "hammer_estimate_max", "premium"]) {
          expect(lot.price[`${f}_preferred`]).toBeCloseTo(lot.price[`${f}_usd`] / rate, 2);
        }
      }
    }
    const plain = await get("/v1/lots?limit=3");
    for (const lot of plain.body.lots) expect("hammer_preferred" in lot.price).toBe(false);
  });

  test("the lot's embedded objects agree with the tables", async () => {
    const { body } = await get("/v1/lots?limit=50&sort=RAW_LOT_ID_DESC");
    for (const lot of body.lots) {
      const r = one<any>(
        `SELECT l.lot_num, l.house_id, h.name AS house, w.title, w.creation_year, w.image_id, s.name AS sale, s.location
         FROM lots l JOIN auction_houses h ON h.id = l.house_id JOIN artworks w ON w.id = l.artwork_id JOIN sales s ON s.id = l.sale_id WHERE l.id = ?`,
        lot.id,
      );
      expect(lot.lot_num).toBe(r.lot_num);
      expect(lot.auction_house_name).toBe(r.house);
      expect(lot.artwork).toMatchObject({ name: r.title, creation_year: r.creation_year });
      expect(lot.sale).toMatchObject({ name: r.sale, location: r.location });
      expect(lot.image?.id ?? null).toBe(r.image_id);
    }
  });
});

describe("followed", () => {
  test("lists exactly the caller's followed lots, with the list grammar; DU 2 + 1 per lot; is_followed", async () => {
    const picked = [all[10]!, all[200]!, all[3000]!];
    for (const l of picked) expect((await ctx.call(`/v1/lots/${l.id}/follow`, { method: "POST", key: ctx.keys.pro })).status).toBe(204);
    const expected = [...picked].sort((a, b) => (a.sale_datetime === b.sale_datetime ? b.id - a.id : a.sale_datetime < b.sale_datetime ? 1 : -1));
    const { body, du } = await get("/v1/lots/followed", ctx.keys.pro);
    expect(ids(body)).toEqual(expected.map((r) => r.id));
    expect(body.has_more).toBe(false);
    expect(du).toBe("5");
    for (const lot of body.lots) expect(lot.is_followed).toBe(true);
    const page = await get("/v1/lots/followed?limit=2&sort=RAW_LOT_ID_ASC", ctx.keys.pro);
    expect(ids(page.body)).toEqual(
      picked
        .map((r) => r.id)
        .sort((a, b) => a - b)
        .slice(0, 2),
    );
    expect(page.body.has_more).toBe(true);
    const sold = await get(`/v1/lots/followed?status=${picked[0]!.status}`, ctx.keys.pro);
    expect(ids(sold.body).sort()).toEqual(
      picked
        .filter((r) => r.status === picked[0]!.status)
        .map((r) => r.id)
        .sort(),
    );
    // in the plain list, is_followed tells the caller's follows only
    const list = await get(`/v1/lots?sale_id=${picked[0]!.sale_id}&limit=100`, ctx.keys.pro);
    for (const lot of list.body.lots) expect(lot.is_followed).toBe(picked.some((p) => p.id === lot.id));
    const other = await get(`/v1/lots/${picked[0]!.id}`, ctx.keys.enterprise);
    expect(other.body.is_followed).toBe(false);
    // another user follows nothing
    expect((await get("/v1/lots/followed")).body.lots).toEqual([]);
    expect((await get("/v1/lots/followed", null)).status).toBe(401);
    // sandbox: the public schema
    await ctx.call(`/v1/lots/${picked[1]!.id}/follow`, { method: "POST", key: ctx.keys.sandbox });
    const sandbox = await get("/v1/lots/followed", ctx.keys.sandbox);
    expect(ids(sandbox.body)).toEqual([picked[1]!.id]);
    expect("price" in sandbox.body.lots[0]).toBe(false);
    expect(sandbox.du).toBe("3");
  });
});

describe("share", () => {
  test("create: 200, token, url, expires_at 30 days ahead, 0 DU; fetch without key: the lots in order, public schema", async () => {
    const picked = [all[50]!.id, all[7]!.id, all[900]!.id];
    const res = await ctx.call("/v1/lots/share", { method: "POST", body: { ids: [...picked, all[7]!.id], title: "For the board" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Service-DataUnits")).toBe("0");
    const created = (await res.json()) as { token: string; url: string; expires_at: string };
    expect(created.url).toBe(`http://artmarket.test/v1/lots/shared/${created.token}`);
    const days = (Date.parse(created.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    const shared = await ctx.call(`/v1/lots/shared/${created.token}`, { key: null });
    expect(shared.status).toBe(200);
    expect(shared.headers.has("X-Service-DataUnits")).toBe(false);
    const body = (await shared.json()) as any;
    expect(body.title).toBe("For the board");
    expect(body.expires_at).toBe(created.expires_at);
    expect(ids(body)).toEqual(picked);
    expect(body).toMatchObject({ total: 3, has_more: false, limit: 500, offset: 0 });
    for (const lot of body.lots) {
      expect("price" in lot).toBe(false);
      if (lot.image) expect(lot.image.urls.w240).toContain("-blur.jpg");
    }
    // with a key it is the same public view, free: an authenticated call, so 0 in the DU header
    const keyed = await ctx.call(`/v1/lots/shared/${created.token}`, { key: ctx.keys.pro });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get("X-Service-DataUnits")).toBe("0");
    expect(ids((await keyed.json()) as any)).toEqual(picked);
    // pages
    const page = (await (await ctx.call(`/v1/lots/shared/${created.token}?limit=2&offset=1`, { key: null })).json()) as any;
    expect(page).toMatchObject({ total: 3, has_more: false, limit: 2, offset: 1 });
    expect(ids(page)).toEqual(picked.slice(1));
    const first = (await (await ctx.call(`/v1/lots/shared/${created.token}?limit=2`, { key: null })).json()) as any;
    expect(first.has_more).toBe(true);
  });

  test("unknown and expired tokens are 404; another kind's token too", async () => {
    expect((await ctx.call("/v1/lots/shared/unknownunknownunknown", { key: null })).status).toBe(404);
    expect((await ctx.call("/v1/lots/shared/x", { key: null })).status).toBe(404);
    const other = ctx.otherConnection();
    const past = Date.now() - 86_400_000;
    other
      .query("INSERT INTO shares (token, user_id, kind, ids, title, created_at, expires_at) VALUES (?, 1, 'lot', ?, NULL, ?, ?)")
      .run("expiredexpiredexpired", JSON.stringify([all[0]!.id]), past - 31 * 86_400_000, past);
    other
      .query("INSERT INTO shares (token, user_id, kind, ids, title, created_at, expires_at) VALUES (?, 1, 'artwork', ?, NULL, ?, ?)")
      .run("artworkartworkartwork", JSON.stringify([1]), Date.now(), Date.now() + 86_400_000);
    const expired = await ctx.call("/v1/lots/shared/expiredexpiredexpired", { key: null });
    expect(expired.status).toBe(404);
    expect(typeof ((await expired.json()) as any).detail).toBe("string");
    expect((await ctx.call("/v1/lots/shared/artworkartworkartwork", { key: null })).status).toBe(404);
  });

  test("bad bodies are 422 at their place; unknown lots too; no key 401", async () => {
    const bad: [unknown, (string | number)[]][] = [
      [{}, ["body", "ids"]],
      [{ ids: [] }, ["body", "ids"]],
      [{ ids: ["x"] }, ["body", "ids", 0]],
      [{ ids: [1, 0] }, ["body", "ids", 1]],
      [{ ids: [1], title: "x".repeat(201) }, ["body", "title"]],
      [{ ids: [1, 999999999] }, ["body", "ids", 1]],
      [{ ids: Array.from({ length: 501 }, (_, i) => i + 1) }, ["body", "ids"]],
      [{ ids: [1], extra: true }, ["body", "extra"]],
    ];
    for (const [body, loc] of bad) {
      const res = await ctx.call("/v1/lots/share", { method: "POST", body });
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      const detail = ((await res.json()) as any).detail;
      expect(detail[0].loc).toEqual(loc);
      for (const d of detail) expect(Object.keys(d).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
    }
    expect((await ctx.call("/v1/lots/share", { method: "POST", body: { ids: [1] }, key: null })).status).toBe(401);
  });

  test("an empty ids list is 422 too_short with the bound in ctx", async () => {
    const res = await ctx.call("/v1/lots/share", { method: "POST", body: { ids: [] } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).detail).toEqual([{ loc: ["body", "ids"], msg: "List should have at least 1 item", type: "too_short", input: [], ctx: { min_length: 1 } }]);
  });
});

describe("errors", () => {
  test("422: the detail array with loc, msg, type, input, ctx", async () => {
    const cases: [string, (string | number)[], string, Record<string, unknown>?][] = [
      ["status=bogus", ["query", "status"], "enum"],
      ["status__in=sold,bogus", ["query", "status__in", 1], "enum"],
      ["sale_status=open", ["query", "sale_status"], "enum"],
      ["sale_id=abc", ["query", "sale_id"], "int_parsing"],
      ["sale_id__in=1,x", ["query", "sale_id__in", 1], "int_parsing"],
      ["sale_datetime__gte=yesterday", ["query", "sale_datetime__gte"], "datetime_parsing"],
      ["hammer_price_usd__gte=1.5", ["query", "hammer_price_usd__gte"], "int_parsing"],
      ["is_top=maybe", ["query", "is_top"], "bool_parsing"],
      ["sort=PRICE_ASC", ["query", "sort"], "enum"],
      ["preferred_currency=XYZ", ["query", "preferred_currency"], "enum"],
      ["limit=101", ["query", "limit"], "less_than_equal", { le: 100 }],
      ["limit=0", ["query", "limit"], "greater_than_equal", { ge: 1 }],
      ["offset=-1", ["query", "offset"], "greater_than_equal", { ge: 0 }],
      [`search=${"x".repeat(201)}`, ["query", "search"], "string_too_long", { max_length: 200 }],
      ["search=", ["query", "search"], "string_too_short"],
    ];
    for (const [q, loc, type, c] of cases) {
      const { status, body } = await get(`/v1/lots?${q}`);
      expect({ q, status }).toEqual({ q, status: 422 });
      expect(body.detail[0]).toMatchObject({ loc, type });
      expect(Object.keys(body.detail[0]).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
      if (c) expect(body.detail[0].ctx).toEqual(c);
    }
    const two = await get("/v1/lots?limit=500&sale_id=x");
    expect(two.body.detail.map((d: any) => d.loc[1]).sort()).toEqual(["limit", "sale_id"]);
    const path = await get("/v1/lots/abc");
    expect(path.status).toBe(422);
    expect(path.body.detail[0]).toMatchObject({ loc: ["path", "lot_id"], type: "int_parsing", input: "abc" });
  });

  test("404 for a lot the market lacks; no DU charged", async () => {
    const { status, body, du } = await get("/v1/lots/999999999");
    expect(status).toBe(404);
    expect(typeof body.detail).toBe("string");
    expect(du).toBeNull();
  });
});

describe("query plans", () => {
  const plan = (query: string) => {
    // an ASC sort with NULLs last: the plans of both its ranges
    const list = lotListSql(db, parseList(LOT_LIST, new URLSearchParams(query)));
    const statements = [{ sql: list.sql, params: list.params }, ...(list.nulls ? [{ sql: list.nulls.rows.sql, params: [...list.nulls.rows.params, 21, 0] }] : [])];
    return statements.flatMap(({ sql, params }) => (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail));
  };
  const FILTERS = [
    "status=sold",
    "status__in=sold,passed",
    "sale_status=upcoming",
    "sale_status__in=live,upcoming",
    "auction_house_id=3",
    "auction_house_id__in=3,4",
    "sale_auction_house_id=3",
    "sale_auction_house_id__in=3,4",
    "sale_id=5",
    "sale_id__in=5,6",
    "sale_location=Paris",
    "sale_location__in=Paris,Online",
    "sale_datetime__gte=2020-01-01",
    "sale_datetime__lte=1990-01-01",
    "hammer_price_usd__gte=1000000",
    "hammer_price_usd__lte=100",
    "hammer_price_estimate_max_usd__gte=1000000",
    "hammer_price_estimate_max_usd__lte=100",
    "premium_price_usd__gte=1000000",
    "premium_price_usd__lte=100",
    "artist_id=5",
    "artist_id__in=5,6",
    "artist_uid=x",
    "artwork_id=5",
    "artwork_id__in=5,6",
    "artwork_uid=x",
    "creation_year__gte=2020",
    "creation_year__lte=1800",
    "is_top=true",
    "is_top=false",
    "sale_probability__gte=0.5",
    "sale_probability__lte=0.2",
    "search=signed",
  ];

  test("the list declares exactly the documented filters", () => {
    const declared = Object.entries(LOT_LIST.fields).flatMap(([f, d]) => d.suffixes.map((s) => f + s));
    const tested = new Set(FILTERS.map((q) => q.split("=")[0]));
    expect(declared.filter((p) => !tested.has(p))).toEqual([]);
  });

  test("every filter alone (default sort, limit 20): no scan of the lots table without an index, in both adaptive branches", () => {
    const saved = { ...PLANNER };
    try {
      for (const thresholds of [saved, { rangeRows: 1, searchRows: 1, walkSlack: PLANNER.walkSlack, sortRows: PLANNER.sortRows }]) {
        Object.assign(PLANNER, thresholds);
        for (const q of FILTERS) {
          const details = plan(`${q}&limit=20`);
          expect({ q, thresholds, scans: details.filter((d) => d === "SCAN lots") }).toEqual({ q, thresholds, scans: [] });
        }
      }
    } finally {
      Object.assign(PLANNER, saved);
    }
  });

  test("a narrow price range drives the query from its own index; a broad one walks the sort's index", () => {
    const saved = { ...PLANNER };
    try {
      expect(plan("hammer_price_usd__gte=1000000").join(" ")).toContain("INDEX lots_hammer_usd");
      expect(plan("search=signed").join(" ")).toContain("LIST SUBQUERY");
      Object.assign(PLANNER, { rangeRows: 1, searchRows: 1 });
      // over the bound the planner leaves the plan to SQLite: a range of most sold lots walks the date index
      expect(plan("hammer_price_usd__gte=1").join(" ")).toContain("INDEX lots_date");
      expect(plan("search=signed").join(" ")).toContain("INDEX lots_date");
      // a driving filter keeps the planner's choice
      Object.assign(PLANNER, saved);
      expect(plan("artist_id=5&hammer_price_usd__gte=1000000").join(" ")).toContain("INDEX lots_artist_date");
    } finally {
      Object.assign(PLANNER, saved);
    }
  });

  test("every sort unfiltered (limit 20): walked in an index's order, no temp B-tree", () => {
    for (const sort of Object.keys(LOT_SORTS)) {
      const details = plan(`sort=${sort}&limit=20`);
      expect({ sort, sorts: details.filter((d) => d.includes("TEMP B-TREE")) }).toEqual({ sort, sorts: [] });
      // RAW_LOT_ID walks the table itself in rowid (= id) order: its primary key is the index; so
      // do the NULL rows of the chance of selling (its index holds the lots with one alone)
      if (sort.startsWith("RAW_LOT_ID")) expect(details).toEqual(["SCAN lots"]);
      else if (sort.startsWith("SALE_PROBABILITY")) expect({ sort, nulls: details.slice(1) }).toEqual({ sort, nulls: ["SCAN lots"] });
      else expect({ sort, scans: details.filter((d) => d === "SCAN lots") }).toEqual({ sort, scans: [] });
    }
  });

  test("the common combinations read one index in order", () => {
    const expectations: [string, string][] = [
      ["artist_id=5&sort=SALE_DATE_DESC", "lots_artist_date"],
      ["sale_id=5&sort=NUMBER_ASC", "lots_sale"],
      ["status=sold&sort=SALE_DATE_DESC", "lots_date"],
      ["status=withdrawn&sort=SALE_DATE_DESC", "lots_withdrawn"],
      ["status=upcoming&sort=SALE_DATE_ASC", "lots_upcoming"],
      ["auction_house_id=3&sort=SALE_DATE_ASC", "lots_house_date"],
      ["sale_location=Paris", "lots_location_date"],
      ["is_top=true", "lots_top"],
    ];
    for (const [q, index] of expectations) {
      const details = plan(`${q}&limit=20`);
      expect({ q, index: details.some((d) => new RegExp(`INDEX ${index}( |$)`).test(d)), temp: details.some((d) => d.includes("TEMP B-TREE")) }).toEqual({
        q,
        index: true,
        temp: false,
      });
    }
  });
});

describe("a sort with an equality filter matching many lots walks the sort's index", () => {
  const SORTS = [
    "RAW_LOT_ID_ASC",
    "RAW_LOT_ID_DESC",
    "NUMBER_ASC",
    "NUMBER_DESC",
    "CREATION_YEAR_ASC",
    "CREATION_YEAR_DESC",
    "HAMMER_PRICE_ESTIMATE_MIN_ASC",
    "HAMMER_PRICE_ESTIMATE_MIN_DESC",
    "HAMMER_PRICE_ESTIMATE_MAX_ASC",
    "HAMMER_PRICE_ESTIMATE_MAX_DESC",
  ];
  const INDEX: Record<string, string> = {
    RAW: " NOT INDEXED",
    NUMBER: " INDEXED BY lots_sale",
    CREATION: " INDEXED BY lots_creation_year",
    HAMMER_PRICE_ESTIMATE_MIN: " INDEXED BY lots_estimate_min_usd",
    HAMMER_PRICE_ESTIMATE_MAX: " INDEXED BY lots_estimate_max_usd",
  };
  const indexOf = (sort: string) => INDEX[Object.keys(INDEX).find((k) => sort.startsWith(k))!]!;
  const sqlOf = (qs: string) => lotListSql(db, parseList(LOT_LIST, new URLSearchParams(qs))).sql;

  test("status=sold (most lots): the sort's own index; a house with fewer lots than √(page × lots): its own index of the sort, else SQLite's plan", () => {
    const lots = (db.query("SELECT max(id) AS n FROM lots").get() as { n: number }).n;
    const bound = Math.ceil(Math.sqrt(21 * lots));
    const sold = (db.query("SELECT count(*) AS n FROM lots WHERE status = 'sold'").get() as { n: number }).n;
    expect(sold).toBeGreaterThan(bound);
    const small = db.query("SELECT house_id AS v, count(*) AS n FROM lots GROUP BY house_id HAVING n < ? ORDER BY n DESC LIMIT 1").get(bound) as { v: number; n: number };
    for (const sort of SORTS) {
      expect({ sort, from: sqlOf(`status=sold&sort=${sort}&limit=20`).split(" WHERE ")[0] }).toEqual({ sort, from: `SELECT id FROM lots${indexOf(sort)}` });
      // the NUMBER sorts read a house's sales in order (saleScope); the creation year and the
      // estimates, the house's own index of the sort; the id order is left to SQLite
      const byHouse = sort.startsWith("NUMBER")
        ? " INDEXED BY lots_sale"
        : sort.startsWith("RAW")
          ? ""
          : ` INDEXED BY lots_house_${sort.startsWith("CREATION") ? "creation_year" : sort.includes("MIN") ? "estimate_min" : "estimate_max"}`;
      expect({ sort, from: sqlOf(`auction_house_id=${small.v}&sort=${sort}&limit=20`).split(" WHERE ")[0] }).toEqual({ sort, from: `SELECT id FROM lots${byHouse}` });
      // an artist, an artwork or a sale is a small set of its own: SQLite's plan
      expect(sqlOf(`status=sold&artist_id=5&sort=${sort}&limit=20`)).not.toContain("INDEXED");
    }
  });

  test("when the walk does not find the page within its budget, the filter's rows are sorted from its own index", () => {
    const saved = { ...PLANNER };
    const location = db
      .query("SELECT l.location_id AS id, a.name FROM lots l JOIN auction_locations a ON a.id = l.location_id GROUP BY l.location_id ORDER BY count(*) DESC LIMIT 1")
      .get() as { id: number; name: string };
    const qs = (sort: string) => `sale_location=${encodeURIComponent(location.name)}&sort=${sort}&limit=20`;
    // the NUMBER sorts with a location read its sales in order (saleScope), never this way
    const walked = SORTS.filter((sort) => !sort.startsWith("NUMBER"));
    try {
      Object.assign(PLANNER, { walkSlack: 0 });
      for (const sort of walked) expect(sqlOf(qs(sort))).toContain("INDEXED BY lots_location_date");
      // more rows than PLANNER.sortRows: the walk goes on
      const n = (db.query("SELECT count(*) AS n FROM lots WHERE location_id = ?").get(location.id) as { n: number }).n;
      Object.assign(PLANNER, { walkSlack: 0, sortRows: n - 1 });
      for (const sort of walked) expect({ sort, from: sqlOf(qs(sort)).split(" WHERE ")[0] }).toEqual({ sort, from: `SELECT id FROM lots${indexOf(sort)}` });
      Object.assign(PLANNER, { walkSlack: 0, sortRows: n });
      for (const sort of walked) expect(sqlOf(qs(sort))).toContain("INDEXED BY lots_location_date");
      // sold has no index of its own (most lots): always the sort's index
      for (const sort of SORTS)
        expect({ sort, from: sqlOf(`status=sold&sort=${sort}&limit=20`).split(" WHERE ")[0] }).toEqual({ sort, from: `SELECT id FROM lots${indexOf(sort)}` });
    } finally {
      Object.assign(PLANNER, saved);
    }
  });

  for (const [branch, slack, sortRows] of [
    ["walked", PLANNER.walkSlack, PLANNER.sortRows],
    ["sorted", 0, PLANNER.sortRows],
    ["walked on", 0, 0],
  ] as const) {
    test(`pages (${branch}) equal the reference ORDER BY, with status, is_top and a location`, () => {
      const saved = { ...PLANNER };
      try {
        Object.assign(PLANNER, { walkSlack: slack, sortRows });
        const location = db
          .query("SELECT l.location_id AS id, a.name FROM lots l JOIN auction_locations a ON a.id = l.location_id GROUP BY l.location_id ORDER BY count(*) DESC LIMIT 1")
          .get() as { id: number; name: string };
        const cases: [string, string][] = [
          ["status=sold", "status = 'sold'"],
          ["status__in=sold,passed", "status IN ('sold', 'passed')"],
          ["is_top=false", "is_top = 0"],
          [`sale_location=${encodeURIComponent(location.name)}`, `location_id = ${location.id}`],
          ["status=passed&is_top=false", "status = 'passed' AND is_top = 0"],
          ["status=withdrawn", "status = 'withdrawn'"],
          ["status=upcoming", "status = 'upcoming'"],
        ];
        for (const sort of SORTS) {
          for (const [qs, cond] of cases) {
            const expected = (db.query(`SELECT id FROM lots WHERE ${cond} ORDER BY ${LOT_SORTS[sort]}`).all() as { id: number }[]).map((r) => r.id);
            for (const offset of [0, 7, 300]) {
              const got = lotListIds(db, parseList(LOT_LIST, new URLSearchParams(`${qs}&sort=${sort}&limit=20&offset=${offset}`)));
              expect({ sort, qs, offset, got }).toEqual({ sort, qs, offset, got: expected.slice(offset, offset + 21) });
            }
          }
        }
      } finally {
        Object.assign(PLANNER, saved);
      }
    });
  }
});

describe("plans for filters that sit late in a sort's order", () => {
  const listOf = (qs: string) => lotListSql(db, parseList(LOT_LIST, new URLSearchParams(qs)));
  const planOf = (qs: string) => {
    const list = listOf(qs);
    const statements = [{ sql: list.sql, params: list.params }, ...(list.nulls ? [{ sql: list.nulls.rows.sql, params: [...list.nulls.rows.params, 21, 0] }] : [])];
    return statements.flatMap(({ sql, params }) => (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail));
  };
  const reference = (cond: string, sort: string) => (db.query(`SELECT id FROM lots WHERE ${cond} ORDER BY ${LOT_SORTS[sort]}`).all() as { id: number }[]).map((r) => r.id);
  const expectPages = (qs: string, cond: string, sort: string) => {
    const expected = reference(cond, sort);
    for (const offset of [0, 7, 300]) {
      const got = lotListIds(db, parseList(LOT_LIST, new URLSearchParams(`${qs}&sort=${sort}&limit=20&offset=${offset}`)));
      expect({ qs, sort, offset, got }).toEqual({ qs, sort, offset, got: expected.slice(offset, offset + 21) });
    }
  };

  test("a house or a location with a NUMBER sort reads its sales' lots from lots_sale in order, no sort", () => {
    const house = one<{ v: number }>("SELECT house_id AS v FROM lots GROUP BY house_id ORDER BY count(*) DESC LIMIT 1").v;
    const houses = column("SELECT house_id AS id FROM lots GROUP BY house_id ORDER BY count(*) DESC LIMIT 2");
    const location = one<{ id: number; name: string }>(
      "SELECT l.location_id AS id, a.name FROM lots l JOIN auction_locations a ON a.id = l.location_id GROUP BY l.location_id ORDER BY count(*) DESC LIMIT 1",
    );
    const cases: [string, string][] = [
      [`auction_house_id=${house}`, `house_id = ${house}`],
      [`auction_house_id__in=${houses.join(",")}`, `house_id IN (${houses.join(", ")})`],
      [`sale_location=${encodeURIComponent(location.name)}`, `location_id = ${location.id}`],
      [`sale_location=${encodeURIComponent(location.name)}&status=sold`, `location_id = ${location.id} AND status = 'sold'`],
    ];
    for (const [qs, cond] of cases) {
      for (const sort of ["NUMBER_ASC", "NUMBER_DESC"]) {
        const sql = listOf(`${qs}&sort=${sort}&limit=20`).sql;
        expect({ qs, sort, from: sql.split(" WHERE ")[0], sales: sql.includes("sale_id IN (SELECT id FROM sales WHERE ") }).toEqual({
          qs,
          sort,
          from: "SELECT id FROM lots INDEXED BY lots_sale",
          sales: true,
        });
        const details = planOf(`${qs}&sort=${sort}&limit=20`);
        expect({ qs, sort, temp: details.filter((d) => d.includes("TEMP B-TREE")), lookup: details.some((d) => d.includes("INDEX lots_sale (sale_id=?)")) }).toEqual({
          qs,
          sort,
          temp: [],
          lookup: true,
        });
        expectPages(qs, cond, sort);
      }
    }
    // a sale, an artist or an artwork is a small set of its own: not this plan
    expect(listOf(`auction_house_id=${house}&artist_id=5&sort=NUMBER_ASC`).sql).not.toContain("FROM sales");
  });

  test("a status or is_top: the head of the sort's order without a matching lot is skipped by a range, the same pages", () => {
    const soldMax = one<{ v: number }>("SELECT max(sale_id) AS v FROM lots WHERE status = 'sold'").v;
    const sold = listOf("status=sold&sort=NUMBER_DESC&limit=20");
    expect(sold.sql).toContain("sale_id <= ?");
    expect(sold.params).toContain(soldMax);
    // a nullable column: the rows with a value as a seek (an OR with the NULLs would walk the head
    // entry by entry), then the NULL rows, last in id order
    const top = listOf("is_top=false&sort=HAMMER_PRICE_ESTIMATE_MIN_DESC&limit=20");
    expect(top.sql).toContain("is_top = 0 AND estimate_min_usd_cents <= ? AND (estimate_min_usd_cents, id) <= (?, ?) ORDER BY");
    expect(top.sql).not.toContain("IS NULL");
    expect(top.nulls?.rows.sql).toContain("estimate_min_usd_cents IS NULL ORDER BY id DESC");
    expect(top.nulls?.rows.sql).not.toContain("estimate_min_usd_cents <=");
    const plan = (db.query(`EXPLAIN QUERY PLAN ${top.sql}`).all(...top.params) as { detail: string }[]).map((r) => r.detail);
    expect(plan.some((d) => /SEARCH lots USING (COVERING )?INDEX lots_estimate_min_usd \(estimate_min_usd_cents<\?\)/.test(d))).toBe(true);
    // from the first lot itself: its value, then its value and id (past the run of its value before it)
    const firstNotTop = one<{ v: number; id: number }>("SELECT estimate_min_usd_cents AS v, id FROM lots WHERE is_top = 0 ORDER BY estimate_min_usd_cents DESC, id DESC LIMIT 1");
    expect(top.params.slice(0, 3)).toEqual([firstNotTop.v, firstNotTop.v, firstNotTop.id]);
    // the default order, the sale date's: the sales to come are its head
    const soldLast = one<{ v: number }>("SELECT max(sale_datetime) AS v FROM lots WHERE status = 'sold'").v;
    expect(soldLast).toBeLessThan(one<{ v: number }>("SELECT max(sale_datetime) AS v FROM lots").v);
    const byDate = listOf("status=sold&limit=20");
    expect(byDate.sql).toContain("sale_datetime <= ?");
    expect(byDate.params).toContain(soldLast);
    const HEAD_SORTS = [
      "SALE_DATE_ASC",
      "SALE_DATE_DESC",
      "RAW_LOT_ID_ASC",
      "RAW_LOT_ID_DESC",
      "NUMBER_ASC",
      "NUMBER_DESC",
      "CREATION_YEAR_ASC",
      "CREATION_YEAR_DESC",
      "HAMMER_PRICE_ESTIMATE_MIN_ASC",
      "HAMMER_PRICE_ESTIMATE_MIN_DESC",
      "HAMMER_PRICE_ESTIMATE_MAX_DESC",
    ];
    const cases: [string, string][] = [
      ["status=sold", "status = 'sold'"],
      ["status=passed", "status = 'passed'"],
      ["status=withdrawn", "status = 'withdrawn'"],
      ["is_top=false", "is_top = 0"],
      ["status=passed&is_top=false", "status = 'passed' AND is_top = 0"],
    ];
    for (const sort of HEAD_SORTS) for (const [qs, cond] of cases) expectPages(qs, cond, sort);
    // a status no lot has: a range of none
    const none = (["unknown", "withdrawn", "upcoming", "passed"] as const).find((s) => one<{ n: number }>("SELECT count(*) AS n FROM lots WHERE status = ?", s).n === 0);
    if (none) {
      expect(listOf(`status=${none}&sort=NUMBER_DESC&limit=20`).sql).toContain(" AND 0 ");
      expect(lotListIds(db, parseList(LOT_LIST, new URLSearchParams(`status=${none}&sort=NUMBER_DESC`)))).toEqual([]);
    }
  });

  test("is_top=false by estimate: the head's first lot is the walk's first entry the top lots' index lacks", () => {
    const fresh = new Database(db.filename, { readonly: true });
    try {
      for (const [sort, x] of [
        ["HAMMER_PRICE_ESTIMATE_MAX_DESC", "estimate_max_usd_cents"],
        ["HAMMER_PRICE_ESTIMATE_MIN_DESC", "estimate_min_usd_cents"],
      ]) {
        const list = lotListSql(fresh, parseList(LOT_LIST, new URLSearchParams(`is_top=false&sort=${sort}&limit=20`)));
        const first = one<{ v: number; id: number }>(`SELECT ${x} AS v, id FROM lots WHERE is_top = 0 AND ${x} IS NOT NULL ORDER BY ${x} DESC, id DESC LIMIT 1`);
        // the range starts at that lot itself: its value, then (value, id)
        expect({ sort, params: list.params.slice(0, 3) }).toEqual({ sort, params: [first.v, first.v, first.id] });
        const got = lotListIds(fresh, parseList(LOT_LIST, new URLSearchParams(`is_top=false&sort=${sort}&limit=20&offset=5`)));
        expect({ sort, got }).toEqual({ sort, got: reference("is_top = 0", sort!).slice(5, 26) });
      }
    } finally {
      fresh.close();
    }
  });

  test("by sale date, a rare filter's head is the first or last entry of its own index (it leads with the date), not walked", () => {
    const fresh = new Database(db.filename, { readonly: true });
    const saved = { ...HEAD_WALK };
    try {
      // a walk's budget of one entry, which the filters' lots outnumber: the newest lot is upcoming,
      // so a walk of lots_date newest first would find it at once (and give its id)
      Object.assign(HEAD_WALK, { rare: 1 });
      expect(one<{ status: string }>("SELECT status FROM lots ORDER BY sale_datetime DESC, id DESC LIMIT 1").status).toBe("upcoming");
      const of = (qs: string) => lotListSql(fresh, parseList(LOT_LIST, new URLSearchParams(qs)));
      const newest = of("status=upcoming&sort=SALE_DATE_DESC&limit=20");
      expect(newest.params).toContain(one<{ v: number }>("SELECT max(sale_datetime) AS v FROM lots WHERE status = 'upcoming'").v);
      const byDate = of("status=upcoming&sort=SALE_DATE_ASC&limit=20");
      expect(byDate.sql).toContain("sale_datetime >= ?");
      expect(byDate.params).toContain(one<{ v: number }>("SELECT min(sale_datetime) AS v FROM lots WHERE status = 'upcoming'").v);
      const topByDate = of("is_top=true&sort=SALE_DATE_DESC&limit=20");
      expect(topByDate.sql).toContain("sale_datetime <= ?");
      expect(topByDate.params).toContain(one<{ v: number }>("SELECT max(sale_datetime) AS v FROM lots WHERE is_top = 1").v);
      // read on the index: no lot's id to start the range at, as a walk gives
      expect([newest.sql, byDate.sql, topByDate.sql].filter((sql) => sql.includes("(sale_datetime, id)"))).toEqual([]);
      for (const [qs, cond] of [
        ["status=upcoming", "status = 'upcoming'"],
        ["is_top=true", "is_top = 1"],
      ]) {
        for (const sort of ["SALE_DATE_ASC", "SALE_DATE_DESC"]) {
          const got = lotListIds(fresh, parseList(LOT_LIST, new URLSearchParams(`${qs}&sort=${sort}&limit=20&offset=3`)));
          expect({ qs, sort, got }).toEqual({ qs, sort, got: reference(cond!, sort).slice(3, 24) });
        }
      }
    } finally {
      Object.assign(HEAD_WALK, saved);
      fresh.close();
    }
  });

  test("a head the walk does not cross: a rare status's first lot from its own index; a status of most lots: no range", () => {
    // a connection of its own: the heads are kept per connection
    const fresh = new Database(db.filename, { readonly: true });
    const saved = { ...HEAD_WALK };
    try {
      Object.assign(HEAD_WALK, { rare: 0, dense: 0 });
      const of = (qs: string) => lotListSql(fresh, parseList(LOT_LIST, new URLSearchParams(qs)));
      const withdrawn = of("status=withdrawn&sort=CREATION_YEAR_DESC&limit=20");
      expect(withdrawn.sql).toContain("creation_year <= ?");
      expect(withdrawn.params).toContain(one<{ v: number }>("SELECT max(creation_year) AS v FROM lots WHERE status = 'withdrawn'").v);
      const upcoming = of("status=upcoming&sort=CREATION_YEAR_ASC&limit=20");
      expect(upcoming.sql).toContain("creation_year >= ?");
      expect(upcoming.nulls?.rows.sql).not.toContain("creation_year >= ?");
      expect(upcoming.params).toContain(one<{ v: number }>("SELECT min(creation_year) AS v FROM lots WHERE status = 'upcoming'").v);
      expect(of("status=sold&sort=NUMBER_DESC&limit=20").sql).not.toContain("sale_id <=");

      for (const [qs, cond] of [
        ["status=withdrawn", "status = 'withdrawn'"],
        ["status=upcoming", "status = 'upcoming'"],
        ["status=sold", "status = 'sold'"],
      ]) {
        for (const sort of ["NUMBER_DESC", "CREATION_YEAR_ASC", "RAW_LOT_ID_ASC", "SALE_DATE_ASC", "SALE_DATE_DESC"]) {
          const expected = reference(cond!, sort);
          const got = lotListIds(fresh, parseList(LOT_LIST, new URLSearchParams(`${qs}&sort=${sort}&limit=20&offset=7`)));
          expect({ qs, sort, got }).toEqual({ qs, sort, got: expected.slice(7, 28) });
        }
      }
    } finally {
      Object.assign(HEAD_WALK, saved);
      fresh.close();
    }
  });

  test("top lots and upcoming lots by estimate, top, withdrawn and upcoming lots by number: their own partial index, read in order (both ranges of an ASC sort), the same pages", () => {
    const cases: [string, string, string][] = [
      ["is_top=true", "is_top = 1", "lots_top_estimate"],
      ["status=upcoming", "status = 'upcoming'", "lots_upcoming_estimate"],
    ];
    // an ASC sort's plan is both its ranges (the NULLs' too), each on the partial index
    for (const [qs, cond, prefix] of cases) {
      for (const sort of ["HAMMER_PRICE_ESTIMATE_MIN_ASC", "HAMMER_PRICE_ESTIMATE_MIN_DESC", "HAMMER_PRICE_ESTIMATE_MAX_ASC", "HAMMER_PRICE_ESTIMATE_MAX_DESC"]) {
        const index = `${prefix}_${sort.includes("MIN") ? "min" : "max"}`;
        expect(listOf(`${qs}&sort=${sort}&limit=20`).sql.split(" WHERE ")[0]).toBe(`SELECT id FROM lots INDEXED BY ${index}`);
        const details = planOf(`${qs}&sort=${sort}&limit=20`);
        expect({ qs, sort, temp: details.filter((d) => d.includes("TEMP B-TREE")), every: details.every((d) => d.includes(index)) }).toEqual({ qs, sort, temp: [], every: true });
        expectPages(qs, cond, sort);
      }
    }
    // the top lots by number: lots_top_sale; the withdrawn and upcoming ones: lots_withdrawn_sale, lots_upcoming_sale
    for (const [qs, cond, index] of [
      ["is_top=true", "is_top = 1", "lots_top_sale"],
      ["status=withdrawn", "status = 'withdrawn'", "lots_withdrawn_sale"],
      ["status=upcoming", "status = 'upcoming'", "lots_upcoming_sale"],
    ]) {
      for (const sort of ["NUMBER_ASC", "NUMBER_DESC"]) {
        expect(listOf(`${qs}&sort=${sort}&limit=20`).sql.split(" WHERE ")[0]).toBe(`SELECT id FROM lots INDEXED BY ${index}`);
        expect(planOf(`${qs}&sort=${sort}&limit=20`).filter((d) => d.includes("TEMP B-TREE"))).toEqual([]);
        expectPages(qs!, cond!, sort);
      }
    }
  });

  test("a house by creation year or estimate: the house's own index of the sort, read in order (both ranges of an ASC sort), the same pages", () => {
    const houses = column("SELECT house_id AS id FROM lots GROUP BY house_id ORDER BY count(*) DESC");
    const [busiest, quietest] = [houses[0]!, houses.at(-1)!];
    const sorts = ["CREATION_YEAR", "HAMMER_PRICE_ESTIMATE_MIN", "HAMMER_PRICE_ESTIMATE_MAX"].flatMap((k) => [`${k}_ASC`, `${k}_DESC`]);
    const cases: [string, string][] = [
      [`auction_house_id=${busiest}`, `house_id = ${busiest}`],
      [`sale_auction_house_id=${quietest}`, `house_id = ${quietest}`],
      [`auction_house_id=${busiest}&status=sold`, `house_id = ${busiest} AND status = 'sold'`],
      [`auction_house_id=${busiest}&is_top=true`, `house_id = ${busiest} AND is_top = 1`],
    ];
    for (const [qs, cond] of cases) {
      for (const sort of sorts) {
        const index = `lots_house_${sort.startsWith("CREATION") ? "creation_year" : sort.includes("MIN") ? "estimate_min" : "estimate_max"}`;
        expect({ qs, sort, from: listOf(`${qs}&sort=${sort}&limit=20`).sql.split(" WHERE ")[0] }).toEqual({ qs, sort, from: `SELECT id FROM lots INDEXED BY ${index}` });
        const details = planOf(`${qs}&sort=${sort}&limit=20`);
        expect({ qs, sort, temp: details.filter((d) => d.includes("TEMP B-TREE")), seek: details.every((d) => d.includes(`${index} (house_id=?`)) }).toEqual({
          qs,
          sort,
          temp: [],
          seek: true,
        });
        expectPages(qs, cond, sort);
      }
    }
    // several houses, another sort, or a driving filter: not this index
    expect(listOf(`auction_house_id__in=${houses.slice(0, 2).join(",")}&sort=CREATION_YEAR_ASC&limit=20`).sql).not.toContain("lots_house_creation_year");
    expect(listOf(`auction_house_id=${busiest}&sort=SALE_PROBABILITY_ASC&limit=20`).sql).not.toMatch(/lots_house_(creation|estimate)/);
    expect(listOf(`auction_house_id=${busiest}&artist_id=5&sort=CREATION_YEAR_ASC&limit=20`).sql).not.toMatch(/lots_house_(creation|estimate)/);
    expectPages(`auction_house_id__in=${houses.slice(0, 2).join(",")}`, `house_id IN (${houses.slice(0, 2).join(", ")})`, "CREATION_YEAR_ASC");
  });

  test("a walk the plan's probe already read is the page: the same ids as the list's statement", () => {
    const location = one<{ name: string }>("SELECT a.name FROM lots l JOIN auction_locations a ON a.id = l.location_id GROUP BY l.location_id ORDER BY count(*) DESC LIMIT 1");
    let walked = 0;
    for (const sort of ["RAW_LOT_ID_DESC", "CREATION_YEAR_ASC", "CREATION_YEAR_DESC", "HAMMER_PRICE_ESTIMATE_MIN_DESC", "HAMMER_PRICE_ESTIMATE_MAX_ASC"]) {
      for (const qs of [`sale_location=${encodeURIComponent(location.name)}`, "status=withdrawn", "is_top=true"]) {
        for (const offset of [0, 7, 30]) {
          const list = listOf(`${qs}&sort=${sort}&limit=20&offset=${offset}`);
          if (!list.walked) continue;
          walked++;
          const ran = (db.query(list.sql).all(...list.params) as { id: number }[]).map((r) => r.id);
          expect({ qs, sort, offset, ids: list.walked }).toEqual({ qs, sort, offset, ids: ran });
          expect(list.walked.length).toBe(21);
        }
      }
    }
    expect(walked).toBeGreaterThan(0);
  });

  test("a common search with an indexed sort: its matches as a list, checked while the sort's index is walked; more common: a check per row", () => {
    const saved = { ...PLANNER };
    const savedList = SEARCH_PLAN.listRows;
    try {
      Object.assign(PLANNER, { searchRows: 1 });
      for (const sort of ["CREATION_YEAR_ASC", "HAMMER_PRICE_ESTIMATE_MAX_ASC", "NUMBER_DESC"]) {
        const sql = listOf(`search=signed&sort=${sort}&limit=20`).sql;
        expect({ sort, list: sql.includes("id IN (SELECT rowid FROM lots_fts"), from: sql.split(" WHERE ")[0] }).toEqual({
          sort,
          list: true,
          from: `SELECT id FROM lots INDEXED BY ${sort.startsWith("NUMBER") ? "lots_sale" : sort.startsWith("CREATION") ? "lots_creation_year" : "lots_estimate_max_usd"}`,
        });
        expect(planOf(`search=signed&sort=${sort}&limit=20`).filter((d) => d.includes("TEMP B-TREE"))).toEqual([]);
      }
      // RAW_LOT_ID: the table in rowid order
      expect(listOf("search=signed&sort=RAW_LOT_ID_DESC&limit=20").sql).toContain("FROM lots NOT INDEXED");
      // a sort without its own index here, or a driving filter: not named
      expect(listOf("search=signed&sort=SALE_DATE_DESC&limit=20").sql).not.toContain("INDEXED");
      expect(listOf("search=signed&artist_id=5&sort=CREATION_YEAR_ASC&limit=20").sql).not.toContain("INDEXED");
      expect(listOf("search=signed&auction_house_id=3&sort=CREATION_YEAR_ASC&limit=20").sql).not.toContain("INDEXED");
      // a status of most lots leaves the walk
      expect(listOf("search=signed&status=sold&sort=CREATION_YEAR_ASC&limit=20").sql).toContain("INDEXED BY lots_creation_year");
      SEARCH_PLAN.listRows = 1;
      const sql = listOf("search=signed&sort=CREATION_YEAR_ASC&limit=20").sql;
      expect(sql).toContain("EXISTS (SELECT 1 FROM lots_fts");
      expect(sql).not.toContain("INDEXED");
    } finally {
      Object.assign(PLANNER, saved);
      SEARCH_PLAN.listRows = savedList;
    }
  });
});
