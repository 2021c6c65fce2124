/**
 * Statements run on a finished market snapshot (after derivation) for the artworks endpoints:
 * indexes for their filters and sorts (and any search structure). Each is idempotent.
 *
 * Every sort of GET /v1/artworks reads its order from an index, so a page costs the rows it skips
 * and returns, not a sort of the table: SQLite walks a one-column index twice for NULLS LAST, and
 * the rowid at the end of every index gives the id tiebreaker. Already in the schema (migration):
 * artworks_artist (artist_id, creation_year), artworks_estimate (estimate_usd: sort_by_price),
 * artworks_last_sold (day_last_sold: SALE_DATE), lots_artwork (artwork_id, sale_datetime: the most
 * recent lot, editions).
 *
 * Category is the one filter with few values and one very large value (painting is about half
 * of all works): without histograms (SQLite here has no STAT4) the planner would read a whole
 * category and sort it, or walk a sort index past every other category's works. Hence an index
 * per sort with category_id in front for the year, estimate and last-sale sorts (which also carry
 * the two commonest ranges, for exact counts): `category_id = ?` with these reads its page in
 * order. The name and size sorts walk their own index of every work, checking the category on the
 * row (src/serve/modules/artworks/service.ts weighs that walk against sorting the category's matches).
 * Left as is: category_id__in with several categories and a sort sorts the union of those
 * categories, and filters with an artist sort the artist's works (a few hundred at most).
 */
const SIZE = "nullif(max(coalesce(height_cm, 0), coalesce(width_cm, 0), coalesce(depth_cm, 0)), 0)";

/** Estimate bands per doubling of artwork_counts (each band a factor of 2^(1/4), about 1.19). */
export const ESTIMATE_BANDS_PER_DOUBLING = 4;

/**
 * An estimate's band in artwork_counts, as SQL over the column or value `x`: -1 without one, 0 up
 * to 2^(1/4) USD, then floor(log2(x) × 4). The build and the count compute it with this one
 * expression, so a work is in the same band on both sides, whatever the rounding of log2.
 */
export const estimateBandSql = (x: string): string => `(CASE WHEN ${x} IS NULL THEN -1 ELSE CAST(floor(log2(max(${x}, 1.0)) * ${ESTIMATE_BANDS_PER_DOUBLING}) AS INTEGER) END)`;

/**
 * artwork_counts: the works of each category by creation year and estimate band (works without a
 * year left out). An exact count of a category over a year range and an estimate range is then
 * the sum of the bands inside the range plus the works of its one or two boundary bands, counted
 * on artworks_category_year_estimate year by year (src/serve/modules/artworks/category-counts.ts):
 * 3.7 ms p95 at full scale where counting the range on that index read up to 1.6M entries (54 ms).
 * Rebuilt whole by each build and each merge (6.3 s at full scale).
 */
export const ARTWORK_COUNTS: readonly string[] = [
  "DROP TABLE IF EXISTS artwork_counts",
  "CREATE TABLE artwork_counts (category_id INTEGER NOT NULL, creation_year INTEGER NOT NULL, band INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (category_id, creation_year, band)) WITHOUT ROWID",
  `INSERT INTO artwork_counts SELECT category_id, creation_year, ${estimateBandSql("estimate_usd")} AS band, count(*) FROM artworks
   WHERE category_id IS NOT NULL AND creation_year IS NOT NULL GROUP BY 1, 2, 3`,
];

export const STATEMENTS: string[] = [
  // sorts (NAME, CREATION_YEAR, SIZE; SALE_DATE and sort_by_price come with the schema)
  "CREATE INDEX IF NOT EXISTS artworks_title_nocase ON artworks (title COLLATE NOCASE)",
  "CREATE INDEX IF NOT EXISTS artworks_creation_year ON artworks (creation_year)",
  // the expression must stay identical to SIZE_SQL in src/serve/modules/artworks/fields.ts
  `CREATE INDEX IF NOT EXISTS artworks_size ON artworks (${SIZE})`,
  // category_id = ? with the year, estimate and last-sale sorts, and with the default order (id:
  // the rowid in the index).
  // The year, estimate and last-sale ones carry the two commonest range filters (creation_year,
  // current_estimated_price) after their sort key, so that a walk checks them on the index and a
  // count over a category is answered from an index alone. They replace the two-column
  // (category_id, creation_year | estimate_usd | date_last_sold) of older snapshots.
  "DROP INDEX IF EXISTS artworks_category_year",
  "DROP INDEX IF EXISTS artworks_category_estimate",
  "DROP INDEX IF EXISTS artworks_category_sold",
  "CREATE INDEX IF NOT EXISTS artworks_category ON artworks (category_id)",
  "CREATE INDEX IF NOT EXISTS artworks_category_year_estimate ON artworks (category_id, creation_year, estimate_usd)",
  // also the recommendations' "same category, close estimate" range
  "CREATE INDEX IF NOT EXISTS artworks_category_estimate_year ON artworks (category_id, estimate_usd, creation_year)",
  "CREATE INDEX IF NOT EXISTS artworks_category_sold_year_estimate ON artworks (category_id, day_last_sold, creation_year, estimate_usd)",
  // NAME and SIZE within a category walk artworks_title_nocase and artworks_size (the category
  // checked on the row): the (category_id, title | size) indexes of older markets cost 500 MiB
  // at full scale
  "DROP INDEX IF EXISTS artworks_category_title",
  "DROP INDEX IF EXISTS artworks_category_size",
  // selective range filters
  "CREATE INDEX IF NOT EXISTS artworks_momentum_12mo ON artworks (price_momentum_12mo_ppm)",
  "CREATE INDEX IF NOT EXISTS artworks_last_upcoming ON artworks (date_last_upcoming)",
  "CREATE INDEX IF NOT EXISTS artworks_artist_market_cap ON artworks (artist_market_cap)",
  // the editions endpoint
  "CREATE INDEX IF NOT EXISTS artworks_edition_group ON artworks (edition_group_id, edition_number) WHERE edition_group_id IS NOT NULL",
  // sale_auction_house_id__in and sale_start_datetime__gte/__lte: the upcoming lots only (partial, small)
  "CREATE INDEX IF NOT EXISTS artworks_upcoming_lots_house ON lots (house_id, sale_datetime, artwork_id) WHERE status = 'upcoming'",
  "CREATE INDEX IF NOT EXISTS artworks_upcoming_lots_date ON lots (sale_datetime, artwork_id) WHERE status = 'upcoming'",
  // the category counts (after artworks_category_year_estimate, which the count's boundary bands read)
  ...ARTWORK_COUNTS,
];
