/**
 * One artist's part of the derivation (pass 2, src/pipeline/derive/artist-pass.ts), given the market-wide
 * model that pass 1 and the calibration produce: its own monthly log index around the market,
 * each work's own effect, every artwork's estimate and band, the chart, analytics documents,
 * repeat-sale pairs and the artist's stats, returned as the rows to write. Each artist depends on
 * the model alone, so artists can be derived on several threads (artist-worker.ts) and give the
 * same rows in any split. Formulas: docs/derivation.md.
 */
import type { Database } from "bun:sqlite";
import { observedMonths, predictionBand, type SmoothResult, SmoothWorkspace, smoothAtObserved, smoothIndex, Z80 } from "../../analytics/index-model";
import { cagr, medianCarByYear, momentum, momentumPercent, repeatSalePairs, sharpeRatios } from "../../analytics/returns";
import { careerPath, lotOutcome, salesVolume } from "../../analytics/shapes";
import { median } from "../../analytics/stats";
import { storedArtworkUid } from "../../db/artwork-uid";
import { packDocument } from "../../db/documents";
import { lotUsdColumns, usdCents } from "../../db/fx";
import { packLinearSeries, packLogSeries } from "../../db/series";
import { sizeBucket } from "../../market/sizes";
import { monthDate, monthIndex } from "../../market/calendar";
import { dayNumber, isoOfSeconds } from "../../market/time";
import { estimateReading, forecast, lotContexts, lotFeatures, shiftFor, UPCOMING_K, type UpcomingModel } from "./upcoming";

export interface ArtworkRow {
  id: number;
  uid: string;
  title: string;
  category_id: number;
  medium: string;
  material_ids: string;
  substrate_id: number | null;
  creation_year: number | null;
  height_cm: number | null;
  width_cm: number | null;
  depth_cm: number | null;
  signed: number;
  edition_group_id: number | null;
  edition_number: number | null;
  edition_size: number | null;
  image_id: number | null;
}

/** The attributes of a work that its features (FeatureSpace) read. */
export type FeatureRow = Pick<ArtworkRow, "id" | "category_id" | "material_ids" | "height_cm" | "width_cm" | "depth_cm" | "signed" | "edition_size" | "creation_year"> &
  Partial<Pick<ArtworkRow, "substrate_id">>;

/** A work's medium as a key of FeatureSpace.media: category, first material, substrate. */
export const mediumKey = (categoryId: number, materialIds: string, substrateId: number | null | undefined): string =>
  `${categoryId}:${Number.parseInt(materialIds.split(",")[0] ?? "", 10) || 0}:${substrateId ?? 0}`;

export interface LotRow {
  id: number;
  artwork_id: number;
  status: string;
  /** ISO text (stored as Unix seconds; artistReader converts it). */
  sale_datetime: string;
  hammer_usd: number | null;
  premium_usd: number | null;
  estimate_min_usd: number | null;
  estimate_max_usd: number | null;
  currency: string;
  /** 1: offered with a reserve; 0: without (null: not known, read as with). */
  reserve_mark?: number | null;
  /** The sale's house and location (the upcoming lots' forecasts read their record). */
  house_id?: number;
  location_id?: number;
}

export interface ArtistRow {
  id: number;
  uid: string;
  name: string;
  synonyms: string;
  nationality: string;
  birth: number | null;
  death: number | null;
  bio: string;
  long_bio: string;
  is_top: number;
  photo_image_id: number | null;
}

/**
 * Where the career curve may level off, in a² (a: years from the 40th year of life, in units of
 * 25): about 40 years from it (√2.5 × 25). Past it, max(0, a² − CAREER_FLAT) is a feature of its
 * own, so the fitted curve can stop falling rather than follow the quadratic down (very early and
 * very late works). Measured on medium: 2.0, 2.5 and 3.0 score alike.
 */
export const CAREER_FLAT = 2.5;

/** Attribute features of a work (the hedonic part): fixed layout, documented in docs/derivation.md. */
export class FeatureSpace {
  readonly categories: number;
  readonly materials: number;
  /** category one-hots (Painting is the base), material one-hots, media one-hots, log area, area missing, signed, log edition, career flattening max(0, a² − CAREER_FLAT), career a, career a². */
  readonly size: number;
  /** One-hots of their own for these media (mediumKey → index), after the materials'. */
  readonly media: Map<string, number>;
  constructor(categories: number, materials: number, media: readonly string[] = []) {
    this.categories = categories;
    this.materials = materials;
    this.media = new Map(media.map((k, i) => [k, i]));
    this.size = categories - 1 + materials + this.media.size + 7;
  }

