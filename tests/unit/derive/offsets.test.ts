/**
 * How lots read as their work's value (src/pipeline/derive/offsets.ts): the offsets by reserve and outcome
 * from pass 1's sums, and the pairs that measure a bought-in estimate's offset and the reserve gap,
 * on hand-made cases with known answers.
 */
import { describe, expect, test } from "bun:test";
import type { LotRow } from "../../../src/pipeline/derive/artist";
import { addPassedPairs, addReserveGapPairs, type Mean, readingOffsets } from "../../../src/pipeline/derive/offsets";
import { monthIndex } from "../../../src/market/calendar";

const MONTHS = monthIndex("2026-06-30") + 1;

function lot(id: number, artworkId: number, day: string, status: string, o: { hammer?: number; mid?: number; reserve?: number } = {}): LotRow {
  return {
    id,
    artwork_id: artworkId,
    status,
    sale_datetime: `${day}T18:00:00Z`,
    hammer_usd: o.hammer ?? null,
    premium_usd: o.hammer === undefined ? null : o.hammer * 1.25,
    // a midpoint m as its geometric mean: bounds m/1.25 and m·1.25
    estimate_min_usd: o.mid === undefined ? null : o.mid / 1.25,
    estimate_max_usd: o.mid === undefined ? null : o.mid * 1.25,
    currency: "USD",
    reserve_mark: o.reserve ?? 1,
  };
}

describe("readingOffsets", () => {
  test("split by reserve: hammers about the sold lots' mean, estimates against their own hammers", () => {
    // 300 sold lots with a reserve, 100 without (p = 0.75); log hammer − log midpoint means 0.06 and −0.04
    const sums = {
      sold: [300, 100] as [number, number],
      estimateDiff: [
        { n: 200, sum: 12 },
        { n: 80, sum: -3.2 },
      ] as [Mean, Mean],
      passed: 50,
    };
    const { estOffsets, hammerOffsets } = readingOffsets(sums, 0.08, -0.09);
    // gap 0.08: with a reserve −0.25·0.08, without +0.75·0.08; the mean over sold lots stays 0
    expect(hammerOffsets.reserved).toBeCloseTo(-0.02, 12);
    expect(hammerOffsets.unreserved).toBeCloseTo(0.06, 12);
    expect(0.75 * hammerOffsets.reserved + 0.25 * hammerOffsets.unreserved).toBeCloseTo(0, 12);
    expect(estOffsets.sold).toBeCloseTo(0.06 - 0.02, 12);
    expect(estOffsets.sold_unreserved).toBeCloseTo(-0.04 + 0.06, 12);
    // estimates no outcome chose read like a sold unreserved lot's
    expect(estOffsets.upcoming).toBeCloseTo(0.02, 12);
    expect(estOffsets.withdrawn).toBeCloseTo(0.02, 12);
    expect(estOffsets.passed).toBe(-0.09);
  });

  test("without enough lots on both sides of the reserve: one sold offset, the others by counts", () => {
    const sums = {
      sold: [400, 10] as [number, number],
      estimateDiff: [
        { n: 300, sum: 15 },
        { n: 10, sum: 0.5 },
      ] as [Mean, Mean],
      passed: 90,
    };
    const { estOffsets, hammerOffsets } = readingOffsets(sums, 0.08, -0.1);
    expect(hammerOffsets).toEqual({ reserved: 0, unreserved: 0 });
    expect(estOffsets.sold).toBeCloseTo(15.5 / 310, 12);
    expect(estOffsets.sold_unreserved).toBeUndefined();
    // (310 · 0.05 + 90 · (−0.1)) / 400
    expect(estOffsets.upcoming).toBeCloseTo((15.5 - 9) / 400, 12);
    expect(estOffsets.withdrawn).toBeCloseTo((15.5 - 9) / 400, 12);
    // no bought-in offset measured yet: those read as sold
    const none = readingOffsets(sums, 0, undefined).estOffsets;
    expect(none).toEqual({ sold: 15.5 / 310 });
  });
});

describe("offset pairs", () => {
  test("a bought-in estimate against the work's sold lots, moved along the index", () => {
    const index = new Float64Array(MONTHS);
    const a = monthIndex("2015-03-15");
    const b = monthIndex("2018-03-15");
    index[a] = 0.1;
    index[b] = 0.3;
    const lots = [
      lot(1, 7, "2015-03-15", "sold", { hammer: 1000, reserve: 1 }),
      lot(2, 7, "2018-03-15", "passed", { mid: 1500 }),
      lot(3, 7, "2020-03-15", "sold", { hammer: 1200, reserve: 0 }),
      // another work's passed lot pairs with nothing of work 7
      lot(4, 8, "2018-03-15", "passed", { mid: 99 }),
    ];
    const acc: Mean = { sum: 0, n: 0 };
    addPassedPairs(lots, index, { reserved: -0.02, unreserved: 0.06 }, acc);
    expect(acc.n).toBe(2);
    // (ln 1000 − 0.02 − ln 1500 − (0.1 − 0.3)) + (ln 1200 + 0.06 − ln 1500 − (0 − 0.3))
    const want = Math.log(1000) - 0.02 - Math.log(1500) + 0.2 + (Math.log(1200) + 0.06 - Math.log(1500) + 0.3);
    expect(acc.sum).toBeCloseTo(want, 10);
  });

  test("the reserve gap: hammers with a reserve against those without, of the same work", () => {
    const index = new Float64Array(MONTHS);
    const a = monthIndex("2012-06-15");
    index[a] = 0.05;
    const lots = [
      lot(1, 3, "2010-06-15", "sold", { hammer: 2000, reserve: 0 }),
      lot(2, 3, "2012-06-15", "sold", { hammer: 2500, reserve: 1 }),
      lot(3, 3, "2014-06-15", "passed", { mid: 3000, reserve: 1 }),
      lot(4, 3, "2016-06-15", "sold", { hammer: 2400, reserve: 0 }),
      lot(5, 4, "2016-06-15", "sold", { hammer: 100, reserve: 0 }),
    ];
    const acc: Mean = { sum: 0, n: 0 };
    addReserveGapPairs(lots, index, acc);
    expect(acc.n).toBe(2);
    const want = Math.log(2500) - Math.log(2000) - 0.05 + (Math.log(2500) - Math.log(2400) - 0.05);
    expect(acc.sum).toBeCloseTo(want, 10);
  });
});
