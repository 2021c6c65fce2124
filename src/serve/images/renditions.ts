/**
 * Renditions: the JPEG of one image at one of the five widths, full or blurred, made with sharp on
 * first request and cached on disk.
 *
 * - Never cropped, never enlarged: the rendition is min(width, original width) wide at the
 *   original's aspect ratio (height rounded to the nearest pixel).
 * - Procedural originals (kind "procedural") are the SVG of src/images/procedural.ts, rasterised
 *   by librsvg straight at the target size (a density below 72 dpi, never a full-size pass).
 *   An artwork's image is renderSvg({ artistId, seed, width, height }); an artist's photo (a row
 *   with no artwork) is artistPhotoSvg(artistId, …), its seed column holding the artist id.
 * - File originals (kind "file") are read from <data>/images/orig/<path> (EXIF orientation applied);
 *   a collectable's uploaded image (kind "upload", named by its key "c…" instead of an id, looked up
 *   in the account store) from <data>/images/collectables/<key>. A node that lacks the file
 *   (another node took the upload) fetches the bytes from the store first (PostgreSQL keeps them)
 *   and keeps them there.
 * - The blurred preview (what callers without a key are given) is drawn from a tiny copy of the
 *   original (PREVIEW_LONG_SIDE px on its long side), blurred there and enlarged smoothly to the
 *   rendition's size: a strong Gaussian blur whose radius is proportional to the width, so every
 *   width shows the same picture, and no detail of the original is in the file to recover.
 * - Cache: <data>/images/cache/<id>/w<width>[-blur]-<version>.jpg, where <version> is
 *   RENDITION_VERSION plus a short hash of what the picture is drawn from (the image row, the
 *   artist, libvips' version). A change of the drawing code (bump RENDITION_VERSION), a re-seeded
 *   market or a new libvips therefore never serves an old file; stale siblings are removed when the
 *   new file is written. Files are written to a temporary name and renamed, so a reader (or another
 *   process) never sees half a file.
 * - Single flight: concurrent first requests for one rendition share one render (a map of
 *   in-flight promises keyed by the cache file).
 */
import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { loadSharp } from "../../platform/native";
import { artistPhotoSvg, renderSvg } from "../../images/procedural";
import type { AccountStore } from "../accounts/store";
import { snapshotOf } from "../snapshot";
import { WIDTHS, type Variant } from "./urls";

/** Bump when the drawing or encoding of renditions changes: old cache files are then ignored. */
export const RENDITION_VERSION = "r2";

/** JPEG settings: the sharp picture with mozjpeg (smaller files, made once); the preview plainer. */
export const JPEG_FULL = { quality: 82, mozjpeg: true, chromaSubsampling: "4:2:0" } as const;
export const JPEG_BLUR = { quality: 70, mozjpeg: false, chromaSubsampling: "4:2:0" } as const;

/** Long side of the tiny copy a blurred preview is enlarged from (the blur radius is long side / this, roughly). */
export const PREVIEW_LONG_SIDE = 48;
/** Gaussian sigma applied to the tiny copy, in its own pixels. */
const PREVIEW_SIGMA = 1.2;

export interface RenditionDeps {
  readonly market: Database;
  readonly dataDir: string;
  /** Where collectables' uploaded images are found: their sizes, and the originals PostgreSQL keeps. */
  readonly accounts: Pick<AccountStore, "uploadedImageSize" | "imageOriginal">;
}

export interface ImageRow {
  /** A market image id, or a collectable image key. */
  id: number | string;
  artwork_id: number | null;
  width: number;
  height: number;
  kind: string;
  seed: number | null;
  path: string | null;
  /** The artwork's artist (null for an artist photo, or an artwork missing from the market). */
  artist_id: number | null;
  /** The artwork's title (what a procedural picture shows); null without an artwork. */
  title: string | null;
}

/** Where a rendition lives and how it is named, known before it is drawn. */
export interface RenditionRef {
  readonly row: ImageRow;
  readonly width: number;
  readonly variant: Variant;
  /** Absolute path of the cache file. */
  readonly file: string;
  /** Strong ETag (quoted): the cache file's name, which names everything the bytes depend on. */
  readonly etag: string;
}

export interface Rendition extends RenditionRef {
  /** The bytes, when this call (or the flight it joined) drew them; otherwise read `file`. */
  readonly body: Uint8Array | null;
}

