/**
 * createApp(deps): the Elysia application with every endpoint mounted, no listen().
 * Tests drive it in-process with app.handle(new Request(...)); `serve` listens on it.
 */
import type { Database } from "bun:sqlite";
import { Elysia } from "elysia";
import { SqliteAccountStore } from "./accounts/store";
import { storeOutage, storeUnreachable } from "../db/pg/outage";
import { openAccountStore } from "./accounts/open";
import { PgAccountStore } from "./accounts/pg-store";
import { PgRateLimiter, sharedSecret } from "./accounts/pg-hot";
import type { Config } from "../platform/config";
import { openMarketReader } from "../db/connection";
import { pipeline, mountable, RESPONSE_HEADERS, SNAPSHOT_HEADER, type Endpoint, type MountedEndpoint } from "./http/endpoint";
import type { AppDeps } from "./deps";
import { requestNote } from "./http/request-note";
import { withLiveMarket } from "./live-market";
import { errorBody, fromSchemaErrors, HttpError, issue, ValidationFailed } from "./http/errors";
import { RateLimiter } from "./http/metering";
import { AccountCounters } from "./accounts/counters";
import type { KeyVerifierOptions } from "./accounts/keys";
import { type Ledger, type LedgerOptions, LedgerWriter } from "./accounts/ledger";
import { localControl, type ServiceControl } from "./http/control";
import { MetricsRegistry } from "./http/metrics";
import { compressResponse } from "./http/compression";
import { buildOpenApi, openApiRoute } from "./http/openapi";
import { docsPage } from "./http/docs";
import { consolePage } from "./console";
import { healthEndpoints } from "./modules/health";
import { planEndpoints } from "./modules/plans";
import { referenceEndpoints } from "./modules/reference";
import { usageEndpoints } from "./modules/usage";
import { FxCache } from "../db/fx";
import { ImageSigner, loadSecret } from "./images/urls";
import { freshnessOf } from "./freshness";
import { snapshotOf } from "./snapshot";
import { imageRoutes } from "./images/routes";
import { snapshotRoutes } from "./http/snapshot-routes";
import { artistEndpoints } from "./modules/artists";
import { accountEndpoints } from "./modules/account";
import { oidcRoutes } from "./modules/account/oidc-routes";
import { artworkEndpoints } from "./modules/artworks";
import { collectableEndpoints } from "./modules/collectables";
import { followEndpoints } from "./modules/follows";
import { lotEndpoints } from "./modules/lots";
import { marketEndpoints } from "./modules/market";
import { saleEndpoints } from "./modules/sales";
import { searchEndpoints } from "./modules/search";
import { webhookEndpoints } from "./modules/webhooks";
import { notificationEndpoints } from "./modules/notifications";
import { type Price, priceTable } from "./http/pricing";
import { today } from "../market/time";
import { VERSION } from "../platform/version";

/** Every endpoint of the service, in the order the docs list them. */
export const ENDPOINTS: readonly Endpoint[] = [
  ...healthEndpoints,
  ...artistEndpoints,
  ...artworkEndpoints,
  ...searchEndpoints,
  ...lotEndpoints,
  ...saleEndpoints,
  ...followEndpoints,
  ...marketEndpoints,
  ...referenceEndpoints,
  ...planEndpoints,
  ...usageEndpoints,
  ...accountEndpoints,
  ...notificationEndpoints,
  ...webhookEndpoints,
  ...collectableEndpoints,
];

/** Every endpoint's price by "METHOD /path", from the declarations: docs/du.md and the tests read it. */
export const PRICES: Readonly<Record<string, Price>> = priceTable(ENDPOINTS);

export const CORS_HEADERS = RESPONSE_HEADERS;

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, If-None-Match, X-Request-Id",
  "Access-Control-Max-Age": "86400",
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...CORS_HEADERS, ...headers },
  });
}

/**
 * Whether an error says the PostgreSQL account store could not be reached (a connection refused,
 * closed or timed out; no answer in time), rather than that a statement failed: the call is then
 * a 503 to retry, not a 500.
 */
export function accountStoreUnreachable(error: unknown): boolean {
  // SyncPg's errors and Bun's asynchronous client's (the hot path) alike: src/db/pg/outage.ts
  return storeUnreachable(error);
}

