/**
 * Freshness, measured (docs/operations.md#data-freshness): per auction house, the date of the
 * latest result the market holds, and per tier (the seven top houses, the others) how old the
 * stalest of those is. Found once per market connection, as the MarketSnapshot's facts are (a
 * snapshot is immutable; a new snapshot is a new connection, so a swap recomputes them); the ages
 * are measured against a clock the caller passes (`now`, Unix milliseconds).
 *
 * - A result: a lot whose status is sold, passed or withdrawn in a sale that has taken place or is
 *   under way (sale status closed, live or session_off; never upcoming), dated by the UTC day of
 *   the lot's sale time. A house's `results_as_of` is the latest such day, null with none.
 * - Tiers: `top` is the first TOP_HOUSE_COUNT (7) houses by (priority_order, id), `other` every
 *   other house. A house is inactive, and left out of its tier, when it has no result or its
 *   latest is more than INACTIVE_AFTER_DAYS (365) days before the market's as-of date (the
 *   snapshot's, not the clock's: a market left stale keeps every house it had).
 * - A tier's `latest_result` is the OLDEST of its active houses' latest results (the tier is as
 *   fresh as its stalest house); null when it has no active house.
 * - A tier's age is measured from the END of that day (UTC midnight after it: the market holds the
 *   house's results through that day), never below 0 (a result dated today is age 0).
 * - The snapshot's age is measured from its publication: market.db's modification time (the
 *   build's last write, before it is renamed into place).
 *
 * Results owed: the measure the spec's commitment (48 h top, 14 days others) is about, results
 * arriving late, apart from whether a house held a sale lately. A sale owes results when it has
 * ENDED (its end_datetime, or its start without one, is before `now`) and still has lots without
 * a result (status upcoming or unknown: a sale announced, live, or held and not yet published,
 * docs/market-model.md). Per tier (every house of it, active or not) the OLDEST such sale, by its
 * end (then id), with the seconds since it ended; nothing owed is null (gauge 0). Found once per
 * connection as the tier's earliest-ending sale with lots lacking a result (OPEN_SALES_SQL): it
 * is owed at `now` exactly when it has ended, and then it is the oldest owed.
 */
import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { INACTIVE_AFTER_DAYS, RESULT_STATUSES, TOP_HOUSE_COUNT } from "../market/houses";
import { addDays, dayNumber } from "../market/time";

export const TIERS = ["top", "other"] as const;
export type Tier = (typeof TIERS)[number];

const DAY_MS = 86_400_000;

export interface HouseResults {
  id: number;
  tier: Tier;
  /** The UTC day of the house's latest result; null when it has none. */
  resultsAsOf: string | null;
  /** Whether its latest result is within INACTIVE_AFTER_DAYS of the market's as-of date. */
  active: boolean;
}

export interface TierFreshness {
  /** The oldest of the tier's active houses' latest results; null when none is active. */
  latest_result: string | null;
  /** Hours from the end of that day to now, to 0.1 h; null with no latest_result. */
  age_hours: number | null;
}

const LATEST_RESULT_SQL = `SELECT date(sale_datetime, 'unixepoch') AS day FROM lots
  WHERE house_id = ? AND status IN (${RESULT_STATUSES.map((s) => `'${s}'`).join(", ")}) AND sale_status <> 'upcoming'
  ORDER BY sale_datetime DESC LIMIT 1`;

/** A sale that ended and still has lots without a result: the oldest of a tier's, as /readyz reports it. */
export interface ResultsOwed {
  sale_id: number;
  house_id: number;
  /** When it ended (its end_datetime, else its start), ISO 8601 UTC as the sale has it. */
  ended_at: string;
  /** Hours from then to now, to 0.1 h. */
  age_hours: number;
}

/** The earliest-ending sale of a tier that has lots without a result (ended or not). */
export interface OpenSale {
  saleId: number;
  houseId: number;
  endedAt: string;
  /** endedAt in Unix milliseconds. */
  endMs: number;
}

/**
 * Every sale with a lot whose status is upcoming or unknown, without reading the lots table: the
 * distinct sale times of those lots are walked in the partial indexes lots_upcoming and
 * lots_unknown (a seek each: a market has a few hundred, 85 for 171k upcoming lots at `large`),
 * each time's sales found in sales_start (a lot's sale_datetime is its sale's start, in Unix
 * seconds), and each kept when its own lots (lots_sale) include one without a result; an
 * upcoming sale's first lot does. CROSS JOIN keeps that order: left to itself SQLite read every
 * sale and its lots first (73 s at `large` against 11 ms). Each open sale's end: end_datetime,
 * else its start.
 */
