/** Size buckets of a work, stored in artworks.size_bucket by the derivation and served (and filtered on) by the API. */

export const SIZE_BUCKETS = ["small", "medium", "big", "other"] as const;
export type SizeBucket = (typeof SIZE_BUCKETS)[number];

/** Size bucket by the largest of height and width: small < 40 cm, medium < 100 cm, big from 100 cm; other: 3D or unmeasured. */
export function sizeBucket(h: number | null, w: number | null, d: number | null): SizeBucket {
  if (h === null || w === null || (d !== null && d > 0)) return "other";
  const m = Math.max(h, w);
  return m < 40 ? "small" : m < 100 ? "medium" : "big";
}
