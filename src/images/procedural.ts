/**
 * Procedural originals. A synthetic artwork's image is never stored: only its parameters are
 * (artist id, a per-image seed, width, height), and `renderSvg` draws it again on demand as a small
 * SVG document that sharp (librsvg) rasterises.
 *
 * - `artistStyle(artistId)` derives a style from the artist id alone: a palette (a dominant
 *   background tone and 4–5 colours), a shape family with one of its variants, a composition rule,
 *   an edge character, a texture and ranges for density and sizes. Works by one artist share it.
 * - `renderSvg(params)` draws one work in that style; the seed moves, sizes, counts and recolours
 *   everything, so no two works are alike, and turns the palette, composition and variant a little
 *   (`workStyle`); the title names the subject (`subjectOf`: a landscape, figures, a portrait, a
 *   still life over the artist's pattern, or the artist's abstract).
 * - The drawing depends on the seed, the artist, the title and the aspect ratio only: every coordinate is
 *   proportional to the canvas, so a rendition can rasterise the original-size SVG at a lower
 *   density (`sharp(svg, { density: 72 * target / width })`) and get the same picture, fast.
 *
 * Pure: no I/O, no project imports, no external references in the SVG (no fonts, images or URLs;
 * only shapes, gradients, patterns and filters that librsvg supports). Deterministic: the same
 * parameters always give the same string. Kept under ~150 elements and a few KB per document.
 */

// ------------------------------------------------------------------------------------ PRNG

/** A uniform draw in [0, 1). */
export type Rng = () => number;

function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hashes integers (any safe integer, negative too) into 32 bits. */
function hashInts(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    const v = Math.trunc(x);
    const lo = v >>> 0;
    const hi = Math.floor(v / 4294967296) >>> 0;
    h = mix32((h ^ lo) >>> 0);
    h = mix32((h + hi + 0x632be5ab) >>> 0);
  }
  return h;
}

