/**
 * The derivation step: from the source tables of a market (generated or imported) to every
 * table the API serves, so that a read is a lookup. Formulas: docs/formulas.md and
 * docs/derivation.md.
 *
 * Pass 1 (every artist): repeat-sale pairs of sold lots feed the market index (a repeat-sales
 *   index over months); a sample of sold lots feeds a hedonic regression of log price on the
 *   work's attributes, within artist (demeaned per artist) and with year effects, so neither
 *   the artist's level nor the market's moves leak into the attribute coefficients.
 * Pass 2 (every artist): residuals z = log price − market − hedonic are smoothed into the
 *   artist's own monthly log index (Kalman filter + smoother), with each work's own effect
 *   backfitted and shrunk; from them come the artist chart, momentum, every artwork's estimate
 *   with an 80 % prediction band, its momentum and CAGR, the artist's stats, analytics documents
 *   and its vector. Then sales get their aggregates in one SQL statement.
 */
import type { Database } from "bun:sqlite";
import { NormalEquations } from "../analytics/linear";
import { packDocument } from "../db/documents";
import { predictionBand, RepeatSalesAccumulator, smoothIndex, SmoothWorkspace, Z80 } from "../analytics/index-model";
import { cagr, medianCarByYear, momentum, momentumPercent, repeatSalePairs, sharpeRatios } from "../analytics/returns";
import { careerPath, lotOutcome, salesVolume } from "../analytics/shapes";
import { median } from "../analytics/stats";
import type { PhaseProgress } from "../progress";
import { addDays, isoOfSeconds } from "../time";
import { FIRST_YEAR, monthDate, monthIndex } from "../seed/series";
import { slugify } from "../seed/names";
import { sizeBucket } from "../seed/market";

export interface DeriveOptions {
  asOf: string;
  /** Variance of the monthly step of an artist's own index around the market (log²). */
  processVar?: number;
  /** Lots sampled for the hedonic regression (at most). */
  hedonicSample?: number;
  onProgress?: (phase: string, done: number, total: number) => void;
}

export interface DeriveSummary {
  months: number;
  artists: number;
  artworks: number;
  estimated: number;
  pairs: number;
  sales: number;
  hedonicRows: number;
  noise: { obsVar: number; saleVar: number; workVar: number; processVar: number; estimateOffset: number; estimateVar: number; loadingVar: number };
  /** Seconds per phase. */
  timings: Record<string, number>;
}

interface ArtworkRow {
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
type FeatureRow = Pick<ArtworkRow, "id" | "category_id" | "material_ids" | "height_cm" | "width_cm" | "depth_cm" | "signed" | "edition_size" | "creation_year">;

interface LotRow {
  id: number;
  artwork_id: number;
  status: string;
  /** Read as Unix seconds, replaced by its ISO text once read. */
  sale_datetime: string;
  hammer_usd: number | null;
  premium_usd: number | null;
  estimate_min_usd: number | null;
  estimate_max_usd: number | null;
  currency: string;
}

interface ArtistRow {
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

/** Attribute features of a work (the hedonic part): fixed layout, documented in docs/derivation.md. */
export class FeatureSpace {
  readonly categories: number;
  readonly materials: number;
  /** category one-hots (Painting is the base), material one-hots, log area, area missing, signed, log edition, career a, career a². */
  readonly size: number;
  constructor(categories: number, materials: number) {
    this.categories = categories;
    this.materials = materials;
    this.size = categories - 1 + materials + 6;
  }

