/**
 * Procedural originals (src/images/procedural.ts): deterministic, distinct, exactly sized, clean
 * SVG, and, rasterised by sharp, recognisably in the artist's style and distinct enough to find a
 * work again after the search transform. The style and identity checks use a cheap colour feature
 * (below); the real image embedding comes later and has its own tests.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { artistPhotoSvg, artistStyle, imageSize, renderSvg, SHAPE_FAMILIES, type Subject, subjectOf, workStyle } from "../../src/images/procedural";
import { mulberry32 } from "../../src/market/random";
import { searchTransform } from "../images/search-transform";

/** A small deterministic generator for the test's own choices (mulberry32). */
function work(artistId: number, seed: number, heightCm?: number, widthCm?: number) {
  const { width, height } = imageSize(seed, heightCm, widthCm);
  return { artistId, seed, width, height, svg: renderSvg({ artistId, seed, width, height }) };
}

/** Rasterises an SVG at `target` px wide the way a rendition would: a lower density, no full-size pass. */
async function rasterAt(svg: string, width: number, target: number): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: (72 * target) / width })
    .resize(target)
    .removeAlpha()
    .png()
    .toBuffer();
}

// ------------------------------------------------------------------ the cheap colour feature

const norm = (v: Float64Array): Float64Array => {
  let s = 0;
  for (const x of v) s += x * x;
  s = Math.sqrt(s) || 1;
  return v.map((x) => x / s);
};

/**
 * At 64 px wide: a 4×4×4 RGB histogram (soft-binned, so a small colour shift moves weight between
 * neighbouring bins instead of jumping), the mean colour of each 3×3 grid cell, and the mean colour
 * of each 6×6 grid cell minus the image's mean colour (the layout, insensitive to a brightness
 * change). Each block is L2-normalised, then the whole vector.
 */
async function feature(image: Buffer): Promise<Float64Array> {
  const { data, info } = await sharp(image).resize(64).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  const hist = new Float64Array(64);
  const g3 = new Float64Array(27),
    n3 = new Float64Array(9);
  const g6 = new Float64Array(108),
    n6 = new Float64Array(36);
  const mean = [0, 0, 0];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      const px = [data[i]!, data[i + 1]!, data[i + 2]!];
      const c = px.map((v) => Math.min(2.999, Math.max(0, v / 64 - 0.5)));
      const b = c.map(Math.floor);
      for (let m = 0; m < 8; m++) {
        let wt = 1,
          idx = 0;
        for (let k = 0; k < 3; k++) {
          const hi = (m >> k) & 1;
          const fr = c[k]! - b[k]!;
          wt *= hi ? fr : 1 - fr;
          idx = idx * 4 + b[k]! + hi;
        }
        hist[idx]! += wt;
      }
      const c3 = Math.min(2, Math.floor((3 * y) / h)) * 3 + Math.min(2, Math.floor((3 * x) / w));
      const c6 = Math.min(5, Math.floor((6 * y) / h)) * 6 + Math.min(5, Math.floor((6 * x) / w));
      for (let k = 0; k < 3; k++) {
        g3[c3 * 3 + k]! += px[k]!;
        g6[c6 * 3 + k]! += px[k]!;
        mean[k]! += px[k]!;
      }
      n3[c3]! += 1;
      n6[c6]! += 1;
    }
  }
  for (let c = 0; c < 9; c++) for (let k = 0; k < 3; k++) g3[c * 3 + k]! /= n3[c]! * 255;
  for (let c = 0; c < 36; c++) for (let k = 0; k < 3; k++) g6[c * 3 + k]! = g6[c * 3 + k]! / n6[c]! - mean[k]! / (w * h);
  const out = new Float64Array(64 + 27 + 108);
  out.set(norm(hist), 0);
  out.set(norm(g3), 64);
  out.set(norm(g6), 91);
  return norm(out);
}

