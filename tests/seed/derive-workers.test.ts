/**
 * Pass 2 of the derivation on worker threads gives the rows it gives on one thread: every
 * derived table compared row for row, for one, two and three threads (each reads the snapshot on
 * its own immutable connection while this thread writes).
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { attachWorksOfFinished } from "../../src/pipeline/db/works-file";
import { deriveMarket } from "../../src/pipeline/derive/market";
import { openSnapshotReader } from "../../src/pipeline/derive/artist-pool";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { tableHash } from "../helpers/rows";

const DERIVED = ["artists", "artworks", "artist_charts", "artist_analytics", "market_index", "sales"];
const dirs: string[] = [];
let source: string;

beforeAll(async () => {
  source = join(await tinyMarketDir(), "market.db");
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * `locked`: another connection holds the file's exclusive lock (as an index builder does) from
 * before the derivation until its beforeWrite, and the derivation reads through an immutable
 * reader until then.
 */
async function derivedWith(
  workers: number,
  options: { locked?: boolean } = {},
): Promise<{ threads: number; rows: Record<string, string>; artists: number; artworks: number; estimated: number }> {
  const dir = tempDataDir("artmarket-derive-");
  dirs.push(dir);
  const path = join(dir, "market.db");
  copyFileSync(source, path);
  const db = new Database(path, { strict: true });
  // a finished market keeps its works' source columns in artworks: the works file a build has
  attachWorksOfFinished(db, path);
  let lock: Database | null = null;
  let reader: Database | null = null;
  try {
    const asOf = (db.query("SELECT value FROM market_meta WHERE key = 'as_of'").get() as { value: string }).value;
    if (options.locked) {
      reader = openSnapshotReader(path);
      lock = new Database(path);
      lock.run("BEGIN EXCLUSIVE");
    }
    let released = false;
    const summary = await deriveMarket(db, {
      asOf,
      workers,
      reader: reader ?? undefined,
      beforeWrite: async () => {
        lock?.run("COMMIT");
        released = true;
      },
    });
    expect(released).toBe(true);
    const rows: Record<string, string> = {};
    for (const t of DERIVED) rows[t] = tableHash(db, t);
    return { threads: summary.workers, rows, artists: summary.artists, artworks: summary.artworks, estimated: summary.estimated };
  } finally {
    lock?.close();
    reader?.close();
    db.close();
  }
}

/** The derivation on this thread alone, run once for the tests that compare with it. */
let alone: ReturnType<typeof derivedWith> | null = null;
const onThisThread = () => (alone ??= derivedWith(0));

test("worker threads derive the same rows as one thread", async () => {
  const { threads, ...one } = await onThisThread();
  expect(threads).toBe(0);
  expect(one.artists).toBeGreaterThan(100);
  expect(one.estimated).toBeGreaterThan(0);
  for (const workers of [1, 2, 3]) {
    const { threads: used, ...many } = await derivedWith(workers);
    expect(used).toBe(workers);
    expect(many).toEqual(one);
  }
}, 120_000);

test("beside an index build: reads go through the reader until beforeWrite, and the rows are the same", async () => {
  const { threads, ...free } = await onThisThread();
  expect(threads).toBe(0);
  for (const workers of [0, 2]) {
    const { threads: used, ...locked } = await derivedWith(workers, { locked: true });
    expect(used).toBe(workers);
    expect(locked).toEqual(free);
  }
}, 120_000);

test("the derivation's own connection cannot read while another holds the lock (what the reader is for)", async () => {
  const dir = tempDataDir("artmarket-derive-");
  dirs.push(dir);
  const path = join(dir, "market.db");
  copyFileSync(source, path);
  const db = new Database(path, { strict: true });
  const lock = new Database(path);
  lock.run("BEGIN EXCLUSIVE");
  try {
    await expect(deriveMarket(db, { asOf: "2026-06-15", workers: 0 })).rejects.toThrow("locked");
  } finally {
    lock.run("COMMIT");
    lock.close();
    db.close();
  }
});

test("a snapshot reader sees the file as it is, takes no lock, and refuses a file with auto-vacuum", () => {
  const dir = tempDataDir("artmarket-reader-");
  dirs.push(dir);
  const path = join(dir, "odd ?name#%.db");
  const writer = new Database(path, { create: true, strict: true });
  writer.run("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  writer.run("INSERT INTO t (v) VALUES ('a'), ('b')");
  const reader = openSnapshotReader(path);
  expect(reader.query("SELECT v FROM t ORDER BY id").values()).toEqual([["a"], ["b"]]);
  // the writer commits while the reader holds an open statement: no SQLITE_BUSY either way
  const open = reader.query("SELECT v FROM t").iterate();
  open.next();
  writer.run("CREATE TABLE u (x)");
  writer.run("INSERT INTO u VALUES (1)");
  open.return?.();
  expect(() => reader.run("INSERT INTO t (v) VALUES ('c')")).toThrow();
  reader.close();
  writer.close();

  const vacuumed = join(dir, "vacuumed.db");
  const v = new Database(vacuumed, { create: true });
  v.run("PRAGMA auto_vacuum = FULL");
  v.run("CREATE TABLE t (x)");
  v.close();
  expect(() => openSnapshotReader(vacuumed)).toThrow("auto_vacuum");
});
