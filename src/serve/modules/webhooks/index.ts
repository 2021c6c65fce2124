/**
 * Webhook destinations (docs/webhooks.md): a user's URLs with the event types each takes and a
 * signing secret, their deliveries, a test event, redelivery. The deliveries themselves are the
 * dispatcher's (src/serve/webhooks/dispatcher.ts). Free, like the rest of the account area; a key
 * (full scope) or a console session.
 */
import { randomBytes } from "node:crypto";
import type { DeliveryRow, WebhookRow } from "../../accounts/sql/webhooks";
import { defineEndpoint, type Endpoint, type RequestContext } from "../../http/endpoint";
import { issue, notFound, ValidationFailed } from "../../http/errors";
import { DU } from "../../http/pricing";
import { T } from "../../query/grammar";
import { checkDestination } from "../../webhooks/dispatcher";
import { newSecret } from "../../webhooks/sign";
import { auditCall, idCursor } from "../account/service";
import { CreateWebhookBody, DeliveryList, EVENT_TYPES, PatchWebhookBody, TestSent, Webhook, WebhookList, WebhookWithSecret } from "./model";

type EventType = (typeof EVENT_TYPES)[number];
const iso = (ms: number) => new Date(ms).toISOString();

function view(w: WebhookRow) {
  return {
    id: w.id,
    url: w.url,
    event_types: JSON.parse(w.event_types) as EventType[],
    status: w.status === "disabled" ? ("disabled" as const) : ("enabled" as const),
    disabled_reason: w.disabled_reason,
    created_at: iso(w.created_at),
    updated_at: iso(w.updated_at),
  };
}

function deliveryView(d: DeliveryRow) {
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    status: (d.status === "succeeded" || d.status === "failed" ? d.status : "pending") as "pending" | "succeeded" | "failed",
    attempts: d.attempts,
    last_status: d.last_status,
    last_error: d.last_error,
    created_at: iso(d.created_at),
    next_attempt_at: d.status === "pending" ? iso(d.next_attempt_at) : null,
    finished_at: d.finished_at === null ? null : iso(d.finished_at),
  };
}

/** 422 at ["body","url"] unless the destination's address may be sent to (the address guard, --webhook-allow). */
async function checkUrl(ctx: Pick<RequestContext, "deps">, url: string): Promise<void> {
  const checked = await checkDestination(url, ctx.deps.config.webhookAllow ?? []);
  if ("refused" in checked) throw new ValidationFailed([issue.custom(["body", "url"], url, `The destination is refused: ${checked.refused}`, "url_forbidden")]);
}

function mine(ctx: Pick<RequestContext, "deps"> & { caller: { userId: number } }, id: number): WebhookRow {
  const w = ctx.deps.accounts.getWebhook(ctx.caller.userId, id);
  if (!w) throw notFound("No such webhook");
  return w;
}

/** A new event id: `evt_` and 24 hex digits. */
export const eventId = () => `evt_${randomBytes(12).toString("hex")}`;

const HOOK = { webhook_id: T.int(1) };

