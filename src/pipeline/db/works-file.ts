/**
 * The artworks' source rows (`src_artworks`) while a snapshot is built: in a file of their own
 * beside the snapshot (`<snapshot>-works`), attached as the schema `works`, and deleted once the
 * snapshot is finished. Statements name the table without a schema (SQLite finds it in the
 * attached file), so the generator, the importer and the derivation read and write it as before.
 *
 * Why: the served `artworks` table holds every source column too (the derivation copies them, and
 * `signed`), so a finished market.db keeps each artwork once. At full scale (12.2M works) the
 * source rows and their two indexes were 1.7 GB of market.db that nothing served. An import that
 * merges into the current market reads the works' source columns back from its `artworks`
 * (`SOURCE_ARTWORK_COLUMNS`).
 */
import type { Database } from "bun:sqlite";
import { expandUidPlaceholders, UID_PLACEHOLDER_SQL } from "../../db/artwork-uid";
import { existsSync, rmSync } from "node:fs";

export const WORKS_SCHEMA = "works";

/** The works file of the snapshot at `snapshot`. */
export const worksPath = (snapshot: string): string => `${snapshot}-works`;

/** The source columns of an artwork, in the table's order, with their declarations (the served `artworks` has each of them). */
const COLUMNS: readonly (readonly [string, string])[] = [
  ["id", "integer PRIMARY KEY NOT NULL"],
  ["uid", "text NOT NULL"],
  ["artist_id", "integer NOT NULL"],
  ["title", "text NOT NULL"],
  ["category_id", "integer NOT NULL"],
  ["medium", "text NOT NULL"],
  ["material_ids", "text DEFAULT '' NOT NULL"],
  ["substrate_id", "integer"],
  ["creation_year", "integer"],
  ["height_cm", "real"],
  ["width_cm", "real"],
  ["depth_cm", "real"],
  ["signed", "integer DEFAULT false NOT NULL"],
  ["edition_group_id", "integer"],
  ["edition_number", "integer"],
  ["edition_size", "integer"],
  ["image_id", "integer"],
];

export const SOURCE_ARTWORK_COLUMNS: readonly string[] = COLUMNS.map(([name]) => name);

const TABLE = `CREATE TABLE ${WORKS_SCHEMA}.src_artworks (${COLUMNS.map(([name, decl]) => `${name} ${decl}`).join(", ")})`;

/** The source table's indexes: the uid (unique: imports look works up by it) and the artist (the derivation reads an artist's works). */
export const WORKS_INDEXES: readonly string[] = [
  `CREATE UNIQUE INDEX IF NOT EXISTS ${WORKS_SCHEMA}.src_artworks_uid ON src_artworks (uid)`,
  `CREATE INDEX IF NOT EXISTS ${WORKS_SCHEMA}.src_artworks_artist ON src_artworks (artist_id)`,
];

/**
 * Creates the works file of the snapshot at `snapshot` (replacing one left behind by a build that
 * stopped) and attaches it to `db`, the snapshot's connection, with the snapshot's pragmas.
 * `indexes`: which of WORKS_INDEXES to create now (a bulk load creates them after).
 */
export function attachNewWorks(db: Database, snapshot: string, indexes: readonly string[] = WORKS_INDEXES): void {
  removeWorks(snapshot);
  db.run(`ATTACH DATABASE ? AS ${WORKS_SCHEMA}`, [worksPath(snapshot)]);
  db.run(`PRAGMA ${WORKS_SCHEMA}.journal_mode = OFF`);
  db.run(`PRAGMA ${WORKS_SCHEMA}.synchronous = OFF`);
  db.run(TABLE);
  for (const sql of indexes) db.run(sql);
}

/** An SQLite URI that opens the file at `path` immutable (read-only, no locks; the connection needs SQLITE_OPEN_URI). */
export const immutableUri = (path: string): string => `file:${path.replace(/[?#%]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`)}?immutable=1`;

/**
 * Fills the attached works table from `from` (a table with every source column: a market's served
 * `artworks`, whose default uids are stored as '' and are written out whole here).
 */
export function fillWorksFrom(db: Database, from: string): void {
  const cols = SOURCE_ARTWORK_COLUMNS.map((c) => `"${c}"`).join(", ");
  const values = SOURCE_ARTWORK_COLUMNS.map((c) => (c === "uid" ? `CASE WHEN uid = '' THEN ${UID_PLACEHOLDER_SQL("id")} ELSE uid END` : `"${c}"`)).join(", ");
  db.run(`INSERT INTO ${WORKS_SCHEMA}.src_artworks (${cols}) SELECT ${values} FROM ${from}`);
  expandUidPlaceholders(db, `${WORKS_SCHEMA}.src_artworks`);
}

/**
 * For deriving a finished market again (the valuation benchmark's hold-out copy, tests): its works
 * file, made from its served artworks, attached to `db`. Delete it with removeWorks.
 */
export function attachWorksOfFinished(db: Database, snapshot: string): void {
  attachNewWorks(db, snapshot, []);
  fillWorksFrom(db, "main.artworks");
  for (const sql of WORKS_INDEXES) db.run(sql);
}

/**
 * In a finished snapshot (an incremental merge works in a copy of one, src/pipeline/derive/touched.ts):
 * its served artworks read as `src_artworks`, a temporary view of their source columns (default
 * uids as stored, '').
 */
export function worksViewOfFinished(db: Database): void {
  db.run(`CREATE TEMP VIEW IF NOT EXISTS src_artworks AS SELECT ${SOURCE_ARTWORK_COLUMNS.join(", ")} FROM main.artworks`);
}

/**
 * On an immutable reader (opened with SQLITE_OPEN_URI): the served artworks of the finished
 * snapshot at `snapshot`, attached immutable as `prev`, read as `src_artworks` (a temporary view).
 */
export function worksViewOfSnapshot(db: Database, snapshot: string): void {
  db.run("ATTACH DATABASE ? AS prev", [immutableUri(snapshot)]);
  db.run(`CREATE TEMP VIEW src_artworks AS SELECT ${SOURCE_ARTWORK_COLUMNS.join(", ")} FROM prev.artworks`);
}

/** Attaches the works file, when there is one, to an immutable reader of the snapshot (opened with SQLITE_OPEN_URI). */
export function attachWorksReader(db: Database, snapshot: string): void {
  const path = worksPath(snapshot);
  if (existsSync(path)) db.run(`ATTACH DATABASE ? AS ${WORKS_SCHEMA}`, [immutableUri(path)]);
}

/** Detaches the works file from `db` when it is attached. */
export function detachWorks(db: Database): void {
  const attached = db
    .query<{ name: string }, []>("PRAGMA database_list")
    .all()
    .some((d) => d.name === WORKS_SCHEMA);
  if (attached) db.run(`DETACH DATABASE ${WORKS_SCHEMA}`);
}

/** Deletes the works file of the snapshot at `snapshot` (and its journal, if any). */
export function removeWorks(snapshot: string): void {
  for (const f of [worksPath(snapshot), `${worksPath(snapshot)}-journal`]) rmSync(f, { force: true });
}
