/**
 * Artwork reads. A list is two statements over `artworks a`: the page of ids (WHERE from the
 * grammar plus the custom filters, ORDER BY from an index, LIMIT/OFFSET) and the count; the page
 * is then hydrated by id (artist name, most recent lot, follows, image object). Every value is
 * bound; only declared columns and fixed fragments reach the SQL text.
 */
import type { Database } from "bun:sqlite";
import { Z80 } from "../../../analytics/index-model";
import { artworkIdsByUids } from "../../../db/artwork-uid";
import { usdOf } from "../../../db/fx";
import { FOLLOWED_ROWS, followedParam } from "../../../db/follows";
import type { AppDeps } from "../../deps";
import type { CallerView } from "../../http/view";
import { orderClause, sortKeys, sortKeysOf, whereClause, type ListSpec, type ParsedList, type SortKeys, type SqlFragment } from "../../query/grammar";
import { allOnce, chooseRange, type PlanThresholds, type Probe, probeRange, rangeRows as rangeRowsOf, walkRows } from "../../query/planner";
import { snapshotOf } from "../../snapshot";
import { followedPage, type ListCursor, tablePage } from "../../query/list-engine";
import { addDays, epochSeconds, isoOfSeconds } from "../../../market/time";
import { priceObject, type PriceRow } from "../lots/model";
import { ARTWORK_LIST, artworkWhere, PRICE_SORT_KEYS, SORT_BY_PRICE } from "./fields";
import { keptCategoryCount } from "./category-counts";
import { resolveMaterials } from "./materials";
import { artworksByIds, PRICE_COLUMNS } from "./model";
import { estimatePeriods, type EstimateValues } from "../../../db/estimate-history";
import { MARKET_INDEX as IX, type MarketIndex } from "../../../db/market-indexes/names";

type Bind = string | number | null;

// ---------------------------------------------------------------- filters and order

// The WHERE of the artwork filters (artworkWhere, materials, upcoming sales) lives in fields.ts,
// beside their declarations, so that search by image narrows its pool with the same SQL.
export { artworkWhere, materialPattern, MEDIUM_WORDS_SQL } from "./fields";

/** ORDER BY (without the keyword): sort_by_price wins over sort; no sort: by id. */
export function artworkOrder(q: ParsedList): string {
  const byPrice = q.params.sort_by_price as string | undefined;
  if (byPrice) return SORT_BY_PRICE[byPrice]!;
  return orderClause(ARTWORK_LIST, q.sort);
}

/** The sort keys of a list (the order's, and its cursor's keyset): sort_by_price wins over sort; no sort: by id. */
export function artworkKeys(q: ParsedList): SortKeys {
  const byPrice = q.params.sort_by_price as "asc" | "desc" | undefined;
  return byPrice ? PRICE_SORT_KEYS[byPrice] : sortKeysOf(ARTWORK_LIST, q.sort);
}

/** `range` (a cursor's keyset range) ANDed to a WHERE. */
const within = (where: SqlFragment, range: SqlFragment | null): SqlFragment =>
  range ? { sql: `${where.sql} AND ${range.sql}`, params: [...where.params, ...range.params] } : where;

/**
 * The two statements of a list page (exported so that a test can EXPLAIN them): the page reads
 * `limit` rows from `offset` (`range`: a cursor's keyset range, ANDed to the filters).
 */
export function listStatements(q: ParsedList, range: SqlFragment | null = null, limit = q.limit, offset = q.offset): { page: SqlFragment; count: SqlFragment } {
  const where = artworkWhere(ARTWORK_LIST, q);
  const paged = within(where, range);
  return {
    page: {
      sql: `SELECT a.id FROM artworks a WHERE ${paged.sql} ORDER BY ${artworkOrder(q)} LIMIT ? OFFSET ?`,
      params: [...paged.params, limit, offset],
    },
    count: { sql: `SELECT count(*) AS n FROM artworks a WHERE ${where.sql}`, params: where.params },
  };
}

// ---------------------------------------------------------------- one category: the plan chosen per request

