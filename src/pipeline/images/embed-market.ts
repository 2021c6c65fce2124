/**
 * Embeds every artwork image of a market and builds the two vector indexes (src/images/vector-index.ts):
 * `image_vectors` (one row per artwork with an image, id = artwork id, metadata artist_id and
 * category_id) and `artist_vectors` (artist_index_vector from artist_charts).
 *
 * Procedural originals are drawn from their SVG straight at the embedding canvas (sharp's density,
 * never at full size); "file" originals are read from <data>/images/orig/<path>. Images are embedded
 * on worker threads, one per CPU (embed-worker.ts, each with its own sharp and two images in
 * flight; a small market in this thread), written to a staging database next to the
 * market (attached, deleted at the end: the vectors are read twice by the index build, and a
 * large market's vectors do not have to fit in memory), then indexed.
 *
 * Deterministic: the same market gives the same vectors and the same index (the k-means sample
 * and initial centroids come from a fixed seed; rows are read in artwork order).
 *
 * A merge import passes the previous snapshot (`reuse`): the vectors of unchanged pictures are
 * copied from it byte for byte and only the new or changed pictures are embedded; the indexes are
 * then built from all of them as after a full embedding.
 */
import type { Database } from "bun:sqlite";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { loadSharp, workerEntry, type Sharp } from "../../platform/native";
import { embedPixels, embeddingRaster, EMBEDDING_DIMS, SVG_SHEET, svgRasters } from "../../images/embedding";
import { renderSvg } from "../../images/procedural";
import { IMAGE_INDEX } from "../../images/indexes";
import { buildArtistIndex, buildVectorIndex, type BuildSummary, type VectorRow } from "../../images/vector-index";

export { IMAGE_INDEX };

/** Below this many images, starting worker threads costs more than it saves. */
const MIN_IMAGES_FOR_WORKERS = 200;

export type EmbedPhase = "embed images" | "index images" | "index artists";

export interface EmbedMarketOptions {
  /**
   * Worker threads that embed (default: one per CPU; none, in this thread, for fewer than
   * MIN_IMAGES_FOR_WORKERS images). 0: in this thread.
   */
  workers?: number;
  /** Embedding begun by startEmbedding (its workers and the rows already sent). */
  started?: StartedEmbedding | null;
  /** Sheets of pictures in flight when embedding in this thread (default: the number of CPUs, at least 2). */
  concurrency?: number;
  /** Build options of the image index (nlist, nprobe… ; defaults from vector-index). */
  nlist?: number;
  nprobe?: number;
  /**
   * The previous snapshot's market.db (a merge import): the pictures that did not change (same
   * artwork id, kind, seed, path, size, artist and title: what draws a procedural picture, and a
   * file's content-hash name), drawn at the same place of the same sheet, keep that snapshot's
   * vectors, copied byte for byte; only the others are embedded (stageReused). Ignored when that
   * file has no image index of these dims, and dropped (everything embedded) when a reused sheet
   * embedded afresh differs. Not with `started`.
   */
  reuse?: string;
}

export interface EmbedMarketSummary {
  /** Vectors in the image index (reused + embedded − failed). */
  images: number;
  /** Vectors copied from the previous snapshot (`reuse`). */
  reused: number;
  /** Images drawn (or read) and embedded by this call (the rest of `images` were reused). */
  embedded: number;
  /**
   * Reused vectors checked against a fresh embedding, and whether they matched (null when
   * nothing was reused). On a mismatch nothing is reused.
   */
  reuseCheck: { checked: number; matched: boolean } | null;
  /** Images that could not be read or decoded (left out of the index). */
  failed: number;
  /** From the first image sent to the last vector staged (with startEmbedding, that overlaps the caller's own work). */
  embedSeconds: number;
  /** Of which after embedMarket was called. */
  waitedSeconds: number;
  imagesPerSecond: number;
  imageIndex: BuildSummary;
  artistIndex: BuildSummary | null;
  seconds: number;
}

