/** Market and account data live apart: a new market snapshot replaces the old without touching users. */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { seedPlans } from "../../src/serve/accounts/plans";
import { openAccountDb, openMarketReader } from "../../src/db/connection";
import { seedMarket } from "../../src/pipeline/seed";
import { marketMigrations } from "../../src/db/migrations/embedded";
import { nextTinyMarketDir, TINY_AS_OF, tempDataDir, tinyMarketDir } from "../helpers/app";

let dataDir: string;
beforeAll(() => {
  dataDir = tempDataDir();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const dump = (path: string, sql: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.query(sql).all();
  } finally {
    db.close();
  }
};

test("the same seed builds the same snapshot; another seed a different one", async () => {
  // the same seed as the tests' tiny market (built once per run): the same rows
  const a = dump(join(await tinyMarketDir(), "market.db"), "SELECT * FROM auction_houses ORDER BY id");
  await seedMarket({ dataDir, scale: "tiny", seed: 7, asOf: TINY_AS_OF, quiet: true, embed: false });
  const b = dump(join(dataDir, "market.db"), "SELECT * FROM auction_houses ORDER BY id");
  expect(b).toEqual(a);
  // another seed (8, the run's second tiny market, built once per run too): other rows
  expect(dump(join(await nextTinyMarketDir(), "market.db"), "SELECT * FROM auction_houses ORDER BY id")).not.toEqual(a);
});

test("reseeding the market leaves every account row as it was", async () => {
  const account = openAccountDb(dataDir);
  seedPlans(account);
  await createUserWithKey(account, "pro", "keeper");
  account.run("INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (1, '2026-01-01', 'GET /v1/artists', 22, 1)");
  account.close();
  const accountPath = join(dataDir, "account.db");
  const before = ["users", "api_keys", "du_daily", "plans"].map((t) => dump(accountPath, `SELECT * FROM ${t}`));
  // another market (tiny, seed 5) replaces the one of seed 7: a bigger one would prove nothing more
  await seedMarket({ dataDir, scale: "tiny", seed: 5, quiet: true, embed: false });
  const after = ["users", "api_keys", "du_daily", "plans"].map((t) => dump(accountPath, `SELECT * FROM ${t}`));
  expect(after).toEqual(before);
  const reader = openMarketReader(dataDir);
  expect((reader.query("SELECT value FROM market_meta WHERE key = 'seed'").get() as { value: string }).value).toBe("5");
  reader.close();
});

test("the reader connection is read-only, holds market.db alone, has sqlite-vec and maps 2 GiB", () => {
  const reader = openMarketReader(dataDir);
  expect(() => reader.run("DELETE FROM categories")).toThrow();
  // account rows reach market queries as bound values (src/db/follows.ts): nothing is attached
  expect((reader.query("PRAGMA database_list").all() as { name: string }[]).map((d) => d.name)).toEqual(["main"]);
  expect((reader.query("SELECT vec_version() AS v").get() as { v: string }).v).toMatch(/^v\d/);
  // as much of the file mapped as SQLite maps at most
  expect(reader.query("PRAGMA mmap_size").get()).toEqual({ mmap_size: 0x7fff0000 });
  reader.close();
});

test("the reader keeps its shared lock: a writer of the served file in place is refused, the file unchanged", () => {
  const reader = openMarketReader(dataDir);
  const seed = () => (reader.query("SELECT value FROM market_meta WHERE key = 'seed'").get() as { value: string }).value;
  const before = seed();
  expect(reader.query("PRAGMA locking_mode").get()).toEqual({ locking_mode: "exclusive" });
  // another connection (another process alike: SQLite keeps one lock table per process)
  const writer = new Database(join(dataDir, "market.db"));
  try {
    writer.run("PRAGMA busy_timeout = 0");
    expect(() => writer.run("UPDATE market_meta SET value = 'changed' WHERE key = 'seed'")).toThrow(/locked/);
    expect(seed()).toBe(before);
    // a second reader reads beside it
    expect((writer.query("SELECT value FROM market_meta WHERE key = 'seed'").get() as { value: string }).value).toBe(before);
  } finally {
    writer.close();
    reader.close();
  }
  // once the reader is closed the file takes a writer again (a test's own copy; never a served one)
  const after = new Database(join(dataDir, "market.db"));
  after.run("UPDATE market_meta SET value = value WHERE key = 'seed'");
  after.close();
});

test("the account database runs in WAL mode, not memory-mapped", () => {
  const db = openAccountDb(dataDir);
  expect(db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  expect(db.query("PRAGMA mmap_size").get()).toEqual({ mmap_size: 0 });
  db.close();
});

test("a market of an earlier build is migrated on open: read indexes rebuilt with statistics when one is missing, else nothing", async () => {
  const dir = tempDataDir("artmarket-migrate-");
  try {
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(dir, "market.db"));
    const last = marketMigrations.at(-1)!;
    const stats = (idx: string) => dump(join(dir, "market.db"), `SELECT count(*) AS n FROM sqlite_stat1 WHERE idx = '${idx}'`)[0] as { n: number };
    const earlier = (sql: string) => {
      const db = new Database(join(dir, "market.db"));
      db.run(sql);
      // the last migration undone (it adds a table) and forgotten: a market of the build before
      db.run("DROP TABLE estimate_history");
      db.query("DELETE FROM __migrations WHERE tag = ?").run(last.tag);
      db.close();
    };
    expect(last.tag).toBe("0012_estimate_history");
    // only the table missing: no statistics gathered again (a statistic removed stays removed)
    earlier("DELETE FROM sqlite_stat1 WHERE idx = 'lots_hammer_usd'");
    const schema = () => (dump(join(dir, "market.db"), "PRAGMA schema_version")[0] as { schema_version: number }).schema_version;
    const schemaBefore = schema();
    openMarketReader(dir).close();
    expect(stats("lots_hammer_usd").n).toBe(0);
    // nor the search table built again: the schema changed by the migration's one table only
    expect(schema() - schemaBefore).toBe(1);
    expect(dump(join(dir, "market.db"), "SELECT tag FROM __migrations ORDER BY rowid DESC LIMIT 1")).toEqual([{ tag: last.tag }]);
    // a read index missing too: rebuilt, and the statistics gathered
    earlier("DROP INDEX lots_hammer_usd");
    openMarketReader(dir).close();
    expect(dump(join(dir, "market.db"), "SELECT name FROM sqlite_master WHERE name = 'lots_hammer_usd'")).toEqual([{ name: "lots_hammer_usd" }]);
    expect(stats("lots_hammer_usd").n).toBeGreaterThan(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
