import { Type as t } from "@sinclair/typebox";

/** The event types a destination may take (docs/webhooks.md); `webhook.test` is sent by the test call to any destination. */
export const EVENT_TYPES = ["lot.consigned", "lot.sold", "lot.passed", "lot.withdrawn", "sale.results_published", "artwork.estimate_changed", "artist.index_moved"] as const;

const eventType = t.Union(
  EVENT_TYPES.map((e) => t.Literal(e)),
  { description: "an event type (docs/webhooks.md)" },
);
const dateTime = () => t.String({ format: "date-time" });

const webhookFields = {
  id: t.Integer(),
  url: t.String(),
  event_types: t.Array(eventType),
  status: t.Union([t.Literal("enabled"), t.Literal("disabled")]),
  disabled_reason: t.Union([t.String(), t.Null()], { description: "why the destination was disabled (its owner, or deliveries that kept failing)" }),
  created_at: dateTime(),
  updated_at: dateTime(),
};

export const Webhook = t.Object(webhookFields, { $id: "Webhook" });
export const WebhookWithSecret = t.Object(
  { ...webhookFields, secret: t.String({ description: "the signing secret (whsec_…), shown only here and on rotation" }) },
  { $id: "WebhookWithSecret" },
);
export const WebhookList = t.Object({ items: t.Array(Webhook) }, { $id: "WebhookList" });

const url = t.String({ minLength: 8, maxLength: 2048, description: "an http(s) URL that resolves to public addresses (or to a range the operator allows)" });
const eventTypes = t.Array(eventType, { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true });

export const CreateWebhookBody = t.Object({ url, event_types: eventTypes }, { $id: "CreateWebhookBody", additionalProperties: false });
export const PatchWebhookBody = t.Object(
  { url: t.Optional(url), event_types: t.Optional(eventTypes), status: t.Optional(t.Union([t.Literal("enabled"), t.Literal("disabled")])) },
  { $id: "PatchWebhookBody", additionalProperties: false },
);

export const Delivery = t.Object(
  {
    id: t.Integer(),
    event_id: t.String({ description: "the webhook-id header: the same on every attempt" }),
    event_type: t.String(),
    status: t.Union([t.Literal("pending"), t.Literal("succeeded"), t.Literal("failed")]),
    attempts: t.Integer(),
    last_status: t.Union([t.Integer(), t.Null()], { description: "the receiver's last HTTP status, or null (no answer)" }),
    last_error: t.Union([t.String(), t.Null()]),
    created_at: dateTime(),
    next_attempt_at: t.Union([dateTime(), t.Null()], { description: "when a pending delivery is tried next" }),
    finished_at: t.Union([dateTime(), t.Null()]),
  },
  { $id: "WebhookDelivery" },
);
export const DeliveryList = t.Object({ items: t.Array(Delivery), next_cursor: t.Union([t.String(), t.Null()]) }, { $id: "WebhookDeliveryList" });
export const TestSent = t.Object({ event_id: t.String(), type: t.Literal("webhook.test") }, { $id: "WebhookTestSent" });
