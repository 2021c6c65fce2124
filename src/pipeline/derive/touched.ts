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
import type { Database, Statement } from "bun:sqlite";
import { cpus } from "node:os";
import { addDays } from "../../market/time";
import { monthDate, monthIndex } from "../../market/calendar";
import { usdOf } from "../../db/fx";
import { LOTS_FTS_FROM, LOTS_FTS_TEXT } from "../../db/market-indexes/lots";
import { worksViewOfFinished } from "../db/works-file";
import { ARTIST_INSERTS, ArtistDeriver, insertTarget, artistReader, estimateMidLog, round4, SaleTimes, type ArtistOutput, type ArtistRow } from "./artist";
import { writeSales } from "./aggregates";
import { phaseTimer } from "./market";
import { type MarketSums, resolveMarket, WorkPairs } from "./market-pass";
import { ArtistPool } from "./artist-pool";
import { ARTIST_COLUMNS_WRITTEN, artistHeld, sameCell, settleArtist, settleArtwork } from "./materiality";
import { pipelineSettings } from "../../platform/config";
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
  /** The as-of date of the full derivation whose model this one held (`--refit` fits it again). */
  fittedAsOf: string;
  /** Worker threads the touched artists were derived on (0: this thread). */
  threads: number;
  /** Touched artists whose own figures were held, and works whose estimates were (they moved less than 1 %: materiality.ts). */
  held: { artists: number; estimates: number };
  timings: Record<string, number>;
}

/**
 * What a merge's derivation republishes, told as it is written: each stored work row it writes
 * again (ARTIST_INSERTS.artwork's order: as published, and as written), and each artist chart it
 * writes (ARTIST_INSERTS.chart's order; a held artist's chart is not written).
 */
export interface RepublishObserver {
  artwork?(artistId: number, published: readonly unknown[], written: readonly unknown[]): void;
  chart?(artistId: number, chart: readonly unknown[]): void;
}

/** The artists' source columns, as pass 2 reads them. */
const ARTIST_COLUMNS = "id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id";

/**
 * Derives what `touched` changed in `db` (a copy of `previous`, the snapshot the merge started
 * from, with the merged records in), as of `asOf`. `{ reason }` (nothing written) when the
 * snapshot kept no state to go on from or the as-of date moved back: the caller derives the whole
 * market instead.
 */
