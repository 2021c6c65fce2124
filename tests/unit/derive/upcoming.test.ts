/**
 * The upcoming lots' model (src/pipeline/derive/upcoming.ts): its pieces on hand-made cases with known
 * answers, and the forecasts the tiny market's derivation writes.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { LotRow } from "../../../src/pipeline/derive/artist";
import {
  artistFold,
  calibrated,
  crossFitProbability,
  dotStd,
  fitLogistic,
  fitTobit,
  fitUpcoming,
  forecast,
  plattScaling,
  reservedProbability,
  type LotContext,
  lotFeatures,
  type MarketRecord,
  normalCdf,
  OutcomeHistory,
  HOUSE_PRIOR,
  levelCalibration,
  logit,
  marketShift,
  SHIFT_PRIOR,
  shiftFor,
  type TrainingRow,
  UPCOMING_K,
} from "../../../src/pipeline/derive/upcoming";
import { Random } from "../../../src/market/random";
import { tinyMarketDir } from "../../helpers/app";

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const RECORD: MarketRecord = { sellRate: 0.75, estimateOffset: 0, houses: {}, locations: {} };
const READING = { offset: 0, sd: 0.3 };

/** A lot with a midpoint `mid` (USD, geometric: bounds mid/1.25 and mid·1.25). */
function lot(mid: number, reserve = 1): LotRow {
  return {
    id: 1,
    artwork_id: 1,
    status: "upcoming",
    sale_datetime: "2026-07-10T18:00:00Z",
    hammer_usd: null,
    premium_usd: null,
    estimate_min_usd: mid / 1.25,
    estimate_max_usd: mid * 1.25,
    currency: "USD",
    reserve_mark: reserve,
    house_id: 1,
    location_id: 1,
  };
}

function context(over: Partial<LotContext> = {}): LotContext {
  return {
    value: { mu: Math.log(10_000), sd: 0.3 },
    momentum: 0,
    recentLots: 5,
    concluded: 10,
    sold: 8,
    workPassed: 0,
    workWithdrawn: 0,
    workSold: 0,
    ahead: 1,
    shift: 0,
    ...over,
  };
}

/**
 * Training rows drawn from a known rule, the market's own: the fit's value `mu` (sd 0.3) and a
 * house midpoint around it; a work bought in before is worth 0.3 less than its fit says; its log
 * hammer is that worth plus N(0, 0.3); a reserved lot sells when its hammer clears the reserve, at
 * the low estimate times `reserveOfLow`; 3 % are withdrawn.
 */
function synthetic(n: number, seed: number, reserveOfLow = 1): { rows: TrainingRow[]; chance: number[] } {
  const rng = new Random(seed);
  const rows: TrainingRow[] = [];
  const chance: number[] = [];
  for (let i = 0; i < n; i++) {
    const mu = Math.log(10_000) + rng.normal();
    const mid = Math.exp(mu + 0.2 * rng.normal());
    const reserve = rng.chance(0.8) ? 1 : 0;
    const passed = rng.chance(0.2) ? 1 : 0;
    const x = new Float64Array(UPCOMING_K);
    const base = lotFeatures(x, lot(mid, reserve), context({ value: { mu, sd: 0.3 }, workPassed: passed }), RECORD, READING);
    const worth = mu - 0.3 * passed;
    const logLow = Math.log(mid / 1.25);
    const withdrawn = rng.chance(0.03);
    const logHammer = worth + 0.3 * rng.normal();
    const logReserve = logLow + Math.log(reserveOfLow);
    const sold = !withdrawn && (!reserve || logHammer >= logReserve) ? 1 : 0;
    rows.push({ x, base, sold, withdrawn, logHammer: sold ? logHammer : Number.NaN, logLow, artist: i % 97 });
    chance.push(0.97 * (reserve ? normalCdf((worth - logReserve) / 0.3) : 1));
  }
  return { rows, chance };
}

describe("normalCdf", () => {
  test("known values", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.2815515655446004)).toBeCloseTo(0.9, 6);
    expect(normalCdf(-1.959963984540054)).toBeCloseTo(0.025, 6);
  });
});