/**
 * A list within one category (`category_id=…`) is planned here, not left to SQLite: without
 * histograms the planner cannot tell a narrow creation_year or estimate range from a broad one
 * inside a category of a million works, and picks a range that reads half the category and then
 * sorts it. The indexes of src/db/market-indexes/artworks.ts put category_id first, then a sort
 * key, and carry creation_year and estimate_usd, so that:
 *
 * 1. The count (exact): two bounded probes each read at most PROBE_ROWS entries of a range,
 *    creation year (`artworks_category_year_estimate`) or estimate
 *    (`artworks_category_estimate_year`); a range that ends within its probe gives the count at
 *    once. Otherwise, for a year range with or without an estimate range alone, it is read from
 *    the counts kept per category, year and estimate band (category-counts.ts); for any other
 *    filters, from the index whose leading range is the smaller one, checking the other column
 *    on the index: the fraction of each probe's entries that pass the other filter says which
 *    range is shorter (range size ≈ count / that fraction).
 * 2. The page, from whichever of two plans costs fewer steps (an index entry counts 1, a look-up
 *    of a table row ROW_COST): walking the sort's own category index, which meets a match about
 *    every category size / count entries and stops at the page (no look-ups when that index
 *    carries every filtered column), or reading the count's range again and sorting the matches
 *    (a look-up per match when the range's index lacks the sort key).
 *
 * Only for category_id with creation_year, current_estimated_price and filters without an index
 * of their own (size, measurements, materials, last sale status, images, editions, last hammer
 * and premium); any other filter (artist, ids, indexed ranges, upcoming sales) leaves the plan to
 * SQLite, as does a snapshot without these indexes.
 */
export const CATEGORY_PLAN = { probeRows: 5_000, rowCost: 30 } satisfies PlanThresholds;

/** Filters that leave a category list to SQLite's own plan: they have an index that may be better. */
const PLANNER_FILTERS = new Set([
  "id",
  "uid",
  "artist_id",
  "price_momentum_12mo",
  "date_last_sold",
  "date_last_upcoming",
  "market_cap",
  "sale_auction_house_id",
  "sale_start_datetime",
]);

/** The category index that gives each order, and the sort's key ("" for the default order: the id, in every index). */
function categorySort(q: ParsedList): { index: MarketIndex; key: string } {
  if (q.params.sort_by_price) return { index: IX.artworks_category_estimate_year, key: "estimate_usd" };
  const sort = q.sort ?? "";
  if (sort.startsWith("CREATION_YEAR")) return { index: IX.artworks_category_year_estimate, key: "creation_year" };
  if (sort.startsWith("SALE_DATE")) return { index: IX.artworks_category_sold_year_estimate, key: "day_last_sold" };
  if (sort.startsWith("NAME")) return { index: IX.artworks_title_nocase, key: "title" };
  if (sort.startsWith("SIZE")) return { index: IX.artworks_size, key: "size" };
  return { index: IX.artworks_category, key: "" };
}

/** The columns each category index holds after category_id (besides the id). */
const INDEX_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  artworks_category: [],
  artworks_category_year_estimate: ["creation_year", "estimate_usd"],
  artworks_category_estimate_year: ["estimate_usd", "creation_year"],
  artworks_category_sold_year_estimate: ["day_last_sold", "creation_year", "estimate_usd"],
};
/**
 * The sorts by name and size walk the index of every work (the category is read from the row):
 * an index per category for them cost about 500 MiB at full scale for pages that a walk finds
 * after about (offset + limit) × works / matches entries.
 */
const WHOLE_INDEXES: Readonly<Partial<Record<MarketIndex, string>>> = { [IX.artworks_title_nocase]: "title", [IX.artworks_size]: "size" };
/** The column a filter reads, for the two the category indexes carry; any other filter needs the row. */
const FILTER_COLUMNS: Readonly<Record<string, string>> = { creation_year: "creation_year", current_estimated_price: "estimate_usd" };

const CATEGORY_INDEXES = [
  IX.artworks_category,
  IX.artworks_category_year_estimate,
  IX.artworks_category_estimate_year,
  IX.artworks_category_sold_year_estimate,
  ...Object.keys(WHOLE_INDEXES),
];

/**
 * The page and count statements of a list within one category, planned as described above, and
 * the count itself (run here: the page's plan depends on it); null when the list is not one for
 * this plan. `limits` are for
 * tests (the tiny market never reaches the real thresholds).
 */
