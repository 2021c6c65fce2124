/**
 * The thread of an IndexBuilder (index-builder.ts): it opens the snapshot for writing and runs
 * the statements it is sent one after the other, each index with small sort runs
 * (src/db/sort-runs.ts), until they are all built or the owning thread asks it to stop; it
 * checks between statements.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts): a `bun build --compile`
 * binary only holds the workers it was told about.
 *
 * Messages in:  { path, statements: string[], stop: SharedArrayBuffer (an Int32 set to 1 to stop) }.
 * Messages out: { built: statements done, seconds } after each, then { finished: true }, or { error }.
 */
import { Database } from "bun:sqlite";
import { buildsIndex, withSortRuns } from "../../db/sort-runs";

declare const self: Worker;

self.onmessage = (event: MessageEvent) => {
  const { path, statements, stop } = event.data as { path: string; statements: string[]; stop: SharedArrayBuffer };
  const flag = new Int32Array(stop);
  const started = performance.now();
  let db: Database | null = null;
  try {
    db = new Database(path, { readwrite: true, create: false });
    // as the snapshot's own connection: no journal (a failed snapshot is deleted, not rolled back)
    db.run("PRAGMA journal_mode = OFF");
    db.run("PRAGMA synchronous = OFF");
    // the owning thread holds no lock while a builder runs; this only covers its last statement's end
    db.run("PRAGMA busy_timeout = 60000");
    const conn = db;
    for (let i = 0; i < statements.length && Atomics.load(flag, 0) === 0; i++) {
      const sql = statements[i]!;
      if (buildsIndex(sql)) withSortRuns(conn, () => conn.run(sql));
      else conn.run(sql);
      self.postMessage({ built: i + 1, seconds: (performance.now() - started) / 1000 });
    }
    db.close();
    db = null;
    self.postMessage({ finished: true });
  } catch (err) {
    db?.close();
    self.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