describe("fitLogistic", () => {
  test("recovers known coefficients", () => {
    const rng = new Random(11);
    const rows: Float64Array[] = [];
    const y: number[] = [];
    for (let i = 0; i < 40_000; i++) {
      const x = Float64Array.of(1, rng.normal(), rng.chance(0.3) ? 1 : 0);
      rows.push(x);
      y.push(rng.chance(sigmoid(0.5 + 1.2 * x[1]! - 0.8 * x[2]!)) ? 1 : 0);
    }
    const beta = fitLogistic(rows, y, 3, 0);
    expect(beta[0]!).toBeCloseTo(0.5, 1);
    expect(beta[1]!).toBeCloseTo(1.2, 1);
    expect(beta[2]!).toBeCloseTo(-0.8, 1);
  });
});

describe("Platt scaling", () => {
  test("a calibrated score stays as it is", () => {
    const rng = new Random(3);
    const scores: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 40_000; i++) {
      const p = 0.05 + 0.9 * rng.next();
      scores.push(p);
      y.push(rng.chance(p) ? 1 : 0);
    }
    const platt = plattScaling(scores, y);
    expect(platt.a).toBeCloseTo(0, 1);
    expect(platt.b).toBeCloseTo(1, 1);
  });

  test("maps over-confident scores back to the observed rates", () => {
    // scores whose logit is twice the truth's, shifted by 0.5: the map halves it and takes the shift out
    const rng = new Random(4);
    const scores: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 40_000; i++) {
      const p = 0.1 + 0.8 * rng.next();
      scores.push(sigmoid(0.5 + 2 * logit(p)));
      y.push(rng.chance(p) ? 1 : 0);
    }
    const platt = plattScaling(scores, y);
    expect(platt.b).toBeCloseTo(0.5, 1);
    expect(calibrated(platt, sigmoid(0.5 + 2 * logit(0.8)))).toBeCloseTo(0.8, 1);
    expect(calibrated(platt, sigmoid(0.5 + 2 * logit(0.3)))).toBeCloseTo(0.3, 1);
  });
});

describe("crossFitProbability", () => {
  /** Rows of `k` features (the intercept, one that matters, k − 2 that do not) and outcomes from logit 1 + x₁, artists i % 50. */
  function rows(n: number, k: number, seed: number) {
    const rng = new Random(seed);
    const z: Float64Array[] = [];
    const chance: number[] = [];
    const y = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const x = new Float64Array(k);
      x[0] = 1;
      for (let j = 1; j < k; j++) x[j] = rng.normal();
      const p = sigmoid(1 + x[1]!);
      z.push(x);
      chance.push(p);
      y[i] = rng.chance(p) ? 1 : 0;
    }
    return { z, y, chance, folds: Uint8Array.from({ length: n }, (_, i) => artistFold(i % 50)) };
  }

  test("a row's out-of-fold score does not read its own outcome", () => {
    const { z, y, folds } = rows(2_000, 4, 21);
    const before = crossFitProbability(z, y, folds).outOfFold!;
    const flipped = Uint8Array.from(y);
    flipped[7] = 1 - flipped[7]!;
    const after = crossFitProbability(z, flipped, folds).outOfFold!;
    expect(after[7]!).toBeCloseTo(before[7]!, 8);
    // a row of another fold, whose model saw row 7, moves
    const other = folds.findIndex((f) => f !== folds[7]);
    expect(Math.abs(after[other]! - before[other]!)).toBeGreaterThan(1e-6);
  });

  test("an over-confident regression comes out calibrated on fresh rows", () => {
    // 3,000 rows and 39 features that do not matter, no ridge: the fit reads noise as signal, its
    // logits too far out (on fresh rows the rule's logit rises 0.9 for each 1 of the fit's);
    // Platt scaling of the out-of-fold scores takes that back
    const k = 41;
    const train = rows(3_000, k, 5);
    const { beta, platt } = crossFitProbability(train.z, train.y, train.folds, 0);
    expect(platt.b).toBeLessThan(0.95);
    const fresh = rows(30_000, k, 105);
    const score = (x: Float64Array) => {
      let s = 0;
      for (let j = 0; j < k; j++) s += beta[j]! * x[j]!;
      return sigmoid(s);
    };
    // the least-squares slope of the rule's logit on the forecast's: 1 when calibrated
    const slope = (p: (x: Float64Array) => number) => {
      const a = fresh.z.map((x) => logit(p(x)));
      const b = fresh.chance.map(logit);
      const ma = a.reduce((s, v) => s + v, 0) / a.length;
      const mb = b.reduce((s, v) => s + v, 0) / b.length;
      let sab = 0;
      let saa = 0;
      for (let i = 0; i < a.length; i++) {
        sab += (a[i]! - ma) * (b[i]! - mb);
        saa += (a[i]! - ma) ** 2;
      }
      return sab / saa;
    };
    expect(slope(score)).toBeLessThan(0.93);
    expect(Math.abs(slope((x) => calibrated(platt, score(x))) - 1)).toBeLessThan(0.05);
  });

  test("too few rows out of a fold: no calibration", () => {
    const { z, y } = rows(300, 3, 8);
    const { platt, outOfFold } = crossFitProbability(z, y, new Uint8Array(300));
    expect(platt).toEqual({ a: 0, b: 1 });
    expect(outOfFold).toBeNull();
  });
});

