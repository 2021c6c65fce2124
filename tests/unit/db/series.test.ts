import { describe, expect, test } from "bun:test";
import { packLinearSeries, packLogSeries, SERIES_STEP, unpackSeries } from "../../../src/db/series";
import { Random } from "../../../src/market/random";

/** A random walk of a log index, 600 months, with a crash and a boom. */
function walk(seed: number): Float64Array {
  const r = new Random(seed);
  const out = new Float64Array(600);
  let x = Math.log(5000);
  for (let i = 0; i < out.length; i++) {
    x += 0.06 * r.normal() + (i === 200 ? -1.2 : i === 400 ? 0.9 : 0);
    out[i] = Math.exp(x);
  }
  return out;
}

const float32Blob = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);

describe("stored monthly series", () => {
  test("a log series reads back within half a step of its log, missing months kept", () => {
    for (let seed = 1; seed <= 10; seed++) {
      const values = walk(seed);
      values[0] = Number.NaN;
      values[17] = Number.POSITIVE_INFINITY;
      values[18] = 0;
      values[19] = -3;
      const back = unpackSeries(packLogSeries(values));
      expect(back.length).toBe(values.length);
      for (let i = 0; i < values.length; i++) {
        if ([0, 17, 18, 19].includes(i)) expect(Number.isNaN(back[i]!)).toBe(true);
        else expect(Math.abs(Math.log(back[i]! / values[i]!))).toBeLessThanOrEqual(SERIES_STEP / 2 + 1e-12);
      }
    }
  });

  test("a linear series reads back within half a step", () => {
    const values = Array.from({ length: 491 }, (_, i) => 0.4 * Math.exp(-i / 100) + 0.05 + (i % 7) * 1e-6);
    values[3] = Number.NaN;
    values[4] = -0.1;
    const back = unpackSeries(packLinearSeries(values));
    expect(back.length).toBe(491);
    for (let i = 0; i < values.length; i++) {
      if (i === 3 || i === 4) expect(Number.isNaN(back[i]!)).toBe(true);
      else expect(Math.abs(back[i]! - values[i]!)).toBeLessThanOrEqual(SERIES_STEP / 2 + 1e-12);
    }
  });

  test("a month's step after a crash of 70 % and large values (1e9 USD) keep their precision", () => {
    const values = [1e9, 3e8, 3e8, 1e-3, 1e9];
    const back = unpackSeries(packLogSeries(values));
    values.forEach((v, i) => expect(Math.abs(back[i]! / v - 1)).toBeLessThan(6e-6));
  });

  test("about a third of the Float32 size for an index and its standard errors", () => {
    const values = walk(7);
    const errs = values.map((_, i) => 0.3 - 0.0004 * i);
    const packed = packLogSeries(values).length + packLinearSeries(errs).length;
    expect(packed).toBeLessThan((2 * 4 * values.length) / 2);
  });

  test("an empty series, and a series with no value at all", () => {
    expect(unpackSeries(packLogSeries([])).length).toBe(0);
    const none = unpackSeries(packLinearSeries([Number.NaN, Number.NaN]));
    expect(none.length).toBe(2);
    expect(none.every(Number.isNaN)).toBe(true);
  });

  test("a Float32 blob of a market built before reads as it was", () => {
    const old = [1234.5, Number.NaN, 0.25];
    const back = unpackSeries(float32Blob(old));
    expect(back[0]).toBe(1234.5);
    expect(Number.isNaN(back[1]!)).toBe(true);
    expect(back[2]).toBe(0.25);
    // its first bytes may read as the zstd frame's magic number: the packed reading fails, the
    // Float32 one stands
    const magic = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0x80, 0x3f]);
    expect(Array.from(unpackSeries(magic))).toEqual([Array.from(new Float32Array(magic.buffer))[0]!, 1]);
  });

  test("a blob of neither format is refused", () => {
    expect(() => unpackSeries(new Uint8Array([1, 2, 3]))).toThrow();
  });
});
