/**
 * Returns: compound annual return of a repeat sale, CAGR, repeat-sale pairs, median car per year,
 * momentum and Sharpe ratios. Pure, no I/O, imports only the other analytics modules.
 * docs/formulas.md, "Returns".
 */
import { median } from "./stats";

/**
 * Compound annual return in PERCENT per year: ((sell / buy)^(12 / months) − 1) · 100.
 * NaN when a price is not > 0 or months is not > 0 (or anything is non-finite).
 */
export function compoundAnnualReturn(buyPrice: number, sellPrice: number, months: number): number {
  if (!(buyPrice > 0) || !(sellPrice > 0) || !(months > 0)) return NaN;
  if (!Number.isFinite(buyPrice) || !Number.isFinite(sellPrice) || !Number.isFinite(months)) return NaN;
  return (Math.pow(sellPrice / buyPrice, 12 / months) - 1) * 100;
}

/**
 * Compound annual growth rate as a FRACTION per year (0.12 = 12 %): (end / start)^(1 / years) − 1.
 * NaN when a value is not > 0 or years is not > 0 (or anything is non-finite).
 */
export function cagr(startValue: number, endValue: number, years: number): number {
  if (!(startValue > 0) || !(endValue > 0) || !(years > 0)) return NaN;
  if (!Number.isFinite(startValue) || !Number.isFinite(endValue) || !Number.isFinite(years)) return NaN;
  return Math.pow(endValue / startValue, 1 / years) - 1;
}

// ───────────────────────────── Dates ─────────────────────────────

const C0 = 48; // '0'

