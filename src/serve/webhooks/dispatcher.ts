/**
 * The webhook dispatcher: one per node (the supervisor runs it), it claims due deliveries from the
 * outbox in the account store (src/serve/accounts/sql/webhooks.ts) and POSTs them, signed
 * (sign.ts). At least once: a delivery is claimed for CLAIM_MS before it is sent, so a node that
 * dies mid-send leaves it to be sent again by the next claim (any node's); an answer 2xx within
 * TIMEOUT_MS is a success (a server on account.db sends what it had claimed again as soon as it
 * starts after a crash), anything else is retried on RETRY_DELAYS_MS (with ±20 % jitter), then
 * the delivery fails for good (it can be sent again through the API). A destination whose
 * deliveries failed for good DISABLE_AFTER times in a row is disabled, with the reason.
 *
 * The destination's address is checked before each attempt like an `image_url`'s
 * (src/platform/address-guard.ts): its host must resolve to public addresses only, or to a range
 * the operator allows (`--webhook-allow CIDR`); the request goes to the checked IP (http) so a DNS
 * answer that changes meanwhile cannot redirect it. Redirects are not followed; the body of the
 * answer is read up to MAX_ANSWER_BYTES and dropped.
 */
import { lookup } from "node:dns/promises";
import { connectionTarget, isFetchableAddress, literalAddress } from "../../platform/address-guard";
import type { AccountStore } from "../accounts/store";
import type { DueDelivery } from "../accounts/sql/webhooks";
import { signedHeaders } from "./sign";

/** Retry delays after each failed attempt (ms): about a day and a half in all, then failed. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000, 43_200_000];
export const TIMEOUT_MS = 10_000;
const CLAIM_MS = 60_000;
const MAX_ANSWER_BYTES = 64 * 1024;
export const DISABLE_AFTER = 10;
const BATCH = 32;

export interface DispatcherOptions {
  /** CIDR ranges of non-public addresses destinations may use (`--webhook-allow`). */
  allow: readonly string[];
  /** How often the outbox is looked at (ms). */
  pollMs?: number;
  /** The delays of the retries (tests pass short ones). */
  retryDelaysMs?: readonly number[];
  say?: (msg: string) => void;
  now?: () => number;
}

/** Why a destination's address is refused, or null when it may be sent to; with what to connect to. */
export async function checkDestination(url: string, allow: readonly string[]): Promise<{ refused: string } | { href: string; host?: string }> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { refused: "not a URL" };
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return { refused: "not an http(s) URL" };
  const literal = literalAddress(u.hostname);
  let addresses: string[];
  if (literal !== null) addresses = [literal];
  else {
    try {
      addresses = (await lookup(u.hostname, { all: true })).map((a) => a.address);
    } catch (err) {
      return { refused: `${u.hostname} could not be resolved (${(err as { code?: string }).code ?? (err as Error).message})` };
    }
  }
  const bad = addresses.find((a) => !isFetchableAddress(a, allow));
  if (bad !== undefined || addresses.length === 0)
    return { refused: `${u.hostname} resolves to ${bad ?? "nothing"}, which is not a public address (an operator may allow a range with --webhook-allow)` };
  return connectionTarget(u, addresses);
}

export class WebhookDispatcher {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Deliveries by outcome since the start (the metrics). */
  readonly outcomes = { succeeded: 0, retried: 0, failed: 0 };
  /** From an event's queueing to its receiver's 2xx, over the deliveries that succeeded: sum (s) and count. */
  readonly latency = { sum: 0, count: 0 };
  private readonly now: () => number;

