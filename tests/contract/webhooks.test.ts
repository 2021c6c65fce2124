/**
 * Webhook destinations and their deliveries (docs/webhooks.md), in-process on the SQLite store,
 * against a real receiver on loopback that verifies every delivery with the npm package
 * standardwebhooks: the address guard (loopback refused unless allowed), a test event signed and
 * received, a receiver answering 500 then 200 getting the same webhook-id again, a delivery failed
 * for good sent again through the API, a rotated secret, isolation between users.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../helpers/app";
import { WebhookDispatcher } from "../../src/serve/webhooks/dispatcher";
import { copyFileSync } from "node:fs";
import { openAccountDb } from "../../src/db/connection";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { accountStore } from "../../src/serve/accounts/store";
import { join } from "node:path";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { spawnServe } from "../helpers/server";
import { webhookReceiver } from "../helpers/webhook-receiver";

let ctx: TestContext;
let refusing: TestContext;
const receiver = webhookReceiver();
/** What the receiver got: each delivery's webhook-id and body, and whether it verified. */
const received = receiver.got;

beforeAll(async () => {
  ctx = await createTestContext({ config: { webhookAllow: ["127.0.0.0/8"] } });
  refusing = await createTestContext();
});

afterAll(() => {
  receiver.stop();
  ctx?.close();
  refusing?.close();
});

const hookUrl = () => receiver.url("/hook");
const dispatcher = () => new WebhookDispatcher(ctx.deps.accounts, { allow: ["127.0.0.0/8"], retryDelaysMs: [20, 20] });

