/**
 * Vector indexes in the market database, on sqlite-vec: an IVF ("inverted file") index with an
 * int8 first pass and a re-rank on the full float vectors.
 *
 * Brute force over a whole vec0 table costs a scan of every row (sqlite-vec 0.1.9: about 280 ms
 * for 1M 128-d float vectors, more as k grows), so rows are partitioned by a coarse cluster:
 * k-means centroids (nlist ≈ √N, trained on a sample with a fixed seed; two levels beyond 256
 * partitions) are kept in `<name>_centroids`, and every row carries the number of its nearest
 * centroid as the vec0 `partition key`. A search ranks the centroids against the query, asks
 * sqlite-vec for the best rows of each of the `nprobe` nearest partitions on int8 codes
 * (round((x − mean) × scale), one scale for all dimensions, so L2 ranks as on the floats; an
 * `int8[dims]` column, cheaper per row than float), and re-ranks the best of those on their
 * float vectors, so the distances returned are exact. (Binary codes were tried first: four times
 * cheaper to scan, but the signs of x − mean rank the real image embeddings badly; see
 * docs/vectors.md.) An index on the vec0 chunks table's partition column makes a probe read its
 * own partition only.
 *
 * Filters are vec0 metadata columns (`artist_id`, `category_id` for the images), applied by
 * sqlite-vec while it scans, so the rows that pass keep their order. A narrow filter may leave
 * fewer than k rows in the probed partitions: the search then probes further partitions, up to
 * all of them. For a narrow pool known in advance (an artist's works), `candidates` skips the
 * index and ranks just those rows exactly. A table of one partition (under 5,000 rows) is
 * searched exactly.
 *
 * Vectors are expected L2-normalised; the score is the cosine similarity, 1 − d²/2 for the L2
 * distance d between them.
 *
 * Tables for an index named `x`:
 *   x_ivf(key, value)                 dims, nlist, count, default nprobe, mean (JSON) and scale
 *                                     of the int8 codes, build facts
 *   x_centroids(list, size, vector)   the k-means centroids (float32 blobs) and partition sizes
 *   x (vec0)                          id, list partition key, embedding float[dims], code int8[dims],
 *                                     the metadata columns (integers); chunk_size ≈ partition / 8
 */
import type { Database, Statement } from "bun:sqlite";
import { mulberry32 } from "../market/random";

export interface VectorIndexSpec {
  /** Name of the vec0 table; the other tables take it as a prefix. */
  name: string;
  dims: number;
  /** Integer metadata columns a search can filter on. */
  metadata: readonly string[];
}

export interface VectorRow {
  id: number;
  vector: Float32Array;
  /** Metadata values in the order of spec.metadata (integers, never null). */
  meta?: readonly number[];
}

export interface BuildOptions {
  /** Number of partitions; default: 1 below 5,000 rows (an exact scan is cheap), else round(√N). */
  nlist?: number;
  /** Rows sampled for k-means (default min(N, max(64 × nlist, 10,000))). */
  sampleSize?: number;
  /** k-means iterations (default 8). */
  iterations?: number;
  /** Seed of the sample and of the initial centroids. */
  seed?: number;
  /** The nprobe that search uses when none is given (stored with the index). */
  nprobe?: number;
  onProgress?: (phase: "sample" | "kmeans" | "insert", done: number, total: number) => void;
}

export interface BuildSummary {
  count: number;
  nlist: number;
  nprobe: number;
  chunkSize: number;
  seconds: { sample: number; kmeans: number; insert: number };
}

export interface SearchOptions {
  /** Partitions probed (default: the index's stored nprobe, twice that with a filter). */
  nprobe?: number;
  /** Metadata filters: a value or a list of values per column (AND across columns). */
  filter?: Readonly<Record<string, number | readonly number[]>>;
  /** Ids never returned (e.g. the query's own work). */
  exclude?: Iterable<number>;
  /** Rank only these ids, exactly (a narrow pool known in advance). */
  candidates?: readonly number[];
  /** Rows re-ranked on their float vectors after the int8 pass (default 4k + 32). */
  rerank?: number;
}

