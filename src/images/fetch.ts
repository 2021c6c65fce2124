/**
 * Fetches the picture behind an `image_url` (search by image): http and https only, a timeout over
 * the whole exchange (connect, redirects, body), at most a few redirects (each hop's scheme checked
 * again), the body capped while it streams, and the answer's Content-Type checked before the body
 * is read. Every failure is a 422 at `loc` with the spec's detail array (`type` says which rule:
 * url_parsing, url_scheme, fetch_failed, fetch_timeout, fetch_status, fetch_redirects,
 * fetch_not_image, fetch_too_large), never a 500: the request was well formed, the address it
 * names was not usable.
 *
 * The service runs on premises and fetches whatever address its callers give, private ones
 * included (an intranet image server is a fair use); docs/images.md says so.
 */
import { HttpError, ValidationFailed, issue } from "../http/errors";
import { readStreamCapped } from "../http/multipart";
import type { Sharp } from "../platform/native";
import { checkUpload, MAX_UPLOAD_BYTES, type CheckedImage } from "./upload";

export interface FetchLimits {
  /** Largest body read (default MAX_UPLOAD_BYTES). */
  maxBytes: number;
  /** Milliseconds for the whole exchange (default 10 s). */
  timeoutMs: number;
  /** Redirects followed (default 3). */
  maxRedirects: number;
}

export const FETCH_LIMITS: Readonly<FetchLimits> = Object.freeze({ maxBytes: MAX_UPLOAD_BYTES, timeoutMs: 10_000, maxRedirects: 3 });

/** Longest image_url accepted. */
export const MAX_URL_LENGTH = 2048;

export interface FetchedImage {
  bytes: Uint8Array;
  /** The address the bytes came from (after redirects). */
  url: string;
  contentType: string | null;
}

/** Content types that are certainly not a picture: refused before the body is read. */
const NOT_IMAGE = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|pdf)\b)/i;

/**
 * The bytes at `address`. Throws ValidationFailed (422) at `loc` when the address is not an http(s)
 * URL, cannot be reached, times out, answers other than 2xx, redirects too often, declares a
 * non-image Content-Type, or sends more than `maxBytes`. Whether the bytes are an image is left to
 * checkUpload (src/images/upload.ts).
 */
export async function fetchImage(address: string, loc: (string | number)[] = ["body", "image_url"], limits: Partial<FetchLimits> = {}): Promise<FetchedImage> {
  const { maxBytes, timeoutMs, maxRedirects } = { ...FETCH_LIMITS, ...limits };
  const fail = (type: string, msg: string, ctx: Record<string, unknown> = {}) => new ValidationFailed([issue.custom(loc, address, msg, type, ctx)]);
  if (address.length > MAX_URL_LENGTH) throw new ValidationFailed([issue.maxLength(loc, address, MAX_URL_LENGTH)]);
  const parse = (text: string, base?: string): URL => {
    let url: URL;
    try {
      url = new URL(text, base);
    } catch {
      throw fail("url_parsing", "Input should be a valid URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw fail("url_scheme", `URL scheme should be 'http' or 'https'${base ? " (after a redirect)" : ""}`, { expected_schemes: "'http', 'https'" });
    }
    return url;
  };
  let url = parse(address.trim());
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const timedOut = () => fail("fetch_timeout", `The image could not be fetched within ${timeoutMs / 1000} s`, { timeout_seconds: timeoutMs / 1000 });
  try {
    let response: Response;
    for (let hop = 0; ; hop++) {
      try {
        response = await fetch(url, { redirect: "manual", signal: controller.signal, headers: { Accept: "image/*" } });
      } catch (err) {
        if (controller.signal.aborted) throw timedOut();
        throw fail("fetch_failed", `The image could not be fetched: ${(err as Error).message}`);
      }
      if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
        await response.body?.cancel().catch(() => {});
        if (hop >= maxRedirects) throw fail("fetch_redirects", `More than ${maxRedirects} redirects`, { max_redirects: maxRedirects });
        url = parse(response.headers.get("location")!, url.href);
        continue;
      }
      break;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw fail("fetch_status", `The image address answered HTTP ${response.status}`, { status: response.status });
    }
    const contentType = response.headers.get("content-type");
    if (contentType && NOT_IMAGE.test(contentType.trim())) {
      await response.body?.cancel().catch(() => {});
      throw fail("fetch_not_image", `The address does not serve an image (Content-Type ${contentType.split(";")[0]!.trim()})`, {
        content_type: contentType.split(";")[0]!.trim(),
      });
    }
    const tooLarge = () => fail("fetch_too_large", `The image is larger than ${maxBytes} bytes`, { max_bytes: maxBytes });
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    let bytes: Uint8Array;
    try {
      bytes = await readStreamCapped(response.body, maxBytes, tooLarge);
    } catch (err) {
      if (err instanceof ValidationFailed) throw err;
      if (controller.signal.aborted) throw timedOut();
      throw fail("fetch_failed", `The image could not be fetched: ${(err as Error).message}`);
    }
    return { bytes, url: url.href, contentType };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * fetchImage, then checkUpload on the bytes, every refusal as a 422 at `loc` (what would be a 413
 * for an uploaded file is about the address here, not about the request; bytes that are no image
 * are fetch_not_image, as a non-image Content-Type is).
 */
export async function fetchCheckedImage(
  address: string,
  sharp: Sharp,
  loc: (string | number)[] = ["body", "image_url"],
  limits: Partial<FetchLimits> = {},
): Promise<CheckedImage> {
  const fetched = await fetchImage(address, loc, limits);
  try {
    return await checkUpload(fetched.bytes, sharp, loc);
  } catch (err) {
    if (err instanceof ValidationFailed) {
      throw new ValidationFailed(
        err.issues.map((i) => ({ ...i, type: i.type === "image_type" ? "fetch_not_image" : i.type, input: address, msg: `${i.msg} (from ${fetched.url})` })),
      );
    }
    if (err instanceof HttpError) {
      const type = err.status === 413 ? "fetch_too_large" : "fetch_not_image";
      throw new ValidationFailed([issue.custom(loc, address, `The address does not serve a usable image: ${err.message}`, type, { ...(fetched.contentType && { content_type: fetched.contentType }) })]);
    }
    throw err;
  }
}
