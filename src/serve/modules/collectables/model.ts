/**
 * Collectable schemas: CollectableSchema and its list response, the update input, and the children
 * (AcquiredSchema, AppraisalSchema, ProvenanceSchema, CollectableSaleSchema, CompSetSchema) with
 * their create and update inputs. docs/api-collectables.md describes the rules behind the fields.
 *
 * Inputs reject unknown fields (422 extra_forbidden). Every monetary value the service computes is
 * in USD; the owner's own amounts (acquisition price, appraisal and sale values) keep their currency
 * and gain a USD figure at the reference rate of their date.
 */
import { Type as t, type TSchema } from "@sinclair/typebox";
import { CURRENCY_CODES } from "../../../market/currencies";

export const EDITION_UNIQUE_TYPES = ["unique", "edition"] as const;
export const SELECTED_PRICE_TYPES = ["machine", "manual"] as const;
export const PRICE_SOURCES = ["manual", "acquisition", "machine"] as const;
export const MEASUREMENT_UNITS = ["cm", "in"] as const;
export const MACHINE_BASES = ["suggested_artwork", "comparable_works"] as const;
/** Most comps a set may hold. */
export const MAX_COMPS = 50;
/** Most ids in one of material_ids, substrate_ids, surface_ids, damage_ids. */
export const MAX_REFERENCE_IDS = 20;

const oneOf = (values: readonly string[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );
const nullable = (s: TSchema, description?: string) => t.Union([s, t.Null()], description ? { description } : {});
const num = (description: string) => nullable(t.Number(), description);
const int = (description: string) => nullable(t.Integer(), description);
const str = (description: string) => nullable(t.String(), description);
const date = (description: string) => nullable(t.String({ format: "date" }), description);
const ids = (description: string) => t.Array(t.Integer(), { description });

// ---------------------------------------------------------------- children: responses

export const AcquiredSchema = t.Object(
  {
    date: date("date of the acquisition"),
    price: num("price paid, in `currency`"),
    currency: str("the currency of price, as the owner gave it (ISO 4217, one of the 16 supported codes; USD for a price given without one); null without a price"),
    price_usd: num("the price in USD at the reference rate of the acquisition date (of the market's as-of date when the date is unknown)"),
    location: str("where the work was acquired"),
    source_type: str("how it was acquired, free text (for example auction, gallery, private, inheritance)"),
    seller_name: str("the seller"),
    dealer_name: str("the dealer or gallery"),
    auction_house_id: int("the auction house, when bought at auction (GET /v1/auction-houses)"),
    auction_house_name: str("the auction house's name: the market's name for auction_house_id, else as given"),
    use_instead_of_estimates: t.Boolean({
      description: "when true (and a price is known), the acquisition price replaces the machine estimate as the collectable's value, unless the owner selected a manual price",
    }),
  },
  { $id: "AcquiredSchema" },
);

export const AppraisalSchema = t.Object(
  {
    id: t.Integer(),
    type: t.String({ description: "kind of appraisal, free text (for example insurance, fair market value)" }),
    value: t.Number({ description: "appraised value, in `currency`" }),
    currency: t.String({ description: "the currency of value, as the owner gave it (ISO 4217, one of the 16 supported codes; USD when not given)" }),
    value_usd: t.Number({ description: "the value in USD at the reference rate of the appraisal date" }),
    date: t.String({ format: "date" }),
    company_name: str("who appraised the work"),
    is_best_guess: t.Boolean({ description: "the owner's own best guess rather than a formal appraisal" }),
  },
  { $id: "AppraisalSchema" },
);

export const ProvenanceSchema = t.Object(
  {
    id: t.Integer(),
    owner: t.String({ description: "an owner of the work" }),
    location: str("where the owner held it"),
    year_from: int("first year of the ownership"),
    year_to: int("last year of the ownership; null while is_up_to_present"),
    is_up_to_present: t.Boolean({ description: "the ownership continues to the present" }),
  },
  { $id: "ProvenanceSchema" },
);

export const CollectableSaleSchema = t.Object(
  {
    id: t.Integer(),
    value: t.Number({ description: "sale price, in `currency`" }),
    currency: t.String({ description: "the currency of value, as the owner gave it (ISO 4217, one of the 16 supported codes; USD when not given)" }),
    value_usd: t.Number({ description: "the value in USD at the reference rate of the sale date" }),
    date: t.String({ format: "date" }),
    location: str("where the sale took place"),
    type: str("kind of sale, free text (for example private, gallery, auction)"),
    auction_house_id: int("the auction house, when there was one"),
    auction_house_name: str("the market's name for auction_house_id"),
    seller_name: str("the seller"),
  },
  { $id: "CollectableSaleSchema" },
);

export const CompSchema = t.Object(
  {
    artist_id: t.Integer(),
    artwork_id: t.Integer(),
    weight: t.Number({ description: "weight of the comp in the set (default 1.0)" }),
    artist_name: str("the artist's name in the current market; null when the market no longer has the artist"),
    artwork_title: str("the artwork's title in the current market; null when the market no longer has the artwork"),
    similarity: num("cosine similarity of the image embeddings of the collectable and the comp artwork (-1..1); null when either has no embedding"),
    verified: t.Boolean({
      description:
        "the artwork is in the current market and is by artist_id (false for a pair saved with another artist's artwork, or after a market rebuild removed or reattributed it)",
    }),
  },
  { $id: "CompSchema" },
);

export const CompSetSchema = t.Object(
  {
    comps: t.Array(CompSchema, { description: "in the order they were saved" }),
    updated_at: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "when the set was last saved; null when no set is saved (empty)" }),
  },
  { $id: "CompSetSchema" },
);

