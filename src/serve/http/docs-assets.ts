/**
 * The browser bundle of the API reference page (Scalar, which @elysiajs/swagger renders), served
 * from our own process so /docs works with no network. The file is imported as a file asset:
 * `bun build --compile` embeds it in the binary, and Bun.file() reads it from there or, when
 * running from source, from node_modules.
 *
 * The package's `exports` map does not list dist/browser, so the import names the file by path.
 * Its version is pinned in package.json: the page talks to the bundle through its HTML
 * configuration (docs.ts), whose keys change between Scalar releases; check /docs in a browser
 * with no network after an upgrade.
 */
// @ts-ignore: a file asset; Bun resolves it to a path (embedded in the binary)
import scalarBundle from "../../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };

/** Where the page loads the bundle from (same origin, under the docs page). */
export const SCALAR_ASSET_PATH = "/docs/assets/scalar.js";

/** One day: the URL is stable across releases, so browsers revalidate with the ETag after that. */
const CACHE_CONTROL = "public, max-age=86400";

interface Loaded {
  body: Uint8Array;
  gzip: Uint8Array;
  etag: string;
}

let loaded: Promise<Loaded> | undefined;

/** Reads (and gzips) the bundle once per process, on the first request for it. */
function load(): Promise<Loaded> {
  loaded ??= (async () => {
    const body = new Uint8Array(await Bun.file(scalarBundle as string).arrayBuffer());
    if (body.byteLength === 0) throw new Error(`the API reference bundle ${scalarBundle} is empty`);
    return { body, gzip: Bun.gzipSync(body), etag: `W/"scalar-${Bun.hash(body).toString(36)}"` };
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

function accepts(request: Request, encoding: string): boolean {
  const header = request.headers.get("accept-encoding") ?? "";
  return header.split(",").some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (name !== encoding && name !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * GET /docs/assets/scalar.js: the bundle as JavaScript, cacheable, gzipped when the client accepts
 * it. The ETag is weak because the identity and the gzip representation share it.
 */
export async function scalarAsset(request: Request): Promise<Response> {
  const asset = await load();
  const headers: Record<string, string> = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": CACHE_CONTROL,
    ETag: asset.etag,
    Vary: "Accept-Encoding",
    "X-Content-Type-Options": "nosniff",
  };
  const match = request.headers.get("if-none-match");
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === asset.etag.slice(2))) {
    return new Response(null, { status: 304, headers });
  }
  if (accepts(request, "gzip")) {
    return new Response(asset.gzip, { headers: { ...headers, "Content-Encoding": "gzip" } });
  }
  return new Response(asset.body, { headers });
}
