/**
 * SQLite's sorter (CREATE INDEX, and ORDER BY or GROUP BY without an index to read) sorts runs of
 * at most `cache_size` bytes in memory, writes each out and merges them. The snapshot connection
 * keeps a 256 MiB page cache for its inserts, which makes runs of 256 MiB: sorting one is a linked
 * list merge sort over records scattered in memory, bound by cache misses. Runs of a few MiB stay
 * in the processor's caches and the merge of a few hundred of them reads each run in order.
 * The runs go to temporary files (`temp_store = FILE`: SQLite's temporary directory, SQLITE_TMPDIR
 * or else /var/tmp; deleted as they are opened, up to about the index's size): in memory
 * (`temp_store = MEMORY`, the connection's setting otherwise) they are chains of small chunks,
 * read back three times slower.
 * Measured: docs/history/benchmarks.md#full-scale-now-2-cores-seed-1986 ("Sort runs"). The page cache matters little to
 * an index build (it reads the table in order and appends the index), so both are set only for
 * the build and restored after.
 */
import type { Database } from "bun:sqlite";

/** The page cache, and so the sorter's run, while an index is built (KiB). */
export const SORT_RUN_KIB = 4096;

/**
 * Runs `build` with SQLite's sorter making runs of SORT_RUN_KIB in temporary files, then restores
 * the page cache size and the temporary store. (Changing temp_store drops the connection's
 * temporary tables; the snapshot's connection has none.)
 */
export function withSortRuns<T>(db: Database, build: () => T): T {
  const cache = db.query<{ cache_size: number }, []>("PRAGMA cache_size").get()?.cache_size ?? -2000;
  const store = db.query<{ temp_store: number }, []>("PRAGMA temp_store").get()?.temp_store ?? 0;
  db.run(`PRAGMA cache_size = -${SORT_RUN_KIB}`);
  db.run("PRAGMA temp_store = FILE");
  try {
    return build();
  } finally {
    db.run(`PRAGMA cache_size = ${cache}`);
    db.run(`PRAGMA temp_store = ${store}`);
  }
}

/** True for a statement that builds an index (the ones worth small sort runs). */
export function buildsIndex(sql: string): boolean {
  return /^\s*CREATE\s+(UNIQUE\s+)?INDEX\b/i.test(sql);
}
