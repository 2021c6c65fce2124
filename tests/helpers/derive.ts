/**
 * A hand-made derivation model and works for tests of ArtistDeriver (src/pipeline/derive/artist.ts): three
 * categories, two materials, a flat market, as of 2026-06-30.
 */
import { FeatureSpace, type ArtistModel, type ArtistNoise, type ArtworkRow } from "../../src/pipeline/derive/artist";
import { monthIndex } from "../../src/market/calendar";

export const HAND_AS_OF = "2026-06-30";
export const HAND_MONTHS = monthIndex(HAND_AS_OF) + 1;
export const HAND_SPACE = new FeatureSpace(3, 2);
/** Sale noise and work variance; no house-estimate readings, no market loading. */
export const HAND_NOISE: ArtistNoise = { saleVar: 0.04, workVar: 0.02, estVar: Number.NaN, loadingVar: 0 };

/** The model, with hedonic coefficients `beta` (all 0 when not given). */
export function handModel(beta: Float64Array = new Float64Array(HAND_SPACE.size)): ArtistModel {
  return {
    asOf: HAND_AS_OF,
    oneYearAgo: "2025-06-30",
    months: HAND_MONTHS,
    categories: HAND_SPACE.categories,
    materials: HAND_SPACE.materials,
    media: [],
    beta,
    marketLevel: new Float64Array(HAND_MONTHS),
    processVar: 0.0004,
    bandScale: 1,
    centre: 0,
    estOffsets: { sold: 0 },
    hammerOffsets: { reserved: 0, unreserved: 0 },
    categoryNames: [
      [1, "Painting"],
      [2, "Sculpture"],
      [3, "Prints and multiples"],
    ],
  };
}

/** An oil painting, 50 × 50 cm, signed, made in 1990, unless `over` says otherwise. */
export function handWork(id: number, over: Partial<ArtworkRow> = {}): ArtworkRow {
  return {
    id,
    uid: `aw-${id}`,
    title: `Work ${id}`,
    category_id: 1,
    medium: "oil on canvas",
    material_ids: "1",
    substrate_id: null,
    creation_year: 1990,
    height_cm: 50,
    width_cm: 50,
    depth_cm: null,
    signed: 1,
    edition_group_id: null,
    edition_number: null,
    edition_size: null,
    image_id: null,
    ...over,
  };
}
