/**
 * Monthly log price indices: a Case–Shiller style repeat-sales index, and a Kalman filter +
 * Rauch–Tung–Striebel smoother for one artist's residuals. Pure, no I/O, imports only the other
 * analytics modules. Months are integer offsets 0..months−1 (the caller maps 0 to 1986-01).
 * docs/formulas.md, "Repeat-sales index" and "Artist index (local-level smoother)".
 */
import { choleskyFactor, choleskySolveFactored, NotPositiveDefiniteError } from "./linear";

// ───────────────────────────── Repeat-sales index ─────────────────────────────

export interface RepeatSalePairInput {
  from: number;
  to: number;
  logRatio: number;
  weight?: number;
}

/**
 * Streaming normal equations of the repeat-sales regression
 *     logRatio ≈ I[to] − I[from],   I[0] = 0,
 * with a first-difference smoothness penalty λ·Σₜ (I[t+1] − I[t])² added at solve time.
 * Memory: a dense months×months Float64Array (490 months → 1.9 MB); add() is O(1).
 */
export class RepeatSalesAccumulator {
  readonly months: number;
  /** Σ w over pairs, as the graph Laplacian of the pairs (dense, row-major months×months). */
  readonly gram: Float64Array;
  /** Right-hand side: +w·r at `to`, −w·r at `from`. */
  readonly rhs: Float64Array;
  /** Σ w·r² (for the residual variance). */
  sumWR2 = 0;
  sumWeights = 0;
  /** Pairs accepted. */
  count = 0;
  /** Pairs ignored: non-finite logRatio, weight ≤ 0, or from = to. */
  skipped = 0;

  constructor(months: number) {
    if (!Number.isInteger(months) || months < 2) throw new RangeError(`RepeatSalesAccumulator: months must be an integer ≥ 2, got ${months}`);
    this.months = months;
    this.gram = new Float64Array(months * months);
    this.rhs = new Float64Array(months);
  }

  /** Adds one pair: bought in month `from`, sold in month `to`, log(sell/buy) = logRatio, weight w. */
  add(from: number, to: number, logRatio: number, w = 1): void {
    const m = this.months;
    if (!(from >= 0 && from < m && to >= 0 && to < m) || (from | 0) !== from || (to | 0) !== to) {
      throw new RangeError(`RepeatSalesAccumulator.add: months must be integers in 0..${m - 1}, got ${from} → ${to}`);
    }
    if (from === to || !(w > 0) || !Number.isFinite(logRatio) || !Number.isFinite(w)) {
      this.skipped++;
      return;
    }
    const G = this.gram;
    G[from * m + from]! += w;
    G[to * m + to]! += w;
    G[from * m + to]! -= w;
    G[to * m + from]! -= w;
    const wr = w * logRatio;
    this.rhs[to]! += wr;
    this.rhs[from]! -= wr;
    this.sumWR2 += wr * logRatio;
    this.sumWeights += w;
    this.count++;
  }

  /**
   * Takes back one pair that add() accepted (the same arguments): the sums are as if it had never
   * been added (a merge takes back the pairs of the works it changes, src/pipeline/derive/touched.ts).
   */
  remove(from: number, to: number, logRatio: number, w = 1): void {
    const m = this.months;
    if (!(from >= 0 && from < m && to >= 0 && to < m) || (from | 0) !== from || (to | 0) !== to) {
      throw new RangeError(`RepeatSalesAccumulator.remove: months must be integers in 0..${m - 1}, got ${from} → ${to}`);
    }
    if (from === to || !(w > 0) || !Number.isFinite(logRatio) || !Number.isFinite(w)) {
      this.skipped--;
      return;
    }
    const G = this.gram;
    G[from * m + from]! -= w;
    G[to * m + to]! -= w;
    G[from * m + to]! += w;
    G[to * m + from]! += w;
    const wr = w * logRatio;
    this.rhs[to]! -= wr;
    this.rhs[from]! += wr;
    this.sumWR2 -= wr * logRatio;
    this.sumWeights -= w;
    this.count--;
  }