/** Counters, for tests and benchmarks: renders actually run, and cache hits. */
export const renditionStats = { renders: 0, hits: 0, joined: 0 };

const inflight = new Map<string, Promise<Uint8Array>>();
const IMAGE_SQL = `SELECT i.id, i.artwork_id, i.width, i.height, i.kind, i.seed, i.path, a.artist_id, a.title
         FROM images i LEFT JOIN artworks a ON a.id = i.artwork_id
        WHERE i.id = ?`;

function lookup(deps: RenditionDeps, imageId: number | string): ImageRow | null {
  if (typeof imageId === "string") return lookupCollectable(deps.accounts, imageId);
  // prepared once per connection, by its snapshot
  return snapshotOf(deps.market).statement<ImageRow, [number]>(IMAGE_SQL).get(imageId) ?? null;
}

/** A collectable's uploaded image by its key, asked of the account store (whoever owns it). */
function lookupCollectable(accounts: RenditionDeps["accounts"], key: string): ImageRow | null {
  const size = accounts.uploadedImageSize(key);
  if (!size) return null;
  return { id: key, artwork_id: null, width: size.width, height: size.height, kind: "upload", seed: null, path: key, artist_id: null, title: null };
}

export function isWidth(width: number): boolean {
  return (WIDTHS as readonly number[]).includes(width);
}

export function cacheDir(dataDir: string, imageId: number | string): string {
  return join(dataDir, "images", "cache", String(imageId));
}

export function origDir(dataDir: string): string {
  return join(dataDir, "images", "orig");
}

/** Where collectable originals live: <data>/images/collectables/<key>. */
export function collectableImageDir(dataDir: string): string {
  return join(dataDir, "images", "collectables");
}

let vipsVersion: string | null = null;

/** The version token of a row's renditions: RENDITION_VERSION and a hash of the picture's inputs. */
function versionToken(dataDir: string, row: ImageRow): string {
  vipsVersion ??= (loadSharp(dataDir) as unknown as { versions?: Record<string, string> }).versions?.vips ?? "?";
  const inputs = [row.kind, row.width, row.height, row.seed, row.path, row.artwork_id, row.artist_id, row.title, vipsVersion].join("|");
  return `${RENDITION_VERSION}.${createHash("sha256").update(inputs).digest("hex").slice(0, 10)}`;
}

/**
 * Finds the image and names its rendition, without drawing anything; null for an unknown image
 * (or a procedural artwork image whose artwork is gone). `width` must be one of WIDTHS.
 */
export function locateRendition(deps: RenditionDeps, imageId: number | string, width: number, variant: Variant): RenditionRef | null {
  if (!isWidth(width)) throw new RangeError(`not a rendition width: ${width}`);
  const row = lookup(deps, imageId);
  if (!row) return null;
  if (row.kind === "procedural" && row.artwork_id !== null && row.artist_id === null) return null;
  if (row.kind !== "procedural" && row.kind !== "file" && row.kind !== "upload") return null;
  const name = `w${width}${variant === "blur" ? "-blur" : ""}-${versionToken(deps.dataDir, row)}.jpg`;
  return { row, width, variant, file: join(cacheDir(deps.dataDir, imageId), name), etag: `"${imageId}-${name.slice(0, -4)}"` };
}

/**
 * The rendition of image `imageId` at `width` (one of WIDTHS), drawn on first request and cached;
 * null when there is no such image. Concurrent first requests share one render.
 */
export async function renderRendition(deps: RenditionDeps, imageId: number | string, width: number, variant: Variant): Promise<Rendition | null> {
  const ref = locateRendition(deps, imageId, width, variant);
  if (!ref) return null;
  return ensureRendition(deps, ref);
}

/** Draws `ref` unless its cache file is there (or being drawn). */
export async function ensureRendition(deps: RenditionDeps, ref: RenditionRef): Promise<Rendition> {
  const flying = inflight.get(ref.file);
  if (flying) {
    renditionStats.joined++;
    return { ...ref, body: await flying };
  }
  if (existsSync(ref.file)) {
    renditionStats.hits++;
    return { ...ref, body: null };
  }
  const job = draw(deps, ref).finally(() => inflight.delete(ref.file));
  inflight.set(ref.file, job);
  return { ...ref, body: await job };
}

