/**
 * PriceSchema, shared by lots and artworks: native amounts, USD amounts, and with
 * preferred_currency the same converted at the reference rate of the sale's day.
 * Then the lot's own schemas: LotSchema (full) and LotPublicSchema (no price, no is_followed),
 * their list pages, and the share bodies.
 */
import { type Static, Type as t, type TSchema } from "@sinclair/typebox";
import { NEXT_CURSOR } from "../../query/cursor";
import { lotUsdColumns, type FxCache } from "../../../db/fx";
import { ImageSchema } from "../../../images/model";
import { LOT_STATUSES } from "../../../market/statuses";
import { TOP_LOT_MIN_ESTIMATE_USD } from "../../../market/lots";

const money = (what: string) => t.Union([t.Number(), t.Null()], { description: what });

export const PriceSchema = t.Object(
  {
    currency: t.String({
      description: "the lot's native currency: the currency of the sale it was offered in (ISO 4217 code), in which hammer, the estimates and premium are given",
    }),
    hammer: money("hammer price in the sale currency; null unless sold"),
    hammer_estimate_min: money("low estimate, sale currency"),
    hammer_estimate_max: money("high estimate, sale currency"),
    premium: money("price with buyer's premium, sale currency; null unless sold"),
    hammer_usd: money("hammer in US dollars (USD) at the sale day's reference rate"),
    hammer_estimate_min_usd: money("low estimate in US dollars (USD) at the sale day's reference rate"),
    hammer_estimate_max_usd: money("high estimate in US dollars (USD) at the sale day's reference rate"),
    premium_usd: money("price with buyer's premium in US dollars (USD) at the sale day's reference rate"),
    preferred_currency: t.Optional(
      t.String({ description: "the preferred_currency asked for (ISO 4217 code): the currency of the *_preferred amounts, converted from USD at the sale day's reference rate" }),
    ),
    hammer_preferred: t.Optional(money("hammer in the preferred currency")),
    hammer_estimate_min_preferred: t.Optional(money("low estimate in the preferred currency")),
    hammer_estimate_max_preferred: t.Optional(money("high estimate in the preferred currency")),
    premium_preferred: t.Optional(money("price with premium in the preferred currency")),
  },
  { $id: "PriceSchema" },
);

export type Price = Static<typeof PriceSchema>;

/** The USD columns of `lots l` as a PriceRow names them (the table holds them in cents). */
export const PRICE_USD_COLUMNS = lotUsdColumns("l");

/** The lot columns a price is made from (as in the lots table, the USD amounts read from cents). */
export interface PriceRow {
  currency: string;
  hammer: number | null;
  estimate_min: number | null;
  estimate_max: number | null;
  premium: number | null;
  hammer_usd: number | null;
  estimate_min_usd: number | null;
  estimate_max_usd: number | null;
  premium_usd: number | null;
  sale_datetime: string;
}

/** A PriceSchema object; with `preferred`, the *_preferred values at the rate of the sale's day. */
export function priceObject(row: PriceRow, fx: FxCache, preferred?: string): Price {
  const price: Price = {
    currency: row.currency,
    hammer: row.hammer,
    hammer_estimate_min: row.estimate_min,
    hammer_estimate_max: row.estimate_max,
    premium: row.premium,
    hammer_usd: row.hammer_usd,
    hammer_estimate_min_usd: row.estimate_min_usd,
    hammer_estimate_max_usd: row.estimate_max_usd,
    premium_usd: row.premium_usd,
  };
  if (preferred) {
    const day = row.sale_datetime;
    price.preferred_currency = preferred;
    price.hammer_preferred = fx.fromUsd(row.hammer_usd, preferred, day);
    price.hammer_estimate_min_preferred = fx.fromUsd(row.estimate_min_usd, preferred, day);
    price.hammer_estimate_max_preferred = fx.fromUsd(row.estimate_max_usd, preferred, day);
    price.premium_preferred = fx.fromUsd(row.premium_usd, preferred, day);
  }
  return price;
}

// ---------------------------------------------------------------- lots

const oneOf = (values: readonly string[], description: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    { description },
  );

const LotArtwork = t.Object(
  {
    id: t.Integer(),
    name: t.String({ description: "the artwork's title" }),
    creation_year: t.Union([t.Integer(), t.Null()]),
  },
  { description: "the artwork offered" },
);

const LotSale = t.Object(
  {
    id: t.Integer(),
    name: t.String(),
    location: t.String({ description: "a name from /v1/auction-locations" }),
    start_datetime: t.String({ format: "date-time", description: "when the sale starts (addition to the spec)" }),
  },
  { description: "the sale the lot is offered at" },
);

