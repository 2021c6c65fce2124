/**
 * One data directory has one server. `serve` holds an exclusive SQLite lock on
 * `<data>/serve.lock` for as long as it runs (the kernel drops it when the process ends, however it
 * ends, so a killed server leaves nothing to clean up) and writes its pid into `<data>/serve.pid`
 * for the message a second server prints.
 *
 * The lock file's journal is kept in memory (journal_mode MEMORY): with SQLite's default, the
 * exclusive locking mode keeps `serve.lock-journal` beside it while the server runs, which a
 * SIGKILL leaves behind. One left by an earlier build is removed once the lock is taken.
 */
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SERVE_LOCK = "serve.lock";
export const SERVE_PID = "serve.pid";
/** The rollback journal SQLite's default journal mode would keep beside the lock. */
export const SERVE_LOCK_JOURNAL = `${SERVE_LOCK}-journal`;

export class DataDirHeld extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number | null,
  ) {
    super(`the data directory ${dataDir} is held by another artmarket server${pid ? ` (pid ${pid})` : ""}: ` + "stop it first, or give this one another --data");
  }
}

export interface ServeLock {
  release(): void;
}

/** Takes the data directory's server lock, or throws DataDirHeld naming the process that holds it. */
export function holdDataDir(dataDir: string): ServeLock {
  const db = new Database(join(dataDir, SERVE_LOCK), { create: true });
  try {
    db.run("PRAGMA busy_timeout = 0");
    db.run("PRAGMA locking_mode = EXCLUSIVE");
    // no journal file: the one transaction below needs no rollback from disk (OFF is refused by Bun's SQLite)
    db.run("PRAGMA journal_mode = MEMORY");
    // the first write under EXCLUSIVE locking mode takes the file's exclusive lock and keeps it
    db.run("BEGIN EXCLUSIVE");
    db.run("CREATE TABLE IF NOT EXISTS holder (pid INTEGER)");
    db.run("DELETE FROM holder");
    db.run("INSERT INTO holder VALUES (?)", [process.pid]);
    db.run("COMMIT");
  } catch (err) {
    db.close();
    if (/locked|busy/i.test((err as Error).message)) throw new DataDirHeld(dataDir, heldBy(dataDir));
    throw err;
  }
  // the lock is ours: a journal an earlier build's server left (killed) belongs to no one
  rmSync(join(dataDir, SERVE_LOCK_JOURNAL), { force: true });
  writeFileSync(join(dataDir, SERVE_PID), `${process.pid}\n`);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      rmSync(join(dataDir, SERVE_PID), { force: true });
      db.close();
    },
  };
}

/** The pid of the server that holds `dataDir`, as it wrote it (null when unknown). */
export function heldBy(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, SERVE_PID), "utf8").trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * The pid of the server that holds `dataDir` now, or null when none does: serve.pid names a live
 * process and serve.lock is locked (a pid file a killed server left, or a pid reused by another
 * process, is not a server). Reads the lock without taking it.
 */
export function serverHolding(dataDir: string): number | null {
  const pid = heldBy(dataDir);
  if (pid === null) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive, another user's process
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return null;
  }
  const path = join(dataDir, SERVE_LOCK);
  if (!existsSync(path)) return null;
  let db: Database | null = null;
  try {
    db = new Database(path, { readonly: true });
    db.run("PRAGMA busy_timeout = 0");
    db.query("SELECT count(*) FROM sqlite_master").get();
    return null; // readable: no server holds its exclusive lock
  } catch (err) {
    return /locked|busy/i.test((err as Error).message) ? pid : null;
  } finally {
    db?.close();
  }
}
