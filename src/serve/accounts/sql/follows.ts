/**
 * Follows of artists, artworks, lots and sales: written, and read as market queries bind them
 * (src/db/follows.ts: the ids, or a followed list's rows, as one value).
 */
import { FOLLOW_KINDS, type FollowKind } from "../../../db/follows";
import { RecentMap } from "../../../platform/recent";
import { marks } from "../../../db/sql";
import type { SqlBase } from "./dialect";

/**
 * A follow as a followed list orders it: most recently followed first; `seq` breaks ties of
 * created_at in the followed artworks (the order the follows were made in: account.db's rowid;
 * PostgreSQL keeps none, so there it is target_id × 4 + the kind's index in FOLLOW_KINDS).
 */
export interface FollowedRow {
  target_id: number;
  created_at: number;
  seq: number;
}

export interface FollowStore {
  follow(userId: number, kind: FollowKind, targetId: number): void;
  unfollow(userId: number, kind: FollowKind, targetId: number): void;
  /** Which of `ids` the user follows. */
  followedAmong(userId: number | null, kind: FollowKind, ids: readonly number[]): Set<number>;
  /** Every id of `kind` the user follows, by id (the filters' set: read from the primary key alone). */
  followedIds(userId: number, kind: FollowKind): number[];
  /** The user's follows of `kind`, most recently followed first (ties: the larger id first), with what the followed lists' keysets read. */
  followedRows(userId: number, kind: FollowKind): FollowedRow[];
}

/** What market queries ask of the store about the caller's follows. */
export type FollowReader = Pick<FollowStore, "followedAmong" | "followedIds" | "followedRows">;

/** How many users' follows one store keeps a copy of for the marks (least recently used dropped first). */
const FOLLOWS_CACHED = 512;

export function FollowsSql<B extends SqlBase>(Base: B) {
  abstract class Follows extends Base implements FollowStore {
    /**
     * Copies of users' follows for followedAmong, with the follows version they were read at: the
     * target ids by kind, so a page's marks look integers up (not a string made for each row).
     */
    private readonly followCopies = new RecentMap<number, { version: number; byKind: Map<string, Set<number>> }>(FOLLOWS_CACHED);

    follow(userId: number, kind: FollowKind, targetId: number): void {
      this.sql.run("INSERT INTO follows (user_id, kind, target_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", userId, kind, targetId, Date.now());
      this.sql.followsChanged(userId);
    }

    unfollow(userId: number, kind: FollowKind, targetId: number): void {
      this.sql.run("DELETE FROM follows WHERE user_id = ? AND kind = ? AND target_id = ?", userId, kind, targetId);
      this.sql.followsChanged(userId);
    }

    /**
     * The marks of a page. Where the dialect keeps a follows version (PostgreSQL: from
     * notifications), a copy of the user's follows serves while it has not moved since the copy
     * was read, so most pages ask nothing; else (account.db, or before PostgreSQL's listener is
     * up) the store is asked.
     */
    followedAmong(userId: number | null, kind: FollowKind, ids: readonly number[]): Set<number> {
      if (userId === null || ids.length === 0) return new Set();
      // the version is read before the rows: a change made meanwhile moves it again, and the copy is not reused
      const version = this.sql.followsVersion(userId);
      if (version === null) {
        const rows = this.sql.all<{ id: number }>(
          `SELECT target_id AS id FROM follows WHERE user_id = ? AND kind = ? AND target_id IN (${marks(ids.length)})`,
          userId,
          kind,
          ...ids,
        );
        return new Set(rows.map((r) => r.id));
      }
      let copy = this.followCopies.get(userId);
      if (copy?.version !== version) {
        const rows = this.sql.all<{ kind: string; target_id: number }>("SELECT kind, target_id FROM follows WHERE user_id = ?", userId);
        const byKind = new Map<string, Set<number>>();
        for (const r of rows) {
          let set = byKind.get(r.kind);
          if (!set) byKind.set(r.kind, (set = new Set()));
          set.add(r.target_id);
        }
        copy = { version, byKind };
        this.followCopies.set(userId, copy);
      }
      const followed = copy.byKind.get(kind);
      const out = new Set<number>();
      if (followed) for (const id of ids) if (followed.has(id)) out.add(id);
      return out;
    }

    followedIds(userId: number, kind: FollowKind): number[] {
      return this.sql.all<{ id: number }>("SELECT target_id AS id FROM follows WHERE user_id = ? AND kind = ? ORDER BY target_id", userId, kind).map((r) => r.id);
    }

    followedRows(userId: number, kind: FollowKind): FollowedRow[] {
      const order = this.sql.insertionOrder;
      const k = FOLLOW_KINDS.indexOf(kind);
      // sorted here: SQLite's ORDER BY would look each row up by follows_recent and sort them again
      // on the tiebreak, more than twice the time for a user following thousands
      return this.sql
        .all<FollowedRow>(`SELECT target_id, created_at${order ? `, ${order} AS seq` : ""} FROM follows WHERE user_id = ? AND kind = ?`, userId, kind)
        .map((r) => (order ? r : { ...r, seq: r.target_id * FOLLOW_KINDS.length + k }))
        .sort((a, b) => b.created_at - a.created_at || b.target_id - a.target_id);
    }
  }
  return Follows;
}
