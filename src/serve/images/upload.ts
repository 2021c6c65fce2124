/**
 * Checks on an uploaded (or fetched) image before anything decodes it in full: search by image,
 * collectable image uploads. docs/images.md ("Uploaded images") lists the rules and status codes.
 *
 * 1. size: at most MAX_UPLOAD_BYTES, else 413;
 * 2. type: sniffed from the magic bytes (JPEG, PNG, WebP, GIF, TIFF), whatever the file name or
 *    the declared Content-Type say; anything else (text, HTML, SVG, PDF, …) is 422 (type
 *    image_type): the spec's status for a validation error;
 * 3. pixels: width × height read from the header (sharp's metadata, no decode) at most
 *    MAX_UPLOAD_PIXELS, else 422: a small file that would decode to gigabytes (a decompression
 *    bomb) never reaches the decoder;
 * 4. integrity: a decode at a small size with failOn "truncated" and limitInputPixels set, so a
 *    truncated or corrupt file is a 422 here rather than a grey picture later.
 *
 * 422s carry the spec's detail array at `loc` (default ["body", "image"]).
 */
import type { Sharp } from "../../platform/native";
import { HttpError, issue, ValidationFailed } from "../http/errors";
import type { FilePart } from "../http/multipart";

/** Largest accepted image file: 20 MiB. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Largest accepted picture: 64 megapixels (8000 × 8000; a 45-megapixel camera frame fits). */
export const MAX_UPLOAD_PIXELS = 64_000_000;
/** Long side of the integrity decode (cheap: JPEG shrinks on load). */
const CHECK_SIZE = 64;

export type UploadFormat = "jpeg" | "png" | "webp" | "gif" | "tiff";

/** Accepted formats and their media types, in the order the docs list them. */
export const UPLOAD_TYPES: Readonly<Record<UploadFormat, string>> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  tiff: "image/tiff",
};
export const UPLOAD_MEDIA_TYPES: readonly string[] = Object.values(UPLOAD_TYPES);

export interface CheckedImage {
  format: UploadFormat;
  /** Media type of the sniffed format. */
  type: string;
  width: number;
  height: number;
  bytes: Uint8Array;
}

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image format of `bytes` by its magic number, or null. */
export function sniffImage(bytes: Uint8Array): UploadFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  return null;
}

/** What the bytes look like when they are not an accepted image (for the image_type message). */
function describe(bytes: Uint8Array): string {
  const head = new TextDecoder().decode(bytes.subarray(0, 256)).trimStart().toLowerCase();
  if (head.startsWith("<svg") || (head.startsWith("<?xml") && head.includes("<svg"))) return "an SVG document (not accepted)";
  if (head.startsWith("<!doctype html") || head.startsWith("<html")) return "an HTML document";
  if (head.startsWith("%pdf")) return "a PDF document";
  if (startsWith(bytes, [0x00, 0x00, 0x00]) && startsWith(bytes, ascii("ftyp"), 4)) return "a HEIF/AVIF/MP4 container (not accepted)";
  const printable = bytes.subarray(0, 512).every((c) => c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127) || c >= 128);
  return printable ? "text" : "unknown binary data";
}

/**
 * Checks an image's bytes (see the file comment): 413 when too large, 422 at `loc` when empty, not
 * a JPEG, PNG, WebP, GIF or TIFF (image_type), larger than MAX_UPLOAD_PIXELS, or unreadable
 * (truncated, corrupt). Resolves to the sniffed format and the pixel size.
 */
export async function checkUpload(bytes: Uint8Array, sharp: Sharp, loc: (string | number)[] = ["body", "image"]): Promise<CheckedImage> {
  if (bytes.byteLength === 0) throw new ValidationFailed([issue.custom(loc, "", "The image file is empty", "value_error")]);
  if (bytes.byteLength > MAX_UPLOAD_BYTES) {
    throw new HttpError(413, `Image larger than ${MAX_UPLOAD_BYTES} bytes (${MAX_UPLOAD_BYTES / 1024 / 1024} MiB): ${bytes.byteLength} bytes`);
  }
  const format = sniffImage(bytes);
  if (!format) {
    const what = describe(bytes);
    throw new ValidationFailed([
      issue.custom(loc, `<${what}, ${bytes.byteLength} bytes>`, `Not a supported image: the bytes are ${what}; send JPEG, PNG, WebP, GIF or TIFF`, "image_type", {
        accepted: [...UPLOAD_MEDIA_TYPES],
      }),
    ]);
  }
  const unreadable = (why: string) =>
    new ValidationFailed([issue.custom(loc, `<${format} image, ${bytes.byteLength} bytes>`, `The image could not be read: ${why}`, "image_invalid", { format })]);
  let width = 0,
    height = 0;
  try {
    // the header only: nothing is decoded yet
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    width = meta.width ?? 0;
    height = meta.height ?? 0;
  } catch (err) {
    throw unreadable((err as Error).message);
  }
  if (!(width > 0 && height > 0)) throw unreadable("no pixel size in its header");
  if (width * height > MAX_UPLOAD_PIXELS) {
    throw new ValidationFailed([
      issue.custom(
        loc,
        `<${format} image, ${width} x ${height} pixels>`,
        `The image has ${width} x ${height} = ${width * height} pixels, more than ${MAX_UPLOAD_PIXELS}`,
        "image_too_many_pixels",
        { max_pixels: MAX_UPLOAD_PIXELS, width, height },
      ),
    ]);
  }
  try {
    await sharp(bytes, { failOn: "truncated", limitInputPixels: MAX_UPLOAD_PIXELS }).resize({ width: CHECK_SIZE, height: CHECK_SIZE, fit: "inside" }).raw().toBuffer();
  } catch (err) {
    throw unreadable(/premature end|truncat|read error|unexpected end/i.test((err as Error).message) ? `truncated (${(err as Error).message})` : (err as Error).message);
  }
  return { format, type: UPLOAD_TYPES[format], width, height, bytes };
}

/** checkUpload for an uploaded file part, its 422s at ["body", <field>]. */
export function checkUploadPart(part: FilePart, sharp: Sharp): Promise<CheckedImage> {
  return checkUpload(part.bytes, sharp, ["body", part.field]);
}
