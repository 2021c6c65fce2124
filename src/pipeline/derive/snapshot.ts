/**
 * Finishing a market snapshot, the same way after `seed` and after `import`: once the source
 * tables are loaded (and their indexes rebuilt), derive the served tables, build the read API's
 * indexes, embed the images and build the two vector indexes, delete the snapshot's works file
 * (the artworks' source rows, src/pipeline/db/works-file.ts: the served artworks hold them now), then
 * gather the planner's statistics. The caller writes its market_meta rows and renames the file
 * into place.
 */
import type { Database } from "bun:sqlite";
import { cpus } from "node:os";
import { IndexBuilder, type BuilderSummary } from "../db/index-builder";
import { buildReadIndexes, LOT_INDEXES, READ_STATEMENTS } from "../../db/market-indexes";
import { withSortRuns } from "../../db/sort-runs";
import { detachWorks, removeWorks } from "../db/works-file";
import { embedMarket, startEmbedding, type EmbedMarketSummary, type EmbedPhase, type StartedEmbedding } from "../images/embed-market";
import type { PhaseProgress, Progress } from "../progress";
import { deriveMarket, type DeriveSummary } from "./market";
import { openSnapshotReader } from "./artist-pool";
import { pipelineSettings } from "../../platform/config";

/**
 * Drops the secondary indexes of `tables` and returns a function that recreates them: loading
 * rows into bare tables and indexing once at the end is several times faster than keeping the
 * indexes up to date row by row (each is built with small sort runs: src/db/sort-runs.ts).
 * `keepUnique` leaves UNIQUE indexes in place (they check the rows as they come). A table of an
 * attached file is named with its schema ("works.src_artworks").
 */
export function deferIndexes(db: Database, tables: string[], options: { keepUnique?: boolean } = {}): (onIndex?: (done: number, total: number) => void) => void {
  const rows: { schema: string; name: string; sql: string }[] = [];
  for (const qualified of tables) {
    const [schema, table] = qualified.includes(".") ? (qualified.split(".") as [string, string]) : ["main", qualified];
    for (const r of db
      .query<{ name: string; sql: string }, [string]>(
        `SELECT name, sql FROM "${schema}".sqlite_master WHERE type = 'index' AND sql IS NOT NULL
         ${options.keepUnique ? "AND sql NOT LIKE 'CREATE UNIQUE%'" : ""} AND tbl_name = ?`,
      )
      .all(table)) {
      // sqlite_master keeps the statement without its schema: name the index's schema again
      rows.push({ schema, name: r.name, sql: schema === "main" ? r.sql : r.sql.replace(/^(CREATE (?:UNIQUE )?INDEX )/, `$1"${schema}".`) });
    }
  }
  for (const r of rows) db.run(`DROP INDEX "${r.schema}"."${r.name}"`);
  return (onIndex) => {
    withSortRuns(db, () => {
      rows.forEach((r, i) => {
        db.run(r.sql);
        onIndex?.(i + 1, rows.length);
      });
    });
  };
}

/** The tables derivation writes (their indexes are rebuilt after it). */
const SERVED_TABLES = ["artists", "artworks", "sales"];

export interface FinishOptions {
  dataDir: string;
  asOf: string;
  progress: Progress;
  /** Embed the images and build the vector indexes (default true; tests that never read them may skip it). */
  embed?: boolean;
  /**
   * Build the lots' read indexes (LOT_INDEXES) on a thread of their own while the derivation
   * reads (IndexBuilder). Default: ARTMARKET_EARLY_LOT_INDEXES, else defaultEarlyLotIndexes.
   */
  earlyLotIndexes?: boolean;
  /**
   * The previous snapshot's market.db (a merge import): unchanged pictures keep its vectors and
   * only the others are embedded (embedMarket's `reuse`), after the derivation rather than beside it.
   */
  reuseEmbeddings?: string;
}

/**
 * From this many lots, the lots' read indexes are built beside the derivation by default (on a
 * machine of 2 CPUs or more): at full scale they take longer than the derivation's pass 1
 * (docs/history/derivation.md#the-lot-indexes-beside-pass-1). Below it the second core has the image embedding to run (medium: 41k images
 * beside a derivation of about a minute) and the builds take seconds.
 */
export const EARLY_LOT_INDEXES_MIN_LOTS = 4_000_000;

