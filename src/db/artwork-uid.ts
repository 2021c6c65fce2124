/**
 * Artworks' uids. A work whose record gives none gets "aw-", its id in base 36 and its title's slug
 * (at most 40 characters): `defaultArtworkUid`. The served `artworks` table stores such a uid as ''
 * and makes it on read (about 21 bytes a work, and the unique index holds only the uids given by
 * imports; sizes: docs/benchmarks.md#seed); a given uid is stored as it is. The works' source rows
 * (`src_artworks`, src/pipeline/db/works-file.ts) always hold the whole uid, so an import checks a uid
 * against every other work's.
 */
import type { Database } from "bun:sqlite";
import { slugify } from "../market/slug";

/** The uid of a work whose record gives none. */
export const defaultArtworkUid = (id: number, title: string): string => `aw-${id.toString(36)}-${slugify(title).slice(0, 40) || "untitled"}`;

/** The uid to store in the served artworks: '' for the default one (made on read). */
export const storedArtworkUid = (id: number, title: string, uid: string): string => (uid === defaultArtworkUid(id, title) ? "" : uid);

/** A served work's uid from its stored value. */
export const artworkUid = (id: number, title: string, stored: string): string => stored || defaultArtworkUid(id, title);

/** The id a default uid names (not checked against the work's title), or null. */
function idOfDefault(uid: string): number | null {
  const m = /^aw-([0-9a-z]{1,10})-/.exec(uid);
  if (!m) return null;
  const id = Number.parseInt(m[1]!, 36);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The served works with these uids (stored, or made from id and title), as uid → id; a uid no
 * work has is absent. Reads the partial index artworks_uid (`WHERE uid <> ''`) and the works the
 * default uids name.
 */
export function artworkIdsByUids(db: Database, uids: readonly string[]): Map<string, number> {
  const found = new Map<string, number>();
  const stored = db.query<{ id: number }, [string]>("SELECT id FROM artworks WHERE uid = ? AND uid <> ''");
  const byId = db.query<{ uid: string; title: string }, [number]>("SELECT uid, title FROM artworks WHERE id = ?");
  for (const uid of uids) {
    if (found.has(uid) || uid === "") continue;
    const row = stored.get(uid);
    if (row) {
      found.set(uid, row.id);
      continue;
    }
    const id = idOfDefault(uid);
    const work = id === null ? null : byId.get(id);
    if (work && work.uid === "" && defaultArtworkUid(id!, work.title) === uid) found.set(uid, id!);
  }
  return found;
}

/**
 * A placeholder for a default uid while rows are copied into a source table: unique, and never a
 * real uid (imports refuse uids with control characters).
 */
export const UID_PLACEHOLDER_SQL = (idColumn: string): string => `char(1) || ${idColumn}`;

/**
 * Replaces the placeholders (UID_PLACEHOLDER_SQL) of `table` by the works' default uids. Each
 * batch is one transaction (a savepoint inside the caller's): row by row in autocommit, a file in
 * rollback-journal mode made and deleted its journal for every work.
 */
export function expandUidPlaceholders(db: Database, table: string): number {
  const update = db.query(`UPDATE ${table} SET uid = ? WHERE id = ?`);
  // in batches by id, read whole before they are updated (a statement never reads rows it changes)
  const batch = db.query<{ id: number; title: string }, [number]>(`SELECT id, title FROM ${table} WHERE id > ? AND unicode(uid) = 1 ORDER BY id LIMIT 50000`);
  const expand = db.transaction((rows: { id: number; title: string }[]) => {
    for (const r of rows) update.run(defaultArtworkUid(r.id, r.title), r.id);
  });
  let n = 0;
  for (let after = 0, rows = batch.all(after); rows.length; rows = batch.all(after)) {
    expand(rows);
    n += rows.length;
    after = rows[rows.length - 1]!.id;
  }
  return n;
}
