/**
 * Lots: the list query (over `lots` alone, by its indexes), then the page's details by id, then
 * the response objects. The list never counts: it fetches limit + 1 ids and answers has_more.
 */
import { Database } from "bun:sqlite";
import { artworkIdsByUids } from "../../../db/artwork-uid";
import { FOLLOWED_IDS, followedParam } from "../../../db/follows";
import { LOTS_FTS_TOKENIZE } from "../../../db/market-indexes/lots";
import { containsPattern } from "../../../db/sql";
import type { AppDeps } from "../../deps";
import type { CallerView } from "../../http/view";
import type { ImageSigner } from "../../images/urls";
import type { KeysetRange } from "../../query/cursor";
import { orderClause, sortKeysOf, whereClause, type Filter, type ParsedList, type SqlFragment } from "../../query/grammar";
import { countUpTo, walkBound, type PlanThresholds } from "../../query/planner";
import { snapshotOf } from "../../snapshot";
import { tablePage } from "../../query/list-engine";
import { isoOfSecondsSql } from "../../../market/time";
import { LOT_LIST, NULLS_APART, NULLS_LAST_ASC, secondsBounds } from "./fields";
import { type Lot, type LotPublic, PRICE_USD_COLUMNS, priceObject, type PriceRow } from "./model";
import type { LotStatus } from "../../../market/statuses";
import { MARKET_INDEX as IX, type MarketIndex } from "../../../db/market-indexes/names";

type Bind = SqlFragment["params"][number];

// ---------------------------------------------------------------- search

/**
 * The tokens lots_fts's tokenizer makes of `text` (lower case, accents removed), in order, each
 * once: the text goes into a one-row FTS5 table of the same tokenizer in memory and its tokens
 * come back from fts5vocab, so the words of a search are exactly the index's words.
 */
const tokenize = (() => {
  let run: ((text: string) => string[]) | null = null;
  return (text: string): string[] => {
    if (!run) {
      const mem = new Database(":memory:");
      mem.run(`CREATE VIRTUAL TABLE t USING fts5(text, tokenize='${LOTS_FTS_TOKENIZE}')`);
      mem.run("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
      const insert = mem.query<null, [string]>("INSERT INTO t (rowid, text) VALUES (1, ?)");
      const terms = mem.query<{ term: string }, []>("SELECT term FROM v ORDER BY offset");
      const clear = mem.query<null, []>("DELETE FROM t");
      run = (s) => {
        insert.run(s);
        try {
          return [...new Set(terms.all().map((r) => r.term))];
        } finally {
          clear.run();
        }
      };
    }
    return run(text);
  };
})();

/**
 * An FTS5 query from free text, with no FTS syntax of the user's: the letters and digits of the
 * first 32 whitespace-separated chunks that have any, cut into the index's tokens ("O'Keeffe" and
 * "saint-rémy" are two each), each token quoted, the tokens ANDed. lots_fts keeps no positions
 * (detail=none), so a query is single tokens only, never a phrase. Operators, quotes, stars,
 * parentheses and colons are dropped; AND, OR, NOT and NEAR become plain words. Null when no
 * token remains.
 */
export function ftsQuery(text: string): string | null {
  const words: string[] = [];
  let chunks = 0;
  for (const chunk of text.split(/\s+/)) {
    const found = chunk.match(/[\p{L}\p{N}\p{M}]+/gu);
    if (!found) continue;
    words.push(...found);
    if (++chunks === 32) break;
  }
  const tokens = words.length ? tokenize(words.join(" ")) : [];
  return tokens.length ? tokens.map((t) => `"${t.replaceAll('"', '""')}"`).join(" ") : null;
}

/** The words of a search, for the fallback without an FTS table. */
function searchWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).slice(0, 32);
}

/**
 * Thresholds of the adaptive plans (exported so tests can lower them to walk both branches).
 * A range or a search matching fewer rows than these drives the query from its own index and
 * sorts what it found; a broader one is checked row by row while the sort's index is walked,
 * which then finds a page after a bounded number of rows (about table size / threshold per row).
 * walkSlack: how far past the expected length a sort's walk is tried (sortWalkIndex); sortRows:
 * the most rows it sorts from a filter's own index when that walk does not find the page.
 */
export const PLANNER = { rangeRows: 20_000, searchRows: 50_000, walkSlack: 4, sortRows: 1_000_000 } satisfies PlanThresholds;

/**
 * The middle tier of a search's plans: a search matching at least PLANNER.searchRows lots and fewer
 * than this, with a sort that has an index of its own (SORT_INDEXES), walks that index and checks
 * each row against its matches read once into a list (about 0.2 µs an entry: 30 ms at the bound),
 * where a per-row check of lots_fts costs about 25 µs a row walked (need × lots / matches of them:
 * 25 ms at the bound at large, more below it).
 */
export const SEARCH_PLAN = { listRows: 150_000 };

/**
 * The search condition over `lots`: the FTS table when built, else (an older snapshot) LIKE per
 * word. A rare search is an id list (then sorted); a common one a per-row check, so that the
 * sort's index is walked and stops at the page; between the two (SEARCH_PLAN), with a sort that
 * has an index of its own, an id list checked while that index is walked (`walk`: the index to
 * name, "" for the table in rowid order).
 */
