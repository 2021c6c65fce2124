import type { Static, TSchema } from "@sinclair/typebox";
import { type Caller, isWellFormedKey } from "../accounts/keys";
import { CSRF_HEADER, sameToken, sessionCaller } from "../accounts/sessions";
import type { Entitlement } from "../accounts/plans";
import type { Generation } from "../live-market";
import { parseList, parseScalar, type ListSpec, type ParamsOf, type ParsedList, type ScalarType, type ScalarValue } from "../query/grammar";
import { knownParameters, unknownParameters } from "../query/unknown";
import { withQueryBudget } from "../query/budget";
import { Value } from "@sinclair/typebox/value";
import { AUTH_PROBLEMS, forbidden, fromSchemaErrors, HttpError, nestingDepth, unauthorized, ValidationFailed, type ValidationIssue } from "./errors";
import { DU_HEADERS, type RateState, rateLimitHeaders, setDuHeaders } from "./metering";
import { BodyBudget } from "./body-budget";
import { clientAddressOf, requestOrigin } from "./client";
import { formBodyCap, MAX_JSON_BYTES, MAX_JSON_DEPTH, readCappedBody, readForm, refuseDeclaredOver, tooDeep, type FilePart, type FormSpec } from "./multipart";
import { costOf, formatDu, type Price } from "./pricing";
import { bodyOver, encodeJson, isCompressible, streamedResponse, varyOnEncoding } from "./compression";
import { etagOf, ifNoneMatch, isMarketRead, requestKey, snapshotId } from "./etag";
import { noteOf } from "./request-note";
import type { AppDeps } from "../deps";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The response header naming the market snapshot that answered (the id /readyz shows). */
export const SNAPSHOT_HEADER = "X-Market-Snapshot";

/**
 * A metered response whose body as sent (compressed when the client takes it) is larger than this
 * leaves as a stream: `Transfer-Encoding: chunked`, no Content-Length. Its response is made after
 * its ledger row's group commit, on a later event-loop turn than its request's, and Bun.serve
 * (1.4.5) writes such a response uncorked: a body of more than 15 KiB then leaves in pieces (a
 * `sendto()` for the status line, each header and each piece of the body: 23 for 30 KB, about
 * 90 µs more CPU than in the request's turn). A body streamed in one write leaves in two on any
 * turn (streamedResponse, compression.ts). Smaller bodies leave in one `send()` on any turn, with
 * their Content-Length. docs/benchmarks.md (api), docs/decisions.md.
 */
export const STREAM_BYTES = 15 * 1024;

/** The budget of request bodies for deps that bring none. */
const DEFAULT_BODY_BUDGET = new BodyBudget();

export type Schema = "full" | "public";

/**
 * Who may call an endpoint. public: no key looked at; optional: no key gives the public schema, a
 * bad key 401; required: 401 without a key; account: a key or a console session (the account
 * area: src/serve/accounts/sessions.ts), 401 without either; admin: as account, and 403 unless the
 * user is an admin.
 */
export type Auth = "public" | "optional" | "required" | "account" | "admin";

/**
 * The caller a handler sees: never null behind `auth: "required"`, "account" or "admin" (the
 * pipeline answers 401 first). The one exception is `deps.bare` (the benchmark's baseline, auth
 * off), where it is null: a handler of such a route is not meant to run bare.
 */
export type CallerOf<A extends Auth> = A extends "required" | "account" | "admin" ? Caller : Caller | null;

/** Methods that change nothing: a read key makes only these, and a session's calls of these need no CSRF token. */
const READ_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** Response schemas; `public` is the reduced one for unentitled callers. */
export interface ResponseSpec {
  full: TSchema;
  public?: TSchema;
}

/** The validated body a handler gets: Static of the JSON schema, of a form's fields, else undefined. */
export type BodyOf<B, F> = B extends TSchema ? Static<B> : F extends FormSpec ? Static<F["fields"]> : undefined;

/** Path parameters: those of `pathParams` as parsed, any other `{name}` of the path as its raw text. */
export type PathParamsOf<Path extends string, PP> = Simplify<{ [K in keyof PP]: ScalarValue<PP[K]> } & { [K in Exclude<PathNames<Path>, keyof PP>]: string }>;
type PathNames<Path extends string> = Path extends `${string}{${infer N}}${infer Rest}` ? N | PathNames<Rest> : never;
type Simplify<O> = { [K in keyof O]: O[K] };

/** What a handler may return: a body of the full or the public schema; nothing for an endpoint without one (204). */
export type ReplyOf<R> = R extends { full: infer F extends TSchema } ? Static<F> | (R extends { public: infer Pub extends TSchema } ? Static<Pub> : never) : null | undefined;

