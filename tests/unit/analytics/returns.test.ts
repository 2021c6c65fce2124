/** Returns: CAR, CAGR, repeat-sale pairs, median car per year, momentum, Sharpe. Hand-worked values. */
import { describe, expect, test } from "bun:test";
import { cagr, compoundAnnualReturn, medianCarByYear, momentum, momentumPercent, repeatSalePairs, sharpeRatios, wholeMonthsBetween } from "../../../src/analytics/returns";
import { monthIndex } from "../../../src/market/calendar";

describe("compoundAnnualReturn (percent per year)", () => {
  test("hand values", () => {
    // 100 → 200 over 72 months: 2^(12/72) = 2^(1/6) = 1.1224620 → 12.24620 %
    expect(compoundAnnualReturn(100, 200, 72)).toBeCloseTo(12.246204830937, 9);
    // 1000 → 1331 over 36 months: 1.331^(1/3) = 1.1 → 10 %
    expect(compoundAnnualReturn(1000, 1331, 36)).toBeCloseTo(10, 9);
    // a loss: 200 → 50 over 24 months: 0.25^(1/2) = 0.5 → −50 %
    expect(compoundAnnualReturn(200, 50, 24)).toBeCloseTo(-50, 9);
  });
  test("invalid inputs → NaN", () => {
    expect(compoundAnnualReturn(0, 100, 12)).toBeNaN();
    expect(compoundAnnualReturn(100, -1, 12)).toBeNaN();
    expect(compoundAnnualReturn(100, 120, 0)).toBeNaN();
    expect(compoundAnnualReturn(NaN, 120, 12)).toBeNaN();
  });
});

describe("cagr (fraction per year)", () => {
  test("hand values", () => {
    expect(cagr(100, 121, 2)).toBeCloseTo(0.1, 12); // 1.21^(1/2) − 1
    expect(cagr(100, 100, 5)).toBe(0);
    expect(cagr(100, 50, 1)).toBeCloseTo(-0.5, 12);
    expect(cagr(100, 150, 0.5)).toBeCloseTo(1.25, 12); // 1.5² − 1
  });
  test("invalid inputs → NaN", () => {
    expect(cagr(0, 121, 2)).toBeNaN();
    expect(cagr(100, 121, 0)).toBeNaN();
    expect(cagr(100, Infinity, 2)).toBeNaN();
  });
});

describe("whole months between dates (completed months, like an age)", () => {
  test("rounding", () => {
    expect(wholeMonthsBetween("2020-01-15", "2021-01-14")).toBe(11); // one day short of 12
    expect(wholeMonthsBetween("2020-01-15", "2021-01-15")).toBe(12);
    expect(wholeMonthsBetween("2020-01-31", "2020-02-29")).toBe(0); // day 29 < day 31
    expect(wholeMonthsBetween("2020-01-01", "2020-03-31")).toBe(2);
    expect(monthIndex("1986-01-20")).toBe(0);
    expect(monthIndex("2026-10-01")).toBe(40 * 12 + 9);
  });
});

describe("repeatSalePairs", () => {
  const lots = [
    // artwork 1: sold 2019-01-15 (100); passed 2019-06-01 (ignored); sold 2020-01-14 (150):
    // 11 whole months → excluded; sold 2021-01-14 (300): 12 months from the 2020 sale → included,
    // car = (300/150)^(12/12) − 1 = 100 %
    { lotId: 1, artworkId: 1, date: "2019-01-15", priceUsd: 100, sold: true },
    { lotId: 2, artworkId: 1, date: "2019-06-01", priceUsd: 120, sold: false },
    { lotId: 4, artworkId: 1, date: "2021-01-14", priceUsd: 300, sold: true },
    { lotId: 3, artworkId: 1, date: "2020-01-14", priceUsd: 150, sold: true },
    // artwork 2: 1000 → 1331 over 36 months → 10 %; a sold lot without a price is skipped
    { lotId: 10, artworkId: 2, date: "2010-03-01", priceUsd: 1000, sold: true },
    { lotId: 11, artworkId: 2, date: "2011-05-01", priceUsd: null, sold: true },
    { lotId: 12, artworkId: 2, date: "2013-03-01", priceUsd: 1331, sold: true },
    // artwork 3: a single sale → no pair
    { lotId: 20, artworkId: 3, date: "2015-01-01", priceUsd: 10, sold: true },
  ];
  test("consecutive sold lots, < 12 months excluded, sorted by sell date", () => {
    const pairs = repeatSalePairs(lots);
    expect(pairs.length).toBe(2);
    const [a, b] = pairs;
    expect(a).toMatchObject({ artworkId: 2, buyLotId: 10, sellLotId: 12, buyDate: "2010-03-01", sellDate: "2013-03-01", periodMonths: 36 });
    expect(a!.car).toBeCloseTo(10, 9);
    expect(b).toMatchObject({ artworkId: 1, buyLotId: 3, sellLotId: 4, periodMonths: 12 });
    expect(b!.car).toBeCloseTo(100, 9);
  });
  test("medianCarByYear: median per sell year, years without pairs omitted", () => {
    const got = medianCarByYear([
      { sellDate: "2020-05-01", car: 10 },
      { sellDate: "2020-07-01", car: 30 },
      { sellDate: "2020-12-31", car: 20 },
      { sellDate: "2018-01-01", car: 5 },
      { sellDate: "2018-02-01", car: 7 },
      { sellDate: "2019-03-01", car: NaN },
    ]);
    // 2018: (5 + 7)/2 = 6; 2019: only NaN → omitted; 2020: median of 10 20 30 = 20
    expect(got).toEqual([
      { year: 2018, car: 6 },
      { year: 2020, car: 20 },
    ]);
    expect(medianCarByYear([])).toEqual([]);
  });
});

