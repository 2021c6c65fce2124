/**
 * The offsets with which the derivation reads a lot as a reading of its work's value: a sold
 * lot's hammer by whether it had a reserve, and a house estimate's midpoint by the lot's outcome
 * (docs/derivation.md, "Calibration"). Pure functions over an artist's lots and sums kept by pass 1.
 */
import { monthIndex } from "../../market/calendar";
import { estimateMidLog, type LotRow } from "./artist";

/** A sum and a count. */
export interface Mean {
  sum: number;
  n: number;
}

/** What pass 1 counts for the offsets. */
export interface OffsetSums {
  /** Sold lots with a hammer: [with a reserve, without]. */
  sold: [number, number];
  /** Sold lots with both estimate bounds, log hammer − log estimate midpoint: [with a reserve, without]. */
  estimateDiff: [Mean, Mean];
  /** Bought-in lots with both estimate bounds. */
  passed: number;
}

/** Added to a sold lot's log hammer: with a reserve, without. */
export interface HammerOffsets {
  reserved: number;
  unreserved: number;
}

/** Fewer sold lots than this with or without a reserve (or of either with an estimate): no split by reserve. */
export const RESERVE_SPLIT_MIN = 50;

/**
 * The offsets for a reserve gap (how much higher over its work's value a hammer with a reserve
 * sits than one without) and a bought-in lot's estimate offset (undefined: not measured):
 * - hammers: −(1 − p)·gap with a reserve, p·gap without (p: the share of sold lots with a
 *   reserve), so that both read the same value and the readings keep the scale of a sold lot's
 *   hammer, reserve unknown (the hammer an estimate predicts);
 * - a sold lot's estimate (`sold`, `sold_unreserved`): the mean of log hammer + its hammer
 *   offset − log midpoint over such lots;
 * - `withdrawn` and `upcoming`: an estimate is set before the outcome, and a lot without a reserve
 *   sells whatever its estimate, so an estimate no outcome chose sits where a sold unreserved
 *   lot's does;
 * - `passed`: as given.
 * Without enough lots on both sides of the reserve: no hammer offsets, `sold` over every sold
 * lot, and `withdrawn`/`upcoming` where every lot offered sits, sold or bought in, by their counts.
 */
export function readingOffsets(sums: OffsetSums, reserveGap: number, passed: number | undefined): { estOffsets: Record<string, number>; hammerOffsets: HammerOffsets } {
  const [withReserve, without] = sums.estimateDiff;
  const all = withReserve.n + without.n;
  const estOffsets: Record<string, number> = { sold: all > 0 ? (withReserve.sum + without.sum) / all : 0 };
  const hammerOffsets: HammerOffsets = { reserved: 0, unreserved: 0 };
  if (passed !== undefined) estOffsets.passed = passed;
  const split = Math.min(sums.sold[0], sums.sold[1], withReserve.n, without.n) >= RESERVE_SPLIT_MIN;
  if (split) {
    const p = sums.sold[0] / (sums.sold[0] + sums.sold[1]);
    hammerOffsets.reserved = -(1 - p) * reserveGap;
    hammerOffsets.unreserved = p * reserveGap;
    estOffsets.sold = withReserve.sum / withReserve.n + hammerOffsets.reserved;
    estOffsets.sold_unreserved = without.sum / without.n + hammerOffsets.unreserved;
    estOffsets.withdrawn = estOffsets.upcoming = estOffsets.sold_unreserved;
  } else if (passed !== undefined && all + sums.passed > 0) {
    estOffsets.withdrawn = estOffsets.upcoming = (all * estOffsets.sold! + sums.passed * passed) / (all + sums.passed);
  }
  return { estOffsets, hammerOffsets };
}

/** One lot as the pairs below read it. */
interface PairLot {
  status: string;
  m: number;
  /** Log hammer plus its offset; null unless sold. */
  hammer: number | null;
  mid: number | null;
  unreserved: boolean;
}

function byWork(lots: readonly LotRow[], months: number, hammerOffsets: HammerOffsets): Iterable<PairLot[]> {
  const out = new Map<number, PairLot[]>();
  for (const l of lots) {
    const unreserved = l.reserve_mark === 0;
    const entry: PairLot = {
      status: l.status,
      m: Math.max(0, Math.min(months - 1, monthIndex(l.sale_datetime))),
      hammer: l.status === "sold" && l.hammer_usd! > 0 ? Math.log(l.hammer_usd!) + (unreserved ? hammerOffsets.unreserved : hammerOffsets.reserved) : null,
      mid: estimateMidLog(l.estimate_min_usd, l.estimate_max_usd),
      unreserved,
    };
    const list = out.get(l.artwork_id);
    if (list) list.push(entry);
    else out.set(l.artwork_id, [entry]);
  }
  return out.values();
}

/**
 * Adds to `acc`, for each sold lot j and each bought-in lot k with an estimate of the same work,
 * log hammer_j (with its offset) − log midpoint_k − (index(t_j) − index(t_k)): their mean is the
 * bought-in estimate's offset (the work's own value cancels, the index takes out the moves between).
 */
export function addPassedPairs(lots: readonly LotRow[], index: ArrayLike<number>, hammerOffsets: HammerOffsets, acc: Mean): void {
  for (const list of byWork(lots, index.length, hammerOffsets)) {
    for (const s of list) {
      if (s.hammer === null) continue;
      for (const o of list) {
        if (o.status !== "passed" || o.mid === null) continue;
        acc.sum += s.hammer - o.mid - (index[s.m]! - index[o.m]!);
        acc.n++;
      }
    }
  }
}

/**
 * Adds to `acc`, for each sold lot with a reserve and each sold lot without one of the same work,
 * the difference of their log hammers less the index's move between them: their mean is the
 * reserve gap (sales in either order, so errors of the index cancel in the mean).
 */
export function addReserveGapPairs(lots: readonly LotRow[], index: ArrayLike<number>, acc: Mean): void {
  for (const list of byWork(lots, index.length, { reserved: 0, unreserved: 0 })) {
    for (const s of list) {
      if (s.hammer === null || s.unreserved) continue;
      for (const o of list) {
        if (o.hammer === null || !o.unreserved) continue;
        acc.sum += s.hammer - o.hammer - (index[s.m]! - index[o.m]!);
        acc.n++;
      }
    }
  }
}
