/**
 * The derivation step: from the source tables of a market (generated or imported) to every
 * table the API serves, so that a read is a lookup. Formulas: docs/formulas.md and
 * docs/derivation.md.
 *
 * Pass 1 (every artist): repeat-sale pairs of sold lots feed the market index (a repeat-sales
 *   index over months); a sample of sold lots feeds a hedonic regression of log price on the
 *   work's attributes, within artist (demeaned per artist) and with year effects, so neither
 *   the artist's level nor the market's moves leak into the attribute coefficients.
 * Pass 2 (every artist): residuals z = log price − market − hedonic are smoothed into the
 *   artist's own monthly log index (Kalman filter + smoother), with each work's own effect
 *   backfitted and shrunk; from them come the artist chart, momentum, every artwork's estimate
 *   with an 80 % prediction band, its momentum and CAGR, the artist's stats, analytics documents
 *   and its vector. Then sales get their aggregates in one SQL statement (one scan of the lots).
 * Between the calibration and pass 2, the upcoming lots' model (upcoming.ts) is fitted on the
 *   calibration sample refitted as of past months; pass 2 applies it to each artist's upcoming
 *   lots, and their forecasts are written into the lots once pass 2 is over.
 */
import type { Database, Statement } from "bun:sqlite";
import { cpus } from "node:os";
import { NormalEquations } from "../../analytics/linear";
import { median, percentile } from "../../analytics/stats";
import { RepeatSalesAccumulator, Z80 } from "../../analytics/index-model";
import { usdOf } from "../../db/fx";
import { withSortRuns } from "../../db/sort-runs";
import type { PhaseProgress } from "../progress";
import { addDays } from "../../market/time";
import { FIRST_YEAR, monthDate, monthIndex } from "../../market/calendar";
import {
  ArtistDeriver,
  artistReader,
  artistWriter,
  estimateMidLog,
  FeatureSpace,
  mediumKey,
  round4,
  round6,
  SaleTimes,
  type ArtistModel,
  type ArtistNoise,
  type ArtistOutput,
  type ArtistRow,
  type ArtistSource,
  type FeatureRow,
  type LotRow,
} from "./artist";
import { ArtistPool } from "./artist-pool";
import { addPassedPairs, addReserveGapPairs, type Mean, type OffsetSums, readingOffsets } from "./offsets";
import { OutcomeHistory, trainUpcoming } from "./upcoming";
import { saveDeriveState } from "./state";

export { FeatureSpace, estimateMidLog, CAREER_SHIFT_VAR } from "./artist";

/** Below this many artists, pass 2 runs on this thread (starting worker threads costs more). */
export const PARALLEL_MIN_ARTISTS = 1000;

/**
 * From this many CPUs, pass 2 runs on one thread per CPU but one by default (this thread writes).
 * Below it, on this thread, except for a market of PARALLEL_MIN_SOLD sold lots or more. The threads
 * read and fit, this thread writes; on 2 cores one thread alone is slower than this thread (it
 * fits more slowly and posts its rows back), two gain
 * 0–20 %, and during a seed of a medium market the image embedding holds the second core
 * (docs/history/derivation.md#pass-2-on-worker-threads).
 */
export const PARALLEL_MIN_CPUS = 4;

/**
 * From this many sold lots, pass 2 runs on one thread per CPU on a machine of 2 or 3 CPUs: the
 * image embedding (at most about 100k images) then spreads over a derivation of many minutes and
 * takes little of the second core (docs/history/benchmarks.md#full-scale-now-2-cores-seed-1986),
 * and the owning thread mostly waits for rows to write.
 */
export const PARALLEL_MIN_SOLD = 4_000_000;

/** Pass 2's threads by default (0: this thread). */
export function defaultDeriveThreads(artists: number, sold: number, cpuCount = cpus().length): number {
  if (artists < PARALLEL_MIN_ARTISTS || cpuCount < 2) return 0;
  if (cpuCount >= PARALLEL_MIN_CPUS) return cpuCount - 1;
  return sold >= PARALLEL_MIN_SOLD ? cpuCount : 0;
}

export interface DeriveOptions {
  asOf: string;
  /** Variance of the monthly step of an artist's own index around the market (log²). */
  processVar?: number;
  /** Lots sampled for the hedonic regression (at most). */
  hedonicSample?: number;
  onProgress?: (phase: string, done: number, total: number) => void;
  /**
   * Worker threads for pass 2 (each artist on its own is independent given the model). Default:
   * defaultDeriveThreads: for a market of PARALLEL_MIN_ARTISTS artists or more, one per CPU but
   * one from PARALLEL_MIN_CPUS CPUs, one per CPU on 2 or 3 CPUs with PARALLEL_MIN_SOLD sold lots
   * or more, else none (this thread). The rows are the same for
   * any number.
   */
  workers?: number;
  /**
   * The connection every read goes through until the first write (pass 1, the calibration, the
   * pages of artists): default `db`. An immutable reader on the snapshot (openSnapshotReader)
   * while another connection builds indexes (src/pipeline/db/index-builder.ts): `db` then stays idle,
   * holding no lock, until `beforeWrite` has resolved.
   */
  reader?: Database;
  /** Awaited before the first write on `db` (an index builder beside the derivation stops there). */
  beforeWrite?: () => Promise<void>;
}

export interface DeriveSummary {
  months: number;
  artists: number;
  artworks: number;
  estimated: number;
  pairs: number;
  /** Pairs of consecutive house estimates of one work in the market index. */
  estimatePairs: number;
  sales: number;
  hedonicRows: number;
  /** Worker threads pass 2 ran on (0: this thread). */
  workers: number;
  /** The upcoming lots' model: its training lots (and the sold among them), and the upcoming lots given a forecast. */
  upcoming: { trainingLots: number; trainingSold: number; forecasts: number };
  noise: {
    obsVar: number;
    saleVar: number;
    workVar: number;
    processVar: number;
    estimateOffset: number;
    estimateVar: number;
    loadingVar: number;
    estimateOffsets: Record<string, number>;
    centre: number;
    bandScale: number;
  };
  /** Seconds per phase. */
  timings: Record<string, number>;
}

/**
 * Penalty on month-to-month changes of the repeat-sales market index, in units of pair weight:
 * roughly the variance of one pair's log return around the market (sale noise twice, plus the
 * artist's own moves) over the variance of a monthly market step. Measured against the latent
 * truth (bench/valuation), with sale and estimate pairs, 160 to 240 recover the market's
 * 12-month returns best (64 to 128 with sale pairs alone).
 */
