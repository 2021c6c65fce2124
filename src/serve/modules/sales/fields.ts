/** The sale list grammar of GET /v1/sales and /v1/sales/followed, over the served `sales` table. */
import { CURSOR_PARAM, sortKeys, T, type ListSpec } from "../../query/grammar";
import { PREFERRED_CURRENCY } from "../../query/params";
import { SALE_STATUSES } from "../../../market/statuses";

export const SALE_LIST: ListSpec = {
  fields: {
    auction_house_id: { column: "house_id", type: T.int(1), suffixes: ["", "__in"] },
    name: { column: "name", type: T.str(200), suffixes: ["__ilike"] },
    status: { column: "status", type: T.enum(SALE_STATUSES), suffixes: ["", "__in"] },
    is_online: { column: "is_online", type: T.bool(), suffixes: [""] },
    is_bids_streaming: { column: "is_bids_streaming", type: T.bool(), suffixes: [""] },
    location: { column: "location", type: T.str(200), suffixes: ["", "__in"], description: "a name from /v1/auction-locations (exact)" },
    location_id: { column: "location_id", type: T.int(1), suffixes: ["", "__in"] },
    start_datetime: { column: "start_datetime", type: T.datetime(), suffixes: ["__gte", "__lte"] },
    end_datetime: { column: "end_datetime", type: T.datetime(), suffixes: ["__gte", "__lte"] },
  },
  params: {
    preferred_currency: { ...PREFERRED_CURRENCY, description: "adds the *_preferred totals, converted from USD at the rate of the sale's day" },
    cursor: CURSOR_PARAM,
  },
  // sort keys: the ORDER BY and the cursor's keyset (src/serve/query/cursor.ts)
  sorts: {
    ID_ASC: sortKeys("ASC", "id"),
    ID_DESC: sortKeys("DESC", "id"),
    START_DATETIME_ASC: sortKeys("ASC", "start_datetime", "id"),
    START_DATETIME_DESC: sortKeys("DESC", "start_datetime", "id"),
    END_DATETIME_ASC: sortKeys("ASC", "end_datetime", "id"),
    END_DATETIME_DESC: sortKeys("DESC", "end_datetime", "id"),
    // DATE is the sale's date: its start.
    DATE_ASC: sortKeys("ASC", "start_datetime", "id"),
    DATE_DESC: sortKeys("DESC", "start_datetime", "id"),
  },
  defaultSort: "START_DATETIME_DESC",
  tiebreaker: "id",
  limit: { default: 20, max: 100 },
};
