/**
 * Weighted least squares by streaming normal equations, solved by Cholesky.
 * Pure, no I/O, imports nothing of the project. Matrices are dense, row-major Float64Arrays.
 * docs/formulas.md, "Least squares".
 */

/** Thrown when a matrix handed to Cholesky is not (numerically) positive definite. */
export class NotPositiveDefiniteError extends Error {
  constructor(
    /** Row/column at which the factorisation broke down. */
    readonly pivot: number,
    /** The value that should have been a positive pivot. */
    readonly value: number,
  ) {
    super(`matrix is not positive definite (pivot ${pivot} = ${value}); ` + "a feature or month is unidentified by the data: add a ridge or a smoothing penalty");
    this.name = "NotPositiveDefiniteError";
  }
}

/** A pivot smaller than this fraction of its original diagonal entry counts as zero. */
const PIVOT_TOL = 1e-13;

/**
 * In-place Cholesky A = L·Lᵀ of a symmetric n×n matrix; only the lower triangle of `A` is read,
 * and L overwrites it (the strict upper triangle is left untouched). Throws NotPositiveDefiniteError.
 * Cost n³/6 multiply-adds (490 → 2·10⁷).
 */
export function choleskyFactor(A: Float64Array, n: number): Float64Array {
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let s = A[rj + j] as number;
    const diag = s;
    for (let k = 0; k < j; k++) {
      const l = A[rj + k] as number;
      s -= l * l;
    }
    if (!(s > PIVOT_TOL * Math.abs(diag)) || !Number.isFinite(s)) throw new NotPositiveDefiniteError(j, s);
    const d = Math.sqrt(s);
    A[rj + j] = d;
    const inv = 1 / d;
    for (let i = j + 1; i < n; i++) {
      const ri = i * n;
      let t = A[ri + j] as number;
      for (let k = 0; k < j; k++) t -= (A[ri + k] as number) * (A[rj + k] as number);
      A[ri + j] = t * inv;
    }
  }
  return A;
}

/** Solves L·Lᵀ·x = b given the factor from choleskyFactor; writes x into `out` (may be `b`). */
export function choleskySolveFactored(L: Float64Array, b: ArrayLike<number>, n: number, out: Float64Array = new Float64Array(n)): Float64Array {
  // forward: L·z = b
  for (let i = 0; i < n; i++) {
    const ri = i * n;
    let s = b[i] as number;
    for (let k = 0; k < i; k++) s -= (L[ri + k] as number) * (out[k] as number);
    out[i] = s / (L[ri + i] as number);
  }
  // backward: Lᵀ·x = z
  for (let i = n - 1; i >= 0; i--) {
    let s = out[i] as number;
    for (let k = i + 1; k < n; k++) s -= (L[k * n + i] as number) * (out[k] as number);
    out[i] = s / (L[i * n + i] as number);
  }
  return out;
}

/**
 * Solves A·x = b for a symmetric positive definite n×n A (row-major; lower triangle read).
 * Neither input is modified. Throws NotPositiveDefiniteError.
 */
export function choleskySolve(A: Float64Array, b: Float64Array, n: number): Float64Array {
  const L = choleskyFactor(A.slice(0, n * n), n);
  return choleskySolveFactored(L, b, n);
}

/**
 * Diagonal of A⁻¹ from its Cholesky factor (A⁻¹ = L⁻ᵀL⁻¹, so (A⁻¹)ᵢᵢ = Σⱼ (L⁻¹)ⱼᵢ²).
 * O(n³/6); used for coefficient standard errors.
 */
export function inverseDiagonal(L: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  const col = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // column i of L⁻¹: solve L·c = eᵢ (c[j] = 0 for j < i)
    col.fill(0);
    col[i] = 1 / (L[i * n + i] as number);
    let acc = (col[i] as number) * (col[i] as number);
    for (let j = i + 1; j < n; j++) {
      const rj = j * n;
      let s = 0;
      for (let k = i; k < j; k++) s -= (L[rj + k] as number) * (col[k] as number);
      const c = s / (L[rj + j] as number);
      col[j] = c;
      acc += c * c;
    }
    out[i] = acc;
  }
  return out;
}

/**
 * Streaming weighted normal equations for k features: accumulates XᵀWX (upper triangle),
 * XᵀWy, Σw·y², Σw and the row count. Memory k² doubles; add() is O(k²), addSparse() O(nnz²).
 */
export class NormalEquations {
  readonly k: number;
  /** XᵀWX, row-major k×k; only the upper triangle (j ≥ i) is accumulated. */
  readonly xtx: Float64Array;
  /** XᵀWy. */
  readonly xty: Float64Array;
  /** Σ w·y². */
  syy = 0;
  /** Σ w. */
  sumWeights = 0;
  /** Rows added. */
  count = 0;
  /** Ridge actually added by the last solve() (larger than asked when the fallback fired). */
  lastRidge = 0;
  private lastBeta: Float64Array | null = null;

