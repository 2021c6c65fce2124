/**
 * Follows of artists, artworks, lots and sales, kept in account.db: written through the account
 * store (src/serve/accounts/store.ts), read here through the market reader where account.db is
 * attached (the market modules mark items of a page in the same connection as their query).
 */
import type { Database } from "bun:sqlite";

export const FOLLOW_KINDS = ["artist", "artwork", "lot", "sale"] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/** Which of `ids` the user follows (read through the market connection, where account.db is attached). */
export function followedAmong(market: Database, userId: number | null, kind: FollowKind, ids: readonly number[]): Set<number> {
  if (userId === null || ids.length === 0) return new Set();
  const rows = market
    .query<{ id: number }, (string | number)[]>(`SELECT target_id AS id FROM account.follows WHERE user_id = ? AND kind = ? AND target_id IN (${ids.map(() => "?").join(",")})`)
    .all(userId, kind, ...ids);
  return new Set(rows.map((r) => r.id));
}
