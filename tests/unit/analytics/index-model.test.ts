/** Repeat-sales index and the local-level smoother: hand-worked cases plus one simulated artist. */
import { describe, expect, test } from "bun:test";
import {
  estimateNoiseVariances,
  forecastLevel,
  localLevelLogLikelihood,
  NoiseMomentAccumulator,
  observedMonths,
  predictionBand,
  RepeatSalesAccumulator,
  repeatSalesIndex,
  smoothAtObserved,
  smoothIndex,
  SmoothWorkspace,
  Z80,
} from "../../../src/analytics/index-model";
import { choleskyFactor, choleskySolveFactored, inverseDiagonal, NotPositiveDefiniteError } from "../../../src/analytics/linear";
import { correlation } from "../../../src/analytics/stats";
import { mulberry32 } from "../../../src/market/random";

const close = (got: ArrayLike<number>, want: number[], digits: number) => {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) expect(got[i]).toBeCloseTo(want[i]!, digits);
};

describe("repeatSalesIndex", () => {
  test("recovers a step series from noiseless pairs (smoothing 0, every month identified)", () => {
    const truth = [0, 0, 0.1, 0.1, 0.3, 0.3];
    const pairs = [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
      [0, 5],
      [1, 4],
      [2, 5],
    ].map(([from, to]) => ({ from: from!, to: to!, logRatio: truth[to!]! - truth[from!]! }));
    close(repeatSalesIndex(pairs, 6, 0), truth, 12);
    // a little smoothing barely moves it
    close(repeatSalesIndex(pairs, 6, 1e-6), truth, 5);
  });
  test("months without pairs: linear between identified months, flat after the last one", () => {
    // pairs pin I2 − I0 = 0.2 and I6 − I2 = 0.4; the first-difference penalty (tiny) fills the rest:
    // I1 = 0.1; I3..I5 = 0.3 0.4 0.5; I7 = I8 = 0.6
    const I = repeatSalesIndex(
      [
        { from: 0, to: 2, logRatio: 0.2 },
        { from: 2, to: 6, logRatio: 0.4 },
      ],
      9,
      1e-7,
    );
    close(I, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.6, 0.6], 5);
  });
  test("the penalty trades off against the data", () => {
    // one pair 0→1 with log ratio 1, λ = 1: minimise (1 − I1)² + I1² → I1 = 0.5
    expect(repeatSalesIndex([{ from: 0, to: 1, logRatio: 1 }], 2, 1)[1]).toBeCloseTo(0.5, 12);
    // weight 3: 3(1 − I1)² + I1² → I1 = 3/4
    expect(repeatSalesIndex([{ from: 0, to: 1, logRatio: 1, weight: 3 }], 2, 1)[1]).toBeCloseTo(0.75, 12);
    // a reversed pair (sold before bought) is the same equation with the sign flipped
    expect(repeatSalesIndex([{ from: 1, to: 0, logRatio: -1 }], 2, 1)[1]).toBeCloseTo(0.5, 12);
  });
  test("accumulator: streaming equals one-shot, residual variance, skips and errors", () => {
    const acc = new RepeatSalesAccumulator(4);
    acc.add(0, 1, 0.1);
    acc.add(1, 3, 0.2);
    acc.add(0, 2, 0.15);
    acc.add(0, 3, 0.3);
    acc.add(2, 2, 5); // same month: ignored
    acc.add(0, 1, NaN); // ignored
    expect(acc.count).toBe(4);
    expect(acc.skipped).toBe(2);
    const I = acc.solve(0);
    close(I, [0, 0.1, 0.15, 0.3], 12);
    expect(acc.residualVariance(I)).toBeCloseTo(0, 10); // noiseless, 4 pairs − 3 unknowns = 1 dof
    expect(() => acc.add(0, 4, 0.1)).toThrow(RangeError);
    // month 3 never appears and smoothing is 0 → unidentified
    const bad = new RepeatSalesAccumulator(4);
    bad.add(0, 1, 0.1);
    bad.add(1, 2, 0.1);
    expect(() => bad.solve(0)).toThrow(NotPositiveDefiniteError);
  });
  test("a right-hand side of its own: the same pairs with shifted log ratios", () => {
    const acc = new RepeatSalesAccumulator(3);
    acc.add(0, 1, 0.1, 2);
    acc.add(1, 2, 0.2);
    close(acc.solve(0), [0, 0.1, 0.3], 12);
    // the second pair read 0.05 higher: rhs + 0.05·(+w at `to`, −w at `from`), w = 1
    const rhs = Float64Array.from(acc.rhs);
    rhs[2]! += 0.05;
    rhs[1]! -= 0.05;
    close(acc.solve(0, rhs), [0, 0.1, 0.35], 12);
    // both pairs 0.1 lower with smoothing 1: as if added with log ratios 0 and 0.1
    const lower = Float64Array.from(acc.rhs);
    lower[1]! -= 0.1 * 2 - 0.1;
    lower[0]! += 0.1 * 2;
    lower[2]! -= 0.1;
    const direct = new RepeatSalesAccumulator(3);
    direct.add(0, 1, 0, 2);
    direct.add(1, 2, 0.1);
    close(acc.solve(1, lower), Array.from(direct.solve(1)), 12);
    // the accumulator's own right-hand side is untouched
    close(acc.solve(0), [0, 0.1, 0.3], 12);
    expect(() => acc.solve(0, new Float64Array(2))).toThrow(RangeError);
  });
});

