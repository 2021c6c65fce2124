/**
 * Upcoming lots: the chance that each sells (rather than being bought in or withdrawn) and its
 * hammer if it does, with an 80 % band, from what is known before the sale: the house's estimate
 * and the house's record of estimates against outcomes, the work's value and band (the artist's
 * fit), the artist's momentum and liquidity, the sale's house and location, the work's earlier
 * buy-ins, the reserve mark and where the low estimate sits against the value, the value less the
 * market's move since the fit as the houses' estimates of the sample's upcoming lots read it (the
 * market shift).
 *
 * Fitted in the derivation on the calibration sample's artists, each refitted as of several past
 * months ("cuts"): the lots of the UPCOMING_WINDOW months from a cut are read as upcoming (their
 * estimates kept, their outcomes hidden), the artist fitted on that, and each such concluded lot
 * becomes a training row with its outcome (an artist only at cuts it had the sample's 10 sold
 * lots before). A reserved lot with an estimate sells when its hammer clears the reserve, which
 * sits at or under the low estimate: a censored (Tobit) regression of log(hammer / low estimate)
 * on the features gives its probability (fitReserveModel). Every other lot's comes from a logistic
 * regression (Newton's method) on every row, calibrated by Platt scaling of out-of-fold scores
 * (four folds of artists, each scored by the regression fitted on the other three). A linear
 * regression of the log hammer over the estimate (sold lots) with a fitted scale gives the
 * hammer, its median and band from the out-of-fold residuals' quantiles. Pass 2 applies it to
 * every upcoming lot with the artist's full fit (ArtistDeriver.derive). Formulas:
 * docs/derivation.md#upcoming-lots.
 */
import { choleskySolve, NormalEquations } from "../../analytics/linear";
import { median, percentile } from "../../analytics/stats";
import { monthIndex } from "../../market/calendar";
import type { ArtistDeriver, ArtistModel, ArtistNoise, ArtistSource, LotRow } from "./artist";

/** Months of lots read as upcoming from each cut (an upcoming lot is at most about eight weeks ahead). */
export const UPCOMING_WINDOW = 3;

/** Cuts, UPCOMING_WINDOW months apart, back from the as-of month: the training rows come from the last eight years. */
export const UPCOMING_CUTS = 32;

/** At most this many refits of an artist for the training rows (the most recent cuts first). */
export const UPCOMING_MAX_FITS = 25000;

/** At most this many training rows. */
export const UPCOMING_MAX_ROWS = 150_000;

/**
 * An artist's rows at a cut only with this many sold lots before it: the calibration sample's own
 * threshold (artists with 10 sold lots or more, counted as of the as-of date, src/pipeline/derive/calibration.ts).
 */
export const UPCOMING_MIN_SOLD_BEFORE = 10;

/** Below this many training rows (or 30 of each outcome) no model: upcoming lots keep null values. */
export const UPCOMING_MIN_ROWS = 400;

/** Pseudo-counts that shrink a house's, location's or artist's record towards the market's. */
export const HOUSE_PRIOR = 50;
export const ARTIST_PRIOR = 10;

/**
 * Pseudo-counts that shrink the market shift of one month ahead towards the whole window's, and
 * the window's towards none.
 */
export const SHIFT_PRIOR = 30;

/** Ridge on the standardised coefficients (not the intercept) of both regressions. */
export const UPCOMING_RIDGE = 1;

/** The features, in order (docs/derivation.md#upcoming-lots). */
export const UPCOMING_FEATURES = [
  "intercept",
  "reserve",
  "no_estimate",
  "no_value",
  "value_over_mid",
  "low_z",
  "reserve_low_z",
  "reserve_low_phi",
  "reserve_low_probit_logit",
  "log_value_sd",
  "estimate_width",
  "work_bought_in",
  "work_withdrawn",
  "work_sold",
  "artist_momentum_12",
  "artist_liquidity",
  "artist_sell_logit",
  "house_sell_logit",
  "house_estimate_offset",
  "location_sell_logit",
  "price_level",
  "months_ahead",
  "market_shift",
] as const;

export const UPCOMING_K = UPCOMING_FEATURES.length;

/** Outcomes by house and location and month: concluded lots, sold ones, sold ones with an estimate, and their Σ log(hammer / midpoint). */
export class OutcomeHistory {
  readonly months: number;
  readonly houses = new Map<number, Float64Array>();
  readonly locations = new Map<number, Float64Array>();
  private cumulative = false;
  constructor(months: number) {
    this.months = months;
  }

  private row(map: Map<number, Float64Array>, id: number): Float64Array {
    let r = map.get(id);
    if (!r) map.set(id, (r = new Float64Array(this.months * 4)));
    return r;
  }

  /** A concluded lot (sold, bought in or withdrawn) in month m; `logDiff` log(hammer / midpoint) of a sold lot with an estimate, else null. */
  add(houseId: number, locationId: number, m: number, sold: boolean, logDiff: number | null): void {
    if (m < 0 || m >= this.months) return;
    for (const r of [this.row(this.houses, houseId), this.row(this.locations, locationId)]) {
      r[m * 4]! += 1;
      if (sold) r[m * 4 + 1]! += 1;
      if (logDiff !== null) {
        r[m * 4 + 2]! += 1;
        r[m * 4 + 3]! += logDiff;
      }
    }
  }

