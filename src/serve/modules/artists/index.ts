/**
 * The artist endpoints of the spec (follow and unfollow live in modules/follows). Shapes,
 * parameters and decisions: docs/api-artists.md.
 */
import { asReply, defineEndpoint, type Endpoint, type RequestContext } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { forbidden, unauthorized } from "../../http/errors";
import { callerView } from "../../http/view";
import { T } from "../../query/grammar";
import { ARTIST_LIST, ARTIST_STATS, CHART_QUERY, EVENTS_QUERY, FOLLOWED_LIST, HIDDEN_FILTER_FIELDS, RELATED_LIST } from "./fields";
import {
  ArtistChartResponse,
  ArtistEventsResponse,
  ArtistListResponse,
  ArtistPublicListResponse,
  ArtistPublicSchema,
  ArtistSchema,
  ArtistStatsResponse,
  CareerPathCountResponse,
  CareerPathEstimateResponse,
  CompoundAnnualReturnsResponse,
  RelatedArtistsPublicResponse,
  RelatedArtistsResponse,
  ReturnsVsPeriodResponse,
  SalesVolumeResponse,
  SharpeRatioResponse,
} from "./model";
import * as service from "./service";
import type { TSchema } from "@sinclair/typebox";

const byId = { artist_id: T.int(1) };
const rows = (body: { artists: unknown[] }) => body.artists.length;

function view(ctx: RequestContext, includeChart = false): service.ArtistView {
  return { ...callerView(ctx), signer: ctx.deps.signer, accounts: ctx.deps.accounts, includeChart: includeChart && ctx.schema === "full" };
}

/**
 * A caller on the public schema may not filter on the values it hides (a range filter would reveal
 * them by bisection), nor ask for its own follows without a key.
 */
function guardPublicFilters(ctx: RequestContext): void {
  if (ctx.query.params.followed === true && ctx.caller === null) throw unauthorized("followed=true needs a bearer token: it lists the caller's own follows");
  if (ctx.schema === "full") return;
  const hidden = ctx.query.filters.filter((f) => HIDDEN_FILTER_FIELDS.has(f.field)).map((f) => f.field + f.suffix);
  if (hidden.length === 0) return;
  const why = `Filtering on ${hidden.join(", ")} needs the full artist schema`;
  throw ctx.caller === null
    ? unauthorized(`${why}: send a bearer token of a plan that includes it`)
    : forbidden(`${why}, which your plan (${ctx.caller.plan.slug}) does not include`);
}

const ANALYTICS: { path: string; operationId: string; kind: service.AnalyticsKind; summary: string; description: string; schema: TSchema }[] = [
  {
    path: "sales-volume",
    operationId: "getArtistSalesVolume",
    kind: "sales-volume",
    summary: "Sales volume by year and outcome",
    description:
      "One item for all lots (category_id null, first), then one per category id. Every item has the same `dates` (one per year, contiguous) and four count arrays aligned with them: lots sold above, within and below the estimate, and lots not sold.",
    schema: SalesVolumeResponse,
  },
  {
    path: "sharpe-ratio",
    operationId: "getArtistSharpeRatios",
    kind: "sharpe-ratio",
    summary: "Sharpe ratios of the artist index",
    description: "Horizons 1, 2, 3, 5, 7 and 10 years; a ratio is null when the sales history is insufficient.",
    schema: SharpeRatioResponse,
  },
  {
    path: "career-path-count",
    operationId: "getArtistCareerPathCount",
    kind: "career-path-count",
    summary: "Career path: artworks per medium and creation year",
    description: "Creation years bounded by birth and death where known; every medium has the same contiguous years.",
    schema: CareerPathCountResponse,
  },
  {
    path: "career-path-lae",
    operationId: "getArtistCareerPathEstimate",
    kind: "career-path-lae",
    summary: "Career path weighted by estimate",
    description: "As career-path-count, each artwork weighted by its current estimated value in USD.",
    schema: CareerPathEstimateResponse,
  },
  {
    path: "returns-vs-period",
    operationId: "getArtistReturnsVsPeriod",
    kind: "returns-vs-period",
    summary: "Returns vs. holding period",
    description: "One point per repeat-sale pair: compound annual return (percent per year) and months held. Pairs held under 12 months are excluded.",
    schema: ReturnsVsPeriodResponse,
  },
  {
    path: "compound-annual-returns",
    operationId: "getArtistCompoundAnnualReturns",
    kind: "compound-annual-returns",
    summary: "Median compound annual return by year",
    description: "Median car (percent per year) of the repeat-sale pairs sold each calendar year; years without repeat sales are omitted.",
    schema: CompoundAnnualReturnsResponse,
  },
];

