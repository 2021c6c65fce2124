/**
 * The level's standard error and the artwork band (ArtistDeriver, src/pipeline/derive/artist.ts) on a
 * hand-made artist with a market loading: the loading's uncertainty adds var(g)·(M(t) − S(M)(t))²
 * to the smoother's variance, S(M) the smoother's level of the market through the artist's
 * readings; the band is exp(μ ± Z80 · bandScale · √(se(T)² + var(u) + sale noise)).
 */
import { expect, test } from "bun:test";
import { predictionBand, smoothIndex, Z80 } from "../../src/analytics/index-model";
import { ArtistDeriver, type ArtistSource, type LotRow } from "../../src/pipeline/derive/artist";
import { monthIndex } from "../../src/market/calendar";
import { HAND_MONTHS, HAND_NOISE, handModel, handWork } from "../helpers/derive";

const NOISE = { ...HAND_NOISE, loadingVar: 0.05 };

/** Six works sold in 2000-2004, the market rising 0.5 % a month from 1986 to today. */
function source(): ArtistSource {
  const works = Array.from({ length: 6 }, (_, i) => handWork(i + 1));
  const lots: LotRow[] = works.map((w, i) => {
    const hammer = 10_000 * Math.exp(0.1 * Math.sin(i));
    const day = `${2000 + Math.floor(i * 0.8)}-0${1 + i}-15`;
    return {
      id: i + 1,
      artwork_id: w.id,
      status: "sold",
      sale_datetime: `${day}T18:00:00Z`,
      hammer_usd: hammer,
      premium_usd: hammer * 1.25,
      estimate_min_usd: null,
      estimate_max_usd: null,
      currency: "USD",
    };
  });
  return {
    artist: { id: 1, uid: "artist-1", name: "Artist 1", synonyms: "", nationality: "French", birth: 1950, death: null, bio: "", long_bio: "", is_top: 0, photo_image_id: null },
    works,
    lots,
  };
}

test("the level's standard error: the smoother's, and the loading's term, which grows with the market past the artist's last sale; the band from it", () => {
  const model = handModel();
  for (let t = 0; t < HAND_MONTHS; t++) model.marketLevel[t] = 0.005 * t;
  const deriver = new ArtistDeriver(model);
  const src = source();
  const fit = deriver.fit(src, NOISE);
  expect(fit.loadingPostVar).toBeGreaterThan(0);
  // S(M): the market smoothed through the artist's readings, as the fit's final passes see them
  const months = src.lots.map((l) => monthIndex(l.sale_datetime));
  const sm = smoothIndex(
    { month: Int32Array.from(months), y: Float64Array.from(months, (m) => model.marketLevel[m]!), w: new Float64Array(months.length).fill(1), length: months.length },
    HAND_MONTHS,
    { processVar: model.processVar, obsVar: NOISE.saleVar, initVar: Number.POSITIVE_INFINITY },
  ).level;
  for (let t = 0; t < HAND_MONTHS; t++) {
    const dm = model.marketLevel[t]! - sm[t]!;
    expect(fit.levelSe[t]!).toBeCloseTo(Math.sqrt(fit.stderr[t]! ** 2 + fit.loadingPostVar * dm * dm), 12);
  }
  const T = HAND_MONTHS - 1;
  const lastSale = Math.max(...months);
  // past the last sale the smoothed market stays where it was, so the gap grows with the market
  const gapAtSale = model.marketLevel[lastSale]! - sm[lastSale]!;
  expect(model.marketLevel[T]! - sm[T]!).toBeCloseTo(gapAtSale + 0.005 * (T - lastSale), 9);
  expect(fit.levelSe[T]! ** 2 - fit.stderr[T]! ** 2).toBeGreaterThan(fit.levelSe[lastSale]! ** 2 - fit.stderr[lastSale]! ** 2);

  // the band of a work: its own effect's variance from its one sale, the sale noise, scaled
  const scaled = new ArtistDeriver({ ...model, bandScale: 1.5 });
  const out = scaled.derive(src, NOISE);
  const row = out.artworks.find((r) => r[0] === 1)!;
  const logMid = scaled.predictLog(fit, 1, T);
  const uVar = 1 / (1 / NOISE.saleVar + 1 / NOISE.workVar);
  const band = predictionBand(logMid, Math.sqrt(fit.levelSe[T]! ** 2 + uVar), NOISE.saleVar, Z80 * 1.5);
  expect(row).toContain(Math.round(band.low));
  expect(row).toContain(Math.round(band.high));
  expect(row).toContain(Math.round(band.mid));
});
