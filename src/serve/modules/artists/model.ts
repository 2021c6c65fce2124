/**
 * Response schemas of the artist endpoints. ArtistSchema is the full record; ArtistPublicSchema is
 * derived from it by omitting exactly the fields the spec lists (PUBLIC_OMITS), so the two can
 * never drift apart. docs/api-artists.md describes every shape.
 */
import { Type as t, type Static, type TSchema } from "@sinclair/typebox";
import { NEXT_CURSOR } from "../../query/cursor";

const num = (description: string) => t.Union([t.Number(), t.Null()], { description });
const int = (description: string) => t.Union([t.Integer(), t.Null()], { description });

/** `extrapolated` of an artist index point (the chart's and artist_index_chart's). */
const EXTRAPOLATED = t.Boolean({
  description:
    "true for a point dated before the artist's first priced lot (the first sold lot with a hammer price; every point when the artist has none): " +
    "its value is carried back by the index model from later sales, not measured on a sale of the artist's; false from that lot's day on",
});

export const ChartPointSchema = t.Object(
  {
    time: t.String({ format: "date", description: "YYYY-MM-DD (the first of the month for monthly points)" }),
    value: t.Number({ description: "the artist index: price of a typical work, USD" }),
    extrapolated: EXTRAPOLATED,
  },
  { $id: "ArtistIndexPoint" },
);

export const ArtistSchema = t.Object(
  {
    id: t.Integer(),
    uid: t.String({ description: "canonical slug" }),
    name: t.String(),
    nationality: t.String(),
    birth: int("birth year; null when unknown"),
    death: int("death year; null for living artists"),
    bio: t.String(),
    long_bio: t.String(),
    total_sales: t.Number({ description: "lifetime auction sales (sold lots, price with premium), USD" }),
    market_cap: t.Number({ description: "sum of the current estimates of all the artist's works, USD" }),
    max_price: num("highest price with premium of a sold lot, USD; null without sold lots"),
    min_price: num("lowest price with premium of a sold lot, USD; null without sold lots"),
    price_momentum_percentage_12mo: num("change of the artist index over 12 months, percent"),
    price_momentum_percentage_5y: num("change of the artist index over 5 years, percent"),
    artworks_count: t.Integer(),
    recent_lots_count: t.Integer({ description: "lots of the last 12 months, upcoming ones included" }),
    total_sales_lots_1yr: t.Number({ description: "lots sold in the trailing 12 months" }),
    total_sales_price_median_1yr: num("median price with premium of the lots sold in the trailing 12 months, USD"),
    artist_index_chart: t.Optional(
      t.Array(ChartPointSchema, {
        description: "monthly artist index (price of a typical work, USD) from 1986-01; present only with include_chart=true",
      }),
    ),
    artist_index_vector: t.Union([t.Array(t.Number(), { minItems: 64, maxItems: 64 }), t.Null()], {
      description: "64-dimensional, L2-normalised embedding of the artist's market behaviour, period and style",
    }),
    is_followed: t.Boolean({ description: "whether the caller follows this artist" }),
    photo_thumbnail_url: t.Union([t.String({ format: "uri" }), t.Null()], {
      description: "signed, time-limited URL of the artist's photo, 240 pixels wide (blurred for callers without a key); null without a photo",
    }),
  },
  { $id: "ArtistSchema" },
);

/** The spec's list of fields ArtistPublicSchema leaves out, exactly. */
export const PUBLIC_OMITS = [
  "total_sales",
  "market_cap",
  "max_price",
  "min_price",
  "price_momentum_percentage_12mo",
  "artworks_count",
  "recent_lots_count",
  "total_sales_lots_1yr",
  "total_sales_price_median_1yr",
  "artist_index_chart",
  "artist_index_vector",
  "bio",
  "long_bio",
  "is_followed",
] as const;

export const ArtistPublicSchema = t.Omit(ArtistSchema, [...PUBLIC_OMITS], {
  $id: "ArtistPublicSchema",
  description: "The reduced artist record for callers without a key or on a plan with the public schema",
});

export type ArtistPublic = Static<typeof ArtistPublicSchema>;

const page = (item: TSchema, $id: string) =>
  t.Object(
    {
      artists: t.Array(item),
      total: t.Integer({ description: "rows matching the filters" }),
      limit: t.Integer(),
      offset: t.Integer(),
      next_cursor: NEXT_CURSOR,
    },
    { $id },
  );

export const ArtistListResponse = page(ArtistSchema, "ArtistListResponse");
export const ArtistPublicListResponse = page(ArtistPublicSchema, "ArtistPublicListResponse");

const similarity = { similarity: t.Number({ description: "cosine similarity of artist_index_vector, -1 to 1" }) };
export const RelatedArtistsResponse = t.Object({ artist_id: t.Integer(), artists: t.Array(t.Composite([ArtistSchema, t.Object(similarity)])) }, { $id: "RelatedArtistsResponse" });
export const RelatedArtistsPublicResponse = t.Object(
  { artist_id: t.Integer(), artists: t.Array(t.Composite([ArtistPublicSchema, t.Object(similarity)])) },
  { $id: "RelatedArtistsPublicResponse" },
);

export const FieldStatsSchema = t.Object(
  {
    min: num("smallest value; null when no matching artist has one"),
    max: num("largest value"),
    p50: num("median (linear interpolation between order statistics)"),
    p95: num("95th percentile (linear interpolation between order statistics)"),
  },
  { $id: "ArtistFieldStats" },
);

