/**
 * Image embeddings: a vector that describes how a picture looks, computed from its pixels in
 * process (no model: nothing can be downloaded here). Used for "similar artworks" (works in the
 * same style are near) and for search by image (a resized, recompressed, slightly cropped and
 * brightened copy of a work is nearest to the work itself).
 *
 * `embedPixels(rgb, width, height)` is pure: RGB bytes in, EMBEDDING_DIMS float32 out, L2-normalised.
 * `embedImage(sharp, input)` decodes and fits the picture inside EMBEDDING_CANVAS² with sharp (a
 * procedural SVG is drawn straight at that size, never at full size: `svgRasters` draws many in
 * one librsvg call) and calls embedPixels.
 *
 * The vector is made of blocks, each L2-normalised and weighted (DEFAULT_WEIGHTS), then the whole
 * normalised:
 *
 * - colour (100): a soft-binned 4 × 5 × 5 histogram over (t, a, b), where a, b are CIELAB chroma
 *   and t = L / (L + mean L) is lightness relative to the picture's mean (a brightness change
 *   scales L and leaves a, b alone, so the block hardly moves with it); square-rooted (Hellinger);
 * - layout (48): the mean (t, a, b) of each cell of a 4 × 4 grid minus the picture's mean, with
 *   bilinear ("tent") cell weights so that a small shift or crop moves weight smoothly;
 * - texture: a histogram of gradient orientations weighted by magnitude (8), a histogram of
 *   gradient magnitudes on a log scale (8: flat fields vs hatching and flecks), the share of
 *   chroma edges by strength (4) and the edge density of a 4 × 4 grid relative to its mean (16);
 * - tone (4): the absolute mean lightness, soft-binned (light or dark grounds);
 * - shape (4): Fourier features of log(width / height) (cos and sin at two frequencies: their dot
 *   product is a smooth kernel of the ratio difference; a crop of the same share on each side
 *   keeps the ratio).
 *
 * Style (palette, shape family, texture) carries most of the weight, the layout a little: the
 * layout is what tells two works of one artist apart, and a little is enough for that (a work
 * after the search transform is still nearest to itself), while more of it pulls works of
 * different artists with similar compositions together (docs/vectors.md has the measurements).
 */
import type { Sharp } from "../platform/native";

/** Long side of the canvas an image is reduced to before its features are taken. */
export const EMBEDDING_CANVAS = 96;

/** Block weights of the embedding (the defaults are the shipped ones, tuned on the small market: docs/vectors.md). */
export interface EmbeddingWeights {
  colour: number;
  layout: number;
  orientation: number;
  magnitude: number;
  chromaEdges: number;
  edgeLayout: number;
  tone: number;
  shape: number;
}

export const DEFAULT_WEIGHTS: Readonly<EmbeddingWeights> = Object.freeze({
  colour: 1.5,
  layout: 0.3,
  orientation: 0.6,
  magnitude: 0.6,
  chromaEdges: 0.2,
  edgeLayout: 0.1,
  tone: 0.6,
  shape: 0.3,
});

// Block sizes.
const T_BINS = 4;
const AB_BINS = 5;
const AB_RANGE = 50;
const COLOUR_DIMS = T_BINS * AB_BINS * AB_BINS; // 100
/** The colour histogram's index steps to the next t bin and the next a bin (b is the last axis). */
const T_STEP = AB_BINS * AB_BINS;
const A_STEP = AB_BINS;
const GRID = 4;
const LAYOUT_DIMS = GRID * GRID * 3; // 48
const ORIENT_BINS = 8;
const MAG_BINS = 8;
const CHROMA_BINS = 4;
const EDGE_GRID = 4;
const EDGE_DIMS = EDGE_GRID * EDGE_GRID; // 16
const TONE_BINS = 4;
const SHAPE_FREQS = [1.5, 6] as const;
const SHAPE_DIMS = 2 * SHAPE_FREQS.length; // 4