/** A catalogue image as the embedding reads it (one row of artworks joined to images). */
export interface EmbedRow {
  artwork_id: number;
  artist_id: number;
  category_id: number;
  kind: string;
  seed: number | null;
  path: string | null;
  width: number;
  height: number;
  /** The work's title: it names what the procedural picture shows (src/images/procedural.ts). */
  title: string | null;
}

/** The embedding of one catalogue image (null when a file original is missing or unreadable). */
export async function embedCatalogueImage(
  sharp: Sharp,
  dataDir: string,
  row: Pick<EmbedRow, "artist_id" | "kind" | "seed" | "path" | "width" | "height" | "title">,
): Promise<Float32Array | null> {
  return (await embedCatalogueImages(sharp, dataDir, [row]))[0]!;
}

/**
 * The embeddings of catalogue images, in order (null for a file original that is missing or
 * unreadable). Procedural originals are drawn SVG_SHEET to a librsvg call (svgRasters); the
 * vectors are the same as one at a time.
 */
export async function embedCatalogueImages(
  sharp: Sharp,
  dataDir: string,
  rows: readonly Pick<EmbedRow, "artist_id" | "kind" | "seed" | "path" | "width" | "height" | "title">[],
): Promise<(Float32Array | null)[]> {
  const out: (Float32Array | null)[] = new Array(rows.length).fill(null);
  const procedural: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.kind === "procedural") {
      procedural.push(i);
      continue;
    }
    if (!row.path) continue;
    const file = join(dataDir, "images", "orig", row.path);
    if (!existsSync(file)) continue;
    try {
      const raster = await embeddingRaster(sharp, readFileSync(file));
      out[i] = embedPixels(raster.data, raster.width, raster.height);
    } catch {
      out[i] = null;
    }
  }
  if (procedural.length > 0) {
    const inputs = procedural.map((i) => {
      const row = rows[i]!;
      return { svg: renderSvg({ artistId: row.artist_id, seed: row.seed ?? 0, width: row.width, height: row.height, title: row.title }), width: row.width, height: row.height };
    });
    const rasters = await svgRasters(sharp, inputs);
    procedural.forEach((i, k) => {
      const r = rasters[k]!;
      out[i] = embedPixels(r.data, r.width, r.height);
    });
  }
  return out;
}

/**
 * Rows per message to a worker, and messages queued per worker. Pages and batches are whole
 * multiples of SVG_SHEET from the first image on, so every picture is drawn in the same sheet
 * whichever way the work is split (sheets change the antialiasing in the last bits).
 */
const BATCH = 64;
const QUEUED = 2;
/** Rows read from the database at a time (keyset pages: a large market's rows never sit in memory whole). */
const PAGE = 4096;

type Staged = (rows: EmbedRow[], vectors: Float32Array, ok: Uint8Array) => void;

/**
 * Where the artworks are read from: the served table once the derivation has written it (every
 * source column is there), the source rows before (startEmbedding, beside the derivation, while
 * a snapshot is built: src/pipeline/db/works-file.ts). Both give the same rows.
 */
type Works = "artworks" | "src_artworks";

/**
 * Pages of the market's images in artwork order (after artwork id `after`); with `unstaged`, only
 * those without a vector in embed_stage (the reused ones are there already).
 */
function* imagePages(db: Database, works: Works, after = Number.MIN_SAFE_INTEGER, pageRows = PAGE, unstaged = false): Generator<EmbedRow[]> {
  const st = db.query<EmbedRow, [number, number]>(
    `SELECT a.id AS artwork_id, a.artist_id, a.category_id, i.kind, i.seed, i.path, i.width, i.height, a.title
       FROM ${works} a JOIN images i ON i.id = a.image_id
      WHERE a.id > ?${unstaged ? " AND NOT EXISTS (SELECT 1 FROM embed_stage.vectors s WHERE s.artwork_id = a.id)" : ""} ORDER BY a.id LIMIT ?`,
  );
  for (;;) {
    const rows = st.all(after, pageRows);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.artwork_id;
    yield rows;
  }
}