export interface RequestContext<P = Record<string, unknown>, Q = Record<string, unknown>, B = unknown, A extends Auth = Auth> {
  readonly request: Request;
  readonly url: URL;
  readonly params: P;
  readonly query: ParsedList<Q>;
  /** The validated JSON body, or a form's validated text fields (undefined when the endpoint declares neither). */
  readonly body: B;
  /** A form's file parts by field name (empty unless the endpoint declares `form.files`). */
  readonly files: Readonly<Record<string, FilePart>>;
  readonly caller: CallerOf<A>;
  /** Which response schema this caller gets. */
  readonly schema: Schema;
  readonly deps: AppDeps;
  /** Scheme and host of the request, for URLs the response carries. */
  readonly origin: string;
  /** Headers the handler adds to its answer (a session's Set-Cookie). */
  readonly replyHeaders: Record<string, string>;
}

interface EndpointCommon {
  method: Method;
  /** OpenAPI form: /v1/artists/{artist_id}. */
  path: string;
  /**
   * The OpenAPI operationId: a readable, unique camelCase name (listArtists, getArtistChart), which
   * generated clients name their methods after. Every endpoint the document describes declares one;
   * building the document throws on one that does not.
   */
  operationId?: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  /** DU charged per call: base + perRecord × `records` (src/serve/http/pricing.ts: `DU.spec(2, 1)`, `DU.ANALYTICS`…). */
  price: Price;
  entitlement?: Entitlement;
  status?: 200 | 201 | 204;
}

/**
 * An endpoint as declared, every part typed from its declaration: the handler's path params, list
 * params, body and caller, and what it must return. defineEndpoint infers the type parameters.
 */
export interface EndpointDecl<
  Path extends string,
  A extends Auth,
  PP extends Record<string, ScalarType>,
  L extends ListSpec | undefined,
  B extends TSchema | undefined,
  F extends FormSpec | undefined,
  R extends ResponseSpec | undefined,
> extends EndpointCommon {
  path: Path;
  auth: A;
  pathParams?: PP;
  /** The query grammar; its parameters are all the endpoint takes (any other, or any without one: 422 extra_forbidden). */
  list?: L;
  /** JSON request body schema; validated before the handler, failures are 422 at loc ["body", …]. */
  body?: B;
  /**
   * multipart/form-data (or urlencoded) request body: text fields validated against `fields` like a
   * JSON body (422 at loc ["body", field]), file parts delivered in ctx.files as { field, name,
   * type, bytes }; the whole request capped at `maxBytes` (413). See src/serve/http/multipart.ts.
   */
  form?: F;
  /** Response schemas; `public` is the reduced one for unentitled callers. Absent for 204. */
  response?: R;
  /** Records the response carries, for per-record pricing (default: 0 for a base-only price). */
  records?: (body: any) => number;
  handle: (ctx: RequestContext<PathParamsOf<Path, PP>, ParamsOf<L>, BodyOf<B, F>, A>) => NoInfer<ReplyOf<R>> | Promise<NoInfer<ReplyOf<R>>>;
}

/** An endpoint with its types erased: what the registry (ENDPOINTS), the pipeline and OpenAPI handle. */
export interface Endpoint extends EndpointCommon {
  pathParams?: Record<string, ScalarType>;
  list?: ListSpec;
  body?: TSchema;
  form?: FormSpec;
  response?: ResponseSpec;
  records?(body: any): number;
  handle(ctx: RequestContext): unknown;
}

export interface MountedEndpoint extends Endpoint {
  elysiaPath: string;
}

export function defineEndpoint<
  const Path extends string,
  const A extends Auth,
  PP extends Record<string, ScalarType> = {},
  const L extends ListSpec | undefined = undefined,
  B extends TSchema | undefined = undefined,
  F extends FormSpec | undefined = undefined,
  R extends ResponseSpec | undefined = undefined,
>(e: EndpointDecl<Path, A, PP, L, B, F, R>): Endpoint {
  return e;
}

/**
 * The adapter for a body a service builds as a loose record (SQL rows, Record<string, unknown>):
 * typed as the Static of its response schemas, the value itself untouched. Nothing is checked here
 * at run time; the tests validate every response against its schema (tests/helpers/app.ts).
 */
export function asReply<S extends TSchema[]>(body: object, ..._schemas: S): Static<S[number]> {
  return body as Static<S[number]>;
}