describe("fitUpcoming", () => {
  const { rows } = synthetic(12_000, 5);
  const model = fitUpcoming(rows, RECORD)!;
  const x = new Float64Array(UPCOMING_K);
  const predict = (mid: number, c: LotContext, reserve = 1) => forecast(model, x, lotFeatures(x, lot(mid, reserve), c, RECORD, READING));

  test("a work bought in before gets a lower probability, all else equal", () => {
    const fresh = predict(9_000, context());
    const reoffered = predict(9_000, context({ workPassed: 1 }));
    expect(reoffered.probability).toBeLessThan(fresh.probability - 0.05);
  });

  test("a value further above the low estimate sells more often; no reserve sells nearly always", () => {
    expect(predict(7_000, context()).probability).toBeGreaterThan(predict(12_000, context()).probability + 0.2);
    expect(predict(20_000, context(), 0).probability).toBeGreaterThan(0.9);
  });

  test("probabilities match the rule's on fresh lots (within 3 points by decile)", () => {
    const fresh = synthetic(20_000, 99);
    expect(worstDecile(fresh.rows.map((r, i) => ({ p: forecast(model, r.x, r.base).probability, chance: fresh.chance[i]! })))).toBeLessThan(0.03);
  });

  test("the hammer's band covers 80 % of fresh sold lots and its median splits them", () => {
    const fresh = synthetic(20_000, 123).rows.filter((r) => r.sold);
    let inside = 0;
    let above = 0;
    for (const r of fresh) {
      const f = forecast(model, r.x, r.base);
      expect(f.low!).toBeLessThan(f.hammer!);
      expect(f.hammer!).toBeLessThan(f.high!);
      if (r.logHammer >= Math.log(f.low!) && r.logHammer <= Math.log(f.high!)) inside++;
      if (r.logHammer > Math.log(f.hammer!)) above++;
    }
    expect(Math.abs(inside / fresh.length - 0.8)).toBeLessThan(0.02);
    expect(Math.abs(above / fresh.length - 0.5)).toBeLessThan(0.02);
  });

  test("a lot without a fit reads its estimate's sd", () => {
    lotFeatures(x, lot(9_000), context({ value: null }), RECORD, READING);
    expect(x[3]).toBe(1);
    expect(x[9]).toBeCloseTo(Math.log(READING.sd), 12);
  });

  test("too few rows: no model", () => {
    expect(fitUpcoming(rows.slice(0, 100), RECORD)).toBeNull();
  });
});

/** Deciles of `scored` by prediction: the largest gap between a decile's mean prediction and its mean rule's chance. */
function worstDecile(scored: { p: number; chance: number }[]): number {
  scored.sort((a, b) => a.p - b.p);
  const size = Math.floor(scored.length / 10);
  let worst = 0;
  for (let d = 0; d < 10; d++) {
    const group = scored.slice(d * size, (d + 1) * size);
    worst = Math.max(worst, Math.abs(group.reduce((s, g) => s + g.p - g.chance, 0) / group.length));
  }
  return worst;
}

