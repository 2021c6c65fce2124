/**
 * Two nodes on one PostgreSQL account store (`serve --account-store postgres://…`), each with its
 * own data directory and a copy of the same market, each with two workers: requests spread over
 * both behave as one service. The ledger holds every DU a client saw, the hard cap is crossed by at
 * most one call, the rate limits count every node's calls, a collectable written on one node
 * (its uploaded image included) is read on the other, a revocation is seen by both within a
 * second, signed image URLs made by one node validate on the other, and a console session opened
 * on one node works on the other until an admin disables its user through either, and webhook
 * deliveries from the shared outbox reach the receiver once each, whichever node sends them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { today } from "../../src/market/time";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { database } from "../helpers/postgres";
import { spawnServe } from "../helpers/server";
import { webhookReceiver } from "../helpers/webhook-receiver";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

interface Node {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  dataDir: string;
  stderr: () => string;
}

let url: string;
let sql: InstanceType<typeof Bun.SQL>;
const nodes: Node[] = [];

async function startNode(dataDir: string): Promise<Node> {
  const { proc, url: nodeUrl, stderr } = await spawnServe(dataDir, ["--workers", "2", "--account-store", url, "--log-format", "off", "--webhook-allow", "127.0.0.0/8"]);
  return { proc, url: nodeUrl, dataDir, stderr };
}

/** `artmarket keys …` on the shared store; returns stdout. */
function cli(...args: string[]): string {
  const run = Bun.spawnSync([...ARTMARKET, ...args, "--account-store", url, "--data", nodes[0]!.dataDir]);
  if (run.exitCode !== 0) throw new Error(`artmarket ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

function createKey(plan: string, name: string): { key: string; userId: number; kid: string } {
  const text = cli("keys", "create", "--plan", plan, "--name", name);
  const userId = Number(/created user (\d+)/.exec(text)![1]);
  const key = text.split("\n").find((l) => l.startsWith("am_"))!;
  return { key, userId, kid: /^am_([0-9a-f]+)_/.exec(key)![1]! };
}

/** `count` requests, alternating between the nodes, `parallel` at a time, each on a fresh connection. */
async function spread(path: string, key: string, count: number, parallel = 8, init: RequestInit = {}): Promise<Response[]> {
  const out: Response[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < count; i = next++) {
        const node = nodes[i % nodes.length]!;
        out[i] = await fetch(`${node.url}${path}`, { ...init, headers: { Authorization: `Bearer ${key}`, Connection: "close", ...(init.headers ?? {}) } });
      }
    }),
  );
  return out;
}

const du = (responses: Response[]) => responses.reduce((s, r) => s + Number(r.headers.get("X-Service-DataUnits") ?? 0), 0);

beforeAll(async () => {
  url = await database("nodes");
  const market = join(await tinyMarketDir(), "market.db");
  for (let i = 0; i < 2; i++) {
    const dir = tempDataDir();
    copyFileSync(market, join(dir, "market.db"));
    nodes.push(await startNode(dir));
  }
  sql = new Bun.SQL(url, { max: 2 });
}, 120_000);

afterAll(async () => {
  for (const n of nodes) {
    n.proc.kill("SIGKILL");
    await n.proc.exited;
    rmSync(n.dataDir, { recursive: true, force: true });
  }
  await sql?.close();
});

describe("two nodes on one PostgreSQL account store", () => {
  test("both answer /readyz with the same snapshot", async () => {
    const ready = await Promise.all(nodes.map(async (n) => (await fetch(`${n.url}/readyz`)).json() as Promise<{ status: string; snapshot: { id: string } }>));
    expect(ready.map((r) => r.status)).toEqual(["ready", "ready"]);
    expect(ready[0]!.snapshot.id).toBe(ready[1]!.snapshot.id);
  });

  test("the ledger holds every DU the clients saw on either node, and Remaining counts both", async () => {
    const made = createKey("enterprise", "two nodes");
    const res = await spread("/v1/artists?limit=5", made.key, 60);
    expect(res.map((r) => r.status)).toEqual(Array(60).fill(200));
    const seen = du(res);
    expect(seen).toBeGreaterThan(60);
    const [ledger] = await sql`SELECT count(*)::int AS n, sum(du)::float8 AS du FROM du_ledger WHERE user_id = ${made.userId}`;
    const [daily] = await sql`SELECT sum(du)::float8 AS du FROM du_daily WHERE user_id = ${made.userId}`;
    expect(ledger.n).toBe(60);
    expect(ledger.du).toBeCloseTo(seen, 6);
    expect(daily.du).toBeCloseTo(seen, 6);
    // one more call, alone: what remains is the plan's allowance less both nodes' calls
    const last = await fetch(`${nodes[1]!.url}/v1/categories`, { headers: { Authorization: `Bearer ${made.key}` } });
    const [plan] = await sql`SELECT du_limit FROM plans WHERE slug = 'enterprise'`;
    expect(Number(last.headers.get("X-Service-DataUnits-Remaining"))).toBeCloseTo(plan.du_limit - seen - Number(last.headers.get("X-Service-DataUnits")), 6);
  }, 60_000);

  test("the hard cap is crossed by at most one call, whichever node serves it", async () => {
    await sql`UPDATE plans SET rps_limit = 10000, rpm_limit = 1000000 WHERE slug = 'sandbox'`;
    const made = createKey("sandbox", "capped on two nodes");
    // 3 DU of the period left
    await sql`INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (${made.userId}, ${today()}, 'GET /v1/artworks', 9997, 1)`;
    await Bun.sleep(1200); // the plan edit reaches every worker (epoch)
    const res = await spread("/v1/categories", made.key, 40, 12);
    const served = res.filter((r) => r.status === 200);
    expect(served.length + res.filter((r) => r.status === 429).length).toBe(40);
    // 1 DU a call: exactly three are served, wherever they land
    expect(served.length).toBe(3);
    expect(served.map((r) => r.headers.get("X-Service-DataUnits-Remaining")).sort()).toEqual(["0", "1", "2"]);
    const [ledger] = await sql`SELECT count(*)::int AS n FROM du_ledger WHERE user_id = ${made.userId}`;
    expect(ledger.n).toBe(3);
    const [left] = await sql`SELECT count(*)::int AS n FROM cap_admissions WHERE user_id = ${made.userId}`;
    expect(left.n).toBe(0);
  }, 60_000);

  test("the request-rate limits count the calls of both nodes", async () => {
    await sql`UPDATE plans SET rps_limit = 10000, rpm_limit = 7 WHERE slug = 'pro'`;
    const made = createKey("pro", "rate limited on two nodes");
    await Bun.sleep(1200);
    // the calls all fall in one minute
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await Bun.sleep(60_000 - intoMinute + 100);
    const res = await spread("/v1/categories", made.key, 20, 10);
    const statuses = res.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBe(7);
    expect(statuses.filter((s) => s === 429).length).toBe(13);
    const refused = res.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    await sql`UPDATE plans SET rpm_limit = 1000 WHERE slug = 'pro'`;
  }, 90_000);

  test("a collectable written on one node is read, listed and its image served on the other", async () => {
    const made = createKey("enterprise", "collector on two nodes");
    const auth = { Authorization: `Bearer ${made.key}` };
    const [a, b] = nodes as [Node, Node];
    const artists = await fetch(`${a.url}/v1/artists?limit=1`, { headers: auth });
    const artist = ((await artists.json()) as { artists: { id: number }[] }).artists[0]!.id;
    const categories = (await (await fetch(`${a.url}/v1/categories`, { headers: auth })).json()) as Record<string, { id: number }[]> | { id: number }[];
    const category = (Array.isArray(categories) ? categories : Object.values(categories).find(Array.isArray)!)[0]!.id;
    const fields = new FormData();
    fields.append("artist_id", String(artist));
    fields.append("category_id", String(category));
    fields.append("edition_unique_type", "unique");
    fields.append("title", "Written on node A");
    const created = await fetch(`${a.url}/v1/collectables`, { method: "POST", headers: auth, body: fields });
    expect(created.status).toBeLessThan(300);
    const { id } = (await created.json()) as { id: number };
    const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 40, b: 90 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("image", new Blob([png], { type: "image/png" }), "work.png");
    const uploaded = await fetch(`${a.url}/v1/collectables/${id}/image`, { method: "PUT", headers: auth, body: form });
    expect(uploaded.status).toBe(200);

    const read = await fetch(`${b.url}/v1/collectables/${id}`, { headers: auth });
    expect(read.status).toBe(200);
    const body = (await read.json()) as { id: number; title: string; image_thumbnail_url: string | null };
    expect(body.title).toBe("Written on node A");
    expect(body.image_thumbnail_url).not.toBeNull();
    const list = (await (await fetch(`${b.url}/v1/collectables?limit=10`, { headers: auth })).json()) as { items: { id: number }[]; total_count: number };
    expect(list.items.map((i) => i.id)).toEqual([id]);
    // the image URL is signed by node B; node A serves it too (the secret is shared), and node B,
    // which never saw the upload, reads the original from PostgreSQL
    const image = new URL(body.image_thumbnail_url!);
    for (const node of [b, a]) {
      const res = await fetch(`${node.url}${image.pathname}${image.search}`);
      expect(res.status).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.format).toBe("jpeg");
      expect(meta.width).toBe(240);
    }
    // a follow made on B shows on A's followed list
    const followed = await fetch(`${b.url}/v1/artists/${artist}/follow`, { method: "POST", headers: auth });
    expect(followed.status).toBe(204);
    const followedList = (await (await fetch(`${a.url}/v1/artists/followed`, { headers: auth })).json()) as { artists: { id: number }[] };
    expect(followedList.artists.map((i) => i.id)).toEqual([artist]);
  }, 60_000);

  test("a revoked key is refused by both nodes within a second", async () => {
    const made = createKey("pro", "to revoke on two nodes");
    const before = await spread("/v1/categories", made.key, 8, 4);
    expect(before.map((r) => r.status)).toEqual(Array(8).fill(200));
    cli("keys", "revoke", made.kid);
    const revokedAt = Date.now();
    await Bun.sleep(1000 - (Date.now() - revokedAt));
    const after = await spread("/v1/categories", made.key, 12, 4);
    expect(after.map((r) => r.status)).toEqual(Array(12).fill(401));
  }, 60_000);

  test("a session opened on one node works on the other; a user disabled through one is refused by both within a second", async () => {
    const password = "a password for two nodes";
    for (const [email, extra] of [
      ["ivy@example.com", []],
      ["boss@example.com", ["--admin"]],
    ] as const) {
      const made = Bun.spawnSync(
        [...ARTMARKET, "users", "create", "--email", email, "--plan", "pro", ...extra, "--password-stdin", "--account-store", url, "--data", nodes[0]!.dataDir],
        { stdin: new TextEncoder().encode(`${password}\n`) },
      );
      expect({ code: made.exitCode, err: made.stderr.toString() }).toEqual({ code: 0, err: "" });
    }
    const [a, b] = nodes as [Node, Node];
    const signIn = async (node: Node, email: string) => {
      const res = await fetch(`${node.url}/v1/session`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }) });
      expect(res.status).toBe(200);
      return { cookie: res.headers.get("set-cookie")!.split(";")[0]!, csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
    };
    const ivy = await signIn(a, "ivy@example.com");
    expect((await fetch(`${b.url}/v1/session`, { headers: { Cookie: ivy.cookie } })).status).toBe(200);
    const made = await fetch(`${b.url}/v1/keys`, {
      method: "POST",
      headers: { Cookie: ivy.cookie, "X-CSRF-Token": ivy.csrf, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "two nodes", scope: "full" }),
    });
    expect(made.status).toBe(201);
    const key = ((await made.json()) as { key: string }).key;
    const spent = await spread("/v1/categories", key, 6, 3);
    expect(spent.map((r) => r.status)).toEqual(Array(6).fill(200));
    // the user's pool by key, from either node (PostgreSQL's roll-up is kept by a trigger)
    const byKey = (await (await fetch(`${a.url}/v1/usage?group_by=key`, { headers: { Authorization: `Bearer ${key}` } })).json()) as {
      breakdown: { du_consumed: number; requests: number }[];
    };
    expect(byKey.breakdown.map((b) => [b.du_consumed, b.requests])).toEqual([[du(spent), 6]]);
    const boss = await signIn(b, "boss@example.com");
    const ivyId = (
      (await (await fetch(`${b.url}/v1/admin/users?limit=200`, { headers: { Cookie: boss.cookie } })).json()) as { items: { id: number; email: string }[] }
    ).items.find((u) => u.email === "ivy@example.com")!.id;
    const off = await fetch(`${b.url}/v1/admin/users/${ivyId}`, {
      method: "PATCH",
      headers: { Cookie: boss.cookie, "X-CSRF-Token": boss.csrf, "Content-Type": "application/json" },
      body: JSON.stringify({ disabled: true }),
    });
    expect(off.status).toBe(200);
    await Bun.sleep(1000);
    expect((await spread("/v1/categories", key, 12, 4)).map((r) => r.status)).toEqual(Array(12).fill(401));
    for (const node of nodes) expect((await fetch(`${node.url}/v1/session`, { headers: { Cookie: ivy.cookie } })).status).toBe(401);
  }, 60_000);

  test("webhook deliveries: two nodes on one outbox send each event once", async () => {
    const made = createKey("pro", "hooks on two nodes");
    const receiver = webhookReceiver();
    try {
      const hook = await fetch(`${nodes[0]!.url}/v1/webhooks`, {
        method: "POST",
        headers: { Authorization: `Bearer ${made.key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ url: receiver.url(), event_types: ["lot.sold"] }),
      });
      expect(hook.status).toBe(201);
      const { id, secret } = (await hook.json()) as { id: number; secret: string };
      receiver.useSecret(secret);
      const sent = (await spread(`/v1/webhooks/${id}/test`, made.key, 30, 6, { method: "POST" })).map((r) => r.status);
      expect(sent).toEqual(Array(30).fill(200));
      await receiver.waitFor(30, 15_000);
      // both dispatchers keep polling a while more: nothing is sent twice
      await Bun.sleep(2500);
      expect(new Set(receiver.got.map((r) => r.id)).size).toBe(30);
      expect(receiver.got.length).toBe(30);
      expect(receiver.got.every((r) => r.verified)).toBe(true);
    } finally {
      receiver.stop();
    }
  }, 60_000);
});
