/**
 * Descriptive statistics. Pure, no I/O, imports nothing of the project.
 *
 * Conventions (docs/formulas.md, "Descriptive statistics"):
 * - `median` skips NaN and returns null when nothing is left.
 * - `mean`, `variance`, `stddev` do NOT skip NaN (a NaN in gives NaN out) and return NaN when
 *   there are too few values (mean: 0, variance/stddev: fewer than 2).
 * - `percentile` expects an ascending array without NaN and returns NaN when it is empty.
 */

type Numbers = ArrayLike<number>;

/**
 * Median of the finite-or-infinite, non-NaN values; null when there are none.
 * Copies into a scratch Float64Array and sorts it (O(n log n)); the input is not modified.
 */
export function median(values: number[] | Float64Array): number | null {
  const n = values.length;
  if (n === 0) return null;
  const buf = scratch(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (v === v) buf[m++] = v; // skips NaN
  }
  if (m === 0) return null;
  const s = buf.subarray(0, m).sort();
  const h = m >> 1;
  return m % 2 === 1 ? (s[h] as number) : ((s[h - 1] as number) + (s[h] as number)) / 2;
}

/**
 * p-quantile (p in [0, 1], clamped) of an ASCENDING array, by linear interpolation between the
 * closest ranks: h = (n − 1)·p, q = s[⌊h⌋] + (h − ⌊h⌋)·(s[⌊h⌋+1] − s[⌊h⌋]).
 * (This is "type 7", the default of R and NumPy.) NaN for an empty array.
 */
export function percentile(sorted: Numbers, p: number): number {
  const n = sorted.length;
  if (n === 0 || p !== p) return NaN;
  const pc = p < 0 ? 0 : p > 1 ? 1 : p;
  const h = (n - 1) * pc;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  if (lo + 1 >= n) return a;
  const frac = h - lo;
  return frac === 0 ? a : a + frac * ((sorted[lo + 1] as number) - a);
}

/** Arithmetic mean; NaN for an empty input. */
export function mean(values: Numbers): number {
  const n = values.length;
  if (n === 0) return NaN;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i] as number;
  return s / n;
}

/** Sample variance Σ(x − x̄)² / (n − 1), two-pass; NaN for fewer than two values. */
export function variance(values: Numbers): number {
  const n = values.length;
  if (n < 2) return NaN;
  const m = mean(values);
  let ss = 0;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const d = (values[i] as number) - m;
    ss += d * d;
    c += d;
  }
  // corrected two-pass (Chan, Golub & LeVeque): removes the rounding left in the mean
  return (ss - (c * c) / n) / (n - 1);
}

/** Sample standard deviation √variance; NaN for fewer than two values. */
export function stddev(values: Numbers): number {
  return Math.sqrt(variance(values));
}

/** Pearson correlation of two equally long series; NaN when either is constant or n < 2. */
export function correlation(x: Numbers, y: Numbers): number {
  const n = Math.min(x.length, y.length);
  if (n < 2) return NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] as number;
    my += y[i] as number;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  return sxy / Math.sqrt(sxx * syy);
}

// One growable scratch buffer shared by the calls of this module (single-threaded), so that
// median over millions of small groups does not allocate a new array each time.
let scratchBuf = new Float64Array(1024);
function scratch(n: number): Float64Array {
  if (scratchBuf.length < n) scratchBuf = new Float64Array(Math.max(n, scratchBuf.length * 2));
  return scratchBuf;
}