export interface Hit {
  id: number;
  /** Cosine similarity, 1 − distance² / 2. */
  score: number;
  /** L2 distance between the unit vectors. */
  distance: number;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

function checkSpec(spec: VectorIndexSpec): void {
  if (!IDENT.test(spec.name) || !spec.metadata.every((m) => IDENT.test(m)) || spec.metadata.includes("list") || spec.metadata.includes("id")) {
    throw new Error(`vector index: bad name or metadata column in ${JSON.stringify(spec)}`);
  }
  if (!(spec.dims > 0 && spec.dims % 8 === 0)) throw new Error(`vector index: dims must be a positive multiple of 8 (${spec.dims})`);
}

export function defaultNlist(count: number): number {
  return count < 5000 ? 1 : Math.max(1, Math.round(Math.sqrt(count)));
}

/** vec0 chunk size: about an eighth of a partition (less space lost in each partition's last chunk), 64…1024, a multiple of 8. */
function chunkSizeFor(count: number, nlist: number): number {
  const per = count / Math.max(1, nlist);
  let c = 64;
  while (c < 1024 && c * 8 < per) c *= 2;
  return c;
}

const blobOf = (v: Float32Array): Uint8Array => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
const floatsOf = (b: Uint8Array): Float32Array => {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
};

/** The int8 code of a vector: round((x − mean) × scale), clamped to ±127 (one scale for every dimension, so L2 ranks as on the floats). */
export function int8Code(x: Float32Array, mean: Float32Array, scale: number): Int8Array {
  const out = new Int8Array(x.length);
  for (let j = 0; j < x.length; j++) {
    const v = Math.round((x[j]! - mean[j]!) * scale);
    out[j] = v > 127 ? 127 : v < -127 ? -127 : v;
  }
  return out;
}

/** Drops an index's tables (if any). */
export function dropVectorIndex(db: Database, spec: VectorIndexSpec): void {
  checkSpec(spec);
  db.run(`DROP TABLE IF EXISTS "${spec.name}"`);
  db.run(`DROP TABLE IF EXISTS "${spec.name}_centroids"`);
  db.run(`DROP TABLE IF EXISTS "${spec.name}_ivf"`);
}

// ------------------------------------------------------------------ k-means

/**
 * Index of the centroid nearest to row `xo` of `X` (L2), given the centroids' squared norms. The
 * k-means arrays are float64 holding float32 values: the products and sums are those of float32
 * arrays (each element is read as a double either way), without a conversion at every read.
 */
function nearest(X: Float64Array, xo: number, C: Float64Array, norms: Float64Array, k: number, d: number): number {
  let best = Infinity,
    bi = 0;
  for (let c = 0; c < k; c++) {
    const co = c * d;
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0;
    for (let j = 0; j < d; j += 4) {
      s0 += X[xo + j]! * C[co + j]!;
      s1 += X[xo + j + 1]! * C[co + j + 1]!;
      s2 += X[xo + j + 2]! * C[co + j + 2]!;
      s3 += X[xo + j + 3]! * C[co + j + 3]!;
    }
    const dist = norms[c]! - 2 * (s0 + s1 + s2 + s3);
    if (dist < best) (best = dist), (bi = c);
  }
  return bi;
}

/**
 * `nearest` for rows `xo` and `xo + d` at once (each centroid read once for both): the same sums
 * in the same order, so the same answers. Writes them to `out[0]` and `out[1]`.
 */
function nearestTwo(X: Float64Array, xo: number, C: Float64Array, norms: Float64Array, k: number, d: number, out: Int32Array): void {
  const yo = xo + d;
  let best0 = Infinity,
    i0 = 0,
    best1 = Infinity,
    i1 = 0;
  for (let c = 0; c < k; c++) {
    const co = c * d;
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0,
      t0 = 0,
      t1 = 0,
      t2 = 0,
      t3 = 0;
    for (let j = 0; j < d; j += 4) {
      const c0 = C[co + j]!,
        c1 = C[co + j + 1]!,
        c2 = C[co + j + 2]!,
        c3 = C[co + j + 3]!;
      s0 += X[xo + j]! * c0;
      s1 += X[xo + j + 1]! * c1;
      s2 += X[xo + j + 2]! * c2;
      s3 += X[xo + j + 3]! * c3;
      t0 += X[yo + j]! * c0;
      t1 += X[yo + j + 1]! * c1;
      t2 += X[yo + j + 2]! * c2;
      t3 += X[yo + j + 3]! * c3;
    }
    const n = norms[c]!;
    const dist0 = n - 2 * (s0 + s1 + s2 + s3);
    const dist1 = n - 2 * (t0 + t1 + t2 + t3);
    if (dist0 < best0) (best0 = dist0), (i0 = c);
    if (dist1 < best1) (best1 = dist1), (i1 = c);
  }
  out[0] = i0;
  out[1] = i1;
}

function centroidNorms(C: Float64Array, k: number, d: number): Float64Array {
  const norms = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += C[c * d + j]! ** 2;
    norms[c] = s;
  }
  return norms;
}