export const MARKET_SMOOTHING = 160;

/**
 * Variance of an estimate pair's log return around the market, in units of a sale pair's
 * (consecutive house estimates of one work: their errors are drawn before the outcome, so a pair
 * of them is unbiased whatever each lot's outcome, and quieter than a pair of hammers).
 */
export const ESTIMATE_PAIR_VAR = 0.5;

/**
 * The lot statuses whose house estimates carry an offset of their own (estOffsets), in the order
 * of pass 1's status codes; any other status reads as sold.
 */
export const ESTIMATE_STATUSES = ["sold", "passed", "withdrawn", "upcoming", "sold_unreserved"] as const;

/** The bounds of the band's measured width over the model's (estimateCentre). */
export const MIN_BAND_SCALE = 0.5;
export const MAX_BAND_SCALE = 3;

/** A medium (category, first material, substrate) with this many works or more gets a hedonic one-hot of its own. */
export const MEDIUM_MIN_WORKS = 200;

/** The media are counted over this many works at most (the table's first rows). */
export const MEDIUM_SAMPLE_WORKS = 200_000;

/** Monthly step variance of an artist's own index around the market: a 2 % monthly standard deviation. */
export const DEFAULT_PROCESS_VAR = 0.0004;

/** Prior variance of an artist's loading on the market beyond 1 before calibration. */
export const DEFAULT_LOADING_VAR = 0.05;

/** Artists whose loading is known to a variance of 1/10 or better calibrate the loading's spread. */
export const LOADING_MIN_PRECISION = 10;

export async function deriveMarket(db: Database, options: DeriveOptions): Promise<DeriveSummary> {
  const { timings, lap } = phaseTimer();
  const ctx = deriveContext(db, options);
  const pass = marketPass(ctx);
  const first = firstModel(ctx, pass);
  const { model, sample } = readingModel(ctx, pass, first);
  const deriver = new ArtistDeriver(model);
  lap("pass 1: market index and hedonic model");
  const noise = calibrateNoise(pass, first, model, deriver, sample);
  measureCentre(pass.soldTwice, sample, deriver, noise, model);
  lap("calibration");
  model.upcoming = trainUpcoming(deriver, sample.sources, noise, model, pass.history);
  lap("upcoming lots' model");
  const written = await deriveArtists(ctx, model, noise, deriver, sample.readArtist);
  lap("pass 2: artists, artworks, analytics");
  writeForecasts(db, written.forecasts);
  lap("upcoming lots' forecasts");
  writeMarketIndex(ctx, model.marketLevel);
  const sales = writeSales(db);
  lap("market index and sales");
  // what the next merge goes on from (touched.ts)
  if (db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'derive_state'").get()) saveDeriveState(db, { model, noise, sums: pass, fittedAsOf: options.asOf });

  return {
    months: ctx.months,
    artists: written.artists,
    artworks: written.artworks,
    estimated: written.estimated,
    pairs: pass.pairCount,
    estimatePairs: pass.estimatePairCount,
    sales,
    hedonicRows: pass.hedonic.count,
    workers: written.workers,
    upcoming: { trainingLots: model.upcoming?.rows ?? 0, trainingSold: model.upcoming?.sold ?? 0, forecasts: written.forecasts.length },
    noise: {
      obsVar: round6(first.obsVar),
      saleVar: round6(noise.saleVar),
      workVar: round6(noise.workVar),
      processVar: first.processVar,
      estimateOffset: round6(first.estOffset),
      estimateOffsets: Object.fromEntries(Object.entries(model.estOffsets).map(([k, v]) => [k, round6(v)])),
      centre: round6(model.centre),
      bandScale: round6(model.bandScale),
      estimateVar: round6(estimateVarOf(first.estDiffVar, noise.saleVar)),
      loadingVar: round6(noise.loadingVar),
    },
    timings,
  };
}

/** Seconds per phase: `lap(name)` records the time since the last lap (or the start) as `name`'s. */
export function phaseTimer(): { timings: Record<string, number>; lap: (name: string) => void } {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark) / 1000;
    mark = now;
  };
  return { timings, lap };
}

/** What every phase reads: the connections and options, the months, the hedonic features and the market's counts. */
interface DeriveContext {
  db: Database;
  /** The connection every read goes through until the first write (DeriveOptions.reader, else db). */
  src: Database;
  options: DeriveOptions;
  progress: (phase: string, done: number, total: number) => void;
  months: number;
  /** The last month (months − 1). */
  T: number;
  /** The hedonic model's sale years, from FIRST_YEAR to the as-of date's. */
  yearCount: number;
  oneYearAgo: string;
  categories: number;
  materials: number;
  /** The media with a hedonic one-hot of their own. */
  mediaKeys: string[];
  space: FeatureSpace;
  /** The hedonic features (space.size), before the year effects. */
  K: number;
  artistCount: number;
  /** Sold lots with a hammer. */
  soldCount: number;
  /** Lots store their sale's start as Unix seconds, read as ISO text through this. */
  saleTimes: SaleTimes;
}

function deriveContext(db: Database, options: DeriveOptions): DeriveContext {
  const months = monthIndex(options.asOf) + 1;
  const asOfYear = Number(options.asOf.slice(0, 4));
  const src = options.reader ?? db;
  const categories = (src.query("SELECT count(*) AS n FROM categories").get() as { n: number }).n;
  const materials = (src.query("SELECT count(*) AS n FROM materials").get() as { n: number }).n;
  // media (category, first material, substrate) with MEDIUM_MIN_WORKS works or more among the
  // first MEDIUM_SAMPLE_WORKS: a one-hot of their own in the hedonic features, since a material's
  // effect may differ by category and substrate (oil on canvas or on panel, ceramic sculpture or
  // tableware)
  const mediumCounts = new Map<string, number>();
  for (const r of src
    .query(
      `SELECT category_id AS c, material_ids AS m, substrate_id AS s, count(*) AS n
       FROM (SELECT category_id, material_ids, substrate_id FROM src_artworks LIMIT ${MEDIUM_SAMPLE_WORKS}) GROUP BY 1, 2, 3`,
    )
    .all() as { c: number; m: string; s: number | null; n: number }[]) {
    const k = mediumKey(r.c, r.m, r.s);
    mediumCounts.set(k, (mediumCounts.get(k) ?? 0) + r.n);
  }
  const mediaKeys = [...mediumCounts]
    .filter(([, n]) => n >= MEDIUM_MIN_WORKS)
    .map(([k]) => k)
    .sort();
  const space = new FeatureSpace(categories, materials, mediaKeys);
  const artistCount = (src.query("SELECT count(*) AS n FROM src_artists").get() as { n: number }).n;
  const soldCount = (src.query("SELECT count(*) AS n FROM lots WHERE status = 'sold' AND hammer_usd_cents > 0").get() as { n: number }).n;
  return {
    db,
    src,
    options,
    progress: options.onProgress ?? (() => {}),
    months,
    T: months - 1,
    yearCount: asOfYear - FIRST_YEAR + 1,
    oneYearAgo: addDays(options.asOf, -365),
    categories,
    materials,
    mediaKeys,
    space,
    K: space.size,
    artistCount,
    soldCount,
    saleTimes: new SaleTimes(),
  };
}