describe("smoothIndex (local level, Kalman + RTS)", () => {
  test("one observation against a prior", () => {
    // prior N(0, 1), y = 2 with r = 1 → posterior mean 2·1/(1+1) = 1, variance 1·1/(1+1) = 0.5
    const { level, stderr } = smoothIndex([{ month: 0, y: 2 }], 1, { processVar: 0.1, obsVar: 1, initVar: 1 });
    expect(level[0]).toBeCloseTo(1, 12);
    expect(stderr[0]).toBeCloseTo(Math.sqrt(0.5), 12);
  });
  test("observations of one month combine by precision", () => {
    // y = 1 (w 1) and y = 3 (w 3): ȳ = (1 + 9)/4 = 2.5, variance r/Σw = 1/4 → stderr 0.5 (diffuse prior)
    const { level, stderr } = smoothIndex(
      [
        { month: 0, y: 1, w: 1 },
        { month: 0, y: 3, w: 3 },
      ],
      1,
      { processVar: 0.1, obsVar: 1, initVar: Infinity },
    );
    expect(level[0]).toBeCloseTo(2.5, 12);
    expect(stderr[0]).toBeCloseTo(0.5, 12);
  });
  test("two noisy months, smoothed both ways", () => {
    // x0 diffuse, x1 = x0 + η (q = 1), y0 = 0, y1 = 1, r = 1. Posterior precision
    // [[1,0],[0,1]] + [[1,−1],[−1,1]] = [[2,−1],[−1,2]], inverse [[2,1],[1,2]]/3,
    // mean = inverse·(0,1) = (1/3, 2/3), variance 2/3 each
    const { level, stderr } = smoothIndex(
      [
        { month: 0, y: 0 },
        { month: 1, y: 1 },
      ],
      2,
      { processVar: 1, obsVar: 1, initVar: Infinity },
    );
    close(level, [1 / 3, 2 / 3], 12);
    close(stderr, [Math.sqrt(2 / 3), Math.sqrt(2 / 3)], 12);
  });
  test("noiseless observations are reproduced", () => {
    const ys = [0.1, 0.3, 0.2, 0.5];
    const { level, stderr } = smoothIndex(
      ys.map((y, month) => ({ month, y })),
      4,
      { processVar: 0.01, obsVar: 0, initVar: Infinity },
    );
    close(level, ys, 12);
    close(stderr, [0, 0, 0, 0], 12);
  });
  test("a gap between noiseless observations is filled linearly, with Brownian-bridge stderr", () => {
    // exact y0 = 0, y4 = 1, y9 = 0; q = 0.01. Between: 0.25 0.5 0.75, then 0.8 0.6 0.4 0.2.
    // stderr in a bridge a→b at t: √(q·(t−a)(b−t)/(b−a)): month 2 → √(0.01·2·2/4) = 0.1,
    // month 6 → √(0.01·2·3/5) = √0.012
    const { level, stderr } = smoothIndex(
      [
        { month: 0, y: 0 },
        { month: 4, y: 1 },
        { month: 9, y: 0 },
      ],
      10,
      { processVar: 0.01, obsVar: 0, initVar: Infinity },
    );
    close(level, [0, 0.25, 0.5, 0.75, 1, 0.8, 0.6, 0.4, 0.2, 0], 12);
    expect(stderr[2]).toBeCloseTo(0.1, 12);
    expect(stderr[6]).toBeCloseTo(Math.sqrt(0.012), 12);
  });
  test("before the first and after the last observation: flat (or drift), stderr √(q·h)", () => {
    // exact y2 = 1 in 6 months, q = 0.04: level 1 everywhere; stderr at month 0 √(2q) = 0.2828,
    // at month 5 √(3q) = 0.3464
    const a = smoothIndex([{ month: 2, y: 1 }], 6, { processVar: 0.04, obsVar: 0, initVar: Infinity });
    close(a.level, [1, 1, 1, 1, 1, 1], 12);
    expect(a.stderr[0]).toBeCloseTo(Math.sqrt(0.08), 12);
    expect(a.stderr[5]).toBeCloseTo(Math.sqrt(0.12), 12);
    // drift 0.01/month: back-cast 1 − 0.01·h, forecast 1 + 0.01·h; a bridge stays linear
    const b = smoothIndex(
      [
        { month: 2, y: 1 },
        { month: 4, y: 1.1 },
      ],
      6,
      { processVar: 0.04, obsVar: 0, initVar: Infinity, drift: 0.01 },
    );
    close(b.level, [0.98, 0.99, 1, 1.05, 1.1, 1.11], 12);
  });
  test("input forms and a reused workspace agree", () => {
    const list = [
      { month: 1, y: 0.2, w: 2 },
      { month: 1, y: -0.1 },
      { month: 5, y: 0.4 },
      { month: 7, y: 0.1, w: 0.5 },
    ];
    const opts = { processVar: 0.02, obsVar: 0.1, initVar: 4, initMean: 0.05, drift: 0.003 };
    const ref = smoothIndex(list, 9, opts);
    const cols = {
      month: new Int32Array([1, 1, 5, 7, 99]),
      y: new Float64Array([0.2, -0.1, 0.4, 0.1, 0]),
      w: new Float64Array([2, 1, 1, 0.5, 1]),
      length: 4, // the fifth row is outside `length`
    };
    const sumW = new Float64Array(9);
    const sumWY = new Float64Array(9);
    for (const o of list) {
      sumW[o.month]! += o.w ?? 1;
      sumWY[o.month]! += (o.w ?? 1) * o.y;
    }
    const ws = new SmoothWorkspace();
    smoothIndex([{ month: 3, y: 9 }], 20, opts, ws); // dirty the workspace with a longer series
    for (const got of [smoothIndex(cols, 9, opts), smoothIndex(cols, 9, opts, ws), smoothIndex({ sumW, sumWY }, 9, opts, ws)]) {
      close(got.level, Array.from(ref.level), 12);
      close(got.stderr, Array.from(ref.stderr), 12);
    }
  });
  test("rows with NaN or zero weight are skipped; a month out of range is an error", () => {
    const a = smoothIndex(
      [
        { month: 0, y: 1 },
        { month: 0, y: NaN },
        { month: 0, y: 50, w: 0 },
      ],
      2,
      { processVar: 0.1, obsVar: 0, initVar: Infinity },
    );
    close(a.level, [1, 1], 12);
    expect(() => smoothIndex([{ month: 2, y: 1 }], 2, { processVar: 0.1, obsVar: 0, initVar: 1 })).toThrow(RangeError);
  });
});