// ---------------------------------------------------------------- the collectable

export const SuggestedMatchSchema = t.Object(
  {
    artwork_id: t.Integer({ description: "the market artwork (GET /v1/artworks/{artwork_id})" }),
    score: t.Number({ description: "cosine similarity of the image embeddings of the collectable and the artwork, 6 decimals (at least 0.975 for a match)" }),
    title: t.String({ description: "the artwork's title" }),
    artist_id: t.Integer({
      description: "the artwork's artist (link both when it differs from the record's artist_id: only an artwork by the record's artist gives the machine estimate)",
    }),
    artist_name: str("the artwork's artist's name"),
  },
  { $id: "SuggestedMatch" },
);

export const CollectableSchema = t.Object(
  {
    id: t.Integer(),
    uid: t.String({ description: "stable string id" }),
    title: t.String(),
    artist_id: t.Integer(),
    artist_name: str("the artist's name in the current market"),
    category_id: t.Integer(),
    category_name: str("the category's name (GET /v1/categories)"),
    suggested_artwork_id: int("the market artwork the record was seeded from or linked to"),
    suggested_matches: t.Array(SuggestedMatchSchema, {
      description:
        "A suggestion, never applied by itself: market artworks the collectable's image matches so closely that it is probably that work (at most 3, best first: each scores at least 0.975 and 0.01 above the next artwork that is not a match; several when several works look the same). Empty when suggested_artwork_id is set, without an image, or with no close match. Found on read against the current market (kept in memory per image, no DU of its own). Link one with PATCH {suggested_artwork_id} (and artist_id when it differs): the machine estimate then is the artwork's.",
    }),
    creation_year: int("year the work was made"),
    current_estimated_price: num("the value in effect, USD: see current_price_source and docs/api-collectables.md; null when nothing is known"),
    current_estimated_price_currency: t.Literal("USD", {
      description: "the currency of current_estimated_price and machine_estimated_price: always USD (US dollars), whatever the currencies of the owner's own amounts",
    }),
    current_price_source: nullable(oneOf(PRICE_SOURCES), "which value current_estimated_price is: manual, acquisition or machine"),
    machine_estimated_price: num("the market's estimate for the work, USD; null when the market knows no estimated work by the artist"),
    machine_estimate_basis: nullable(
      oneOf(MACHINE_BASES),
      "suggested_artwork: the suggested artwork's current estimate (an artwork by the record's artist); comparable_works: from the artist's estimated works",
    ),
    manual_price_value: num("the owner's own value, USD"),
    selected_price_type: oneOf(SELECTED_PRICE_TYPES, "machine (default) or manual"),
    price_momentum_12mo: num("the artist's 12-month price index momentum, a fraction clipped to -1..1"),
    condition: str("condition, free text"),
    signature: str("signature, free text"),
    current_location: str("where the work is now"),
    measurements_unit: oneOf(MEASUREMENT_UNITS, "unit of the measurements"),
    measurements_height: num("height"),
    measurements_width: num("width"),
    measurements_depth: num("depth; null for flat works"),
    material_ids: ids("GET /v1/materials"),
    substrate_ids: ids("GET /v1/substrates"),
    surface_ids: ids("GET /v1/surfaces"),
    damage_ids: ids("GET /v1/damages"),
    edition_unique_type: oneOf(EDITION_UNIQUE_TYPES, "unique: a one-off work; edition: one copy of an edition"),
    edition_number: int("number of this copy within its edition"),
    edition_size: int("number of copies of the edition"),
    edition: t.Object(
      {
        edition_unique_type: oneOf(EDITION_UNIQUE_TYPES),
        edition_number: int("number of this copy"),
        edition_size: int("copies in the edition"),
      },
      { description: "the edition data again, grouped as on artworks" },
    ),
    image_url: nullable(t.String({ format: "uri" }), "signed URL of the image (1200 px wide rendition); null without image"),
    image_thumbnail_url: nullable(t.String({ format: "uri" }), "signed URL of the 240 px wide rendition; null without image"),
    acquisition: AcquiredSchema,
    appraisals: t.Array(AppraisalSchema, { description: "oldest date first" }),
    provenance: t.Array(ProvenanceSchema, { description: "in the order added" }),
    sales: t.Array(CollectableSaleSchema, { description: "private sales, oldest date first" }),
    created_at: t.String({ format: "date-time" }),
    updated_at: t.String({ format: "date-time" }),
  },
  { $id: "CollectableSchema" },
);