async function create(key = ctx.keys.enterprise): Promise<{ id: number; secret: string }> {
  const res = await ctx.call("/v1/webhooks", { method: "POST", key, body: { url: hookUrl(), event_types: ["lot.sold", "artwork.estimate_changed"] } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; secret: string };
}

describe("webhook destinations", () => {
  test("a loopback URL is refused (422 at body.url) unless the operator allows the range", async () => {
    const res = await refusing.call("/v1/webhooks", { method: "POST", body: { url: "http://127.0.0.1:9/hook", event_types: ["lot.sold"] } });
    expect(res.status).toBe(422);
    const detail = ((await res.json()) as { detail: { loc: string[]; type: string }[] }).detail[0]!;
    expect(detail).toMatchObject({ loc: ["body", "url"], type: "url_forbidden" });
    expect(refusing.deps.accounts.listWebhooks(1)).toEqual([]);
    for (const url of ["http://10.0.0.1/x", "http://169.254.169.254/latest", "http://[::1]/x", "ftp://example.com/x"]) {
      expect((await refusing.call("/v1/webhooks", { method: "POST", body: { url, event_types: ["lot.sold"] } })).status).toBe(422);
    }
  });

  test("made with its secret shown once; listed, read, changed; another user's is 404", async () => {
    const made = await create();
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const list = (await (await ctx.call("/v1/webhooks")).json()) as { items: Record<string, unknown>[] };
    expect(list.items.map((w) => w.id)).toContain(made.id);
    expect(JSON.stringify(list)).not.toContain(made.secret);
    const patched = await ctx.call(`/v1/webhooks/${made.id}`, { method: "PATCH", body: { event_types: ["lot.sold"] } });
    expect(((await patched.json()) as { event_types: string[] }).event_types).toEqual(["lot.sold"]);
    for (const [method, path] of [
      ["GET", `/v1/webhooks/${made.id}`],
      ["PATCH", `/v1/webhooks/${made.id}`],
      ["DELETE", `/v1/webhooks/${made.id}`],
      ["POST", `/v1/webhooks/${made.id}/test`],
      ["POST", `/v1/webhooks/${made.id}/rotate-secret`],
      ["GET", `/v1/webhooks/${made.id}/deliveries`],
    ] as const) {
      const res = await ctx.call(path, { method, key: ctx.keys.pro, body: method === "PATCH" ? { status: "disabled" } : undefined });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    expect(((await (await ctx.call("/v1/webhooks", { key: ctx.keys.pro })).json()) as { items: unknown[] }).items).toEqual([]);
  });

  test("a test event: signed per Standard Webhooks, verified by the receiver, shown as delivered", async () => {
    const made = await create();
    receiver.useSecret(made.secret);
    received.length = 0;
    const sent = (await (await ctx.call(`/v1/webhooks/${made.id}/test`, { method: "POST" })).json()) as { event_id: string };
    expect(sent.event_id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(await dispatcher().runOnce()).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ id: sent.event_id, verified: true });
    expect(JSON.parse(received[0]!.body)).toMatchObject({ id: sent.event_id, type: "webhook.test", subject: { kind: "webhook", id: made.id } });
    const deliveries = (await (await ctx.call(`/v1/webhooks/${made.id}/deliveries`)).json()) as {
      items: { event_id: string; status: string; attempts: number; last_status: number }[];
    };
    expect(deliveries.items[0]).toMatchObject({ event_id: sent.event_id, status: "succeeded", attempts: 1, last_status: 200 });
  });

  test("a receiver answering 500, then 200, gets the same webhook-id again; a delivery failed for good is sent again on request", async () => {
    const made = await create();
    receiver.useSecret(made.secret);
    received.length = 0;
    receiver.answerNext(500);
    const sent = (await (await ctx.call(`/v1/webhooks/${made.id}/test`, { method: "POST" })).json()) as { event_id: string };
    const d = dispatcher();
    await d.runOnce();
    let rows = (await (await ctx.call(`/v1/webhooks/${made.id}/deliveries`)).json()) as { items: { id: number; status: string; attempts: number; last_status: number }[] };
    expect(rows.items[0]).toMatchObject({ status: "pending", attempts: 1, last_status: 500 });
    await Bun.sleep(40);
    await d.runOnce();
    expect(received.map((r) => [r.id, r.verified])).toEqual([
      [sent.event_id, true],
      [sent.event_id, true],
    ]);
    // every retry spent: failed; then sent again through the API with the same id
    receiver.answerNext(500, 500, 500);
    const second = (await (await ctx.call(`/v1/webhooks/${made.id}/test`, { method: "POST" })).json()) as { event_id: string };
    for (let i = 0; i < 3; i++) {
      await d.runOnce();
      await Bun.sleep(40);
    }
    rows = (await (await ctx.call(`/v1/webhooks/${made.id}/deliveries`)).json()) as { items: { id: number; status: string; attempts: number; last_status: number }[] };
    expect(rows.items[0]).toMatchObject({ status: "failed", attempts: 3, last_status: 500 });
    expect((await ctx.call(`/v1/webhooks/${made.id}/deliveries/${rows.items[0]!.id}/redeliver`, { method: "POST" })).status).toBe(204);
    received.length = 0;
    await d.runOnce();
    expect(received.map((r) => [r.id, r.verified])).toEqual([[second.event_id, true]]);
    expect(d.outcomes).toEqual({ succeeded: 2, retried: 3, failed: 1 });
  });

  test("a rotated secret signs the next deliveries; the old one no longer verifies them", async () => {
    const made = await create();
    const rotated = (await (await ctx.call(`/v1/webhooks/${made.id}/rotate-secret`, { method: "POST" })).json()) as { secret: string };
    expect(rotated.secret).not.toBe(made.secret);
    received.length = 0;
    receiver.useSecret(made.secret);
    await ctx.call(`/v1/webhooks/${made.id}/test`, { method: "POST" });
    await dispatcher().runOnce();
    expect(received.map((r) => r.verified)).toEqual([false]);
    receiver.useSecret(rotated.secret);
    received.length = 0;
    await ctx.call(`/v1/webhooks/${made.id}/test`, { method: "POST" });
    await dispatcher().runOnce();
    expect(received.map((r) => r.verified)).toEqual([true]);
  });

  test("removed: 204, then 404; its pending deliveries are dropped", async () => {
    const made = await create();
    await ctx.call(`/v1/webhooks/${made.id}/test`, { method: "POST" });
    expect((await ctx.call(`/v1/webhooks/${made.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await ctx.call(`/v1/webhooks/${made.id}`)).status).toBe(404);
    received.length = 0;
    await dispatcher().runOnce();
    expect(received).toEqual([]);
  });
});

describe("a server's dispatcher", () => {
  test("serve sends a test event within seconds, signed; /metrics counts it", async () => {
    const dir = tempDataDir();
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(dir, "market.db"));
    const account = openAccountDb(dir);
    accountStore(account).seedPlans();
    const key = (await createUserWithKey(account, "pro", "hooks")).key;
    account.close();
    const server = await spawnServe(dir, ["--workers", "1", "--log-format", "off", "--webhook-allow", "127.0.0.0/8"]);
    try {
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}${path}`, { ...init, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...init.headers } });
      const made = (await (await call("/v1/webhooks", { method: "POST", body: JSON.stringify({ url: hookUrl(), event_types: ["lot.sold"] }) })).json()) as {
        id: number;
        secret: string;
      };
      receiver.useSecret(made.secret);
      received.length = 0;
      const sent = (await (await call(`/v1/webhooks/${made.id}/test`, { method: "POST" })).json()) as { event_id: string };
      const t0 = Date.now();
      while (received.length === 0 && Date.now() - t0 < 10_000) await Bun.sleep(50);
      expect(received.map((r) => [r.id, r.verified])).toEqual([[sent.event_id, true]]);
      // the receiver has the event before the dispatcher has read its answer and counted it
      let metrics = "";
      while (!metrics.includes("artmarket_webhook_delivery_seconds_count 1") && Date.now() - t0 < 10_000) {
        metrics = await (await fetch(`${server.url}/metrics`)).text();
        if (!metrics.includes("artmarket_webhook_delivery_seconds_count 1")) await Bun.sleep(50);
      }
      expect(metrics).toContain('artmarket_webhook_deliveries_total{outcome="succeeded"} 1');
      expect(metrics).toContain("artmarket_webhook_outbox_depth 0");
      expect(metrics).toContain("artmarket_webhook_delivery_seconds_count 1");
      const sum = Number(/artmarket_webhook_delivery_seconds_sum (\S+)/.exec(metrics)![1]);
      expect(sum).toBeGreaterThanOrEqual(0);
      expect(sum).toBeLessThan(10);
    } finally {
      server.proc.kill("SIGKILL");
    }
  }, 60_000);

  test("a server killed with SIGKILL in the middle of deliveries loses none: started again, it sends them all", async () => {
    const dir = tempDataDir();
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(dir, "market.db"));
    const account = openAccountDb(dir);
    accountStore(account).seedPlans();
    const key = (await createUserWithKey(account, "pro", "hooks")).key;
    account.close();
    // a slow receiver: every delivery is still in flight when the server is killed
    const slow = webhookReceiver({ delayMs: 300 });
    const seen = slow.got;
    const args = ["--workers", "1", "--log-format", "off", "--webhook-allow", "127.0.0.0/8"];
    let server = await spawnServe(dir, args);
    try {
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}${path}`, { ...init, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...init.headers } });
      const made = (await (await call("/v1/webhooks", { method: "POST", body: JSON.stringify({ url: slow.url(), event_types: ["lot.sold"] }) })).json()) as {
        id: number;
        secret: string;
      };
      slow.useSecret(made.secret);
      const sent: string[] = [];
      for (let i = 0; i < 20; i++) sent.push(((await (await call(`/v1/webhooks/${made.id}/test`, { method: "POST" })).json()) as { event_id: string }).event_id);
      const t0 = Date.now();
      while (seen.length < 3 && Date.now() - t0 < 10_000) await Bun.sleep(20);
      server.proc.kill("SIGKILL");
      await server.proc.exited;
      server = await spawnServe(dir, args);
      await slow.waitFor(sent.length, 20_000);
      expect([...new Set(seen.map((r) => r.id))].sort()).toEqual([...sent].sort());
      expect(seen.every((r) => r.verified)).toBe(true);
      const t2 = Date.now();
      let pending = 1;
      while (pending > 0 && Date.now() - t2 < 10_000) {
        const page = (await (await call(`/v1/webhooks/${made.id}/deliveries?limit=50`)).json()) as { items: { status: string }[] };
        pending = page.items.filter((d) => d.status !== "succeeded").length;
        if (pending > 0) await Bun.sleep(100);
      }
      expect(pending).toBe(0);
    } finally {
      server.proc.kill("SIGKILL");
      slow.stop();
    }
  }, 90_000);
});
