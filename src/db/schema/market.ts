/**
 * market.db: one market snapshot, rebuilt whole by seed/import and swapped in by rename.
 *
 * Two kinds of tables. Source tables hold what a market is made of, as the generator or the
 * importer writes it (src_artists, src_sales, lots, fx_rates, images, events, benchmarks; the
 * artworks' source rows, src_artworks, sit in a file of their own while a snapshot is built,
 * src/pipeline/db/works-file.ts, and the served artworks keep every source column). Served tables are written by the derivation step from the source tables, with every
 * metric the API serves computed ahead (artists, artworks, sales, artist_charts, artist_analytics,
 * market_index), so that a read is a lookup. Repeat-sale pairs live in the artist's analytics
 * documents (returns-vs-period), the only place they are served. Lots are both: the writer fills their
 * denormalised columns (artist, house, sale status and date, location) as it writes them.
 */
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** What built this snapshot: scale, seed, counts, build time, as_of date. */
export const marketMeta = sqliteTable("market_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

// ---------------------------------------------------------------- reference

export const currencies = sqliteTable("currencies", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
  symbol: text("symbol").notNull(),
  decimals: integer("decimals").notNull().default(2),
});

/** Daily reference rates: USD per one unit of the currency. */
export const fxRates = sqliteTable(
  "fx_rates",
  {
    code: text("code").notNull(),
    day: text("day").notNull(),
    usdPerUnit: real("usd_per_unit").notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.day] })],
);

export const auctionHouses = sqliteTable(
  "auction_houses",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    priorityOrder: integer("priority_order").notNull(),
    isLive: integer("is_live", { mode: "boolean" }).notNull(),
    country: text("country"),
    city: text("city"),
  },
  (t) => [uniqueIndex("auction_houses_slug").on(t.slug), index("auction_houses_priority").on(t.priorityOrder, t.id)],
);

export const auctionLocations = sqliteTable(
  "auction_locations",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    country: text("country").notNull(),
    currency: text("currency").notNull(),
  },
  (t) => [uniqueIndex("auction_locations_name").on(t.name)],
);

export const categories = sqliteTable("categories", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  slug: text("slug").notNull(),
});

const vocabulary = (name: string) =>
  sqliteTable(name, {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    label: text("label").notNull(),
  });

export const materials = vocabulary("materials");
export const substrates = vocabulary("substrates");
export const surfaces = vocabulary("surfaces");
export const damages = vocabulary("damages");

