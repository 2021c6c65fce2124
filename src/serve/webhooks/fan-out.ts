/**
 * The fan-out of a snapshot's market events (market.db's `market_events`, written by each merge:
 * src/pipeline/import/events.ts) to the users who follow what they concern: a lot's event reaches
 * the followers of the lot, its artwork, its artist and its sale; a sale's, the sale's. Each user
 * gets a notification (GET /v1/notifications) and each of their enabled webhook destinations that
 * takes the type a delivery. The notification's unique key (user, event) is the gate: a fan-out run
 * again (another node serving the same snapshot, a restart) writes and sends nothing twice.
 */
import type { Database } from "bun:sqlite";
import type { AccountStore } from "../accounts/store";
import { NOTIFICATIONS_KEPT_MS } from "../accounts/sql/notifications";

interface EventRow {
  id: string;
  type: string;
  day: string;
  subject_kind: string;
  subject_id: number;
  lot_id: number | null;
  artwork_id: number | null;
  artist_id: number | null;
  sale_id: number | null;
  data: string;
}

/** An event as the feed and the webhooks carry it. */
export function eventBody(e: { id: string; type: string; occurredAt: number; snapshotId: string; subjectKind: string; subjectId: number; data: string }) {
  return {
    id: e.id,
    type: e.type,
    occurred_at: new Date(e.occurredAt).toISOString(),
    snapshot_id: e.snapshotId,
    subject: { kind: e.subjectKind, id: e.subjectId },
    data: JSON.parse(e.data) as Record<string, unknown>,
  };
}

/**
 * Fans the snapshot's events out, those of `fromDay` and later (all the snapshot keeps when absent:
 * a server starting catches up); returns the notifications written, the deliveries queued and the
 * last market day seen (where the next fan-out can start).
 */
export function fanOut(store: AccountStore, market: Database, snapshotId: string, now = Date.now(), fromDay = ""): { notified: number; queued: number; lastDay: string } {
  let events: EventRow[];
  try {
    events = market
      .query<EventRow, [string]>("SELECT id, type, day, subject_kind, subject_id, lot_id, artwork_id, artist_id, sale_id, data FROM market_events WHERE day >= ?")
      .all(fromDay);
  } catch {
    return { notified: 0, queued: 0, lastDay: fromDay }; // a market from before events
  }
  const lastDay = events.reduce((d, e) => (e.day > d ? e.day : d), fromDay);
  const followers = new Map<string, Set<number>>();
  for (const [kind, column] of [
    ["lot", "lot_id"],
    ["artwork", "artwork_id"],
    ["artist", "artist_id"],
    ["sale", "sale_id"],
  ] as const) {
    const ids = [...new Set(events.map((e) => e[column]).filter((id): id is number => id !== null))];
    for (const f of store.followersOf(kind, ids)) {
      const key = `${kind}:${f.target_id}`;
      let users = followers.get(key);
      if (!users) followers.set(key, (users = new Set()));
      users.add(f.user_id);
    }
  }
  let notified = 0;
  let queued = 0;
  for (const e of events) {
    const users = new Set<number>();
    for (const [kind, id] of [
      ["lot", e.lot_id],
      ["artwork", e.artwork_id],
      ["artist", e.artist_id],
      ["sale", e.sale_id],
    ] as const) {
      if (id !== null) for (const u of followers.get(`${kind}:${id}`) ?? []) users.add(u);
    }
    const occurredAt = Date.parse(`${e.day}T00:00:00Z`);
    for (const userId of users) {
      const row = {
        user_id: userId,
        event_id: e.id,
        type: e.type,
        occurred_at: occurredAt,
        snapshot_id: snapshotId,
        subject_kind: e.subject_kind,
        subject_id: e.subject_id,
        data: e.data,
      };
      if (!store.notify(row, now)) continue;
      notified++;
      const payload = JSON.stringify(eventBody({ id: e.id, type: e.type, occurredAt, snapshotId, subjectKind: e.subject_kind, subjectId: e.subject_id, data: e.data }));
      queued += store.enqueueEvent(userId, { id: e.id, type: e.type, payload }, now);
    }
  }
  store.pruneNotifications(now - NOTIFICATIONS_KEPT_MS);
  return { notified, queued, lastDay };
}
