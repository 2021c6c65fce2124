/**
 * Backups of a data directory's account store (SQLite's account.db, or the PostgreSQL store
 * several nodes share), taken while servers run, and their restore into either store.
 *
 * A backup is a directory: `account.db` (a consistent snapshot of the account store, made with
 * `VACUUM INTO` on a connection of its own: a read transaction of WAL mode, so the server goes on
 * writing its ledger meanwhile and the copy holds every transaction committed before it began and
 * none after), `secret` (the signing key of image URLs, so that signed URLs stay valid),
 * `images/collectables/` (the uploaded originals the snapshot's collectables name), with
 * `--with-market` also `market.db` and the imported image originals `images/orig/` (both
 * immutable once built: plain copies), and `manifest.json` (written last: a directory without it
 * is not a backup) with the size and SHA-256 of every file.
 *
 * Collectable originals are written before the row that names them and never changed (a new
 * upload gets a new random key), so the originals present are copied first, the account store
 * next, then whatever the snapshot names that was uploaded in between; originals the snapshot does
 * not name (replaced or deleted before it) are left out.
 *
 * With a PostgreSQL store the backup has the same files: `account.db` is a SQLite database of this
 * build's account schema filled table by table inside one REPEATABLE READ transaction (one
 * snapshot while the nodes go on writing), the originals come from `collectable_images` in that
 * same snapshot, and `secret` is the shared one (account_meta 'image_secret'). So any backup
 * restores into either store: `restore --account-store postgres://…` loads the backup's
 * account.db into PostgreSQL in one transaction (the tables emptied first), which is also how a
 * single node's accounts move to a shared store.
 *
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
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ConfigError, redactUrl } from "../platform/config";
import { BUILD_ID } from "../platform/native";
import { DataDirHeld, holdDataDir } from "../platform/serve-lock";
import { VERSION } from "../platform/version";
import { ACCOUNT_DB, accountDbPath, BUSY_TIMEOUT_MS, MARKET_DB, openAccountDb } from "./connection";
import { MigrationError } from "./migrate";
import { accountPgMigrations } from "./migrations/embedded";
import { migratePg } from "./pg/migrate";
import { EPOCH_CHANNEL, type PgBind, SyncPg } from "./pg/sync-client";

export const MANIFEST = "manifest.json";
export const BACKUP_FORMAT = "artmarket-backup";
export const BACKUP_VERSION = 1;
/** The signing secret of image URLs (src/serve/images/urls.ts, loadSecret). */
export const SECRET_FILE = "secret";
/** Uploaded collectable originals, named by their key (src/serve/images/renditions.ts, collectableImageDir). */
export const COLLECTABLE_IMAGES = "images/collectables";
/** Imported image originals of the market (src/pipeline/import, copyImage). */
export const ORIG_IMAGES = "images/orig";

const COLLECTABLE_KEY = /^c[0-9a-f]{24}$/;
/** An imported original: `<sha256>.<ext>` (an import's `.part-<pid>` copies are left out). */
const ORIG_NAME = /^[0-9a-f]{64}\.[a-z0-9]*$/;
/**
 * The files every backup holds, whatever its manifest says: the account store and the signing
 * secret (and `market.db` when the manifest says `with_market`). A manifest without one of them
 * is refused, so a backup cannot restore part of a data directory and leave the rest behind.
 */
export const REQUIRED_FILES: readonly string[] = [ACCOUNT_DB, SECRET_FILE];
/** A signing secret as loadSecret writes it: 32 random bytes in hex. */
const SECRET_TEXT = /^[0-9a-f]{64}$/;
/** Every path a manifest may name; anything else is refused (no path leaves the data directory). */
const BACKUP_PATH = /^(?:account\.db|secret|market\.db|images\/collectables\/c[0-9a-f]{24}|images\/orig\/[0-9a-f]{64}\.[a-z0-9]*)$/;

/** A refusal of the command as given (exit 2): a non-empty target, a held data directory. */
export class BackupRefused extends ConfigError {}
/** A backup that cannot be restored (exit 1): no manifest, a missing file, a checksum that differs. */
export class BackupInvalid extends Error {}

export interface BackupFile {
  /** Relative to the backup (and to the data directory it restores into), `/`-separated. */
  path: string;
  size: number;
  sha256: string;
}