/** The market index's sums: what a merge takes back and adds again for the works it changes (touched.ts). */
export interface MarketSums {
  /** The repeat-sales market index's normal equations (sale pairs and estimate pairs). */
  market: RepeatSalesAccumulator;
  /** Per lot status (ESTIMATE_STATUSES), the estimate pairs' shift of the market's right-hand side per unit of that status's offset. */
  statusShift: Float64Array[];
  /** The same for the sale pairs, by whether each sold lot had a reserve (0: with, 1: without). */
  hammerShift: Float64Array[];
}

/** Pass 1's sums over every artist's lots. */
interface MarketPass extends MarketSums {
  /** The within-artist hedonic regression (features, then year effects). */
  hedonic: NormalEquations;
  pairCount: number;
  estimatePairCount: number;
  /** Sale pairs of 24 months or less (at most 200,000): months and log return. */
  shortPairs: { from: number; to: number; r: number }[];
  /** Sold lots with a house estimate: count, sum and sum of squares of log hammer − log estimate midpoint. */
  estDiffN: number;
  estDiffSum: number;
  estDiffSq: number;
  /** The same by whether the lot had a reserve (0: with, 1: without): count and sum. */
  estDiffBy: [Mean, Mean];
  /** Bought-in lots with a house estimate. */
  passedWithEstimate: number;
  /** Sold lots with a hammer, with a reserve and without. */
  soldBy: number[];
  /** Artists with two sold lots or more. */
  soldTwice: number[];
  /** Concluded lots by house and location and month (the upcoming lots' model reads their record). */
  history: OutcomeHistory;
}

/**
 * Pass 1, every artist's lots in sale order: consecutive sold lots of one work and consecutive
 * house estimates of one work into the market index, a sample of sold lots into the hedonic
 * regression (demeaned within artist), and the counts the reading offsets start from.
 */
function marketPass(ctx: DeriveContext): MarketPass {
  const { src, progress, months, yearCount, K, artistCount, soldCount } = ctx;
  // Pass 1 reads only what it needs, as arrays: each lot's artwork, sale time, whether it sold,
  // hammer and estimate (every lot: estimate pairs take unsold lots too), and the attributes of
  // the works a sampled lot needs.
  const lotsOf = src.query<unknown, [number]>(
    `SELECT artwork_id, sale_datetime, status = 'sold' AND hammer_usd_cents > 0, ${usdOf("hammer_usd_cents")}, ${usdOf("estimate_min_usd_cents")}, ${usdOf("estimate_max_usd_cents")},
            CASE status WHEN 'passed' THEN 1 WHEN 'withdrawn' THEN 2 WHEN 'upcoming' THEN 3 WHEN 'sold' THEN 4 * (reserve_mark = 0) ELSE 0 END, house_id, location_id FROM lots
     WHERE artist_id = ? ORDER BY sale_datetime, id`,
  );
  const featuresOf = src.query<FeatureRow, [number]>(
    "SELECT id, category_id, material_ids, substrate_id, height_cm, width_cm, depth_cm, signed, edition_size, creation_year FROM src_artworks WHERE artist_id = ?",
  );
  const artistBirths = src.query<unknown, []>("SELECT id, birth FROM src_artists ORDER BY id");
  const sampleRate = Math.min(1, (ctx.options.hedonicSample ?? 600_000) / Math.max(1, soldCount));

  const pass: MarketPass = {
    market: new RepeatSalesAccumulator(months),
    hedonic: new NormalEquations(K + yearCount),
    pairCount: 0,
    estimatePairCount: 0,
    statusShift: ESTIMATE_STATUSES.map(() => new Float64Array(months)),
    hammerShift: [new Float64Array(months), new Float64Array(months)],
    shortPairs: [],
    estDiffN: 0,
    estDiffSum: 0,
    estDiffSq: 0,
    estDiffBy: [
      { n: 0, sum: 0 },
      { n: 0, sum: 0 },
    ],
    passedWithEstimate: 0,
    soldBy: [0, 0],
    soldTwice: [],
    history: new OutcomeHistory(months),
  };
  const sampler: HedonicSampler = { rate: sampleRate, tick: 0, row: new Float64Array(K + yearCount) };
  let done = 0;
  for (const [artistId, birth] of artistBirths.values() as [number, number | null][]) {
    const lots = lotsOf.values(artistId) as PassLot[];
    addArtistLots(ctx, pass, sampler, artistId, birth, lots, (id) => featuresOf.all(id));
    if (++done % 500 === 0) progress("market index and hedonic model", done, artistCount);
  }
  progress("market index and hedonic model", done, artistCount);
  return pass;
}

/**
 * A lot as pass 1 reads it: artwork, sale time (Unix seconds), sold with a hammer (1/0), hammer,
 * estimates (USD), status code (0 sold with a reserve or any other status, 1 passed, 2 withdrawn,
 * 3 upcoming, 4 sold without a reserve), house, location.
 */
type PassLot = [number, number, number, number | null, number | null, number | null, number, number, number];

/** Pass 1's sample of sold lots for the hedonic regression: every 1/rate-th sold lot, across artists. */
interface HedonicSampler {
  rate: number;
  tick: number;
  /** Scratch for one regression row (K + yearCount). */
  row: Float64Array;
}