/** The one error mapper: our errors, the framework's own, and anything unexpected. */
export function errorResponse(code: unknown, error: unknown, request?: Request): Response {
  if (error instanceof ValidationFailed) return json(422, errorBody(error));
  if (error instanceof HttpError) return json(error.status, errorBody(error), error.headers);
  switch (code) {
    case "NOT_FOUND":
      return json(404, { detail: "Not Found" });
    case "PARSE":
      return json(422, { detail: [issue.custom(["body"], null, "Request body could not be parsed", "json_invalid")] });
    case "VALIDATION": {
      const e = error as { type?: string; all?: { path?: string; value?: unknown }[]; value?: unknown };
      if (e.type === "property") {
        // A per-property decode error (for example t.Numeric) carries the value but not the
        // parameter's name: find the query parameter that was sent with that value.
        const query = request ? new URL(request.url).searchParams : new URLSearchParams();
        const name = [...query.keys()].find((k) => query.getAll(k).includes(String(e.value)));
        const errors = (e.all ?? []).map((x) => ({ ...x, path: name ? `/${name}${x.path ?? ""}` : x.path, sent: name ? query.get(name) : undefined }));
        return json(422, { detail: fromSchemaErrors("query", errors as never[], e.value) });
      }
      const where = e.type === "params" ? "path" : (e.type ?? "body");
      return json(422, { detail: fromSchemaErrors(where, (e.all ?? []) as never[], e.value) });
    }
    case "INVALID_COOKIE_SIGNATURE":
      return json(400, { detail: "Invalid cookie signature" });
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return json(status, { detail: (error as Error).message || "Bad request" });
  }
  if (accountStoreUnreachable(error)) {
    storeOutage.failure(error); // one line per outage, not per request
    return json(503, { detail: "The account store is unreachable; retry shortly" }, { "Retry-After": "5" });
  }
  console.error("internal error:", error);
  return json(500, { detail: "Internal server error" });
}

