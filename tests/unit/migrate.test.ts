import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { migrate, MigrationError, type Migration } from "../../src/db/migrate";
import { accountMigrations, marketMigrations } from "../../src/db/migrations/embedded";
import { embeddedSource } from "../../scripts/migrations";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const tables = (db: Database) => (db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe("migration runner", () => {
  test("applies every migration once; a second run does nothing", () => {
    const db = new Database(":memory:");
    expect(migrate(db, accountMigrations, "account")).toEqual(accountMigrations.map((m) => m.tag));
    const after = tables(db);
    expect(after).toContain("du_ledger");
    expect(migrate(db, accountMigrations, "account")).toEqual([]);
    expect(tables(db)).toEqual(after);
  });

  test("a migration changed after it was applied is refused", () => {
    const db = new Database(":memory:");
    migrate(db, marketMigrations, "market");
    const edited: Migration[] = marketMigrations.map((m) => ({ ...m, sql: `${m.sql}\n-- edited` }));
    expect(() => migrate(db, edited, "market")).toThrow(MigrationError);
  });

  test("a database written by a newer build is refused", () => {
    const db = new Database(":memory:");
    migrate(db, [...marketMigrations, { tag: "9999_future", sql: "CREATE TABLE future (x INT)" }], "market");
    expect(() => migrate(db, marketMigrations, "market")).toThrow(/newer/);
  });

  test("a failing migration leaves nothing behind (one transaction)", () => {
    const db = new Database(":memory:");
    const broken: Migration[] = [{ tag: "0000_broken", sql: "CREATE TABLE a (x INT);--> statement-breakpoint\nCREATE TABLE a (x INT);" }];
    expect(() => migrate(db, broken, "test")).toThrow();
    expect(tables(db)).toEqual(["__migrations"]);
    expect(db.query("SELECT count(*) AS n FROM __migrations").get()).toEqual({ n: 0 });
  });

  test("the embedded list matches the drizzle-kit journals", () => {
    const onDisk = readFileSync(join(import.meta.dir, "../../src/db/migrations/embedded.ts"), "utf8");
    expect(onDisk).toBe(embeddedSource());
  });
});
