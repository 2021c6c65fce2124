/**
 * A work's hedonic features (FeatureSpace, src/pipeline/derive/artist.ts) on hand-made works: the layout
 * docs/derivation.md describes, with the career curve's terms worked out by hand.
 */
import { describe, expect, test } from "bun:test";
import { CAREER_FLAT, FeatureSpace, mediumKey, type FeatureRow } from "../../../src/pipeline/derive/artist";

const CATEGORIES = 3;
const MATERIALS = 2;
const space = new FeatureSpace(CATEGORIES, MATERIALS);

function work(over: Partial<FeatureRow>): FeatureRow {
  return { id: 1, category_id: 1, material_ids: "1", height_cm: 50, width_cm: 100, depth_cm: null, signed: 1, edition_size: null, creation_year: 1950, ...over };
}

function features(w: FeatureRow, birth: number | null): number[] {
  const out = new Float64Array(space.size);
  space.fill(out, w, birth);
  return Array.from(out);
}

describe("FeatureSpace", () => {
  test("layout: category and material one-hots, log area, signed, log edition, then the career terms", () => {
    expect(space.size).toBe(CATEGORIES - 1 + MATERIALS + 7);
    // Sculpture (category 2), second material, 20 × 30 × 10 cm (area 20·30·0.6 + 10·20·0.4 = 440), unsigned, edition of 8
    const f = features(work({ category_id: 2, material_ids: "2,1", height_cm: 20, width_cm: 30, depth_cm: 10, signed: 0, edition_size: 8, creation_year: 1900 }), 1860);
    expect(f.slice(0, 2)).toEqual([1, 0]);
    expect(f.slice(2, 4)).toEqual([0, 1]);
    expect(f[4]).toBeCloseTo(Math.log(440 / 2500), 12);
    expect(f[5]).toBe(0);
    expect(f[6]).toBe(0);
    expect(f[7]).toBeCloseTo(Math.log(8), 12);
    // made at 40: a = 0, no curve terms
    expect(f.slice(8)).toEqual([0, 0, 0]);
  });

  test("the career terms: a, a², and a² − CAREER_FLAT once a² passes it", () => {
    // made at 55: a = 15/25 = 0.6, a² = 0.36, below the flat point
    let f = features(work({ creation_year: 1955 }), 1900);
    expect(f[8]).toBe(0);
    expect(f[9]).toBeCloseTo(0.6, 12);
    expect(f[10]).toBeCloseTo(0.36, 12);
    // made at 90: a = 2, a² = 4, 4 − 2.5 past the flat point
    f = features(work({ creation_year: 1990 }), 1900);
    expect(f[8]).toBeCloseTo(4 - CAREER_FLAT, 12);
    expect(f[9]).toBeCloseTo(2, 12);
    expect(f[10]).toBeCloseTo(4, 12);
    // made at 0 (a = −1.6, a² = 2.56): just past it on the early side
    f = features(work({ creation_year: 1900 }), 1900);
    expect(f[8]).toBeCloseTo(2.56 - CAREER_FLAT, 12);
  });

  test("no birth or no year: no career terms; no size: the missing-size flag", () => {
    expect(features(work({}), null).slice(8)).toEqual([0, 0, 0]);
    expect(features(work({ creation_year: null }), 1900).slice(8)).toEqual([0, 0, 0]);
    const f = features(work({ height_cm: null }), 1900);
    expect(f[4]).toBe(0);
    expect(f[5]).toBe(1);
  });

  test("media: a one-hot per (category, first material, substrate) listed, after the materials'", () => {
    expect(mediumKey(2, "2,1", 5)).toBe("2:2:5");
    expect(mediumKey(1, "", null)).toBe("1:0:0");
    const media = new FeatureSpace(CATEGORIES, MATERIALS, ["1:1:3", "2:2:0"]);
    expect(media.size).toBe(CATEGORIES - 1 + MATERIALS + 2 + 7);
    const fill = (w: FeatureRow) => {
      const out = new Float64Array(media.size);
      media.fill(out, w, 1860);
      return Array.from(out);
    };
    // sculpture, second material first, no substrate: its category and material one-hots, then the medium's
    const f = fill(work({ category_id: 2, material_ids: "2,1", height_cm: 20, width_cm: 30, depth_cm: 10, signed: 0, edition_size: 8, creation_year: 1900 }));
    expect(f.slice(0, 6)).toEqual([1, 0, 0, 1, 0, 1]);
    // the rest as without media, shifted by two
    expect(f.slice(6)).toEqual(
      features(work({ category_id: 2, material_ids: "2,1", height_cm: 20, width_cm: 30, depth_cm: 10, signed: 0, edition_size: 8, creation_year: 1900 }), 1860).slice(4),
    );
    // painting in the first material: on substrate 3 the first medium, on another substrate none
    expect(fill(work({ substrate_id: 3 })).slice(4, 6)).toEqual([1, 0]);
    expect(fill(work({ substrate_id: 4 })).slice(4, 6)).toEqual([0, 0]);
  });
});
