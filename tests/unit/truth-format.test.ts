/** truth.db's compact values (src/pipeline/seed/truth.ts): log values in whole TRUTH_STEPs, monthly indexes as Int16 steps. */
import { expect, test } from "bun:test";
import { Random } from "../../src/market/random";
import { packLogIndex, TRUTH_STEP, truthSteps, unpackLogIndex } from "../../src/pipeline/seed/truth";

test("a monthly log index comes back within half a step in every month, with no drift over 50 years", () => {
  const rng = new Random(11);
  for (let trial = 0; trial < 20; trial++) {
    const months = 600;
    const index = new Float64Array(months);
    let x = rng.gauss(0, 2);
    for (let m = 0; m < months; m++) {
      // booms and busts: now and then a month moves by up to a half in log
      x += rng.gauss(0.001, 0.03) + (rng.chance(0.01) ? rng.gauss(0, 0.25) : 0);
      index[m] = x;
    }
    const { first, steps } = packLogIndex(index);
    expect(steps.byteLength).toBe(months * 2);
    const back = unpackLogIndex(first, steps);
    expect(back.length).toBe(months);
    expect(back[0]).toBe(index[0]);
    let worst = 0;
    for (let m = 0; m < months; m++) worst = Math.max(worst, Math.abs(back[m]! - index[m]!));
    expect(worst).toBeLessThanOrEqual(TRUTH_STEP / 2 + 1e-12);
    // 12-month log returns as the valuation benchmark takes them: within one step
    for (let m = 12; m < months; m++) expect(Math.abs(back[m]! - back[m - 12]! - (index[m]! - index[m - 12]!))).toBeLessThanOrEqual(TRUTH_STEP + 1e-12);
  }
});

test("a month beyond the Int16 range is caught up over the next months; empty and one-month indexes", () => {
  const index = [0, 5, 5, 5, 5];
  const packed = packLogIndex(index);
  const back = unpackLogIndex(packed.first, packed.steps);
  expect(back[1]).toBeCloseTo(32767 * TRUTH_STEP, 10);
  expect(Math.abs(back[2]! - 5)).toBeLessThanOrEqual(TRUTH_STEP / 2);
  expect(Array.from(unpackLogIndex(packLogIndex([]).first, packLogIndex([]).steps))).toEqual([]);
  expect(Array.from(unpackLogIndex(packLogIndex([1.5]).first, packLogIndex([1.5]).steps))).toEqual([1.5]);
});

test("a work's log values in whole steps", () => {
  expect(truthSteps(9.87654)).toBe(98765);
  expect(truthSteps(-0.00016)).toBe(-2);
  expect(truthSteps(0)).toBe(0);
});