  fill(out: Float64Array, w: FeatureRow, birth: number | null): void {
    out.fill(0);
    if (w.category_id >= 2 && w.category_id <= this.categories) out[w.category_id - 2] = 1;
    const first = Number.parseInt(w.material_ids.split(",")[0] ?? "", 10);
    if (first >= 1 && first <= this.materials) out[this.categories - 1 + first - 1] = 1;
    let o = this.categories - 1 + this.materials;
    if (this.media.size > 0) {
      const k = this.media.get(mediumKey(w.category_id, w.material_ids, w.substrate_id));
      if (k !== undefined) out[o + k] = 1;
      o += this.media.size;
    }
    const h = w.height_cm;
    const wd = w.width_cm;
    if (h !== null && wd !== null) {
      const area = w.depth_cm !== null ? h * wd * 0.6 + w.depth_cm * h * 0.4 : h * wd;
      out[o] = Math.log(Math.max(area, 50) / 2500);
    } else out[o + 1] = 1;
    o += 2;
    out[o++] = w.signed ? 1 : 0;
    out[o++] = w.edition_size ? Math.log(w.edition_size) : 0;
    if (birth !== null && w.creation_year !== null) {
      const a = (w.creation_year - birth - 40) / 25;
      out[o++] = Math.max(0, a * a - CAREER_FLAT);
      out[o++] = a;
      out[o] = a * a;
    }
  }
}

/** Log of the midpoint (geometric mean) of a house estimate in USD; null without both bounds > 0. */
export function estimateMidLog(min: number | null, max: number | null): number | null {
  if (min === null || max === null || !(min > 0) || !(max > 0)) return null;
  return 0.5 * (Math.log(min) + Math.log(max));
}

const dot = (a: Float64Array, b: Float64Array, n: number) => {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
};

/** The posterior variance of a work's own effect, from the weight of its readings (in sold lots). */
export function workEffectVar(weight: number, saleVar: number, workVar: number): number {
  return 1 / (weight / saleVar + 1 / workVar);
}

/**
 * Backfitting passes of an artist's fit (level, loading, works' own effects, career shift).
 */
export const BACKFIT_PASSES = 12;

/**
 * Prior variance of where an artist's own career curve peaks, as a shift of the shared curve
 * along a (units of 25 years): sd 0.24, about six years either side of the shared peak (0.06 and
 * 0.1 measured alike on medium).
 */
export const CAREER_SHIFT_VAR = 0.06;

/** The largest shift of an artist's career peak the fit takes (50 years). */
export const MAX_CAREER_SHIFT = 2;

/** ISO text of lots' sale times (stored as Unix seconds); each distinct time (one per sale) converted once. */
export class SaleTimes {
  private readonly cache = new Map<number, string>();
  iso(seconds: number): string {
    let s = this.cache.get(seconds);
    if (s === undefined) this.cache.set(seconds, (s = isoOfSeconds(seconds)));
    return s;
  }
}

/** What every artist's fit shares: set by pass 1 and the calibration; plain data (sent to worker threads). */
export interface ArtistModel {
  asOf: string;
  /** The day a year before asOf (the stats' trailing 12 months). */
  oneYearAgo: string;
  /** Months from FIRST_YEAR-01 to asOf's month, inclusive. */
  months: number;
  categories: number;
  materials: number;
  /** Media with a one-hot of their own in the hedonic features (FeatureSpace.media). */
  media: string[];
  /** Hedonic coefficients (the first FeatureSpace.size are the features'). */
  beta: Float64Array;
  /** The market's monthly log level. */
  marketLevel: Float64Array;
  processVar: number;
  /** Added to every artwork estimate's log (and its band): see estimateCentre in index.ts. */
  centre: number;
  /** The band's width over the model's standard deviation, measured out of sample: see estimateCentre in index.ts. */
  bandScale: number;
  /**
   * What a lot fetches over its house estimate's midpoint (log), by the lot's status: `sold` for a
   * sold lot with a reserve (or any sold lot without a split by reserve) and any status without its
   * own offset, `sold_unreserved` for a sold lot without one (src/pipeline/derive/offsets.ts).
   */
  estOffsets: Record<string, number>;
  /**
   * Added to a sold lot's log hammer by whether it had a reserve (`unreserved`: reserve_mark 0),
   * so that hammers with and without a reserve read the same value (docs/derivation.md).
   */
  hammerOffsets: { reserved: number; unreserved: number };
  categoryNames: [number, string][];
  /** The upcoming lots' model (src/pipeline/derive/upcoming.ts): null without one (too few concluded lots to fit it). */
  upcoming?: UpcomingModel | null;
}

/** The variances an artist's fit reads (calibrated in rounds, then fixed for pass 2). */
export interface ArtistNoise {
  saleVar: number;
  workVar: number;
  estVar: number;
  loadingVar: number;
}

type Cell = string | number | bigint | boolean | null | Uint8Array;

/** The rows one artist adds to the served tables, in the column order of ARTIST_INSERTS. */
export interface ArtistOutput {
  artist: Cell[];
  artworks: Cell[][];
  chart: Cell[];
  docs: [string, Uint8Array][];
  /** Artworks with an estimate. */
  estimated: number;
  /** The artist's upcoming lots' forecasts: lot id, sale probability, expected hammer, its band's low and high (USD; null without a base). */
  forecasts: (number | null)[][];
}

