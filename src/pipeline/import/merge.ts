/**
 * A merge of what its records touch (incremental): which records allow it (incrementalBlocker),
 * the lot columns whose change touches what is derived (LOT_DERIVED_FROM), and the merge itself
 * into a copy of the current snapshot (mergeIncrementally).
 */
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openMarketForWrite } from "../../db/connection";
import { buildIndex, missingIndexes } from "../../db/market-indexes";
import { ARTWORK_COUNTS } from "../../db/market-indexes/artworks";
import { publishSnapshot } from "../../db/snapshot-seal";
import { checkDiskSpace, importSpaceNeeded } from "../db/leftovers";
import { worksViewOfFinished } from "../db/works-file";
import { DERIVE_STATE_VERSION } from "../derive/state";
import { deriveTouched, type TouchedSummary } from "../derive/touched";
import { estimateMove, replacedEstimate } from "../derive/materiality";
import { recordReplaced } from "./estimate-history";
import { type EstimateMove, type IndexMove, indexMove, recordMarketEvents } from "./events";
import { phaseTracker } from "../derive/snapshot";
import type { Progress } from "../progress";
import type { RecordName } from "./format";
import { abortImport, importSummary, sourceCounts, writeImportMeta } from "./finish";
import { Importer } from "./importer";
import { Report } from "./report";
import { type FileSummary, ImportError, type ImportOptions, type ImportSummary } from "./types";

/** The record files an incremental merge takes: results, sales, rates, houses, events (no artist, work or picture). */
const INCREMENTAL_RECORDS: ReadonlySet<RecordName> = new Set<RecordName>([
  "categories",
  "materials",
  "substrates",
  "surfaces",
  "damages",
  "auction_locations",
  "fx_rates",
  "auction_houses",
  "artist_events",
  "sales",
  "lots",
  "benchmarks",
]);

/**
 * Why a merge derives the whole market rather than what its records touch (null: it need not):
 * `--refit`; records of artists, artworks or pictures (pass 1's hedonic sample, the works'
 * vectors and the artists' vectors need the whole build); a current market that kept no model
 * (derive_state: built by an older artmarket, or by `--refit`'s predecessor); an as-of date
 * before the market's.
 */
export function incrementalBlocker(files: Map<RecordName, { path: string }>, target: string, asOf: string, refit: boolean | undefined): string | null {
  if (refit) return "--refit";
  const other = [...files.keys()].filter((name) => !INCREMENTAL_RECORDS.has(name));
  if (other.length) return `the records change ${other.join(", ")} (the whole market is derived again for them)`;
  let current: Database | null = null;
  try {
    current = new Database(target, { readonly: true });
    const state = current.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'derive_state'").get()
      ? current.query<{ value: string | Uint8Array }, []>("SELECT value FROM derive_state WHERE key = 'version'").get()
      : null;
    if (!state) return "the current market kept no model to go on from (derived by an older artmarket)";
    if (Number(typeof state.value === "string" ? state.value : new TextDecoder().decode(state.value)) !== DERIVE_STATE_VERSION)
      return "the current market's model has another layout";
    const currentAsOf = current.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()?.value;
    if (currentAsOf && asOf < currentAsOf) return `the records' as-of date ${asOf} is before the current market's ${currentAsOf}`;
    return null;
  } catch (err) {
    return `the current market is unreadable (${(err as Error).message})`;
  } finally {
    current?.close();
  }
}

/**
 * The columns of a lot whose change touches what is derived from it: its artist's fit (the lot as
 * artistReader and pass 1 read it; its USD figures follow from the amounts and refreshLots sets
 * them), its sale's aggregates, its search text. A sale's status copied into its lots, a lot
 * number, the top-lot and third-party marks are served as stored and touch nothing derived.
 */
export const LOT_DERIVED_FROM = [
  "sale_id",
  "artwork_id",
  "artist_id",
  "house_id",
  "status",
  "sale_datetime",
  "location_id",
  "reserve_mark",
  "currency",
  "hammer",
  "estimate_min",
  "estimate_max",
  "premium",
  "notes_id",
] as const;

/** The page cache of an incremental merge's connection, KiB (1 GiB). */
const MERGE_CACHE_KIB = 1 << 20;

/**
 * A merge into a copy of the current snapshot (docs/derivation.md#a-merge-derives-what-it-touches):
 * the file copied whole (served tables, indexes, vectors, statistics), the records upserted into
 * it with temporary triggers noting the lots and sales they change, the lots those touch priced
 * again, then deriveTouched; no index rebuilt, no image embedded, no ANALYZE (a day's records
 * move no statistic that matters; `--refit` gathers them again).
 */
