/**
 * Synthetic unit vectors with the structure of the image embeddings, for the scale checks of the
 * vector index (tests/images/vectors.test.ts and bench/vector.ts): families of styles (shape
 * family and palette), styles (an artist) and works around their style, each level a Gaussian
 * perturbation of the one above, normalised. The spreads are set so that nearest-neighbour
 * similarities look like those of the real embeddings of the small market (docs/vectors.md).
 * Deterministic: the same arguments give the same vectors.
 */
import { mulberry32 } from "../../src/market/random";

/** mulberry32 plus Box–Muller. */
export function gaussianRng(seed: number): () => number {
  const u = mulberry32(seed);
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(1 - u()));
    const th = 2 * Math.PI * u();
    spare = r * Math.sin(th);
    return r * Math.cos(th);
  };
}

export interface SyntheticOptions {
  /** Top-level clusters. */
  families?: number;
  /** Rows per style (an artist's works). */
  perStyle?: number;
  /** Spread of a style around its family, and of a work around its style (relative to a unit vector). */
  styleSpread?: number;
  workSpread?: number;
}

export const SYNTHETIC_DEFAULTS: Required<SyntheticOptions> = { families: 8, perStyle: 12, styleSpread: 0.8, workSpread: 0.45 };

/**
 * `n` unit vectors of `d` dims in one Float32Array (row i at i·d), and each row's style (as a
 * stand-in "artist") and family.
 */
export function clusteredVectors(n: number, d: number, seed: number, options: SyntheticOptions = {}): { vectors: Float32Array; style: Int32Array; family: Int32Array } {
  const o = { ...SYNTHETIC_DEFAULTS, ...options };
  const g = gaussianRng(seed);
  const unit = (v: Float32Array) => {
    let s = 0;
    for (let j = 0; j < d; j++) s += v[j]! * v[j]!;
    const k = 1 / Math.sqrt(s);
    for (let j = 0; j < d; j++) v[j] = v[j]! * k;
    return v;
  };
  const noise = (scale: number) => scale / Math.sqrt(d);
  const families = Array.from({ length: o.families }, () => unit(Float32Array.from({ length: d }, () => g())));
  const styles = Math.max(1, Math.ceil(n / o.perStyle));
  const styleVec = new Float32Array(styles * d);
  const styleFamily = new Int32Array(styles);
  for (let s = 0; s < styles; s++) {
    const f = Math.floor(Math.abs(g() * 1e6)) % o.families;
    styleFamily[s] = f;
    const v = new Float32Array(d);
    for (let j = 0; j < d; j++) v[j] = families[f]![j]! + g() * noise(o.styleSpread);
    styleVec.set(unit(v), s * d);
  }
  const vectors = new Float32Array(n * d);
  const style = new Int32Array(n);
  const family = new Int32Array(n);
  const v = new Float32Array(d);
  for (let i = 0; i < n; i++) {
    const s = Math.floor(i / o.perStyle);
    style[i] = s;
    family[i] = styleFamily[s]!;
    for (let j = 0; j < d; j++) v[j] = styleVec[s * d + j]! + g() * noise(o.workSpread);
    vectors.set(unit(v), i * d);
  }
  return { vectors, style, family };
}

/** A query near row i: the row plus a little noise (as a transformed copy of a work would be). */
export function nearQuery(vectors: Float32Array, d: number, i: number, g: () => number, spread = 0.15): Float32Array {
  const q = new Float32Array(d);
  let s = 0;
  for (let j = 0; j < d; j++) {
    q[j] = vectors[i * d + j]! + (g() * spread) / Math.sqrt(d);
    s += q[j]! * q[j]!;
  }
  const k = 1 / Math.sqrt(s);
  for (let j = 0; j < d; j++) q[j] = q[j]! * k;
  return q;
}
