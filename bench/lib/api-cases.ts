/**
 * bench/api's query mix: the requests a real client sends, as cases (one endpoint and one kind of
 * question each), with concrete URLs drawn from the market so that no two consecutive requests
 * ask the same thing. The draws are seeded (the same market and seed give the same URLs), and
 * every draw query goes through an index or reads a small table.
 */
import type { Database } from "bun:sqlite";
import { mulberry32 } from "../../src/market/random";
import type { ImageSigner } from "../../src/serve/images/urls";
import { LOT_LIST } from "../../src/serve/modules/lots/fields";
import { lotPage } from "../../src/serve/modules/lots/service";
import { looseList } from "./api-routes";

export interface CaseUrl {
  path: string;
  /** Sub-kind of the request within its case (the screener mix has several filter/sort combos). */
  variant: string;
}

export interface ApiCase {
  name: string;
  /** The endpoint it exercises, as in the docs. */
  endpoint: string;
  what: string;
  urls: CaseUrl[];
}

/** The follows of the bench user: ids by kind, most recently followed last. */
export interface Follows {
  artist: number[];
  artwork: number[];
  lot: number[];
  sale: number[];
}

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */

const enc = encodeURIComponent;

interface Draws {
  rnd: () => number;
  pick<T>(xs: readonly T[]): T;
  /** n distinct elements (all of them when there are fewer). */
  sample<T>(xs: readonly T[], n: number): T[];
  int(lo: number, hi: number): number;
}

function draws(seed: number): Draws {
  const rnd = mulberry32(seed);
  return {
    rnd,
    pick: (xs) => xs[Math.floor(rnd() * xs.length)]!,
    sample(xs, n) {
      const copy = [...xs];
      const k = Math.min(n, copy.length);
      for (let i = 0; i < k; i++) {
        const j = i + Math.floor(rnd() * (copy.length - i));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, k);
    },
    int: (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)),
  };
}

const ints = (db: Database, sql: string, ...params: (string | number)[]): number[] => (db.query(sql).values(...params) as [number][]).map((r) => r[0]);

/** The values at quantiles ps of an indexed column, NULLs left out (by its index). */
function quantilesOf(db: Database, table: string, column: string, ps: readonly number[]): number[] {
  const n = db.query<{ n: number }, []>(`SELECT count(${column}) AS n FROM ${table}`).get()!.n;
  const at = db.query<{ v: number }, [number]>(`SELECT ${column} AS v FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${column} LIMIT 1 OFFSET ?`);
  return ps.map((p) => at.get(Math.max(0, Math.min(n - 1, Math.floor(p * n))))?.v ?? 0);
}

/** Random existing ids of a table with an integer primary key, by probing the id range. */
function randomIds(db: Database, table: string, n: number, d: Draws): number[] {
  const { lo, hi } = db.query<{ lo: number; hi: number }, []>(`SELECT min(id) AS lo, max(id) AS hi FROM ${table}`).get()!;
  const next = db.query<{ id: number }, [number]>(`SELECT id FROM ${table} WHERE id >= ? ORDER BY id LIMIT 1`);
  const out = new Set<number>();
  for (let i = 0; i < n * 20 && out.size < n; i++) {
    const row = next.get(d.int(lo, hi));
    if (row) out.add(row.id);
  }
  return [...out];
}

/** Rounds a threshold to two significant digits, as a person would type it. */
function roundish(x: number): number {
  if (!(x > 0)) return 0;
  const p = 10 ** Math.max(0, Math.floor(Math.log10(x)) - 1);
  return Math.round(x / p) * p;
}

/**
 * The mix's cases, `n` URLs each (fewer where the market or the follows have fewer distinct
 * questions), and the follows the bench user should have (50 of each kind by default).
 */