export function defaultEarlyLotIndexes(lots: number, cpuCount = cpus().length): boolean {
  return cpuCount >= 2 && lots >= EARLY_LOT_INDEXES_MIN_LOTS;
}

export interface FinishSummary {
  derived: DeriveSummary;
  /** null when embedding was skipped. */
  embed: EmbedMarketSummary | null;
  /** The lots' read indexes built beside the derivation (null when they were not). */
  early: BuilderSummary | null;
  /**
   * Seconds per step, as waited for: the embedding starts with the derivation (on worker
   * threads), so `embed` is what was left of it once the read indexes were built.
   */
  seconds: { derive: number; readIndexes: number; embed: number; statistics: number };
}

export async function finishSnapshot(db: Database, options: FinishOptions): Promise<FinishSummary> {
  const { progress } = options;
  const clock = () => performance.now() / 1000;
  // The images only need the source tables: their embedding starts now on worker threads and
  // runs beside the derivation and the index builds (SQLite on this thread, one core).
  let started: StartedEmbedding | null = null;
  let builder: IndexBuilder | null = null;
  let reader: Database | null = null;
  try {
    if (options.embed !== false && !options.reuseEmbeddings) started = startEmbedding(db, options.dataDir);
    let t = clock();
    const restoreServed = deferIndexes(db, SERVED_TABLES);
    // The lots' read indexes on their own thread while the derivation reads (src/pipeline/db/index-builder.ts):
    // this connection stays idle, the derivation reads through an immutable reader until the
    // builder has stopped.
    const path = db.filename && db.filename !== ":memory:" ? db.filename : null;
    const early = path !== null && (options.earlyLotIndexes ?? pipelineSettings().earlyLotIndexes ?? defaultEarlyLotIndexes(countLots(db)));
    let besides: BuilderSummary | null = null;
    if (early) {
      reader = openSnapshotReader(path);
      builder = new IndexBuilder(path, LOT_INDEXES);
    }
    const phases = phaseTracker(progress);
    const derived = await deriveMarket(db, {
      asOf: options.asOf,
      onProgress: phases.tick,
      workers: pipelineSettings().deriveWorkers,
      reader: reader ?? undefined,
      beforeWrite: async () => {
        if (!builder) return;
        besides = await builder.stop();
        builder = null;
      },
    });
    phases.end();
    reader?.close();
    reader = null;
    const deriveSeconds = clock() - t;

    t = clock();
    const phase = progress.phase("indexes of the served tables", READ_STATEMENTS.length);
    restoreServed();
    buildReadIndexes(db, (done) => phase.tick(done));
    phase.end();
    const readIndexes = clock() - t;

    t = clock();
    let embed: EmbedMarketSummary | null = null;
    if (options.embed !== false) {
      const embedPhases = phaseTracker(progress);
      const handed = started;
      started = null;
      embed = await embedMarket(db, options.dataDir, (name: EmbedPhase, done, total) => embedPhases.tick(name, done, total), { started: handed, reuse: options.reuseEmbeddings });
      embedPhases.end();
    }
    const embedSeconds = clock() - t;

    // the served artworks hold the source columns now: the works file goes (src/pipeline/db/works-file.ts)
    detachWorks(db);
    if (path !== null) removeWorks(path);

    t = clock();
    const stats = progress.phase("statistics");
    db.run("ANALYZE");
    stats.end();
    return { derived, embed, early: besides, seconds: { derive: deriveSeconds, readIndexes, embed: embedSeconds, statistics: clock() - t } };
  } finally {
    (started as StartedEmbedding | null)?.cancel();
    (builder as IndexBuilder | null)?.terminate();
    (reader as Database | null)?.close();
  }
}

/** The lots' count as their largest id (instant; ids are dense after a seed, at most larger after an import). */
function countLots(db: Database): number {
  return (db.query("SELECT max(rowid) AS n FROM lots").get() as { n: number | null }).n ?? 0;
}

/** Turns (phase name, done, total) callbacks into one progress phase per name. */
export function phaseTracker(progress: Progress): { tick: (name: string, done: number, total: number) => void; end: () => void } {
  let current: PhaseProgress | null = null;
  let name = "";
  return {
    tick(next, done, total) {
      if (next !== name) {
        current?.end();
        name = next;
        current = progress.phase(next, total);
      }
      current!.tick(done);
    },
    end() {
      current?.end();
      current = null;
      name = "";
    },
  };
}
