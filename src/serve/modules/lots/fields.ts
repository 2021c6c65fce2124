/**
 * The lot list grammar: every filter and sort of GET /v1/lots (and /v1/lots/followed), declared
 * once over the columns of the denormalised `lots` table. Columns are unqualified (the list query
 * reads `lots` alone; the details are fetched afterwards by id).
 *
 * Filters whose value is not the column's own value are resolved by the service before the WHERE
 * clause is built, keeping the declared column: artist_uid and artwork_uid (uid → id),
 * sale_location (location name → location_id). auction_house_id and sale_auction_house_id are the
 * same column (a lot's house is its sale's house).
 */
import type { Filter, ListSpec } from "../../query/grammar";
import { CURSOR_PARAM, orderText, sortKeys, T, type SortKeys } from "../../query/grammar";
import { PREFERRED_CURRENCY } from "../../query/params";
import { epochSeconds, isoOfSeconds } from "../../../market/time";
import { LOT_STATUSES, SALE_STATUSES } from "../../../market/statuses";

/**
 * Sort values → their sort keys (the ORDER BY and the cursor's keyset: src/serve/query/cursor.ts),
 * each ending with the id tiebreak, NULLs last in both directions.
 */
export const LOT_SORT_KEYS = {
  RAW_LOT_ID_ASC: sortKeys("ASC", "id"),
  RAW_LOT_ID_DESC: sortKeys("DESC", "id"),
  // Lot number within its sale; across sales, by sale id.
  NUMBER_ASC: sortKeys("ASC", "sale_id", "lot_seq", "id"),
  NUMBER_DESC: sortKeys("DESC", "sale_id", "lot_seq", "id"),
  SALE_DATE_ASC: sortKeys("ASC", "sale_datetime", "id"),
  SALE_DATE_DESC: sortKeys("DESC", "sale_datetime", "id"),
  // SQLite orders NULL lowest: DESC already puts NULLs last; ASC sorts on (x IS NULL) first, and
  // the service reads it from x's plain index in two ranges (NULLS_LAST_ASC).
  CREATION_YEAR_ASC: sortKeys("ASC", ["creation_year", true], "id"),
  CREATION_YEAR_DESC: sortKeys("DESC", ["creation_year", true], "id"),
  HAMMER_PRICE_ESTIMATE_MIN_ASC: sortKeys("ASC", ["estimate_min_usd_cents", true], "id"),
  HAMMER_PRICE_ESTIMATE_MIN_DESC: sortKeys("DESC", ["estimate_min_usd_cents", true], "id"),
  HAMMER_PRICE_ESTIMATE_MAX_ASC: sortKeys("ASC", ["estimate_max_usd_cents", true], "id"),
  HAMMER_PRICE_ESTIMATE_MAX_DESC: sortKeys("DESC", ["estimate_max_usd_cents", true], "id"),
  // upcoming lots' chance of selling; every other lot has none (its NULL sorts last)
  SALE_PROBABILITY_ASC: sortKeys("ASC", ["sale_probability", true], "id"),
  SALE_PROBABILITY_DESC: sortKeys("DESC", ["sale_probability", true], "id"),
} satisfies Readonly<Record<string, SortKeys>>;

/** Sort values → ORDER BY (e.g. CREATION_YEAR_ASC: `(creation_year IS NULL) ASC, creation_year ASC, id ASC`). */
export const LOT_SORTS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(LOT_SORT_KEYS).map(([name, keys]) => [name, orderText(keys)]));

/**
 * The ASC sorts with NULLs last, by their column. A plain index on x holds the NULLs first, then
 * x ascending, each run in id (rowid) order; the list reads it as two ranges, the rows with x
 * (`x IS NOT NULL ORDER BY x, id`) and then the rows without (`x IS NULL ORDER BY id`): the
 * order of LOT_SORTS, with no index of its own.
 */
export const NULLS_LAST_ASC: Readonly<Record<string, string>> = {
  CREATION_YEAR_ASC: "creation_year",
  HAMMER_PRICE_ESTIMATE_MIN_ASC: "estimate_min_usd_cents",
  HAMMER_PRICE_ESTIMATE_MAX_ASC: "estimate_max_usd_cents",
  SALE_PROBABILITY_ASC: "sale_probability",
};