const LotArtist = t.Object({ id: t.Integer(), uid: t.String(), name: t.String() }, { description: "the artist of the artwork (addition to the spec)" });

/** The fields every caller sees (the public schema); the full schema adds price and is_followed. */
const publicLotFields = {
  id: t.Integer(),
  lot_num: t.String({ description: "the lot number as printed; may contain letters" }),
  status: oneOf(LOT_STATUSES, "outcome of the lot"),
  auction_house_id: t.Integer(),
  auction_house_name: t.String(),
  sale_id: t.Integer(),
  sale_datetime: t.String({ format: "date-time", description: "start of the lot's sale, ISO 8601 UTC (addition to the spec)" }),
  is_top: t.Boolean({ description: `a top lot: high estimate of at least $${TOP_LOT_MIN_ESTIMATE_USD / 1000}k or of outstanding quality` }),
  reserve_mark: t.Boolean({ description: "offered with a reserve" }),
  third_party_mark: t.Boolean({ description: "backed by a third-party guarantee" }),
  artwork: LotArtwork,
  artist: LotArtist,
  sale: LotSale,
  notes: t.String({ description: "catalogue notes (signature, provenance, literature); may be empty (addition to the spec)" }),
  image: t.Union([ImageSchema, t.Null()], { description: "the artwork's image; blurred previews for callers without a key; null without image" }),
};

/** The forecast of an upcoming lot (full schema; null on every other status). */
export const forecastFields = {
  sale_probability: t.Union([t.Number({ minimum: 0, maximum: 1 }), t.Null()], {
    description:
      "upcoming lots: the chance that the lot sells rather than being bought in or withdrawn (0..1), from what is known before the sale (docs/derivation.md); null on other statuses (addition to the spec)",
  }),
  expected_hammer_usd: t.Union([t.Number(), t.Null()], {
    description: "upcoming lots: the median hammer if the lot sells (as likely above it as below), in US dollars (USD); null on other statuses (addition to the spec)",
  }),
  expected_hammer_usd_low: t.Union([t.Number(), t.Null()], { description: "the low end of expected_hammer_usd's 80 % band, USD; null on other statuses" }),
  expected_hammer_usd_high: t.Union([t.Number(), t.Null()], { description: "the high end of expected_hammer_usd's 80 % band, USD; null on other statuses" }),
};

export const LotSchema = t.Object(
  {
    ...publicLotFields,
    price: PriceSchema,
    is_followed: t.Boolean({ description: "whether the caller follows this lot" }),
    ...forecastFields,
  },
  { $id: "LotSchema" },
);

/** LotSchema without the financial fields (price) and without is_followed: unauthenticated and sandbox callers. */
export const LotPublicSchema = t.Object(publicLotFields, { $id: "LotPublicSchema" });

export type Lot = Static<typeof LotSchema>;
export type LotPublic = Static<typeof LotPublicSchema>;

const lotsPage = (lot: TSchema, $id: string) =>
  t.Object(
    {
      lots: t.Array(lot),
      has_more: t.Boolean({ description: "whether a next page exists (no total: counting the lots table is not cheap)" }),
      limit: t.Integer(),
      offset: t.Integer(),
      next_cursor: NEXT_CURSOR,
    },
    { $id },
  );

export const LotsResponse = lotsPage(LotSchema, "LotsResponse");
export const LotsPublicResponse = lotsPage(LotPublicSchema, "LotsPublicResponse");

export const MAX_SHARE_IDS = 500;

export const LotShareInput = t.Object(
  {
    ids: t.Array(t.Integer({ minimum: 1 }), {
      minItems: 1,
      maxItems: MAX_SHARE_IDS,
      description: "lot ids, in the order to show them; each must exist; repeats are kept once",
    }),
    title: t.Optional(t.String({ maxLength: 200 })),
  },
  { $id: "LotShareInput", additionalProperties: false },
);

export const ShareCreatedSchema = t.Object(
  {
    token: t.String(),
    url: t.String({ format: "uri", description: "the public address of the shared list" }),
    expires_at: t.String({ format: "date-time", description: "30 days after creation" }),
  },
  { $id: "LotShareCreated" },
);

export const SharedLotsResponse = t.Object(
  {
    title: t.Union([t.String(), t.Null()]),
    expires_at: t.String({ format: "date-time" }),
    lots: t.Array(LotPublicSchema),
    total: t.Integer({ description: "lots in the shared list" }),
    has_more: t.Boolean(),
    limit: t.Integer(),
    offset: t.Integer(),
  },
  { $id: "SharedLotsResponse" },
);
