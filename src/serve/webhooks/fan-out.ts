/**
 * The fan-out of a snapshot's market events (market.db's `market_events`, written by each merge:
 * src/pipeline/import/events.ts) to the users who follow what they concern: a lot's event reaches
 * the followers of the lot, its artwork, its artist and its sale; a sale's, the sale's; a work's,
 * its followers and its artist's; an artist's, the artist's. Each user gets a notification
 * (GET /v1/notifications) and each of their enabled webhook destinations that takes the type a
 * delivery, cut to the user's plan's schema with the object it is about (eventBody). The
 * notification's unique key (user, event) is the gate: a fan-out run again (another node serving
 * the same snapshot, a restart) writes and sends nothing twice.
 */
import type { AccountStore } from "../accounts/store";
import type { AppDeps } from "../deps";
import type { Schema } from "../http/endpoint";
import { NOTIFICATIONS_KEPT_MS } from "../accounts/sql/notifications";
import { recipientView, subjectObjects } from "./objects";

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

/**
 * The figures of an event that the public schema shows (a sandbox plan's): a status and a month.
 * Prices, estimates and index levels are the full schema's, as in the objects themselves.
 */
const PUBLIC_DATA = new Set(["status", "month"]);

/**
 * An event as the feed and the webhooks carry it: its figures cut to `schema` (the recipient's
 * plan's), and the object it is about in `data.object` when there is one (objects.ts).
 */
export function eventBody(
  e: { id: string; type: string; occurredAt: number; snapshotId: string; subjectKind: string; subjectId: number; data: string },
  schema: Schema = "full",
  object?: Record<string, unknown>,
) {
  const figures = JSON.parse(e.data) as Record<string, unknown>;
  const data = schema === "full" ? figures : Object.fromEntries(Object.entries(figures).filter(([k]) => PUBLIC_DATA.has(k)));
  if (object) data.object = object;
  return {
    id: e.id,
    type: e.type,
    occurred_at: new Date(e.occurredAt).toISOString(),
    snapshot_id: e.snapshotId,
    subject: { kind: e.subjectKind, id: e.subjectId },
    data,
  };
}

/** The schema of a user's plan (public when the user or the plan is gone), kept for one fan-out. */
function schemaOfUsers(store: AccountStore): (userId: number) => Schema {
  const plans = new Map<string, Schema>();
  const users = new Map<number, Schema>();
  return (userId) => {
    let schema = users.get(userId);
    if (schema === undefined) {
      const slug = store.getUser(userId)?.plan;
      if (slug !== undefined && !plans.has(slug)) plans.set(slug, store.getPlan(slug)?.features.schema === "full" ? "full" : "public");
      schema = slug === undefined ? "public" : plans.get(slug)!;
      users.set(userId, schema);
    }
    return schema;
  };
}

/**
 * Fans the snapshot's events out, those of `fromDay` to `toDay` (all the snapshot keeps when absent:
 * a server starting catches up); returns the notifications written, the deliveries queued and the
 * last market day seen (where the next fan-out can start). Runs on a worker (the snapshot's
 * objects are read as a request reads them).
 */
export function fanOut(deps: AppDeps, snapshotId: string, now = Date.now(), fromDay = "", toDay = "9999-12-31"): { notified: number; queued: number; lastDay: string } {
  const store = deps.accounts;
  let events: EventRow[];
  try {
    events = deps.market
      .query<EventRow, [string, string]>(
        "SELECT id, type, day, subject_kind, subject_id, lot_id, artwork_id, artist_id, sale_id, data FROM market_events WHERE day >= ? AND day <= ?",
      )
      .all(fromDay, toDay);
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
  // each user's new notifications (the store's unique key: none written twice)
  const fresh = new Map<number, EventRow[]>();
  let notified = 0;
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
    for (const userId of users) {
      const row = {
        user_id: userId,
        event_id: e.id,
        type: e.type,
        occurred_at: occurredAt(e),
        snapshot_id: snapshotId,
        subject_kind: e.subject_kind,
        subject_id: e.subject_id,
        data: e.data,
      };
      if (!store.notify(row, now)) continue;
      notified++;
      let list = fresh.get(userId);
      if (!list) fresh.set(userId, (list = []));
      list.push(e);
    }
  }
  // their deliveries, each with its object as the user's plan shows it
  let queued = 0;
  const schemaOf = schemaOfUsers(store);
  for (const [userId, list] of fresh) {
    const schema = schemaOf(userId);
    const objects = subjectObjects(
      deps,
      recipientView(deps, userId, schema),
      list.map((e) => ({ kind: e.subject_kind, id: e.subject_id })),
    );
    for (const e of list) {
      const body = { id: e.id, type: e.type, occurredAt: occurredAt(e), snapshotId, subjectKind: e.subject_kind, subjectId: e.subject_id, data: e.data };
      const payload = JSON.stringify(eventBody(body, schema, objects.get(`${e.subject_kind}:${e.subject_id}`)));
      queued += store.enqueueEvent(userId, { id: e.id, type: e.type, payload }, now);
    }
  }
  store.pruneNotifications(now - NOTIFICATIONS_KEPT_MS);
  return { notified, queued, lastDay };
}

/**
 * fanOut one market day at a time from `fromDay`, yielding between days: the worker that runs it
 * goes on serving requests meanwhile (a server starting reads the 30 days a snapshot keeps).
 */
export async function fanOutByDay(deps: AppDeps, snapshotId: string, fromDay = ""): Promise<{ notified: number; queued: number; lastDay: string }> {
  const total = { notified: 0, queued: 0, lastDay: fromDay };
  let days: string[];
  try {
    days = deps.market
      .query<{ day: string }, [string]>("SELECT DISTINCT day FROM market_events WHERE day >= ? ORDER BY day")
      .all(fromDay)
      .map((r) => r.day);
  } catch {
    return total; // a market from before events
  }
  for (const day of days) {
    const done = fanOut(deps, snapshotId, Date.now(), day, day);
    total.notified += done.notified;
    total.queued += done.queued;
    total.lastDay = day;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return total;
}

/** An event's time: its market day's midnight (UTC). */
const occurredAt = (e: EventRow) => Date.parse(`${e.day}T00:00:00Z`);