/** The statements that write an ArtistOutput. */
export const ARTIST_INSERTS = {
  artist: `INSERT INTO artists (id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id, total_sales, market_cap,
       max_price, min_price, price_momentum_percentage_12mo, price_momentum_percentage_5y, artworks_count, recent_lots_count,
       total_sales_lots_1yr, total_sales_price_median_1yr, lots_count)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  artwork: `INSERT INTO artworks (id, uid, artist_id, title, category_id, medium, material_ids, substrate_id, creation_year, height_cm, width_cm,
       depth_cm, size_bucket, edition_group_id, edition_number, edition_size, image_id, lots_count, last_lot_status, date_last_upcoming,
       day_last_sold, currency, last_hammer_usd_cents, last_premium_usd_cents, estimate_usd, estimate_min_usd, estimate_max_usd,
       price_momentum_12mo_ppm, price_change_12mo, price_momentum_24mo_ppm, price_change_24mo, cagr_ppm, artist_market_cap, signed)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  chart: "INSERT INTO artist_charts (artist_id, start_month, points, stderr, vector) VALUES (?, ?, ?, ?, ?)",
  doc: "INSERT INTO artist_analytics (artist_id, kind, body) VALUES (?, ?, ?)",
} as const;

/** An INSERT statement's table and its columns in order (one of ARTIST_INSERTS, or another single-table INSERT). */
export function insertTarget(sql: string): { table: string; columns: string[] } {
  const m = /INSERT INTO (\w+) \(([^)]*)\)/.exec(sql.replace(/\s+/g, " "));
  if (!m) throw new Error(`not an INSERT: ${sql}`);
  return { table: m[1]!, columns: m[2]!.split(",").map((c) => c.trim()) };
}

/** Writes one artist's rows (on the connection that owns the snapshot); each row binds as one array, the cheapest way for bun:sqlite. */
export function artistWriter(db: Database): (out: ArtistOutput) => void {
  const artist = db.query(ARTIST_INSERTS.artist);
  const artwork = db.query(ARTIST_INSERTS.artwork);
  const chart = db.query(ARTIST_INSERTS.chart);
  const doc = db.query(ARTIST_INSERTS.doc);
  return (out) => {
    for (const row of out.artworks) artwork.run(row as never);
    const id = out.artist[0] as number;
    for (const [kind, body] of out.docs) doc.run(id, kind, body);
    chart.run(out.chart as never);
    artist.run(out.artist as never);
  };
}

/** What an artist's fit reads: its row, its works and its lots (sale times as Unix seconds). */
export interface ArtistSource {
  artist: ArtistRow;
  works: ArtworkRow[];
  lots: LotRow[];
}

/**
 * Reads an artist's works and lots on `db`, sale times as ISO text (each distinct time, one per
 * sale, converted once).
 */
export function artistReader(db: Database): (artist: ArtistRow) => ArtistSource {
  const saleTimes = new SaleTimes();
  const artworksOf = db.query<ArtworkRow, [number]>(
    `SELECT id, uid, title, category_id, medium, material_ids, substrate_id, creation_year, height_cm, width_cm, depth_cm, signed,
            edition_group_id, edition_number, edition_size, image_id
     FROM src_artworks WHERE artist_id = ? ORDER BY id`,
  );
  const lotsOf = db.query<LotRow, [number]>(
    `SELECT id, artwork_id, status, sale_datetime, ${lotUsdColumns()}, currency, reserve_mark, house_id, location_id
     FROM lots WHERE artist_id = ? ORDER BY sale_datetime, id`,
  );
  return (artist) => {
    const lots = lotsOf.all(artist.id);
    // the rows are read as seconds: their sale time is rewritten in place (no copy per lot)
    for (const l of lots) l.sale_datetime = saleTimes.iso(l.sale_datetime as unknown as number);
    return { artist, works: artworksOf.all(artist.id), lots };
  };
}

/**
 * Fits artists against the model, from their works and lots (read by artistReader on the thread
 * that owns the snapshot; a worker thread gets them with each page and never opens it).
 */
export class ArtistDeriver {
  private readonly space: FeatureSpace;
  private readonly K: number;
  /** Position of the career feature a = (creation year − birth − 40) / 25 in a feature vector. */
  private readonly careerA: number;
  private readonly zero: Float64Array;
  private readonly ws = new SmoothWorkspace();
  private readonly categoryNames: Map<number, string>;

  constructor(private readonly m: ArtistModel) {
    this.space = new FeatureSpace(m.categories, m.materials, m.media);
    this.K = this.space.size;
    this.careerA = this.K - 2;
    this.zero = new Float64Array(this.K);
    this.categoryNames = new Map(m.categoryNames);
  }