  /**
   * A copy over `months` (at least this one's): the same pairs, the months after this one's last
   * without any (the market's as-of date moved into a new month).
   */
  grown(months: number): RepeatSalesAccumulator {
    if (months < this.months) throw new RangeError(`RepeatSalesAccumulator.grown: ${months} months is fewer than ${this.months}`);
    const out = new RepeatSalesAccumulator(months);
    for (let i = 0; i < this.months; i++) out.gram.set(this.gram.subarray(i * this.months, (i + 1) * this.months), i * months);
    out.rhs.set(this.rhs);
    out.sumWR2 = this.sumWR2;
    out.sumWeights = this.sumWeights;
    out.count = this.count;
    out.skipped = this.skipped;
    return out;
  }

  /** Adds many pairs from columns (the first `n` entries; weights default to 1). */
  addColumns(from: ArrayLike<number>, to: ArrayLike<number>, logRatio: ArrayLike<number>, weight?: ArrayLike<number>, n = from.length): void {
    for (let i = 0; i < n; i++) this.add(from[i] as number, to[i] as number, logRatio[i] as number, weight ? (weight[i] as number) : 1);
  }

  /**
   * The index I[0..months−1] (log, I[0] = 0) minimising
   *     Σ w·(logRatio − I[to] + I[from])² + smoothing·Σₜ (I[t+1] − I[t])².
   * Months without pairs are filled by the penalty: linear interpolation between identified
   * months, flat beyond the last (and before the first) one. smoothing must be > 0 unless the
   * pairs alone identify every month; otherwise NotPositiveDefiniteError.
   * `rhs` (default: the pairs' own) replaces the right-hand side: the same pairs with their log
   * ratios shifted, e.g. `rhs` + c·(the pairs' +w at `to`, −w at `from`) adds c to each of them.
   */
  solve(smoothing: number, rhs: Float64Array = this.rhs): Float64Array {
    if (rhs.length !== this.months) throw new RangeError(`repeat-sales rhs must have ${this.months} entries, got ${rhs.length}`);
    if (!(smoothing >= 0) || !Number.isFinite(smoothing)) throw new RangeError(`repeat-sales smoothing must be a finite number ≥ 0, got ${smoothing}`);
    const m = this.months;
    const n = m - 1; // unknowns I[1..m−1]
    const M = new Float64Array(n * n);
    const G = this.gram;
    for (let i = 0; i < n; i++) {
      const src = (i + 1) * m + 1;
      // the lower triangle (and diagonal) is all Cholesky reads
      for (let j = 0; j <= i; j++) M[i * n + j] = G[src + j] as number;
    }
    if (smoothing > 0) {
      // λ·D₁ᵀD₁ over t = 0..m−2, restricted to the unknowns 1..m−1 (I[0] = 0 drops out)
      for (let t = 0; t < m - 1; t++) {
        // difference (t, t+1) → unknown indices t−1 and t
        const a = t - 1;
        const b = t;
        if (a >= 0) M[a * n + a]! += smoothing;
        M[b * n + b]! += smoothing;
        if (a >= 0) M[b * n + a]! -= smoothing;
      }
    }
    const b = rhs.subarray(1);
    let L: Float64Array;
    try {
      L = choleskyFactor(M, n);
    } catch (e) {
      if (e instanceof NotPositiveDefiniteError) {
        throw new NotPositiveDefiniteError(e.pivot + 1, e.value); // report the month, not the unknown
      }
      throw e;
    }
    const x = choleskySolveFactored(L, b, n);
    const out = new Float64Array(m);
    out.set(x, 1);
    return out;
  }

  /** Weighted residual variance Σw·(r − I[to] + I[from])² / (pairs − (months − 1)), NaN when not positive. */
  residualVariance(index: ArrayLike<number>): number {
    const m = this.months;
    const G = this.gram;
    let quad = 0;
    let lin = 0;
    for (let i = 0; i < m; i++) {
      const xi = index[i] as number;
      if (xi === 0) continue;
      lin += xi * (this.rhs[i] as number);
      let s = 0;
      const ri = i * m;
      for (let j = 0; j < m; j++) s += (G[ri + j] as number) * (index[j] as number);
      quad += xi * s;
    }
    const dof = this.count - (m - 1);
    if (dof <= 0) return NaN;
    return Math.max(0, this.sumWR2 - 2 * lin + quad) / dof;
  }
}

