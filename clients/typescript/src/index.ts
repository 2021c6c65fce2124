/**
 * The artmarket TypeScript client: openapi-fetch over the types generated from /openapi.json
 * (./schema.d.ts), with
 * - the key sent as a bearer token on every call;
 * - uploads as Blobs or Files: a body holding one is sent as multipart/form-data, any other as JSON;
 * - retries of 429 and 503 answers after the wait their `Retry-After` asks for (seconds or an HTTP
 *   date), at most `maxRetries` times and never longer than `maxRetryDelayMs` a wait;
 * - `meta` on every answer: the Data Units headers, the rate-limit headers, the request id, the
 *   retries made;
 * - `paginate` and `items`, which follow a list's `next_cursor` to its last page.
 */
import createClient, { type FetchResponse, type MaybeOptionalInit } from "openapi-fetch";
import type { HttpMethod, PathsWithMethod } from "openapi-typescript-helpers";
import type { components, operations, paths } from "./schema";

export type { components, operations, paths };

/** A response's facts from its headers. */
export interface ResponseMeta {
  /** HTTP status. */
  status: number;
  /** `X-Request-Id`: quote it when reporting a problem. */
  requestId: string | null;
  /** `X-Service-DataUnits`: what this call cost (null on calls that carry no DU headers: errors, no key). */
  dataUnits: number | null;
  /** `X-Service-DataUnits-Remaining`: DU left in the current entitlement period. */
  dataUnitsRemaining: number | null;
  /** `X-Service-DataUnits-Period-End`: the period's last day (YYYY-MM-DD). */
  dataUnitsPeriodEnd: string | null;
  /** `X-Service-DataUnits-Quote`: what the GET would cost (answers to HEAD). */
  dataUnitsQuote: number | null;
  /** `RateLimit`: the window nearest to running out, its remaining calls and seconds to its reset. */
  rateLimit: { window: string; remaining: number; resetSeconds: number } | null;
  /** `RateLimit-Policy`: each window's quota and length in seconds. */
  rateLimitPolicy: { window: string; quota: number; windowSeconds: number }[];
  /** `Retry-After` in seconds (an HTTP date turned into the seconds left), on 429 and 503. */
  retryAfterSeconds: number | null;
  /** `ETag` of a market read (send it back as If-None-Match for a 304 at the base price). */
  etag: string | null;
  /** How many times the call was retried after a 429 or 503 before this answer. */
  retries: number;
}

export interface ArtmarketClientOptions {
  /** The server's origin, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** An API key (`am_…`); without one, calls are anonymous (public schema, unmetered lists). */
  apiKey?: string;
  /** Retries of a 429 or 503 answer (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /** The longest wait before a retry (default 60,000 ms): an answer asking for longer is returned as it is. */
  maxRetryDelayMs?: number;
  /** The wait before the first retry when an answer has no usable `Retry-After`, doubled each time (default 500 ms). */
  retryBaseDelayMs?: number;
  /** A fetch of your own (a proxy agent, a test double); default `globalThis.fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** More headers for every call. */
  headers?: Record<string, string>;
}

type Paths = paths;
type InitParam<Init> = object extends Init ? [Init?] : [Init];

/** An answer: openapi-fetch's `{ data }` or `{ error }` with the `response`, and `meta`. */
export type ArtmarketResponse<Operation extends Record<string | number, unknown>, Init> = FetchResponse<Operation, Init, `${string}/${string}`> & { meta: ResponseMeta };

/**
 * A typed call of one HTTP method over the API's paths. Unlike openapi-fetch's own methods, the
 * options are not a type parameter, so an object literal gets TypeScript's excess-property check:
 * a misspelt query parameter or body field is an error, not an ignored extra.
 */
export type ArtmarketMethod<M extends HttpMethod> = <P extends PathsWithMethod<Paths, M>>(
  url: P,
  ...init: InitParam<MaybeOptionalInit<Paths[P], M>>
) => Promise<ArtmarketResponse<Paths[P][M] & Record<string | number, unknown>, MaybeOptionalInit<Paths[P], M>>>;