/** A pair's weight `w` into a shift by status (MarketPass.statusShift, hammerShift): +w at `to`, −w at `from` for the later lot's, the reverse for the earlier's. */
function shiftPair(shift: Float64Array[], from: number, to: number, early: number, late: number, w: number): void {
  shift[late]![to]! += w;
  shift[late]![from]! -= w;
  shift[early]![to]! -= w;
  shift[early]![from]! += w;
}

/**
 * The market index's pairs of works, from their lots in sale order (any works, interleaved): each
 * work's consecutive house estimates (an estimate pair) and consecutive sold lots (a sale pair),
 * added to the sums, or with `sign` −1 taken back (a merge, for the works it changes).
 */
export class WorkPairs {
  /** Each work's last sold lot: month, log hammer, whether it had no reserve. */
  private readonly last = new Map<number, { m: number; y: number; unreserved: number }>();
  /** Each work's last house estimate: month, log midpoint, status code. */
  private readonly lastEstimate = new Map<number, { m: number; y: number; status: number }>();

  constructor(
    private readonly sums: MarketSums,
    private readonly sign: 1 | -1 = 1,
  ) {}

  /** A lot's house estimate (log midpoint `mid`) in month `m`, with the lot's status code: whether it made a pair. */
  estimate(artworkId: number, m: number, mid: number, status: number): boolean {
    const prev = this.lastEstimate.get(artworkId);
    let paired = false;
    if (prev && m > prev.m) {
      const w = 1 / (ESTIMATE_PAIR_VAR + (m - prev.m) / 120);
      this.pair(prev.m, m, mid - prev.y, w);
      shiftPair(this.sums.statusShift, prev.m, m, prev.status, status, this.sign * w);
      paired = true;
    }
    this.lastEstimate.set(artworkId, { m, y: mid, status });
    return paired;
  }

  /** A sold lot's log hammer `y` in month `m`: the work's previous sold lot when it made a pair with it, else null. */
  sale(artworkId: number, m: number, y: number, unreserved: number): { m: number; y: number } | null {
    const prev = this.last.get(artworkId);
    let paired: { m: number; y: number } | null = null;
    if (prev && m > prev.m) {
      const w = 1 / (1 + (m - prev.m) / 120); // long holds carry more idiosyncratic drift
      this.pair(prev.m, m, y - prev.y, w);
      shiftPair(this.sums.hammerShift, prev.m, m, prev.unreserved, unreserved, this.sign * w);
      paired = prev;
    }
    this.last.set(artworkId, { m, y, unreserved });
    return paired;
  }

  private pair(from: number, to: number, r: number, w: number): void {
    if (this.sign === 1) this.sums.market.add(from, to, r, w);
    else this.sums.market.remove(from, to, r, w);
  }
}

/**
 * One artist's lots (in sale order) into pass 1's sums: each work's consecutive house estimates
 * and consecutive sold lots as pairs of the market index, the sold lots' estimate differences and
 * counts, and its sampled sold lots, demeaned, into the hedonic regression.
 */
function addArtistLots(
  ctx: DeriveContext,
  pass: MarketPass,
  sampler: HedonicSampler,
  artistId: number,
  birth: number | null,
  lots: PassLot[],
  featuresOf: (artistId: number) => FeatureRow[],
): void {
  const { T, yearCount, space, K, saleTimes } = ctx;
  const { hedonic, shortPairs, estDiffBy, soldBy, soldTwice } = pass;
  const isoOf = (seconds: number) => saleTimes.iso(seconds);
  let byId: Map<number, FeatureRow> | null = null;
  // consecutive house estimates of one work, whatever each lot's outcome, and consecutive sold
  // lots of one work → the market index's pairs
  const pairs = new WorkPairs(pass);
  const sel: { feats: Float64Array; y: number; year: number }[] = [];
  let soldHere = 0;
  for (const [artworkId, saleSeconds, isSold, hammerUsd, estMin, estMax, status, houseId, locationId] of lots) {
    const saleDatetime = isoOf(saleSeconds);
    const m = Math.min(T, monthIndex(saleDatetime));
    const mid = estimateMidLog(estMin, estMax);
    // the record of houses and locations: concluded lots (sold with a hammer, bought in, withdrawn)
    if (isSold || status === 1 || status === 2) pass.history.add(houseId, locationId, m, isSold === 1, isSold && mid !== null ? Math.log(hammerUsd!) - mid : null);
    if (mid !== null) {
      if (status === 1) pass.passedWithEstimate++;
      if (pairs.estimate(artworkId, m, mid, status)) pass.estimatePairCount++;
    }
    if (!isSold) continue;
    soldHere++;
    const y = Math.log(hammerUsd!);
    const unreserved = status === 4 ? 1 : 0;
    soldBy[unreserved]!++;
    if (mid !== null) {
      pass.estDiffN++;
      pass.estDiffSum += y - mid;
      pass.estDiffSq += (y - mid) ** 2;
      estDiffBy[unreserved]!.n++;
      estDiffBy[unreserved]!.sum += y - mid;
    }
    const prev = pairs.sale(artworkId, m, y, unreserved);
    if (prev) {
      pass.pairCount++;
      if (m - prev.m <= 24 && shortPairs.length < 200_000) shortPairs.push({ from: prev.m, to: m, r: y - prev.y });
    }
    sampler.tick += sampler.rate;
    if (sampler.tick >= 1) {
      sampler.tick -= 1;
      if (!byId) {
        byId = new Map();
        for (const w of featuresOf(artistId)) byId.set(w.id, w);
      }
      const w = byId.get(artworkId);
      if (!w) continue;
      const feats = new Float64Array(K);
      space.fill(feats, w, birth);
      sel.push({ feats, y, year: Math.min(yearCount - 1, Math.max(0, Number(saleDatetime.slice(0, 4)) - FIRST_YEAR)) });
    }
  }
  if (soldHere >= 2) soldTwice.push(artistId);
  if (sel.length >= 2) addWithinArtist(hedonic, sampler.row, sel, K, yearCount);
}

/**
 * One artist's sampled sold lots (two or more) into the hedonic regression, demeaned within the
 * artist: the artist's own level drops out. `row` is scratch of K + yearCount.
 */