describe("the reserved lots' model", () => {
  test("fitTobit recovers a censored regression's coefficients and scale", () => {
    const rng = new Random(17);
    const rows: Float64Array[] = [];
    const y: number[] = [];
    const observed: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const u = rng.normal();
      const latent = 0.2 + 0.5 * u + 0.4 * rng.normal();
      rows.push(Float64Array.of(1, u));
      observed.push(latent >= 0 ? 1 : 0);
      y.push(latent >= 0 ? latent : 0);
    }
    // about a third censored
    expect(observed.filter((o) => o === 0).length).toBeGreaterThan(5_000);
    const { theta, tau } = fitTobit(rows, y, observed, 0);
    expect(1 / tau).toBeCloseTo(0.4, 1);
    expect(Math.abs(theta[0]! / tau - 0.2)).toBeLessThan(0.02);
    expect(Math.abs(theta[1]! / tau - 0.5)).toBeLessThan(0.02);
  });

  test("levelCalibration finds the logit shift that makes the scores sum to the outcomes", () => {
    const rng = new Random(3);
    const scores: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const p = 0.05 + 0.9 * rng.next();
      scores.push(p);
      y.push(rng.chance(sigmoid(0.4 + logit(p))) ? 1 : 0);
    }
    const level = levelCalibration(scores, y);
    expect(Math.abs(level - 0.4)).toBeLessThan(0.06);
    const total = scores.reduce((s, p) => s + sigmoid(level + logit(p)), 0);
    expect(total).toBeCloseTo(
      y.reduce((s, v) => s + v, 0),
      6,
    );
  });

  test("a reserve at the low estimate: censored at it, withdrawals kept apart, reserved lots scored by it", () => {
    const { rows } = synthetic(12_000, 5);
    const model = fitUpcoming(rows, RECORD)!;
    const r = model.reserved!;
    expect(r.censor).toBe(0);
    expect(Math.abs(r.keep - 0.97)).toBeLessThan(0.01);
    expect(Math.abs(r.sigma - 0.3)).toBeLessThan(0.03);
    const x = new Float64Array(UPCOMING_K);
    const base = lotFeatures(x, lot(9_000), context(), RECORD, READING);
    expect(forecast(model, x, base).probability).toBeCloseTo(reservedProbability(r, dotStd(r.theta, x, model.mean, model.sd)), 12);
    // a lot without a reserve: the logistic
    const y = new Float64Array(UPCOMING_K);
    const noReserve = lotFeatures(y, lot(9_000, 0), context(), RECORD, READING);
    expect(forecast(model, y, noReserve).probability).toBeCloseTo(calibrated(model.platt, sigmoid(dotStd(model.logit, y, model.mean, model.sd))), 12);
  });

  test("reserves at 75 % of the low estimate: the censoring point follows them and the deciles stay calibrated", () => {
    const model = fitUpcoming(synthetic(12_000, 5, 0.75).rows, RECORD)!;
    expect(Math.abs(model.reserved!.censor - Math.log(0.75))).toBeLessThan(0.03);
    const fresh = synthetic(20_000, 99, 0.75);
    expect(worstDecile(fresh.rows.map((row, i) => ({ p: forecast(model, row.x, row.base).probability, chance: fresh.chance[i]! })))).toBeLessThan(0.03);
  });

  test("too few reserved rows: the logistic serves every lot", () => {
    const rows = synthetic(3_000, 8).rows.map((row) => ({ ...row, x: Float64Array.from(row.x, (v, j) => (j === 1 ? 0 : v)) }));
    const few = [...rows.slice(0, 2_800), ...synthetic(150, 9).rows];
    expect(fitUpcoming(few, RECORD)!.reserved).toBeNull();
  });
});