/** What the account store of a backup holds, counted in the snapshot itself. */
export interface AccountCounts {
  users: number;
  api_keys: number;
  du_ledger_rows: number;
  du_total: number;
  collectables: number;
}

/** Where the account store of a backup was read from; the files are the same either way. */
export type AccountStoreKind = "sqlite" | "postgres";

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  artmarket: string;
  created_at: string;
  /** The data directory, or the PostgreSQL URL (its password left out). */
  source: string;
  /** Absent in backups written before the PostgreSQL store existed (they are "sqlite"). */
  account_store?: AccountStoreKind;
  with_market: boolean;
  files: BackupFile[];
  account: AccountCounts;
  /** Originals the snapshot names that were gone by the time they were copied (deleted meanwhile). */
  missing: string[];
}

export interface BackupOptions {
  dataDir: string;
  to: string;
  withMarket?: boolean;
  /** A postgres:// URL: back up that account store instead of the data directory's account.db. */
  accountStore?: string | null;
  now?: () => Date;
}

// ---------------------------------------------------------------- files

const CHUNK = 8 << 20;

/** Copies `src` to `dst` (mode 0600, synced) and returns its size and SHA-256, read once. */
function copyHashed(src: string, dst: string): { size: number; sha256: string } {
  mkdirSync(dirname(dst), { recursive: true, mode: 0o700 });
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(CHUNK);
  const input = openSync(src, "r");
  let size = 0;
  try {
    const output = openSync(dst, "wx", 0o600);
    try {
      for (;;) {
        const n = readSync(input, buf, 0, CHUNK, null);
        if (n === 0) break;
        hash.update(buf.subarray(0, n));
        for (let off = 0; off < n; ) off += writeSync(output, buf, off, n - off);
        size += n;
      }
      fsyncSync(output);
    } finally {
      closeSync(output);
    }
  } finally {
    closeSync(input);
  }
  return { size, sha256: hash.digest("hex") };
}

function hashFile(path: string): { size: number; sha256: string } {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(path, "r");
  let size = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      size += n;
    }
  } finally {
    closeSync(fd);
  }
  return { size, sha256: hash.digest("hex") };
}

