/**
 * Time series of the synthetic market: the monthly grid from 1986-01, the market factor (log
 * level with booms and busts), daily reference FX rates for the 16 currencies, and the synthetic
 * benchmark series of the index chart. All deterministic for a seed and an as-of date.
 */
import { dayNumber } from "../../market/time";
import { FIRST_YEAR, monthDate, monthIndex } from "../../market/calendar";
import type { Random } from "../../market/random";

/**
 * Regimes of the art market by period, with monthly log drift: a booming late 1980s, the early
 * 1990s bust, the 2000s boom, the 2008–09 crash, the 2010s recovery, and so on. Months after the
 * last listed period draw a regime at random.
 */
const REGIMES: readonly [string, number, number][] = [
  // [first month, drift per month, volatility per month]
  ["1986-01", 0.014, 0.025],
  ["1990-07", -0.014, 0.03],
  ["1994-01", 0.003, 0.02],
  ["1998-01", 0.007, 0.02],
  ["2001-01", -0.002, 0.025],
  ["2003-07", 0.011, 0.02],
  ["2008-09", -0.025, 0.04],
  ["2009-07", 0.008, 0.025],
  ["2015-01", -0.003, 0.02],
  ["2017-01", 0.006, 0.02],
  ["2020-03", -0.008, 0.035],
  ["2021-01", 0.009, 0.025],
  ["2022-07", -0.006, 0.025],
  ["2024-07", 0.001, 0.02],
];

/** The market factor: monthly log level, 0 at 1986-01. Returns `months` points. */
export function marketFactor(rng: Random, months: number): Float64Array {
  const m = new Float64Array(months);
  let level = 0;
  for (let t = 0; t < months; t++) {
    level += marketStep(rng, t);
    m[t] = level;
  }
  return m;
}

const REGIME_STARTS = REGIMES.map(([d, drift, vol]) => [monthIndex(d), drift, vol] as const);

/**
 * The market factor's move into month `t` (0 for the first month): the regime's drift and
 * volatility, or past the last regime by two years a drift drawn each month. `feed` draws the
 * months after a market's as-of month with it.
 */
export function marketStep(rng: Random, t: number): number {
  let regime = REGIME_STARTS[0]!;
  for (const r of REGIME_STARTS) if (r[0] <= t) regime = r;
  const beyond = t > REGIME_STARTS[REGIME_STARTS.length - 1]![0] + 24;
  const drift = beyond ? 0.003 + 0.006 * rng.normal() : regime[1];
  const vol = beyond ? 0.02 : regime[2];
  return t > 0 ? drift + vol * rng.normal() : 0;
}

/** Reference levels, USD per unit: [1986-01, the as-of date], and daily volatility. */
const FX_LEVELS: Readonly<Record<string, readonly [number, number, number]>> = {
  USD: [1, 1, 0],
  GBP: [1.44, 1.27, 0.005],
  EUR: [0.98, 1.08, 0.005],
  CHF: [0.5, 1.13, 0.005],
  JPY: [0.0051, 0.0066, 0.006],
  CNY: [0.31, 0.138, 0.002],
  HKD: [0.128, 0.128, 0.0004],
  SGD: [0.46, 0.74, 0.003],
  TWD: [0.026, 0.031, 0.003],
  KRW: [0.00113, 0.00072, 0.005],
  INR: [0.081, 0.012, 0.003],
  AUD: [0.68, 0.65, 0.006],
  CAD: [0.71, 0.73, 0.004],
  NZD: [0.52, 0.6, 0.006],
  NOK: [0.134, 0.093, 0.005],
  RUB: [0.9, 0.011, 0.007],
};

export interface FxTable {
  /** First day (1986-01-01) as a day number. */
  firstDay: number;
  days: number;
  codes: readonly string[];
  /** rates[c][d]: USD per unit of codes[c] on firstDay + d. */
  rates: Float64Array[];
  usdPerUnit(code: string, day: string): number;
}

/**
 * Daily reference rates from 1986-01-01 to `lastDay`: per currency an Ornstein–Uhlenbeck walk in
 * log space around a line from its 1986 level to its level at `asOf`, so each series wanders but
 * lands where a reader expects it.
 */
