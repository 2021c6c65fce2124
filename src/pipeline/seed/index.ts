/**
 * `seed`: builds a deterministic synthetic market into market.db (and its latent truth into
 * truth.db). Both are written to temporary files and renamed into place, so a failed or
 * interrupted seed leaves the previous market as it was; account.db is never touched.
 * Same seed and same as-of date: the same market, row for row.
 */
import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import type { Scale } from "../../platform/config";
import { marketDbPath, openMarketForWrite } from "../../db/connection";
import { valueRows } from "../../db/sql";
import { publishSnapshot } from "../../db/snapshot-seal";
import type { BuilderSummary } from "../db/index-builder";
import { checkDiskSpace, removeStaleBuilds, seedSpaceNeeded } from "../db/leftovers";
import { attachNewWorks, removeWorks } from "../db/works-file";
import { deferIndexes, finishSnapshot } from "../derive/snapshot";
import type { EmbedMarketSummary } from "../images/embed-market";
import { Progress } from "../progress";
import { fromDayNumber, today } from "../../market/time";
import { generateOnThread } from "./generate-thread";
import { buildSales, generateArtists, planArtists, SCALE_SPECS, tableSink, type GeneratorTotals } from "./market";
import { Random } from "../../market/random";
import { CURRENCY_CODES } from "../../market/currencies";
import { writeReference } from "./reference";
import { BENCHMARKS, benchmarkSeries, fxLastDay, fxRates, marketFactor, type FxTable } from "./series";
import { monthIndex } from "../../market/calendar";
import { createTruthDb, TRUTH_DB } from "./truth";

export interface SeedOptions {
  dataDir: string;
  scale: Scale;
  seed: number;
  /** The market's "today" (YYYY-MM-DD); default: the real today. */
  asOf?: string;
  quiet?: boolean;
  /**
   * Embed the images and build the vector indexes (default true: every market has them). Only
   * tests that never read the vectors turn it off, to save the embedding's seconds.
   */
  embed?: boolean;
  /** Build the lots' read indexes beside the derivation (FinishOptions.earlyLotIndexes; default by size). */
  earlyLotIndexes?: boolean;
  /**
   * Run the generator on a thread of its own while this one inserts its rows (generate-thread.ts;
   * the same rows). Default: on a machine of 2 CPUs or more.
   */
  generatorThread?: boolean;
}

export interface SeedSummary {
  scale: Scale;
  seed: number;
  asOf: string;
  counts: Record<string, number>;
  lotsByStatus: Record<string, number>;
  seconds: number;
  /** Seconds per step: generation (with the source tables' indexes), derivation, read indexes, embeddings, statistics. */
  steps: { generate: number; derive: number; readIndexes: number; embed: number; statistics: number };
  /** Worker threads of the derivation's pass 2 (0: the seed's own thread). */
  deriveThreads: number;
  /** Seconds per step inside generation (the source tables, then their indexes) and inside the derivation. */
  detail: { generate: Record<string, number>; derive: Record<string, number> };
  /** The image embeddings (null when skipped). */
  embed: EmbedMarketSummary | null;
  /** The lots' read indexes built beside the derivation (null when they were not). */
  early: BuilderSummary | null;
  bytes: number;
  path: string;
}