function searchCondition(db: Database, text: string, sort: string | null | undefined): (SqlFragment & { walk?: string }) | null {
  if (snapshotOf(db).hasFts("lots_fts")) {
    const q = ftsQuery(text);
    if (!q) return null;
    const index = sort ? SORT_INDEXES[sort] : undefined;
    const walkable = index !== undefined && (index === "" || snapshotOf(db).hasIndex(index));
    const cap = walkable ? Math.max(PLANNER.searchRows, SEARCH_PLAN.listRows) : PLANNER.searchRows;
    const n = db.query<{ n: number }, [string, number]>("SELECT count(*) AS n FROM (SELECT rowid FROM lots_fts WHERE lots_fts MATCH ? LIMIT ?)").get(q, cap)!.n;
    if (n < PLANNER.searchRows) return { sql: "id IN (SELECT rowid FROM lots_fts WHERE lots_fts MATCH ?)", params: [q] };
    if (n < cap) return { sql: "id IN (SELECT rowid FROM lots_fts WHERE lots_fts MATCH ?)", params: [q], walk: index };
    return { sql: "EXISTS (SELECT 1 FROM lots_fts WHERE lots_fts MATCH ? AND rowid = lots.id)", params: [q] };
  }
  const words = searchWords(text);
  if (!words.length) return null;
  const one =
    "(EXISTS (SELECT 1 FROM lot_notes n WHERE n.id = lots.notes_id AND n.text LIKE ? ESCAPE '\\') OR EXISTS (SELECT 1 FROM artists a WHERE a.id = lots.artist_id AND a.name LIKE ? ESCAPE '\\')" +
    " OR EXISTS (SELECT 1 FROM artworks w WHERE w.id = lots.artwork_id AND w.title LIKE ? ESCAPE '\\'))";
  return { sql: words.map(() => one).join(" AND "), params: words.flatMap((w) => [containsPattern(w), containsPattern(w), containsPattern(w)]) };
}

/** Range filters the planner cannot weigh (SQLite keeps no histograms here), with their index. */
const RANGE_INDEXES: Readonly<Record<string, MarketIndex>> = {
  hammer_price_usd: IX.lots_hammer_usd,
  premium_price_usd: IX.lots_premium_usd,
  hammer_price_estimate_max_usd: IX.lots_estimate_max_usd,
  creation_year: IX.lots_creation_year,
};
/** Filters that make a small, indexed starting set on their own: the planner's choice is right then. */
const DRIVING_FILTERS = new Set(["artist_id", "artist_uid", "artwork_id", "artwork_uid", "sale_id"]);

/**
 * The index to drive a list from when a value range is narrow: its rows are counted on the
 * index (at most PLANNER.rangeRows of them), and the narrowest range under that bound wins.
 * Null when the planner's own plan is fine (no such range, a driving filter, or broad ranges).
 */
function narrowRangeIndex(db: Database, filters: readonly Filter[]): MarketIndex | null {
  if (filters.some((f) => DRIVING_FILTERS.has(f.field))) return null;
  let best: MarketIndex | null = null;
  let fewest = PLANNER.rangeRows;
  for (const [field, index] of Object.entries(RANGE_INDEXES)) {
    const ranges = filters.filter((f) => f.field === field);
    if (!ranges.length || !snapshotOf(db).hasIndex(index)) continue;
    const n = countUpTo(db, "lots", index, whereClause(LOT_LIST, ranges), PLANNER.rangeRows);
    if (n < fewest) {
      best = index;
      fewest = n;
    }
  }
  return best;
}

/**
 * The index each of these sorts reads its order from ("" for RAW_LOT_ID: the table itself, in
 * rowid order). The filters' indexes end in sale_datetime, so with an equality filter (status,
 * house, location, is_top) these sorts have no index serving both.
 */
const SORT_INDEXES: Readonly<Record<string, MarketIndex | "">> = {
  RAW_LOT_ID_ASC: "",
  RAW_LOT_ID_DESC: "",
  NUMBER_ASC: IX.lots_sale,
  NUMBER_DESC: IX.lots_sale,
  CREATION_YEAR_ASC: IX.lots_creation_year,
  CREATION_YEAR_DESC: IX.lots_creation_year,
  HAMMER_PRICE_ESTIMATE_MIN_ASC: IX.lots_estimate_min_usd,
  HAMMER_PRICE_ESTIMATE_MIN_DESC: IX.lots_estimate_min_usd,
  HAMMER_PRICE_ESTIMATE_MAX_ASC: IX.lots_estimate_max_usd,
  HAMMER_PRICE_ESTIMATE_MAX_DESC: IX.lots_estimate_max_usd,
  SALE_PROBABILITY_ASC: IX.lots_sale_probability_known,
  SALE_PROBABILITY_DESC: IX.lots_sale_probability_known,
};

/**
 * The sort indexes that hold only the rows with a value (partial): a plan names them for the first
 * of a NULLS_APART sort's two ranges alone; its NULL rows are read from the table in id order.
 */
const VALUES_ONLY_INDEXES: ReadonlySet<string> = new Set([IX.lots_sale_probability_known]);

/** A NULLS_APART sort's column and direction; null for any other sort. */
function nullsApart(sort: string | null | undefined): { x: string; dir: "ASC" | "DESC" } | null {
  const x = sort ? NULLS_APART[sort] : undefined;
  return x ? { x, dir: sortKeysOf(LOT_LIST, sort!)[0]!.dir } : null;
}

/** The equality filters' own indexes (each ends in sale_datetime), by column. */
const EQUALITY_INDEXES: Readonly<Record<string, MarketIndex>> = {
  house_id: IX.lots_house_date,
  location_id: IX.lots_location_date,
};

/** The rare statuses' partial indexes (sale_datetime first; src/db/market-indexes): sold and passed have none. */
const STATUS_INDEXES: Readonly<Record<string, MarketIndex>> = {
  withdrawn: IX.lots_withdrawn,
  unknown: IX.lots_unknown,
  upcoming: IX.lots_upcoming,
};

/**
 * An equality filter's own index, if it has one: is_top = true has the partial lots_top (the top
 * lots by date), a rare status its partial index; is_top = false and status = sold or passed,
 * most lots, have none: null, the sort's index is walked. undefined: the column has no index.
 */
function equalityIndex(f: Filter): MarketIndex | null | undefined {
  const column = LOT_LIST.fields[f.field]!.column;
  if (column === "is_top") return f.value === true ? IX.lots_top : undefined;
  if (column === "status") return f.suffix === "" && typeof f.value === "string" ? (STATUS_INDEXES[f.value] ?? null) : undefined;
  return EQUALITY_INDEXES[column];
}