/** One-shot form of RepeatSalesAccumulator: see its solve() for the objective. */
export function repeatSalesIndex(pairs: Iterable<RepeatSalePairInput>, months: number, smoothing: number): Float64Array {
  const acc = new RepeatSalesAccumulator(months);
  for (const p of pairs) acc.add(p.from, p.to, p.logRatio, p.weight ?? 1);
  return acc.solve(smoothing);
}

// ───────────────────── Local-level Kalman filter + RTS smoother ─────────────────────

/** Observations as a list of objects. */
export type ObsList = readonly { month: number; y: number; w?: number }[];
/** Observations as columns; only the first `length` rows are read (default month.length). */
export interface ObsColumns {
  month: ArrayLike<number>;
  y: ArrayLike<number>;
  w?: ArrayLike<number>;
  length?: number;
}
/** Observations already grouped by month: sumW[t] = Σw, sumWY[t] = Σw·y (length ≥ months). */
export interface ObsByMonth {
  sumW: ArrayLike<number>;
  sumWY: ArrayLike<number>;
}
export type Observations = ObsList | ObsColumns | ObsByMonth;

export interface SmoothOptions {
  /** q: variance of the monthly random-walk step of the level (log units²). */
  processVar: number;
  /** r: variance of one observation of weight 1 around the level (log units²); 0 = exact. */
  obsVar: number;
  /** P₀: prior variance of the level at month 0; Infinity = diffuse. */
  initVar: number;
  /** Prior mean of the level at month 0 (default 0). */
  initMean?: number;
  /** d: constant monthly drift of the level (default 0). */
  drift?: number;
}

export interface SmoothResult {
  /** Posterior mean of the level per month (log units). */
  level: Float64Array;
  /** Posterior standard deviation of the level per month. */
  stderr: Float64Array;
}

/**
 * Reusable buffers for smoothIndex, so that smoothing 350k artists does not allocate 350k × 6
 * arrays. With a workspace the returned level/stderr are views INTO the workspace, overwritten
 * by the next call: copy them (or write them out) before calling again.
 */
export class SmoothWorkspace {
  months = 0;
  sumW = new Float64Array(0);
  sumWY = new Float64Array(0);
  mf = new Float64Array(0); // filtered mean
  pf = new Float64Array(0); // filtered variance
  level = new Float64Array(0);
  stderr = new Float64Array(0);

  ensure(months: number): void {
    if (this.sumW.length >= months) {
      this.months = months;
      return;
    }
    this.months = months;
    this.sumW = new Float64Array(months);
    this.sumWY = new Float64Array(months);
    this.mf = new Float64Array(months);
    this.pf = new Float64Array(months);
    this.level = new Float64Array(months);
    this.stderr = new Float64Array(months);
  }
}

function isByMonth(obs: Observations): obs is ObsByMonth {
  return !Array.isArray(obs) && (obs as ObsByMonth).sumW !== undefined;
}

/**
 * Groups observations by month into sumW[t] = Σw and sumWY[t] = Σw·y (arrays of length ≥ months,
 * zeroed here). Rows with a non-finite y, or a weight that is not > 0 and finite, are skipped;
 * a month outside 0..months−1 or not an integer is a RangeError. Returns the rows kept.
 */