/** Synthetic benchmark series for the index chart (monthly closes), labelled as synthetic. */
export const benchmarks = sqliteTable(
  "benchmarks",
  {
    series: text("series").notNull(),
    month: text("month").notNull(),
    value: real("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.month] })],
);

export const benchmarkSeries = sqliteTable("benchmark_series", {
  id: text("id").primaryKey(),
  label: text("label").notNull(),
  synthetic: integer("synthetic", { mode: "boolean" }).notNull(),
});

// ---------------------------------------------------------------- source tables

export const srcArtists = sqliteTable(
  "src_artists",
  {
    id: integer("id").primaryKey(),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    /** Other spellings and names, separated by "|". */
    synonyms: text("synonyms").notNull().default(""),
    nationality: text("nationality").notNull(),
    birth: integer("birth"),
    death: integer("death"),
    bio: text("bio").notNull().default(""),
    longBio: text("long_bio").notNull().default(""),
    isTop: integer("is_top", { mode: "boolean" }).notNull().default(false),
    photoImageId: integer("photo_image_id"),
  },
  (t) => [uniqueIndex("src_artists_uid").on(t.uid)],
);

export const srcSales = sqliteTable("src_sales", {
  id: integer("id").primaryKey(),
  houseId: integer("house_id").notNull(),
  name: text("name").notNull(),
  locationId: integer("location_id").notNull(),
  location: text("location").notNull(),
  currency: text("currency").notNull(),
  isOnline: integer("is_online", { mode: "boolean" }).notNull(),
  isBidsStreaming: integer("is_bids_streaming", { mode: "boolean" }).notNull(),
  status: text("status").notNull(),
  /** ISO 8601 UTC, e.g. 2024-05-14T18:00:00Z. */
  startDatetime: text("start_datetime").notNull(),
  endDatetime: text("end_datetime").notNull(),
});

/**
 * One offering of an artwork at a sale. Prices in the sale's currency and in USD at the sale
 * day's reference rate, the USD ones as whole cents (readers divide by 100: the served amounts are
 * the same doubles as 2-decimal values); absent (null) where the lot has none (no hammer when
 * passed or withdrawn).
 */
export const lots = sqliteTable(
  "lots",
  {
    id: integer("id").primaryKey(),
    saleId: integer("sale_id").notNull(),
    artworkId: integer("artwork_id").notNull(),
    artistId: integer("artist_id").notNull(),
    houseId: integer("house_id").notNull(),
    lotNum: text("lot_num").notNull(),
    /** Numeric order of lot_num within its sale (for the NUMBER sort). */
    lotSeq: integer("lot_seq").notNull(),
    status: text("status").notNull(),
    saleStatus: text("sale_status").notNull(),
    /** Start of the lot's sale, Unix seconds (UTC); the API writes it as ISO 8601. */
    saleDatetime: integer("sale_datetime").notNull(),
    locationId: integer("location_id").notNull(),
    creationYear: integer("creation_year"),
    isTop: integer("is_top", { mode: "boolean" }).notNull().default(false),
    reserveMark: integer("reserve_mark", { mode: "boolean" }).notNull().default(false),
    thirdPartyMark: integer("third_party_mark", { mode: "boolean" }).notNull().default(false),
    currency: text("currency").notNull(),
    hammer: real("hammer"),
    estimateMin: real("estimate_min"),
    estimateMax: real("estimate_max"),
    premium: real("premium"),
    /** The USD amounts in whole cents (an integral value takes 1-6 bytes on disk, a REAL 8). */
    hammerUsdCents: real("hammer_usd_cents"),
    estimateMinUsdCents: real("estimate_min_usd_cents"),
    estimateMaxUsdCents: real("estimate_max_usd_cents"),
    premiumUsdCents: real("premium_usd_cents"),
    /** The lot's catalogue notes: a row of lot_notes; null when it has none. */
    notesId: integer("notes_id"),
    /**
     * Derived for upcoming lots only (null on every other status): the chance that the lot sells
     * (0..1), and its hammer if it does, with its 80 % band, USD in whole dollars
     * (src/pipeline/derive/upcoming.ts; docs/derivation.md#upcoming-lots).
     */
    saleProbability: real("sale_probability"),
    expectedHammerUsd: real("expected_hammer_usd"),
    expectedHammerUsdLow: real("expected_hammer_usd_low"),
    expectedHammerUsdHigh: real("expected_hammer_usd_high"),
  },
  (t) => [
    index("lots_sale").on(t.saleId, t.lotSeq),
    index("lots_artist_date").on(t.artistId, t.saleDatetime),
    index("lots_artwork").on(t.artworkId, t.saleDatetime),
    index("lots_date").on(t.saleDatetime),
  ],
);

/**
 * Catalogue notes of lots, each text once (a lot's notes_id names its row): a market's notes are
 * a few phrases in many combinations, about 40 bytes a lot written out, a byte as an id. Text
 * only, never empty.
 */
export const lotNotes = sqliteTable("lot_notes", {
  id: integer("id").primaryKey(),
  text: text("text").notNull(),
});

/** Images: the original is drawn from its parameters (style of the artist, seed of the work) or read from a file. */
export const images = sqliteTable("images", {
  id: integer("id").primaryKey(),
  artworkId: integer("artwork_id"),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  /** "procedural" (drawn from artist_id + seed) or "file" (path under images/orig/). */
  kind: text("kind").notNull(),
  seed: integer("seed"),
  path: text("path"),
});

export const artistEvents = sqliteTable(
  "artist_events",
  {
    id: integer("id").primaryKey(),
    artistId: integer("artist_id").notNull(),
    date: text("date").notNull(),
    /** Life Events, Major Exhibitions, Major Publications, Major Sales. */
    type: text("type").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    visible: integer("visible", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [index("artist_events_artist").on(t.artistId, t.date)],
);

// ---------------------------------------------------------------- served (derived) tables

export const artists = sqliteTable(
  "artists",
  {
    id: integer("id").primaryKey(),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    synonyms: text("synonyms").notNull().default(""),
    nationality: text("nationality").notNull(),
    birth: integer("birth"),
    death: integer("death"),
    bio: text("bio").notNull(),
    longBio: text("long_bio").notNull(),
    isTop: integer("is_top", { mode: "boolean" }).notNull(),
    photoImageId: integer("photo_image_id"),
    totalSales: real("total_sales").notNull(),
    marketCap: real("market_cap").notNull(),
    maxPrice: real("max_price"),
    minPrice: real("min_price"),
    priceMomentum12mo: real("price_momentum_percentage_12mo"),
    priceMomentum5y: real("price_momentum_percentage_5y"),
    artworksCount: integer("artworks_count").notNull(),
    recentLotsCount: integer("recent_lots_count").notNull(),
    lots1yr: integer("total_sales_lots_1yr").notNull(),
    median1yr: real("total_sales_price_median_1yr"),
    lotsCount: integer("lots_count").notNull(),
  },
  (t) => [uniqueIndex("artists_uid").on(t.uid), index("artists_market_cap").on(t.marketCap), index("artists_total_sales").on(t.totalSales), index("artists_name").on(t.name)],
);

/** The artist price index: monthly points from `start_month`, Float64 little-endian, plus a vector. */
export const artistCharts = sqliteTable("artist_charts", {
  artistId: integer("artist_id").primaryKey(),
  startMonth: text("start_month").notNull(),
  points: blob("points", { mode: "buffer" }).notNull(),
  /** Standard error of the log index at each point (for the chart's band). */
  stderr: blob("stderr", { mode: "buffer" }).notNull(),
  /** artist_index_vector: 64 Float32. */
  vector: blob("vector", { mode: "buffer" }).notNull(),
});

/** Per-artist analytics, precomputed as JSON documents served as they are. */
export const artistAnalytics = sqliteTable(
  "artist_analytics",
  {
    artistId: integer("artist_id").notNull(),
    kind: text("kind").notNull(),
    /** JSON compressed with zstd (src/db/documents.ts). */
    body: blob("body", { mode: "buffer" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.artistId, t.kind] })],
);

export const artworks = sqliteTable(
  "artworks",
  {
    id: integer("id").primaryKey(),
    uid: text("uid").notNull(),
    artistId: integer("artist_id").notNull(),
    title: text("title").notNull(),
    categoryId: integer("category_id").notNull(),
    medium: text("medium").notNull(),
    materialIds: text("material_ids").notNull(),
    substrateId: integer("substrate_id"),
    creationYear: integer("creation_year"),
    heightCm: real("height_cm"),
    widthCm: real("width_cm"),
    depthCm: real("depth_cm"),
    sizeBucket: text("size_bucket").notNull(),
    editionGroupId: integer("edition_group_id"),
    editionNumber: integer("edition_number"),
    editionSize: integer("edition_size"),
    imageId: integer("image_id"),
    lotsCount: integer("lots_count").notNull(),
    lastLotStatus: text("last_lot_status").notNull(),
    dateLastUpcoming: text("date_last_upcoming"),
    /** The most recent sale's day: days since 1970-01-01 (2-3 bytes where the ISO date took 10; served as the date). */
    dayLastSold: integer("day_last_sold"),
    currency: text("currency").notNull(),
    /** The most recent sale's hammer and price with premium, USD in whole cents (as the lots hold them). */
    lastHammerUsdCents: real("last_hammer_usd_cents"),
    lastPremiumUsdCents: real("last_premium_usd_cents"),
    /** USD; null when there is no prediction (too little data). */
    estimateUsd: real("estimate_usd"),
    estimateMinUsd: real("estimate_min_usd"),
    estimateMaxUsd: real("estimate_max_usd"),
    /** The momentum fractions and the CAGR in millionths (ppm): integral values, 1-4 bytes on disk where a REAL takes 8. */
    momentum12moPpm: real("price_momentum_12mo_ppm"),
    change12mo: real("price_change_12mo"),
    momentum24moPpm: real("price_momentum_24mo_ppm"),
    change24mo: real("price_change_24mo"),
    cagrPpm: real("cagr_ppm"),
    artistMarketCap: real("artist_market_cap").notNull(),
    signed: integer("signed", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    // a default uid is stored as '' and made on read (src/db/artwork-uid.ts): the index holds the given ones
    uniqueIndex("artworks_uid").on(t.uid).where(sql`uid <> ''`),
    index("artworks_artist").on(t.artistId, t.creationYear),
    index("artworks_estimate").on(t.estimateUsd),
    index("artworks_last_sold").on(t.dayLastSold),
  ],
);

export const sales = sqliteTable(
  "sales",
  {
    id: integer("id").primaryKey(),
    houseId: integer("house_id").notNull(),
    name: text("name").notNull(),
    locationId: integer("location_id").notNull(),
    location: text("location").notNull(),
    currency: text("currency").notNull(),
    isOnline: integer("is_online", { mode: "boolean" }).notNull(),
    isBidsStreaming: integer("is_bids_streaming", { mode: "boolean" }).notNull(),
    status: text("status").notNull(),
    startDatetime: text("start_datetime").notNull(),
    endDatetime: text("end_datetime").notNull(),
    lotsCount: integer("lots_count").notNull(),
    lotsCountNotSold: integer("lots_count_not_sold").notNull(),
    lotsCountSoldAbove: integer("lots_count_sold_above_estimations").notNull(),
    lotsCountSoldWithin: integer("lots_count_sold_within_estimations").notNull(),
    lotsCountSoldBelow: integer("lots_count_sold_below_estimations").notNull(),
    hammerTotal: real("hammer_total").notNull(),
    premiumSoldTotal: real("premium_sold_total").notNull(),
    cumulativeTotal: real("cumulative_total").notNull(),
    hammerTotalUsd: real("hammer_total_usd").notNull(),
    premiumSoldTotalUsd: real("premium_sold_total_usd").notNull(),
    cumulativeTotalUsd: real("cumulative_total_usd").notNull(),
    hammerLowEstimate: real("hammer_low_estimate").notNull(),
    hammerHighEstimate: real("hammer_high_estimate").notNull(),
  },
  (t) => [index("sales_house_start").on(t.houseId, t.startDatetime), index("sales_start").on(t.startDatetime)],
);

/** The global art index, monthly, and its monthly observation count. */
export const marketIndex = sqliteTable("market_index", {
  month: text("month").primaryKey(),
  value: real("value").notNull(),
  lots: integer("lots").notNull(),
});

/**
 * The derivation's market-wide model and pass 1's sums (src/pipeline/derive/state.ts), kept so that a
 * merge import derives only what its records touch (docs/derivation.md#a-merge-derives-what-it-touches).
 */
export const deriveState = sqliteTable("derive_state", {
  key: text("key").primaryKey(),
  value: blob("value").notNull(),
});

/**
 * The estimates a snapshot replaced (src/pipeline/import/estimate-history.ts): when a merge
 * republishes a work's estimate, the values it replaces are kept here with the day the new ones
 * took effect (`until`, exclusive), so that the estimate in effect on any day since the first
 * snapshot kept (market_meta `estimates_since`) can be read back. Only changes are stored; the
 * current values are the artworks row's. WITHOUT ROWID (the key is the only index).
 */
export const estimateHistory = sqliteTable(
  "estimate_history",
  {
    artworkId: integer("artwork_id").notNull(),
    /** The first day the values were no longer in effect: days since 1970-01-01. */
    until: integer("until").notNull(),
    /**
     * The artworks row's values (USD). INTEGER affinity: the whole dollars the derivation writes
     * take 1-4 bytes each where a REAL takes 8 (a value with cents would stay REAL, exact).
     */
    estimateUsd: integer("estimate_usd"),
    estimateMinUsd: integer("estimate_min_usd"),
    estimateMaxUsd: integer("estimate_max_usd"),
    change12mo: integer("price_change_12mo"),
    change24mo: integer("price_change_24mo"),
  },
  (t) => [primaryKey({ columns: [t.artworkId, t.until] })],
);

/**
 * What happened in the market, snapshot by snapshot: the events a merge import finds among the
 * lots and sales its records touched (src/pipeline/import/events.ts): a lot consigned (new and
 * upcoming), sold, passed or withdrawn, a sale's results published. The id is the same whichever
 * node reads it; events older than 30 days are dropped by the next merge. The server fans them out
 * to the users who follow what they concern (src/serve/webhooks/fan-out.ts).
 */
export const marketEvents = sqliteTable("market_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  /** The market day it happened (the import's as-of date), YYYY-MM-DD. */
  day: text("day").notNull(),
  /** artist | artwork | lot | sale: what the event is about. */
  subjectKind: text("subject_kind").notNull(),
  subjectId: integer("subject_id").notNull(),
  lotId: integer("lot_id"),
  artworkId: integer("artwork_id"),
  artistId: integer("artist_id"),
  saleId: integer("sale_id"),
  /** JSON object: the figures of the event (status, hammer and estimates, currency). */
  data: text("data").notNull(),
});
