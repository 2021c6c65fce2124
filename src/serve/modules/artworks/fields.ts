/**
 * The artwork list grammar: every filter, parameter and sort of GET /v1/artworks, declared once.
 * Columns are read from the `artworks` table aliased `a`. A few filters cannot be written as
 * `column op value` (materials, the upcoming-sale filters, without_editions, with_images): they
 * are declared here for validation and documentation and turned into SQL by artworkWhere below
 * (used by the artwork lists and by search by image's pool filters).
 */
import { CURSOR_PARAM, orderText, sortKeys, T, whereClause, type FieldDecl, type ListSpec, type ParsedList, type SortKeys, type SqlFragment } from "../../query/grammar";
import { AS_OF, PREFERRED_CURRENCY } from "../../query/params";
import { dayNumber, epochSeconds } from "../../../market/time";
import { likeEscape } from "../../../db/sql";
import { LOT_STATUSES } from "../../../market/statuses";
import { SIZE_BUCKETS } from "../../../market/sizes";

/** Largest dimension in cm (null when no dimension is known): the SIZE sort, backed by an index on the same expression. */
export const SIZE_SQL = "nullif(max(coalesce(a.height_cm, 0), coalesce(a.width_cm, 0), coalesce(a.depth_cm, 0)), 0)";

/** Fields whose SQL service.ts writes itself (never through whereClause); `medium` is materials resolved (materials.ts). */
export const CUSTOM_FIELDS = new Set(["materials", "medium", "sale_auction_house_id", "sale_start_datetime"]);

const range = (column: string, type: FieldDecl["type"], description?: string): FieldDecl => ({
  column,
  type,
  suffixes: ["__gte", "__lte"],
  ...(description && { description }),
});

export const ARTWORK_FIELDS: Record<string, FieldDecl> = {
  id: { column: "a.id", type: T.int(1), suffixes: ["__in"], description: "artwork ids" },
  uid: { column: "a.uid", type: T.str(200), suffixes: ["", "__in"], description: "artwork uids" },
  artist_id: { column: "a.artist_id", type: T.int(1), suffixes: ["", "__in"] },
  category_id: { column: "a.category_id", type: T.int(1), suffixes: ["", "__in"], description: "see GET /v1/categories" },
  creation_year: range("a.creation_year", T.int()),
  size: {
    column: "a.size_bucket",
    type: T.enum(SIZE_BUCKETS),
    suffixes: ["", "__eq", "__in"],
    description: "normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown)",
  },
  measurements_height_cm: range("a.height_cm", T.num(0), "height in cm"),
  measurements_width_cm: range("a.width_cm", T.num(0), "width in cm"),
  measurements_depth_cm: range("a.depth_cm", T.num(0), "depth in cm"),
  materials: {
    column: "a.medium",
    type: T.str(200),
    suffixes: ["", "__in"],
    description:
      'matches the medium text, case-insensitive, as whole words: oil matches "oil on canvas", "oil on canvas" matches itself; underscores count as spaces, so the names of GET /v1/materials work (silver_gelatin)',
  },
  last_lot_status: { column: "a.last_lot_status", type: T.enum(LOT_STATUSES), suffixes: ["", "__in"], description: "outcome of the most recent lot" },
  date_last_sold: { ...range("a.day_last_sold", T.date()), toColumn: dayNumber },
  date_last_upcoming: range("a.date_last_upcoming", T.date()),
  current_estimated_price: range("a.estimate_usd", T.num(0), "current estimate, USD"),
  price_momentum_12mo: { ...range("a.price_momentum_12mo_ppm", T.num(-1, 1), "a fraction, -1.0 to 1.0"), scale: 1e6 },
  last_hammer_price_usd: { ...range("a.last_hammer_usd_cents", T.int(0), "hammer of the most recent sale, USD"), scale: 100 },
  last_premium_price_usd: { ...range("a.last_premium_usd_cents", T.int(0), "price with premium of the most recent sale, USD"), scale: 100 },
  sale_auction_house_id: {
    column: "l.house_id",
    type: T.int(1),
    suffixes: ["__in"],
    description: "works with an upcoming lot at one of these auction houses",
  },
  sale_start_datetime: {
    column: "l.sale_datetime",
    type: T.datetime(),
    suffixes: ["__gte", "__lte"],
    description: "works with an upcoming lot whose sale starts in this window (with sale_auction_house_id__in: the same lot)",
  },
  market_cap: {
    column: "a.artist_market_cap",
    type: T.num(0),
    suffixes: ["__gte", "__lte"],
    description: "the artist's market cap, USD",
  },
};

