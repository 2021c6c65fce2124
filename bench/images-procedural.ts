#!/usr/bin/env bun
/**
 * bench/images-procedural: what a procedural original costs as a rendition.
 *
 *   bun bench/images-procedural.ts [--works 200] [--widths 240,768,1920] [--concurrency <nproc>] [--out .bench/images-procedural.json]
 *
 * 200 works (artists 1..50, 4 seeds each, the aspect ratios imageSize draws: portrait to panoramic)
 * are drawn as SVG (src/images/procedural.ts) and rasterised by sharp to PNG at each width, the way
 * a rendition is made: the original-size SVG at a lower density, so librsvg draws straight at the
 * target size (never enlarged: a work narrower than the width is rendered at its own width).
 *
 * Two passes per width: one image at a time (latency: median and p95 ms per image), then
 * `--concurrency` images in flight (throughput: images/second). Also the SVG build time and the
 * median SVG size. Medians per shape family at the largest width show what costs (blur filters).
 */
import sharp from "sharp";
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { dirname } from "node:path";
import { artistStyle, imageSize, renderSvg } from "../src/images/procedural";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const nWorks = Number(arg("works", "200"));
const widths = arg("widths", "240,768,1920").split(",").map(Number);
const concurrency = Number(arg("concurrency", String(availableParallelism())));
const out = arg("out", ".bench/images-procedural.json");

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
function p95(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}
const fmt = (x: number, d = 1) => x.toFixed(d);

type Work = { artistId: number; seed: number; width: number; height: number; family: string; edge: string };
const works: Work[] = [];
for (let i = 0; works.length < nWorks; i++) {
  const artistId = 1 + (i % 50);
  const seed = 100_000 + i * 7919;
  const { width, height } = imageSize(seed);
  const st = artistStyle(artistId);
  works.push({ artistId, seed, width, height, family: st.family, edge: st.edge });
}

// SVG build time and size.
const svgMs: number[] = [];
const svgBytes: number[] = [];
const svgs: string[] = [];
for (const w of works) {
  const t0 = performance.now();
  const svg = renderSvg(w);
  svgMs.push(performance.now() - t0);
  svgBytes.push(svg.length);
  svgs.push(svg);
}

async function rendition(i: number, target: number): Promise<number> {
  const w = works[i]!;
  const tw = Math.min(target, w.width);
  const th = Math.max(1, Math.round((tw * w.height) / w.width));
  const png = await sharp(Buffer.from(svgs[i]!), { density: (72 * tw) / w.width })
    .resize(tw, th)
    .png()
    .toBuffer();
  return png.length;
}

// Warm-up: load libvips/librsvg, fill caches.
for (let i = 0; i < 5; i++) await rendition(i, 240);

type Row = { width: number; capped: number; medianMs: number; p95Ms: number; serialPerSec: number; parallelPerSec: number; medianPngKB: number };
const rows: Row[] = [];
const famMs = new Map<string, number[]>();
const edgeMs = new Map<string, number[]>();
for (const target of widths) {
  const times: number[] = [];
  const sizes: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < works.length; i++) {
    const t = performance.now();
    sizes.push(await rendition(i, target));
    const ms = performance.now() - t;
    times.push(ms);
    if (target === Math.max(...widths)) {
      const w = works[i]!;
      famMs.set(w.family, [...(famMs.get(w.family) ?? []), ms]);
      edgeMs.set(w.edge, [...(edgeMs.get(w.edge) ?? []), ms]);
    }
  }
  const serial = performance.now() - t0;
  let next = 0;
  const t1 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < works.length) await rendition(next++, target);
    }),
  );
  const parallel = performance.now() - t1;
  rows.push({
    width: target,
    capped: works.filter((w) => w.width < target).length,
    medianMs: median(times),
    p95Ms: p95(times),
    serialPerSec: (works.length * 1000) / serial,
    parallelPerSec: (works.length * 1000) / parallel,
    medianPngKB: median(sizes) / 1024,
  });
}

const cpu = cpus()[0]?.model ?? "unknown";
console.log(`bench/images-procedural: ${works.length} works, sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}, librsvg ${sharp.versions.rsvg}`);
console.log(`machine: ${availableParallelism()} CPUs (${cpu}); throughput pass with ${concurrency} in flight\n`);
console.log(`SVG: median ${median(svgBytes)} bytes (p95 ${p95(svgBytes)}, max ${Math.max(...svgBytes)}); built in median ${fmt(median(svgMs), 3)} ms`);
console.log("\nwidth  capped  median ms  p95 ms  img/s (1 at a time)  img/s (" + concurrency + " in flight)  median PNG KB");
for (const r of rows) {
  console.log(
    `${String(r.width).padStart(5)}  ${String(r.capped).padStart(6)}  ${fmt(r.medianMs).padStart(9)}  ${fmt(r.p95Ms).padStart(6)}  ${fmt(r.serialPerSec).padStart(19)}  ${fmt(r.parallelPerSec).padStart(15 + String(concurrency).length)}  ${fmt(r.medianPngKB).padStart(13)}`,
  );
}
const top = Math.max(...widths);
console.log(`\nmedian ms at ${top} px by edge: ` + [...edgeMs].map(([k, v]) => `${k} ${fmt(median(v))} (${v.length})`).join(", "));
console.log(
  `median ms at ${top} px by family: ` +
    [...famMs]
      .sort((a, b) => median(b[1]) - median(a[1]))
      .map(([k, v]) => `${k} ${fmt(median(v))}`)
      .join(", "),
);

mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      works: works.length,
      cpus: availableParallelism(),
      cpu,
      concurrency,
      svg: { medianBytes: median(svgBytes), p95Bytes: p95(svgBytes), medianBuildMs: median(svgMs) },
      rows,
      byEdge: Object.fromEntries([...edgeMs].map(([k, v]) => [k, median(v)])),
      byFamily: Object.fromEntries([...famMs].map(([k, v]) => [k, median(v)])),
    },
    null,
    2,
  ),
);
console.log(`\nresults in ${out}`);