export function fxRates(rng: Random, codes: readonly string[], asOf: string, lastDay: string): FxTable {
  const firstDay = dayNumber(`${FIRST_YEAR}-01-01`);
  const days = dayNumber(lastDay) - firstDay + 1;
  const span = dayNumber(asOf) - firstDay;
  const rates = codes.map((code) => {
    const [start, end, vol] = FX_LEVELS[code] ?? [1, 1, 0.005];
    const out = new Float64Array(days);
    const a = Math.log(start);
    const b = Math.log(end);
    let dev = 0;
    for (let d = 0; d < days; d++) {
      const trend = a + ((b - a) * Math.min(d, span)) / span;
      dev = dev * FX_REVERSION + vol * rng.normal();
      out[d] = Math.exp(trend + dev);
    }
    return out;
  });
  return fxTable(firstDay, days, codes, rates);
}

/** The walk's daily pull back to its line (the deviation kept from one day to the next). */
export const FX_REVERSION = 0.995;

/**
 * The next day's rate of `code` after `rate`, by the walk fxRates draws: past the as-of date its
 * line is flat at the present-day level, so the deviation is the log distance to that level.
 * `feed` draws the days after a market's as-of date with it.
 */
export function nextFxRate(rng: Random, code: string, rate: number): number {
  const [, end, vol] = FX_LEVELS[code] ?? [1, 1, 0.005];
  if (vol === 0) return rate;
  const b = Math.log(end);
  const dev = (Math.log(rate) - b) * FX_REVERSION + vol * rng.normal();
  return Math.exp(b + dev);
}

/** An FxTable over daily rates (`rates[c][d]`: USD per unit of codes[c] on firstDay + d). */
export function fxTable(firstDay: number, days: number, codes: readonly string[], rates: Float64Array[]): FxTable {
  const index = new Map(codes.map((c, i) => [c, i]));
  return {
    firstDay,
    days,
    codes,
    rates,
    usdPerUnit(code: string, day: string): number {
      const c = index.get(code);
      if (c === undefined) throw new Error(`no rates for ${code}`);
      const d = Math.min(days - 1, Math.max(0, dayNumber(day) - firstDay));
      return rates[c]![d]!;
    },
  };
}

export interface BenchmarkDef {
  id: string;
  label: string;
  firstMonth: string;
  start: number;
  end: number;
  vol: number;
}

export const BENCHMARKS: readonly BenchmarkDef[] = [
  { id: "SNP500", label: "S&P 500 (synthetic)", firstMonth: "1986-01", start: 211, end: 5900, vol: 0.045 },
  { id: "GOLD", label: "Gold, USD per troy ounce (synthetic)", firstMonth: "1986-01", start: 345, end: 2650, vol: 0.04 },
  { id: "DOW_JONES", label: "Dow Jones Industrial Average (synthetic)", firstMonth: "1986-01", start: 1570, end: 43000, vol: 0.045 },
  { id: "MSCI_WORLD_REAL_ESTATE", label: "MSCI World Real Estate (synthetic)", firstMonth: "1995-01", start: 100, end: 310, vol: 0.05 },
  { id: "BITCOIN_USD", label: "Bitcoin in USD (synthetic)", firstMonth: "2010-07", start: 0.07, end: 95000, vol: 0.25 },
];

/** A monthly series from `firstMonth` to `lastMonth`: a random walk bridged to end at `end`. */
export function benchmarkSeries(rng: Random, def: BenchmarkDef, lastMonth: number): { month: string; value: number }[] {
  const first = monthIndex(def.firstMonth);
  const n = lastMonth - first + 1;
  if (n <= 0) return [];
  const walk = new Float64Array(n);
  for (let i = 1; i < n; i++) walk[i] = walk[i - 1]! + def.vol * rng.normal();
  const a = Math.log(def.start);
  const b = Math.log(def.end);
  const out: { month: string; value: number }[] = [];
  for (let i = 0; i < n; i++) {
    const frac = n === 1 ? 1 : i / (n - 1);
    const bridged = walk[i]! - frac * walk[n - 1]!;
    const value = Math.exp(a + (b - a) * frac + bridged);
    out.push({ month: monthDate(first + i).slice(0, 7), value: Math.round(value * 100) / 100 });
  }
  return out;
}

/**
 * Last day that gets reference rates: the as-of date. A market knows no later rate (a forecaster
 * could not): an upcoming lot is priced in USD at the latest rate known at the as-of date, and
 * `feed` draws the rates of the days after it (FX_REVERSION, continueFx).
 */
export function fxLastDay(asOf: string): string {
  return asOf;
}
