/**
 * Webhook destinations and their outbox (src/serve/webhooks/): a user's destinations, the
 * deliveries enqueued for them, and the dispatcher's claim of due deliveries, written so that
 * several nodes on one PostgreSQL store send each delivery once (a row is claimed by one UPDATE
 * that only one node's can win).
 */
import type { SqlBase } from "./dialect";

export interface WebhookRow {
  id: number;
  user_id: number;
  url: string;
  event_types: string;
  secret: string;
  status: string;
  disabled_reason: string | null;
  failures_in_row: number;
  created_at: number;
  updated_at: number;
}

export interface DeliveryRow {
  id: number;
  webhook_id: number;
  user_id: number;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** A claimed delivery with its destination's URL and secret. */
export type DueDelivery = DeliveryRow & { url: string; secret: string };

export interface WebhookStore {
  addWebhook(userId: number, w: { url: string; eventTypes: string[]; secret: string }, now: number): WebhookRow;
  /** The user's destination, or null (another user's too). */
  getWebhook(userId: number, id: number): WebhookRow | null;
  listWebhooks(userId: number): WebhookRow[];
  /** Changes a destination; enabling it again clears its failures. Null when the user has none of that id. */
  updateWebhook(userId: number, id: number, change: { url?: string; eventTypes?: string[]; status?: "enabled" | "disabled" }, now: number): WebhookRow | null;
  setWebhookSecret(userId: number, id: number, secret: string, now: number): boolean;
  /** Removes a destination and its deliveries not yet made. */
  removeWebhook(userId: number, id: number): boolean;
  /** Enqueues one event for each enabled destination of `userId` that takes its type; returns how many. */
  enqueueEvent(userId: number, event: { id: string; type: string; payload: string }, now: number, onlyWebhook?: number): number;
  /** Claims up to `limit` due deliveries until `until` (no other node sends them meanwhile). */
  claimDue(now: number, until: number, limit: number): DueDelivery[];
  /** Records an attempt: succeeded, retried at `retryAt`, or failed for good (null). */
  recordAttempt(id: number, outcome: { ok: boolean; status: number | null; error: string | null; retryAt: number | null }, now: number): void;
  /** After a delivery failed for good: the destination's failures in a row, disabled past `limit`. */
  noteWebhookFailure(webhookId: number, limit: number, reason: string, now: number): boolean;
  noteWebhookSuccess(webhookId: number): void;
  /** A destination's deliveries, newest first, before `beforeId` (exclusive) when given. */
  deliveries(userId: number, webhookId: number, beforeId: number | null, limit: number): DeliveryRow[];
  /** Queues a delivery again now (its event id kept); false when the user has none of that id. */
  redeliver(userId: number, webhookId: number, deliveryId: number, now: number): boolean;
  /** Deliveries waiting (pending), for /metrics. */
  outboxDepth(): number;
  /** Lets every claim go (a server that is the store's only sender starting again after a crash); returns how many. */
  releaseClaims(): number;
}

const HOOK_COLUMNS = "id, user_id, url, event_types, secret, status, disabled_reason, failures_in_row, created_at, updated_at";
const DELIVERY_COLUMNS = "id, webhook_id, user_id, event_id, event_type, payload, status, attempts, next_attempt_at, last_status, last_error, created_at, finished_at";

export function WebhooksSql<B extends SqlBase>(Base: B) {
  abstract class Webhooks extends Base implements WebhookStore {
    addWebhook(userId: number, w: { url: string; eventTypes: string[]; secret: string }, now: number): WebhookRow {
      return this.sql.get<WebhookRow>(
        `INSERT INTO webhooks (user_id, url, event_types, secret, status, failures_in_row, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'enabled', 0, ?, ?) RETURNING ${HOOK_COLUMNS}`,
        userId,
        w.url,
        JSON.stringify(w.eventTypes),
        w.secret,
        now,
        now,
      )!;
    }

    getWebhook(userId: number, id: number): WebhookRow | null {
      if (id > this.sql.maxId) return null;
      return this.sql.get<WebhookRow>(`SELECT ${HOOK_COLUMNS} FROM webhooks WHERE id = ? AND user_id = ?`, id, userId);
    }

    listWebhooks(userId: number): WebhookRow[] {
      return this.sql.all<WebhookRow>(`SELECT ${HOOK_COLUMNS} FROM webhooks WHERE user_id = ? ORDER BY id`, userId);
    }

    updateWebhook(userId: number, id: number, change: { url?: string; eventTypes?: string[]; status?: "enabled" | "disabled" }, now: number): WebhookRow | null {
      const d = this.sql;
      return d.transaction(() => {
        const before = this.getWebhook(userId, id);
        if (!before) return null;
        if (change.url !== undefined) d.run("UPDATE webhooks SET url = ? WHERE id = ?", change.url, id);
        if (change.eventTypes !== undefined) d.run("UPDATE webhooks SET event_types = ? WHERE id = ?", JSON.stringify(change.eventTypes), id);
        if (change.status === "enabled") d.run("UPDATE webhooks SET status = 'enabled', disabled_reason = NULL, failures_in_row = 0 WHERE id = ?", id);
        if (change.status === "disabled") d.run("UPDATE webhooks SET status = 'disabled', disabled_reason = 'disabled by its owner' WHERE id = ?", id);
        d.run("UPDATE webhooks SET updated_at = ? WHERE id = ?", now, id);
        return this.getWebhook(userId, id);
      });
    }

    setWebhookSecret(userId: number, id: number, secret: string, now: number): boolean {
      if (id > this.sql.maxId) return false;
      return this.sql.run("UPDATE webhooks SET secret = ?, updated_at = ? WHERE id = ? AND user_id = ?", secret, now, id, userId) > 0;
    }

    removeWebhook(userId: number, id: number): boolean {
      if (id > this.sql.maxId) return false;
      return this.sql.transaction(() => {
        const removed = this.sql.run("DELETE FROM webhooks WHERE id = ? AND user_id = ?", id, userId) > 0;
        if (removed) this.sql.run("DELETE FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending'", id);
        return removed;
      });
    }

    enqueueEvent(userId: number, event: { id: string; type: string; payload: string }, now: number, onlyWebhook?: number): number {
      const hooks = (onlyWebhook === undefined ? this.listWebhooks(userId) : [this.getWebhook(userId, onlyWebhook)].filter((h) => h !== null)).filter(
        (h) => h.status === "enabled" && (onlyWebhook !== undefined || (JSON.parse(h.event_types) as string[]).includes(event.type)),
      );
      this.sql.transaction(() => {
        for (const h of hooks) {
          this.sql.run(
            `INSERT INTO webhook_deliveries (webhook_id, user_id, event_id, event_type, payload, status, attempts, next_attempt_at, claimed_until, created_at)
             VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, 0, ?)`,
            h.id,
            userId,
            event.id,
            event.type,
            event.payload,
            now,
            now,
          );
        }
      });
      return hooks.length;
    }

    claimDue(now: number, until: number, limit: number): DueDelivery[] {
      const d = this.sql;
      return d.transaction(() => {
        const ids = d
          .all<{ id: number }>(
            "SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? AND claimed_until <= ? ORDER BY next_attempt_at, id LIMIT ?",
            now,
            now,
            limit,
          )
          .map((r) => r.id);
        const claimed: DueDelivery[] = [];
        for (const id of ids) {
          // one node's UPDATE wins a row; another node's finds it claimed and moves on
          const row = d.get<DeliveryRow>(
            `UPDATE webhook_deliveries SET claimed_until = ? WHERE id = ? AND status = 'pending' AND claimed_until <= ? RETURNING ${DELIVERY_COLUMNS}`,
            until,
            id,
            now,
          );
          if (!row) continue;
          const hook = d.get<{ url: string; secret: string; status: string }>("SELECT url, secret, status FROM webhooks WHERE id = ?", row.webhook_id);
          if (!hook) {
            d.run("UPDATE webhook_deliveries SET status = 'failed', last_error = 'the destination was removed', finished_at = ? WHERE id = ?", now, id);
            continue;
          }
          claimed.push({ ...row, url: hook.url, secret: hook.secret });
        }
        return claimed;
      });
    }

    recordAttempt(id: number, o: { ok: boolean; status: number | null; error: string | null; retryAt: number | null }, now: number): void {
      const status = o.ok ? "succeeded" : o.retryAt === null ? "failed" : "pending";
      this.sql.run(
        `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?, next_attempt_at = ?, claimed_until = 0, finished_at = ?
         WHERE id = ?`,
        status,
        o.status,
        o.error,
        o.retryAt ?? now,
        status === "pending" ? null : now,
        id,
      );
    }

    noteWebhookFailure(webhookId: number, limit: number, reason: string, now: number): boolean {
      const row = this.sql.get<{ failures_in_row: number }>("UPDATE webhooks SET failures_in_row = failures_in_row + 1 WHERE id = ? RETURNING failures_in_row", webhookId);
      if (!row || row.failures_in_row < limit) return false;
      return this.sql.run("UPDATE webhooks SET status = 'disabled', disabled_reason = ?, updated_at = ? WHERE id = ? AND status = 'enabled'", reason, now, webhookId) > 0;
    }

    noteWebhookSuccess(webhookId: number): void {
      this.sql.run("UPDATE webhooks SET failures_in_row = 0 WHERE id = ? AND failures_in_row <> 0", webhookId);
    }

    deliveries(userId: number, webhookId: number, beforeId: number | null, limit: number): DeliveryRow[] {
      return this.sql.all<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE user_id = ? AND webhook_id = ?${beforeId === null ? "" : " AND id < ?"} ORDER BY id DESC LIMIT ?`,
        ...(beforeId === null ? [userId, webhookId, limit] : [userId, webhookId, beforeId, limit]),
      );
    }

    redeliver(userId: number, webhookId: number, deliveryId: number, now: number): boolean {
      if (deliveryId > this.sql.maxId || webhookId > this.sql.maxId) return false;
      return (
        this.sql.run(
          `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, claimed_until = 0, finished_at = NULL
           WHERE id = ? AND webhook_id = ? AND user_id = ? AND status <> 'pending'`,
          now,
          deliveryId,
          webhookId,
          userId,
        ) > 0
      );
    }

    releaseClaims(): number {
      return this.sql.run("UPDATE webhook_deliveries SET claimed_until = 0 WHERE status = 'pending' AND claimed_until <> 0");
    }

    outboxDepth(): number {
      const { count } = this.sql.casts;
      return this.sql.get<{ n: number }>(`SELECT count(*)${count} AS n FROM webhook_deliveries WHERE status = 'pending'`)?.n ?? 0;
    }
  }
  return Webhooks;
}
