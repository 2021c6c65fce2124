/**
 * The account tables copied between SQLite and PostgreSQL: a backup of the PostgreSQL store reads
 * them into a SQLite account.db of this build's schema (`snapshotPg`), a restore into PostgreSQL
 * loads a backup's account.db into them (`loadIntoPg`).
 */
import type { Database } from "bun:sqlite";
import { chmodSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { ACCOUNT_DB, openAccountDb } from "../db/connection";
import { MigrationError } from "../db/migrate";
import { valueRows } from "../db/sql";
import { accountPgMigrations } from "../db/migrations/embedded";
import * as accountSchema from "../db/schema/account";
import { migratePg } from "../db/pg/migrate";
import { EPOCH_CHANNEL, type PgBind, SyncPg } from "../db/pg/sync-client";
import { redactUrl } from "../platform/config";
import { fsyncFile, writeHashed } from "./files";
import { BackupInvalid, type BackupManifest, BackupRefused, COLLECTABLE_IMAGES, COLLECTABLE_KEY, SECRET_FILE } from "./manifest";

/** The tables of account.db's schema (src/db/schema/account.ts), as drizzle declares them. */
const ACCOUNT_SCHEMA = (Object.values(accountSchema) as unknown[]).filter((t): t is SQLiteTable => is(t, SQLiteTable)).map((t) => getTableConfig(t));

/**
 * The tables of the account store that a backup holds: every table of account.db's schema (the
 * same names and columns in PostgreSQL's, schema/account-pg.ts), parents before children
 * (PostgreSQL checks each foreign key as the rows go in), otherwise by name; account_epoch comes
 * last, after the inserts whose triggers move it. Derived from the schema, so a table added to it
 * is backed up without a list to edit.
 */
export const ACCOUNT_TABLES: readonly string[] = (() => {
  const parents = new Map(ACCOUNT_SCHEMA.map((c) => [c.name, c.foreignKeys.map((fk) => getTableConfig(fk.reference().foreignTable).name)]));
  const order: string[] = [];
  const visit = (name: string): void => {
    if (order.includes(name)) return;
    for (const parent of parents.get(name) ?? []) if (parent !== name) visit(parent);
    order.push(name);
  };
  for (const name of [...parents.keys()].sort()) if (name !== "account_epoch") visit(name);
  return [...order, "account_epoch"];
})();

/**
 * Roll-ups that PostgreSQL's triggers keep as rows go into another table (du_key_daily, from
 * du_ledger: migration 0007): copied after the rest, over what the triggers added meanwhile.
 */
const FILLED_BY_TRIGGERS: ReadonlySet<string> = new Set(["du_key_daily"]);

/** The tables with an integer `id` key: read from PostgreSQL in its order (the ledger appends to SQLite's b-tree). */
const ID_TABLES = new Set(ACCOUNT_SCHEMA.filter((c) => c.columns.some((col) => col.name === "id" && col.primary)).map((c) => c.name));

/**
 * What only the PostgreSQL store has: the uploaded originals (a restore fills it from the backup's
 * files), the cross-node limits' passing state and the ledger's running totals (a restore empties
 * them: the users they counted may be other ones now, and the totals are counted again from the
 * restored du_daily by each account's next batch).
 */
const PG_ONLY_TABLES = ["collectable_images", "rate_windows", "cap_admissions", "du_totals"] as const;

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

/** Every table of account.db is one the backup copies (a table made outside this build's schema is refused, not dropped). */
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
  const insertOf = (rows: number) => `INSERT INTO ${quoted(table)} (${list}) VALUES ${valueRows(rows, columns.length)}`;
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
export function snapshotPg(url: string, to: string): { images: Map<string, { size: number; sha256: string }>; missing: string[]; secret: string | null } {
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

/**
 * Loads the staged account store into PostgreSQL in one transaction: the account tables emptied
 * (with the originals and the cross-node limits' state), every row of the backup inserted under
 * its own ids, each identity's sequence moved past the largest id, the originals and the signing
 * secret stored, and the account epoch moved on, so that running nodes drop the key verdicts and
 * plan limits they cached. Returns the rows loaded per table.
 */
export function loadIntoPg(url: string, stage: string, manifest: BackupManifest): Record<string, number> {
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
      for (const table of rowTables) if (!FILLED_BY_TRIGGERS.has(table)) loaded[table] = copyTableToPg(src, conn, table);
      // what the inserts above added to a roll-up a trigger keeps is replaced by the backup's own rows
      for (const table of FILLED_BY_TRIGGERS) {
        conn.run(`DELETE FROM ${quoted(table)}`);
        loaded[table] = copyTableToPg(src, conn, table);
      }
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