export const CollectablesListResponse = t.Object(
  {
    items: t.Array(CollectableSchema),
    total_count: t.Integer({ description: "the caller's collectables matching the filters" }),
    limit: t.Integer(),
    offset: t.Integer(),
  },
  { $id: "CollectablesListResponse" },
);

// ---------------------------------------------------------------- inputs

const text = (max: number, description?: string) => t.String({ minLength: 1, maxLength: max, ...(description && { description }) });
const optText = (max: number, description?: string) => t.Optional(nullable(t.String({ maxLength: max }), description));
const money = (description: string) => t.Number({ minimum: 0, maximum: 1e13, description });
const year = () => t.Integer({ minimum: 0, maximum: 2100 });
const size = () => t.Number({ minimum: 0, maximum: 100000 });
const refIds = (description: string) => t.Array(t.Integer({ minimum: 1 }), { maxItems: MAX_REFERENCE_IDS, description });
const dateInput = (description: string) => t.String({ maxLength: 10, description: `${description} (YYYY-MM-DD)` });
const currency = (of: string) => t.String({ description: `the currency of ${of}, a code: ${CURRENCY_CODES.join(", ")}` });

/** Fields a PATCH may set; the same names the record shows. */
const updatable = {
  title: t.Optional(text(500)),
  artist_id: t.Optional(t.Integer({ minimum: 1 })),
  category_id: t.Optional(t.Integer({ minimum: 1 })),
  suggested_artwork_id: t.Optional(nullable(t.Integer({ minimum: 1 }))),
  creation_year: t.Optional(nullable(year())),
  selected_price_type: t.Optional(oneOf(SELECTED_PRICE_TYPES)),
  manual_price_value: t.Optional(nullable(money("the owner's own value, USD"))),
  condition: optText(200),
  signature: optText(500),
  current_location: optText(500),
  measurements_unit: t.Optional(oneOf(MEASUREMENT_UNITS)),
  measurements_height: t.Optional(nullable(size())),
  measurements_width: t.Optional(nullable(size())),
  measurements_depth: t.Optional(nullable(size())),
  measurements: t.Optional(
    t.Object(
      {
        unit: t.Optional(oneOf(MEASUREMENT_UNITS)),
        height: t.Optional(nullable(size())),
        width: t.Optional(nullable(size())),
        depth: t.Optional(nullable(size())),
      },
      { additionalProperties: false, description: "the measurements grouped: the same as measurements_unit, _height, _width, _depth" },
    ),
  ),
  edition_unique_type: t.Optional(oneOf(EDITION_UNIQUE_TYPES)),
  edition_number: t.Optional(nullable(t.Integer({ minimum: 1 }))),
  edition_size: t.Optional(nullable(t.Integer({ minimum: 1 }))),
  edition: t.Optional(
    t.Object(
      {
        edition_unique_type: t.Optional(oneOf(EDITION_UNIQUE_TYPES)),
        edition_number: t.Optional(nullable(t.Integer({ minimum: 1 }))),
        edition_size: t.Optional(nullable(t.Integer({ minimum: 1 }))),
      },
      { additionalProperties: false, description: "the edition data grouped: the same as the edition_* fields" },
    ),
  ),
  material_ids: t.Optional(refIds("GET /v1/materials")),
  substrate_ids: t.Optional(refIds("GET /v1/substrates")),
  surface_ids: t.Optional(refIds("GET /v1/surfaces")),
  damage_ids: t.Optional(refIds("GET /v1/damages")),
};

export const CollectableUpdateInput = t.Object(updatable, {
  $id: "CollectableUpdateInput",
  additionalProperties: false,
  description: "Every field optional: only the fields sent change; null clears a nullable field; unknown fields are refused.",
});

/**
 * The multipart fields of POST /v1/collectables (the image is a file part): the spec's three
 * required fields and suggested_artwork_id, plus any field of the update input (flat names), which
 * wins over what the suggested artwork seeds.
 */
const { measurements: _m, edition: _e, artist_id: _a, category_id: _c, suggested_artwork_id: _s, edition_unique_type: _t, ...createExtras } = updatable;
export const CollectableCreateForm = t.Object(
  {
    artist_id: t.Integer({ minimum: 1 }),
    category_id: t.Integer({ minimum: 1 }),
    edition_unique_type: oneOf(EDITION_UNIQUE_TYPES),
    suggested_artwork_id: t.Optional(
      t.Integer({ minimum: 1, description: "seeds title, year, measurements, materials, substrate, edition data and image from this market artwork" }),
    ),
    ...createExtras,
  },
  { $id: "CollectableCreateForm", additionalProperties: false },
);