/**
 * The sort's own index, to walk in order, when the filters match many rows; null to leave the plan
 * to SQLite. SQLite weighs an equality filter's index by its rows per value on average
 * (sqlite_stat1) and prefers it to the sort's index, so it reads the filter's rows whole and sorts
 * them: for a large value most of the market (status=sold is 22M of the 29M lots at full scale,
 * one location 6.8M), minutes for one page. Walking the sort's index and checking each row reads
 * about (offset + limit) × N / M rows for M matches among N lots; sorting reads M: the walk is
 * cheaper once M > √((offset + limit) × N). So: (1) an equality filter's rows are counted on its
 * own index up to that bound (fewer: SQLite's plan stands; a value without an index, status sold
 * or passed, is most lots and is walked at once); (2) the walk is tried on the first
 * PLANNER.walkSlack times the bound entries of the sort's index (after `skip`, headBound's range),
 * which must hold the page; the rows it finds are then the page (`walked`). When they do not (the
 * filter's lots sit late in the sort's order), the filter's rows are sorted after all, read from
 * its own index, if there are at most PLANNER.sortRows of them; more, and the walk goes on past the
 * head (seconds). With several equality filters a missed probe leaves SQLite's plan.
 */
function sortWalkIndex(
  db: Database,
  filters: readonly Filter[],
  where: SqlFragment,
  sort: string | null | undefined,
  offset: number,
  limit: number,
  skip: SqlFragment | null = null,
  walked?: { ids?: number[] },
): string | null {
  const index = sort ? SORT_INDEXES[sort] : undefined;
  if (index === undefined || filters.some((f) => DRIVING_FILTERS.has(f.field))) return null;
  const snapshot = snapshotOf(db);
  if (index && !snapshot.hasIndex(index)) return null;
  const equalities = filters.filter((f) => (f.suffix === "" || f.suffix === "__in") && equalityIndex(f));
  if (!equalities.length) {
    // a status of most lots (sold, passed) and no other equality filter with an index: walk
    return filters.some((f) => equalityIndex(f) === null) ? index : null;
  }
  const own = equalityIndex(equalities[0]!)!;
  if (!snapshot.hasIndex(own)) return null;
  const need = offset + limit + 1;
  // the market's lots, by the largest id: a bound is all it is used for
  const bound = walkBound(need, snapshot.maxId("lots"));
  const alone = whereClause(LOT_LIST, [equalities[0]!]);
  if (countUpTo(db, "lots", own, alone, bound) < bound) return null;
  const apart = nullsApart(sort);
  const conds = [...(apart ? [`${apart.x} IS NOT NULL`] : []), ...(skip ? [skip.sql] : [])];
  const skipped = skip?.params ?? [];
  const cap = PLANNER.walkSlack * bound;
  let probe: SqlFragment;
  if (index === "") {
    // the table itself in id order: the first `cap` ids from the first (after the head range), as
    // a range of the primary key (ids are dense; a gap makes the probe shorter, never longer)
    const asc = sort === "RAW_LOT_ID_ASC";
    const start = `(SELECT ${asc ? "min" : "max"}(id) FROM lots${skip ? ` WHERE ${skip.sql}` : ""})`;
    probe = {
      sql: `SELECT id FROM lots NOT INDEXED WHERE ${skip ? `${skip.sql} AND ` : ""}id ${asc ? "<" : ">"} ${start} ${asc ? "+" : "-"} ? AND ${where.sql} ORDER BY id ${asc ? "ASC" : "DESC"} LIMIT ?`,
      params: [...skipped, ...skipped, cap, ...where.params, need],
    };
  } else {
    // CROSS JOIN: the head first, in its order, each of its rows looked up by id (SQLite would
    // otherwise read the filter's own index whole and look each of its rows up in the head, made
    // into an index)
    const head = `SELECT id AS wid FROM lots INDEXED BY ${index}${conds.length ? ` WHERE ${conds.join(" AND ")}` : ""} ORDER BY ${apart ? `${apart.x} ${apart.dir}, id ${apart.dir}` : orderClause(LOT_LIST, sort!)} LIMIT ?`;
    probe = { sql: `SELECT lots.id AS id FROM (${head}) AS w CROSS JOIN lots ON lots.id = w.wid WHERE ${where.sql} LIMIT ?`, params: [...skipped, cap, ...where.params, need] };
  }
  // the rows found are the walk's first `need`: the page, kept in `walked`
  const found = db.query<{ id: number }, Bind[]>(probe.sql).all(...probe.params);
  if (found.length >= need) {
    if (walked) walked.ids = found.map((r) => r.id);
    return index;
  }
  // the page lies deep in the sort's order: sort the filter's rows from its own index when there
  // are few enough (one equality filter, at most PLANNER.sortRows rows); else walk on past the head
  if (equalities.length !== 1) return null;
  return countUpTo(db, "lots", own, alone, PLANNER.sortRows + 1) <= PLANNER.sortRows ? own : index;
}

/**
 * A scope's own indexes of the sorts: the indexes that hold one filter's lots (or lead with its
 * column) in a sort's order, so that a list of that filter reads its page in order. `matches`: the
 * filter; `sorts`: the index of each sort it serves; `headRange`: whether headBound's range on the
 * sort's column still narrows the walk (a house's index leads with the house, then the column: the
 * range of a status there is a seek; a rare scope's index holds its filter's lots alone).
 */
interface ScopedSortIndexes {
  readonly scope: string;
  readonly matches: (f: Filter) => boolean;
  readonly sorts: Readonly<Record<string, MarketIndex>>;
  readonly headRange: boolean;
}

const isStatus = (value: LotStatus) => (f: Filter) => f.field === "status" && f.suffix === "" && f.value === value;