describe("the market shift", () => {
  test("each month ahead's mean of value − midpoint, shrunk towards the window's, itself towards 0", () => {
    const lots = [...Array.from({ length: 100 }, () => ({ ahead: 1, d: 0.2 })), ...Array.from({ length: 100 }, () => ({ ahead: 2, d: 0.1 }))];
    const all = 30 / (200 + SHIFT_PRIOR);
    const shift = marketShift(lots);
    expect(shift).toHaveLength(4);
    expect(shift[1]).toBeCloseTo((20 + SHIFT_PRIOR * all) / (100 + SHIFT_PRIOR), 12);
    expect(shift[2]).toBeCloseTo((10 + SHIFT_PRIOR * all) / (100 + SHIFT_PRIOR), 12);
    expect(shift[0]).toBeCloseTo(all, 12);
    expect(shift[3]).toBeCloseTo(all, 12);
    expect(marketShift([])).toEqual([0, 0, 0, 0]);
    // months ahead beyond the last read as the last
    expect(shiftFor(shift, 7)).toBe(shift[3]!);
    expect(shiftFor(shift, -1)).toBe(shift[0]!);
  });

  test("a lot's value is read less its shift", () => {
    const x = new Float64Array(UPCOMING_K);
    const y = new Float64Array(UPCOMING_K);
    const mu = Math.log(10_000);
    lotFeatures(x, lot(9_000), context({ value: { mu, sd: 0.3 }, shift: 0.1 }), RECORD, READING);
    lotFeatures(y, lot(9_000), context({ value: { mu: mu - 0.1, sd: 0.3 } }), RECORD, READING);
    expect(x[UPCOMING_K - 1]).toBeCloseTo(0.1, 12);
    expect(Array.from(x.subarray(0, UPCOMING_K - 1))).toEqual(Array.from(y.subarray(0, UPCOMING_K - 1)));
  });

  /**
   * Windows of lots whose fitted values share one error (the market's move since the fit, which the
   * houses' estimates know): the value plus the window's move plus the work's own error, the
   * midpoint the value plus N(0, 0.15), the hammer the value plus N(0, 0.25), a reserve at the low
   * estimate deciding the sale, 3 % withdrawn.
   */
  function windows(count: number, size: number, seed: number, useShift: boolean, move?: number) {
    const rng = new Random(seed);
    const rows: TrainingRow[] = [];
    const chance: number[] = [];
    for (let w = 0; w < count; w++) {
      const e = move ?? 0.12 * rng.normal();
      const drawn = Array.from({ length: size }, () => {
        const v = Math.log(10_000) + rng.normal();
        const mid = Math.exp(v + 0.15 * rng.normal());
        const reserve = rng.chance(0.8) ? 1 : 0;
        const c = context({ value: { mu: v + e + 0.2 * rng.normal(), sd: 0.3 } });
        return { v, mid, reserve, c };
      });
      const shift = marketShift(drawn.map(({ mid, c }) => ({ ahead: c.ahead, d: c.value!.mu - Math.log(mid) })));
      for (const { v, mid, reserve, c } of drawn) {
        if (useShift) c.shift = shiftFor(shift, c.ahead);
        const x = new Float64Array(UPCOMING_K);
        const base = lotFeatures(x, lot(mid, reserve), c, RECORD, READING);
        const logLow = Math.log(mid / 1.25);
        const withdrawn = rng.chance(0.03);
        const logHammer = v + 0.25 * rng.normal();
        const sold = !withdrawn && (!reserve || logHammer >= logLow) ? 1 : 0;
        rows.push({ x, base, sold, withdrawn, logHammer: sold ? logHammer : Number.NaN, logLow, artist: w * size + rows.length });
        chance.push(reserve ? 0.97 * normalCdf((v - logLow) / 0.25) : 0.97);
      }
    }
    return { rows, chance };
  }

  test("with the shift, a window after a market move keeps its sale rate; without it, the forecast follows the move", () => {
    const meanGap = (useShift: boolean, move: number) => {
      const model = fitUpcoming(windows(40, 300, 11, useShift).rows, RECORD)!;
      const fresh = windows(8, 500, 12, useShift, move);
      const predicted = fresh.rows.reduce((s, r) => s + forecast(model, r.x, r.base).probability, 0) / fresh.rows.length;
      return predicted - fresh.chance.reduce((s, p) => s + p, 0) / fresh.chance.length;
    };
    for (const move of [0.2, -0.2]) {
      expect(Math.abs(meanGap(true, move))).toBeLessThan(0.015);
      // the same windows read without the shift: off by several points, the way the market moved
      expect(Math.sign(meanGap(false, move)) * Math.sign(move)).toBe(1);
      expect(Math.abs(meanGap(false, move))).toBeGreaterThan(0.03);
    }
  });
});

