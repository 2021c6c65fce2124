/**
 * A restore verifies the manifest (which must name account.db and secret, and market.db when it
 * says with_market: REQUIRED_FILES) and takes the data directory's server lock (refused while a
 * server holds it), copies every file into a staging folder inside the data directory while
 * checking its size and checksum, checks the staged account store, and only then moves the live
 * files aside into `pre-restore-<UTC time>/` and the staged ones into place, each by a rename (an
 * error half-way puts the moved files back). What was replaced stays in `pre-restore-…/` until the
 * operator removes it. Into PostgreSQL, the staged account store is loaded before the renames,
 * which then move only the market of a `--with-market` backup.
 */
import { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ACCOUNT_DB, accountDbPath, MARKET_DB } from "../db/connection";
import { DataDirHeld, holdDataDir } from "../platform/serve-lock";
import { loadIntoPg } from "./account-copy";
import { copyHashed, syncDir } from "./files";
import { BackupInvalid, type BackupManifest, BackupRefused, COLLECTABLE_IMAGES, ORIG_IMAGES, readManifest, SECRET_FILE, SECRET_TEXT } from "./manifest";

export interface RestoreOptions {
  from: string;
  dataDir: string;
  /** A postgres:// URL: load the backup's account store into that PostgreSQL store instead of the data directory. */
  accountStore?: string | null;
  now?: () => Date;
  /** Told when an earlier restore, killed half-way, is undone first. */
  log?: (line: string) => void;
}

export interface RestoreSummary {
  manifest: BackupManifest;
  /** Where the files it replaced now are, or null when it replaced nothing. */
  previous: string | null;
  /** Paths of the backup restored (into the data directory, or with a PostgreSQL store into it). */
  restored: string[];
  /** Into PostgreSQL: the rows loaded per table (collectable_images: the originals); null into account.db. */
  loaded: Record<string, number> | null;
}

/**
 * The swap in progress, written before the first rename and removed after the last: a restore
 * killed half-way (SIGKILL, a power cut) leaves it, and the next restore puts the previous files
 * back from it before anything else (`undoSwaps`).
 */
interface Journal {
  /** Folder names inside the data directory. */
  keep: string;
  stage: string;
  swaps: { rel: string; existed: boolean }[];
}

/** What a journal may name: the folders and files a restore moves, nothing else. */
const SWAPPED = new Set([ACCOUNT_DB, `${ACCOUNT_DB}-wal`, `${ACCOUNT_DB}-shm`, COLLECTABLE_IMAGES, SECRET_FILE, MARKET_DB, ORIG_IMAGES]);

function isJournal(j: Journal): boolean {
  return (
    typeof j?.keep === "string" &&
    /^pre-restore-\d{8}T\d{6}Z(?:-\d+)?$/.test(j.keep) &&
    typeof j.stage === "string" &&
    /^\.restore-\d+$/.test(j.stage) &&
    Array.isArray(j.swaps) &&
    j.swaps.every((s) => SWAPPED.has(s?.rel) && typeof s.existed === "boolean")
  );
}

const JOURNAL = "restore-journal.json";

function writeJournal(dataDir: string, journal: Journal): void {
  const tmp = join(dataDir, `${JOURNAL}.tmp`);
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, JSON.stringify(journal));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dataDir, JOURNAL));
  syncDir(dataDir);
}

/** Puts back what a swap moved: each previous thing from `keep` into place, the restored ones removed. */
function undoSwaps(dataDir: string, journal: Journal): void {
  for (const { rel, existed } of [...journal.swaps].reverse()) {
    const live = join(dataDir, rel);
    const kept = join(dataDir, journal.keep, rel);
    if (existed) {
      if (!existsSync(kept)) continue; // not moved yet: the live one is the previous one
      rmSync(live, { recursive: true, force: true });
      renameSync(kept, live);
    } else rmSync(live, { recursive: true, force: true });
  }
  rmSync(join(dataDir, journal.keep), { recursive: true, force: true });
  rmSync(join(dataDir, journal.stage), { recursive: true, force: true });
  rmSync(join(dataDir, JOURNAL), { force: true });
  syncDir(dataDir);
}

