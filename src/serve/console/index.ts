/**
 * The demo console at /console: a page in the browser that reads the API with the caller's key
 * (docs/console.md). The page is a Bun HTML import: `bun build --compile` bundles it (the HTML,
 * one JS and one CSS chunk) into the binary, where `page.files` lists the embedded outputs; from
 * source the same HTML is bundled by Bun.build on the first request. Either way this process
 * serves the page at /console and its chunks at /console/<chunk>, and the page requests nothing
 * from any other origin (its Content-Security-Policy says so to the browser too).
 *
 * The page and its chunks are public and never metered: plain routes, outside the endpoint
 * pipeline. The API calls the page makes carry the key and are metered like any client's.
 */
import { Elysia } from "elysia";
import page from "./console.html";

export const CONSOLE_PATH = "/console";

/** Everything on the page comes from this origin: scripts, styles, images, API calls. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' blob: data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

interface Asset {
  body: Uint8Array;
  type: string;
  etag: string;
}

interface Bundle {
  html: Asset;
  /** The chunks by file name (chunk-<hash>.js, chunk-<hash>.css). */
  chunks: Map<string, Asset>;
}

/** The chunk references of the bundled HTML (root-relative in the binary, ./ from Bun.build), moved under /console/. */
function rewriteHtml(html: string): string {
  return html.replace(/(src|href)="(?:\.?\/)?(chunk-[\w-]+\.(?:js|css))"/g, `$1="${CONSOLE_PATH}/$2"`);
}

function etagOf(bytes: Uint8Array): string {
  return `"${Bun.hash(bytes).toString(36)}"`;
}

function htmlAsset(text: string): Asset {
  const body = new TextEncoder().encode(rewriteHtml(text));
  return { body, type: "text/html;charset=utf-8", etag: etagOf(body) };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

async function loadBundle(): Promise<Bundle> {
  const chunks = new Map<string, Asset>();
  let html: Asset | undefined;
  if (page.files?.length) {
    // compiled: the outputs are embedded in the binary
    for (const file of page.files) {
      const bytes = new Uint8Array(await Bun.file(file.path).arrayBuffer());
      if (file.loader === "html") html = htmlAsset(new TextDecoder().decode(bytes));
      else chunks.set(baseName(file.path), { body: bytes, type: file.headers["content-type"], etag: etagOf(bytes) });
    }
  } else {
    const built = await Bun.build({ entrypoints: [page.index], minify: true, target: "browser" });
    if (!built.success) throw new Error(`console bundle: ${built.logs.map(String).join("; ")}`);
    for (const out of built.outputs) {
      const bytes = new Uint8Array(await out.arrayBuffer());
      if (out.path.endsWith(".html")) html = htmlAsset(new TextDecoder().decode(bytes));
      else chunks.set(baseName(out.path), { body: bytes, type: out.type, etag: etagOf(bytes) });
    }
  }
  if (!html) throw new Error("console bundle: no HTML output");
  return { html, chunks };
}

let bundle: Promise<Bundle> | undefined;

/** The bundle, made once per process (per worker thread) on the first request. */
export function consoleBundle(): Promise<Bundle> {
  bundle ??= loadBundle().catch((error) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}

function answer(request: Request, asset: Asset, cacheControl: string, headers: Record<string, string> = {}): Response {
  const common = { ETag: asset.etag, "Cache-Control": cacheControl, "X-Content-Type-Options": "nosniff", ...headers };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers: common });
  return new Response(asset.body, { headers: { "Content-Type": asset.type, ...common } });
}

export function consolePage() {
  return new Elysia({ name: "artmarket-console" })
    .get(CONSOLE_PATH, async ({ request }) => answer(request, (await consoleBundle()).html, "no-cache", { "Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer" }))
    .get(`${CONSOLE_PATH}/:file`, async ({ request, params }) => {
      const asset = (await consoleBundle()).chunks.get(params.file);
      if (!asset) return new Response(JSON.stringify({ detail: "Not Found" }), { status: 404, headers: { "Content-Type": "application/json" } });
      // the name carries the content's hash
      return answer(request, asset, "public, max-age=31536000, immutable");
    });
}