/** Embeds in this thread, `concurrency` sheets in flight (sharp rasterises on its own threads). */
async function embedInProcess(db: Database, dataDir: string, concurrency: number, stage: Staged, unstaged: boolean): Promise<void> {
  const sharp = loadSharp(dataDir);
  for (const rows of imagePages(db, "artworks", Number.MIN_SAFE_INTEGER, PAGE, unstaged)) {
    for (let from = 0; from < rows.length; from += BATCH) {
      const batch = rows.slice(from, from + BATCH);
      const { vectors, ok } = await embedBatch(sharp, dataDir, batch, concurrency);
      stage(batch, vectors, ok);
    }
  }
}

/** A batch's vectors (rows × EMBEDDING_DIMS) and which rows have one, `lanes` sheets of SVG_SHEET in flight. */
export async function embedBatch(sharp: Sharp, dataDir: string, rows: readonly EmbedRow[], lanes: number): Promise<{ vectors: Float32Array; ok: Uint8Array }> {
  const vectors = new Float32Array(rows.length * EMBEDDING_DIMS);
  const ok = new Uint8Array(rows.length);
  let next = 0;
  const lane = async () => {
    while (next < rows.length) {
      const from = next;
      next += SVG_SHEET;
      const got = await embedCatalogueImages(sharp, dataDir, rows.slice(from, from + SVG_SHEET));
      got.forEach((v, k) => {
        if (!v) return;
        vectors.set(v, (from + k) * EMBEDDING_DIMS);
        ok[from + k] = 1;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
  return { vectors, ok };
}

/** Rows handed to the workers by `startEmbedding`, before the caller goes on with other work. */
const HEAD_START_ROWS = 100_000;

/**
 * Worker threads (embed-worker.ts) that embed batches of rows, each with its own sharp. Batches
 * are numbered as they are sent, in artwork order, and staged in that order whatever order they
 * come back in, so the output does not depend on the timing.
 */
class EmbedPool {
  private readonly workers: Worker[] = [];
  private readonly outstanding: number[] = [];
  private readonly sent = new Map<number, { rows: EmbedRow[]; worker: number }>();
  private readonly back = new Map<number, { vectors: Float32Array; ok: Uint8Array }>();
  private nextId = 0;
  private nextStaged = 0;
  private error: Error | null = null;
  private wake: (() => void) | null = null;
  /** The last artwork id sent (rows after it are still to be read). */
  lastSent = Number.MIN_SAFE_INTEGER;
  /** Rows the workers have embedded so far (staged or not), and who hears of each batch back (progress). */
  finished = 0;
  onFinished: ((rows: number) => void) | null = null;
  readonly started = performance.now();

  constructor(dataDir: string, count: number) {
    // Loads sharp here first: in the binary that writes libvips under <data>/lib once, before the
    // workers (threads of one process, one pid) would each write it.
    loadSharp(dataDir);
    for (let w = 0; w < count; w++) {
      const worker = new Worker(workerEntry("pipeline/images/embed-worker.ts"));
      worker.onmessage = (event: MessageEvent) => {
        const msg = event.data as { batch: number; vectors?: Float32Array; ok?: Uint8Array; error?: string };
        if (msg.error !== undefined) this.error ??= new Error(`embedding worker: ${msg.error}`);
        else {
          this.back.set(msg.batch, { vectors: msg.vectors!, ok: msg.ok! });
          const sent = this.sent.get(msg.batch)!;
          this.outstanding[sent.worker]!--;
          this.finished += sent.rows.length;
          this.onFinished?.(this.finished);
        }
        this.wake?.();
      };
      worker.onerror = (event: ErrorEvent) => {
        this.error ??= new Error(`embedding worker: ${event.message}`);
        this.wake?.();
      };
      worker.postMessage({ dataDir });
      this.workers.push(worker);
      this.outstanding.push(0);
    }
  }

  /** Sends rows (in artwork order, after those sent before) in batches to the least busy workers. */
  send(rows: EmbedRow[]): void {
    for (let from = 0; from < rows.length; from += BATCH) {
      const batch = rows.slice(from, from + BATCH);
      let w = 0;
      for (let k = 1; k < this.workers.length; k++) if (this.outstanding[k]! < this.outstanding[w]!) w = k;
      const id = this.nextId++;
      this.sent.set(id, { rows: batch, worker: w });
      this.outstanding[w]!++;
      this.workers[w]!.postMessage({ batch: id, rows: batch });
    }
    if (rows.length > 0) this.lastSent = rows[rows.length - 1]!.artwork_id;
  }

  /**
   * Stages every batch sent, in order, and sends the rest of the market's images as workers
   * free up (QUEUED batches each), reading them a page at a time.
   */
  async drain(db: Database, stage: Staged, unstaged = false): Promise<void> {
    const pages = imagePages(db, "artworks", this.lastSent, PAGE, unstaged);
    let page: EmbedRow[] = [];
    let exhausted = false;
    const topUp = () => {
      while (!exhausted && this.outstanding.some((n) => n < QUEUED)) {
        if (page.length === 0) {
          const r = pages.next();
          if (r.done) {
            exhausted = true;
            return;
          }
          page = r.value;
        }
        this.send(page.splice(0, BATCH));
      }
    };
    for (;;) {
      if (this.error) throw this.error;
      while (this.back.has(this.nextStaged)) {
        const r = this.back.get(this.nextStaged)!;
        stage(this.sent.get(this.nextStaged)!.rows, r.vectors, r.ok);
        this.back.delete(this.nextStaged);
        this.sent.delete(this.nextStaged);
        this.nextStaged++;
      }
      topUp();
      if (exhausted && this.nextStaged === this.nextId) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        if (this.error || this.back.has(this.nextStaged)) resolve();
      });
      this.wake = null;
    }
  }

  close(): void {
    for (const worker of this.workers) worker.terminate();
    this.workers.length = 0;
  }
}

/** Embedding under way: `embedMarket(…, { started })` takes it over. */
export interface StartedEmbedding {
  /** Stops the workers (when the snapshot is abandoned before embedMarket ran). */
  cancel(): void;
}

/**
 * Starts embedding a market's images on worker threads, and returns at once: the first
 * HEAD_START_ROWS images go to the workers now, so they draw and embed while this thread goes on
 * (the derivation and the read indexes, which run in SQLite on this thread and leave a core
 * free). Their results wait in the message queue until `embedMarket(db, dataDir, …, { started })`
 * stages them and embeds the rest. The source tables must not change in between. Null when
 * there is nothing worth a worker thread (then embedMarket does it all).
 */
export function startEmbedding(db: Database, dataDir: string, options: Pick<EmbedMarketOptions, "workers"> & { headStart?: number } = {}): StartedEmbedding | null {
  const total = (db.query("SELECT count(*) AS n FROM src_artworks a JOIN images i ON i.id = a.image_id").get() as { n: number }).n;
  const workers = options.workers ?? (total >= MIN_IMAGES_FOR_WORKERS ? Math.max(1, availableParallelism()) : 0);
  if (workers === 0 || total === 0) return null;
  const pool = new EmbedPool(dataDir, workers);
  let sent = 0;
  // whole batches: a picture's sheet (16 in artwork order) must not depend on where a page ends
  const pageRows = Math.min(PAGE, Math.ceil((options.headStart ?? PAGE) / BATCH) * BATCH);
  for (const page of imagePages(db, "src_artworks", Number.MIN_SAFE_INTEGER, pageRows)) {
    pool.send(page);
    sent += page.length;
    if (sent >= (options.headStart ?? HEAD_START_ROWS)) break;
  }
  const started = { cancel: () => pool.close(), pool };
  return started;
}

/**
 * Copies into embed_stage.vectors the previous snapshot's vectors that a full embedding would
 * give again (EmbedMarketOptions.reuse), then embeds one sheet of them afresh: if a vector
 * differs in any byte (another painter, another embedding), the copies are dropped and
 * everything is embedded.
 *
 * Procedural pictures are drawn SVG_SHEET to a sheet in artwork order, and a picture's last bits
 * depend on where in its sheet it is drawn (and beside what). So a vector is reused sheet by
 * sheet: a sheet of the new market whose every picture is the same (artwork id, artist, title,
 * kind, seed, path, size: what renderSvg draws from, and a file's content-hash name) at the same
 * place of one sheet of the previous market, and that sheet had no other picture. The pictures
 * of every other sheet are embedded, in their sheets as a full embedding draws them (the rows
 * left to embed are whole sheets in artwork order). New works appended after the last id touch
 * the last sheet and their own; a work gaining or losing its picture in the middle moves every
 * later picture to another place and so re-embeds the rest of the market.
 */
async function stageReused(db: Database, dataDir: string, previous: string): Promise<{ reused: number; reuseCheck: { checked: number; matched: boolean } | null }> {
  if (!existsSync(previous)) return { reused: 0, reuseCheck: null };
  db.run("ATTACH DATABASE ? AS embed_prev", [previous]);
  try {
    const has = (name: string) => db.query("SELECT 1 FROM embed_prev.sqlite_master WHERE name = ?").get(name) != null;
    if (!has("artworks") || !has("images") || !has(IMAGE_INDEX.name) || !has(`${IMAGE_INDEX.name}_ivf`)) return { reused: 0, reuseCheck: null };
    const dims = db.query<{ value: string }, []>(`SELECT value FROM embed_prev."${IMAGE_INDEX.name}_ivf" WHERE key = 'dims'`).get();
    if (Number(dims?.value) !== EMBEDDING_DIMS) return { reused: 0, reuseCheck: null };
    db.run("CREATE TABLE embed_stage.keep (artwork_id INTEGER PRIMARY KEY, artist_id INTEGER NOT NULL, category_id INTEGER NOT NULL, sheet INTEGER NOT NULL)");
    db.run(
      `INSERT INTO embed_stage.keep (artwork_id, artist_id, category_id, sheet)
       WITH n AS (SELECT a.id, a.artist_id, a.category_id, a.title, i.kind, i.seed, i.path, i.width, i.height, row_number() OVER (ORDER BY a.id) - 1 AS r
                    FROM artworks a JOIN images i ON i.id = a.image_id),
            o AS MATERIALIZED (SELECT a.id, a.artist_id, a.title, i.kind, i.seed, i.path, i.width, i.height, row_number() OVER (ORDER BY a.id) - 1 AS r
                    FROM embed_prev.artworks a JOIN embed_prev.images i ON i.id = a.image_id),
            osize AS (SELECT r / ${SVG_SHEET} AS sheet, count(*) AS size FROM o GROUP BY r / ${SVG_SHEET}),
            m AS (SELECT n.id, n.artist_id, n.category_id, n.r / ${SVG_SHEET} AS sheet, o.r / ${SVG_SHEET} AS osheet,
                         coalesce(o.artist_id = n.artist_id AND o.title IS n.title AND o.kind = n.kind AND o.seed IS n.seed AND o.path IS n.path
                                  AND o.width = n.width AND o.height = n.height AND o.r % ${SVG_SHEET} = n.r % ${SVG_SHEET}, 0) AS same
                    FROM n LEFT JOIN o ON o.id = n.id),
            clean AS (SELECT sheet, min(osheet) AS osheet, count(*) AS size FROM m GROUP BY sheet HAVING min(same) = 1 AND min(osheet) = max(osheet))
       SELECT m.id, m.artist_id, m.category_id, m.sheet FROM m JOIN clean ON clean.sheet = m.sheet JOIN osize ON osize.sheet = clean.osheet AND osize.size = clean.size`,
    );
    // one pass over the old index (CROSS JOIN: the vec0 table outside, each row looked up in keep)
    db.run(
      `INSERT INTO embed_stage.vectors (artwork_id, artist_id, category_id, vector)
       SELECT k.artwork_id, k.artist_id, k.category_id, v.embedding
         FROM embed_prev."${IMAGE_INDEX.name}" v CROSS JOIN embed_stage.keep k ON k.artwork_id = v.id`,
    );
    // a sheet with a picture the previous snapshot could not read (a missing file) is embedded again, whole
    db.run(
      `DELETE FROM embed_stage.keep WHERE sheet IN (SELECT k.sheet FROM embed_stage.keep k
        WHERE NOT EXISTS (SELECT 1 FROM embed_stage.vectors s WHERE s.artwork_id = k.artwork_id))`,
    );
    db.run("DELETE FROM embed_stage.vectors WHERE artwork_id NOT IN (SELECT artwork_id FROM embed_stage.keep)");
    const reused = (db.query("SELECT count(*) AS n FROM embed_stage.vectors").get() as { n: number }).n;
    if (reused === 0) {
      db.run("DROP TABLE embed_stage.keep");
      return { reused: 0, reuseCheck: null };
    }
    // the middle reused sheet, drawn again as one sheet
    const sample = db
      .query<EmbedRow & { vector: Uint8Array }, []>(
        `SELECT a.id AS artwork_id, a.artist_id, a.category_id, i.kind, i.seed, i.path, i.width, i.height, a.title, s.vector
           FROM embed_stage.keep k JOIN embed_stage.vectors s ON s.artwork_id = k.artwork_id JOIN artworks a ON a.id = k.artwork_id JOIN images i ON i.id = a.image_id
          WHERE k.sheet = (SELECT sheet FROM embed_stage.keep ORDER BY sheet LIMIT 1 OFFSET (SELECT count(*) / 2 FROM embed_stage.keep))
          ORDER BY a.id`,
      )
      .all();
    db.run("DROP TABLE embed_stage.keep");
    const fresh = await embedCatalogueImages(loadSharp(dataDir), dataDir, sample);
    const matched =
      sample.length > 0 &&
      sample.every((r, k) => {
        const v = fresh[k];
        return v != null && Buffer.from(v.buffer, v.byteOffset, v.byteLength).equals(Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength));
      });
    if (!matched) db.run("DELETE FROM embed_stage.vectors");
    return { reused: matched ? reused : 0, reuseCheck: { checked: sample.length, matched } };
  } finally {
    db.run("DETACH DATABASE embed_prev");
  }
}

/**
 * Embeds the market's images and builds both indexes into `db` (a writable market database,
 * after derivation: the artist index reads artist_charts). Replaces indexes built before.
 */
export async function embedMarket(
  db: Database,
  dataDir: string,
  onProgress?: (phase: EmbedPhase, done: number, total: number) => void,
  options: EmbedMarketOptions = {},
): Promise<EmbedMarketSummary> {
  const t0 = performance.now();
  const stagePath = join(dataDir, `embeddings.building-${process.pid}`);
  rmSync(stagePath, { force: true });
  db.run("ATTACH DATABASE ? AS embed_stage", [stagePath]);
  try {
    db.run("PRAGMA embed_stage.journal_mode = OFF");
    db.run("PRAGMA embed_stage.synchronous = OFF");
    db.run("CREATE TABLE embed_stage.vectors (artwork_id INTEGER PRIMARY KEY, artist_id INTEGER NOT NULL, category_id INTEGER NOT NULL, vector BLOB NOT NULL)");

    const all = (db.query("SELECT count(*) AS n FROM artworks a JOIN images i ON i.id = a.image_id").get() as { n: number }).n;
    if (options.reuse && options.started) throw new Error("embedMarket: reuse and started exclude each other");
    const { reused, reuseCheck } = options.reuse ? await stageReused(db, dataDir, options.reuse) : { reused: 0, reuseCheck: null };
    const unstaged = reused > 0;
    // the images to embed now
    const total = all - reused;
    const ins = db.query("INSERT INTO embed_stage.vectors (artwork_id, artist_id, category_id, vector) VALUES (?, ?, ?, ?)");
    let done = 0,
      failed = 0;
    const stage: Staged = (rows, vectors, ok) => {
      db.transaction(() => {
        rows.forEach((row, i) => {
          if (!ok[i]) return void failed++;
          const v = vectors.subarray(i * EMBEDDING_DIMS, (i + 1) * EMBEDDING_DIMS);
          ins.run(row.artwork_id, row.artist_id, row.category_id, new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
        });
      })();
      done += rows.length;
      if (!pooled) onProgress?.("embed images", done, total);
    };
    const workers = options.workers ?? (total >= MIN_IMAGES_FOR_WORKERS ? Math.max(1, availableParallelism()) : 0);
    const started = options.started as (StartedEmbedding & { pool: EmbedPool }) | null | undefined;
    let embedStart = t0;
    const pooled = Boolean(started || (workers > 0 && total > 0));
    if (pooled) {
      const pool = started?.pool ?? new EmbedPool(dataDir, workers);
      embedStart = Math.min(t0, pool.started);
      // progress as the workers finish batches (those done beside the derivation count at once)
      pool.onFinished = (rows) => onProgress?.("embed images", Math.min(rows, total), total);
      pool.onFinished(pool.finished);
      try {
        await pool.drain(db, stage, unstaged);
      } finally {
        pool.onFinished = null;
        pool.close();
      }
    } else if (total > 0) await embedInProcess(db, dataDir, Math.max(1, options.concurrency ?? Math.max(2, availableParallelism())), stage, unstaged);
    onProgress?.("embed images", done, total);
    const embedSeconds = (performance.now() - embedStart) / 1000;
    const waitedSeconds = (performance.now() - t0) / 1000;

    const staged = all - failed;
    const source = function* (): Iterable<VectorRow> {
      const st = db.query<{ artwork_id: number; artist_id: number; category_id: number; vector: Uint8Array }, []>(
        "SELECT artwork_id, artist_id, category_id, vector FROM embed_stage.vectors ORDER BY artwork_id",
      );
      for (const r of st.iterate()) {
        yield { id: r.artwork_id, vector: new Float32Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength / 4), meta: [r.artist_id, r.category_id] };
      }
    };
    const imageIndex = buildVectorIndex(db, IMAGE_INDEX, source, {
      nlist: options.nlist,
      nprobe: options.nprobe,
      onProgress: (phase, d) => phase === "insert" && onProgress?.("index images", d, staged),
    });
    onProgress?.("index images", staged, staged);

    let artistIndex: BuildSummary | null = null;
    const hasCharts = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'artist_charts'").get() != null;
    if (hasCharts) {
      const artists = (db.query("SELECT count(*) AS n FROM artist_charts").get() as { n: number }).n;
      artistIndex = buildArtistIndex(db, { onProgress: (phase, d) => phase === "insert" && onProgress?.("index artists", d, artists) });
      onProgress?.("index artists", artists, artists);
    }
    return {
      images: staged,
      reused,
      embedded: total - failed,
      reuseCheck,
      failed,
      embedSeconds,
      waitedSeconds,
      imagesPerSecond: total / Math.max(1e-9, embedSeconds),
      imageIndex,
      artistIndex,
      seconds: (performance.now() - t0) / 1000,
    };
  } finally {
    db.run("DETACH DATABASE embed_stage");
    rmSync(stagePath, { force: true });
  }
}