export const artistEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/artists",
    price: DU.spec(2, 1),
    operationId: "listArtists",
    summary: "Artist list",
    description:
      "Filters combine with AND. Without a key (or on a plan with the public schema) rows are ArtistPublicSchema and filters on the hidden values are refused (401 without a key, 403 with one). Sorts end with the id; NULLs sort last in both directions.",
    tag: "Artists",
    auth: "optional",
    list: ARTIST_LIST,
    response: { full: ArtistListResponse, public: ArtistPublicListResponse },
    records: rows,
    handle: (ctx) => {
      guardPublicFilters(ctx);
      return service.listArtists(ctx.deps.market, ctx.query, view(ctx, ctx.query.params.include_chart === true));
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artists/stats",
    price: DU.ANALYTICS,
    operationId: "getArtistStats",
    summary: "Statistics of the artists matching the list's filters",
    description: "min, max, median and 95th percentile of each numeric field (NULLs left out), and the nationality facet.",
    tag: "Artists",
    auth: "required",
    entitlement: "analytics",
    list: ARTIST_STATS,
    response: { full: ArtistStatsResponse },
    handle: (ctx) => {
      guardPublicFilters(ctx);
      return asReply(service.artistStats(ctx.deps.market, ctx.query, view(ctx)), ArtistStatsResponse);
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artists/followed",
    price: DU.spec(2, 1),
    operationId: "listFollowedArtists",
    summary: "Artists the caller follows",
    description: "Most recently followed first; the same shape as the artist list.",
    tag: "Artists",
    auth: "required",
    list: FOLLOWED_LIST,
    response: { full: ArtistListResponse, public: ArtistPublicListResponse },
    records: rows,
    handle: (ctx) => service.followedArtists(ctx.deps.market, ctx.query, view(ctx, ctx.query.params.include_chart === true)),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artists/{artist_id}",
    price: DU.spec(1),
    operationId: "getArtist",
    summary: "One artist",
    description: "ArtistSchema for plans with the full schema, ArtistPublicSchema for the others. artist_index_chart: see /chart.",
    tag: "Artists",
    auth: "required",
    pathParams: byId,
    response: { full: ArtistSchema, public: ArtistPublicSchema },
    handle: (ctx) => service.getArtist(ctx.deps.market, ctx.params.artist_id, view(ctx)),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artists/{artist_id}/chart",
    price: DU.spec(10),
    operationId: "getArtistChart",
    summary: "Artist price index chart",
    description:
      "One series (id service_index): the price of the artist's typical work in USD, with the central 80 % band (value_low, value_high). resolution=monthly (default, from 1986-01), yearly (December, or the last month of the current year), daily (the last two years, linearly interpolated between the monthly points).",
    tag: "Artists",
    auth: "required",
    entitlement: "analytics",
    pathParams: byId,
    list: CHART_QUERY,
    response: { full: ArtistChartResponse },
    handle: (ctx) => service.artistChart(ctx.deps.market, ctx.params.artist_id, ctx.query.params.resolution),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artists/{artist_id}/related",
    price: DU.spec(10, 1),
    operationId: "listRelatedArtists",
    summary: "Related artists",
    description: "The artists nearest by cosine similarity of artist_index_vector, most similar first.",
    tag: "Artists",
    auth: "required",
    entitlement: "analytics",
    pathParams: byId,
    list: RELATED_LIST,
    response: { full: RelatedArtistsResponse, public: RelatedArtistsPublicResponse },
    records: rows,
    handle: (ctx) => service.relatedArtists(ctx.deps.market, ctx.params.artist_id, ctx.query.limit, view(ctx)),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/artists/{artist_id}/events",
    price: DU.ANALYTICS,
    operationId: "listArtistEvents",
    summary: "Artist events",
    description: "Visible events only, by date ascending.",
    tag: "Artists",
    auth: "required",
    entitlement: "analytics",
    pathParams: byId,
    list: EVENTS_QUERY,
    response: { full: ArtistEventsResponse },
    handle: (ctx) => service.artistEvents(ctx.deps.market, ctx.params.artist_id, ctx.query.params.type),
  }),
  ...ANALYTICS.map((a) =>
    defineEndpoint({
      method: "GET",
      path: `/v1/artists/{artist_id}/${a.path}`,
      price: DU.ANALYTICS,
      operationId: a.operationId,
      summary: a.summary,
      description: a.description,
      tag: "Artists",
      auth: "required",
      entitlement: "analytics",
      pathParams: byId,
      response: { full: a.schema },
      handle: (ctx) => service.artistAnalytics(ctx.deps.market, ctx.params.artist_id, a.kind),
    }),
  ),
];