/** fsync of a directory (its renames and new entries), where the platform allows it. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not every file system lets a directory be opened for sync
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The regular files of `dir` whose names match `name` (none when `dir` is absent). */
function filesIn(dir: string, name: RegExp): string[] {
  if (!isDir(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && name.test(e.name))
    .map((e) => e.name)
    .sort();
}

function counts(db: Database): AccountCounts {
  const n = (sql: string) => (db.query(sql).get() as { n: number | null }).n ?? 0;
  return {
    users: n("SELECT count(*) AS n FROM users"),
    api_keys: n("SELECT count(*) AS n FROM api_keys"),
    du_ledger_rows: n("SELECT count(*) AS n FROM du_ledger"),
    du_total: n("SELECT sum(du) AS n FROM du_ledger"),
    collectables: n("SELECT count(*) AS n FROM collectables"),
  };
}

/** The counts of the account store in `path` (a backup's account.db). */
function countsOf(path: string): AccountCounts {
  const db = new Database(path, { readonly: true });
  try {
    return counts(db);
  } finally {
    db.close();
  }
}

/** Writes `bytes` to `dst` (mode 0600, synced) and returns their size and SHA-256. */
function writeHashed(bytes: Uint8Array, dst: string): { size: number; sha256: string } {
  mkdirSync(dirname(dst), { recursive: true, mode: 0o700 });
  const fd = openSync(dst, "wx", 0o600);
  try {
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

function fsyncFile(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------- account tables, between SQLite and PostgreSQL

/**
 * The tables of the account store that a backup holds, parents before children (PostgreSQL checks
 * each foreign key as the rows go in). The same names and columns in account.db and PostgreSQL
 * (schema/account.ts, schema/account-pg.ts); account_epoch comes last, after the inserts whose
 * triggers move it.
 */
export const ACCOUNT_TABLES = [
  "plans",
  "users",
  "api_keys",
  "du_ledger",
  "du_daily",
  "notices",
  "account_meta",
  "follows",
  "shares",
  "collectables",
  "collectable_acquisitions",
  "collectable_appraisals",
  "collectable_provenance",
  "collectable_sales",
  "collectable_comp_sets",
  "collectable_comps",
  "account_epoch",
] as const;

/** The tables with an integer `id` key: read from PostgreSQL in its order (the ledger appends to SQLite's b-tree). */
const ID_TABLES = new Set(["users", "api_keys", "du_ledger", "notices", "collectables", "collectable_appraisals", "collectable_provenance", "collectable_sales", "account_epoch"]);

/**
 * What only the PostgreSQL store has: the uploaded originals (a restore fills it from the backup's
 * files) and the cross-node limits' passing state (a restore empties it: the users it counted may
 * be other ones now).
 */
const PG_ONLY_TABLES = ["collectable_images", "rate_windows", "cap_admissions"] as const;

/** Rows one PostgreSQL statement carries (under its 65,535 parameters) or one FETCH returns. */
const ROWS_PER_STATEMENT = 1000;
const PARAMS_PER_STATEMENT = 30_000;
const FETCH_ROWS = 5000;
/** Originals per FETCH (each may be megabytes). */
const FETCH_IMAGES = 16;

const quoted = (name: string) => `"${name}"`;

/**
 * The columns of `table` in account.db, checked against PostgreSQL's: both are this build's schema,
 * so a difference is a build whose two schemas disagree (refused rather than copied in part).
 */
function columnsOf(db: Database, pg: SyncPg, table: string): string[] {
  const mine = (db.query(`PRAGMA table_info(${quoted(table)})`).all() as { name: string }[]).map((c) => c.name);
  const theirs = pg
    .all<{ name: string }>("SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?", table)
    .map((c) => c.name);
  const a = [...mine].sort().join(",");
  const b = [...theirs].sort().join(",");
  if (a !== b) throw new Error(`the account table ${table} has columns (${a}) in SQLite but (${b}) in PostgreSQL: this build's two account schemas disagree`);
  return mine;
}

/** Every table of account.db is one the backup copies (a table added to the schema and not to ACCOUNT_TABLES is refused, not dropped). */
function checkTableList(db: Database): void {
  const names = (
    db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> '__migrations'").all() as { name: string }[]
  ).map((r) => r.name);
  const known = new Set<string>(ACCOUNT_TABLES);
  const extra = names.filter((n) => !known.has(n));
  if (extra.length) throw new Error(`account.db has table(s) the backup does not copy between SQLite and PostgreSQL: ${extra.join(", ")}`);
}

/**
 * The PostgreSQL store holds this build's schema, exactly: a backup's account.db has this build's
 * account schema, and a store migrated further (or not as far) would not fill it column for column.
 */
function checkPgSchema(pg: SyncPg, url: string): void {
  const present = pg.get<{ ok: boolean }>("SELECT to_regclass('artmarket_migrations') IS NOT NULL AS ok");
  if (!present?.ok) throw new BackupRefused(`${redactUrl(url)} holds no artmarket account store (no artmarket_migrations table): nothing to back up`);
  const applied = pg.all<{ tag: string }>("SELECT tag FROM artmarket_migrations ORDER BY tag").map((r) => r.tag);
  const known = accountPgMigrations.map((m) => m.tag).sort();
  if (applied.join(",") !== known.join(","))
    throw new BackupRefused(
      `the account store at ${redactUrl(url)} has the migrations ${applied.join(", ") || "(none)"}, this artmarket's are ${known.join(", ")}: ` +
        "back it up with the artmarket build the nodes run",
    );
}

/** Copies one table from PostgreSQL (inside the caller's snapshot transaction) into account.db; returns the rows. */
function copyTableFromPg(pg: SyncPg, db: Database, table: string): number {
  const columns = columnsOf(db, pg, table);
  const list = columns.map(quoted).join(", ");
  const insert = db.prepare(`INSERT INTO ${quoted(table)} (${list}) VALUES (${columns.map(() => "?").join(", ")})`);
  const write = db.transaction((rows: Record<string, unknown>[]) => {
    for (const row of rows) insert.run(...(columns.map((c) => row[c]) as (string | number | null | Uint8Array)[]));
  });
  // a cursor: one snapshot read in pages, whatever the table's key (an error aborts the transaction, and the cursor with it)
  pg.script(`DECLARE artmarket_backup NO SCROLL CURSOR FOR SELECT ${list} FROM ${quoted(table)}${ID_TABLES.has(table) ? ' ORDER BY "id"' : ""}`);
  let n = 0;
  for (;;) {
    const rows = pg.all<Record<string, unknown>>(`FETCH FORWARD ${FETCH_ROWS} FROM artmarket_backup`);
    if (!rows.length) break;
    write(rows);
    n += rows.length;
  }
  pg.script("CLOSE artmarket_backup");
  insert.finalize();
  return n;
}

/** Copies one table of account.db into PostgreSQL (inside the caller's transaction), in pages of its rowid; returns the rows. */
function copyTableToPg(db: Database, pg: SyncPg, table: string): number {
  const columns = columnsOf(db, pg, table);
  const list = columns.map(quoted).join(", ");
  const per = Math.max(1, Math.min(ROWS_PER_STATEMENT, Math.floor(PARAMS_PER_STATEMENT / columns.length)));
  const select = db.prepare(`SELECT rowid, ${list} FROM ${quoted(table)} WHERE rowid > ? ORDER BY rowid LIMIT ${per}`);
  const row = `(${columns.map(() => "?").join(", ")})`;
  const insertOf = (rows: number) => `INSERT INTO ${quoted(table)} (${list}) VALUES ${Array.from({ length: rows }, () => row).join(", ")}`;
  const full = insertOf(per);
  let after = Number.MIN_SAFE_INTEGER;
  let n = 0;
  for (;;) {
    const rows = select.values(after) as unknown[][];
    if (!rows.length) break;
    after = rows[rows.length - 1]![0] as number;
    const params: PgBind[] = [];
    for (const r of rows) for (let i = 1; i < r.length; i++) params.push(r[i] as PgBind);
    pg.run(rows.length === per ? full : insertOf(rows.length), ...params);
    n += rows.length;
  }
  select.finalize();
  return n;
}

/**
 * The account store of PostgreSQL at one moment, written as the backup's account.db (this build's
 * SQLite account schema) and its originals: every table read in one REPEATABLE READ, READ ONLY
 * transaction, so the rows, the originals they name and the secret are of one snapshot while the
 * nodes go on writing.
 */
function snapshotPg(url: string, to: string): { images: Map<string, { size: number; sha256: string }>; missing: string[]; secret: string | null } {
  // built in a folder of its own (openAccountDb names the file), then renamed into place
  const build = join(to, `.account-${process.pid}`);
  const db = openAccountDb(build);
  const images = new Map<string, { size: number; sha256: string }>();
  const missing: string[] = [];
  let secret: string | null = null;
  let pg: SyncPg | null = null;
  try {
    // one file (no WAL beside it), filled in any order, synced once at the end
    db.run("PRAGMA journal_mode = DELETE");
    db.run("PRAGMA foreign_keys = OFF");
    db.run("PRAGMA synchronous = OFF");
    checkTableList(db);
    for (const table of ACCOUNT_TABLES) db.run(`DELETE FROM ${quoted(table)}`); // the rows the migrations seed (the epoch)
    pg = new SyncPg(url);
    checkPgSchema(pg, url);
    const conn = pg;
    conn.transaction(() => {
      conn.script("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      for (const table of ACCOUNT_TABLES) copyTableFromPg(conn, db, table);
      conn.script(
        `DECLARE artmarket_images NO SCROLL CURSOR FOR
           SELECT c.image_key AS key, i.bytes AS bytes FROM collectables c LEFT JOIN collectable_images i ON i.image_key = c.image_key
           WHERE c.image_kind = 'upload' AND c.image_key IS NOT NULL ORDER BY c.image_key`,
      );
      for (;;) {
        const rows = conn.all<{ key: string; bytes: Uint8Array | null }>(`FETCH FORWARD ${FETCH_IMAGES} FROM artmarket_images`);
        if (!rows.length) break;
        for (const { key, bytes } of rows) {
          if (!COLLECTABLE_KEY.test(key)) continue; // never a path of the backup (nothing writes such a key)
          const path = `${COLLECTABLE_IMAGES}/${key}`;
          if (bytes) images.set(path, writeHashed(bytes, join(to, path)));
          else missing.push(path);
        }
      }
      conn.script("CLOSE artmarket_images");
      secret = conn.get<{ value: string }>("SELECT value FROM account_meta WHERE key = 'image_secret'")?.value ?? null;
    });
  } finally {
    pg?.close();
    db.close();
  }
  fsyncFile(join(build, ACCOUNT_DB));
  renameSync(join(build, ACCOUNT_DB), join(to, ACCOUNT_DB));
  rmSync(build, { recursive: true, force: true });
  chmodSync(join(to, ACCOUNT_DB), 0o600);
  return { images, missing, secret };
}

// ---------------------------------------------------------------- backup

/** A new signing secret, as the server's loadSecret makes one (src/serve/images/urls.ts). */
function newSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");
}

/** Makes the data directory's signing secret when it has none (0600; a server starting meanwhile keeps the first one written). */
function ensureSecret(dataDir: string): true {
  let fd: number;
  try {
    fd = openSync(join(dataDir, SECRET_FILE), "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return true;
    throw err;
  }
  try {
    writeSync(fd, newSecret());
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Writes a backup of `dataDir` (its account.db, or with `accountStore` the PostgreSQL store) into
 * `to` (created, or an existing empty directory) and returns its manifest. Safe while servers run.
 * A failure removes what it wrote.
 */
export function backup(options: BackupOptions): BackupManifest {
  const dataDir = resolve(options.dataDir);
  const to = resolve(options.to);
  const pgUrl = options.accountStore || null;
  const accountPath = accountDbPath(dataDir);
  if (!pgUrl && !existsSync(accountPath)) throw new BackupRefused(`no account store in ${dataDir} (${ACCOUNT_DB}): nothing to back up`);
  if (options.withMarket && !existsSync(join(dataDir, MARKET_DB))) throw new BackupRefused(`no market in ${dataDir} (${MARKET_DB}): leave out --with-market`);
  if (existsSync(to)) {
    if (!isDir(to)) throw new BackupRefused(`${to} exists and is not a directory`);
    if (readdirSync(to).length) throw new BackupRefused(`${to} exists and is not empty: give a new or empty directory`);
  }
  if (to === dataDir || to.startsWith(`${dataDir}/`)) throw new BackupRefused(`the backup directory ${to} is inside the data directory ${dataDir}: give one outside it`);
  const created = !existsSync(to);
  mkdirSync(to, { recursive: true, mode: 0o700 });
  const now = options.now ?? (() => new Date());
  try {
    const files = new Map<string, { size: number; sha256: string }>();
    let missing: string[];
    let createdAt: string;
    /** The shared secret of a PostgreSQL store (hex), when it has one. */
    let sharedSecret: string | null = null;
    if (pgUrl) {
      // the rows, the originals they name and the shared secret: one snapshot of PostgreSQL
      createdAt = now().toISOString();
      const snap = snapshotPg(pgUrl, to);
      for (const [path, f] of snap.images) files.set(path, f);
      missing = snap.missing;
      sharedSecret = snap.secret;
    } else {
      // 1. the collectable originals present now (immutable; their rows come later or never)
      const liveImages = join(dataDir, COLLECTABLE_IMAGES);
      for (const key of filesIn(liveImages, COLLECTABLE_KEY)) {
        try {
          files.set(`${COLLECTABLE_IMAGES}/${key}`, copyHashed(join(liveImages, key), join(to, COLLECTABLE_IMAGES, key)));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err; // removed meanwhile: the snapshot decides below
        }
      }
      // 2. the account store: one consistent snapshot, the server writing on meanwhile
      createdAt = now().toISOString();
      const live = new Database(accountPath, { readwrite: true, create: false });
      try {
        live.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
        live.run("VACUUM INTO ?", [join(to, ACCOUNT_DB)]);
      } finally {
        live.close();
      }
      chmodSync(join(to, ACCOUNT_DB), 0o600);
      // 3. the originals the snapshot names: those uploaded since step 1 are copied now; those it
      //    does not name (replaced or deleted before it) are dropped
      const snapshot = new Database(join(to, ACCOUNT_DB), { readonly: true });
      let named: string[];
      try {
        named = (snapshot.query("SELECT image_key AS k FROM collectables WHERE image_kind = 'upload' AND image_key IS NOT NULL").all() as { k: string }[])
          .map((r) => r.k)
          .filter((k) => COLLECTABLE_KEY.test(k));
      } finally {
        snapshot.close();
      }
      const wanted = new Set(named.map((k) => `${COLLECTABLE_IMAGES}/${k}`));
      for (const path of [...files.keys()]) {
        if (!wanted.has(path)) {
          rmSync(join(to, path));
          files.delete(path);
        }
      }
      missing = [];
      for (const path of wanted) {
        if (files.has(path)) continue;
        try {
          files.set(path, copyHashed(join(dataDir, path), join(to, path)));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
          missing.push(path);
        }
      }
    }
    const account = countsOf(join(to, ACCOUNT_DB));
    files.set(ACCOUNT_DB, hashFile(join(to, ACCOUNT_DB)));
    // 4. the signing secret (every backup holds one): a PostgreSQL store's shared one, else the
    //    data directory's, made now when no server has started there yet (as the server would
    //    make it), or for a PostgreSQL store no node started on and no data directory, a new one
    if (sharedSecret !== null) files.set(SECRET_FILE, writeHashed(Buffer.from(sharedSecret, "utf8"), join(to, SECRET_FILE)));
    else if (existsSync(join(dataDir, SECRET_FILE)) || (!pgUrl && ensureSecret(dataDir))) files.set(SECRET_FILE, copyHashed(join(dataDir, SECRET_FILE), join(to, SECRET_FILE)));
    else files.set(SECRET_FILE, writeHashed(Buffer.from(newSecret(), "utf8"), join(to, SECRET_FILE)));
    // 5. the market and its imported originals: immutable once built (a new build is renamed
    //    over market.db; the copy reads the file it opened)
    if (options.withMarket) {
      files.set(MARKET_DB, copyHashed(join(dataDir, MARKET_DB), join(to, MARKET_DB)));
      for (const name of filesIn(join(dataDir, ORIG_IMAGES), ORIG_NAME))
        files.set(`${ORIG_IMAGES}/${name}`, copyHashed(join(dataDir, ORIG_IMAGES, name), join(to, ORIG_IMAGES, name)));
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      artmarket: `${VERSION} (${BUILD_ID})`,
      created_at: createdAt,
      source: pgUrl ? redactUrl(pgUrl) : dataDir,
      account_store: pgUrl ? "postgres" : "sqlite",
      with_market: Boolean(options.withMarket),
      files: [...files].map(([path, f]) => ({ path, ...f })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      account,
      missing: missing.sort(),
    };
    // the manifest last, by rename: a directory without it is not a backup
    const tmp = join(to, `${MANIFEST}.tmp`);
    writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, join(to, MANIFEST));
    syncDir(join(to, COLLECTABLE_IMAGES));
    syncDir(to);
    return manifest;
  } catch (err) {
    if (created) rmSync(to, { recursive: true, force: true });
    else for (const name of readdirSync(to)) rmSync(join(to, name), { recursive: true, force: true });
    throw err;
  }
}

// ---------------------------------------------------------------- restore

/** Reads and checks the shape of a backup's manifest (not yet its files' checksums). */
export function readManifest(from: string): BackupManifest {
  const path = join(from, MANIFEST);
  if (!isDir(from)) throw new BackupInvalid(`${from} is not a directory`);
  if (!existsSync(path)) throw new BackupInvalid(`${from} has no ${MANIFEST}: not an artmarket backup, or one that did not finish`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(path, "utf8")) as BackupManifest;
  } catch (err) {
    throw new BackupInvalid(`${path} is not valid JSON (${(err as Error).message})`);
  }
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.files)) throw new BackupInvalid(`${path} is not an artmarket backup manifest`);
  if (manifest.version !== BACKUP_VERSION) throw new BackupInvalid(`${path} has format version ${manifest.version}; this artmarket reads version ${BACKUP_VERSION}`);
  const seen = new Set<string>();
  for (const f of manifest.files) {
    if (typeof f?.path !== "string" || !BACKUP_PATH.test(f.path) || seen.has(f.path)) throw new BackupInvalid(`${path} names an unexpected file: ${JSON.stringify(f?.path)}`);
    if (!Number.isSafeInteger(f.size) || f.size < 0 || typeof f.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(f.sha256))
      throw new BackupInvalid(`${path}: the entry of ${f.path} has no valid size and sha256`);
    seen.add(f.path);
  }
  if (typeof manifest.with_market !== "boolean") throw new BackupInvalid(`${path} has no valid with_market (true or false)`);
  const required = manifest.with_market ? [...REQUIRED_FILES, MARKET_DB] : REQUIRED_FILES;
  const absent = required.filter((name) => !seen.has(name));
  if (absent.length)
    throw new BackupInvalid(`${path} has no entry for ${absent.join(", ")}: every backup holds ${required.join(", ")}; an incomplete or altered backup is not restored`);
  if (manifest.account_store !== undefined && manifest.account_store !== "sqlite" && manifest.account_store !== "postgres")
    throw new BackupInvalid(`${path} names an unknown account store: ${JSON.stringify(manifest.account_store)}`);
  return manifest;
}

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
 * Loads the staged account store into PostgreSQL in one transaction: the account tables emptied
 * (with the originals and the cross-node limits' state), every row of the backup inserted under
 * its own ids, each identity's sequence moved past the largest id, the originals and the signing
 * secret stored, and the account epoch moved on, so that running nodes drop the key verdicts and
 * plan limits they cached. Returns the rows loaded per table.
 */
function loadIntoPg(url: string, stage: string, manifest: BackupManifest): Record<string, number> {
  // the backup's account.db brought to this build's schema first (a backup of an older build
  // gains the columns PostgreSQL has; one of a newer build is refused)
  let src: Database;
  try {
    src = openAccountDb(stage);
  } catch (err) {
    if (err instanceof MigrationError) throw new BackupInvalid(`${ACCOUNT_DB} of the backup does not fit this build's account schema: ${err.message}`);
    throw err;
  }
  let pg: SyncPg | null = null;
  try {
    checkTableList(src);
    const epoch = (src.query("SELECT n FROM account_epoch WHERE id = 1").get() as { n: number } | null)?.n ?? 0;
    pg = new SyncPg(url);
    try {
      migratePg(pg);
    } catch (err) {
      if (err instanceof MigrationError) throw new BackupRefused(`the account store at ${redactUrl(url)}: ${err.message}`);
      throw err;
    }
    const conn = pg;
    const rowTables = ACCOUNT_TABLES.filter((t) => t !== "account_epoch");
    const emptied = [...rowTables, ...PG_ONLY_TABLES];
    const loaded: Record<string, number> = {};
    conn.transaction(() => {
      conn.script(`TRUNCATE ${emptied.map(quoted).join(", ")} RESTART IDENTITY CASCADE`);
      for (const table of rowTables) loaded[table] = copyTableToPg(src, conn, table);
      let images = 0;
      const now = Date.now();
      for (const f of manifest.files) {
        if (!f.path.startsWith(`${COLLECTABLE_IMAGES}/`)) continue;
        conn.run("INSERT INTO collectable_images (image_key, bytes, created_at) VALUES (?, ?, ?)", basename(f.path), readFileSync(join(stage, f.path)), now);
        images++;
      }
      loaded.collectable_images = images;
      // the backup's secret becomes the shared one (what a node adopts at start: sharedSecret)
      conn.run(
        `INSERT INTO account_meta (key, value, updated_at) VALUES ('image_secret', ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at WHERE account_meta.value <> excluded.value`,
        readFileSync(join(stage, SECRET_FILE), "utf8").trim(),
        Math.floor(now / 1000),
      );
      // rows inserted with their ids leave the identities where they were: the next insert would collide
      const emptiedSet = new Set<string>(emptied);
      const identities = conn.all<{ t: string; c: string }>(
        "SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'",
      );
      for (const { t, c } of identities) {
        if (!emptiedSet.has(t)) continue;
        conn.get(`SELECT setval(pg_get_serial_sequence(?, ?), coalesce(max(${quoted(c)}), 1), max(${quoted(c)}) IS NOT NULL) FROM ${quoted(t)}`, quoted(t), c);
      }
      // the epoch only moves forward (a node compares it with the one it saw), past the backup's too
      const moved = conn.get<{ n: number }>("UPDATE account_epoch SET n = greatest(n, ?) + 1 WHERE id = 1 RETURNING n", epoch);
      const n = moved?.n ?? epoch + 1;
      if (!moved) conn.run("INSERT INTO account_epoch (id, n) VALUES (1, ?)", n);
      conn.get("SELECT pg_notify(?, ?)", EPOCH_CHANNEL, String(n));
    });
    return loaded;
  } finally {
    pg?.close();
    src.close();
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
