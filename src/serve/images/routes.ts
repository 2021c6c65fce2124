/**
 * GET /images/<id>/w<width>[-blur].jpg?exp=…&sig=…: the renditions behind the signed URLs of image
 * objects (src/serve/images/urls.ts). The signature is the credential: no API key is looked at, and an
 * image fetch is not an API call, so it is never metered (no DU, no rate limit).
 *
 * - The signature is checked over the path exactly as requested: any change to the id, the width,
 *   the variant (adding or removing "-blur"), exp or sig, a missing, repeated or non-canonical exp
 *   or sig, any other query parameter, or a use after exp is 403 {"detail": …}. Only then is the file name parsed (a signed name outside the five widths
 *   would be 404; the service never signs one).
 * - An unknown image id (behind a genuine signature) is 404.
 * - 200: image/jpeg with a strong ETag and `Cache-Control: public, max-age=<seconds until exp>,
 *   immutable` (the URL itself stops working at exp); If-None-Match with that ETag is 304, answered
 *   before anything is drawn.
 */
import { Elysia } from "elysia";
import type { AppDeps } from "../deps";
import { ensureRendition, isWidth, locateRendition, type RenditionDeps } from "./renditions";
import { COLLECTABLE_IMAGE_KEY, type Variant } from "./urls";

const FILE_RE = /^w(\d{3,4})(-blur)?\.jpg$/;
const ID_RE = /^[1-9]\d{0,15}$/;

const BASE_HEADERS = { "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" };

function problem(status: number, detail: string): Response {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...BASE_HEADERS },
  });
}

/** Whether an If-None-Match header names `etag` (or is "*"); weak comparison, as RFC 9110 asks. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

export async function serveImage(deps: AppDeps, rdeps: RenditionDeps, request: Request, head = false): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  const exp = url.searchParams.get("exp");
  const sig = url.searchParams.get("sig");
  const now = Date.now();
  // The query is exactly what was signed: exp (canonical digits) and sig, once each, nothing else.
  const names = [...url.searchParams.keys()];
  if (names.length !== 2 || !names.includes("exp") || !names.includes("sig") || (exp !== null && String(Number(exp)) !== exp)) {
    return problem(403, "Invalid image URL signature");
  }
  // A signature that is genuine whatever the time (now = 0), then the expiry: two messages.
  if (!deps.signer.verify(path, exp, sig, 0)) return problem(403, "Invalid image URL signature");
  if (!deps.signer.verify(path, exp, sig, now)) {
    return problem(403, "Image URL expired; request the record again for fresh URLs");
  }

  const parts = path.split("/"); // ["", "images", id, file]
  const m = parts.length === 4 ? FILE_RE.exec(parts[3]!) : null;
  if (!m || !(ID_RE.test(parts[2]!) || COLLECTABLE_IMAGE_KEY.test(parts[2]!)) || !isWidth(Number(m[1]))) return problem(404, "Not Found");
  // a market image id, or the key of a collectable's uploaded image
  const id = ID_RE.test(parts[2]!) ? Number(parts[2]) : parts[2]!;
  const width = Number(m[1]);
  const variant: Variant = m[2] ? "blur" : "full";

  const ref = locateRendition(rdeps, id, width, variant);
  if (!ref) return problem(404, "Image not found");
  const maxAge = Math.max(0, Number(exp) - Math.floor(now / 1000));
  const headers: Record<string, string> = {
    ...BASE_HEADERS,
    ETag: ref.etag,
    "Cache-Control": `public, max-age=${maxAge}, immutable`,
  };
  if (matches(request.headers.get("if-none-match"), ref.etag)) return new Response(null, { status: 304, headers });

  let rendition;
  try {
    rendition = await ensureRendition(rdeps, ref);
  } catch (err) {
    console.error(`image ${id} w${width}${variant === "blur" ? "-blur" : ""}:`, err);
    return problem(500, "Image could not be rendered");
  }
  headers["Content-Type"] = "image/jpeg";
  if (rendition.body) {
    headers["Content-Length"] = String(rendition.body.byteLength);
    return new Response(head ? null : rendition.body, { headers });
  }
  const file = Bun.file(rendition.file);
  headers["Content-Length"] = String(file.size);
  return new Response(head ? null : file, { headers });
}

/** The image routes, mounted by createApp next to the docs page. */
export function imageRoutes(deps: AppDeps) {
  const live = deps.live;
  const fixed: RenditionDeps = { market: deps.market, dataDir: deps.config.dataDir, accounts: deps.accounts };
  // a server's worker: the request reads the market view current when it starts, to its end (src/serve/live-market.ts)
  const serve = async (request: Request, head: boolean): Promise<Response> => {
    if (!live) return serveImage(deps, fixed, request, head);
    const g = live.enter();
    try {
      return await serveImage(deps, { market: g.view.market, dataDir: deps.config.dataDir, accounts: deps.accounts }, request, head);
    } finally {
      live.leave(g);
    }
  };
  return new Elysia()
    .get("/images/:id/:file", ({ request }) => serve(request, false), { detail: { hide: true } })
    .head("/images/:id/:file", ({ request }) => serve(request, true), { detail: { hide: true } });
}
