/** Descriptive statistics: every expected value worked out by hand in the comment beside it. */
import { describe, expect, test } from "bun:test";
import { correlation, mean, median, percentile, stddev, variance } from "../../../src/analytics/stats";

describe("median", () => {
  test("odd and even counts", () => {
    expect(median([3, 1, 2])).toBe(2); // sorted 1 2 3 → middle 2
    expect(median([4, 1, 3, 2])).toBe(2.5); // sorted 1 2 3 4 → (2 + 3) / 2
    expect(median(new Float64Array([10, -5]))).toBe(2.5); // (−5 + 10) / 2
  });
  test("empty and NaN", () => {
    expect(median([])).toBeNull();
    expect(median([NaN, NaN])).toBeNull(); // NaN skipped → nothing left
    expect(median([NaN, 5, 1])).toBe(3); // NaN skipped → (1 + 5) / 2
  });
  test("does not modify its input", () => {
    const xs = [5, 3, 9, 1];
    median(xs);
    expect(xs).toEqual([5, 3, 9, 1]);
  });
});

describe("percentile (linear interpolation, h = (n − 1)·p)", () => {
  const s = [1, 2, 3, 4];
  test("hand values", () => {
    expect(percentile(s, 0)).toBe(1);
    expect(percentile(s, 1)).toBe(4);
    expect(percentile(s, 0.5)).toBe(2.5); // h = 1.5 → 2 + 0.5·(3 − 2)
    expect(percentile(s, 0.25)).toBeCloseTo(1.75, 12); // h = 0.75 → 1 + 0.75·1
    expect(percentile([0, 10, 20, 30, 40], 0.95)).toBeCloseTo(38, 12); // h = 3.8 → 30 + 0.8·10
  });
  test("edges", () => {
    expect(percentile([7], 0.3)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
    expect(percentile(s, 2)).toBe(4); // p clamped to 1
    expect(percentile(s, -1)).toBe(1); // p clamped to 0
  });
});

describe("mean, variance (sample), stddev", () => {
  test("hand values", () => {
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    // 2 4 4 4 5 5 7 9: mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32, sample variance 32/7
    expect(variance([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(32 / 7, 12);
    expect(stddev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12); // 2.13809
    expect(variance([1e9 + 1, 1e9 + 2, 1e9 + 3])).toBeCloseTo(1, 6); // shift-invariant: var(1,2,3) = 1
  });
  test("too few values → NaN", () => {
    expect(mean([])).toBeNaN();
    expect(variance([1])).toBeNaN();
    expect(stddev([])).toBeNaN();
  });
  test("correlation", () => {
    expect(correlation([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(correlation([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    // x = 1 2 3, y = 1 3 2: dx = −1 0 1, dy = −1 1 0 → Σdxdy = 1, Σdx² = Σdy² = 2 → 0.5
    expect(correlation([1, 2, 3], [1, 3, 2])).toBeCloseTo(0.5, 12);
    expect(correlation([1, 1, 1], [1, 2, 3])).toBeNaN();
  });
});
