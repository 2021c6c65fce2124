/**
 * The exact count of a category's works over a creation-year range, with or without an estimate
 * range, from the counts the build keeps per category, year and estimate band (artwork_counts:
 * src/db/market-indexes/artworks.ts). The bands wholly inside the estimate range are summed; the
 * one or two bands the range's bounds fall in are counted on artworks_category_year_estimate, one
 * seek per year that has works in that band, each work checked for its band with the build's own
 * expression. Counting the range on the index instead reads every entry of it (up to 1.6M in the
 * largest category at full scale).
 */
import type { Database } from "bun:sqlite";
import { ESTIMATE_BANDS_PER_DOUBLING, estimateBandSql } from "../../../db/market-indexes/artworks";
import { MARKET_INDEX as IX } from "../../../db/market-indexes/names";
import type { Filter } from "../../query/grammar";

/** The filters a kept count answers: a creation-year range (required) and an estimate range. */
const COUNTED = new Set(["creation_year", "current_estimated_price"]);

/** The closed range of a field's __gte and __lte filters (null: no bound that side). */
function bounds(filters: readonly Filter[], field: string): { lo: number | null; hi: number | null } {
  let lo: number | null = null;
  let hi: number | null = null;
  for (const f of filters) {
    if (f.field !== field) continue;
    const v = f.value as number;
    if (f.suffix === "__gte") lo = lo === null ? v : Math.max(lo, v);
    else if (f.suffix === "__lte") hi = hi === null ? v : Math.min(hi, v);
  }
  return { lo, hi };
}

/**
 * The estimates to seek for a band: its range widened by 1 % either way, whatever log2's rounding
 * at its edges; the band check on each work read is the exact one.
 */
function bandRange(band: number): { lo: number; hi: number } {
  const k = ESTIMATE_BANDS_PER_DOUBLING;
  return { lo: band === 0 ? -Number.MAX_VALUE : 2 ** (band / k) * 0.99, hi: 2 ** ((band + 1) / k) * 1.01 };
}

/**
 * The works of `categoryId` matching `filters` (besides the category: creation_year with at least
 * one bound, and current_estimated_price, nothing else), counted from artwork_counts; null when
 * the filters are other ones or the snapshot has no such table.
 */
export function keptCategoryCount(db: Database, categoryId: number, filters: readonly Filter[], hasCounts: boolean): number | null {
  const others = filters.filter((f) => f.field !== "category_id");
  if (!hasCounts || !others.some((f) => f.field === "creation_year") || !others.every((f) => COUNTED.has(f.field) && (f.suffix === "__gte" || f.suffix === "__lte"))) return null;
  const years = bounds(others, "creation_year");
  const y1 = years.lo ?? Number.MIN_SAFE_INTEGER;
  const y2 = years.hi ?? Number.MAX_SAFE_INTEGER;
  const est = bounds(others, "current_estimated_price");
  const sum = (bandAbove: number, bandBelow: number) =>
    db
      .query<{ n: number }, [number, number, number, number, number]>(
        "SELECT coalesce(sum(n), 0) AS n FROM artwork_counts WHERE category_id = ? AND creation_year BETWEEN ? AND ? AND band > ? AND band < ?",
      )
      .get(categoryId, y1, y2, bandAbove, bandBelow)!.n;
  // no estimate range: every band, the works without an estimate (-1) too
  if (est.lo === null && est.hi === null) return sum(-2, Number.MAX_SAFE_INTEGER);
  if (est.lo !== null && est.hi !== null && est.lo > est.hi) return 0;
  const bandOf = (v: number) => db.query<{ b: number }, [number]>(`SELECT ${estimateBandSql("?1")} AS b`).get(v)!.b;
  const low = est.lo === null ? null : bandOf(est.lo);
  const high = est.hi === null ? null : bandOf(est.hi);
  // the works of one band within [from, to], in the year range: a seek per year with works in it
  const edge = (band: number, from: number | null, to: number | null) => {
    const r = bandRange(band);
    return db
      .query<{ n: number }, [number, number, number, number, number, number, number]>(
        `SELECT count(*) AS n FROM artwork_counts g CROSS JOIN artworks a INDEXED BY ${IX.artworks_category_year_estimate}
           ON a.category_id = g.category_id AND a.creation_year = g.creation_year AND a.estimate_usd >= ? AND a.estimate_usd <= ?
         WHERE g.category_id = ? AND g.creation_year BETWEEN ? AND ? AND g.band = ? AND ${estimateBandSql("a.estimate_usd")} = ?`,
      )
      .get(Math.max(r.lo, from ?? r.lo), Math.min(r.hi, to ?? r.hi), categoryId, y1, y2, band, band)!.n;
  };
  if (low !== null && high !== null && low === high) return edge(low, est.lo, est.hi);
  // bands wholly inside, then the boundary ones (without a lower bound, from band 0: a work
  // without an estimate matches no estimate range)
  let n = sum(low ?? -1, high ?? Number.MAX_SAFE_INTEGER);
  if (low !== null) n += edge(low, est.lo, null);
  if (high !== null) n += edge(high, null, est.hi);
  return n;
}