describe("smoothAtObserved: the smoother's level at the observed months only", () => {
  test("equals smoothIndex's level at those months (random cases: gaps, month 0 and the last, repeats, drift, a finite prior, skipped rows)", () => {
    const rnd = mulberry32(41);
    const ws = new SmoothWorkspace();
    let worst = 0;
    for (let c = 0; c < 300; c++) {
      const months = 1 + Math.floor(rnd() * 500);
      const n = 1 + Math.floor(rnd() * 40);
      const month = new Int32Array(n);
      const y = new Float64Array(n);
      const w = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const edge = rnd();
        month[i] = edge < 0.1 ? 0 : edge < 0.2 ? months - 1 : Math.floor(rnd() * months);
        y[i] = rnd() < 0.03 ? Number.NaN : 3 * (rnd() - 0.5) + month[i]! * 0.002;
        w[i] = rnd() < 0.05 ? 0 : rnd() < 0.5 ? 1 : 0.2 + rnd();
      }
      const opts = {
        processVar: [0, 1e-5, 4e-4, 0.02][c % 4]!,
        obsVar: [0.05, 0.3, 0][c % 3]!,
        initVar: c % 5 === 0 ? 0.5 : Number.POSITIVE_INFINITY,
        initMean: c % 5 === 0 ? 0.3 : 0,
        drift: c % 7 === 0 ? 0.004 : 0,
      };
      const obs = { month, y, w, length: n };
      const om = observedMonths(month, n, months);
      expect(Array.from(om.at)).toEqual([...new Set(month)].sort((a, b) => a - b));
      for (let i = 0; i < n; i++) expect(om.at[om.place[i]!]).toBe(month[i]!);
      const full = smoothIndex(obs, months, opts).level;
      const at = smoothAtObserved(obs, om, opts, ws);
      expect(at.length).toBe(om.count);
      for (let k = 0; k < om.count; k++) {
        const want = full[om.at[k]!]!;
        if (Number.isNaN(want)) expect(at[k]).toBeNaN();
        else worst = Math.max(worst, Math.abs(at[k]! - want) / Math.max(1, Math.abs(want)));
      }
    }
    // the same model in exact arithmetic: only rounding separates the two
    expect(worst).toBeLessThan(1e-11);
  });

  test("a month out of range is an error", () => {
    expect(() => observedMonths([0, 3], 2, 3)).toThrow(RangeError);
    expect(() => observedMonths([0.5], 1, 3)).toThrow(RangeError);
  });
});