const cosine = (a: Float64Array, b: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

// ------------------------------------------------------------------ tests

describe("procedural originals: parameters to SVG", () => {
  test("deterministic: the same parameters give the same SVG, style and size", () => {
    for (const [a, s] of [
      [1, 1],
      [7, 123456],
      [42, 2 ** 40 + 17],
      [999, -5],
    ] as const) {
      const size = imageSize(s, 60, 80);
      expect(imageSize(s, 60, 80)).toEqual(size);
      const p = { artistId: a, seed: s, width: size.width, height: size.height };
      expect(renderSvg({ ...p })).toBe(renderSvg({ ...p }));
      expect(JSON.stringify(artistStyle(a))).toBe(JSON.stringify(artistStyle(a)));
      expect(artistPhotoSvg(a, 200, 200)).toBe(artistPhotoSvg(a, 200, 200));
    }
  });

  test("distinct: 200 random pairs of works by one artist all differ", () => {
    const r = mulberry32(2024);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const artist = 1 + Math.floor(r() * 400);
      const s1 = Math.floor(r() * 2 ** 31),
        s2 = s1 + 1 + Math.floor(r() * 1000);
      const { width, height } = imageSize(s1);
      const a = renderSvg({ artistId: artist, seed: s1, width, height });
      const b = renderSvg({ artistId: artist, seed: s2, width, height });
      expect(a).not.toBe(b);
      seen.add(a);
    }
    expect(seen.size).toBe(200);
  });

  test("subjects from the title: landscape, figures, portrait, still life, else the artist's abstract", () => {
    const cases: [string | null, Subject][] = [
      ["Figures on a Beach", "figures"],
      ["Landscape near the River", "landscape"],
      ["Harbour at Dusk", "landscape"],
      ["Dunes No. 12", "landscape"],
      ["Portrait of a Woman", "portrait"],
      ["Self-Portrait (II)", "portrait"],
      ["Bust of a Young Man", "portrait"],
      ["Still Life with Lemons", "still-life"],
      ["Interior with Chair", "still-life"],
      ["Flowers in a Vase", "still-life"],
      ["Composition in Blue", "abstract"],
      ["Untitled (1979)", "abstract"],
      ["Red Field", "abstract"],
      [null, "abstract"],
    ];
    expect(cases.map(([title]) => subjectOf(title))).toEqual(cases.map(([, subject]) => subject));
    // one work drawn under each subject: different pictures, each deterministic; a landscape has its sky
    for (let artist = 1; artist <= 40; artist++) {
      const { width, height } = imageSize(artist * 31);
      const drawn = ["Composition", "Landscape", "Two Figures", "Portrait", "Still Life"].map((title) => renderSvg({ artistId: artist, seed: artist * 31, width, height, title }));
      // a landscape painter's landscape is its own picture, and a painter of figures' figures
      const own = artistStyle(artist).family === "horizon" || artistStyle(artist).family === "figures";
      expect(new Set(drawn).size).toBe(own ? 4 : 5);
      expect(drawn[1]!).toContain('id="sky"');
      expect(renderSvg({ artistId: artist, seed: artist * 31, width, height, title: "Landscape" })).toBe(drawn[1]!);
    }
  });

  test("a work's palette is its artist's, turned a little: within 40 degrees of hue, never the same for two works", () => {
    for (let artist = 1; artist <= 50; artist++) {
      const st = artistStyle(artist);
      const a = workStyle(st, 11 * artist);
      const b = workStyle(st, 11 * artist + 1);
      expect(a.colors.map((c) => c.h)).not.toEqual(b.colors.map((c) => c.h));
      for (const w of [a, b]) {
        w.colors.forEach((c, i) => {
          const d = Math.abs(((c.h - st.colors[i]!.h + 540) % 360) - 180);
          expect(d).toBeLessThanOrEqual(40);
        });
        expect(w.family).toBe(st.family);
      }
    }
  });

  test("clean, small SVG: exact size attributes, no external references, few elements", () => {
    const sizes: number[] = [];
    for (let artist = 1; artist <= 60; artist++) {
      for (let k = 0; k < 4; k++) {
        const w = work(artist, artist * 1000 + k);
        expect(w.svg.startsWith(`<svg xmlns="http://www.w3.org/2000/svg" width="${w.width}" height="${w.height}" viewBox="0 0 ${w.width} ${w.height}">`)).toBe(true);
        expect(w.svg.endsWith("</svg>")).toBe(true);
        const rest = w.svg.slice(w.svg.indexOf(">") + 1);
        expect(rest).not.toMatch(/href|https?:|<image|<text|<style|<script|@import|font/i);
        for (const m of rest.matchAll(/url\(([^)]*)\)/g)) expect(m[1]!.startsWith("#")).toBe(true);
        const elements = (w.svg.match(/<[a-zA-Z]/g) ?? []).length;
        expect(elements).toBeLessThan(150);
        sizes.push(w.svg.length);
      }
    }
    sizes.sort((a, b) => a - b);
    expect(sizes[sizes.length >> 1]!).toBeLessThan(6000);
    expect(sizes[sizes.length - 1]!).toBeLessThan(16000);
  });

  test("imageSize: long side 1600–2400, aspect from the cm dimensions, else a spread of ratios", () => {
    const ratios: number[] = [];
    for (let s = 0; s < 2000; s++) {
      const { width, height } = imageSize(s);
      const long = Math.max(width, height);
      expect(long).toBeGreaterThanOrEqual(1600);
      expect(long).toBeLessThanOrEqual(2400);
      ratios.push(width / height);
    }
    const share = (p: (x: number) => boolean) => ratios.filter(p).length / ratios.length;
    expect(share((x) => x < 0.9)).toBeGreaterThan(0.2); // portrait
    expect(share((x) => x >= 0.95 && x <= 1.05)).toBeGreaterThan(0.05); // square
    expect(share((x) => x > 1.1 && x < 1.8)).toBeGreaterThan(0.2); // landscape
    expect(share((x) => x >= 1.8)).toBeGreaterThan(0.03); // panoramic
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.48);
    expect(Math.max(...ratios)).toBeLessThanOrEqual(2.6);
    // From centimetres: height × width.
    const p = imageSize(5, 100, 50);
    expect(p.height).toBeGreaterThan(p.width);
    expect(p.width / p.height).toBeCloseTo(0.5, 2);
    const l = imageSize(5, 40, 100);
    expect(l.width / l.height).toBeCloseTo(2.5, 2);
    const extreme = imageSize(5, 10, 300); // a scroll: bounded to 4:1
    expect(extreme.width / extreme.height).toBeCloseTo(4, 1);
    expect(imageSize(5, null, 80)).toEqual(imageSize(5));
    expect(imageSize(5, 0, 80)).toEqual(imageSize(5));
  });

  test("styles: every family in use, palettes of 5–6 colours, neighbouring artists differ", () => {
    const families = new Set<string>();
    for (let a = 1; a <= 300; a++) {
      const st = artistStyle(a);
      families.add(st.family);
      expect(st.palette.length).toBeGreaterThanOrEqual(5);
      expect(st.palette.length).toBeLessThanOrEqual(6);
      for (const c of st.palette) expect(c).toMatch(/^#[0-9a-f]{6}$/);
    }
    expect([...families].sort()).toEqual([...SHAPE_FAMILIES].sort());
    expect(SHAPE_FAMILIES.length).toBeGreaterThanOrEqual(8);
    const palettes = new Set(Array.from({ length: 12 }, (_, i) => artistStyle(i + 1).palette.join()));
    expect(palettes.size).toBe(12);
  });
});