export const OPEN_SALES_SQL = `WITH RECURSIVE
  up(at) AS (
    SELECT min(sale_datetime) FROM lots WHERE status = 'upcoming'
    UNION ALL
    SELECT (SELECT min(sale_datetime) FROM lots WHERE status = 'upcoming' AND sale_datetime > up.at) FROM up WHERE up.at IS NOT NULL),
  unk(at) AS (
    SELECT min(sale_datetime) FROM lots WHERE status = 'unknown'
    UNION ALL
    SELECT (SELECT min(sale_datetime) FROM lots WHERE status = 'unknown' AND sale_datetime > unk.at) FROM unk WHERE unk.at IS NOT NULL),
  starts(at) AS (SELECT at FROM up WHERE at IS NOT NULL UNION SELECT at FROM unk WHERE at IS NOT NULL)
SELECT s.id, s.house_id, coalesce(nullif(s.end_datetime, ''), s.start_datetime) AS ended_at
FROM starts CROSS JOIN sales s
  ON s.start_datetime >= strftime('%Y-%m-%dT%H:%M:%S', starts.at, 'unixepoch')
  AND s.start_datetime < strftime('%Y-%m-%dT%H:%M:%S', starts.at + 1, 'unixepoch')
WHERE unixepoch(s.start_datetime) = starts.at
  AND (EXISTS (SELECT 1 FROM lots l WHERE l.sale_id = s.id AND l.status = 'upcoming')
    OR EXISTS (SELECT 1 FROM lots l WHERE l.sale_id = s.id AND l.status = 'unknown'))`;

export class MarketFreshness {
  readonly houses: readonly HouseResults[];
  readonly #byId: Map<number, HouseResults>;
  /** Each tier's latest_result. */
  readonly tiers: Readonly<Record<Tier, string | null>>;
  /** When the snapshot was published (market.db's modification time), ISO 8601; null when unknown (an in-memory market). */
  readonly publishedAt: string | null;
  /** Each tier's earliest-ending sale with lots without a result (null: none): owed once it has ended. */
  readonly open: Readonly<Record<Tier, OpenSale | null>>;

  constructor(db: Database) {
    const houses = db.query<{ id: number }, []>("SELECT id FROM auction_houses ORDER BY priority_order, id").all();
    const latest = db.query<{ day: string }, [number]>(LATEST_RESULT_SQL);
    const days = houses.map((h) => latest.get(h.id)?.day ?? null);
    const asOf = db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()?.value ?? maxDay(days);
    const since = asOf === null ? null : addDays(asOf, -INACTIVE_AFTER_DAYS);
    this.houses = houses.map((h, i) => {
      const day = days[i]!;
      return { id: h.id, tier: i < TOP_HOUSE_COUNT ? "top" : "other", resultsAsOf: day, active: day !== null && since !== null && day >= since };
    });
    this.#byId = new Map(this.houses.map((h) => [h.id, h]));
    const oldest = (tier: Tier) => minDay(this.houses.filter((h) => h.tier === tier && h.active).map((h) => h.resultsAsOf!));
    this.tiers = { top: oldest("top"), other: oldest("other") };
    this.publishedAt = modifiedAt(db.filename);
    const open: Record<Tier, OpenSale | null> = { top: null, other: null };
    for (const r of db.query<{ id: number; house_id: number; ended_at: string }, []>(OPEN_SALES_SQL).all()) {
      const tier = this.#byId.get(r.house_id)?.tier;
      const endMs = Date.parse(r.ended_at);
      if (tier === undefined || Number.isNaN(endMs)) continue;
      const first = open[tier];
      if (first === null || endMs < first.endMs || (endMs === first.endMs && r.id < first.saleId)) {
        open[tier] = { saleId: r.id, houseId: r.house_id, endedAt: r.ended_at, endMs };
      }
    }
    this.open = open;
  }

  /** The day of the latest result of house `id` (null: none, or no such house). */
  resultsAsOf(id: number): string | null {
    return this.#byId.get(id)?.resultsAsOf ?? null;
  }

  /** Seconds from the end (UTC) of `day` to `now`, never below 0. */
  static ageSeconds(day: string, now: number): number {
    return Math.max(0, (now - (dayNumber(day) + 1) * DAY_MS) / 1000);
  }

