/**
 * A merge's derivation: only what the merged records touch, against the model the last full
 * derivation fitted (derive_state, state.ts). docs/derivation.md#a-merge-derives-what-it-touches.
 *
 * - The market index: the touched works' pairs as the previous snapshot had them are taken back
 *   from pass 1's sums and their pairs as they are now added (WorkPairs), over the months to the
 *   new as-of date; the index is solved again with the model's reading offsets. Exact: the sums
 *   are what pass 1 would give over the same lots (to rounding), the offsets held.
 * - The touched artists (every artist with a lot, or a work, the merge changed) are fitted again
 *   against the model (market index solved again, hedonic coefficients, noise, centre and band,
 *   the upcoming lots' model: all held) and their rows replaced: artist, artworks, chart,
 *   analytics, and their upcoming lots' forecasts.
 * - Lots whose USD figures only moved with the day's FX rates (announced lots priced at the latest
 *   rate) keep their forecast, its hammer and band scaled by the rate's move.
 * - The touched sales' aggregates, the market index's rows (every month's value; the sold lots of
 *   the months a changed lot is in), the lots' search rows of the changed lots.
 * Untouched artists keep their rows as the last derivation wrote them (`--refit` derives all).
 */
import type { Database } from "bun:sqlite";
import { addDays } from "../../market/time";
import { monthDate, monthIndex } from "../../market/calendar";
import { usdOf } from "../../db/fx";
import { LOTS_FTS_FROM, LOTS_FTS_TEXT } from "../../db/market-indexes/lots";
import { worksViewOfFinished } from "../db/works-file";
import { ArtistDeriver, artistReader, artistWriter, estimateMidLog, round4, SaleTimes, type ArtistOutput, type ArtistRow } from "./artist";
import { type MarketSums, resolveMarket, WorkPairs, writeSales } from ".";
import { type DeriveState, loadDeriveState, saveDeriveState } from "./state";

/** What a merge changed, by id: lots (added, changed or removed), and the sales it changed. */
export interface Touched {
  lots: number[];
  sales: number[];
  /** Lots whose only change is their USD figures' FX rate: lot id, new / old rate, the lot's artist. */
  repriced: [number, number, number][];
}

export interface TouchedSummary {
  artists: number;
  artworks: number;
  estimated: number;
  sales: number;
  /** Market index pairs taken back (as the previous snapshot had them) and added (as they are now). */
  pairs: { removed: number; added: number };
  /** Forecasts scaled for an FX move alone. */
  repriced: number;
  /** Months of the market index now (more than before when the as-of date moved into a new month). */
  months: number;
  timings: Record<string, number>;
}

/** The artists' source columns, as pass 2 reads them. */
const ARTIST_COLUMNS = "id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id";

/**
 * Derives what `touched` changed in `db` (a copy of `previous`, the snapshot the merge started
 * from, with the merged records in), as of `asOf`. null (nothing written) when the snapshot kept
 * no state to go on from or the as-of date moved back: `reason` says why, and the caller derives
 * the whole market.
 */