/** sort_by_price's sort keys (the estimate, NULLs last both ways; ties by id). */
export const PRICE_SORT_KEYS = {
  asc: sortKeys("ASC", ["a.estimate_usd", true], "a.id"),
  desc: sortKeys("DESC", ["a.estimate_usd", true], "a.id"),
} satisfies Readonly<Record<string, SortKeys>>;

export const SORT_BY_PRICE: Readonly<Record<string, string>> = {
  asc: orderText(PRICE_SORT_KEYS.asc, "keyword"),
  desc: orderText(PRICE_SORT_KEYS.desc, "keyword"),
};

/**
 * ArtworkSortEnum as sort keys (the ORDER BY and the cursor's keyset: src/serve/query/cursor.ts):
 * each ends with the id in the same direction; NULLs last both ways.
 */
export const ARTWORK_SORT_KEYS = {
  NAME_ASC: sortKeys("ASC", "a.title COLLATE NOCASE", "a.id"),
  NAME_DESC: sortKeys("DESC", "a.title COLLATE NOCASE", "a.id"),
  CREATION_YEAR_ASC: sortKeys("ASC", ["a.creation_year", true], "a.id"),
  CREATION_YEAR_DESC: sortKeys("DESC", ["a.creation_year", true], "a.id"),
  SALE_DATE_ASC: sortKeys("ASC", ["a.day_last_sold", true], "a.id"),
  SALE_DATE_DESC: sortKeys("DESC", ["a.day_last_sold", true], "a.id"),
  SIZE_ASC: sortKeys("ASC", [SIZE_SQL, true], "a.id"),
  SIZE_DESC: sortKeys("DESC", [SIZE_SQL, true], "a.id"),
} satisfies Readonly<Record<string, SortKeys>>;

/** ArtworkSortEnum → ORDER BY (e.g. `a.creation_year ASC NULLS LAST, a.id ASC`). */
export const ARTWORK_SORTS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(ARTWORK_SORT_KEYS).map(([name, keys]) => [name, orderText(keys, "keyword")]));

/** The artwork list's page size: up to 1000 (the spec prices an artwork list of 500 records). */
export const ARTWORK_LIMIT = { default: 20, max: 1000 };

export const ARTWORK_PARAMS: ListSpec["params"] = {
  preferred_currency: PREFERRED_CURRENCY,
  sort_by_price: { type: T.enum(["asc", "desc"]), description: "order by the current estimate (NULLs last); takes precedence over sort" },
  without_editions: { type: T.bool(), description: "true: only unique works (no copies of an edition); false: no filter" },
  with_images: { type: T.bool(), default: false, description: "true: only works with an image; false (default): no filter" },
};

export const ARTWORK_LIST: ListSpec = {
  fields: ARTWORK_FIELDS,
  sorts: ARTWORK_SORT_KEYS,
  nullsStyle: "keyword",
  tiebreaker: "a.id",
  limit: ARTWORK_LIMIT,
  params: { ...ARTWORK_PARAMS, cursor: CURSOR_PARAM },
};

/** The followed list: the same filters, fixed order (most recently followed first). */
export const FOLLOWED_LIST: ListSpec = {
  fields: ARTWORK_FIELDS,
  tiebreaker: "a.id",
  limit: { default: 20, max: 100 },
  params: { ...ARTWORK_PARAMS, cursor: CURSOR_PARAM },
};

export const RECOMMENDED_LIST: ListSpec = {
  fields: {},
  limit: { default: 20, max: 100 },
  params: { preferred_currency: PREFERRED_CURRENCY },
};