/** The top lots' own indexes of the sorts (partial: 3 % of lots, is_top = 1). */
const TOP_SORT_INDEXES: Readonly<Record<string, MarketIndex>> = {
  NUMBER_ASC: IX.lots_top_sale,
  NUMBER_DESC: IX.lots_top_sale,
  HAMMER_PRICE_ESTIMATE_MIN_ASC: IX.lots_top_estimate_min,
  HAMMER_PRICE_ESTIMATE_MIN_DESC: IX.lots_top_estimate_min,
  HAMMER_PRICE_ESTIMATE_MAX_ASC: IX.lots_top_estimate_max,
  HAMMER_PRICE_ESTIMATE_MAX_DESC: IX.lots_top_estimate_max,
};

/**
 * The scopes with indexes of their own for some sorts, in the order they are tried (the first
 * whose filter is in the list and whose index the snapshot holds serves it):
 *
 * - One house's lots (house_id, x: the house's lots in x order, each run of equal values in id
 *   order, NULLs first; DESC walks it backwards, an ASC sort reads its two ranges from it as from
 *   x's plain index). A house holds too few lots for walking x's plain index to find a page soon,
 *   and too many to sort at once: each costs about √((offset + limit) × lots) table look-ups
 *   (sortWalkIndex).
 * - The rare lots (partial indexes): those of a rare status (withdrawn, upcoming), then the top
 *   lots, so that a list of upcoming top lots reads the smaller index (1 % of lots, against 3 %).
 *   Those lots sit late in the estimates' ASC order (the top lots are those of highest value) or
 *   thinly spread through it, and the top lots are few in the oldest sales, so walking the whole
 *   index for them reads much of it, and sorting them reads every one.
 */
const SCOPED_SORT_INDEXES: readonly ScopedSortIndexes[] = [
  {
    scope: "one house",
    matches: (f) => f.suffix === "" && LOT_LIST.fields[f.field]!.column === "house_id",
    headRange: true,
    sorts: {
      CREATION_YEAR_ASC: IX.lots_house_creation_year,
      CREATION_YEAR_DESC: IX.lots_house_creation_year,
      HAMMER_PRICE_ESTIMATE_MIN_ASC: IX.lots_house_estimate_min,
      HAMMER_PRICE_ESTIMATE_MIN_DESC: IX.lots_house_estimate_min,
      HAMMER_PRICE_ESTIMATE_MAX_ASC: IX.lots_house_estimate_max,
      HAMMER_PRICE_ESTIMATE_MAX_DESC: IX.lots_house_estimate_max,
    },
  },
  { scope: "the withdrawn lots", matches: isStatus("withdrawn"), headRange: false, sorts: { NUMBER_ASC: IX.lots_withdrawn_sale, NUMBER_DESC: IX.lots_withdrawn_sale } },
  {
    scope: "the upcoming lots",
    matches: isStatus("upcoming"),
    headRange: false,
    sorts: {
      NUMBER_ASC: IX.lots_upcoming_sale,
      NUMBER_DESC: IX.lots_upcoming_sale,
      HAMMER_PRICE_ESTIMATE_MIN_ASC: IX.lots_upcoming_estimate_min,
      HAMMER_PRICE_ESTIMATE_MIN_DESC: IX.lots_upcoming_estimate_min,
      HAMMER_PRICE_ESTIMATE_MAX_ASC: IX.lots_upcoming_estimate_max,
      HAMMER_PRICE_ESTIMATE_MAX_DESC: IX.lots_upcoming_estimate_max,
    },
  },
  { scope: "the top lots", matches: (f) => f.field === "is_top" && f.suffix === "" && f.value === true, headRange: false, sorts: TOP_SORT_INDEXES },
];

/** The first scope of SCOPED_SORT_INDEXES that serves the filters and the sort (no driving filter), with its index; null otherwise. */
function scopedSortIndex(db: Database, filters: readonly Filter[], sort: string | null | undefined): { index: MarketIndex; headRange: boolean } | null {
  if (!sort || filters.some((f) => DRIVING_FILTERS.has(f.field))) return null;
  for (const scoped of SCOPED_SORT_INDEXES) {
    const index = scoped.sorts[sort];
    if (index && filters.some(scoped.matches) && snapshotOf(db).hasIndex(index)) return { index, headRange: scoped.headRange };
  }
  return null;
}

/** The lots' columns that are their sale's (copied from it by the build): a filter on one is a filter on the sales. */
const SALE_COLUMNS = new Set(["house_id", "location_id"]);

/**
 * The NUMBER sorts (sale, then lot number: lots_sale) with a filter on a column of the sale (a
 * house, a location): the sales it names, read from the sales' own indexes, as an `IN` on
 * lots_sale's first column, which SQLite walks in the sort's order, value by value, each sale's
 * lots in lot order. Every lot of those sales matches, so the page costs its own rows; walking
 * lots_sale and checking each lot reads every lot of the sales before (seconds for a location
 * whose sales are all recent), and sorting the filter's rows reads them all. Null otherwise.
 */
function saleScope(filters: readonly Filter[], sort: string | null | undefined): SqlFragment | null {
  if (!sort || SORT_INDEXES[sort] !== IX.lots_sale || filters.some((f) => DRIVING_FILTERS.has(f.field))) return null;
  const own = filters.filter((f) => (f.suffix === "" || f.suffix === "__in") && SALE_COLUMNS.has(LOT_LIST.fields[f.field]!.column));
  if (!own.length) return null;
  const cond = whereClause(LOT_LIST, own);
  return { sql: `sale_id IN (SELECT id FROM sales WHERE ${cond.sql})`, params: cond.params };
}

/**
 * headBound's values, per connection (a snapshot never changes): key → the first matching lot in
 * the sort's order, its sort value (null: only NULLs match) and id (null: found by the filter's own
 * rows, which give the value alone); "none" (no lot matches) or
 * "unknown" (not found within the walk: no range).
 */
const HEADS = new WeakMap<Database, Map<string, { v: number | null; id: number | null } | "none" | "unknown">>();

/**
 * The most entries of the sort's index headBound walks to find the filter's first lot, once per
 * snapshot: for a filter with its own (partial) index, whose first lot it finds by reading that
 * index whole instead when the filter has fewer rows than this or the walk misses; for one of
 * most lots (sold, passed, is_top = false), found within a few entries after the head (the sales
 * to come: about 1 % of lots).
 */
