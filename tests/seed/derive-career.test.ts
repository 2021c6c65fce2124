/**
 * An artist's own career peak (ArtistDeriver.fit, src/pipeline/derive/artist.ts) on hand-made artists with
 * a known answer: every work's price is the shared career curve G shifted by the artist's s, and
 * the fit must find s and price a late work on the shifted curve, where it has levelled off.
 */
import { describe, expect, test } from "bun:test";
import { ArtistDeriver, CAREER_FLAT, type ArtistSource, type ArtworkRow, type LotRow } from "../../src/pipeline/derive/artist";
import { monthIndex } from "../../src/market/calendar";
import { HAND_NOISE as NOISE, HAND_SPACE, handModel, handWork } from "../helpers/derive";

const BIRTH = 1900;
// the shared curve: G(a) = −0.6·a² + 0.6·max(0, a² − CAREER_FLAT), flat at −0.6·CAREER_FLAT beyond the flat point
const A2 = -0.6;
const FLAT = 0.6;
const G = (a: number) => A2 * a * a + FLAT * Math.max(0, a * a - CAREER_FLAT);

function model() {
  const beta = new Float64Array(HAND_SPACE.size);
  beta[HAND_SPACE.size - 3] = FLAT;
  beta[HAND_SPACE.size - 1] = A2;
  return handModel(beta);
}

const work = (id: number, year: number | null) => handWork(id, { creation_year: year, signed: 0 });

/** Works made from age 15 to 89, each sold once in 2015 at exp(G(a − s)) × 10,000 USD. */
function artist(s: number): ArtistSource {
  const works: ArtworkRow[] = [];
  const lots: LotRow[] = [];
  for (let i = 0; i < 150; i++) {
    const year = BIRTH + 15 + (i % 75);
    const a = (year - BIRTH - 40) / 25;
    works.push(work(i + 1, year));
    const hammer = Math.exp(G(a - s)) * 10_000;
    lots.push({
      id: i + 1,
      artwork_id: i + 1,
      status: "sold",
      sale_datetime: "2015-05-15T18:00:00Z",
      hammer_usd: hammer,
      premium_usd: hammer * 1.25,
      estimate_min_usd: null,
      estimate_max_usd: null,
      currency: "USD",
    });
  }
  return {
    artist: { id: 1, uid: "artist-1", name: "Artist 1", synonyms: "", nationality: "French", birth: BIRTH, death: null, bio: "", long_bio: "", is_top: 0, photo_image_id: null },
    works,
    lots,
  };
}

describe("career peak", () => {
  test("an artist on the shared curve gets no shift", () => {
    const fit = new ArtistDeriver(model()).fit(artist(0), NOISE);
    expect(Math.abs(fit.shift)).toBeLessThan(0.005);
  });

  for (const s of [0.3, -0.25]) {
    test(`an artist whose prices peak ${s * 25} years from the shared peak: the shift is found, a late work priced on the levelled-off curve`, () => {
      const deriver = new ArtistDeriver(model());
      const source = artist(s);
      const fit = deriver.fit(source, NOISE);
      // the prior N(0, 0.06) pulls it in a little; 150 noise-free prices pin it down
      expect(fit.shift).toBeGreaterThan(s - 0.05 * Math.abs(s) - 0.01);
      expect(fit.shift).toBeLessThan(s + 0.01);
      // every work's predicted log hammer against the truth, the artist's constant removed
      const m = monthIndex("2015-05-15");
      const errors = source.works.map((w) => deriver.predictLog(fit, w.id, m) - G((w.creation_year! - BIRTH - 40) / 25 - s));
      const mean = errors.reduce((x, y) => x + y, 0) / errors.length;
      for (const e of errors) expect(Math.abs(e - mean)).toBeLessThan(0.01);
    });
  }

  test("a work without a creation year carries no career term of its own", () => {
    const deriver = new ArtistDeriver(model());
    const source = artist(0.3);
    source.works.push(work(999, null));
    const fit = deriver.fit(source, NOISE);
    expect(Number.isNaN(fit.careerOf.get(999)!)).toBe(true);
    // its prediction is the artist's level less the shift's mean: the constant every work shares
    const m = monthIndex("2015-05-15");
    expect(deriver.predictLog(fit, 999, m)).toBeCloseTo(fit.full[m]! - fit.shiftMean, 9);
  });
});