function addWithinArtist(hedonic: NormalEquations, row: Float64Array, sel: { feats: Float64Array; y: number; year: number }[], K: number, yearCount: number): void {
  const meanX = new Float64Array(K + yearCount);
  let meanY = 0;
  for (const s of sel) {
    for (let i = 0; i < K; i++) meanX[i]! += s.feats[i]!;
    meanX[K + s.year]! += 1;
    meanY += s.y;
  }
  for (let i = 0; i < meanX.length; i++) meanX[i]! /= sel.length;
  meanY /= sel.length;
  for (const s of sel) {
    row.fill(0);
    for (let i = 0; i < K; i++) row[i] = s.feats[i]! - meanX[i]!;
    for (let j = 0; j < yearCount; j++) row[K + j] = (j === s.year ? 1 : 0) - meanX[K + j]!;
    hedonic.add(row, s.y - meanY);
  }
}

/** The model pass 1's sums give before any calibration. */
interface FirstModel {
  /** The market's log level by month (solved again, in place, as the reading offsets move). */
  marketLevel: Float64Array;
  /** The hedonic coefficients (features, then year effects). */
  beta: Float64Array;
  /** Residual variance of the within-artist regression. */
  obsVar: number;
  saleVar: number;
  workVar: number;
  processVar: number;
  /** Mean log hammer − log estimate midpoint over sold lots. */
  estOffset: number;
  /** Variance of that difference (NaN with 50 lots or fewer). */
  estDiffVar: number;
}

/** The market index, the hedonic coefficients and the first noise variances, from pass 1's sums. */
function firstModel(ctx: DeriveContext, pass: MarketPass): FirstModel {
  const { months, K, yearCount } = ctx;
  const { market, hedonic, shortPairs, estDiffN, estDiffSum, estDiffSq } = pass;
  const marketLevel = market.count > 0 ? market.solve(MARKET_SMOOTHING) : new Float64Array(months);
  const beta = hedonic.count > K + yearCount ? hedonic.solve(1e-3) : new Float64Array(K + yearCount);
  // residual variance of the within-artist regression: index moves + work effects + sale noise
  let obsVar = 0.3;
  if (hedonic.count > K + yearCount) {
    let fitted = 0;
    for (let i = 0; i < beta.length; i++) fitted += beta[i]! * hedonic.xty[i]!;
    obsVar = Math.max(0.02, (hedonic.syy - fitted) / Math.max(1, hedonic.count - beta.length));
  }
  // sale noise: half the variance of short-hold pair residuals (the index moves little in two years)
  const shortPairResiduals: number[] = [];
  for (const p of shortPairs) shortPairResiduals.push(p.r - (marketLevel[p.to]! - marketLevel[p.from]!));
  let saleVar = obsVar * 0.5;
  if (shortPairResiduals.length > 50) {
    const mu = shortPairResiduals.reduce((s, v) => s + v, 0) / shortPairResiduals.length;
    const v = shortPairResiduals.reduce((s, r) => s + (r - mu) ** 2, 0) / (shortPairResiduals.length - 1);
    saleVar = Math.min(obsVar * 0.95, Math.max(0.005, v / 2));
  }
  const workVar = Math.max(0.005, obsVar - saleVar);
  const processVar = ctx.options.processVar ?? DEFAULT_PROCESS_VAR;
  // The house estimate as a second, quieter reading of the work's value: log midpoint + offset,
  // the offset being the mean of log hammer − log midpoint over sold lots. Its own variance is
  // that of the difference less the sale noise (set below, once the sale noise is calibrated).
  const estOffset = estDiffN > 50 ? estDiffSum / estDiffN : 0;
  const estDiffVar = estDiffN > 50 ? (estDiffSq - estDiffN * estOffset ** 2) / (estDiffN - 1) : Number.NaN;
  return { marketLevel, beta, obsVar, saleVar, workVar, processVar, estOffset, estDiffVar };
}

/** The house estimate's own variance: that of log hammer − log midpoint less the sale noise, at least a fifth of it (NaN without a measured difference). */
function estimateVarOf(estDiffVar: number, sale: number): number {
  return Number.isFinite(estDiffVar) ? Math.max(0.2 * sale, estDiffVar - sale) : Number.NaN;
}

/** The calibration's sample of artists, read once, and what reads another artist like them. */
interface CalibrationSample {
  /** Up to 1,500 artists with 10 sold lots or more, in the order of a hash of their id. */
  sources: ArtistSource[];
  readArtist: (artist: ArtistRow) => ArtistSource;
  artistById: Statement<ArtistRow, [number]>;
  /** Pass 1's counts the reading offsets are measured from. */
  offsetSums: OffsetSums;
}

/**
 * The model pass 2 fits artists against: the first model with the reading offsets (measured
 * against the market on the calibration sample) and the market solved again with them.
 */
function readingModel(ctx: DeriveContext, pass: MarketPass, first: FirstModel): { model: ArtistModel; sample: CalibrationSample } {
  const { src, options, months, oneYearAgo, categories, materials, mediaKeys } = ctx;
  const { soldBy, estDiffBy, passedWithEstimate } = pass;
  const { marketLevel, beta, processVar } = first;
  const sample = src
    .query<{ id: number }, []>(
      `SELECT artist_id AS id FROM lots WHERE status = 'sold' GROUP BY artist_id HAVING count(*) >= 10
       ORDER BY (artist_id * 2654435761) % 4294967296 LIMIT 1500`,
    )
    .all()
    .map((r) => r.id);
  // The sample's works and lots are read once, for the reading offsets and both calibration rounds.
  const readArtist = artistReader(src);
  const artistById = src.query<ArtistRow, [number]>(
    "SELECT id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id FROM src_artists WHERE id = ?",
  );
  const sampleSources = sample.map((id) => readArtist(artistById.get(id)!));
  // How each lot reads as its work's value (src/pipeline/derive/offsets.ts): hammers by reserve (the gap
  // measured in the calibration below), estimates by outcome; a bought-in lot's estimate first
  // against the market, then in each round along the artist's own fitted index.
  const offsetSums: OffsetSums = { sold: [soldBy[0]!, soldBy[1]!], estimateDiff: estDiffBy, passed: passedWithEstimate };
  const passedFirst: Mean = { sum: 0, n: 0 };
  // (no hammer offsets yet: the reserve gap is measured in the calibration)
  for (const { lots } of sampleSources) addPassedPairs(lots, marketLevel, { reserved: 0, unreserved: 0 }, passedFirst);
  const { estOffsets, hammerOffsets } = readingOffsets(offsetSums, 0, passedFirst.n >= 50 ? passedFirst.sum / passedFirst.n : undefined);
  const model: ArtistModel = {
    asOf: options.asOf,
    oneYearAgo,
    months,
    categories,
    materials,
    media: mediaKeys,
    beta,
    marketLevel,
    processVar,
    estOffsets,
    hammerOffsets,
    centre: 0,
    bandScale: 1,
    categoryNames: (src.query("SELECT id, name FROM categories").all() as { id: number; name: string }[]).map((r) => [r.id, r.name]),
  };
  resolveMarket(pass, model);
  return { model, sample: { sources: sampleSources, readArtist, artistById, offsetSums } };
}