/** The JSON body of an operation's 200 answer. */
type Ok<Operation> = Operation extends { responses: { 200: { content: { "application/json": infer Body } } } } ? Body : never;

/** The GET paths whose answer is a page with `next_cursor`: the market lists and their followed forms. */
export type ListPath = {
  [P in PathsWithMethod<Paths, "get">]: Ok<Paths[P]["get"]> extends { next_cursor: string | null } ? P : never;
}[PathsWithMethod<Paths, "get">];

/** A page of a list. */
export type ListPage<P extends ListPath> = Ok<Paths[P]["get"]>;

/** The fields of a list's page that hold its rows (`artists`, `artworks`, `lots`, `sales`). */
export type ListItemsKey<P extends ListPath> = {
  [K in keyof ListPage<P>]: ListPage<P>[K] extends readonly unknown[] ? K : never;
}[keyof ListPage<P>];

type ListInit<P extends ListPath> = MaybeOptionalInit<Paths[P], "get">;

/** A call that did not succeed, thrown by `paginate` and `items`. */
export class ArtmarketError extends Error {
  constructor(
    readonly status: number,
    /** The error body's `detail`: a message, or the 422 issues. */
    readonly detail: unknown,
    readonly meta: ResponseMeta,
  ) {
    super(`artmarket answered ${status}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
    this.name = "ArtmarketError";
  }
}

export interface ArtmarketClient {
  GET: ArtmarketMethod<"get">;
  POST: ArtmarketMethod<"post">;
  PUT: ArtmarketMethod<"put">;
  PATCH: ArtmarketMethod<"patch">;
  DELETE: ArtmarketMethod<"delete">;
  /**
   * Every page of a list, from the first (or the `cursor` given) to the last, each with its `meta`;
   * throws ArtmarketError on an answer that is not 200.
   */
  paginate<P extends ListPath>(path: P, ...init: InitParam<ListInit<P>>): AsyncGenerator<{ page: ListPage<P>; meta: ResponseMeta }, void, undefined>;
  /** Every row of a list (the page field `key`), across its pages. */
  items<P extends ListPath, K extends ListItemsKey<P>>(
    path: P,
    key: K,
    ...init: InitParam<ListInit<P>>
  ): AsyncGenerator<ListPage<P>[K] extends readonly (infer Row)[] ? Row : never, void, undefined>;
}

const RETRIED = new WeakMap<Response, number>();

const numberHeader = (headers: Headers, name: string): number | null => {
  const value = headers.get(name);
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

/** The parameters of one structured-field item: `"second";r=9;t=1` → second, {r: 9, t: 1}. */
function fieldItem(item: string): { name: string; params: Record<string, number> } | null {
  const [head, ...params] = item.trim().split(";");
  const name = head?.trim().replace(/^"|"$/g, "");
  if (!name) return null;
  const out: Record<string, number> = {};
  for (const p of params) {
    const [k, v] = p.split("=");
    if (k && v !== undefined && Number.isFinite(Number(v))) out[k.trim()] = Number(v);
  }
  return { name, params: out };
}

/** Milliseconds a `Retry-After` value asks for (delta-seconds or an HTTP date), or null when it is not one. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A response's `meta`. */
export function responseMeta(response: Response): ResponseMeta {
  const h = response.headers;
  const limit = fieldItem(h.get("RateLimit") ?? "");
  const retryAfter = retryAfterMs(h.get("Retry-After"));
  return {
    status: response.status,
    requestId: h.get("X-Request-Id"),
    dataUnits: numberHeader(h, "X-Service-DataUnits"),
    dataUnitsRemaining: numberHeader(h, "X-Service-DataUnits-Remaining"),
    dataUnitsPeriodEnd: h.get("X-Service-DataUnits-Period-End"),
    dataUnitsQuote: numberHeader(h, "X-Service-DataUnits-Quote"),
    rateLimit: limit && limit.params.r !== undefined && limit.params.t !== undefined ? { window: limit.name, remaining: limit.params.r, resetSeconds: limit.params.t } : null,
    rateLimitPolicy: (h.get("RateLimit-Policy") ?? "")
      .split(",")
      .map(fieldItem)
      .flatMap((p) => (p && p.params.q !== undefined && p.params.w !== undefined ? [{ window: p.name, quota: p.params.q, windowSeconds: p.params.w }] : [])),
    retryAfterSeconds: retryAfter === null ? null : Math.ceil(retryAfter / 1000),
    etag: h.get("ETag"),
    retries: RETRIED.get(response) ?? 0,
  };
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A fetch that sends a request again after a 429 or 503, as the answer's Retry-After says. */
export function retryingFetch(
  inner: (request: Request) => Promise<Response>,
  options: { maxRetries: number; maxRetryDelayMs: number; retryBaseDelayMs: number },
): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.maxRetries;
      // the body can be sent once: each attempt but the last sends a copy
      const response = await inner(last ? request : (request.clone() as Request));
      let wait: number | null = null;
      if (!last && (response.status === 429 || response.status === 503)) {
        wait = retryAfterMs(response.headers.get("Retry-After")) ?? options.retryBaseDelayMs * 2 ** attempt;
        if (wait > options.maxRetryDelayMs) wait = null;
      }
      if (wait === null) {
        RETRIED.set(response, attempt);
        return response;
      }
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}

const isFile = (v: unknown): v is Blob => typeof Blob !== "undefined" && v instanceof Blob;

/** A request body: multipart/form-data when it holds a Blob or File (its other fields as text), else JSON. */
export function serializeBody(body: unknown): string | FormData | undefined {
  if (body === undefined) return undefined;
  if (body instanceof FormData) return body;
  if (body === null || typeof body !== "object" || Array.isArray(body)) return JSON.stringify(body);
  const entries = Object.entries(body as Record<string, unknown>);
  if (!entries.some(([, v]) => isFile(v) || (Array.isArray(v) && v.some(isFile)))) return JSON.stringify(body);
  const form = new FormData();
  for (const [name, value] of entries) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === undefined || v === null) continue;
      if (isFile(v)) form.append(name, v, v instanceof File && v.name ? v.name : name);
      else form.append(name, typeof v === "object" ? JSON.stringify(v) : String(v));
    }
  }
  return form;
}

/** A client of an artmarket server. */
export function createArtmarketClient(options: ArtmarketClientOptions): ArtmarketClient {
  const fetcher = retryingFetch(options.fetch ?? ((request) => globalThis.fetch(request as Parameters<typeof globalThis.fetch>[0])), {
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 3)),
    maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
  });
  const base = createClient<Paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: fetcher,
    bodySerializer: serializeBody,
    headers: { ...options.headers, ...(options.apiKey && { Authorization: `Bearer ${options.apiKey}` }) },
  });
  type Call = (url: string, init?: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const withMeta = (call: Call) => async (url: string, init?: unknown) => {
    const result = await call(url, init);
    return Object.assign(result, { meta: responseMeta(result.response) });
  };
  const GET = withMeta(base.GET as Call);

  async function* paginate(path: string, init?: { params?: { query?: Record<string, unknown> } } & Record<string, unknown>) {
    let cursor = init?.params?.query?.cursor as string | undefined;
    for (;;) {
      const query = { ...init?.params?.query, ...(cursor !== undefined && { cursor }) };
      const { data, error, meta } = await GET(path, { ...init, params: { ...init?.params, query } });
      if (error !== undefined || data === undefined) throw new ArtmarketError(meta.status, (error as { detail?: unknown } | undefined)?.detail ?? error, meta);
      const page = data as { next_cursor?: string | null };
      yield { page, meta };
      if (typeof page.next_cursor !== "string") return;
      cursor = page.next_cursor;
    }
  }

  async function* items(path: string, key: string, init?: Parameters<typeof paginate>[1]) {
    for await (const { page } of paginate(path, init)) yield* (page as Record<string, unknown[]>)[key] ?? [];
  }

  return {
    GET,
    POST: withMeta(base.POST as Call),
    PUT: withMeta(base.PUT as Call),
    PATCH: withMeta(base.PATCH as Call),
    DELETE: withMeta(base.DELETE as Call),
    paginate,
    items,
  } as unknown as ArtmarketClient;
}
