/**
 * backup, restore and keys usage against a real server: a backup taken while `serve` answers
 * metered requests (the ledger written meanwhile), restored into a fresh data directory where a new
 * server accepts the same key, serves the same collectable and image (the same signing secret),
 * with a ledger that is consistent and holds every row of the backup; the refusals (a held data
 * directory, a non-empty target, a corrupted file); `keys usage` against the DU headers seen.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSharp } from "../../src/platform/native";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { startServer } from "../helpers/server";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

type Json = Record<string, any>;

function cli(...args: string[]) {
  const proc = Bun.spawnSync([...ARTMARKET, ...args], { timeout: 30_000 });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

async function stop(server: { proc: ReturnType<typeof Bun.spawn> }) {
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
}

/** What the client saw per kid: responses that carried X-Service-DataUnits, and their sum. */
const seen = new Map<string, { requests: number; du: number }>();
const kidOf = (key: string) => key.slice(3, 19);

async function metered(url: string, key: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${key}` } });
  const du = res.headers.get("X-Service-DataUnits");
  if (du !== null) {
    const s = seen.get(kidOf(key)) ?? { requests: 0, du: 0 };
    s.requests++;
    s.du += Number(du);
    seen.set(kidOf(key), s);
  }
  return res;
}

function ledgerOf(dataDir: string) {
  const db = new Database(join(dataDir, "account.db"), { readonly: true });
  try {
    const ledger = db.query("SELECT count(*) AS n, coalesce(sum(du), 0) AS du FROM du_ledger").get() as { n: number; du: number };
    const daily = db.query("SELECT coalesce(sum(requests), 0) AS n, coalesce(sum(du), 0) AS du FROM du_daily").get() as { n: number; du: number };
    const perUser = db
      .query(
        `SELECT l.user_id, l.n, l.du, d.n AS dn, d.du AS ddu FROM (SELECT user_id, count(*) AS n, sum(du) AS du FROM du_ledger GROUP BY user_id) l
         LEFT JOIN (SELECT user_id, sum(requests) AS n, sum(du) AS du FROM du_daily GROUP BY user_id) d ON d.user_id = l.user_id`,
      )
      .all() as { user_id: number; n: number; du: number; dn: number; ddu: number }[];
    return { ledger, daily, perUser };
  } finally {
    db.close();
  }
}

const dataDir = tempDataDir("artmarket-backup-live-");
const backupDir = join(tempDataDir("artmarket-backup-to-"), "b1");
const restoredDir = join(tempDataDir("artmarket-backup-restored-"), "data");
const scratch = tempDataDir("artmarket-backup-scratch-");
let server: Awaited<ReturnType<typeof startServer>>;
let proKey = "";
let collectable: Json;
let answeredBeforeBackup = 0;
let manifest: Json;

afterAll(() => {
  server?.proc.kill("SIGKILL");
  for (const dir of [dataDir, join(backupDir, ".."), join(restoredDir, ".."), scratch]) rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  server = await startServer(dataDir, true);
  // a second user on another plan, created while the server runs
  const created = cli("keys", "create", "--plan", "pro", "--name", "backup tester", "--data", dataDir);
  expect(created.code).toBe(0);
  proKey = created.out.trim().split("\n").at(-1)!;
}, 30_000);

describe("backup while serve answers metered requests", () => {
  test("the backup holds every request answered before it began, and a collectable with its image", async () => {
    for (let i = 0; i < 10; i++) expect((await metered(`${server.url}/v1/categories`, server.key)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await metered(`${server.url}/v1/artists?limit=3`, proKey)).status).toBe(200);
    const sharp = loadSharp(dataDir);
    const png = await sharp({ create: { width: 90, height: 60, channels: 3, background: { r: 30, g: 140, b: 200 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    for (const [k, v] of Object.entries({ artist_id: "2", category_id: "1", edition_unique_type: "unique", title: "Backed up" })) form.set(k, v);
    form.set("image", new File([new Uint8Array(png)], "work.png", { type: "image/png" }));
    const res = await metered(`${server.url}/v1/collectables`, proKey, { method: "POST", body: form });
    collectable = (await res.json()) as Json;
    expect(res.status).toBe(200);
    expect(collectable.image_url).toContain("/images/c");
    expect((await fetch(collectable.image_url)).status).toBe(200);
    answeredBeforeBackup = [...seen.values()].reduce((n, s) => n + s.requests, 0);

    // load from four clients, running before, during and after the backup
    let running = true;
    const during = { started: 0, ended: 0, answered: 0 };
    const load = Array.from({ length: 4 }, async (_, c) => {
      const key = c % 2 ? proKey : server.key;
      for (let i = 0; running; i++) {
        const r = await metered(`${server.url}${i % 2 ? "/v1/categories" : "/v1/artists?limit=2"}`, key);
        await r.arrayBuffer();
        const t = performance.now();
        if (during.started && !during.ended && t > during.started && r.headers.has("X-Service-DataUnits")) during.answered++;
        await Bun.sleep(2);
      }
    });
    await Bun.sleep(150);
    during.started = performance.now();
    const proc = Bun.spawn([...ARTMARKET, "backup", "--to", backupDir, "--with-market", "--data", dataDir], { stdout: "pipe", stderr: "pipe" });
    const code = await proc.exited;
    during.ended = performance.now();
    const out = await new Response(proc.stdout).text();
    await Bun.sleep(150);
    running = false;
    await Promise.all(load);
    expect({ code, err: await new Response(proc.stderr).text() }).toEqual({ code: 0, err: "" });
    expect(out).toContain("backed up");
    expect(during.answered).toBeGreaterThan(0); // the server wrote its ledger while the backup ran

    manifest = JSON.parse(readFileSync(join(backupDir, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ format: "artmarket-backup", version: 1, with_market: true, missing: [] });
    expect(Date.parse(manifest.created_at)).toBeGreaterThan(0);
    const paths = manifest.files.map((f: Json) => f.path);
    const imageKey = new URL(collectable.image_url).pathname.split("/")[2]!;
    expect(paths).toEqual(["account.db", `images/collectables/${imageKey}`, "market.db", "secret"]);
    for (const f of manifest.files) {
      const bytes = readFileSync(join(backupDir, f.path));
      expect({ path: f.path, size: bytes.length, sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex") }).toEqual({ path: f.path, size: f.size, sha256: f.sha256 });
    }
    // the snapshot holds at least the requests answered before the backup began, and is consistent
    const inBackup = ledgerOf(backupDir);
    expect(inBackup.ledger.n).toBe(manifest.account.du_ledger_rows);
    expect(inBackup.ledger.n).toBeGreaterThanOrEqual(answeredBeforeBackup);
    expect(inBackup.daily).toEqual(inBackup.ledger);
    for (const u of inBackup.perUser) expect([u.dn, u.ddu]).toEqual([u.n, u.du]);
    expect(manifest.account).toMatchObject({ users: 2, api_keys: 2, collectables: 1 });
    // the live ledger went on past the snapshot
    expect(ledgerOf(dataDir).ledger.n).toBeGreaterThan(inBackup.ledger.n);
  }, 30_000);

  test("keys usage: requests and DU per key equal what the client saw in the headers", () => {
    const r = cli("keys", "usage", "--json", "--data", dataDir);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as Json[];
    expect(rows.map((x) => x.kid).sort()).toEqual([...seen.keys()].sort());
    for (const row of rows) {
      const s = seen.get(row.kid)!;
      expect({ kid: row.kid, requests: row.requests, du: row.du }).toEqual({ kid: row.kid, requests: s.requests, du: s.du });
      expect(row.first_day).toBe(new Date().toISOString().slice(0, 10));
    }
    expect(rows.find((x) => x.kid === kidOf(proKey))).toMatchObject({ plan: "pro", user_name: "backup tester", revoked: false });
    // the text table: one line per key and the total
    const text = cli("keys", "usage", "--data", dataDir);
    expect(text.code).toBe(0);
    const lines = text.out.trim().split("\n");
    expect(lines[0]).toMatch(/^user\s+name\s+plan\s+key\s+kid\s+requests\s+du/);
    const total = [...seen.values()].reduce((n, s) => n + s.requests, 0);
    expect(lines.at(-1)).toMatch(new RegExp(`^total\\s+${total}\\s+`));
    expect(lines).toHaveLength(rows.length + 2);
  });

  test("restore is refused while the server holds the data directory, naming its pid; nothing changes", () => {
    const before = readdirSync(dataDir).sort();
    const r = cli("restore", "--from", backupDir, "--data", dataDir);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`pid ${server.proc.pid}`);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(readdirSync(dataDir).sort()).toEqual(before);
  });

  test("a backup into a directory that is not empty is refused, and writes nothing there", () => {
    const target = join(scratch, "full");
    mkdirSync(target);
    writeFileSync(join(target, "keep.txt"), "mine");
    const r = cli("backup", "--to", target, "--data", dataDir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("not empty");
    expect(readdirSync(target)).toEqual(["keep.txt"]);
  });
});

describe("restore", () => {
  test("a corrupted file is refused by its checksum; the target is not created", () => {
    const bad = join(scratch, "corrupt");
    cpSync(backupDir, bad, { recursive: true });
    const db = readFileSync(join(bad, "account.db"));
    db[db.length - 100] = db[db.length - 100]! ^ 0xff; // same size, another checksum
    writeFileSync(join(bad, "account.db"), db);
    const target = join(scratch, "never");
    const r = cli("restore", "--from", bad, "--data", target);
    expect(r.code).toBe(1);
    expect(r.err).toContain("account.db: its SHA-256 differs");
    expect(r.err).toContain("nothing was restored");
    expect(existsSync(target)).toBe(false);
    // a missing file too
    rmSync(join(bad, "secret"));
    expect(cli("restore", "--from", bad, "--data", target).err).toContain("secret: missing");
  });

  test("a manifest without its secret entry (or, with_market, its market.db) is refused: exit 1, naming it, nothing changed", () => {
    const target = join(scratch, "holds-one");
    mkdirSync(target);
    new Database(join(target, "account.db")).close(); // an empty account store, to be left as it is
    writeFileSync(join(target, "secret"), "the secret before");
    // (serve.lock, the lock a restore takes once the manifest passed, stays, as after any server)
    const contents = () =>
      readdirSync(target)
        .filter((n) => n !== "serve.lock")
        .map((n) => `${n}=${new Bun.CryptoHasher("sha256").update(readFileSync(join(target, n))).digest("hex")}`);
    const before = contents();
    // the secret's entry taken out of the manifest (the file itself left there, or removed too)
    const noSecret = join(scratch, "no-secret");
    cpSync(backupDir, noSecret, { recursive: true });
    const m = JSON.parse(readFileSync(join(noSecret, "manifest.json"), "utf8")) as Json;
    m.files = (m.files as Json[]).filter((f) => f.path !== "secret");
    writeFileSync(join(noSecret, "manifest.json"), JSON.stringify(m));
    for (const removeFile of [false, true]) {
      if (removeFile) rmSync(join(noSecret, "secret"));
      const r = cli("restore", "--from", noSecret, "--data", target);
      expect(r.code).toBe(1);
      expect(r.err).toContain("has no entry for secret");
      expect(r.err).toContain("nothing was restored");
      expect(contents()).toEqual(before);
    }
    // into a new data directory: not even created
    expect(cli("restore", "--from", noSecret, "--data", join(scratch, "never-secret")).code).toBe(1);
    expect(existsSync(join(scratch, "never-secret"))).toBe(false);
    // a backup that says it holds the market (this one does) but names no market.db
    const noMarket = join(scratch, "no-market");
    cpSync(backupDir, noMarket, { recursive: true });
    writeFileSync(join(noMarket, "manifest.json"), JSON.stringify({ ...manifest, files: (manifest.files as Json[]).filter((f) => f.path !== "market.db") }));
    const r = cli("restore", "--from", noMarket, "--data", target);
    expect(r.code).toBe(1);
    expect(r.err).toContain("has no entry for market.db");
    expect(contents()).toEqual(before);
    // a secret entry whose file is not a secret (its hash rewritten to match) is refused too
    const badSecret = join(scratch, "bad-secret");
    cpSync(backupDir, badSecret, { recursive: true });
    writeFileSync(join(badSecret, "secret"), "");
    const files = (manifest.files as Json[]).map((f) => (f.path === "secret" ? { ...f, size: 0, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" } : f));
    writeFileSync(join(badSecret, "manifest.json"), JSON.stringify({ ...manifest, files }));
    const b = cli("restore", "--from", badSecret, "--data", target);
    expect(b.code).toBe(1);
    expect(b.err).toContain("secret of the backup is not a signing secret");
    expect(contents()).toEqual(before);
  });

  test("a data directory no server has started in yet is backed up with a secret, made there too (0600)", () => {
    const fresh = join(scratch, "no-secret-yet");
    mkdirSync(fresh);
    copyFileSync(join(backupDir, "account.db"), join(fresh, "account.db"));
    const to = join(scratch, "no-secret-yet-backup");
    // (the copied account.db names an upload this directory lacks: a warning on stderr, exit 0)
    const r = cli("backup", "--data", fresh, "--to", to);
    expect(r.code).toBe(0);
    const made = readFileSync(join(fresh, "secret"), "utf8");
    expect(made).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(fresh, "secret")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(to, "secret"), "utf8")).toBe(made);
    const m = JSON.parse(readFileSync(join(to, "manifest.json"), "utf8")) as Json;
    expect((m.files as Json[]).map((f) => f.path)).toEqual(["account.db", "secret"]);
  });

  test("into a fresh data directory: the key works, the ledger is whole and consistent, the collectable and its signed image are there", async () => {
    await stop(server);
    const r = cli("restore", "--from", backupDir, "--data", restoredDir);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    expect(r.out).toContain("restored 4 file(s)");
    const restored = ledgerOf(restoredDir);
    expect(restored.ledger.n).toBe(manifest.account.du_ledger_rows);
    expect(restored.ledger.n).toBeGreaterThanOrEqual(answeredBeforeBackup);
    expect(restored.daily).toEqual(restored.ledger);
    expect(readFileSync(join(restoredDir, "secret"))).toEqual(readFileSync(join(dataDir, "secret")));
    expect(readdirSync(restoredDir).filter((n) => n.startsWith("pre-restore-") || n.startsWith(".restore-"))).toEqual([]);

    const s2 = await startServer(restoredDir, false);
    try {
      expect(s2.key).toBe(""); // users restored: no new key printed
      const cats = await fetch(`${s2.url}/v1/categories`, { headers: { Authorization: `Bearer ${server.key}` } });
      expect(cats.status).toBe(200);
      const c = await fetch(`${s2.url}/v1/collectables/${collectable.id}`, { headers: { Authorization: `Bearer ${proKey}` } });
      expect(c.status).toBe(200);
      expect((await c.json()) as Json).toMatchObject({ id: collectable.id, title: "Backed up" });
      // a signed URL made by the first server validates on the restored one, and its original is there
      const old = new URL(collectable.image_url);
      const img = await fetch(`${s2.url}${old.pathname}${old.search}`);
      expect(img.status).toBe(200);
      expect(img.headers.get("Content-Type")).toBe("image/jpeg");
      const tampered = old.search.replace(/sig=(.)/, (_, ch: string) => `sig=${ch === "0" ? "1" : "0"}`);
      expect((await fetch(`${s2.url}${old.pathname}${tampered}`)).status).toBe(403);
    } finally {
      await stop(s2);
    }
  }, 30_000);

  test("a restore killed half-way is undone by the next restore before anything else", () => {
    const dir = join(scratch, "interrupted");
    cpSync(restoredDir, dir, { recursive: true });
    const rows = ledgerOf(dir).ledger.n;
    const secret = readFileSync(join(dir, "secret"));
    // what a restore killed after its first swap leaves: the previous account.db aside, the new one
    // in place, the staging folder, the journal
    mkdirSync(join(dir, "pre-restore-20260101T000000Z"));
    renameSync(join(dir, "account.db"), join(dir, "pre-restore-20260101T000000Z", "account.db"));
    copyFileSync(join(scratch, "corrupt", "account.db"), join(dir, "account.db"));
    mkdirSync(join(dir, ".restore-999999", "images"), { recursive: true });
    writeFileSync(join(dir, ".restore-999999", "secret"), "staged");
    const swaps = ["account.db", "account.db-wal", "account.db-shm", "images/collectables", "secret"].map((rel) => ({
      rel,
      existed: rel === "account.db" || existsSync(join(dir, rel)),
    }));
    writeFileSync(join(dir, "restore-journal.json"), JSON.stringify({ keep: "pre-restore-20260101T000000Z", stage: ".restore-999999", swaps }));
    // the next restore (of a backup that then fails its check) undoes it first
    const r = cli("restore", "--from", join(scratch, "corrupt"), "--data", dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain("an interrupted restore was undone");
    expect(ledgerOf(dir).ledger.n).toBe(rows);
    expect(readFileSync(join(dir, "secret"))).toEqual(secret);
    expect(readdirSync(dir).filter((n) => /^(pre-restore-|\.restore-|restore-journal)/.test(n))).toEqual([]);
  });

  test("over a data directory with an account store: the old one is kept in pre-restore-<time>/, the backup's put in place", () => {
    const liveRows = ledgerOf(dataDir).ledger.n;
    const r = cli("restore", "--from", backupDir, "--data", dataDir);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    const kept = readdirSync(dataDir).filter((n) => n.startsWith("pre-restore-"));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^pre-restore-\d{8}T\d{6}Z$/);
    expect(r.out).toContain(kept[0]!);
    expect(ledgerOf(join(dataDir, kept[0]!)).ledger.n).toBe(liveRows);
    expect(ledgerOf(dataDir).ledger.n).toBe(manifest.account.du_ledger_rows);
    expect(existsSync(join(dataDir, "account.db-wal"))).toBe(false);
  });

  test("over an account.db that is no database (what a restore is for): it is moved aside as it was, the backup's put in place", () => {
    const broken = tempDataDir("artmarket-restore-broken-");
    writeFileSync(join(broken, "account.db"), "not a database\n");
    const r = cli("restore", "--from", backupDir, "--data", broken);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    const kept = readdirSync(broken).filter((n) => n.startsWith("pre-restore-"));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(broken, kept[0]!, "account.db"), "utf8")).toBe("not a database\n");
    expect(ledgerOf(broken).ledger.n).toBe(manifest.account.du_ledger_rows);
  });
});

describe("keys usage --since", () => {
  test("counts the days from --since on; a bad date is exit 2", () => {
    // a request of an earlier day, in the ledger and its roll-ups as the server writes them
    const db = new Database(join(dataDir, "account.db"));
    const key = db.query("SELECT id, user_id FROM api_keys WHERE kid = ?").get(kidOf(proKey)) as { id: number; user_id: number };
    db.run("INSERT INTO du_ledger (user_id, key_id, ts, day, method, route, status, records, du) VALUES (?, ?, ?, '2020-03-01', 'GET', '/v1/categories', 200, 0, 7)", [
      key.user_id,
      key.id,
      Date.parse("2020-03-01T12:00:00Z"),
    ]);
    db.run("INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, '2020-03-01', 'GET /v1/categories', 7, 1)", [key.user_id]);
    db.run("INSERT INTO du_key_daily (user_id, day, key_id, du, requests) VALUES (?, '2020-03-01', ?, 7, 1)", [key.user_id, key.id]);
    db.close();
    const usage = (...args: string[]) => {
      const r = cli("keys", "usage", "--json", "--data", dataDir, ...args);
      expect(r.code).toBe(0);
      return (JSON.parse(r.out) as Json[]).find((x) => x.kid === kidOf(proKey))!;
    };
    const all = usage();
    const recent = usage("--since", "2021-01-01");
    expect(all.first_day).toBe("2020-03-01");
    expect([all.requests - recent.requests, all.du - recent.du]).toEqual([1, 7]);
    expect(usage("--since", "2020-03-01")).toEqual(all);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(usage("--since", tomorrow)).toMatchObject({ requests: 0, du: 0, first_day: null, last_day: null });
    for (const bad of ["2026-02-30", "yesterday", "2026-1-1"]) {
      const r = cli("keys", "usage", "--since", bad, "--data", dataDir);
      expect(r.code).toBe(2);
      expect(r.err).toContain("--since must be a date");
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
  });
});

test("--help of backup, restore and keys usage prints usage and does nothing", () => {
  const empty = join(scratch, "help");
  for (const args of [
    ["backup", "--help", "--to", join(scratch, "help-to")],
    ["restore", "--from", backupDir, "-h"],
    ["keys", "usage", "--help"],
    ["help", "backup"],
  ]) {
    const r = cli(...args, "--data", empty);
    expect({ args, code: r.code }).toEqual({ args, code: 0 });
    expect(r.out).toContain("Usage:");
  }
  expect(existsSync(empty)).toBe(false);
  expect(existsSync(join(scratch, "help-to"))).toBe(false);
  expect(cli("backup", "--help").out).toContain("--with-market");
  expect(cli("keys", "--help").out).toContain("--since YYYY-MM-DD");
});