/** Dimensions of the embedding: 100 + 48 + 8 + 8 + 4 + 16 + 4 + 4 = 192 (a multiple of 16, as sqlite-vec's SIMD distance likes). */
export const EMBEDDING_DIMS = COLOUR_DIMS + LAYOUT_DIMS + ORIENT_BINS + MAG_BINS + CHROMA_BINS + EDGE_DIMS + TONE_BINS + SHAPE_DIMS;

// ------------------------------------------------------------------ colour conversion

const SRGB_TO_LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  SRGB_TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
const labF = (t: number): number => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);

// A direct-mapped cache of colours already converted (pictures repeat their colours: about one
// pixel in five has a colour of its own): the same float32 values, three cube roots fewer a hit.
const LAB_SLOTS = 1 << 14;
const labKeys = new Int32Array(LAB_SLOTS).fill(-1);
const labValues = new Float32Array(LAB_SLOTS * 3);

/**
 * CIELAB (D65) of the first `n` pixels into L, A, B (each at least `n` long). Returns the sums
 * of L, A and B over them, added in pixel order.
 */
function toLab(rgb: Uint8Array, n: number, channels: number, L: Float32Array, A: Float32Array, B: Float32Array): { sumL: number; sumA: number; sumB: number } {
  let sumL = 0,
    sumA = 0,
    sumB = 0;
  for (let p = 0, i = 0; p < n; p++, i += channels) {
    const key = (rgb[i]! << 16) | (rgb[i + 1]! << 8) | rgb[i + 2]!;
    const slot = (Math.imul(key, 0x9e3779b1) >>> 18) & (LAB_SLOTS - 1);
    const v = slot * 3;
    if (labKeys[slot] !== key) {
      const r = SRGB_TO_LINEAR[rgb[i]!]!,
        g = SRGB_TO_LINEAR[rgb[i + 1]!]!,
        b = SRGB_TO_LINEAR[rgb[i + 2]!]!;
      const fx = labF((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047);
      const fy = labF(0.2126729 * r + 0.7151522 * g + 0.072175 * b);
      const fz = labF((0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883);
      labKeys[slot] = key;
      labValues[v] = 116 * fy - 16;
      labValues[v + 1] = 500 * (fx - fy);
      labValues[v + 2] = 200 * (fy - fz);
    }
    const l = labValues[v]!,
      a = labValues[v + 1]!,
      b = labValues[v + 2]!;
    L[p] = l;
    A[p] = a;
    B[p] = b;
    sumL += l;
    sumA += a;
    sumB += b;
  }
  return { sumL, sumA, sumB };
}

/**
 * The per-pixel planes of one embedding (L, a, b and relative lightness t), kept between calls and
 * grown to the largest picture seen: embedPixels runs to its end without yielding, so one set
 * serves every call of the thread, and a call allocates no per-pixel array.
 */
let planes = { L: new Float32Array(0), A: new Float32Array(0), B: new Float32Array(0), T: new Float32Array(0) };
function planesFor(n: number): typeof planes {
  if (planes.L.length < n) planes = { L: new Float32Array(n), A: new Float32Array(n), B: new Float32Array(n), T: new Float32Array(n) };
  return planes;
}

/** Each column's (or row's) lower bin and its weight over `bins` bins across `size` pixels, as binLo/binW give them. */
function axisBins(size: number, bins: number): { lo: Int32Array; w: Float64Array } {
  const lo = new Int32Array(size),
    w = new Float64Array(size);
  for (let x = 0; x < size; x++) {
    const c = ((x + 0.5) / size) * bins - 0.5;
    lo[x] = binLo(c, bins);
    w[x] = binW(c, lo[x]!);
  }
  return { lo, w };
}

// ------------------------------------------------------------------ helpers

/** Adds `w` × the block, L2-normalised, into out[from…]. */
function addBlock(out: Float32Array, from: number, block: Float64Array, weight: number): void {
  let s = 0;
  for (let i = 0; i < block.length; i++) s += block[i]! * block[i]!;
  const k = s > 0 ? weight / Math.sqrt(s) : 0;
  for (let i = 0; i < block.length; i++) out[from + i] = block[i]! * k;
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function l2normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  if (s > 0) {
    const k = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] = v[i]! * k;
  }
  return v;
}

/** Tent (linear) binning: position x in bin units (centres 0…n−1), clamped; lower bin and its weight. */
function binLo(x: number, n: number): number {
  return x <= 0 ? 0 : x >= n - 1 ? n - 2 : Math.floor(x);
}
function binW(x: number, lo: number): number {
  const f = x - lo;
  return f <= 0 ? 1 : f >= 1 ? 0 : 1 - f;
}

// ------------------------------------------------------------------ the features

/**
 * The embedding of an RGB picture (3 bytes per pixel, row-major; `channels: 4` reads RGBA and
 * ignores alpha). EMBEDDING_DIMS float32s, L2-normalised. Pure; about 0.65 ms at 96 × 96.
 */
export function embedPixels(rgb: Uint8Array, width: number, height: number, options: { channels?: number; weights?: Partial<EmbeddingWeights> } = {}): Float32Array {
  const wt = { ...DEFAULT_WEIGHTS, ...options.weights };
  const channels = options.channels ?? 3;
  if (!(width >= 3 && height >= 3) || rgb.length < width * height * channels) {
    throw new RangeError(`embedPixels: bad raster ${width}×${height}×${channels} (${rgb.length} bytes)`);
  }
  const n = width * height;
  const { L, A, B, T } = planesFor(n);
  const { sumL, sumA, sumB } = toLab(rgb, n, channels, L, A, B);
  const meanL = Math.max(1, sumL / n);
  const meanA = sumA / n,
    meanB = sumB / n;

  // colour histogram (trilinear over t, a, b) and layout (bilinear grid cells); relative lightness
  // t = L / (L + mean L), which a brightness change (L × c) hardly moves, made on the way. A
  // corner's weight is the product of the three axes' (t's × a's × b's, in that order); a corner
  // of weight 0 adds 0, so every corner is added (the lower bins leave room for the upper ones).
  const colour = new Float64Array(COLOUR_DIMS);
  const cells = GRID * GRID;
  const gT = new Float64Array(cells),
    gA = new Float64Array(cells),
    gB = new Float64Array(cells),
    gW = new Float64Array(cells);
  const tScale = (T_BINS - 1) / 0.6,
    abScale = (AB_BINS - 1) / (2 * AB_RANGE);
  const cols = axisBins(width, GRID);
  let sumT = 0;
  for (let y = 0; y < height; y++) {
    const cy = ((y + 0.5) / height) * GRID - 0.5;
    const y0 = binLo(cy, GRID),
      wy = binW(cy, y0),
      wy1 = 1 - wy;
    for (let x = 0, p = y * width; x < width; x++, p++) {
      const l = L[p]! > 0 ? L[p]! : 0;
      const tExact = l / (l + meanL);
      sumT += tExact;
      // the plane holds float32: the bins read the rounded value, the mean the exact one
      const t = Math.fround(tExact),
        a = A[p]!,
        b = B[p]!;
      T[p] = t;
      const xt = (t - 0.2) * tScale,
        xa = (a + AB_RANGE) * abScale,
        xb = (b + AB_RANGE) * abScale;
      const t0 = binLo(xt, T_BINS),
        a0 = binLo(xa, AB_BINS),
        b0 = binLo(xb, AB_BINS);
      const wt0 = binW(xt, t0),
        wa0 = binW(xa, a0),
        wb0 = binW(xb, b0);
      const wt1 = 1 - wt0,
        wa1 = 1 - wa0,
        wb1 = 1 - wb0;
      const w00 = wt0 * wa0,
        w10 = wt1 * wa0,
        w01 = wt0 * wa1,
        w11 = wt1 * wa1;
      const k = (t0 * AB_BINS + a0) * AB_BINS + b0;
      colour[k]! += w00 * wb0;
      colour[k + T_STEP]! += w10 * wb0;
      colour[k + A_STEP]! += w01 * wb0;
      colour[k + T_STEP + A_STEP]! += w11 * wb0;
      colour[k + 1]! += w00 * wb1;
      colour[k + T_STEP + 1]! += w10 * wb1;
      colour[k + A_STEP + 1]! += w01 * wb1;
      colour[k + T_STEP + A_STEP + 1]! += w11 * wb1;
      const x0 = cols.lo[x]!,
        wx = cols.w[x]!,
        wx1 = 1 - wx;
      const c = y0 * GRID + x0;
      let w = wy * wx;
      gT[c]! += w * t;
      gA[c]! += w * a;
      gB[c]! += w * b;
      gW[c]! += w;
      w = wy1 * wx;
      gT[c + GRID]! += w * t;
      gA[c + GRID]! += w * a;
      gB[c + GRID]! += w * b;
      gW[c + GRID]! += w;
      w = wy * wx1;
      gT[c + 1]! += w * t;
      gA[c + 1]! += w * a;
      gB[c + 1]! += w * b;
      gW[c + 1]! += w;
      w = wy1 * wx1;
      gT[c + GRID + 1]! += w * t;
      gA[c + GRID + 1]! += w * a;
      gB[c + GRID + 1]! += w * b;
      gW[c + GRID + 1]! += w;
    }
  }
  const meanT = sumT / n;
  for (let i = 0; i < COLOUR_DIMS; i++) colour[i] = Math.sqrt(colour[i]! / n);
  const layout = new Float64Array(LAYOUT_DIMS);
  for (let c = 0; c < cells; c++) {
    const w = gW[c]! || 1;
    layout[c * 3] = (gT[c]! / w - meanT) * 2;
    layout[c * 3 + 1] = (gA[c]! / w - meanA) / AB_RANGE;
    layout[c * 3 + 2] = (gB[c]! / w - meanB) / AB_RANGE;
  }

  // texture: gradients of t (Sobel) and of chroma
  const orient = new Float64Array(ORIENT_BINS);
  const mags = new Float64Array(MAG_BINS);
  const chroma = new Float64Array(CHROMA_BINS);
  const edges = new Float64Array(EDGE_DIMS),
    edgeW = new Float64Array(EDGE_DIMS);
  const edgeCols = axisBins(width, EDGE_GRID);
  const count = Math.max(1, (width - 2) * (height - 2));
  for (let y = 1; y < height - 1; y++) {
    const ey = ((y + 0.5) / height) * EDGE_GRID - 0.5;
    const ey0 = binLo(ey, EDGE_GRID),
      wey = binW(ey, ey0),
      wey1 = 1 - wey;
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const gx = T[i + 1]! - T[i - 1]! + 0.5 * (T[i + 1 - width]! - T[i - 1 - width]! + T[i + 1 + width]! - T[i - 1 + width]!);
      const gy = T[i + width]! - T[i - width]! + 0.5 * (T[i + width - 1]! - T[i - width - 1]! + T[i + width + 1]! - T[i - width + 1]!);
      const mag = Math.sqrt(gx * gx + gy * gy);
      if (mag > 0.005) {
        // magnitudes on a log scale, 0.005 … 0.64
        const lm = Math.log2(mag / 0.005);
        const m0 = binLo(lm, MAG_BINS),
          wm = binW(lm, m0);
        mags[m0]! += wm;
        mags[m0 + 1]! += 1 - wm;
      }
      if (mag > 0.02) {
        let th = Math.atan2(gy, gx);
        if (th < 0) th += Math.PI;
        const ob = (th / Math.PI) * ORIENT_BINS - 0.5;
        const fl = Math.floor(ob);
        const o0 = (fl + ORIENT_BINS) % ORIENT_BINS,
          o1 = (o0 + 1) % ORIENT_BINS;
        const of = ob - fl;
        orient[o0]! += mag * (1 - of);
        orient[o1]! += mag * of;
      }
      const cm = (Math.abs(A[i + 1]! - A[i - 1]!) + Math.abs(A[i + width]! - A[i - width]!) + Math.abs(B[i + 1]! - B[i - 1]!) + Math.abs(B[i + width]! - B[i - width]!)) / 4;
      chroma[cm < 1 ? 0 : cm < 4 ? 1 : cm < 12 ? 2 : 3]! += 1;
      const ex0 = edgeCols.lo[x]!,
        wex = edgeCols.w[x]!,
        wex1 = 1 - wex;
      const c = ey0 * EDGE_GRID + ex0;
      let w = wey * wex;
      edges[c]! += w * mag;
      edgeW[c]! += w;
      w = wey1 * wex;
      edges[c + EDGE_GRID]! += w * mag;
      edgeW[c + EDGE_GRID]! += w;
      w = wey * wex1;
      edges[c + 1]! += w * mag;
      edgeW[c + 1]! += w;
      w = wey1 * wex1;
      edges[c + EDGE_GRID + 1]! += w * mag;
      edgeW[c + EDGE_GRID + 1]! += w;
    }
  }
  let oSum = 0;
  for (let i = 0; i < ORIENT_BINS; i++) oSum += orient[i]!;
  for (let i = 0; i < ORIENT_BINS; i++) orient[i] = oSum > 0 ? Math.sqrt(orient[i]! / oSum) : 0;
  for (let i = 0; i < MAG_BINS; i++) mags[i] = Math.sqrt(mags[i]! / count);
  for (let i = 0; i < CHROMA_BINS; i++) chroma[i] = Math.sqrt(chroma[i]! / count);
  let eMean = 0;
  for (let c = 0; c < EDGE_DIMS; c++) {
    edges[c] = edgeW[c]! > 0 ? edges[c]! / edgeW[c]! : 0;
    eMean += edges[c]! / EDGE_DIMS;
  }
  for (let c = 0; c < EDGE_DIMS; c++) edges[c] = eMean > 0 ? (edges[c]! - eMean) / eMean : 0;

  // tone: the absolute mean lightness, soft-binned over 0…100 (light or dark grounds)
  const tone = new Float64Array(TONE_BINS);
  const xl = (sumL / n / 100) * (TONE_BINS - 1);
  const l0 = binLo(xl, TONE_BINS),
    wl = binW(xl, l0);
  tone[l0]! += wl;
  tone[l0 + 1]! += 1 - wl;

  // shape: Fourier features of the log aspect ratio
  const la = Math.log(width / height);
  const shape = new Float64Array(SHAPE_DIMS);
  SHAPE_FREQS.forEach((f, i) => {
    shape[2 * i] = Math.cos(f * la);
    shape[2 * i + 1] = Math.sin(f * la);
  });

  const out = new Float32Array(EMBEDDING_DIMS);
  let o = 0;
  for (const [block, w] of [
    [colour, wt.colour],
    [layout, wt.layout],
    [orient, wt.orientation],
    [mags, wt.magnitude],
    [chroma, wt.chromaEdges],
    [edges, wt.edgeLayout],
    [tone, wt.tone],
    [shape, wt.shape],
  ] as const) {
    addBlock(out, o, block, w);
    o += block.length;
  }
  return l2normalize(out);
}