export async function seedMarket(options: SeedOptions): Promise<SeedSummary> {
  const progress = new Progress("seed", options.quiet);
  const asOf = options.asOf ?? today();
  const spec = SCALE_SPECS[options.scale];
  // a killed build's files first, so their space counts as free (src/pipeline/db/leftovers.ts)
  removeStaleBuilds(options.dataDir, { log: options.quiet ? undefined : (line) => process.stderr.write(`seed: ${line}\n`) });
  checkDiskSpace(options.dataDir, seedSpaceNeeded(options.scale), `a ${options.scale} market`);
  mkdirSync(options.dataDir, { recursive: true });
  const target = marketDbPath(options.dataDir);
  const tmp = join(options.dataDir, `market.db.building-${process.pid}`);
  const truthTarget = join(options.dataDir, TRUTH_DB);
  const truthTmp = join(options.dataDir, `${TRUTH_DB}.building-${process.pid}`);
  for (const f of [tmp, `${tmp}-journal`, truthTmp]) if (existsSync(f)) rmSync(f);
  const db = openMarketForWrite(tmp, options.dataDir);
  attachNewWorks(db, tmp);
  const truth = createTruthDb(truthTmp);
  let counts: Record<string, number> = {};
  let totals: GeneratorTotals;
  let steps: SeedSummary["steps"] = { generate: 0, derive: 0, readIndexes: 0, embed: 0, statistics: 0 };
  let deriveThreads = 0;
  const detail: SeedSummary["detail"] = { generate: {}, derive: {} };
  let embed: EmbedMarketSummary | null = null;
  let early: BuilderSummary | null = null;
  try {
    const rng = new Random(options.seed);
    let phase = progress.phase("reference data");
    const reference = writeReference(db, rng, options.scale);
    counts = { ...reference.counts };
    phase.end();

    phase = progress.phase("market factor, FX rates, benchmarks");
    const months = monthIndex(asOf) + 1;
    const market = marketFactor(rng, months);
    truth.query("INSERT INTO market_truth (id, log_level) VALUES (1, ?)").run(new Uint8Array(market.buffer));
    const fx = fxRates(rng, CURRENCY_CODES, asOf, fxLastDay(asOf));
    counts.fx_rates = writeFxRates(db, fx);
    const insSeries = db.query("INSERT INTO benchmark_series (id, label, synthetic) VALUES (?, ?, 1)");
    const insPoint = db.query("INSERT INTO benchmarks (series, month, value) VALUES (?, ?, ?)");
    db.transaction(() => {
      for (const def of BENCHMARKS) {
        insSeries.run(def.id, def.label);
        for (const p of benchmarkSeries(rng, def, months - 1)) insPoint.run(def.id, p.month, p.value);
      }
    })();
    phase.end();

    phase = progress.phase("sales calendar");
    const sales = buildSales(db, rng, spec, reference.houses, asOf);
    counts.sales = sales.count;
    phase.end();

    const restore = deferIndexes(db, ["lots", "works.src_artworks", "artist_events"]);
    const plans = planArtists(rng, spec);
    const planned = plans.reduce((s, p) => s + p.lots, 0);
    phase = progress.phase("artists, artworks, lots", planned);
    const ctx = { rng, spec, asOf, months, market, fx, sales };
    const tick = (_: number, lots: number) => phase.tick(lots);
    totals = (options.generatorThread ?? cpus().length >= 2) ? await generateOnThread(db, truthTmp, ctx, plans, tick) : generateArtists(ctx, plans, tableSink(db, truth, tick));
    phase.end();
    Object.assign(counts, { artists: totals.artists, artworks: totals.artworks, lots: totals.lots, images: totals.images, artist_events: totals.events });

    detail.generate.tables = progress.elapsed();
    phase = progress.phase("indexes");
    restore((done, total) => phase.tick(done, total));
    phase.end();
    detail.generate.indexes = progress.elapsed() - detail.generate.tables;
    const generated = progress.elapsed();

    const meta = db.query("INSERT OR REPLACE INTO market_meta (key, value) VALUES (?, ?)");
    meta.run("scale", options.scale);
    meta.run("seed", String(options.seed));
    meta.run("as_of", asOf);
    meta.run("contents", "synthetic");
    meta.run("built_at", new Date().toISOString());
    truth.query("INSERT INTO truth_meta (key, value) VALUES ('seed', ?), ('scale', ?), ('as_of', ?)").run(String(options.seed), options.scale, asOf);

    const finished = await finishSnapshot(db, { dataDir: options.dataDir, asOf, progress, embed: options.embed, earlyLotIndexes: options.earlyLotIndexes });
    counts.estimated_artworks = finished.derived.estimated;
    counts.repeat_sale_pairs = finished.derived.pairs;
    if (finished.embed) counts.image_vectors = finished.embed.images;
    deriveThreads = finished.derived.workers;
    detail.derive = finished.derived.timings;
    steps = {
      generate: generated,
      derive: finished.seconds.derive,
      readIndexes: finished.seconds.readIndexes,
      embed: finished.seconds.embed,
      statistics: finished.seconds.statistics,
    };
    embed = finished.embed;
    early = finished.early;
    db.close();
    truth.close();
  } catch (err) {
    db.close();
    truth.close();
    rmSync(tmp, { force: true });
    removeWorks(tmp);
    rmSync(truthTmp, { force: true });
    throw err;
  }
  renameSync(truthTmp, truthTarget);
  await publishSnapshot(tmp, target);
  return {
    scale: options.scale,
    seed: options.seed,
    asOf,
    counts,
    lotsByStatus: totals.lotsByStatus,
    seconds: progress.elapsed(),
    steps,
    deriveThreads,
    detail,
    embed,
    early,
    bytes: statSync(target).size,
    path: target,
  };
}

