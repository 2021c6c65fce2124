/**
 * Artwork schemas: ArtworkSchema (full) and ArtworkPublicSchema (the same without the financial
 * fields), the list responses, the chart, editions, CAGR and share shapes.
 *
 * The estimate fields (current_estimated_price and its bounds, the price changes) are stored and
 * served in USD (current_estimated_price_currency says so); with preferred_currency the *_preferred
 * values are those amounts converted at the reference rate of the market's as-of date.
 */
import type { Database } from "bun:sqlite";
import { type Static, Type as t, type TSchema } from "@sinclair/typebox";
import { NEXT_CURSOR } from "../../query/cursor";
import { artworkUid } from "../../../db/artwork-uid";
import type { AppDeps } from "../../deps";
import type { CallerView } from "../../http/view";
import { ImageSchema } from "../../../images/model";
import { slugify } from "../../../market/slug";
import { LOT_STATUSES } from "../../../market/statuses";
import { SIZE_BUCKETS } from "../../../market/sizes";
import { fromDayNumber, isoOfSecondsSql } from "../../../market/time";
import { estimatesOn } from "../../../db/estimate-history";
import { PRICE_USD_COLUMNS, priceObject, PriceSchema, type PriceRow } from "../lots/model";

const oneOf = (values: readonly string[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );
const num = (description: string) => t.Union([t.Number(), t.Null()], { description });
const int = (description: string) => t.Union([t.Integer(), t.Null()], { description });
const date = (description: string) => t.Union([t.String({ format: "date" }), t.Null()], { description });

export const ArtworkDescriptionSchema = t.Object(
  {
    name: t.String({ description: "title of the work" }),
    materials: t.String({ description: 'the medium as catalogued, e.g. "oil on canvas"' }),
    creation_year: int("year the work was made; null when unknown"),
    image: t.Union([ImageSchema, t.Null()], {
      description: "the work's image; blurred previews for callers without a key; null without image",
    }),
    artist: t.Object({ id: t.Integer(), name: t.String() }, { description: "the artist of the work" }),
    category_id: t.Integer({ description: "see GET /v1/categories" }),
    measurements: t.Object(
      {
        height_cm: num("height in centimetres"),
        width_cm: num("width in centimetres"),
        depth_cm: num("depth in centimetres; null for flat works"),
        size: oneOf(
          SIZE_BUCKETS,
          "normalised size bucket: largest of height and width < 40 cm small, < 100 cm medium, else big; other for three-dimensional works or unknown sizes",
        ),
      },
      { description: "measurements in centimetres and the normalised size bucket" },
    ),
    edition: t.Object(
      {
        edition_group_id: int("works of one edition share this id; null for a unique work"),
        edition_number: int("number of this copy within its edition"),
        edition_size: int("number of copies of the edition"),
        edition_unique_type: oneOf(["unique", "edition"], "unique: a one-off work; edition: one copy of an edition"),
      },
      { description: "edition data; GET /v1/artworks/{artwork_id}/editions lists every copy" },
    ),
  },
  { $id: "ArtworkDescriptionSchema" },
);

/** The financial fields: what the public schema leaves out. */
export const FINANCIAL_FIELDS = [
  "current_estimated_price",
  "current_estimated_price_min",
  "current_estimated_price_max",
  "current_estimated_price_currency",
  "price_momentum_12mo",
  "price_change_12mo",
  "price_momentum_24mo",
  "price_change_24mo",
  "price",
  "preferred_currency",
  "current_estimated_price_preferred",
  "current_estimated_price_min_preferred",
  "current_estimated_price_max_preferred",
  "price_change_12mo_preferred",
  "price_change_24mo_preferred",
] as const;

const preferred = (what: string) =>
  t.Optional(t.Union([t.Number(), t.Null()], { description: `${what} in the preferred currency, at the reference rate of the market's as-of date; only with preferred_currency` }));

export const ArtworkSchema = t.Object(
  {
    id: t.Integer(),
    uid: t.String({ description: "stable string id" }),
    slug: t.String({ description: "URL slug: the title and the id" }),
    last_lot_status: oneOf(LOT_STATUSES, "outcome of the most recent lot"),
    date_last_upcoming: date("date of the most recent upcoming lot"),
    date_last_sold: date("date of the most recent sale"),
    currency: t.String({
      description:
        "the native currency of the work's most recent lot: the currency of the sale it was offered in (the same as price.currency); USD for a work never offered. " +
        "Not the currency of the estimate fields: see current_estimated_price_currency",
    }),
    current_estimated_price: num("the service's estimate of the hammer price today, USD (the median of the prediction); null without a prediction"),
    current_estimated_price_min: num("low end of the central 80 % prediction interval, USD"),
    current_estimated_price_max: num("high end of the central 80 % prediction interval, USD"),
    current_estimated_price_currency: t.Literal("USD", {
      description:
        "the currency of current_estimated_price, its _min and _max and price_change_12mo and _24mo: always USD (US dollars), whatever the native currency of the work's lots",
    }),
    price_momentum_12mo: num("change of the artist's price index over 12 months, a fraction clipped to -1..1"),
    price_change_12mo: num("estimate now minus the estimate 12 months ago, USD"),
    price_momentum_24mo: num("change of the artist's price index over 24 months, a fraction clipped to -1..1"),
    price_change_24mo: num("estimate now minus the estimate 24 months ago, USD"),
    preferred_currency: t.Optional(
      t.String({ description: "the preferred_currency asked for (ISO 4217 code): the currency of the *_preferred fields, converted from USD at the market's as-of date" }),
    ),
    current_estimated_price_preferred: preferred("current_estimated_price"),
    current_estimated_price_min_preferred: preferred("current_estimated_price_min"),
    current_estimated_price_max_preferred: preferred("current_estimated_price_max"),
    price_change_12mo_preferred: preferred("price_change_12mo"),
    price_change_24mo_preferred: preferred("price_change_24mo"),
    description: ArtworkDescriptionSchema,
    price: t.Union([PriceSchema, t.Null()], {
      description: "price of the most recent lot (with *_preferred at that sale day's rate when preferred_currency is given); null for a work never offered",
    }),
    is_followed: t.Boolean({ description: "whether the caller follows this artwork (false without a key)" }),
  },
  { $id: "ArtworkSchema" },
);

/** ArtworkSchema without the financial fields: callers without a key, and sandbox keys. */
export const ArtworkPublicSchema = t.Omit(ArtworkSchema, [...FINANCIAL_FIELDS, "is_followed"], {
  $id: "ArtworkPublicSchema",
  description: "ArtworkSchema without the financial fields (estimates, momentum, price changes, price) and is_followed, as the other public schemas",
});

export type Artwork = Static<typeof ArtworkSchema>;
export type ArtworkPublic = Static<typeof ArtworkPublicSchema>;

const page = (item: TSchema, $id: string) =>
  t.Object(
    {
      items: t.Array(item),
      total_count: t.Integer({ description: "rows matching the filters" }),
      limit: t.Integer(),
      offset: t.Integer(),
      next_cursor: t.Optional(t.Union(NEXT_CURSOR.anyOf, { description: `${NEXT_CURSOR.description} (GET /v1/artworks and /followed; /recommended pages by offset only)` })),
    },
    { $id },
  );

export const ArtworksResponse = page(ArtworkSchema, "ArtworksResponse");
export const ArtworksPublicResponse = page(ArtworkPublicSchema, "ArtworksPublicResponse");

// ---------------------------------------------------------------- chart

const ChartPoint = t.Object(
  {
    time: t.String({ format: "date" }),
    value: t.Number(),
    value_low: t.Optional(t.Number({ description: "low end of the central 80 % band (estimate series)" })),
    value_high: t.Optional(t.Number({ description: "high end of the central 80 % band (estimate series)" })),
    sale_probability: t.Optional(
      t.Number({ minimum: 0, maximum: 1, description: "upcoming_lot series: the lot's chance of selling (0..1); its value is the expected hammer if sold" }),
    ),
    lot_id: t.Optional(t.Integer({ description: "upcoming_lot series: the lot (GET /v1/lots/{lot_id})" })),
  },
  { $id: "ArtworkChartPoint" },
);

export const ArtworkChartResponse = t.Object(
  {
    resolution: t.Literal("monthly", { description: "the estimate band has one point a month; hammer prices are at their sale dates" }),
    unit: t.String({ description: "currency code of the values" }),
    currency: t.String({ description: "currency code of the values: USD, or preferred_currency" }),
    series: t.Array(
      t.Object({
        id: t.String({
          description:
            "hammer_prices, estimate, estimate_history (the estimate as the service served it: a point, with its band, on each day a new value took effect, from the first snapshot kept), or upcoming_lot (present when the work has an upcoming lot with a forecast)",
        }),
        label: t.String(),
        data: t.Array(ChartPoint),
      }),
    ),
  },
  {
    $id: "ArtworkChartResponse",
    description:
      "The spec's ChartResponse for an artwork: hammer prices of its sold lots, a forward 12-month confidence band around the current estimate, the estimate as served since the first snapshot kept, and the upcoming lot's expected hammer with its band and chance of selling",
  },
);

// ---------------------------------------------------------------- editions

const editionLotFields = {
  id: t.Integer(),
  lot_num: t.String(),
  status: oneOf(LOT_STATUSES),
  sale_id: t.Integer(),
  sale_name: t.Union([t.String(), t.Null()]),
  sale_datetime: t.String({ format: "date-time" }),
  auction_house_id: t.Integer(),
  auction_house_name: t.Union([t.String(), t.Null()]),
};

export const EditionLotSchema = t.Object({ ...editionLotFields, price: PriceSchema }, { $id: "EditionLotSchema" });
export const EditionLotPublicSchema = t.Object(editionLotFields, { $id: "EditionLotPublicSchema" });

export const EditionSchema = t.Object({ artwork: ArtworkSchema, lots: t.Array(EditionLotSchema, { description: "the copy's lots, oldest first" }) }, { $id: "EditionSchema" });
export const EditionPublicSchema = t.Object(
  { artwork: ArtworkPublicSchema, lots: t.Array(EditionLotPublicSchema, { description: "the copy's lots, oldest first" }) },
  { $id: "EditionPublicSchema" },
);

const editionsPage = (item: TSchema, $id: string) =>
  t.Object(
    {
      artwork_id: t.Integer({ description: "the artwork asked for" }),
      edition_group_id: int("the edition group; null for a unique work"),
      edition_size: int("copies in the edition"),
      edition_unique_type: oneOf(["unique", "edition"]),
      editions: t.Array(item, { description: "every tracked copy of the edition (the work itself for a unique work), by edition number" }),
    },
    { $id },
  );

export const EditionsResponse = editionsPage(EditionSchema, "EditionsResponse");
export const EditionsPublicResponse = editionsPage(EditionPublicSchema, "EditionsPublicResponse");

// ---------------------------------------------------------------- cagr

export const ArtworkCagrResponse = t.Object(
  {
    artwork_id: t.Integer(),
    cagr: t.Number({ description: "compound annual growth of the estimate over the last 10 years, a fraction per year (0.12 = 12 %)" }),
  },
  { $id: "ArtworkCagrResponse" },
);

// ---------------------------------------------------------------- shares

export const MAX_SHARE_IDS = 500;

export const ArtworkShareInput = t.Object(
  {
    ids: t.Array(t.Integer({ minimum: 1 }), {
      minItems: 1,
      maxItems: MAX_SHARE_IDS,
      description: "artwork ids, in the order to show them; each must exist; repeats are kept once",
    }),
    title: t.Optional(t.String({ maxLength: 200 })),
  },
  { $id: "ArtworkShareInput", additionalProperties: false },
);

export const ArtworkShareCreated = t.Object(
  {
    token: t.String(),
    url: t.String({ format: "uri", description: "the public address of the shared list" }),
    expires_at: t.String({ format: "date-time", description: "30 days after creation" }),
  },
  { $id: "ArtworkShareCreated" },
);

export const SharedArtworksResponse = t.Object(
  {
    title: t.Union([t.String(), t.Null()]),
    expires_at: t.String({ format: "date-time" }),
    items: t.Array(ArtworkPublicSchema),
    total_count: t.Integer(),
    limit: t.Integer(),
    offset: t.Integer(),
  },
  { $id: "SharedArtworksResponse" },
);

// ---------------------------------------------------------------- the artwork object

/**
 * Building the response objects lives beside their schemas, so that every module that returns
 * artworks (the lists here, similar and search by image in modules/search) serialises them alike.
 */

interface ArtworkRow {
  id: number;
  uid: string;
  title: string;
  medium: string;
  creation_year: number | null;
  image_id: number | null;
  artist_id: number;
  artist_name: string | null;
  category_id: number;
  height_cm: number | null;
  width_cm: number | null;
  depth_cm: number | null;
  size_bucket: string;
  edition_group_id: number | null;
  edition_number: number | null;
  edition_size: number | null;
  last_lot_status: string;
  date_last_upcoming: string | null;
  day_last_sold: number | null;
  currency: string;
  estimate_usd: number | null;
  estimate_min_usd: number | null;
  estimate_max_usd: number | null;
  price_momentum_12mo: number | null;
  price_change_12mo: number | null;
  price_momentum_24mo: number | null;
  price_change_24mo: number | null;
}

/** An artwork's URL slug: its title's slug and its id in base 36 (made on read, not stored). */
export const artworkSlug = (title: string, id: number): string => `${slugify(title) || "untitled"}-${id.toString(36)}`;

interface LastLotRow extends PriceRow {
  artwork_id: number;
}

const ARTWORK_COLUMNS = `a.id, a.uid, a.title, a.medium, a.creation_year, a.image_id, a.artist_id, ar.name AS artist_name,
  a.category_id, a.height_cm, a.width_cm, a.depth_cm, a.size_bucket, a.edition_group_id, a.edition_number, a.edition_size,
  a.last_lot_status, a.date_last_upcoming, a.day_last_sold, a.currency, a.estimate_usd, a.estimate_min_usd, a.estimate_max_usd,
  a.price_momentum_12mo_ppm / 1000000.0 AS price_momentum_12mo, a.price_change_12mo,
  a.price_momentum_24mo_ppm / 1000000.0 AS price_momentum_24mo, a.price_change_24mo`;

/** The columns of `lots l` a PriceSchema object is made from. */
export const PRICE_COLUMNS = `l.currency, l.hammer, l.estimate_min, l.estimate_max, l.premium, ${PRICE_USD_COLUMNS},
  ${isoOfSecondsSql("l.sale_datetime")} AS sale_datetime`;

const rowsByIds = (db: Database, ids: readonly number[]): ArtworkRow[] =>
  db
    .query<ArtworkRow, [string]>(
      `SELECT ${ARTWORK_COLUMNS} FROM artworks a LEFT JOIN artists ar ON ar.id = a.artist_id
       WHERE a.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids));

const lastLots = (db: Database, ids: readonly number[]): Map<number, LastLotRow> =>
  new Map(
    db
      .query<LastLotRow, [string]>(
        `SELECT j.value AS artwork_id, ${PRICE_COLUMNS} FROM json_each(?) j
         JOIN lots l ON l.id = (SELECT x.id FROM lots x WHERE x.artwork_id = j.value ORDER BY x.sale_datetime DESC, x.id DESC LIMIT 1)`,
      )
      .all(JSON.stringify(ids))
      .map((r) => [r.artwork_id, r]),
  );

function artworkObject(r: ArtworkRow, deps: AppDeps, view: CallerView, lastLot: LastLotRow | undefined, followed: boolean, rateDay: string): Artwork | ArtworkPublic {
  const head = {
    id: r.id,
    uid: artworkUid(r.id, r.title, r.uid),
    slug: artworkSlug(r.title, r.id),
    last_lot_status: r.last_lot_status,
    date_last_upcoming: r.date_last_upcoming,
    date_last_sold: r.day_last_sold === null ? null : fromDayNumber(r.day_last_sold),
    currency: r.currency,
  };
  const description = {
    name: r.title,
    materials: r.medium,
    creation_year: r.creation_year,
    image: deps.signer.imageObject(r.image_id, view.image, view.origin),
    artist: { id: r.artist_id, name: r.artist_name ?? "" },
    category_id: r.category_id,
    measurements: { height_cm: r.height_cm, width_cm: r.width_cm, depth_cm: r.depth_cm, size: r.size_bucket },
    edition: {
      edition_group_id: r.edition_group_id,
      edition_number: r.edition_number,
      edition_size: r.edition_size,
      edition_unique_type: r.edition_group_id === null ? "unique" : "edition",
    },
  } satisfies Artwork["description"];
  if (view.schema !== "full") return { ...head, description };
  const code = view.preferred;
  const at = (usd: number | null) => (code ? deps.fx.fromUsd(usd, code, rateDay) : null);
  return {
    ...head,
    current_estimated_price: r.estimate_usd,
    current_estimated_price_min: r.estimate_min_usd,
    current_estimated_price_max: r.estimate_max_usd,
    current_estimated_price_currency: "USD",
    price_momentum_12mo: r.price_momentum_12mo,
    price_change_12mo: r.price_change_12mo,
    price_momentum_24mo: r.price_momentum_24mo,
    price_change_24mo: r.price_change_24mo,
    ...(code && {
      preferred_currency: code,
      current_estimated_price_preferred: at(r.estimate_usd),
      current_estimated_price_min_preferred: at(r.estimate_min_usd),
      current_estimated_price_max_preferred: at(r.estimate_max_usd),
      price_change_12mo_preferred: at(r.price_change_12mo),
      price_change_24mo_preferred: at(r.price_change_24mo),
    }),
    description,
    price: lastLot ? priceObject(lastLot, deps.fx, view.preferred) : null,
    is_followed: followed,
  };
}

/**
 * The artworks of `ids` as response objects (ArtworkSchema or ArtworkPublicSchema by view.schema),
 * in the order of `ids`; ids the market lacks are skipped. With `day` (before the as-of date), the
 * estimate values are those in effect that day (src/db/estimate-history.ts), at that day's rate.
 */
export function artworksByIds(deps: AppDeps, view: CallerView & { schema: "public" }, ids: readonly number[], day?: string | null): ArtworkPublic[];
export function artworksByIds(deps: AppDeps, view: CallerView, ids: readonly number[], day?: string | null): (Artwork | ArtworkPublic)[];
export function artworksByIds(deps: AppDeps, view: CallerView, ids: readonly number[], day: string | null = null): (Artwork | ArtworkPublic)[] {
  if (ids.length === 0) return [];
  const rows = new Map(rowsByIds(deps.market, ids).map((r) => [r.id, r]));
  if (day !== null && view.schema === "full") {
    for (const [id, values] of estimatesOn(deps.market, ids, day)) {
      const r = rows.get(id);
      if (r) Object.assign(r, values);
    }
  }
  const lots = view.schema === "full" ? lastLots(deps.market, ids) : new Map<number, LastLotRow>();
  const followed = deps.accounts.followedAmong(view.userId, "artwork", ids);
  const out: (Artwork | ArtworkPublic)[] = [];
  for (const id of ids) {
    const r = rows.get(id);
    if (r) out.push(artworkObject(r, deps, view, lots.get(id), followed.has(id), day ?? deps.asOf));
  }
  return out;
}

export function artworkById(deps: AppDeps, view: CallerView, id: number, day: string | null = null): Artwork | ArtworkPublic | null {
  return artworksByIds(deps, view, [id], day)[0] ?? null;
}