/** What a HEAD on a metered GET answers instead of charging: the DU the GET would cost. */
export const DU_QUOTE_HEADER = "X-Service-DataUnits-Quote";

/** Headers on every response of the API: CORS for browsers, with the DU headers (and the quote, the ETag) exposed; no MIME sniffing. */
export const RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "X-Content-Type-Options": "nosniff",
  "Access-Control-Expose-Headers": [...DU_HEADERS, DU_QUOTE_HEADER, "ETag", "Retry-After", "RateLimit", "RateLimit-Policy", "X-Request-Id", SNAPSHOT_HEADER].join(", "),
};

const EMPTY_LIST: ParsedList = Object.freeze({ filters: [], sort: null, limit: 0, offset: 0, params: {} }) as ParsedList;

function bearer(request: Request): string | null | undefined {
  const header = request.headers.get("authorization");
  if (header === null) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

function parsePathParams(e: Endpoint, raw: Record<string, string>): Record<string, unknown> {
  if (!e.pathParams) return raw;
  const issues: ValidationIssue[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(e.pathParams)) {
    let text = raw[name] ?? "";
    try {
      text = decodeURIComponent(text);
    } catch {
      // a malformed escape is validated as the raw text
    }
    const value = parseScalar(type, text, ["path", name], issues);
    if (value !== undefined) out[name] = value;
  }
  if (issues.length) throw new ValidationFailed(issues);
  return out;
}

/**
 * The query string against the endpoint's grammar. A parameter the grammar does not declare (any,
 * for an endpoint without one) is 422 `extra_forbidden`, reported before the grammar's own issues.
 */
function parseQuery(e: Endpoint, known: ReadonlySet<string>, query: URLSearchParams): ParsedList {
  const extra = unknownParameters(known, query);
  let parsed = EMPTY_LIST;
  if (e.list) {
    try {
      parsed = parseList(e.list, query);
    } catch (err) {
      if (extra.length && err instanceof ValidationFailed) throw new ValidationFailed([...extra, ...err.issues]);
      throw err;
    }
  }
  if (extra.length) throw new ValidationFailed(extra);
  return parsed;
}

const MAX_JSON_BODY = MAX_JSON_BYTES;
const NO_FILES: Record<string, FilePart> = Object.freeze({}) as Record<string, FilePart>;

/**
 * Reads and validates a JSON body against its schema: 413 when it has more than MAX_JSON_BODY bytes
 * (at once from Content-Length, else while it streams), 422 when malformed, nested deeper than
 * MAX_JSON_DEPTH, or invalid.
 */
async function readJsonBody(request: Request, schema: TSchema, onChunk?: (bytes: number) => void): Promise<unknown> {
  const bytes = await readCappedBody(request, MAX_JSON_BODY, onChunk);
  const text = new TextDecoder().decode(bytes);
  let value: unknown;
  try {
    value = text === "" ? undefined : JSON.parse(text);
  } catch (err) {
    throw new ValidationFailed([{ loc: ["body"], msg: `JSON decode error: ${(err as Error).message}`, type: "json_invalid", input: text.slice(0, 200), ctx: {} }]);
  }
  if (value === undefined) throw new ValidationFailed([{ loc: ["body"], msg: "Field required", type: "missing", input: null, ctx: {} }]);
  if (nestingDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw tooDeep();
  if (!Value.Check(schema, value)) throw new ValidationFailed(fromSchemaErrors("body", [...Value.Errors(schema, value)], value));
  return value;
}

/**
 * The caller of an account-area call made without a key: its console session (the cookie), 401
 * without one; a call that changes something must carry the session's CSRF token (403 without it).
 */
function sessionOf(request: Request, deps: AppDeps): Caller {
  const session = sessionCaller(deps.accounts, request, (slug) => deps.accounts.getPlan(slug));
  if (!session) throw unauthorized(AUTH_PROBLEMS.account);
  if (!READ_METHODS.has(request.method)) {
    const token = request.headers.get(CSRF_HEADER);
    if (token === null || !sameToken(token, session.csrf)) throw forbidden(`A call with a session must carry the session's CSRF token in ${CSRF_HEADER}.`);
  }
  return session.caller;
}

/**
 * The request pipeline for one endpoint; returns the function Elysia calls. Besides the steps above:
 * a HEAD (Elysia runs the GET's route for it and drops the body) runs the handler, charges 0 DU and
 * answers the GET's cost in X-Service-DataUnits-Quote; a market read carries a weak ETag
 * (src/serve/http/etag.ts), and If-None-Match with it answers 304 at the base price, no per-record
 * part; a JSON body of 1 KiB or more is compressed as Accept-Encoding allows (compression.ts).
 */
export function pipeline(e: MountedEndpoint, deps: AppDeps) {
  const { price } = e;
  const status = e.status ?? 200;
  const marketRead = isMarketRead(e.method, e.path);
  // the most a call can cost (a hard cap admits calls by it): a list's largest page, else the base
  // (an endpoint priced per record without a bound on its records is admitted alone)
  const maxCost = e.list?.limit ? costOf(price, e.list.limit.max) : price.perRecord > 0 ? Number.POSITIVE_INFINITY : price.base;
  const known = knownParameters(e.list);
  const run = async (deps: AppDeps, request: Request, rawParams: Record<string, string>): Promise<Response> => {
    const url = new URL(request.url);
    const note = noteOf(request, e.path);
    // every answer names its snapshot, an error's too (src/serve/app.ts sets it from the note)
    const snapshot = snapshotId(deps.snapshot);
    note.snapshot = snapshot;
    const head = request.method === "HEAD";
    // a body declared larger than the endpoint takes is refused before anything else is read
    if (e.body) refuseDeclaredOver(request, MAX_JSON_BODY);
    else if (e.form) refuseDeclaredOver(request, formBodyCap(request, e.form));
    let caller: Caller | null = null;
    if (e.auth !== "public" && !deps.bare) {
      const key = bearer(request);
      if (key === undefined) {
        if (e.auth === "account" || e.auth === "admin") caller = sessionOf(request, deps);
        else if (e.auth === "required") throw unauthorized(AUTH_PROBLEMS.none);
      } else {
        caller = key === null ? null : (deps.verifier.cached(key) ?? (await deps.verifier.verify(key, clientAddressOf(request, deps.config.trustProxy ?? false))));
        if (!caller) throw unauthorized(key === null ? AUTH_PROBLEMS.header : isWellFormedKey(key) ? AUTH_PROBLEMS.refused : AUTH_PROBLEMS.shape);
      }
    } else if (e.auth === "public" && !deps.bare) {
      // A public route never refuses a key, but a valid one makes the call an authenticated one:
      // it is recorded at its price (0 for every public route) and carries the DU headers.
      const key = bearer(request);
      if (key) caller = deps.verifier.cached(key) ?? (await deps.verifier.verify(key, clientAddressOf(request, deps.config.trustProxy ?? false), false));
    }
    if (caller) {
      note.keyId = caller.keyId;
      note.plan = caller.plan.slug;
      if (caller.scope === "read" && !READ_METHODS.has(request.method) && e.auth !== "public") {
        throw forbidden("This API key is read-only (scope read): it makes GET and HEAD calls only.");
      }
      if (e.auth === "admin" && caller.role !== "admin") throw forbidden("Only an admin may call this.");
    }
    // a console session's calls are not metered (the account area is free; market data needs a key)
    const metered = caller !== null && caller.sessionId === null;
    let rate: RateState | undefined;
    // A rate check answered later (the PostgreSQL store's, across nodes): a read runs beside it and
    // waits for it before it is charged (a refused read's work is dropped); a write waits first.
    let ratePending: Promise<RateState> | undefined;
    if (metered && caller && e.auth !== "public") {
      const checked = deps.limiter.check(caller);
      if (!(checked instanceof Promise)) rate = checked;
      else if (e.method === "GET") {
        ratePending = checked;
        checked.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
      } else rate = await checked;
      // The cap guards DU: calls that cost none (usage, follows, shares, any HEAD) are served past
      // it, so a capped caller can still read /v1/usage and ask what a call would cost.
      if (e.entitlement && !caller.plan.features[e.entitlement]) {
        if (ratePending) rate = await ratePending; // a 429 comes before the 403, as for a write
        throw forbidden(`Your plan (${caller.plan.slug}) does not include ${e.entitlement}`);
      }
    }
    // a plan with a hard cap: the call is admitted against the allowance (or 429 once it is used
    // up), beside the calls of the same account in flight on any worker, so that the cap is
    // crossed by at most one call (Ledger.admit); the admission ends with the charge below
    const admission =
      metered && caller && e.auth !== "public" && !head && caller.plan.features.cap === "hard" && (price.base > 0 || price.perRecord > 0)
        ? await deps.ledger.admit(caller, maxCost)
        : undefined;
    try {
      const params = parsePathParams(e, rawParams);
      const query = parseQuery(e, known, url.searchParams);
      let input: unknown;
      let files: Record<string, FilePart> = NO_FILES;
      // the body's bytes are held against the process's budget until the response is made
      const lease =
        e.body || e.form ? (deps.bodies ?? DEFAULT_BODY_BUDGET).lease(caller ? `user:${caller.userId}` : `addr:${clientAddressOf(request, deps.config.trustProxy)}`) : null;
      let body: unknown;
      let schema: Schema = "public";
      const replyHeaders: Record<string, string> = {};
      try {
        const take = lease ? (n: number) => lease.take(n) : undefined;
        if (e.body) input = await readJsonBody(request, e.body, take);
        else if (e.form) ({ fields: input, files } = await readForm(request, e.form, take));
        schema = deps.bare || (e.auth !== "public" && caller?.plan.features.schema === "full") ? "full" : "public";
        const origin = requestOrigin(request, url, deps.config.trustProxy);
        // the handler's market queries run under the request's time budget (503 past it: query/budget.ts)
        body = await withQueryBudget(() => e.handle({ request, url, params, query, body: input, files, caller, schema, deps, origin, replyHeaders }));
      } finally {
        lease?.release();
      }

      if (ratePending) rate = await ratePending;
      const headers: Record<string, string> = { ...RESPONSE_HEADERS, [SNAPSHOT_HEADER]: snapshot, ...replyHeaders };
      const json = status === 204 || body instanceof Response ? null : JSON.stringify(body);
      // a market read's validator; a match answers 304 (RFC 9110: If-None-Match on GET and HEAD)
      const etag = marketRead && json !== null && status === 200 ? etagOf(snapshotId(deps.snapshot), requestKey(url, schema, caller !== null), json) : null;
      const notModified = etag !== null && ifNoneMatch(request.headers.get("if-none-match"), etag);
      // the body as sent (compressed here when the client takes it), made before the charge: its size decides when the row commits
      const sent = json !== null && !notModified ? encodeJson(request, json, headers) : null;
      if (metered && caller) {
        // a 304 delivers no records: the base price only; a HEAD costs nothing and quotes the GET
        const records = notModified ? 0 : e.records ? e.records(body) : 0;
        const quote = costOf(price, records);
        const du = head ? 0 : quote;
        const charged = deps.ledger.charge(
          caller,
          {
            userId: caller.userId,
            keyId: caller.keyId,
            ts: Date.now(),
            method: head ? "HEAD" : e.method,
            route: e.path,
            status: notModified ? 304 : status,
            records: head ? 0 : records,
            du,
          },
          admission,
        );
        await charged.committed;
        note.du = du;
        note.keyId = caller.keyId;
        note.plan = caller.plan.slug;
        setDuHeaders(headers, caller, du, charged);
        if (head) headers[DU_QUOTE_HEADER] = formatDu(quote);
        if (rate) Object.assign(headers, rateLimitHeaders(rate));
      }
      if (status === 204) return new Response(null, { status, headers });
      if (body instanceof Response) {
        for (const [k, v] of Object.entries(headers)) body.headers.set(k, v);
        return body;
      }
      if (etag !== null) headers.ETag = etag;
      if (notModified) {
        // the 304 has the headers the 200 would have had that describe it: ETag, Vary
        if (isCompressible(json!)) varyOnEncoding(headers);
        return new Response(null, { status: 304, headers });
      }
      // a metered response is made after its row's commit, on a later turn: a large body streams (STREAM_BYTES)
      if (metered && !head && bodyOver(sent!, STREAM_BYTES)) return streamedResponse(sent!, status, headers);
      return new Response(sent!, { status, headers });
    } finally {
      admission?.release();
    }
  };
  const live = deps.live;
  if (!live) return (request: Request, rawParams: Record<string, string>) => run(deps, request, rawParams);
  // a server's worker: the request runs on the market view current when it starts, to its end,
  // whatever is swapped meanwhile (src/serve/live-market.ts); the deps of a view are made once
  let pinnedOf: Generation["view"] | null = null;
  let pinned: AppDeps = deps;
  return async (request: Request, rawParams: Record<string, string>): Promise<Response> => {
    const g = live.enter();
    try {
      if (g.view !== pinnedOf) {
        pinnedOf = g.view;
        pinned = { ...deps, market: g.view.market, snapshot: g.view.snapshot, fx: g.view.fx, asOf: g.view.asOf };
      }
      return await run(pinned, request, rawParams);
    } finally {
      live.leave(g);
    }
  };
}

export function mountable(e: Endpoint): MountedEndpoint {
  return { ...e, elysiaPath: e.path.replace(/\{(\w+)\}/g, ":$1") };
}

export { HttpError };
export type { FilePart, FormSpec } from "./multipart";
