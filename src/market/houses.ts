/**
 * The auction houses' tiers and what counts as a result, as the freshness measures use them
 * (src/serve/freshness.ts; docs/operations.md#data-freshness).
 */
import type { LotStatus } from "./statuses";

/**
 * How many houses the "top" tier holds: the spec's "seven top houses", the first seven by
 * (priority_order, id), as the generator writes them (src/pipeline/seed/reference.ts) and an import
 * orders them (import-format: priority_order).
 */
export const TOP_HOUSE_COUNT = 7;

/** The outcomes a lot's result is: it was sold, passed (bought in) or withdrawn. */
export const RESULT_STATUSES = ["sold", "passed", "withdrawn"] as const satisfies readonly LotStatus[];

/** A house whose latest result is more than this many days before the market's as-of date is inactive. */
export const INACTIVE_AFTER_DAYS = 365;
