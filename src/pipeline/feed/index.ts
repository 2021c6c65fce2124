/**
 * `feed`: what happens in a synthetic market in the N days after its as-of date, written as an
 * import directory (format v1) for `import --mode merge`. It draws from the same latent truth
 * (truth.db) and by the same rules as `seed` (src/pipeline/seed: the market factor's and the artists'
 * monthly moves, the FX walk, a lot's outcome, the coming sales and their catalogues), each draw
 * on a stream keyed by the market's seed and what it is for (a day, a lot, a sale, a month), so
 * the same market fed the same days writes the same files, byte for byte. It extends truth.db to
 * the new months (the same months whoever asks for them) and never changes market.db.
 *
 * Houses publish late: a sale's results appear on its publication day, one or two days after it
 * ends for the seven top houses, one to fourteen for the others; a sale held but not yet published
 * is closed with its lots `unknown`. docs/market-model.md ("The market goes on") says the rest.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { marketDbPath } from "../../db/connection";
import { latestRate } from "../../db/fx";
import { monthIndex } from "../../market/calendar";
import { CURRENCY_CODES } from "../../market/currencies";
import { TOP_HOUSE_COUNT } from "../../market/houses";
import { TOP_LOT_MIN_ESTIMATE_USD } from "../../market/lots";
import { Random } from "../../market/random";
import { addDays, dayNumber, fromDayNumber } from "../../market/time";
import type { Scale } from "../../platform/config";
import { FORMAT_VERSION } from "../import/format";
import { Progress } from "../progress";
import {
  CATALOGUE_SIZE,
  COMING_DAYS,
  catalogueTarget,
  comingSaleCount,
  draftSale,
  EVENT_TEXT,
  houseEstimates,
  houseMidpoint,
  isoMinute,
  lotOutcome,
  MODEL,
  SCALE_SPECS,
  saleFacts,
  saleMinutes,
  saleStatusAt,
} from "../seed/market";
import { NOTE_PHRASES } from "../seed/names";
import { type HouseInfo, houseTier, LOCATIONS } from "../seed/reference";
import { marketStep, nextFxRate } from "../seed/series";
import { appendLogIndex, TRUTH_DB, TRUTH_STEP, unpackLogIndex } from "../seed/truth";

export interface FeedOptions {
  dataDir: string;
  /** The import directory to write (created; its record files are replaced). */
  to: string;
  days: number;
  quiet?: boolean;
}

export interface FeedSummary {
  from: string;
  asOf: string;
  days: number;
  to: string;
  seed: number;
  /** Records written per file. */
  counts: Record<string, number>;
  /** Lots resolved by status, and the sales whose results were published. */
  resolved: Record<string, number>;
  publishedSales: number;
  /** Sales held in these days whose houses have not published yet (their lots unknown). */
  pendingSales: number;
  newSales: number;
  newLots: number;
  /** Months the truth was extended by (0 when it already covered them). */
  truthMonths: number;
  seconds: number;
}

export class FeedError extends Error {}

/** What each keyed stream is for. */
const STREAM = { market: 1, artist: 2, fx: 3, lot: 4, publish: 5, sales: 6, events: 7 } as const;

/** A stream of draws for (`what`, `a`, `b`) of the market of `seed`: the same numbers whenever asked. */
function keyed(seed: number, what: number, a: number, b = 0): Random {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(what + 0x7f4a7c15, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ Math.imul(a + 0x27d4eb2f, 0x165667b1), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ Math.imul(b + 0x61c88647, 0x9e3779b1), 0xc2b2ae35);
  return new Random((h ^ (h >>> 16)) >>> 0);
}

/** Days from a sale's end to the day its house publishes the results: 1–2 for a top house, 1–14 for the others. */
export function publicationDelay(seed: number, saleId: number, topHouse: boolean): number {
  const r = keyed(seed, STREAM.publish, saleId);
  return topHouse ? 1 + (r.next() < 0.6 ? 0 : 1) : 1 + Math.floor(r.next() * 14);
}