/**
 * Lloyd's k-means on `n` sample rows. Initial centroids: distinct sample rows chosen by the seeded
 * generator; an emptied cluster takes the sample row farthest from its centroid.
 */
export function kmeans(X: Float64Array, n: number, d: number, k: number, iterations: number, seed: number, onIteration?: (i: number) => void): Float64Array {
  const r = mulberry32(seed ^ 0x5bd1e995);
  k = Math.min(k, n);
  const C = new Float64Array(k * d);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(r() * (n - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
    C.set(X.subarray(order[i]! * d, order[i]! * d + d), i * d);
  }
  const assign = new Int32Array(n);
  const sums = new Float64Array(k * d);
  const counts = new Int32Array(k);
  const pair = new Int32Array(2);
  for (let it = 0; it < iterations; it++) {
    const norms = centroidNorms(C, k, d);
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      let c: number;
      if (i & 1)
        c = pair[1]!; // answered with the row before it
      else if (i + 1 < n) {
        nearestTwo(X, i * d, C, norms, k, d, pair);
        c = pair[0]!;
      } else c = nearest(X, i * d, C, norms, k, d);
      assign[i] = c;
      counts[c]!++;
      const so = c * d,
        xo = i * d;
      for (let j = 0; j < d; j++) sums[so + j]! += X[xo + j]!;
    }
    for (let c = 0; c < k; c++) {
      if (counts[c]! > 0) {
        // a float32 centroid, as the index stores it
        for (let j = 0; j < d; j++) C[c * d + j] = Math.fround(sums[c * d + j]! / counts[c]!);
        continue;
      }
      // empty: restart it at the row farthest from its own centroid
      let far = -1,
        fi = 0;
      for (let i = 0; i < n; i++) {
        const a = assign[i]!;
        let s = 0;
        for (let j = 0; j < d; j++) s += (X[i * d + j]! - C[a * d + j]!) ** 2;
        if (s > far) (far = s), (fi = i);
      }
      C.set(X.subarray(fi * d, fi * d + d), c * d);
      assign[fi] = c;
    }
    onIteration?.(it + 1);
  }
  return C;
}

/** Centroids and the function that gives a vector its partition. */
interface Quantizer {
  centroids: Float32Array;
  /** Coarse groups of the two-level quantizer (1 when flat). */
  groups: number;
  assign(x: Float32Array): number;
}

function flatQuantizer(C: Float64Array, d: number): Quantizer {
  const k = C.length / d;
  const norms = centroidNorms(C, k, d);
  const x64 = new Float64Array(d);
  return {
    centroids: Float32Array.from(C),
    groups: 1,
    assign: (x) => {
      x64.set(x);
      return nearest(x64, 0, C, norms, k, d);
    },
  };
}

/**
 * The partitions' centroids. Up to 256 partitions: plain k-means on the sample. Beyond, two
 * levels, so that neither k-means nor the assignment of every row compares a vector with all nlist
 * centroids (1M rows × 1,000 centroids × 256 dims is minutes in JavaScript): √nlist coarse groups
 * by k-means, then k-means inside each group with a share of nlist proportional to its sample rows.
 * A row goes to the nearest fine centroid of its two nearest groups; a search still ranks all
 * centroids (flat), so rows near a group boundary are found from either side.
 */