export const HEAD_WALK = { rare: 100_000, dense: 1_000_000 };

/**
 * The sorts headBound serves: their first column and the direction of their walk; `nullable`: the
 * column has NULLs (last in both directions), which every range must keep; `index`: the index the
 * walk reads, for a sort not in SORT_INDEXES (the sale date's: with an equality filter, its own
 * index ends in the date and serves the sort).
 */
const HEAD_COLUMNS: Readonly<Record<string, { column: string; desc: boolean; nullable?: true; index?: MarketIndex }>> = {
  SALE_DATE_ASC: { column: "sale_datetime", desc: false, index: IX.lots_date },
  SALE_DATE_DESC: { column: "sale_datetime", desc: true, index: IX.lots_date },
  NUMBER_ASC: { column: "sale_id", desc: false },
  NUMBER_DESC: { column: "sale_id", desc: true },
  RAW_LOT_ID_ASC: { column: "id", desc: false },
  RAW_LOT_ID_DESC: { column: "id", desc: true },
  CREATION_YEAR_ASC: { column: "creation_year", desc: false, nullable: true },
  CREATION_YEAR_DESC: { column: "creation_year", desc: true, nullable: true },
  HAMMER_PRICE_ESTIMATE_MIN_ASC: { column: "estimate_min_usd_cents", desc: false, nullable: true },
  HAMMER_PRICE_ESTIMATE_MIN_DESC: { column: "estimate_min_usd_cents", desc: true, nullable: true },
  HAMMER_PRICE_ESTIMATE_MAX_ASC: { column: "estimate_max_usd_cents", desc: false, nullable: true },
  HAMMER_PRICE_ESTIMATE_MAX_DESC: { column: "estimate_max_usd_cents", desc: true, nullable: true },
};

/**
 * A filter of few values over the whole market (one status, is_top) with a sort of HEAD_COLUMNS:
 * a range on the sort's first column that skips the head of the sort's order holding none of the
 * filter's lots, from the first such lot in the sort's order (found once per snapshot by walking
 * the sort's index; kept). The sales to come, the highest sale ids, hold no sold, passed or
 * withdrawn lot: their 1 % of lots is the head of NUMBER_DESC and of SALE_DATE_DESC (the list's default), which a walk for sold lots
 * otherwise reads and checks lot by lot before the first match, and which made a walk for
 * withdrawn ones miss its budget; the top lots are the head of the estimates' DESC order, read
 * the same way for is_top = false. The range holds every matching lot (and the NULLs of a nullable
 * column, checked on the index's own entries), so pages and cursors are unchanged. On a nullable
 * column `values` is the range without the NULLs: a seek in the sort's index, where the OR of the
 * whole range makes SQLite walk the head entry by entry (the list reads the NULLs after it,
 * lotListSql). Null when there is no such filter or sort.
 */
function headBound(db: Database, filters: readonly Filter[], sort: string | null | undefined): (SqlFragment & { values?: SqlFragment }) | null {
  const head = sort ? HEAD_COLUMNS[sort] : undefined;
  const filter = filters.find((f) => (f.field === "status" && f.suffix === "" && typeof f.value === "string") || f.field === "is_top");
  if (!head || !filter || filters.some((f) => DRIVING_FILTERS.has(f.field))) return null;
  const snapshot = snapshotOf(db);
  const index = head.index ?? SORT_INDEXES[sort!]!;
  if (index && !snapshot.hasIndex(index)) return null;
  let heads = HEADS.get(db);
  if (!heads) HEADS.set(db, (heads = new Map()));
  const cond = whereClause(LOT_LIST, [filter]);
  const key = `${sort}:${cond.sql}:${JSON.stringify(cond.params)}`;
  let first = heads.get(key);
  if (first === undefined) {
    const own = equalityIndex(filter);
    const rare = typeof own === "string" && snapshot.hasIndex(own);
    // the sort's walk, in its order (an ASC sort with NULLs last: its rows with a value), each
    // entry looked up until the first match, at most `cap` entries
    const x = NULLS_LAST_ASC[sort!];
    const walk = `SELECT id AS wid, ${head.column} AS v FROM lots${index ? ` INDEXED BY ${index}` : " NOT INDEXED"}${x ? ` WHERE ${x} IS NOT NULL ORDER BY ${x}, id` : ` ORDER BY ${orderClause(LOT_LIST, sort!)}`} LIMIT ?`;
    // a rare filter's own index leads with the sale date (STATUS_INDEXES, lots_top): a sale-date
    // sort's head is that index's first or last entry, one seek (the walk of lots_date past the
    // sales to come took 0.4 s for upcoming lots oldest first at full)
    const leading = rare && head.column === "sale_datetime";
    // a rare filter with fewer rows than the walk's cap: its own rows are the cheaper read
    const few = rare && (leading || countUpTo(db, "lots", own, cond, HEAD_WALK.rare) < HEAD_WALK.rare);
    // the lots not top (is_top is never NULL): the walk's first entry that the top lots' own index
    // of the sort lacks, a seek in that small index per entry instead of a look-up in the table
    // (the top lots are the head of the estimates' DESC order: about 870,000 entries at full)
    const top = filter.field === "is_top" && filter.value === false ? TOP_SORT_INDEXES[sort!] : undefined;
    const check = top && snapshot.hasIndex(top) ? `NOT EXISTS (SELECT 1 FROM lots t INDEXED BY ${top} WHERE t.is_top = 1 AND t.${head.column} IS w.v AND t.id = w.wid)` : null;
    const row = few
      ? null
      : db
          .query<{ v: number | null; id: number }, Bind[]>(
            check
              ? `SELECT w.v AS v, w.wid AS id FROM (${walk}) AS w WHERE ${check} LIMIT 1`
              : `SELECT w.v AS v, w.wid AS id FROM (${walk}) AS w CROSS JOIN lots ON lots.id = w.wid WHERE ${cond.sql} LIMIT 1`,
          )
          .get(rare ? HEAD_WALK.rare : HEAD_WALK.dense, ...(check ? [] : cond.params));
    if (row) first = row;
    else if (rare) {
      // the filter's own rows, whole: the lowest or highest value (NULLs aside), and whether any
      // (an aggregate: ordering them by value and id sorted up to a million rows, seconds at full);
      // on an index that leads with the sale date, which is never NULL, the value alone is one
      // seek and says whether any
      const r = db
        .query<{ v: number | null; n?: number }, Bind[]>(
          `SELECT ${head.desc ? "max" : "min"}(${head.column}) AS v${leading ? "" : ", count(*) AS n"} FROM lots INDEXED BY ${own} WHERE ${cond.sql}`,
        )
        .get(...cond.params)!;
      first = (leading ? r.v === null : r.n === 0) ? "none" : { v: r.v, id: null };
    } else first = "unknown";
    heads.set(key, first);
  }
  if (first === "unknown") return null;
  if (first === "none") return { sql: "0", params: [] };
  if (first.v === null) return { sql: `${head.column} IS NULL`, params: [] };
  // the sort's keys are the column and the id (not the lot number's three): the range starts at the
  // first lot itself, checked on the index's entries, past the run of its value before it
  const op = head.desc ? "<=" : ">=";
  const precise = first.id !== null && head.column !== "id" && sortKeysOf(LOT_LIST, sort!).length === 2;
  const range: SqlFragment = precise
    ? { sql: `${head.column} ${op} ? AND (${head.column}, id) ${op} (?, ?)`, params: [first.v, first.v, first.id] }
    : { sql: `${head.column} ${op} ?`, params: [first.v] };
  if (!head.nullable) return range;
  return { sql: `((${range.sql}) OR ${head.column} IS NULL)`, params: range.params, values: range };
}

