/**
 * What a merge republishes of a touched artist (docs/derivation.md#what-a-merge-republishes): a
 * figure that moved by less than MATERIALITY since it was published keeps its published value.
 *
 * - The artist's own figures (its market cap, 12-month and 5-year momentum, its chart and vector;
 *   on each of its works: the artist's market cap, the 12- and 24-month momentum, the CAGR) move
 *   together: all republished when one of the artist's three moved by 1 % or more (market cap:
 *   relative; momenta: a percentage point) or none moved at all, else all held.
 * - A work's estimate (its value, band, and 12- and 24-month price change) is republished when it
 *   moved by 1 % or more, or when the work's own record changed (a new lot, a result): else held.
 * - Everything else (counts, last sale, statuses, documents, forecasts) is written as derived.
 * - Nothing is held when the as-of date moved into a new month (the index gains a month), nor by
 *   a full derivation (`seed`, `--refit`, a replace): those publish every figure.
 *
 * Held values are compared with the published ones each time, never with the previous day's
 * derivation, so a published figure is never more than 1 % from what the model gives now.
 */
import { ARTIST_INSERTS, insertTarget } from "./artist";

/** A published figure is written again when it moved by this much (relative; momenta: absolute, as a fraction). */
export const MATERIALITY = 0.01;

const ARTWORK_COLUMNS = insertTarget(ARTIST_INSERTS.artwork).columns;
/** The artists row's columns, in ARTIST_INSERTS.artist's order. */
export const ARTIST_COLUMNS_WRITTEN: readonly string[] = insertTarget(ARTIST_INSERTS.artist).columns;
const at = (columns: readonly string[], names: string[]) =>
  names.map((n) => {
    const i = columns.indexOf(n);
    if (i < 0) throw new Error(`materiality: no column ${n}`);
    return i;
  });

/** The artist's figures on each of its works. */
const WORK_ARTIST = at(ARTWORK_COLUMNS, ["price_momentum_12mo_ppm", "price_momentum_24mo_ppm", "cagr_ppm", "artist_market_cap"]);
/** A work's estimate and what follows from it. */
const WORK_ESTIMATE = at(ARTWORK_COLUMNS, ["estimate_usd", "estimate_min_usd", "estimate_max_usd", "price_change_12mo", "price_change_24mo"]);
const [ESTIMATE] = WORK_ESTIMATE as [number];
/** The work's own record: every other column. */
const WORK_OWN = ARTWORK_COLUMNS.map((_, i) => i).filter((i) => !WORK_ARTIST.includes(i) && !WORK_ESTIMATE.includes(i));
const [MARKET_CAP, MOMENTUM_12, MOMENTUM_5Y] = at(ARTIST_COLUMNS_WRITTEN, ["market_cap", "price_momentum_percentage_12mo", "price_momentum_percentage_5y"]) as [
  number,
  number,
  number,
];

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** `after` moved from `before` by less than MATERIALITY, relative (both positive) or both absent. */
export function heldRelative(before: unknown, after: unknown): boolean {
  const a = num(before);
  const b = num(after);
  if (a === null || b === null) return a === b;
  if (a <= 0 || b <= 0) return a === b;
  return Math.abs(Math.log(b / a)) < MATERIALITY;
}

/** A percentage that moved by less than MATERIALITY as a fraction (one point), or both absent. */
function heldPercent(before: unknown, after: unknown): boolean {
  const a = num(before);
  const b = num(after);
  if (a === null || b === null) return a === b;
  return Math.abs(b - a) < 100 * MATERIALITY;
}

/**
 * Whether an artist's own figures are held: some moved, none by MATERIALITY. `published` is its
 * stored artists row, `derived` the new one (both in ARTIST_INSERTS.artist's column order).
 */
export function artistHeld(published: readonly unknown[] | null, derived: readonly unknown[]): boolean {
  if (!published) return false;
  const figures = [MARKET_CAP, MOMENTUM_12, MOMENTUM_5Y];
  if (figures.every((i) => sameCell(published[i], derived[i]))) return false;
  return (
    heldRelative(published[MARKET_CAP], derived[MARKET_CAP]) &&
    heldPercent(published[MOMENTUM_12], derived[MOMENTUM_12]) &&
    heldPercent(published[MOMENTUM_5Y], derived[MOMENTUM_5Y])
  );
}

/** The artist row to write for a held artist: the derived one with its own figures as published. */
export function settleArtist(published: readonly unknown[], derived: readonly unknown[]): unknown[] {
  const row = [...derived];
  for (const i of [MARKET_CAP, MOMENTUM_12, MOMENTUM_5Y]) row[i] = published[i];
  return row;
}

/**
 * The artworks row to write: `derived` with what is held taken from `published` (the artist's
 * figures when `held`, the estimate when it moved by less than MATERIALITY and the work's own
 * record did not change). Counts what it held in `counts`.
 */
export function settleArtwork(published: readonly unknown[], derived: readonly unknown[], held: boolean, counts: { estimates: number }): unknown[] {
  const row = [...derived];
  if (held) for (const i of WORK_ARTIST) row[i] = published[i];
  const own = WORK_OWN.every((i) => sameCell(published[i], derived[i]));
  if (own && heldRelative(published[ESTIMATE], derived[ESTIMATE]) && WORK_ESTIMATE.some((i) => !sameCell(published[i], derived[i]))) {
    for (const i of WORK_ESTIMATE) row[i] = published[i];
    counts.estimates++;
  }
  return row;
}

/** A published estimate that moves by this much (relative) or more is a market event (artwork.estimate_changed). */
export const ESTIMATE_EVENT = 0.05;

/**
 * A work's estimate as published before and as written now (USD), when it moved by ESTIMATE_EVENT
 * or more; else null. `published` and `written` are artworks rows (ARTIST_INSERTS.artwork's order).
 */
export function estimateMove(published: readonly unknown[], written: readonly unknown[]): [number, number] | null {
  const a = num(published[ESTIMATE]);
  const b = num(written[ESTIMATE]);
  if (a === null || b === null || a <= 0 || b <= 0) return null;
  return Math.abs(b / a - 1) >= ESTIMATE_EVENT ? [a, b] : null;
}

/** The estimate columns of an artworks row, in the order replacedEstimate gives their values (and estimate_history holds them). */
export const ESTIMATE_COLUMNS: readonly string[] = WORK_ESTIMATE.map((i) => ARTWORK_COLUMNS[i]!);

/**
 * The estimate values `written` replaces (ESTIMATE_COLUMNS of `published`), when it changes any of
 * them; else null. Both are artworks rows in ARTIST_INSERTS.artwork's order.
 */
export function replacedEstimate(published: readonly unknown[], written: readonly unknown[]): unknown[] | null {
  return WORK_ESTIMATE.some((i) => !sameCell(published[i], written[i])) ? WORK_ESTIMATE.map((i) => published[i]) : null;
}

/** Two stored values the same (a boolean as SQLite's 0/1, a blob byte for byte). */
export function sameCell(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a == null || b == null) return a == null && b == null;
  if (typeof a === "boolean" || typeof b === "boolean") return Number(a) === Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((v, i) => v === b[i]);
  return false;
}