/** sfc32, seeded from a hash of the given integers. */
function rngFrom(...xs: number[]): Rng {
  const h = hashInts(...xs);
  let a = h,
    b = mix32(h ^ 0x85ebca6b),
    c = mix32(h ^ 0xc2b2ae35),
    d = mix32(h + 1);
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

const between = (r: Rng, a: number, b: number): number => a + (b - a) * r();
const intIn = (r: Rng, a: number, b: number): number => a + Math.floor(r() * (b - a + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
/** Approximately standard normal (sum of four uniforms), bounded to ±3.5. */
const gauss = (r: Rng): number => (r() + r() + r() + r() - 2) * 1.732;
const clamp = (x: number, a: number, b: number): number => (x < a ? a : x > b ? b : x);

function pickWeighted<T>(r: Rng, xs: readonly (readonly [T, number])[]): T {
  let total = 0;
  for (const [, w] of xs) total += w;
  let u = r() * total;
  for (const [x, w] of xs) {
    u -= w;
    if (u < 0) return x;
  }
  return xs[xs.length - 1]![0];
}

// ------------------------------------------------------------------------------------ colour

/** A colour as hue (degrees), saturation and lightness (0..1). */
export interface Hsl {
  h: number;
  s: number;
  l: number;
}

function hsl(h: number, s: number, l: number): Hsl {
  return { h: ((h % 360) + 360) % 360, s: clamp(s, 0, 1), l: clamp(l, 0, 1) };
}

function shift(c: Hsl, dh: number, ds: number, dl: number): Hsl {
  return hsl(c.h + dh, c.s + ds, c.l + dl);
}

/** `#rrggbb` of an HSL colour. */
export function hex(c: Hsl): string {
  const a = c.s * Math.min(c.l, 1 - c.l);
  const ch = (n: number): string => {
    const k = (n + c.h / 30) % 12;
    const v = c.l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${ch(0)}${ch(8)}${ch(4)}`;
}

// ------------------------------------------------------------------------------------ style

export const SHAPE_FAMILIES = [
  "blocks", // geometric blocks: scattered, stacked colour fields, or a ruled grid split
  "orbs", // circles and spheres
  "blobs", // organic closed shapes
  "bands", // stripes: straight, wavy, or with a disc
  "mosaic", // grid of tiles, Truchet arcs or halftone dots
  "strokes", // gestural brush strokes
  "horizon", // landscape: sky, sun, layered hills/mountains/fields
  "figures", // figure-like silhouettes in a room or on a ground
  "rings", // concentric rings, arcs, drifting tunnels
  "lines", // constructivist bars, lines and small forms
  "shards", // triangular fans and cubist facets
] as const;
export type ShapeFamily = (typeof SHAPE_FAMILIES)[number];

export const COMPOSITIONS = ["centred", "thirds", "allover", "diagonal", "horizon"] as const;
export type Composition = (typeof COMPOSITIONS)[number];
export type Edge = "hard" | "soft" | "outline";
export type Texture = "none" | "flecks" | "hatch" | "canvas" | "mottle";
export type Backdrop = "flat" | "linear" | "radial";

/** Everything that an artist's works share. Derived from the artist id alone. */
export interface Style {
  artistId: number;
  family: ShapeFamily;
  /** Sub-mode of the family (0..2), e.g. stacked fields vs. ruled grid for "blocks". */
  variant: number;
  composition: Composition;
  edge: Edge;
  texture: Texture;
  /** Opacity of the texture overlay. */
  textureStrength: number;
  /** Dominant background tone, and the second tone of a gradient backdrop. */
  background: Hsl;
  background2: Hsl;
  backdrop: Backdrop;
  /** The 4–5 drawing colours, and how often each is used (relative weights). */
  colors: Hsl[];
  colorWeights: number[];
  /** Colour of outlines, ruled lines and silhouettes. */
  ink: Hsl;
  /** The palette as `#rrggbb`, background first (5–6 colours). */
  palette: string[];
  /** Range of the number of elements of a work (the meaning depends on the family). */
  density: [number, number];
  /** Typical element size as a fraction of the short side. */
  size: number;
  /** Preferred direction in degrees and the spread around it. */
  angle: number;
  spread: number;
  /** Fill opacity of the shapes. */
  opacity: number;
  /** Soft-edge fringe (drawn 5× this wide) and width of lines/outlines, as fractions of the short side. */
  blur: number;
  lineWidth: number;
  /** Irregularity of organic shapes and waves, 0..1. */
  wobble: number;
  /** Range of the horizon height (fraction of the height from the top). */
  horizon: [number, number];
  /** Diagonal compositions rise left to right (or fall). */
  rising: boolean;
}

const COMPOSITION_BY_FAMILY: Record<ShapeFamily, readonly Composition[]> = {
  blocks: ["centred", "thirds", "allover", "diagonal"],
  orbs: ["centred", "thirds", "allover", "diagonal", "horizon"],
  blobs: ["centred", "thirds", "allover", "diagonal"],
  bands: ["centred", "thirds", "allover", "diagonal"],
  mosaic: ["centred", "thirds", "allover", "diagonal"],
  strokes: ["centred", "thirds", "allover", "diagonal"],
  horizon: ["horizon"],
  figures: ["centred", "thirds", "horizon"],
  rings: ["centred", "thirds", "diagonal"],
  lines: ["centred", "allover", "diagonal"],
  shards: ["centred", "thirds", "diagonal"],
};

const EDGES_BY_FAMILY: Record<ShapeFamily, readonly Edge[]> = {
  blocks: ["hard", "soft", "outline"],
  orbs: ["hard", "soft", "outline"],
  blobs: ["hard", "soft", "outline"],
  bands: ["hard", "soft", "outline"],
  mosaic: ["hard", "hard", "outline"],
  strokes: ["hard", "soft"],
  horizon: ["hard", "soft", "outline"],
  figures: ["hard", "soft", "outline"],
  rings: ["hard", "soft", "outline"],
  lines: ["hard", "hard", "hard"],
  shards: ["hard", "soft", "outline"],
};

/** Element-count bounds per family; an artist works within a part of them. */
const DENSITY_BY_FAMILY: Record<ShapeFamily, [number, number]> = {
  blocks: [3, 16],
  orbs: [4, 32],
  blobs: [3, 14],
  bands: [4, 16],
  mosaic: [16, 90],
  strokes: [6, 40],
  horizon: [3, 7],
  figures: [1, 6],
  rings: [1, 4],
  lines: [6, 22],
  shards: [7, 28],
};

const HARMONIES: readonly (readonly number[])[] = [
  [0, 28, -28, 55, -12], // analogous
  [0, 180, 18, 195, -15], // complementary
  [0, 120, 240, 12, 132], // triadic
  [0, 150, 210, 22, -20], // split complementary
  [0, 0, 8, -8, 180], // monochrome with one complement accent
  [0, 90, 180, 270, 30], // tetradic
];

const styleCache = new Map<number, Style>();

/** The style of an artist: deterministic from the id. */
export function artistStyle(artistId: number): Style {
  const cached = styleCache.get(artistId);
  if (cached) return cached;
  const r = rngFrom(artistId, 0x57a1e);
  // Hues spread by the golden angle, so neighbouring ids never share a hue family.
  const baseHue = (((artistId * 137.50776) % 360) + 360 + gauss(r) * 6) % 360;
  const family = pick(r, SHAPE_FAMILIES);
  const variant = intIn(r, 0, 2);
  const composition = pick(r, COMPOSITION_BY_FAMILY[family]);
  const edge = pick(r, EDGES_BY_FAMILY[family]);

  const harmony = pick(r, HARMONIES);
  const sat = pickWeighted(r, [
    [between(r, 0.22, 0.4), 1], // muted
    [between(r, 0.45, 0.65), 1.2], // medium
    [between(r, 0.7, 0.92), 1], // vivid
  ]);
  const mode = pickWeighted(r, [
    ["dark", 1],
    ["light", 1.2],
    ["toned", 1],
    ["neutral", 0.6],
  ] as const);
  const bgHue = r() < 0.6 ? baseHue : baseHue + pick(r, [180, 30, -30]);
  let background: Hsl;
  switch (mode) {
    case "dark":
      background = hsl(bgHue, between(r, 0.25, 0.55), between(r, 0.07, 0.18));
      break;
    case "light":
      background = hsl(bgHue, between(r, 0.25, 0.6), between(r, 0.84, 0.94));
      break;
    case "toned":
      background = hsl(bgHue, between(r, 0.4, 0.75), between(r, 0.32, 0.55));
      break;
    default:
      background = hsl(bgHue, between(r, 0.04, 0.12), between(r, 0.55, 0.75));
  }
  const nColors = intIn(r, 4, 5);
  const colors: Hsl[] = [];
  for (let i = 0; i < nColors; i++) {
    const h = baseHue + harmony[i % harmony.length]! + gauss(r) * 5;
    let l: number;
    if (background.l < 0.3) l = between(r, 0.42, 0.82);
    else if (background.l > 0.75) l = between(r, 0.2, 0.62);
    else l = r() < 0.5 ? between(r, 0.12, 0.3) : between(r, 0.7, 0.9);
    colors.push(hsl(h, sat + gauss(r) * 0.06, l));
  }
  const ink = background.l > 0.5 || r() < 0.3 ? hsl(baseHue + 200, between(r, 0.1, 0.4), between(r, 0.06, 0.16)) : hsl(baseHue + 20, between(r, 0.1, 0.35), between(r, 0.86, 0.95));
  const backdrop = pickWeighted<Backdrop>(r, [
    ["flat", 1],
    ["linear", 1],
    ["radial", 0.7],
  ]);
  const background2 = shift(background, gauss(r) * 12, gauss(r) * 0.05, (background.l > 0.5 ? -1 : 1) * between(r, 0.05, 0.14));
  const texture = pickWeighted<Texture>(r, [
    ["none", 1],
    ["flecks", 1],
    ["hatch", 0.8],
    ["canvas", 0.8],
    ["mottle", 0.8],
  ]);
  const [dLo, dHi] = DENSITY_BY_FAMILY[family];
  const lo = Math.round(dLo + (dHi - dLo) * r() * 0.6);
  const hi = Math.max(lo + 1, Math.round(lo + (dHi - lo) * between(r, 0.3, 0.8)));
  const hz0 = between(r, 0.35, 0.68);
  const style: Style = {
    artistId,
    family,
    variant,
    composition,
    edge,
    texture,
    textureStrength: texture === "mottle" ? between(r, 0.25, 0.45) : between(r, 0.12, 0.3),
    background,
    background2,
    backdrop,
    colors,
    colorWeights: colors.map(() => Math.round((0.2 + r() ** 2) * 100) / 100),
    ink,
    palette: [hex(background), ...colors.map(hex)],
    density: [lo, hi],
    size: between(r, 0.12, 0.38),
    angle: pick(r, [0, 90, 45, -45, between(r, -80, 80)]),
    spread: pickWeighted(r, [
      [between(r, 0, 5), 1],
      [between(r, 8, 25), 1],
      [between(r, 30, 70), 0.7],
    ]),
    opacity: r() < 0.5 ? 1 : between(r, 0.6, 0.92),
    blur: between(r, 0.004, 0.014),
    lineWidth: between(r, 0.004, 0.02),
    wobble: between(r, 0.1, 0.9),
    horizon: [hz0, hz0 + between(r, 0.05, 0.15)],
    rising: r() < 0.5,
  };
  if (styleCache.size > 4096) styleCache.clear();
  styleCache.set(artistId, style);
  return style;
}

// ------------------------------------------------------------------------------------ SVG helpers

/** A number for the SVG: one decimal, no trailing zeros. */
function f(x: number): string {
  const v = Math.round(x * 10) / 10;
  return Object.is(v, -0) ? "0" : String(v);
}

type Pt = [number, number];

/** A smooth path through points (Catmull-Rom as cubic Béziers). */
function smoothPath(pts: readonly Pt[], closed: boolean): string {
  const n = pts.length;
  const get = (i: number): Pt => (closed ? pts[((i % n) + n) % n]! : pts[clamp(i, 0, n - 1)]!);
  let d = `M${f(pts[0]![0])} ${f(pts[0]![1])}`;
  const segs = closed ? n : n - 1;
  for (let i = 0; i < segs; i++) {
    const p0 = get(i - 1),
      p1 = get(i),
      p2 = get(i + 1),
      p3 = get(i + 2);
    const c1x = p1[0] + (p2[0] - p0[0]) / 6,
      c1y = p1[1] + (p2[1] - p0[1]) / 6;
    const c2x = p2[0] - (p3[0] - p1[0]) / 6,
      c2y = p2[1] - (p3[1] - p1[1]) / 6;
    d += `C${f(c1x)} ${f(c1y)} ${f(c2x)} ${f(c2y)} ${f(p2[0])} ${f(p2[1])}`;
  }
  return closed ? d + "Z" : d;
}

function polyPath(pts: readonly Pt[], closed = true): string {
  return pts.map((p, i) => `${i ? "L" : "M"}${f(p[0])} ${f(p[1])}`).join("") + (closed ? "Z" : "");
}

/** Gradient vector for an angle in degrees, in objectBoundingBox units. */
function gradVector(angle: number): string {
  const a = (angle * Math.PI) / 180;
  const c = Math.cos(a) / 2,
    s = Math.sin(a) / 2;
  const g = (x: number): string => String(Math.round(x * 1000) / 1000);
  return `x1="${g(0.5 - c)}" y1="${g(0.5 - s)}" x2="${g(0.5 + c)}" y2="${g(0.5 + s)}"`;
}

// ------------------------------------------------------------------------------------ drawing

interface Ctx {
  r: Rng;
  W: number;
  H: number;
  /** Short side, the unit of sizes. */
  S: number;
  st: Style;
  bg: Hsl;
  bg2: Hsl;
  cols: Hsl[];
  ink: Hsl;
  weights: number[];
  hz: number;
  focal: Pt;
  defs: string[];
  /** Drawn below the shapes, unaffected by the edge treatment. */
  under: string[];
  shapes: string[];
  /** Drawn above the shapes, unaffected by the edge treatment. */
  over: string[];
  /** A point in pixels following the composition rule. */
  pt(): Pt;
  /** A drawing colour, by this work's weights. */
  col(): Hsl;
  /** The element count for this work within the artist's density range. */
  count(): number;
}

function makeCtx(st: Style, seed: number, W: number, H: number, salt = 0x0a27): Ctx {
  const r = rngFrom(st.artistId, seed, salt);
  const dh = gauss(r) * 5,
    dl = gauss(r) * 0.025;
  const cols = st.colors.map((c) => shift(c, dh + gauss(r) * 3, gauss(r) * 0.03, dl + gauss(r) * 0.03));
  // The artist's favourite colours lead; each work leans a little one way or another.
  const weights = st.colorWeights.map((w) => w * between(r, 0.6, 1.5));
  const bg = shift(st.background, dh * 0.6, 0, dl * 0.6);
  const bg2 = shift(st.background2, dh * 0.6, 0, dl * 0.6);
  const ink = st.ink;
  const hz = clamp(between(r, st.horizon[0], st.horizon[1]) + gauss(r) * 0.07, 0.25, 0.8);
  const g = (): number => gauss(r);
  let focal: Pt;
  let sample: () => Pt;
  switch (st.composition) {
    case "centred": {
      focal = [0.5 + g() * 0.04, 0.5 + g() * 0.04];
      sample = () => [focal[0] + g() * 0.17, focal[1] + g() * 0.17];
      break;
    }
    case "thirds": {
      focal = [pick(r, [1 / 3, 2 / 3]) + g() * 0.03, pick(r, [1 / 3, 2 / 3]) + g() * 0.03];
      sample = () => (r() < 0.7 ? [focal[0] + g() * 0.12, focal[1] + g() * 0.12] : [r(), r()]);
      break;
    }
    case "diagonal": {
      const t0 = between(r, 0.3, 0.7);
      focal = [t0, st.rising ? 1 - t0 : t0];
      sample = () => {
        const t = between(r, -0.05, 1.05),
          e = g() * 0.09;
        return st.rising ? [t + e, 1 - t + e] : [t + e, t - e];
      };
      break;
    }
    case "horizon": {
      focal = [between(r, 0.2, 0.8), hz];
      sample = () => [between(r, -0.05, 1.05), hz + g() * 0.07];
      break;
    }
    default: {
      focal = [between(r, 0.3, 0.7), between(r, 0.3, 0.7)];
      sample = () => [between(r, -0.05, 1.05), between(r, -0.05, 1.05)];
    }
  }
  const [lo, hi] = st.density;
  return {
    r,
    W,
    H,
    S: Math.min(W, H),
    st,
    bg,
    bg2,
    cols,
    ink,
    weights,
    hz,
    focal: [focal[0] * W, focal[1] * H],
    defs: [],
    under: [],
    shapes: [],
    over: [],
    pt: () => {
      const [x, y] = sample();
      return [clamp(x, -0.05, 1.05) * W, clamp(y, -0.05, 1.05) * H];
    },
    col: () => {
      let total = 0;
      for (const w of weights) total += w;
      let u = r() * total;
      for (let i = 0; i < cols.length; i++) {
        u -= weights[i]!;
        if (u < 0) return cols[i]!;
      }
      return cols[cols.length - 1]!;
    },
    count: () => intIn(r, lo, hi),
  };
}

function drawBlocks(c: Ctx): void {
  const { r, W, H, S, st } = c;
  if (st.variant === 1) {
    // Stacked colour fields.
    const k = clamp(Math.round(between(r, 2, 4.4)), 2, 4);
    const vertical = Math.abs(st.angle) < 45;
    const m = S * between(r, 0.05, 0.1);
    const gap = m * between(r, 0.3, 0.7);
    const span = (vertical ? H : W) - 2 * m - gap * (k - 1);
    const parts = Array.from({ length: k }, () => between(r, 0.5, 1.5));
    const sum = parts.reduce((a, b) => a + b, 0);
    let at = m;
    for (const p of parts) {
      const len = (span * p) / sum;
      const x = vertical ? m : at,
        y = vertical ? at : m;
      const w = vertical ? W - 2 * m : len,
        h = vertical ? len : H - 2 * m;
      c.shapes.push(`<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" rx="${f(S * 0.01)}" fill="${hex(c.col())}"/>`);
      at += len + gap;
    }
    // A small accent block, placed by the composition.
    const [ax, ay] = c.pt();
    const as = S * st.size * between(r, 0.2, 0.45);
    c.shapes.push(`<rect x="${f(ax - as / 2)}" y="${f(ay - as / 2)}" width="${f(as)}" height="${f(as)}" fill="${hex(c.col())}"/>`);
    return;
  }
  if (st.variant === 2) {
    // A ruled grid split: recursive subdivision of the canvas.
    const k = c.count() + 2;
    const rects: [number, number, number, number][] = [[0, 0, W, H]];
    for (let i = 1; i < k; i++) {
      let bi = 0,
        best = -1;
      for (let j = 0; j < rects.length; j++) {
        const [, , w, h] = rects[j]!;
        const score = w * h * between(r, 0.5, 1.5);
        if (score > best) (best = score), (bi = j);
      }
      const [x, y, w, h] = rects[bi]!;
      const t = between(r, 0.25, 0.75);
      if (w > h) rects.splice(bi, 1, [x, y, w * t, h], [x + w * t, y, w * (1 - t), h]);
      else rects.splice(bi, 1, [x, y, w, h * t], [x, y + h * t, w, h * (1 - t)]);
    }
    const lw = S * Math.max(st.lineWidth, 0.008);
    const fills: string[] = [];
    for (const [x, y, w, h] of rects) {
      const fill = r() < 0.4 ? c.col() : shift(c.bg, 0, 0, gauss(r) * 0.03);
      fills.push(`<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" fill="${hex(fill)}"/>`);
    }
    c.shapes.push(`<g stroke="${hex(c.ink)}" stroke-width="${f(lw)}">${fills.join("")}</g>`);
    return;
  }
  // Scattered blocks, tilted by the artist's spread.
  const n = c.count();
  const elong = Math.exp(gauss(r) * 0.15 + (st.wobble - 0.5));
  for (let i = 0; i < n; i++) {
    const [x, y] = c.pt();
    const w = S * (0.08 + st.size) * between(r, 0.6, 2) * elong;
    const h = (S * (0.08 + st.size) * between(r, 0.6, 2)) / elong;
    const rot = st.angle + gauss(r) * st.spread;
    const rt = Math.abs(rot) > 0.5 ? ` transform="rotate(${f(rot)} ${f(x)} ${f(y)})"` : "";
    c.shapes.push(`<rect x="${f(x - w / 2)}" y="${f(y - h / 2)}" width="${f(w)}" height="${f(h)}" fill="${hex(c.col())}"${rt}/>`);
  }
}

function drawOrbs(c: Ctx): void {
  const { r, S, st } = c;
  const n = c.count();
  const ids = new Map<Hsl, string>();
  const grad = (col: Hsl): string => {
    let id = ids.get(col);
    if (!id) {
      id = `o${ids.size}`;
      ids.set(col, id);
      c.defs.push(
        `<radialGradient id="${id}" cx="0.36" cy="0.34" r="0.7"><stop offset="0" stop-color="${hex(shift(col, 8, -0.05, 0.22))}"/><stop offset="1" stop-color="${hex(shift(col, -6, 0, -0.08))}"/></radialGradient>`,
      );
    }
    return `url(#${id})`;
  };
  const orbs = Array.from({ length: n }, () => {
    const [x, y] = c.pt();
    return { x, y, rad: S * st.size * (0.12 + r() ** 2 * 1.1) };
  }).sort((a, b) => b.rad - a.rad);
  for (const [i, o] of orbs.entries()) {
    const col = c.col();
    if (st.variant === 2 && i % 3 === 0) c.shapes.push(`<circle cx="${f(o.x)}" cy="${f(o.y)}" r="${f(o.rad * 1.7)}" fill="${hex(col)}" fill-opacity="0.22"/>`);
    if (st.variant === 1 && r() < 0.3) c.shapes.push(`<circle cx="${f(o.x)}" cy="${f(o.y)}" r="${f(o.rad)}" fill="none" stroke="${hex(col)}" stroke-width="${f(o.rad * 0.16)}"/>`);
    else c.shapes.push(`<circle cx="${f(o.x)}" cy="${f(o.y)}" r="${f(o.rad)}" fill="${st.variant === 1 ? hex(col) : grad(col)}"/>`);
  }
}

function blobPath(c: Ctx, x: number, y: number, rad: number, squash: number, rot: number): string {
  const { r, st } = c;
  const k = intIn(r, 5, 8);
  const a0 = r() * Math.PI * 2;
  const cr = Math.cos((rot * Math.PI) / 180),
    sr = Math.sin((rot * Math.PI) / 180);
  const pts: Pt[] = [];
  for (let j = 0; j < k; j++) {
    const a = a0 + ((j + gauss(r) * 0.12) / k) * Math.PI * 2;
    const rr = rad * (1 + st.wobble * 0.55 * (r() * 2 - 1));
    const px = Math.cos(a) * rr * squash,
      py = Math.sin(a) * rr;
    pts.push([x + px * cr - py * sr, y + px * sr + py * cr]);
  }
  return smoothPath(pts, true);
}

function drawBlobs(c: Ctx): void {
  const { r, S, st } = c;
  const n = c.count();
  const squash = st.variant === 2 ? 2.2 : 1;
  for (let i = 0; i < n; i++) {
    const [x, y] = c.pt();
    const rad = S * st.size * between(r, 0.5, 1.3) * (st.variant === 2 ? 0.6 : 1);
    const rot = st.angle + gauss(r) * st.spread;
    const col = c.col();
    c.shapes.push(`<path d="${blobPath(c, x, y, rad, squash, rot)}" fill="${hex(col)}"/>`);
    if (st.variant === 1) c.shapes.push(`<path d="${blobPath(c, x, y, rad * 0.42, squash, rot)}" fill="${hex(shift(c.col(), 0, 0, col.l > 0.5 ? -0.25 : 0.25))}"/>`);
  }
}

function drawBands(c: Ctx): void {
  const { r, W, H, S, st } = c;
  const n = c.count();
  const D = Math.hypot(W, H) / 2 + S * 0.05;
  const angle = st.angle + gauss(r) * Math.min(st.spread, 12) * 0.3;
  const parts = Array.from({ length: n }, () => between(r, 0.3, 1.7) ** 1.5);
  const sum = parts.reduce((a, b) => a + b, 0);
  const amp = S * st.wobble * 0.06;
  const cycles = 1 + Math.round(st.wobble * 4);
  const phase0 = r() * Math.PI * 2;
  // Band i covers v in [v_i, D] and is painted over band i-1: each band needs one edge only.
  let v = -D;
  let prev: Hsl | null = null;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let col = c.col();
    if (prev && col === prev) col = c.col();
    prev = col;
    if (i === 0) {
      out.push(`<rect x="${f(-D)}" y="${f(-D)}" width="${f(2 * D)}" height="${f(2 * D)}" fill="${hex(col)}"/>`);
    } else if (st.variant === 1) {
      const pts: Pt[] = [];
      const ph = phase0 + i * between(r, 0.4, 1.2);
      for (let j = 0; j <= 10; j++) {
        const u = -D + (2 * D * j) / 10;
        pts.push([u, v + amp * Math.sin(ph + (cycles * Math.PI * 2 * j) / 10)]);
      }
      out.push(`<path d="${smoothPath(pts, false)}L${f(D)} ${f(D)}L${f(-D)} ${f(D)}Z" fill="${hex(col)}"/>`);
    } else {
      out.push(`<rect x="${f(-D)}" y="${f(v)}" width="${f(2 * D)}" height="${f(D - v)}" fill="${hex(col)}"/>`);
    }
    v += (2 * D * parts[i]!) / sum;
  }
  c.shapes.push(`<g transform="translate(${f(W / 2)} ${f(H / 2)}) rotate(${f(angle)})">${out.join("")}</g>`);
  if (st.variant === 2) {
    const [x, y] = c.focal;
    const rad = S * st.size * between(r, 0.5, 1);
    c.over.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(rad)}" fill="${hex(shift(c.col(), 180, 0, 0))}"/>`);
  }
}

function drawMosaic(c: Ctx): void {
  const { r, W, H, S, st } = c;
  const cap = st.variant === 0 ? 100 : 80;
  const n = Math.min(c.count(), cap);
  const aspect = W / H;
  let cols = Math.max(2, Math.round(Math.sqrt(n * aspect)));
  let rows = Math.max(2, Math.round(n / cols));
  while (cols * rows > cap) cols > rows ? cols-- : rows--;
  const cw = W / cols,
    ch = H / rows;
  const gap = Math.min(cw, ch) * (st.wobble < 0.4 ? 0 : st.lineWidth * 6);
  const [fx, fy] = c.focal;
  const reach = Math.hypot(W, H) * 0.5;
  for (let i = 0; i < cols; i++) {
    for (let j = 0; j < rows; j++) {
      const x = i * cw,
        y = j * ch;
      const near = 1 - Math.hypot(x + cw / 2 - fx, y + ch / 2 - fy) / reach;
      if (st.variant === 0) {
        if (r() > 0.35 + near * 0.6) continue;
        c.shapes.push(`<rect x="${f(x + gap / 2)}" y="${f(y + gap / 2)}" width="${f(cw - gap)}" height="${f(ch - gap)}" fill="${hex(c.col())}"/>`);
      } else if (st.variant === 1) {
        // Truchet quarter-circles.
        const corner = intIn(r, 0, 3);
        const cx = corner & 1 ? x + cw : x,
          cy = corner & 2 ? y + ch : y;
        const rad = Math.min(cw, ch) * (r() < near ? 1 : 0.6);
        const sx = corner & 1 ? -1 : 1,
          sy = corner & 2 ? -1 : 1;
        const sweep = sx * sy > 0 ? 1 : 0;
        c.shapes.push(`<path d="M${f(cx)} ${f(cy)}L${f(cx + sx * rad)} ${f(cy)}A${f(rad)} ${f(rad)} 0 0 ${sweep} ${f(cx)} ${f(cy + sy * rad)}Z" fill="${hex(c.col())}"/>`);
      } else {
        // Halftone dots, larger near the focal point.
        const rad = (Math.min(cw, ch) / 2) * clamp(0.25 + near * 0.9 + gauss(r) * 0.12, 0.1, 0.98);
        c.shapes.push(`<circle cx="${f(x + cw / 2)}" cy="${f(y + ch / 2)}" r="${f(rad)}" fill="${hex(c.col())}"/>`);
      }
    }
  }
}

function drawStrokes(c: Ctx): void {
  const { r, S, st } = c;
  const n = c.count();
  const lw = S * Math.max(st.lineWidth * 2.5, 0.012);
  for (let i = 0; i < n; i++) {
    const [x, y] = c.pt();
    const th = ((st.angle + gauss(r) * st.spread) * Math.PI) / 180;
    const L = S * st.size * between(r, 0.7, 2.2);
    const dx = Math.cos(th) * L,
      dy = Math.sin(th) * L;
    const nx = -dy,
      ny = dx;
    const bend = st.wobble * gauss(r) * 0.35;
    const x0 = x - dx / 2,
      y0 = y - dy / 2,
      x1 = x + dx / 2,
      y1 = y + dy / 2;
    let d: string;
    if (st.variant === 2) {
      // Scribble: a wave along the stroke; each smooth quadratic (T) mirrors the last control point.
      const k = intIn(r, 4, 7);
      const side = st.wobble * 0.36;
      d = `M${f(x0)} ${f(y0)}Q${f(x0 + dx / (2 * k) + nx * side)} ${f(y0 + dy / (2 * k) + ny * side)} ${f(x0 + dx / k)} ${f(y0 + dy / k)}`;
      for (let j = 2; j <= k; j++) d += `T${f(x0 + (dx * j) / k)} ${f(y0 + (dy * j) / k)}`;
    } else {
      d = `M${f(x0)} ${f(y0)}C${f(x0 + dx / 3 + nx * bend)} ${f(y0 + dy / 3 + ny * bend)} ${f(x0 + (2 * dx) / 3 - nx * bend)} ${f(y0 + (2 * dy) / 3 - ny * bend)} ${f(x1)} ${f(y1)}`;
    }
    const w = lw * (st.variant === 1 ? between(r, 0.25, 2.2) : between(r, 0.6, 1.6));
    const col = hex(c.col());
    // Soft strokes get a faint wider copy underneath (see featherEdges).
    if (st.edge === "soft") c.shapes.push(`<path d="${d}" stroke="${col}" stroke-width="${f(w + S * st.blur * 5)}" stroke-opacity="0.3"/>`);
    c.shapes.push(`<path d="${d}" stroke="${col}" stroke-width="${f(w)}"/>`);
  }
  c.shapes.unshift(`<g fill="none" stroke-linecap="round" stroke-linejoin="round">`);
  c.shapes.push(`</g>`);
}

function drawHorizon(c: Ctx): void {
  const { r, W, H, S, st } = c;
  const hzY = c.hz * H;
  // Sky: the backdrop tones, sometimes lit towards the horizon by one of the colours.
  const flip = r() < 0.5;
  const low = r() < 0.4 ? shift(c.col(), 0, -0.1, 0.15) : flip ? c.bg : c.bg2;
  c.defs.push(
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hex(flip ? c.bg2 : c.bg)}"/><stop offset="1" stop-color="${hex(low)}"/></linearGradient>`,
  );
  c.under.push(`<rect width="${W}" height="${f(hzY + S * 0.1)}" fill="url(#sky)"/>`);
  const sorted = [...c.cols].sort((a, b) => b.l - a.l);
  if (r() < 0.75) {
    const [sx] = c.pt();
    const sy = hzY - H * between(r, 0.08, c.hz * 0.8);
    const sr = S * st.size * between(r, 0.25, 0.5);
    c.shapes.push(`<circle cx="${f(sx)}" cy="${f(sy)}" r="${f(sr)}" fill="${hex(shift(sorted[0]!, 0, 0.1, 0.05))}"/>`);
  }
  const clouds = st.wobble > 0.5 ? intIn(r, 0, 4) : 0;
  for (let i = 0; i < clouds; i++) {
    const cx = r() * W,
      cy = hzY * between(r, 0.1, 0.7),
      rx = S * between(r, 0.08, 0.25);
    c.shapes.push(`<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(rx * 0.28)}" fill="${hex(shift(c.bg, 0, -0.1, 0.12))}" fill-opacity="0.7"/>`);
  }
  const layers = c.count();
  const bases = Array.from({ length: layers }, (_, i) => (i === 0 ? 0 : r() * 0.85)).sort((a, b) => a - b);
  const off = intIn(r, 0, sorted.length - 1);
  for (let i = 0; i < layers; i++) {
    const t = i / layers;
    const base = hzY + (H - hzY) * bases[i]!;
    // Far layers fade into the sky, near layers are darker and stronger.
    const col = shift(sorted[(off + i) % sorted.length]!, gauss(r) * 4, 0, (0.5 - t) * 0.2);
    const amp = S * (st.variant === 1 ? 0.18 : 0.07) * (1 - t * 0.6) * between(r, 0.6, 1.3);
    const k = st.variant === 1 ? intIn(r, 6, 11) : intIn(r, 4, 7);
    const pts: Pt[] = [];
    const tilt = gauss(r) * S * 0.04;
    for (let j = 0; j <= k; j++) {
      const x = -S * 0.05 + ((W + S * 0.1) * j) / k;
      const y = st.variant === 2 ? base + tilt * (j / k - 0.5) * 2 : base - amp * (st.variant === 1 ? r() : 0.5 + 0.5 * Math.sin(j * between(r, 0.8, 1.6) + i));
      pts.push([x, y]);
    }
    const ridge = st.variant === 1 ? polyPath(pts, false) : smoothPath(pts, false);
    c.shapes.push(`<path d="${ridge}L${f(W + S * 0.05)} ${f(H + S * 0.05)}L${f(-S * 0.05)} ${f(H + S * 0.05)}Z" fill="${hex(col)}"/>`);
  }
  if (st.variant === 2) {
    // Posts or trees along the fields.
    const k = intIn(r, 2, 7);
    for (let i = 0; i < k; i++) {
      const x = r() * W,
        h = S * between(r, 0.08, 0.3),
        w = h * 0.08;
      const y = hzY + (H - hzY) * between(r, 0.05, 0.5);
      c.shapes.push(`<rect x="${f(x)}" y="${f(y - h)}" width="${f(w)}" height="${f(h)}" fill="${hex(c.ink)}"/>`);
    }
  }
}

function figurePath(x: number, base: number, h: number, wide: number): string {
  // A head-and-coat silhouette standing on (x, base), height h.
  const sh = h * 0.13 * wide,
    hip = h * 0.11 * wide,
    hem = h * 0.15 * wide,
    leg = h * 0.05 * wide;
  const top = base - h * 0.85,
    waist = base - h * 0.5,
    hemY = base - h * 0.22;
  return (
    `M${f(x - h * 0.04)} ${f(top)}` +
    `C${f(x - sh)} ${f(top)} ${f(x - sh)} ${f(top + h * 0.04)} ${f(x - sh)} ${f(top + h * 0.12)}` +
    `L${f(x - hip)} ${f(waist)}L${f(x - hem)} ${f(hemY)}L${f(x - leg * 1.6)} ${f(hemY)}L${f(x - leg * 1.4)} ${f(base)}` +
    `L${f(x - leg * 0.3)} ${f(base)}L${f(x)} ${f(hemY + h * 0.04)}L${f(x + leg * 0.3)} ${f(base)}L${f(x + leg * 1.4)} ${f(base)}` +
    `L${f(x + leg * 1.6)} ${f(hemY)}L${f(x + hem)} ${f(hemY)}L${f(x + hip)} ${f(waist)}L${f(x + sh)} ${f(top + h * 0.12)}` +
    `C${f(x + sh)} ${f(top + h * 0.04)} ${f(x + sh)} ${f(top)} ${f(x + h * 0.04)} ${f(top)}Z`
  );
}

function drawFigures(c: Ctx): void {
  const { r, W, H, S, st } = c;
  const groundY = H * clamp(c.hz + 0.12, 0.55, 0.85);
  c.under.push(`<rect y="${f(groundY)}" width="${W}" height="${f(H - groundY)}" fill="${hex(shift(c.col(), 0, -0.1, -0.08))}"/>`);
  // The room or street behind: a few openings.
  const openings = intIn(r, 0, 3);
  for (let i = 0; i < openings; i++) {
    const w = S * between(r, 0.1, 0.3),
      h = w * between(r, 1.2, 2.2);
    const x = r() * (W - w),
      y = groundY - h - (r() < 0.5 ? 0 : S * between(r, 0.05, 0.2));
    c.under.push(`<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" fill="${hex(shift(c.bg2, 0, 0, 0.08))}"/>`);
  }
  const n = c.count();
  const wide = st.variant === 1 ? 0.5 : st.variant === 2 ? 1.6 : 1;
  const figs = Array.from({ length: n }, () => {
    const [x] = c.pt();
    const depth = r();
    return { x, base: groundY + (H - groundY) * depth * 0.8, h: H * (0.3 + 0.4 * depth) * (0.7 + st.size) };
  }).sort((a, b) => a.base - b.base);
  const inkFigures = st.wobble > 0.5;
  for (const g of figs) {
    c.shapes.push(`<ellipse cx="${f(g.x + g.h * 0.05)}" cy="${f(g.base)}" rx="${f(g.h * 0.16 * wide)}" ry="${f(g.h * 0.025)}" fill="${hex(c.ink)}" fill-opacity="0.3"/>`);
    const col = inkFigures ? shift(c.ink, 0, 0, gauss(r) * 0.04) : c.col();
    c.shapes.push(`<path d="${figurePath(g.x, g.base, g.h, wide)}" fill="${hex(col)}"/>`);
    c.shapes.push(`<circle cx="${f(g.x)}" cy="${f(g.base - g.h * 0.92)}" r="${f(g.h * 0.075 * Math.sqrt(wide))}" fill="${hex(col)}"/>`);
  }
}

function drawRings(c: Ctx): void {
  const { r, S, st } = c;
  const n = c.count();
  for (let i = 0; i < n; i++) {
    const [x, y] = i === 0 ? c.focal : c.pt();
    const R = S * st.size * between(r, 1, 2.2) * (i === 0 ? 1.2 : 0.7);
    const k = intIn(r, 4, 9);
    const off = intIn(r, 0, c.cols.length - 1);
    const th = ((st.angle + gauss(r) * st.spread) * Math.PI) / 180;
    for (let j = 0; j < k; j++) {
      const rad = R * (1 - j / k);
      const col = c.cols[(off + j) % c.cols.length]!;
      if (st.variant === 1) {
        // Half discs, opening towards the artist's direction.
        const ax = Math.cos(th) * rad,
          ay = Math.sin(th) * rad;
        c.shapes.push(`<path d="M${f(x - ax)} ${f(y - ay)}A${f(rad)} ${f(rad)} 0 0 1 ${f(x + ax)} ${f(y + ay)}Z" fill="${hex(col)}"/>`);
      } else {
        const drift = st.variant === 2 ? (R / k) * 0.6 * j : 0;
        c.shapes.push(`<circle cx="${f(x + Math.cos(th) * drift)}" cy="${f(y + Math.sin(th) * drift)}" r="${f(rad)}" fill="${hex(col)}"/>`);
      }
    }
  }
}

function drawLines(c: Ctx): void {
  const { r, S, st } = c;
  const n = c.count();
  const [fx, fy] = c.focal;
  for (let i = 0; i < n; i++) {
    const kind = r();
    const col = c.col();
    if (kind < 0.55) {
      const [x, y] = st.variant === 2 ? [fx, fy] : c.pt();
      const base = st.variant === 1 ? pick(r, [st.angle, st.angle + 90]) : st.angle;
      const th = ((base + gauss(r) * (st.variant === 1 ? 2 : st.spread)) * Math.PI) / 180;
      const L = S * st.size * between(r, 1.5, 4);
      const dx = (Math.cos(th) * L) / 2,
        dy = (Math.sin(th) * L) / 2;
      const w = S * st.lineWidth * (r() < 0.3 ? between(r, 2, 5) : between(r, 0.4, 1.2));
      const [x0, y0] = st.variant === 2 ? [x, y] : [x - dx, y - dy];
      c.shapes.push(`<line x1="${f(x0)}" y1="${f(y0)}" x2="${f(x + dx)}" y2="${f(y + dy)}" stroke="${hex(col)}" stroke-width="${f(w)}"/>`);
    } else if (kind < 0.85) {
      const [x, y] = c.pt();
      const rad = S * st.size * (0.08 + r() ** 2 * 0.6);
      const ring = r() < 0.4;
      c.shapes.push(
        ring
          ? `<circle cx="${f(x)}" cy="${f(y)}" r="${f(rad)}" fill="none" stroke="${hex(col)}" stroke-width="${f(S * st.lineWidth)}"/>`
          : `<circle cx="${f(x)}" cy="${f(y)}" r="${f(rad)}" fill="${hex(col)}"/>`,
      );
    } else {
      const [x, y] = c.pt();
      const s = S * st.size * between(r, 0.3, 0.8);
      const a = r() * Math.PI * 2;
      const tri: Pt[] = [0, 1, 2].map((k) => [x + Math.cos(a + (k * 2 * Math.PI) / 3) * s, y + Math.sin(a + (k * 2 * Math.PI) / 3) * s * 0.8]);
      c.shapes.push(`<path d="${polyPath(tri)}" fill="${hex(col)}"/>`);
    }
  }
}

function drawShards(c: Ctx): void {
  const { r, W, H, S, st } = c;
  if (st.variant === 2) {
    // Cubist facets: overlapping triangles around the composition.
    const n = c.count();
    for (let i = 0; i < n; i++) {
      const [x, y] = c.pt();
      const s = S * st.size * between(r, 0.6, 1.6);
      const tri: Pt[] = [0, 1, 2].map(() => [x + gauss(r) * s * 0.6, y + gauss(r) * s * 0.6]);
      c.shapes.push(`<path d="${polyPath(tri)}" fill="${hex(c.col())}"/>`);
    }
    return;
  }
  const fans = st.variant === 1 ? 2 : 1;
  for (let fi = 0; fi < fans; fi++) {
    const [fx, fy] = fi === 0 ? c.focal : c.pt();
    const n = c.count();
    const angles = Array.from({ length: n }, () => r() * Math.PI * 2).sort((a, b) => a - b);
    const R = Math.hypot(W, H);
    for (let i = 0; i < n; i++) {
      if (fi > 0 && r() < 0.5) continue;
      const a0 = angles[i]!,
        a1 = i + 1 < n ? angles[i + 1]! : angles[0]! + Math.PI * 2;
      const rr = fi === 0 ? R : S * st.size * between(r, 1, 2.5);
      const tri: Pt[] = [
        [fx, fy],
        [fx + Math.cos(a0) * rr, fy + Math.sin(a0) * rr],
        [fx + Math.cos(a1) * rr, fy + Math.sin(a1) * rr],
      ];
      c.shapes.push(`<path d="${polyPath(tri)}" fill="${hex(c.col())}"${fi > 0 ? ` fill-opacity="0.6"` : ""}/>`);
    }
  }
}

// ------------------------------------------------------------------------------------ subjects

/**
 * What a work shows, read from its title: a landscape (horizon bands: sky, sun, hills), figures
 * (standing silhouettes on a ground), a portrait (one bust, centred), a still life (objects on a
 * table plane) or an abstract (the artist's own pattern; also every title that names no subject,
 * "Untitled" and "Composition" among them).
 */
export const SUBJECTS = ["landscape", "figures", "portrait", "still-life", "abstract"] as const;
export type Subject = (typeof SUBJECTS)[number];

/** Title words per subject, tried in this order ("Figures on a Beach" is figures on a ground). */
const SUBJECT_WORDS: readonly (readonly [Subject, RegExp])[] = [
  ["portrait", /\b(portrait|self-portrait|head|bust|torso)\b/],
  ["figures", /\b(figures?|bathers|nude|crowd|hands|mother and child|film still|marilyn|bullfight|horse|bird|street scene)\b/],
  ["still-life", /\b(still life|flowers|vase|lemons|interior|room|chair|armchair|lamp|bowl|ewer|charger|candelabra|cabinet|desk|sideboard|stool|clock|botanical)\b/],
  ["landscape", /\b(landscape|river|harbour|beach|bay|sea|garden|mountain|dunes|glacier|skyline|view|tree|nocturne|street|swimming|industrial)\b/],
];

/** The subject a title names (SUBJECTS); "abstract" when it names none. */
export function subjectOf(title: string | null | undefined): Subject {
  const t = (title ?? "").toLowerCase();
  for (const [subject, words] of SUBJECT_WORDS) if (words.test(t)) return subject;
  return "abstract";
}

/** The family a subject is drawn with (null: the artist's own). */
const SUBJECT_FAMILY: Record<Subject, ShapeFamily | null> = {
  landscape: "horizon",
  figures: "figures",
  portrait: null,
  "still-life": null,
  abstract: null,
};

/**
 * One work's take on its artist's style: the palette turned and lit a little (the same family of
 * colours), now and then another composition, variant or direction of the artist's family, sizes
 * and the horizon moved. Deterministic from the artist and the seed.
 */
export function workStyle(st: Style, seed: number): Style {
  const r = rngFrom(st.artistId, seed, 0x3d1a);
  const dh = gauss(r) * 4,
    ds = gauss(r) * 0.03,
    dl = gauss(r) * 0.02;
  const colors = st.colors.map((c) => shift(c, dh, ds, dl));
  const hz0 = clamp(st.horizon[0] + gauss(r) * 0.08, 0.25, 0.72);
  return {
    ...st,
    colors,
    background: shift(st.background, dh * 0.7, 0, dl * 0.5),
    background2: shift(st.background2, dh * 0.7, 0, dl * 0.5),
    composition: r() < 0.7 ? st.composition : pick(r, COMPOSITION_BY_FAMILY[st.family]),
    variant: r() < 0.85 ? st.variant : intIn(r, 0, 2),
    angle: st.angle + (r() < 0.1 ? 90 : gauss(r) * 8),
    size: clamp(st.size * Math.exp(gauss(r) * 0.18), 0.08, 0.45),
    horizon: [hz0, hz0 + st.horizon[1] - st.horizon[0]],
  };
}

/** A drawing context for `st` that paints into `c`'s layers with `c`'s colours. */
function layerCtx(c: Ctx, st: Style, seed: number, salt: number): Ctx {
  const d = makeCtx(st, seed, c.W, c.H, salt);
  return { ...d, bg: c.bg, bg2: c.bg2, cols: c.cols, ink: c.ink, weights: c.weights, col: c.col, defs: c.defs, under: c.under, shapes: c.shapes, over: c.over };
}

/** One bust, centred: head and shoulders in a colour of the palette, a lighter halo behind. */
function drawPortrait(c: Ctx): void {
  const { r, W, H, S } = c;
  const cx = W * (0.5 + gauss(r) * 0.05);
  const hr = S * between(r, 0.13, 0.2);
  const hy = H * between(r, 0.34, 0.46);
  const headRy = hr * between(r, 1.1, 1.3);
  const sw = S * between(r, 0.3, 0.46);
  const ny = hy + headRy * 0.8;
  const body = c.col();
  const skin = c.col();
  c.under.push(`<ellipse cx="${f(cx)}" cy="${f(hy + headRy * 0.6)}" rx="${f(sw * 1.05)}" ry="${f(sw * 1.2)}" fill="${hex(c.bg2)}"/>`);
  c.shapes.push(
    `<path d="M${f(cx - S * 0.07)} ${f(ny)}C${f(cx - sw)} ${f(ny + S * 0.08)} ${f(cx - sw)} ${f(ny + S * 0.14)} ${f(cx - sw * 1.05)} ${f(H + 2)}` +
      `L${f(cx + sw * 1.05)} ${f(H + 2)}C${f(cx + sw)} ${f(ny + S * 0.14)} ${f(cx + sw)} ${f(ny + S * 0.08)} ${f(cx + S * 0.07)} ${f(ny)}Z" fill="${hex(body)}"/>`,
  );
  c.shapes.push(`<ellipse cx="${f(cx)}" cy="${f(hy)}" rx="${f(hr)}" ry="${f(headRy)}" fill="${hex(skin)}"/>`);
  if (r() < 0.7) {
    const hair = shift(c.ink, 0, 0, gauss(r) * 0.05);
    c.shapes.push(`<path d="M${f(cx - hr * 1.05)} ${f(hy)}A${f(hr * 1.05)} ${f(headRy * 1.08)} 0 0 1 ${f(cx + hr * 1.05)} ${f(hy)}Z" fill="${hex(hair)}"/>`);
  }
}

/** Objects on a table: a plane across the lower part, vases, bowls, bottles and fruit standing on it. */
function drawStillLife(c: Ctx): void {
  const { r, W, H, S } = c;
  const top = H * between(r, 0.52, 0.7);
  const tilt = gauss(r) * S * 0.03;
  const table = c.col();
  c.shapes.push(`<path d="M0 ${f(top - tilt)}L${W} ${f(top + tilt)}L${W} ${H}L0 ${H}Z" fill="${hex(table)}"/>`);
  c.shapes.push(`<rect x="0" y="${f(top - tilt - S * 0.006)}" width="${W}" height="${f(S * 0.012)}" fill="${hex(c.ink)}" fill-opacity="0.35"/>`);
  const n = intIn(r, 2, 5);
  const xs = Array.from({ length: n }, (_, i) => W * (0.5 + ((i + 0.5) / n - 0.5) * between(r, 0.5, 0.8) + gauss(r) * 0.03));
  for (const x of xs) {
    const base = top + (H - top) * between(r, 0.1, 0.45) + tilt * ((2 * x) / W - 1);
    const col = c.col();
    const kind = r();
    if (kind < 0.35) {
      // a vase: a body and a neck
      const h = S * between(r, 0.2, 0.38),
        w = h * between(r, 0.3, 0.45);
      c.shapes.push(`<ellipse cx="${f(x)}" cy="${f(base - h * 0.35)}" rx="${f(w)}" ry="${f(h * 0.35)}" fill="${hex(col)}"/>`);
      c.shapes.push(`<rect x="${f(x - w * 0.3)}" y="${f(base - h)}" width="${f(w * 0.6)}" height="${f(h * 0.4)}" fill="${hex(col)}"/>`);
    } else if (kind < 0.6) {
      // a bowl
      const w = S * between(r, 0.1, 0.18);
      c.shapes.push(`<path d="M${f(x - w)} ${f(base - w * 0.55)}A${f(w)} ${f(w * 0.55)} 0 0 0 ${f(x + w)} ${f(base - w * 0.55)}Z" fill="${hex(col)}"/>`);
    } else if (kind < 0.8) {
      // a bottle
      const h = S * between(r, 0.22, 0.4),
        w = h * 0.14;
      c.shapes.push(`<rect x="${f(x - w)}" y="${f(base - h * 0.7)}" width="${f(2 * w)}" height="${f(h * 0.7)}" rx="${f(w * 0.4)}" fill="${hex(col)}"/>`);
      c.shapes.push(`<rect x="${f(x - w * 0.35)}" y="${f(base - h)}" width="${f(w * 0.7)}" height="${f(h * 0.32)}" fill="${hex(col)}"/>`);
    } else {
      // fruit
      const k = intIn(r, 2, 4),
        rad = S * between(r, 0.03, 0.05);
      for (let i = 0; i < k; i++) c.shapes.push(`<circle cx="${f(x + (i - k / 2) * rad * 1.7)}" cy="${f(base - rad)}" r="${f(rad)}" fill="${hex(c.col())}"/>`);
    }
  }
}

/**
 * The work's subject in the artist's hand: an abstract is the artist's own pattern; any other
 * subject keeps the pattern as a motif behind (MOTIF_SHARE of its elements) and draws the
 * subject over it in the same colours (a landscape artist's landscape is simply theirs).
 */
function paintSubject(c: Ctx, seed: number, subject: Subject): void {
  const { st } = c;
  const family = SUBJECT_FAMILY[subject];
  if (subject === "abstract" || family === st.family) {
    DRAW[st.family](c);
    return;
  }
  const [lo, hi] = st.density;
  const motif = layerCtx(c, { ...st, density: [Math.max(1, Math.round(lo * MOTIF_SHARE)), Math.max(2, Math.round(hi * MOTIF_SHARE))] }, seed, 0x6d07);
  DRAW[st.family](motif);
  if (subject === "portrait") drawPortrait(layerCtx(c, st, seed, 0x9071));
  else if (subject === "still-life") drawStillLife(layerCtx(c, st, seed, 0x5711));
  else if (family === "horizon") drawHorizon(layerCtx(c, { ...st, family, composition: "horizon", variant: st.variant, density: [3, 6] }, seed, 0x4a2d));
  else drawFigures(layerCtx(c, { ...st, family: "figures", composition: st.horizon[0] < 0.5 ? "horizon" : "thirds", density: [1, 5] }, seed, 0xf163));
}

/** The share of the artist's pattern (its element counts) drawn behind another subject. */
const MOTIF_SHARE = 0.8;

const DRAW: Record<ShapeFamily, (c: Ctx) => void> = {
  blocks: drawBlocks,
  orbs: drawOrbs,
  blobs: drawBlobs,
  bands: drawBands,
  mosaic: drawMosaic,
  strokes: drawStrokes,
  horizon: drawHorizon,
  figures: drawFigures,
  rings: drawRings,
  lines: drawLines,
  shards: drawShards,
};

function backdrop(c: Ctx): string {
  const { W, H, st } = c;
  if (st.backdrop === "linear") {
    c.defs.push(
      `<linearGradient id="bg" ${gradVector(st.angle + 90 + gauss(c.r) * 25)}><stop offset="0" stop-color="${hex(c.bg)}"/><stop offset="1" stop-color="${hex(c.bg2)}"/></linearGradient>`,
    );
    return `<rect width="${W}" height="${H}" fill="url(#bg)"/>`;
  }
  if (st.backdrop === "radial") {
    c.defs.push(
      `<radialGradient id="bg" cx="${f(c.focal[0] / W)}" cy="${f(c.focal[1] / H)}" r="0.75"><stop offset="0" stop-color="${hex(c.bg2)}"/><stop offset="1" stop-color="${hex(c.bg)}"/></radialGradient>`,
    );
    return `<rect width="${W}" height="${H}" fill="url(#bg)"/>`;
  }
  return `<rect width="${W}" height="${H}" fill="${hex(c.bg)}"/>`;
}

function texture(c: Ctx): string {
  const { r, W, H, S, st } = c;
  const opacity = String(Math.round(st.textureStrength * 100) / 100);
  const cx = f(W / 2),
    cy = f(H / 2);
  const D = (Math.hypot(W, H) / 2) * 1.01;
  const tone = c.bg.l > 0.5 ? c.ink : shift(c.bg, 0, -0.2, 0.45);
  switch (st.texture) {
    case "flecks": {
      // Paper flecks: short marks in one path. (feTurbulence grain was measured and dropped: as a
      // pattern tile it shows seams, and it is slow in librsvg: docs/images.md#how-it-is-rendered.)
      const n = intIn(r, 60, 90);
      const len = S * 0.006;
      let d = "";
      for (let i = 0; i < n; i++) {
        const a = r() * Math.PI * 2,
          l = len * between(r, 0.4, 1.6);
        d += `M${f(r() * W)} ${f(r() * H)}l${f(Math.cos(a) * l)} ${f(Math.sin(a) * l)}`;
      }
      return `<path d="${d}" fill="none" stroke="${hex(tone)}" stroke-width="${f(S * 0.0025)}" stroke-linecap="round" stroke-opacity="${Math.min(0.6, st.textureStrength * 2.5).toFixed(2)}"/>`;
    }
    case "mottle": {
      // Soft blotches: ellipses filled with a gradient that fades out (no filter, cheap at any size).
      c.defs.push(`<radialGradient id="mt"><stop offset="0" stop-color="${hex(tone)}"/><stop offset="1" stop-color="${hex(tone)}" stop-opacity="0"/></radialGradient>`);
      const n = intIn(r, 8, 14);
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const rx = S * between(r, 0.15, 0.45);
        out.push(
          `<ellipse cx="${f(r() * W)}" cy="${f(r() * H)}" rx="${f(rx)}" ry="${f(rx * between(r, 0.4, 1))}" transform="rotate(${Math.round(st.angle + gauss(r) * 20)} ${cx} ${cy})"/>`,
        );
      }
      return `<g fill="url(#mt)" fill-opacity="${opacity}">${out.join("")}</g>`;
    }
    case "hatch":
    case "canvas": {
      // Stripes as the dashes of one very wide line: patterns with a rotation or a fractional
      // tile are very slow in librsvg, a dashed line is not.
      const sp = S * (st.texture === "hatch" ? 0.014 : 0.008);
      const g = (x: number): string => String(Math.round(x * 1000) / 1000);
      const dash = `stroke-dasharray="${g(sp * 0.3)} ${g(sp * 0.7)}"`;
      const line = (rot: number, op: string): string =>
        `<line x1="${cx}" y1="${f(H / 2 - D)}" x2="${cx}" y2="${f(H / 2 + D)}" stroke="${hex(tone)}" stroke-width="${f(2 * D)}" ${dash} stroke-opacity="${op}"${rot ? ` transform="rotate(${f(rot)} ${cx} ${cy})"` : ""}/>`;
      if (st.texture === "hatch") return line(st.angle + 45, opacity);
      const half = String(Math.round(st.textureStrength * 60) / 100);
      return line(0, half) + line(90, half);
    }
    default:
      return "";
  }
}