export function createApp(deps: AppDeps, endpoints: readonly Endpoint[] = ENDPOINTS) {
  const mounted: MountedEndpoint[] = endpoints.map(mountable);
  // every API path as a pattern, with its methods (HEAD with GET, OPTIONS for CORS preflight)
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  const pages = ["/", "/openapi.json", "/docs", "/readyz", "/metrics"].map((path) => ({ method: "GET", path }));
  for (const e of [...mounted, ...pages]) {
    const route = routes.get(e.path) ?? { pattern: new RegExp(`^${e.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}/?$`), methods: new Set<string>() };
    route.methods.add(e.method);
    if (e.method === "GET") route.methods.add("HEAD");
    routes.set(e.path, route);
  }
  const methodsFor = (path: string): string[] => {
    const methods = new Set<string>();
    for (const r of routes.values()) if (r.pattern.test(path)) for (const m of r.methods) methods.add(m);
    if (methods.size) methods.add("OPTIONS");
    return [...methods];
  };
  const openapi = JSON.stringify(buildOpenApi(mounted, { version: VERSION, serverUrl: deps.config.publicUrl ?? undefined }));
  const openapiDocument = openApiRoute(openapi, { publicUrl: deps.config.publicUrl, trustProxy: deps.config.trustProxy, headers: CORS_HEADERS });
  const app = new Elysia({ name: "artmarket" })
    .onRequest(({ request }) => {
      // a preflight or a plain OPTIONS: the path's methods, as a 405 lists them; an unknown path is a 404
      if (request.method === "OPTIONS") {
        const allowed = methodsFor(new URL(request.url).pathname);
        if (!allowed.length) return json(404, { detail: "Not Found" });
        return new Response(null, { status: 204, headers: { ...PREFLIGHT_HEADERS, Allow: allowed.join(", ") } });
      }
    })
    .onError(({ code, error, request }) => {
      // a known path asked with a method it does not take: 405 with the methods it does
      if (code === "NOT_FOUND") {
        const allowed = methodsFor(new URL(request.url).pathname);
        if (allowed.length) return json(405, { detail: `Method ${request.method} not allowed on this path; allowed: ${allowed.join(", ")}` }, { Allow: allowed.join(", ") });
      }
      return errorResponse(code, error, request);
    })
    .get("/", () => new Response(null, { status: 302, headers: { Location: "/docs", ...CORS_HEADERS } }))
    .get("/readyz", () => readiness(deps))
    .get("/metrics", async () => new Response(await metricsText(deps), { headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", ...CORS_HEADERS } }))
    .get("/openapi.json", ({ request }) => compressResponse(request, openapiDocument({ request })))
    .use(docsPage())
    .use(consolePage())
    .use(imageRoutes(deps))
    .use(snapshotRoutes(deps))
    .use(oidcRoutes(deps));
  for (const e of mounted) {
    const run = pipeline(e, deps);
    app.route(e.method, e.elysiaPath, async ({ request, params }) => {
      let res: Response;
      try {
        res = await run(request, params as Record<string, string>);
      } catch (error) {
        // mapped here rather than by onError so that a large error body (a 422 with many issues)
        // is compressed like any other JSON; the pipeline compresses its own bodies
        const failed = errorResponse("UNKNOWN", error, request);
        const snapshot = requestNote(request)?.snapshot;
        if (snapshot) failed.headers.set(SNAPSHOT_HEADER, snapshot);
        return compressResponse(request, failed);
      }
      if (!res.headers.has("Access-Control-Allow-Origin")) for (const [k, v] of Object.entries(CORS_HEADERS)) res.headers.set(k, v);
      return res;
    });
  }
  return Object.assign(app, { endpoints: mounted });
}

export type App = ReturnType<typeof createApp>;

/** The server's control, or the one of a lone in-process app (always ready, one worker, its own metrics). */
function control(deps: AppDeps): ServiceControl {
  if (deps.control) return deps.control;
  let local = localControls.get(deps);
  if (!local) {
    local = localControl(
      deps.metrics ?? new MetricsRegistry(),
      () => ({ keyCacheHits: deps.verifier.cacheHits, ledgerPending: deps.ledger.pendingRows(), keyVerifications: deps.verifier.argon2Runs }),
      VERSION,
    );
    localControls.set(deps, local);
  }
  return local;
}
const localControls = new WeakMap<AppDeps, ServiceControl>();

/** GET /metrics: the server's figures, then this worker's market's freshness gauges (src/serve/freshness.ts). */
async function metricsText(deps: AppDeps): Promise<string> {
  return (await control(deps).metrics()) + freshnessOf(deps.market).metricsText(Date.now());
}

/** GET /readyz: 200 with the version, workers, snapshot, freshness and results owed once serving; 503 while starting or draining. */
function readiness(deps: AppDeps): Response {
  const c = control(deps);
  const state = c.state();
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store", ...CORS_HEADERS };
  if (state !== "ready") return new Response(JSON.stringify({ status: state }), { status: 503, headers });
  try {
    // the market and the account store both answer
    deps.accounts.hasUsers();
    const fresh = freshnessOf(deps.market);
    const snapshot = { ...deps.snapshot.info(), published_at: fresh.publishedAt };
    const now = Date.now();
    return new Response(JSON.stringify({ status: "ready", version: VERSION, workers: c.workers, snapshot, freshness: fresh.report(now), results_owed: fresh.owedReport(now) }), {
      headers,
    });
  } catch {
    return new Response(JSON.stringify({ status: "starting" }), { status: 503, headers });
  }
}

export interface OpenDepsOptions {
  bare?: boolean;
  /** The per-account counters shared by the server's workers (a table of its own by default). */
  counters?: AccountCounters;
  /** The supervisor's key verification (several workers). */
  remoteVerify?: KeyVerifierOptions["remote"];
  /** The supervisor's ledger writer (several workers). */
  ledgerSink?: LedgerOptions["sink"];
  /** With ledgerSink: a connection of this thread the ledger commits over when the write lock is free (openAccountNoWait). */
  ledgerLocal?: Database;
  /** A server's worker: the market moves to each snapshot published into the data directory (withLiveMarket). */
  live?: boolean;
  /** A server's worker: the image-signing secret its supervisor read or made (read or made here otherwise). */
  secret?: Uint8Array;
  control?: ServiceControl;
  metrics?: MetricsRegistry;
}

/** Opens the data directory for serving: the market, the account store (plans seeded), the process services. */
export function openDeps(config: Config, options: OpenDepsOptions = {}): AppDeps {
  const store = openAccountStore(config.dataDir, config.accountStore);
  const sqlite = store instanceof SqliteAccountStore ? store : null;
  const market = openMarketReader(config.dataDir);
  const counters = options.counters ?? AccountCounters.create();
  // the follow marks of account.db's store: from a copy of each user's follows while the
  // account's version in the shared table stands (every worker moves it on a change)
  sqlite?.shareFollows(counters);
  const ledger = sqlite
    ? sqlite.ledger({ counters, sink: options.ledgerSink, localWriter: options.ledgerLocal ? new LedgerWriter(options.ledgerLocal) : undefined })
    : store.ledger();
  const verifier = store.keyVerifier(undefined, { remote: options.remoteVerify });
  const asOf = market.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()?.value ?? today();
  const deps: AppDeps = {
    config,
    accounts: store,
    account: sqlite?.db ?? null,
    market,
    snapshot: snapshotOf(market),
    verifier,
    ledger,
    limiter: store instanceof PgAccountStore ? new PgRateLimiter(store) : new RateLimiter(counters),
    fx: FxCache.lazy(market),
    signer: new ImageSigner(
      options.secret ? Buffer.from(options.secret) : store instanceof PgAccountStore ? sharedSecret(store, config.dataDir) : loadSecret(config.dataDir),
      config.publicUrl,
    ),
    asOf,
    bare: options.bare,
    control: options.control,
    metrics: options.metrics ?? new MetricsRegistry(),
  };
  return options.live ? withLiveMarket(deps) : deps;
}

/** Deps over the SQLite account store, with its account.db connection (tests and benchmarks). */
export type SqliteAppDeps = AppDeps & { readonly account: Database; readonly ledger: Ledger; readonly limiter: RateLimiter };

/** openDeps on the SQLite account store (throws with another store). */
export function openSqliteDeps(config: Config, options: OpenDepsOptions = {}): SqliteAppDeps {
  const deps = openDeps(config, options);
  if (!deps.account) throw new Error("openSqliteDeps: the account store is not SQLite");
  return deps as SqliteAppDeps;
}

export function closeDeps(deps: AppDeps): void {
  deps.ledger.flush();
  if (deps.live) deps.live.close();
  else deps.market.close();
  deps.accounts.close();
}
