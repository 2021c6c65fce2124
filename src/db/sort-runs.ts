/**
 * SQLite's sorter (CREATE INDEX, and ORDER BY or GROUP BY without an index to read) sorts runs of
 * at most `cache_size` bytes in memory, writes each out and merges them. The snapshot connection
 * keeps a 256 MiB page cache for its inserts, which makes runs of 256 MiB: sorting one is a linked
 * list merge sort over records scattered in memory, bound by cache misses. Runs of a few MiB stay
 * in the processor's caches and the merge of a few hundred of them reads each run in order.
 * Measured on this 2-core machine, one `CREATE INDEX` on `lots` (docs/benchmarks.md, "Sort runs"):
 * 7.7M lots 8.6–12.6 s with 256 MiB runs, 3.4–4.0 s with 4–8 MiB; 28.8M lots 26–35 s against
 * 14–18 s. The page cache matters little to an index build (it reads the table in order and
 * appends the index), so it is set small only for the build and restored after.
 */
import type { Database } from "bun:sqlite";

/** The page cache, and so the sorter's run, while an index is built (KiB). */
export const SORT_RUN_KIB = 4096;

/** Runs `build` with SQLite's sorter making runs of SORT_RUN_KIB, then restores the page cache size. */
export function withSortRuns<T>(db: Database, build: () => T): T {
  const before = db.query<{ cache_size: number }, []>("PRAGMA cache_size").get()?.cache_size ?? -2000;
  db.run(`PRAGMA cache_size = -${SORT_RUN_KIB}`);
  try {
    return build();
  } finally {
    db.run(`PRAGMA cache_size = ${before}`);
  }
}

/** True for a statement that builds an index (the ones worth small sort runs). */
export function buildsIndex(sql: string): boolean {
  return /^\s*CREATE\s+(UNIQUE\s+)?INDEX\b/i.test(sql);
}