/**
 * The sorts read as two ranges, by their column: NULLS_LAST_ASC, and the DESC sort of the chance of
 * selling, whose index holds the lots with one alone (lots_sale_probability_known, partial: about
 * 1 % of lots). Each reads the rows with a value from x's index in the sort's order
 * (`x IS NOT NULL ORDER BY x, id`, both in the sort's direction), then the NULL rows in id order in
 * the same direction, without the partial index.
 */
export const NULLS_APART: Readonly<Record<string, string>> = { ...NULLS_LAST_ASC, SALE_PROBABILITY_DESC: "sale_probability" };

export const LOT_LIST: ListSpec = {
  fields: {
    status: { column: "status", type: T.enum(LOT_STATUSES), suffixes: ["", "__in"] },
    sale_status: { column: "sale_status", type: T.enum(SALE_STATUSES), suffixes: ["", "__in"], description: "state of the lot's sale" },
    auction_house_id: { column: "house_id", type: T.int(1), suffixes: ["", "__in"] },
    sale_auction_house_id: {
      column: "house_id",
      type: T.int(1),
      suffixes: ["", "__in"],
      description: "the house of the lot's sale; the same as auction_house_id",
    },
    sale_id: { column: "sale_id", type: T.int(1), suffixes: ["", "__in"] },
    sale_location: {
      column: "location_id",
      type: T.str(200),
      suffixes: ["", "__in"],
      description: "a location name from /v1/auction-locations (exact, case-insensitive)",
    },
    sale_datetime: { column: "sale_datetime", type: T.datetime(), suffixes: ["__gte", "__lte"], description: "start of the lot's sale" },
    hammer_price_usd: { column: "hammer_usd_cents", scale: 100, type: T.int(), suffixes: ["__gte", "__lte"], description: "USD; lots without a hammer never match" },
    hammer_price_estimate_max_usd: { column: "estimate_max_usd_cents", scale: 100, type: T.int(), suffixes: ["__gte", "__lte"], description: "high estimate in USD" },
    premium_price_usd: { column: "premium_usd_cents", scale: 100, type: T.int(), suffixes: ["__gte", "__lte"], description: "price with buyer's premium in USD" },
    artist_id: { column: "artist_id", type: T.int(1), suffixes: ["", "__in"] },
    artist_uid: { column: "artist_id", type: T.str(200), suffixes: [""], description: "the artist's canonical slug" },
    artwork_id: { column: "artwork_id", type: T.int(1), suffixes: ["", "__in"] },
    artwork_uid: { column: "artwork_id", type: T.str(200), suffixes: [""], description: "the artwork's uid" },
    creation_year: { column: "creation_year", type: T.int(), suffixes: ["__gte", "__lte"] },
    is_top: { column: "is_top", type: T.bool(), suffixes: [""] },
    sale_probability: {
      column: "sale_probability",
      type: T.num(0, 1),
      suffixes: ["__gte", "__lte"],
      description: "an upcoming lot's chance of selling (0..1, docs/derivation.md); lots of other statuses never match",
    },
  },
  params: {
    search: {
      type: T.str(200),
      description: "free text over the artist's name, the artwork's title and the lot's notes: every word must occur (whole words, case and accents ignored)",
    },
    preferred_currency: PREFERRED_CURRENCY,
    cursor: CURSOR_PARAM,
  },
  sorts: LOT_SORT_KEYS,
  defaultSort: "SALE_DATE_DESC",
  tiebreaker: "id",
  limit: { default: 20, max: 100 },
};

/**
 * Datetime range bounds in a stored form. The grammar gives `….sssZ`; stored datetimes are whole
 * seconds, so a lower bound is rounded up to the second and an upper bound down, then written as
 * the column holds them: Unix seconds (lots.sale_datetime) or `YYYY-MM-DDTHH:MM:SSZ` text (sales),
 * which compares exactly only in that one form.
 */
function boundsAs(encode: (seconds: number) => number | string) {
  return (filters: readonly Filter[], fields: readonly string[]): Filter[] =>
    filters.map((f) => {
      if (!fields.includes(f.field) || (f.suffix !== "__gte" && f.suffix !== "__lte")) return f;
      return { ...f, value: encode(epochSeconds(f.value as string, f.suffix === "__gte" ? "lower" : "upper")) };
    });
}

/** Bounds on a column of ISO text (sales' start and end). */
export const storedDatetimeBounds = boundsAs(isoOfSeconds);

/** Bounds on a column of Unix seconds (lots.sale_datetime). */
export const secondsBounds = boundsAs((seconds) => seconds);