/** Parses "YYYY-MM-DD" (only the first 10 characters are read) into y·10000 + m·100 + d; RangeError when malformed. */
export function dateKey(date: string): number {
  if (date.length < 10 || date.charCodeAt(4) !== 45 || date.charCodeAt(7) !== 45) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  let y = 0;
  for (let i = 0; i < 4; i++) y = y * 10 + digit(date, i);
  const m = digit(date, 5) * 10 + digit(date, 6);
  const d = digit(date, 8) * 10 + digit(date, 9);
  if (m < 1 || m > 12 || d < 1 || d > 31) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return y * 10000 + m * 100 + d;
}

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - C0;
  if (c < 0 || c > 9) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(s)}`);
  return c;
}

/**
 * Whole months from date a to date b (both YYYY-MM-DD), counting completed months like an age:
 * 12·(y_b − y_a) + (m_b − m_a), minus 1 when day_b < day_a. 2020-01-15 → 2021-01-14 is 11,
 * → 2021-01-15 is 12. Negative when b is before a.
 */
export function wholeMonthsBetween(a: string, b: string): number {
  return wholeMonthsBetweenKeys(dateKey(a), dateKey(b));
}

function wholeMonthsBetweenKeys(ka: number, kb: number): number {
  const ya = Math.floor(ka / 10000);
  const ma = Math.floor(ka / 100) % 100;
  const da = ka % 100;
  const yb = Math.floor(kb / 10000);
  const mb = Math.floor(kb / 100) % 100;
  const db = kb % 100;
  let n = 12 * (yb - ya) + (mb - ma);
  if (kb >= ka) {
    if (db < da) n -= 1;
  } else if (db > da) n += 1;
  return n;
}

// ───────────────────────────── Repeat sales ─────────────────────────────

export interface LotForPairs {
  lotId: number;
  artworkId: number;
  /** YYYY-MM-DD */
  date: string;
  priceUsd: number | null;
  sold: boolean;
}

export interface RepeatSalePair {
  artworkId: number;
  buyLotId: number;
  sellLotId: number;
  buyDate: string;
  sellDate: string;
  periodMonths: number;
  /** Compound annual return, percent per year. */
  car: number;
}

/** Holding periods shorter than this many whole months are excluded. */
export const MIN_HOLDING_MONTHS = 12;

/**
 * Repeat-sale pairs: for each artwork, its SOLD lots with a price > 0 in order of (date, lotId);
 * each consecutive two form a pair (unsold/passed/withdrawn lots in between are ignored).
 * periodMonths = wholeMonthsBetween(buyDate, sellDate); pairs with periodMonths < 12 are
 * dropped, but the later lot still becomes the buy side of the next pair.
 * car = compoundAnnualReturn(buy, sell, periodMonths), percent per year.
 * Output sorted by (sellDate, artworkId, sellLotId).
 */
export function repeatSalePairs(lots: readonly LotForPairs[]): RepeatSalePair[] {
  const idx: number[] = [];
  const keys: number[] = new Array(lots.length);
  for (let i = 0; i < lots.length; i++) {
    const l = lots[i]!;
    const p = l.priceUsd;
    if (!l.sold || p === null || !(p > 0) || !Number.isFinite(p)) continue;
    keys[i] = dateKey(l.date);
    idx.push(i);
  }
  idx.sort((a, b) => {
    const la = lots[a]!;
    const lb = lots[b]!;
    return la.artworkId - lb.artworkId || keys[a]! - keys[b]! || la.lotId - lb.lotId;
  });
  const out: RepeatSalePair[] = [];
  for (let s = 1; s < idx.length; s++) {
    const ia = idx[s - 1]!;
    const ib = idx[s]!;
    const a = lots[ia]!;
    const b = lots[ib]!;
    if (a.artworkId !== b.artworkId) continue;
    const months = wholeMonthsBetweenKeys(keys[ia]!, keys[ib]!);
    if (months < MIN_HOLDING_MONTHS) continue;
    out.push({
      artworkId: a.artworkId,
      buyLotId: a.lotId,
      sellLotId: b.lotId,
      buyDate: a.date.slice(0, 10),
      sellDate: b.date.slice(0, 10),
      periodMonths: months,
      car: compoundAnnualReturn(a.priceUsd as number, b.priceUsd as number, months),
    });
  }
  out.sort((x, y) => (x.sellDate < y.sellDate ? -1 : x.sellDate > y.sellDate ? 1 : x.artworkId - y.artworkId || x.sellLotId - y.sellLotId));
  return out;
}

/**
 * Median car per calendar year of the sell date, ascending by year; years without pairs (or
 * with only NaN cars) are omitted. car stays in the unit given (percent per year).
 */
export function medianCarByYear(pairs: readonly { sellDate: string; car: number }[]): { year: number; car: number }[] {
  const byYear = new Map<number, number[]>();
  for (const p of pairs) {
    if (!Number.isFinite(p.car)) continue;
    const year = Math.floor(dateKey(p.sellDate) / 10000);
    let list = byYear.get(year);
    if (!list) byYear.set(year, (list = []));
    list.push(p.car);
  }
  const out: { year: number; car: number }[] = [];
  for (const year of [...byYear.keys()].sort((a, b) => a - b)) {
    const m = median(byYear.get(year)!);
    if (m !== null) out.push({ year, car: m });
  }
  return out;
}

// ───────────────────────────── Momentum ─────────────────────────────

/**
 * Price momentum over k months as a FRACTION: exp(L[end] − L[end − k]) − 1, from a monthly LOG
 * index. null when end or end − k is outside the array, k is not a positive integer, or either
 * value is not finite.
 */
export function momentum(logIndex: ArrayLike<number>, end: number, monthsBack: number): number | null {
  if (!Number.isInteger(end) || !Number.isInteger(monthsBack) || monthsBack < 1) return null;
  const start = end - monthsBack;
  if (start < 0 || end >= logIndex.length) return null;
  const a = logIndex[start] as number;
  const b = logIndex[end] as number;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  return Math.exp(b - a) - 1;
}

/** momentum × 100 (percent), for the artist fields price_momentum_percentage_12mo / _5y. */
export function momentumPercent(logIndex: ArrayLike<number>, end: number, monthsBack: number): number | null {
  const m = momentum(logIndex, end, monthsBack);
  return m === null ? null : m * 100;
}

// ───────────────────────────── Sharpe ratios ─────────────────────────────

export const SHARPE_HORIZONS_YEARS = [1, 2, 3, 5, 7, 10] as const;
/** A horizon needs at least this share of its months to carry observations. */
export const SHARPE_MIN_OBSERVED_SHARE = 0.25;
export const DEFAULT_RISK_FREE_ANNUAL = 0.02;

/**
 * Sharpe ratio per horizon H ∈ {1, 2, 3, 5, 7, 10} years, k = 12·H months, start s = end − k:
 * monthly log returns r_t = L[t] − L[t−1] for t = s+1..end (k of them),
 *     sharpe = (12·mean(r) − riskFreeAnnual) / (√12 · sd(r))     (sd: sample, n − 1)
 * null ("insufficient sales history") when s < 0, s is before the first observed month, fewer
 * than ⌈0.25·k⌉ of the months s+1..end are observed, a value is not finite, or sd = 0.
 * The risk-free rate is subtracted as given (a simple annual rate, not converted to log).
 */
export function sharpeRatios(
  logIndex: ArrayLike<number>,
  end: number,
  observedMonths: ArrayLike<boolean | number>,
  riskFreeAnnual = DEFAULT_RISK_FREE_ANNUAL,
): { horizon_years: number; sharpe_ratio: number | null }[] {
  let firstObserved = -1;
  const lim = Math.min(observedMonths.length, end + 1);
  for (let t = 0; t < lim; t++) {
    if (observedMonths[t]) {
      firstObserved = t;
      break;
    }
  }
  const okEnd = Number.isInteger(end) && end >= 0 && end < logIndex.length;
  return SHARPE_HORIZONS_YEARS.map((h) => ({
    horizon_years: h,
    sharpe_ratio: okEnd && firstObserved >= 0 ? sharpeOne(logIndex, end, 12 * h, observedMonths, firstObserved, riskFreeAnnual) : null,
  }));
}

function sharpeOne(L: ArrayLike<number>, end: number, k: number, observed: ArrayLike<boolean | number>, firstObserved: number, rf: number): number | null {
  const s = end - k;
  if (s < 0 || s < firstObserved) return null;
  let nObs = 0;
  for (let t = s + 1; t <= end; t++) if (observed[t]) nObs++;
  if (nObs < Math.ceil(SHARPE_MIN_OBSERVED_SHARE * k)) return null;
  // mean and sample sd of the k monthly log returns (two-pass)
  let sum = 0;
  for (let t = s + 1; t <= end; t++) {
    const r = (L[t] as number) - (L[t - 1] as number);
    if (!Number.isFinite(r)) return null;
    sum += r;
  }
  const mean = sum / k;
  let ss = 0;
  for (let t = s + 1; t <= end; t++) {
    const dv = (L[t] as number) - (L[t - 1] as number) - mean;
    ss += dv * dv;
  }
  const sd = Math.sqrt(ss / (k - 1));
  if (!(sd > 1e-12)) return null;
  return (12 * mean - rf) / (Math.sqrt(12) * sd);
}
