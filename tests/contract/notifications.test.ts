/**
 * Market events and notifications (docs/webhooks.md): a merge of three fed days writes the events
 * the records brought, estimates that moved by 5 % or more included (checked here against the two
 * snapshots compared independently); the fan-out
 * gives each follower a notification once, and queues a signed delivery for their destinations,
 * which a receiver verifies with the npm package standardwebhooks; GET /v1/notifications lists
 * them newest first, filtered and paged, and another user sees none of them.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { feedMarket } from "../../src/pipeline/feed";
import { eventIdOf } from "../../src/pipeline/import/events";
import { runImport } from "../../src/pipeline/import/run";
import { WebhookDispatcher } from "../../src/serve/webhooks/dispatcher";
import { fanOut, fanOutByDay } from "../../src/serve/webhooks/fan-out";
import { recipientView, subjectObjects } from "../../src/serve/webhooks/objects";
import { createTestContext, type TestContext, tempDataDir, tinyMarketDir } from "../helpers/app";
import { webhookReceiver } from "../helpers/webhook-receiver";

let root: string;
let ctx: TestContext;
const receiver = webhookReceiver();
const received = receiver.got;
/** The events the merge should write: (type, subject) found by comparing the snapshots here. */
let expected: Set<string>;
let events: { id: string; type: string; day: string; subject_kind: string; subject_id: number; lot_id: number | null; artist_id: number | null }[];

beforeAll(async () => {
  root = tempDataDir("artmarket-events-");
  mkdirSync(join(root, "market"));
  // the market and its latent truth (feed continues it)
  for (const f of ["market.db", "truth.db"]) copyFileSync(join(await tinyMarketDir(), f), join(root, "market", f));
  await feedMarket({ dataDir: join(root, "market"), to: join(root, "day"), days: 3, quiet: true });
  const before = new Database(join(await tinyMarketDir(), "market.db"), { readonly: true });
  await runImport({ dataDir: join(root, "market"), from: join(root, "day"), mode: "merge", quiet: true, embed: false });
  const after = new Database(join(root, "market", "market.db"), { readonly: true });
  const lots = (db: Database) =>
    new Map(
      db
        .query<{ id: number; status: string }, []>("SELECT id, status FROM lots")
        .all()
        .map((r) => [r.id, r.status]),
    );
  const old = lots(before);
  expected = new Set();
  for (const [id, status] of lots(after)) {
    const was = old.get(id);
    if (was === undefined && status === "upcoming") expected.add(`lot.consigned:lot:${id}`);
    else if (was !== undefined && was !== status && ["sold", "passed", "withdrawn"].includes(status)) expected.add(`lot.${status}:lot:${id}`);
  }
  const sales = (db: Database) =>
    new Map(
      db
        .query<{ id: number; status: string }, []>("SELECT id, status FROM sales")
        .all()
        .map((r) => [r.id, r.status]),
    );
  const oldSales = sales(before);
  for (const [id, status] of sales(after)) if (status === "closed" && oldSales.has(id) && oldSales.get(id) !== "closed") expected.add(`sale.results_published:sale:${id}`);
  // a work's estimate that moved by 5 % or more (materiality.ts ESTIMATE_EVENT)
  const estimates = (db: Database) =>
    new Map(
      db
        .query<{ id: number; e: number | null }, []>("SELECT id, estimate_usd AS e FROM artworks")
        .all()
        .map((r) => [r.id, r.e]),
    );
  const oldEstimates = estimates(before);
  for (const [id, e] of estimates(after)) {
    const was = oldEstimates.get(id);
    if (e !== null && was !== null && was !== undefined && e > 0 && was > 0 && Math.abs(e / was - 1) >= 0.05) expected.add(`artwork.estimate_changed:artwork:${id}`);
  }
  events = after.query<(typeof events)[number], []>("SELECT id, type, day, subject_kind, subject_id, lot_id, artist_id FROM market_events").all();
  before.close();
  after.close();
  ctx = await createTestContext({ market: join(root, "market"), config: { webhookAllow: ["127.0.0.0/8"] } });
}, 300_000);

afterAll(() => {
  receiver.stop();
  ctx?.close();
});