// ------------------------------------------------------------------ with sharp

/** A procedural original: its SVG document and the original's pixel size. */
export interface SvgInput {
  svg: string;
  width: number;
  height: number;
}

/** An RGB raster (3 bytes a pixel, row-major). */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The canvas an original of width × height is drawn at: the long side `canvas`, the aspect kept. */
export function canvasSize(width: number, height: number, canvas = EMBEDDING_CANVAS): { width: number; height: number } {
  const long = Math.max(1, width, height);
  return { width: Math.max(1, Math.round((width * canvas) / long)), height: Math.max(1, Math.round((height * canvas) / long)) };
}

/** Pictures drawn per librsvg call by svgRasters. */
export const SVG_SHEET = 16;

/**
 * Draws procedural originals at the embedding canvas, several per librsvg call: each document
 * is placed in a "sheet" SVG as a nested viewport of its canvas size (whole pixels, one under the
 * other, its own width × height mapped onto it; its ids prefixed so that every picture keeps its
 * own gradients), the sheet is rasterised once, and its rows are cut back into one raster per
 * picture, composited over white. A call costs about as much fixed time as drawing a picture at
 * this size, so sheets of SVG_SHEET save most of it; a picture comes out the same whatever
 * sheet it is drawn in (a sheet of one included), so the drawn SVG and the stored vector agree.
 */