export async function mergeIncrementally(
  o: ImportOptions & { from: string; dataDir: string; asOf: string; files: Map<RecordName, { path: string; csv: boolean }>; progress: Progress; target: string },
): Promise<ImportSummary> {
  const { from, dataDir, asOf, files, progress, target } = o;
  const records = [...files.values()].map((f) => f.path);
  checkDiskSpace(dataDir, importSpaceNeeded(from, records, target), `an import of ${from} merged into the current market`);
  const tmp = join(dataDir, `market.db.importing-${process.pid}`);
  for (const f of [tmp, `${tmp}-journal`]) if (existsSync(f)) rmSync(f);
  const report = new Report(dataDir);
  const summaries: FileSummary[] = [];
  const counts: Record<string, number> = {};
  let phase = progress.phase("current market (copy)");
  copyFileSync(target, tmp);
  phase.end();
  const db = openMarketForWrite(tmp, dataDir);
  // the copy's rollback journal in memory (the file is thrown away if the import fails; Bun's
  // SQLite refuses OFF), and a page cache that holds a day's changed index pages until commit
  db.run("PRAGMA journal_mode = MEMORY");
  db.run(`PRAGMA cache_size = ${-MERGE_CACHE_KIB}`);
  let previous: Database | null = null;
  let loadSeconds = 0;
  let touched: TouchedSummary;
  try {
    // the read indexes of this build that the current market predates, or holds under an older
    // definition: built once, by its first merge (first: a build's change of temp_store drops the
    // connection's temporary tables and views) with its statistics, so that SQLite weighs it as the
    // seed's ANALYZE would have
    const missing = missingIndexes(db);
    if (missing.length) {
      phase = progress.phase("read indexes the current market lacks", missing.length);
      missing.forEach((index, i) => {
        if (index.stale) db.run(`DROP INDEX ${index.name}`);
        buildIndex(db, index.sql);
        db.run(`ANALYZE ${index.name}`);
        phase.tick(i + 1);
      });
      phase.end();
    }
    worksViewOfFinished(db);
    db.run("CREATE TEMP TABLE merge_lots (id INTEGER)");
    db.run("CREATE TEMP TABLE merge_sales (id INTEGER)");
    for (const [table, into] of [
      ["lots", "merge_lots"],
      ["src_sales", "merge_sales"],
    ] as const) {
      // (a plain insert: a trigger's own conflict clause gives way to the upsert's that fired it)
      const note = (row: string) => `INSERT INTO ${into} (id) VALUES (${row}.id);`;
      db.run(`CREATE TEMP TRIGGER ${into}_in AFTER INSERT ON main.${table} BEGIN ${note("new")} END`);
      db.run(`CREATE TEMP TRIGGER ${into}_out AFTER DELETE ON main.${table} BEGIN ${note("old")} END`);
      // a lot: when a column something is derived from changed (an upsert sets every column)
      const when = table === "lots" ? ` WHEN ${LOT_DERIVED_FROM.map((c) => `old.${c} IS NOT new.${c}`).join(" OR ")}` : "";
      db.run(`CREATE TEMP TRIGGER ${into}_up AFTER UPDATE ON main.${table}${when} BEGIN ${note("old")} ${note("new")} END`);
    }
    const importer = new Importer(db, { dataDir, from, asOf, mode: "merge", incremental: true, report, createdImages: [], files, progress, summaries });
    phase = progress.phase("current market (merge)");
    importer.base(target);
    phase.end();
    const loadStart = performance.now();
    await importer.loadAll();
    loadSeconds = (performance.now() - loadStart) / 1000;
    phase = progress.phase("lots: refresh after merge");
    const ids = (table: string) =>
      db
        .query<{ id: number }, []>(`SELECT DISTINCT id FROM ${table} ORDER BY id`)
        .all()
        .map((r) => r.id);
    const repriced = importer.refreshLots(ids("merge_sales"));
    phase.end();
    for (const t of ["merge_lots_in", "merge_lots_out", "merge_lots_up", "merge_sales_in", "merge_sales_out", "merge_sales_up"]) db.run(`DROP TRIGGER ${t}`);
    const lots = [...new Set([...ids("merge_lots"), ...repriced.other])].sort((a, b) => a - b);

    writeImportMeta(db, asOf, "merge");
    previous = new Database(target, { readonly: true });
    const phases = phaseTracker(progress);
    const moves: EstimateMove[] = [];
    const indexMoves: IndexMove[] = [];
    const replaced: [number, unknown[]][] = [];
    const result = await deriveTouched(db, previous, {
      asOf,
      touched: { lots, sales: ids("merge_sales"), repriced: repriced.upcoming },
      onProgress: phases.tick,
      observer: {
        artwork: (artist, published, written) => {
          const artwork = written[0] as number;
          const old = replacedEstimate(published, written);
          if (old) replaced.push([artwork, old]);
          const moved = estimateMove(published, written);
          if (moved) moves.push({ artwork, artist, before: moved[0], now: moved[1] });
        },
        chart: (_artist, chart) => {
          const moved = indexMove(chart);
          if (moved) indexMoves.push(moved);
        },
      },
    });
    phases.end();
    if ("reason" in result) throw new ImportError(`the merge cannot derive what it touched: ${result.reason} (import with --refit)`);
    touched = result;
    // what the day's records changed, for those who follow it (docs/webhooks.md)
    recordMarketEvents(db, previous, { asOf, lots, sales: ids("merge_sales"), estimates: moves, indexes: indexMoves });
    // the estimates it replaced, for reading back by date
    recordReplaced(db, previous, asOf, replaced);
    // the category counts, over the works as they now are (a new work, an estimate moved)
    phase = progress.phase("artwork counts");
    for (const sql of ARTWORK_COUNTS) db.run(sql);
    phase.end();
    phase = progress.phase("counts and close");
    Object.assign(counts, sourceCounts(db));
    previous.close();
    db.close();
    phase.end();
  } catch (err) {
    previous?.close();
    db.close();
    return abortImport(err, tmp, report);
  }
  await report.close();
  phase = progress.phase("seal and publish");
  await publishSnapshot(tmp, target);
  phase.end();
  return importSummary(
    { from, mode: "merge", asOf, summaries, counts, report, loadSeconds, progress, target },
    { estimated: touched.estimated, pairs: touched.pairs.added, embed: null, derivation: { kind: "incremental", summary: touched } },
  );
}
