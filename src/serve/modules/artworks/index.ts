/**
 * The artwork endpoints: the list, detail, chart, editions, CAGR, recommendations, the followed
 * list and shared lists. Follow/unfollow live in modules/follows; search-by-image and similar in
 * their own module. docs/api-artworks.md describes the choices.
 */

import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { issue, notFound, ValidationFailed } from "../../http/errors";
import { callerView } from "../../http/view";
import { T } from "../../query/grammar";
import { historicalDay } from "../../query/params";
import { ARTWORK_LIST, CURRENCY_ONLY, DETAIL_PARAMS, FOLLOWED_LIST, RECOMMENDED_LIST, SHARED_LIST } from "./fields";
import {
  ArtworkCagrResponse,
  ArtworkChartResponse,
  ArtworkPublicSchema,
  ArtworkSchema,
  ArtworkShareCreated,
  ArtworkShareInput,
  ArtworksPublicResponse,
  ArtworksResponse,
  EditionsPublicResponse,
  EditionsResponse,
  SharedArtworksResponse,
} from "./model";
import * as service from "./service";

const items = (body: { items: unknown[] }) => body.items.length;
const unknownArtwork = (id: number) => notFound(`Artwork ${id} not found`);
const idParam = { artwork_id: T.int(1) };

export const artworkEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/artworks",
    price: DU.spec(2, 1.5),
    operationId: "listArtworks",
    summary: "List artworks",
    description:
      "Filters combine with AND. Estimates and their filters are in USD. Without a key (unmetered) and for sandbox keys the items are ArtworkPublicSchema. limit up to 1000.",
    tag: "Artworks",
    auth: "optional",
    list: ARTWORK_LIST,
    response: { full: ArtworksResponse, public: ArtworksPublicResponse },
    records: items,
    handle: (ctx) => service.listArtworks(ctx.deps, callerView(ctx), ctx.query),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artworks/recommended",
    price: DU.rule(2, 1.5),
    operationId: "listRecommendedArtworks",
    summary: "Recommended artworks",
    description:
      "Personalised: works by the artists of the caller's followed artworks, works of followed artists with a lot in the last 12 months or upcoming, and works of a followed artwork's category whose estimate is within a factor 1.5 of its estimate. Followed artworks are left out; empty when the caller follows nothing. Ordered by how many of these reasons hold (artist of a followed work first), then by the latest sale or upcoming date, then id.",
    tag: "Artworks",
    auth: "required",
    list: RECOMMENDED_LIST,
    response: { full: ArtworksResponse, public: ArtworksPublicResponse },
    records: items,
    handle: (ctx) => service.recommendedArtworks(ctx.deps, callerView(ctx), ctx.caller.userId, ctx.query),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artworks/followed",
    price: DU.rule(2, 1.5),
    operationId: "listFollowedArtworks",
    summary: "Followed artworks",
    description: "The caller's followed artworks, most recently followed first; the artwork list's filters apply.",
    tag: "Artworks",
    auth: "required",
    list: FOLLOWED_LIST,
    response: { full: ArtworksResponse, public: ArtworksPublicResponse },
    records: items,
    handle: (ctx) => service.followedArtworks(ctx.deps, callerView(ctx), ctx.caller.userId, ctx.query),
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/artworks/share",
    price: DU.FREE,
    operationId: "shareArtworks",
    summary: "Share a list of artworks",
    description: "Creates a public token for up to 500 artworks (each must exist, else 422), shown in the given order at GET /v1/artworks/shared/{token} for 30 days.",
    tag: "Artworks",
    auth: "required",
    body: ArtworkShareInput,
    response: { full: ArtworkShareCreated },
    handle: ({ deps, caller, body, origin }) => {
      const input = body;
      const ids = [...new Set(input.ids)];
      const missing = service.missingIds(deps.market, input.ids);
      if (missing.length) {
        throw new ValidationFailed(
          missing.map((i) => issue.custom(["body", "ids", i], input.ids[i], `Artwork ${input.ids[i]} not found`, "value_error", { artwork_id: input.ids[i] })),
        );
      }
      const share = deps.accounts.createShare(caller.userId, "artwork", ids, input.title ?? null);
      return {
        token: share.token,
        url: `${deps.config.publicUrl ?? origin}/v1/artworks/shared/${share.token}`,
        expires_at: new Date(share.expiresAt).toISOString(),
      };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artworks/shared/{token}",
    price: DU.FREE,
    operationId: "getSharedArtworks",
    summary: "A shared list of artworks",
    description: "Public, no key needed, 0 DU. The artworks in the order they were shared, public schema. Unknown or expired token: 404.",
    tag: "Artworks",
    auth: "public",
    list: SHARED_LIST,
    response: { full: SharedArtworksResponse },
    handle: (ctx) => {
      const share = ctx.deps.accounts.findShare(ctx.params.token, "artwork");
      if (!share) throw notFound("Shared list not found or expired");
      const all = service.artworksByIds(ctx.deps, { ...callerView(ctx), schema: "public", preferred: undefined }, share.ids);
      return {
        title: share.title,
        expires_at: new Date(share.expiresAt).toISOString(),
        items: all.slice(ctx.query.offset, ctx.query.offset + ctx.query.limit),
        total_count: all.length,
        limit: ctx.query.limit,
        offset: ctx.query.offset,
      };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artworks/{artwork_id}",
    price: DU.DETAIL,
    operationId: "getArtwork",
    summary: "One artwork",
    description:
      "ArtworkSchema for entitled callers; ArtworkPublicSchema for sandbox keys. With as_of=YYYY-MM-DD, the estimate values (current_estimated_price, its _min and _max, price_change_12mo and _24mo, and their _preferred values at that day's rate) are those the service served that day; a day before the first snapshot it kept is 422.",
    tag: "Artworks",
    auth: "required",
    pathParams: idParam,
    list: DETAIL_PARAMS,
    response: { full: ArtworkSchema, public: ArtworkPublicSchema },
    handle: (ctx) => {
      const day = historicalDay(ctx.deps.market, ctx.query.params.as_of, ctx.deps.asOf);
      const artwork = service.artworkById(ctx.deps, callerView(ctx), ctx.params.artwork_id, day);
      if (!artwork) throw unknownArtwork(ctx.params.artwork_id);
      return artwork;
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artworks/{artwork_id}/chart",
    price: DU.spec(10),
    operationId: "getArtworkChart",
    summary: "Artwork price chart",
    description:
      "Hammer prices of the work's sold lots (at the sale day's rate with preferred_currency) and a forward monthly 80 % band around the current estimate for 12 months: σ₀ = ln(max/min)/(2·1.2816) from the stored band, widened by the artist index's monthly step variance 0.0004 per month (σ_h² = σ₀² + 0.0004·h). The band's values use the as-of date's rate.",
    tag: "Artworks",
    auth: "required",
    entitlement: "analytics",
    pathParams: idParam,
    list: CURRENCY_ONLY,
    response: { full: ArtworkChartResponse },
    handle: (ctx) => {
      const chart = service.artworkChart(ctx.deps, ctx.params.artwork_id, ctx.query.params.preferred_currency);
      if (!chart) throw unknownArtwork(ctx.params.artwork_id);
      return chart;
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artworks/{artwork_id}/editions",
    price: DU.spec(2, 1.5),
    operationId: "listArtworkEditions",
    summary: "The edition ladder of an artwork",
    description:
      "Every tracked copy of the artwork's edition (same edition_group_id), by edition number, each with its lots oldest first; a unique work: just itself. A record is one copy.",
    tag: "Artworks",
    auth: "required",
    pathParams: idParam,
    list: CURRENCY_ONLY,
    response: { full: EditionsResponse, public: EditionsPublicResponse },
    records: (body: { editions: unknown[] }) => body.editions.length,
    handle: (ctx) => {
      const editions = service.artworkEditions(ctx.deps, callerView(ctx), ctx.params.artwork_id);
      if (!editions) throw unknownArtwork(ctx.params.artwork_id);
      return editions;
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artworks/{artwork_id}/cagr",
    price: DU.ANALYTICS,
    operationId: "getArtworkCagr",
    summary: "Compound annual growth of an artwork's estimate",
    description: "A fraction per year over the last 10 years. 404 when the artwork is unknown or has no price prediction.",
    tag: "Artworks",
    auth: "required",
    entitlement: "analytics",
    pathParams: idParam,
    response: { full: ArtworkCagrResponse },
    handle: ({ deps, params }) => {
      const cagr = service.artworkCagr(deps.market, params.artwork_id);
      if (cagr === undefined) throw unknownArtwork(params.artwork_id);
      if (cagr === null) throw notFound(`Artwork ${params.artwork_id} has no price prediction`);
      return { artwork_id: params.artwork_id, cagr };
    },
  }),
];