export function groupByMonth(obs: ObsList | ObsColumns, months: number, sumW: Float64Array, sumWY: Float64Array): number {
  sumW.fill(0, 0, months);
  sumWY.fill(0, 0, months);
  let kept = 0;
  if (Array.isArray(obs)) {
    const list = obs as ObsList;
    for (let i = 0; i < list.length; i++) {
      const o = list[i]!;
      kept += put(o.month, o.y, o.w ?? 1);
    }
  } else {
    const c = obs as ObsColumns;
    const n = c.length ?? c.month.length;
    const w = c.w;
    for (let i = 0; i < n; i++) kept += put(c.month[i] as number, c.y[i] as number, w ? (w[i] as number) : 1);
  }
  return kept;

  function put(t: number, y: number, w: number): number {
    if (!(t >= 0 && t < months) || (t | 0) !== t) throw new RangeError(`observation month ${t} outside 0..${months - 1}`);
    if (!(w > 0) || w === Infinity || !Number.isFinite(y)) return 0;
    sumW[t]! += w;
    sumWY[t]! += w * y;
    return 1;
  }
}

/**
 * The Kalman update of a month: the prediction (mp, Pp) and the month's Σw and Σw·y observed with
 * variance r / Σw; no observation (Σw = 0) leaves the prediction. Into `filtered`.
 */
function observe(filtered: { m: number; P: number }, mp: number, Pp: number, W: number, WY: number, r: number): void {
  if (W > 0) {
    const ybar = WY / W;
    const R = r / W;
    if (R === 0 || Pp === Infinity) {
      filtered.m = ybar;
      filtered.P = R;
    } else {
      const K = Pp / (Pp + R);
      filtered.m = mp + K * (ybar - mp);
      filtered.P = K * R; // = Pp·R / (Pp + R)
    }
  } else {
    filtered.m = mp;
    filtered.P = Pp;
  }
}

/**
 * Local-level model with drift, months t = 0..T−1:
 *     x₀ ~ N(initMean, initVar),   x_t = x_{t−1} + d + η_t,  η_t ~ N(0, q)
 *     y_{t,j} = x_t + ε_{t,j},     ε_{t,j} ~ N(0, r / w_{t,j})
 * The observations of a month are combined into their precision-weighted mean
 * ȳ_t = Σw·y / Σw with variance r / Σw (exactly equivalent for this model). Kalman filter forward,
 * Rauch–Tung–Striebel smoother backward; months without observations are pure prediction.
 * Returns the smoothed mean of x_t and its posterior standard deviation.
 */
export function smoothIndex(obs: Observations, months: number, opts: SmoothOptions, ws?: SmoothWorkspace): SmoothResult {
  if (!Number.isInteger(months) || months < 1) throw new RangeError(`smoothIndex: months must be a positive integer, got ${months}`);
  const q = opts.processVar;
  const r = opts.obsVar;
  const p0 = opts.initVar;
  const d = opts.drift ?? 0;
  const m0 = opts.initMean ?? 0;
  if (!(q >= 0) || !Number.isFinite(q)) throw new RangeError(`smoothIndex: processVar must be finite and ≥ 0, got ${q}`);
  if (!(r >= 0) || !Number.isFinite(r)) throw new RangeError(`smoothIndex: obsVar must be finite and ≥ 0, got ${r}`);
  if (!(p0 >= 0)) throw new RangeError(`smoothIndex: initVar must be ≥ 0 (Infinity = diffuse), got ${p0}`);
  if (!Number.isFinite(d) || !Number.isFinite(m0)) throw new RangeError("smoothIndex: drift and initMean must be finite");

  const w = ws ?? new SmoothWorkspace();
  w.ensure(months);
  let sumW: ArrayLike<number>;
  let sumWY: ArrayLike<number>;
  if (isByMonth(obs)) {
    if (obs.sumW.length < months || obs.sumWY.length < months) throw new RangeError("smoothIndex: sumW/sumWY shorter than months");
    sumW = obs.sumW;
    sumWY = obs.sumWY;
  } else {
    groupByMonth(obs, months, w.sumW, w.sumWY);
    sumW = w.sumW;
    sumWY = w.sumWY;
  }
  const mf = w.mf;
  const pf = w.pf;
  const level = ws ? w.level.subarray(0, months) : new Float64Array(months);
  const stderr = ws ? w.stderr.subarray(0, months) : new Float64Array(months);

  // forward: Kalman filter
  const filtered = { m: 0, P: 0 };
  let m = 0;
  let P = 0;
  for (let t = 0; t < months; t++) {
    let mp: number;
    let Pp: number;
    if (t === 0) {
      mp = m0;
      Pp = p0;
    } else {
      mp = m + d;
      Pp = P + q;
    }
    observe(filtered, mp, Pp, sumW[t] as number, sumWY[t] as number, r);
    m = filtered.m;
    P = filtered.P;
    mf[t] = m;
    pf[t] = P;
  }

  // backward: RTS smoother, in the cancellation-free form
  //   C_t = P_f[t] / (P_f[t] + q),  m_s[t] = m_f[t] + C_t (m_s[t+1] − m_f[t] − d),
  //   P_s[t] = C_t·q + C_t²·P_s[t+1]
  let ms = mf[months - 1] as number;
  let Ps = pf[months - 1] as number;
  level[months - 1] = ms;
  stderr[months - 1] = Math.sqrt(Ps);
  for (let t = months - 2; t >= 0; t--) {
    const Pft = pf[t] as number;
    const mft = mf[t] as number;
    let C: number;
    if (Pft === Infinity) C = 1;
    else {
      const Ppn = Pft + q;
      C = Ppn > 0 ? Pft / Ppn : 0;
    }
    ms = mft + C * (ms - mft - d);
    Ps = Pft === Infinity ? q + Ps : C * q + C * C * Ps;
    level[t] = ms;
    stderr[t] = Math.sqrt(Ps);
  }
  return { level, stderr };
}