  /** Turns the monthly sums into running sums (once, after the last add). */
  finish(): void {
    if (this.cumulative) return;
    this.cumulative = true;
    for (const map of [this.houses, this.locations])
      for (const r of map.values()) for (let m = 1; m < this.months; m++) for (let j = 0; j < 4; j++) r[m * 4 + j]! += r[(m - 1) * 4 + j]!;
  }

  /** The record of every house and location before month `now`, shrunk towards the market's (MarketRecord). */
  recordBefore(now: number): MarketRecord {
    this.finish();
    const at = Math.min(this.months, now) - 1;
    const sums = (r: Float64Array | undefined) => (r && at >= 0 ? [r[at * 4]!, r[at * 4 + 1]!, r[at * 4 + 2]!, r[at * 4 + 3]!] : [0, 0, 0, 0]);
    const total = [0, 0, 0, 0];
    for (const r of this.houses.values()) sums(r).forEach((v, j) => (total[j]! += v));
    const sellRate = total[0]! > 0 ? clampRate(total[1]! / total[0]!) : 0.75;
    const estimateOffset = total[2]! > 0 ? total[3]! / total[2]! : 0;
    const shrink = (map: Map<number, Float64Array>) => {
      const out: Record<number, [number, number]> = {};
      for (const [id, r] of map) {
        const [n, sold, ne, sd] = sums(r);
        out[id] = [
          logit(clampRate((sold! + HOUSE_PRIOR * sellRate) / (n! + HOUSE_PRIOR))) - logit(sellRate),
          (sd! + HOUSE_PRIOR * estimateOffset) / (ne! + HOUSE_PRIOR) - estimateOffset,
        ];
      }
      return out;
    };
    return { sellRate, estimateOffset, houses: shrink(this.houses), locations: shrink(this.locations) };
  }
}

/** The market's sell rate and estimate offset before a month, and each house's and location's (sell logit and estimate offset, over the market's). Plain data. */
export interface MarketRecord {
  sellRate: number;
  estimateOffset: number;
  houses: Record<number, [number, number]>;
  locations: Record<number, [number, number]>;
}

/** The fitted model, plain data (sent to pass 2's threads with the ArtistModel). */
export interface UpcomingModel {
  /** Standardisation of the features (the intercept's mean 0, sd 1). */
  mean: number[];
  sd: number[];
  /** Logistic coefficients on the standardised features. */
  logit: number[];
  /** The calibration (Platt scaling of the out-of-fold scores: crossFitProbability). */
  platt: { a: number; b: number };
  /** The reserved lots' model (fitReserveModel), or null with too few reserved rows: the logistic then serves every lot. */
  reserved: ReserveModel | null;
  /** Log hammer over the base (log midpoint, else the value): coefficients, and its scale's. */
  hammer: number[];
  scale: number[];
  /** The smallest scale. */
  minScale: number;
  /** Quantiles 10 %, 50 %, 90 % of residual / scale, each sold row's from the fit without its fold. */
  q10: number;
  q50: number;
  q90: number;
  /** The record as of the as-of month. */
  record: MarketRecord;
  /** The market shift as of the as-of month, by months ahead (marketShift). */
  shift: number[];
  /** Training rows, and how many sold. */
  rows: number;
  sold: number;
}