/** Each tier's share of a coming catalogue's places (CATALOGUE_SIZE's mean by tier): the band of values its sales draw from. */
const TIER_BANDS = (() => {
  const w = CATALOGUE_SIZE.map((row) => row.reduce((a, b) => a + b, 0) / row.length);
  const total = w.reduce((a, b) => a + b, 0);
  let lo = 0;
  return w.map((x) => {
    const band = [lo, x / total] as const;
    lo += x / total;
    return band;
  });
})();

type Rec = Record<string, unknown>;

export async function feedMarket(options: FeedOptions): Promise<FeedSummary> {
  const progress = new Progress("feed", options.quiet);
  const dataDir = resolve(options.dataDir);
  const days = options.days;
  if (!Number.isInteger(days) || days < 1 || days > 3660) throw new FeedError(`--days must be a whole number from 1 to 3660, got ${days}`);
  const marketPath = marketDbPath(dataDir);
  const truthPath = join(dataDir, TRUTH_DB);
  if (!existsSync(marketPath)) throw new FeedError(`no market in ${dataDir} (run seed first)`);
  if (!existsSync(truthPath)) throw new FeedError(`no ${TRUTH_DB} in ${dataDir}: feed continues a synthetic market (seed), from its latent truth`);
  const db = new Database(marketPath, { readonly: true });
  const truth = new Database(truthPath, { strict: true });
  try {
    return feed(db, truth, options, progress);
  } finally {
    db.close();
    truth.close();
  }
}