export function categoryPlan(
  db: Database,
  q: ParsedList,
  limits: { probeRows: number; rowCost: number } = CATEGORY_PLAN,
): {
  page: SqlFragment;
  /** The page's statement for `limit` rows from `offset` within a cursor's keyset `range`. */
  pageAt: (range: SqlFragment | null, limit: number, offset: number) => SqlFragment;
  count: SqlFragment;
  total: number;
  index: string;
  driver: "filter" | "sort";
} | null {
  const category = q.filters.filter((f) => f.field === "category_id");
  if (category.length !== 1 || category[0]!.suffix !== "") return null;
  if (q.filters.some((f) => PLANNER_FILTERS.has(f.field))) return null;
  const snapshot = snapshotOf(db);
  if (!CATEGORY_INDEXES.every((n) => snapshot.hasIndex(n))) return null;
  const categoryId = category[0]!.value as number;
  const where = artworkWhere(ARTWORK_LIST, q);
  const order = artworkOrder(q);
  const sort = categorySort(q);
  const filterColumns = q.filters.filter((f) => f.field !== "category_id").map((f) => FILTER_COLUMNS[f.field] ?? "row");
  if (where.params.length > q.filters.length || q.params.without_editions === true || q.params.with_images === true) filterColumns.push("row");
  const covers = (index: string) => index in INDEX_COLUMNS && filterColumns.every((c) => INDEX_COLUMNS[index]!.includes(c));
  const years = q.filters.some((f) => f.field === "creation_year");
  const estimates = q.filters.some((f) => f.field === "current_estimated_price");
  const count = (index: string): SqlFragment => ({ sql: `SELECT count(*) AS n FROM artworks a INDEXED BY ${index} WHERE ${where.sql}`, params: where.params });
  const pageAt = (index: string, range: SqlFragment | null, limit: number, offset: number): SqlFragment => {
    const paged = within(where, range);
    return { sql: `SELECT a.id FROM artworks a INDEXED BY ${index} WHERE ${paged.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, params: [...paged.params, limit, offset] };
  };
  // The range to count on: creation year, estimate, or (neither) the whole category.
  let index: string = IX.artworks_category;
  let total: number | null = null;
  /** Entries of the count's range (estimated when no probe reached its end). */
  let rangeRows: number | null = null;
  if (where.sql === "a.category_id = ?") total = snapshot.categorySize(categoryId);
  if (years || estimates) {
    const probe = (idx: string, column: string): Probe =>
      probeRange(db, "artworks a", idx, where, whereClause(ARTWORK_LIST, [...category, ...q.filters.filter((f) => f.field === column)]), limits.probeRows);
    const probes: Probe[] = [];
    if (years) probes.push(probe(IX.artworks_category_year_estimate, "creation_year"));
    if (estimates) probes.push(probe(IX.artworks_category_estimate_year, "current_estimated_price"));
    // A range that ended within its probe gives the count; else range size ≈ count / (share of a probe that matched).
    const choice = chooseRange(probes, limits.probeRows);
    index = choice.best.index;
    total = choice.complete
      ? choice.complete.matched
      : (keptCategoryCount(db, categoryId, q.filters, !filterColumns.includes("row") && snapshot.hasTable("artwork_counts")) ?? allOnce<{ n: number }>(db, count(index))[0]!.n);
    rangeRows = rangeRowsOf(choice, total, Number.POSITIVE_INFINITY);
  }
  if (total === null) total = allOnce<{ n: number }>(db, count(index))[0]!.n;
  // The page's two plans, in steps (index entries; a row look-up costs rowCost).
  const size = snapshot.categorySize(categoryId);
  // works in the market by the largest id: the walk's cost is all it is used for
  const span = sort.index in WHOLE_INDEXES ? snapshot.maxId("artworks") : size;
  const walked = walkRows(q.offset + q.limit, span, total);
  const walkCost = walked * (covers(sort.index) ? 1 : limits.rowCost);
  const rangeCost =
    (rangeRows ?? size) * (covers(index) ? 1 : limits.rowCost) +
    (index === sort.index || sort.key === "" || INDEX_COLUMNS[index]?.includes(sort.key) ? total : total * limits.rowCost);
  const driver = index !== sort.index && rangeCost < walkCost ? "filter" : "sort";
  const pageIndex = driver === "filter" ? index : sort.index;
  return {
    page: pageAt(pageIndex, null, q.limit, q.offset),
    pageAt: (range, limit, offset) => pageAt(pageIndex, range, limit, offset),
    count: count(index),
    total,
    index,
    driver,
  };
}

// ---------------------------------------------------------------- hydration

// The artwork object (full or public schema, *_preferred values, signed image, follows) is built by
// artworksByIds in model.ts, so that other modules (search, similar) serialise artworks the same way.
export { artworkById, artworksByIds } from "./model";

export interface Page {
  items: Record<string, unknown>[];
  total_count: number;
  limit: number;
  offset: number;
  /** The next page's cursor (null on the last page); absent from lists without cursors (recommended). */
  next_cursor?: string | null;
}

/**
 * The uid filters as id filters: a default uid is not stored (src/db/artwork-uid.ts), so a uid is
 * found in Javascript and filtered by id (0, no work, for a uid no work has).
 */
export function resolveUids(db: Database, q: ParsedList): ParsedList {
  if (!q.filters.some((f) => f.field === "uid")) return q;
  const filters = q.filters.map((f) => {
    if (f.field !== "uid") return f;
    const uids = f.suffix === "__in" ? (f.value as string[]) : [f.value as string];
    const ids = artworkIdsByUids(db, uids);
    return { ...f, field: "id", suffix: "__in" as const, value: uids.map((u) => ids.get(u) ?? 0) };
  });
  return { ...q, filters };
}

/** The filter parameters beside the fields (what a cursor's fingerprint covers besides the filters and the sort). */
const filterParams = (q: ParsedList) => ({ without_editions: q.params.without_editions, with_images: q.params.with_images });

/** A list's cursor context: `scope` names the list, the sort (sort_by_price or sort) and the filters its fingerprint. */
function cursorOf(q: ParsedList, scope: string): ListCursor {
  const byPrice = q.params.sort_by_price as string | undefined;
  return { scope, sort: byPrice ? `price:${byPrice}` : (q.sort ?? ""), filters: q.filters, params: filterParams(q) };
}

const idsOf = (db: Database, f: SqlFragment) => allOnce<{ id: number }>(db, f).map((r) => r.id);

export function listArtworks(deps: AppDeps, view: CallerView, query: ParsedList): Page {
  const q = resolveMaterials(deps.market, resolveUids(deps.market, query));
  const planned = categoryPlan(deps.market, q);
  const page = tablePage(
    {
      db: deps.market,
      signer: deps.signer,
      cursor: cursorOf(query, "artworks"),
      keys: artworkKeys(query),
      from: "artworks a",
      idColumn: "a.id",
      page: planned
        ? (range, limit, offset) => idsOf(deps.market, planned.pageAt(range, limit, offset))
        : (range, limit, offset) => idsOf(deps.market, listStatements(q, range, limit, offset).page),
      total: planned ? planned.total : allOnce<{ n: number }>(deps.market, listStatements(q).count)[0]!.n,
      id: (id) => id,
    },
    q,
  );
  return {
    items: artworksByIds(deps, view, page.rows),
    total_count: page.total!,
    limit: q.limit,
    offset: q.offset,
    next_cursor: page.nextCursor,
  };
}

// ---------------------------------------------------------------- followed and recommended

/**
 * The followed list's order: most recently followed first, ties by the follow's `seq` (account.db's
 * rowid, the order of the follows; see FollowedRow), as the store's rows are ordered here.
 */
const FOLLOWED_KEYS = sortKeys("DESC", "f.created_at", "f.seq");

/**
 * Followed artworks (with the list filters), most recently followed first. One statement finds
 * which of the caller's followed artworks the market holds and the filters keep (the ids bound as
 * one value); the follows' order gives the page, the cursor's position and the total.
 */
export function followedArtworks(deps: AppDeps, view: CallerView, userId: number, query: ParsedList): Page {
  const q = resolveMaterials(deps.market, resolveUids(deps.market, query));
  const where = artworkWhere(ARTWORK_LIST, q);
  const follows = [...deps.accounts.followedRows(userId, "artwork")].sort((a, b) => b.created_at - a.created_at || b.seq - a.seq);
  const page = followedPage(
    {
      db: deps.market,
      signer: deps.signer,
      cursor: cursorOf(query, `artworks/followed:${userId}`),
      keys: FOLLOWED_KEYS,
      follows,
      kept: {
        sql: `SELECT a.id FROM ${FOLLOWED_ROWS} f JOIN artworks a ON a.id = f.value WHERE ${where.sql}`,
        params: [followedParam(follows.map((f) => f.target_id)), ...where.params],
      },
      id: (f) => f.target_id,
      key: (f) => [f.created_at, f.seq],
    },
    q,
  );
  return {
    items: artworksByIds(deps, view, page.ids),
    total_count: page.total,
    limit: q.limit,
    offset: q.offset,
    next_cursor: page.nextCursor,
  };
}

/** Estimates within this factor either way count as close (recommendations by category). */
export const CLOSE_ESTIMATE_FACTOR = 1.5;
/** Followed artists' works count as recent with a lot in this many days before the as-of date, or upcoming. */
export const RECENT_DAYS = 365;

/**
 * Recommendations, each candidate scored by the reasons it matches (weights add up once each):
 * 4: by the artist of a followed artwork; 2: by a followed artist, with a lot in the last 12
 * months or upcoming; 1: same category as a followed artwork and an estimate within a factor 1.5
 * of its estimate. Followed artworks are left out. Order: score, then the most recent activity
 * (last sale or upcoming lot date), then id.
 */
const RECOMMENDED_CTE = `WITH fa AS (
    SELECT a.id, a.artist_id, a.category_id, a.estimate_usd
    FROM artworks a WHERE a.id IN (SELECT value FROM json_each(?1))),
  fr AS (SELECT value AS artist_id FROM json_each(?2)),
  cand(id, w) AS (
    SELECT a.id, 4 FROM artworks a WHERE a.artist_id IN (SELECT artist_id FROM fa)
    UNION ALL
    SELECT DISTINCT l.artwork_id, 2 FROM lots l WHERE l.artist_id IN (SELECT artist_id FROM fr) AND l.sale_datetime >= ?3
    UNION ALL
    SELECT a.id, 1 FROM fa JOIN artworks a ON a.category_id = fa.category_id
      AND a.estimate_usd BETWEEN fa.estimate_usd / ${CLOSE_ESTIMATE_FACTOR} AND fa.estimate_usd * ${CLOSE_ESTIMATE_FACTOR}),
  scored AS (SELECT id, sum(DISTINCT w) AS score FROM cand WHERE id NOT IN (SELECT id FROM fa) GROUP BY id)`;

export function recommendedArtworks(deps: AppDeps, view: CallerView, userId: number, q: ParsedList): Page {
  const since = epochSeconds(addDays(deps.asOf, -RECENT_DAYS), "lower");
  // the caller's followed artworks (?1) and artists (?2), one bound value each (src/db/follows.ts)
  const artworks = followedParam(deps.accounts.followedIds(userId, "artwork"));
  const artists = followedParam(deps.accounts.followedIds(userId, "artist"));
  const ids = deps.market
    .query<{ id: number }, [string, string, number, number, number]>(
      `${RECOMMENDED_CTE}
       SELECT s.id FROM scored s JOIN artworks a ON a.id = s.id
       ORDER BY s.score DESC, max(coalesce(a.date_last_upcoming, ''), coalesce(date(a.day_last_sold * 86400, 'unixepoch'), '')) DESC, a.id ASC
       LIMIT ?4 OFFSET ?5`,
    )
    .all(artworks, artists, since, q.limit, q.offset)
    .map((r) => r.id);
  const total = deps.market.query<{ n: number }, [string, string, number]>(`${RECOMMENDED_CTE} SELECT count(*) AS n FROM scored`).get(artworks, artists, since)!.n;
  return { items: artworksByIds(deps, view, ids), total_count: total, limit: q.limit, offset: q.offset };
}

// ---------------------------------------------------------------- chart

/** Monthly step variance of the artist index (random walk), as in the derivation. */
export const MONTHLY_STEP_VARIANCE = 0.0004;
export const CHART_HORIZON_MONTHS = 12;

const round2 = (x: number) => Math.round(x * 100) / 100;

/** `day` plus `months` calendar months, the day clamped to the month's length. */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const ny = Math.floor(index / 12);
  const nm = (index % 12) + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return `${String(ny).padStart(4, "0")}-${String(nm).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/**
 * The forward band: h = 1..12 months after the as-of date, median = the current estimate (the
 * index is a driftless random walk), σ_h² = σ₀² + 0.0004·h where σ₀ = ln(max/min) / (2·Z80) is
 * read back from the stored 80 % band (the derivation's exp(μ ± Z80·σ)); low/high = mid·exp(∓Z80·σ_h).
 */
export function estimateBand(mid: number, min: number | null, max: number | null, asOf: string): { time: string; value: number; value_low: number; value_high: number }[] {
  const sigma0 = min !== null && max !== null && min > 0 && max > 0 ? Math.log(max / min) / (2 * Z80) : 0;
  const out = [];
  for (let h = 1; h <= CHART_HORIZON_MONTHS; h++) {
    const sigma = Math.sqrt(sigma0 * sigma0 + MONTHLY_STEP_VARIANCE * h);
    out.push({ time: addMonths(asOf, h), value: mid, value_low: mid * Math.exp(-Z80 * sigma), value_high: mid * Math.exp(Z80 * sigma) });
  }
  return out;
}

export function artworkChart(deps: AppDeps, id: number, preferred?: string) {
  const a = deps.market
    .query<EstimateValues, [number]>("SELECT estimate_usd, estimate_min_usd, estimate_max_usd, price_change_12mo, price_change_24mo FROM artworks WHERE id = ?")
    .get(id);
  if (!a) return null;
  const code = preferred ?? "USD";
  const convert = (usd: number, day: string) => (code === "USD" ? usd : deps.fx.fromUsd(usd, code, day));
  const hammers = deps.market
    .query<{ sale_datetime: number; hammer_usd: number }, [number]>(
      `SELECT sale_datetime, ${usdOf("hammer_usd_cents")} AS hammer_usd FROM lots
       WHERE artwork_id = ? AND status = 'sold' AND hammer_usd_cents IS NOT NULL ORDER BY sale_datetime, id`,
    )
    .all(id)
    .flatMap((l) => {
      const day = isoOfSeconds(l.sale_datetime).slice(0, 10);
      const value = convert(l.hammer_usd, day);
      return value === null ? [] : [{ time: day, value }];
    });
  const band =
    a.estimate_usd === null
      ? []
      : estimateBand(a.estimate_usd, a.estimate_min_usd, a.estimate_max_usd, deps.asOf).flatMap((p) => {
          const value = convert(p.value, deps.asOf);
          const low = convert(p.value_low, deps.asOf);
          const high = convert(p.value_high, deps.asOf);
          if (value === null || low === null || high === null) return [];
          return [{ time: p.time, value: round2(value), value_low: round2(low), value_high: round2(high) }];
        });
  // the work's upcoming lot (the next one, when several): its expected hammer with its band, and its chance to sell
  const upcoming = deps.market
    .query<{ id: number; sale_datetime: number; p: number; mid: number; low: number | null; high: number | null }, [number]>(
      `SELECT id, sale_datetime, sale_probability AS p, expected_hammer_usd AS mid, expected_hammer_usd_low AS low, expected_hammer_usd_high AS high FROM lots
       WHERE artwork_id = ? AND status = 'upcoming' AND sale_probability IS NOT NULL AND expected_hammer_usd IS NOT NULL ORDER BY sale_datetime, id LIMIT 1`,
    )
    .all(id)
    .flatMap((l) => {
      const day = isoOfSeconds(l.sale_datetime).slice(0, 10);
      const value = convert(l.mid, deps.asOf);
      const low = convert(l.low ?? l.mid, deps.asOf);
      const high = convert(l.high ?? l.mid, deps.asOf);
      if (value === null || low === null || high === null) return [];
      return [{ time: day, value: round2(value), value_low: round2(low), value_high: round2(high), sale_probability: l.p, lot_id: l.id }];
    });
  // the estimate as served: a point where each value took effect, at that day's rate
  const served = estimatePeriods(deps.market, id, a, deps.asOf).flatMap((p) => {
    if (p.estimate_usd === null) return [];
    const value = convert(p.estimate_usd, p.from);
    const low = convert(p.estimate_min_usd ?? p.estimate_usd, p.from);
    const high = convert(p.estimate_max_usd ?? p.estimate_usd, p.from);
    if (value === null || low === null || high === null) return [];
    return [{ time: p.from, value: round2(value), value_low: round2(low), value_high: round2(high) }];
  });
  return {
    resolution: "monthly" as const,
    unit: code,
    currency: code,
    series: [
      { id: "hammer_prices", label: "Hammer prices", data: hammers },
      { id: "estimate", label: "Estimate, 80 % band", data: band },
      { id: "estimate_history", label: "Estimate as served, from each change", data: served },
      ...(upcoming.length ? [{ id: "upcoming_lot", label: "Upcoming lot: expected hammer if sold, 80 % band", data: upcoming }] : []),
    ],
  };
}

// ---------------------------------------------------------------- editions

interface EditionLotRow extends PriceRow {
  id: number;
  artwork_id: number;
  lot_num: string;
  status: string;
  sale_id: number;
  sale_name: string | null;
  house_id: number;
  house_name: string | null;
}

export function artworkEditions(deps: AppDeps, view: CallerView, id: number) {
  const a = deps.market
    .query<{ edition_group_id: number | null; edition_size: number | null }, [number]>("SELECT edition_group_id, edition_size FROM artworks WHERE id = ?")
    .get(id);
  if (!a) return null;
  const ids =
    a.edition_group_id === null
      ? [id]
      : deps.market
          .query<{ id: number }, [number]>("SELECT id FROM artworks WHERE edition_group_id = ? ORDER BY edition_number ASC NULLS LAST, id ASC")
          .all(a.edition_group_id)
          .map((r) => r.id);
  const artworks = artworksByIds(deps, view, ids);
  const lots = deps.market
    .query<EditionLotRow, [string]>(
      `SELECT l.id, l.artwork_id, l.lot_num, l.status, l.sale_id, s.name AS sale_name, l.house_id, h.name AS house_name, ${PRICE_COLUMNS}
       FROM lots l LEFT JOIN sales s ON s.id = l.sale_id LEFT JOIN auction_houses h ON h.id = l.house_id
       WHERE l.artwork_id IN (SELECT value FROM json_each(?)) ORDER BY l.artwork_id, l.sale_datetime, l.id`,
    )
    .all(JSON.stringify(ids));
  const byArtwork = new Map<number, Record<string, unknown>[]>();
  for (const l of lots) {
    const item: Record<string, unknown> = {
      id: l.id,
      lot_num: l.lot_num,
      status: l.status,
      sale_id: l.sale_id,
      sale_name: l.sale_name,
      sale_datetime: l.sale_datetime,
      auction_house_id: l.house_id,
      auction_house_name: l.house_name,
    };
    if (view.schema === "full") item.price = priceObject(l, deps.fx, view.preferred);
    let list = byArtwork.get(l.artwork_id);
    if (!list) byArtwork.set(l.artwork_id, (list = []));
    list.push(item);
  }
  return {
    artwork_id: id,
    edition_group_id: a.edition_group_id,
    edition_size: a.edition_size,
    edition_unique_type: a.edition_group_id === null ? ("unique" as const) : ("edition" as const),
    editions: artworks.map((artwork) => ({ artwork, lots: byArtwork.get(artwork.id as number) ?? [] })),
  };
}

// ---------------------------------------------------------------- cagr and shares

/** The CAGR of an artwork; undefined when unknown, null when it has no price prediction. */
export function artworkCagr(db: Database, id: number): number | null | undefined {
  const r = db.query<{ estimate_usd: number | null; cagr: number | null }, [number]>("SELECT estimate_usd, cagr_ppm / 1000000.0 AS cagr FROM artworks WHERE id = ?").get(id);
  if (!r) return undefined;
  return r.estimate_usd === null ? null : r.cagr;
}

/** Which of `ids` the market does not hold, as positions in `ids`. */
export function missingIds(db: Database, ids: readonly number[]): number[] {
  const known = new Set(
    db
      .query<{ id: number }, [string]>("SELECT id FROM artworks WHERE id IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(ids))
      .map((r) => r.id),
  );
  return ids.flatMap((id, i) => (known.has(id) ? [] : [i]));
}