/** Undoes a restore that was killed while it swapped (its journal is there), and removes staging folders left by killed restores. */
function recoverInterrupted(dataDir: string): string | null {
  let note: string | null = null;
  const path = join(dataDir, JOURNAL);
  if (existsSync(path)) {
    let journal: Journal | null = null;
    try {
      journal = JSON.parse(readFileSync(path, "utf8")) as Journal;
    } catch {}
    if (!journal || !isJournal(journal)) throw new BackupRefused(`${path} is not a restore journal artmarket wrote: move it away, then restore again`);
    undoSwaps(dataDir, journal);
    note = `an interrupted restore was undone: the data directory holds what it held before that restore`;
  }
  // the server lock is ours: no other restore runs here, so every staging folder is a killed one's
  for (const name of readdirSync(dataDir)) if (/^\.restore-\d+$/.test(name)) rmSync(join(dataDir, name), { recursive: true, force: true });
  return note;
}

/**
 * Restores the backup in `from` into `dataDir` (created when absent), or with `accountStore` its
 * account store into PostgreSQL (and a `--with-market` backup's market into `dataDir`). Refused
 * (BackupRefused) while a server holds the data directory; a backup whose files do not match its
 * manifest (BackupInvalid) changes nothing.
 */
export function restore(options: RestoreOptions): RestoreSummary {
  const from = resolve(options.from);
  const dataDir = resolve(options.dataDir);
  const pgUrl = options.accountStore || null;
  const manifest = readManifest(from);
  const createdDir = !existsSync(dataDir);
  mkdirSync(dataDir, { recursive: true });
  let lock: ReturnType<typeof holdDataDir>;
  try {
    lock = holdDataDir(dataDir);
  } catch (err) {
    if (createdDir) rmSync(dataDir, { recursive: true, force: true });
    if (err instanceof DataDirHeld) throw new BackupRefused(`${err.message} (a restore needs the server stopped)`);
    throw err;
  }
  const stage = join(dataDir, `.restore-${process.pid}`);
  let done = false;
  try {
    const recovered = recoverInterrupted(dataDir);
    if (recovered) options.log?.(recovered);
    rmSync(stage, { recursive: true, force: true });
    mkdirSync(stage, { mode: 0o700 });
    // 1. every file into the staging folder, each checked against the manifest as it is copied
    const bad: string[] = [];
    for (const f of manifest.files) {
      const src = join(from, f.path);
      if (!existsSync(src)) {
        bad.push(`${f.path}: missing`);
        continue;
      }
      const got = copyHashed(src, join(stage, f.path));
      if (got.size !== f.size) bad.push(`${f.path}: ${got.size} bytes, the manifest says ${f.size}`);
      else if (got.sha256 !== f.sha256) bad.push(`${f.path}: its SHA-256 differs from the manifest's`);
    }
    if (bad.length)
      throw new BackupInvalid(`the backup in ${from} does not match its manifest (${bad.length} file(s)): ${bad.slice(0, 5).join("; ")}${bad.length > 5 ? "; …" : ""}`);
    if (!SECRET_TEXT.test(readFileSync(join(stage, SECRET_FILE), "utf8").trim())) throw new BackupInvalid(`${SECRET_FILE} of the backup is not a signing secret (64 hex digits)`);
    // 2. the staged account store opens and is sound
    const check = new Database(join(stage, ACCOUNT_DB), { readonly: true });
    try {
      const result = check.query("PRAGMA quick_check").all() as { quick_check: string }[];
      if (result.length !== 1 || result[0]!.quick_check !== "ok") throw new BackupInvalid(`${ACCOUNT_DB} of the backup fails SQLite's check: ${result[0]?.quick_check}`);
    } finally {
      check.close();
    }
    // 3. into PostgreSQL: the staged store loaded in one transaction (an error leaves PostgreSQL
    //    as it was); the data directory then only takes a --with-market backup's market.
    //    Into account.db: the live store in one file (its WAL merged), so a rename moves all of it
    let loaded: Record<string, number> | null = null;
    if (pgUrl) loaded = loadIntoPg(pgUrl, stage, manifest);
    else {
      const liveAccount = accountDbPath(dataDir);
      if (existsSync(liveAccount)) settleAccountDb(liveAccount);
    }
    // 4. swap: each live thing aside into pre-restore-<time>/, the staged one into place
    const stamp = (options.now ?? (() => new Date()))()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z");
    let keepName = `pre-restore-${stamp}`;
    for (let n = 2; existsSync(join(dataDir, keepName)); n++) keepName = `pre-restore-${stamp}-${n}`; // two restores in one second
    const keep = join(dataDir, keepName);
    // the folders of originals are replaced whole (none in the backup: none after the restore)
    const rels = pgUrl ? [] : [ACCOUNT_DB, `${ACCOUNT_DB}-wal`, `${ACCOUNT_DB}-shm`, COLLECTABLE_IMAGES];
    if (!pgUrl) rels.push(SECRET_FILE);
    if (manifest.with_market) rels.push(MARKET_DB, ORIG_IMAGES);
    const journal: Journal = { keep: keepName, stage: basename(stage), swaps: rels.map((rel) => ({ rel, existed: existsSync(join(dataDir, rel)) })) };
    if (rels.length) {
      for (const rel of [COLLECTABLE_IMAGES, ORIG_IMAGES]) if (rels.includes(rel)) mkdirSync(join(stage, rel), { recursive: true, mode: 0o700 });
      writeJournal(dataDir, journal);
      try {
        for (const { rel, existed } of journal.swaps) {
          if (existed) {
            mkdirSync(dirname(join(keep, rel)), { recursive: true });
            renameSync(join(dataDir, rel), join(keep, rel));
          }
          if (existsSync(join(stage, rel))) {
            mkdirSync(dirname(join(dataDir, rel)), { recursive: true });
            renameSync(join(stage, rel), join(dataDir, rel));
          }
        }
      } catch (err) {
        undoSwaps(dataDir, journal);
        throw err;
      }
      rmSync(join(dataDir, JOURNAL), { force: true });
      syncDir(join(dataDir, "images"));
      syncDir(dataDir);
    }
    done = true;
    return {
      manifest,
      previous: journal.swaps.some((s) => s.existed) ? keep : null,
      restored: manifest.files.map((f) => f.path),
      loaded,
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
    lock.release();
    // a data directory made only to stage a restore into PostgreSQL holds nothing afterwards
    if (createdDir && (!done || (pgUrl && !manifest.with_market))) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Merges account.db's WAL into the file and leaves WAL mode (which needs every other connection
 * closed), so that the file alone is the whole store and no stale WAL is left beside the restored
 * one. The server switches it back to WAL when it opens it. A live file that is no database, or a
 * damaged one (what a restore is often for), is left as it is: it is moved aside whole, with its
 * WAL, like any other.
 */
function settleAccountDb(path: string): void {
  let db: Database;
  try {
    db = new Database(path, { readwrite: true, create: false });
  } catch (err) {
    if (isDamaged(err)) return;
    throw err;
  }
  try {
    db.run("PRAGMA busy_timeout = 5000");
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const mode = (db.query("PRAGMA journal_mode = DELETE").get() as { journal_mode: string }).journal_mode;
    if (mode !== "delete") throw new BackupRefused(`${path} is open in another process (a keys or notices command?): let it finish, then restore again`);
  } catch (err) {
    if (err instanceof BackupRefused) throw err;
    if (/locked|busy/i.test((err as Error).message)) throw new BackupRefused(`${path} is open in another process: let it finish, then restore again`);
    if (isDamaged(err)) return;
    throw err;
  } finally {
    db.close();
  }
}

/** SQLite's answer for a file that is not a database, or a damaged one. */
function isDamaged(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT" || /not a database|malformed/i.test((err as Error).message ?? "");
}
