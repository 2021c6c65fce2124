/**
 * A worker thread of `embedMarket` (embed-market.ts): it embeds batches of catalogue images with
 * its own sharp and posts the vectors back, one message per batch, in the order of the batch.
 * Each worker keeps two sheets of pictures in flight, so its JavaScript (drawing the SVG
 * documents, the features of the pixels) runs while sharp rasterises the other sheet on its own
 * thread.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts): a `bun build --compile`
 * binary only holds the workers it was told about.
 *
 * Messages in:  { dataDir } once, then { batch, rows: EmbedRow[] }.
 * Messages out: { batch, vectors: Float32Array (rows × EMBEDDING_DIMS), ok: Uint8Array (1 per
 *               embedded row, 0 when the image could not be read) } or { batch, error }.
 */
import { loadSharp, type Sharp } from "../../platform/native";
import { embedBatch, type EmbedRow } from "./embed-market";

declare const self: Worker;

const IN_FLIGHT = 2;
let dataDir = "";
let sharp: Sharp | null = null;

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
      sharp ??= loadSharp(dataDir);
      const { vectors, ok } = await embedBatch(sharp, dataDir, rows, IN_FLIGHT);
      self.postMessage({ batch, vectors, ok }, { transfer: [vectors.buffer as ArrayBuffer, ok.buffer as ArrayBuffer] });
    } catch (err) {
      self.postMessage({ batch, error: err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err) });
    }
  });
};