export const SHARED_LIST: ListSpec = {
  fields: {},
  limit: { default: 500, max: 500 },
};

/** Detail, chart, editions: only preferred_currency. */
export const CURRENCY_ONLY = {
  fields: {},
  params: { preferred_currency: PREFERRED_CURRENCY },
} satisfies ListSpec;

/** The detail's parameters: preferred_currency and as_of (the estimate in effect on a day). */
export const DETAIL_PARAMS = {
  fields: {},
  params: { preferred_currency: PREFERRED_CURRENCY, as_of: AS_OF },
} satisfies ListSpec;

// ---------------------------------------------------------------- filters → SQL

type Bind = string | number | null;

/** A whole-word, case-insensitive LIKE pattern over " medium " for one materials value. */
export function materialPattern(value: string): string {
  const words = value.toLowerCase().replace(/_/g, " ").trim().split(/\s+/).join(" ");
  return `% ${likeEscape(words)} %`; // no _ is left to escape: it became a space
}

/** The SQL the materials filter matches against (the medium text between spaces, commas as spaces). */
export const MEDIUM_WORDS_SQL = "(' ' || replace(lower(a.medium), ',', ' ') || ' ')";

/** An ISO datetime bound in the lots' text form (seconds, Z), rounded so that the comparison stays exact. */
/** WHERE (without the keyword) over `artworks a` for a parsed artwork list. */
export function artworkWhere(spec: ListSpec, q: ParsedList): SqlFragment {
  const std = whereClause(
    spec,
    q.filters.filter((f) => !CUSTOM_FIELDS.has(f.field)),
  );
  const parts: string[] = std.sql === "1" ? [] : [std.sql];
  const params: SqlFragment["params"] = [...std.params];
  const upcoming: string[] = [];
  const upcomingParams: Bind[] = [];
  for (const f of q.filters) {
    if (f.field === "medium") {
      // materials resolved to the media they match (materials.ts): one look-up per row
      parts.push("a.medium IN (SELECT value FROM json_each(?))");
      params.push(JSON.stringify(f.value as string[]));
    } else if (f.field === "materials") {
      // the filter's definition as SQL, a LIKE per value per row: the services resolve it first
      // (materials.ts), and tests compare the two
      const values = f.suffix === "__in" ? (f.value as string[]) : [f.value as string];
      if (values.length === 1) {
        parts.push(`${MEDIUM_WORDS_SQL} LIKE ? ESCAPE '\\'`);
        params.push(materialPattern(values[0]!));
      } else {
        // several values: one LIKE per pattern of a bound JSON array, a flat expression however
        // many values (an OR chain of 1,000 LIKEs passes SQLite's expression depth limit)
        parts.push(`EXISTS (SELECT 1 FROM json_each(?) m WHERE ${MEDIUM_WORDS_SQL} LIKE m.value ESCAPE '\\')`);
        params.push(JSON.stringify(values.map(materialPattern)));
      }
    } else if (f.field === "sale_auction_house_id") {
      const values = f.value as number[];
      upcoming.push(`l.house_id IN (${values.map(() => "?").join(", ")})`);
      upcomingParams.push(...values);
    } else if (f.field === "sale_start_datetime") {
      upcoming.push(`l.sale_datetime ${f.suffix === "__gte" ? ">=" : "<="} ?`);
      upcomingParams.push(epochSeconds(f.value as string, f.suffix === "__gte" ? "lower" : "upper"));
    }
  }
  // A semi-join (EXISTS) on the upcoming lots, written as IN so that SQLite can drive it from the
  // partial index over upcoming lots (src/db/market-indexes/artworks.ts) when it is selective.
  if (upcoming.length) {
    parts.push(`a.id IN (SELECT l.artwork_id FROM lots l WHERE l.status = 'upcoming' AND ${upcoming.join(" AND ")})`);
    params.push(...upcomingParams);
  }
  if (q.params.without_editions === true) parts.push("a.edition_group_id IS NULL");
  if (q.params.with_images === true) parts.push("a.image_id IS NOT NULL");
  return { sql: parts.length ? parts.join(" AND ") : "1", params };
}