export async function deriveTouched(
  db: Database,
  previous: Database,
  options: {
    asOf: string;
    touched: Touched;
    onProgress?: (phase: string, done: number, total: number) => void;
    /** What the derivation republishes, as it writes it (the merge's events and estimate history). */
    observer?: RepublishObserver;
  },
): Promise<TouchedSummary | { reason: string }> {
  const { timings, lap } = phaseTimer();
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
  const written = await deriveArtists(
    db,
    previous,
    model,
    state,
    [...artists].sort((a, b) => a - b),
    // nothing held when the index gained a month
    months === before,
    progress,
    timings,
    options.observer,
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
  saveDeriveState(db, { model, noise: state.noise, sums, fittedAsOf: state.fittedAsOf });
  lap("sales, market index, search");
  return {
    artists: artists.size,
    artworks: written.artworks,
    estimated: written.estimated,
    sales: salesWritten,
    pairs: { removed, added },
    repriced,
    months,
    fittedAsOf: state.fittedAsOf,
    threads: written.threads,
    held: written.held,
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

/**
 * Pass 2 for `ids`: each artist's rows written over its previous ones (RowPatcher: only what
 * changed), then the announced lots' forecasts likewise. From TOUCHED_PARALLEL_MIN artists, on
 * worker threads (ArtistPool): they read the lots and artists from this snapshot's file, which
 * this thread does not write in those tables until they are done (the forecasts wait for them),
 * and the works' source rows from `previous` (unchanged: a merge that changes works derives
 * whole), while this thread writes the artists, works, charts and documents.
 */
async function deriveArtists(
  db: Database,
  previous: Database,
  model: DeriveState["model"],
  state: DeriveState,
  ids: number[],
  hold: boolean,
  progress: (phase: string, done: number, total: number) => void,
  timings: Record<string, number>,
  observer?: RepublishObserver,
): Promise<{ artworks: number; estimated: number; threads: number; held: TouchedSummary["held"] }> {
  // pass 2 reads the works' source rows as src_artworks: in a finished snapshot the served
  // artworks hold them (works-file.ts)
  worksViewOfFinished(db);
  const artistPage = db.query<ArtistRow, [string]>(`SELECT ${ARTIST_COLUMNS} FROM src_artists WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`);
  const artists = new RowPatcher(db, ARTIST_INSERTS.artist, "id = ?");
  const works = new RowPatcher(db, ARTIST_INSERTS.artwork, "artist_id = ?");
  const charts = new RowPatcher(db, ARTIST_INSERTS.chart, "artist_id = ?");
  const dropDocs = db.query("DELETE FROM artist_analytics WHERE artist_id = ?");
  // the artist's row as published, for what is held (materiality.ts)
  const published = db.query<unknown[], [number]>(`SELECT ${ARTIST_COLUMNS_WRITTEN.join(", ")} FROM artists WHERE id = ?`);
  const held = { artists: 0, estimates: 0 };
  const doc = db.query(ARTIST_INSERTS.doc);
  const forecasts = new RowPatcher(
    db,
    "INSERT INTO lots (id, sale_probability, expected_hammer_usd, expected_hammer_usd_low, expected_hammer_usd_high) VALUES (?, ?, ?, ?, ?)",
    "artist_id = ? AND sale_probability IS NOT NULL",
    {
      // a lot is there already, with no forecast: a new one is set, one no longer made cleared
      add: "UPDATE lots SET sale_probability = ?2, expected_hammer_usd = ?3, expected_hammer_usd_low = ?4, expected_hammer_usd_high = ?5 WHERE id = ?1",
      gone: "UPDATE lots SET sale_probability = NULL, expected_hammer_usd = NULL, expected_hammer_usd_low = NULL, expected_hammer_usd_high = NULL WHERE id = ?",
    },
  );
  let artworks = 0;
  let estimated = 0;
  const pending: [number, ArtistOutput["forecasts"]][] = [];
  const clock = { derive: 0, write: 0, "write: artists and works": 0, "write: charts and documents": 0, forecasts: 0 };
  // one transaction per COMMIT_ARTISTS artists: the indexes' pages a day touches are many and
  // scattered, and each commit writes every page it changed (in a commit per 200 artists, the
  // same index pages again and again: 80 s of the 107 s at large)
  let open = 0;
  const page = (outs: ArtistOutput[]) => {
    if (open === 0) db.run("BEGIN");
    for (const out of outs) {
      const id = out.artist[0] as number;
      let t = performance.now();
      const stored = hold ? (published.values(id)[0] ?? null) : null;
      const artistFigures = hold && artistHeld(stored, out.artist);
      if (artistFigures) held.artists++;
      artists.patch(id, [out.artist], artistFigures ? settleArtist : undefined);
      works.patch(id, out.artworks, (before, derived) => {
        const row = hold ? settleArtwork(before, derived, artistFigures, held) : derived;
        observer?.artwork?.(id, before, row);
        return row;
      });
      clock["write: artists and works"] += performance.now() - t;
      t = performance.now();
      // a held artist's chart and vector stay as published, with its momenta
      if (!artistFigures) {
        charts.patch(id, [out.chart]);
        observer?.chart?.(id, out.chart);
      }
      dropDocs.run(id);
      for (const [kind, body] of out.docs) doc.run(id, kind, body);
      clock["write: charts and documents"] += performance.now() - t;
      pending.push([id, out.forecasts]);
      artworks += out.artworks.length;
      estimated += out.estimated;
    }
    open += outs.length;
    if (open >= COMMIT_ARTISTS) {
      db.run("COMMIT");
      open = 0;
    }
  };
  const pages: ArtistRow[][] = [];
  for (let i = 0; i < ids.length; i += 200) pages.push(artistPage.all(JSON.stringify(ids.slice(i, i + 200))));
  let done = 0;
  const written = (outs: ArtistOutput[]) => {
    const t = performance.now();
    page(outs);
    clock.write += performance.now() - t;
    done += outs.length;
    progress("artists touched", done, ids.length);
  };
  // ARTMARKET_DERIVE_WORKERS as for a full derivation, else one per CPU from TOUCHED_PARALLEL_MIN artists
  const onFiles = Boolean(db.filename && db.filename !== ":memory:" && previous.filename);
  const threads = onFiles ? (pipelineSettings().deriveWorkers ?? (ids.length >= TOUCHED_PARALLEL_MIN ? cpus().length : 0)) : 0;
  const started = performance.now();
  if (threads > 0) {
    const pool = new ArtistPool(threads, model, state.noise, db.filename, previous.filename);
    try {
      // pages handed out ahead (two per thread), written in order as they come back
      const ahead: Promise<ArtistOutput[]>[] = [];
      let next = 0;
      for (;;) {
        while (ahead.length < 2 * threads && next < pages.length) ahead.push(pool.derive(pages[next++]!));
        const first = ahead.shift();
        if (!first) break;
        written(await first);
      }
    } finally {
      pool.close();
    }
    clock.derive = performance.now() - started - clock.write;
  } else {
    const deriver = new ArtistDeriver(model);
    const read = artistReader(db);
    for (const rows of pages) {
      const t = performance.now();
      const outs = rows.map((row) => deriver.derive(read(row), state.noise));
      clock.derive += performance.now() - t;
      written(outs);
    }
  }
  if (open > 0) db.run("COMMIT");
  const t = performance.now();
  db.transaction(() => {
    for (const [id, rows] of pending) forecasts.patch(id, rows);
  })();
  clock.forecasts = performance.now() - t;
  for (const [k, ms] of Object.entries(clock)) timings[`artists: ${k}`] = Math.round(ms) / 1000;
  return { artworks, estimated, threads, held };
}

/** Touched artists written per transaction. */
export const COMMIT_ARTISTS = 5000;

/** From this many touched artists, pass 2 runs on worker threads (below, starting them costs more than it gains). */
export const TOUCHED_PARALLEL_MIN = 400;

/**
 * Writes an artist's derived rows over the ones it had (the rows an INSERT statement of
 * ARTIST_INSERTS takes, keyed by their first column): a row that changed is updated in the
 * columns that changed alone, so SQLite maintains only the indexes on them (a served artworks row
 * has 17 indexes; a day moves the estimates and momenta, rarely the rest); a new row is inserted
 * (or, with `add`, written by that statement); a row no longer derived is deleted (or, with
 * `gone`, cleared by that statement).
 */
class RowPatcher {
  private readonly table: string;
  private readonly columns: string[];
  private readonly insert: Statement;
  private readonly current: Statement<unknown[], [number]>;
  private readonly gone: Statement;
  private readonly updates = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    insertSql: string,
    owner: string,
    options: { add?: string; gone?: string } = {},
  ) {
    const target = insertTarget(insertSql);
    this.table = target.table;
    this.columns = target.columns;
    this.insert = db.query(options.add ?? insertSql);
    this.current = db.query<unknown[], [number]>(`SELECT ${this.columns.join(", ")} FROM ${this.table} WHERE ${owner}`);
    this.gone = db.query(options.gone ?? `DELETE FROM ${this.table} WHERE ${this.columns[0]} = ?`);
  }

  /**
   * `rows` become the rows of `owner` (the value its WHERE clause takes); `settle` gives the row
   * to write in place of a derived one that has a stored row (what is held kept as stored).
   */
  patch(owner: number, rows: readonly (readonly unknown[])[], settle?: (stored: readonly unknown[], derived: readonly unknown[]) => readonly unknown[]): void {
    const before = new Map<unknown, unknown[]>();
    for (const r of this.current.values(owner)) before.set(r[0], r);
    for (const derived of rows) {
      const old = before.get(derived[0]);
      if (!old) {
        this.insert.run(...(derived as never[]));
        continue;
      }
      before.delete(derived[0]);
      const row = settle ? settle(old, derived) : derived;
      const changed: number[] = [];
      for (let c = 1; c < row.length; c++) if (!sameCell(row[c], old[c])) changed.push(c);
      if (changed.length === 0) continue;
      const key = changed.join(",");
      let update = this.updates.get(key);
      if (!update) {
        update = this.db.query(`UPDATE ${this.table} SET ${changed.map((c, i) => `${this.columns[c]} = ?${i + 2}`).join(", ")} WHERE ${this.columns[0]} = ?1`);
        this.updates.set(key, update);
      }
      update.run(row[0] as never, ...(changed.map((c) => row[c]) as never[]));
    }
    for (const id of before.keys()) this.gone.run(id as never);
  }
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
