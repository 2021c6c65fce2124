/**
 * A worker thread of `embedMarket` (embed-market.ts): it embeds batches of catalogue images with
 * its own sharp and posts the vectors back, one message per batch, in the order of the batch.
 * Each worker keeps two images in flight, so its JavaScript (drawing the SVG document, the
 * features of the pixels) runs while sharp rasterises the other image on its own thread.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts): a `bun build --compile`
 * binary only holds the workers it was told about.
 *
 * Messages in:  { dataDir } once, then { batch, rows: EmbedRow[] }.
 * Messages out: { batch, vectors: Float32Array (rows × EMBEDDING_DIMS), ok: Uint8Array (1 per
 *               embedded row, 0 when the image could not be read) } or { batch, error }.
 */
import { loadSharp, type Sharp } from "../platform/native";
import { embedCatalogueImage, type EmbedRow } from "./embed-market";
import { EMBEDDING_DIMS } from "./embedding";

declare const self: Worker;

const IN_FLIGHT = 2;
let dataDir = "";
let sharp: Sharp | null = null;

async function embedBatch(rows: EmbedRow[]): Promise<{ vectors: Float32Array; ok: Uint8Array }> {
  sharp ??= loadSharp(dataDir);
  const vectors = new Float32Array(rows.length * EMBEDDING_DIMS);
  const ok = new Uint8Array(rows.length);
  let next = 0;
  const lane = async () => {
    while (next < rows.length) {
      const i = next++;
      const v = await embedCatalogueImage(sharp!, dataDir, rows[i]!);
      if (v) {
        vectors.set(v, i * EMBEDDING_DIMS);
        ok[i] = 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, rows.length) }, lane));
  return { vectors, ok };
}

// Batches are handled one after the other (the pool keeps two queued per worker).
let chain: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent) => {
  const msg = event.data as { dataDir?: string; batch?: number; rows?: EmbedRow[] };
  if (typeof msg.dataDir === "string") {
    dataDir = msg.dataDir;
    return;
  }
  const batch = msg.batch!;
  const rows = msg.rows!;
  chain = chain.then(async () => {
    try {
      const { vectors, ok } = await embedBatch(rows);
      self.postMessage({ batch, vectors, ok }, { transfer: [vectors.buffer as ArrayBuffer, ok.buffer as ArrayBuffer] });
    } catch (err) {
      self.postMessage({ batch, error: err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err) });
    }
  });
};
