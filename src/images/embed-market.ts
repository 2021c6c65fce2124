/**
 * Embeds every artwork image of a market and builds the two vector indexes (src/images/vector-index.ts):
 * `image_vectors` (one row per artwork with an image, id = artwork id, metadata artist_id and
 * category_id) and `artist_vectors` (artist_index_vector from artist_charts).
 *
 * Procedural originals are drawn from their SVG straight at the embedding canvas (sharp's density,
 * never at full size); "file" originals are read from <data>/images/orig/<path>. Images are embedded
 * a few at a time (sharp works on its own threads), written to a staging database next to the
 * market (attached, deleted at the end: the vectors are read twice by the index build, and a
 * large market's vectors do not have to fit in memory), then indexed.
 *
 * Deterministic: the same market gives the same vectors and the same index (the k-means sample
 * and initial centroids come from a fixed seed; rows are read in artwork order).
 */
import type { Database } from "bun:sqlite";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { loadSharp, type Sharp } from "../platform/native";
import { embedImage, embedPixels, embeddingRaster, EMBEDDING_DIMS } from "./embedding";
import { renderSvg } from "./procedural";
import { buildArtistIndex, buildVectorIndex, imageIndexSpec, type BuildSummary, type VectorRow } from "./vector-index";

export const IMAGE_INDEX = imageIndexSpec(EMBEDDING_DIMS);

export type EmbedPhase = "embed images" | "index images" | "index artists";

export interface EmbedMarketOptions {
  /** Images in flight (default: the number of CPUs, at least 2). */
  concurrency?: number;
  /** Build options of the image index (nlist, nprobe… ; defaults from vector-index). */
  nlist?: number;
  nprobe?: number;
}

export interface EmbedMarketSummary {
  images: number;
  /** Images that could not be read or decoded (left out of the index). */
  failed: number;
  embedSeconds: number;
  imagesPerSecond: number;
  imageIndex: BuildSummary;
  artistIndex: BuildSummary | null;
  seconds: number;
}

interface ImageRow {
  artwork_id: number;
  artist_id: number;
  category_id: number;
  kind: string;
  seed: number | null;
  path: string | null;
  width: number;
  height: number;
}

/** The embedding of one catalogue image (null when a file original is missing or unreadable). */
export async function embedCatalogueImage(sharp: Sharp, dataDir: string, row: Pick<ImageRow, "artist_id" | "kind" | "seed" | "path" | "width" | "height">): Promise<Float32Array | null> {
  if (row.kind === "procedural") {
    const svg = renderSvg({ artistId: row.artist_id, seed: row.seed ?? 0, width: row.width, height: row.height });
    return embedImage(sharp, { svg, width: row.width, height: row.height });
  }
  if (!row.path) return null;
  const file = join(dataDir, "images", "orig", row.path);
  if (!existsSync(file)) return null;
  try {
    const raster = await embeddingRaster(sharp, readFileSync(file));
    return embedPixels(raster.data, raster.width, raster.height);
  } catch {
    return null;
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
  const sharp = loadSharp(dataDir);
  const stagePath = join(dataDir, `embeddings.building-${process.pid}`);
  rmSync(stagePath, { force: true });
  db.run("ATTACH DATABASE ? AS embed_stage", [stagePath]);
  try {
    db.run("PRAGMA embed_stage.journal_mode = OFF");
    db.run("PRAGMA embed_stage.synchronous = OFF");
    db.run("CREATE TABLE embed_stage.vectors (artwork_id INTEGER PRIMARY KEY, artist_id INTEGER NOT NULL, category_id INTEGER NOT NULL, vector BLOB NOT NULL)");

    const rows = db
      .query<ImageRow, []>(
        `SELECT a.id AS artwork_id, a.artist_id, a.category_id, i.kind, i.seed, i.path, i.width, i.height
           FROM src_artworks a JOIN images i ON i.id = a.image_id
          ORDER BY a.id`,
      )
      .all();
    const total = rows.length;
    const ins = db.query("INSERT INTO embed_stage.vectors (artwork_id, artist_id, category_id, vector) VALUES (?, ?, ?, ?)");
    const pending: [number, number, number, Uint8Array][] = [];
    const flush = () => {
      if (pending.length === 0) return;
      db.transaction(() => {
        for (const p of pending) ins.run(...p);
      })();
      pending.length = 0;
    };
    let next = 0, done = 0, failed = 0;
    const concurrency = Math.max(1, options.concurrency ?? Math.max(2, availableParallelism()));
    const worker = async () => {
      while (next < total) {
        const row = rows[next++]!;
        const v = await embedCatalogueImage(sharp, dataDir, row);
        if (v) pending.push([row.artwork_id, row.artist_id, row.category_id, new Uint8Array(v.buffer, v.byteOffset, v.byteLength)]);
        else failed++;
        if (pending.length >= 1000) flush();
        if (++done % 250 === 0 || done === total) onProgress?.("embed images", done, total);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    flush();
    const embedSeconds = (performance.now() - t0) / 1000;

    const staged = total - failed;
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
      failed,
      embedSeconds,
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