  /** Fits one artist: its own monthly log index (around the market) and each work's own effect. */
  fit(source: ArtistSource, noise: ArtistNoise) {
    const { artist, works, lots } = source;
    const { months, beta, marketLevel, estOffsets, hammerOffsets, processVar } = this.m;
    const T = months - 1;
    const K = this.K;
    const CAREER_A = this.careerA;
    const x = this.zero;
    const ws = this.ws;
    const featsOf = new Map<number, Float64Array>();
    // each work's career position a, NaN without a birth or a creation year
    const careerOf = new Map<number, number>();
    for (const w of works) {
      const f = new Float64Array(K);
      this.space.fill(f, w, artist.birth);
      featsOf.set(w.id, f);
      careerOf.set(w.id, artist.birth !== null && w.creation_year !== null ? f[CAREER_A]! : Number.NaN);
    }
    // observations: sold lots' residuals after market and hedonic parts (weight 1), then every
    // lot's house estimate, shifted by the offset, read with variance estVar (weight saleVar / estVar)
    const sold = lots.filter((l) => l.status === "sold" && l.hammer_usd! > 0);
    const nSold = sold.length;
    const useEstimates = Number.isFinite(noise.estVar) && noise.estVar > 0;
    const estW = useEstimates ? noise.saleVar / noise.estVar : 0;
    const withEstimate = useEstimates ? lots.filter((l) => estimateMidLog(l.estimate_min_usd, l.estimate_max_usd) !== null) : [];
    const n = nSold + withEstimate.length;
    const obsMonth = new Int32Array(n);
    const obsZ = new Float64Array(n);
    const obsWork = new Int32Array(n);
    const obsW = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const l = i < nSold ? sold[i]! : withEstimate[i - nSold]!;
      const m = Math.max(0, Math.min(T, monthIndex(l.sale_datetime)));
      obsMonth[i] = m;
      obsWork[i] = l.artwork_id;
      const unreserved = l.reserve_mark === 0;
      const y =
        i < nSold
          ? Math.log(l.hammer_usd!) + (unreserved ? hammerOffsets.unreserved : hammerOffsets.reserved)
          : estimateMidLog(l.estimate_min_usd, l.estimate_max_usd)! + (estOffsets[l.status === "sold" && unreserved ? "sold_unreserved" : l.status] ?? estOffsets.sold!);
      obsZ[i] = y - marketLevel[m]! - dot(beta, featsOf.get(l.artwork_id) ?? x, K);
      obsW[i] = i < nSold ? 1 : estW;
    }
    // backfit: level ← smooth(z − u); u_i ← shrunk weighted mean of (z − level) per work
    const kappa = noise.saleVar / noise.workVar;
    const u = new Map<number, number>();
    const uCount = new Map<number, number>();
    // each observation's work as an index in order of first appearance: the passes' per-work sums
    // and effects in arrays (u and uCount are filled from them once the passes are done)
    const workAt = new Int32Array(n);
    const workIds: number[] = [];
    {
      const at = new Map<number, number>();
      for (let i = 0; i < n; i++) {
        let k = at.get(obsWork[i]!);
        if (k === undefined) {
          k = workIds.length;
          at.set(obsWork[i]!, k);
          workIds.push(obsWork[i]!);
        }
        workAt[i] = k;
      }
    }
    const effect = new Float64Array(workIds.length);
    const effectWeight = new Float64Array(workIds.length);
    const effectSum = new Float64Array(workIds.length);
    let level: Float64Array<ArrayBufferLike> = new Float64Array(months);
    let stderr: Float64Array<ArrayBufferLike> = new Float64Array(months).fill(Number.NaN);
    const adj = new Float64Array(n);
    const observed = new Uint8Array(months);
    for (let i = 0; i < nSold; i++) observed[obsMonth[i]!] = 1;
    // the artist's own career peak: the shared career curve g (the hedonic terms in a) shifted by
    // `shift` along a, so a work's career term is g(a − shift) − g(a) over its hedonic part; taken
    // about its weighted mean over the observations (shiftMean), so the level keeps the constant
    const obsA = new Float64Array(n);
    let wSum = 0;
    for (let i = 0; i < n; i++) {
      obsA[i] = careerOf.get(obsWork[i]!) ?? Number.NaN;
      wSum += obsW[i]!;
    }
    let shift = 0;
    let shiftMean = 0;
    const term = new Float64Array(n);
    const grad = new Float64Array(n);
    const setShift = () => {
      let s = 0;
      let d = 0;
      for (let i = 0; i < n; i++) {
        const a = obsA[i]!;
        term[i] = Number.isNaN(a) ? 0 : this.career(a - shift) - this.career(a);
        grad[i] = Number.isNaN(a) ? 0 : -this.careerSlope(a - shift);
        s += obsW[i]! * term[i]!;
        d += obsW[i]! * grad[i]!;
      }
      shiftMean = wSum > 0 ? s / wSum : 0;
      const gradMean = wSum > 0 ? d / wSum : 0;
      for (let i = 0; i < n; i++) {
        term[i]! -= shiftMean;
        grad[i]! -= gradMean;
      }
    };
    setShift();
    // the artist's own loading on the market beyond 1: z carries loading · M(t), estimated by
    // generalised least squares against the index's random walk (the smoother's residuals are
    // Σ⁻¹ times the data), shrunk with prior variance loadingVar
    let loading = 0;
    let loadingNum = 0;
    let loadingDen = 0;
    const obsM = new Float64Array(n);
    for (let i = 0; i < n; i++) obsM[i] = marketLevel[obsMonth[i]!]!;
    // the loading's part of each observation, loading · M(t)
    const trend = new Float64Array(n);
    // the smoother's level of M itself: the smoother is linear in its data, so the level of
    // (adj − loading·M) is the level of adj less loading times this, and it changes only with the
    // observation variance (the first pass's and the rest's): a pass runs the smoother once
    let marketSmooth: Float64Array | null = null;
    if (nSold > 0) {
      // The passes before the last read the level at the observed months only, and smooth there
      // alone (smoothAtObserved: O(observations), not O(months)); the last pass smooths every
      // month. `lv`: this pass's level at the observed months; `marketAt`: marketSmooth's.
      const om = observedMonths(obsMonth, n, months);
      const place = om.place;
      const lv = new Float64Array(om.count);
      const marketAt = new Float64Array(om.count);
      let marketSmoothVar = Number.NaN;
      for (let iter = 0; iter < BACKFIT_PASSES; iter++) {
        const lastPass = iter === BACKFIT_PASSES - 1;
        const obsVar = noise.saleVar + (iter === 0 ? noise.workVar : 0);
        const smoothOpts = { processVar, obsVar, initVar: Number.POSITIVE_INFINITY };
        for (let i = 0; i < n; i++) adj[i] = obsZ[i]! - effect[workAt[i]!]! - term[i]!;
        if (noise.loadingVar > 0 && obsVar !== marketSmoothVar) {
          const market = { month: obsMonth, y: obsM, w: obsW, length: n };
          // the value the passes end with is read at every month (levelSe); the first pass's
          // only at the observed months when a later pass smooths M again (another obsVar)
          if (!lastPass && obsVar !== noise.saleVar) marketAt.set(smoothAtObserved(market, om, smoothOpts, ws));
          else {
            marketSmooth = Float64Array.from(smoothIndex(market, months, smoothOpts, ws).level);
            for (let k = 0; k < om.count; k++) marketAt[k] = marketSmooth[om.at[k]!]!;
          }
          marketSmoothVar = obsVar;
          let den = 0;
          for (let i = 0; i < n; i++) den += obsW[i]! * obsM[i]! * (obsM[i]! - marketAt[place[i]!]!);
          loadingDen = den / obsVar;
        }
        const adjusted = { month: obsMonth, y: adj, w: obsW, length: n };
        let r: SmoothResult | null = null;
        if (lastPass) {
          r = smoothIndex(adjusted, months, smoothOpts, ws);
          for (let k = 0; k < om.count; k++) lv[k] = r.level[om.at[k]!]!;
        } else lv.set(smoothAtObserved(adjusted, om, smoothOpts, ws));
        if (noise.loadingVar > 0) {
          let num = 0;
          for (let i = 0; i < n; i++) num += obsW[i]! * obsM[i]! * (adj[i]! - lv[place[i]!]!);
          loadingNum = num / obsVar;
          loading = loadingNum / (loadingDen + 1 / noise.loadingVar);
          for (let k = 0; k < om.count; k++) lv[k]! -= loading * marketAt[k]!;
          if (r) for (let t = 0; t < months; t++) r.level[t]! -= loading * marketSmooth![t]!;
        }
        for (let i = 0; i < n; i++) trend[i] = loading * obsM[i]!;
        // views into the workspace, valid until the next smoothIndex call (copied after the loop)
        if (r) {
          level = r.level;
          stderr = r.stderr;
        }
        effectSum.fill(0);
        effectWeight.fill(0);
        for (let i = 0; i < n; i++) {
          const k = workAt[i]!;
          effectSum[k]! += obsW[i]! * (obsZ[i]! - lv[place[i]!]! - trend[i]! - term[i]!);
          effectWeight[k]! += obsW[i]!;
        }
        for (let k = 0; k < workIds.length; k++) effect[k] = effectSum[k]! / (effectWeight[k]! + kappa);
        // one Gauss-Newton step for the shift, with its prior N(0, CAREER_SHIFT_VAR)
        let sxy = 0;
        let sxx = 0;
        for (let i = 0; i < n; i++) {
          const r = obsZ[i]! - lv[place[i]!]! - trend[i]! - effect[workAt[i]!]! - term[i]!;
          sxy += obsW[i]! * grad[i]! * r;
          sxx += obsW[i]! * grad[i]! * grad[i]!;
        }
        const lambda = noise.saleVar / CAREER_SHIFT_VAR;
        shift = Math.max(-MAX_CAREER_SHIFT, Math.min(MAX_CAREER_SHIFT, shift + (sxy - lambda * shift) / (sxx + lambda)));
        setShift();
      }
      level = Float64Array.from(level);
      stderr = Float64Array.from(stderr);
      for (let k = 0; k < workIds.length; k++) {
        u.set(workIds[k]!, effect[k]!);
        uCount.set(workIds[k]!, effectWeight[k]!);
      }
    }
    const full = new Float64Array(months);
    for (let t = 0; t < months; t++) full[t] = (1 + loading) * marketLevel[t]! + level[t]!;
    // the loading's posterior variance; with the level integrated out, the fitted index is the
    // smoothed data plus loading · (M(t) − S(M)(t)), so an error in the loading moves the index at
    // t by (M(t) − S(M)(t)) per unit: its variance adds to the level's (levelSe)
    const loadingPostVar = noise.loadingVar > 0 ? 1 / (loadingDen + 1 / noise.loadingVar) : 0;
    const levelSe = new Float64Array(months);
    for (let t = 0; t < months; t++) {
      const dm = marketSmooth ? marketLevel[t]! - marketSmooth[t]! : 0;
      levelSe[t] = Math.sqrt(stderr[t]! ** 2 + loadingPostVar * dm * dm);
    }
    return {
      works,
      lots,
      featsOf,
      careerOf,
      sold,
      n,
      nSold,
      obsMonth,
      obsZ,
      obsWork,
      obsM,
      u,
      uCount,
      level,
      stderr,
      full,
      observed,
      shift,
      shiftMean,
      term,
      trend,
      loading,
      loadingNum,
      loadingDen,
      loadingPostVar,
      levelSe,
      hasIndex: nSold > 0,
    };
  }

  /** The shared career curve g(a): the hedonic terms in a (flattening, a, a²). */
  private career(a: number): number {
    const b = this.m.beta;
    const k = this.careerA;
    return b[k - 1]! * Math.max(0, a * a - CAREER_FLAT) + b[k]! * a + b[k + 1]! * a * a;
  }

  /** g′(a). */
  private careerSlope(a: number): number {
    const b = this.m.beta;
    const k = this.careerA;
    return (a * a > CAREER_FLAT ? 2 * a * b[k - 1]! : 0) + b[k]! + 2 * a * b[k + 1]!;
  }

  /** A work's log value over its artist's index: its hedonic part, its career curve shifted to the artist's peak. */
  private workPart(f: Float64Array, a: number, shift: number, shiftMean: number): number {
    return dot(this.m.beta, f, this.K) + (Number.isNaN(a) ? 0 : this.career(a - shift) - this.career(a)) - shiftMean;
  }

  /** The log hammer a fit predicts for one of its artist's works in month m (without the centre). */
  predictLog(fit: ReturnType<ArtistDeriver["fit"]>, artworkId: number, m: number): number {
    const f = fit.featsOf.get(artworkId);
    if (!f) return fit.full[m]!;
    return fit.full[m]! + this.workPart(f, fit.careerOf.get(artworkId)!, fit.shift, fit.shiftMean) + (fit.u.get(artworkId) ?? 0);
  }

  /**
   * The model's standard deviation of the log hammer of one of its artist's works sold in month m:
   * the level's (the chart's standard error), the work's own effect's and the sale noise.
   */
  predictSd(fit: ReturnType<ArtistDeriver["fit"]>, artworkId: number, m: number, noise: ArtistNoise): number {
    return Math.sqrt(fit.levelSe[m]! ** 2 + workEffectVar(fit.uCount.get(artworkId) ?? 0, noise.saleVar, noise.workVar) + noise.saleVar);
  }

  /** Every row the artist adds to the served tables. */
  derive(source: ArtistSource, noise: ArtistNoise): ArtistOutput {
    const { artist } = source;
    const { months, beta, marketLevel, categories, oneYearAgo, asOf, centre, bandScale } = this.m;
    const { saleVar, workVar } = noise;
    const T = months - 1;
    const K = this.K;
    const artworks: Cell[][] = [];
    let estimated = 0;
    const fit = this.fit(source, noise);
    const { works, lots, featsOf, careerOf, sold, u, uCount, levelSe, full, observed, shift, shiftMean, hasIndex } = fit;
    const workPart = (id: number) => this.workPart(featsOf.get(id)!, careerOf.get(id)!, shift, shiftMean);
    // artworks
    const lotsByWork = new Map<number, LotRow[]>();
    for (const l of lots) {
      const list = lotsByWork.get(l.artwork_id);
      if (list) list.push(l);
      else lotsByWork.set(l.artwork_id, [l]);
    }
    let marketCap = 0;
    const valueOf = new Map<number, number | null>();
    const meanFeat = new Float64Array(K);
    for (const w of works) {
      const f = featsOf.get(w.id)!;
      for (let i = 0; i < K; i++) meanFeat[i]! += f[i]! / works.length;
    }
    const estimates: { w: ArtworkRow; est: ReturnType<typeof estimateOf> }[] = [];
    function estimateOf(w: ArtworkRow) {
      if (!hasIndex) return null;
      const h = workPart(w.id);
      const ui = u.get(w.id) ?? 0;
      const uVar = workEffectVar(uCount.get(w.id) ?? 0, saleVar, workVar);
      const logNow = full[T]! + h + ui + centre;
      const se = Math.sqrt(levelSe[T]! ** 2 + uVar);
      const band = predictionBand(logNow, se, saleVar, Z80 * bandScale);
      const at = (k: number) => Math.exp(full[Math.max(0, T - k)]! + h + ui + centre);
      return { band, at, h, ui };
    }
    for (const w of works) {
      const est = estimateOf(w);
      estimates.push({ w, est });
      const value = est ? est.band.mid : null;
      valueOf.set(w.id, value);
      if (value !== null) marketCap += value;
    }
    for (const { w, est } of estimates) {
      const wl = lotsByWork.get(w.id) ?? [];
      const lastLot = wl[wl.length - 1];
      const lastSold = [...wl].reverse().find((l) => l.status === "sold");
      const lastUpcoming = [...wl].reverse().find((l) => l.status === "upcoming");
      const m12 = est ? clip(momentum(full, T, 12)) : null;
      const m24 = est ? clip(momentum(full, T, 24)) : null;
      const now = est ? est.band.mid : null;
      artworks.push([
        w.id,
        storedArtworkUid(w.id, w.title, w.uid),
        artist.id,
        w.title,
        w.category_id,
        w.medium,
        w.material_ids,
        w.substrate_id,
        w.creation_year,
        w.height_cm,
        w.width_cm,
        w.depth_cm,
        sizeBucket(w.height_cm, w.width_cm, w.depth_cm),
        w.edition_group_id,
        w.edition_number,
        w.edition_size,
        w.image_id,
        wl.length,
        lastLot?.status ?? "unknown",
        lastUpcoming ? lastUpcoming.sale_datetime.slice(0, 10) : null,
        lastSold ? dayNumber(lastSold.sale_datetime.slice(0, 10)) : null,
        lastLot?.currency ?? "USD",
        lastSold?.hammer_usd == null ? null : usdCents(lastSold.hammer_usd, 1),
        lastSold?.premium_usd == null ? null : usdCents(lastSold.premium_usd, 1),
        now === null ? null : Math.round(now),
        est ? Math.round(est.band.low) : null,
        est ? Math.round(est.band.high) : null,
        ppm(m12),
        est ? Math.round(now! - est.at(12)) : null,
        ppm(m24),
        est ? Math.round(now! - est.at(24)) : null,
        est ? ppm(cagr(est.at(120), now!, 10)) : null,
        Math.round(marketCap),
        w.signed ? 1 : 0,
      ]);
      if (est) estimated++;
    }

    // repeat-sale pairs and analytics documents
    const pairs = repeatSalePairs(
      lots.map((l) => ({ lotId: l.id, artworkId: l.artwork_id, date: l.sale_datetime.slice(0, 10), priceUsd: l.hammer_usd, sold: l.status === "sold" })),
    );
    const categoryOf = new Map(works.map((w) => [w.id, w.category_id]));
    const docs: Record<string, unknown> = {
      "sales-volume": salesVolume(
        lots.map((l) => ({
          date: l.sale_datetime.slice(0, 10),
          categoryId: categoryOf.get(l.artwork_id) ?? null,
          outcome: lotOutcome(l.status, l.hammer_usd, l.estimate_min_usd, l.estimate_max_usd),
        })),
      ),
      "sharpe-ratio": sharpeRatios(full, T, observed),
      "career-path-count": careerPath(
        works.map((w) => ({ creationYear: w.creation_year, medium: this.categoryNames.get(w.category_id) ?? w.medium, valueUsd: null })),
        artist.birth,
        artist.death,
        false,
      ),
      "career-path-lae": careerPath(
        works.map((w) => ({ creationYear: w.creation_year, medium: this.categoryNames.get(w.category_id) ?? w.medium, valueUsd: valueOf.get(w.id) ?? null })),
        artist.birth,
        artist.death,
        true,
      ),
      "returns-vs-period": pairs.map((p) => ({ car: round6(p.car), period_months: p.periodMonths, buy_date: p.buyDate, sell_date: p.sellDate, artwork_id: p.artworkId })),
      "compound-annual-returns": medianCarByYear(pairs).map((r) => ({ year: r.year, car: round6(r.car) })),
    };
    const packed = Object.entries(docs).map(([kind, body]): [string, Uint8Array] => [kind, packDocument(body)]);

    // the chart: the price of the artist's typical work, per month
    const typical = dot(beta, meanFeat, K);
    const points = new Float64Array(months);
    const errs = new Float64Array(months);
    for (let t = 0; t < months; t++) {
      points[t] = hasIndex ? Math.exp(full[t]! + typical) : Number.NaN;
      errs[t] = hasIndex ? levelSe[t]! : Number.NaN;
    }
    const vector = artistVector({ full, observed, works, categories, birth: artist.birth, T, level: hasIndex ? full[T]! + typical : null });
    const chart = [artist.id, monthDate(0).slice(0, 7), packLogSeries(points), packLinearSeries(errs), bytes(vector)];

    // the artist's stats
    const soldPrices = sold.map((l) => l.premium_usd ?? l.hammer_usd!).filter((p) => p > 0);
    const recent = lots.filter((l) => l.sale_datetime.slice(0, 10) >= oneYearAgo);
    const recentSold = recent.filter((l) => l.status === "sold" && l.sale_datetime.slice(0, 10) <= asOf);
    const artistRow = [
      artist.id,
      artist.uid,
      artist.name,
      artist.synonyms,
      artist.nationality,
      artist.birth,
      artist.death,
      artist.bio,
      artist.long_bio,
      artist.is_top,
      artist.photo_image_id,
      round2(soldPrices.reduce((s, p) => s + p, 0)),
      Math.round(marketCap),
      soldPrices.length ? round2(Math.max(...soldPrices)) : null,
      soldPrices.length ? round2(Math.min(...soldPrices)) : null,
      hasIndex ? round4(momentumPercent(full, T, 12)) : null,
      hasIndex ? round4(momentumPercent(full, T, 60)) : null,
      works.length,
      recent.length,
      recentSold.length,
      recentSold.length ? round2(median(recentSold.map((l) => l.premium_usd ?? l.hammer_usd!))!) : null,
      lots.length,
    ];
    return { artist: artistRow, artworks, chart, docs: packed, estimated, forecasts: this.forecasts(fit, noise) };
  }

  /** The artist's upcoming lots' forecasts (src/pipeline/derive/upcoming.ts), as of the last month. */
  private forecasts(fit: ReturnType<ArtistDeriver["fit"]>, noise: ArtistNoise): (number | null)[][] {
    const m = this.m.upcoming;
    if (!m || !fit.lots.some((l) => l.status === "upcoming")) return [];
    const reading = estimateReading(this.m, noise);
    const x = new Float64Array(UPCOMING_K);
    return lotContexts(this, fit, fit.lots, this.m.months - 1, noise, this.m).map(({ lot, context }) => {
      context.shift = shiftFor(m.shift, context.ahead);
      const base = lotFeatures(x, lot, context, m.record, reading);
      const f = forecast(m, x, base);
      const usd = (v: number | null) => (v === null || !Number.isFinite(v) ? null : Math.round(v));
      return [lot.id, round4(f.probability), usd(f.hammer), usd(f.low), usd(f.high)];
    });
  }
}