/** The months that hold observations (ascending, distinct) and each observation's place among them. */
export interface ObservedMonths {
  /** at[k]: the k-th observed month; `count` of them. */
  at: Int32Array;
  count: number;
  /** place[i]: the index k of observation i's month. */
  place: Int32Array;
}

/** The observed months of `n` observations in `month` (each in 0..months−1). */
export function observedMonths(month: ArrayLike<number>, n: number, months: number): ObservedMonths {
  const slot = new Int32Array(months).fill(-1);
  for (let i = 0; i < n; i++) {
    const t = month[i] as number;
    if (!(t >= 0 && t < months) || (t | 0) !== t) throw new RangeError(`observation month ${t} outside 0..${months - 1}`);
    slot[t] = 0;
  }
  const at: number[] = [];
  for (let t = 0; t < months; t++) if (slot[t] === 0) slot[t] = at.push(t) - 1;
  const place = new Int32Array(n);
  for (let i = 0; i < n; i++) place[i] = slot[month[i] as number]!;
  return { at: Int32Array.from(at), count: at.length, place };
}

/**
 * smoothIndex's level at the observed months only (`om` from observedMonths of the same
 * observations), in O(observations) rather than O(months): between two observed months g apart
 * nothing is observed, so the filter's g steps are one of drift g·d and variance g·q, and the
 * smoother's g steps back compose into one of gain P/(P + g·q) (the steps' gains telescope). The
 * same level as smoothIndex's at those months in exact arithmetic; in floating point it differs
 * in the last bits (g additions of q against one product). Rows are kept and skipped as by
 * groupByMonth. With a workspace, the result is a view into it (as smoothIndex's).
 */
