/**
 * The market events of a merge (docs/webhooks.md): what the day's records changed among the lots
 * and sales they touched, found by comparing each touched row with the previous snapshot's, written
 * into the new snapshot's `market_events` (the last 30 days kept). The server fans them out to the
 * users who follow what they concern (src/serve/webhooks/fan-out.ts).
 *
 * | event | when |
 * |---|---|
 * | `lot.consigned` | a lot that was not in the previous snapshot, upcoming |
 * | `lot.sold`, `lot.passed`, `lot.withdrawn` | a lot whose status became that |
 * | `sale.results_published` | a sale whose status became closed |
 * | `artwork.estimate_changed` | a work's published estimate moved by 5 % or more (ESTIMATE_EVENT) |
 * | `artist.index_moved` | an artist's republished index stands 3 % or more from its level a month before (INDEX_EVENT) |
 *
 * An event's id is a hash of its type, subject and market day (an index move: its month, so that an
 * artist's index is news once a month): the same on every node that reads the snapshot, so a user
 * is told once.
 */
import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { unpackSeries } from "../../db/series";
import { monthDate, monthIndex } from "../../market/calendar";
import { addDays } from "../../market/time";

/** How long the snapshot keeps its events (days): a node that missed snapshots still finds them. */
export const EVENTS_KEPT_DAYS = 30;

const CHUNK = 500;

interface LotRow {
  id: number;
  sale_id: number;
  artwork_id: number;
  artist_id: number;
  status: string;
  currency: string;
  hammer: number | null;
  estimate_min: number | null;
  estimate_max: number | null;
}

/** The event id of a type, subject and day. */
export function eventIdOf(type: string, kind: string, id: number, day: string): string {
  return `evt_${createHash("sha256").update(`${type}|${kind}|${id}|${day}`).digest("hex").slice(0, 24)}`;
}

function rowsById<T extends { id: number }>(db: Database, sql: string, ids: readonly number[]): Map<number, T> {
  const out = new Map<number, T>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    for (const r of db.query<T, number[]>(`${sql} WHERE id IN (${part.map(() => "?").join(", ")})`).all(...part)) out.set(r.id, r);
  }
  return out;
}

/** Against the estimate: above, within or below (null without a hammer or an estimate). */
function against(l: LotRow): "above" | "within" | "below" | null {
  if (l.hammer === null || l.estimate_min === null || l.estimate_max === null) return null;
  return l.hammer > l.estimate_max ? "above" : l.hammer < l.estimate_min ? "below" : "within";
}

/** A work's published estimate that moved by ESTIMATE_EVENT or more in a merge (src/pipeline/derive/materiality.ts). */
export interface EstimateMove {
  artwork: number;
  artist: number;
  /** USD, as published before and now. */
  before: number;
  now: number;
}

/**
 * An artist's index (the price of its typical work, USD) that stands INDEX_EVENT or more from its
 * level a month before, in the chart a merge republished.
 */
export interface IndexMove {
  artist: number;
  /** The chart's last month, YYYY-MM. */
  month: string;
  before: number;
  now: number;
}

/**
 * The monthly move of an artist's index that is an event (artist.index_moved): 3 %, about the top
 * twentieth of the month-on-month moves in a seeded market (the median is 2 %). An object so that
 * tests can lower it.
 */
export const INDEX_EVENT = { move: 0.03 };

/** The index move of a republished chart (ARTIST_INSERTS.chart's order: artist, start month, points…), or null below INDEX_EVENT. */
export function indexMove(chart: readonly unknown[]): IndexMove | null {
  const [artist, start, packed] = chart as [number, string, Uint8Array];
  const points = unpackSeries(packed);
  const n = points.length;
  if (n < 2) return null;
  const before = points[n - 2]!;
  const now = points[n - 1]!;
  if (!(before > 0 && now > 0) || Math.abs(now / before - 1) < INDEX_EVENT.move) return null;
  return { artist, month: monthDate(monthIndex(start) + n - 1).slice(0, 7), before, now };
}

const cents = (v: number) => Math.round(v * 100) / 100;
const change = (before: number, now: number) => Math.round((now / before - 1) * 10_000) / 10_000;

/** Finds and writes the events of a merge; returns how many it wrote. */
export function recordMarketEvents(
  db: Database,
  previous: Database,
  o: { asOf: string; lots: readonly number[]; sales: readonly number[]; estimates?: readonly EstimateMove[]; indexes?: readonly IndexMove[] },
): number {
  const lotSql = "SELECT id, sale_id, artwork_id, artist_id, status, currency, hammer, estimate_min, estimate_max FROM lots";
  const now = rowsById<LotRow>(db, lotSql, o.lots);
  const before = rowsById<LotRow>(previous, lotSql, o.lots);
  const insert = db.query(
    "INSERT OR IGNORE INTO market_events (id, type, day, subject_kind, subject_id, lot_id, artwork_id, artist_id, sale_id, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  let written = 0;
  const add = (
    type: string,
    kind: string,
    subjectId: number,
    ids: { lot: number | null; artwork: number | null; artist: number | null; sale: number | null },
    data: object,
    period = o.asOf,
  ) => {
    written += insert.run(eventIdOf(type, kind, subjectId, period), type, o.asOf, kind, subjectId, ids.lot, ids.artwork, ids.artist, ids.sale, JSON.stringify(data)).changes;
  };
  db.transaction(() => {
    for (const [id, lot] of now) {
      const old = before.get(id);
      const ids = { lot: id, artwork: lot.artwork_id, artist: lot.artist_id, sale: lot.sale_id };
      const figures = { status: lot.status, currency: lot.currency, hammer: lot.hammer, estimate_min: lot.estimate_min, estimate_max: lot.estimate_max };
      if (!old) {
        if (lot.status === "upcoming") add("lot.consigned", "lot", id, ids, figures);
        continue;
      }
      if (old.status === lot.status) continue;
      if (lot.status === "sold") add("lot.sold", "lot", id, ids, { ...figures, against_estimate: against(lot) });
      else if (lot.status === "passed" || lot.status === "withdrawn") add(`lot.${lot.status}`, "lot", id, ids, figures);
    }
    const saleSql = "SELECT id, status FROM sales";
    const salesNow = rowsById<{ id: number; status: string }>(db, saleSql, o.sales);
    const salesBefore = rowsById<{ id: number; status: string }>(previous, saleSql, o.sales);
    for (const [id, sale] of salesNow) {
      const old = salesBefore.get(id);
      if (sale.status === "closed" && old !== undefined && old.status !== "closed") {
        add("sale.results_published", "sale", id, { lot: null, artwork: null, artist: null, sale: id }, { status: sale.status });
      }
    }
    for (const m of o.estimates ?? []) {
      add(
        "artwork.estimate_changed",
        "artwork",
        m.artwork,
        { lot: null, artwork: m.artwork, artist: m.artist, sale: null },
        { estimate_usd_before: m.before, estimate_usd: m.now, change: change(m.before, m.now) },
      );
    }
    for (const m of o.indexes ?? []) {
      add(
        "artist.index_moved",
        "artist",
        m.artist,
        { lot: null, artwork: null, artist: m.artist, sale: null },
        { month: m.month, index_usd_before: cents(m.before), index_usd: cents(m.now), change: change(m.before, m.now) },
        m.month,
      );
    }
    db.run("DELETE FROM market_events WHERE day < ?", [addDays(o.asOf, -EVENTS_KEPT_DAYS)]);
  })();
  return written;
}