export async function svgRasters(sharp: Sharp, inputs: readonly SvgInput[], canvas = EMBEDDING_CANVAS): Promise<Raster[]> {
  const out: Raster[] = [];
  for (let from = 0; from < inputs.length; from += SVG_SHEET) {
    const part = inputs.slice(from, from + SVG_SHEET);
    const boxes: { y: number; width: number; height: number }[] = [];
    const docs: string[] = [];
    let y = 0,
      sheetWidth = 1;
    part.forEach((input, k) => {
      const size = canvasSize(input.width, input.height, canvas);
      const doc = input.svg
        .replace(/^\s*<\?xml[^>]*\?>/, "")
        .replace(/\bid="([^"]*)"/g, `id="s${k}-$1"`)
        .replace(/url\(#([^)]*)\)/g, `url(#s${k}-$1)`)
        .replace(/href="#([^"]*)"/g, `href="#s${k}-$1"`);
      docs.push(
        `<svg x="0" y="${y}" width="${size.width}" height="${size.height}" viewBox="0 0 ${Math.max(1, input.width)} ${Math.max(1, input.height)}" preserveAspectRatio="none">${doc}</svg>`,
      );
      boxes.push({ y, ...size });
      y += size.height;
      sheetWidth = Math.max(sheetWidth, size.width);
    });
    const sheet = `<svg xmlns="http://www.w3.org/2000/svg" width="${sheetWidth}" height="${y}" viewBox="0 0 ${sheetWidth} ${y}">${docs.join("")}</svg>`;
    const { data, info } = await sharp(Buffer.from(sheet), { density: 72 }).raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    if (info.width !== sheetWidth || info.height !== y) throw new Error(`svgRasters: sheet drawn at ${info.width}×${info.height}, expected ${sheetWidth}×${y}`);
    const ch = info.channels;
    for (const box of boxes) {
      const rgb = new Uint8Array(box.width * box.height * 3);
      for (let r = 0; r < box.height; r++) {
        let s = (box.y + r) * info.width * ch;
        let d = r * box.width * 3;
        for (let x = 0; x < box.width; x++, s += ch, d += 3) {
          const alpha = ch === 4 ? data[s + 3]! : 255;
          if (alpha === 255) {
            rgb[d] = data[s]!;
            rgb[d + 1] = data[s + 1]!;
            rgb[d + 2] = data[s + 2]!;
          } else {
            const white = 255 * (255 - alpha);
            rgb[d] = Math.round((data[s]! * alpha + white) / 255);
            rgb[d + 1] = Math.round((data[s + 1]! * alpha + white) / 255);
            rgb[d + 2] = Math.round((data[s + 2]! * alpha + white) / 255);
          }
        }
      }
      out.push({ data: rgb, width: box.width, height: box.height });
    }
  }
  return out;
}