  constructor(
    private readonly store: AccountStore,
    private readonly options: DispatcherOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.stopped = false;
    // account.db has one server (serve's lock): what a killed one had claimed is sent again at once;
    // on PostgreSQL other nodes may be sending theirs, so a dead node's claims run out instead
    if (this.store.kind === "sqlite") this.store.releaseClaims();
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .then(() => {})
        .catch((err) => this.options.say?.(`webhooks: ${(err as Error).message}`))
        .finally(() => {
          this.running = null;
          this.schedule(this.options.pollMs ?? 1000);
        });
    }, ms);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Sends what is due now; returns how many were attempted. */
  async runOnce(): Promise<number> {
    const now = this.now();
    const due = this.store.claimDue(now, now + CLAIM_MS, BATCH);
    await Promise.all(due.map((d) => this.send(d)));
    return due.length;
  }

  private async send(d: DueDelivery): Promise<void> {
    const attempt = await this.post(d);
    const now = this.now();
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    if (attempt.ok) {
      this.store.recordAttempt(d.id, { ok: true, status: attempt.status, error: null, retryAt: null }, now);
      this.store.noteWebhookSuccess(d.webhook_id);
      this.outcomes.succeeded++;
      this.latency.sum += Math.max(0, now - d.created_at) / 1000;
      this.latency.count++;
      return;
    }
    const delay = delays[d.attempts];
    const retryAt = delay === undefined ? null : now + Math.round(delay * (0.8 + Math.random() * 0.4));
    this.store.recordAttempt(d.id, { ok: false, status: attempt.status, error: attempt.error, retryAt }, now);
    if (retryAt !== null) {
      this.outcomes.retried++;
      return;
    }
    this.outcomes.failed++;
    const disabled = this.store.noteWebhookFailure(d.webhook_id, DISABLE_AFTER, `${DISABLE_AFTER} deliveries in a row failed after every retry; the last: ${attempt.error}`, now);
    if (disabled) this.options.say?.(`webhooks: destination ${d.webhook_id} disabled after ${DISABLE_AFTER} failed deliveries in a row`);
  }

  private async post(d: DueDelivery): Promise<{ ok: boolean; status: number | null; error: string | null }> {
    const to = await checkDestination(d.url, this.options.allow);
    if ("refused" in to) return { ok: false, status: null, error: `refused: ${to.refused}` };
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "User-Agent": "artmarket-webhooks",
      ...signedHeaders(d.secret, d.event_id, d.payload, Math.floor(this.now() / 1000)),
    };
    if (to.host) headers.Host = to.host;
    try {
      const res = await fetch(to.href, { method: "POST", headers, body: d.payload, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
      // read a little of the answer and drop it (a receiver may send anything)
      const reader = res.body?.getReader();
      for (let read = 0; reader && read < MAX_ANSWER_BYTES; ) {
        const { value, done } = await reader.read();
        if (done) break;
        read += value.byteLength;
      }
      await reader?.cancel().catch(() => {});
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, error: null };
      return { ok: false, status: res.status, error: `answered ${res.status}` };
    } catch (err) {
      const e = err as Error;
      return { ok: false, status: null, error: e.name === "TimeoutError" ? `no answer within ${TIMEOUT_MS / 1000} s` : e.message };
    }
  }

  /** /metrics lines: the outbox's depth and the deliveries by outcome. */
  metricsText(): string {
    const lines = [
      "# HELP artmarket_webhook_outbox_depth Webhook deliveries waiting to be sent (every node's).",
      "# TYPE artmarket_webhook_outbox_depth gauge",
      `artmarket_webhook_outbox_depth ${this.store.outboxDepth()}`,
      "# HELP artmarket_webhook_deliveries_total Webhook delivery attempts by this node, by outcome.",
      "# TYPE artmarket_webhook_deliveries_total counter",
      ...Object.entries(this.outcomes).map(([outcome, n]) => `artmarket_webhook_deliveries_total{outcome="${outcome}"} ${n}`),
      "# HELP artmarket_webhook_delivery_seconds From an event's queueing to its receiver's 2xx, deliveries that succeeded on this node.",
      "# TYPE artmarket_webhook_delivery_seconds summary",
      `artmarket_webhook_delivery_seconds_sum ${Math.round(this.latency.sum * 1000) / 1000}`,
      `artmarket_webhook_delivery_seconds_count ${this.latency.count}`,
    ];
    return `${lines.join("\n")}\n`;
  }
}