/** The pixel size of a rendition: min(width, original width) wide, at the original's aspect ratio. */
export function renditionSize(origWidth: number, origHeight: number, width: number): { width: number; height: number } {
  const w = Math.max(1, Math.min(width, origWidth));
  return { width: w, height: Math.max(1, Math.round((w * origHeight) / origWidth)) };
}

/** The tiny copy's size for a blurred preview: PREVIEW_LONG_SIDE on the long side, never above the target. */
function previewSize(w: number, h: number): { width: number; height: number } {
  const k = Math.min(1, PREVIEW_LONG_SIDE / Math.max(w, h));
  return { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)) };
}

type SharpInstance = ReturnType<ReturnType<typeof loadSharp>>;

async function draw(deps: RenditionDeps, ref: RenditionRef): Promise<Uint8Array> {
  renditionStats.renders++;
  const sharp = loadSharp(deps.dataDir);
  const { row } = ref;

  // The original as a sharp pipeline at a given size, plus its own size.
  let origW = row.width;
  let origH = row.height;
  let at: (w: number, h: number) => SharpInstance;
  if (row.kind === "procedural") {
    const svg = Buffer.from(
      row.artwork_id === null
        ? artistPhotoSvg(row.seed ?? 0, row.width, row.height)
        : renderSvg({ artistId: row.artist_id ?? 0, seed: row.seed ?? 0, width: row.width, height: row.height, title: row.title }),
    );
    // librsvg draws the original-size SVG at density 72·w/W: straight at the target size.
    at = (w, h) => sharp(svg, { density: Math.max(1, (72 * w) / origW) }).resize(w, h, { fit: "fill" });
  } else {
    const root = resolve(row.kind === "upload" ? collectableImageDir(deps.dataDir) : origDir(deps.dataDir));
    const file = resolve(root, row.path ?? "");
    if (!row.path || !file.startsWith(root + sep)) throw new Error(`image ${row.id}: bad original path ${JSON.stringify(row.path)}`);
    if (row.kind === "upload" && !existsSync(file)) fetchOriginal(deps.accounts, row.path, file);
    const meta = await sharp(file).metadata();
    const swap = (meta.orientation ?? 1) >= 5;
    origW = (swap ? meta.height : meta.width) ?? row.width;
    origH = (swap ? meta.width : meta.height) ?? row.height;
    at = (w, h) => sharp(file).rotate().resize(w, h, { fit: "fill" });
  }

  const size = renditionSize(origW, origH, ref.width);
  let out: Buffer;
  if (ref.variant === "blur") {
    const tiny = previewSize(size.width, size.height);
    const small = await at(tiny.width, tiny.height).flatten({ background: "#ffffff" }).blur(PREVIEW_SIGMA).raw().toBuffer({ resolveWithObject: true });
    out = await sharp(small.data, { raw: small.info }).resize(size.width, size.height, { fit: "fill", kernel: "cubic" }).jpeg(JPEG_BLUR).toBuffer();
  } else {
    out = await at(size.width, size.height).flatten({ background: "#ffffff" }).jpeg(JPEG_FULL).toBuffer();
  }

  const dir = cacheDir(deps.dataDir, row.id);
  mkdirSync(dir, { recursive: true });
  const tmp = `${ref.file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await Bun.write(tmp, out);
  renameSync(tmp, ref.file);
  removeStale(dir, ref);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * Writes an uploaded original this node lacks from the bytes the account store keeps (the
 * PostgreSQL store; the upload was taken by another node), to a temporary name then renamed.
 * Nothing when the store has none (the SQLite store never has): reading the file then fails as for
 * any missing original.
 */
function fetchOriginal(accounts: RenditionDeps["accounts"], key: string, file: string): void {
  const bytes = accounts.imageOriginal(key);
  if (!bytes) return;
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
}

/** Removes older versions of the same rendition (same width and variant, another version token). */
function removeStale(dir: string, ref: RenditionRef): void {
  const prefix = `w${ref.width}${ref.variant === "blur" ? "-blur" : ""}-`;
  const keep = ref.file.slice(dir.length + 1);
  try {
    for (const other of readdirSync(dir)) {
      // "w768-<token>.jpg" only: the token has no "-", so "w768-" never matches "w768-blur-…".
      if (other === keep || !other.startsWith(prefix) || !/^[^-]+\.jpg$/.test(other.slice(prefix.length))) continue;
      try {
        unlinkSync(join(dir, other));
      } catch {
        // another process got there first
      }
    }
  } catch {
    // a missing directory has nothing stale
  }
}
