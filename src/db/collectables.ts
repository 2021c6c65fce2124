/**
 * Collectables as other parts of the service need them, without the collectables module: the
 * search-by-image endpoint uses a collectable's embedding as its anchor.
 */
import type { Database } from "bun:sqlite";

/**
 * The image embedding of one of `userId`'s collectables.
 * - `undefined`: no such collectable, or it belongs to another user (the caller answers 404);
 * - `null`: the collectable has no image embedding (no image of its own, and none taken from its
 *   suggested market artwork when it was created or its image was last set);
 * - otherwise the vector (Float32, the dimension of src/images/embedding.ts).
 * The embedding stored is the one of the collectable's current image: an uploaded image is embedded
 * on upload; an image seeded from a market artwork carries that artwork's image vector.
 */
export function collectableEmbedding(account: Database, userId: number, collectableId: number): Float32Array | null | undefined {
  const st = account.prepare<{ embedding: Uint8Array | null }, [number, number]>("SELECT embedding FROM collectables WHERE id = ? AND user_id = ?");
  try {
    const row = st.get(collectableId, userId);
    if (!row) return undefined;
    return row.embedding ? toVector(row.embedding) : null;
  } finally {
    st.finalize();
  }
}

/** Float32 little-endian bytes → a vector with its own buffer (aligned, detached from SQLite's). */
export function toVector(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
}

/** A vector as the bytes stored in the embedding column. */
export function vectorBytes(v: Float32Array): Uint8Array {
  return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}