function feed(db: Database, truth: Database, options: FeedOptions, progress: Progress): FeedSummary {
  const meta = (d: Database, table: string, key: string) => d.query<{ value: string }, [string]>(`SELECT value FROM ${table} WHERE key = ?`).get(key)?.value;
  const from = meta(db, "market_meta", "as_of");
  if (!from) throw new FeedError("the market has no as-of date");
  const seed = Number(meta(truth, "truth_meta", "seed"));
  const scale = meta(truth, "truth_meta", "scale") as Scale | undefined;
  if (!Number.isInteger(seed) || !scale || !SCALE_SPECS[scale]) throw new FeedError(`${TRUTH_DB} names no seed and scale`);
  const spec = SCALE_SPECS[scale];
  const asOf = addDays(from, options.days);
  const fromDay = dayNumber(from);
  const toDay = dayNumber(asOf);
  const nowMinute = toDay * 1440 + 720;

  // ------------------------------------------------------------ the truth, to the new as-of month
  let phase = progress.phase("truth: extend the latent index");
  const months = monthIndex(asOf) + 1;
  const marketRow = truth.query<{ log_level: Uint8Array }, []>("SELECT log_level FROM market_truth WHERE id = 1").get();
  if (!marketRow) throw new FeedError(`${TRUTH_DB} holds no market factor`);
  let market = new Float64Array(marketRow.log_level.buffer.slice(marketRow.log_level.byteOffset, marketRow.log_level.byteOffset + marketRow.log_level.byteLength));
  const truthMonths = Math.max(0, months - market.length);
  if (truthMonths > 0) {
    const had = market.length;
    const next = new Float64Array(months);
    next.set(market);
    for (let t = had; t < months; t++) next[t] = next[t - 1]! + marketStep(keyed(seed, STREAM.market, t), t);
    market = next;
    const artists = truth
      .query<{ artist_id: number; beta: number; drift: number; vol: number; first_log_index: number; log_index_steps: Uint8Array }, []>(
        "SELECT artist_id, beta, drift, vol, first_log_index, log_index_steps FROM artist_truth ORDER BY artist_id",
      )
      .all();
    const update = truth.query("UPDATE artist_truth SET log_index_steps = ? WHERE artist_id = ?");
    truth.transaction(() => {
      artists.forEach((a, i) => {
        const index = unpackLogIndex(a.first_log_index, a.log_index_steps);
        const last = index.length - 1;
        let own = index[last]! - a.beta * market[last]!;
        const more: number[] = [];
        for (let t = index.length; t < months; t++) {
          own += a.drift + a.vol * keyed(seed, STREAM.artist, t, a.artist_id).normal();
          more.push(a.beta * market[t]! + own);
        }
        update.run(appendLogIndex(a.first_log_index, a.log_index_steps, more), a.artist_id);
        if (i % 1000 === 0) phase.tick(i, artists.length);
      });
      truth.query("UPDATE market_truth SET log_level = ? WHERE id = 1").run(new Uint8Array(market.buffer));
      truth.query("INSERT OR REPLACE INTO truth_meta (key, value) VALUES ('months', ?)").run(String(months));
    })();
  }
  phase.end();
  const artistIndex = new Map<number, Float64Array>();
  const artistRow = truth.query<{ first_log_index: number; log_index_steps: Uint8Array }, [number]>(
    "SELECT first_log_index, log_index_steps FROM artist_truth WHERE artist_id = ?",
  );
  const workRow = truth.query<{ hedonic: number; quality: number }, [number]>("SELECT hedonic, quality FROM artwork_truth WHERE artwork_id = ?");
  /** A work's true value (USD) in the month of `day`, and its hidden quality; null for a work the truth does not know. */
  const trueValue = (artistId: number, artworkId: number, day: number): { usd: number; quality: number } | null => {
    let index = artistIndex.get(artistId);
    if (!index) {
      const row = artistRow.get(artistId);
      if (!row) return null;
      index = unpackLogIndex(row.first_log_index, row.log_index_steps);
      artistIndex.set(artistId, index);
    }
    const w = workRow.get(artworkId);
    if (!w) return null;
    const m = Math.min(index.length - 1, monthIndex(fromDayNumber(day)));
    const quality = w.quality * TRUTH_STEP;
    return { usd: Math.exp(w.hedonic * TRUTH_STEP + quality + index[m]!), quality };
  };

  // ------------------------------------------------------------ FX: the new days
  phase = progress.phase("fx rates", options.days);
  const fxRecords: Rec[] = [];
  const latest = new Map<string, number>();
  for (const code of CURRENCY_CODES) {
    const r = latestRate(db, code, from)?.rate;
    if (r !== undefined) latest.set(code, r);
  }
  const newRates = new Map<number, Map<string, number>>();
  for (let d = fromDay + 1; d <= toDay; d++) {
    const r = keyed(seed, STREAM.fx, d);
    const today = new Map<string, number>();
    for (const code of CURRENCY_CODES) {
      const prev = code === "USD" ? 1 : latest.get(code);
      if (prev === undefined) continue;
      const rate = code === "USD" ? 1 : nextFxRate(r, code, prev);
      latest.set(code, rate);
      today.set(code, rate);
      fxRecords.push({ code, day: fromDayNumber(d), usd_per_unit: rate });
    }
    newRates.set(d, today);
    phase.tick(d - fromDay);
  }
  phase.end();
  /** The rate of `code` on `day` (a day after the new as-of date: the new as-of date's). */
  const rateOn = (code: string, day: number): number => {
    if (code === "USD") return 1;
    const d = Math.min(day, toDay);
    const rate = d > fromDay ? newRates.get(d)?.get(code) : latestRate(db, code, fromDayNumber(d))?.rate;
    if (rate === undefined) throw new FeedError(`no FX rate for ${code} on ${fromDayNumber(d)}`);
    return rate;
  };

  // ------------------------------------------------------------ houses
  const houseRows = db
    .query<{ id: number; name: string; city: string | null; is_live: number }, []>("SELECT id, name, city, is_live FROM auction_houses ORDER BY priority_order, id")
    .all();
  const houses: HouseInfo[] = houseRows.map((h, rank) => ({
    id: h.id,
    name: h.name,
    location: Math.max(
      0,
      LOCATIONS.findIndex((l) => l[0] === h.city),
    ),
    tier: houseTier(rank, houseRows.length),
    isLive: h.is_live === 1,
  }));
  const topHouses = new Set(houseRows.slice(0, TOP_HOUSE_COUNT).map((h) => h.id));

  // ------------------------------------------------------------ the sales that move: results, statuses
  type SaleRow = {
    id: number;
    house_id: number;
    name: string;
    location: string;
    currency: string;
    is_online: number;
    is_bids_streaming: number;
    status: string;
    start_datetime: string;
    end_datetime: string;
  };
  type LotRow = {
    id: number;
    sale_id: number;
    artwork_id: number;
    artist_id: number;
    lot_num: string;
    lot_seq: number;
    status: string;
    currency: string;
    estimate_min: number | null;
    estimate_max: number | null;
    is_top: number;
    reserve_mark: number;
    third_party_mark: number;
    notes: string | null;
    sale_datetime: number;
  };
  const moving = db
    .query<SaleRow, []>(
      `SELECT id, house_id, name, location, currency, is_online, is_bids_streaming, status, start_datetime, end_datetime FROM src_sales s
       WHERE s.status <> 'closed'
          -- a closed sale with lots still open: found through the open statuses' own indexes
          -- (lots_upcoming, lots_unknown), not by reading every sale's lots
          OR s.id IN (SELECT sale_id FROM lots WHERE status = 'upcoming' UNION SELECT sale_id FROM lots WHERE status = 'unknown')
       ORDER BY id`,
    )
    .all();
  const lotsOf = db.query<LotRow, [number]>(
    `SELECT l.id, l.sale_id, l.artwork_id, l.artist_id, l.lot_num, l.lot_seq, l.status, l.currency, l.estimate_min, l.estimate_max, l.is_top,
            l.reserve_mark, l.third_party_mark, n.text AS notes, l.sale_datetime
     FROM lots l LEFT JOIN lot_notes n ON n.id = l.notes_id WHERE l.sale_id = ? ORDER BY l.id`,
  );
  const saleRecords = new Map<number, Rec>();
  const lotRecords = new Map<number, Rec>();
  const resolved: Record<string, number> = { sold: 0, passed: 0, withdrawn: 0 };
  const recordSales: { artistId: number; artworkId: number; day: number; usd: number }[] = [];
  let publishedSales = 0;
  let pendingSales = 0;
  const minuteOf = (iso: string) => Math.round(Date.parse(iso) / 60_000);
  const saleRecord = (s: SaleRow, status: string): Rec => ({
    id: s.id,
    house_id: s.house_id,
    name: s.name,
    location: s.location,
    currency: s.currency,
    is_online: s.is_online === 1,
    is_bids_streaming: s.is_bids_streaming === 1,
    status,
    start_datetime: s.start_datetime,
    end_datetime: s.end_datetime,
  });
  const lotRecord = (l: LotRow, status: string, hammer: number | null, premium: number | null): Rec => ({
    id: l.id,
    sale_id: l.sale_id,
    artwork_id: l.artwork_id,
    lot_num: l.lot_num,
    lot_seq: l.lot_seq,
    status,
    currency: l.currency,
    ...(hammer === null ? {} : { hammer, premium }),
    ...(l.estimate_min === null ? {} : { estimate_min: l.estimate_min }),
    ...(l.estimate_max === null ? {} : { estimate_max: l.estimate_max }),
    is_top: l.is_top === 1,
    reserve_mark: l.reserve_mark === 1,
    third_party_mark: l.third_party_mark === 1,
    ...(l.notes ? { notes: l.notes } : {}),
  });
  phase = progress.phase("results", moving.length);
  moving.forEach((s, i) => {
    phase.tick(i + 1);
    const start = minuteOf(s.start_datetime);
    const end = minuteOf(s.end_datetime);
    const status = end < nowMinute ? "closed" : start > nowMinute ? "upcoming" : s.is_online === 0 && Math.floor(end / 1440) > Math.floor(start / 1440) ? "session_off" : "live";
    if (status !== s.status) saleRecords.set(s.id, saleRecord(s, status));
    if (status !== "closed") return;
    const published = Math.max(fromDay + 1, Math.floor(end / 1440) + publicationDelay(seed, s.id, topHouses.has(s.house_id)));
    const open = lotsOf.all(s.id).filter((l) => l.status === "upcoming" || l.status === "unknown");
    if (!open.length) return;
    if (published > toDay) {
      // held, not yet published: the results are unknown until the house publishes them
      pendingSales++;
      for (const l of open) if (l.status !== "unknown") lotRecords.set(l.id, lotRecord(l, "unknown", null, null));
      return;
    }
    publishedSales++;
    if (!saleRecords.has(s.id)) saleRecords.set(s.id, saleRecord(s, status));
    for (const l of open) {
      const day = Math.floor(l.sale_datetime / 86_400);
      const value = trueValue(l.artist_id, l.artwork_id, day);
      if (!value) continue;
      const rate = rateOn(l.currency, day);
      const outcome = lotOutcome(keyed(seed, STREAM.lot, l.id), value.usd, l.estimate_min ?? 0, l.reserve_mark === 1, rate);
      resolved[outcome.status] = (resolved[outcome.status] ?? 0) + 1;
      lotRecords.set(l.id, lotRecord(l, outcome.status, outcome.hammer, outcome.premium));
      if (outcome.hammer !== null) recordSales.push({ artistId: l.artist_id, artworkId: l.artwork_id, day, usd: outcome.hammer * rate });
    }
  });
  phase.end();

  // ------------------------------------------------------------ new sales, eight weeks ahead, with their catalogues
  phase = progress.phase("new sales and catalogues", options.days);
  let nextSaleId = (db.query<{ n: number | null }, []>("SELECT max(id) AS n FROM src_sales").get()?.n ?? 0) + 1;
  let nextLotId = (db.query<{ n: number | null }, []>("SELECT max(id) AS n FROM lots").get()?.n ?? 0) + 1;
  const maxArtwork = db.query<{ n: number | null }, []>("SELECT max(id) AS n FROM artworks").get()?.n ?? 0;
  const workOf = db.query<{ artist_id: number; signed: number }, [number]>("SELECT artist_id, signed FROM artworks WHERE id = ?");
  const lastOffer = db.query<{ last: number | null; open: number }, [number]>(
    "SELECT max(sale_datetime) AS last, count(*) FILTER (WHERE status IN ('upcoming', 'unknown')) AS open FROM lots WHERE artwork_id = ?",
  );
  const consigned = new Set<number>();
  for (const l of lotRecords.values()) consigned.add(l.artwork_id as number);
  const perDay = comingSaleCount(spec) / COMING_DAYS;
  let newSales = 0;
  let newLots = 0;
  for (let d = fromDay + 1; d <= toDay; d++) {
    const r = keyed(seed, STREAM.sales, d);
    const count = r.poisson(perDay);
    for (let k = 0; k < count; k++) {
      const draft = draftSale(r, d + COMING_DAYS, houses);
      const facts = saleFacts(r, draft);
      const { start, end } = saleMinutes(draft);
      const saleId = nextSaleId++;
      saleRecords.set(saleId, {
        id: saleId,
        house_id: draft.house.id,
        name: facts.name,
        location: facts.city,
        currency: facts.currency,
        is_online: draft.online,
        is_bids_streaming: facts.streaming,
        status: saleStatusAt(draft, nowMinute),
        start_datetime: isoMinute(start),
        end_datetime: isoMinute(end),
      });
      newSales++;
      // the catalogue: works drawn at random from those not offered in the last year nor consigned,
      // valued at the announcement's month with the house's estimate; the sale takes its tier's
      // band of their values (the top houses the most valuable), as the seed's coming sales do
      const kind = draft.online ? 2 : draft.evening ? 1 : 0;
      const target = catalogueTarget(r, spec.lotsPerSale, draft.tier, kind, draft.days);
      const [lo, width] = TIER_BANDS[draft.tier]!;
      const poolSize = Math.ceil(target / width);
      const pool: { artworkId: number; artistId: number; signed: boolean; quality: number; midUsd: number }[] = [];
      for (let attempt = 0; pool.length < poolSize && attempt < poolSize * 20 && maxArtwork > 0; attempt++) {
        const artworkId = 1 + Math.floor(r.next() * maxArtwork);
        if (consigned.has(artworkId)) continue;
        const work = workOf.get(artworkId);
        if (!work) continue;
        const offers = lastOffer.get(artworkId);
        if (offers && (offers.open > 0 || (offers.last !== null && offers.last > (d - 365) * 86_400))) continue;
        const value = trueValue(work.artist_id, artworkId, d);
        if (!value) continue;
        consigned.add(artworkId);
        pool.push({ artworkId, artistId: work.artist_id, signed: work.signed === 1, quality: value.quality, midUsd: houseMidpoint(r, value.usd) });
      }
      pool.sort((x, y) => y.midUsd - x.midUsd || x.artworkId - y.artworkId);
      const first = Math.min(Math.floor(lo * pool.length), Math.max(0, pool.length - target));
      const lots = pool.slice(first, first + target);
      for (const w of pool) if (!lots.includes(w)) consigned.delete(w.artworkId);
      for (let i = lots.length - 1; i > 0; i--) {
        const j = Math.floor(r.next() * (i + 1));
        [lots[i], lots[j]] = [lots[j]!, lots[i]!];
      }
      const rate = rateOn(facts.currency, d);
      lots.forEach((w, i) => {
        const { estMin, estMax } = houseEstimates(w.midUsd, rate);
        const reserve = r.chance(MODEL.reserveShare);
        const seq = i + 1;
        const lotNum = r.chance(0.02) ? `${seq}A` : String(seq);
        const notesFor = w.signed ? NOTE_PHRASES[0]! : "";
        const notes = r.chance(0.5) ? `${notesFor}${notesFor ? "; " : ""}${r.pick(NOTE_PHRASES)}` : notesFor;
        const id = nextLotId++;
        lotRecords.set(id, {
          id,
          sale_id: saleId,
          artwork_id: w.artworkId,
          lot_num: lotNum,
          lot_seq: seq,
          status: "upcoming",
          currency: facts.currency,
          estimate_min: estMin,
          estimate_max: estMax,
          is_top: estMax * rate >= TOP_LOT_MIN_ESTIMATE_USD || w.quality > 0.5,
          reserve_mark: reserve,
          third_party_mark: estMax * rate >= 1_000_000 && r.chance(0.3),
          ...(notes ? { notes } : {}),
        });
        newLots++;
      });
    }
    phase.tick(d - fromDay);
  }
  phase.end();

  // ------------------------------------------------------------ artist events: auction records, exhibitions
  phase = progress.phase("artist events");
  const events: { artist_id: number; date: string; type: string; title: string; description: string; visible: boolean }[] = [];
  const record = db.query<{ c: number | null }, [number]>("SELECT max(hammer_usd_cents) AS c FROM lots WHERE artist_id = ?");
  const titleOf = db.query<{ title: string }, [number]>("SELECT title FROM artworks WHERE id = ?");
  const best = new Map<number, number>();
  recordSales.sort((a, b) => a.day - b.day || b.usd - a.usd || a.artworkId - b.artworkId);
  for (const s of recordSales) {
    const before = best.get(s.artistId) ?? (record.get(s.artistId)?.c ?? 0) / 100;
    if (s.usd <= before) continue;
    best.set(s.artistId, s.usd);
    events.push({
      artist_id: s.artistId,
      date: fromDayNumber(s.day),
      type: "Major Sales",
      title: `Auction record: ${titleOf.get(s.artworkId)?.title ?? "untitled"}`,
      description: `Sold for USD ${Math.round(s.usd).toLocaleString("en-US")}`,
      visible: true,
    });
  }
  // exhibitions and publications: more for the famous (fame from the artist's base level, as the seed draws it)
  const fame = truth.query<{ artist_id: number; base_log_value: number }, []>("SELECT artist_id, base_log_value FROM artist_truth ORDER BY artist_id").all();
  const weights = new Float64Array(fame.length);
  let totalWeight = 0;
  fame.forEach((a, i) => {
    totalWeight += Math.exp((a.base_log_value - Math.log(MODEL.baseUsd)) / MODEL.fameSd);
    weights[i] = totalWeight;
  });
  const pickArtist = (u: number): number => {
    let lo = 0;
    let hi = weights.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (weights[mid]! < u * totalWeight) lo = mid + 1;
      else hi = mid;
    }
    return fame[lo]!.artist_id;
  };
  for (let d = fromDay + 1; d <= toDay && fame.length; d++) {
    const r = keyed(seed, STREAM.events, d);
    const exhibitions = r.poisson(fame.length / 2_000);
    for (let k = 0; k < exhibitions; k++)
      events.push({
        artist_id: pickArtist(r.next()),
        date: fromDayNumber(d),
        type: "Major Exhibitions",
        title: r.pick(EVENT_TEXT.exhibitions),
        description: "",
        visible: r.chance(0.92),
      });
    const publications = r.poisson(fame.length / 10_000);
    for (let k = 0; k < publications; k++)
      events.push({
        artist_id: pickArtist(r.next()),
        date: fromDayNumber(d),
        type: "Major Publications",
        title: r.pick(EVENT_TEXT.publications),
        description: "",
        visible: r.chance(0.92),
      });
  }
  let nextEventId = (db.query<{ n: number | null }, []>("SELECT max(id) AS n FROM artist_events").get()?.n ?? 0) + 1;
  events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || a.artist_id - b.artist_id || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  const eventRecords = events.map((e) => ({ id: nextEventId++, ...e }));
  phase.end();

  // ------------------------------------------------------------ the import directory
  phase = progress.phase("write");
  const to = resolve(options.to);
  mkdirSync(to, { recursive: true });
  const lines = (rows: Iterable<Rec>) => {
    let text = "";
    for (const r of rows) text += `${JSON.stringify(r)}\n`;
    return text;
  };
  const byId = (m: Map<number, Rec>) => [...m.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  const files: [string, Rec[]][] = [
    ["fx_rates.jsonl", fxRecords],
    ["artist_events.jsonl", eventRecords],
    ["sales.jsonl", byId(saleRecords)],
    ["lots.jsonl", byId(lotRecords)],
  ];
  const counts: Record<string, number> = {};
  for (const [name, rows] of files) {
    writeFileSync(join(to, name), lines(rows));
    counts[name] = rows.length;
  }
  // the manifest last: a directory with one is complete
  writeFileSync(
    join(to, "manifest.json"),
    `${JSON.stringify({ format: "artmarket-import", version: FORMAT_VERSION, as_of: asOf, feed: { from, days: options.days, seed, scale } }, null, 2)}\n`,
  );
  phase.end();
  return { from, asOf, days: options.days, to, seed, counts, resolved, publishedSales, pendingSales, newSales, newLots, truthMonths, seconds: progress.elapsed() };
}

export function formatFeedSummary(s: FeedSummary): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return [
    `feed: ${s.days} day(s) after ${s.from} (seed ${s.seed}), as of ${s.asOf}, written to ${s.to} in ${s.seconds.toFixed(1)}s`,
    `  results published  ${n(s.publishedSales)} sales: ${n(s.resolved.sold ?? 0)} sold, ${n(s.resolved.passed ?? 0)} passed, ${n(s.resolved.withdrawn ?? 0)} withdrawn`,
    `  awaiting results   ${n(s.pendingSales)} sales held, not yet published by their houses`,
    `  announced          ${n(s.newSales)} sales with ${n(s.newLots)} upcoming lots`,
    ...Object.entries(s.counts).map(([file, count]) => `  ${file.padEnd(18)} ${n(count)} records`),
    `  truth              ${s.truthMonths ? `extended by ${s.truthMonths} month(s)` : "already covered the new months"}`,
    `  next               artmarket import --from ${s.to} --mode merge`,
  ].join("\n");
}