export function buildCases(db: Database, o: { n: number; seed: number; follows: number }): { cases: ApiCase[]; follows: Follows } {
  const d = draws(o.seed);
  const n = o.n;

  // ---- what the draws pick from
  const nationalities = (db.query("SELECT nationality, count(*) AS c FROM artists GROUP BY nationality ORDER BY c DESC LIMIT 12").all() as { nationality: string }[]).map(
    (r) => r.nationality,
  );
  const capQuantiles = quantilesOf(db, "artists", "market_cap", [0.5, 0.75, 0.9, 0.97]).map(roundish);
  const salesQuantiles = quantilesOf(db, "artists", "total_sales", [0.5, 0.8, 0.95]).map(roundish);
  const estimateQuantiles = quantilesOf(db, "artworks", "estimate_usd", [0.5, 0.75, 0.9, 0.99]).map(roundish);
  // Artists a client looks at: half from the top of the market, half from everyone with sales.
  const top = ints(db, "SELECT id FROM artists ORDER BY market_cap DESC LIMIT 2000");
  const withSales = ints(db, "SELECT id FROM artists WHERE total_sales > 0");
  const artistPick = (k: number) => {
    const a = d.sample(top, Math.ceil(k / 2));
    const seen = new Set(a);
    const b = d.sample(withSales, k).filter((id) => !seen.has(id));
    return [...a, ...b].slice(0, k).sort(() => d.rnd() - 0.5);
  };
  const artists = artistPick(n);
  const names = (db.query(`SELECT name FROM artists WHERE id IN (${top.slice(0, 500).join(",")})`).values() as [string][]).map((r) => r[0]);
  const categories = ints(db, "SELECT id FROM categories ORDER BY id");
  const sales = d.sample(ints(db, "SELECT id FROM sales WHERE lots_count > 0"), n);
  const houses = ints(db, "SELECT DISTINCT house_id FROM sales ORDER BY house_id");
  const cycle = <T>(xs: readonly T[], i: number) => xs[i % xs.length]!;

  // ---- the screener: nationality__in + market_cap__gte + sort_by=MOMENTUM_12MO
  const screener: CaseUrl[] = [];
  for (let i = 0; i < n; i++) {
    const nats = d.sample(nationalities, d.int(1, 3)).map(enc).join(",");
    screener.push({ path: `/v1/artists?nationality__in=${nats}&market_cap__gte=${d.pick(capQuantiles)}&sort_by=MOMENTUM_12MO`, variant: "nationality+market_cap/MOMENTUM_12MO" });
  }

  // ---- other screener combos, in turn
  const combos: ((i: number) => CaseUrl)[] = [
    () => {
      const y = d.int(1850, 1985);
      return { path: `/v1/artists?birth__gte=${y}&birth__lte=${y + d.pick([10, 20, 30])}&sort_by=MARKET_CAP`, variant: "birth range/MARKET_CAP" };
    },
    () => ({ path: `/v1/artists?is_living=true&total_sales__gte=${d.pick(salesQuantiles)}&sort_by=TOTAL_SALES`, variant: "living+total_sales/TOTAL_SALES" }),
    () => ({ path: `/v1/artists?nationality__in=${enc(d.pick(nationalities))}&sort_by=NAME`, variant: "nationality/NAME" }),
    () => ({
      path: `/v1/artists?price_momentum_percentage_12mo__gte=${d.pick([0, 10, 25, 50])}&sort_by=MEDIAN_1YR`,
      variant: "momentum_12mo/MEDIAN_1YR",
    }),
    () => ({ path: `/v1/artists?total_sales__gte=${d.pick(salesQuantiles)}&sort_by=MOMENTUM_5Y&sort_dir=asc`, variant: "total_sales/MOMENTUM_5Y asc" }),
    () => {
      const word = d
        .pick(names)
        .split(/\s+/)[0]!
        .replace(/[^\p{L}\p{N}]/gu, "");
      return { path: `/v1/artists?q=${enc(word || "a")}&sort_by=MARKET_CAP`, variant: "q/MARKET_CAP" };
    },
  ];
  const screenerMix: CaseUrl[] = Array.from({ length: n }, (_, i) => combos[i % combos.length]!(i));

  // ---- artworks of an artist: artist_id + creation_year range + estimate floor + sort
  const artworkSorts = ["sort_by_price=desc", "sort=CREATION_YEAR_DESC", "sort=SALE_DATE_DESC", "sort=NAME_ASC"];
  const yearsOf = db.query<{ lo: number | null; hi: number | null }, [number]>("SELECT min(creation_year) AS lo, max(creation_year) AS hi FROM artworks WHERE artist_id = ?");
  const byArtist: CaseUrl[] = [];
  const productive = artistPick(n * 2);
  for (const id of productive) {
    if (byArtist.length >= n) break;
    const { lo, hi } = yearsOf.get(id)!;
    if (lo === null || hi === null) continue;
    const i = byArtist.length;
    const span = Math.max(1, Math.ceil((hi - lo) / 2));
    const from = lo + d.int(0, Math.max(0, hi - lo - span));
    const floor = i % 4 === 0 ? "" : `&current_estimated_price__gte=${d.pick(estimateQuantiles.slice(0, 2))}`;
    const sort = cycle(artworkSorts, i);
    byArtist.push({ path: `/v1/artworks?artist_id=${id}&creation_year__gte=${from}&creation_year__lte=${from + span}${floor}&${sort}`, variant: sort });
  }

  // ---- artworks of a category: category_id + creation_year range + estimate floor + sort
  const categorySorts = ["sort_by_price=desc", "sort=CREATION_YEAR_DESC", "sort=SALE_DATE_DESC"];
  const byCategory: CaseUrl[] = [];
  for (let i = 0; i < n; i++) {
    const y = d.int(1900, 2015);
    const sort = cycle(categorySorts, i);
    byCategory.push({
      path:
        `/v1/artworks?category_id=${d.pick(categories)}&creation_year__gte=${y}&creation_year__lte=${y + d.pick([10, 25, 50])}` +
        `&current_estimated_price__gte=${d.pick(estimateQuantiles)}&${sort}`,
      variant: sort,
    });
  }

  // ---- lots
  const lotsByArtist = artistPick(n).map((id) => ({ path: `/v1/lots?artist_id=${id}&sort=SALE_DATE_DESC`, variant: "artist/SALE_DATE_DESC" }));
  const lotsBySale = sales.map((id) => ({ path: `/v1/lots?sale_id=${id}&sort=NUMBER_ASC&limit=100`, variant: "sale/NUMBER_ASC" }));
  const salesByHouse = d.sample(houses, n).map((id) => ({ path: `/v1/sales?auction_house_id=${id}`, variant: "house" }));
  // the ASC sorts with NULLs last (read from the column's plain index, the rows with a value first):
  // alone at the first pages, and with a house, an artist, a status or a search. Not here: a broad
  // hammer range with these sorts, seconds a page at large (docs/api-lots-sales.md, what remains)
  const ascSorts = ["CREATION_YEAR_ASC", "HAMMER_PRICE_ESTIMATE_MIN_ASC", "HAMMER_PRICE_ESTIMATE_MAX_ASC"];
  const lotsAsc: CaseUrl[] = Array.from({ length: n }, (_, i) => {
    const sort = cycle(ascSorts, i);
    return { path: `/v1/lots?sort=${sort}&offset=${cycle([0, 20, 40, 100, 200], Math.floor(i / 3))}`, variant: sort };
  });
  const lotFilters: [string, () => string][] = [
    ["house", () => `auction_house_id=${d.pick(houses)}`],
    ["artist", () => `artist_id=${d.pick(artists)}`],
    ["status", () => `status=${d.pick(["sold", "passed", "withdrawn"])}`],
    ["search", () => `search=${enc(d.pick(["signed", "retrospective", "provenance", d.pick(names).split(/\s+/).at(-1)!]))}`],
  ];
  const lotsAscFiltered: CaseUrl[] = Array.from({ length: n }, (_, i) => {
    const sort = cycle(ascSorts, i);
    const [kind, filter] = cycle(lotFilters, Math.floor(i / 3));
    return { path: `/v1/lots?${filter()}&sort=${sort}`, variant: `${kind}/${sort}` };
  });

  // the sorts with an index of their own (id, lot number, creation year, the estimates; both
  // directions) with an equality filter matching many lots: a status, one of the busiest
  // locations, is_top (walked in the sort's order, or the filter's rows sorted when the page lies
  // deep: docs/api-lots-sales.md)
  const ownSorts = ["RAW_LOT_ID", "NUMBER", "CREATION_YEAR", "HAMMER_PRICE_ESTIMATE_MIN", "HAMMER_PRICE_ESTIMATE_MAX"].flatMap((k) => [`${k}_ASC`, `${k}_DESC`]);
  const busyLocations = db
    .query<{ name: string }, []>(
      "SELECT a.name FROM lots l INDEXED BY lots_location_date JOIN auction_locations a ON a.id = l.location_id GROUP BY l.location_id ORDER BY count(*) DESC LIMIT 3",
    )
    .all()
    .map((r) => r.name);
  const broadFilters: [string, () => string][] = [
    ["status", () => `status=${d.pick(["sold", "passed", "withdrawn", "upcoming"])}`],
    ["location", () => `sale_location=${enc(d.pick(busyLocations))}`],
    ["is_top", () => `is_top=${d.pick(["true", "false"])}`],
  ];
  const lotsBroadFiltered: CaseUrl[] = Array.from({ length: n }, (_, i) => {
    const sort = cycle(ownSorts, i);
    const [kind, filter] = cycle(broadFilters, Math.floor(i / ownSorts.length));
    return { path: `/v1/lots?${filter()}&sort=${sort}&offset=${cycle([0, 20, 100], Math.floor(i / 3))}`, variant: `${kind}/${sort}` };
  });

  // ---- follows: artists a client would follow, and random artworks, lots and sales
  const follows: Follows = {
    artist: artists.slice(0, o.follows),
    artwork: randomIds(db, "artworks", o.follows, d),
    lot: randomIds(db, "lots", o.follows, d),
    sale: d.sample(sales, o.follows),
  };
  // A client pages through its follows: the first page (default limit), then pages of 20.
  const followedPages = (path: string) => [{ path, variant: "first page" }, ...[0, 20, 40].map((offset) => ({ path: `${path}?limit=20&offset=${offset}`, variant: "page of 20" }))];

  const cases: ApiCase[] = [
    { name: "artists.screener", endpoint: "GET /v1/artists", what: "nationality__in + market_cap__gte, sort_by=MOMENTUM_12MO", urls: screener },
    { name: "artists.screener-mix", endpoint: "GET /v1/artists", what: "birth range, living, nationality, momentum, total_sales, q; six sorts", urls: screenerMix },
    {
      name: "artists.detail",
      endpoint: "GET /v1/artists/{id}",
      what: "one artist",
      urls: artists.map((id) => ({ path: `/v1/artists/${id}`, variant: "detail" })),
    },
    {
      name: "artists.chart",
      endpoint: "GET /v1/artists/{id}/chart",
      what: "monthly price index",
      urls: artists.map((id) => ({ path: `/v1/artists/${id}/chart`, variant: "monthly" })),
    },
    { name: "artworks.by-artist", endpoint: "GET /v1/artworks", what: "artist_id + creation_year range + estimate floor, four sorts", urls: byArtist },
    { name: "artworks.by-category", endpoint: "GET /v1/artworks", what: "category_id + creation_year range + estimate floor, three sorts", urls: byCategory },
    { name: "lots.by-artist", endpoint: "GET /v1/lots", what: "artist_id, sort=SALE_DATE_DESC", urls: lotsByArtist },
    { name: "lots.by-sale", endpoint: "GET /v1/lots", what: "sale_id, sort=NUMBER_ASC, limit=100", urls: lotsBySale },
    { name: "lots.asc-sorts", endpoint: "GET /v1/lots", what: "CREATION_YEAR, ESTIMATE_MIN, ESTIMATE_MAX _ASC (NULLs last), offsets 0-200", urls: lotsAsc },
    { name: "lots.asc-sorts-filtered", endpoint: "GET /v1/lots", what: "the three _ASC sorts with a house, an artist, a status or a search", urls: lotsAscFiltered },
    { name: "lots.sorts-broad-filter", endpoint: "GET /v1/lots", what: "ten own-index sorts with a status, a busy location or is_top, offsets 0-100", urls: lotsBroadFiltered },
    { name: "sales.by-house", endpoint: "GET /v1/sales", what: "auction_house_id (default sort)", urls: salesByHouse },
    { name: "artists.followed", endpoint: "GET /v1/artists/followed", what: `${o.follows} follows`, urls: followedPages("/v1/artists/followed") },
    { name: "artworks.followed", endpoint: "GET /v1/artworks/followed", what: `${o.follows} follows`, urls: followedPages("/v1/artworks/followed") },
    { name: "lots.followed", endpoint: "GET /v1/lots/followed", what: `${o.follows} follows`, urls: followedPages("/v1/lots/followed") },
    { name: "sales.followed", endpoint: "GET /v1/sales/followed", what: `${o.follows} follows`, urls: followedPages("/v1/sales/followed") },
  ];
  return { cases, follows };
}

