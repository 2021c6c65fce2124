/**
 * A collectable's image: uploads stored under <data>/images/collectables/<key> with their
 * embedding, replacing one, removing the files; and the market's image vectors the comps and the
 * create form use. The original's bytes also go to the account store (`saveImageOriginal`: kept
 * by PostgreSQL, so that another node without the file can draw renditions from them, see
 * src/serve/images/renditions.ts; nothing with account.db), and leave it with the files.
 */
import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { vectorBytes } from "../../../db/collectables";
import { IMAGE_INDEX } from "../../../images/indexes";
import { embedImage } from "../../../images/embedding";
import type { VectorIndex } from "../../../images/vector-index";
import { loadSharp } from "../../../platform/native";

import { snapshotOf } from "../../snapshot";
import type { AppDeps } from "../../deps";
import { cacheDir, collectableImageDir } from "../../images/renditions";
import { getCollectable, ownCollectable, type PresentedCollectable } from "./presentation";

/** The image vector index of the market, or null when the snapshot has none. */
export function imageIndex(market: Database): VectorIndex | null {
  return snapshotOf(market).vectorIndex(IMAGE_INDEX);
}

export function cosine(a: Float32Array, b: Float32Array): number | null {
  if (a.length !== b.length || a.length === 0) return null;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  if (na === 0 || nb === 0) return null;
  return Math.round((dot / Math.sqrt(na * nb)) * 1e6) / 1e6;
}

export interface StoredImage {
  key: string;
  width: number;
  height: number;
  embedding: Float32Array;
}

function newImageKey(): string {
  return `c${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex")}`;
}

/** Embeds a checked upload and writes its original under <data>/images/collectables/<key>. */
export async function storeImage(deps: AppDeps, bytes: Uint8Array, width: number, height: number): Promise<StoredImage> {
  const embedding = await embedImage(loadSharp(deps.config.dataDir), bytes);
  const key = newImageKey();
  const dir = collectableImageDir(deps.config.dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, key);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
  try {
    deps.accounts.saveImageOriginal(key, bytes);
  } catch (err) {
    rmSync(file, { force: true }); // no row names the key yet
    throw err;
  }
  return { key, width, height, embedding };
}

/** Removes an uploaded original, its bytes in the store and its renditions (after the row no longer names it). */
export function removeImage(deps: AppDeps, key: string | null | undefined): void {
  if (!key) return;
  try {
    deps.accounts.deleteImageOriginal(key);
  } catch {
    // bytes left behind are harmless: nothing names the key any more
  }
  try {
    rmSync(join(collectableImageDir(deps.config.dataDir), key), { force: true });
    const cache = cacheDir(deps.config.dataDir, key);
    if (existsSync(cache)) rmSync(cache, { recursive: true, force: true });
  } catch {
    // a file left behind is harmless: nothing names it any more
  }
}

export function replaceImage(deps: AppDeps, userId: number, id: number, image: StoredImage, origin: string): PresentedCollectable {
  let old: string | null = null;
  try {
    const row = ownCollectable(deps, userId, id);
    old = row.image_key;
    deps.accounts.updateCollectable(
      userId,
      id,
      { image_kind: "upload", image_key: image.key, image_market_id: null, image_width: image.width, image_height: image.height, embedding: vectorBytes(image.embedding) },
      Date.now(),
    );
  } catch (err) {
    removeImage(deps, image.key);
    throw err;
  }
  removeImage(deps, old);
  return getCollectable(deps, userId, id, origin);
}
