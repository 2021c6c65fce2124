/**
 * The browsable API page at /docs (@elysiajs/swagger with its Scalar UI), reading our OpenAPI
 * 3.1.0 document at /openapi.json. It works with no network: the UI's script is served by this
 * process (docs-assets.ts) instead of the plugin's CDN default, and the UI is told not to load its
 * web fonts or start its hosted agent. The page and its assets are public and never metered: they
 * are plain routes, outside the endpoint pipeline.
 *
 * The plugin also serves its own OpenAPI 3.0.3 rendering of the Elysia routes at /docs/json (it
 * cannot be turned off); that describes none of our schemas, so it redirects to /openapi.json.
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

export function docsPage() {
  return new Elysia({ name: "artmarket-docs" })
    .onRequest(({ request }) => {
      if (request.method !== "GET" && request.method !== "HEAD") return;
      if (new URL(request.url).pathname === PLUGIN_SPEC_PATH) {
        return new Response(null, { status: 308, headers: { Location: OPENAPI_PATH } });
      }
    })
    .get(SCALAR_ASSET_PATH, ({ request }) => scalarAsset(request), { detail: { hide: true } })
    .use(
      swagger({
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
      }),
    );
}
