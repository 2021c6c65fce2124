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
 */
import { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { ACCOUNT_DB, accountDbPath, BUSY_TIMEOUT_MS, MARKET_DB } from "../db/connection";
import { redactUrl } from "../platform/config";
import { BUILD_ID } from "../platform/native";
import { VERSION } from "../platform/version";
import { snapshotPg } from "./account-copy";
import { copyHashed, filesIn, hashFile, isDir, syncDir, writeHashed } from "./files";
import {
  type AccountCounts,
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupManifest,
  BackupRefused,
  COLLECTABLE_IMAGES,
  COLLECTABLE_KEY,
  MANIFEST,
  ORIG_IMAGES,
  ORIG_NAME,
  SECRET_FILE,
} from "./manifest";

export interface BackupOptions {
  dataDir: string;
  to: string;
  withMarket?: boolean;
  /** A postgres:// URL: back up that account store instead of the data directory's account.db. */
  accountStore?: string | null;
  now?: () => Date;
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