  fill(out: Float64Array, w: FeatureRow, birth: number | null): void {
    out.fill(0);
    if (w.category_id >= 2 && w.category_id <= this.categories) out[w.category_id - 2] = 1;
    const first = Number.parseInt(w.material_ids.split(",")[0] ?? "", 10);
    if (first >= 1 && first <= this.materials) out[this.categories - 1 + first - 1] = 1;
    let o = this.categories - 1 + this.materials;
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

/**
 * Penalty on month-to-month changes of the repeat-sales market index, in units of pair weight:
 * roughly the variance of one pair's log return around the market (sale noise twice, plus the
 * artist's own moves) over the variance of a monthly market step. Measured against the latent
 * truth (bench/valuation), 64 to 128 recover the market's 12-month returns best.
 */
export const MARKET_SMOOTHING = 80;

/** Monthly step variance of an artist's own index around the market: a 2 % monthly standard deviation. */
export const DEFAULT_PROCESS_VAR = 0.0004;

/** Prior variance of an artist's own career slope (log value per 25 years of career). */
export const CAREER_SLOPE_VAR = 0.05;

/** Prior variance of an artist's loading on the market beyond 1 before calibration. */
export const DEFAULT_LOADING_VAR = 0.05;

/** Artists whose loading is known to a variance of 1/10 or better calibrate the loading's spread. */
export const LOADING_MIN_PRECISION = 10;

export function deriveMarket(db: Database, options: DeriveOptions): DeriveSummary {
  const progress = options.onProgress ?? (() => {});
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark) / 1000;
    mark = now;
  };
  const months = monthIndex(options.asOf) + 1;
  const T = months - 1;
  const asOfYear = Number(options.asOf.slice(0, 4));
  const yearCount = asOfYear - FIRST_YEAR + 1;
  const oneYearAgo = addDays(options.asOf, -365);
  const categories = (db.query("SELECT count(*) AS n FROM categories").get() as { n: number }).n;
  const materials = (db.query("SELECT count(*) AS n FROM materials").get() as { n: number }).n;
  const space = new FeatureSpace(categories, materials);
  const K = space.size;
  /** Position of the career feature a = (creation year − birth − 40) / 25 in a feature vector. */
  const CAREER_A = K - 2;

  const artworksOf = db.query<ArtworkRow, [number]>(
    `SELECT id, uid, title, category_id, medium, material_ids, substrate_id, creation_year, height_cm, width_cm, depth_cm, signed,
            edition_group_id, edition_number, edition_size, image_id
     FROM src_artworks WHERE artist_id = ? ORDER BY id`,
  );
  // lots store their sale's start as Unix seconds; derivation reads it as ISO text, each
  // distinct start (one per sale) converted once
  const isoCache = new Map<number, string>();
  const isoOf = (seconds: number): string => {
    let s = isoCache.get(seconds);
    if (s === undefined) isoCache.set(seconds, (s = isoOfSeconds(seconds)));
    return s;
  };
  const lotsOf = db.query<LotRow, [number]>(
    `SELECT id, artwork_id, status, sale_datetime, hammer_usd, premium_usd, estimate_min_usd, estimate_max_usd, currency
     FROM lots WHERE artist_id = ? ORDER BY sale_datetime, id`,
  );
  // Pass 1 reads only what it needs, as arrays: sold lots (artwork, month, log hammer) and the
  // attributes of the works a sampled lot needs.
  const soldOf = db.query<unknown, [number]>(
    `SELECT artwork_id, sale_datetime, hammer_usd, estimate_min_usd, estimate_max_usd FROM lots
     WHERE artist_id = ? AND status = 'sold' AND hammer_usd > 0 ORDER BY sale_datetime, id`,
  );
  const featuresOf = db.query<FeatureRow, [number]>(
    "SELECT id, category_id, material_ids, height_cm, width_cm, depth_cm, signed, edition_size, creation_year FROM src_artworks WHERE artist_id = ?",
  );
  const artistBirths = db.query<unknown, []>("SELECT id, birth FROM src_artists ORDER BY id");
  const artistCount = (db.query("SELECT count(*) AS n FROM src_artists").get() as { n: number }).n;
  const soldCount = (db.query("SELECT count(*) AS n FROM lots WHERE status = 'sold' AND hammer_usd > 0").get() as { n: number }).n;
  const sampleRate = Math.min(1, (options.hedonicSample ?? 600_000) / Math.max(1, soldCount));