describe("OutcomeHistory", () => {
  test("a house's record before a month, shrunk towards the market's", () => {
    const h = new OutcomeHistory(10);
    // house 1: 10 lots in month 2, 5 sold at twice their midpoint; house 2: 90 lots in month 3, all sold at their midpoint
    for (let i = 0; i < 10; i++) h.add(1, 7, 2, i < 5, i < 5 ? Math.log(2) : null);
    for (let i = 0; i < 90; i++) h.add(2, 8, 3, true, 0);
    h.add(1, 7, 6, false, null);
    const early = h.recordBefore(3);
    expect(early.sellRate).toBeCloseTo(0.5, 12);
    expect(early.houses[2]).toEqual([0, 0]);
    const r = h.recordBefore(4);
    expect(r.sellRate).toBeCloseTo(95 / 100, 12);
    const offset = (5 * Math.log(2)) / 95;
    expect(r.estimateOffset).toBeCloseTo(offset, 12);
    expect(r.houses[1]![0]).toBeCloseTo(logit((5 + HOUSE_PRIOR * 0.95) / (10 + HOUSE_PRIOR)) - logit(0.95), 12);
    expect(r.houses[1]![1]).toBeCloseTo((5 * Math.log(2) + HOUSE_PRIOR * offset) / (5 + HOUSE_PRIOR) - offset, 12);
    expect(r.locations[8]![0]).toBeCloseTo(logit((90 + HOUSE_PRIOR * 0.95) / (90 + HOUSE_PRIOR)) - logit(0.95), 12);
  });
});

describe("the tiny market's upcoming lots", () => {
  test("upcoming lots carry a probability in (0, 1) and an ordered band; every other status null", async () => {
    const db = new Database(join(await tinyMarketDir(), "market.db"), { readonly: true });
    try {
      const upcoming = db
        .query<{ p: number | null; h: number | null; lo: number | null; hi: number | null; mid: number | null }, []>(
          `SELECT sale_probability AS p, expected_hammer_usd AS h, expected_hammer_usd_low AS lo, expected_hammer_usd_high AS hi,
                  sqrt(estimate_min_usd_cents * estimate_max_usd_cents) / 100.0 AS mid FROM lots WHERE status = 'upcoming'`,
        )
        .all();
      expect(upcoming.length).toBeGreaterThan(20);
      for (const u of upcoming) {
        expect(u.p).not.toBeNull();
        expect(u.p!).toBeGreaterThan(0);
        expect(u.p!).toBeLessThan(1);
        expect(u.lo!).toBeLessThan(u.h!);
        expect(u.h!).toBeLessThan(u.hi!);
        // the expected hammer is near the house's estimate (within a factor of 3)
        if (u.mid !== null) expect(Math.abs(Math.log(u.h! / u.mid))).toBeLessThan(Math.log(3));
      }
      const others = db
        .query<{ n: number }, []>(
          `SELECT count(*) AS n FROM lots WHERE status <> 'upcoming' AND (sale_probability IS NOT NULL OR expected_hammer_usd IS NOT NULL
             OR expected_hammer_usd_low IS NOT NULL OR expected_hammer_usd_high IS NOT NULL)`,
        )
        .get()!;
      expect(others.n).toBe(0);
      // the read index serves a range on the probability
      const plan = db.query<{ detail: string }, []>("EXPLAIN QUERY PLAN SELECT id FROM lots WHERE sale_probability >= 0.8 ORDER BY sale_probability DESC").all();
      expect(plan.map((r) => r.detail).join(" ")).toContain("INDEX lots_sale_probability_known (sale_probability>?)");
    } finally {
      db.close();
    }
  });
});