export function formatSummary(s: SeedSummary): string {
  const rows = Object.entries(s.counts).map(([k, v]) => `  ${k.padEnd(18)} ${v.toLocaleString("en-US")}`);
  const status = Object.entries(s.lotsByStatus)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${((100 * v) / Math.max(1, s.counts.lots ?? 0)).toFixed(1)}%`)
    .join(", ");
  const st = s.steps;
  const embed = s.embed
    ? `  images embedded    ${s.embed.images.toLocaleString("en-US")} in ${s.embed.embedSeconds.toFixed(1)}s (${Math.round(s.embed.imagesPerSecond)}/s, ` +
      `beside the derivation; ${s.embed.waitedSeconds.toFixed(1)}s after it)${s.embed.failed ? `, ${s.embed.failed} unreadable` : ""}; ` +
      `vector indexes ${(s.embed.seconds - s.embed.waitedSeconds).toFixed(1)}s`
    : "  images embedded    skipped";
  return [
    `seed: ${s.scale} market (seed ${s.seed}, as of ${s.asOf}) written to ${s.path} in ${s.seconds.toFixed(1)}s, ${(s.bytes / 1048576).toFixed(1)} MiB`,
    ...rows,
    `  lots by status     ${status}`,
    embed,
    `  time               generate ${st.generate.toFixed(1)}s, derive ${st.derive.toFixed(1)}s${s.deriveThreads ? ` (${s.deriveThreads} threads)` : ""}, read indexes ${st.readIndexes.toFixed(1)}s, ` +
      `embeddings ${st.embed.toFixed(1)}s, statistics ${st.statistics.toFixed(1)}s`,
    `  steps              generation: ${seconds(s.detail.generate)}; derivation: ${seconds(s.detail.derive)}`,
    ...(s.early
      ? [
          `  lot indexes        ${s.early.built} of ${s.early.total} built beside the derivation in ${s.early.seconds.toFixed(1)}s ` +
            `(its writes waited ${s.early.waited.toFixed(1)}s for the last)${s.early.built < s.early.total ? "; the rest with the read indexes" : ""}`,
        ]
      : []),
  ].join("\n");
}

function seconds(steps: Record<string, number>): string {
  return Object.entries(steps)
    .map(([k, v]) => `${k} ${v.toFixed(1)}s`)
    .join(", ");
}

/** fx_rates rows written per INSERT. */
const RATES_PER_INSERT = 500;

/**
 * The daily rates of every currency (about 240k rows from 1986 at any scale), in the order of
 * currency and day, `RATES_PER_INSERT` rows a statement: about 0.2 s, where a row a statement took
 * 0.4 s of a tiny seed's 2 s. Returns the rows written.
 */
function writeFxRates(db: Database, fx: FxTable): number {
  const days = Array.from({ length: fx.days }, (_, d) => fromDayNumber(fx.firstDay + d));
  const values: (string | number)[] = [];
  // db.query keeps the statement of each size: the full one is prepared once
  const flush = () => {
    db.query(`INSERT INTO fx_rates (code, day, usd_per_unit) VALUES ${valueRows(values.length / 3, 3)}`).run(...values);
    values.length = 0;
  };
  db.transaction(() => {
    fx.codes.forEach((code, c) => {
      const rates = fx.rates[c]!;
      for (let d = 0; d < fx.days; d++) {
        values.push(code, days[d]!, rates[d]!);
        if (values.length === 3 * RATES_PER_INSERT) flush();
      }
    });
    if (values.length) flush();
  })();
  return fx.codes.length * fx.days;
}