/** The numeric fields /v1/artists/stats describes, in response order. */
export const STATS_FIELDS = [
  "market_cap",
  "total_sales",
  "max_price",
  "min_price",
  "birth",
  "artworks_count",
  "recent_lots_count",
  "total_sales_lots_1yr",
  "total_sales_price_median_1yr",
  "price_momentum_percentage_12mo",
  "price_momentum_percentage_5y",
] as const;

export const ArtistStatsResponse = t.Object(
  {
    total: t.Integer({ description: "artists matching the filters (the sum of the nationality counts)" }),
    ...Object.fromEntries(STATS_FIELDS.map((f) => [f, FieldStatsSchema])),
    nationalities: t.Array(t.Object({ value: t.String(), count: t.Integer() }), { description: "by count, descending, then value" }),
  },
  { $id: "ArtistStatsResponse" },
);

export const ArtistChartResponse = t.Object(
  {
    resolution: t.Union([t.Literal("daily"), t.Literal("monthly"), t.Literal("yearly")]),
    unit: t.String({ description: "unit of the values: USD (US dollars)" }),
    currency: t.String({
      description:
        "currency of the values (value, value_low, value_high): always USD, the index being built from the lots' prices in US dollars (each at its sale day's reference rate)",
    }),
    series: t.Array(
      t.Object({
        id: t.String(),
        label: t.String(),
        data: t.Array(
          t.Object({
            time: t.String({ format: "date" }),
            value: t.Number({ description: "the artist index: price of a typical work, USD" }),
            value_low: t.Optional(t.Number({ description: "low end of the central 80 % band" })),
            value_high: t.Optional(t.Number({ description: "high end of the central 80 % band" })),
            extrapolated: EXTRAPOLATED,
          }),
        ),
      }),
    ),
  },
  { $id: "ArtistChartResponse", description: "The spec's ChartResponse for the artist index" },
);

export const EVENT_TYPES = ["Life Events", "Major Exhibitions", "Major Publications", "Major Sales"] as const;

export const ArtistEventsResponse = t.Object(
  {
    artist_id: t.Integer(),
    events: t.Array(
      t.Object({
        id: t.Integer(),
        date: t.String({ format: "date" }),
        type: t.Union(EVENT_TYPES.map((v) => t.Literal(v))),
        title: t.String(),
        description: t.String(),
      }),
    ),
  },
  { $id: "ArtistEventsResponse" },
);

export const SalesVolumeResponse = t.Object(
  {
    artist_id: t.Integer(),
    items: t.Array(
      t.Object({
        category_id: t.Union([t.Integer(), t.Null()], { description: "null: the overall total, listed first" }),
        dates: t.Array(t.String({ format: "date" }), { description: "one per year (YYYY-01-01), contiguous" }),
        lots_above_estimate: t.Array(t.Integer()),
        lots_within_estimate: t.Array(t.Integer()),
        lots_below_estimate: t.Array(t.Integer()),
        lots_not_sold: t.Array(t.Integer()),
      }),
    ),
  },
  { $id: "SalesVolumeResponse" },
);

export const SHARPE_HORIZONS = [1, 2, 3, 5, 7, 10] as const;

export const SharpeRatioResponse = t.Object(
  {
    artist_id: t.Integer(),
    horizons: t.Array(
      t.Object({
        horizon_years: t.Integer(),
        sharpe_ratio: num("annualised Sharpe ratio of the artist index; null when the history is insufficient"),
      }),
      { description: "horizons 1, 2, 3, 5, 7 and 10 years, in that order" },
    ),
  },
  { $id: "SharpeRatioResponse" },
);

const careerPath = ($id: string, unit: string, what: string) =>
  t.Object(
    {
      artist_id: t.Integer(),
      unit: t.Literal(unit, { description: unit === "USD" ? "unit of the values: USD (US dollars)" : `unit of the values: ${unit} (a count)` }),
      items: t.Array(
        t.Object({
          medium: t.String(),
          points: t.Array(t.Object({ year: t.Integer(), value: t.Number({ description: what }) })),
        }),
        { description: "one per medium, largest total first; every medium has the same contiguous years" },
      ),
    },
    { $id },
  );

export const CareerPathCountResponse = careerPath("CareerPathCountResponse", "artworks", "number of artworks created that year");
export const CareerPathEstimateResponse = careerPath("CareerPathEstimateResponse", "USD", "sum of the current estimates of the works created that year, USD");

export const ReturnsVsPeriodResponse = t.Object(
  {
    artist_id: t.Integer(),
    items: t.Array(
      t.Object({
        car: t.Number({ description: "compound annual return of the pair, percent per year" }),
        period_months: t.Integer({ minimum: 12 }),
        buy_date: t.String({ format: "date" }),
        sell_date: t.String({ format: "date" }),
        artwork_id: t.Integer(),
      }),
      { description: "one per repeat-sale pair held 12 months or more" },
    ),
  },
  { $id: "ReturnsVsPeriodResponse" },
);

export const CompoundAnnualReturnsResponse = t.Object(
  {
    artist_id: t.Integer(),
    items: t.Array(t.Object({ year: t.Integer(), car: t.Number({ description: "median compound annual return of the pairs sold that year, percent per year" }) }), {
      description: "ascending by year; years without repeat sales are omitted",
    }),
  },
  { $id: "CompoundAnnualReturnsResponse" },
);

export type Artist = Static<typeof ArtistSchema>;
