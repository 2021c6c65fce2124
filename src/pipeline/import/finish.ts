/**
 * How an import's new snapshot ends, whichever way it was built (run.ts: whole, merge.ts: what a
 * merge touches): its market_meta rows, counts and summary, or, when the import fails, its removal.
 */
import type { Database } from "bun:sqlite";
import { rmSync, statSync } from "node:fs";
import { FORMAT_VERSION } from "./format";
import type { Report } from "./report";
import type { Progress } from "../progress";
import { type FileSummary, ImportError, type ImportMode, type ImportSummary } from "./types";

/** The market_meta rows of an imported snapshot. */
export function writeImportMeta(db: Database, asOf: string, mode: ImportMode): void {
  const meta = db.query("INSERT OR REPLACE INTO market_meta (key, value) VALUES (?, ?)");
  meta.run("contents", "import");
  meta.run("as_of", asOf);
  meta.run("import_format_version", String(FORMAT_VERSION));
  meta.run("import_mode", mode);
  meta.run("built_at", new Date().toISOString());
}

/**
 * The summary of a published import: what both ways of building it (run.ts, merge.ts) read the
 * same way, with what their derivation made (`derived`).
 */
export function importSummary(
  o: {
    from: string;
    mode: ImportMode;
    asOf: string;
    summaries: FileSummary[];
    counts: Record<string, number>;
    report: Report;
    loadSeconds: number;
    progress: Progress;
    target: string;
  },
  derived: Pick<ImportSummary, "estimated" | "pairs" | "embed" | "derivation">,
): ImportSummary {
  const accepted = o.summaries.reduce((s, f) => s + f.accepted, 0);
  const rejected = o.summaries.reduce((s, f) => s + f.rejected, 0);
  return {
    from: o.from,
    mode: o.mode,
    asOf: o.asOf,
    files: o.summaries,
    accepted,
    rejected,
    counts: o.counts,
    ...derived,
    reportPath: o.report.path,
    loadSeconds: o.loadSeconds,
    rowsPerSecond: o.loadSeconds > 0 ? (accepted + rejected) / o.loadSeconds : 0,
    seconds: o.progress.elapsed(),
    bytes: statSync(o.target).size,
    path: o.target,
  };
}

/** Rows of the new market's source tables (ImportSummary.counts). */
export function sourceCounts(db: Database): Record<string, number> {
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
export async function abortImport(err: unknown, tmp: string, report: Report): Promise<never> {
  rmSync(tmp, { force: true });
  if (report.path) report.add("(import)", 0, `import aborted, nothing replaced: ${(err as Error).message}`, null);
  await report.close();
  if (err instanceof ImportError) throw err;
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) throw new ImportError(`I/O error: ${e.message}`);
  throw err;
}