  // ---------------------------------------------------------------- pass 1
  const market = new RepeatSalesAccumulator(months);
  const hedonic = new NormalEquations(K + yearCount);
  const x = new Float64Array(K);
  const row = new Float64Array(K + yearCount);
  let sampleTick = 0;
  let pairCount = 0;
  const shortPairResiduals: number[] = [];
  const shortPairs: { from: number; to: number; r: number }[] = [];
  // sold lots with a house estimate: log hammer − log estimate midpoint (offset and spread)
  let estDiffN = 0;
  let estDiffSum = 0;
  let estDiffSq = 0;
  let done = 0;
  for (const [artistId, birth] of artistBirths.values() as [number, number | null][]) {
    const lots = soldOf.values(artistId) as [number, number, number, number | null, number | null][];
    let byId: Map<number, FeatureRow> | null = null;
    // consecutive sold lots of one work → a repeat-sale pair for the market index
    const last = new Map<number, { m: number; y: number }>();
    const sel: { feats: Float64Array; y: number; year: number }[] = [];
    for (const [artworkId, saleSeconds, hammerUsd, estMin, estMax] of lots) {
      const saleDatetime = isoOf(saleSeconds);
      const m = monthIndex(saleDatetime);
      const y = Math.log(hammerUsd);
      const mid = estimateMidLog(estMin, estMax);
      if (mid !== null) {
        estDiffN++;
        estDiffSum += y - mid;
        estDiffSq += (y - mid) ** 2;
      }
      const prev = last.get(artworkId);
      if (prev && m > prev.m) {
        const w = 1 / (1 + (m - prev.m) / 120); // long holds carry more idiosyncratic drift
        market.add(prev.m, m, y - prev.y, w);
        pairCount++;
        if (m - prev.m <= 24 && shortPairs.length < 200_000) shortPairs.push({ from: prev.m, to: m, r: y - prev.y });
      }
      last.set(artworkId, { m, y });
      sampleTick += sampleRate;
      if (sampleTick >= 1) {
        sampleTick -= 1;
        if (!byId) {
          byId = new Map();
          for (const w of featuresOf.all(artistId)) byId.set(w.id, w);
        }
        const w = byId.get(artworkId);
        if (!w) continue;
        const feats = new Float64Array(K);
        space.fill(feats, w, birth);
        sel.push({ feats, y, year: Math.min(yearCount - 1, Math.max(0, Number(saleDatetime.slice(0, 4)) - FIRST_YEAR)) });
      }
    }
    if (sel.length >= 2) {
      // demean within artist: the artist's own level drops out
      const meanX = new Float64Array(K + yearCount);
      let meanY = 0;
      for (const s of sel) {
        for (let i = 0; i < K; i++) meanX[i]! += s.feats[i]!;
        meanX[K + s.year]! += 1;
        meanY += s.y;
      }
      for (let i = 0; i < meanX.length; i++) meanX[i]! /= sel.length;
      meanY /= sel.length;
      for (const s of sel) {
        row.fill(0);
        for (let i = 0; i < K; i++) row[i] = s.feats[i]! - meanX[i]!;
        for (let j = 0; j < yearCount; j++) row[K + j] = (j === s.year ? 1 : 0) - meanX[K + j]!;
        hedonic.add(row, s.y - meanY);
      }
    }
    if (++done % 500 === 0) progress("market index and hedonic model", done, artistCount);
  }
  progress("market index and hedonic model", done, artistCount);
  const marketLevel = market.count > 0 ? market.solve(MARKET_SMOOTHING) : new Float64Array(months);
  const beta = hedonic.count > K + yearCount ? hedonic.solve(1e-3) : new Float64Array(K + yearCount);
  // residual variance of the within-artist regression: index moves + work effects + sale noise
  let obsVar = 0.3;
  if (hedonic.count > K + yearCount) {
    let fitted = 0;
    for (let i = 0; i < beta.length; i++) fitted += beta[i]! * hedonic.xty[i]!;
    obsVar = Math.max(0.02, (hedonic.syy - fitted) / Math.max(1, hedonic.count - beta.length));
  }
  // sale noise: half the variance of short-hold pair residuals (the index moves little in two years)
  for (const p of shortPairs) shortPairResiduals.push(p.r - (marketLevel[p.to]! - marketLevel[p.from]!));
  let saleVar = obsVar * 0.5;
  if (shortPairResiduals.length > 50) {
    const mu = shortPairResiduals.reduce((s, v) => s + v, 0) / shortPairResiduals.length;
    const v = shortPairResiduals.reduce((s, r) => s + (r - mu) ** 2, 0) / (shortPairResiduals.length - 1);
    saleVar = Math.min(obsVar * 0.95, Math.max(0.005, v / 2));
  }
  let workVar = Math.max(0.005, obsVar - saleVar);
  const processVar = options.processVar ?? DEFAULT_PROCESS_VAR;
  // The house estimate as a second, quieter reading of the work's value: log midpoint + offset,
  // the offset being the mean of log hammer − log midpoint over sold lots. Its own variance is
  // that of the difference less the sale noise (set below, once the sale noise is calibrated).
  const estOffset = estDiffN > 50 ? estDiffSum / estDiffN : 0;
  const estDiffVar = estDiffN > 50 ? (estDiffSq - estDiffN * estOffset ** 2) / (estDiffN - 1) : Number.NaN;
  // prior variance of an artist's loading on the market beyond 1, calibrated below
  let loadingVar = DEFAULT_LOADING_VAR;
  const estimateVarOf = (sale: number) => (Number.isFinite(estDiffVar) ? Math.max(0.2 * sale, estDiffVar - sale) : Number.NaN);