// ---------------------------------------------------------------- the list query

/** Replaces values that name something (uids, location names) by the ids the column holds; 0 when unknown. */
function resolveFilters(db: Database, filters: readonly Filter[]): Filter[] {
  const byUid = (table: "artists" | "artworks", uid: string) =>
    table === "artworks" ? (artworkIdsByUids(db, [uid]).get(uid) ?? 0) : (db.query<{ id: number }, [string]>("SELECT id FROM artists WHERE uid = ?").get(uid)?.id ?? 0);
  const location = (name: string) => db.query<{ id: number }, [string]>("SELECT id FROM auction_locations WHERE name = ? COLLATE NOCASE").get(name)?.id ?? 0;
  const resolved = filters.map((f): Filter => {
    switch (f.field) {
      case "artist_uid":
        return { ...f, value: byUid("artists", f.value as string) };
      case "artwork_uid":
        return { ...f, value: byUid("artworks", f.value as string) };
      case "sale_location":
        return { ...f, value: f.suffix === "__in" ? (f.value as string[]).map(location) : location(f.value as string) };
      default:
        return f;
    }
  });
  return secondsBounds(resolved, ["sale_datetime"]);
}

/** The id query of one page (`sql`, ending in LIMIT ? OFFSET ?), and for the ASC sorts with NULLs last its second range. */
export interface LotListSql extends SqlFragment {
  /**
   * NULLS_APART: `sql` reads only the rows with a value (`x IS NOT NULL ORDER BY x, id`, in the
   * sort's direction); `rows` reads the NULL rows that follow them (`x IS NULL ORDER BY id`, its LIMIT ? OFFSET ?
   * still to bind) and `count` counts `sql`'s rows (for a page that starts past them). Absent when
   * no NULL row can match (a range filter on x). The same for a DESC sort on a nullable column
   * whose head range (headBound) `sql` reads as a seek, without its NULLs: they follow in
   * `ORDER BY id DESC`.
   */
  nulls?: { rows: SqlFragment; count: SqlFragment };
  /**
   * The page's ids (offset included), when the plan's probe of the sort's walk (sortWalkIndex)
   * already read them: the same rows in the same order as `sql` (no keyset range). Absent otherwise.
   */
  walked?: number[];
}

/**
 * The id query of one page: `SELECT id FROM lots WHERE … ORDER BY … LIMIT ? OFFSET ?`, with
 * `want` rows (limit + 1 for has_more) from `offset`. `followed` (the ids of the lots a user
 * follows, read from the account store) restricts to them; `range`, a keyset range of a cursor, is ANDed to the filters (the page is then planned as
 * a first page). A NULLS_APART sort (an ASC sort with NULLs last, the chance of selling's DESC) is
 * two ranges: the rows with a value from the column's index, then the NULL rows (see
 * LotListSql.nulls, lotListIds).
 */