/**
 * Soft edges without a filter: each filled shape also gets a stroke of its own colour, which the
 * group draws wide, translucent and under the fill (paint-order), so the edge fades out over a
 * fringe. A Gaussian blur filter over the canvas is slow in librsvg (docs/images.md#how-it-is-rendered);
 * this costs next to nothing. Shapes that stroke themselves and the ruled grid (a group
 * with its own stroke) are left alone.
 */
function featherEdges(el: string): string {
  if (el.startsWith("<g stroke")) return el;
  return el.replace(/<(rect|circle|ellipse|path)\b([^>]*?)\/>/g, (m, tag: string, attrs: string) => {
    if (attrs.includes(" stroke=")) return m;
    const fill = /fill="(#[0-9a-f]{6})"/.exec(attrs);
    return fill ? `<${tag}${attrs} stroke="${fill[1]}"/>` : m;
  });
}

export interface RenderParams {
  artistId: number;
  seed: number;
  width: number;
  height: number;
  /** The work's title: it names the subject (subjectOf); none draws an abstract. */
  title?: string | null;
}

/** One work as a complete SVG document of exactly width × height (viewBox too). */
export function renderSvg(params: RenderParams): string {
  const W = Math.max(1, Math.round(params.width));
  const H = Math.max(1, Math.round(params.height));
  const st = workStyle(artistStyle(params.artistId), params.seed);
  const c = makeCtx(st, params.seed, W, H);
  const back = backdrop(c);
  paintSubject(c, params.seed, subjectOf(params.title));
  let groupAttrs = "";
  if (st.opacity < 1 && st.edge !== "soft") groupAttrs += ` fill-opacity="${Math.round(st.opacity * 100) / 100}"`;
  let shapes = c.shapes;
  if (st.edge === "soft" && st.family !== "strokes") {
    shapes = shapes.map(featherEdges);
    groupAttrs += ` stroke-width="${f(c.S * st.blur * 5)}" stroke-opacity="0.4" stroke-linejoin="round" paint-order="stroke"`;
  } else if (st.edge === "outline" && st.family !== "strokes" && st.family !== "lines") {
    groupAttrs += ` stroke="${hex(c.ink)}" stroke-width="${f(c.S * st.lineWidth * 0.6)}" stroke-linejoin="round"`;
  }
  const tex = texture(c);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    (c.defs.length ? `<defs>${c.defs.join("")}</defs>` : "") +
    back +
    c.under.join("") +
    `<g${groupAttrs}>${shapes.join("")}</g>` +
    c.over.join("") +
    tex +
    `</svg>`
  );
}