export const webhookEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "POST",
    path: "/v1/webhooks",
    operationId: "createWebhook",
    summary: "Register a webhook destination",
    description:
      "Events of the listed types for what the user follows are POSTed to `url`, signed per the Standard Webhooks specification with `secret` (shown only here and on rotation). The URL must resolve to public addresses (or to a range the operator allows with --webhook-allow); else 422.",
    tag: "Webhooks",
    auth: "account",
    price: DU.FREE,
    status: 201,
    body: CreateWebhookBody,
    response: { full: WebhookWithSecret },
    handle: async (ctx) => {
      await checkUrl(ctx, ctx.body.url);
      const secret = newSecret();
      const w = ctx.deps.accounts.addWebhook(ctx.caller.userId, { url: ctx.body.url, eventTypes: ctx.body.event_types, secret }, Date.now());
      auditCall(ctx.deps, ctx.request, ctx.caller, "webhook.created", { kind: null, id: w.id }, { url: w.url, event_types: ctx.body.event_types });
      return { ...view(w), secret };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/webhooks",
    operationId: "listWebhooks",
    summary: "The caller's webhook destinations",
    tag: "Webhooks",
    auth: "account",
    price: DU.FREE,
    response: { full: WebhookList },
    handle: (ctx) => ({ items: ctx.deps.accounts.listWebhooks(ctx.caller.userId).map(view) }),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/webhooks/{webhook_id}",
    operationId: "getWebhook",
    summary: "One webhook destination",
    description: "Another user's destination is 404.",
    tag: "Webhooks",
    auth: "account",
    price: DU.FREE,
    pathParams: HOOK,
    response: { full: Webhook },
    handle: (ctx) => view(mine(ctx, ctx.params.webhook_id)),
  }),
  defineEndpoint({
    method: "PATCH",
    path: "/v1/webhooks/{webhook_id}",
    operationId: "updateWebhook",
    summary: "Change a destination's URL, event types or status",
    description: "`status: enabled` turns a disabled destination on again and clears its failures.",
    tag: "Webhooks",
    auth: "account",
    price: DU.FREE,
    pathParams: HOOK,
    body: PatchWebhookBody,
    response: { full: Webhook },
    handle: async (ctx) => {
      mine(ctx, ctx.params.webhook_id);
      if (ctx.body.url !== undefined) await checkUrl(ctx, ctx.body.url);
      const w = ctx.deps.accounts.updateWebhook(
        ctx.caller.userId,
        ctx.params.webhook_id,
        { url: ctx.body.url, eventTypes: ctx.body.event_types, status: ctx.body.status },
        Date.now(),
      );
      if (!w) throw notFound("No such webhook");
      auditCall(ctx.deps, ctx.request, ctx.caller, "webhook.changed", { kind: null, id: w.id }, { ...ctx.body });
      return view(w);
    },
  }),
  defineEndpoint({
    method: "DELETE",
    path: "/v1/webhooks/{webhook_id}",
    operationId: "deleteWebhook",
    summary: "Remove a webhook destination",
    description: "Its deliveries not yet made are dropped.",
    tag: "Webhooks",
    auth: "account",
    price: DU.FREE,
    status: 204,
    pathParams: HOOK,
    handle: (ctx) => {
      if (!ctx.deps.accounts.removeWebhook(ctx.caller.userId, ctx.params.webhook_id)) throw notFound("No such webhook");
      auditCall(ctx.deps, ctx.request, ctx.caller, "webhook.removed", { kind: null, id: ctx.params.webhook_id });
      return null;
    },
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/webhooks/{webhook_id}/rotate-secret",
    operationId: "rotateWebhookSecret",
    summary: "A new signing secret",
    description: "Deliveries from now on are signed with the new secret, shown only in this answer.",
    tag: "Webhooks",
    auth: "account",
    price: DU.FREE,
    pathParams: HOOK,
    response: { full: WebhookWithSecret },
    handle: (ctx) => {
      mine(ctx, ctx.params.webhook_id);
      const secret = newSecret();
      ctx.deps.accounts.setWebhookSecret(ctx.caller.userId, ctx.params.webhook_id, secret, Date.now());
      auditCall(ctx.deps, ctx.request, ctx.caller, "webhook.secret_rotated", { kind: null, id: ctx.params.webhook_id });
      return { ...view(mine(ctx, ctx.params.webhook_id)), secret };
    },
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/webhooks/{webhook_id}/test",
    operationId: "testWebhook",
    summary: "Send a webhook.test event to this destination",
    description: "Queued at once like any event (signed, retried); its delivery shows in the destination's deliveries. A disabled destination is sent nothing.",
    tag: "Webhooks",
    auth: "account",
    price: DU.FREE,
    pathParams: HOOK,
    response: { full: TestSent },
    handle: (ctx) => {
      const w = mine(ctx, ctx.params.webhook_id);
      const id = eventId();
      const payload = JSON.stringify({
        id,
        type: "webhook.test",
        occurred_at: new Date().toISOString(),
        snapshot_id: ctx.deps.snapshot.info().id,
        subject: { kind: "webhook", id: w.id },
        data: { webhook_id: w.id, url: w.url },
      });
      ctx.deps.accounts.enqueueEvent(ctx.caller.userId, { id, type: "webhook.test", payload }, Date.now(), w.id);
      return { event_id: id, type: "webhook.test" as const };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/webhooks/{webhook_id}/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "A destination's deliveries, newest first",
    description: "Each event sent to it: pending (with its next attempt), succeeded, or failed after every retry (with the receiver's last status and the error).",
    tag: "Webhooks",
    auth: "account",
    price: DU.FREE,
    pathParams: HOOK,
    list: { fields: {}, limit: { default: 50, max: 200 }, params: { cursor: { type: T.str(200), description: "the `next_cursor` of the page before" } } },
    response: { full: DeliveryList },
    handle: (ctx) => {
      mine(ctx, ctx.params.webhook_id);
      const raw = ctx.query.params.cursor as string | undefined;
      const before = raw === undefined ? null : idCursor.decode(raw);
      if (raw !== undefined && before === null) throw new ValidationFailed([issue.custom(["query", "cursor"], raw, "not a cursor of this list")]);
      const rows = ctx.deps.accounts.deliveries(ctx.caller.userId, ctx.params.webhook_id, before, ctx.query.limit + 1);
      const page = rows.slice(0, ctx.query.limit);
      return { items: page.map(deliveryView), next_cursor: rows.length > ctx.query.limit ? idCursor.encode(page.at(-1)!.id) : null };
    },
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
    operationId: "redeliverWebhook",
    summary: "Send a delivery again",
    description: "A delivery that succeeded or failed is queued again now, with the same event id (webhook-id) and body; one still pending is 404.",
    tag: "Webhooks",
    auth: "account",
    price: DU.FREE,
    status: 204,
    pathParams: { ...HOOK, delivery_id: T.int(1) },
    handle: (ctx) => {
      mine(ctx, ctx.params.webhook_id);
      if (!ctx.deps.accounts.redeliver(ctx.caller.userId, ctx.params.webhook_id, ctx.params.delivery_id, Date.now())) throw notFound("No such finished delivery");
      return null;
    },
  }),
];
