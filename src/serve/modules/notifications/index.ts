/**
 * GET /v1/notifications: the caller's notifications, newest first: the market events about what
 * the caller follows (src/serve/webhooks/fan-out.ts; docs/webhooks.md). Priced like a detail read
 * (1 DU a call, whatever the page holds): a client polls it, and a page of events costs the service
 * one indexed range of the caller's rows.
 */
import { Type as t } from "@sinclair/typebox";
import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { issue, ValidationFailed } from "../../http/errors";
import { DU } from "../../http/pricing";
import { T } from "../../query/grammar";
import { eventBody } from "../../webhooks/fan-out";
import { recipientView, subjectObjects } from "../../webhooks/objects";
import { EVENT_TYPES } from "../webhooks/model";

/** The most an unread count says (the console's badge shows "999+" beyond). */
const UNREAD_CAP = 999;

export const NotificationEvent = t.Object(
  {
    id: t.String({ description: "the event's id: the same in the feed and in a webhook delivery's webhook-id" }),
    type: t.Union(
      EVENT_TYPES.map((e) => t.Literal(e)),
      { description: "an event type (docs/webhooks.md)" },
    ),
    occurred_at: t.String({ format: "date-time", description: "the market day it happened (midnight UTC)" }),
    snapshot_id: t.String({ description: "the snapshot that brought it" }),
    subject: t.Object({ kind: t.Union([t.Literal("artist"), t.Literal("artwork"), t.Literal("lot"), t.Literal("sale")]), id: t.Integer() }),
    data: t.Record(t.String(), t.Unknown(), {
      description:
        "the event's figures (docs/webhooks.md): a lot's status, currency, hammer and estimates, and against_estimate for a sale; a work's estimate before and now; an artist's index a month before and now. The public schema (sandbox) keeps the status and month only. `object`: what the event is about (the lot, artwork, artist or sale) in the caller's schema, as the snapshot served holds it (absent when the market no longer has it)",
    }),
  },
  { $id: "NotificationEvent" },
);

const UnreadCount = t.Object(
  { unread: t.Integer({ minimum: 0, maximum: UNREAD_CAP, description: `notifications that came after \`after\` (all, without it), at most ${UNREAD_CAP}` }) },
  { $id: "NotificationsUnread" },
);

const NotificationPage = t.Object({ items: t.Array(NotificationEvent), next_cursor: t.Union([t.String(), t.Null()]) }, { $id: "NotificationPage" });

const cursor = {
  encode: (at: number, id: number) => Buffer.from(`n:${at}:${id}`).toString("base64url"),
  decode: (raw: string): { at: number; id: number } | null => {
    const m = /^n:(\d{1,15}):(\d{1,12})$/.exec(Buffer.from(raw, "base64url").toString());
    return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
  },
};

export const notificationEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/notifications/unread",
    operationId: "countUnreadNotifications",
    summary: "How many notifications came after the newest one the caller has seen",
    description: `Free (0 DU): for a badge polled in the background. \`after\` is the id of the newest event the caller has seen (the first of the feed when it was read); without it, or when that event is no longer kept, every notification counts. At most ${UNREAD_CAP}.`,
    tag: "Notifications",
    auth: "required",
    price: DU.FREE,
    list: { fields: {}, params: { after: { type: T.str(64), description: "an event id (evt_…)" } } },
    response: { full: UnreadCount },
    handle: ({ caller, deps, query }) => ({ unread: deps.accounts.unreadCount(caller.userId, (query.params.after as string | undefined) ?? null, UNREAD_CAP) }),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/notifications",
    operationId: "listNotifications",
    summary: "The caller's notifications: market events about what they follow, newest first",
    description:
      "Each new snapshot's events (a lot consigned, sold, passed or withdrawn; a sale's results published; a work's estimate moved by 5 % or more; an artist's index moved by 3 % or more in a month) for the artists, artworks, lots and sales the caller follows. Kept 90 days. `data` holds the event's figures in the caller's plan's schema (a sandbox plan: the status or month only) and `object`, what it is about in that schema. Filter by `type` (or `type__in`) and `since`; `next_cursor` pages on.",
    tag: "Notifications",
    auth: "required",
    price: DU.DETAIL,
    list: {
      fields: {},
      limit: { default: 20, max: 100 },
      params: {
        type: { type: T.enum(EVENT_TYPES) },
        type__in: { type: T.enum(EVENT_TYPES), many: true },
        since: { type: T.datetime(), description: "only events from this time on (ISO 8601)" },
        cursor: { type: T.str(200), description: "the `next_cursor` of the page before" },
      },
    },
    response: { full: NotificationPage },
    handle: ({ caller, deps, query, origin, schema }) => {
      const p = query.params as { type?: string; type__in?: string[]; since?: string; cursor?: string };
      const before = p.cursor === undefined ? null : cursor.decode(p.cursor);
      if (p.cursor !== undefined && before === null) throw new ValidationFailed([issue.custom(["query", "cursor"], p.cursor, "not a cursor of this list")]);
      const types = p.type !== undefined ? [p.type, ...(p.type__in ?? [])] : (p.type__in ?? null);
      const rows = deps.accounts.notificationsPage(caller.userId, { before, types, since: p.since === undefined ? null : Date.parse(p.since), limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      // each event's object as the caller's plan shows it (the request's schema), from the snapshot served
      const objects = subjectObjects(
        deps,
        { ...recipientView(deps, caller.userId, schema), origin },
        page.map((r) => ({ kind: r.subject_kind, id: r.subject_id })),
      );
      return {
        items: page.map((r) =>
          eventBody(
            { id: r.event_id, type: r.type, occurredAt: r.occurred_at, snapshotId: r.snapshot_id, subjectKind: r.subject_kind, subjectId: r.subject_id, data: r.data },
            schema,
            objects.get(`${r.subject_kind}:${r.subject_id}`),
          ),
        ) as never,
        next_cursor: rows.length > query.limit && last ? cursor.encode(last.occurred_at, last.id) : null,
      };
    },
  }),
];
