#!/usr/bin/env bun
/**
 * bench/vector: image embeddings and the IVF vector index (docs/vectors.md).
 *
 *   bun bench/vector.ts [--parts a,b,c] [--data DIR] [--queries 1000] [--n 1000000] [--knn-queries 200]
 *                       [--nprobe 8,16,24,32] [--out .bench/vector.json]
 *
 * (a) search by image on a small market (about 25k images): `--data DIR` holds one, else a small
 *     market is seeded into a temporary directory. Every image is embedded and indexed (embedMarket:
 *     images/s), then `--queries` works, spread over the catalogue, are drawn at their full original
 *     size and transformed (half size, JPEG q60, 5 % cropped on each side, brightness +10 %), embedded
 *     and searched: recall@1 and recall@10 of the work itself (IVF at the stored nprobe, and exact).
 * (b) similar is meaningful: for every artwork, the share of its 10 nearest neighbours (IVF, itself
 *     excluded) by the same artist, over artworks whose artist has at least 11 works (10 same-artist
 *     neighbours possible); also normalised by min(10, works − 1) over all, and raw over all. Plus
 *     IVF recall@10 against exact on the real vectors, by nprobe.
 * (c) scale: `--n` synthetic vectors of the embedding's dimension (tests/images/synthetic-vectors.ts,
 *     clustered like the real ones) → IVF build time, database size, RSS, p50/p95 latency at k=10
 *     and k=50 and recall@10 against exact search (sqlite-vec full scan) for each nprobe; the same
 *     vectors in usearch (HNSW, f32, inner product, all cores to build, one query at a time) in the
 *     same run, with its build time, memory and latency.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { marketDbPath, openMarketForWrite } from "../src/db/connection";
import { embedMarket, IMAGE_INDEX } from "../src/pipeline/images/embed-market";
import { embedImage, EMBEDDING_DIMS } from "../src/images/embedding";
import { renderSvg } from "../src/images/procedural";
import { buildVectorIndex, VectorIndex } from "../src/images/vector-index";
import { loadSharp, loadSqliteVec } from "../src/platform/native";
import { seedMarket } from "../src/pipeline/seed";
import { clusteredVectors } from "../tests/images/synthetic-vectors";
import { searchTransform } from "../tests/images/search-transform";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const parts = new Set(arg("parts", "a,b,c").split(","));
const nQueries = Number(arg("queries", "1000"));
const nSynthetic = Number(arg("n", "1000000"));
const knnQueries = Number(arg("knn-queries", "200"));
const nprobes = arg("nprobe", "8,16,24,32").split(",").map(Number);
const out = arg("out", ".bench/vector.json");

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const p95 = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
};
const mib = (b: number) => Math.round((b / 1048576) * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const rss = () => process.memoryUsage().rss;
/** Resident memory split into anonymous (heap, buffers) and file-backed (mmap'd database pages), bytes. */
function rssParts(): { anon: number; file: number } {
  try {
    const status = require("node:fs").readFileSync("/proc/self/status", "utf8") as string;
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
    return { anon: kb("RssAnon"), file: kb("RssFile") };
  } catch {
    return { anon: 0, file: 0 };
  }
}
const log = (...xs: unknown[]) => console.log(...xs);

const machine = { nproc: cpus().length, cpu: cpus()[0]?.model ?? "unknown", bun: Bun.version };
const results: Record<string, unknown> = { machine, command: `bun ${process.argv.slice(1).join(" ")}`, dims: EMBEDDING_DIMS };
log(`machine: ${machine.nproc} CPUs, ${machine.cpu}, bun ${machine.bun}; embedding ${EMBEDDING_DIMS} dims`);

// ------------------------------------------------------------------ (a) and (b): the small market