/** The whole mix as one URL list: the cases in turn, so that each weighs the same. */
export function mixUrls(cases: readonly ApiCase[]): CaseUrl[] {
  const out: CaseUrl[] = [];
  const longest = Math.max(...cases.map((c) => c.urls.length));
  for (let i = 0; i < longest; i++) for (const c of cases) out.push({ ...c.urls[i % c.urls.length]!, variant: c.name });
  return out;
}

/** The deep page of lots.deep-page: page DEEP_PAGE of DEEP_LIMIT rows. */
export const DEEP_PAGE = 1000;
export const DEEP_LIMIT = 20;
/** The case's target: the p95 of page DEEP_PAGE by cursor within this factor of the first page's. */
export const DEEP_TARGET = 1.5;

/**
 * lots.deep-page: broad lot lists (no filter, or a status of most lots; the date, id, number and
 * estimate sorts), each as its first page, page DEEP_PAGE by cursor and page DEEP_PAGE by offset
 * (variants). Each cursor is the next_cursor of page DEEP_PAGE - 1, made in process by the lot
 * list's service with the server's signing secret (`signer`: the run directory's), as a client
 * walking the list would hold it.
 */
export function deepPageCase(db: Database, signer: ImageSigner): ApiCase {
  const lists = [
    "",
    "sort=SALE_DATE_ASC",
    "status=sold",
    "status=sold&sort=SALE_DATE_ASC",
    "sort=RAW_LOT_ID_DESC",
    "sort=NUMBER_DESC",
    "status=passed&sort=HAMMER_PRICE_ESTIMATE_MAX_DESC",
    "sort=HAMMER_PRICE_ESTIMATE_MIN_ASC",
  ];
  const urls: CaseUrl[] = [];
  const deep = (DEEP_PAGE - 1) * DEEP_LIMIT;
  for (const list of lists) {
    const qs = (extra: string) => `/v1/lots?${[list, `limit=${DEEP_LIMIT}`, extra].filter(Boolean).join("&")}`;
    const before = new URL(qs(`offset=${deep - DEEP_LIMIT}`), "http://bench");
    const { nextCursor } = lotPage(db, signer, looseList(LOT_LIST, before.searchParams));
    if (!nextCursor) continue; // a market too small for this depth
    urls.push(
      { path: qs(""), variant: "first page" },
      { path: qs(`cursor=${nextCursor}`), variant: `page ${DEEP_PAGE}, cursor` },
      { path: qs(`offset=${deep}`), variant: `page ${DEEP_PAGE}, offset` },
    );
  }
  return {
    name: "lots.deep-page",
    endpoint: "GET /v1/lots",
    what: `broad lists: first page, page ${DEEP_PAGE} (limit ${DEEP_LIMIT}) by cursor and by offset`,
    urls,
  };
}