  // ---------------------------------------------------------------- pass 2
  db.run("DELETE FROM artists");
  db.run("DELETE FROM artworks");
  db.run("DELETE FROM artist_charts");
  db.run("DELETE FROM artist_analytics");
  db.run("DELETE FROM repeat_pairs");
  db.run("DELETE FROM market_index");
  const insArtist = db.query(
    `INSERT INTO artists (id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id, total_sales, market_cap,
       max_price, min_price, price_momentum_percentage_12mo, price_momentum_percentage_5y, artworks_count, recent_lots_count,
       total_sales_lots_1yr, total_sales_price_median_1yr, lots_count)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insArtwork = db.query(
    `INSERT INTO artworks (id, uid, slug, artist_id, title, category_id, medium, material_ids, substrate_id, creation_year, height_cm, width_cm,
       depth_cm, size_bucket, edition_group_id, edition_number, edition_size, image_id, lots_count, last_lot_status, date_last_upcoming,
       date_last_sold, currency, last_hammer_usd, last_premium_usd, estimate_usd, estimate_min_usd, estimate_max_usd, price_momentum_12mo,
       price_change_12mo, price_momentum_24mo, price_change_24mo, cagr, artist_market_cap)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insChart = db.query("INSERT INTO artist_charts (artist_id, start_month, points, stderr, vector) VALUES (?, ?, ?, ?, ?)");
  const insDoc = db.query("INSERT INTO artist_analytics (artist_id, kind, body) VALUES (?, ?, ?)");
  const insPair = db.query(
    `INSERT INTO repeat_pairs (artist_id, artwork_id, buy_lot_id, sell_lot_id, buy_date, sell_date, period_months, car)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ws = new SmoothWorkspace();
  let estimated = 0;
  let artworksWritten = 0;
  done = 0;
  const categoryNames = new Map(
    (db.query("SELECT id, name FROM categories").all() as { id: number; name: string }[]).map((r) => [r.id, r.name]),
  );

  /** Fits one artist: its own monthly log index (around the market) and each work's own effect. */
  const fitArtist = (artist: ArtistRow, noise: { saleVar: number; workVar: number; estVar: number; loadingVar: number }) => {
    const works = artworksOf.all(artist.id);
    const lots = lotsOf.all(artist.id);
    for (const l of lots) l.sale_datetime = isoOf(l.sale_datetime as unknown as number);
    const featsOf = new Map<number, Float64Array>();
    for (const w of works) {
      const f = new Float64Array(K);
      space.fill(f, w, artist.birth);
      featsOf.set(w.id, f);
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
      const y = i < nSold ? Math.log(l.hammer_usd!) : estimateMidLog(l.estimate_min_usd, l.estimate_max_usd)! + estOffset;
      obsZ[i] = y - marketLevel[m]! - dot(beta, featsOf.get(l.artwork_id) ?? x, K);
      obsW[i] = i < nSold ? 1 : estW;
    }
    // backfit: level ← smooth(z − u); u_i ← shrunk weighted mean of (z − level) per work
    const kappa = noise.saleVar / noise.workVar;
    const u = new Map<number, number>();
    const uCount = new Map<number, number>();
    let level: Float64Array<ArrayBufferLike> = new Float64Array(months);
    let stderr: Float64Array<ArrayBufferLike> = new Float64Array(months).fill(Number.NaN);
    const adj = new Float64Array(n);
    const observed = new Uint8Array(months);
    for (let i = 0; i < nSold; i++) observed[obsMonth[i]!] = 1;
    // the artist's own career slope: where in the career its prices peak differs by artist
    const obsA = new Float64Array(n);
    let aMean = 0;
    let wSum = 0;
    for (let i = 0; i < n; i++) {
      obsA[i] = featsOf.get(obsWork[i]!)?.[CAREER_A] ?? 0;
      aMean += obsW[i]! * obsA[i]!;
      wSum += obsW[i]!;
    }
    if (wSum > 0) aMean /= wSum;
    let slope = 0;
    // the artist's own loading on the market beyond 1: z carries loading · M(t), estimated by
    // generalised least squares against the index's random walk (the smoother's residuals are
    // Σ⁻¹ times the data), shrunk with prior variance loadingVar
    let loading = 0;
    let loadingNum = 0;
    let loadingDen = 0;
    const obsM = new Float64Array(n);
    for (let i = 0; i < n; i++) obsM[i] = marketLevel[obsMonth[i]!]!;
    if (nSold > 0) {
      for (let iter = 0; iter < 4; iter++) {
        const obsVar = noise.saleVar + (iter === 0 ? noise.workVar : 0);
        for (let i = 0; i < n; i++) adj[i] = obsZ[i]! - (u.get(obsWork[i]!) ?? 0) - slope * (obsA[i]! - aMean);
        if (noise.loadingVar > 0) {
          const smoothOpts = { processVar, obsVar, initVar: Number.POSITIVE_INFINITY };
          const lm = smoothIndex({ month: obsMonth, y: obsM, w: obsW, length: n }, months, smoothOpts, ws);
          let den = 0;
          for (let i = 0; i < n; i++) den += obsW[i]! * obsM[i]! * (obsM[i]! - lm.level[obsMonth[i]!]!);
          const ly = smoothIndex({ month: obsMonth, y: adj, w: obsW, length: n }, months, smoothOpts, ws);
          let num = 0;
          for (let i = 0; i < n; i++) num += obsW[i]! * obsM[i]! * (adj[i]! - ly.level[obsMonth[i]!]!);
          loadingNum = num / obsVar;
          loadingDen = den / obsVar;
          loading = num / obsVar / (loadingDen + 1 / noise.loadingVar);
          for (let i = 0; i < n; i++) adj[i]! -= loading * obsM[i]!;
        }
        const r = smoothIndex(
          { month: obsMonth, y: adj, w: obsW, length: n },
          months,
          { processVar, obsVar, initVar: Number.POSITIVE_INFINITY },
          ws,
        );
        // views into the workspace, valid until the next smoothIndex call (copied after the loop)
        level = r.level;
        stderr = r.stderr;
        const sum = new Map<number, number>();
        uCount.clear();
        for (let i = 0; i < n; i++) {
          const w = obsWork[i]!;
          sum.set(w, (sum.get(w) ?? 0) + obsW[i]! * (obsZ[i]! - level[obsMonth[i]!]! - loading * obsM[i]! - slope * (obsA[i]! - aMean)));
          uCount.set(w, (uCount.get(w) ?? 0) + obsW[i]!);
        }
        u.clear();
        for (const [w, s] of sum) u.set(w, s / (uCount.get(w)! + kappa));
        let sxy = 0;
        let sxx = 0;
        for (let i = 0; i < n; i++) {
          const da = obsA[i]! - aMean;
          sxy += obsW[i]! * da * (obsZ[i]! - level[obsMonth[i]!]! - loading * obsM[i]! - (u.get(obsWork[i]!) ?? 0));
          sxx += obsW[i]! * da * da;
        }
        slope = sxy / (sxx + noise.saleVar / CAREER_SLOPE_VAR);
      }
      level = Float64Array.from(level);
      stderr = Float64Array.from(stderr);
    }
    const full = new Float64Array(months);
    for (let t = 0; t < months; t++) full[t] = (1 + loading) * marketLevel[t]! + level[t]!;
    // the loading's posterior variance, and the market's weighted mean over the observations:
    // the loading moves the level at T by (M(T) − that mean) per unit
    const loadingPostVar = noise.loadingVar > 0 ? 1 / (loadingDen + 1 / noise.loadingVar) : 0;
    let mBar = 0;
    for (let i = 0; i < n; i++) mBar += obsW[i]! * obsM[i]!;
    if (wSum > 0) mBar /= wSum;
    return {
      works, lots, featsOf, sold, n, nSold, obsMonth, obsZ, obsWork, obsM, u, uCount, level, stderr, full, observed, slope, aMean,
      loading, loadingNum, loadingDen, loadingPostVar, mBar, hasIndex: nSold > 0,
    };
  };

  lap("pass 1: market index and hedonic model");
  // Calibration: sale noise and work-effect variance from same-work residual pairs after the
  // artist's index is fitted (their product estimates the work effect's variance, half their
  // squared difference the sale noise), on a sample of artists, twice.
  const sample = db
    .query<{ id: number }, []>(
      `SELECT artist_id AS id FROM lots WHERE status = 'sold' GROUP BY artist_id HAVING count(*) >= 10
       ORDER BY (artist_id * 2654435761) % 4294967296 LIMIT 1500`,
    )
    .all()
    .map((r) => r.id);
  const artistById = db.query<ArtistRow, [number]>(
    "SELECT id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id FROM src_artists WHERE id = ?",
  );
  for (let round = 0; round < 2 && sample.length > 0; round++) {
    let prod = 0;
    let half = 0;
    let count = 0;
    let loadingMoment = 0;
    let loadingArtists = 0;
    for (const id of sample) {
      const fit = fitArtist(artistById.get(id)!, { saleVar, workVar, estVar: estimateVarOf(saleVar), loadingVar });
      // the loading's spread across artists: its unshrunk estimate squared less its sampling variance
      if (fit.loadingDen >= LOADING_MIN_PRECISION) {
        loadingMoment += (fit.loadingNum / fit.loadingDen) ** 2 - 1 / fit.loadingDen;
        loadingArtists++;
      }
      const lastResidual = new Map<number, number>();
      for (let i = 0; i < fit.nSold; i++) {
        const a = fit.featsOf.get(fit.obsWork[i]!)?.[CAREER_A] ?? 0;
        const e = fit.obsZ[i]! - fit.level[fit.obsMonth[i]!]! - fit.loading * fit.obsM[i]! - fit.slope * (a - fit.aMean);
        const prev = lastResidual.get(fit.obsWork[i]!);
        if (prev !== undefined) {
          prod += prev * e;
          half += 0.5 * (e - prev) ** 2;
          count++;
        }
        lastResidual.set(fit.obsWork[i]!, e);
      }
    }
    if (count >= 50) {
      saleVar = Math.max(0.005, half / count);
      workVar = Math.max(0.002, prod / count);
    }
    if (loadingArtists >= 20) loadingVar = Math.min(1, Math.max(0.001, loadingMoment / loadingArtists));
  }

  lap("calibration");
  const writeArtist = (artist: ArtistRow) => {
    const { works, lots, featsOf, sold, u, uCount, stderr, full, observed, slope, aMean, loadingPostVar, mBar, hasIndex } = fitArtist(artist, { saleVar, workVar, estVar: estimateVarOf(saleVar), loadingVar });
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
      const f = featsOf.get(w.id)!;
      const h = dot(beta, f, K) + slope * (f[CAREER_A]! - aMean);
      const ui = u.get(w.id) ?? 0;
      const ni = uCount.get(w.id) ?? 0;
      const uVar = 1 / (ni / saleVar + 1 / workVar);
      const logNow = full[T]! + h + ui;
      const se = Math.sqrt(stderr[T]! ** 2 + uVar + loadingPostVar * (marketLevel[T]! - mBar) ** 2);
      const band = predictionBand(logNow, se, saleVar, Z80);
      const at = (k: number) => Math.exp(full[Math.max(0, T - k)]! + h + ui);
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
      insArtwork.run(
        w.id,
        w.uid,
        `${slugify(w.title) || "untitled"}-${w.id.toString(36)}`,
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
        lastSold ? lastSold.sale_datetime.slice(0, 10) : null,
        lastLot?.currency ?? "USD",
        lastSold?.hammer_usd ?? null,
        lastSold?.premium_usd ?? null,
        now === null ? null : round2(now),
        est ? round2(est.band.low) : null,
        est ? round2(est.band.high) : null,
        m12,
        est ? round2(now! - est.at(12)) : null,
        m24,
        est ? round2(now! - est.at(24)) : null,
        est ? round6(cagr(est.at(120), now!, 10)) : null,
        round2(marketCap),
      );
      artworksWritten++;
      if (est) estimated++;
    }

    // repeat-sale pairs and analytics documents
    const pairs = repeatSalePairs(
      lots.map((l) => ({ lotId: l.id, artworkId: l.artwork_id, date: l.sale_datetime.slice(0, 10), priceUsd: l.hammer_usd, sold: l.status === "sold" })),
    );
    for (const p of pairs) insPair.run(artist.id, p.artworkId, p.buyLotId, p.sellLotId, p.buyDate, p.sellDate, p.periodMonths, round6(p.car));
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
      "career-path-count": careerPath(works.map((w) => ({ creationYear: w.creation_year, medium: categoryNames.get(w.category_id) ?? w.medium, valueUsd: null })), artist.birth, artist.death, false),
      "career-path-lae": careerPath(
        works.map((w) => ({ creationYear: w.creation_year, medium: categoryNames.get(w.category_id) ?? w.medium, valueUsd: valueOf.get(w.id) ?? null })),
        artist.birth,
        artist.death,
        true,
      ),
      "returns-vs-period": pairs.map((p) => ({ car: round6(p.car), period_months: p.periodMonths, buy_date: p.buyDate, sell_date: p.sellDate, artwork_id: p.artworkId })),
      "compound-annual-returns": medianCarByYear(pairs).map((r) => ({ year: r.year, car: round6(r.car) })),
    };
    for (const [kind, body] of Object.entries(docs)) insDoc.run(artist.id, kind, packDocument(body));

    // the chart: the price of the artist's typical work, per month
    const typical = dot(beta, meanFeat, K);
    const points = new Float32Array(months);
    const errs = new Float32Array(months);
    for (let t = 0; t < months; t++) {
      points[t] = hasIndex ? Math.exp(full[t]! + typical) : Number.NaN;
      errs[t] = hasIndex ? stderr[t]! : Number.NaN;
    }
    const vector = artistVector({ full, observed, works, categories, birth: artist.birth, T, level: hasIndex ? full[T]! + typical : null });
    insChart.run(artist.id, monthDate(0).slice(0, 7), bytes(points), bytes(errs), bytes(vector));

    // the artist's stats
    const soldPrices = sold.map((l) => l.premium_usd ?? l.hammer_usd!).filter((p) => p > 0);
    const recent = lots.filter((l) => l.sale_datetime.slice(0, 10) >= oneYearAgo);
    const recentSold = recent.filter((l) => l.status === "sold" && l.sale_datetime.slice(0, 10) <= options.asOf);
    insArtist.run(
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
      round2(marketCap),
      soldPrices.length ? round2(Math.max(...soldPrices)) : null,
      soldPrices.length ? round2(Math.min(...soldPrices)) : null,
      hasIndex ? round4(momentumPercent(full, T, 12)) : null,
      hasIndex ? round4(momentumPercent(full, T, 60)) : null,
      works.length,
      recent.length,
      recentSold.length,
      recentSold.length ? round2(median(recentSold.map((l) => l.premium_usd ?? l.hammer_usd!))!) : null,
      lots.length,
    );
  };

  const batch = db.transaction((list: ArtistRow[]) => {
    for (const a of list) writeArtist(a);
  });
  // artists in pages of 200 (a page is one transaction; a large market's artists, bios
  // included, are never in memory at once)
  const artistPage = db.query<ArtistRow, [number]>(
    "SELECT id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id FROM src_artists WHERE id > ? ORDER BY id LIMIT 200",
  );
  let artistsWritten = 0;
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const page = artistPage.all(after);
    if (page.length === 0) break;
    batch(page);
    after = page[page.length - 1]!.id;
    done += page.length;
    artistsWritten += page.length;
    progress("artist indexes, estimates, analytics", done, artistCount);
  }
  progress("artist indexes, estimates, analytics", done, artistCount);

  lap("pass 2: artists, artworks, analytics");
  // the global art index
  const lotsPerMonth = new Int32Array(months);
  for (const r of db.query<{ t: number; n: number }, []>(
    "SELECT sale_datetime AS t, count(*) AS n FROM lots WHERE status = 'sold' GROUP BY sale_datetime",
  ).iterate()) {
    const i = monthIndex(isoOf(r.t));
    if (i >= 0 && i < months) lotsPerMonth[i]! += r.n;
  }
  const insIndex = db.query("INSERT INTO market_index (month, value, lots) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (let t = 0; t < months; t++) insIndex.run(monthDate(t).slice(0, 7), round4(100 * Math.exp(marketLevel[t]! - marketLevel[0]!)), lotsPerMonth[t]!);
  })();

  // sales with their aggregates
  db.run("DELETE FROM sales");
  db.run(`
    INSERT INTO sales (id, house_id, name, location_id, location, currency, is_online, is_bids_streaming, status, start_datetime, end_datetime,
      lots_count, lots_count_not_sold, lots_count_sold_above_estimations, lots_count_sold_within_estimations, lots_count_sold_below_estimations,
      hammer_total, premium_sold_total, cumulative_total, hammer_total_usd, premium_sold_total_usd, cumulative_total_usd,
      hammer_low_estimate, hammer_high_estimate)
    SELECT s.id, s.house_id, s.name, s.location_id, s.location, s.currency, s.is_online, s.is_bids_streaming, s.status, s.start_datetime, s.end_datetime,
      count(l.id),
      count(l.id) FILTER (WHERE l.status = 'passed'),
      count(l.id) FILTER (WHERE l.status = 'sold' AND l.hammer > l.estimate_max),
      count(l.id) FILTER (WHERE l.status = 'sold' AND l.hammer BETWEEN l.estimate_min AND l.estimate_max),
      count(l.id) FILTER (WHERE l.status = 'sold' AND l.hammer < l.estimate_min),
      coalesce(sum(l.hammer) FILTER (WHERE l.status = 'sold'), 0),
      coalesce(sum(l.premium - l.hammer) FILTER (WHERE l.status = 'sold'), 0),
      coalesce(sum(l.premium) FILTER (WHERE l.status = 'sold'), 0),
      coalesce(sum(l.hammer_usd) FILTER (WHERE l.status = 'sold'), 0),
      coalesce(sum(l.premium_usd - l.hammer_usd) FILTER (WHERE l.status = 'sold'), 0),
      coalesce(sum(l.premium_usd) FILTER (WHERE l.status = 'sold'), 0),
      coalesce(sum(l.estimate_min) FILTER (WHERE l.status != 'withdrawn'), 0),
      coalesce(sum(l.estimate_max) FILTER (WHERE l.status != 'withdrawn'), 0)
    FROM src_sales s LEFT JOIN lots l ON l.sale_id = s.id
    GROUP BY s.id ORDER BY s.id`);
  const sales = (db.query("SELECT count(*) AS n FROM sales").get() as { n: number }).n;
  lap("market index and sales");

  return {
    months,
    artists: artistsWritten,
    artworks: artworksWritten,
    estimated,
    pairs: pairCount,
    sales,
    hedonicRows: hedonic.count,
    noise: {
      obsVar: round6(obsVar),
      saleVar: round6(saleVar),
      workVar: round6(workVar),
      processVar,
      estimateOffset: round6(estOffset),
      estimateVar: round6(estimateVarOf(saleVar)),
      loadingVar: round6(loadingVar),
    },
    timings,
  };
}

/**
 * artist_index_vector: 64 numbers describing market behaviour, period and style, L2-normalised:
 * 24 half-yearly log returns of the index over the last 12 years (market behaviour), the index
 * level, volatility and 1- and 5-year momentum, 12 radial features over the creation period,
 * the artist's category mix, and the birth decade.
 */
function artistVector(a: { full: Float64Array; observed: Uint8Array; works: ArtworkRow[]; categories: number; birth: number | null; T: number; level: number | null }): Float32Array {
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

const bytes = (a: Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const clip = (x: number | null) => (x === null || !Number.isFinite(x) ? null : round6(Math.max(-1, Math.min(1, x))));
const round2 = (x: number) => Math.round(x * 100) / 100;
const round4 = (x: number | null) => (x === null ? null : Math.round(x * 10_000) / 10_000);
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
