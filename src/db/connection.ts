/**
 * Connections and pragmas. account.db is in WAL mode: each thread of a server has its writing
 * connection (SQLite serialises their writes; every one waits up to BUSY_TIMEOUT_MS for the lock
 * but the ledger's own, openAccountNoWait); market.db is read through a read-only connection of
 * its own (market queries that need the caller's account rows take them as bound values:
 * src/db/follows.ts).
 */
import { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { loadSqliteVec } from "../platform/native";
import { buildReadIndexes } from "./market-indexes";
import { migrate } from "./migrate";
import { missingReadIndexes } from "./snapshot-check";
import { accountMigrations, marketMigrations } from "./migrations/embedded";
import * as accountSchema from "./schema/account";

export const ACCOUNT_DB = "account.db";
export const MARKET_DB = "market.db";

export function accountDbPath(dataDir: string): string {
  return join(dataDir, ACCOUNT_DB);
}
export function marketDbPath(dataDir: string): string {
  return join(dataDir, MARKET_DB);
}

/** How long a connection waits for another process's lock on account.db or market.db (ms). */
export const BUSY_TIMEOUT_MS = 30_000;

/**
 * Switches the file to WAL (a no-op when it is already). On a new file two processes may switch at
 * once: each reads the header under a shared lock, and one of them then gets SQLITE_BUSY at once,
 * without its busy handler (SQLite's answer to two readers that both want the exclusive lock); it
 * tries again after a few milliseconds, within BUSY_TIMEOUT_MS.
 */
function walMode(db: Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.run("PRAGMA journal_mode = WAL");
      return;
    } catch (err) {
      if (!String((err as { code?: unknown }).code).startsWith("SQLITE_BUSY") || Date.now() >= deadline) throw err;
      Bun.sleepSync(5 + Math.random() * 20);
    }
  }
}

function tune(db: Database, dataDir: string, writable: boolean): void {
  // first: every later statement (switching to WAL included) waits for a lock another process
  // holds (a `keys create` at the same moment, a server, the CLI) instead of failing at once
  db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (writable) {
    walMode(db);
    db.run("PRAGMA synchronous = NORMAL");
  }
  db.run("PRAGMA foreign_keys = ON");
  db.run("PRAGMA cache_size = -65536");
  db.run("PRAGMA temp_store = MEMORY");
  loadSqliteVec(db, dataDir);
}

/**
 * account.db holds the key hashes and every account's data: it is created readable by its owner
 * only (0600, as the secret and backups are), before SQLite writes a byte, and an existing one
 * (with its -wal and -shm) made more open by an earlier build is tightened. SQLite gives the
 * -wal and -shm files it creates the database file's mode.
 */
export function ownerOnlyAccountDb(dataDir: string): void {
  const path = accountDbPath(dataDir);
  try {
    closeSync(openSync(path, "wx", 0o600)); // an empty file is an empty SQLite database
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    } catch (err) {
      // absent (no WAL yet), or another user's file this process may write but not chmod
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EPERM") throw err;
    }
  }
}

/** The single writer of account.db, migrated to this build's schema. */
export function openAccountDb(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true });
  ownerOnlyAccountDb(dataDir);
  const db = new Database(accountDbPath(dataDir), { create: true, strict: true });
  tune(db, dataDir, true);
  // Not memory-mapped (SQLite's default, mmap_size 0): account.db grows with every checkpoint of
  // the ledger's rows, and a mapped connection maps the file again at its next read after each
  // growth (fstat, mmap, munmap, a page read: 4 system calls, about 40 µs, 100 times a second
  // on a busy HTTP worker, the munmap also flushing the TLB of every core that runs the process).
  // Its hot pages stay in the page cache instead.
  // Checkpoints (which fsync) run on the committing request's time: make them rarer, and keep the
  // WAL file from staying large after one.
  db.run("PRAGMA wal_autocheckpoint = 16384");
  db.run("PRAGMA journal_size_limit = 67108864");
  migrate(db, accountMigrations, ACCOUNT_DB);
  return db;
}

/**
 * A second connection to account.db (already migrated) that never waits for the write lock
 * (busy_timeout 0): an HTTP worker commits its ledger rows over it when the lock is free and
 * hands them to the server's supervisor when another writer holds it (src/serve/accounts/ledger.ts).
 */