describe("momentum", () => {
  const L = new Float64Array([0, Math.log(1.1), Math.log(1.21), NaN]);
  test("fraction and percent", () => {
    expect(momentum(L, 2, 2)).toBeCloseTo(0.21, 12); // exp(ln 1.21 − 0) − 1
    expect(momentum(L, 2, 1)).toBeCloseTo(0.1, 12); // 1.21 / 1.1 − 1
    expect(momentumPercent(L, 2, 2)).toBeCloseTo(21, 10);
  });
  test("out of range or NaN → null", () => {
    expect(momentum(L, 2, 3)).toBeNull(); // start −1
    expect(momentum(L, 4, 1)).toBeNull(); // end past the array
    expect(momentum(L, 3, 1)).toBeNull(); // NaN
    expect(momentum(L, 2, 0)).toBeNull();
    expect(momentumPercent(L, 3, 2)).toBeNull();
  });
});

describe("sharpeRatios", () => {
  // 25 monthly points (24 returns): log returns alternate +0.03 (odd months), −0.01 (even months),
  // so the mean monthly log return is +1 % and the deviations are ±0.02.
  const L = new Float64Array(25);
  for (let t = 1; t <= 24; t++) L[t] = L[t - 1]! + (t % 2 === 1 ? 0.03 : -0.01);
  const all = new Array(25).fill(true);

  test("hand values", () => {
    const s = sharpeRatios(L, 24, all);
    expect(s.map((x) => x.horizon_years)).toEqual([1, 2, 3, 5, 7, 10]);
    // 1 year: 12 returns, mean 0.01, sample variance 12·0.02²/11 = 0.0048/11;
    // annualised: mean 0.12, sd √(12·0.0048/11) = 0.0723627 → (0.12 − 0.02)/0.0723627 = 1.381927
    expect(s[0]!.sharpe_ratio).toBeCloseTo(1.381927, 5);
    // 2 years: 24 returns, variance 24·0.0004/23 → sd √(12·0.0096/23) = 0.0707722 → 0.1/0.0707722 = 1.412985
    expect(s[1]!.sharpe_ratio).toBeCloseTo(1.412985, 5);
    // 3 years and more start before month 0 → null
    expect(s.slice(2).map((x) => x.sharpe_ratio)).toEqual([null, null, null, null]);
    // risk-free 0: 0.12 / 0.0723627 = 1.658312
    expect(sharpeRatios(L, 24, all, 0)[0]!.sharpe_ratio).toBeCloseTo(1.658312, 5);
  });
  test("a constant return has no volatility → null", () => {
    const C = new Float64Array(25).map((_, t) => 0.01 * t);
    expect(sharpeRatios(C, 24, all)[0]!.sharpe_ratio).toBeNull();
  });
  test("insufficient history → null", () => {
    // first observed month 20: the 1-year window starts at 12 < 20
    const late = new Array(25).fill(false);
    for (let t = 20; t <= 24; t++) late[t] = true;
    expect(sharpeRatios(L, 24, late)[0]!.sharpe_ratio).toBeNull();
    // observed 0, 13, 20: 2 observed months in 13..24, fewer than ⌈0.25·12⌉ = 3 → null
    const sparse = new Uint8Array(25);
    for (const t of [0, 13, 20]) sparse[t] = 1;
    expect(sharpeRatios(L, 24, sparse)[0]!.sharpe_ratio).toBeNull();
    // one more observed month (17) → 3, enough
    sparse[17] = 1;
    expect(sharpeRatios(L, 24, sparse)[0]!.sharpe_ratio).toBeCloseTo(1.381927, 5);
    // nothing observed at all
    expect(sharpeRatios(L, 24, new Uint8Array(25))[0]!.sharpe_ratio).toBeNull();
  });
});