/**
 * artist_index_vector: 64 numbers describing market behaviour, period and style, L2-normalised:
 * 24 half-yearly log returns of the index over the last 12 years (market behaviour), the index
 * level, volatility and 1- and 5-year momentum, 12 radial features over the creation period,
 * the artist's category mix, and the birth decade.
 */
function artistVector(a: {
  full: Float64Array;
  observed: Uint8Array;
  works: ArtworkRow[];
  categories: number;
  birth: number | null;
  T: number;
  level: number | null;
}): Float32Array {
  const v = new Float32Array(64);
  let o = 0;
  const { full, T } = a;
  for (let k = 0; k < 24; k++) {
    const end = T - 6 * k;
    const start = end - 6;
    v[o++] = a.level !== null && start >= 0 ? 4 * (full[end]! - full[start]!) : 0;
  }
  let vol = 0;
  if (a.level !== null && T >= 60) {
    const r: number[] = [];
    for (let t = T - 59; t <= T; t++) r.push(full[t]! - full[t - 1]!);
    const mu = r.reduce((s, x) => s + x, 0) / r.length;
    vol = Math.sqrt(r.reduce((s, x) => s + (x - mu) ** 2, 0) / r.length);
  }
  v[o++] = a.level !== null ? (a.level - 9) / 3 : 0;
  v[o++] = vol * 20;
  v[o++] = a.level !== null && T >= 12 ? 2 * (full[T]! - full[T - 12]!) : 0;
  v[o++] = a.level !== null && T >= 60 ? full[T]! - full[T - 60]! : 0;
  // creation period: radial features centred 1500..2025
  const years = a.works.map((w) => w.creation_year).filter((y): y is number => y !== null);
  for (let k = 0; k < 12; k++) {
    const centre = 1500 + k * 48;
    let s = 0;
    for (const y of years) s += Math.exp(-(((y - centre) / 40) ** 2));
    v[o++] = years.length ? (2 * s) / years.length : 0;
  }
  const mix = new Float64Array(a.categories);
  for (const w of a.works) if (w.category_id >= 1 && w.category_id <= a.categories) mix[w.category_id - 1]! += 1;
  for (let k = 0; k < Math.min(a.categories, 64 - o - 4); k++) v[o++] = a.works.length ? (2 * mix[k]!) / a.works.length : 0;
  const decade = a.birth !== null ? (a.birth - 1900) / 100 : 0;
  v[o++] = decade;
  let norm = 0;
  for (let i = 0; i < 64; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < 64; i++) v[i] = v[i]! / norm;
  return v;
}

export const bytes = (a: Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
export const clip = (x: number | null) => (x === null || !Number.isFinite(x) ? null : round6(Math.max(-1, Math.min(1, x))));
export const round2 = (x: number) => Math.round(x * 100) / 100;
export const round4 = (x: number | null) => (x === null ? null : Math.round(x * 10_000) / 10_000);
export const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
/** A fraction in millionths, as the artworks' momentum and CAGR columns hold it (readers divide by 10⁶). */
export const ppm = (x: number | null) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1e6));
