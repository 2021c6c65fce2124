/**
 * backup and restore with the PostgreSQL account store (`--account-store postgres://…`), one backup
 * format for both stores: a single node's SQLite backup restored into PostgreSQL (the move to
 * several nodes) holds every row, its keys verify on a node of the shared store, its originals and
 * signing secret come along, and the identities go on after the largest id; a backup of PostgreSQL
 * taken while a node writes its ledger is one consistent snapshot that restores into a new SQLite
 * data directory (and into another PostgreSQL database, row for row); a corrupted backup changes
 * nothing in PostgreSQL; a restore under a running node moves the account epoch, so the node
 * forgets keys the backup does not have.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ACCOUNT_TABLES } from "../../src/ops/account-copy";
import { SyncPg } from "../../src/db/pg/sync-client";
import { loadSharp } from "../../src/platform/native";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { database } from "../helpers/postgres";
import { startServer } from "../helpers/server";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

type Json = Record<string, any>;
type Row = Record<string, unknown>;

function cli(...args: string[]) {
  const proc = Bun.spawnSync([...ARTMARKET, ...args], { timeout: 60_000 });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

interface Node {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
}

/** `serve` on `dataDir`; with `store`, on that PostgreSQL account store (its users exist: no key printed). */
async function startNode(dataDir: string, store: string): Promise<Node> {
  const proc = Bun.spawn([...ARTMARKET, "serve", "--data", dataDir, "--port", "0", "--account-store", store, "--log-format", "off"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`node exited: ${await new Response(proc.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  return { proc, url: text.split("\n")[0]!.replace("listening on ", "") };
}

async function stop(node: { proc: ReturnType<typeof Bun.spawn> }) {
  node.proc.kill("SIGTERM");
  expect(await node.proc.exited).toBe(0);
}

const get = (url: string, key: string) => fetch(url, { headers: { Authorization: `Bearer ${key}` } });

/** A row as text that compares equal across the two stores (bytes as hex, columns sorted). */
const canonical = (row: Row) =>
  JSON.stringify(
    Object.keys(row)
      .sort()
      .map((k) => [k, row[k] instanceof Uint8Array ? `x${Buffer.from(row[k] as Uint8Array).toString("hex")}` : row[k]]),
  );
const canonicalRows = (rows: Row[]) => rows.map(canonical).sort();

function sqliteTable(path: string, table: string): Row[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.query(`SELECT * FROM "${table}"`).all() as Row[];
  } finally {
    db.close();
  }
}

function ledgerOf(rows: { ledger: Row[]; daily: Row[] }) {
  const sum = (rs: Row[], col: string) => rs.reduce((n, r) => n + (r[col] as number), 0);
  return { ledger: { n: rows.ledger.length, du: sum(rows.ledger, "du") }, daily: { n: sum(rows.daily, "requests"), du: sum(rows.daily, "du") } };
}

const sqliteDir = tempDataDir("artmarket-bpg-sqlite-");
const nodeDir = tempDataDir("artmarket-bpg-node-");
const restoredDir = join(tempDataDir("artmarket-bpg-restored-"), "data");
const scratch = tempDataDir("artmarket-bpg-scratch-");
const fromSqlite = join(scratch, "from-sqlite");
const fromPg = join(scratch, "from-pg");
let pgA = "";
let pgB = "";
let pgA_conn: SyncPg;
let enterpriseKey = "";
let proKey = "";
let revokedKey = "";
let imageUrl = "";
let imageKey = "";
let node: Node | null = null;

afterAll(async () => {
  node?.proc.kill("SIGKILL");
  pgA_conn?.close();
  for (const dir of [sqliteDir, nodeDir, join(restoredDir, ".."), scratch]) rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  const market = join(await tinyMarketDir(), "market.db");
  for (const dir of [sqliteDir, nodeDir]) copyFileSync(market, join(dir, "market.db"));
  // a single node on account.db: users and keys, metered requests, a collectable with an upload
  const server = await startServer(sqliteDir, true);
  try {
    enterpriseKey = server.key;
    const created = cli("keys", "create", "--plan", "pro", "--name", "moving desk", "--data", sqliteDir);
    expect(created.code).toBe(0);
    proKey = created.out.trim().split("\n").at(-1)!;
    const third = cli("keys", "create", "--plan", "pro", "--name", "gone", "--data", sqliteDir);
    // each step's exit and stderr (a run on CI once ended here with exit 2 and nothing more said)
    expect({ code: third.code, err: third.err }).toEqual({ code: 0, err: "" });
    revokedKey = third.out.trim().split("\n").at(-1)!;
    const revoked = cli("keys", "revoke", revokedKey.slice(3, 19), "--data", sqliteDir);
    expect({ code: revoked.code, err: revoked.err }).toEqual({ code: 0, err: "" });
    for (let i = 0; i < 6; i++) expect((await get(`${server.url}/v1/categories`, enterpriseKey)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await get(`${server.url}/v1/artists?limit=3`, proKey)).status).toBe(200);
    const png = await loadSharp(sqliteDir)({ create: { width: 80, height: 50, channels: 3, background: { r: 200, g: 40, b: 90 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    for (const [k, v] of Object.entries({ artist_id: "2", category_id: "1", edition_unique_type: "unique", title: "Moved" })) form.set(k, v);
    form.set("image", new File([new Uint8Array(png)], "work.png", { type: "image/png" }));
    const res = await fetch(`${server.url}/v1/collectables`, { method: "POST", body: form, headers: { Authorization: `Bearer ${proKey}` } });
    const collectable = (await res.json()) as Json;
    expect(res.status).toBe(200);
    imageUrl = collectable.image_url;
    imageKey = new URL(imageUrl).pathname.split("/")[2]!;
  } finally {
    await stop(server);
  }
  // a row in every other table, and ids far past the rows' count (the sequences must follow them)
  const db = new Database(join(sqliteDir, "account.db"));
  try {
    const now = Date.now();
    const pro = db.query("SELECT user_id FROM api_keys WHERE kid = ?").get(proKey.slice(3, 19)) as { user_id: number };
    const c = db.query("SELECT id FROM collectables").get() as { id: number };
    db.run("INSERT INTO users (id, name, plan_slug, period_anchor, created_at) VALUES (500, 'far', 'sandbox', '2026-01-01', ?)", [now]);
    db.run("INSERT INTO api_keys (id, kid, user_id, name, hash, created_at) VALUES (900, 'k900', 500, 'far key', 'not-a-hash', ?)", [now]);
    db.run(
      "INSERT INTO du_ledger (id, user_id, key_id, ts, day, method, route, status, records, du) VALUES (5000000, ?, 900, ?, '2020-03-01', 'GET', '/v1/categories', 200, 0, 7.25)",
      [pro.user_id, Date.parse("2020-03-01T12:00:00Z")],
    );
    db.run("INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, '2020-03-01', 'GET /v1/categories', 7.25, 1)", [pro.user_id]);
    db.run(
      "INSERT INTO notices (user_id, plan_slug, pool, threshold, period_start, period_end, du_limit, du_consumed, projected_eop, created_at) VALUES (?, 'pro', 'main', 80, '2026-01-01', '2026-01-30', 1000, 812.5, 1500.75, ?)",
      [pro.user_id, now],
    );
    db.run("INSERT INTO account_meta (key, value) VALUES ('moved_from', 'sqlite')");
    db.run("UPDATE users SET email = 'far@example.com', role = 'admin', password_hash = 'not-a-hash' WHERE id = 500");
    db.run("INSERT INTO sessions (id, user_id, csrf, created_at, last_seen_at, expires_at, address, method) VALUES ('s-moved', 500, 'c', ?, ?, ?, '127.0.0.1', 'password')", [
      now,
      now,
      now + 3_600_000,
    ]);
    db.run("INSERT INTO password_tokens (id, user_id, created_at, expires_at) VALUES ('t-moved', 500, ?, ?)", [now, now + 3_600_000]);
    db.run(
      "INSERT INTO webhooks (id, user_id, url, event_types, secret, status, failures_in_row, created_at, updated_at) VALUES (40, 500, 'https://hooks.example.com/a', '[\"lot.sold\"]', 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0', 'enabled', 0, ?, ?)",
      [now, now],
    );
    db.run(
      "INSERT INTO notifications (user_id, event_id, type, occurred_at, snapshot_id, subject_kind, subject_id, data, created_at) VALUES (500, 'evt_moved', 'lot.sold', ?, 's1', 'lot', 3, '{}', ?)",
      [now, now],
    );
    db.run(
      "INSERT INTO webhook_deliveries (id, webhook_id, user_id, event_id, event_type, payload, status, attempts, next_attempt_at, claimed_until, created_at) VALUES (80, 40, 500, 'evt_moved', 'lot.sold', '{}', 'pending', 1, ?, 0, ?)",
      [now, now],
    );
    db.run(
      "INSERT INTO audit_log (id, ts, actor_user_id, actor_key_id, via, action, target_kind, target_id, address, detail) VALUES (7000, ?, 500, NULL, 'session', 'session.signed_in', 'user', 500, '127.0.0.1', '{}')",
      [now],
    );
    db.run("INSERT INTO follows (user_id, kind, target_id, created_at) VALUES (?, 'artist', 2, ?), (?, 'artwork', 3, ?)", [pro.user_id, now, pro.user_id, now + 1]);
    db.run("INSERT INTO shares (token, user_id, kind, ids, title, created_at, expires_at) VALUES ('shr_moved', ?, 'artwork', '[1,2]', 'Moved list', ?, ?)", [
      pro.user_id,
      now,
      now + 86_400_000,
    ]);
    db.run(
      "INSERT INTO collectable_appraisals (collectable_id, type, value, currency, value_usd, date, company_name, is_best_guess, created_at) VALUES (?, 'insurance', 1200, 'EUR', 1300.5, '2025-05-01', 'Appraisers Ltd', 1, ?)",
      [c.id, now],
    );
    db.run(
      "INSERT INTO collectable_provenance (collectable_id, owner, location, year_from, year_to, is_up_to_present, created_at) VALUES (?, 'A. Owner', 'Paris', 1990, NULL, 1, ?)",
      [c.id, now],
    );
    db.run(
      "INSERT INTO collectable_sales (collectable_id, value, currency, value_usd, date, location, type, auction_house_id, seller_name, created_at) VALUES (?, 900, 'USD', 900, '2024-02-02', 'Berlin', 'private', NULL, 'B. Seller', ?)",
      [c.id, now],
    );
    db.run("INSERT INTO collectable_comp_sets (collectable_id, updated_at) VALUES (?, ?)", [c.id, now]);
    db.run("INSERT INTO collectable_comps (collectable_id, position, artist_id, artwork_id, weight) VALUES (?, 0, 2, 5, 0.5), (?, 1, 2, 6, 1)", [c.id, c.id]);
    if (!db.query("SELECT 1 FROM collectable_acquisitions").get())
      db.run("INSERT INTO collectable_acquisitions (collectable_id, date, price, currency, use_instead_of_estimates, updated_at) VALUES (?, '2020-01-01', 10, 'USD', 1, ?)", [
        c.id,
        now,
      ]);
  } finally {
    db.close();
  }
  const b = cli("backup", "--to", fromSqlite, "--data", sqliteDir);
  expect({ code: b.code, err: b.err }).toEqual({ code: 0, err: "" });
  pgA = await database("bpg");
  pgB = await database("bpg");
}, 120_000);

describe("a single node's SQLite backup restored into PostgreSQL (the move to several nodes)", () => {
  test("every row of every table, the original and the secret are in PostgreSQL; the epoch moved", () => {
    const manifest = JSON.parse(readFileSync(join(fromSqlite, "manifest.json"), "utf8")) as Json;
    expect(manifest).toMatchObject({ account_store: "sqlite", source: sqliteDir });
    const r = cli("restore", "--from", fromSqlite, "--account-store", pgA, "--data", join(scratch, "staging-only"));
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    expect(r.out).toContain("into PostgreSQL");
    expect(r.out).not.toContain("artmarket-test"); // the password is not printed
    pgA_conn = new SyncPg(pgA);
    const backupDb = join(fromSqlite, "account.db");
    for (const table of ACCOUNT_TABLES) {
      if (table === "account_epoch") continue;
      const mine = sqliteTable(backupDb, table);
      expect({ table, n: mine.length > 0 }).toEqual({ table, n: true }); // the test fills every table
      // account_meta gains the shared secret (the backup's secret file), checked below
      const theirs = pgA_conn.all<Row>(`SELECT * FROM "${table}"`).filter((row) => table !== "account_meta" || row.key !== "image_secret");
      expect({ table, rows: canonicalRows(theirs) }).toEqual({ table, rows: canonicalRows(mine) });
    }
    // the original, the shared secret, a moved epoch; the staging data directory is not left behind
    const original = pgA_conn.get<{ bytes: Uint8Array }>("SELECT bytes FROM collectable_images WHERE image_key = ?", imageKey);
    expect(Buffer.from(original!.bytes)).toEqual(readFileSync(join(fromSqlite, "images/collectables", imageKey)));
    expect(pgA_conn.get<{ value: string }>("SELECT value FROM account_meta WHERE key = 'image_secret'")!.value).toBe(readFileSync(join(sqliteDir, "secret"), "utf8").trim());
    expect(pgA_conn.get<{ n: number }>("SELECT n FROM account_epoch")!.n).toBeGreaterThan(0);
    expect(() => readFileSync(join(scratch, "staging-only", "serve.lock"))).toThrow();
  }, 60_000);

  test("a node on PostgreSQL accepts the node's keys, refuses the revoked one, serves the image under the old signed URL; new rows get new ids", async () => {
    node = await startNode(nodeDir, pgA);
    expect((await get(`${node.url}/v1/categories`, enterpriseKey)).status).toBe(200);
    expect((await get(`${node.url}/v1/artists?limit=2`, proKey)).status).toBe(200);
    expect((await get(`${node.url}/v1/categories`, revokedKey)).status).toBe(401);
    // signed by the SQLite node, validated with the restored shared secret; the original comes from PostgreSQL
    const old = new URL(imageUrl);
    const img = await fetch(`${node.url}${old.pathname}${old.search}`);
    expect(img.status).toBe(200);
    expect(img.headers.get("Content-Type")).toBe("image/jpeg");
    // identities past the largest restored id (users 500, keys 900, ledger 5,000,000)
    const created = cli("keys", "create", "--plan", "pro", "--name", "after the move", "--account-store", pgA, "--data", nodeDir);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/created user 501, key id 901 /);
    const fresh = created.out.trim().split("\n").at(-1)!;
    expect((await get(`${node.url}/v1/categories`, fresh)).status).toBe(200);
    const ledger = pgA_conn.all<{ id: number }>("SELECT id FROM du_ledger WHERE id > 5000000");
    expect(ledger.length).toBeGreaterThan(0);
    expect(Math.min(...ledger.map((r) => r.id))).toBe(5000001);
  }, 60_000);
});

describe("a backup of PostgreSQL while a node writes", () => {
  let manifest: Json;

  test("is one consistent snapshot, with the shared secret and the originals from PostgreSQL", async () => {
    // the load's pro calls must not leave the pro key rate-limited for the tests after it (an
    // operator's edit, made before the backup so that both sides of every comparison have it)
    pgA_conn.run("UPDATE plans SET rps_limit = 100000, rpm_limit = 10000000 WHERE slug = 'pro'");
    await Bun.sleep(600); // the plan edit reaches the node's workers (epoch)
    const before = pgA_conn.get<{ n: number }>("SELECT count(*)::int AS n FROM du_ledger")!.n;
    let running = true;
    let answeredDuring = 0;
    let backupRunning = false;
    const load = Array.from({ length: 3 }, async (_, c) => {
      for (let i = 0; running; i++) {
        const r = await get(`${node!.url}${i % 2 ? "/v1/categories" : "/v1/artists?limit=2"}`, c % 2 ? proKey : enterpriseKey);
        await r.arrayBuffer();
        if (backupRunning && r.headers.has("X-Service-DataUnits")) answeredDuring++;
        await Bun.sleep(2);
      }
    });
    await Bun.sleep(150);
    backupRunning = true;
    const proc = Bun.spawn([...ARTMARKET, "backup", "--to", fromPg, "--account-store", pgA, "--data", nodeDir], { stdout: "pipe", stderr: "pipe" });
    const code = await proc.exited;
    backupRunning = false;
    await Bun.sleep(150);
    running = false;
    await Promise.all(load);
    expect({ code, err: await new Response(proc.stderr).text() }).toEqual({ code: 0, err: "" });
    expect(await new Response(proc.stdout).text()).toContain("backed up");
    expect(answeredDuring).toBeGreaterThan(0); // the node wrote its ledger while the backup ran

    manifest = JSON.parse(readFileSync(join(fromPg, "manifest.json"), "utf8")) as Json;
    expect(manifest).toMatchObject({ format: "artmarket-backup", version: 1, account_store: "postgres", with_market: false, missing: [] });
    expect(manifest.source).toStartWith("postgres://");
    expect(manifest.source).not.toContain("artmarket-test");
    expect(manifest.files.map((f: Json) => f.path)).toEqual(["account.db", `images/collectables/${imageKey}`, "secret"]);
    for (const f of manifest.files) {
      const bytes = readFileSync(join(fromPg, f.path));
      expect({ path: f.path, size: bytes.length, sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex") }).toEqual({ path: f.path, size: f.size, sha256: f.sha256 });
    }
    expect(readFileSync(join(fromPg, "secret"), "utf8")).toBe(pgA_conn.get<{ value: string }>("SELECT value FROM account_meta WHERE key = 'image_secret'")!.value);
    expect(readFileSync(join(fromPg, "images/collectables", imageKey))).toEqual(readFileSync(join(fromSqlite, "images/collectables", imageKey)));
    // one snapshot: the roll-up adds up to the ledger, which holds at least the rows before the backup
    const db = join(fromPg, "account.db");
    const sums = ledgerOf({ ledger: sqliteTable(db, "du_ledger"), daily: sqliteTable(db, "du_daily") });
    expect(sums.daily).toEqual(sums.ledger);
    expect(sums.ledger.n).toBe(manifest.account.du_ledger_rows);
    expect(sums.ledger.n).toBeGreaterThanOrEqual(before);
    expect(pgA_conn.get<{ n: number }>("SELECT count(*)::int AS n FROM du_ledger")!.n).toBeGreaterThan(sums.ledger.n);
    // the tables the load does not write are the same as in PostgreSQL
    for (const table of ["plans", "users", "api_keys", "collectables", "collectable_comps", "shares", "follows"])
      expect({ table, rows: canonicalRows(sqliteTable(db, table)) }).toEqual({ table, rows: canonicalRows(pgA_conn.all<Row>(`SELECT * FROM "${table}"`)) });
    // a file of this build's schema, in one file (no WAL)
    const check = new Database(db, { readonly: true });
    expect((check.query("PRAGMA journal_mode").get() as Json).journal_mode).toBe("delete");
    check.close();
  }, 60_000);

  test("restores into a new SQLite data directory: keys, the collectable and a URL signed with the shared secret work there", async () => {
    mkdirSync(restoredDir, { recursive: true });
    copyFileSync(join(nodeDir, "market.db"), join(restoredDir, "market.db"));
    const r = cli("restore", "--from", fromPg, "--data", restoredDir);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    expect(readFileSync(join(restoredDir, "secret"), "utf8")).toBe(readFileSync(join(fromPg, "secret"), "utf8"));
    // an image URL signed now by the PostgreSQL node
    const listed = await get(`${node!.url}/v1/collectables`, proKey);
    const list = (await listed.json()) as Json;
    expect(listed.status, JSON.stringify(list)).toBe(200);
    const signed = new URL(JSON.stringify(list).match(/https?:\/\/[^"]*\/images\/c[0-9a-f]{24}\/[^"]*/)![0]);
    const s = await startServer(restoredDir, false);
    try {
      expect(s.key).toBe("");
      expect((await get(`${s.url}/v1/categories`, enterpriseKey)).status).toBe(200);
      expect((await get(`${s.url}/v1/categories`, revokedKey)).status).toBe(401);
      const mine = (await (await get(`${s.url}/v1/collectables`, proKey)).json()) as Json;
      expect(JSON.stringify(mine)).toContain("Moved");
      const img = await fetch(`${s.url}${signed.pathname}${signed.search}`);
      expect(img.status).toBe(200);
    } finally {
      await stop(s);
    }
    const restoredLedger = sqliteTable(join(restoredDir, "account.db"), "du_ledger").length;
    expect(restoredLedger).toBeGreaterThanOrEqual(manifest.account.du_ledger_rows); // the server's own requests add rows
  }, 60_000);

  test("restores into another PostgreSQL database row for row (PostgreSQL to PostgreSQL through the one format)", () => {
    const r = cli("restore", "--from", fromPg, "--account-store", pgB, "--data", join(scratch, "staging-b"));
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    const b = new SyncPg(pgB);
    try {
      for (const table of ACCOUNT_TABLES) {
        if (table === "account_epoch") continue;
        expect({ table, rows: canonicalRows(b.all<Row>(`SELECT * FROM "${table}"`)) }).toEqual({ table, rows: canonicalRows(sqliteTable(join(fromPg, "account.db"), table)) });
      }
      expect(b.get<{ n: number }>("SELECT count(*)::int AS n FROM collectable_images")!.n).toBe(1);
    } finally {
      b.close();
    }
  }, 60_000);
});

describe("restore into PostgreSQL: refusals and running nodes", () => {
  test("a corrupted backup is refused and PostgreSQL is unchanged", () => {
    const bad = join(scratch, "corrupt");
    cpSync(fromPg, bad, { recursive: true });
    const bytes = readFileSync(join(bad, "account.db"));
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    writeFileSync(join(bad, "account.db"), bytes);
    const state = () =>
      pgA_conn.get<Json>("SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM api_keys) AS keys, (SELECT n FROM account_epoch) AS epoch");
    const before = state();
    const r = cli("restore", "--from", bad, "--account-store", pgA, "--data", join(scratch, "staging-c"));
    expect(r.code).toBe(1);
    expect(r.err).toContain("account.db: its SHA-256 differs");
    expect(r.err).toContain("nothing was restored");
    expect(state()).toEqual(before);
  });

  test("a backup whose manifest lost its secret entry is refused and PostgreSQL is unchanged", () => {
    const bad = join(scratch, "no-secret");
    cpSync(fromPg, bad, { recursive: true });
    const m = JSON.parse(readFileSync(join(bad, "manifest.json"), "utf8")) as Json;
    m.files = (m.files as Json[]).filter((f) => f.path !== "secret");
    writeFileSync(join(bad, "manifest.json"), JSON.stringify(m));
    const state = () =>
      pgA_conn.get<Json>(
        "SELECT (SELECT count(*)::int FROM users) AS users, (SELECT n FROM account_epoch) AS epoch, (SELECT value FROM account_meta WHERE key = 'image_secret') AS secret",
      );
    const before = state();
    const r = cli("restore", "--from", bad, "--account-store", pgA, "--data", join(scratch, "staging-s"));
    expect(r.code).toBe(1);
    expect(r.err).toContain("has no entry for secret");
    expect(r.err).toContain("nothing was restored");
    expect(state()).toEqual(before);
  });

  test("a backup of a database that holds no account store is refused (exit 2), and writes nothing", async () => {
    const empty = await database("bpg_empty");
    const target = join(scratch, "from-empty");
    const r = cli("backup", "--to", target, "--account-store", empty, "--data", nodeDir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no artmarket account store");
    expect(() => readFileSync(join(target, "manifest.json"))).toThrow();
  });

  test("under a running node the epoch moves: a key made after the backup stops working within a second or two", async () => {
    const created = cli("keys", "create", "--plan", "pro", "--name", "after the backup", "--account-store", pgA, "--data", nodeDir);
    const late = created.out.trim().split("\n").at(-1)!;
    expect((await get(`${node!.url}/v1/categories`, late)).status).toBe(200);
    const r = cli("restore", "--from", fromPg, "--account-store", pgA, "--data", join(scratch, "staging-d"));
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    let status = 0;
    for (let i = 0; i < 40 && status !== 401; i++) {
      await Bun.sleep(100);
      status = (await get(`${node!.url}/v1/categories`, late)).status;
    }
    expect(status).toBe(401);
    expect((await get(`${node!.url}/v1/categories`, proKey)).status).toBe(200);
    await stop(node!);
    node = null;
  }, 60_000);
});