export function deriveTouched(
  db: Database,
  previous: Database,
  options: { asOf: string; touched: Touched; onProgress?: (phase: string, done: number, total: number) => void },
): TouchedSummary | { reason: string } {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark) / 1000;
    mark = now;
  };
  const loaded = loadDeriveState(db);
  if ("missing" in loaded) return { reason: loaded.missing };
  const state: DeriveState = loaded;
  const months = monthIndex(options.asOf) + 1;
  const before = state.sums.market.months;
  if (months < before) return { reason: `the as-of date ${options.asOf} is before the market's model (${before} months)` };
  const { lots } = options.touched;
  const progress = options.onProgress ?? (() => {});

  // who the changed lots belong to, before and after
  const owners = (conn: Database) =>
    conn
      .query<{ artist_id: number; artwork_id: number; sale_id: number; month: number }, [string]>(
        "SELECT artist_id, artwork_id, sale_id, sale_datetime AS month FROM lots WHERE id IN (SELECT value FROM json_each(?))",
      )
      .all(JSON.stringify(lots));
  const artists = new Set<number>();
  const artworks = new Set<number>();
  const sales = new Set<number>(options.touched.sales);
  const times = new Set<number>();
  for (const conn of [previous, db])
    for (const r of owners(conn)) {
      artists.add(r.artist_id);
      artworks.add(r.artwork_id);
      sales.add(r.sale_id);
      times.add(r.month);
    }
  lap("what the merge touched");

  // the market index: the touched works' pairs taken back as they were, added as they are now;
  // when the as-of date moved into a new month, also every work with a lot in the previous last
  // month or later (pass 1 reads a lot after the as-of month as in it: those lots move with it)
  const walked = new Set(artworks);
  if (months > before) {
    const from = Date.parse(`${monthDate(before - 1)}T00:00:00Z`) / 1000;
    for (const conn of [previous, db])
      for (const r of conn.query<{ id: number }, [number]>("SELECT DISTINCT artwork_id AS id FROM lots WHERE sale_datetime >= ?").all(from)) walked.add(r.id);
  }
  const works = [...walked].sort((a, b) => a - b);
  const removed = walkPairs(previous, state.sums, works, before - 1, -1);
  const sums = growSums(state.sums, months);
  const added = walkPairs(db, sums, works, months - 1, 1);
  const model = { ...state.model, asOf: options.asOf, oneYearAgo: addDays(options.asOf, -365), months, marketLevel: new Float64Array(months) };
  if (sums.market.count > 0) resolveMarket(sums, model);
  else model.marketLevel.set(state.model.marketLevel.subarray(0, Math.min(before, months)));
  lap("market index");

  // the touched artists again, against the model
  const written = deriveArtists(
    db,
    model,
    state,
    [...artists].sort((a, b) => a - b),
    progress,
  );
  lap("artists, artworks, analytics");

  // forecasts whose lot only moved with the rates
  let repriced = 0;
  const scale = db.query(
    `UPDATE lots SET expected_hammer_usd = round(expected_hammer_usd * ?2), expected_hammer_usd_low = round(expected_hammer_usd_low * ?2),
       expected_hammer_usd_high = round(expected_hammer_usd_high * ?2) WHERE id = ?1 AND expected_hammer_usd IS NOT NULL`,
  );
  db.transaction(() => {
    for (const [id, ratio, artist] of options.touched.repriced) if (!artists.has(artist)) repriced += scale.run(id, ratio).changes;
  })();

  const salesWritten = writeSales(
    db,
    [...sales].sort((a, b) => a - b),
  );
  writeIndexRows(db, model.marketLevel, before, times);
  updateLotSearch(db, previous, lots);
  saveDeriveState(db, { model, noise: state.noise, sums });
  lap("sales, market index, search");
  return {
    artists: artists.size,
    artworks: written.artworks,
    estimated: written.estimated,
    sales: salesWritten,
    pairs: { removed, added },
    repriced,
    months,
    timings,
  };
}

/** The sums over `months` (the same when the as-of date stayed in its month). */
function growSums(sums: MarketSums, months: number): MarketSums {
  if (months === sums.market.months) return sums;
  const grow = (a: Float64Array) => {
    const out = new Float64Array(months);
    out.set(a);
    return out;
  };
  return { market: sums.market.grown(months), statusShift: sums.statusShift.map(grow), hammerShift: sums.hammerShift.map(grow) };
}

/**
 * The pairs of `works` (their lots on `conn`, in sale order, months up to T) into `sums` with
 * `sign` (+1 add, −1 take back), as pass 1 reads them (marketPass in index.ts); returns the pairs.
 */
function walkPairs(conn: Database, sums: MarketSums, works: number[], T: number, sign: 1 | -1): number {
  const lotsOf = conn.query<[number, number, number, number | null, number | null, number | null, number], [number]>(
    `SELECT artwork_id, sale_datetime, status = 'sold' AND hammer_usd_cents > 0, ${usdOf("hammer_usd_cents")}, ${usdOf("estimate_min_usd_cents")}, ${usdOf("estimate_max_usd_cents")},
            CASE status WHEN 'passed' THEN 1 WHEN 'withdrawn' THEN 2 WHEN 'upcoming' THEN 3 WHEN 'sold' THEN 4 * (reserve_mark = 0) ELSE 0 END FROM lots
     WHERE artwork_id = ? ORDER BY sale_datetime, id`,
  );
  const saleTimes = new SaleTimes();
  const pairs = new WorkPairs(sums, sign);
  const count = () => sums.market.count;
  const start = count();
  for (const work of works) {
    for (const [artworkId, seconds, isSold, hammer, estMin, estMax, status] of lotsOf.values(work) as [
      number,
      number,
      number,
      number | null,
      number | null,
      number | null,
      number,
    ][]) {
      const m = Math.min(T, monthIndex(saleTimes.iso(seconds)));
      const mid = estimateMidLog(estMin, estMax);
      if (mid !== null) pairs.estimate(artworkId, m, mid, status);
      if (isSold) pairs.sale(artworkId, m, Math.log(hammer!), status === 4 ? 1 : 0);
    }
  }
  return Math.abs(count() - start);
}

