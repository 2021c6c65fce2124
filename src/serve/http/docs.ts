/**
 * The browsable API page at /docs (@elysiajs/swagger with its Scalar UI), reading our OpenAPI
 * 3.1.0 document at /openapi.json. It works with no network: the UI's script is served by this
 * process (docs-assets.ts) instead of the plugin's CDN default, and the UI is told not to load its
 * web fonts or start its hosted agent. The page and its assets are public and never metered: they
 * are plain routes, outside the endpoint pipeline.
 *
 * The plugin also serves its own OpenAPI 3.0.3 rendering of the Elysia routes at /docs/json (it
 * cannot be turned off); that describes none of our schemas, so it redirects to /openapi.json.
 *
 * The page itself is the plugin's HTML, answered with our headers (the plugin's say
 * `charset=utf8`): UTF-8, nosniff, and a Content-Security-Policy that lets it load only its own
 * script (the bundle and, by hash, the page's one inline script element), its inline styles,
 * images and fonts from itself or data: URLs, and talk only to this server (the document, Try it).
 */
import { swagger } from "@elysiajs/swagger";
import { Elysia } from "elysia";
import { SCALAR_ASSET_PATH, scalarAsset } from "./docs-assets";
import { BEARER_SCHEME } from "./openapi";

export const DOCS_PATH = "/docs";
export const OPENAPI_PATH = "/openapi.json";
const PLUGIN_SPEC_PATH = `${DOCS_PATH}/json`;

/** Scalar's configuration (read by the bundle from the page's data-configuration attribute). */
export const SCALAR_CONFIG = {
  url: OPENAPI_PATH,
  spec: { url: OPENAPI_PATH },
  /** Otherwise the page loads Inter and JetBrains Mono from Scalar's font CDN. */
  withDefaultFonts: false,
  /** The hosted "Ask AI" agent talks to Scalar's servers. */
  agent: { disabled: true },
  /** The developer toolbar offers to upload the document to Scalar's registry. */
  showDeveloperTools: "never",
  telemetry: false,
  documentDownloadType: "json",
  /**
   * Try it starts with the bearer key selected on every operation. Without this the UI takes an
   * operation's first security requirement, which on the public and optional-key routes is the
   * empty one ("Optional / none"), and a key entered once would not be sent there.
   */
  authentication: { preferredSecurityScheme: BEARER_SCHEME },
};

/** The page's policy; `inline` are the CSP sources ('sha256-…') of its inline script elements. */
export function docsCsp(inline: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src 'self'${inline.map((h) => ` ${h}`).join("")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

interface DocsHtml {
  html: string;
  headers: Record<string, string>;
}

export function docsPage() {
  const plugin = swagger({
    provider: "scalar",
    path: DOCS_PATH,
    specPath: PLUGIN_SPEC_PATH,
    scalarCDN: SCALAR_ASSET_PATH,
    documentation: {
      info: {
        title: "artmarket API",
        version: "1",
        description: "Auction-market data metered in Data Units: the API reference, with how to get a key. Machine-readable description: /openapi.json (OpenAPI 3.1.0).",
      },
    },
    scalarConfig: SCALAR_CONFIG as never,
  });
  let page: Promise<DocsHtml> | undefined;
  // the plugin's page, rendered once, with the hashes of its inline scripts for the policy
  const render = (): Promise<DocsHtml> =>
    (page ??= (async () => {
      const html = await (await plugin.handle(new Request(`http://localhost${DOCS_PATH}`))).text();
      const inline = [...html.matchAll(/<script\b(?![^>]*\ssrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
        (m) => `'sha256-${new Bun.CryptoHasher("sha256").update(m[1]!).digest("base64")}'`,
      );
      const headers = {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": docsCsp(inline),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
      };
      return { html, headers };
    })());
  return new Elysia({ name: "artmarket-docs" })
    .onRequest(({ request }) => {
      // not async: every request of the app passes here
      if (request.method !== "GET" && request.method !== "HEAD") return;
      const path = new URL(request.url).pathname;
      if (path === PLUGIN_SPEC_PATH) {
        return new Response(null, { status: 308, headers: { Location: OPENAPI_PATH, "X-Content-Type-Options": "nosniff" } });
      }
      if (path === DOCS_PATH) return render().then(({ html, headers }) => new Response(request.method === "HEAD" ? null : html, { headers }));
    })
    .get(SCALAR_ASSET_PATH, ({ request }) => scalarAsset(request), { detail: { hide: true } })
    .use(plugin);
}
