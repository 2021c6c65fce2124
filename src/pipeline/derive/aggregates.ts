/**
 * The market-wide tables a derivation writes last: the global art index by month (market_index,
 * writeMarketIndex) and the sales with their lots' aggregates (writeSales, also a merge's).
 */
import type { Database } from "bun:sqlite";
import { withSortRuns } from "../../db/sort-runs";
import { monthDate, monthIndex } from "../../market/calendar";
import { round4 } from "./artist";
import type { DeriveContext } from "./context";

/** The global art index: the market's level by month (100 at the first) with its sold lots. */
export function writeMarketIndex(ctx: DeriveContext, marketLevel: Float64Array): void {
  const { db, months, saleTimes } = ctx;
  const isoOf = (seconds: number) => saleTimes.iso(seconds);
  // the global art index. Both aggregates over every lot below read the table in order and group
  // with the sorter (small runs: src/db/sort-runs.ts): through lots_date or lots_sale each lot
  // would be a lookup in the table at random (docs/history/derivation.md#sales-and-the-market-index).
  const lotsPerMonth = new Int32Array(months);
  const soldPerTime = withSortRuns(db, () =>
    db.query<{ t: number; n: number }, []>("SELECT sale_datetime AS t, count(*) AS n FROM lots NOT INDEXED WHERE status = 'sold' GROUP BY sale_datetime").all(),
  );
  for (const r of soldPerTime) {
    const i = monthIndex(isoOf(r.t));
    if (i >= 0 && i < months) lotsPerMonth[i]! += r.n;
  }
  const insIndex = db.query("INSERT INTO market_index (month, value, lots) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (let t = 0; t < months; t++) insIndex.run(monthDate(t).slice(0, 7), round4(100 * Math.exp(marketLevel[t]! - marketLevel[0]!)), lotsPerMonth[t]!);
  })();
}

/**
 * Sales with their aggregates; returns their count. `only`: those sales alone (a merge's, by id,
 * through lots_sale), the others left as they are.
 */
export function writeSales(db: Database, only?: number[]): number {
  const ids = only ? JSON.stringify(only) : null;
  if (ids) db.query("DELETE FROM sales WHERE id IN (SELECT value FROM json_each(?))").run(ids);
  else db.run("DELETE FROM sales");
  const lotsOf = ids ? "lots l WHERE l.sale_id IN (SELECT value FROM json_each(?1))" : "lots l NOT INDEXED";
  const salesOf = ids ? "WHERE s.id IN (SELECT value FROM json_each(?1))" : "";
  // the lots' aggregates by sale in one pass over the table, then joined to every sale (a sale
  // without lots has zeros); a few sales' through lots_sale, with no sorter set-up (which would
  // drop the connection's temporary tables: src/db/sort-runs.ts)
  const run = (write: () => void) => (ids ? write() : withSortRuns(db, write));
  run(() =>
    db
      .query(`
    WITH a AS MATERIALIZED (
      SELECT l.sale_id,
        count(*) AS lots_count,
        count(*) FILTER (WHERE l.status = 'passed') AS not_sold,
        count(*) FILTER (WHERE l.status = 'sold' AND l.hammer > l.estimate_max) AS above,
        count(*) FILTER (WHERE l.status = 'sold' AND l.hammer BETWEEN l.estimate_min AND l.estimate_max) AS within,
        count(*) FILTER (WHERE l.status = 'sold' AND l.hammer < l.estimate_min) AS below,
        sum(l.hammer) FILTER (WHERE l.status = 'sold') AS hammer,
        sum(l.premium - l.hammer) FILTER (WHERE l.status = 'sold') AS premium_sold,
        sum(l.premium) FILTER (WHERE l.status = 'sold') AS cumulative,
        sum(l.hammer_usd_cents) FILTER (WHERE l.status = 'sold') / 100.0 AS hammer_usd,
        sum(l.premium_usd_cents - l.hammer_usd_cents) FILTER (WHERE l.status = 'sold') / 100.0 AS premium_sold_usd,
        sum(l.premium_usd_cents) FILTER (WHERE l.status = 'sold') / 100.0 AS cumulative_usd,
        sum(l.estimate_min) FILTER (WHERE l.status != 'withdrawn') AS low,
        sum(l.estimate_max) FILTER (WHERE l.status != 'withdrawn') AS high
      FROM ${lotsOf} GROUP BY l.sale_id)
    INSERT INTO sales (id, house_id, name, location_id, location, currency, is_online, is_bids_streaming, status, start_datetime, end_datetime,
      lots_count, lots_count_not_sold, lots_count_sold_above_estimations, lots_count_sold_within_estimations, lots_count_sold_below_estimations,
      hammer_total, premium_sold_total, cumulative_total, hammer_total_usd, premium_sold_total_usd, cumulative_total_usd,
      hammer_low_estimate, hammer_high_estimate)
    SELECT s.id, s.house_id, s.name, s.location_id, s.location, s.currency, s.is_online, s.is_bids_streaming, s.status, s.start_datetime, s.end_datetime,
      coalesce(a.lots_count, 0), coalesce(a.not_sold, 0), coalesce(a.above, 0), coalesce(a.within, 0), coalesce(a.below, 0),
      coalesce(a.hammer, 0), coalesce(a.premium_sold, 0), coalesce(a.cumulative, 0),
      coalesce(a.hammer_usd, 0), coalesce(a.premium_sold_usd, 0), coalesce(a.cumulative_usd, 0),
      coalesce(a.low, 0), coalesce(a.high, 0)
    FROM src_sales s LEFT JOIN a ON a.sale_id = s.id ${salesOf}
    ORDER BY s.id`)
      .run(...((ids ? [ids] : []) as [])),
  );
  return only ? only.length : (db.query("SELECT count(*) AS n FROM sales").get() as { n: number }).n;
}