export function smoothAtObserved(obs: ObsColumns, om: ObservedMonths, opts: SmoothOptions, ws?: SmoothWorkspace): Float64Array {
  const q = opts.processVar;
  const r = opts.obsVar;
  const d = opts.drift ?? 0;
  const K = om.count;
  const w = ws ?? new SmoothWorkspace();
  w.ensure(K);
  const W = w.sumW;
  const WY = w.sumWY;
  W.fill(0, 0, K);
  WY.fill(0, 0, K);
  const n = obs.length ?? obs.month.length;
  for (let i = 0; i < n; i++) {
    const y = obs.y[i] as number;
    const wi = obs.w ? (obs.w[i] as number) : 1;
    if (!(wi > 0) || wi === Infinity || !Number.isFinite(y)) continue;
    const k = om.place[i]!;
    W[k]! += wi;
    WY[k]! += wi * y;
  }
  const mf = w.mf;
  const pf = w.pf;
  const level = ws ? w.level.subarray(0, K) : new Float64Array(K);
  // forward, observed month to observed month (from month 0: the prior at 0, then t₀ steps)
  const filtered = { m: 0, P: 0 };
  let m = opts.initMean ?? 0;
  let P = opts.initVar;
  let last = 0;
  for (let k = 0; k < K; k++) {
    const g = om.at[k]! - last;
    last = om.at[k]!;
    const mp = m + g * d;
    const Pp = P + g * q;
    observe(filtered, mp, Pp, W[k]!, WY[k]!, r);
    m = filtered.m;
    P = filtered.P;
    mf[k] = m;
    pf[k] = P;
  }
  // backward: the last observed month keeps its filtered mean (the months after it are prediction)
  if (K === 0) return level;
  let ms = mf[K - 1]!;
  level[K - 1] = ms;
  for (let k = K - 2; k >= 0; k--) {
    const g = om.at[k + 1]! - om.at[k]!;
    const Pft = pf[k]!;
    const mft = mf[k]!;
    let C: number;
    if (Pft === Infinity) C = 1;
    else {
      const Ppn = Pft + g * q;
      C = Ppn > 0 ? Pft / Ppn : 0;
    }
    ms = mft + C * (ms - mft - g * d);
    level[k] = ms;
  }
  return level;
}

// ───────────────────────── Noise variances (method of moments) ─────────────────────────

export interface NoiseEstimate {
  /** q̂: monthly random-walk step variance (≥ minProcessVar). */
  processVar: number;
  /** r̂: variance of one weight-1 observation; NaN when no month has two observations and no fallback was given. */
  obsVar: number;
  /** Σ(n_t − 1) over months: degrees of freedom behind r̂. */
  obsVarDof: number;
  /** Consecutive observed-month differences behind q̂. */
  processVarTerms: number;
}

/**
 * Additive moments for estimateNoiseVariances, so that series (artists) can be pooled:
 * add() each series, then estimate(). See docs/formulas.md, "Noise variances".
 */
export class NoiseMomentAccumulator {
  /** Σ_t Σ_j w_j (y_j − ȳ_t)². */
  withinSS = 0;
  /** Σ_t (n_t − 1). */
  withinDof = 0;
  /** Σ over consecutive observed months a < b of (ȳ_b − ȳ_a − d·(b − a))². */
  diffSS = 0;
  /** Σ (b − a). */
  gapMonths = 0;
  /** Σ (1/W_a + 1/W_b): the observation-noise share of diffSS is r times this. */
  invWeightSum = 0;
  /** Number of differences. */
  terms = 0;
  private ws = new SmoothWorkspace();
  private cnt = new Float64Array(0);

  /** Adds one series (ObsList or ObsColumns; the within-month part needs the raw rows). */
  add(obs: ObsList | ObsColumns, months: number, drift = 0): void {
    this.ws.ensure(months);
    if (this.cnt.length < months) this.cnt = new Float64Array(months);
    const sumW = this.ws.sumW;
    const sumWY = this.ws.sumWY;
    const cnt = this.cnt;
    groupByMonth(obs, months, sumW, sumWY);
    cnt.fill(0, 0, months);
    // second pass over rows: within-month squared deviations
    const visit = (t: number, y: number, wt: number) => {
      if (!(wt > 0) || wt === Infinity || !Number.isFinite(y)) return;
      const dev = y - (sumWY[t] as number) / (sumW[t] as number);
      this.withinSS += wt * dev * dev;
      cnt[t]!++;
    };
    if (Array.isArray(obs)) for (const o of obs as ObsList) visit(o.month, o.y, o.w ?? 1);
    else {
      const c = obs as ObsColumns;
      const n = c.length ?? c.month.length;
      for (let i = 0; i < n; i++) visit(c.month[i] as number, c.y[i] as number, c.w ? (c.w[i] as number) : 1);
    }
    let prev = -1;
    let prevMean = 0;
    for (let t = 0; t < months; t++) {
      const W = sumW[t] as number;
      if (!(W > 0)) continue;
      this.withinDof += (cnt[t] as number) - 1;
      const mean = (sumWY[t] as number) / W;
      if (prev >= 0) {
        const gap = t - prev;
        const dlt = mean - prevMean - drift * gap;
        this.diffSS += dlt * dlt;
        this.gapMonths += gap;
        this.invWeightSum += 1 / (sumW[prev] as number) + 1 / W;
        this.terms++;
      }
      prev = t;
      prevMean = mean;
    }
  }

