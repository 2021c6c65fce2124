/**
 * `seed`: builds a deterministic market snapshot into market.db. The snapshot is written to a
 * temporary file and renamed into place, so a failed or interrupted seed leaves the previous
 * market as it was, and account.db is never touched.
 *
 * This build generates the reference data (currencies, locations, categories, vocabularies,
 * auction houses). The artists, artworks, lots and sales of the synthetic market are not
 * generated yet; the summary says so, and market_meta records `contents = reference`.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Scale } from "../config";
import { marketDbPath, openMarketForWrite } from "../db/connection";
import { Progress } from "../progress";
import { Random } from "./random";
import { writeReference } from "./reference";

export interface SeedOptions {
  dataDir: string;
  scale: Scale;
  seed: number;
  quiet?: boolean;
}

export interface SeedSummary {
  scale: Scale;
  seed: number;
  contents: "reference";
  counts: Record<string, number>;
  seconds: number;
  bytes: number;
  path: string;
}

export const DEFAULT_SEED = 1986;

export function seedMarket(options: SeedOptions): SeedSummary {
  const progress = new Progress("seed", options.quiet);
  const target = marketDbPath(options.dataDir);
  mkdirSync(options.dataDir, { recursive: true });
  const tmp = join(options.dataDir, `market.db.building-${process.pid}`);
  for (const f of [tmp, `${tmp}-journal`]) if (existsSync(f)) rmSync(f);
  const db = openMarketForWrite(tmp, options.dataDir);
  let counts: Record<string, number>;
  try {
    const rng = new Random(options.seed);
    const phase = progress.phase("reference data");
    counts = writeReference(db, rng, options.scale);
    phase.end();
    const meta = db.query("INSERT OR REPLACE INTO market_meta (key, value) VALUES (?, ?)");
    meta.run("scale", options.scale);
    meta.run("seed", String(options.seed));
    meta.run("contents", "reference");
    meta.run("built_at", new Date().toISOString());
    db.run("ANALYZE");
    db.close();
  } catch (err) {
    db.close();
    rmSync(tmp, { force: true });
    throw err;
  }
  renameSync(tmp, target);
  return {
    scale: options.scale,
    seed: options.seed,
    contents: "reference",
    counts,
    seconds: progress.elapsed(),
    bytes: statSync(target).size,
    path: target,
  };
}

export function formatSummary(s: SeedSummary): string {
  const rows = Object.entries(s.counts).map(([k, v]) => `  ${k.padEnd(18)} ${v.toLocaleString("en-US")}`);
  return [
    `seed: ${s.scale} snapshot (seed ${s.seed}) written to ${s.path} in ${s.seconds.toFixed(1)}s, ${(s.bytes / 1024).toFixed(0)} KiB`,
    ...rows,
    "  note: this build generates reference data only; artists, artworks, lots and sales are not generated yet",
  ].join("\n");
}
