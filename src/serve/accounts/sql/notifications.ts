/**
 * Each user's notifications: the market events about what they follow (src/serve/webhooks/fan-out.ts
 * writes them; GET /v1/notifications reads them). One row per user and event: the unique key
 * makes a second fan-out of the same snapshot (another node's, a restart's) write nothing again.
 */
import type { Bind, SqlBase } from "./dialect";
import { marks } from "../../../db/sql";

export interface NotificationRow {
  id: number;
  user_id: number;
  event_id: string;
  type: string;
  occurred_at: number;
  snapshot_id: string;
  subject_kind: string;
  subject_id: number;
  data: string;
}

/** Notifications are kept this long (pruned by the fan-out). */
export const NOTIFICATIONS_KEPT_MS = 90 * 24 * 60 * 60 * 1000;

export interface NotificationStore {
  /** The users following each of `ids` of a kind (artist, artwork, lot, sale): target id and user. */
  followersOf(kind: string, ids: readonly number[]): { user_id: number; target_id: number }[];
  /** Writes a user's notification of an event; false when the user has it already (then nothing is sent again). */
  notify(row: Omit<NotificationRow, "id">, now: number): boolean;
  /** A user's notifications, newest first: before the cursor's (occurred_at, id), of some types, since a time. */
  notificationsPage(userId: number, q: { before: { at: number; id: number } | null; types: readonly string[] | null; since: number | null; limit: number }): NotificationRow[];
  /** How many of a user's notifications came after the one of `afterEvent` (all of them when it is null or gone), at most `cap`. */
  unreadCount(userId: number, afterEvent: string | null, cap: number): number;
  /** Drops notifications older than `before` (ms). */
  pruneNotifications(before: number): number;
}

const COLUMNS = "id, user_id, event_id, type, occurred_at, snapshot_id, subject_kind, subject_id, data";
const CHUNK = 500;

export function NotificationsSql<B extends SqlBase>(Base: B) {
  abstract class Notifications extends Base implements NotificationStore {
    followersOf(kind: string, ids: readonly number[]): { user_id: number; target_id: number }[] {
      const out: { user_id: number; target_id: number }[] = [];
      for (let i = 0; i < ids.length; i += CHUNK) {
        const part = ids.slice(i, i + CHUNK).filter((id) => id <= this.sql.maxId);
        if (!part.length) continue;
        out.push(
          ...this.sql.all<{ user_id: number; target_id: number }>(`SELECT user_id, target_id FROM follows WHERE kind = ? AND target_id IN (${marks(part.length)})`, kind, ...part),
        );
      }
      return out;
    }

    notify(r: Omit<NotificationRow, "id">, now: number): boolean {
      return (
        this.sql.run(
          `INSERT INTO notifications (user_id, event_id, type, occurred_at, snapshot_id, subject_kind, subject_id, data, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, event_id) DO NOTHING`,
          r.user_id,
          r.event_id,
          r.type,
          r.occurred_at,
          r.snapshot_id,
          r.subject_kind,
          r.subject_id,
          r.data,
          now,
        ) > 0
      );
    }

    notificationsPage(userId: number, q: { before: { at: number; id: number } | null; types: readonly string[] | null; since: number | null; limit: number }): NotificationRow[] {
      const where = ["user_id = ?"];
      const params: Bind[] = [userId];
      if (q.types) {
        where.push(`type IN (${marks(q.types.length)})`);
        params.push(...q.types);
      }
      if (q.since !== null) {
        where.push("occurred_at >= ?");
        params.push(q.since);
      }
      if (q.before) {
        where.push("(occurred_at < ? OR (occurred_at = ? AND id < ?))");
        params.push(q.before.at, q.before.at, q.before.id);
      }
      return this.sql.all<NotificationRow>(`SELECT ${COLUMNS} FROM notifications WHERE ${where.join(" AND ")} ORDER BY occurred_at DESC, id DESC LIMIT ?`, ...params, q.limit);
    }

    unreadCount(userId: number, afterEvent: string | null, cap: number): number {
      const after = afterEvent === null ? null : this.sql.get<{ id: number }>("SELECT id FROM notifications WHERE user_id = ? AND event_id = ?", userId, afterEvent);
      return Number(this.sql.get<{ n: number }>("SELECT count(*) AS n FROM (SELECT 1 FROM notifications WHERE user_id = ? AND id > ? LIMIT ?) x", userId, after?.id ?? 0, cap)!.n);
    }

    pruneNotifications(before: number): number {
      return this.sql.run("DELETE FROM notifications WHERE occurred_at < ?", before);
    }
  }
  return Notifications;
}
