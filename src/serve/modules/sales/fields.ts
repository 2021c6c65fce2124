/** The sale list grammar of GET /v1/sales and /v1/sales/followed, over the served `sales` table. */
import { T, type ListSpec } from "../../query/grammar";
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
  params: { preferred_currency: { ...PREFERRED_CURRENCY, description: "adds the *_preferred totals, converted from USD at the rate of the sale's day" } },
  sorts: {
    ID_ASC: "id ASC",
    ID_DESC: "id DESC",
    START_DATETIME_ASC: "start_datetime ASC, id ASC",
    START_DATETIME_DESC: "start_datetime DESC, id DESC",
    END_DATETIME_ASC: "end_datetime ASC, id ASC",
    END_DATETIME_DESC: "end_datetime DESC, id DESC",
    // DATE is the sale's date: its start.
    DATE_ASC: "start_datetime ASC, id ASC",
    DATE_DESC: "start_datetime DESC, id DESC",
  },
  defaultSort: "START_DATETIME_DESC",
  tiebreaker: "id",
  limit: { default: 20, max: 100 },
};