  /**
   * r̂ = withinSS / withinDof (pooled within-month variance);
   * q̂ = max(minProcessVar, (diffSS − r̂·invWeightSum) / gapMonths).
   * Without replicated months r̂ = obsVarFallback (NaN when not given; q̂ then takes r = 0, an upper bound).
   */
  estimate(opts: { minProcessVar?: number; obsVarFallback?: number } = {}): NoiseEstimate {
    const minQ = opts.minProcessVar ?? 1e-6;
    const r = this.withinDof > 0 ? this.withinSS / this.withinDof : (opts.obsVarFallback ?? NaN);
    const rForQ = Number.isFinite(r) ? r : 0;
    const q = this.gapMonths > 0 ? Math.max(minQ, (this.diffSS - rForQ * this.invWeightSum) / this.gapMonths) : minQ;
    return { processVar: q, obsVar: r, obsVarDof: this.withinDof, processVarTerms: this.terms };
  }
}

/**
 * Gaussian log-likelihood of the monthly precision-weighted means under the local-level model,
 * by the prediction-error decomposition of the Kalman filter:
 *     ℓ = −½ Σ_t [ln(2π·S_t) + v_t² / S_t],  v_t = ȳ_t − m_{t|t−1},  S_t = P_{t|t−1} + r / W_t,
 * over observed months; with a diffuse prior (initVar = Infinity) the first observed month only
 * initialises the filter and adds no term. Given r, the within-month scatter does not depend on q,
 * so maximising ℓ over q is the exact maximum-likelihood estimate of q.
 */
export function localLevelLogLikelihood(byMonth: ObsByMonth, months: number, opts: SmoothOptions): number {
  const q = opts.processVar;
  const r = opts.obsVar;
  const d = opts.drift ?? 0;
  const { sumW, sumWY } = byMonth;
  let m = opts.initMean ?? 0;
  let P = opts.initVar;
  let ll = 0;
  for (let t = 0; t < months; t++) {
    if (t > 0) {
      m += d;
      P += q;
    }
    const W = sumW[t] as number;
    if (!(W > 0)) continue;
    const ybar = (sumWY[t] as number) / W;
    const R = r / W;
    if (P === Infinity) {
      m = ybar;
      P = R;
      continue;
    }
    const S = P + R;
    const v = ybar - m;
    if (S > 0) ll -= 0.5 * (Math.log(2 * Math.PI * S) + (v * v) / S);
    const K = R === 0 ? 1 : P / S;
    m += K * v;
    P = R === 0 ? 0 : K * R;
  }
  return ll;
}

export interface NoiseEstimateOptions {
  drift?: number;
  /** "mle" (default): r̂ by moments, q̂ by maximum likelihood given r̂. "moments": both by moments. */
  method?: "mle" | "moments";
  /** Lower bound of q̂ (default 1e-6) … */
  minProcessVar?: number;
  /** … and upper bound of q̂ (default 1). */
  maxProcessVar?: number;
  /** r to use when no month has two observations (otherwise r̂ is NaN; with "mle" it is then estimated jointly). */
  obsVarFallback?: number;
}

/**
 * q̂ and r̂ for one series. r̂: pooled within-month variance (see NoiseMomentAccumulator).
 * q̂: with method "mle", the maximiser of localLevelLogLikelihood over ln q in
 * [ln minProcessVar, ln maxProcessVar] by golden-section search (32 steps); when r̂ is unavailable
 * (no replicated month, no fallback) r is maximised jointly by an outer golden-section search over
 * ln r in [ln 10⁻⁶, ln 10]. With method "moments", q̂ is the moment estimator (noisy for short series).
 */