/**
 * The market again, each pair of estimates read as (m₂ + c₂) − (m₁ + c₁) with each lot's
 * offset, and each sale pair with its hammers' offsets: a bought-in lot's estimate sits higher
 * over the work's value than a sold lot's, so a pair from a sold lot's estimate to a bought-in
 * one's rose by more than the market (and the reverse fell), which evens out only where sold
 * and bought-in lots mix (not in the last months, where the lots to come and the bought-in
 * ones are many, nor in a market held out of its last sales). Solved into model.marketLevel.
 */
export function resolveMarket(sums: MarketSums, model: ArtistModel): void {
  const { market, statusShift, hammerShift } = sums;
  const { months, marketLevel } = model;
  if (market.count === 0) return;
  const { estOffsets, hammerOffsets } = model;
  const rhs = Float64Array.from(market.rhs);
  const add = (c: number, shift: Float64Array) => {
    for (let t = 0; t < months; t++) rhs[t]! += c * shift[t]!;
  };
  ESTIMATE_STATUSES.forEach((status, k) => add(estOffsets[status] ?? estOffsets.sold!, statusShift[k]!));
  add(hammerOffsets.reserved, hammerShift[0]!);
  add(hammerOffsets.unreserved, hammerShift[1]!);
  marketLevel.set(market.solve(MARKET_SMOOTHING, rhs));
}

/**
 * Calibration, two rounds on the sample: the sale noise and the work effect's variance, the
 * loading's spread across artists, and the reading offsets (the bought-in offset and the reserve
 * gap along each artist's own fitted index), the market solved again after each round.
 */
function calibrateNoise(pass: MarketPass, first: FirstModel, model: ArtistModel, deriver: ArtistDeriver, sample: CalibrationSample): ArtistNoise {
  const { estDiffVar } = first;
  let { saleVar, workVar } = first;
  // prior variance of an artist's loading on the market beyond 1, calibrated below
  let loadingVar = DEFAULT_LOADING_VAR;
  // Calibration: sale noise and work-effect variance from same-work residual pairs after the
  // artist's index is fitted (their product estimates the work effect's variance, half their
  // squared difference the sale noise), on a sample of artists, twice.
  for (let round = 0; round < 2 && sample.sources.length > 0; round++) {
    let prod = 0;
    let half = 0;
    let count = 0;
    let loadingMoment = 0;
    let loadingArtists = 0;
    const passedAcc: Mean = { sum: 0, n: 0 };
    const gapAcc: Mean = { sum: 0, n: 0 };
    for (const source of sample.sources) {
      const fit = deriver.fit(source, { saleVar, workVar, estVar: estimateVarOf(estDiffVar, saleVar), loadingVar });
      // the loading's spread across artists: its unshrunk estimate squared less its sampling variance
      if (fit.loadingDen >= LOADING_MIN_PRECISION) {
        loadingMoment += (fit.loadingNum / fit.loadingDen) ** 2 - 1 / fit.loadingDen;
        loadingArtists++;
      }
      // the bought-in offset again and the reserve gap, moved along the artist's own fitted
      // index in place of the market (the artist's drift and loading between the two lots taken out)
      addPassedPairs(fit.lots, fit.full, model.hammerOffsets, passedAcc);
      addReserveGapPairs(fit.lots, fit.full, gapAcc);
      const lastResidual = new Map<number, number>();
      for (let i = 0; i < fit.nSold; i++) {
        const e = fit.obsZ[i]! - fit.level[fit.obsMonth[i]!]! - fit.trend[i]! - fit.term[i]!;
        const prev = lastResidual.get(fit.obsWork[i]!);
        if (prev !== undefined) {
          prod += prev * e;
          half += 0.5 * (e - prev) ** 2;
          count++;
        }
        lastResidual.set(fit.obsWork[i]!, e);
      }
    }
    if (count >= 50) {
      saleVar = Math.max(0.005, half / count);
      workVar = Math.max(0.002, prod / count);
    }
    if (loadingArtists >= 20) loadingVar = Math.min(1, Math.max(0.001, loadingMoment / loadingArtists));
    ({ estOffsets: model.estOffsets, hammerOffsets: model.hammerOffsets } = readingOffsets(
      sample.offsetSums,
      gapAcc.n >= 50 ? gapAcc.sum / gapAcc.n : 0,
      passedAcc.n >= 50 ? passedAcc.sum / passedAcc.n : model.estOffsets.passed,
    ));
    resolveMarket(pass, model);
  }
  return { saleVar, workVar, estVar: estimateVarOf(estDiffVar, saleVar), loadingVar };
}

/** The estimate's centre and band scale (estimateCentre) into the model. */
function measureCentre(soldTwice: number[], sample: CalibrationSample, deriver: ArtistDeriver, noise: ArtistNoise, model: ArtistModel): void {
  const { readArtist, artistById } = sample;
  // the centre on a sample of its own, of the artists with at least two sold lots (one is held
  // out of each work), thin ones included: the estimate serves them too; in the calibration
  // sample's order (a hash of the id), from pass 1's counts
  const hashOf = (id: number) => (id * 2654435761) % 4294967296;
  const centreSources = soldTwice
    .sort((a, b) => hashOf(a) - hashOf(b) || a - b)
    .slice(0, 1500)
    .map((id) => readArtist(artistById.get(id)!));
  ({ centre: model.centre, bandScale: model.bandScale } = estimateCentre(deriver, centreSources, noise, model));
}

/** Pass 2's rows written: artists, artworks, estimated artworks, and the worker threads it ran on (0: this thread). */
interface ArtistsWritten {
  artists: number;
  artworks: number;
  estimated: number;
  workers: number;
  /** The upcoming lots' forecasts (ArtistOutput.forecasts), written once pass 2's threads are done. */
  forecasts: (number | null)[][];
}

