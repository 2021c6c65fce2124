/**
 * The account store's PostgreSQL migrations and their runner, against a real PostgreSQL: applied
 * once (also by two nodes starting together), the same tables, columns, nullability, indexes and
 * cascades as account.db, and the account epoch moved by triggers and announced to listeners.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAccountDb } from "../../src/db/connection";
import { MigrationError } from "../../src/db/migrate";
import { accountPgMigrations } from "../../src/db/migrations/embedded";
import { MIGRATION_LOCK, migratePg } from "../../src/db/pg/migrate";
import { SyncPg } from "../../src/db/pg/sync-client";
import { database } from "../helpers/postgres";

const tags = accountPgMigrations.map((m) => m.tag);
const opened: SyncPg[] = [];
const dirs: string[] = [];

function connect(url: string, options: { listenEpoch?: boolean } = {}): SyncPg {
  const pg = new SyncPg(url, options);
  opened.push(pg);
  return pg;
}

function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), "artmarket-pg-migrate-"));
  dirs.push(dir);
  return dir;
}

const advisoryLocks = (pg: SyncPg) =>
  pg.all<{ granted: boolean }>("SELECT granted FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");

afterAll(() => {
  for (const pg of opened) pg.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test("migrations apply on a fresh database, and a second run applies nothing", async () => {
  const pg = connect(await database());
  expect(migratePg(pg)).toEqual(tags);
  expect(migratePg(pg)).toEqual([]);
  expect(pg.all<{ tag: string }>("SELECT tag FROM artmarket_migrations ORDER BY tag").map((r) => r.tag)).toEqual(tags);
  expect(pg.get("SELECT id, n FROM account_epoch")).toEqual({ id: 1, n: 0 });
  expect(pg.get("SELECT relpersistence FROM pg_class WHERE relname = 'rate_windows'")).toEqual({ relpersistence: "u" });
  // the lock is released after each run
  expect(advisoryLocks(pg)).toEqual([]);
});

test("an edited or unknown migration is refused, and the lock is released all the same", async () => {
  const pg = connect(await database());
  migratePg(pg);
  const edited = accountPgMigrations.map((m, i) => (i === 0 ? { ...m, sql: `${m.sql}\n` } : m));
  expect(() => migratePg(pg, edited)).toThrow(MigrationError);
  expect(() => migratePg(pg, accountPgMigrations.slice(1))).toThrow(/not in this build/);
  expect(advisoryLocks(pg)).toEqual([]);
});

test("a failing migration leaves nothing of itself behind", async () => {
  const pg = connect(await database());
  const broken = [...accountPgMigrations, { tag: "9999_broken", sql: "CREATE TABLE half (x integer);--> statement-breakpoint\nSELECT no_such_function();" }];
  expect(() => migratePg(pg, broken)).toThrow();
  expect(pg.get("SELECT to_regclass('half') AS t")).toEqual({ t: null });
  expect(pg.all<{ tag: string }>("SELECT tag FROM artmarket_migrations ORDER BY tag").map((r) => r.tag)).toEqual(tags);
  expect(advisoryLocks(pg)).toEqual([]);
});

test("two nodes migrating one fresh database at once apply each migration once", async () => {
  const url = await database();
  const holder = connect(url);
  // hold the lock so that both nodes are surely waiting on it together before either starts
  holder.get("SELECT pg_advisory_lock(?::bigint)", MIGRATION_LOCK);
  const script = join(tmp(), "node.ts");
  const src = join(import.meta.dir, "../../src/db/pg");
  writeFileSync(
    script,
    `import { migratePg } from ${JSON.stringify(join(src, "migrate.ts"))};
import { SyncPg } from ${JSON.stringify(join(src, "sync-client.ts"))};
const pg = new SyncPg(process.argv[2]!);
console.log(JSON.stringify(migratePg(pg)));
pg.close();
`,
  );
  const nodes = [0, 1].map(() => Bun.spawn([process.execPath, script, url], { stdout: "pipe", stderr: "pipe" }));
  const deadline = Date.now() + 30_000;
  while (advisoryLocks(holder).filter((l) => !l.granted).length < 2) {
    if (Date.now() > deadline) throw new Error("the two nodes never waited on the migration lock");
    await Bun.sleep(50);
  }
  holder.get("SELECT pg_advisory_unlock(?::bigint)", MIGRATION_LOCK);
  const results = await Promise.all(
    nodes.map(async (node) => {
      const [out, err, code] = await Promise.all([new Response(node.stdout).text(), new Response(node.stderr).text(), node.exited]);
      expect({ code, err }).toEqual({ code: 0, err: "" });
      return JSON.parse(out) as string[];
    }),
  );
  expect(results.flat().sort()).toEqual(tags);
  expect(results.some((r) => r.length === 0)).toBe(true);
  expect(holder.get("SELECT count(*) AS n, count(DISTINCT tag) AS d FROM artmarket_migrations")).toEqual({ n: tags.length, d: tags.length });
  expect(advisoryLocks(holder)).toEqual([]);
}, 60_000);

test("every table of account.db is there with the same columns, nullability, indexes and cascades", async () => {
  const pg = connect(await database());
  migratePg(pg);
  const lite = openAccountDb(tmp());
  try {
    const tables = lite
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__migrations' ORDER BY name")
      .all()
      .map((r) => r.name);
    expect(tables.length).toBeGreaterThan(10);
    for (const table of tables) {
      const liteColumns = lite
        .query<{ name: string; notnull: number; pk: number }, []>(`PRAGMA table_info(${table})`)
        .all()
        .map((c) => ({ name: c.name, notNull: c.notnull === 1 || c.pk > 0 }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const pgColumns = pg
        .all<{ name: string; nullable: string }>(
          "SELECT column_name AS name, is_nullable AS nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? ORDER BY column_name",
          table,
        )
        .map((c) => ({ name: c.name, notNull: c.nullable === "NO" }))
        .sort((a, b) => a.name.localeCompare(b.name));
      expect({ table, columns: pgColumns }).toEqual({ table, columns: liteColumns });

      const liteIndexes = lite
        .query<{ name: string; unique: number }, []>(`PRAGMA index_list(${table})`)
        .all()
        .filter((i) => !i.name.startsWith("sqlite_autoindex_"))
        .map((i) => ({
          name: i.name,
          unique: i.unique === 1,
          columns: lite
            .query<{ name: string }, []>(`PRAGMA index_info(${i.name})`)
            .all()
            .map((c) => c.name),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const pgIndexes = pg
        .all<{ name: string; unique: boolean; columns: string }>(
          `SELECT i.relname AS name, x.indisunique AS unique,
                  (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum) AS columns
           FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
           WHERE t.relname = ? AND NOT x.indisprimary ORDER BY i.relname`,
          table,
        )
        .map((i) => ({ name: i.name, unique: i.unique, columns: i.columns.split(",") }));
      expect({ table, indexes: pgIndexes }).toEqual({ table, indexes: liteIndexes });

      const liteForeign = lite
        .query<{ table: string; from: string; to: string; on_delete: string }, []>(`PRAGMA foreign_key_list(${table})`)
        .all()
        .map((f) => ({ from: f.from, to: `${f.table}.${f.to}`, cascade: f.on_delete === "CASCADE" }))
        .sort((a, b) => a.from.localeCompare(b.from));
      const pgForeign = pg
        .all<{ from: string; to: string; deltype: string }>(
          `SELECT a.attname AS "from", r.relname || '.' || ra.attname AS "to", c.confdeltype AS deltype
           FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
           JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
           JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
           WHERE c.contype = 'f' AND t.relname = ?`,
          table,
        )
        .map((f) => ({ from: f.from, to: f.to, cascade: f.deltype === "c" }))
        .sort((a, b) => a.from.localeCompare(b.from));
      expect({ table, foreign: pgForeign }).toEqual({ table, foreign: liteForeign });
    }
  } finally {
    lite.close();
  }
});

test("revoking a key moves the account epoch, and a listener sees it within a second", async () => {
  const url = await database();
  const pg = connect(url);
  migratePg(pg);
  const listener = connect(url, { listenEpoch: true });
  const seenBy = async (n: number) => {
    const deadline = Date.now() + 1_000;
    while (listener.epoch() !== n && Date.now() < deadline) await Bun.sleep(10);
    return listener.epoch();
  };
  expect(await seenBy(0)).toBe(0);

  pg.run("INSERT INTO plans (slug, display_name, du_limit, period_days, rps_limit, rpm_limit, price_usd) VALUES ('free', 'Free', 100, 30, 1, 60, 0)");
  const afterPlan = pg.get<{ n: number }>("SELECT n FROM account_epoch WHERE id = 1")!.n;
  expect(afterPlan).toBe(1);
  const user = pg.get<{ id: number }>("INSERT INTO users (name, plan_slug, period_anchor, created_at) VALUES ('ada', 'free', '2026-01-01', ?) RETURNING id", Date.now())!;
  const key = pg.get<{ id: number }>("INSERT INTO api_keys (kid, user_id, name, hash, created_at) VALUES ('k1', ?, 'main', 'h', ?) RETURNING id", user.id, Date.now())!;
  // adding a user or a key caches nothing stale: the epoch stays
  expect(pg.get("SELECT n FROM account_epoch WHERE id = 1")).toEqual({ n: afterPlan });
  expect(await seenBy(afterPlan)).toBe(afterPlan);

  expect(pg.run("UPDATE api_keys SET revoked_at = ? WHERE id = ?", Date.now(), key.id)).toBe(1);
  const afterRevoke = pg.get<{ n: number }>("SELECT n FROM account_epoch WHERE id = 1")!.n;
  expect(afterRevoke).toBe(afterPlan + 1);
  expect(await seenBy(afterRevoke)).toBe(afterRevoke);

  // and so do a plan change and a deleted user (whose collectables go with it)
  pg.run("UPDATE users SET plan_slug = 'free' WHERE id = ?", user.id);
  pg.run("INSERT INTO collectables (uid, user_id, artist_id, category_id, edition_unique_type, created_at, updated_at) VALUES ('c1', ?, 1, 1, 'unique', 1, 1)", user.id);
  pg.run("DELETE FROM api_keys WHERE id = ?", key.id);
  pg.run("DELETE FROM users WHERE id = ?", user.id);
  expect(pg.get("SELECT count(*) AS n FROM collectables")).toEqual({ n: 0 });
  expect(await seenBy(afterRevoke + 3)).toBe(afterRevoke + 3);
});
