import { expect, test } from "bun:test";
import { brier, decileTable, type ForwardLot, hammerScores, type Scored, scoreForward, scoredSold } from "../../bench/upcoming";

/** A scored lot: chance `p`, outcome `sold`, a hammer and estimates where given. */
const lot = (p: number, sold: number, extra: Partial<Scored> = {}): Scored => ({
  artist_id: 1,
  artwork_id: 1,
  month: 0,
  sold,
  reserve: 0,
  hammer: null,
  lo: null,
  hi: null,
  lo_native: null,
  p,
  eh: null,
  elo: null,
  ehi: null,
  ...extra,
});

test("decileTable: ten equal groups by prediction, each against its observed rate", () => {
  // 100 lots: predictions 0.005..0.995; the lower half never sells, the upper half always does
  const lots = Array.from({ length: 100 }, (_, i) => lot((i + 0.5) / 100, i >= 50 ? 1 : 0));
  const t = decileTable(
    lots,
    (s) => s.p!,
    (s) => s.sold,
  );
  expect(t.deciles).toHaveLength(10);
  expect(t.deciles.every((d) => d.n === 10)).toBe(true);
  expect(t.deciles[0]!.predicted).toBeCloseTo(0.05, 12);
  expect(t.deciles[0]!.observed).toBe(0);
  expect(t.deciles[9]!.observed).toBe(1);
  // the worst groups are the fifth (mean 0.45, none sold) and the sixth (0.55, all sold)
  expect(t.worst).toBeCloseTo(0.45, 12);
  expect(t.cells.split(" ")[0]).toBe("5/0");
  // under ten lots: empty groups are skipped, not NaN
  const few = decileTable(
    lots.slice(0, 5),
    (s) => s.p!,
    (s) => s.sold,
  );
  expect(few.deciles.reduce((s, d) => s + d.n, 0)).toBe(5);
  expect(Number.isFinite(few.worst)).toBe(true);
});

test("brier: the mean squared difference to the outcome", () => {
  const lots = [lot(0.8, 1), lot(0.8, 0), lot(0.5, 1), lot(0.2, 0)];
  expect(brier(lots, (s) => s.p!)).toBeCloseTo((0.04 + 0.64 + 0.25 + 0.04) / 4, 12);
  expect(brier(lots, () => 0.5)).toBeCloseTo(0.25, 12);
});

test("hammerScores: median errors against the midpoints, and the band's coverage", () => {
  const sold = [
    // hammer 100, estimate 80-120 (midpoint 100, geometric ~97.98), forecast 110, band 90-120
    lot(0.9, 1, { hammer: 100, lo: 80, hi: 120, eh: 110, elo: 90, ehi: 120 }),
    // hammer 200, estimate 100-200 (midpoint 150), forecast 200 exactly, band 150-250
    lot(0.9, 1, { hammer: 200, lo: 100, hi: 200, eh: 200, elo: 150, ehi: 250 }),
    // hammer 50, estimate 60-100 (midpoint 80), forecast 40, band 30-45: outside
    lot(0.9, 1, { hammer: 50, lo: 60, hi: 100, eh: 40, elo: 30, ehi: 45 }),
  ];
  // an unsold lot and a sold one with no forecast are left out
  const all = [...sold, lot(0.5, 0, { lo: 10, hi: 20, eh: 15 }), lot(0.5, 1, { hammer: 10, lo: 10, hi: 20 })];
  expect(scoredSold(all)).toHaveLength(3);
  const h = hammerScores(scoredSold(all));
  expect(h.lots).toBe(3);
  expect(h.mdape).toBeCloseTo(0.1, 12); // errors 0.1, 0, 0.2
  expect(h.mdale).toBeCloseTo(Math.log(1.1), 12); // |log| 0.0953, 0, 0.223
  expect(h.mdapeMid).toBeCloseTo(0.25, 12); // errors 0, 0.25, 0.6
  expect(h.mdaleMid).toBeCloseTo(Math.abs(Math.log(0.75)), 12);
  expect(h.mdaleGeo).toBeCloseTo(Math.abs(Math.log(Math.sqrt(100 * 200) / 200)), 12); // 0.0204, 0.3466, 0.2554
  expect(h.coverage).toBeCloseTo(2 / 3, 12);
});

test("scoreForward: Brier skill against the base rate and the house's rate, pooled figures", () => {
  const forward = (p: number, sold: number, base: number, house: number): ForwardLot => ({ ...lot(p, sold), base, house, oracle: p });
  const lots = [forward(0.9, 1, 0.5, 0.6), forward(0.1, 0, 0.5, 0.6), forward(0.8, 1, 0.5, 0.6), forward(0.3, 0, 0.5, 0.4)];
  const f = scoreForward(lots, 1);
  const model = (0.01 + 0.01 + 0.04 + 0.09) / 4;
  expect(f.lots).toBe(4);
  expect(f.sold).toBe(2);
  expect(f.bssBase).toBeCloseTo(1 - model / 0.25, 12);
  expect(f.bssHouse).toBeCloseTo(1 - model / ((0.16 + 0.36 + 0.16 + 0.16) / 4), 12);
  // the oracle here is the model itself
  expect(f.oracleBss).toBeCloseTo(f.bssBase, 12);
  expect(f.hammer.lots).toBe(0);
});