// ------------------------------------------------------------------------------------ sizes

/** Aspect ratios (width / height) of works without dimensions: portrait, square, landscape, panoramic. */
const RATIOS: readonly (readonly [number, number])[] = [
  [0.5, 0.5],
  [2 / 3, 1],
  [0.75, 1.5],
  [0.8, 1.5],
  [1, 1.2],
  [1.25, 1],
  [4 / 3, 1.5],
  [1.5, 1],
  [2, 0.5],
  [2.5, 0.3],
];

/**
 * Pixel size of an original: the long side between 1600 and 2400 px, the aspect from the work's
 * dimensions in cm when both are given (bounded to 1:4 … 4:1), else drawn from common ratios.
 */
export function imageSize(seed: number, heightCm?: number | null, widthCm?: number | null): { width: number; height: number } {
  const r = rngFrom(seed, 0x512e);
  const long = intIn(r, 1600, 2400);
  let aspect: number;
  if (heightCm != null && widthCm != null && heightCm > 0 && widthCm > 0 && Number.isFinite(heightCm) && Number.isFinite(widthCm)) {
    aspect = clamp(widthCm / heightCm, 0.25, 4);
  } else {
    aspect = clamp(pickWeighted(r, RATIOS) * Math.exp(gauss(r) * 0.02), 0.5, 2.5);
  }
  return aspect >= 1 ? { width: long, height: Math.max(1, Math.round(long / aspect)) } : { width: Math.max(1, Math.round(long * aspect)), height: long };
}

