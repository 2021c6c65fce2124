/**
 * Fetches the picture behind an `image_url` (search by image): http and https only, a timeout over
 * the whole exchange (connect, redirects, body), at most a few redirects (each hop's scheme checked
 * again), the body capped while it streams, and the answer's Content-Type checked before the body
 * is read. Every failure is a 422 at `loc` with the spec's detail array (`type` says which rule:
 * url_parsing, url_scheme, fetch_failed, fetch_timeout, fetch_status, fetch_redirects,
 * fetch_not_image, fetch_too_large, fetch_forbidden_address), never a 500: the request was well
 * formed, the address it names was not usable.
 *
 * Internal addresses are refused (SSRF): before each request, the first and every redirect hop,
 * the host is resolved (a literal IP as WHATWG URL normalised it, else DNS `lookup` with
 * `all: true`) and every address it resolves to must be public (src/platform/address-guard.ts) or
 * covered by the operator's allow list (`--fetch-allow` / ARTMARKET_FETCH_ALLOW, CIDR ranges,
 * passed in as `limits.allow`); otherwise 422 fetch_forbidden_address with `ctx.address`, and no
 * connection is made. For http the request then goes to the checked IP itself (the URL's host
 * replaced by the IP, the original in the Host header), so a DNS answer that changes between the
 * check and the connection (DNS rebinding) cannot redirect it. For https the host name is kept
 * (TLS needs it for SNI and the certificate check) and fetch resolves it again: a name whose DNS
 * answer flips from public to internal within that moment can still be reached over https. That
 * residual window is accepted (the attacker also needs a certificate valid for the name, served
 * by the internal host, for the TLS handshake to succeed); docs/images.md says so.
 */
import { lookup } from "node:dns/promises";
import { HttpError, ValidationFailed, issue } from "../http/errors";
import { readStreamCapped } from "../http/multipart";
import type { Sharp } from "../../platform/native";
import { connectionTarget, isFetchableAddress, literalAddress } from "../../platform/address-guard";
import { checkUpload, MAX_UPLOAD_BYTES, type CheckedImage } from "./upload";

export interface FetchLimits {
  /** Largest body read (default MAX_UPLOAD_BYTES). */
  maxBytes: number;
  /** Milliseconds for the whole exchange (default 10 s). */
  timeoutMs: number;
  /** Redirects followed (default 3). */
  maxRedirects: number;
  /** CIDR ranges of non-public addresses that may be fetched all the same (`Config.fetchAllow`; default none). */
  allow: readonly string[];
}

export const FETCH_LIMITS: Readonly<FetchLimits> = Object.freeze({ maxBytes: MAX_UPLOAD_BYTES, timeoutMs: 10_000, maxRedirects: 3, allow: Object.freeze([]) });

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
 * URL, resolves (at the first request or after a redirect) to a non-public address that
 * `limits.allow` does not cover, cannot be reached, times out, answers other than 2xx, redirects
 * too often, declares a non-image Content-Type, or sends more than `maxBytes`. Whether the bytes
 * are an image is left to checkUpload (src/serve/images/upload.ts).
 */
export async function fetchImage(address: string, loc: (string | number)[] = ["body", "image_url"], limits: Partial<FetchLimits> = {}): Promise<FetchedImage> {
  const { maxBytes, timeoutMs, maxRedirects, allow } = { ...FETCH_LIMITS, ...limits };
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
  /**
   * Resolves `target`'s host, refuses it unless every address is fetchable, and gives what to
   * connect to: for http the checked IP (with the original Host header), for https the URL as is
   * (SNI needs the name; see the header comment for the residual DNS-rebinding window).
   */
  const connectTo = async (target: URL, redirected: boolean): Promise<{ href: string; host?: string }> => {
    const name = target.hostname;
    const literal = literalAddress(name);
    let addresses: string[];
    if (literal !== null) {
      addresses = [literal];
    } else {
      try {
        addresses = (await abortable(lookup(name, { all: true }), controller.signal)).map((a) => a.address);
      } catch (err) {
        if (controller.signal.aborted) throw timedOut();
        throw fail("fetch_failed", `The image could not be fetched: ${name} could not be resolved (${(err as { code?: string }).code ?? (err as Error).message})`);
      }
      if (addresses.length === 0) throw fail("fetch_failed", `The image could not be fetched: ${name} could not be resolved`);
    }
    const refused = addresses.find((a) => !isFetchableAddress(a, allow));
    if (refused !== undefined) {
      throw fail(
        "fetch_forbidden_address",
        `The image address${redirected ? " (after a redirect)" : ""} resolves to ${refused}, which is not a public address; the service does not fetch from internal networks`,
        { address: refused },
      );
    }
    return connectionTarget(target, addresses);
  };
  try {
    let response: Response;
    for (let hop = 0; ; hop++) {
      const to = await connectTo(url, hop > 0);
      try {
        const headers: Record<string, string> = { Accept: "image/*" };
        if (to.host) headers.Host = to.host;
        response = await fetch(to.href, { redirect: "manual", signal: controller.signal, headers });
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

/** `promise`, or the signal's reason as soon as it aborts (a DNS lookup cannot be cancelled). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * fetchImage, then checkUpload on the bytes, every refusal as a 422 at `loc` (what would be a 413
 * for an uploaded file is about the address here, not about the request; bytes that are no image
 * are fetch_not_image, as a non-image Content-Type is).
 */
export async function fetchCheckedImage(address: string, sharp: Sharp, loc: (string | number)[] = ["body", "image_url"], limits: Partial<FetchLimits> = {}): Promise<CheckedImage> {
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
      throw new ValidationFailed([
        issue.custom(loc, address, `The address does not serve a usable image: ${err.message}`, type, { ...(fetched.contentType && { content_type: fetched.contentType }) }),
      ]);
    }
    throw err;
  }
}
