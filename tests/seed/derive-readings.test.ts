/**
 * How an artist's fit (ArtistDeriver.fit, src/pipeline/derive/artist.ts) reads its lots with the model's
 * reading offsets: a hammer with its reserve's offset (hammerOffsets), a sold lot's estimate by
 * its reserve (estOffsets.sold, estOffsets.sold_unreserved). The fit is linear in its readings and
 * a constant added to all of them moves only the level, so each prediction moves by it exactly.
 */
import { describe, expect, test } from "bun:test";
import { ArtistDeriver, type ArtistSource, type ArtworkRow, type LotRow } from "../../src/pipeline/derive/artist";
import { monthIndex } from "../../src/market/calendar";
import { HAND_AS_OF, HAND_NOISE, handModel, handWork } from "../helpers/derive";

const T = monthIndex(HAND_AS_OF);

function lot(id: number, artworkId: number, day: string, logHammer: number, reserve: number, withEstimate = false): LotRow {
  const hammer = Math.exp(logHammer) * 10_000;
  return {
    id,
    artwork_id: artworkId,
    status: "sold",
    sale_datetime: `${day}T18:00:00Z`,
    hammer_usd: hammer,
    premium_usd: hammer * 1.25,
    estimate_min_usd: withEstimate ? hammer / 1.25 : null,
    estimate_max_usd: withEstimate ? hammer * 1.25 : null,
    currency: "USD",
    reserve_mark: reserve,
  };
}

/** Twenty works, each sold twice (2008 and 2016, prices 0.1 apart), with or without a reserve. */
function artist(reserve: (i: number) => number, withEstimate = false): ArtistSource {
  const works: ArtworkRow[] = [];
  const lots: LotRow[] = [];
  for (let i = 0; i < 20; i++) {
    works.push(handWork(100 + i));
    lots.push(lot(2 * i, 100 + i, "2008-05-15", 0.05 * (i % 3), reserve(i), withEstimate));
    lots.push(lot(2 * i + 1, 100 + i, "2016-05-15", 0.1 + 0.05 * (i % 3), reserve(i), withEstimate));
  }
  return {
    artist: { id: 1, uid: "a-1", name: "A", synonyms: "", nationality: "French", birth: 1950, death: null, bio: "", long_bio: "", is_top: 0, photo_image_id: null },
    works,
    lots,
  };
}

function predictions(source: ArtistSource, over: Partial<ReturnType<typeof handModel>>, noise = HAND_NOISE): number[] {
  const m = { ...handModel(), ...over };
  const deriver = new ArtistDeriver(m);
  const fit = deriver.fit(source, noise);
  return source.works.map((w) => deriver.predictLog(fit, w.id, T));
}

describe("reading offsets in an artist's fit", () => {
  test("hammers without a reserve move by the unreserved offset, those with one do not", () => {
    const unreserved = artist(() => 0);
    const base = predictions(unreserved, {});
    const moved = predictions(unreserved, { hammerOffsets: { reserved: -0.4, unreserved: 0.07 } });
    for (let i = 0; i < base.length; i++) expect(moved[i]! - base[i]!).toBeCloseTo(0.07, 9);
    const reserved = artist(() => 1);
    const before = predictions(reserved, {});
    const after = predictions(reserved, { hammerOffsets: { reserved: -0.02, unreserved: 0.5 } });
    for (let i = 0; i < before.length; i++) expect(after[i]! - before[i]!).toBeCloseTo(-0.02, 9);
  });

  test("a sold lot's estimate reads with the offset of its reserve", () => {
    // estimates at the hammer, read with weight 2; hammers without offsets
    const noise = { ...HAND_NOISE, estVar: HAND_NOISE.saleVar / 2 };
    const source = artist(() => 0, true);
    const base = predictions(source, { estOffsets: { sold: 0, sold_unreserved: 0 } }, noise);
    // the reserved lots' offset does not touch them; their own moves every estimate by 0.09: the
    // readings by 2/3 · 0.09 on the whole (hammers weight 1, estimates 2), and so the predictions
    const other = predictions(source, { estOffsets: { sold: 0.3, sold_unreserved: 0 } }, noise);
    const own = predictions(source, { estOffsets: { sold: 0, sold_unreserved: 0.09 } }, noise);
    for (let i = 0; i < base.length; i++) {
      expect(other[i]!).toBeCloseTo(base[i]!, 9);
      expect(own[i]! - base[i]!).toBeCloseTo((2 / 3) * 0.09, 9);
    }
  });
});