/** Pass 2 for `ids` on this thread: each artist's rows replaced, its upcoming lots' forecasts written again. */
function deriveArtists(
  db: Database,
  model: DeriveState["model"],
  state: DeriveState,
  ids: number[],
  progress: (phase: string, done: number, total: number) => void,
): { artworks: number; estimated: number } {
  // pass 2 reads the works' source rows as src_artworks: in a finished snapshot the served
  // artworks hold them (works-file.ts)
  worksViewOfFinished(db);
  const deriver = new ArtistDeriver(model);
  const read = artistReader(db);
  const artistById = db.query<ArtistRow, [number]>(`SELECT ${ARTIST_COLUMNS} FROM src_artists WHERE id = ?`);
  const write = artistWriter(db);
  const drop = [
    "DELETE FROM artworks WHERE artist_id = ?",
    "DELETE FROM artists WHERE id = ?",
    "DELETE FROM artist_charts WHERE artist_id = ?",
    "DELETE FROM artist_analytics WHERE artist_id = ?",
  ].map((sql) => db.query(sql));
  const clearForecasts = db.query(
    "UPDATE lots SET sale_probability = NULL, expected_hammer_usd = NULL, expected_hammer_usd_low = NULL, expected_hammer_usd_high = NULL WHERE artist_id = ? AND sale_probability IS NOT NULL",
  );
  const forecast = db.query("UPDATE lots SET sale_probability = ?2, expected_hammer_usd = ?3, expected_hammer_usd_low = ?4, expected_hammer_usd_high = ?5 WHERE id = ?1");
  let artworks = 0;
  let estimated = 0;
  const page = db.transaction((outs: ArtistOutput[]) => {
    for (const out of outs) {
      const id = out.artist[0] as number;
      for (const d of drop) d.run(id);
      clearForecasts.run(id);
      write(out);
      for (const f of out.forecasts) forecast.run(...(f as [number, number, number | null, number | null, number | null]));
      artworks += out.artworks.length;
      estimated += out.estimated;
    }
  });
  for (let i = 0; i < ids.length; i += 200) {
    const outs: ArtistOutput[] = [];
    for (const id of ids.slice(i, i + 200)) {
      const row = artistById.get(id);
      if (row) outs.push(deriver.derive(read(row), state.noise));
    }
    page(outs);
    progress("artists touched", Math.min(ids.length, i + 200), ids.length);
  }
  return { artworks, estimated };
}

/**
 * The market index's rows: every month's value from the level solved again; the sold lots of the
 * months in `times` (Unix seconds of changed lots) and of the months the index gained counted again.
 */
function writeIndexRows(db: Database, level: Float64Array, before: number, times: Set<number>): void {
  const saleTimes = new SaleTimes();
  const recount = new Set<number>();
  for (const t of times) recount.add(monthIndex(saleTimes.iso(t)));
  for (let m = before; m < level.length; m++) recount.add(m);
  const upsert = db.query(
    "INSERT INTO market_index (month, value, lots) VALUES (?1, ?2, coalesce(?3, 0)) ON CONFLICT(month) DO UPDATE SET value = excluded.value, lots = coalesce(?3, market_index.lots)",
  );
  const soldIn = db.query<{ n: number }, [number, number]>("SELECT count(*) AS n FROM lots WHERE status = 'sold' AND sale_datetime >= ? AND sale_datetime < ?");
  const seconds = (m: number) => Date.parse(`${monthDate(m)}T00:00:00Z`) / 1000;
  db.transaction(() => {
    for (let m = 0; m < level.length; m++) {
      const lots = recount.has(m) ? soldIn.get(seconds(m), seconds(m + 1))!.n : null;
      upsert.run(monthDate(m).slice(0, 7), round4(100 * Math.exp(level[m]! - level[0]!)), lots);
    }
  })();
}

/**
 * The lots' search rows (lots_fts, contentless: a row is taken out with the text it went in with)
 * of the changed lots: the previous snapshot's text out, the new one in, where they differ.
 */
function updateLotSearch(db: Database, previous: Database, lots: number[]): void {
  if (!db.query("SELECT 1 FROM sqlite_master WHERE name = 'lots_fts'").get()) return;
  const textOf = (conn: Database) => conn.query<{ text: string }, [number]>(`SELECT ${LOTS_FTS_TEXT} AS text FROM ${LOTS_FTS_FROM} WHERE l.id = ?`);
  const before = textOf(previous);
  const after = textOf(db);
  const remove = db.query("INSERT INTO lots_fts (lots_fts, rowid, text) VALUES ('delete', ?, ?)");
  const add = db.query("INSERT INTO lots_fts (rowid, text) VALUES (?, ?)");
  db.transaction(() => {
    for (const id of lots) {
      const old = before.get(id)?.text;
      const now = after.get(id)?.text;
      if (old === now) continue;
      if (old !== undefined) remove.run(id, old);
      if (now !== undefined) add.run(id, now);
    }
  })();
}
