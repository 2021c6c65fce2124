/**
 * Response compression: a JSON body of MIN_COMPRESSED_BYTES or more is sent br or gzip encoded when
 * the request's Accept-Encoding allows it (RFC 9110 §12.5.3: q-values, `*`, `identity`), br first
 * on equal preference, with `Vary: Accept-Encoding`. Smaller bodies and anything that is not JSON
 * (images, the docs page) go out as they are. Brotli runs at quality 4 and gzip at level 5, fast
 * settings that still shrink the API's JSON several times over.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** Bodies smaller than this are never compressed (1 KiB). */
export const MIN_COMPRESSED_BYTES = 1024;
export const BROTLI_QUALITY = 4;
export const GZIP_LEVEL = 5;

export type Coding = "br" | "gzip";

const encoder = new TextEncoder();

/**
 * The coding to send for an Accept-Encoding header, or null for the body as it is: the coding of
 * br and gzip the client weighs highest (an explicit q, else that of `*`), br on a tie; none when
 * both weigh 0, when the header is absent or empty, or when the client weighs `identity` higher.
 */
export function negotiateCoding(acceptEncoding: string | null): Coding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.split(";");
    const raw = name!.trim().toLowerCase();
    if (!raw) continue;
    const coding = raw === "x-gzip" ? "gzip" : raw;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      if (m) q = Math.min(1, Number(m[1]));
      else if (/^\s*q\s*=/i.test(p)) q = Number.NaN; // a malformed weight: the entry is ignored
    }
    if (Number.isNaN(q)) continue;
    weights.set(coding, Math.max(q, weights.get(coding) ?? 0));
  }
  const star = weights.get("*");
  const weight = (c: string) => weights.get(c) ?? star ?? 0;
  const br = weight("br");
  const gzip = weight("gzip");
  const best = Math.max(br, gzip);
  if (best <= 0) return null;
  // identity is acceptable unless excluded; it wins only when the client says it prefers it
  const identity = weights.get("identity");
  if (identity !== undefined && identity > best) return null;
  return br >= gzip ? "br" : "gzip";
}

/** The bytes of `body` in `coding`. */
export function encodeBytes(body: Uint8Array, coding: Coding): Uint8Array {
  if (coding === "br") {
    return brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
    });
  }
  return gzipSync(body, { level: GZIP_LEVEL });
}

/** Whether `body` (bytes, or a text sent as UTF-8) is more than `n` bytes. */
export function bodyOver(body: string | Uint8Array, n: number): boolean {
  if (typeof body !== "string") return body.byteLength > n;
  // UTF-8 takes at least one byte per UTF-16 unit and at most three
  if (body.length > n) return true;
  if (body.length * 3 <= n) return false;
  return Buffer.byteLength(body) > n;
}

/** Whether a body of this text is big enough to be compressed (and so varies with Accept-Encoding). */
export function isCompressible(text: string): boolean {
  return bodyOver(text, MIN_COMPRESSED_BYTES - 1);
}

function addVary(headers: Headers | Record<string, string>, value: string): void {
  const current = headers instanceof Headers ? headers.get("Vary") : (headers.Vary ?? headers.vary);
  if (current?.split(",").some((v) => v.trim().toLowerCase() === value.toLowerCase() || v.trim() === "*")) return;
  const next = current ? `${current}, ${value}` : value;
  if (headers instanceof Headers) headers.set("Vary", next);
  else {
    delete headers.vary;
    headers.Vary = next;
  }
}

/** Marks headers of a response whose body would be compressed for some clients: `Vary: Accept-Encoding`. */
export function varyOnEncoding(headers: Headers | Record<string, string>): void {
  addVary(headers, "Accept-Encoding");
}

/**
 * The body of a JSON response of `text`: compressed as the request allows when it is 1 KiB or more
 * (`headers` then get Content-Encoding, a Content-Length of the encoded bytes, and Vary), else the
 * text as it is. `headers` get its Content-Type, application/json.
 */
export function encodeJson(request: Request, text: string, headers: Record<string, string>): string | Uint8Array {
  headers["Content-Type"] = "application/json";
  if (!isCompressible(text)) return text;
  varyOnEncoding(headers);
  const coding = negotiateCoding(request.headers.get("accept-encoding"));
  if (!coding) return text;
  const encoded = encodeBytes(encoder.encode(text), coding);
  headers["Content-Encoding"] = coding;
  headers["Content-Length"] = String(encoded.byteLength);
  return encoded;
}

/** Each streamed response's body (streamedResponse), for its size when the access log asks. */
const streamedBodies = new WeakMap<Response, string | Uint8Array>();

/**
 * A response whose body leaves as one write of a direct stream, whatever the turn it is made in
 * (see STREAM_BYTES in endpoint.ts): chunked on the wire, so any Content-Length in `headers` is
 * dropped; `streamedBytes` gives its size. A string body is written as it is (Bun encodes it as
 * it sends: no copy of it here).
 */
export function streamedResponse(body: string | Uint8Array, status: number, headers: Record<string, string>): Response {
  delete headers["Content-Length"];
  const stream = new ReadableStream({
    type: "direct",
    pull(controller) {
      controller.write(body);
      controller.close();
    },
  });
  const res = new Response(stream, { status, headers });
  streamedBodies.set(res, body);
  return res;
}

/** The body's size in bytes of a response made by streamedResponse; undefined for any other. */
export function streamedBytes(res: Response): number | undefined {
  const body = streamedBodies.get(res);
  if (body === undefined) return undefined;
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}

const isJson = (contentType: string | null) => contentType !== null && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);

/**
 * A response made elsewhere (an error, /openapi.json), compressed like encodeJson's bodies when it is JSON
 * of 1 KiB or more that carries no Content-Encoding yet; anything else (images, HTML, empty bodies)
 * comes back untouched.
 */
export async function compressResponse(request: Request, res: Response): Promise<Response> {
  if (res.body === null || res.status === 204 || res.status === 304 || res.headers.has("Content-Encoding") || !isJson(res.headers.get("Content-Type"))) return res;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  if (bytes.byteLength < MIN_COMPRESSED_BYTES) return new Response(bytes, { status: res.status, statusText: res.statusText, headers });
  varyOnEncoding(headers);
  const coding = negotiateCoding(request.headers.get("accept-encoding"));
  if (!coding) return new Response(bytes, { status: res.status, statusText: res.statusText, headers });
  const encoded = encodeBytes(bytes, coding);
  headers.set("Content-Encoding", coding);
  headers.set("Content-Length", String(encoded.byteLength));
  return new Response(encoded, { status: res.status, statusText: res.statusText, headers });
}