/**
 * Decodes `input` into an RGB raster whose long side is EMBEDDING_CANVAS (an SVG is drawn straight
 * at that size through svgRasters, never at full size).
 */
export async function embeddingRaster(sharp: Sharp, input: Buffer | Uint8Array | SvgInput, canvas = EMBEDDING_CANVAS): Promise<Raster> {
  if (!(input instanceof Uint8Array)) return (await svgRasters(sharp, [input], canvas))[0]!;
  const { data, info } = await sharp(input, { failOn: "none" })
    .rotate()
    .flatten({ background: "#ffffff" })
    .resize({ width: canvas, height: canvas, fit: "inside", kernel: "lanczos3" })
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`embeddingRaster: ${info.channels} channels`);
  return { data, width: info.width, height: info.height };
}

/**
 * The embedding of a picture: an encoded image (JPEG, PNG, WebP…, as a query sends it or as a
 * file original is stored), or a procedural original `{ svg, width, height }`, drawn straight at
 * the canvas size.
 */
export async function embedImage(sharp: Sharp, input: Buffer | Uint8Array | SvgInput, options: { weights?: Partial<EmbeddingWeights> } = {}): Promise<Float32Array> {
  const raster = await embeddingRaster(sharp, input);
  return embedPixels(raster.data, raster.width, raster.height, options);
}
