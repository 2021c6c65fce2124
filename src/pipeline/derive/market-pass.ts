/**
 * Pass 1 of a whole market's derivation (market.ts): every artist's lots in sale order into the
 * repeat-sales market index (sale pairs and estimate pairs: WorkPairs, which a merge also takes
 * back and adds again) and the within-artist hedonic regression; the first model from their sums,
 * and the market solved again with the reading offsets (resolveMarket).
 */
import { NormalEquations } from "../../analytics/linear";
import { RepeatSalesAccumulator } from "../../analytics/index-model";
import { usdOf } from "../../db/fx";
import { FIRST_YEAR, monthIndex } from "../../market/calendar";
import { estimateMidLog, type ArtistModel, type FeatureRow } from "./artist";
import type { DeriveContext } from "./context";
import type { Mean } from "./offsets";
import { OutcomeHistory } from "./upcoming";

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

/** Monthly step variance of an artist's own index around the market: a 2 % monthly standard deviation. */
export const DEFAULT_PROCESS_VAR = 0.0004;

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
export interface MarketPass extends MarketSums {
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
export function marketPass(ctx: DeriveContext): MarketPass {
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
export interface FirstModel {
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
export function firstModel(ctx: DeriveContext, pass: MarketPass): FirstModel {
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
