/** Follows of artists, artworks, lots and sales, kept in account.db and read through the market reader. */
import type { Database } from "bun:sqlite";

export const FOLLOW_KINDS = ["artist", "artwork", "lot", "sale"] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

export function follow(account: Database, userId: number, kind: FollowKind, targetId: number): void {
  account.query("INSERT INTO follows (user_id, kind, target_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING").run(userId, kind, targetId, Date.now());
}

export function unfollow(account: Database, userId: number, kind: FollowKind, targetId: number): void {
  account.query("DELETE FROM follows WHERE user_id = ? AND kind = ? AND target_id = ?").run(userId, kind, targetId);
}

/** Which of `ids` the user follows (read through the market connection, where account.db is attached). */
export function followedAmong(market: Database, userId: number | null, kind: FollowKind, ids: readonly number[]): Set<number> {
  if (userId === null || ids.length === 0) return new Set();
  const rows = market
    .query<{ id: number }, (string | number)[]>(`SELECT target_id AS id FROM account.follows WHERE user_id = ? AND kind = ? AND target_id IN (${ids.map(() => "?").join(",")})`)
    .all(userId, kind, ...ids);
  return new Set(rows.map((r) => r.id));
}
