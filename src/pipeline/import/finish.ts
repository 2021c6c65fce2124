/**
 * How an import's new snapshot ends, whichever way it was built (run.ts: whole, merge.ts: what a
 * merge touches): its market_meta rows and counts, or, when the import fails, its removal.
 */
import type { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { FORMAT_VERSION } from "./format";
import type { Report } from "./report";
import { ImportError, type ImportMode } from "./types";

/** The market_meta rows of an imported snapshot. */
export function writeImportMeta(db: Database, asOf: string, mode: ImportMode): void {
  const meta = db.query("INSERT OR REPLACE INTO market_meta (key, value) VALUES (?, ?)");
  meta.run("contents", "import");
  meta.run("as_of", asOf);
  meta.run("import_format_version", String(FORMAT_VERSION));
  meta.run("import_mode", mode);
  meta.run("built_at", new Date().toISOString());
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