export const logit = (p: number) => Math.log(p / (1 - p));
const clampRate = (p: number) => Math.min(0.999, Math.max(0.001, p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Φ, the standard normal CDF (erfc as in Numerical Recipes, relative error < 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - 0.5 * erfc : 0.5 * erfc;
}

/**
 * Logistic regression by Newton's method (iteratively reweighted least squares): `rows` of k
 * features (the first the intercept), outcomes 1/0; a ridge on every coefficient but the first.
 * `start`: the coefficients to start from (a nearby fit's: fewer steps), else zeros.
 */
export function fitLogistic(rows: Float64Array[], y: ArrayLike<number>, k: number, ridge = UPCOMING_RIDGE, iterations = 30, start?: ArrayLike<number>): Float64Array {
  let beta: Float64Array = start ? Float64Array.from(start) : new Float64Array(k);
  const penalty = new Float64Array(k * k);
  for (let j = 1; j < k; j++) penalty[j * k + j] = ridge;
  for (let it = 0; it < iterations; it++) {
    const ne = new NormalEquations(k);
    for (let i = 0; i < rows.length; i++) {
      const x = rows[i]!;
      let eta = 0;
      for (let j = 0; j < k; j++) eta += beta[j]! * x[j]!;
      const p = sigmoid(eta);
      const w = Math.max(1e-6, p * (1 - p));
      ne.add(x, eta + (y[i]! - p) / w, w);
    }
    const next = ne.solve(0, penalty);
    let change = 0;
    for (let j = 0; j < k; j++) change = Math.max(change, Math.abs(next[j]! - beta[j]!));
    beta = next;
    if (change < 1e-9) break;
  }
  return beta;
}

/** Least squares with a ridge on every coefficient but the first. */
export function fitLinear(rows: Float64Array[], y: ArrayLike<number>, k: number, ridge = UPCOMING_RIDGE): Float64Array {
  const ne = new NormalEquations(k);
  const penalty = new Float64Array(k * k);
  for (let j = 1; j < k; j++) penalty[j * k + j] = ridge;
  for (let i = 0; i < rows.length; i++) ne.add(rows[i]!, y[i]!);
  return ne.solve(0, penalty);
}

/**
 * Platt scaling: a logistic regression of the outcomes on the logit of the scores, so that
 * `sigmoid(a + b·logit(score))` is calibrated on these rows (a = 0, b = 1 leaves a calibrated score
 * as it is). Two parameters: little noise from ten thousand out-of-fold scores.
 */
export function plattScaling(scores: ArrayLike<number>, y: ArrayLike<number>): { a: number; b: number } {
  const rows = Array.from({ length: scores.length }, (_, i) => Float64Array.of(1, logit(clampRate(scores[i]!))));
  const [a, b] = fitLogistic(rows, y, 2, 0);
  return { a: a!, b: b! };
}

/** A score through Platt scaling. */
export function calibrated(platt: { a: number; b: number }, score: number): number {
  return sigmoid(platt.a + platt.b * logit(clampRate(score)));
}

/**
 * A reserved lot with an estimate sells when its hammer clears the reserve, which the houses set
 * at (or a little under) the low estimate: a censored (Tobit) regression of y = log(hammer / low
 * estimate) − censor on the standardised features, with y* ~ N(x·γ, σ²), observed on a sold lot,
 * below 0 on a bought-in one. Sale probability keep · Φ(x·θ) (θ = γ / σ), keep the share of
 * such lots not withdrawn, then `level` on the logit scale: sigmoid(level + logit(keep · Φ(x·θ))).
 */
export interface ReserveModel {
  /** γ / σ on the standardised features. */
  theta: number[];
  /** σ, the scale of log(hammer / low estimate) about its mean. */
  sigma: number;
  /** Where a reserve sits on log(hammer / low estimate): min(0, the reserved sold rows' 1st percentile). */
  censor: number;
  /** Share of the reserved rows with an estimate that were not withdrawn. */
  keep: number;
  /** The level calibration: Σ sigmoid(level + logit(p)) equals the sold count over the reserved rows. */
  level: number;
}

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** log Φ(a), and φ(a) / Φ(a) (the inverse Mills ratio), accurate far into the lower tail. */
function logCdfAndMills(a: number): { logCdf: number; mills: number } {
  if (a > -30) {
    const cdf = normalCdf(a);
    return { logCdf: Math.log(cdf), mills: Math.exp(-0.5 * a * a - LOG_SQRT_2PI) / cdf };
  }
  // Φ(a) ≈ φ(a) / −a · (1 − 1/a²) below −30
  const b = -a;
  return { logCdf: -0.5 * a * a - LOG_SQRT_2PI - Math.log(b) + Math.log1p(-1 / (a * a)), mills: b / (1 - 1 / (a * a)) };
}

/**
 * Censored regression at 0 (Tobit) by Newton's method in Olsen's parameters θ = γ / σ, τ = 1 / σ,
 * where the log-likelihood is concave: a row with `observed` 1 adds log τ − ½ (τ·y − x·θ)², one with
 * 0 (y* < 0) adds log Φ(−x·θ). A ridge on every coefficient but the first (the intercept); steps
 * halved until the penalised log-likelihood rises.
 */
export function fitTobit(rows: Float64Array[], y: ArrayLike<number>, observed: ArrayLike<number>, ridge = UPCOMING_RIDGE, iterations = 60): { theta: Float64Array; tau: number } {
  const k = rows[0]!.length;
  const n = k + 1;
  let sy = 0;
  let sq = 0;
  let m = 0;
  for (let i = 0; i < rows.length; i++)
    if (observed[i]) {
      sy += y[i]!;
      sq += y[i]! * y[i]!;
      m++;
    }
  const mean = m > 0 ? sy / m : 0;
  let tau = 1 / Math.max(1e-3, Math.sqrt(Math.max(0, sq / Math.max(1, m) - mean * mean)));
  let theta = new Float64Array(k);
  theta[0] = mean * tau;
  const logLik = (th: Float64Array, t: number) => {
    let ll = 0;
    for (let i = 0; i < rows.length; i++) {
      const xb = dot(th, rows[i]!);
      if (observed[i]) ll += Math.log(t) - 0.5 * (t * y[i]! - xb) ** 2;
      else ll += logCdfAndMills(-xb).logCdf;
    }
    for (let j = 1; j < k; j++) ll -= 0.5 * ridge * th[j]! * th[j]!;
    return ll;
  };
  let current = logLik(theta, tau);
  for (let it = 0; it < iterations; it++) {
    const g = new Float64Array(n);
    // minus the Hessian (positive definite)
    const h = new Float64Array(n * n);
    for (let i = 0; i < rows.length; i++) {
      const x = rows[i]!;
      const xb = dot(theta, x);
      if (observed[i]) {
        const yi = y[i]!;
        const r = tau * yi - xb;
        for (let a = 0; a < k; a++) {
          g[a]! += r * x[a]!;
          for (let b = 0; b <= a; b++) h[a * n + b]! += x[a]! * x[b]!;
          h[k * n + a]! -= x[a]! * yi;
        }
        g[k]! += 1 / tau - r * yi;
        h[k * n + k]! += 1 / (tau * tau) + yi * yi;
      } else {
        const a0 = -xb;
        const { mills } = logCdfAndMills(a0);
        const w = mills * (a0 + mills);
        for (let a = 0; a < k; a++) {
          g[a]! -= mills * x[a]!;
          for (let b = 0; b <= a; b++) h[a * n + b]! += w * x[a]! * x[b]!;
        }
      }
    }
    for (let j = 1; j < k; j++) {
      g[j]! -= ridge * theta[j]!;
      h[j * n + j]! += ridge;
    }
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) h[a * n + b] = h[b * n + a]!;
    const step = choleskySolve(h, g, n);
    let size = 1;
    let next = theta;
    let nextTau = tau;
    let value = current;
    for (let halvings = 0; halvings < 40; halvings++, size /= 2) {
      nextTau = tau + size * step[k]!;
      if (!(nextTau > 0)) continue;
      next = theta.map((v, j) => v + size * step[j]!);
      value = logLik(next, nextTau);
      if (value >= current - 1e-12) break;
    }
    let change = Math.abs(nextTau - tau);
    for (let j = 0; j < k; j++) change = Math.max(change, Math.abs(next[j]! - theta[j]!));
    theta = next;
    tau = nextTau;
    current = value;
    if (change < 1e-10) break;
  }
  return { theta, tau };
}

/** The one level on the logit scale that makes Σ sigmoid(level + logit(p)) equal Σ y (Newton's method). */
export function levelCalibration(scores: ArrayLike<number>, y: ArrayLike<number>): number {
  let level = 0;
  let target = 0;
  for (let i = 0; i < y.length; i++) target += y[i]!;
  for (let it = 0; it < 50; it++) {
    let sum = 0;
    let slope = 0;
    for (let i = 0; i < scores.length; i++) {
      const q = sigmoid(level + logit(clampRate(scores[i]!)));
      sum += q;
      slope += q * (1 - q);
    }
    if (slope <= 0) break;
    const step = (target - sum) / slope;
    level += Math.max(-2, Math.min(2, step));
    if (Math.abs(step) < 1e-10) break;
  }
  return level;
}

/** Whether a lot's raw features (lotFeatures) put it in the reserved lots' model: a reserve and an estimate. */
const inReserveModel = (x: ArrayLike<number>) => x[1] === 1 && x[2] === 0;

/** A reserved lot's probability from its index x·θ (ReserveModel). */
export function reservedProbability(r: ReserveModel, index: number): number {
  return sigmoid(r.level + logit(clampRate(r.keep * normalCdf(index))));
}

/**
 * The reserved lots' model from training rows (`z` their standardised features): the Tobit on the
 * reserved rows with an estimate that were not withdrawn, y = log(hammer / low) − censor. Null
 * with fewer than UPCOMING_MIN_ROWS / 2 such rows or 30 of either outcome.
 */
export function fitReserveModel(rows: readonly TrainingRow[], z: Float64Array[]): ReserveModel | null {
  const domain = rows.flatMap((r, i) => (inReserveModel(r.x) && Number.isFinite(r.logLow) ? [i] : []));
  const offered = domain.filter((i) => !rows[i]!.withdrawn);
  const soldIdx = offered.filter((i) => rows[i]!.sold);
  if (offered.length < UPCOMING_MIN_ROWS / 2 || soldIdx.length < 30 || offered.length - soldIdx.length < 30) return null;
  const over = soldIdx.map((i) => rows[i]!.logHammer - rows[i]!.logLow).sort((a, b) => a - b);
  const censor = Math.min(0, percentile(over, 0.01));
  const observed = Uint8Array.from(offered, (i) => rows[i]!.sold);
  const y = Float64Array.from(offered, (i, n) => (observed[n] ? rows[i]!.logHammer - rows[i]!.logLow - censor : 0));
  const { theta, tau } = fitTobit(
    offered.map((i) => z[i]!),
    y,
    observed,
  );
  const keep = offered.length / domain.length;
  const scores = domain.map((i) => keep * normalCdf(dot(theta, z[i]!)));
  const level = levelCalibration(
    scores,
    domain.map((i) => rows[i]!.sold),
  );
  return { theta: [...theta], sigma: 1 / tau, censor, keep, level };
}

/** What the features read of a lot's artist and work before the sale (lotFeatures). */
export interface LotContext {
  /** The work's log value (the median hammer) and its predictive sd, or null without a fit. */
  value: { mu: number; sd: number } | null;
  /** The artist's 12-month log momentum. */
  momentum: number;
  /** Lots of the artist offered in the 12 months before. */
  recentLots: number;
  /** The artist's concluded lots before and the sold ones among them. */
  concluded: number;
  sold: number;
  /** The work's earlier lots: bought in, withdrawn, sold. */
  workPassed: number;
  workWithdrawn: number;
  workSold: number;
  /** Months from the fit's month to the lot's. */
  ahead: number;
  /**
   * The market shift (marketShift): how far the fits' values of the sample's upcoming lots that
   * many months ahead sit above their houses' estimates. Taken off the value.
   */
  shift: number;
}

/** The estimate's offset for a lot without an outcome and the variance of a value read from it alone (no fit). */
export interface EstimateReading {
  offset: number;
  sd: number;
}

/** How an upcoming lot's estimate reads as its value where the artist has no fit: its offset, and the sale noise and the estimate's. */
export function estimateReading(model: ArtistModel, noise: ArtistNoise): EstimateReading {
  return { offset: model.estOffsets.upcoming ?? model.estOffsets.sold ?? 0, sd: Math.sqrt(noise.saleVar + (Number.isFinite(noise.estVar) ? noise.estVar : noise.saleVar)) };
}

/** Log midpoint and log low estimate of a lot (USD), or null. */
function estimateLogs(l: LotRow): { mid: number; low: number; width: number } | null {
  const lo = l.estimate_min_usd;
  const hi = l.estimate_max_usd;
  if (lo === null || hi === null || !(lo > 0) || !(hi > 0)) return null;
  const low = Math.log(lo);
  const high = Math.log(hi);
  return { mid: 0.5 * (low + high), low, width: high - low };
}

/** The features of one lot (UPCOMING_FEATURES, raw) into `out`; returns the hammer's base (log midpoint, else the value; NaN with neither). */
export function lotFeatures(out: Float64Array, l: LotRow, c: LotContext, record: MarketRecord, reading: EstimateReading): number {
  out.fill(0);
  const est = estimateLogs(l);
  const reserve = l.reserve_mark === 0 ? 0 : 1;
  // the market's move since the fit's month, as the houses' estimates read it, off the value
  const v = c.value ? { mu: c.value.mu - c.shift, sd: c.value.sd } : null;
  out[0] = 1;
  out[1] = reserve;
  out[2] = est ? 0 : 1;
  out[3] = v ? 0 : 1;
  let level = Number.NaN;
  if (est) {
    const mu = v ? v.mu : est.mid + reading.offset;
    const sd = v ? v.sd : reading.sd;
    const z = Math.max(-4, Math.min(4, (mu - est.low) / sd));
    out[4] = v ? Math.max(-2, Math.min(2, v.mu - est.mid)) : 0;
    out[5] = z;
    out[6] = reserve * z;
    out[7] = reserve * normalCdf(z);
    // the chance of clearing a reserve at the low estimate, on the logistic's own scale
    out[8] = reserve * logit(clampRate(normalCdf(z)));
    out[10] = est.width - Math.log(1.25 / 0.8);
    level = est.mid;
  } else if (v) level = v.mu;
  // without a fit, the sd of a value read from the estimate alone (a 0 here read as an sd of 1)
  out[9] = Math.log(v ? v.sd : reading.sd);
  out[11] = Math.min(3, c.workPassed);
  out[12] = Math.min(2, c.workWithdrawn);
  out[13] = Math.min(3, c.workSold);
  out[14] = Math.max(-1, Math.min(1, c.momentum));
  out[15] = Math.log1p(c.recentLots);
  out[16] = logit(clampRate((c.sold + ARTIST_PRIOR * record.sellRate) / (c.concluded + ARTIST_PRIOR))) - logit(record.sellRate);
  const house = l.house_id != null ? record.houses[l.house_id] : undefined;
  const location = l.location_id != null ? record.locations[l.location_id] : undefined;
  out[17] = house?.[0] ?? 0;
  out[18] = house?.[1] ?? 0;
  out[19] = location?.[0] ?? 0;
  out[20] = Number.isFinite(level) ? (level - 9) / 3 : 0;
  out[21] = Math.max(0, Math.min(3, c.ahead));
  out[22] = Math.max(-1, Math.min(1, c.shift));
  return level;
}

/** A lot's forecast: probability, and the hammer if sold with its 80 % band (USD; null without a base). */
export interface Forecast {
  probability: number;
  hammer: number | null;
  low: number | null;
  high: number | null;
}

export const dotStd = (coef: ArrayLike<number>, x: Float64Array, mean: ArrayLike<number>, sd: ArrayLike<number>) => {
  let s = coef[0]!;
  for (let j = 1; j < x.length; j++) s += (coef[j]! * (x[j]! - mean[j]!)) / sd[j]!;
  return s;
};

/** The model's forecast from a lot's raw features and base (lotFeatures). */
export function forecast(m: UpcomingModel, x: Float64Array, base: number): Forecast {
  const probability =
    m.reserved && inReserveModel(x) ? reservedProbability(m.reserved, dotStd(m.reserved.theta, x, m.mean, m.sd)) : calibrated(m.platt, sigmoid(dotStd(m.logit, x, m.mean, m.sd)));
  if (!Number.isFinite(base)) return { probability, hammer: null, low: null, high: null };
  const centre = base + dotStd(m.hammer, x, m.mean, m.sd);
  const scale = Math.max(m.minScale, dotStd(m.scale, x, m.mean, m.sd));
  return { probability, hammer: Math.exp(centre + m.q50 * scale), low: Math.exp(centre + m.q10 * scale), high: Math.exp(centre + m.q90 * scale) };
}

/** One artist's lots (in sale order) read as of month `now`: the features' context of each lot from `now` on that is not concluded in `fitted`. */
export function lotContexts(
  deriver: ArtistDeriver,
  fit: ReturnType<ArtistDeriver["fit"]>,
  lots: LotRow[],
  now: number,
  noise: ArtistNoise,
  model: ArtistModel,
): { lot: LotRow; context: LotContext }[] {
  const T = model.months - 1;
  const at = Math.max(0, Math.min(T, now));
  const momentum = fit.hasIndex && at >= 12 ? fit.full[at]! - fit.full[at - 12]! : 0;
  let recentLots = 0;
  let concluded = 0;
  let sold = 0;
  const work = new Map<number, [number, number, number]>();
  const out: { lot: LotRow; context: LotContext }[] = [];
  for (const l of lots) {
    const m = monthIndex(l.sale_datetime);
    if (l.status === "upcoming") {
      const w = work.get(l.artwork_id) ?? [0, 0, 0];
      const value = fit.hasIndex ? { mu: deriver.predictLog(fit, l.artwork_id, at) + model.centre, sd: deriver.predictSd(fit, l.artwork_id, at, noise) * model.bandScale } : null;
      out.push({
        lot: l,
        context: { value, momentum, recentLots, concluded, sold, workPassed: w[0], workWithdrawn: w[1], workSold: w[2], ahead: Math.max(0, m - now), shift: 0 },
      });
      continue;
    }
    if (m >= now - 12) recentLots++;
    const w = work.get(l.artwork_id) ?? [0, 0, 0];
    if (l.status === "passed") w[0]++;
    else if (l.status === "withdrawn") w[1]++;
    else if (l.status === "sold") w[2]++;
    else continue;
    work.set(l.artwork_id, w);
    concluded++;
    if (l.status === "sold") sold++;
  }
  return out;
}

/** A lot read as upcoming: its estimates kept, its outcome hidden. */
const asUpcoming = (l: LotRow): LotRow => ({ ...l, status: "upcoming", hammer_usd: null, premium_usd: null });

/**
 * A training row: raw features, base, outcome (1: sold), whether withdrawn, log hammer (NaN unless
 * sold), log low estimate (NaN without an estimate), the artist (for the folds).
 */
interface TrainingRow {
  x: Float64Array;
  base: number;
  sold: number;
  withdrawn: boolean;
  logHammer: number;
  logLow: number;
  artist: number;
}

/** How many months ahead the market shift tells apart (more read as the last). */
export const SHIFT_MONTHS = 4;

/** A lot's log value against its log estimate midpoint (value − midpoint, within ±1), or null without both. */
export function valueOverMid(l: LotRow, c: LotContext): number | null {
  const est = estimateLogs(l);
  return est && c.value ? Math.max(-1, Math.min(1, c.value.mu - est.mid)) : null;
}

/**
 * The market shift by months ahead (0 to SHIFT_MONTHS − 1): the mean of value − midpoint over
 * upcoming lots that many months ahead, shrunk towards the mean over all of them (SHIFT_PRIOR
 * pseudo-lots), itself shrunk towards 0. A fit reads a work's value as of its last month; the
 * houses estimate each lot as of its sale, so when the market moves in between, every upcoming
 * lot's value sits above (or below) its estimate by about the same amount: the shift, which is
 * taken off the values (lotFeatures). Measured on the calibration sample's lots, as of each cut
 * in training and as of the as-of month for the forecasts.
 */
export function marketShift(lots: readonly { ahead: number; d: number }[]): number[] {
  const sum = new Array<number>(SHIFT_MONTHS).fill(0);
  const n = new Array<number>(SHIFT_MONTHS).fill(0);
  for (const { ahead, d } of lots) {
    const a = Math.max(0, Math.min(SHIFT_MONTHS - 1, ahead));
    sum[a]! += d;
    n[a]!++;
  }
  const all = sum.reduce((a, b) => a + b, 0) / (n.reduce((a, b) => a + b, 0) + SHIFT_PRIOR);
  return sum.map((v, a) => (v + SHIFT_PRIOR * all) / (n[a]! + SHIFT_PRIOR));
}

/** The shift for a lot `ahead` months ahead. */
export const shiftFor = (shift: readonly number[], ahead: number) => shift[Math.max(0, Math.min(shift.length - 1, ahead))] ?? 0;

/** The market shift (marketShift) of contexts' lots, and each context given its shift. */
function applyShift(read: readonly { lot: LotRow; context: LotContext }[]): number[] {
  const pairs: { ahead: number; d: number }[] = [];
  for (const { lot, context } of read) {
    const d = valueOverMid(lot, context);
    if (d !== null) pairs.push({ ahead: context.ahead, d });
  }
  const shift = marketShift(pairs);
  for (const { context } of read) context.shift = shiftFor(shift, context.ahead);
  return shift;
}

/**
 * Fits the model on `sources` (the calibration sample), each refitted as of past cuts, with
 * `history` the house and location record by month. Null with too few rows.
 */
export function trainUpcoming(deriver: ArtistDeriver, sources: ArtistSource[], noise: ArtistNoise, model: ArtistModel, history: OutcomeHistory): UpcomingModel | null {
  const T = model.months - 1;
  const reading = estimateReading(model, noise);
  const rows: TrainingRow[] = [];
  let fits = 0;
  const months = sources.map((s) => s.lots.map((l) => monthIndex(l.sale_datetime)));
  for (let k = 1; k <= UPCOMING_CUTS; k++) {
    const cut = T - k * UPCOMING_WINDOW;
    if (cut < 24) break;
    const record = history.recordBefore(cut);
    // every artist's window read first: the cut's market shift is measured on all of them
    const read: { lot: LotRow; context: LotContext; truth: LotRow; artist: number }[] = [];
    for (let a = 0; a < sources.length; a++) {
      const source = sources[a]!;
      const lm = months[a]!;
      const lots: LotRow[] = [];
      const truth = new Map<number, LotRow>();
      let soldBefore = 0;
      for (let i = 0; i < source.lots.length; i++) {
        const l = source.lots[i]!;
        const m = lm[i]!;
        if (m < cut) {
          lots.push(l);
          if (l.status === "sold") soldBefore++;
        } else if (m < cut + UPCOMING_WINDOW) {
          // every lot of the window reads as upcoming (as the upcoming lots of a market do); the concluded ones are scored
          lots.push(asUpcoming(l));
          if (l.status === "sold" || l.status === "passed" || l.status === "withdrawn") truth.set(l.id, l);
        }
      }
      // an artist short of the sample's sold lots before the cut is in the sample thanks to later
      // sales, its window's among them: its rows would sell more often than such lots do
      if (truth.size === 0 || soldBefore < UPCOMING_MIN_SOLD_BEFORE) continue;
      const fit = deriver.fit({ ...source, lots }, noise);
      fits++;
      // read as of the month before the cut, the last with outcomes (as an upcoming lot's at the
      // as-of month): the market's level there is already known to the derivation
      for (const { lot, context } of lotContexts(deriver, fit, lots, cut - 1, noise, model)) {
        const t = truth.get(lot.id);
        if (t) read.push({ lot, context, truth: t, artist: source.artist.id });
      }
      if (fits >= UPCOMING_MAX_FITS) break;
    }
    applyShift(read);
    for (const { context, truth: t, artist } of read) {
      const x = new Float64Array(UPCOMING_K);
      const base = lotFeatures(x, t, context, record, reading);
      const sold = t.status === "sold" && t.hammer_usd! > 0 ? 1 : 0;
      const logLow = estimateLogs(t)?.low ?? Number.NaN;
      rows.push({ x, base, sold, withdrawn: t.status === "withdrawn", logHammer: sold ? Math.log(t.hammer_usd!) : Number.NaN, logLow, artist });
    }
    if (fits >= UPCOMING_MAX_FITS || rows.length >= UPCOMING_MAX_ROWS) break;
  }
  const fitted = fitUpcoming(rows, history.recordBefore(T + 1));
  if (!fitted) return null;
  // the market shift as of the as-of month, on the sample's upcoming lots
  const read: { lot: LotRow; context: LotContext }[] = [];
  for (const source of sources) {
    if (!source.lots.some((l) => l.status === "upcoming")) continue;
    read.push(...lotContexts(deriver, deriver.fit(source, noise), source.lots, T, noise, model));
  }
  return { ...fitted, shift: applyShift(read) };
}

/** The model from training rows (exported for tests): fitted on every row, calibrated and its band read out of fold (crossFit). */
export function fitUpcoming(rows: TrainingRow[], record: MarketRecord): UpcomingModel | null {
  const soldCount = rows.reduce((s, r) => s + r.sold, 0);
  if (rows.length < UPCOMING_MIN_ROWS || soldCount < 30 || rows.length - soldCount < 30) return null;
  const K = UPCOMING_K;
  // standardise the features over every row (a constant one keeps sd 1)
  const mean = new Array<number>(K).fill(0);
  const sd = new Array<number>(K).fill(1);
  for (let j = 1; j < K; j++) {
    let s = 0;
    let q = 0;
    for (const r of rows) s += r.x[j]!;
    const mu = s / rows.length;
    for (const r of rows) q += (r.x[j]! - mu) ** 2;
    const v = Math.sqrt(q / rows.length);
    mean[j] = mu;
    sd[j] = v > 1e-9 ? v : 1;
  }
  const z = rows.map((r) => {
    const out = new Float64Array(K);
    out[0] = 1;
    for (let j = 1; j < K; j++) out[j] = (r.x[j]! - mean[j]!) / sd[j]!;
    return out;
  });
  const y = Uint8Array.from(rows, (r) => r.sold);
  const folds = Uint8Array.from(rows, (r) => artistFold(r.artist));
  const { beta, platt } = crossFitProbability(z, y, folds);
  // the hammer: log hammer − base on the sold lots with a base, then a scale for |residual|; the
  // band's quantiles from residuals out of fold, as the probability's calibration
  const sold = rows.flatMap((r, i) => (r.sold && Number.isFinite(r.base) ? [i] : []));
  const hammerFit = (train: number[]) => {
    const zs = train.map((i) => z[i]!);
    const hammer = fitLinear(
      zs,
      train.map((i) => rows[i]!.logHammer - rows[i]!.base),
      K,
    );
    const absRes = train.map((i, n) => Math.abs(rows[i]!.logHammer - rows[i]!.base - dot(hammer, zs[n]!)));
    return { hammer, scale: fitLinear(zs, absRes, K), minScale: Math.max(0.01, 0.25 * (median(absRes) ?? 0.1)) };
  };
  const full = hammerFit(sold);
  const ratio = (f: ReturnType<typeof hammerFit>, i: number) => (rows[i]!.logHammer - rows[i]!.base - dot(f.hammer, z[i]!)) / Math.max(f.minScale, dot(f.scale, z[i]!));
  const ratios: number[] = [];
  if (foldsUsable(folds, sold)) {
    for (let f = 0; f < UPCOMING_FOLDS; f++) {
      const inFold = sold.filter((i) => folds[i] === f);
      if (inFold.length === 0) continue;
      const fit = hammerFit(sold.filter((i) => folds[i] !== f));
      for (const i of inFold) ratios.push(ratio(fit, i));
    }
  } else for (const i of sold) ratios.push(ratio(full, i));
  ratios.sort((a, b) => a - b);
  return {
    mean,
    sd,
    logit: [...beta],
    platt,
    reserved: fitReserveModel(rows, z),
    hammer: [...full.hammer],
    scale: [...full.scale],
    minScale: full.minScale,
    q10: ratios.length ? percentile(ratios, 0.1) : -1.2816,
    q50: ratios.length ? percentile(ratios, 0.5) : 0,
    q90: ratios.length ? percentile(ratios, 0.9) : 1.2816,
    record,
    shift: new Array<number>(SHIFT_MONTHS).fill(0),
    rows: rows.length,
    sold: soldCount,
  };
}

const dot = (coef: ArrayLike<number>, z: Float64Array) => {
  let s = 0;
  for (let j = 0; j < z.length; j++) s += coef[j]! * z[j]!;
  return s;
};

/** Folds for the calibration: an artist's rows all in one (a hash of its id), so that a row is scored by a model that never saw its artist. */
export const UPCOMING_FOLDS = 4;
export const artistFold = (id: number) => ((id * 2654435761) % 4294967296) % UPCOMING_FOLDS;

/** Whether every fold of `rows` (indices into `folds`) leaves enough rows out of it to fit on: else no cross-fitting. */
function foldsUsable(folds: Uint8Array, rows: ArrayLike<number>): boolean {
  const n = new Array<number>(UPCOMING_FOLDS).fill(0);
  for (let i = 0; i < rows.length; i++) n[folds[rows[i]!]!]!++;
  const used = n.filter((c) => c > 0).length;
  return used >= 2 && n.every((c) => rows.length - c >= UPCOMING_MIN_ROWS / 2);
}

/**
 * The probability's logistic regression on every row (`z` standardised, `y` outcomes), and its
 * calibration: each fold's rows scored by the regression fitted without that fold (out of fold),
 * then Platt scaling of those scores against the outcomes. Every row serves twice: in the fit, and
 * in a calibration four times the size of a held-out quarter (a quarter's two parameters moved
 * the lowest decile by 2-3 points from one derivation to the next). Without usable folds (too few
 * rows out of one), no calibration (a = 0, b = 1). Exported for tests.
 */
export function crossFitProbability(
  z: Float64Array[],
  y: Uint8Array,
  folds: Uint8Array,
  ridge = UPCOMING_RIDGE,
): { beta: Float64Array; platt: { a: number; b: number }; outOfFold: Float64Array | null } {
  const k = z[0]!.length;
  const beta = fitLogistic(z, y, k, ridge);
  const all = Array.from({ length: z.length }, (_, i) => i);
  if (!foldsUsable(folds, all)) return { beta, platt: { a: 0, b: 1 }, outOfFold: null };
  const outOfFold = new Float64Array(z.length);
  for (let f = 0; f < UPCOMING_FOLDS; f++) {
    const train = all.filter((i) => folds[i] !== f);
    if (train.length === z.length) continue;
    // from the full fit's coefficients: a few Newton steps
    const b = fitLogistic(
      train.map((i) => z[i]!),
      Uint8Array.from(train, (i) => y[i]!),
      k,
      ridge,
      30,
      beta,
    );
    for (let i = 0; i < z.length; i++) if (folds[i] === f) outOfFold[i] = sigmoid(dot(b, z[i]!));
  }
  return { beta, platt: plattScaling(outOfFold, y), outOfFold };
}

export type { TrainingRow };
