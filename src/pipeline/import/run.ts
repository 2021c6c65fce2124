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
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { marketDbPath, openMarketForWrite } from "../../db/connection";
import { publishSnapshot } from "../../db/snapshot-seal";
import { checkDiskSpace, importSpaceNeeded, removeStaleBuilds } from "../db/leftovers";
import { attachNewWorks, removeWorks } from "../db/works-file";
import { deferIndexes, finishSnapshot } from "../derive/snapshot";
import type { EmbedMarketSummary } from "../images/embed-market";
import { Progress } from "../progress";
import { TRUTH_DB } from "../seed/truth";
import { discoverFiles, readManifest } from "./files";
import { carryHistory } from "./estimate-history";
import { abortImport, importSummary, sourceCounts, writeImportMeta } from "./finish";
import { Importer } from "./importer";
import { incrementalBlocker, mergeIncrementally } from "./merge";
import { Report } from "./report";
import { type FileSummary, ImportError, type ImportMode, type ImportOptions, type ImportSummary } from "./types";

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
    // a merge keeps the history of estimates, with the ones this derivation replaced
    if (mode === "merge") carryHistory(db, target, asOf);
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
  await publishSnapshot(tmp, target);
  // A seeded market's latent truth says nothing about a market replaced by an import; a merge
  // (a day of `feed`, say) keeps the market's artists and works, and so their truth.
  if (mode === "replace") rmSync(join(dataDir, TRUTH_DB), { force: true });
  return importSummary(
    { from, mode, asOf, summaries, counts, report, loadSeconds, progress, target },
    { estimated: derived.estimated, pairs: derived.pairs, embed, derivation: { kind: "full", reason: blocker } },
  );
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
        `${s.derivation.summary.repriced.toLocaleString("en-US")} forecasts repriced; moved less than 1 % and held as published: ` +
        `${s.derivation.summary.held.artists.toLocaleString("en-US")} artists' own figures, ${s.derivation.summary.held.estimates.toLocaleString("en-US")} works' estimates; the model held, as fitted as of ${s.derivation.summary.fittedAsOf} (--refit fits it again)`
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
