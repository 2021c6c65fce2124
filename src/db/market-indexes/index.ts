/**
 * Indexes and search structures the read API needs on the served tables, by resource. The seed
 * (and the import) runs them once the snapshot is derived; they are not part of the migrations
 * because a snapshot is always built whole.
 */
import type { Database } from "bun:sqlite";
import { STATEMENTS as artists } from "./artists";
import { STATEMENTS as artworks } from "./artworks";
import { STATEMENTS as lots } from "./lots";
import { STATEMENTS as sales } from "./sales";
import { buildsIndex, withSortRuns } from "../sort-runs";

/** The lots' columns the derivation writes (the upcoming lots' forecasts, src/pipeline/derive/upcoming.ts). */
export const DERIVED_LOT_COLUMNS: readonly string[] = ["sale_probability", "expected_hammer_usd"];

export const READ_STATEMENTS: readonly string[] = [...artists, ...artworks, ...lots, ...sales];

/**
 * The indexes among READ_STATEMENTS on the lots alone (the lot list's and the upcoming lots'):
 * the lots are final before the derivation, so these can be built beside it (IndexBuilder,
 * src/pipeline/derive/snapshot.ts); buildReadIndexes then passes over those already built. Not the
 * ones on a column the derivation writes into the lots (DERIVED_LOT_COLUMNS): those come after it.
 */
export const LOT_INDEXES: readonly string[] = READ_STATEMENTS.filter(
  (sql) => /^CREATE INDEX IF NOT EXISTS \w+ ON lots \(/.test(sql) && !DERIVED_LOT_COLUMNS.some((c) => sql.includes(c)),
);

export function buildReadIndexes(db: Database, onStatement?: (done: number, total: number) => void): void {
  READ_STATEMENTS.forEach((sql, i) => {
    if (buildsIndex(sql)) buildIndex(db, sql);
    else db.run(sql);
    onStatement?.(i + 1, READ_STATEMENTS.length);
  });
}

/**
 * The read indexes `db` lacks (a market built before this build added them) or holds under an
 * older definition (`stale`: to drop first), with their statements, in READ_STATEMENTS' order;
 * the search table and the drops of older indexes are not among them. SQLite keeps an index's
 * statement as written, less its IF NOT EXISTS.
 */
export function missingIndexes(db: Database): { name: string; sql: string; stale: boolean }[] {
  const have = new Map(
    db
      .query<{ name: string; sql: string | null }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'index'")
      .all()
      .map((r) => [r.name, r.sql]),
  );
  return READ_STATEMENTS.flatMap((sql): { name: string; sql: string; stale: boolean }[] => {
    const name = buildsIndex(sql) ? /INDEX IF NOT EXISTS (\w+)/.exec(sql)?.[1] : undefined;
    if (name === undefined) return [];
    const stored = have.get(name);
    if (stored === undefined) return [{ name, sql, stale: false }];
    return stored !== sql.replace("INDEX IF NOT EXISTS ", "INDEX ") ? [{ name, sql, stale: true }] : [];
  });
}

/** Builds an index statement of READ_STATEMENTS (its rows sorted in runs: src/db/sort-runs.ts). */
export function buildIndex(db: Database, sql: string): void {
  withSortRuns(db, () => db.run(sql));
}
