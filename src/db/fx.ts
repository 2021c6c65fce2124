/**
 * Daily reference rates of the market snapshot, held in memory (16 currencies × ~15k days is
 * about 2 MB), for the *_preferred values: USD amounts converted at the rate of the sale's day (a
 * day after the as-of date: the latest rate known at the as-of date).
 */
import type { Database } from "bun:sqlite";
import { dayNumber } from "../market/time";

/**
 * A native amount as USD whole cents at a day's rate: what the lots' `*_usd_cents` columns hold
 * (an integral value takes 1-6 bytes on disk where a REAL takes 8). Readers divide by 100
 * (`USD_OF_CENTS`), which gives the same double as the amount rounded to two decimals.
 */
export const usdCents = (amount: number, usdPerUnit: number): number => Math.round(amount * usdPerUnit * 100);

/** The SQL of a lot's USD amount read from its cents column (`usdOf("l.hammer_usd_cents")`). */
export const usdOf = (centsColumn: string): string => `${centsColumn} / 100.0`;

/** A lot's four USD amounts read from their cents columns, named as before (`hammer_usd`, …); `table`: the lots' alias, if any. */
export const lotUsdColumns = (table = ""): string =>
  ["hammer_usd", "estimate_min_usd", "estimate_max_usd", "premium_usd"].map((c) => `${usdOf(`${table ? `${table}.` : ""}${c}_cents`)} AS ${c}`).join(", ");

/** `code`'s latest rate in `market`'s fx_rates on or before `day` (YYYY-MM-DD), with its day; null: none. One seek of the (code, day) key. */
export function latestRate(market: Database, code: string, day: string): { day: string; rate: number } | null {
  return market
    .query<{ day: string; rate: number }, [string, string]>("SELECT day, usd_per_unit AS rate FROM fx_rates WHERE code = ? AND day <= ? ORDER BY day DESC LIMIT 1")
    .get(code, day);
}

export class FxCache {
  private constructor(
    private firstDay: number,
    private rates: Map<string, Float64Array>,
    private loader: (() => FxCache) | null = null,
  ) {}

  /** A cache that reads the rates on first use (keeps the service's start-up fast). */
  static lazy(market: Database): FxCache {
    return new FxCache(0, new Map(), () => FxCache.load(market));
  }

  private ensure(): void {
    if (!this.loader) return;
    const loaded = this.loader();
    this.loader = null;
    this.firstDay = loaded.firstDay;
    this.rates = loaded.rates;
  }

  /**
   * The market's rates up to its as-of date (market_meta): a day after it (an upcoming lot's sale
   * day) is converted at the latest rate known at the as-of date, never at a later one.
   */
  static load(market: Database): FxCache {
    const asOf = market.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()?.value ?? "9999-12-31";
    // one pass over the table (about 240k rows): each currency's days and rates, and the span they cover
    const byCode = new Map<string, { days: number[]; rates: number[] }>();
    const dayNumbers = new Map<string, number>();
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const row of market.query<unknown, [string]>("SELECT code, day, usd_per_unit FROM fx_rates WHERE day <= ?").values(asOf)) {
      const [code, day, rate] = row as [string, string, number];
      let d = dayNumbers.get(day);
      if (d === undefined) {
        d = dayNumber(day);
        dayNumbers.set(day, d);
        if (d < first) first = d;
        if (d > last) last = d;
      }
      let series = byCode.get(code);
      if (!series) {
        series = { days: [], rates: [] };
        byCode.set(code, series);
      }
      series.days.push(d);
      series.rates.push(rate);
    }
    const rates = new Map<string, Float64Array>();
    if (!byCode.size) return new FxCache(0, rates);
    const days = last - first + 1;
    for (const [code, rows] of byCode) {
      const series = new Float64Array(days);
      rows.days.forEach((d, i) => {
        series[d - first] = rows.rates[i]!;
      });
      // carry rates over any missing days
      for (let d = 1; d < days; d++) if (series[d] === 0) series[d] = series[d - 1]!;
      rates.set(code, series);
    }
    return new FxCache(first, rates);
  }

  has(code: string): boolean {
    this.ensure();
    return code === "USD" || this.rates.has(code);
  }

  /** USD per one unit of `code` on `day` (YYYY-MM-DD, or an ISO datetime); the nearest known day outside the table. */
  usdPerUnit(code: string, day: string): number | null {
    if (code === "USD") return 1;
    this.ensure();
    const series = this.rates.get(code);
    if (!series) return null;
    const i = Math.min(series.length - 1, Math.max(0, dayNumber(day.slice(0, 10)) - this.firstDay));
    return series[i]!;
  }

  /** A USD amount in `code` at the rate of `day`, rounded to cents; null in, null out. */
  fromUsd(usd: number | null | undefined, code: string, day: string): number | null {
    if (usd === null || usd === undefined) return null;
    const rate = this.usdPerUnit(code, day);
    return rate ? Math.round((usd / rate) * 100) / 100 : null;
  }
}
