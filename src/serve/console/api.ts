// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * The console's API client: a small typed fetch wrapper over the endpoints the console reads (the
 * types below are the fields it uses, as /openapi.json describes them), and the meter: every
 * call's Data Units and rate-limit headers, kept for the header bar and the call log.
 */

export interface IndexPoint {
  time: string;
  value: number;
  value_low?: number;
  value_high?: number;
  extrapolated?: boolean;
}

export interface Artist {
  id: number;
  name: string;
  nationality: string | null;
  birth: number | null;
  death: number | null;
  bio?: string;
  total_sales?: number | null;
  market_cap?: number | null;
  max_price?: number | null;
  price_momentum_percentage_12mo?: number | null;
  price_momentum_percentage_5y?: number | null;
  artworks_count?: number;
  total_sales_lots_1yr?: number;
  artist_index_chart?: IndexPoint[] | null;
  photo_thumbnail_url?: string | null;
  similarity?: number;
}

export interface ArtistList {
  artists: Artist[];
  total: number | null;
  limit: number;
  offset: number;
}

export interface ImageRef {
  id: number;
  urls: Record<string, string>;
}

export interface Artwork {
  id: number;
  currency: string;
  last_lot_status: string;
  current_estimated_price?: number | null;
  current_estimated_price_min?: number | null;
  current_estimated_price_max?: number | null;
  current_estimated_price_currency?: string | null;
  price_momentum_12mo?: number | null;
  description: {
    name: string;
    materials: string | null;
    creation_year: number | null;
    image: ImageRef | null;
    artist: { id: number; name: string };
    measurements?: { height_cm: number | null; width_cm: number | null; depth_cm: number | null; size: string | null } | null;
    edition?: { edition_size: number | null; edition_number: number | null; edition_unique_type: string | null } | null;
  };
}

export interface ArtworkList {
  items: Artwork[];
  total_count: number | null;
  limit: number;
  offset: number;
}

export interface Chart {
  resolution: string;
  unit: string;
  currency: string;
  series: { id: string; label: string; data: IndexPoint[] }[];
}

export interface Events {
  artist_id: number;
  events: { id: number; date: string; type: string; title: string; description: string }[];
}

export interface Sharpe {
  artist_id: number;
  horizons: { horizon_years: number; sharpe_ratio: number | null }[];
}

export interface CompoundReturns {
  artist_id: number;
  items: { year: number; car: number }[];
}

export interface Related {
  artist_id: number;
  artists: Artist[];
}

export interface SimilarResults {
  results: { score: number; artwork: Artwork }[];
}

export interface Usage {
  plan: string;
  du_limit: number;
  du_consumed: number;
  du_remaining: number;
  period_end: string;
  daily_du_limit: number | null;
  daily_du_consumed: number;
}

/** The endpoints the console calls and what each answers. */
export interface Routes {
  "/v1/usage": Usage;
  "/v1/artists": ArtistList;
  "/v1/artists/{id}": Artist;
  "/v1/artists/{id}/chart": Chart;
  "/v1/artists/{id}/events": Events;
  "/v1/artists/{id}/sharpe-ratio": Sharpe;
  "/v1/artists/{id}/compound-annual-returns": CompoundReturns;
  "/v1/artists/{id}/related": Related;
  "/v1/artworks": ArtworkList;
  "/v1/artworks/{id}": Artwork;
  "/v1/artworks/{id}/chart": Chart;
  "/v1/artworks/{id}/similar": SimilarResults;
  "/v1/artworks/search-by-image": SimilarResults;
}

/** One call as the log shows it. */
export interface CallRecord {
  method: string;
  path: string;
  status: number;
  /** X-Service-DataUnits: what the call cost (null when the answer has none: errors, public calls). */
  du: number | null;
  ms: number;
}

export interface Meter {
  plan: string | null;
  duLimit: number | null;
  /** X-Service-DataUnits-Remaining of the latest metered answer. */
  remaining: number | null;
  /** The RateLimit header of the latest answer: remaining requests per window. */
  rate: string | null;
  /** RateLimit-Policy: the windows' quotas. */
  policy: string | null;
}

/** A non-2xx answer, with the API's detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status}: ${detail}`);
  }
}

const KEY_ITEM = "artmarket.console.key";

export const key = {
  get: (): string | null => sessionStorage.getItem(KEY_ITEM),
  set: (value: string) => sessionStorage.setItem(KEY_ITEM, value),
  clear: () => sessionStorage.removeItem(KEY_ITEM),
};

export const meter: Meter = { plan: null, duLimit: null, remaining: null, rate: null, policy: null };
export const calls: CallRecord[] = [];
const listeners: (() => void)[] = [];

export function onMeter(listener: () => void): void {
  listeners.push(listener);
}

function detailOf(body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join(".")}: ${d.msg ?? ""}`).join("; ");
  return "request failed";
}

type Params = Record<string, string | number | boolean | null | undefined>;

function fill(path: string, params: Params): { url: string; rest: URLSearchParams } {
  const rest = new URLSearchParams();
  let url = path;
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") continue;
    if (url.includes(`{${k}}`)) url = url.replace(`{${k}}`, encodeURIComponent(String(v)));
    else rest.set(k, String(v));
  }
  return { url, rest };
}

/** Calls one endpoint; `anonymous` sends no key (the public views). */
export async function call<P extends keyof Routes>(path: P, params: Params = {}, init: { method?: string; body?: FormData; anonymous?: boolean } = {}): Promise<Routes[P]> {
  const { url, rest } = fill(path, params);
  const target = rest.size ? `${url}?${rest}` : url;
  const headers: Record<string, string> = { Accept: "application/json" };
  const k = init.anonymous ? null : key.get();
  if (k) headers.Authorization = `Bearer ${k}`;
  const method = init.method ?? "GET";
  const started = performance.now();
  const res = await fetch(target, { method, headers, body: init.body });
  const du = res.headers.get("X-Service-DataUnits");
  const remaining = res.headers.get("X-Service-DataUnits-Remaining");
  if (remaining !== null) meter.remaining = Number(remaining);
  const rate = res.headers.get("RateLimit");
  if (rate !== null) meter.rate = rate;
  const policy = res.headers.get("RateLimit-Policy");
  if (policy !== null) meter.policy = policy;
  const body = await res.json().catch(() => null);
  calls.unshift({ method, path: target, status: res.status, du: du === null ? null : Number(du), ms: Math.round(performance.now() - started) });
  if (calls.length > 50) calls.length = 50;
  for (const l of listeners) l();
  if (!res.ok) throw new ApiError(res.status, detailOf(body));
  return body as Routes[P];
}

/** Signs in: the key is checked with /v1/usage (free) and kept in this tab's session storage. */
export async function signIn(value: string): Promise<Usage> {
  key.set(value);
  try {
    const usage = await call("/v1/usage");
    meter.plan = usage.plan;
    meter.duLimit = usage.du_limit;
    meter.remaining = usage.du_remaining;
    for (const l of listeners) l();
    return usage;
  } catch (error) {
    key.clear();
    throw error;
  }
}

export function signOut(): void {
  key.clear();
  meter.plan = meter.duLimit = meter.remaining = null;
  meter.rate = meter.policy = null;
  for (const l of listeners) l();
}
