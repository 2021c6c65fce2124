/**
 * Follows of artists, artworks, lots and sales, kept in the account store: written through it
 * (src/serve/accounts/store.ts), read here through the market reader's `account` schema (the
 * market modules mark items of a page in the same connection as their query). With account.db
 * that schema is account.db attached; with the PostgreSQL store it is an in-memory copy of the
 * caller's rows that must be refreshed before a query reads it: `syncAccountSchema`.
 */
import type { Database } from "bun:sqlite";

export const FOLLOW_KINDS = ["artist", "artwork", "lot", "sale"] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/**
 * How a market reader's `account` schema is brought up to date for a user, per connection: set
 * by the serve layer's account view (src/serve/accounts/account-view.ts), which this layer may
 * not import; none for a reader with account.db attached (always current).
 */
const accountSyncs = new WeakMap<Database, (userId: number) => void>();

/** Registers how `market`'s `account` schema is refreshed for a user (the account view does). */
export function setAccountSchemaSync(market: Database, sync: (userId: number) => void): void {
  accountSyncs.set(market, sync);
}

/**
 * Refreshes `market`'s `account` schema with `userId`'s rows, right before a query reads them
 * (one account store round trip with the PostgreSQL store); nothing with account.db attached.
 */
export function syncAccountSchema(market: Database, userId: number): void {
  accountSyncs.get(market)?.(userId);
}

/** Which of `ids` the user follows (read through the market connection's `account` schema). */
export function followedAmong(market: Database, userId: number | null, kind: FollowKind, ids: readonly number[]): Set<number> {
  if (userId === null || ids.length === 0) return new Set();
  syncAccountSchema(market, userId);
  const rows = market
    .query<{ id: number }, (string | number)[]>(`SELECT target_id AS id FROM account.follows WHERE user_id = ? AND kind = ? AND target_id IN (${ids.map(() => "?").join(",")})`)
    .all(userId, kind, ...ids);
  return new Set(rows.map((r) => r.id));
}