function trainQuantizer(X: Float64Array, n: number, d: number, nlist: number, iterations: number, seed: number, onProgress?: (done: number, of: number) => void): Quantizer {
  if (nlist <= 256)
    return flatQuantizer(
      kmeans(X, n, d, nlist, iterations, seed, (i) => onProgress?.(i, iterations)),
      d,
    );
  const k1 = Math.round(Math.sqrt(nlist));
  const G = kmeans(X, n, d, k1, iterations, seed, (i) => onProgress?.(i, iterations * 2));
  const gNorms = centroidNorms(G, k1, d);
  const members: number[][] = Array.from({ length: k1 }, () => []);
  for (let i = 0; i < n; i++) members[nearest(X, i * d, G, gNorms, k1, d)]!.push(i);
  const parts: Float64Array[] = [];
  const groupOf: number[] = [];
  const firstOf = new Int32Array(k1 + 1);
  for (let g = 0; g < k1; g++) {
    firstOf[g] = groupOf.length;
    const m = members[g]!;
    if (m.length === 0) continue;
    const sub = new Float64Array(m.length * d);
    m.forEach((row, i) => sub.set(X.subarray(row * d, row * d + d), i * d));
    const kg = Math.max(1, Math.min(m.length, Math.round((nlist * m.length) / n)));
    const Cg = kmeans(sub, m.length, d, kg, iterations, seed + g + 1);
    parts.push(Cg);
    for (let c = 0; c < Cg.length / d; c++) groupOf.push(g);
    onProgress?.(iterations + Math.round(((g + 1) / k1) * iterations), iterations * 2);
  }
  firstOf[k1] = groupOf.length;
  const k = groupOf.length;
  const C = new Float64Array(k * d);
  let o = 0;
  for (const p of parts) C.set(p, o), (o += p.length);
  const norms = centroidNorms(C, k, d);
  const x = new Float64Array(d);
  const assign = (row: Float32Array): number => {
    x.set(row);
    // the two nearest groups
    let b1 = Infinity,
      g1 = 0,
      b2 = Infinity,
      g2 = -1;
    for (let g = 0; g < k1; g++) {
      if (firstOf[g] === firstOf[g + 1]) continue;
      let s = 0;
      const go = g * d;
      for (let j = 0; j < d; j++) s += x[j]! * G[go + j]!;
      const dist = gNorms[g]! - 2 * s;
      if (dist < b1) (b2 = b1), (g2 = g1), (b1 = dist), (g1 = g);
      else if (dist < b2) (b2 = dist), (g2 = g);
    }
    let best = Infinity,
      bi = 0;
    for (const g of g2 >= 0 ? [g1, g2] : [g1]) {
      for (let c = firstOf[g]!; c < firstOf[g + 1]!; c++) {
        const co = c * d;
        let s0 = 0,
          s1 = 0,
          s2 = 0,
          s3 = 0;
        for (let j = 0; j < d; j += 4) {
          s0 += x[j]! * C[co + j]!;
          s1 += x[j + 1]! * C[co + j + 1]!;
          s2 += x[j + 2]! * C[co + j + 2]!;
          s3 += x[j + 3]! * C[co + j + 3]!;
        }
        const dist = norms[c]! - 2 * (s0 + s1 + s2 + s3);
        if (dist < best) (best = dist), (bi = c);
      }
    }
    return bi;
  };
  return { centroids: Float32Array.from(C), groups: k1, assign };
}

// ------------------------------------------------------------------ build

/**
 * Builds (or rebuilds) an index from `source`, which is read twice: a reservoir sample for k-means,
 * then every row, assigned to its nearest centroid and inserted. Runs in one transaction.
 */