export function estimateNoiseVariances(obs: ObsList | ObsColumns, months: number, opts: NoiseEstimateOptions = {}): NoiseEstimate {
  const drift = opts.drift ?? 0;
  const minQ = opts.minProcessVar ?? 1e-6;
  const maxQ = opts.maxProcessVar ?? 1;
  const acc = new NoiseMomentAccumulator();
  acc.add(obs, months, drift);
  const mom = acc.estimate({ minProcessVar: minQ, obsVarFallback: opts.obsVarFallback });
  if ((opts.method ?? "mle") === "moments") return { ...mom, processVar: Math.min(maxQ, mom.processVar) };
  if (mom.processVarTerms === 0) return { ...mom, processVar: minQ };
  const sumW = new Float64Array(months);
  const sumWY = new Float64Array(months);
  groupByMonth(obs, months, sumW, sumWY);
  const byMonth = { sumW, sumWY };
  const o: SmoothOptions = { initVar: Infinity, drift, obsVar: 0, processVar: 0 };
  const bestQ = (r: number): [number, number] => {
    const f = (lq: number) => {
      o.obsVar = r;
      o.processVar = Math.exp(lq);
      return localLevelLogLikelihood(byMonth, months, o);
    };
    const lq = goldenMax(f, Math.log(minQ), Math.log(maxQ), GOLDEN_STEPS);
    return [Math.exp(lq), f(lq)];
  };
  if (Number.isFinite(mom.obsVar)) {
    return { ...mom, processVar: bestQ(mom.obsVar)[0] };
  }
  const lr = goldenMax((x) => bestQ(Math.exp(x))[1], Math.log(1e-6), Math.log(10), GOLDEN_STEPS);
  const r = Math.exp(lr);
  return { ...mom, obsVar: r, processVar: bestQ(r)[0] };
}

/** Golden-section steps: the bracket shrinks by 0.618³² ≈ 2·10⁻⁷ (ln q to ~4·10⁻⁶ over [10⁻⁶, 1]). */
const GOLDEN_STEPS = 32;

/** Golden-section search for the maximiser of f on [a, b] (assumed unimodal); converges to an end when f is monotone. */
function goldenMax(f: (x: number) => number, a: number, b: number, steps: number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let x1 = b - g * (b - a);
  let x2 = a + g * (b - a);
  let f1 = f(x1);
  let f2 = f(x2);
  for (let i = 0; i < steps; i++) {
    if (f1 < f2) {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + g * (b - a);
      f2 = f(x2);
    } else {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - g * (b - a);
      f1 = f(x1);
    }
  }
  return (a + b) / 2;
}

// ───────────────────────────── Bands and forecasts ─────────────────────────────

/** z of the central 80 % band of a normal: Φ⁻¹(0.9). */
export const Z80 = 1.2815515655446004;

/**
 * Central prediction band of a price whose log is N(logMean, levelStderr² + obsVar): a new
 * lot's log price is the (uncertain) level plus its own observation noise. Returned in PRICE
 * space: low = exp(μ − z·σ), mid = exp(μ) (the median, not the mean), high = exp(μ + z·σ).
 */
export function predictionBand(logMean: number, levelStderr: number, obsVar: number, z = Z80): { low: number; mid: number; high: number } {
  const s = Math.sqrt(levelStderr * levelStderr + obsVar);
  return { low: Math.exp(logMean - z * s), mid: Math.exp(logMean), high: Math.exp(logMean + z * s) };
}

/** h-month-ahead forecast of the level: mean L + d·h, stderr √(se² + q·h). */
export function forecastLevel(level: number, stderr: number, h: number, processVar: number, drift = 0): { mean: number; stderr: number } {
  return { mean: level + drift * h, stderr: Math.sqrt(stderr * stderr + processVar * h) };
}
