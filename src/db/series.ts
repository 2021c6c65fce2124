/**
 * Stored monthly series (artist_charts.points and .stderr): each value quantised on a fixed grid
 * and written as the varint of its step from the month before.
 *
 * - `packLogSeries`: positive values (the artist's index in USD) as round(ln(value) / 10⁻⁵); read
 *   back, a value is within 0.0005 % of what was stored (half a step of the log), far inside the
 *   served two decimals' meaning for a statistical index, and 5 cents on 10,000 USD.
 * - `packLinearSeries`: values at or above zero (the log index's standard error) as
 *   round(value / 10⁻⁵), within 0.000005 of what was stored.
 *
 * A missing month (NaN, infinite, or not in the series' domain) is kept as missing. One month's
 * step costs one to three bytes before compression (a monthly move of the log index of up to
 * ±8 % fits two), where a Float32 cost four: a third of the size in all, at full scale (350k
 * artists, 491 months each): docs/history/benchmarks.md#full-scale-under-15-gb-2-cores-seed-1986-2026-11-26.
 *
 * Layout, compressed with zstd (level 3: the standard errors' steps repeat, and zstd takes a
 * quarter more off): a marker byte (0xA7), the kind (1 log, 2 linear), the number of months as a
 * varint, then one varint a month: 0 for a missing month, else zigzag(q − q_before) + 1, where
 * q_before is the last month that had a value (0 at the start). A blob that is not such a frame is
 * a market built before this format: Float32 little-endian, read as it is (`unpackSeries`).
 */

const MARKER = 0xa7;
const LOG = 1;
const LINEAR = 2;
/** The grid, in natural-log units (LOG) or in the value's own units (LINEAR). */
export const SERIES_STEP = 1e-5;
const ZSTD_LEVEL = 1;

function pack(values: ArrayLike<number>, kind: number, quantise: (v: number) => number | null): Uint8Array {
  // at most 8 bytes a month (a step of up to 2^53 in varint): the buffer never grows
  const out = new Uint8Array(12 + 8 * values.length);
  out[0] = MARKER;
  out[1] = kind;
  let at = writeVarint(out, 2, values.length);
  let before = 0;
  for (let i = 0; i < values.length; i++) {
    const q = quantise(values[i]!);
    if (q === null) {
      out[at++] = 0;
      continue;
    }
    const d = q - before;
    at = writeVarint(out, at, (d >= 0 ? 2 * d : -2 * d - 1) + 1);
    before = q;
  }
  return Bun.zstdCompressSync(out.subarray(0, at), { level: ZSTD_LEVEL });
}

/** Positive values on a grid of 10⁻⁵ in their natural log; zero, negative or non-finite: missing. */
export function packLogSeries(values: ArrayLike<number>): Uint8Array {
  return pack(values, LOG, (v) => (Number.isFinite(v) && v > 0 ? Math.round(Math.log(v) / SERIES_STEP) : null));
}

/** Values at or above zero on a grid of 10⁻⁵; negative or non-finite: missing. */
export function packLinearSeries(values: ArrayLike<number>): Uint8Array {
  return pack(values, LINEAR, (v) => (Number.isFinite(v) && v >= 0 ? Math.round(v / SERIES_STEP) : null));
}

/** The series of a stored blob (either format); a missing month is NaN. */
export function unpackSeries(blob: Uint8Array): Float64Array {
  const series = isZstd(blob) ? readPacked(inflate(blob)) : null;
  if (series) return series;
  // Float32 little-endian, the format before this one (one whose first bytes happen to read as a
  // marker fails the packed reading, which must consume the blob exactly)
  if (blob.length % 4 !== 0) throw new Error("unreadable series blob");
  const copy = new Uint8Array(blob);
  return Float64Array.from(new Float32Array(copy.buffer, 0, copy.length / 4));
}

const isZstd = (b: Uint8Array) => b.length >= 4 && b[0] === 0x28 && b[1] === 0xb5 && b[2] === 0x2f && b[3] === 0xfd;

function inflate(blob: Uint8Array): Uint8Array {
  try {
    return Bun.zstdDecompressSync(blob);
  } catch {
    return new Uint8Array(0);
  }
}

function readPacked(blob: Uint8Array): Float64Array | null {
  if (blob.length < 3 || blob[0] !== MARKER || (blob[1] !== LOG && blob[1] !== LINEAR)) return null;
  const log = blob[1] === LOG;
  const pos = { at: 2 };
  const n = readVarint(blob, pos);
  if (n === null || n > blob.length) return null;
  const out = new Float64Array(n);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const code = readVarint(blob, pos);
    if (code === null) return null;
    if (code === 0) {
      out[i] = Number.NaN;
      continue;
    }
    const z = code - 1;
    q += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    out[i] = log ? Math.exp(q * SERIES_STEP) : q * SERIES_STEP;
  }
  return pos.at === blob.length ? out : null;
}

function writeVarint(out: Uint8Array, at: number, v: number): number {
  while (v >= 0x80) {
    out[at++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[at++] = v;
  return at;
}

function readVarint(blob: Uint8Array, pos: { at: number }): number | null {
  let v = 0;
  let scale = 1;
  for (let k = 0; k < 7; k++) {
    if (pos.at >= blob.length) return null;
    const b = blob[pos.at++]!;
    v += (b & 0x7f) * scale;
    if (b < 0x80) return v;
    scale *= 0x80;
  }
  return null;
}