export function openAccountNoWait(dataDir: string): Database {
  const db = new Database(accountDbPath(dataDir), { strict: true });
  db.run("PRAGMA busy_timeout = 0");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA wal_autocheckpoint = 16384");
  return db;
}

export function accountOrm(db: Database) {
  return drizzle(db, { schema: accountSchema });
}
export type AccountOrm = ReturnType<typeof accountOrm>;

/** A writable market database at `path` (used by seed and import while they build a snapshot). */
export function openMarketForWrite(path: string, dataDir: string): Database {
  const db = new Database(path, { create: true, strict: true });
  // Bun's SQLite refuses OFF (it answers "delete"): each transaction keeps a rollback journal
  // beside the file (the same for the truth and works files)
  db.run("PRAGMA journal_mode = OFF");
  db.run("PRAGMA synchronous = OFF");
  db.run("PRAGMA foreign_keys = ON");
  db.run("PRAGMA cache_size = -262144");
  db.run("PRAGMA temp_store = MEMORY");
  // SQLite's sorter may use helper threads (CREATE INDEX over millions of rows sorts them all)
  db.run(`PRAGMA threads = ${Math.min(8, Math.max(1, cpus().length))}`);
  loadSqliteVec(db, dataDir);
  migrate(db, marketMigrations, MARKET_DB);
  return db;
}

/** SQLite's largest mapping of a file (SQLITE_MAX_MMAP_SIZE, 0x7fff0000 bytes): a larger mmap_size is cut to it. */
const MARKET_MMAP_BYTES = 0x7fff0000;

/**
 * The read connection used by the service: market.db read-only (migrated first when an earlier
 * build made it), holding one shared lock for as long as it is open.
 *
 * A served market file is never written: a new snapshot is a new file renamed over market.db
 * (docs/operations.md, "The data directory"). In SQLite's default locking mode a read-only connection
 * takes and drops its shared lock around every statement, and each time checks for a rollback
 * journal and a WAL beside the file and for a change of the file: seven system calls a statement
 * (three fcntl locks, two stat, an fstat, an unlock), several statements a request, each lock
 * and unlock also under SQLite's process-wide lock of its file table, which every worker thread
 * takes. `locking_mode = EXCLUSIVE` keeps the lock its first read takes until the connection
 * closes: the statements make none of those calls (artists.detail's service call 17 → 3 system
 * calls, 51 → 38 µs of CPU; docs/benchmarks.md, api). A process that tried to write the served
 * file in place would get SQLITE_BUSY rather than change a file under its readers.
 */
export function openMarketReader(dataDir: string): Database {
  const path = marketDbPath(dataDir);
  if (!existsSync(path)) throw new Error(`no market in ${dataDir}: run \`artmarket seed\` first`);
  const writer = new Database(path, { strict: true });
  writer.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  try {
    // a migration that rebuilds a table drops the read indexes on it: a market built by an
    // earlier artmarket gets them back here, with its statistics (minutes at large scale: the
    // statements rebuild the search tables too), when one is missing; a migration that only adds
    // a table needs neither
    if (migrate(writer, marketMigrations, MARKET_DB, { oneLock: false }).length && writer.query("SELECT 1 FROM lots LIMIT 1").get()) {
      const names = new Set(
        writer
          .query<{ name: string }, []>("SELECT name FROM sqlite_master")
          .all()
          .map((r) => r.name),
      );
      const missing = missingReadIndexes(names);
      if (missing.length) {
        process.stderr.write(`${MARKET_DB}: migrated to this build's format; rebuilding the read indexes (${missing.join(", ")} missing)\n`);
        buildReadIndexes(writer);
        writer.run("ANALYZE");
      }
    }
  } finally {
    writer.close();
  }
  const db = new Database(path, { readonly: true, strict: true });
  tune(db, dataDir, false);
  db.run("PRAGMA locking_mode = EXCLUSIVE");
  // as much of the file mapped as SQLite maps (its SQLITE_MAX_MMAP_SIZE, just under 2 GiB; the
  // file never grows under it): a page past the mapping is a pread() when the page cache does not
  // hold it (lots.by-sale at large: 88 → 3 system calls a request, 1,326 → 1,031 µs;
  // docs/benchmarks.md, api)
  db.run(`PRAGMA mmap_size = ${MARKET_MMAP_BYTES}`);
  return db;
}
