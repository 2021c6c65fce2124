/**
 * `import`: loads real auction records written in the import format (docs/import-format.md) into
 * a new market snapshot, built in a temporary file exactly like the seed's and renamed into place.
 *
 * - Every file is streamed record by record (src/pipeline/import/reader.ts); memory holds the sales (a few
 *   fields each), the FX rates and bit sets of the ids seen, never a file.
 * - Every record is checked (types, required fields, allowed values, dates, references to records
 *   read before it, cross-field rules); a rejected record goes to the report
 *   `<data>/import-report-<timestamp>.jsonl` with its file, line and reason, and the import goes on.
 * - All or nothing: anything structural (the manifest, a CSV header, an unreadable file, a failure
 *   while deriving) throws ImportError and leaves the current market as it was.
 * - Idempotent: a snapshot is a function of the directory's records (and, in merge mode, of the
 *   current market): the same directory imported twice gives the same tables.
 *
 * Modes: "replace" (default) builds the market from the import alone (plus the built-in reference
 * vocabularies); "merge" starts from the current market's source tables and upserts the import's
 * records by id.
 */
import type { FileSink } from "bun";
import { Database, type Statement } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { defaultArtworkUid } from "../../db/artwork-uid";
import { usdCents } from "../../db/fx";
import { marketDbPath, openMarketForWrite } from "../../db/connection";
import { publishSnapshot } from "../../db/snapshot-seal";
import { checkDiskSpace, importSpaceNeeded, removeStaleBuilds } from "../db/leftovers";
import { attachNewWorks, fillWorksFrom, removeWorks, worksViewOfFinished } from "../db/works-file";
import { DERIVE_STATE_VERSION } from "../derive/state";
import { deriveTouched, type TouchedSummary } from "../derive/touched";
import { deferIndexes, finishSnapshot, phaseTracker } from "../derive/snapshot";
import type { EmbedMarketSummary } from "../images/embed-market";
import { loadSharp } from "../../platform/native";
import { Progress } from "../progress";
import { slugify } from "../../market/slug";
import { CURRENCIES } from "../../market/currencies";
import { FIRST_YEAR } from "../../market/calendar";
import { TOP_LOT_MIN_ESTIMATE_USD } from "../../market/lots";
import { CATEGORIES, DAMAGES, LOCATIONS, MATERIALS, SUBSTRATES, SURFACES } from "../seed/reference";
import { TRUTH_DB } from "../seed/truth";
import { epochSeconds, isIsoDate } from "../../market/time";
import { FORMAT_NAME, FORMAT_VERSION, parseRecord, RECORDS, VOCABULARIES, type RecordName, type RecordSpec, type Row, type Vocabulary } from "./format";
import { forEachCsvRecord, forEachLine } from "./reader";

export type ImportMode = "replace" | "merge";

export interface ImportOptions {
  dataDir: string;
  /** The import directory (manifest.json and the record files). */
  from: string;
  mode?: ImportMode;
  quiet?: boolean;
  /** Called as each phase starts (a file name such as "lots.jsonl", or a step of the build). */
  onPhase?: (name: string) => void;
  /** Embed the images and build the vector indexes (default true; tests that never read them may skip it). */
  embed?: boolean;
  /** A merge derives the whole market again (the model refitted) rather than what its records touch. */
  refit?: boolean;
}

export interface FileSummary {
  file: string;
  accepted: number;
  rejected: number;
}

export interface ImportSummary {
  from: string;
  mode: ImportMode;
  asOf: string;
  files: FileSummary[];
  accepted: number;
  rejected: number;
  /** Rows of the source tables of the new market. */
  counts: Record<string, number>;
  estimated: number;
  pairs: number;
  /** The image embeddings (null when skipped, or an incremental merge: the vectors stay). */
  embed: EmbedMarketSummary | null;
  /** How the snapshot was derived: `incremental` (a merge, what it touched) or `full`, and for a merge derived whole, why. */
  derivation: { kind: "incremental"; summary: TouchedSummary } | { kind: "full"; reason: string | null };
  /** The report of rejected records; null when none was rejected. */
  reportPath: string | null;
  /** Reading and checking the files, seconds; records (accepted and rejected) per second. */
  loadSeconds: number;
  rowsPerSecond: number;
  seconds: number;
  bytes: number;
  path: string;
}

/** A structural failure: nothing is replaced. */
export class ImportError extends Error {}

/** A rejected record: its reason. */
type Verdict = string | undefined;

const BUILTIN_VOCABULARIES: Record<Vocabulary, readonly string[]> = {
  categories: CATEGORIES,
  materials: MATERIALS,
  substrates: SUBSTRATES,
  surfaces: SURFACES,
  damages: DAMAGES,
};

/** The built-in vocabulary rows, as the seed writes them. */
export function builtinVocabulary(v: Vocabulary): { id: number; name: string; second: string }[] {
  return BUILTIN_VOCABULARIES[v].map((w, i) =>
    v === "categories" ? { id: i + 1, name: w, second: slugify(w) } : { id: i + 1, name: slugify(w).replace(/-/g, "_"), second: w[0]!.toUpperCase() + w.slice(1) },
  );
}

/** Source tables of a market (copied whole in merge mode), in a fixed order. */
export const SOURCE_TABLES = [
  "auction_locations",
  "categories",
  "materials",
  "substrates",
  "surfaces",
  "damages",
  "fx_rates",
  "auction_houses",
  "src_artists",
  "artist_events",
  "src_sales",
  "src_artworks",
  "images",
  "lot_notes",
  "lots",
  "benchmark_series",
  "benchmarks",
] as const;

/**
 * Notes texts an import remembers (with their lot_notes ids), about 100 MB at most: a market's
 * notes repeat a few phrases, so each is stored once; a file of mostly distinct notes past this
 * many gives each further text a row of its own (correct, only not shared).
 */
const NOTE_TEXTS_KEPT = 1_000_000;

/** Integer ids seen in this import: a bit set (a Set beyond 2^28). */
class IdSet {
  private bits = new Uint8Array(1 << 12);
  private readonly big = new Set<number>();
  has(id: number): boolean {
    if (id >= 2 ** 28) return this.big.has(id);
    const byte = id >>> 3;
    return byte < this.bits.length && (this.bits[byte]! & (1 << (id & 7))) !== 0;
  }
  add(id: number): void {
    if (id >= 2 ** 28) {
      this.big.add(id);
      return;
    }
    const byte = id >>> 3;
    if (byte >= this.bits.length) {
      let size = this.bits.length;
      while (size <= byte) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.bits);
      this.bits = next;
    }
    this.bits[byte]! |= 1 << (id & 7);
  }
}

interface SaleInfo {
  houseId: number;
  locationId: number;
  currency: string;
  status: string;
  start: string;
  /** `start` as Unix seconds, what a lot stores (computed on first use). */
  startSeconds?: number;
}