  constructor(k: number) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`NormalEquations: k must be a positive integer, got ${k}`);
    this.k = k;
    this.xtx = new Float64Array(k * k);
    this.xty = new Float64Array(k);
  }

  /** Adds one row x (length k) with response y and weight w (w ≤ 0 or non-finite values are ignored). */
  add(x: ArrayLike<number>, y: number, w = 1): void {
    if (!(w > 0) || !Number.isFinite(y)) return;
    const k = this.k;
    const A = this.xtx;
    const b = this.xty;
    for (let i = 0; i < k; i++) {
      const xi = x[i] as number;
      if (xi === 0) continue;
      const wxi = w * xi;
      const ri = i * k;
      for (let j = i; j < k; j++) A[ri + j]! += wxi * (x[j] as number);
      b[i]! += wxi * y;
    }
    this.syy += w * y * y;
    this.sumWeights += w;
    this.count++;
  }

  /** Adds one sparse row: x[indices[t]] = values[t], all other features 0. Indices need not be sorted but must be distinct. */
  addSparse(indices: ArrayLike<number>, values: ArrayLike<number>, y: number, w = 1): void {
    if (!(w > 0) || !Number.isFinite(y)) return;
    const k = this.k;
    const A = this.xtx;
    const b = this.xty;
    const m = indices.length;
    for (let s = 0; s < m; s++) {
      const i = indices[s] as number;
      if (!(i >= 0 && i < k)) throw new RangeError(`NormalEquations.addSparse: index ${i} outside 0..${k - 1}`);
      const wxi = w * (values[s] as number);
      for (let t = 0; t < m; t++) {
        const j = indices[t] as number;
        if (j >= i) A[i * k + j]! += wxi * (values[t] as number);
      }
      b[i]! += wxi * y;
    }
    this.syy += w * y * y;
    this.sumWeights += w;
    this.count++;
  }

  /** Adds another accumulator's sums (same k) into this one. */
  merge(other: NormalEquations): void {
    if (other.k !== this.k) throw new RangeError("NormalEquations.merge: different k");
    for (let i = 0; i < this.xtx.length; i++) this.xtx[i]! += other.xtx[i] as number;
    for (let i = 0; i < this.k; i++) this.xty[i]! += other.xty[i] as number;
    this.syy += other.syy;
    this.sumWeights += other.sumWeights;
    this.count += other.count;
  }

  /** The full symmetric XᵀWX (a fresh array). */
  matrix(): Float64Array {
    const k = this.k;
    const M = new Float64Array(k * k);
    for (let i = 0; i < k; i++) {
      for (let j = i; j < k; j++) {
        const v = this.xtx[i * k + j] as number;
        M[i * k + j] = v;
        M[j * k + i] = v;
      }
    }
    return M;
  }

  /**
   * β = (XᵀWX + ridge·I + penalty)⁻¹ XᵀWy by Cholesky. `penalty` is a symmetric k×k matrix
   * (row-major; its lower triangle is read). When the matrix is not positive definite and
   * `fallback` is true (the default), the solve is retried with a ridge of 10⁻¹⁰, 10⁻⁸, 10⁻⁶
   * times the mean diagonal (≥ 10⁻¹²), which sets unidentified directions to ~0;
   * `lastRidge` reports the ridge used. Throws NotPositiveDefiniteError when that fails too.
   */
  solve(ridge = 0, penalty?: Float64Array, fallback = true): Float64Array {
    const k = this.k;
    const base = this.matrix();
    if (penalty) {
      if (penalty.length < k * k) throw new RangeError("NormalEquations.solve: penalty must be k×k");
      for (let i = 0; i < k * k; i++) base[i]! += penalty[i] as number;
    }
    let trace = 0;
    for (let i = 0; i < k; i++) trace += Math.abs(base[i * k + i] as number);
    const scale = Math.max(trace / k, 1e-12);
    const ridges = fallback ? [ridge, ridge + 1e-10 * scale, ridge + 1e-8 * scale, ridge + 1e-6 * scale] : [ridge];
    let lastErr: unknown;
    for (const r of ridges) {
      const M = base.slice(); // choleskyFactor works in place
      if (r !== 0) for (let i = 0; i < k; i++) M[i * k + i]! += r;
      try {
        const L = choleskyFactor(M, k);
        const beta = choleskySolveFactored(L, this.xty, k);
        this.lastRidge = r;
        this.lastBeta = beta;
        return beta;
      } catch (e) {
        if (!(e instanceof NotPositiveDefiniteError)) throw e;
        lastErr = e;
      }
    }
    throw lastErr;
  }

  /**
   * Weighted residual sum of squares Σw(y − xβ)² = Σwy² − 2βᵀXᵀWy + βᵀXᵀWXβ, exact for any β
   * (not only the OLS one). Subject to cancellation when the fit is near perfect: clamped at 0.
   */
  residualSumOfSquares(beta: ArrayLike<number> | null = this.lastBeta): number {
    if (!beta) throw new Error("NormalEquations.residualSumOfSquares: solve() first or pass beta");
    const k = this.k;
    const A = this.xtx;
    let quad = 0;
    let lin = 0;
    for (let i = 0; i < k; i++) {
      const bi = beta[i] as number;
      lin += bi * (this.xty[i] as number);
      quad += (A[i * k + i] as number) * bi * bi;
      let off = 0;
      for (let j = i + 1; j < k; j++) off += (A[i * k + j] as number) * (beta[j] as number);
      quad += 2 * bi * off;
    }
    return Math.max(0, this.syy - 2 * lin + quad);
  }

  /**
   * Residual variance σ̂² = RSS / (n − k) with n the row count (weights are read as relative
   * precisions, so σ̂² is the variance of a row of weight 1). NaN when n ≤ k.
   */
  residualVariance(beta: ArrayLike<number> | null = this.lastBeta): number {
    const dof = this.count - this.k;
    if (dof <= 0) return NaN;
    return this.residualSumOfSquares(beta) / dof;
  }
}