export function lotListSql(
  db: Database,
  query: ParsedList,
  followed: readonly number[] | null = null,
  range: KeysetRange | null = null,
  want = query.limit + 1,
  offset = query.offset,
): LotListSql {
  const filters = resolveFilters(db, query.filters);
  const where = whereClause(LOT_LIST, filters);
  const parts = [where.sql];
  const params: Bind[] = [...where.params];
  const search = query.params.search as string | undefined;
  let searchWalk: string | undefined;
  if (search !== undefined) {
    const cond = searchCondition(db, search, query.sort);
    if (cond) {
      parts.push(cond.sql);
      params.push(...cond.params);
      searchWalk = cond.walk;
    }
  }
  if (followed !== null) {
    parts.push(`id IN (${FOLLOWED_IDS})`);
    params.push(followedParam(followed));
  }
  if (range) {
    parts.push(range.sql);
    params.push(...range.params);
  }
  const plain = search === undefined && followed === null;
  const probed: { ids?: number[] } = {};
  const bySales = plain ? saleScope(filters, query.sort) : null;
  if (bySales) {
    parts.push(bySales.sql);
    params.push(...bySales.params);
  }
  const driver = plain && !bySales ? narrowRangeIndex(db, filters) : null;
  // an index of the filter's own lots in the sort's order: a house's, the top or upcoming lots'
  const scoped = plain && !bySales && !driver ? scopedSortIndex(db, filters, query.sort) : null;
  const head = plain && !bySales && !driver && (scoped?.headRange ?? true) ? headBound(db, filters, query.sort) : null;
  // a nullable column's head range in two (a first page by offset): its rows with a value, a seek,
  // then the NULL rows, which have no head to skip (a cursor's keyset ranges split it already)
  const values = head?.values && !range ? head.values : null;
  const withoutHead = values ? { parts: [...parts], params: [...params] } : null;
  const bound = values ?? head;
  if (bound) {
    parts.push(bound.sql);
    params.push(...bound.params);
  }
  const walk = bySales
    ? IX.lots_sale
    : (scoped?.index ??
      (plain && !driver
        ? sortWalkIndex(db, filters, where, query.sort, offset, want - 1, bound, range ? undefined : probed)
        : // a search alone, or with a status of most lots: any other filter may be the smaller set
          searchWalk !== undefined && followed === null && filters.every((f) => equalityIndex(f) === null)
          ? searchWalk
          : null));
  const using = driver ? ` INDEXED BY ${driver}` : walk === "" ? " NOT INDEXED" : walk ? ` INDEXED BY ${walk}` : "";
  const from = `FROM lots${using} WHERE ${parts.join(" AND ")}`;
  // the NULL rows' statement: without the head's values range, which holds none of them, and
  // without an index of the values alone (the table in id order instead, as the NULL run of a
  // plain index would give them)
  const nullsUsing = walk && VALUES_ONLY_INDEXES.has(walk) ? " NOT INDEXED" : using;
  const fromNulls = `FROM lots${nullsUsing} WHERE ${(withoutHead?.parts ?? parts).join(" AND ")}`;
  const nullParams = withoutHead ? withoutHead.params : params;
  const page = [want, offset];
  const apart = nullsApart(query.sort);
  const walked = probed.ids?.slice(offset, offset + want);
  // a range on the column (x >= ?, x <= ?) matches no NULL
  const noNullsOf = (column: string) => filters.some((f) => LOT_LIST.fields[f.field]!.column === column && (f.suffix === "__gte" || f.suffix === "__lte"));
  if (!apart) {
    const sql = `SELECT id ${from} ORDER BY ${orderClause(LOT_LIST, query.sort)} LIMIT ? OFFSET ?`;
    // a DESC sort with its head's values range: the NULL rows (last, in id order) after it
    const column = values ? HEAD_COLUMNS[query.sort!]!.column : null;
    if (!column || noNullsOf(column)) return { sql, params: [...params, ...page], walked };
    return {
      sql,
      params: [...params, ...page],
      walked,
      nulls: {
        rows: { sql: `SELECT id ${fromNulls} AND ${column} IS NULL ORDER BY id DESC LIMIT ? OFFSET ?`, params: nullParams },
        count: { sql: `SELECT count(*) AS n ${from}`, params },
      },
    };
  }
  const { x, dir } = apart;
  return {
    sql: `SELECT id ${from} AND ${x} IS NOT NULL ORDER BY ${x} ${dir}, id ${dir} LIMIT ? OFFSET ?`,
    params: [...params, ...page],
    walked,
    nulls: noNullsOf(x)
      ? undefined
      : {
          rows: { sql: `SELECT id ${fromNulls} AND ${x} IS NULL ORDER BY id ${dir} LIMIT ? OFFSET ?`, params: nullParams },
          count: { sql: `SELECT count(*) AS n ${from} AND ${x} IS NOT NULL`, params },
        },
  };
}

/**
 * The ids of one page (`want` of them at most, limit + 1 by default), in the list's order. For an
 * ASC sort with NULLs last, a page the rows with a value do not fill goes on with the NULL rows: at
 * the offset past the first range, which is offset + what the first range gave, or (a page
 * starting past the first range) its count. A keyset `range` (a cursor's) holds one of the two:
 * the rows with a value after the position, or the NULL rows (`nullTail`); the next range is the
 * caller's (readPage).
 */
export function lotListIds(
  db: Database,
  query: ParsedList,
  followed: readonly number[] | null = null,
  range: KeysetRange | null = null,
  want = query.limit + 1,
  offset = query.offset,
): number[] {
  const list = lotListSql(db, query, followed, range, want, offset);
  const run = (f: SqlFragment, ...more: Bind[]) =>
    db
      .query<{ id: number }, Bind[]>(f.sql)
      .all(...f.params, ...more)
      .map((r) => r.id);
  if (range?.nullTail && list.nulls) return run(list.nulls.rows, want, 0);
  if (range?.nullTail && nullsApart(query.sort)) return []; // a range filter on x: no NULL row matches
  const ids = list.walked ?? run(list);
  if (!list.nulls || ids.length === want || range) return ids;
  const { rows, count } = list.nulls;
  const first = ids.length > 0 || offset === 0 ? offset + ids.length : db.query<{ n: number }, Bind[]>(count.sql).get(...count.params)!.n;
  return [...ids, ...run(rows, want - ids.length, Math.max(0, offset - first))];
}

/** The lots a user follows (their ids read from the account store), for a followed list. */
export interface FollowedLots {
  userId: number;
  ids: readonly number[];
}

/** The scope of a list's cursors: the list, or a user's followed lots. */
const scopeOf = (followed: FollowedLots | null) => (followed === null ? "lots" : `lots/followed:${followed.userId}`);

/** The filter parameters beside the fields (what the cursor's fingerprint covers). */
const filterParams = (query: ParsedList) => ({ search: query.params.search });

/** The ids of one page and the next cursor: by offset, or after the position of `cursor`. */
export function lotPage(db: Database, signer: ImageSigner, query: ParsedList, followed: FollowedLots | null = null): { ids: number[]; more: boolean; nextCursor: string | null } {
  const page = tablePage(
    {
      db,
      signer,
      cursor: { scope: scopeOf(followed), sort: query.sort ?? "", filters: query.filters, params: filterParams(query) },
      keys: sortKeysOf(LOT_LIST, query.sort),
      from: "lots",
      idColumn: "id",
      page: (range, want, offset) => lotListIds(db, query, followed?.ids ?? null, range, want, offset),
      // the lot list gives no total (has_more instead)
      total: null,
      id: (id) => id,
    },
    query,
  );
  return { ids: page.rows, more: page.more, nextCursor: page.nextCursor };
}

