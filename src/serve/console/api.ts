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
  /** Full schema only. */
  is_followed?: boolean;
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
  /** Full schema only. */
  is_followed?: boolean;
  description: {
    name: string;
    materials: string | null;
    creation_year: number | null;
    image: ImageRef | null;
    artist: { id: number; name: string };
    category_id: number;
    measurements?: { height_cm: number | null; width_cm: number | null; depth_cm: number | null; size: string | null } | null;
    edition?: { edition_group_id: number | null; edition_size: number | null; edition_number: number | null; edition_unique_type: "unique" | "edition" } | null;
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

/** Lots by year and outcome: the first item all lots (category_id null), then one per category; the arrays align with `dates`. */
export interface SalesVolume {
  artist_id: number;
  items: {
    category_id: number | null;
    /** One per year (YYYY-01-01), contiguous. */
    dates: string[];
    lots_above_estimate: number[];
    lots_within_estimate: number[];
    lots_below_estimate: number[];
    lots_not_sold: number[];
  }[];
}

/** Works by medium and creation year: counted (career-path-count, unit "artworks") or their estimates summed (career-path-lae, unit "USD"). */
export interface CareerPath {
  artist_id: number;
  unit: "artworks" | "USD";
  /** One per medium, largest total first; every medium has the same contiguous years. */
  items: { medium: string; points: { year: number; value: number }[] }[];
}

export interface Related {
  artist_id: number;
  artists: Artist[];
}

export interface SimilarResults {
  results: { score: number; artwork: Artwork }[];
}

/** One pool's three windows (the enterprise plan's API pool repeats them with the api_ prefix). */
export interface UsageWindows {
  du_limit: number;
  /** DU consumed from..to (by default the current period up to today). */
  du_consumed: number;
  du_remaining: number;
  daily_du_limit: number;
  daily_du_consumed: number;
  daily_du_remaining: number;
  monthly_du_limit: number;
  monthly_du_consumed: number;
  monthly_du_remaining: number;
}

export interface Usage extends UsageWindows {
  plan: string;
  from: string;
  to: string;
  period_start: string;
  period_end: string;
  projected_eop: number;
  api_du_limit?: number;
  api_du_consumed?: number;
  api_du_remaining?: number;
  api_daily_du_limit?: number;
  api_daily_du_consumed?: number;
  api_daily_du_remaining?: number;
  api_monthly_du_limit?: number;
  api_monthly_du_consumed?: number;
  api_monthly_du_remaining?: number;
  api_projected_eop?: number;
  /** With group_by: one item per day (YYYY-MM-DD, days with calls only), week, month or endpoint ("GET /v1/lots"). */
  breakdown?: { label: string; du_consumed: number; requests: number }[];
}

/** The finance benchmarks of the index chart (its `finance` values). */
export type Benchmark = "SNP500" | "GOLD" | "DOW_JONES" | "MSCI_WORLD_REAL_ESTATE" | "BITCOIN_USD";

export interface MarketIndexChart {
  art_data: { time: string; value: number }[];
  /** One series per benchmark asked for, in the order asked; the labels say the series are synthetic. */
  finance_data: { id: Benchmark; label: string; data: { time: string; value: number }[] }[];
  rebased: boolean;
  base_time: string | null;
}

export type SaleStatus = "closed" | "upcoming" | "live" | "session_off";

/** A sale; the money fields (totals, estimate envelope) and is_followed come with the full schema only. */
export interface Sale {
  id: number;
  name: string;
  status: SaleStatus;
  is_online: boolean;
  location: string;
  start_datetime: string;
  end_datetime: string;
  auction_house: { id: number; name: string };
  currency: string;
  lots_count: number;
  /** The outcome counts: null until the sale is closed. */
  lots_count_not_sold: number | null;
  lots_count_sold_above_estimations: number | null;
  lots_count_sold_within_estimations: number | null;
  lots_count_sold_below_estimations: number | null;
  hammer_total?: number | null;
  premium_sold_total?: number | null;
  cumulative_total?: number | null;
  hammer_total_usd_zeroied?: number;
  cumulative_total_usd_zeroied?: number;
  hammer_low_estimate?: number;
  hammer_high_estimate?: number;
  is_followed?: boolean;
}

export interface SaleList {
  sales: Sale[];
  total: number;
  limit: number;
  offset: number;
}

export type LotStatus = "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";

export interface Price {
  currency: string;
  hammer: number | null;
  hammer_estimate_min: number | null;
  hammer_estimate_max: number | null;
  premium: number | null;
  hammer_usd: number | null;
  hammer_estimate_min_usd: number | null;
  hammer_estimate_max_usd: number | null;
  premium_usd: number | null;
  /** With preferred_currency: that code, and the amounts converted to it at the sale day's rate. */
  preferred_currency?: string;
  hammer_preferred?: number | null;
  hammer_estimate_min_preferred?: number | null;
  hammer_estimate_max_preferred?: number | null;
  premium_preferred?: number | null;
}

/** A lot; price, is_followed and the forecast (upcoming lots) come with the full schema only. */
export interface Lot {
  id: number;
  lot_num: string;
  status: LotStatus;
  auction_house_name: string;
  sale_id: number;
  sale_datetime: string;
  is_top: boolean;
  artwork: { id: number; name: string; creation_year: number | null };
  artist: { id: number; name: string };
  sale: { id: number; name: string; location: string; start_datetime: string };
  notes: string;
  image: ImageRef | null;
  price?: Price;
  is_followed?: boolean;
  sale_probability?: number | null;
  expected_hammer_usd?: number | null;
  expected_hammer_usd_low?: number | null;
  expected_hammer_usd_high?: number | null;
}

export interface LotList {
  lots: Lot[];
  has_more: boolean;
  limit: number;
  offset: number;
}

export interface Appraisal {
  id: number;
  type: string;
  value: number;
  currency: string;
  value_usd: number;
  date: string;
  company_name: string | null;
  is_best_guess: boolean;
}

export interface Provenance {
  id: number;
  owner: string;
  location: string | null;
  year_from: number | null;
  year_to: number | null;
  is_up_to_present: boolean;
}

export interface Collectable {
  id: number;
  title: string;
  artist_id: number;
  artist_name: string | null;
  category_id: number;
  category_name: string | null;
  suggested_artwork_id: number | null;
  /** Market artworks the image matches closely (a suggestion to link; empty once linked). */
  suggested_matches: SuggestedMatch[];
  creation_year: number | null;
  /** The value in effect (USD): manual, acquisition or machine, as current_price_source says. */
  current_estimated_price: number | null;
  current_price_source: "manual" | "acquisition" | "machine" | null;
  /** The market's estimate (USD). */
  machine_estimated_price: number | null;
  machine_estimate_basis: "suggested_artwork" | "comparable_works" | null;
  manual_price_value: number | null;
  price_momentum_12mo: number | null;
  measurements_unit: "cm" | "in";
  measurements_height: number | null;
  measurements_width: number | null;
  measurements_depth: number | null;
  edition_unique_type: "unique" | "edition";
  edition_number: number | null;
  edition_size: number | null;
  image_url: string | null;
  image_thumbnail_url: string | null;
  acquisition: { date: string | null; price: number | null; currency: string | null; price_usd: number | null; use_instead_of_estimates: boolean };
  appraisals: Appraisal[];
  provenance: Provenance[];
  created_at: string;
}

export interface SuggestedMatch {
  artwork_id: number;
  /** Cosine similarity of the two images' embeddings. */
  score: number;
  title: string;
  artist_id: number;
  artist_name: string | null;
}

export interface CollectableList {
  items: Collectable[];
  total_count: number;
  limit: number;
  offset: number;
}

export interface ShareCreated {
  token: string;
  url: string;
  expires_at: string;
}

/** A lot of one copy of an edition: the price (full schema only) as the lot list gives it. */
export interface EditionLot {
  id: number;
  lot_num: string;
  status: LotStatus;
  sale_id: number;
  sale_name: string | null;
  sale_datetime: string;
  auction_house_id: number;
  auction_house_name: string | null;
  price?: Price;
}

/** The edition ladder: every tracked copy (a unique work: itself), by edition number, each with its lots oldest first. */
export interface Editions {
  artwork_id: number;
  edition_group_id: number | null;
  edition_size: number | null;
  edition_unique_type: "unique" | "edition";
  editions: { artwork: Artwork; lots: EditionLot[] }[];
}

export interface SharedArtworks {
  title: string | null;
  expires_at: string;
  items: Artwork[];
  total_count: number;
}

export interface Named {
  id: number;
  name: string;
}

/** The endpoints the console calls and what each answers. */
export interface Routes {
  "/v1/usage": Usage;
  "/v1/artists": ArtistList;
  "/v1/artists/followed": ArtistList;
  "/v1/artists/{id}": Artist;
  "/v1/artists/{id}/chart": Chart;
  "/v1/artists/{id}/events": Events;
  "/v1/artists/{id}/sharpe-ratio": Sharpe;
  "/v1/artists/{id}/compound-annual-returns": CompoundReturns;
  "/v1/artists/{id}/related": Related;
  "/v1/artists/{id}/sales-volume": SalesVolume;
  "/v1/artists/{id}/career-path-count": CareerPath;
  "/v1/artists/{id}/career-path-lae": CareerPath;
  "/v1/artworks": ArtworkList;
  "/v1/artworks/followed": ArtworkList;
  "/v1/artworks/{id}": Artwork;
  "/v1/artworks/{id}/chart": Chart;
  "/v1/artworks/{id}/similar": SimilarResults;
  "/v1/artworks/{id}/editions": Editions;
  "/v1/artworks/shared/{token}": SharedArtworks;
  "/v1/market/index-chart": MarketIndexChart;
  "/v1/sales": SaleList;
  "/v1/sales/followed": SaleList;
  "/v1/sales/{id}": Sale;
  "/v1/lots": LotList;
  "/v1/lots/followed": LotList;
  "/v1/lots/{id}": Lot;
  "/v1/collectables": CollectableList;
  "/v1/collectables/{id}": Collectable;
  "/v1/categories": Named[];
  "/v1/auction-houses": Named[];
  "/v1/auction-locations": string[];
}

/** What the follow buttons follow: the path segment of /v1/{kind}/{id}/follow. */
export type FollowKind = "artists" | "artworks" | "sales" | "lots";

/** The writes the console makes ("METHOD path", as the API's pricing table writes routes) and what each answers. */
export interface Writes {
  "POST /v1/artists/{id}/follow": null;
  "DELETE /v1/artists/{id}/follow": null;
  "POST /v1/artworks/{id}/follow": null;
  "DELETE /v1/artworks/{id}/follow": null;
  "POST /v1/sales/{id}/follow": null;
  "DELETE /v1/sales/{id}/follow": null;
  "POST /v1/lots/{id}/follow": null;
  "DELETE /v1/lots/{id}/follow": null;
  "POST /v1/artworks/share": ShareCreated;
  "POST /v1/artworks/search-by-image": SimilarResults;
  "POST /v1/collectables": Collectable;
  "PATCH /v1/collectables/{id}": Collectable;
  "POST /v1/collectables/{id}/appraisals": Appraisal;
  "POST /v1/collectables/{id}/provenance": Provenance;
  "DELETE /v1/collectables/{id}": { id: number; deleted: true };
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

/** An error as a page states it: an API error's status and detail, else its text. */
export const problemText = (error: unknown): string => (error instanceof ApiError ? `${error.status}: ${error.detail}` : String(error));

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

// ---- pacing under the plan's request-rate windows -----------------------------------------

/** A keyed call of this tab: in flight (answered null) or answered at that time. */
interface Sent {
  answered: number | null;
}

const sent: Sent[] = [];

/** The windows of a RateLimit-Policy header ("second";q=10;w=1, "minute";q=300;w=60): quota and length. */
function windowsOf(policy: string | null): { quota: number; ms: number }[] {
  return policy ? [...policy.matchAll(/"\w+";q=(\d+);w=(\d+)/g)].map((m) => ({ quota: Number(m[1]), ms: Number(m[2]) * 1000 })) : [];
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * Waits until one more call fits each window of the plan's rate policy (as the latest answer gave
 * it), then counts it. A page fires its sections' calls together (an artist's page a dozen), more
 * than a sandbox plan's 10 a second. The server counts a call in a fixed window when it arrives,
 * which is between its sending and its answer: a call still in flight, or answered less than a
 * window ago, may share the next call's window, so it counts; one answered a window ago or more
 * cannot. The pages then never meet a 429 of their own making.
 */
async function pace(): Promise<Sent> {
  for (;;) {
    const now = performance.now();
    let wait = 0;
    for (const w of windowsOf(meter.policy)) {
      const counted = sent.filter((s) => s.answered === null || s.answered > now - w.ms);
      if (counted.length < w.quota) continue;
      const answered = counted.flatMap((s) => (s.answered === null ? [] : [s.answered])).sort((a, b) => a - b);
      const leave = counted.length - w.quota + 1;
      // the moment enough of them are out of the window; calls in flight: look again shortly
      wait = Math.max(wait, answered.length >= leave ? answered[leave - 1]! + w.ms - now : 50);
    }
    if (wait <= 0) break;
    await sleep(wait);
  }
  const longest = Math.max(0, ...windowsOf(meter.policy).map((w) => w.ms));
  const now = performance.now();
  for (let i = sent.length - 1; i >= 0; i--) if (sent[i]!.answered !== null && sent[i]!.answered! <= now - longest) sent.splice(i, 1);
  const call: Sent = { answered: null };
  sent.push(call);
  return call;
}

/** One request to the API with the key (none when `anonymous`), its cost and rate headers taken into the meter and the call log. */
async function request(method: string, path: string, params: Params, body: FormData | object | undefined, anonymous: boolean): Promise<unknown> {
  const { url, rest } = fill(path, params);
  const target = rest.size ? `${url}?${rest}` : url;
  const headers: Record<string, string> = { Accept: "application/json" };
  const k = anonymous ? null : key.get();
  if (k) headers.Authorization = `Bearer ${k}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  // a keyed call waits until the plan's request windows have room for it
  const slot = k ? await pace() : null;
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(target, { method, headers, body: payload });
  } finally {
    if (slot) slot.answered = performance.now();
  }
  const du = res.headers.get("X-Service-DataUnits");
  const remaining = res.headers.get("X-Service-DataUnits-Remaining");
  if (remaining !== null) meter.remaining = Number(remaining);
  const rate = res.headers.get("RateLimit");
  if (rate !== null) meter.rate = rate;
  const policy = res.headers.get("RateLimit-Policy");
  if (policy !== null) meter.policy = policy;
  // read to the end in every case (a 204 of follow and unfollow has an empty body)
  const text = await res.text().catch(() => "");
  let answer: unknown = null;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: an error page of a proxy, say; the status tells
  }
  calls.unshift({ method, path: target, status: res.status, du: du === null ? null : Number(du), ms: Math.round(performance.now() - started) });
  if (calls.length > 50) calls.length = 50;
  for (const l of listeners) l();
  if (!res.ok) throw new ApiError(res.status, detailOf(answer));
  return answer;
}

/** Reads one endpoint; `anonymous` sends no key (the public views). */
export async function call<P extends keyof Routes>(path: P, params: Params = {}, init: { anonymous?: boolean } = {}): Promise<Routes[P]> {
  return (await request("GET", path, params, undefined, init.anonymous ?? false)) as Routes[P];
}

/** A write (or a POST search): `body` goes as multipart when it is FormData, else as JSON. */
export async function send<W extends keyof Writes>(route: W, params: Params = {}, body?: FormData | object): Promise<Writes[W]> {
  const space = route.indexOf(" ");
  return (await request(route.slice(0, space), route.slice(space + 1), params, body, false)) as Writes[W];
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

// ---- the account area: a signed-in session and the user's own keys -----------------------------

/** A key as GET /v1/keys lists it. */
export interface OwnKey {
  id: number;
  name: string;
  kid: string;
  scope: "full" | "read";
  status: "active" | "expired" | "revoked";
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** A key just made: its secret shown once. */
export interface NewKey extends OwnKey {
  key: string;
  old_key_id?: number;
  old_key_expires_at?: string;
}

export interface SessionAnswer {
  user: { id: number; email: string | null; name: string; role: "member" | "admin"; plan: string };
  csrf_token: string;
  expires_at: string;
}

const SESSION_ITEM = "artmarket.console.session";

/**
 * The signed-in session of this tab: its CSRF token (the cookie itself is HttpOnly, out of the
 * page's reach), the user, and the key the console made for itself at sign-in (removed at sign-out).
 */
export const session = {
  get: (): { csrf: string; email: string | null; role: string; consoleKeyId: number | null } | null => {
    const raw = sessionStorage.getItem(SESSION_ITEM);
    return raw ? JSON.parse(raw) : null;
  },
  set: (value: { csrf: string; email: string | null; role: string; consoleKeyId: number | null }) => sessionStorage.setItem(SESSION_ITEM, JSON.stringify(value)),
  clear: () => sessionStorage.removeItem(SESSION_ITEM),
};

/**
 * A call of the account area: with the session's cookie and, on a write, its CSRF token; with the
 * key when there is no session (or `withKey`: a read the session does not open, the plans). Logged
 * like every call, but for `unlogged` ones (the header's free unread count, polled in the background).
 */
export async function account<T>(method: string, path: string, body?: object, init: { withKey?: boolean; unlogged?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const s = init.withKey ? null : session.get();
  if (s) {
    if (method !== "GET") headers["X-CSRF-Token"] = s.csrf;
  } else {
    const k = key.get();
    if (k) headers.Authorization = `Bearer ${k}`;
  }
  if (body !== undefined) headers["Content-Type"] = "application/json";
  // a keyed call counts in the plan's request windows like the pages' own (pace)
  const slot = headers.Authorization ? await pace() : null;
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  } finally {
    if (slot) slot.answered = performance.now();
  }
  const text = await res.text().catch(() => "");
  let answer: unknown = null;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {}
  const du = res.headers.get("X-Service-DataUnits");
  const remaining = res.headers.get("X-Service-DataUnits-Remaining");
  // a background call leaves the meter to the page's own (its answer may come after theirs)
  if (remaining !== null && !init.unlogged) meter.remaining = Number(remaining);
  if (!init.unlogged) {
    calls.unshift({ method, path, status: res.status, du: du === null ? null : Number(du), ms: Math.round(performance.now() - started) });
    if (calls.length > 50) calls.length = 50;
    for (const l of listeners) l();
  }
  if (!res.ok) throw new ApiError(res.status, detailOf(answer));
  return answer as T;
}

/**
 * Signs in with email and password: a session (the cookie), then a key of the user's for this
 * tab's market calls (market data takes keys only), which ends with the session at the latest.
 */
export async function signInWithPassword(email: string, password: string): Promise<Usage> {
  const opened = await account<SessionAnswer>("POST", "/v1/session", { email, password });
  session.set({ csrf: opened.csrf_token, email: opened.user.email, role: opened.user.role, consoleKeyId: null });
  const made = await account<NewKey>("POST", "/v1/keys", { name: "console (signed in)", scope: "full", expires_at: opened.expires_at });
  session.set({ csrf: opened.csrf_token, email: opened.user.email, role: opened.user.role, consoleKeyId: made.id });
  return signIn(made.key);
}

/**
 * Back from single sign-on: the session the provider's sign-in opened (its cookie) is read for its
 * CSRF token, and the tab makes itself a key as after a password sign-in.
 */
export async function resumeSession(): Promise<Usage> {
  const opened = await account<SessionAnswer>("GET", "/v1/session");
  session.set({ csrf: opened.csrf_token, email: opened.user.email, role: opened.user.role, consoleKeyId: null });
  const made = await account<NewKey>("POST", "/v1/keys", { name: "console (signed in)", scope: "full", expires_at: opened.expires_at });
  session.set({ csrf: opened.csrf_token, email: opened.user.email, role: opened.user.role, consoleKeyId: made.id });
  return signIn(made.key);
}

/** How this service signs users in (GET /v1/session/methods). */
export function signInMethods(): Promise<{ password: boolean; oidc: boolean; oidc_url: string | null }> {
  return account("GET", "/v1/session/methods");
}

/** Sets a password with a set-password link's token. */
export function setPassword(token: string, password: string): Promise<null> {
  return account<null>("POST", "/v1/session/password", { token, password });
}

/** Signs out: with a session, its console key is revoked and the session ended; the tab forgets both. */
export async function signOut(): Promise<void> {
  const s = session.get();
  if (s) {
    try {
      if (s.consoleKeyId !== null) await account<null>("DELETE", `/v1/keys/${s.consoleKeyId}`);
      await account<null>("DELETE", "/v1/session");
    } catch {
      // already ended (expired, or signed out elsewhere)
    }
    session.clear();
  }
  key.clear();
  meter.plan = meter.duLimit = meter.remaining = null;
  meter.rate = meter.policy = null;
  for (const l of listeners) l();
}