describe("noise variances (method of moments)", () => {
  test("hand example", () => {
    // month 0: y 0, 2 (mean 1, within SS 2); month 3: 4, 4 (mean 4, SS 0); month 4: 3.
    // r̂ = (2 + 0) / ((2−1) + (2−1) + 0) = 1.
    // differences: 0→3: Δ = 3, gap 3, 1/W = 1/2 + 1/2 = 1; 3→4: Δ = −1, gap 1, 1/W = 1/2 + 1 = 1.5
    // q̂ = (9 + 1 − 1·(1 + 1.5)) / (3 + 1) = 7.5 / 4 = 1.875
    const obs = [0, 2]
      .map((y) => ({ month: 0, y }))
      .concat(
        [4, 4].map((y) => ({ month: 3, y })),
        [{ month: 4, y: 3 }],
      );
    const est = estimateNoiseVariances(obs, 5, { method: "moments", maxProcessVar: 10 });
    expect(est.obsVar).toBeCloseTo(1, 12);
    expect(est.processVar).toBeCloseTo(1.875, 12);
    expect(est.obsVarDof).toBe(2);
    expect(est.processVarTerms).toBe(2);
  });
  test("pooling two series adds their moments; no replicated month → NaN or the fallback", () => {
    const acc = new NoiseMomentAccumulator();
    acc.add(
      [
        { month: 0, y: 0 },
        { month: 0, y: 2 },
      ],
      3,
    ); // within SS 2, dof 1
    acc.add(
      [
        { month: 1, y: 5 },
        { month: 1, y: 5 },
        { month: 1, y: 8 },
      ],
      3,
    ); // mean 6, SS 1+1+4 = 6, dof 2
    expect(acc.estimate().obsVar).toBeCloseTo(8 / 3, 12);
    const single = estimateNoiseVariances(
      [
        { month: 0, y: 0 },
        { month: 2, y: 1 },
      ],
      3,
      { method: "moments" },
    );
    expect(single.obsVar).toBeNaN();
    expect(single.processVar).toBeCloseTo(0.5, 12); // r taken as 0: Δ² / gap = 1 / 2
    const fb = estimateNoiseVariances(
      [
        { month: 0, y: 0 },
        { month: 2, y: 1 },
      ],
      3,
      { method: "moments", obsVarFallback: 0.2 },
    );
    expect(fb.processVar).toBeCloseTo((1 - 0.2 * 2) / 2, 12); // (1 − r·(1/1 + 1/1)) / 2 = 0.3
  });
});

