/**
 * IndexBuilder: index builds on a thread of their own, beside an immutable reader, stopped between
 * statements when asked; a failed statement fails stop().
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { IndexBuilder } from "../../../src/pipeline/db/index-builder";
import { LOT_INDEXES, READ_STATEMENTS } from "../../../src/db/market-indexes";
import { openSnapshotReader } from "../../../src/pipeline/derive/artist-pool";
import { tempDataDir } from "../../helpers/app";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A snapshot-like file (no journal) with `rows` rows in t (a, b, c). */
function table(rows: number): string {
  const dir = tempDataDir("artmarket-builder-");
  dirs.push(dir);
  const path = join(dir, "market.db");
  const db = new Database(path, { create: true });
  db.run("PRAGMA journal_mode = OFF");
  db.run("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c TEXT)");
  const ins = db.query("INSERT INTO t (a, b, c) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < rows; i++) ins.run((i * 7919) % 1000, (i * 104729) % 65536, `row ${(i * 31) % 977}`);
  })();
  db.close();
  return path;
}

const indexNames = (path: string) => {
  const db = new Database(path, { readonly: true });
  const names = (db.query("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  db.close();
  return names;
};

const statements = (n: number) => Array.from({ length: n }, (_, i) => `CREATE INDEX IF NOT EXISTS t_${String(i).padStart(2, "0")} ON t (${["a", "b", "c"][i % 3]}, id)`);

test("builds every statement in order, while an immutable reader reads the table", async () => {
  const path = table(50_000);
  const reader = openSnapshotReader(path);
  const sum = () => reader.query("SELECT count(*) AS n, sum(a) AS a, sum(b) AS b FROM t").get();
  const before = sum();
  const builder = new IndexBuilder(path, statements(6));
  // the reader goes on reading while the thread builds
  for (let i = 0; i < 20; i++) {
    expect(sum()).toEqual(before);
    await Bun.sleep(5);
  }
  const summary = await builder.finish();
  expect(summary.built).toBe(6);
  expect(summary.total).toBe(6);
  expect(indexNames(path)).toEqual(statements(6).map((_, i) => `t_${String(i).padStart(2, "0")}`));
  expect(sum()).toEqual(before);
  reader.close();
  // the indexes order the rows as a sort does
  const db = new Database(path, { readonly: true });
  expect(db.query("SELECT id FROM t INDEXED BY t_01 ORDER BY b, id").values()).toEqual(db.query("SELECT id FROM t NOT INDEXED ORDER BY b, id").values());
  expect((db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
  db.close();
});

test("stop() lets the statement under way finish and builds no more; the ones built are the first", async () => {
  const path = table(200_000);
  const all = statements(30);
  const builder = new IndexBuilder(path, all);
  // the file is read only through the builder's reports meanwhile: a build holds its lock
  for (let i = 0; i < 1000 && builder.builtSoFar === 0; i++) await Bun.sleep(5);
  const summary = await builder.stop();
  expect(summary.built).toBeGreaterThanOrEqual(1);
  expect(summary.built).toBeLessThan(all.length);
  expect(summary.seconds).toBeGreaterThan(0);
  // exactly the first `built` statements, each whole
  expect(indexNames(path)).toEqual(all.slice(0, summary.built).map((_, i) => `t_${String(i).padStart(2, "0")}`));
  const db = new Database(path, { readonly: true });
  expect((db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
  db.close();
});

test("a statement that fails makes stop() throw its error", async () => {
  const path = table(1000);
  const builder = new IndexBuilder(path, ["CREATE INDEX IF NOT EXISTS t_a ON t (a)", "CREATE INDEX t_bad ON missing_table (x)", "CREATE INDEX t_b ON t (b)"]);
  await expect(builder.finish()).rejects.toThrow(/no such table: (main\.)?missing_table/);
  expect(indexNames(path)).toEqual(["t_a"]);
});

test("LOT_INDEXES: the read statements that build an index on the lots alone", () => {
  expect(LOT_INDEXES.length).toBeGreaterThanOrEqual(9);
  for (const sql of LOT_INDEXES) {
    expect(READ_STATEMENTS).toContain(sql);
    expect(sql).toMatch(/^CREATE INDEX IF NOT EXISTS \w+ ON lots \(/);
  }
  // but the indexes on a column the derivation writes (the upcoming lots' forecasts), built after it
  expect(READ_STATEMENTS.filter((sql) => /\bON lots\b/.test(sql) && !LOT_INDEXES.includes(sql))).toEqual(READ_STATEMENTS.filter((sql) => /ON lots \(sale_probability\b/.test(sql)));
});
