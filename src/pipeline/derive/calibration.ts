/**
 * The calibration of a whole market's derivation (market.ts), between pass 1 and pass 2: the
 * reading model on a sample of artists (readingModel), the noise variances, the loading's spread
 * and the reading offsets (calibrateNoise), and the estimate's centre and band scale
 * (measureCentre, estimateCentre).
 */
import type { Statement } from "bun:sqlite";
import { median, percentile } from "../../analytics/stats";
import { Z80 } from "../../analytics/index-model";
import { monthIndex } from "../../market/calendar";
import { artistReader, type ArtistDeriver, type ArtistModel, type ArtistNoise, type ArtistRow, type ArtistSource, type LotRow } from "./artist";
import type { DeriveContext } from "./context";
import { type FirstModel, type MarketPass, resolveMarket } from "./market-pass";
import { addPassedPairs, addReserveGapPairs, type Mean, type OffsetSums, readingOffsets } from "./offsets";

/** The bounds of the band's measured width over the model's (estimateCentre). */
export const MIN_BAND_SCALE = 0.5;
export const MAX_BAND_SCALE = 3;

/** Prior variance of an artist's loading on the market beyond 1 before calibration. */
export const DEFAULT_LOADING_VAR = 0.05;

/** Artists whose loading is known to a variance of 1/10 or better calibrate the loading's spread. */
export const LOADING_MIN_PRECISION = 10;

/** The house estimate's own variance: that of log hammer − log midpoint less the sale noise, at least a fifth of it (NaN without a measured difference). */
export function estimateVarOf(estDiffVar: number, sale: number): number {
  return Number.isFinite(estDiffVar) ? Math.max(0.2 * sale, estDiffVar - sale) : Number.NaN;
}

/** The calibration's sample of artists, read once, and what reads another artist like them. */
interface CalibrationSample {
  /** Up to 1,500 artists with 10 sold lots or more, in the order of a hash of their id. */
  sources: ArtistSource[];
  readArtist: (artist: ArtistRow) => ArtistSource;
  artistById: Statement<ArtistRow, [number]>;
  /** Pass 1's counts the reading offsets are measured from. */
  offsetSums: OffsetSums;
}

/**
 * The model pass 2 fits artists against: the first model with the reading offsets (measured
 * against the market on the calibration sample) and the market solved again with them.
 */
export function readingModel(ctx: DeriveContext, pass: MarketPass, first: FirstModel): { model: ArtistModel; sample: CalibrationSample } {
  const { src, options, months, oneYearAgo, categories, materials, mediaKeys } = ctx;
  const { soldBy, estDiffBy, passedWithEstimate } = pass;
  const { marketLevel, beta, processVar } = first;
  const sample = src
    .query<{ id: number }, []>(
      `SELECT artist_id AS id FROM lots WHERE status = 'sold' GROUP BY artist_id HAVING count(*) >= 10
       ORDER BY (artist_id * 2654435761) % 4294967296 LIMIT 1500`,
    )
    .all()
    .map((r) => r.id);
  // The sample's works and lots are read once, for the reading offsets and both calibration rounds.
  const readArtist = artistReader(src);
  const artistById = src.query<ArtistRow, [number]>(
    "SELECT id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id FROM src_artists WHERE id = ?",
  );
  const sampleSources = sample.map((id) => readArtist(artistById.get(id)!));
  // How each lot reads as its work's value (src/pipeline/derive/offsets.ts): hammers by reserve (the gap
  // measured in the calibration below), estimates by outcome; a bought-in lot's estimate first
  // against the market, then in each round along the artist's own fitted index.
  const offsetSums: OffsetSums = { sold: [soldBy[0]!, soldBy[1]!], estimateDiff: estDiffBy, passed: passedWithEstimate };
  const passedFirst: Mean = { sum: 0, n: 0 };
  // (no hammer offsets yet: the reserve gap is measured in the calibration)
  for (const { lots } of sampleSources) addPassedPairs(lots, marketLevel, { reserved: 0, unreserved: 0 }, passedFirst);
  const { estOffsets, hammerOffsets } = readingOffsets(offsetSums, 0, passedFirst.n >= 50 ? passedFirst.sum / passedFirst.n : undefined);
  const model: ArtistModel = {
    asOf: options.asOf,
    oneYearAgo,
    months,
    categories,
    materials,
    media: mediaKeys,
    beta,
    marketLevel,
    processVar,
    estOffsets,
    hammerOffsets,
    centre: 0,
    bandScale: 1,
    categoryNames: (src.query("SELECT id, name FROM categories").all() as { id: number; name: string }[]).map((r) => [r.id, r.name]),
  };
  resolveMarket(pass, model);
  return { model, sample: { sources: sampleSources, readArtist, artistById, offsetSums } };
}

/**
 * Calibration, two rounds on the sample: the sale noise and the work effect's variance, the
 * loading's spread across artists, and the reading offsets (the bought-in offset and the reserve
 * gap along each artist's own fitted index), the market solved again after each round.
 */
