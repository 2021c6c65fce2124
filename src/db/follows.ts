/**
 * Follows of artists, artworks, lots and sales, kept in the account store (account.db or
 * PostgreSQL), written and read through it (src/serve/accounts/). A market query that needs the
 * caller's follows (a followed list, a `followed=true` filter, the recommendations) reads them from
 * the store first and binds them to its SQL as ONE value: the ids as a JSON array, which the SQL
 * reads with `json_each` (the market table's primary key searched once per id). So the same market
 * SQL runs with either store, and no account table is attached to the market connection.
 */
export const FOLLOW_KINDS = ["artist", "artwork", "lot", "sale"] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/** `x IN (${FOLLOWED_IDS})`: the followed ids of one kind, one bound value (`followedParam`). */
export const FOLLOWED_IDS = "SELECT value FROM json_each(?)";

/**
 * The followed ids as a FROM item, `FROM ${FOLLOWED_ROWS} f JOIN t ON t.id = f.value`, one bound
 * value (`followedParam`): which of them the market holds, a primary key search each (cheaper
 * than IN, which first builds an index of the list, where every id is wanted).
 */
export const FOLLOWED_ROWS = "json_each(?)";

/** The one bound value of FOLLOWED_IDS and FOLLOWED_ROWS: the ids as a JSON array. */
export function followedParam(ids: readonly number[]): string {
  return JSON.stringify(ids);
}