function readManifest(from: string): { asOf: string } {
  const path = join(from, "manifest.json");
  if (!existsSync(path)) throw new ImportError(`${path} is missing: an import directory starts with a manifest.json`);
  let m: unknown;
  try {
    m = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new ImportError(`manifest.json is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof m !== "object" || m === null || Array.isArray(m)) throw new ImportError("manifest.json must be a JSON object");
  const o = m as Record<string, unknown>;
  if (o.format !== FORMAT_NAME) throw new ImportError(`manifest.json: format must be "${FORMAT_NAME}", got ${JSON.stringify(o.format)}`);
  if (o.version !== FORMAT_VERSION) throw new ImportError(`manifest.json: version ${JSON.stringify(o.version)} is not supported (this build reads version ${FORMAT_VERSION})`);
  if (typeof o.as_of !== "string" || !isIsoDate(o.as_of) || o.as_of < "1990-01-01") {
    throw new ImportError(`manifest.json: as_of must be a date YYYY-MM-DD from 1990 on, got ${JSON.stringify(o.as_of)}`);
  }
  return { asOf: o.as_of };
}

/** The record files present: name → path (JSONL or CSV; both for one type is an error). */
function discoverFiles(from: string): Map<RecordName, { path: string; csv: boolean }> {
  const found = new Map<RecordName, { path: string; csv: boolean }>();
  for (const name of Object.keys(RECORDS) as RecordName[]) {
    const jsonl = join(from, `${name}.jsonl`);
    const csv = join(from, `${name}.csv`);
    const hasJsonl = existsSync(jsonl);
    const hasCsv = existsSync(csv);
    if (hasJsonl && hasCsv) throw new ImportError(`both ${name}.jsonl and ${name}.csv are present: keep one`);
    if (hasJsonl) found.set(name, { path: jsonl, csv: false });
    else if (hasCsv) found.set(name, { path: csv, csv: true });
  }
  return found;
}

class Report {
  path: string | null = null;
  private sink: FileSink | null = null;
  count = 0;
  constructor(private readonly dataDir: string) {}

  add(file: string, line: number, reason: string, row: unknown): void {
    if (!this.sink) {
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      let path = join(this.dataDir, `import-report-${stamp}.jsonl`);
      for (let k = 2; existsSync(path); k++) path = join(this.dataDir, `import-report-${stamp}-${k}.jsonl`);
      this.path = path;
      this.sink = Bun.file(path).writer();
    }
    this.count++;
    this.sink.write(`${JSON.stringify({ file, line, reason, row })}\n`);
  }

  async close(): Promise<void> {
    if (this.sink) await this.sink.end();
    this.sink = null;
  }
}

const norm = (s: string) => slugify(s).replace(/-/g, "_");

/** Looks a vocabulary word up by its name, label or slug, in any case. */
class Lookup {
  private readonly map = new Map<string, number>();
  add(id: number, ...keys: string[]): void {
    for (const k of keys) {
      if (!k) continue;
      if (!this.map.has(k.toLowerCase())) this.map.set(k.toLowerCase(), id);
      if (!this.map.has(norm(k))) this.map.set(norm(k), id);
    }
  }
  get(word: string): number | undefined {
    return this.map.get(word.trim().toLowerCase()) ?? this.map.get(norm(word));
  }
}

export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const from = resolve(options.from);
  if (!existsSync(from) || !statSync(from).isDirectory()) throw new ImportError(`${from} is not a directory`);
  const { asOf } = readManifest(from);
  const files = discoverFiles(from);
  const progress = new Progress("import", options.quiet);
  const onPhase = options.onPhase;
  if (onPhase) {
    const phase = progress.phase.bind(progress);
    progress.phase = (name, total, options) => {
      onPhase(name);
      return phase(name, total, options);
    };
  }
  const dataDir = resolve(options.dataDir);
  const target = marketDbPath(dataDir);
  const hasCurrent = existsSync(target);
  const requested: ImportMode = options.mode ?? "replace";
  const mode: ImportMode = requested === "merge" && hasCurrent ? "merge" : "replace";
  // a killed build's files first (image copies too), so their space counts as free (src/pipeline/db/leftovers.ts)
  removeStaleBuilds(dataDir, { images: true, log: options.quiet ? undefined : (line) => process.stderr.write(`import: ${line}\n`) });
  const records = [...files.values()].map((f) => f.path);
  // a merge derives what its records touch, unless it cannot (incrementalBlocker)
  const blocker = mode === "merge" ? incrementalBlocker(files, target, asOf, options.refit) : null;
  if (mode === "merge" && !blocker) return mergeIncrementally({ ...options, from, dataDir, asOf, files, progress, target });
  checkDiskSpace(dataDir, importSpaceNeeded(from, records, mode === "merge" ? target : null), `an import of ${from}${mode === "merge" ? " merged into the current market" : ""}`);
  mkdirSync(dataDir, { recursive: true });
  const tmp = join(dataDir, `market.db.importing-${process.pid}`);
  for (const f of [tmp, `${tmp}-journal`]) if (existsSync(f)) rmSync(f);
  const report = new Report(dataDir);
  const createdImages: string[] = [];
  const db = openMarketForWrite(tmp, dataDir);
  attachNewWorks(db, tmp);
  const summaries: FileSummary[] = [];
  let loadSeconds = 0;
  const counts: Record<string, number> = {};
  let derived = { estimated: 0, pairs: 0 };
  let embed: EmbedMarketSummary | null = null;
  try {
    const importer = new Importer(db, { dataDir, from, asOf, mode, report, createdImages, files, progress, summaries });
    let phase = progress.phase(mode === "merge" ? "current market (merge)" : "reference data");
    importer.base(target);
    phase.end();
    const restore = deferIndexes(db, ["lots", "works.src_artworks", "artist_events", "src_sales", "images"], { keepUnique: true });
    const loadStart = performance.now();
    await importer.loadAll();
    loadSeconds = (performance.now() - loadStart) / 1000;
    if (mode === "merge") {
      phase = progress.phase("lots: refresh after merge");
      importer.refreshLots();
      phase.end();
    }
    phase = progress.phase("indexes");
    restore((done, total) => phase.tick(done, total));
    phase.end();

    writeImportMeta(db, asOf, mode);
    Object.assign(counts, sourceCounts(db));
    // a merge keeps the current snapshot's vectors of the pictures it did not change
    const finished = await finishSnapshot(db, { dataDir, asOf, progress, embed: options.embed, reuseEmbeddings: mode === "merge" ? target : undefined });
    derived = { estimated: finished.derived.estimated, pairs: finished.derived.pairs };
    embed = finished.embed;
    db.close();
  } catch (err) {
    db.close();
    removeWorks(tmp);
    for (const f of createdImages) rmSync(f, { force: true });
    return abortImport(err, tmp, report);
  }
  await report.close();
  publishSnapshot(tmp, target);
  // A seeded market's latent truth says nothing about a market replaced by an import; a merge
  // (a day of `feed`, say) keeps the market's artists and works, and so their truth.
  if (mode === "replace") rmSync(join(dataDir, TRUTH_DB), { force: true });
  const accepted = summaries.reduce((s, f) => s + f.accepted, 0);
  const rejected = summaries.reduce((s, f) => s + f.rejected, 0);
  return {
    from,
    mode,
    asOf,
    files: summaries,
    accepted,
    rejected,
    counts,
    estimated: derived.estimated,
    pairs: derived.pairs,
    embed,
    derivation: { kind: "full", reason: blocker },
    reportPath: report.path,
    loadSeconds,
    rowsPerSecond: loadSeconds > 0 ? (accepted + rejected) / loadSeconds : 0,
    seconds: progress.elapsed(),
    bytes: statSync(target).size,
    path: target,
  };
}

/** The market_meta rows of an imported snapshot. */
function writeImportMeta(db: Database, asOf: string, mode: ImportMode): void {
  const meta = db.query("INSERT OR REPLACE INTO market_meta (key, value) VALUES (?, ?)");
  meta.run("contents", "import");
  meta.run("as_of", asOf);
  meta.run("import_format_version", String(FORMAT_VERSION));
  meta.run("import_mode", mode);
  meta.run("built_at", new Date().toISOString());
}

/** Rows of the new market's source tables (ImportSummary.counts). */
function sourceCounts(db: Database): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const t of ["src_artists", "src_artworks", "src_sales", "lots", "images", "artist_events", "auction_houses", "fx_rates"]) {
    counts[t] = (db.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
  }
  return counts;
}

/**
 * A failed import, its connections closed by the caller: the file it was building removed, the
 * failure in the report, the error thrown again (an I/O error as an ImportError). Nothing is replaced.
 */
async function abortImport(err: unknown, tmp: string, report: Report): Promise<never> {
  rmSync(tmp, { force: true });
  if (report.path) report.add("(import)", 0, `import aborted, nothing replaced: ${(err as Error).message}`, null);
  await report.close();
  if (err instanceof ImportError) throw err;
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) throw new ImportError(`I/O error: ${e.message}`);
  throw err;
}

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
function incrementalBlocker(files: Map<RecordName, { path: string }>, target: string, asOf: string, refit: boolean | undefined): string | null {
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
async function mergeIncrementally(
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
    const result = await deriveTouched(db, previous, { asOf, touched: { lots, sales: ids("merge_sales"), repriced: repriced.upcoming }, onProgress: phases.tick });
    phases.end();
    if ("reason" in result) throw new ImportError(`the merge cannot derive what it touched: ${result.reason} (import with --refit)`);
    touched = result;
    Object.assign(counts, sourceCounts(db));
    previous.close();
    db.close();
  } catch (err) {
    previous?.close();
    db.close();
    return abortImport(err, tmp, report);
  }
  await report.close();
  publishSnapshot(tmp, target);
  const accepted = summaries.reduce((s, f) => s + f.accepted, 0);
  const rejected = summaries.reduce((s, f) => s + f.rejected, 0);
  return {
    from,
    mode: "merge",
    asOf,
    files: summaries,
    accepted,
    rejected,
    counts,
    estimated: touched.estimated,
    pairs: touched.pairs.added,
    embed: null,
    derivation: { kind: "incremental", summary: touched },
    reportPath: report.path,
    loadSeconds,
    rowsPerSecond: loadSeconds > 0 ? (accepted + rejected) / loadSeconds : 0,
    seconds: progress.elapsed(),
    bytes: statSync(target).size,
    path: target,
  };
}

export function formatImportSummary(s: ImportSummary): string {
  const lines = [
    `import: ${s.mode} from ${s.from} (as of ${s.asOf}) written to ${s.path} in ${s.seconds.toFixed(1)}s, ${(s.bytes / 1048576).toFixed(1)} MiB`,
    `  ${"file".padEnd(26)} ${"accepted".padStart(11)} ${"rejected".padStart(9)}`,
    ...s.files.map((f) => `  ${f.file.padEnd(26)} ${f.accepted.toLocaleString("en-US").padStart(11)} ${f.rejected.toLocaleString("en-US").padStart(9)}`),
    `  ${(s.accepted + s.rejected).toLocaleString("en-US")} records read in ${s.loadSeconds.toFixed(1)}s (${Math.round(s.rowsPerSecond).toLocaleString("en-US")}/s); ` +
      `${s.estimated.toLocaleString("en-US")} artworks estimated, ${s.pairs.toLocaleString("en-US")} repeat-sale pairs`,
    s.derivation.kind === "incremental"
      ? `  derived what the merge touched: ${s.derivation.summary.artists.toLocaleString("en-US")} artists, ${s.derivation.summary.sales.toLocaleString("en-US")} sales, ` +
        `${s.derivation.summary.pairs.removed.toLocaleString("en-US")} index pairs taken back and ${s.derivation.summary.pairs.added.toLocaleString("en-US")} added, ` +
        `${s.derivation.summary.repriced.toLocaleString("en-US")} forecasts repriced; the model held, as fitted as of ${s.derivation.summary.fittedAsOf} (--refit fits it again)`
      : `  derived the whole market${s.derivation.reason ? ` (${s.derivation.reason})` : ""}`,
    s.derivation.kind === "incremental"
      ? `  derivation steps (s): ${Object.entries(s.derivation.summary.timings)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(", ")}`
      : null,
    s.derivation.kind === "incremental"
      ? "  images unchanged (their vectors kept)"
      : s.embed
        ? `  ${s.embed.embedded.toLocaleString("en-US")} images embedded in ${s.embed.embedSeconds.toFixed(1)}s${s.embed.reused ? `, ${s.embed.reused.toLocaleString("en-US")} vectors reused from the previous snapshot` : ""}${s.embed.failed ? ` (${s.embed.failed.toLocaleString("en-US")} unreadable, left out)` : ""}`
        : "  images not embedded",
    s.reportPath ? `  ${s.rejected.toLocaleString("en-US")} rejected records, with reasons, in ${s.reportPath}` : "  no record rejected",
  ];
  return lines.filter((l) => l !== null).join("\n");
}

/** A lots record that passed every rule (Importer.checkLot), with the sale and the work it names. */
interface CheckedLot {
  id: number;
  saleId: number;
  sale: SaleInfo;
  artworkId: number;
  work: { artist_id: number; creation_year: number | null };
  /** The lot number, trimmed. */
  lotNum: string;
  /** The record's own lot_seq, if it has one. */
  lotSeq: number | undefined;
  status: string;
  hammer: number | undefined;
  premium: number | undefined;
  estMin: number | undefined;
  estMax: number | undefined;
  /** The record's currency, else its sale's. */
  currency: string;
  /** USD per unit of `currency` on the sale's day. */
  rate: number;
  /** The record's own is_top, if it has one. */
  isTop: boolean | undefined;
  reserveMark: boolean;
  thirdPartyMark: boolean;
  notes: string;
}

/** The columns of a lot computed from its record (lotDerived). */
interface LotDerived {
  lotSeq: number;
  hammerUsdCents: number | null;
  estimateMinUsdCents: number | null;
  estimateMaxUsdCents: number | null;
  premiumUsdCents: number | null;
  isTop: boolean;
}

/**
 * A checked lot's derived columns: its sequence (the record's, else the lot number's leading
 * digits, else 0), its amounts in US cents at the sale day's rate, and whether it is a top lot
 * (the record's flag, else a high estimate of TOP_LOT_MIN_ESTIMATE_USD, USD 250,000, or more).
 */
function lotDerived(lot: CheckedLot): LotDerived {
  const lead = /^\d+/.exec(lot.lotNum);
  const usd = (x: number | undefined) => (x === undefined ? null : usdCents(x, lot.rate));
  const estimateMaxUsdCents = usd(lot.estMax);
  return {
    lotSeq: lot.lotSeq ?? (lead ? Math.min(2 ** 31 - 1, Number(lead[0])) : 0),
    hammerUsdCents: usd(lot.hammer),
    estimateMinUsdCents: usd(lot.estMin),
    estimateMaxUsdCents,
    premiumUsdCents: usd(lot.premium),
    isTop: lot.isTop ?? (estimateMaxUsdCents !== null && estimateMaxUsdCents >= TOP_LOT_MIN_ESTIMATE_USD * 100),
  };
}

/** One row of `lots`, its 25 columns in the table's order. */
type LotValues = [
  id: number,
  saleId: number,
  artworkId: number,
  artistId: number,
  houseId: number,
  lotNum: string,
  lotSeq: number,
  status: string,
  saleStatus: string,
  saleDatetime: number,
  locationId: number,
  creationYear: number | null,
  isTop: number,
  reserveMark: number,
  thirdPartyMark: number,
  currency: string,
  hammer: number | null,
  estimateMin: number | null,
  estimateMax: number | null,
  premium: number | null,
  hammerUsdCents: number | null,
  estimateMinUsdCents: number | null,
  estimateMaxUsdCents: number | null,
  premiumUsdCents: number | null,
  notesId: number | null,
];

/** Inserts a lot, or replaces every column of the lot of its id (a merge). */
function lotUpsert(db: Database): (values: LotValues) => void {
  const stmt = db.prepare<unknown, LotValues>(
    `INSERT INTO lots (id, sale_id, artwork_id, artist_id, house_id, lot_num, lot_seq, status, sale_status, sale_datetime,
       location_id, creation_year, is_top, reserve_mark, third_party_mark, currency, hammer, estimate_min, estimate_max, premium,
       hammer_usd_cents, estimate_min_usd_cents, estimate_max_usd_cents, premium_usd_cents, notes_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET sale_id = excluded.sale_id, artwork_id = excluded.artwork_id, artist_id = excluded.artist_id,
       house_id = excluded.house_id, lot_num = excluded.lot_num, lot_seq = excluded.lot_seq, status = excluded.status,
       sale_status = excluded.sale_status, sale_datetime = excluded.sale_datetime, location_id = excluded.location_id,
       creation_year = excluded.creation_year, is_top = excluded.is_top, reserve_mark = excluded.reserve_mark,
       third_party_mark = excluded.third_party_mark, currency = excluded.currency, hammer = excluded.hammer,
       estimate_min = excluded.estimate_min, estimate_max = excluded.estimate_max, premium = excluded.premium,
       hammer_usd_cents = excluded.hammer_usd_cents, estimate_min_usd_cents = excluded.estimate_min_usd_cents,
       estimate_max_usd_cents = excluded.estimate_max_usd_cents, premium_usd_cents = excluded.premium_usd_cents, notes_id = excluded.notes_id`,
  );
  return (values) => {
    stmt.run(...values);
  };
}

/** Lots a merge priced again with no other change (refreshLots): announced ones (id, new / old rate, artist) and the others' ids. */
interface Repriced {
  upcoming: [number, number, number][];
  other: number[];
}

interface ImporterContext {
  dataDir: string;
  from: string;
  asOf: string;
  mode: ImportMode;
  /** A merge into a copy of the current snapshot (its source tables already there): derivation of what it touches. */
  incremental?: boolean;
  report: Report;
  createdImages: string[];
  files: Map<RecordName, { path: string; csv: boolean }>;
  progress: Progress;
  summaries: FileSummary[];
}

class Importer {
  private readonly asOfYear: number;
  private readonly nowIso: string;
  private readonly fx = new Map<string, number>();
  private readonly fxSeen = new Set<string>();
  /** Per currency, the first day of a rate this import brought (the lots priced from it on may change). */
  private readonly fxFrom = new Map<string, string>();
  /** Per currency, its latest rate on or before the as-of date (made on first use after the rates are read). */
  private latestFx: Map<string, { day: string; rate: number }> | null = null;
  private readonly sales = new Map<number, SaleInfo>();
  /** lot_notes ids by text (at most NOTE_TEXTS_KEPT texts; past that a new text gets a row of its own each time). */
  private readonly noteIds = new Map<string, number>();
  private nextNoteId = 1;
  private readonly seen: Record<string, IdSet> = {};
  private readonly categories = new Lookup();
  private readonly materials = new Lookup();
  private readonly substrates = new Lookup();
  private readonly locations = new Map<string, { id: number; name: string; currency: string }>();
  private nextLocationId = 1;
  private readonly seriesSeen = new Set<string>();
  private readonly benchSeen = new Set<string>();
  private pending = 0;
  private artworkOf?: Statement<{ artist_id: number; creation_year: number | null }, [number]>;
  private upsertLot?: (values: LotValues) => void;
  private insertNote?: Statement;

  constructor(
    private readonly db: Database,
    private readonly ctx: ImporterContext,
  ) {
    this.asOfYear = Number(ctx.asOf.slice(0, 4));
    this.nowIso = `${ctx.asOf}T12:00:00Z`;
  }

  private ids(name: string): IdSet {
    return (this.seen[name] ??= new IdSet());
  }

  private exists(table: string, id: number): boolean {
    return this.db.query(`SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== null;
  }

  /** The starting point: built-in reference data, or (merge) the current market's source tables. */
  base(currentPath: string): void {
    const db = this.db;
    if (!this.ctx.incremental)
      db.transaction(() => {
        const cur = db.query("INSERT INTO currencies (code, name, symbol, decimals) VALUES (?, ?, ?, ?)");
        for (const c of CURRENCIES) cur.run(...c);
        if (this.ctx.mode === "replace") {
          const loc = db.query("INSERT INTO auction_locations (id, name, country, currency) VALUES (?, ?, ?, ?)");
          LOCATIONS.forEach(([name, country, currency], i) => loc.run(i + 1, name, country, currency));
          for (const v of VOCABULARIES) {
            const stmt = db.query(v === "categories" ? "INSERT INTO categories (id, name, slug) VALUES (?, ?, ?)" : `INSERT INTO ${v} (id, name, label) VALUES (?, ?, ?)`);
            for (const r of builtinVocabulary(v)) stmt.run(r.id, r.name, r.second);
          }
        }
      })();
    if (this.ctx.mode === "merge" && !this.ctx.incremental) this.copyCurrent(currentPath);
    if (this.ctx.mode === "merge") this.readCurrent();
  }

  /** A merge's starting point: the current market's source tables, copied into the new file. */
  private copyCurrent(currentPath: string): void {
    const db = this.db;
    {
      const restore = deferIndexes(db, ["lots", "works.src_artworks", "artist_events", "src_sales", "images"], { keepUnique: true });
      db.run("ATTACH DATABASE ? AS old", [currentPath]);
      // the works' source rows come from the current market's served artworks, which keep every
      // source column (a market built before them still has its src_artworks)
      const oldWorks = db.query("SELECT 1 FROM old.sqlite_master WHERE type = 'table' AND name = 'src_artworks'").get() ? "src_artworks" : "artworks";
      db.transaction(() => {
        for (const t of SOURCE_TABLES) {
          if (t === "src_artworks") {
            fillWorksFrom(db, `old.${oldWorks}`);
            continue;
          }
          const cols = (db.query(`PRAGMA main.table_info(${t})`).all() as { name: string }[]).map((c) => `"${c.name}"`).join(", ");
          db.run(`INSERT INTO main.${t} (${cols}) SELECT ${cols} FROM old.${t}`);
        }
      })();
      db.run("DETACH DATABASE old");
      restore();
    }
  }

  /** What a merge checks records against: the current market's rates, sales and notes texts. */
  private readCurrent(): void {
    const db = this.db;
    for (const r of db.query<{ code: string; day: string; usd_per_unit: number }, []>("SELECT code, day, usd_per_unit FROM fx_rates").iterate()) {
      this.fx.set(r.code + r.day, r.usd_per_unit);
    }
    for (const r of db
      .query<{ id: number; house_id: number; location_id: number; currency: string; status: string; start_datetime: string }, []>(
        "SELECT id, house_id, location_id, currency, status, start_datetime FROM src_sales",
      )
      .iterate()) {
      this.sales.set(r.id, { houseId: r.house_id, locationId: r.location_id, currency: r.currency, status: r.status, start: r.start_datetime });
    }
    for (const r of db.query<{ id: number; text: string }, [number]>("SELECT id, text FROM lot_notes ORDER BY id LIMIT ?").iterate(NOTE_TEXTS_KEPT)) {
      this.noteIds.set(r.text, r.id);
    }
    this.nextNoteId = (db.query<{ n: number | null }, []>("SELECT max(id) AS n FROM lot_notes").get()?.n ?? 0) + 1;
  }

  /** The lot_notes row of a notes text (added when new); null for no notes. */
  private noteId(text: string): number | null {
    if (!text) return null;
    const known = this.noteIds.get(text);
    if (known !== undefined) return known;
    const id = this.nextNoteId++;
    (this.insertNote ??= this.db.prepare("INSERT INTO lot_notes (id, text) VALUES (?, ?)")).run(id, text);
    if (this.noteIds.size < NOTE_TEXTS_KEPT) this.noteIds.set(text, id);
    return id;
  }

  async loadAll(): Promise<void> {
    for (const v of VOCABULARIES) await this.loadVocabulary(v);
    await this.load("auction_locations", (r) => this.location(r));
    this.lookups();
    await this.load("fx_rates", (r) => this.fxRate(r));
    await this.load("auction_houses", (r) => this.house(r));
    await this.load("artists", (r) => this.artist(r));
    await this.load("artist_events", (r) => this.event(r));
    await this.load("sales", (r) => this.sale(r));
    await this.load("artworks", (r) => this.artwork(r));
    await this.load("images", (r) => this.image(r));
    await this.load("lots", (r) => this.lot(r));
    await this.load("benchmarks", (r) => this.benchmark(r));
  }

  /**
   * Streams one record file: every record is parsed, checked by `accept` (which writes it and
   * returns undefined, or returns the reason it is rejected) and reported when rejected.
   */
  private async load(name: RecordName, accept: (row: Row) => Verdict | Promise<Verdict>): Promise<void> {
    const file = this.ctx.files.get(name);
    if (!file) return;
    const spec: RecordSpec = RECORDS[name];
    const fileName = file.path.slice(file.path.lastIndexOf(sep) + 1);
    const summary: FileSummary = { file: fileName, accepted: 0, rejected: 0 };
    this.ctx.summaries.push(summary);
    const size = statSync(file.path).size;
    const phase = this.ctx.progress.phase(fileName, size, { unit: "bytes" });
    const reject = (line: number, reason: string, row: unknown) => {
      summary.rejected++;
      this.ctx.report.add(fileName, line, reason, row);
    };
    const settle = (line: number, verdict: Verdict, row: unknown) => {
      if (verdict === undefined) {
        summary.accepted++;
        if (++this.pending >= 20_000) {
          this.db.run("COMMIT");
          this.db.run("BEGIN");
          this.pending = 0;
        }
      } else reject(line, verdict, row);
    };
    const handle = (input: unknown, fromText: boolean, line: number): void | Promise<void> => {
      const parsed = parseRecord(spec, input, fromText);
      if (!parsed.ok) return reject(line, parsed.reason, input);
      let verdict: Verdict | Promise<Verdict>;
      try {
        verdict = accept(parsed.row);
      } catch (err) {
        if (err instanceof ImportError) throw err;
        return reject(line, `not written: ${(err as Error).message}`, input);
      }
      if (verdict instanceof Promise) return verdict.then((v) => settle(line, v, input));
      settle(line, verdict, input);
    };
    this.db.run("BEGIN");
    this.pending = 0;
    try {
      if (!file.csv) {
        await forEachLine(
          file.path,
          (text, line) => {
            let value: unknown;
            try {
              value = JSON.parse(text);
            } catch (err) {
              return reject(line, `malformed JSON: ${(err as Error).message}`, text);
            }
            return handle(value, false, line);
          },
          (bytes) => phase.tick(bytes),
        );
      } else {
        let header: string[] | null = null;
        await forEachCsvRecord(
          file.path,
          (rec, line) => {
            if (!header) {
              header = rec.fields.map((f) => f.trim());
              const dup = header.find((h, i) => header!.indexOf(h) !== i);
              if (dup) throw new ImportError(`${fileName}: column "${dup}" appears twice in the header`);
              const missing = spec.fields.filter((f) => f.required && !header!.includes(f.name)).map((f) => f.name);
              if (missing.length) throw new ImportError(`${fileName}: the header lacks the required column(s) ${missing.join(", ")}`);
              return;
            }
            const obj: Record<string, string> = {};
            header.forEach((h, i) => {
              if (rec.fields[i] !== undefined) obj[h] = rec.fields[i]!;
            });
            if (rec.error) return reject(line, `malformed CSV: ${rec.error}`, obj);
            if (rec.fields.length !== header.length) return reject(line, `malformed CSV: ${rec.fields.length} fields where the header has ${header.length}`, obj);
            return handle(obj, true, line);
          },
          (bytes) => phase.tick(bytes),
        );
        if (!header) throw new ImportError(`${fileName}: a CSV file needs a header row`);
      }
    } catch (err) {
      if (err instanceof ImportError) throw err;
      throw new ImportError(`${fileName}: ${(err as Error).message}`);
    } finally {
      if (this.db.inTransaction) this.db.run("COMMIT");
    }
    phase.end();
  }

  // ---------------------------------------------------------------- vocabularies

  private async loadVocabulary(v: Vocabulary): Promise<void> {
    if (!this.ctx.files.has(v)) return;
    const rows: { id: number; name: string; second: string }[] = [];
    await this.load(v, (r) => {
      const name = (r.name as string).trim();
      const second = ((v === "categories" ? r.slug : r.label) as string | undefined)?.trim() || (v === "categories" ? slugify(name) : name[0]!.toUpperCase() + name.slice(1));
      if (rows.some((x) => x.id === r.id)) return `duplicate id ${r.id}`;
      if (rows.some((x) => x.name.toLowerCase() === name.toLowerCase())) return `duplicate name "${name}"`;
      rows.push({ id: r.id as number, name, second });
      return undefined;
    });
    rows.sort((a, b) => a.id - b.id);
    if (rows.some((r, i) => r.id !== i + 1))
      throw new ImportError(`${v}: ids must run 1, 2, … without gaps (the estimates' model has a column per ${v === "categories" ? "category" : "word"})`);
    const current = this.db
      .query<{ id: number; name: string; second: string }, []>(`SELECT id, name, ${v === "categories" ? "slug" : "label"} AS second FROM ${v} ORDER BY id`)
      .all();
    if (this.ctx.mode === "merge") {
      if (JSON.stringify(current) !== JSON.stringify(rows)) throw new ImportError(`${v}: a merge cannot change the vocabulary of the current market (import in replace mode)`);
      return;
    }
    this.db.run(`DELETE FROM ${v}`);
    const stmt = this.db.query(v === "categories" ? "INSERT INTO categories (id, name, slug) VALUES (?, ?, ?)" : `INSERT INTO ${v} (id, name, label) VALUES (?, ?, ?)`);
    this.db.transaction(() => {
      for (const r of rows) stmt.run(r.id, r.name, r.second);
    })();
  }

  private location(r: Row): Verdict {
    const id = r.id as number;
    const name = (r.name as string).trim();
    const other = this.db.query<{ id: number }, [string]>("SELECT id FROM auction_locations WHERE name = ?").get(name);
    if (other && other.id !== id) return `name "${name}" is already location ${other.id}`;
    const ids = this.ids("auction_locations");
    if (ids.has(id)) return `duplicate id ${id}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO auction_locations (id, name, country, currency) VALUES (?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, country = excluded.country, currency = excluded.currency`,
      )
      .run(id, name, (r.country as string).trim(), r.currency as string);
    return undefined;
  }

  private lookups(): void {
    for (const r of this.db.query<{ id: number; name: string; slug: string }, []>("SELECT id, name, slug FROM categories ORDER BY id").all())
      this.categories.add(r.id, r.name, r.slug);
    for (const r of this.db.query<{ id: number; name: string; label: string }, []>("SELECT id, name, label FROM materials ORDER BY id").all())
      this.materials.add(r.id, r.name, r.label);
    for (const r of this.db.query<{ id: number; name: string; label: string }, []>("SELECT id, name, label FROM substrates ORDER BY id").all())
      this.substrates.add(r.id, r.name, r.label);
    for (const r of this.db.query<{ id: number; name: string; currency: string }, []>("SELECT id, name, currency FROM auction_locations ORDER BY id").all()) {
      this.locations.set(r.name.toLowerCase(), { id: r.id, name: r.name, currency: r.currency });
      this.nextLocationId = Math.max(this.nextLocationId, r.id + 1);
    }
  }

  // ---------------------------------------------------------------- records

  private fxRate(r: Row): Verdict {
    const code = r.code as string;
    const day = r.day as string;
    const rate = r.usd_per_unit as number;
    if (code === "USD" && rate !== 1) return "USD is the base currency: its rate is 1";
    const key = code + day;
    if (this.fxSeen.has(key)) return `duplicate rate for ${code} on ${day}`;
    this.fxSeen.add(key);
    this.fx.set(key, rate);
    this.latestFx = null;
    const first = this.fxFrom.get(code);
    if (first === undefined || day < first) this.fxFrom.set(code, day);
    this.db.query("INSERT INTO fx_rates (code, day, usd_per_unit) VALUES (?, ?, ?) ON CONFLICT(code, day) DO UPDATE SET usd_per_unit = excluded.usd_per_unit").run(code, day, rate);
    return undefined;
  }

  private house(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("auction_houses");
    if (ids.has(id)) return `duplicate id ${id}`;
    const name = (r.name as string).trim();
    const slug = ((r.slug as string | undefined) ?? slugify(name)).trim();
    if (!slug) return "slug: empty (give a slug, or a name with letters or digits)";
    const other = this.db.query<{ id: number }, [string]>("SELECT id FROM auction_houses WHERE slug = ?").get(slug);
    if (other && other.id !== id) return `slug "${slug}" is already used by auction house ${other.id}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO auction_houses (id, name, slug, priority_order, is_live, country, city) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, slug = excluded.slug, priority_order = excluded.priority_order,
           is_live = excluded.is_live, country = excluded.country, city = excluded.city`,
      )
      .run(id, name, slug, (r.priority_order as number | undefined) ?? id, r.is_live ? 1 : 0, (r.country as string | undefined) ?? null, (r.city as string | undefined) ?? null);
    return undefined;
  }

  /** A uid for `table`: the given one (rejected when another record has it) or one made up, made unique with the id. */
  private uid(table: string, id: number, given: string | undefined, made: string): { uid?: string; error?: string } {
    const owner = this.db.query<{ id: number }, [string]>(`SELECT id FROM ${table} WHERE uid = ?`);
    if (given !== undefined) {
      const uid = given.trim();
      if (/[\u0000-\u001f\u007f]/.test(uid)) return { error: "a uid may not hold control characters" };
      const other = owner.get(uid);
      if (other && other.id !== id) return { error: `uid "${uid}" is already used by record ${other.id}` };
      return { uid };
    }
    let uid = made || `${id}`;
    const other = owner.get(uid);
    if (other && other.id !== id) uid = `${uid}-${id}`;
    const again = owner.get(uid);
    if (again && again.id !== id) return { error: `no free uid (tried "${uid}"): give one` };
    return { uid };
  }

  private artist(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("artists");
    if (ids.has(id)) return `duplicate id ${id}`;
    const name = (r.name as string).trim();
    const birth = r.birth as number | undefined;
    const death = r.death as number | undefined;
    if (birth !== undefined && birth > this.asOfYear) return `birth: ${birth} is after the as-of date`;
    if (death !== undefined && death > this.asOfYear) return `death: ${death} is after the as-of date`;
    if (birth !== undefined && death !== undefined && death < birth) return `death (${death}) before birth (${birth})`;
    const u = this.uid("src_artists", id, r.uid as string | undefined, slugify(`${name}-${birth ?? id}`));
    if (u.error) return `uid: ${u.error}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO src_artists (id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT(id) DO UPDATE SET uid = excluded.uid, name = excluded.name, synonyms = excluded.synonyms, nationality = excluded.nationality,
           birth = excluded.birth, death = excluded.death, bio = excluded.bio, long_bio = excluded.long_bio, is_top = excluded.is_top`,
      )
      .run(
        id,
        u.uid!,
        name,
        ((r.synonyms as string[] | undefined) ?? []).join("|"),
        (r.nationality as string | undefined) ?? "",
        birth ?? null,
        death ?? null,
        (r.bio as string | undefined) ?? "",
        (r.long_bio as string | undefined) ?? "",
        r.is_top ? 1 : 0,
      );
    return undefined;
  }

  private event(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("artist_events");
    if (ids.has(id)) return `duplicate id ${id}`;
    if (!this.exists("src_artists", r.artist_id as number)) return `artist_id: unknown artist ${r.artist_id}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO artist_events (id, artist_id, date, type, title, description, visible) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET artist_id = excluded.artist_id, date = excluded.date, type = excluded.type, title = excluded.title,
           description = excluded.description, visible = excluded.visible`,
      )
      .run(id, r.artist_id as number, r.date as string, r.type as string, r.title as string, (r.description as string | undefined) ?? "", r.visible === false ? 0 : 1);
    return undefined;
  }

  private sale(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("sales");
    if (ids.has(id)) return `duplicate id ${id}`;
    const houseId = r.house_id as number;
    if (!this.exists("auction_houses", houseId)) return `house_id: unknown auction house ${houseId}`;
    const start = r.start_datetime as string;
    const end = (r.end_datetime as string | undefined) ?? start;
    if (start < `${FIRST_YEAR}-01-01`) return `start_datetime: ${start} is before ${FIRST_YEAR}-01-01, where the market's history starts`;
    if (end < start) return `end_datetime (${end}) is before start_datetime (${start})`;
    const locationName = (r.location as string).trim();
    let loc = this.locations.get(locationName.toLowerCase());
    let newLocation: { id: number; country: string; currency: string } | null = null;
    if (!loc) {
      if (!r.country || !r.currency) return `location: unknown location "${locationName}" (give country and currency to add it)`;
      newLocation = { id: this.nextLocationId, country: (r.country as string).trim(), currency: r.currency as string };
      loc = { id: newLocation.id, name: locationName, currency: newLocation.currency };
    }
    const currency = (r.currency as string | undefined) ?? loc.currency;
    let status = r.status as string | undefined;
    if (status === undefined) status = end < this.nowIso ? "closed" : start > this.nowIso ? "upcoming" : "live";
    if (status === "closed" && start.slice(0, 10) > this.ctx.asOf) return `status: a closed sale cannot start after the as-of date (${this.ctx.asOf})`;
    const isOnline = (r.is_online as boolean | undefined) ?? locationName.toLowerCase() === "online";
    if (newLocation) {
      this.db.query("INSERT INTO auction_locations (id, name, country, currency) VALUES (?, ?, ?, ?)").run(newLocation.id, locationName, newLocation.country, newLocation.currency);
      this.locations.set(locationName.toLowerCase(), loc);
      this.nextLocationId++;
    }
    ids.add(id);
    this.db
      .query(
        `INSERT INTO src_sales (id, house_id, name, location_id, location, currency, is_online, is_bids_streaming, status, start_datetime, end_datetime)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET house_id = excluded.house_id, name = excluded.name, location_id = excluded.location_id, location = excluded.location,
           currency = excluded.currency, is_online = excluded.is_online, is_bids_streaming = excluded.is_bids_streaming, status = excluded.status,
           start_datetime = excluded.start_datetime, end_datetime = excluded.end_datetime`,
      )
      .run(id, houseId, (r.name as string).trim(), loc.id, loc.name, currency, isOnline ? 1 : 0, r.is_bids_streaming ? 1 : 0, status, start, end);
    this.sales.set(id, { houseId, locationId: loc.id, currency, status, start });
    return undefined;
  }

  private artwork(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("artworks");
    if (ids.has(id)) return `duplicate id ${id}`;
    const artistId = r.artist_id as number;
    if (!this.exists("src_artists", artistId)) return `artist_id: unknown artist ${artistId}`;
    const category = this.categories.get(r.category as string);
    if (category === undefined) return `category: unknown category "${r.category}"`;
    const materialIds: number[] = [];
    for (const m of (r.materials as string[] | undefined) ?? []) {
      const mid = this.materials.get(m);
      if (mid === undefined) return `materials: unknown material "${m}"`;
      materialIds.push(mid);
    }
    let substrate: number | null = null;
    if (r.substrate !== undefined) {
      const sid = this.substrates.get(r.substrate as string);
      if (sid === undefined) return `substrate: unknown substrate "${r.substrate}"`;
      substrate = sid;
    }
    const year = r.creation_year as number | undefined;
    if (year !== undefined && year > this.asOfYear) return `creation_year: ${year} is after the as-of date`;
    const en = r.edition_number as number | undefined;
    const es = r.edition_size as number | undefined;
    if (en !== undefined && es !== undefined && en > es) return `edition_number (${en}) is larger than edition_size (${es})`;
    const title = (r.title as string).trim();
    const u = this.uid("src_artworks", id, r.uid as string | undefined, defaultArtworkUid(id, title));
    if (u.error) return `uid: ${u.error}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO src_artworks (id, uid, artist_id, title, category_id, medium, material_ids, substrate_id, creation_year,
           height_cm, width_cm, depth_cm, signed, edition_group_id, edition_number, edition_size, image_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT(id) DO UPDATE SET uid = excluded.uid, artist_id = excluded.artist_id, title = excluded.title, category_id = excluded.category_id,
           medium = excluded.medium, material_ids = excluded.material_ids, substrate_id = excluded.substrate_id, creation_year = excluded.creation_year,
           height_cm = excluded.height_cm, width_cm = excluded.width_cm, depth_cm = excluded.depth_cm, signed = excluded.signed,
           edition_group_id = excluded.edition_group_id, edition_number = excluded.edition_number, edition_size = excluded.edition_size`,
      )
      .run(
        id,
        u.uid!,
        artistId,
        title,
        category,
        (r.medium as string | undefined) ?? "",
        materialIds.join(","),
        substrate,
        year ?? null,
        (r.height_cm as number | undefined) ?? null,
        (r.width_cm as number | undefined) ?? null,
        (r.depth_cm as number | undefined) ?? null,
        r.signed ? 1 : 0,
        (r.edition_group_id as number | undefined) ?? null,
        en ?? null,
        es ?? null,
      );
    return undefined;
  }

  private async image(r: Row): Promise<Verdict> {
    const id = r.id as number;
    const ids = this.ids("images");
    if (ids.has(id)) return `duplicate id ${id}`;
    const artworkId = r.artwork_id as number | undefined;
    const artistId = r.artist_id as number | undefined;
    if ((artworkId === undefined) === (artistId === undefined)) return "an image belongs to an artwork (artwork_id) or is an artist's photo (artist_id): give one of them";
    if (artworkId !== undefined && !this.exists("src_artworks", artworkId)) return `artwork_id: unknown artwork ${artworkId}`;
    if (artistId !== undefined && !this.exists("src_artists", artistId)) return `artist_id: unknown artist ${artistId}`;
    const path = r.path as string | undefined;
    const seed = r.seed as number | undefined;
    if ((path === undefined) === (seed === undefined)) return "give either path (an image file) or seed (a procedural image)";
    let width = r.width as number | undefined;
    let height = r.height as number | undefined;
    let stored: string | null = null;
    if (path !== undefined) {
      const file = await this.copyImage(path.trim());
      if (file.error) return file.error;
      stored = file.stored!;
      width = file.width;
      height = file.height;
    } else if (width === undefined || height === undefined) return "a procedural image (seed) needs width and height";
    ids.add(id);
    this.db
      .query(
        `INSERT INTO images (id, artwork_id, width, height, kind, seed, path) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET artwork_id = excluded.artwork_id, width = excluded.width, height = excluded.height, kind = excluded.kind,
           seed = excluded.seed, path = excluded.path`,
      )
      .run(id, artworkId ?? null, width!, height!, stored ? "file" : "procedural", seed ?? null, stored);
    if (this.ctx.mode === "merge") {
      // the image may have moved: no other record keeps pointing at it
      this.db.query("UPDATE src_artworks SET image_id = NULL WHERE image_id = ?1 AND id IS NOT ?2").run(id, artworkId ?? null);
      this.db.query("UPDATE src_artists SET photo_image_id = NULL WHERE photo_image_id = ?1 AND id IS NOT ?2").run(id, artistId ?? null);
    }
    if (artworkId !== undefined) this.db.query("UPDATE src_artworks SET image_id = ? WHERE id = ? AND image_id IS NULL").run(id, artworkId);
    else this.db.query("UPDATE src_artists SET photo_image_id = ? WHERE id = ? AND photo_image_id IS NULL").run(id, artistId!);
    return undefined;
  }

  /** Copies an image file into <data>/images/orig/, named by its content hash (so a copy never changes a file the current market uses). */
  private async copyImage(path: string): Promise<{ error?: string; stored?: string; width?: number; height?: number }> {
    if (isAbsolute(path)) return { error: `path: must be relative to the import directory, got "${path}"` };
    const src = resolve(this.ctx.from, path);
    const rel = relative(this.ctx.from, src);
    if (rel.startsWith("..") || isAbsolute(rel)) return { error: `path: "${path}" is outside the import directory` };
    if (!existsSync(src) || !statSync(src).isFile()) return { error: `path: no file "${path}" in the import directory` };
    let width: number | undefined;
    let height: number | undefined;
    let format: string | undefined;
    try {
      const meta = await loadSharp(this.ctx.dataDir)(src).metadata();
      width = meta.width;
      height = meta.height;
      format = meta.format;
    } catch (err) {
      return { error: `path: "${path}" is not an image this build can read (${(err as Error).message})` };
    }
    if (!width || !height) return { error: `path: "${path}" has no pixel size` };
    const hasher = new Bun.CryptoHasher("sha256");
    for await (const chunk of Bun.file(src).stream()) hasher.update(chunk);
    const ext = (extname(src).slice(1).toLowerCase() || format || "img").replace(/[^a-z0-9]/g, "");
    const stored = `${hasher.digest("hex")}.${ext}`;
    const dir = join(this.ctx.dataDir, "images", "orig");
    const dest = join(dir, stored);
    if (!existsSync(dest)) {
      mkdirSync(dir, { recursive: true });
      const part = `${dest}.part-${process.pid}`;
      copyFileSync(src, part);
      renameSync(part, dest);
      this.ctx.createdImages.push(dest);
    }
    return { stored, width, height };
  }

  /** A lots record: checked (checkLot), its derived columns (lotDerived), upserted (lotUpsert). */
  private lot(r: Row): Verdict {
    const lot = this.checkLot(r);
    if (typeof lot === "string") return lot;
    const { sale, work } = lot;
    const derived = lotDerived(lot);
    this.ids("lots").add(lot.id);
    (this.upsertLot ??= lotUpsert(this.db))([
      lot.id,
      lot.saleId,
      lot.artworkId,
      work.artist_id,
      sale.houseId,
      lot.lotNum,
      derived.lotSeq,
      lot.status,
      sale.status,
      (sale.startSeconds ??= epochSeconds(sale.start)),
      sale.locationId,
      work.creation_year,
      derived.isTop ? 1 : 0,
      lot.reserveMark ? 1 : 0,
      lot.thirdPartyMark ? 1 : 0,
      lot.currency,
      lot.hammer ?? null,
      lot.estMin ?? null,
      lot.estMax ?? null,
      lot.premium ?? null,
      derived.hammerUsdCents,
      derived.estimateMinUsdCents,
      derived.estimateMaxUsdCents,
      derived.premiumUsdCents,
      this.noteId(lot.notes),
    ]);
    return undefined;
  }

  /**
   * The rules of a lots record, in order: a new id, a known sale and artwork, a hammer (above 0)
   * for a sold lot and no hammer nor premium for another, no sold or passed lot of a sale after the
   * as-of date, a premium not below the hammer, estimates in order, a rate for the currency on the
   * sale's day. The record checked, or the reason it is rejected.
   */
  private checkLot(r: Row): CheckedLot | string {
    const id = r.id as number;
    if (this.ids("lots").has(id)) return `duplicate id ${id}`;
    const saleId = r.sale_id as number;
    const sale = this.sales.get(saleId);
    if (!sale) return `sale_id: unknown sale ${saleId}`;
    const artworkId = r.artwork_id as number;
    const work = (this.artworkOf ??= this.db.prepare<{ artist_id: number; creation_year: number | null }, [number]>(
      "SELECT artist_id, creation_year FROM src_artworks WHERE id = ?",
    )).get(artworkId);
    if (!work) return `artwork_id: unknown artwork ${artworkId}`;
    const status = r.status as string;
    const hammer = r.hammer as number | undefined;
    const premium = r.premium as number | undefined;
    const estMin = r.estimate_min as number | undefined;
    const estMax = r.estimate_max as number | undefined;
    const day = sale.start.slice(0, 10);
    if (status === "sold") {
      if (hammer === undefined) return "hammer: required for a sold lot";
      if (!(hammer > 0)) return "hammer: a sold lot's hammer must be above 0";
    } else {
      if (hammer !== undefined) return `hammer: only a sold lot has one (status ${status})`;
      if (premium !== undefined) return `premium: only a sold lot has one (status ${status})`;
    }
    if ((status === "sold" || status === "passed") && day > this.ctx.asOf) return `status: a lot of a sale on ${day} cannot be ${status} as of ${this.ctx.asOf}`;
    if (premium !== undefined && hammer !== undefined && premium < hammer) return `premium (${premium}) is below the hammer (${hammer})`;
    if (estMin !== undefined && estMax !== undefined && estMin > estMax) return `estimate_min (${estMin}) is above estimate_max (${estMax})`;
    const currency = (r.currency as string | undefined) ?? sale.currency;
    const rate = this.rateOn(currency, day);
    if (rate === undefined)
      return day > this.ctx.asOf
        ? `no FX rate for ${currency} on or before ${this.ctx.asOf}, the as-of date (a sale after it is priced at the latest rate known then)`
        : `no FX rate for ${currency} on ${day}, the sale day (add it to fx_rates)`;
    return {
      id,
      saleId,
      sale,
      artworkId,
      work,
      lotNum: (r.lot_num as string).trim(),
      lotSeq: r.lot_seq as number | undefined,
      status,
      hammer,
      premium,
      estMin,
      estMax,
      currency,
      rate,
      isTop: r.is_top as boolean | undefined,
      reserveMark: Boolean(r.reserve_mark),
      thirdPartyMark: Boolean(r.third_party_mark),
      notes: (r.notes as string | undefined) ?? "",
    };
  }

  private benchmark(r: Row): Verdict {
    const series = (r.series as string).trim();
    const month = r.month as string;
    const key = `${series}\u0000${month}`;
    if (this.benchSeen.has(key)) return `duplicate value for ${series} in ${month}`;
    this.benchSeen.add(key);
    if (!this.seriesSeen.has(series)) {
      this.seriesSeen.add(series);
      this.db
        .query("INSERT INTO benchmark_series (id, label, synthetic) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET label = excluded.label, synthetic = excluded.synthetic")
        .run(series, (r.label as string | undefined) ?? series, r.synthetic ? 1 : 0);
    }
    this.db
      .query("INSERT INTO benchmarks (series, month, value) VALUES (?, ?, ?) ON CONFLICT(series, month) DO UPDATE SET value = excluded.value")
      .run(series, month, r.value as number);
    return undefined;
  }

  /**
   * The rate a lot of a sale on `day` is priced at: the day's own rate; for a sale after the
   * as-of date, the latest rate known at the as-of date (a market holds no later one). USD: 1.
   */
  private rateOn(currency: string, day: string): number | undefined {
    if (currency === "USD") return 1;
    if (day <= this.ctx.asOf) return this.fx.get(currency + day);
    if (!this.latestFx) {
      this.latestFx = new Map();
      for (const [key, rate] of this.fx) {
        const code = key.slice(0, 3);
        const d = key.slice(3);
        if (d > this.ctx.asOf) continue;
        const cur = this.latestFx.get(code);
        if (!cur || d > cur.day) this.latestFx.set(code, { day: d, rate });
      }
    }
    return this.latestFx.get(currency)?.rate;
  }

  // ---------------------------------------------------------------- merge

  /**
   * After a merge, lots the import did not bring may belong to a sale or an artwork it replaced,
   * or be priced on a day whose rate it changed: their denormalised columns and USD values are
   * brought up to date; lots that can no longer be priced or dated are dropped (and reported).
   */
  refreshLots(sales?: number[]): Repriced {
    const db = this.db;
    const out: Repriced = { upcoming: [], other: [] };
    // an incremental merge (`sales`: the sales it changed) looks only at the lots of those sales
    // and the lots priced from the first day of a rate it brought on; its works are the current ones
    const salesJson = sales ? JSON.stringify(sales) : null;
    const fxScope = [...this.fxFrom].map(([code, day]) => ({ code, from: Date.parse(`${day}T00:00:00Z`) / 1000 }));
    db.transaction(() => {
      if (!sales)
        db.run(`UPDATE lots SET artist_id = w.artist_id, creation_year = w.creation_year FROM src_artworks w
                WHERE w.id = lots.artwork_id AND (lots.artist_id IS NOT w.artist_id OR lots.creation_year IS NOT w.creation_year)`);
      db.query(
        `UPDATE lots SET house_id = s.house_id, sale_status = s.status, sale_datetime = unixepoch(s.start_datetime), location_id = s.location_id FROM src_sales s
         WHERE s.id = lots.sale_id AND (lots.house_id IS NOT s.house_id OR lots.sale_status IS NOT s.status
           OR lots.sale_datetime IS NOT unixepoch(s.start_datetime) OR lots.location_id IS NOT s.location_id)
           ${salesJson ? "AND lots.sale_id IN (SELECT value FROM json_each(?1))" : ""}`,
      ).run(...((salesJson ? [salesJson] : []) as []));
      type L = {
        id: number;
        artist_id: number;
        status: string;
        currency: string;
        day: string;
        hammer: number | null;
        estimate_min: number | null;
        estimate_max: number | null;
        premium: number | null;
        hammer_usd_cents: number | null;
        estimate_min_usd_cents: number | null;
        estimate_max_usd_cents: number | null;
        premium_usd_cents: number | null;
      };
      const changed: [number, number | null, number | null, number | null, number | null][] = [];
      const dropped: { id: number; reason: string }[] = [];
      const columns = `id, artist_id, status, currency, date(sale_datetime, 'unixepoch') AS day, hammer, estimate_min, estimate_max, premium,
                  hammer_usd_cents, estimate_min_usd_cents, estimate_max_usd_cents, premium_usd_cents`;
      const scoped = salesJson
        ? [
            db.query<L, [string]>(`SELECT ${columns} FROM lots WHERE sale_id IN (SELECT value FROM json_each(?))`).all(salesJson),
            ...fxScope.map((f) => db.query<L, [string, number]>(`SELECT ${columns} FROM lots WHERE currency = ? AND sale_datetime >= ?`).all(f.code, f.from)),
          ].flat()
        : null;
      const seen = new Set<number>();
      for (const l of scoped ?? db.query<L, []>(`SELECT ${columns} FROM lots`).iterate()) {
        if (scoped) {
          if (seen.has(l.id)) continue;
          seen.add(l.id);
        }
        if ((l.status === "sold" || l.status === "passed") && l.day > this.ctx.asOf) {
          dropped.push({ id: l.id, reason: `its sale moved to ${l.day}, after the as-of date, and the lot is ${l.status}` });
          continue;
        }
        const rate = this.rateOn(l.currency, l.day);
        if (rate === undefined) {
          dropped.push({ id: l.id, reason: `no FX rate for ${l.currency} on ${l.day > this.ctx.asOf ? `or before ${this.ctx.asOf}` : l.day} after the merge` });
          continue;
        }
        const usd = (x: number | null) => (x === null ? null : usdCents(x, rate));
        const next = [usd(l.hammer), usd(l.estimate_min), usd(l.estimate_max), usd(l.premium)] as const;
        if (next[0] !== l.hammer_usd_cents || next[1] !== l.estimate_min_usd_cents || next[2] !== l.estimate_max_usd_cents || next[3] !== l.premium_usd_cents) {
          changed.push([l.id, ...next]);
          if (l.status !== "upcoming") out.other.push(l.id);
          else if (next[1] !== null && l.estimate_min_usd_cents) out.upcoming.push([l.id, next[1] / l.estimate_min_usd_cents, l.artist_id]);
        }
      }
      const upd = db.query("UPDATE lots SET hammer_usd_cents = ?2, estimate_min_usd_cents = ?3, estimate_max_usd_cents = ?4, premium_usd_cents = ?5 WHERE id = ?1");
      for (const c of changed) upd.run(...c);
      const del = db.query("DELETE FROM lots WHERE id = ?");
      for (const d of dropped) {
        del.run(d.id);
        this.ctx.report.add("(merge)", 0, `lot ${d.id} dropped: ${d.reason}`, { id: d.id });
      }
    })();
    return out;
  }
}
