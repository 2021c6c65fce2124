/**
 * bench/api's floor handlers: for a request URL of the query mix, the same service call the
 * endpoint's handler makes (so the same SQL and the same rows, presented the same way), with the
 * query string turned into a ParsedList without validation. No framework, no auth, no metering:
 * bench/api-floor.ts serves these with Bun.serve, and bench/lib/api-profile.ts calls them in
 * process to split a request's time (SQL, presentation, JSON) and to capture its SQL for EXPLAIN.
 *
 * Only the endpoints of the query mix are here: anything else answers null (404 in the floor).
 */
import type { Database } from "bun:sqlite";
import { FxCache } from "../../src/db/fx";
import { openAccountDb, openMarketReader } from "../../src/db/connection";
import { SqliteAccountStore } from "../../src/serve/accounts/store";
import type { AppDeps } from "../../src/serve/deps";
import type { CallerView } from "../../src/serve/http/view";
import { ImageSigner, loadSecret } from "../../src/serve/images/urls";
import { ARTIST_LIST, FOLLOWED_LIST as ARTIST_FOLLOWED, type Resolution } from "../../src/serve/modules/artists/fields";
import * as artists from "../../src/serve/modules/artists/service";
import { ARTWORK_LIST, FOLLOWED_LIST as ARTWORK_FOLLOWED } from "../../src/serve/modules/artworks/fields";
import * as artworks from "../../src/serve/modules/artworks/service";
import { LOT_LIST } from "../../src/serve/modules/lots/fields";
import * as lots from "../../src/serve/modules/lots/service";
import { SALE_LIST } from "../../src/serve/modules/sales/fields";
import * as sales from "../../src/serve/modules/sales/service";
import { snapshotOf } from "../../src/serve/snapshot";
import type { ListSpec, ParsedList, ScalarType } from "../../src/serve/query/grammar";
import { today } from "../../src/market/time";

/** What the service functions read from AppDeps (the market connection, the process services, the account store's follows). */
export type FloorDeps = Pick<AppDeps, "market" | "snapshot" | "fx" | "signer" | "asOf" | "accounts">;

/** The same connection and services openDeps gives the app, and account.db's store for the follows (no ledger, no verifier). */
export function openFloorDeps(dataDir: string, market?: Database): FloorDeps {
  const db = market ?? openMarketReader(dataDir);
  const asOf = db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()?.value ?? today();
  const accounts = new SqliteAccountStore(openAccountDb(dataDir));
  return { market: db, snapshot: snapshotOf(db), fx: FxCache.lazy(db), signer: new ImageSigner(loadSecret(dataDir), null), asOf, accounts };
}

const TRUE = new Set(["true", "1", "yes", "on", "t", "y"]);

function scalar(type: ScalarType, raw: string): unknown {
  switch (type.kind) {
    case "integer":
    case "number":
      return Number(raw);
    case "boolean":
      return TRUE.has(raw.trim().toLowerCase());
    case "datetime":
      return new Date(Date.parse(/Z|[+-]\d{2}:?\d{2}$/.test(raw) ? raw : `${raw.length === 10 ? `${raw}T00:00:00` : raw}Z`)).toISOString();
    default:
      return raw;
  }
}

/**
 * The ParsedList parseList would make of a valid query string, without checking anything: the
 * filters in the spec's declaration order (so the SQL text is the same), params with their
 * defaults, sort, limit, offset.
 */
export function looseList(spec: ListSpec, qs: URLSearchParams): ParsedList {
  const filters: ParsedList["filters"] = [];
  for (const [field, decl] of Object.entries(spec.fields)) {
    for (const suffix of decl.suffixes) {
      const raw = qs.get(field + suffix);
      if (raw === null) continue;
      const value = suffix === "__in" ? raw.split(",").map((v) => scalar(decl.type, v.trim())) : scalar(decl.type, raw);
      filters.push({ field, suffix, value });
    }
  }
  const params: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(spec.params ?? {})) {
    const raw = qs.get(name);
    if (raw === null) {
      if (decl.default !== undefined) params[name] = decl.default;
    } else params[name] = decl.many ? raw.split(",").map((v) => scalar(decl.type, v.trim())) : scalar(decl.type, raw);
  }
  const sort = (spec.sorts && qs.get("sort")) || spec.defaultSort || null;
  const limit = qs.has("limit") ? Number(qs.get("limit")) : (spec.limit?.default ?? 0);
  const offset = qs.has("offset") ? Number(qs.get("offset")) : 0;
  return { filters, sort, limit, offset, params };
}

/**
 * The body the endpoint's handler returns for this URL, as the bench user sees it (a plan with
 * the full schema): null when the path is not one of the mix's endpoints or names nothing.
 */
export function handleFloor(deps: FloorDeps, userId: number, url: URL): unknown {
  const path = url.pathname;
  const qs = url.searchParams;
  const origin = url.origin;
  const d = deps as AppDeps; // the service functions take AppDeps and read only the FloorDeps part
  const view: CallerView = { schema: "full", userId, image: "full", origin, preferred: qs.get("preferred_currency") ?? undefined };
  const artistView = (includeChart: boolean): artists.ArtistView => ({ ...view, signer: deps.signer, accounts: deps.accounts, includeChart });
  switch (path) {
    case "/v1/artists": {
      const q = looseList(ARTIST_LIST, qs);
      return artists.listArtists(deps.market, q, artistView(q.params.include_chart === true));
    }
    case "/v1/artists/followed": {
      const q = looseList(ARTIST_FOLLOWED, qs);
      return artists.followedArtists(deps.market, q, artistView(q.params.include_chart === true));
    }
    case "/v1/artworks":
      return artworks.listArtworks(d, view, looseList(ARTWORK_LIST, qs));
    case "/v1/artworks/followed":
      return artworks.followedArtworks(d, view, userId, looseList(ARTWORK_FOLLOWED, qs));
    case "/v1/lots":
      return lots.listLots(d, looseList(LOT_LIST, qs), view);
    case "/v1/lots/followed":
      return lots.listLots(d, looseList(LOT_LIST, qs), view, userId);
    case "/v1/sales":
      return sales.listSales(d, looseList(SALE_LIST, qs), view);
    case "/v1/sales/followed":
      return sales.listSales(d, looseList(SALE_LIST, qs), view, userId);
  }
  const m = /^\/v1\/artists\/(\d+)(\/chart)?$/.exec(path);
  if (m) {
    const id = Number(m[1]);
    // Both answer 404 (an HttpError) for an unknown artist: the mix only names existing ones.
    if (m[2]) return artists.artistChart(deps.market, id, (qs.get("resolution") ?? "monthly") as Resolution);
    return artists.getArtist(deps.market, id, artistView(false));
  }
  return null;
}