export function calibrateNoise(pass: MarketPass, first: FirstModel, model: ArtistModel, deriver: ArtistDeriver, sample: CalibrationSample): ArtistNoise {
  const { estDiffVar } = first;
  let { saleVar, workVar } = first;
  // prior variance of an artist's loading on the market beyond 1, calibrated below
  let loadingVar = DEFAULT_LOADING_VAR;
  // Calibration: sale noise and work-effect variance from same-work residual pairs after the
  // artist's index is fitted (their product estimates the work effect's variance, half their
  // squared difference the sale noise), on a sample of artists, twice.
  for (let round = 0; round < 2 && sample.sources.length > 0; round++) {
    let prod = 0;
    let half = 0;
    let count = 0;
    let loadingMoment = 0;
    let loadingArtists = 0;
    const passedAcc: Mean = { sum: 0, n: 0 };
    const gapAcc: Mean = { sum: 0, n: 0 };
    for (const source of sample.sources) {
      const fit = deriver.fit(source, { saleVar, workVar, estVar: estimateVarOf(estDiffVar, saleVar), loadingVar });
      // the loading's spread across artists: its unshrunk estimate squared less its sampling variance
      if (fit.loadingDen >= LOADING_MIN_PRECISION) {
        loadingMoment += (fit.loadingNum / fit.loadingDen) ** 2 - 1 / fit.loadingDen;
        loadingArtists++;
      }
      // the bought-in offset again and the reserve gap, moved along the artist's own fitted
      // index in place of the market (the artist's drift and loading between the two lots taken out)
      addPassedPairs(fit.lots, fit.full, model.hammerOffsets, passedAcc);
      addReserveGapPairs(fit.lots, fit.full, gapAcc);
      const lastResidual = new Map<number, number>();
      for (let i = 0; i < fit.nSold; i++) {
        const e = fit.obsZ[i]! - fit.level[fit.obsMonth[i]!]! - fit.trend[i]! - fit.term[i]!;
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
    ({ estOffsets: model.estOffsets, hammerOffsets: model.hammerOffsets } = readingOffsets(
      sample.offsetSums,
      gapAcc.n >= 50 ? gapAcc.sum / gapAcc.n : 0,
      passedAcc.n >= 50 ? passedAcc.sum / passedAcc.n : model.estOffsets.passed,
    ));
    resolveMarket(pass, model);
  }
  return { saleVar, workVar, estVar: estimateVarOf(estDiffVar, saleVar), loadingVar };
}

/** The estimate's centre and band scale (estimateCentre) into the model. */
export function measureCentre(soldTwice: number[], sample: CalibrationSample, deriver: ArtistDeriver, noise: ArtistNoise, model: ArtistModel): void {
  const { readArtist, artistById } = sample;
  // the centre on a sample of its own, of the artists with at least two sold lots (one is held
  // out of each work), thin ones included: the estimate serves them too; in the calibration
  // sample's order (a hash of the id), from pass 1's counts
  const hashOf = (id: number) => (id * 2654435761) % 4294967296;
  const centreSources = soldTwice
    .sort((a, b) => hashOf(a) - hashOf(b) || a - b)
    .slice(0, 1500)
    .map((id) => readArtist(artistById.get(id)!));
  ({ centre: model.centre, bandScale: model.bandScale } = estimateCentre(deriver, centreSources, noise, model));
}

/**
 * The estimate's centre and its band's width, measured out of sample on a sample of artists: each
 * work's last sold lot is held out (hammer and estimate), the artist is fitted on the rest, and
 * each held-out hammer is compared with its prediction for its month.
 * - `centre`: a sold lot's hammer is, as a rule, a little below the mean its readings give (a
 *   reserve cuts off the low hammers, so the log hammers of sold lots are skewed: their mean sits
 *   above their median), and the estimate is meant as the median hammer. The median of
 *   log hammer − predicted log hammer is the shift added to every estimate and its band.
 * - `bandScale`: the model's standard deviation (ArtistDeriver.predictSd) leaves out what the fit
 *   takes as known (the hedonic coefficients, the offsets, the artist's step variance), so its
 *   band is a little narrow. The 80 % quantile of |residual − centre| / sd over Z80 is the factor
 *   on the band's half-width, within [MIN_BAND_SCALE, MAX_BAND_SCALE].
 * With fewer than 200 held-out lots: 0 and 1.
 */
export function estimateCentre(deriver: ArtistDeriver, sources: ArtistSource[], noise: ArtistNoise, model: ArtistModel): { centre: number; bandScale: number } {
  const residuals: number[] = [];
  const sds: number[] = [];
  const T = model.months - 1;
  for (const source of sources) {
    const last = new Map<number, LotRow>();
    for (const l of source.lots) {
      if (l.status !== "sold" || !(l.hammer_usd! > 0)) continue;
      const prev = last.get(l.artwork_id);
      if (!prev || l.sale_datetime >= prev.sale_datetime) last.set(l.artwork_id, l);
    }
    const held = new Set(last.values());
    const fit = deriver.fit({ ...source, lots: source.lots.filter((l) => !held.has(l)) }, noise);
    if (!fit.hasIndex) continue;
    for (const l of held) {
      const m = Math.max(0, Math.min(T, monthIndex(l.sale_datetime)));
      residuals.push(Math.log(l.hammer_usd!) - deriver.predictLog(fit, l.artwork_id, m));
      sds.push(deriver.predictSd(fit, l.artwork_id, m, noise));
    }
  }
  if (residuals.length < 200) return { centre: 0, bandScale: 1 };
  const centre = median(residuals)!;
  const q80 = percentile(
    residuals.map((r, i) => Math.abs(r - centre) / sds[i]!).sort((a, b) => a - b),
    0.8,
  );
  return { centre, bandScale: Math.min(MAX_BAND_SCALE, Math.max(MIN_BAND_SCALE, q80 / Z80)) };
}
