/**
 * The list grammar of GET /v1/collectables, over `account.collectables c` joined with its acquisition
 * `q` and the market's `artists ar` (for the artist's name). The caller's own rows only: the
 * service adds `c.user_id = ?` to every query.
 */
import { T, type ListSpec } from "../../query/grammar";
import { EDITION_UNIQUE_TYPES } from "./model";
import { CURRENT_VALUE_SQL } from "./valuation";

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