// ------------------------------------------------------------------------------------ artist photo

/** A stylised portrait silhouette for the artist's photo thumbnail, in the artist's colours. */
export function artistPhotoSvg(artistId: number, width: number, height: number): string {
  const W = Math.max(1, Math.round(width));
  const H = Math.max(1, Math.round(height));
  const st = artistStyle(artistId);
  const r = rngFrom(artistId, 0x9407);
  const S = Math.min(W, H);
  const back = st.colors[intIn(r, 0, st.colors.length - 1)]!;
  const bgA = hex(shift(back, 0, -0.1, back.l > 0.5 ? 0.1 : 0.25));
  const bgB = hex(shift(back, 10, -0.1, back.l > 0.5 ? -0.05 : 0.1));
  const dark = hex(shift(st.ink.l < 0.5 ? st.ink : hsl(st.ink.h, 0.2, 0.12), 0, 0, 0));
  const hairBase = st.colors[intIn(r, 0, st.colors.length - 1)]!;
  const hair = hex(hsl(hairBase.h, clamp(hairBase.s, 0.1, 0.35), between(r, 0.18, 0.32)));
  const cx = W / 2;
  const hr = S * between(r, 0.15, 0.19);
  const hy = H * 0.42;
  const headRy = hr * between(r, 1.1, 1.3);
  const shoulderW = S * between(r, 0.32, 0.44);
  const neckY = hy + headRy * 0.8;
  const body =
    `M${f(cx - S * 0.07)} ${f(neckY)}L${f(cx - S * 0.07)} ${f(neckY + S * 0.06)}` +
    `C${f(cx - shoulderW)} ${f(neckY + S * 0.08)} ${f(cx - shoulderW)} ${f(neckY + S * 0.14)} ${f(cx - shoulderW)} ${f(H + 2)}` +
    `L${f(cx + shoulderW)} ${f(H + 2)}C${f(cx + shoulderW)} ${f(neckY + S * 0.14)} ${f(cx + shoulderW)} ${f(neckY + S * 0.08)} ${f(cx + S * 0.07)} ${f(neckY + S * 0.06)}` +
    `L${f(cx + S * 0.07)} ${f(neckY)}Z`;
  const style = intIn(r, 0, 3);
  let hairEl = "";
  if (style === 1) {
    hairEl = `<path d="M${f(cx - hr * 1.05)} ${f(hy)}A${f(hr * 1.05)} ${f(headRy * 1.08)} 0 0 1 ${f(cx + hr * 1.05)} ${f(hy)}Z" fill="${hair}"/>`;
  } else if (style === 2) {
    hairEl = `<path d="M${f(cx - hr * 1.2)} ${f(hy + headRy * 1.6)}L${f(cx - hr * 1.2)} ${f(hy)}A${f(hr * 1.2)} ${f(headRy * 1.15)} 0 0 1 ${f(cx + hr * 1.2)} ${f(hy)}L${f(cx + hr * 1.2)} ${f(hy + headRy * 1.6)}Z" fill="${hair}"/>`;
  } else if (style === 3) {
    hairEl = `<circle cx="${f(cx)}" cy="${f(hy - headRy * 1.05)}" r="${f(hr * 0.45)}" fill="${hair}"/>`;
  }
  const head = `<ellipse cx="${f(cx)}" cy="${f(hy)}" rx="${f(hr)}" ry="${f(headRy)}" fill="${dark}"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `<defs><linearGradient id="pb" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bgA}"/><stop offset="1" stop-color="${bgB}"/></linearGradient></defs>` +
    `<rect width="${W}" height="${H}" fill="url(#pb)"/>` +
    (style === 2 ? hairEl : "") +
    `<path d="${body}" fill="${dark}"/>` +
    head +
    (style === 2 ? "" : hairEl) +
    `</svg>`
  );
}
