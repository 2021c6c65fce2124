/** The outcomes of a lot and the states of a sale: one list each, for the API's enums and the import format. */

/** A lot's status, in the order the API documents it. */
export const LOT_STATUSES = ["unknown", "upcoming", "withdrawn", "sold", "passed"] as const;
export type LotStatus = (typeof LOT_STATUSES)[number];

/** A sale's status: closed, upcoming, live (under way) or session_off (between the sessions of a sale of several days). */
export const SALE_STATUSES = ["closed", "upcoming", "live", "session_off"] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];