describe("likelihood and the maximum-likelihood q̂", () => {
  test("log-likelihood by hand", () => {
    // diffuse prior: y0 = 0 only initialises (m = 0, P = r = 1); month 1: P = 1 + q = 2,
    // S = 2 + 1 = 3, v = 1 → ℓ = −½(ln(2π·3) + 1/3)
    const ll = localLevelLogLikelihood({ sumW: [1, 1], sumWY: [0, 1] }, 2, { processVar: 1, obsVar: 1, initVar: Infinity });
    expect(ll).toBeCloseTo(-0.5 * (Math.log(6 * Math.PI) + 1 / 3), 12);
  });
  test("q̂ maximises the likelihood given r̂", () => {
    const { obs } = simulateArtist(7, 200, 300, 0.05, 0.25);
    const est = estimateNoiseVariances(obs, 200);
    const sumW = new Float64Array(200);
    const sumWY = new Float64Array(200);
    for (let i = 0; i < obs.month.length; i++) {
      sumW[obs.month[i]!]!++;
      sumWY[obs.month[i]!]! += obs.y[i]!;
    }
    const ll = (q: number) => localLevelLogLikelihood({ sumW, sumWY }, 200, { processVar: q, obsVar: est.obsVar, initVar: Infinity });
    expect(ll(est.processVar)).toBeGreaterThanOrEqual(ll(est.processVar * 1.05));
    expect(ll(est.processVar)).toBeGreaterThanOrEqual(ll(est.processVar / 1.05));
    expect(est.obsVar).toBeGreaterThan(0.0625 * 0.7); // r̂ near the true 0.0625
    expect(est.obsVar).toBeLessThan(0.0625 * 1.3);
  });
});

describe("smoothIndex equals the dense posterior", () => {
  test("random case against the full Gaussian solve", () => {
    // posterior precision H and vector g of (x_0..x_{T−1}): prior (x0 − m0)²/P0, steps
    // (x_t − x_{t−1} − d)²/q, months W_t(x_t − ȳ_t)²/r; mean H⁻¹g, variance diag(H⁻¹)
    const T = 30;
    const q = 0.003;
    const r = 0.05;
    const p0 = 2;
    const m0 = 0.3;
    const d = 0.004;
    const u = mulberry32(11);
    const list: { month: number; y: number; w: number }[] = [];
    for (let i = 0; i < 25; i++) list.push({ month: Math.floor(u() * T), y: u() - 0.5, w: 0.5 + u() });
    const H = new Float64Array(T * T);
    const g = new Float64Array(T);
    H[0]! += 1 / p0;
    g[0]! += m0 / p0;
    for (let t = 1; t < T; t++) {
      H[t * T + t]! += 1 / q;
      H[(t - 1) * T + t - 1]! += 1 / q;
      H[t * T + t - 1]! -= 1 / q;
      H[(t - 1) * T + t]! -= 1 / q;
      g[t]! += d / q;
      g[t - 1]! -= d / q;
    }
    for (const o of list) {
      H[o.month * T + o.month]! += o.w / r;
      g[o.month]! += (o.w * o.y) / r;
    }
    const L = choleskyFactor(H.slice(), T);
    const mean = choleskySolveFactored(L, g, T);
    const v = inverseDiagonal(L, T);
    const got = smoothIndex(list, T, { processVar: q, obsVar: r, initVar: p0, initMean: m0, drift: d });
    close(got.level, Array.from(mean), 10);
    close(got.stderr, Array.from(v, Math.sqrt), 10);
  });
});

