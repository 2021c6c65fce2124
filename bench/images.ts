#!/usr/bin/env bun
/**
 * bench/images: what a rendition costs through the image route, first request and cached.
 *
 *   bun bench/images.ts [--data DIR] [--images 24] [--rounds 5] [--variants full,blur] [--out .bench/images.json]
 *
 * Without --data, the tiny market is seeded into a temporary directory (the same generator as the
 * tests). The app is driven in-process (app.handle, no socket): a signed URL is requested and its
 * body read, so a figure includes the signature check, the image lookup, the render or the cache
 * file read, and the response.
 *
 * For each of the five widths and each variant (full: what keyed callers get; blur: the preview of
 * keyless callers), `--images` artwork images (portrait to panoramic, originals 1600–2400 px on the
 * long side, so some are rendered below 1920 at w1920):
 * - first request (uncached): the rendition cache is emptied, then every image is requested once,
 *   one at a time (median ms per image, images/s) and, after emptying the cache again, two at a time;
 * - cached: every image `--rounds` times, one at a time and two at a time.
 * With --data, that directory's rendition cache (images/cache) is emptied: it is only a cache.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { closeDeps, createApp, openDeps } from "../src/serve/app";
import { renditionStats } from "../src/serve/images/renditions";
import { WIDTHS, type Variant } from "../src/serve/images/urls";
import { loadSharp } from "../src/platform/native";
import { seedMarket } from "../src/pipeline/seed";
import { fmt, median, table } from "./lib/stats";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const nImages = Number(arg("images", "24"));
const rounds = Number(arg("rounds", "5"));
const variants = arg("variants", "full,blur").split(",") as Variant[];
const out = arg("out", ".bench/images.json");
const given = process.argv.includes("--data") ? arg("data", "") : null;

const dataDir = given ?? mkdtempSync(join(tmpdir(), "artmarket-bench-images-"));
if (!given) await seedMarket({ dataDir, scale: "tiny", seed: 7, quiet: true, embed: false });
const deps = openDeps({ dataDir, port: 0, host: "127.0.0.1", publicUrl: "http://bench.local" });
const app = createApp(deps);
const cache = join(dataDir, "images", "cache");

const ids = deps.market
  .query<{ id: number }, [number]>("SELECT id FROM images WHERE artwork_id IS NOT NULL ORDER BY id LIMIT ?")
  .all(nImages)
  .map((r) => r.id);

async function fetchOne(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await app.handle(new Request(url));
  const body = await res.arrayBuffer();
  if (res.status !== 200 || body.byteLength === 0) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t0;
}

/** Requests every URL with `concurrency` in flight; per-request ms and wall seconds. */
async function pass(urls: readonly string[], concurrency: number): Promise<{ ms: number[]; wall: number }> {
  const ms: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < urls.length) ms.push(await fetchOne(urls[next++]!));
    }),
  );
  return { ms, wall: (performance.now() - t0) / 1000 };
}

// Warm-up: load libvips and librsvg, compile the route; then start from an empty cache.
for (const id of ids.slice(0, 3)) await fetchOne(deps.signer.url(id, 240, "full", "http://bench.local"));
rmSync(cache, { recursive: true, force: true });

type Row = { width: number; variant: Variant; mode: "first" | "cached"; concurrency: number; medianMs: number; perSec: number; n: number };
const rows: Row[] = [];
const rendersBefore = renditionStats.renders;
for (const width of WIDTHS) {
  for (const variant of variants) {
    const urls = ids.map((id) => deps.signer.url(id, width, variant, "http://bench.local"));
    for (const c of [1, 2]) {
      rmSync(cache, { recursive: true, force: true });
      const r = await pass(urls, c);
      rows.push({ width, variant, mode: "first", concurrency: c, medianMs: median(r.ms), perSec: urls.length / r.wall, n: urls.length });
    }
    const many = Array.from({ length: rounds }, () => urls).flat();
    for (const c of [1, 2]) {
      const r = await pass(many, c);
      rows.push({ width, variant, mode: "cached", concurrency: c, medianMs: median(r.ms), perSec: many.length / r.wall, n: many.length });
    }
  }
}
const renders = renditionStats.renders - rendersBefore;

const sharp = loadSharp(dataDir) as unknown as { versions: Record<string, string>; concurrency(): number };
const machine = {
  cpus: availableParallelism(),
  model: cpus()[0]?.model ?? "?",
  loadavg: loadavg().map((x) => Number(x.toFixed(2))),
  bun: Bun.version,
  sharp: sharp.versions.sharp,
  vips: sharp.versions.vips,
  vipsThreads: sharp.concurrency(),
};
console.log(`images: ${ids.length} artwork images, ${rounds} cached rounds; ${renders} renders`);
console.log(
  `machine: ${machine.cpus} CPUs (${machine.model}), load ${machine.loadavg.join(" ")}; bun ${machine.bun}, sharp ${machine.sharp}, libvips ${machine.vips} (${machine.vipsThreads} thread per image)`,
);
const header = ["width", "variant", "first 1: ms", "img/s", "first 2: ms", "img/s", "cached 1: ms", "img/s", "cached 2: ms", "img/s"];
const lines: string[][] = [];
for (const width of WIDTHS) {
  for (const variant of variants) {
    const pick = (mode: Row["mode"], c: number) => rows.find((r) => r.width === width && r.variant === variant && r.mode === mode && r.concurrency === c)!;
    const cells = [pick("first", 1), pick("first", 2), pick("cached", 1), pick("cached", 2)].flatMap((r) => [
      fmt(r.medianMs, r.medianMs < 1 ? 3 : 1),
      fmt(r.perSec, r.perSec < 100 ? 1 : 0),
    ]);
    lines.push([String(width), variant, ...cells]);
  }
}
console.log(table(header, lines));

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ machine, images: ids.length, rounds, renders, rows }, null, 2));
console.log(`written ${out}`);

closeDeps(deps);
if (!given) rmSync(dataDir, { recursive: true, force: true });
