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
 *   and its vector. Then sales get their aggregates in one SQL statement (one scan of the lots).
 * Between the calibration and pass 2, the upcoming lots' model (upcoming.ts) is fitted on the
 *   calibration sample refitted as of past months; pass 2 applies it to each artist's upcoming
 *   lots, and their forecasts are written into the lots once pass 2 is over.
 */
import type { Database } from "bun:sqlite";
import { ArtistDeriver, round6 } from "./artist";
import { deriveArtists, writeForecasts } from "./artist-pass";
import { writeMarketIndex, writeSales } from "./aggregates";
import { calibrateNoise, estimateVarOf, measureCentre, readingModel } from "./calibration";
import { deriveContext, type DeriveOptions } from "./context";
import { firstModel, marketPass } from "./market-pass";
import { trainUpcoming } from "./upcoming";
import { saveDeriveState } from "./state";

export interface DeriveSummary {
  months: number;
  artists: number;
  artworks: number;
  estimated: number;
  pairs: number;
  /** Pairs of consecutive house estimates of one work in the market index. */
  estimatePairs: number;
  sales: number;
  hedonicRows: number;
  /** Worker threads pass 2 ran on (0: this thread). */
  workers: number;
  /** The upcoming lots' model: its training lots (and the sold among them), and the upcoming lots given a forecast. */
  upcoming: { trainingLots: number; trainingSold: number; forecasts: number };
  noise: {
    obsVar: number;
    saleVar: number;
    workVar: number;
    processVar: number;
    estimateOffset: number;
    estimateVar: number;
    loadingVar: number;
    estimateOffsets: Record<string, number>;
    centre: number;
    bandScale: number;
  };
  /** Seconds per phase. */
  timings: Record<string, number>;
}

export async function deriveMarket(db: Database, options: DeriveOptions): Promise<DeriveSummary> {
  const { timings, lap } = phaseTimer();
  const ctx = deriveContext(db, options);
  const pass = marketPass(ctx);
  const first = firstModel(ctx, pass);
  const { model, sample } = readingModel(ctx, pass, first);
  const deriver = new ArtistDeriver(model);
  lap("pass 1: market index and hedonic model");
  const noise = calibrateNoise(pass, first, model, deriver, sample);
  measureCentre(pass.soldTwice, sample, deriver, noise, model);
  lap("calibration");
  model.upcoming = trainUpcoming(deriver, sample.sources, noise, model, pass.history);
  lap("upcoming lots' model");
  const written = await deriveArtists(ctx, model, noise, deriver, sample.readArtist);
  lap("pass 2: artists, artworks, analytics");
  writeForecasts(db, written.forecasts);
  lap("upcoming lots' forecasts");
  writeMarketIndex(ctx, model.marketLevel);
  const sales = writeSales(db);
  lap("market index and sales");
  // what the next merge goes on from (touched.ts)
  if (db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'derive_state'").get()) saveDeriveState(db, { model, noise, sums: pass, fittedAsOf: options.asOf });

  return {
    months: ctx.months,
    artists: written.artists,
    artworks: written.artworks,
    estimated: written.estimated,
    pairs: pass.pairCount,
    estimatePairs: pass.estimatePairCount,
    sales,
    hedonicRows: pass.hedonic.count,
    workers: written.workers,
    upcoming: { trainingLots: model.upcoming?.rows ?? 0, trainingSold: model.upcoming?.sold ?? 0, forecasts: written.forecasts.length },
    noise: {
      obsVar: round6(first.obsVar),
      saleVar: round6(noise.saleVar),
      workVar: round6(noise.workVar),
      processVar: first.processVar,
      estimateOffset: round6(first.estOffset),
      estimateOffsets: Object.fromEntries(Object.entries(model.estOffsets).map(([k, v]) => [k, round6(v)])),
      centre: round6(model.centre),
      bandScale: round6(model.bandScale),
      estimateVar: round6(estimateVarOf(first.estDiffVar, noise.saleVar)),
      loadingVar: round6(noise.loadingVar),
    },
    timings,
  };
}

/** Seconds per phase: `lap(name)` records the time since the last lap (or the start) as `name`'s. */
export function phaseTimer(): { timings: Record<string, number>; lap: (name: string) => void } {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark) / 1000;
    mark = now;
  };
  return { timings, lap };
}