describe("market events", () => {
  test("a merge writes exactly the events its records brought, with ids every node computes alike", () => {
    expect(expected.size).toBeGreaterThan(0);
    expect(new Set(events.map((e) => `${e.type}:${e.subject_kind}:${e.subject_id}`))).toEqual(expected);
    for (const e of events) expect(e.id).toBe(eventIdOf(e.type, e.subject_kind, e.subject_id, e.day));
    expect(new Set(events.map((e) => e.type))).toContain("lot.sold");
    expect(new Set(events.map((e) => e.type))).toContain("artwork.estimate_changed");
  });

  test("a follower is notified once per event, gets it by webhook, signed; the feed lists it; others see nothing", async () => {
    // follow the artist with the most lot events, and one lot of another artist
    const byArtist = new Map<number, number>();
    for (const e of events) if (e.artist_id !== null) byArtist.set(e.artist_id, (byArtist.get(e.artist_id) ?? 0) + 1);
    const artist = [...byArtist.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    const lot = events.find((e) => e.lot_id !== null && e.artist_id !== artist)!.lot_id!;
    expect((await ctx.call(`/v1/artists/${artist}/follow`, { method: "POST" })).status).toBeLessThan(300);
    expect((await ctx.call(`/v1/lots/${lot}/follow`, { method: "POST" })).status).toBeLessThan(300);
    const mine = events.filter((e) => e.artist_id === artist || e.lot_id === lot);
    const hook = (await (await ctx.call("/v1/webhooks", { method: "POST", body: { url: receiver.url(), event_types: ["lot.sold", "lot.passed"] } })).json()) as {
      secret: string;
    };
    receiver.useSecret(hook.secret);

    const first = fanOut(ctx.deps, "snap-a");
    expect(first.notified).toBe(mine.length);
    const hooked = mine.filter((e) => e.type === "lot.sold" || e.type === "lot.passed");
    expect(first.queued).toBe(hooked.length);
    // again (another node, a restart): nothing written or sent twice
    expect(fanOut(ctx.deps, "snap-a")).toMatchObject({ notified: 0, queued: 0 });
    // from the last day fanned out: that day's events only, none written twice
    const lastDay = events.reduce((d, e) => (e.day > d ? e.day : d), "");
    expect(fanOut(ctx.deps, "snap-a", Date.now(), lastDay)).toEqual({ notified: 0, queued: 0, lastDay });
    expect(fanOut(ctx.deps, "snap-a", Date.now(), "9999-01-01")).toEqual({ notified: 0, queued: 0, lastDay: "9999-01-01" });

    const d = new WebhookDispatcher(ctx.deps.accounts, { allow: ["127.0.0.0/8"] });
    while ((await d.runOnce()) > 0);
    expect(received.map((r) => r.id).sort()).toEqual(hooked.map((e) => e.id).sort());
    expect(received.every((r) => r.verified)).toBe(true);
    // each delivery carries its lot, in the full schema, as GET /v1/lots/{id} answers it
    for (const r of received) {
      const body = JSON.parse(r.body) as { subject: { id: number }; data: { object: Record<string, unknown> } };
      const lot = (await (await ctx.call(`/v1/lots/${body.subject.id}`)).json()) as Record<string, unknown>;
      expect(body.data.object).toEqual(lot);
    }

    // the feed: every event, newest first, by pages; a type filter; 1 DU a call
    const seen: { id: string; occurred_at: string; type: string; subject: { kind: string; id: number } }[] = [];
    let cursor: string | null = null;
    do {
      const res: Response = await ctx.call(`/v1/notifications?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.headers.get("x-service-dataunits")).toBe("1");
      const page = (await res.json()) as { items: typeof seen; next_cursor: string | null };
      seen.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.map((n) => n.id).sort()).toEqual(mine.map((e) => e.id).sort());
    // the feed's objects: what each event is about, as its detail answers it
    for (const n of seen.slice(0, 5)) {
      const plural = { lot: "lots", artwork: "artworks", artist: "artists", sale: "sales" }[n.subject.kind]!;
      const detail = (await (await ctx.call(`/v1/${plural}/${n.subject.id}`)).json()) as Record<string, unknown>;
      expect((n as unknown as { data: { object: unknown } }).data.object).toEqual(detail);
    }
    const times = seen.map((n) => n.occurred_at);
    expect(times).toEqual([...times].sort().reverse());
    const sold = (await (await ctx.call("/v1/notifications?type=lot.sold&limit=100")).json()) as { items: { type: string }[] };
    expect(sold.items.length).toBe(mine.filter((e) => e.type === "lot.sold").length);
    expect(sold.items.every((n) => n.type === "lot.sold")).toBe(true);
    expect((await (await ctx.call("/v1/notifications", { key: ctx.keys.pro })).json()) as { items: unknown[]; next_cursor: string | null }).toEqual({
      items: [],
      next_cursor: null,
    });
    expect((await ctx.call("/v1/notifications?cursor=nonsense")).status).toBe(422);

    // an artist's or a sale's event carries its object as the detail answers it too
    const owner = ctx.deps.accounts.listUsers().find((u) => u.name === "enterprise tester")!.id;
    const sale = events.find((e) => e.subject_kind === "sale")?.subject_id;
    const subjects = [{ kind: "artist", id: artist }, ...(sale ? [{ kind: "sale", id: sale }] : [])];
    const objects = subjectObjects(ctx.deps, { ...recipientView(ctx.deps, owner, "full"), origin: "http://artmarket.test" }, subjects);
    for (const sub of subjects) {
      const detail = (await (await ctx.call(`/v1/${sub.kind}s/${sub.id}`)).json()) as Record<string, unknown>;
      expect(objects.get(`${sub.kind}:${sub.id}`)).toEqual(detail);
    }

    // the unread count: every notification without a marker, none after the newest, free
    const unread = async (q = "") => {
      const res = await ctx.call(`/v1/notifications/unread${q}`);
      expect(res.headers.get("x-service-dataunits")).toBe("0");
      return ((await res.json()) as { unread: number }).unread;
    };
    expect(await unread()).toBe(mine.length);
    expect(await unread(`?after=${seen[0]!.id}`)).toBe(0);
    expect(await unread("?after=evt_gone")).toBe(mine.length);
    expect(((await (await ctx.call("/v1/notifications/unread", { key: ctx.keys.pro })).json()) as { unread: number }).unread).toBe(0);
  });

  test("a sandbox plan's feed and deliveries carry the public figures only (status, month)", async () => {
    const lotEvents = events.filter((e) => e.lot_id !== null && e.artist_id !== null);
    const artist = lotEvents[0]!.artist_id!;
    expect((await ctx.call(`/v1/artists/${artist}/follow`, { method: "POST", key: ctx.keys.sandbox })).status).toBeLessThan(300);
    const hook = (await (
      await ctx.call("/v1/webhooks", {
        method: "POST",
        key: ctx.keys.sandbox,
        body: { url: receiver.url(), event_types: ["lot.sold", "lot.passed", "lot.consigned", "lot.withdrawn"] },
      })
    ).json()) as { secret: string };
    receiver.useSecret(hook.secret);
    const got = received.length;
    // day by day, as a server's worker runs it
    const out = await fanOutByDay(ctx.deps, "snap-b");
    const theirs = events.filter((e) => e.artist_id === artist);
    expect(out.notified).toBe(theirs.length);
    expect(out.lastDay).toBe(events.reduce((d, e) => (e.day > d ? e.day : d), ""));
    const feed = (await (await ctx.call("/v1/notifications?limit=100", { key: ctx.keys.sandbox })).json()) as { items: { type: string; data: Record<string, unknown> }[] };
    expect(feed.items.length).toBe(theirs.length);
    const publicKeys = (data: object) => Object.keys(data).every((k) => k === "status" || k === "month" || k === "object");
    for (const n of feed.items) {
      expect(publicKeys(n.data)).toBe(true);
      // the object in the public schema: no price, no is_followed
      expect(n.data.object).toBeDefined();
      expect(n.data.object).not.toHaveProperty("price");
      expect(n.data.object).not.toHaveProperty("is_followed");
      const { object: _object, ...figures } = n.data;
      if (n.type.startsWith("lot.")) expect(figures).toEqual({ status: n.type.slice(4) === "consigned" ? "upcoming" : n.type.slice(4) });
    }
    const d = new WebhookDispatcher(ctx.deps.accounts, { allow: ["127.0.0.0/8"] });
    while ((await d.runOnce()) > 0);
    const delivered = received.slice(got);
    expect(delivered.length).toBe(theirs.filter((e) => e.type.startsWith("lot.")).length);
    for (const r of delivered) {
      expect(r.verified).toBe(true);
      const data = (JSON.parse(r.body) as { data: { object: object } }).data;
      expect(publicKeys(data)).toBe(true);
      expect(data.object).not.toHaveProperty("price");
    }
  });
});