describe("a regression coefficient through the smoother (the derivation's market loading)", () => {
  test("GLS via the smoother's residuals equals the joint dense solve of (level, coefficient)", () => {
    // y_i = x_{t_i} + g·m_i + ε_i, ε_i ~ N(0, r/w_i), x a random walk (step q, diffuse start),
    // g ~ N(0, τ²). With S(v) the smoothed level of v, (v − S(v))·w/r is the inverse covariance of
    // level-plus-noise applied to v, so ĝ = Σ w·m·(y − S(y)) / (Σ w·m·(m − S(m)) + r/τ²).
    const T = 24;
    const q = 0.002;
    const r = 0.04;
    const tau2 = 0.09;
    const u = mulberry32(23);
    const n = 30;
    const month = new Int32Array(n);
    const y = new Float64Array(n);
    const m = new Float64Array(n);
    const w = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      month[i] = Math.floor(u() * T);
      m[i] = Math.sin(month[i]! / 3) + 0.1 * month[i]!; // a covariate of the month, like M(t)
      y[i] = 0.4 * m[i]! + (u() - 0.5);
      w[i] = 0.5 + u();
    }
    const opts = { processVar: q, obsVar: r, initVar: Number.POSITIVE_INFINITY };
    const sy = Float64Array.from(smoothIndex({ month, y, w, length: n }, T, opts).level);
    const sm = Float64Array.from(smoothIndex({ month, y: m, w, length: n }, T, opts).level);
    let num = 0;
    let den = 0;
    for (let i = 0; i < n; i++) {
      num += w[i]! * m[i]! * (y[i]! - sy[month[i]!]!);
      den += w[i]! * m[i]! * (m[i]! - sm[month[i]!]!);
    }
    const gHat = num / (den + r / tau2);
    // dense: unknowns x_0..x_{T−1}, g (index T); no prior on x_0 (diffuse)
    const k = T + 1;
    const H = new Float64Array(k * k);
    const g = new Float64Array(k);
    for (let t = 1; t < T; t++) {
      H[t * k + t]! += 1 / q;
      H[(t - 1) * k + t - 1]! += 1 / q;
      H[t * k + t - 1]! -= 1 / q;
      H[(t - 1) * k + t]! -= 1 / q;
    }
    H[T * k + T]! += 1 / tau2;
    for (let i = 0; i < n; i++) {
      const t = month[i]!;
      const p = w[i]! / r;
      H[t * k + t]! += p;
      H[T * k + T]! += p * m[i]! * m[i]!;
      H[t * k + T]! += p * m[i]!;
      H[T * k + t]! += p * m[i]!;
      g[t]! += p * y[i]!;
      g[T]! += p * m[i]! * y[i]!;
    }
    const L = choleskyFactor(H.slice(), k);
    const sol = choleskySolveFactored(L, g, k);
    expect(gHat).toBeCloseTo(sol[T]!, 8);
    // and the level of y − ĝ·m is the dense solution's level
    const rest = Float64Array.from(y, (v, i) => v - gHat * m[i]!);
    const level = smoothIndex({ month, y: rest, w, length: n }, T, opts).level;
    close(level, Array.from(sol.subarray(0, T)), 8);
    // its variance: 1 / (Σ w·m·(m − S(m))/r + 1/τ²), the dense inverse's last diagonal entry
    expect(1 / (den / r + 1 / tau2)).toBeCloseTo(inverseDiagonal(L, k)[T]!, 8);
  });
});

describe("prediction band and forecast", () => {
  test("80 % band in log space", () => {
    // σ = √(0.3² + 0.16) = 0.5; band 100·exp(∓1.28155·0.5) = 52.688 … 189.795, median 100
    const b = predictionBand(Math.log(100), 0.3, 0.16);
    expect(b.mid).toBeCloseTo(100, 9);
    expect(b.low).toBeCloseTo(52.68835, 4);
    expect(b.high).toBeCloseTo(189.79527, 4);
    expect(Z80).toBeCloseTo(1.28155, 5);
  });
  test("forecast: mean L + d·h, stderr √(se² + q·h)", () => {
    // 1 + 0.005·3 = 1.015, √(0.01 + 0.01·3) = 0.2
    const f = forecastLevel(1, 0.1, 3, 0.01, 0.005);
    expect(f.mean).toBeCloseTo(1.015, 12);
    expect(f.stderr).toBeCloseTo(0.2, 12);
  });
});