/** PUT …/image has no text fields: only the file part `image`. */
export const ImageForm = t.Object({}, { $id: "CollectableImageForm", additionalProperties: false });

export const AcquiredUpdateInput = t.Object(
  {
    date: t.Optional(nullable(dateInput("date of the acquisition"))),
    price: t.Optional(nullable(money("price paid"))),
    currency: t.Optional(nullable(currency("price"), `the currency of price, a code: ${CURRENCY_CODES.join(", ")}; null clears it (a price without one is in USD)`)),
    location: optText(500),
    source_type: optText(100),
    seller_name: optText(500),
    dealer_name: optText(500),
    auction_house_id: t.Optional(nullable(t.Integer({ minimum: 1 }))),
    auction_house_name: optText(500),
    use_instead_of_estimates: t.Optional(t.Boolean()),
  },
  { $id: "AcquiredUpdateInput", additionalProperties: false },
);

export const AppraisalCreateInput = t.Object(
  {
    type: text(100, "kind of appraisal, free text (for example insurance, fair market value)"),
    value: money("appraised value, in currency"),
    currency: t.Optional(currency("value")),
    date: dateInput("date of the appraisal"),
    company_name: optText(500),
    is_best_guess: t.Optional(t.Boolean()),
  },
  { $id: "AppraisalCreateInput", additionalProperties: false, description: "currency defaults to USD" },
);

export const AppraisalUpdateInput = t.Object(
  {
    type: t.Optional(text(100)),
    value: t.Optional(money("appraised value")),
    currency: t.Optional(currency("value")),
    date: t.Optional(dateInput("date of the appraisal")),
    company_name: optText(500),
    is_best_guess: t.Optional(t.Boolean()),
  },
  { $id: "AppraisalUpdateInput", additionalProperties: false },
);

export const ProvenanceCreateInput = t.Object(
  {
    owner: text(500),
    location: optText(500),
    year_from: t.Optional(nullable(year())),
    year_to: t.Optional(nullable(year())),
    is_up_to_present: t.Optional(t.Boolean()),
  },
  { $id: "ProvenanceCreateInput", additionalProperties: false },
);

export const ProvenanceUpdateInput = t.Object(
  {
    owner: t.Optional(text(500)),
    location: optText(500),
    year_from: t.Optional(nullable(year())),
    year_to: t.Optional(nullable(year())),
    is_up_to_present: t.Optional(t.Boolean()),
  },
  { $id: "ProvenanceUpdateInput", additionalProperties: false },
);

export const CollectableSaleCreateInput = t.Object(
  {
    value: money("sale price, in currency"),
    currency: t.Optional(currency("value")),
    date: dateInput("date of the sale"),
    location: optText(500),
    type: optText(100),
    auction_house_id: t.Optional(nullable(t.Integer({ minimum: 1 }))),
    seller_name: optText(500),
  },
  { $id: "CollectableSaleCreateInput", additionalProperties: false, description: "currency defaults to USD" },
);

export const CollectableSaleUpdateInput = t.Object(
  {
    value: t.Optional(money("sale price")),
    currency: t.Optional(currency("value")),
    date: t.Optional(dateInput("date of the sale")),
    location: optText(500),
    type: optText(100),
    auction_house_id: t.Optional(nullable(t.Integer({ minimum: 1 }))),
    seller_name: optText(500),
  },
  { $id: "CollectableSaleUpdateInput", additionalProperties: false },
);

export const CompInput = t.Object(
  {
    artist_id: t.Integer({ minimum: 1 }),
    artwork_id: t.Integer({ minimum: 1 }),
    weight: t.Optional(t.Number({ minimum: 0, maximum: 1000, description: "default 1.0" })),
  },
  { $id: "CompInput", additionalProperties: false },
);

export const CompSetInput = t.Object(
  { comps: t.Array(CompInput, { maxItems: MAX_COMPS, description: `the whole set, at most ${MAX_COMPS} comps, each artwork once` }) },
  { $id: "CompSetInput", additionalProperties: false },
);

/** The answer to a DELETE of a collectable or of one of its children. */
export const DeletedSchema = t.Object({ id: t.Integer({ description: "the id removed" }), deleted: t.Literal(true) }, { $id: "CollectableDeleted" });

export const AppraisalList = t.Array(AppraisalSchema, { $id: "AppraisalList" });
export const ProvenanceList = t.Array(ProvenanceSchema, { $id: "ProvenanceList" });
export const CollectableSaleList = t.Array(CollectableSaleSchema, { $id: "CollectableSaleList" });