describe("procedural originals rasterised by sharp", () => {
  test("exact pixel size for tall, portrait, square, landscape and panoramic works", async () => {
    const cases: [number, number, number][] = [
      // [artist, height cm, width cm]
      [3, 200, 50], // 1:4, tall
      [6, 100, 50], // 1:2
      [11, 80, 60],
      [4, 70, 70],
      [1, 60, 90],
      [9, 40, 100], // 2.5:1 panoramic
      [12, 30, 120], // 4:1
      [2, 45, 60],
    ];
    for (const [artist, hCm, wCm] of cases) {
      const w = work(artist, artist * 31 + 7, hCm, wCm);
      const png = await sharp(Buffer.from(w.svg)).png().toBuffer();
      const meta = await sharp(png).metadata();
      expect({ artist, width: meta.width, height: meta.height }).toEqual({ artist, width: w.width, height: w.height });
    }
    const photo = await sharp(Buffer.from(artistPhotoSvg(5, 320, 400)))
      .png()
      .toBuffer();
    const pm = await sharp(photo).metadata();
    expect([pm.width, pm.height]).toEqual([320, 400]);
  });

  test("scale-free: a work drawn at a fifth of its size is the same picture", async () => {
    // Every coordinate is proportional to the canvas, so a rendition may draw the SVG at any scale.
    const diffs: Record<number, number> = {};
    for (const artist of [1, 2, 3, 6, 9, 12, 14, 19]) {
      const seed = artist * 101;
      const a = renderSvg({ artistId: artist, seed, width: 2000, height: 1500 });
      const b = renderSvg({ artistId: artist, seed, width: 400, height: 300 });
      const ra = await sharp(await rasterAt(a, 2000, 160))
        .resize(160, 120, { fit: "fill" })
        .raw()
        .toBuffer();
      const rb = await sharp(await rasterAt(b, 400, 160))
        .resize(160, 120, { fit: "fill" })
        .raw()
        .toBuffer();
      let diff = 0;
      for (let i = 0; i < ra.length; i++) diff += Math.abs(ra[i]! - rb[i]!);
      diffs[artist] = Math.round((diff / ra.length) * 10) / 10;
    }
    expect(Object.entries(diffs).filter(([, d]) => d >= 2)).toEqual([]);
  });

  test("artist photo: exact size, different per artist", async () => {
    for (const [w, h] of [
      [320, 400],
      [96, 96],
      [400, 300],
    ] as const) {
      const meta = await sharp(
        await sharp(Buffer.from(artistPhotoSvg(5, w, h)))
          .png()
          .toBuffer(),
      ).metadata();
      expect([meta.width, meta.height]).toEqual([w, h]);
    }
    const photos = new Set(Array.from({ length: 20 }, (_, i) => artistPhotoSvg(i + 1, 160, 200)));
    expect(photos.size).toBe(20);
  });

  describe("recognisable style and identity (12 artists × 8 works)", () => {
    type Item = { artistId: number; seed: number; width: number; svg: string; f: Float64Array };
    const items: Item[] = [];
    beforeAll(async () => {
      for (let artist = 1; artist <= 12; artist++) {
        for (let k = 0; k < 8; k++) {
          const w = work(artist, artist * 7919 + k * 104729);
          items.push({ ...w, f: await feature(await rasterAt(w.svg, w.width, 64)) });
        }
      }
    });

    test("the nearest other work is mostly by the same artist; same-artist works are more alike", () => {
      let same = 0,
        sSum = 0,
        sN = 0,
        cSum = 0,
        cN = 0;
      for (let i = 0; i < items.length; i++) {
        let best = -Infinity,
          bj = -1;
        for (let j = 0; j < items.length; j++) {
          if (i === j) continue;
          const s = cosine(items[i]!.f, items[j]!.f);
          if (s > best) (best = s), (bj = j);
          if (j > i) {
            if (items[i]!.artistId === items[j]!.artistId) (sSum += s), sN++;
            else (cSum += s), cN++;
          }
        }
        if (items[bj]!.artistId === items[i]!.artistId) same++;
      }
      const share = same / items.length;
      console.log(
        `procedural style: nearest neighbour by the same artist ${(share * 100).toFixed(1)} % of ${items.length}; ` +
          `mean cosine same artist ${(sSum / sN).toFixed(3)}, other artists ${(cSum / cN).toFixed(3)}`,
      );
      expect(share).toBeGreaterThanOrEqual(0.7);
      expect(sSum / sN).toBeGreaterThan(cSum / cN);
    });

    test("after the search transform a work's nearest original is itself", async () => {
      let hits = 0;
      const n = 30;
      for (let t = 0; t < n; t++) {
        const it = items[(t * 13) % items.length]!;
        // The transform starts from a 768-px rendition: a 64-px feature does not see the difference from 2400 px.
        const transformed = await searchTransform(sharp, await rasterAt(it.svg, it.width, 768));
        const f = await feature(transformed);
        let best = -Infinity,
          bi: Item | null = null;
        for (const other of items) {
          const s = cosine(f, other.f);
          if (s > best) (best = s), (bi = other);
        }
        if (bi === it) hits++;
      }
      console.log(`procedural identity: transformed work finds its original ${hits}/${n} (${((hits / n) * 100).toFixed(1)} %)`);
      expect(hits / n).toBeGreaterThanOrEqual(0.9);
    });
  });
});
