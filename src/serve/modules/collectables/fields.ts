/**
 * The list grammar of GET /v1/collectables, over the caller's collectables `c` (LISTED: the rows the
 * account store gives, `collectableListRows`, bound as one value; each with its acquisition's two
 * columns the current value reads) joined with the market's `artists ar` (for the artist's name).
 */
import type { ListedCollectable } from "../../accounts/store";
import { T, type ListSpec } from "../../query/grammar";
import { EDITION_UNIQUE_TYPES } from "./model";
import { CURRENT_VALUE_SQL } from "./valuation";

/** The columns of LISTED, in the order each row's values are bound. */
const LISTED_COLUMNS = [
  "id",
  "artist_id",
  "category_id",
  "title",
  "creation_year",
  "edition_unique_type",
  "created_at",
  "selected_price_type",
  "manual_price_value",
  "machine_estimate_usd",
  "use_instead_of_estimates",
  "acquisition_price_usd",
] as const satisfies readonly (keyof ListedCollectable)[];

/**
 * The caller's collectables as the list's SQL reads them, `FROM ${LISTED} c`: one bound value
 * (`listedParam`), a JSON array with an array of values per row (json_each, `->>` by position).
 */
export const LISTED = `(SELECT ${LISTED_COLUMNS.map((c, i) => `value ->> ${i} AS ${c}`).join(", ")} FROM json_each(?))`;

/** The one bound value of LISTED. */
export function listedParam(rows: readonly ListedCollectable[]): string {
  return JSON.stringify(rows.map((r) => LISTED_COLUMNS.map((c) => r[c])));
}

/** created_at (epoch milliseconds) as the ISO text the datetime filters compare with. */
const CREATED_AT_SQL = "strftime('%Y-%m-%dT%H:%M:%fZ', c.created_at / 1000.0, 'unixepoch')";

export const COLLECTABLE_LIST: ListSpec = {
  fields: {
    artist_id: { column: "c.artist_id", type: T.int(1), suffixes: ["", "__in"] },
    artist_name: { column: "ar.name", type: T.str(200), suffixes: ["__ilike"], description: "the artist's name in the market" },
    category_id: { column: "c.category_id", type: T.int(1), suffixes: ["", "__in"] },
    title: { column: "c.title", type: T.str(200), suffixes: ["__ilike"] },
    value: {
      column: CURRENT_VALUE_SQL,
      type: T.num(0),
      suffixes: ["__gte", "__lte"],
      description: "current_estimated_price (USD), the value in effect; records without a value never match",
    },
    creation_year: { column: "c.creation_year", type: T.int(0, 2100), suffixes: ["", "__gte", "__lte"] },
    edition_unique_type: { column: "c.edition_unique_type", type: T.enum(EDITION_UNIQUE_TYPES), suffixes: [""] },
    created_at: { column: CREATED_AT_SQL, type: T.datetime(), suffixes: ["__gte", "__lte"] },
  },
  sorts: {
    CREATED_AT_ASC: "c.created_at ASC, c.id ASC",
    CREATED_AT_DESC: "c.created_at DESC, c.id DESC",
    VALUE_ASC: `(${CURRENT_VALUE_SQL} IS NULL) ASC, ${CURRENT_VALUE_SQL} ASC, c.id ASC`,
    VALUE_DESC: `(${CURRENT_VALUE_SQL} IS NULL) ASC, ${CURRENT_VALUE_SQL} DESC, c.id DESC`,
    ARTIST_NAME_ASC: "ar.name ASC, c.id ASC",
    ARTIST_NAME_DESC: "ar.name DESC, c.id DESC",
    TITLE_ASC: "c.title ASC, c.id ASC",
    TITLE_DESC: "c.title DESC, c.id DESC",
    CREATION_YEAR_ASC: "(c.creation_year IS NULL) ASC, c.creation_year ASC, c.id ASC",
    CREATION_YEAR_DESC: "(c.creation_year IS NULL) ASC, c.creation_year DESC, c.id DESC",
  },
  defaultSort: "CREATED_AT_DESC",
  tiebreaker: "c.id",
  limit: { default: 20, max: 100 },
};
