/**
 * The command line (the tests' build of it, tests/helpers/cli.ts): keys create/list/revoke, seed
 * arguments, errors without stack traces; and `serve` started from source, as `npm start` runs it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { artmarketCommand, cliFromSource } from "../helpers/cli";
import { startServer } from "../helpers/server";

const ARTMARKET = await artmarketCommand();

const dataDir = tempDataDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const proc = Bun.spawnSync([...ARTMARKET, ...args], { cwd: dataDir, env: { ...process.env, ARTMARKET_DATA: dataDir } });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

describe("artmarket keys", () => {
  let kid = "";
  test("create prints the key alone on the last line, and stores only its hash", () => {
    const r = cli("keys", "create", "--plan", "pro", "--name", "Acme research");
    expect(r.code).toBe(0);
    const key = r.out.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^am_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    kid = key.slice(3, 19);
    const { Database } = require("bun:sqlite");
    const db = new Database(join(dataDir, "account.db"), { readonly: true });
    const row = db.query("SELECT hash FROM api_keys WHERE kid = ?").get(kid) as { hash: string };
    const dump = JSON.stringify(db.query("SELECT * FROM api_keys").all());
    db.close();
    expect(row.hash).toStartWith("$argon2id$");
    expect(dump).not.toContain(key.slice(20));
  });

  test("list shows the key with its plan, as text and as JSON", () => {
    const text = cli("keys", "list");
    expect(text.code).toBe(0);
    expect(text.out).toContain(kid);
    const rows = JSON.parse(cli("keys", "list", "--json").out) as { kid: string; plan: string; name: string; revoked_at: null }[];
    expect(rows).toEqual([expect.objectContaining({ kid, plan: "pro", name: "Acme research", revoked_at: null })]);
  });

  test("revoke by kid, then again is a clear error", () => {
    expect(cli("keys", "revoke", kid).code).toBe(0);
    const again = cli("keys", "revoke", kid);
    expect(again.code).toBe(2);
    expect(again.err).toContain("no active key");
    expect(again.err).not.toContain("    at ");
    const rows = JSON.parse(cli("keys", "list", "--json").out) as { revoked_at: string | null }[];
    expect(rows[0]!.revoked_at).not.toBeNull();
  });

  test("an unknown plan is refused with the plans listed", () => {
    const r = cli("keys", "create", "--plan", "gold");
    expect(r.code).toBe(2);
    expect(r.err).toContain("sandbox, pro, enterprise");
  });
});

describe("argument errors", () => {
  for (const [args, says] of [
    [["seed"], "--scale"],
    [["seed", "--scale", "huge"], "tiny, small, medium, large, full"],
    [["seed", "--scale", "tiny", "--seed", "x"], "--seed"],
    [["serve", "--port", "99999"], "--port"],
    [["serve", "--public-url", "ftp://x"], "--public-url"],
    // the set-password link's base is checked as serve checks it, before the user is made
    [["users", "create", "--email", "refused@example.com", "--plan", "pro", "--public-url", "ftp://x"], "--public-url must be an http(s) URL"],
    [["frobnicate"], "unknown command"],
  ] as const) {
    test(`${args.join(" ")} → exit 2, "${says}"`, () => {
      const r = cli(...args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(says);
      expect(r.err).not.toContain("    at ");
      if (args[0] === "users") expect(cli("users", "list").out).not.toContain("refused@example.com");
    });
  }
});

describe("help, version and strict options", () => {
  test("--version and version print `artmarket <semver> (<build>)`", () => {
    for (const args of [["--version"], ["version"], ["--data", dataDir, "--version"]]) {
      const r = cli(...args);
      expect(r.code).toBe(0);
      expect(r.out.trim()).toMatch(/^artmarket \d+\.\d+\.\d+ \(\S+\)$/);
    }
  });

  test("--help and -h print help and exit 0 without running anything", () => {
    const empty = tempDataDir("artmarket-help-");
    try {
      for (const args of [
        ["--help"],
        ["-h"],
        ["help"],
        ["serve", "--help"],
        ["serve", "-h", "--port", "0"],
        ["keys", "create", "--plan", "pro", "--help"],
        ["seed", "--scale", "tiny", "--help"],
        ["doctor", "--help"],
        ["notices", "--help"],
        ["keys", "list", "-h"],
        ["help", "import"],
      ]) {
        const proc = Bun.spawnSync([...ARTMARKET, ...args, "--data", join(empty, "d")], { timeout: 20_000 });
        expect({ args, code: proc.exitCode }).toEqual({ args, code: 0 });
        expect(proc.stdout.toString()).toContain("Usage:");
      }
      // nothing was created: no data directory, no key, no market
      expect(existsSync(join(empty, "d"))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test("a command's help lists its options with defaults and environment variables", () => {
    const r = cli("serve", "--help");
    for (const s of ["--port N", "default 8080", "env ARTMARKET_PORT", "--trust-proxy", "--fetch-allow", "--shutdown-timeout", "Examples:"]) expect(r.out).toContain(s);
  });

  for (const [args, says] of [
    [["serve", "--prot", "9001"], "unknown option --prot"],
    [["serve", "-p", "9003"], "unknown option -p"],
    [["serve", "--port"], "option --port needs a value"],
    [["seed", "--scale", "--seed", "3"], "option --scale needs a value"],
    [["keys", "list", "--plan-x"], "unknown option --plan-x"],
    [["--bogus"], "unknown option --bogus"],
    [["help", "frobnicate"], "unknown command"],
  ] as const) {
    test(`${args.join(" ")} → exit 2 with one line naming it`, () => {
      const r = cli(...args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(says);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.out).toBe("");
    });
  }
});

test("doctor without --data, where ./data does not exist, checks the native parts and creates nothing", () => {
  const parent = tempDataDir("artmarket-doctor-test-");
  try {
    const missing = join(parent, "data");
    const env = { ...process.env };
    delete env.ARTMARKET_DATA;
    const proc = Bun.spawnSync([...ARTMARKET, "doctor"], { cwd: parent, env, timeout: 60_000 });
    expect(proc.exitCode).toBe(0);
    expect(proc.stdout.toString()).toContain("sqlite-vec");
    expect(existsSync(missing)).toBe(false);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test("from source (`bun src/cli.ts`): serve's worker thread answers; doctor loads the native parts from node_modules", async () => {
  const dir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dir, "market.db"));
  const server = await startServer(dir, true, cliFromSource);
  try {
    const list = await fetch(`${server.url}/v1/artworks?limit=2`, { headers: { Authorization: `Bearer ${server.key}` } });
    expect(list.status).toBe(200);
    expect(Number(list.headers.get("x-service-dataunits"))).toBe(2 + 1.5 * 2);
    expect(((await list.json()) as { items: unknown[] }).items.length).toBe(2);
  } finally {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
  }
  try {
    const doctor = Bun.spawnSync([...cliFromSource, "doctor", "--data", dir], { timeout: 60_000 });
    expect({ code: doctor.exitCode, err: doctor.stderr.toString() }).toEqual({ code: 0, err: "" });
    expect(doctor.stdout.toString()).toMatch(/^ok +build: dev \(from source\)$/m);
    expect(doctor.stdout.toString()).toMatch(/^ok +sqlite-vec: .*KNN ok$/m);
    // from source nothing is extracted under the data directory (the binary writes lib/<build>/)
    expect(existsSync(join(dir, "lib"))).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("backup, restore and keys usage: arguments", () => {
  for (const [args, says] of [
    [["backup"], "backup needs --to DIR"],
    [["backup", "--to"], "option --to needs a value"],
    [["restore"], "restore needs --from DIR"],
    [["restore", "--from", "x", "--with-market"], "unknown option --with-market"],
    [["keys", "usage", "--since", "2026-02-30"], "--since must be a date"],
    [["keys", "frobnicate"], "create, list, revoke, usage"],
  ] as const) {
    test(`${args.join(" ")} → exit 2, "${says}"`, () => {
      const r = cli(...args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(says);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    });
  }

  test("restore from a directory that is no backup: exit 1, the data directory untouched", () => {
    const from = tempDataDir("artmarket-not-a-backup-");
    const target = join(from, "data");
    try {
      const r = cli("restore", "--from", from, "--data", target);
      expect(r.code).toBe(1);
      expect(r.err).toContain("has no manifest.json");
      expect(existsSync(target)).toBe(false);
    } finally {
      rmSync(from, { recursive: true, force: true });
    }
  });

  test("backup and restore are in the general help", () => {
    const r = cli("--help");
    expect(r.out).toMatch(/^ {2}backup\s+copy the account store/m);
    expect(r.out).toMatch(/^ {2}restore\s+put a backup back/m);
  });
});
