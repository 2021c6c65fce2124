/**
 * `serve --workers N`: several HTTP workers on one port behave as one server. The DU ledger has
 * every DU a client saw (after a SIGKILL too), rate limits and the hard cap are per account across
 * workers, a revocation is seen by every worker at once, argon2 runs once per key for the whole
 * server, and /metrics and /readyz speak for all workers. Each test checks from the access log
 * that the requests really were spread over several workers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { accountDbPath, openAccountDb } from "../../src/db/connection";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { SqliteAccountStore } from "../../src/serve/accounts/store";
import { today } from "../../src/market/time";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { spawnServe } from "../helpers/server";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

const WORKERS = 3;

interface Server {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  /** The access log's lines read so far (stderr, JSON). */
  log: () => Record<string, unknown>[];
}

async function startServer(dataDir: string, workers = WORKERS): Promise<Server> {
  const { proc, url, stderr } = await spawnServe(dataDir, ["--workers", String(workers)]);
  const log = () =>
    stderr()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { proc, url, log };
}

/** Requests spread over `connections` fresh connections (the kernel gives each to one worker). */
async function spread(server: Server, path: string, key: string, count: number, connections = 12): Promise<Response[]> {
  const out: Response[] = [];
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      for (let i = c; i < count; i += connections) {
        // a fresh connection per request: the kernel's spreading works per connection
        out.push(await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${key}`, Connection: "close" }, keepalive: false }));
      }
    }),
  );
  return out;
}

/** The access log's lines of the key (of one path, when given). */
const linesOf = (server: Server, keyId: number, path?: string) => server.log().filter((l) => l.key_id === keyId && (path === undefined || l.path === path));

const workersSeen = (server: Server, keyId: number, path?: string) => new Set(linesOf(server, keyId, path).map((l) => l.worker)).size;

/** Waits (up to 5 s) until the access log holds `count` lines of the key (of one path, when given): each worker writes its own, and they reach stderr after the responses. */
async function logged(server: Server, keyId: number, count: number, path?: string): Promise<void> {
  const until = Date.now() + 5000;
  while (linesOf(server, keyId, path).length < count && Date.now() < until) await Bun.sleep(20);
}

let dataDir: string;
let server: Server;
let keys: { enterprise: { key: string; keyId: number; userId: number }; sandbox: { key: string; keyId: number; userId: number } };

beforeAll(async () => {
  dataDir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  const db = openAccountDb(dataDir);
  new SqliteAccountStore(db).seedPlans();
  // the sandbox's rate limits raised (an operator's edit), so that the hard cap is what stops a burst
  db.run("UPDATE plans SET rps_limit = 10000, rpm_limit = 1000000 WHERE slug = 'sandbox'");
  const enterprise = await createUserWithKey(db, "enterprise", "workers");
  const sandbox = await createUserWithKey(db, "sandbox", "capped");
  // the sandbox account has 3 DU of its period left when the server starts
  db.run("INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, 'GET /v1/artworks', 9997, 1)", [sandbox.userId, today()]);
  db.close();
  keys = { enterprise, sandbox };
  server = await startServer(dataDir);
}, 60_000);

afterAll(() => {
  server?.proc.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("serve --workers 3", () => {
  test("/readyz reports the workers and the snapshot", async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; workers: number; snapshot: { id: string; as_of: string } };
    expect(body.status).toBe("ready");
    expect(body.workers).toBe(WORKERS);
    expect(body.snapshot.id).toMatch(/^[0-9a-f]{16}$/);
    expect(body.snapshot.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test("argon2 runs once per key for the whole server; /metrics counts every worker's requests", async () => {
    const before = await metrics();
    const res = await spread(server, "/v1/categories", keys.enterprise.key, 60);
    expect(res.map((r) => r.status)).toEqual(Array(60).fill(200));
    await logged(server, keys.enterprise.keyId, 60);
    expect(workersSeen(server, keys.enterprise.keyId)).toBeGreaterThan(1);
    const after = await metrics();
    expect(after.get("artmarket_key_verifications_total")! - (before.get("artmarket_key_verifications_total") ?? 0)).toBe(1);
    const route = 'artmarket_http_requests_total{route="/v1/categories",method="GET",status="200"}';
    expect((after.get(route) ?? 0) - (before.get(route) ?? 0)).toBe(60);
    expect(after.get('artmarket_du_charged_total{plan="enterprise"}')! - (before.get('artmarket_du_charged_total{plan="enterprise"}') ?? 0)).toBe(60);
  }, 60_000);

  test("started together on a data directory without a secret, the workers sign image URLs with the one secret the server made", async () => {
    const market = new Database(join(dataDir, "market.db"), { readonly: true });
    const { id } = market.query<{ id: number }, []>("SELECT id FROM artworks WHERE image_id IS NOT NULL ORDER BY id LIMIT 1").get()!;
    market.close();
    const res = await spread(server, `/v1/artworks/${id}`, keys.enterprise.key, 36);
    expect(res.map((r) => r.status)).toEqual(Array(36).fill(200));
    const urls = await Promise.all(res.map(async (r) => ((await r.json()) as { description: { image: { urls: Record<string, string> } } }).description.image.urls.w240));
    // the access log's lines of these calls (the key's earlier ones are there already)
    await logged(server, keys.enterprise.keyId, 36, `/v1/artworks/${id}`);
    expect(workersSeen(server, keys.enterprise.keyId, `/v1/artworks/${id}`)).toBeGreaterThan(1);
    // one signature whichever worker answered: the secret <data>/secret holds
    expect(new Set(urls).size).toBe(1);
    const url = new URL(urls[0]!);
    const secret = Buffer.from(readFileSync(join(dataDir, "secret"), "utf8").trim(), "hex");
    const expected = new Bun.CryptoHasher("sha256", secret).update(`${url.pathname}\n${url.searchParams.get("exp")}`).digest("hex");
    expect(url.searchParams.get("sig")).toBe(expected);
    // and the image route verifies it, on whichever worker a connection reaches
    const images = await spread(server, `${url.pathname}${url.search}`, keys.enterprise.key, 12);
    expect(images.map((r) => r.status)).toEqual(Array(12).fill(200));
  }, 60_000);

  test("account.db's WAL is checkpointed by a thread of the server's own; /metrics counts its checkpoints", async () => {
    const passive = 'artmarket_account_checkpoints_total{mode="passive",result="done"}';
    const before = await metrics();
    const res = await spread(server, "/v1/categories", keys.enterprise.key, 30);
    expect(res.map((r) => r.status)).toEqual(Array(30).fill(200));
    // a PASSIVE checkpoint every 100 ms (src/db/checkpointer.ts)
    await Bun.sleep(500);
    const after = await metrics();
    expect(after.get(passive)! - (before.get(passive) ?? 0)).toBeGreaterThanOrEqual(2);
    expect(after.get("artmarket_account_wal_frames")).toBeGreaterThan(0);
    expect(after.get('artmarket_account_checkpoints_total{mode="restart",result="busy"}')).toBe(0);
  }, 60_000);

  test("the hard cap is crossed by at most one call, whatever worker serves it", async () => {
    const res = await spread(server, "/v1/categories", keys.sandbox.key, 40);
    const served = res.filter((r) => r.status === 200);
    const capped = res.filter((r) => r.status === 429);
    expect(served.length + capped.length).toBe(40);
    // 3 DU left, 1 DU a call: exactly three are served, wherever they land
    expect(served.length).toBe(3);
    expect(served.map((r) => r.headers.get("X-Service-DataUnits-Remaining")).sort()).toEqual(["0", "1", "2"]);
    expect(
      workersSeen(server, keys.sandbox.keyId) +
        new Set(
          server
            .log()
            .filter((l) => l.status === 429)
            .map((l) => l.worker),
        ).size,
    ).toBeGreaterThan(1);
  }, 60_000);

  test("a revoked key is refused by every worker at once", async () => {
    const made = await (async () => {
      const db = openAccountDb(dataDir);
      try {
        return await createUserWithKey(db, "pro", "to revoke");
      } finally {
        db.close();
      }
    })();
    const first = await spread(server, "/v1/categories", made.key, 30);
    expect(first.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
    await logged(server, made.keyId, 30);
    expect(workersSeen(server, made.keyId)).toBe(WORKERS);
    const cli = Bun.spawnSync([...ARTMARKET, "keys", "revoke", made.kid, "--data", dataDir]);
    expect(cli.exitCode).toBe(0);
    const after = await spread(server, "/v1/categories", made.key, 30);
    expect(after.map((r) => r.status)).toEqual(Array(30).fill(401));
  }, 60_000);

  test("every DU a client saw is in the ledger after a SIGKILL of the whole server", async () => {
    const res = await spread(server, "/v1/artists?limit=7", keys.enterprise.key, 90, 15);
    expect(res.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
    const seen = res.reduce((sum, r) => sum + Number(r.headers.get("X-Service-DataUnits")), 0);
    expect(seen).toBeGreaterThan(0);
    server.proc.kill("SIGKILL");
    await server.proc.exited;
    const db = new Database(accountDbPath(dataDir), { readonly: true });
    const ledger = db.query("SELECT sum(du) AS du, count(*) AS n FROM du_ledger WHERE user_id = ? AND route = '/v1/artists'").get(keys.enterprise.userId) as {
      du: number;
      n: number;
    };
    const daily = db.query("SELECT sum(du) AS du FROM du_daily WHERE user_id = ? AND endpoint = 'GET /v1/artists'").get(keys.enterprise.userId) as { du: number };
    db.close();
    expect(ledger.n).toBe(90);
    expect(ledger.du).toBeCloseTo(seen, 6);
    expect(daily.du).toBeCloseTo(seen, 6);
    // the next server on the same data directory starts where this one stopped
    server = await startServer(dataDir, 2);
    const next = await fetch(`${server.url}/v1/categories`, { headers: { Authorization: `Bearer ${keys.sandbox.key}` } });
    expect(next.status).toBe(429);
  }, 60_000);
});

describe("one worker", () => {
  test("commits its ledger rows itself, or through the supervisor while another writer holds the lock: every DU seen is there after a SIGKILL", async () => {
    const local = tempDataDir();
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(local, "market.db"));
    const db = openAccountDb(local);
    new SqliteAccountStore(db).seedPlans();
    const made = await createUserWithKey(db, "enterprise", "one worker");
    db.close();
    const s = await startServer(local, 1);
    try {
      // the lock free: the worker's own commits
      const free = await spread(s, "/v1/artists?limit=5", made.key, 20, 8);
      // another writer holds account.db's write lock: the worker hands its rows to the supervisor,
      // whose commit waits for the lock; the answers wait for it
      const operator = new Database(accountDbPath(local));
      operator.run("BEGIN IMMEDIATE");
      const held = spread(s, "/v1/artists?limit=5", made.key, 20, 8);
      await Bun.sleep(500);
      operator.run("COMMIT");
      operator.close();
      const res = [...free, ...(await held)];
      expect(res.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
      const seen = res.reduce((sum, r) => sum + Number(r.headers.get("X-Service-DataUnits")), 0);
      s.proc.kill("SIGKILL");
      await s.proc.exited;
      const after = new Database(accountDbPath(local), { readonly: true });
      const ledger = after.query("SELECT sum(du) AS du, count(*) AS n FROM du_ledger WHERE key_id = ?").get(made.keyId) as { du: number; n: number };
      after.close();
      expect(ledger.n).toBe(40);
      expect(ledger.du).toBeCloseTo(seen, 6);
    } finally {
      s.proc.kill("SIGKILL");
      rmSync(local, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("SIGTERM under load", () => {
  test("every answered call is in the ledger, none fails with a 5xx but the draining 503, exit 0", async () => {
    const local = tempDataDir();
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(local, "market.db"));
    const db = openAccountDb(local);
    new SqliteAccountStore(db).seedPlans();
    db.run("UPDATE plans SET rps_limit = 100000, rpm_limit = 10000000 WHERE slug = 'enterprise'");
    const made = await createUserWithKey(db, "enterprise", "under load");
    db.close();
    const s = await startServer(local);
    try {
      const statuses: number[] = [];
      let seen = 0;
      let refused = 0;
      let stop = false;
      const loops = Array.from({ length: 16 }, async () => {
        while (!stop) {
          try {
            const res = await fetch(`${s.url}/v1/artists?limit=9`, { headers: { Authorization: `Bearer ${made.key}` } });
            await res.arrayBuffer();
            statuses.push(res.status);
            if (res.status === 200) seen += Number(res.headers.get("X-Service-DataUnits"));
          } catch {
            refused++; // a connection the stopping server no longer accepts
            await Bun.sleep(5);
          }
        }
      });
      await Bun.sleep(700);
      s.proc.kill("SIGTERM");
      expect(await s.proc.exited).toBe(0);
      stop = true;
      await Promise.all(loops);
      expect(statuses.filter((x) => x === 200).length).toBeGreaterThan(20);
      expect([...new Set(statuses.filter((x) => x !== 200 && x !== 503))]).toEqual([]);
      expect(refused).toBeGreaterThan(0);
      const after = new Database(accountDbPath(local), { readonly: true });
      const ledger = after.query("SELECT sum(du) AS du, count(*) AS n FROM du_ledger WHERE key_id = ?").get(made.keyId) as { du: number; n: number };
      after.close();
      expect(ledger.n).toBe(statuses.filter((x) => x === 200).length);
      expect(ledger.du).toBeCloseTo(seen, 6);
    } finally {
      s.proc.kill("SIGKILL");
      rmSync(local, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("rate limits across workers", () => {
  test("an account's requests per second are counted across workers, not per worker", async () => {
    const local = tempDataDir();
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(local, "market.db"));
    const db = openAccountDb(local);
    new SqliteAccountStore(db).seedPlans();
    db.run("UPDATE plans SET rps_limit = 5, rpm_limit = 1000 WHERE slug = 'pro'");
    const pro = await createUserWithKey(db, "pro", "limited");
    db.close();
    const s = await startServer(local);
    try {
      // warm: the key verified (one argon2 run), so the burst below is not spread over its time
      await fetch(`${s.url}/v1/categories`, { headers: { Authorization: `Bearer ${pro.key}` } });
      await Bun.sleep(1000 - (Date.now() % 1000));
      const res = await spread(s, "/v1/categories", pro.key, 30, 15);
      const served = res.filter((r) => r.status === 200).length;
      // 5 per second for the account: a burst within about a second gets at most 10 (two windows), never 5 per worker
      expect(served).toBeGreaterThanOrEqual(5);
      expect(served).toBeLessThanOrEqual(10);
      expect(res.filter((r) => r.status === 429).length).toBe(30 - served);
      expect(
        new Set(
          s
            .log()
            .filter((l) => l.key_id === pro.keyId)
            .map((l) => l.worker),
        ).size,
      ).toBeGreaterThan(1);
    } finally {
      s.proc.kill("SIGKILL");
      rmSync(local, { recursive: true, force: true });
    }
  }, 60_000);
});

/** The numeric samples of /metrics by their full name with labels. */
async function metrics(): Promise<Map<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}
