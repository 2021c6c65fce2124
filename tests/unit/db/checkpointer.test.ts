/**
 * The WAL checkpointer (src/db/checkpointer.ts): under writes that never pause, from a connection
 * that never checkpoints, its thread keeps the WAL bounded (PASSIVE checkpoints, and a RESTART
 * once the WAL holds its frames), where the same writes without it leave every frame in the WAL;
 * a reader that holds an old snapshot makes the RESTART give up (and back off) rather than hold
 * the writers, and once the reader ends the WAL is started again; stop() leaves the last
 * connection to close free to empty the WAL; a thread that cannot run leaves the checkpoints to
 * the calling thread.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Checkpointer } from "../../../src/db/checkpointer";
import { tempDataDir } from "../../helpers/app";

const dir = tempDataDir("artmarket-checkpoint-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A WAL database with one table, and a writer connection that never checkpoints. */
function writerOn(name: string): Database {
  const db = new Database(join(dir, name), { create: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA wal_autocheckpoint = 0");
  db.run("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT)");
  return db;
}

/** Frames in the WAL now, as a PASSIVE checkpoint from `db` reports them (it copies nothing a reader needs). */
const walFrames = (db: Database): number => (db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { log: number }).log;

/**
 * `commits` transactions of one 2 KB row each, a millisecond's pause every 5, as a server's ledger
 * commits under load (the write lock free most of the time; the thread's answers come in meanwhile).
 */
async function write(db: Database, commits: number): Promise<void> {
  const insert = db.query("INSERT INTO rows (body) VALUES (?)");
  const body = "x".repeat(2000);
  for (let i = 0; i < commits; i++) {
    insert.run(body);
    if (i % 5 === 4) await Bun.sleep(1);
  }
}

const RESTART_FRAMES = 200;

describe("the checkpoint thread", () => {
  test("keeps the WAL of a writer that never checkpoints bounded; without it every frame stays", async () => {
    const alone = writerOn("alone.db");
    await write(alone, 1500);
    // nothing checkpointed the WAL: every commit's page is still in it
    expect(walFrames(alone)).toBeGreaterThanOrEqual(1500);
    alone.close();

    const db = writerOn("checked.db");
    const checkpointer = new Checkpointer(join(dir, "checked.db"), { intervalMs: 10, restartFrames: RESTART_FRAMES, restartWaitMs: 50 });
    try {
      let maxFrames = 0;
      for (let round = 0; round < 10; round++) {
        await write(db, 150);
        maxFrames = Math.max(maxFrames, (await checkpointer.stats()).frames);
      }
      const stats = await checkpointer.stats();
      expect(stats.error).toBeNull();
      expect(stats.passive).toBeGreaterThan(5);
      expect(stats.restarts).toBeGreaterThan(0);
      // the WAL started again from its beginning at least once: far fewer frames than the writes made
      expect(maxFrames).toBeLessThan(1500);
      expect((db.query("SELECT count(*) AS n FROM rows").get() as { n: number }).n).toBe(1500);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  }, 30_000);

  test("a reader on an old snapshot: the RESTART gives up and backs off, the writer is not held; after the reader the WAL starts again", async () => {
    const db = writerOn("reader.db");
    const reader = new Database(join(dir, "reader.db"), { readonly: true });
    const checkpointer = new Checkpointer(join(dir, "reader.db"), { intervalMs: 10, restartFrames: RESTART_FRAMES, restartWaitMs: 20 });
    try {
      await write(db, 50);
      // the reader's transaction pins the snapshot of now: no checkpoint can copy past it
      reader.run("BEGIN");
      reader.query("SELECT count(*) FROM rows").get();
      let slowest = 0;
      const insert = db.query("INSERT INTO rows (body) VALUES (?)");
      for (let i = 0; i < 1200; i++) {
        const t0 = performance.now();
        insert.run("y".repeat(2000));
        slowest = Math.max(slowest, performance.now() - t0);
        if (i % 20 === 19) await Bun.sleep(1);
      }
      const held = await checkpointer.stats();
      expect(held.restartsBusy).toBeGreaterThan(0);
      expect(held.frames).toBeGreaterThanOrEqual(1200);
      // a RESTART waits restartWaitMs (20 ms) at most, then lets the writers go
      expect(slowest).toBeLessThan(1000);
      reader.run("COMMIT");
      // the reader is gone: the thread copies the WAL to its end (a RESTART, or a PASSIVE that
      // caught up) and a later commit starts the WAL again from its beginning
      const deadline = performance.now() + 15_000;
      let after = await checkpointer.stats();
      while (after.frames >= RESTART_FRAMES && performance.now() < deadline) {
        await write(db, 5);
        await Bun.sleep(20);
        after = await checkpointer.stats();
      }
      expect(after.frames).toBeLessThan(RESTART_FRAMES);
      expect(after.error).toBeNull();
    } finally {
      await checkpointer.stop();
      reader.close();
      db.close();
    }
  }, 30_000);

  test("a thread that cannot run: the same checkpoints go on on this thread, and onError says why", async () => {
    const db = writerOn("fallback.db");
    const errors: string[] = [];
    const checkpointer = new Checkpointer(join(dir, "fallback.db"), { intervalMs: 10, restartFrames: RESTART_FRAMES, threadEntry: join(dir, "no-such-worker.ts") }, (m) =>
      errors.push(m),
    );
    try {
      for (let i = 0; i < 200 && !checkpointer.onThisThread; i++) await Bun.sleep(10);
      expect(checkpointer.onThisThread).toBe(true);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain("checkpointing on the main thread instead");
      let maxFrames = 0;
      for (let round = 0; round < 10; round++) {
        await write(db, 150);
        maxFrames = Math.max(maxFrames, (await checkpointer.stats()).frames);
      }
      const stats = await checkpointer.stats();
      expect(stats.passive).toBeGreaterThan(5);
      expect(stats.error).toBeNull();
      // on this thread the checkpoints run between the writes: each PASSIVE catches up, and the
      // next commit starts the WAL again (a RESTART is seldom needed)
      expect(maxFrames).toBeLessThan(1500);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  }, 30_000);

  test("stop() closes the thread's connection: the last connection's close then empties the WAL", async () => {
    const path = join(dir, "stop.db");
    const db = writerOn("stop.db");
    const checkpointer = new Checkpointer(path, { intervalMs: 10 });
    await write(db, 100);
    await checkpointer.stop();
    db.close();
    expect(await Bun.file(`${path}-wal`).exists()).toBe(false);
  });
});