export function buildVectorIndex(db: Database, spec: VectorIndexSpec, source: () => Iterable<VectorRow>, options: BuildOptions = {}): BuildSummary {
  checkSpec(spec);
  const d = spec.dims;
  const seed = options.seed ?? 1986;
  const t0 = performance.now();
  // pass 1: count and reservoir-sample
  const r = mulberry32(seed);
  let count = 0;
  let sampleCap = options.sampleSize ?? 0;
  // float64 holding the rows' float32 values: what k-means reads (see nearest)
  let sample = new Float64Array(0);
  let nlist = options.nlist ?? 0;
  // the sample size depends on nlist, which depends on the count: sample generously, trim later
  const cap0 = sampleCap || 65_536;
  sample = new Float64Array(cap0 * d);
  for (const row of source()) {
    if (row.vector.length !== d) throw new Error(`vector index ${spec.name}: row ${row.id} has ${row.vector.length} dims, not ${d}`);
    if (count < cap0) sample.set(row.vector, count * d);
    else {
      const j = Math.floor(r() * (count + 1));
      if (j < cap0) sample.set(row.vector, j * d);
    }
    count++;
    if (count % 10_000 === 0) options.onProgress?.("sample", count, 0);
  }
  nlist = Math.max(1, Math.min(nlist || defaultNlist(count), count || 1));
  sampleCap = Math.min(count, cap0, options.sampleSize ?? Math.max(64 * nlist, 10_000));
  const t1 = performance.now();

  // a uniform subset of the reservoir (its first rows are the source's first rows when count ≤ cap)
  const n = Math.min(count, cap0);
  for (let i = 0; i < sampleCap; i++) {
    const j = i + Math.floor(r() * (n - i));
    if (j === i) continue;
    const tmp = sample.slice(i * d, i * d + d);
    sample.copyWithin(i * d, j * d, j * d + d);
    sample.set(tmp, j * d);
  }
  // int8 codes: (x − mean of the sample) × one scale, chosen so that 99.9 % of the sample's values fit
  const mean = new Float32Array(d);
  for (let i = 0; i < sampleCap; i++) for (let j = 0; j < d; j++) mean[j] = mean[j]! + sample[i * d + j]! / sampleCap;
  const dev: number[] = [];
  for (let i = 0; i < sampleCap; i += Math.max(1, Math.floor(sampleCap / 2000))) for (let j = 0; j < d; j++) dev.push(Math.abs(sample[i * d + j]! - mean[j]!));
  dev.sort((a, b) => a - b);
  const scale = 127 / Math.max(1e-6, dev[Math.min(dev.length - 1, Math.floor(dev.length * 0.999))] ?? 1);
  const iterations = options.iterations ?? 8;
  const quantizer =
    nlist === 1 ? flatQuantizer(new Float64Array(d), d) : trainQuantizer(sample, sampleCap, d, nlist, iterations, seed, (i, of) => options.onProgress?.("kmeans", i, of));
  const C = quantizer.centroids;
  nlist = C.length / d;
  sample = new Float64Array(0);
  const t2 = performance.now();

  const chunkSize = chunkSizeFor(count, nlist);
  const nprobe = Math.min(nlist, options.nprobe ?? defaultNprobe(nlist));
  dropVectorIndex(db, spec);
  const metaCols = spec.metadata.map((m) => `, ${m} integer`).join("");
  db.run(`CREATE TABLE "${spec.name}_ivf" (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  db.run(`CREATE TABLE "${spec.name}_centroids" (list INTEGER PRIMARY KEY, size INTEGER NOT NULL, vector BLOB NOT NULL)`);
  db.run(
    `CREATE VIRTUAL TABLE "${spec.name}" USING vec0(id integer primary key, list integer partition key, embedding float[${d}], code int8[${d}]${metaCols}, chunk_size=${chunkSize})`,
  );
  // sqlite-vec 0.1.9 finds a partition's chunks with `WHERE partition00 = ?` on its chunks table,
  // which has no index: every probe (and every insert) then reads the whole chunks table. An index
  // on it makes a probe cost its own rows only (16 probes of 1M rows: about 14 ms → 3.5 ms).
  const chunkCols = db
    .query<{ name: string }, []>(`PRAGMA table_info("${spec.name}_chunks")`)
    .all()
    .map((c) => c.name);
  if (chunkCols.includes("partition00")) db.run(`CREATE INDEX "${spec.name}_chunks_list" ON "${spec.name}_chunks" (partition00, chunk_id)`);
  const cols = ["id", "list", "embedding", "code", ...spec.metadata.map((m) => `"${m}"`)];
  const ins = db.query(`INSERT INTO "${spec.name}" (${cols.join(", ")}) VALUES (${cols.map((c) => (c === "code" ? "vec_int8(?)" : "?")).join(", ")})`);
  const sizes = new Int32Array(nlist);
  const args: (number | Uint8Array | Int8Array)[] = new Array(cols.length);
  db.transaction(() => {
    let done = 0;
    for (const row of source()) {
      const list = nlist === 1 ? 0 : quantizer.assign(row.vector);
      sizes[list]!++;
      args[0] = row.id;
      args[1] = list;
      args[2] = blobOf(row.vector);
      args[3] = int8Code(row.vector, mean, scale);
      for (let m = 0; m < spec.metadata.length; m++) args[4 + m] = row.meta?.[m] ?? 0;
      ins.run(...args);
      if (++done % 5_000 === 0) options.onProgress?.("insert", done, count);
    }
    options.onProgress?.("insert", done, count);
    const insC = db.query(`INSERT INTO "${spec.name}_centroids" (list, size, vector) VALUES (?, ?, ?)`);
    for (let c = 0; c < nlist; c++) insC.run(c, sizes[c]!, blobOf(C.subarray(c * d, c * d + d)));
    const info = db.query(`INSERT INTO "${spec.name}_ivf" (key, value) VALUES (?, ?)`);
    info.run("dims", String(d));
    info.run("nlist", String(nlist));
    info.run("count", String(count));
    info.run("nprobe", String(nprobe));
    info.run("chunk_size", String(chunkSize));
    info.run("metadata", spec.metadata.join(","));
    info.run("sample", String(sampleCap));
    info.run("iterations", String(iterations));
    info.run("seed", String(seed));
    info.run("groups", String(quantizer.groups));
    info.run("mean", JSON.stringify(Array.from(mean)));
    info.run("scale", String(scale));
  })();
  const t3 = performance.now();
  return { count, nlist, nprobe, chunkSize, seconds: { sample: (t1 - t0) / 1000, kmeans: (t2 - t1) / 1000, insert: (t3 - t2) / 1000 } };
}

/**
 * Default partitions probed: about 4 % of them, at least 16 (docs/vectors.md). At 1M rows, 4 %
 * keeps recall@10 ≥ 0.95 within the latency budget; on a small catalogue probing is cheap, and a
 * query image (further from its work than neighbours are from each other) needs the margin.
 */
export function defaultNprobe(nlist: number): number {
  if (nlist <= 1) return 1;
  return Math.min(nlist, Math.max(16, Math.ceil(nlist / 25)));
}

// ------------------------------------------------------------------ search

/** Merges candidate hits: ascending distance, ties by id, each id once, at most k. */
function topHits(rows: { id: number; distance: number }[], k: number, exclude: ReadonlySet<number>): Hit[] {
  rows.sort((a, b) => a.distance - b.distance || a.id - b.id);
  const out: Hit[] = [];
  let last = NaN;
  for (const r of rows) {
    if (r.id === last || exclude.has(r.id)) continue;
    last = r.id;
    out.push({ id: r.id, distance: r.distance, score: 1 - (r.distance * r.distance) / 2 });
    if (out.length === k) break;
  }
  return out;
}

/** An open index: centroids in memory, statements prepared per shape. Cheap to keep one per connection. */
export class VectorIndex {
  readonly spec: VectorIndexSpec;
  readonly nlist: number;
  readonly count: number;
  readonly nprobe: number;
  private readonly centroids: Float32Array;
  private readonly mean: Float32Array;
  private readonly scale: number;
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    spec: VectorIndexSpec,
  ) {
    checkSpec(spec);
    this.spec = spec;
    const info = Object.fromEntries(
      db
        .query<{ key: string; value: string }, []>(`SELECT key, value FROM "${spec.name}_ivf"`)
        .all()
        .map((r) => [r.key, r.value]),
    );
    if (Number(info.dims) !== spec.dims) throw new Error(`vector index ${spec.name}: built with ${info.dims} dims, expected ${spec.dims}`);
    this.nlist = Number(info.nlist);
    this.count = Number(info.count);
    this.nprobe = Number(info.nprobe);
    this.mean = Float32Array.from(JSON.parse(info.mean ?? "[]") as number[]);
    this.scale = Number(info.scale);
    if (this.mean.length !== spec.dims || !(this.scale > 0)) throw new Error(`vector index ${spec.name}: no quantisation parameters`);
    this.centroids = new Float32Array(this.nlist * spec.dims);
    for (const row of db.query<{ list: number; vector: Uint8Array }, []>(`SELECT list, vector FROM "${spec.name}_centroids" ORDER BY list`).all()) {
      this.centroids.set(floatsOf(row.vector), row.list * spec.dims);
    }
  }

  /** True when the database has this index. */
  static exists(db: Database, spec: VectorIndexSpec): boolean {
    return db.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(`${spec.name}_ivf`) != null;
  }

  private statement(key: string, sql: string): Statement {
    let st = this.statements.get(key);
    if (!st) {
      st = this.db.query(sql);
      this.statements.set(key, st);
    }
    return st;
  }

  /** The stored vector of `id`, or null. */
  vectorOf(id: number): Float32Array | null {
    const row = this.statement("get", `SELECT embedding FROM "${this.spec.name}" WHERE id = ?`).get(id) as { embedding: Uint8Array } | null;
    return row ? floatsOf(row.embedding) : null;
  }

  /** Partitions ordered by their centroid's distance to the query, nearest first. */
  probeOrder(query: Float32Array): Int32Array {
    const d = this.spec.dims,
      n = this.nlist,
      C = this.centroids;
    const dist = new Float64Array(n);
    for (let c = 0; c < n; c++) {
      let s = 0;
      const o = c * d;
      for (let j = 0; j < d; j++) {
        const t = query[j]! - C[o + j]!;
        s += t * t;
      }
      dist[c] = s;
    }
    const order = Int32Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => dist[a]! - dist[b]! || a - b);
    return order;
  }

  /** Filter clauses and their bound values (columns checked against the spec). */
  private filterSql(filter: SearchOptions["filter"]): { sql: string; key: string; values: number[] } {
    let sql = "",
      key = "";
    const values: number[] = [];
    for (const [col, v] of Object.entries(filter ?? {})) {
      if (!this.spec.metadata.includes(col)) throw new Error(`vector index ${this.spec.name}: no metadata column ${col}`);
      const list = typeof v === "number" ? [v] : [...v];
      if (list.length === 0) return { sql: " AND 0", key: "none", values: [] };
      sql += list.length === 1 ? ` AND "${col}" = ?` : ` AND "${col}" IN (${list.map(() => "?").join(",")})`;
      key += `${col}:${list.length};`;
      values.push(...list);
    }
    return { sql, key, values };
  }

  /**
   * The k nearest rows to `query` (a unit vector of spec.dims), best first.
   *
   * One partition (a small table): an exact float scan. Otherwise IVF in two stages: the nprobe
   * partitions nearest to the query are scanned on the int8 codes, each partition giving its best
   * k + 8 rows; the best 4k + 32 of those are re-ranked on their float vectors. A filter doubles
   * the default nprobe (the k best rows that pass lie further out: a category filter keeping 1/9
   * of 20k synthetic rows then finds 0.99 of the exact answer); one that leaves fewer than k rows
   * in the probed partitions makes the search probe further (doubling) until k are found or all
   * were probed.
   */
  search(query: Float32Array, k: number, options: SearchOptions = {}): Hit[] {
    if (query.length !== this.spec.dims) throw new Error(`vector index ${this.spec.name}: query has ${query.length} dims, not ${this.spec.dims}`);
    if (k <= 0 || this.count === 0) return [];
    const exclude = new Set(options.exclude ?? []);
    if (options.candidates) return this.rank(query, options.candidates, k, exclude, options.filter);
    if (this.nlist === 1) return this.exact(query, k, options);
    const want = k + exclude.size;
    const perList = want + 8;
    // a filter keeps a share of the rows: its k best lie further out, so probe wider
    const filtered = options.filter !== undefined && Object.keys(options.filter).length > 0;
    const rerank = options.rerank ?? 4 * want + 32;
    const f = this.filterSql(options.filter);
    if (f.key === "none") return [];
    const order = this.probeOrder(query);
    let nprobe = Math.max(1, Math.min(this.nlist, options.nprobe ?? this.nprobe * (filtered ? 2 : 1)));
    let from = 0;
    const coarse: { id: number; distance: number }[] = [];
    const code = int8Code(query, this.mean, this.scale);
    const seen = new Set<number>();
    const rows: { id: number; distance: number }[] = [];
    for (;;) {
      const lists = Array.from(order.subarray(from, nprobe));
      // one statement per probe count and filter shape; sqlite-vec runs it once per listed partition
      const st = this.statement(
        `knn:${lists.length}:${f.key}`,
        `SELECT id, distance FROM "${this.spec.name}" WHERE code MATCH vec_int8(?) AND k = ? AND list IN (${lists.map(() => "?").join(",")})${f.sql}`,
      );
      coarse.push(...(st.all(code, perList, ...lists, ...f.values) as { id: number; distance: number }[]));
      coarse.sort((a, b) => a.distance - b.distance || a.id - b.id);
      for (let i = 0, taken = 0; i < coarse.length && taken < rerank; i++) {
        const id = coarse[i]!.id;
        if (exclude.has(id)) continue;
        taken++;
        if (seen.has(id)) continue;
        seen.add(id);
        rows.push({ id, distance: this.distanceTo(query, id) });
      }
      const hits = topHits(rows.slice(), k, exclude);
      if (hits.length >= k || nprobe >= this.nlist || !options.filter) return hits;
      from = nprobe;
      nprobe = Math.min(this.nlist, nprobe * 2);
    }
  }

  /** L2 distance from the query to the stored float vector of `id`. */
  private distanceTo(query: Float32Array, id: number): number {
    const row = this.statement("get", `SELECT embedding FROM "${this.spec.name}" WHERE id = ?`).get(id) as { embedding: Uint8Array } | null;
    if (!row) return Infinity;
    const b = row.embedding;
    const v = b.byteOffset % 4 === 0 ? new Float32Array(b.buffer, b.byteOffset, b.byteLength >> 2) : floatsOf(b);
    let s = 0;
    for (let j = 0; j < v.length; j++) {
      const t = query[j]! - v[j]!;
      s += t * t;
    }
    return Math.sqrt(s);
  }

  /** Exact search over the whole table (a full scan; for checks and small tables). */
  exact(query: Float32Array, k: number, options: Omit<SearchOptions, "nprobe" | "candidates"> = {}): Hit[] {
    const exclude = new Set(options.exclude ?? []);
    const f = this.filterSql(options.filter);
    if (f.key === "none") return [];
    const st = this.statement(`exact:${f.key}`, `SELECT id, distance FROM "${this.spec.name}" WHERE embedding MATCH ? AND k = ?${f.sql}`);
    return topHits(st.all(blobOf(query), k + exclude.size, ...f.values) as { id: number; distance: number }[], k, exclude);
  }

  /** Exact ranking of the given ids (the candidate pre-filter for narrow pools). */
  private rank(query: Float32Array, ids: readonly number[], k: number, exclude: ReadonlySet<number>, filter: SearchOptions["filter"]): Hit[] {
    const d = this.spec.dims;
    const rows: { id: number; distance: number }[] = [];
    const checks = Object.entries(filter ?? {}).map(([col, v]) => {
      if (!this.spec.metadata.includes(col)) throw new Error(`vector index ${this.spec.name}: no metadata column ${col}`);
      return [col, new Set(typeof v === "number" ? [v] : v)] as const;
    });
    const metaCols = checks.map(([c]) => `, "${c}"`).join("");
    const st = this.statement(`rank:${metaCols}`, `SELECT id, embedding${metaCols} FROM "${this.spec.name}" WHERE id = ?`);
    for (const id of new Set(ids)) {
      if (exclude.has(id)) continue;
      const row = st.get(id) as Record<string, unknown> | null;
      if (!row) continue;
      if (!checks.every(([c, set]) => set.has(row[c] as number))) continue;
      const v = floatsOf(row.embedding as Uint8Array);
      let s = 0;
      for (let j = 0; j < d; j++) {
        const t = query[j]! - v[j]!;
        s += t * t;
      }
      rows.push({ id, distance: Math.sqrt(s) });
    }
    return topHits(rows, k, exclude);
  }
}

// ------------------------------------------------------------------ the market's two indexes

/** Image embeddings, one row per artwork with an image (id = artwork id). */
export function imageIndexSpec(dims: number): VectorIndexSpec {
  return { name: "image_vectors", dims, metadata: ["artist_id", "category_id"] };
}

/** artist_index_vector (64 float32 in artist_charts.vector), one row per artist with a usable vector. */
export const ARTIST_INDEX: VectorIndexSpec = { name: "artist_vectors", dims: 64, metadata: [] };

/** Builds the artist index from artist_charts.vector (zero or malformed vectors are left out). */
export function buildArtistIndex(db: Database, options: BuildOptions = {}): BuildSummary {
  const source = function* (): Iterable<VectorRow> {
    const st = db.query<{ artist_id: number; vector: Uint8Array }, []>("SELECT artist_id, vector FROM artist_charts ORDER BY artist_id");
    for (const row of st.iterate()) {
      if (row.vector.byteLength !== 64 * 4) continue;
      const v = floatsOf(row.vector);
      let s = 0;
      for (let j = 0; j < 64; j++) s += v[j]! * v[j]!;
      if (!(s > 0) || !Number.isFinite(s)) continue;
      const k = 1 / Math.sqrt(s);
      for (let j = 0; j < 64; j++) v[j] = v[j]! * k;
      yield { id: row.artist_id, vector: v };
    }
  };
  return buildVectorIndex(db, ARTIST_INDEX, source, options);
}
