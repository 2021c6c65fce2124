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
type AccountSchemaSync = (userId: number, part: "follows" | "all", fresh: boolean) => void;
const accountSyncs = new WeakMap<Database, AccountSchemaSync>();

/** Registers how `market`'s `account` schema is refreshed for a user (the account view does). */
export function setAccountSchemaSync(market: Database, sync: AccountSchemaSync): void {
  accountSyncs.set(market, sync);
}

/**
 * Refreshes `market`'s `account` schema with `userId`'s rows (`follows`: the follows only),
 * right before a query reads them: one account store round trip with the PostgreSQL store, or
 * none when `fresh` is false and the view's copy of the follows is still current; nothing with
 * account.db attached.
 */
export function syncAccountSchema(market: Database, userId: number, part: "follows" | "all" = "all", fresh = true): void {
  accountSyncs.get(market)?.(userId, part, fresh);
}

/** Which of `ids` the user follows (read through the market connection's `account` schema). */
export function followedAmong(market: Database, userId: number | null, kind: FollowKind, ids: readonly number[]): Set<number> {
  if (userId === null || ids.length === 0) return new Set();
  // the marks of a page: the view's copy of the follows serves while no change was announced
  syncAccountSchema(market, userId, "follows", false);
  const rows = market
    .query<{ id: number }, (string | number)[]>(`SELECT target_id AS id FROM account.follows WHERE user_id = ? AND kind = ? AND target_id IN (${ids.map(() => "?").join(",")})`)
    .all(userId, kind, ...ids);
  return new Set(rows.map((r) => r.id));
}