if (parts.has("a") || parts.has("b")) {
  let dataDir = arg("data", "");
  let temporary = false;
  if (!dataDir) {
    dataDir = mkdtempSync(join(tmpdir(), "artmarket-vector-"));
    temporary = true;
    const t = performance.now();
    await seedMarket({ dataDir, scale: "small", seed: 1986, quiet: true, embed: false });
    log(`seeded a small market in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  try {
    const db = openMarketForWrite(marketDbPath(dataDir), dataDir);
    const before = statSync(marketDbPath(dataDir)).size;
    let lastLog = 0;
    const summary = await embedMarket(db, dataDir, (phase, done, total) => {
      if (performance.now() - lastLog > 10_000 || done === total) {
        lastLog = performance.now();
        log(`  ${phase} ${done}/${total}`);
      }
    });
    db.close();
    const growth = statSync(marketDbPath(dataDir)).size - before;
    log(
      `embedMarket: ${summary.images} images in ${summary.embedSeconds.toFixed(1)} s (${summary.imagesPerSecond.toFixed(0)} images/s), ` +
        `index ${summary.imageIndex.nlist} lists, nprobe ${summary.imageIndex.nprobe}, built in ${(summary.imageIndex.seconds.kmeans + summary.imageIndex.seconds.insert + summary.imageIndex.seconds.sample).toFixed(1)} s; ` +
        `artists ${summary.artistIndex?.count}; market.db +${mib(growth)} MiB; total ${summary.seconds.toFixed(1)} s`,
    );
    results.embedMarket = { ...summary, dbGrowthMiB: mib(growth) };

    const reader = new Database(marketDbPath(dataDir), { readonly: true });
    reader.run("PRAGMA mmap_size = 1073741824");
    loadSqliteVec(reader, dataDir);
    const index = new VectorIndex(reader, IMAGE_INDEX);
    const works = reader
      .query<{ id: number; artist_id: number; seed: number; width: number; height: number; title: string }, []>(
        "SELECT a.id, a.artist_id, i.seed, i.width, i.height, a.title FROM artworks a JOIN images i ON i.id = a.image_id ORDER BY a.id",
      )
      .all();

    if (parts.has("a")) {
      const sharp = loadSharp(dataDir);
      let r1 = 0,
        r10 = 0,
        x1 = 0,
        x10 = 0;
      const embedMs: number[] = [],
        searchMs: number[] = [];
      const t0 = performance.now();
      for (let q = 0; q < nQueries; q++) {
        const w = works[Math.floor(((q + 0.5) * works.length) / nQueries)]!;
        const svg = renderSvg({ artistId: w.artist_id, seed: w.seed, width: w.width, height: w.height, title: w.title });
        const original = await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
        const query = await searchTransform(sharp, original);
        let t = performance.now();
        const v = await embedImage(sharp, query);
        embedMs.push(performance.now() - t);
        t = performance.now();
        const hits = index.search(v, 10);
        searchMs.push(performance.now() - t);
        if (hits[0]?.id === w.id) r1++;
        if (hits.some((h) => h.id === w.id)) r10++;
        const exact = index.exact(v, 10);
        if (exact[0]?.id === w.id) x1++;
        if (exact.some((h) => h.id === w.id)) x10++;
        if ((q + 1) % 100 === 0)
          log(`  queries ${q + 1}/${nQueries}: recall@1 ${(r1 / (q + 1)).toFixed(3)}, recall@10 ${(r10 / (q + 1)).toFixed(3)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      }
      const a = {
        queries: nQueries,
        catalogue: works.length,
        recallAt1: r1 / nQueries,
        recallAt10: r10 / nQueries,
        exactRecallAt1: x1 / nQueries,
        exactRecallAt10: x10 / nQueries,
        queryEmbedMsMedian: r3(median(embedMs)),
        searchMsMedian: r3(median(searchMs)),
      };
      log(
        `(a) search by image, ${nQueries} transformed works among ${works.length}: recall@1 ${a.recallAt1.toFixed(3)}, recall@10 ${a.recallAt10.toFixed(3)} (exact search: ${a.exactRecallAt1.toFixed(3)}, ${a.exactRecallAt10.toFixed(3)}); embed ${a.queryEmbedMsMedian} ms, search ${a.searchMsMedian} ms (medians)`,
      );
      results.searchByImage = a;
    }

    if (parts.has("b")) {
      const artistOf = new Map(works.map((w) => [w.id, w.artist_id]));
      const perArtist = new Map<number, number>();
      for (const w of works) perArtist.set(w.artist_id, (perArtist.get(w.artist_id) ?? 0) + 1);
      let big = 0,
        nBig = 0,
        norm = 0,
        nNorm = 0,
        raw = 0;
      const ms: number[] = [];
      for (const w of works) {
        const v = index.vectorOf(w.id)!;
        const t = performance.now();
        const hits = index.search(v, 10, { exclude: [w.id] });
        ms.push(performance.now() - t);
        const same = hits.filter((h) => artistOf.get(h.id) === w.artist_id).length;
        const count = perArtist.get(w.artist_id)!;
        raw += same / 10;
        if (count >= 11) (big += same / 10), nBig++;
        if (count >= 2) (norm += same / Math.min(10, count - 1)), nNorm++;
      }
      // IVF against exact on the real vectors, by nprobe
      const curve: Record<number, number> = {};
      const sample = works.filter((_, i) => i % Math.max(1, Math.floor(works.length / 500)) === 0);
      const truth = sample.map((w) => new Set(index.exact(index.vectorOf(w.id)!, 10, { exclude: [w.id] }).map((h) => h.id)));
      for (const nprobe of [1, 2, 4, 8, 12, 16, 32]) {
        if (nprobe > index.nlist) continue;
        let rec = 0;
        sample.forEach((w, i) => {
          rec += index.search(index.vectorOf(w.id)!, 10, { nprobe, exclude: [w.id] }).filter((h) => truth[i]!.has(h.id)).length / 10;
        });
        curve[nprobe] = r3(rec / sample.length);
      }
      const b = {
        artworks: works.length,
        sameArtistShare10: r3(big / nBig),
        artworksWithAtLeast11: nBig,
        normalisedShare: r3(norm / nNorm),
        rawShareAll: r3(raw / works.length),
        searchMsMedian: r3(median(ms)),
        nlist: index.nlist,
        nprobe: index.nprobe,
        realRecallAt10ByNprobe: curve,
      };
      log(
        `(b) same artist among 10 NN: ${b.sameArtistShare10} (${nBig} works of artists with ≥ 11), normalised ${b.normalisedShare}, raw over all ${b.rawShareAll}; ` +
          `search ${b.searchMsMedian} ms; real vectors recall@10 by nprobe (of ${index.nlist}): ${JSON.stringify(curve)}`,
      );
      results.similar = b;
    }
    reader.close();
  } finally {
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ (c) scale: synthetic vectors

if (parts.has("c")) {
  const d = EMBEDDING_DIMS;
  const n = nSynthetic;
  const Q = knnQueries;
  let t = performance.now();
  const { vectors } = clusteredVectors(n + Q, d, 20251122);
  // held-out queries: every step-th row (new works of styles that are in the index)
  const step = Math.floor((n + Q) / Q);
  const isQuery = (i: number) => i % step === 0 && i / step < Q;
  const queries = Array.from({ length: Q }, (_, q) => vectors.subarray(q * step * d, q * step * d + d));
  log(`(c) ${n.toLocaleString("en-US")} synthetic vectors of ${d} dims generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const dir = mkdtempSync(join(tmpdir(), "artmarket-vector-scale-"));
  try {
    const path = join(dir, "vectors.db");
    const spec = { name: "bench_vectors", dims: d, metadata: ["artist_id", "category_id"] };
    let db = new Database(path, { create: true });
    db.run("PRAGMA journal_mode = OFF");
    db.run("PRAGMA synchronous = OFF");
    db.run("PRAGMA cache_size = -262144");
    loadSqliteVec(db, dir);
    const rss0 = rss();
    t = performance.now();
    const build = buildVectorIndex(
      db,
      spec,
      function* () {
        for (let i = 0; i < n + Q; i++) if (!isQuery(i)) yield { id: i + 1, vector: vectors.subarray(i * d, i * d + d), meta: [Math.floor(i / 12), 1 + (i % 9)] };
      },
      { onProgress: (phase, done, total) => phase === "insert" && done % 200_000 === 0 && log(`  insert ${done}/${total}`) },
    );
    const buildSeconds = (performance.now() - t) / 1000;
    const rssBuild = rss() - rss0;
    db.close();
    const dbBytes = statSync(path).size;
    log(
      `  sqlite-vec IVF: built in ${buildSeconds.toFixed(1)} s (${JSON.stringify(build.seconds)}), ${build.nlist} lists, chunk ${build.chunkSize}; db ${mib(dbBytes)} MiB; RSS +${mib(rssBuild)} MiB while building`,
    );

    // as the service reads it: read-only, mmap. The exact answers (full scans, which touch every
    // page of the file) come from a connection of their own, closed before the IVF is timed, so the
    // IVF's RSS is its own.
    const open = () => {
      const c = new Database(path, { readonly: true });
      c.run("PRAGMA cache_size = -65536");
      c.run("PRAGMA mmap_size = 1073741824");
      loadSqliteVec(c, dir);
      return c;
    };
    db = open();
    const exactMs: number[] = [];
    const truth = queries.map((q) => {
      const t1 = performance.now();
      const ids = new VectorIndex(db, spec).exact(q, 10).map((h) => h.id);
      exactMs.push(performance.now() - t1);
      return new Set(ids);
    });
    db.close();
    log(`  exact (full scan) k=10: p50 ${median(exactMs).toFixed(1)} ms, p95 ${p95(exactMs).toFixed(1)} ms`);
    db = open();
    const rss1 = rss();
    const parts1 = rssParts();
    const index = new VectorIndex(db, spec);
    // warm-up: one pass at the widest nprobe (the partitions' pages come into the page cache)
    for (const q of queries) index.search(q, 50, { nprobe: Math.max(...nprobes, index.nprobe) });
    const ivf: Record<string, unknown>[] = [];
    const sweep = [...new Set([...nprobes, index.nprobe])].sort((a, b) => a - b);
    for (const nprobe of sweep) {
      const row: Record<string, unknown> = { nprobe, default: nprobe === index.nprobe };
      for (const k of [10, 50]) {
        const ms: number[] = [];
        let rec = 0;
        queries.forEach((q, i) => {
          const t1 = performance.now();
          const hits = index.search(q, k, { nprobe });
          ms.push(performance.now() - t1);
          if (k === 10) rec += hits.filter((h) => truth[i]!.has(h.id)).length / 10;
        });
        row[`p50_k${k}`] = r3(median(ms));
        row[`p95_k${k}`] = r3(p95(ms));
        if (k === 10) row.recallAt10 = r3(rec / Q);
      }
      ivf.push(row);
      log(
        `  nprobe ${nprobe}${nprobe === index.nprobe ? " (default)" : ""} (${((100 * nprobe) / build.nlist).toFixed(1)} % of lists): recall@10 ${row.recallAt10}; k=10 p50 ${row.p50_k10} ms p95 ${row.p95_k10} ms; k=50 p50 ${row.p50_k50} ms p95 ${row.p95_k50} ms`,
      );
    }
    const rssQuery = rss() - rss1;
    const parts2 = rssParts();
    const anonQuery = parts2.anon - parts1.anon,
      fileQuery = parts2.file - parts1.file;
    log(
      `  sqlite-vec RSS +${mib(rssQuery)} MiB over the IVF queries: anonymous +${mib(anonQuery)} MiB, file-backed (mmap'd pages of the database, as partitions are touched) +${mib(fileQuery)} MiB`,
    );
    db.close();
    results.scale = {
      n,
      dims: d,
      queries: Q,
      sqliteVec: {
        build,
        buildSeconds: r3(buildSeconds),
        dbMiB: mib(dbBytes),
        rssBuildMiB: mib(rssBuild),
        rssQueryMiB: mib(rssQuery),
        rssQueryAnonMiB: mib(anonQuery),
        rssQueryFileMiB: mib(fileQuery),
        exactP50: r3(median(exactMs)),
        exactP95: r3(p95(exactMs)),
        ivf,
      },
    };

    // usearch (HNSW) on the same vectors
    try {
      const usearch = (await import("usearch")).default as typeof import("usearch");
      const connectivity = 16,
        expansionAdd = 64;
      const rss2 = rss();
      const idx = new usearch.Index({
        metric: usearch.MetricKind.IP,
        quantization: usearch.ScalarKind.F32,
        multi: false,
        connectivity,
        dimensions: d,
        expansion_add: expansionAdd,
        expansion_search: 64,
      });
      const keys = new BigUint64Array(n);
      const data = new Float32Array(n * d);
      let m = 0;
      for (let i = 0; i < n + Q; i++) {
        if (isQuery(i)) continue;
        keys[m] = BigInt(i + 1);
        data.set(vectors.subarray(i * d, i * d + d), m * d);
        m++;
      }
      t = performance.now();
      idx.add(keys, data, 0);
      const usBuild = (performance.now() - t) / 1000;
      const usRss = rss() - rss2 - data.byteLength;
      const file = join(dir, "index.usearch");
      idx.save(file);
      const usBytes = statSync(file).size;
      const usRows: Record<string, unknown>[] = [];
      for (const ef of [32, 64, 128]) {
        let usIdx = idx;
        if (ef !== 64) {
          usIdx = new usearch.Index({
            metric: usearch.MetricKind.IP,
            quantization: usearch.ScalarKind.F32,
            multi: false,
            connectivity,
            dimensions: d,
            expansion_add: expansionAdd,
            expansion_search: ef,
          });
          usIdx.view(file);
        }
        for (const q of queries) usIdx.search(q, 50, 1); // warm-up (a viewed index is memory-mapped)
        const row: Record<string, unknown> = { expansion_search: ef };
        for (const k of [10, 50]) {
          const ms: number[] = [];
          let rec = 0;
          queries.forEach((q, i) => {
            const t1 = performance.now();
            const r = usIdx.search(q, k, 1);
            ms.push(performance.now() - t1);
            if (k === 10) rec += Array.from(r.keys as BigUint64Array).filter((key) => truth[i]!.has(Number(key))).length / 10;
          });
          row[`p50_k${k}`] = r3(median(ms));
          row[`p95_k${k}`] = r3(p95(ms));
          if (k === 10) row.recallAt10 = r3(rec / Q);
        }
        usRows.push(row);
        log(`  usearch ef ${ef}: recall@10 ${row.recallAt10}; k=10 p50 ${row.p50_k10} ms p95 ${row.p95_k10} ms; k=50 p50 ${row.p50_k50} ms p95 ${row.p95_k50} ms`);
      }
      log(
        `  usearch HNSW (M ${connectivity}, ef_construction ${expansionAdd}, f32): built in ${usBuild.toFixed(1)} s on ${machine.nproc} threads; index ${mib(usBytes)} MiB; RSS +${mib(usRss)} MiB beyond its input copy`,
      );
      (results.scale as Record<string, unknown>).usearch = { connectivity, expansionAdd, buildSeconds: r3(usBuild), indexMiB: mib(usBytes), rssMiB: mib(usRss), rows: usRows };
    } catch (err) {
      log(`  usearch: not run (${(err as Error).message})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(results, null, 2));
log(`written ${out}`);