  /** Each tier's freshness now, as /readyz reports it. */
  report(now: number): Record<Tier, TierFreshness> {
    const tier = (t: Tier): TierFreshness => {
      const day = this.tiers[t];
      return { latest_result: day, age_hours: day === null ? null : Math.round(MarketFreshness.ageSeconds(day, now) / 360) / 10 };
    };
    return { top: tier("top"), other: tier("other") };
  }

  /** The tier's oldest sale that ended before `now` with lots still without a result; null when none. */
  owed(tier: Tier, now: number): OpenSale | null {
    const sale = this.open[tier];
    return sale !== null && sale.endMs < now ? sale : null;
  }

  /** Seconds since the tier's oldest owed sale ended (0 when nothing is owed). */
  owedSeconds(tier: Tier, now: number): number {
    const sale = this.owed(tier, now);
    return sale === null ? 0 : (now - sale.endMs) / 1000;
  }

  /** Each tier's oldest owed sale now, as /readyz reports it (`results_owed`). */
  owedReport(now: number): Record<Tier, ResultsOwed | null> {
    const tier = (t: Tier): ResultsOwed | null => {
      const sale = this.owed(t, now);
      return sale === null ? null : { sale_id: sale.saleId, house_id: sale.houseId, ended_at: sale.endedAt, age_hours: Math.round(this.owedSeconds(t, now) / 360) / 10 };
    };
    return { top: tier("top"), other: tier("other") };
  }

  /** Seconds from the snapshot's publication to `now`; null when its publication is unknown. */
  snapshotAgeSeconds(now: number): number | null {
    return this.publishedAt === null ? null : (now - Date.parse(this.publishedAt)) / 1000;
  }

  /**
   * The gauges, in Prometheus text format 0.0.4: artmarket_snapshot_age_seconds,
   * artmarket_freshness_seconds{tier} and artmarket_results_owed_seconds{tier}. A tier with no
   * active house has no freshness sample (an alert on `absent(...)` catches it), as has the
   * snapshot age when its publication is unknown; results owed has both tiers always, 0 when
   * nothing is owed.
   */
  metricsText(now: number): string {
    const out: string[] = [];
    const snapshotAge = this.snapshotAgeSeconds(now);
    out.push("# HELP artmarket_snapshot_age_seconds Seconds since the served market snapshot was published (market.db's modification time).");
    out.push("# TYPE artmarket_snapshot_age_seconds gauge");
    if (snapshotAge !== null) out.push(`artmarket_snapshot_age_seconds ${seconds(snapshotAge)}`);
    out.push(
      "# HELP artmarket_freshness_seconds Seconds since the end (UTC) of the day of the tier's stalest latest result: the oldest of its active houses' latest results (top: the seven top houses).",
    );
    out.push("# TYPE artmarket_freshness_seconds gauge");
    for (const t of TIERS) {
      const day = this.tiers[t];
      if (day !== null) out.push(`artmarket_freshness_seconds{tier="${t}"} ${seconds(MarketFreshness.ageSeconds(day, now))}`);
    }
    out.push(
      "# HELP artmarket_results_owed_seconds Seconds since the tier's oldest sale still owing results ended: a sale ended with lots still upcoming or unknown (0 when none is owed).",
    );
    out.push("# TYPE artmarket_results_owed_seconds gauge");
    for (const t of TIERS) out.push(`artmarket_results_owed_seconds{tier="${t}"} ${seconds(this.owedSeconds(t, now))}`);
    return `${out.join("\n")}\n`;
  }
}

/** To the millisecond, as the text format writes a number. */
function seconds(s: number): string {
  return String(Math.round(s * 1000) / 1000);
}

/** The earliest of YYYY-MM-DD days (they sort as text), null for none. */
function minDay(days: readonly string[]): string | null {
  return [...days].sort()[0] ?? null;
}

/** The latest of the days given, null for none. */
function maxDay(days: readonly (string | null)[]): string | null {
  return (
    days
      .filter((d): d is string => d !== null)
      .sort()
      .at(-1) ?? null
  );
}

function modifiedAt(path: string): string | null {
  if (!path || path === ":memory:") return null;
  try {
    return statSync(path).mtime.toISOString();
  } catch {
    return null;
  }
}

const found = new WeakMap<Database, MarketFreshness>();

/** The freshness of a market connection, found on first use: one per connection. */
export function freshnessOf(db: Database): MarketFreshness {
  let f = found.get(db);
  if (!f) {
    f = new MarketFreshness(db);
    found.set(db, f);
  }
  return f;
}