// ---------------------------------------------------------------- details

interface LotRow extends PriceRow {
  id: number;
  lot_num: string;
  status: LotStatus;
  house_id: number;
  house_name: string | null;
  sale_id: number;
  is_top: number;
  reserve_mark: number;
  third_party_mark: number;
  notes: string;
  artwork_id: number;
  artwork_name: string | null;
  creation_year: number | null;
  image_id: number | null;
  artist_id: number;
  artist_uid: string | null;
  artist_name: string | null;
  sale_name: string | null;
  sale_location: string | null;
  sale_start: string | null;
  sale_probability: number | null;
  expected_hammer_usd: number | null;
  expected_hammer_usd_low: number | null;
  expected_hammer_usd_high: number | null;
}

const DETAIL_SQL = `
  SELECT l.id, l.lot_num, l.status, l.house_id, h.name AS house_name, l.sale_id, l.is_top, l.reserve_mark, l.third_party_mark,
    l.currency, l.hammer, l.estimate_min, l.estimate_max, l.premium, ${PRICE_USD_COLUMNS}, ${isoOfSecondsSql("l.sale_datetime")} AS sale_datetime, coalesce(n.text, '') AS notes, l.artwork_id, w.title AS artwork_name,
    coalesce(w.creation_year, l.creation_year) AS creation_year, w.image_id, l.artist_id, a.uid AS artist_uid,
    a.name AS artist_name, s.name AS sale_name, s.location AS sale_location, s.start_datetime AS sale_start,
    l.sale_probability, l.expected_hammer_usd, l.expected_hammer_usd_low, l.expected_hammer_usd_high
  FROM lots l
  LEFT JOIN auction_houses h ON h.id = l.house_id
  LEFT JOIN lot_notes n ON n.id = l.notes_id
  LEFT JOIN artworks w ON w.id = l.artwork_id
  LEFT JOIN artists a ON a.id = l.artist_id
  LEFT JOIN sales s ON s.id = l.sale_id
  WHERE l.id IN `;

/** The rows of `ids`, in the order of `ids` (ids the market lacks are skipped). */
function lotRows(db: Database, ids: readonly number[]): LotRow[] {
  if (!ids.length) return [];
  const rows = db.query<LotRow, number[]>(`${DETAIL_SQL}(${ids.map(() => "?").join(", ")})`).all(...ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is LotRow => r !== undefined);
}

function lotObject(r: LotRow, deps: AppDeps, view: CallerView, followed: Set<number>): Lot | LotPublic {
  const lot: LotPublic = {
    id: r.id,
    lot_num: r.lot_num,
    status: r.status,
    auction_house_id: r.house_id,
    auction_house_name: r.house_name ?? "",
    sale_id: r.sale_id,
    sale_datetime: r.sale_datetime,
    is_top: r.is_top === 1,
    reserve_mark: r.reserve_mark === 1,
    third_party_mark: r.third_party_mark === 1,
    artwork: { id: r.artwork_id, name: r.artwork_name ?? "", creation_year: r.creation_year },
    artist: { id: r.artist_id, uid: r.artist_uid ?? "", name: r.artist_name ?? "" },
    sale: { id: r.sale_id, name: r.sale_name ?? "", location: r.sale_location ?? "", start_datetime: r.sale_start ?? r.sale_datetime },
    notes: r.notes,
    image: deps.signer.imageObject(r.image_id, view.image, view.origin),
  };
  if (view.schema !== "full") return lot;
  // the forecast is for lots still to be sold: a market derived before a lot's sale keeps none after it
  const upcoming = r.status === "upcoming";
  return {
    ...lot,
    price: priceObject(r, deps.fx, view.preferred),
    is_followed: followed.has(r.id),
    sale_probability: upcoming ? r.sale_probability : null,
    expected_hammer_usd: upcoming ? r.expected_hammer_usd : null,
    expected_hammer_usd_low: upcoming ? r.expected_hammer_usd_low : null,
    expected_hammer_usd_high: upcoming ? r.expected_hammer_usd_high : null,
  };
}

/** Response objects for `ids`, in that order, in the caller's schema. */
export function lotObjects(deps: AppDeps, ids: readonly number[], view: CallerView & { schema: "public" }): LotPublic[];
export function lotObjects(deps: AppDeps, ids: readonly number[], view: CallerView): (Lot | LotPublic)[];
export function lotObjects(deps: AppDeps, ids: readonly number[], view: CallerView): (Lot | LotPublic)[] {
  const rows = lotRows(deps.market, ids);
  const followed =
    view.schema === "full"
      ? deps.accounts.followedAmong(
          view.userId,
          "lot",
          rows.map((r) => r.id),
        )
      : new Set<number>();
  return rows.map((r) => lotObject(r, deps, view, followed));
}

/** A page of the lot list; `followedBy`: a user whose followed lots the list is restricted to. */
export function listLots(deps: AppDeps, query: ParsedList, view: CallerView, followedBy: number | null = null) {
  const followed = followedBy === null ? null : { userId: followedBy, ids: deps.accounts.followedIds(followedBy, "lot") };
  const { ids, more, nextCursor } = lotPage(deps.market, deps.signer, query, followed);
  return { lots: lotObjects(deps, ids, view), has_more: more, limit: query.limit, offset: query.offset, next_cursor: nextCursor };
}

/** Which of `ids` the market holds. */
export function existingLotIds(db: Database, ids: readonly number[]): Set<number> {
  if (!ids.length) return new Set();
  const rows = db.query<{ id: number }, number[]>(`SELECT id FROM lots WHERE id IN (${ids.map(() => "?").join(", ")})`).all(...ids);
  return new Set(rows.map((r) => r.id));
}
