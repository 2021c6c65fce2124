/**
 * The checks a published market snapshot passes before a running server swaps to it
 * (src/serve/cluster/swap.ts): the file is a SQLite database whose pages are sound (`PRAGMA
 * quick_check`), its migrations are exactly this build's (none pending, none unknown), it has the
 * served tables and every read index and full-text table of src/db/market-indexes, and its
 * identity (market_meta) is readable. A snapshot that fails one is refused with the reason; the
 * server keeps the one it serves.
 *
 * The file is opened read-only and never written; the connection is closed before the answer.
 * Integrity: a file whose build sealed it (src/db/snapshot-seal.ts) is read once for its digest,
 * about 0.25 s per GB from the page cache; any other gets `quick_check`, which reads every page once: 0.13 s for the
 * 20 MB tiny market on the 2-core dev machine, so about 7 s per GB (docs/operations.md).
 */
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { READ_STATEMENTS } from "./market-indexes";
import { marketMigrations } from "./migrations/embedded";
import { digestOf, sealOf } from "./snapshot-seal";

/** The tables a snapshot serves from (a market without them is not one). */
const REQUIRED_TABLES = ["market_meta", "artists", "artworks", "lots", "sales", "auction_houses", "fx_rates"] as const;

/** Names of the indexes and full-text tables READ_STATEMENTS creates. */
export const REQUIRED_INDEXES: readonly string[] = READ_STATEMENTS.flatMap((sql) => {
  const m = /CREATE (?:UNIQUE )?INDEX IF NOT EXISTS (\w+)/.exec(sql) ?? /CREATE VIRTUAL TABLE (?:IF NOT EXISTS )?(\w+)/.exec(sql);
  return m ? [m[1]!] : [];
});

/** The read indexes (and search tables) of REQUIRED_INDEXES that `names` (the schema's names) lacks. */
export function missingReadIndexes(names: { has(name: string): boolean }): string[] {
  return REQUIRED_INDEXES.filter((i) => !names.has(i));
}

/** Which file a check looked at: its inode and size, as stat gave them before it was opened. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** When the file got its name (its ctime: the rename that published it). */
  ctimeMs: number;
}

export function fileIdentity(path: string): FileIdentity | null {
  try {
    const s = statSync(path);
    return { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
  } catch {
    return null;
  }
}

/** Whether two stats are of the same file, unchanged. */
export function sameFile(a: FileIdentity | null, b: FileIdentity | null): boolean {
  return a !== null && b !== null && a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** The snapshot id of a market connection: the first 16 hex digits of SHA-256 over its market_meta (MarketSnapshot.stamp). */
export function snapshotIdOf(db: Database): string {
  const rows = db.query<{ key: string; value: string }, []>("SELECT key, value FROM market_meta ORDER BY key").all();
  const stamp = rows.map((r) => `${r.key}=${r.value}`).join(";") || "market";
  return new Bun.CryptoHasher("sha256").update(stamp).digest("hex").slice(0, 16);
}

/** How a check found the file sound: by its build's seal (its digest), or by SQLite's quick_check of every page. */
export type IntegrityCheck = "seal" | "quick_check";

export type SnapshotCheck =
  | { ok: true; id: string; file: FileIdentity; ms: number; integrity: IntegrityCheck }
  | { ok: false; reason: string; file: FileIdentity | null; ms: number };

/** Runs the checks on the market file at `path` (see the file's comment). */
export async function checkSnapshot(path: string): Promise<SnapshotCheck> {
  const started = performance.now();
  const file = fileIdentity(path);
  const refuse = (reason: string): SnapshotCheck => ({ ok: false, reason, file, ms: performance.now() - started });
  if (!file) return refuse(`${path} does not exist`);
  let integrity: IntegrityCheck = "quick_check";
  let db: Database | null = null;
  try {
    try {
      db = new Database(path, { readonly: true, strict: true });
      db.run("PRAGMA busy_timeout = 5000");
      // a file its build sealed: its digest (src/db/snapshot-seal.ts); any other: every page
      const seal = sealOf(path, file);
      if (seal) {
        integrity = "seal";
        const digest = await digestOf(path);
        if (digest !== seal.digest) return refuse(`integrity check failed: the file is not the one its build sealed (digest ${digest}, sealed ${seal.digest})`);
        // the header is read (a file that is no SQLite database fails here)
        db.query("PRAGMA schema_version").get();
      } else {
        const rows = db.query<{ quick_check: string }, []>("PRAGMA quick_check(5)").all();
        const problems = rows.map((r) => Object.values(r)[0] as string).filter((v) => v !== "ok");
        if (problems.length) return refuse(`integrity check failed: ${problems.join("; ")}`);
      }
    } catch (err) {
      return refuse(`not a readable SQLite database: ${(err as Error).message}`);
    }
    const names = new Map(
      db
        .query<{ type: string; name: string }, []>("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index')")
        .all()
        .map((r) => [r.name, r.type]),
    );
    if (!names.has("__migrations")) return refuse("schema: no migration table (not a market built by artmarket)");
    const applied = new Set(
      db
        .query<{ tag: string }, []>("SELECT tag FROM __migrations")
        .all()
        .map((r) => r.tag),
    );
    const known = new Set(marketMigrations.map((m) => m.tag));
    const unknown = [...applied].filter((t) => !known.has(t));
    if (unknown.length) return refuse(`schema: migration ${unknown[0]} is not in this build (built by a newer artmarket?)`);
    const pending = marketMigrations.filter((m) => !applied.has(m.tag)).map((m) => m.tag);
    if (pending.length)
      return refuse(`schema: ${pending.length} migration(s) pending, from ${pending[0]} (built by an older artmarket: rebuild it, or restart the server to migrate it)`);
    const tables = REQUIRED_TABLES.filter((t) => names.get(t) !== "table");
    if (tables.length) return refuse(`schema: table(s) missing: ${tables.join(", ")}`);
    const indexes = missingReadIndexes(names);
    if (indexes.length) return refuse(`read indexes missing: ${indexes.slice(0, 5).join(", ")}${indexes.length > 5 ? ` and ${indexes.length - 5} more` : ""}`);
    let id: string;
    try {
      id = snapshotIdOf(db);
      if (!db.query("SELECT value FROM market_meta WHERE key = 'built_at'").get()) return refuse("market_meta has no built_at: the build did not finish");
    } catch (err) {
      return refuse(`the snapshot id is unreadable: ${(err as Error).message}`);
    }
    return { ok: true, id, file, ms: performance.now() - started, integrity };
  } catch (err) {
    return refuse(`unreadable: ${(err as Error).message}`);
  } finally {
    db?.close();
  }
}
