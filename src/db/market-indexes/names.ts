/**
 * The indexes a list's plan names (INDEXED BY, a count or a probe through one), declared once:
 * those the market migrations create with their tables and those READ_STATEMENTS build. A plan
 * takes its index from MARKET_INDEX (type MarketIndex), never a free string, so a renamed index
 * is a compile error rather than a plan that silently falls back to SQLite's own.
 * tests/modules/market-indexes.test.ts fails when a declared index is missing from a built market,
 * or when READ_STATEMENTS builds an index not declared here.
 */
const NAMES = [
  // artists (the schema: artists_market_cap, artists_total_sales, artists_name, artists_uid)
  "artists_market_cap",
  "artists_total_sales",
  "artists_name_nocase",
  "artists_is_top",
  "artists_nationality",
  "artists_death",
  "artists_birth",
  "artists_birth_nulls_last",
  "artists_max_price",
  "artists_max_price_nulls_last",
  "artists_artworks_count",
  "artists_recent_lots_count",
  "artists_total_sales_lots_1yr",
  "artists_total_sales_price_median_1yr",
  "artists_total_sales_price_median_1yr_nulls_last",
  "artists_price_momentum_percentage_12mo",
  "artists_price_momentum_percentage_12mo_nulls_last",
  "artists_price_momentum_percentage_5y",
  "artists_price_momentum_percentage_5y_nulls_last",
  "artists_nationality_market_cap",
  "artists_nationality_name",
  "artists_living_total_sales",
  // artworks (the schema: artworks_artist, artworks_estimate, artworks_last_sold)
  "artworks_artist",
  "artworks_estimate",
  "artworks_last_sold",
  "artworks_title_nocase",
  "artworks_creation_year",
  "artworks_size",
  "artworks_category",
  "artworks_category_year_estimate",
  "artworks_category_estimate_year",
  "artworks_category_sold_year_estimate",
  "artworks_momentum_12mo",
  "artworks_last_upcoming",
  "artworks_artist_market_cap",
  "artworks_edition_group",
  "artworks_upcoming_lots_house",
  "artworks_upcoming_lots_date",
  // lots (the schema: lots_sale, lots_artist_date, lots_artwork, lots_date)
  "lots_sale",
  "lots_artist_date",
  "lots_artwork",
  "lots_date",
  "lots_withdrawn",
  "lots_upcoming",
  "lots_unknown",
  "lots_upcoming_estimate_min",
  "lots_upcoming_estimate_max",
  "lots_house_date",
  "lots_house_creation_year",
  "lots_house_estimate_min",
  "lots_house_estimate_max",
  "lots_location_date",
  "lots_top",
  "lots_top_estimate_min",
  "lots_top_estimate_max",
  "lots_top_sale",
  "lots_withdrawn_sale",
  "lots_upcoming_sale",
  "lots_hammer_usd",
  "lots_premium_usd",
  "lots_estimate_max_usd",
  "lots_estimate_min_usd",
  "lots_creation_year",
  "lots_sale_probability_known",
  // sales (the schema: sales_house_start, sales_start)
  "sales_house_start",
  "sales_start",
  "sales_end",
  "sales_status_start",
  "sales_location_start",
  "sales_location_id_start",
  "sales_online_start",
  "sales_streaming_start",
] as const;

/** An index of the served market that a plan may name. */
export type MarketIndex = (typeof NAMES)[number];

/** Every declared index, by its name: `MARKET_INDEX.lots_house_date`. */
export const MARKET_INDEX: { readonly [K in MarketIndex]: K } = Object.freeze(Object.fromEntries(NAMES.map((n) => [n, n])) as { [K in MarketIndex]: K });

/** The declared indexes, in the order above. */
export const MARKET_INDEX_NAMES: readonly MarketIndex[] = NAMES;