// ───────────── property: a simulated artist ─────────────

function normal(u: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** 400 months of a random walk (step σ), 300 observations at uniform random months with noise σ_obs. */
function simulateArtist(seed: number, months = 400, nObs = 300, stepSd = 0.05, obsSd = 0.25) {
  const u = mulberry32(seed);
  const z = normal(u);
  const truth = new Float64Array(months);
  for (let t = 1; t < months; t++) truth[t] = truth[t - 1]! + stepSd * z();
  const month = new Int32Array(nObs);
  const y = new Float64Array(nObs);
  for (let i = 0; i < nObs; i++) {
    const t = Math.floor(u() * months);
    month[i] = t;
    y[i] = truth[t]! + obsSd * z();
  }
  return { truth, obs: { month, y } };
}

/** Correlation of 12-month log returns of the smoothed index with the truth. */
function returnCorrelation(level: ArrayLike<number>, truth: ArrayLike<number>, k = 12): number {
  const a: number[] = [];
  const b: number[] = [];
  for (let t = k; t < truth.length; t++) {
    a.push((level[t] as number) - (level[t - k] as number));
    b.push((truth[t] as number) - (truth[t - k] as number));
  }
  return correlation(a, b);
}

/**
 * The 12-month return correlation is bounded by the information in the data, not only by the
 * method: smoothIndex is the exact posterior mean (test above), and with 300 observations of
 * σ = 0.25 over 400 months its mean figure over 20 seeds is about 0.61 / 0.72 / 0.79 / 0.85 / 0.89
 * for a random-walk step σ of 0.03 / 0.05 / 0.07 / 0.10 / 0.15 per month (docs/formulas.md).
 */
function correlations(stepSd: number, seeds = 20) {
  const known: number[] = [];
  const estimated: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const { truth, obs } = simulateArtist(seed, 400, 300, stepSd, 0.25);
    const a = smoothIndex(obs, 400, { processVar: stepSd ** 2, obsVar: 0.25 ** 2, initVar: Infinity });
    known.push(returnCorrelation(a.level, truth));
    const est = estimateNoiseVariances(obs, 400);
    const b = smoothIndex(obs, 400, { processVar: est.processVar, obsVar: est.obsVar, initVar: Infinity });
    estimated.push(returnCorrelation(b.level, truth));
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return { known, estimated, knownMean: mean(known), estimatedMean: mean(estimated), estimatedMin: Math.min(...estimated) };
}

describe("property: the smoothed index follows a simulated artist", () => {
  test("400 months, 300 observations with σ = 0.25, step σ = 0.15/month, variances estimated: 12-month return correlation ≥ 0.85", () => {
    const c = correlations(0.15);
    console.log(
      `step σ 0.15: 12-month return correlation over 20 seeds: estimated variances mean ${c.estimatedMean.toFixed(3)} ` +
        `min ${c.estimatedMin.toFixed(3)}; true variances mean ${c.knownMean.toFixed(3)}`,
    );
    expect(c.estimatedMean).toBeGreaterThanOrEqual(0.85);
    expect(c.estimatedMin).toBeGreaterThanOrEqual(0.8);
    // seed 1 alone, as a single artist
    expect(c.estimated[0]!).toBeGreaterThanOrEqual(0.85);
  });
  test("a calmer artist (step σ 0.05/month): lower, as the information bound says, and estimation loses almost nothing", () => {
    const c = correlations(0.05);
    console.log(
      `step σ 0.05: 12-month return correlation over 20 seeds: estimated variances mean ${c.estimatedMean.toFixed(3)} ` +
        `min ${c.estimatedMin.toFixed(3)}; true variances mean ${c.knownMean.toFixed(3)}`,
    );
    expect(c.estimatedMean).toBeGreaterThanOrEqual(0.65);
    expect(c.estimatedMean).toBeGreaterThanOrEqual(c.knownMean - 0.02);
  });
});
