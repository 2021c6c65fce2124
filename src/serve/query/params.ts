/** Query parameters shared by several resources. */
import type { Database } from "bun:sqlite";
import { estimatesSince } from "../../db/estimate-history";
import { issue, ValidationFailed } from "../http/errors";
import { T, type ParamDecl } from "./grammar";
import { CURRENCY_CODES } from "../../market/currencies";

export const PREFERRED_CURRENCY = {
  type: T.enum(CURRENCY_CODES),
  description: "adds the *_preferred values, converted from USD at the reference rate of the sale's day",
} satisfies ParamDecl;

/** A day to read estimates as they were served (GET /v1/artworks/{id}, GET /v1/collectables/{id}). */
export const AS_OF = {
  type: T.date(),
  description:
    "answers with the estimate values in effect on this day (YYYY-MM-DD): for audits and year-end valuations. From the first snapshot the service kept (earlier: 422); on or after the market's as-of date, the current values",
} satisfies ParamDecl;

/**
 * The `as_of` query parameter, checked against the snapshot: a day before its estimates_since is
 * 422 at ["query", "as_of"]. Null when absent or not before the market's as-of date `current`
 * (the current values are those in effect).
 */
export function historicalDay(market: Database, asOf: string | undefined, current: string): string | null {
  if (asOf === undefined) return null;
  const since = estimatesSince(market);
  if (since !== null && asOf < since) {
    throw new ValidationFailed([
      issue.custom(["query", "as_of"], asOf, `The service kept estimates from ${since}: as_of must be ${since} or later`, "value_error", { estimates_since: since }),
    ]);
  }
  return asOf < current ? asOf : null;
}
