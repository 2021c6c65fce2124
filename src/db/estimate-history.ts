/**
 * Estimates as they were served (docs/api-artworks.md#estimates-as-of-a-day): market.db's
 * estimate_history keeps the values each merge replaced, with the day the new ones took effect
 * (`until`; written by src/pipeline/import/estimate-history.ts), from the snapshot's
 * `estimates_since`. The values in effect on a day are the first replaced ones after it, else the
 * artworks row's (the current ones).
 */
import type { Database } from "bun:sqlite";
import { dayNumber, fromDayNumber } from "../market/time";

/** A work's estimate values, as the artworks row and estimate_history hold them (USD). */
export interface EstimateValues {
  estimate_usd: number | null;
  estimate_min_usd: number | null;
  estimate_max_usd: number | null;
  price_change_12mo: number | null;
  price_change_24mo: number | null;
}

const VALUES = ["estimate_usd", "estimate_min_usd", "estimate_max_usd", "price_change_12mo", "price_change_24mo"] as const;

/** The first day a snapshot's history answers for: its estimates_since, else its as-of date (no history kept yet). */
export function estimatesSince(db: Database): string | null {
  return (
    db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key IN ('estimates_since', 'as_of') ORDER BY key = 'estimates_since' DESC LIMIT 1").get()?.value ?? null
  );
}

/** The values in effect on `day` of the works among `ids` whose values then were not the current ones. */
export function estimatesOn(db: Database, ids: readonly number[], day: string): Map<number, EstimateValues> {
  const out = new Map<number, EstimateValues>();
  if (!ids.length) return out;
  const rows = db
    .query<EstimateValues & { artwork_id: number }, [string, number]>(
      `SELECT j.value AS artwork_id, ${VALUES.map((c) => `h.${c}`).join(", ")}
       FROM json_each(?1) j JOIN estimate_history h ON h.artwork_id = j.value
        AND h.until = (SELECT min(until) FROM estimate_history x WHERE x.artwork_id = j.value AND x.until > ?2)`,
    )
    .all(JSON.stringify(ids), dayNumber(day));
  for (const { artwork_id, ...values } of rows) out.set(artwork_id, values);
  return out;
}

/** A period of a work's estimate: the values and the first day they were served. */
export interface EstimatePeriod extends EstimateValues {
  from: string;
}

/**
 * A work's estimate periods, oldest first: each value the history holds from the day it took
 * effect (the first from estimates_since, else `asOf`), then `current` from the last change.
 */
export function estimatePeriods(db: Database, id: number, current: EstimateValues, asOf: string): EstimatePeriod[] {
  const rows = db.query<EstimateValues & { until: number }, [number]>(`SELECT until, ${VALUES.join(", ")} FROM estimate_history WHERE artwork_id = ? ORDER BY until`).all(id);
  const periods: EstimatePeriod[] = [];
  let from = estimatesSince(db) ?? asOf;
  for (const { until, ...values } of rows) {
    periods.push({ from, ...values });
    from = fromDayNumber(until);
  }
  periods.push({ from, ...current });
  return periods;
}
