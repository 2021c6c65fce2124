/**
 * The estimate's centre (estimateCentre, src/pipeline/derive/calibration.ts) on hand-made artists with a known
 * answer: each work's last sold lot is held out, the artist fitted on the rest, and the centre is
 * the median of log hammer − predicted log hammer over the held-out lots.
 */
import { describe, expect, test } from "bun:test";
import { ArtistDeriver, type ArtistSource, type ArtworkRow, type LotRow } from "../../src/pipeline/derive/artist";
import { estimateCentre, MAX_BAND_SCALE, MIN_BAND_SCALE } from "../../src/pipeline/derive/calibration";
import { Z80 } from "../../src/analytics/index-model";
import { monthIndex } from "../../src/market/calendar";
import { HAND_NOISE as NOISE, handModel as model, handWork } from "../helpers/derive";

const work = (id: number) => handWork(id);

function lot(id: number, artworkId: number, day: string, logHammer: number): LotRow {
  const hammer = Math.exp(logHammer) * 10_000;
  return {
    id,
    artwork_id: artworkId,
    status: "sold",
    sale_datetime: `${day}T18:00:00Z`,
    hammer_usd: hammer,
    premium_usd: hammer * 1.25,
    estimate_min_usd: null,
    estimate_max_usd: null,
    currency: "USD",
  };
}

/** One artist whose works all sold first at the same level, then at `second(i)` above it. */
function artist(id: number, works: number, second: (i: number) => number): ArtistSource {
  const ws: ArtworkRow[] = [];
  const lots: LotRow[] = [];
  for (let i = 0; i < works; i++) {
    const wid = id * 10_000 + i;
    ws.push(work(wid));
    lots.push(lot(wid * 2, wid, "2010-03-15", 0));
    lots.push(lot(wid * 2 + 1, wid, "2010-09-15", second(i)));
  }
  return {
    artist: {
      id,
      uid: `artist-${id}`,
      name: `Artist ${id}`,
      synonyms: "",
      nationality: "French",
      birth: 1950,
      death: null,
      bio: "",
      long_bio: "",
      is_top: 0,
      photo_image_id: null,
    },
    works: ws,
    lots,
  };
}

describe("estimateCentre", () => {
  test("the median of the held-out lots' residuals: skewed second sales, flat level", () => {
    const m = model();
    const deriver = new ArtistDeriver(m);
    // second sales cycle −0.3, 0.1, 0.1, 0.1: mean 0, median 0.1; the first sales (all at level
    // 0, the same month) leave the fitted level at 0 for every held-out month
    const cycle = [-0.3, 0.1, 0.1, 0.1];
    const sources = [artist(1, 120, (i) => cycle[i % 4]!), artist(2, 120, (i) => cycle[(i + 1) % 4]!)];
    expect(estimateCentre(deriver, sources, NOISE, m).centre).toBeCloseTo(0.1, 6);
  });

  test("symmetric residuals give no shift; too few held-out lots give none", () => {
    const m = model();
    const deriver = new ArtistDeriver(m);
    const sym = [-0.2, 0.2, -0.1, 0.1];
    expect(estimateCentre(deriver, [artist(1, 240, (i) => sym[i % 4]!)], NOISE, m).centre).toBeCloseTo(0, 6);
    expect(estimateCentre(deriver, [artist(1, 150, () => 0.3)], NOISE, m)).toEqual({ centre: 0, bandScale: 1 });
  });

  test("the held-out lots are left out of the fit: their level is not the one predicted", () => {
    const m = model();
    const deriver = new ArtistDeriver(m);
    // every second sale 0.5 above the first: a fit that saw them would predict part of it
    expect(estimateCentre(deriver, [artist(1, 240, () => 0.5)], NOISE, m).centre).toBeCloseTo(0.5, 6);
  });

  test("the band's scale: the 80 % quantile of the held-out residuals' distance from the centre, over the model's sd times Z80", () => {
    const m = model();
    const deriver = new ArtistDeriver(m);
    // every held-out lot is a second sale in 2010-09 of a work with one sale left: the same sd for all
    const spread = (d: number) => {
      const cycle = [0.1 - d, 0.1, 0.1, 0.1, 0.1 + d];
      return estimateCentre(deriver, [artist(1, 250, (i) => cycle[i % 5]!)], NOISE, m);
    };
    // by hand: the sd from the fit's level standard error in 2010-09, one sale's weight for the
    // work's own effect, and the sale noise
    const source = artist(1, 250, () => 0);
    const fit = deriver.fit({ ...source, lots: source.lots.filter((l) => l.sale_datetime < "2010-06") }, NOISE);
    const se = fit.levelSe[monthIndex("2010-09-15")]!;
    const sd = Math.sqrt(se * se + 1 / (1 / NOISE.saleVar + 1 / NOISE.workVar) + NOISE.saleVar);
    // distances 0 (60 %) and d (40 %): the 80 % quantile is d
    const a = spread(0.3);
    expect(a.centre).toBeCloseTo(0.1, 6);
    expect(a.bandScale).toBeCloseTo(0.3 / sd / Z80, 6);
    expect(spread(0.45).bandScale / a.bandScale).toBeCloseTo(1.5, 6);
    // bounded: no spread at all, and a wild one
    expect(spread(0).bandScale).toBe(MIN_BAND_SCALE);
    expect(spread(5).bandScale).toBe(MAX_BAND_SCALE);
  });
});