/**
 * Pass 2: every artist fitted against the model (on worker threads when there are enough) and
 * its rows written (artists, artworks, charts, analytics), after DeriveOptions.beforeWrite.
 */
async function deriveArtists(
  ctx: DeriveContext,
  model: ArtistModel,
  noise: ArtistNoise,
  deriver: ArtistDeriver,
  readArtist: (artist: ArtistRow) => ArtistSource,
): Promise<ArtistsWritten> {
  const { db, src, options, progress, artistCount, soldCount } = ctx;
  let done = 0;
  let estimated = 0;
  let artworksWritten = 0;
  let artistsWritten = 0;
  const forecasts: (number | null)[][] = [];
  // the first write on db: after beforeWrite (nothing touches db before, not even a prepare)
  let writePage: ((outs: ArtistOutput[]) => void) | null = null;
  const startWriting = async () => {
    await options.beforeWrite?.();
    db.run("DELETE FROM artists");
    db.run("DELETE FROM artworks");
    db.run("DELETE FROM artist_charts");
    db.run("DELETE FROM artist_analytics");
    db.run("DELETE FROM market_index");
    const write = artistWriter(db);
    writePage = db.transaction((outs: ArtistOutput[]) => {
      for (const out of outs) {
        write(out);
        estimated += out.estimated;
        artworksWritten += out.artworks.length;
      }
    });
  };
  // artists in pages of 200 (a page is one transaction; a large market's artists, bios
  // included, are never in memory at once), derived on worker threads when there are enough
  const artistPage = src.query<ArtistRow, [number]>(
    "SELECT id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id FROM src_artists WHERE id > ? ORDER BY id LIMIT 200",
  );
  let after = Number.MIN_SAFE_INTEGER;
  const nextPage = (): ArtistRow[] | null => {
    const page = artistPage.all(after);
    if (page.length === 0) return null;
    after = page[page.length - 1]!.id;
    return page;
  };
  const written = (outs: ArtistOutput[]) => {
    writePage!(outs);
    for (const out of outs) for (const f of out.forecasts) forecasts.push(f);
    done += outs.length;
    artistsWritten += outs.length;
    progress("artist indexes, estimates, analytics", done, artistCount);
  };
  const threads = options.workers ?? defaultDeriveThreads(artistCount, soldCount);
  // the threads read the snapshot's file on their own connections (an in-memory one has none)
  const snapshot = db.filename && db.filename !== ":memory:" ? db.filename : null;
  const parallel = threads >= 1 && snapshot !== null;
  if (parallel) {
    // The threads read each artist's works and lots (immutable connections: openSnapshotReader)
    // and fit them; this thread writes the rows.
    const pool = new ArtistPool(threads, model, noise, snapshot);
    try {
      // pages are handed out ahead (two per thread) and written in order as they come back
      const ahead: Promise<ArtistOutput[]>[] = [];
      for (;;) {
        while (ahead.length < 2 * threads) {
          const page = nextPage();
          if (!page) break;
          ahead.push(pool.derive(page));
        }
        // the threads have their first pages: now wait, if need be, to write
        if (!writePage) await startWriting();
        const first = ahead.shift();
        if (!first) break;
        written(await first);
      }
    } finally {
      pool.close();
    }
  } else {
    await startWriting();
    for (let page = nextPage(); page; page = nextPage()) written(page.map((a) => deriver.derive(readArtist(a), noise)));
  }
  progress("artist indexes, estimates, analytics", done, artistCount);
  return { artists: artistsWritten, artworks: artworksWritten, estimated, workers: parallel ? threads : 0, forecasts };
}

/**
 * The upcoming lots' forecasts into their rows, after pass 2 (whose threads read the lots through
 * immutable connections: nothing may write the table while they run). A snapshot derived again
 * (a finished one has lots_sale_probability) first loses its earlier forecasts; a new one has none.
 */
function writeForecasts(db: Database, forecasts: (number | null)[][]): void {
  const indexed = db.query("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'lots_sale_probability'").get() !== null;
  const update = db.query("UPDATE lots SET sale_probability = ?2, expected_hammer_usd = ?3, expected_hammer_usd_low = ?4, expected_hammer_usd_high = ?5 WHERE id = ?1");
  db.transaction(() => {
    if (indexed)
      db.run(
        "UPDATE lots SET sale_probability = NULL, expected_hammer_usd = NULL, expected_hammer_usd_low = NULL, expected_hammer_usd_high = NULL WHERE sale_probability IS NOT NULL",
      );
    // in id order: the updates walk the table's b-tree forwards
    forecasts.sort((a, b) => a[0]! - b[0]!);
    for (const f of forecasts) update.run(...(f as [number, number, number | null, number | null, number | null]));
  })();
}

/** The global art index: the market's level by month (100 at the first) with its sold lots. */
function writeMarketIndex(ctx: DeriveContext, marketLevel: Float64Array): void {
  const { db, months, saleTimes } = ctx;
  const isoOf = (seconds: number) => saleTimes.iso(seconds);
  // the global art index. Both aggregates over every lot below read the table in order and group
  // with the sorter (small runs: src/db/sort-runs.ts): through lots_date or lots_sale each lot
  // would be a lookup in the table at random (docs/history/derivation.md#sales-and-the-market-index).
  const lotsPerMonth = new Int32Array(months);
  const soldPerTime = withSortRuns(db, () =>
    db.query<{ t: number; n: number }, []>("SELECT sale_datetime AS t, count(*) AS n FROM lots NOT INDEXED WHERE status = 'sold' GROUP BY sale_datetime").all(),
  );
  for (const r of soldPerTime) {
    const i = monthIndex(isoOf(r.t));
    if (i >= 0 && i < months) lotsPerMonth[i]! += r.n;
  }
  const insIndex = db.query("INSERT INTO market_index (month, value, lots) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (let t = 0; t < months; t++) insIndex.run(monthDate(t).slice(0, 7), round4(100 * Math.exp(marketLevel[t]! - marketLevel[0]!)), lotsPerMonth[t]!);
  })();
}

/**
 * Sales with their aggregates; returns their count. `only`: those sales alone (a merge's, by id,
 * through lots_sale), the others left as they are.
 */
