/**
 * The artist list grammar, declared once: the filter fields (suffix form, handled by the shared
 * grammar), the parameters that are not column filters (q, sort_by, sort_dir, the legacy sorts,
 * is_living, followed, include_chart), and the sort map. service.ts turns the parameters into SQL
 * only through the fixed fragments below: no parameter text ever reaches SQL.
 */
import { CURSOR_PARAM, orderText, sortKeys, T, type FieldDecl, type ListSpec, type ParamDecl, type ScalarType, type SortKeys } from "../../query/grammar";
import { EVENT_TYPES } from "./model";

const range = (column: string, type: ScalarType = T.num(), description?: string): FieldDecl => ({
  column,
  type,
  suffixes: ["__gte", "__lte"],
  ...(description && { description }),
});

/** Filter fields, by query name (the name + suffix is the parameter). Columns are of `artists a`. */
export const ARTIST_FIELDS: Readonly<Record<string, FieldDecl>> = {
  id: { column: "a.id", type: T.int(1), suffixes: ["__in"] },
  uid: { column: "a.uid", type: T.str(200), suffixes: ["__in"], description: "canonical slugs" },
  is_top: { column: "a.is_top", type: T.bool(), suffixes: [""], description: "the curated top set" },
  nationality: { column: "a.nationality", type: T.str(100), suffixes: ["__in"], description: "values from the stats facet" },
  birth: range("a.birth", T.int(), "birth year"),
  market_cap: range("a.market_cap", T.num(), "USD"),
  total_sales: range("a.total_sales", T.num(), "USD"),
  max_price: range("a.max_price", T.num(), "USD"),
  artworks_count: range("a.artworks_count", T.int()),
  recent_lots_count: range("a.recent_lots_count", T.int()),
  total_sales_lots_1yr: range("a.total_sales_lots_1yr", T.num()),
  total_sales_price_median_1yr: range("a.total_sales_price_median_1yr", T.num(), "USD"),
  price_momentum_percentage_12mo: range("a.price_momentum_percentage_12mo", T.num(), "percent"),
  price_momentum_percentage_5y: range("a.price_momentum_percentage_5y", T.num(), "percent"),
};

/**
 * Filter fields on values the public schema leaves out. A caller who gets the public schema may
 * not filter on them (a range filter would reveal the value by bisection): 401 without a key, 403
 * on a plan with the public schema. Sorting on them is allowed: a ranking shows order, not values.
 */
export const HIDDEN_FILTER_FIELDS: ReadonlySet<string> = new Set([
  "market_cap",
  "total_sales",
  "max_price",
  "artworks_count",
  "recent_lots_count",
  "total_sales_lots_1yr",
  "total_sales_price_median_1yr",
  "price_momentum_percentage_12mo",
]);

export const SORT_BY = ["MARKET_CAP", "TOTAL_SALES", "MAX_PRICE", "MEDIAN_1YR", "RECENT_LOTS", "LOTS_1YR", "ARTWORKS", "MOMENTUM_12MO", "MOMENTUM_5Y", "NAME", "BIRTH"] as const;
export type SortBy = (typeof SORT_BY)[number];
export type SortDir = "asc" | "desc";

export interface SortDecl {
  /** SQL expression over `artists a` (fixed text). */
  column: string;
  /** Whether the column can be NULL: then NULLs go last in both directions. */
  nullable: boolean;
  defaultDir: SortDir;
  /** The response field the sort orders by. */
  field: string;
}

export const SORTS: Readonly<Record<SortBy, SortDecl>> = {
  MARKET_CAP: { column: "a.market_cap", nullable: false, defaultDir: "desc", field: "market_cap" },
  TOTAL_SALES: { column: "a.total_sales", nullable: false, defaultDir: "desc", field: "total_sales" },
  MAX_PRICE: { column: "a.max_price", nullable: true, defaultDir: "desc", field: "max_price" },
  MEDIAN_1YR: { column: "a.total_sales_price_median_1yr", nullable: true, defaultDir: "desc", field: "total_sales_price_median_1yr" },
  RECENT_LOTS: { column: "a.recent_lots_count", nullable: false, defaultDir: "desc", field: "recent_lots_count" },
  LOTS_1YR: { column: "a.total_sales_lots_1yr", nullable: false, defaultDir: "desc", field: "total_sales_lots_1yr" },
  ARTWORKS: { column: "a.artworks_count", nullable: false, defaultDir: "desc", field: "artworks_count" },
  MOMENTUM_12MO: { column: "a.price_momentum_percentage_12mo", nullable: true, defaultDir: "desc", field: "price_momentum_percentage_12mo" },
  MOMENTUM_5Y: { column: "a.price_momentum_percentage_5y", nullable: true, defaultDir: "desc", field: "price_momentum_percentage_5y" },
  NAME: { column: "a.name COLLATE NOCASE", nullable: false, defaultDir: "asc", field: "name" },
  BIRTH: { column: "a.birth", nullable: true, defaultDir: "asc", field: "birth" },
};

/** The order when neither sort_by nor a legacy sort is given. */
export const DEFAULT_SORT: SortBy = "MARKET_CAP";

/**
 * The sort keys of a sort and direction (the ORDER BY and the cursor's keyset:
 * src/serve/query/cursor.ts): the column, then the id in the same direction. NULLs last in both
 * directions: descending puts them last by itself (SQLite orders NULL first ascending), ascending
 * adds `column IS NULL` in front. Every form is served by an index of
 * src/db/market-indexes/artists.ts (the id is the rowid, the last column of each index).
 */
export function sortKeysFor(sort: SortBy, dir: SortDir): SortKeys {
  const { column, nullable } = SORTS[sort];
  const d = dir === "asc" ? "ASC" : "DESC";
  return sortKeys(d, nullable ? [column, true] : column, "a.id");
}

/** ORDER BY (without the keyword) for a sort and direction. */
export function orderBy(sort: SortBy, dir: SortDir): string {
  return orderText(sortKeysFor(sort, dir));
}

const asc_desc = T.enum(["asc", "desc"]);

const FILTER_PARAMS = {
  q: { type: T.str(200), description: "free text over name and known synonyms: every word must begin a word of the name or a synonym (case and accents ignored)" },
  is_living: { type: T.bool(), description: "true: living artists only (no death year); false: deceased only" },
  followed: { type: T.bool(), description: "true: only artists the caller follows (needs a key); false or absent: all" },
} satisfies Readonly<Record<string, ParamDecl>>;

const CHART_PARAM = {
  include_chart: { type: T.bool(), default: false, description: "include artist_index_chart in each row (full schema only)" },
} satisfies Readonly<Record<string, ParamDecl>>;

export const LIST_LIMIT = { default: 100, max: 1000 } as const;

/** GET /v1/artists. */
export const ARTIST_LIST = {
  fields: ARTIST_FIELDS,
  limit: LIST_LIMIT,
  params: {
    ...FILTER_PARAMS,
    sort_by: { type: T.enum(SORT_BY), description: "MARKET_CAP when absent (and no legacy sort); NULLs sort last in both directions; ties by id" },
    sort_dir: { type: asc_desc, description: "default desc, except NAME and BIRTH: asc" },
    sort_by_total_sales: { type: asc_desc, description: "legacy: the same as sort_by=TOTAL_SALES with this direction (sort_by wins)" },
    sort_by_market_cap: { type: asc_desc, description: "legacy: the same as sort_by=MARKET_CAP with this direction (sort_by and sort_by_total_sales win)" },
    ...CHART_PARAM,
    cursor: CURSOR_PARAM,
  },
} satisfies ListSpec;

/** GET /v1/artists/stats: the list's filters, without paging or order. */
export const ARTIST_STATS = { fields: ARTIST_FIELDS, params: FILTER_PARAMS } satisfies ListSpec;

/** GET /v1/artists/followed. */
export const FOLLOWED_LIST = { fields: {}, limit: LIST_LIMIT, params: { ...CHART_PARAM, cursor: CURSOR_PARAM } } satisfies ListSpec;

/** GET /v1/artists/{artist_id}/related. */
/** GET /v1/artists/{artist_id}/related: the spec's other-list page size (default 20, maximum 100), as artwork similar. */
export const RELATED_LIST: ListSpec = { fields: {}, limit: { default: 20, max: 100 } };

/** GET /v1/artists/{artist_id}/events. */
export const EVENTS_QUERY = {
  fields: {},
  params: { type: { type: T.enum(EVENT_TYPES), many: true, description: "one or more event types (repeat or comma-separate); absent: all" } },
} satisfies ListSpec;

export const RESOLUTIONS = ["daily", "monthly", "yearly"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** GET /v1/artists/{artist_id}/chart. */
export const CHART_QUERY = {
  fields: {},
  params: { resolution: { type: T.enum(RESOLUTIONS), default: "monthly", description: "monthly (default), yearly, or daily (the last two years, interpolated)" } },
} satisfies ListSpec;