export function writeSales(db: Database, only?: number[]): number {
  const ids = only ? JSON.stringify(only) : null;
  if (ids) db.query("DELETE FROM sales WHERE id IN (SELECT value FROM json_each(?))").run(ids);
  else db.run("DELETE FROM sales");
  const lotsOf = ids ? "lots l WHERE l.sale_id IN (SELECT value FROM json_each(?1))" : "lots l NOT INDEXED";
  const salesOf = ids ? "WHERE s.id IN (SELECT value FROM json_each(?1))" : "";
  // the lots' aggregates by sale in one pass over the table, then joined to every sale (a sale
  // without lots has zeros); a few sales' through lots_sale, with no sorter set-up (which would
  // drop the connection's temporary tables: src/db/sort-runs.ts)
  const run = (write: () => void) => (ids ? write() : withSortRuns(db, write));
  run(() =>
    db
      .query(`
    WITH a AS MATERIALIZED (
      SELECT l.sale_id,
        count(*) AS lots_count,
        count(*) FILTER (WHERE l.status = 'passed') AS not_sold,
        count(*) FILTER (WHERE l.status = 'sold' AND l.hammer > l.estimate_max) AS above,
        count(*) FILTER (WHERE l.status = 'sold' AND l.hammer BETWEEN l.estimate_min AND l.estimate_max) AS within,
        count(*) FILTER (WHERE l.status = 'sold' AND l.hammer < l.estimate_min) AS below,
        sum(l.hammer) FILTER (WHERE l.status = 'sold') AS hammer,
        sum(l.premium - l.hammer) FILTER (WHERE l.status = 'sold') AS premium_sold,
        sum(l.premium) FILTER (WHERE l.status = 'sold') AS cumulative,
        sum(l.hammer_usd_cents) FILTER (WHERE l.status = 'sold') / 100.0 AS hammer_usd,
        sum(l.premium_usd_cents - l.hammer_usd_cents) FILTER (WHERE l.status = 'sold') / 100.0 AS premium_sold_usd,
        sum(l.premium_usd_cents) FILTER (WHERE l.status = 'sold') / 100.0 AS cumulative_usd,
        sum(l.estimate_min) FILTER (WHERE l.status != 'withdrawn') AS low,
        sum(l.estimate_max) FILTER (WHERE l.status != 'withdrawn') AS high
      FROM ${lotsOf} GROUP BY l.sale_id)
    INSERT INTO sales (id, house_id, name, location_id, location, currency, is_online, is_bids_streaming, status, start_datetime, end_datetime,
      lots_count, lots_count_not_sold, lots_count_sold_above_estimations, lots_count_sold_within_estimations, lots_count_sold_below_estimations,
      hammer_total, premium_sold_total, cumulative_total, hammer_total_usd, premium_sold_total_usd, cumulative_total_usd,
      hammer_low_estimate, hammer_high_estimate)
    SELECT s.id, s.house_id, s.name, s.location_id, s.location, s.currency, s.is_online, s.is_bids_streaming, s.status, s.start_datetime, s.end_datetime,
      coalesce(a.lots_count, 0), coalesce(a.not_sold, 0), coalesce(a.above, 0), coalesce(a.within, 0), coalesce(a.below, 0),
      coalesce(a.hammer, 0), coalesce(a.premium_sold, 0), coalesce(a.cumulative, 0),
      coalesce(a.hammer_usd, 0), coalesce(a.premium_sold_usd, 0), coalesce(a.cumulative_usd, 0),
      coalesce(a.low, 0), coalesce(a.high, 0)
    FROM src_sales s LEFT JOIN a ON a.sale_id = s.id ${salesOf}
    ORDER BY s.id`)
      .run(...((ids ? [ids] : []) as [])),
  );
  return only ? only.length : (db.query("SELECT count(*) AS n FROM sales").get() as { n: number }).n;
}

/**
 * The estimate's centre and its band's width, measured out of sample on a sample of artists: each
 * work's last sold lot is held out (hammer and estimate), the artist is fitted on the rest, and
 * each held-out hammer is compared with its prediction for its month.
 * - `centre`: a sold lot's hammer is, as a rule, a little below the mean its readings give (a
 *   reserve cuts off the low hammers, so the log hammers of sold lots are skewed: their mean sits
 *   above their median), and the estimate is meant as the median hammer. The median of
 *   log hammer − predicted log hammer is the shift added to every estimate and its band.
 * - `bandScale`: the model's standard deviation (ArtistDeriver.predictSd) leaves out what the fit
 *   takes as known (the hedonic coefficients, the offsets, the artist's step variance), so its
 *   band is a little narrow. The 80 % quantile of |residual − centre| / sd over Z80 is the factor
 *   on the band's half-width, within [MIN_BAND_SCALE, MAX_BAND_SCALE].
 * With fewer than 200 held-out lots: 0 and 1.
 */
export function estimateCentre(deriver: ArtistDeriver, sources: ArtistSource[], noise: ArtistNoise, model: ArtistModel): { centre: number; bandScale: number } {
  const residuals: number[] = [];
  const sds: number[] = [];
  const T = model.months - 1;
  for (const source of sources) {
    const last = new Map<number, LotRow>();
    for (const l of source.lots) {
      if (l.status !== "sold" || !(l.hammer_usd! > 0)) continue;
      const prev = last.get(l.artwork_id);
      if (!prev || l.sale_datetime >= prev.sale_datetime) last.set(l.artwork_id, l);
    }
    const held = new Set(last.values());
    const fit = deriver.fit({ ...source, lots: source.lots.filter((l) => !held.has(l)) }, noise);
    if (!fit.hasIndex) continue;
    for (const l of held) {
      const m = Math.max(0, Math.min(T, monthIndex(l.sale_datetime)));
      residuals.push(Math.log(l.hammer_usd!) - deriver.predictLog(fit, l.artwork_id, m));
      sds.push(deriver.predictSd(fit, l.artwork_id, m, noise));
    }
  }
  if (residuals.length < 200) return { centre: 0, bandScale: 1 };
  const centre = median(residuals)!;
  const q80 = percentile(
    residuals.map((r, i) => Math.abs(r - centre) / sds[i]!).sort((a, b) => a - b),
    0.8,
  );
  return { centre, bandScale: Math.min(MAX_BAND_SCALE, Math.max(MIN_BAND_SCALE, q80 / Z80)) };
}
