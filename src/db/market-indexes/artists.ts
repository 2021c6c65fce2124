/**
 * Statements run on a finished market snapshot (after derivation) for the artists endpoints:
 * indexes for their filters and sorts (and any search structure). Each is idempotent.
 *
 * Sorts (src/serve/modules/artists/fields.ts, orderBy): `col DESC, id DESC` and, for a NOT NULL column,
 * `col ASC, id ASC` walk the plain index on `col` (the id is the rowid, the last key of every
 * index), so `ORDER BY … LIMIT` reads only the page. A nullable column sorted ascending puts NULLs
 * last with `col IS NULL, col ASC, id ASC`: that has its own expression index. market_cap,
 * total_sales and name already have indexes from the schema (name sorts case-insensitively, so it
 * gets a NOCASE one here). The plain indexes also serve the range filters; nationality, is_top and
 * death (is_living) have theirs. The free-text `q` goes through an FTS5 index over name and
 * synonyms (external content: the artists table), rebuilt here.
 */
const nullableSorts = ["max_price", "total_sales_price_median_1yr", "price_momentum_percentage_12mo", "price_momentum_percentage_5y", "birth"];
const plain = [...nullableSorts, "artworks_count", "recent_lots_count", "total_sales_lots_1yr", "nationality", "is_top", "death"];

export const STATEMENTS: string[] = [
  ...plain.map((c) => `CREATE INDEX IF NOT EXISTS artists_${c} ON artists (${c})`),
  ...nullableSorts.map((c) => `CREATE INDEX IF NOT EXISTS artists_${c}_nulls_last ON artists (${c} IS NULL, ${c})`),
  "CREATE INDEX IF NOT EXISTS artists_name_nocase ON artists (name COLLATE NOCASE)",
  // the screener's commonest pair: a few nationalities and a market-cap floor (its count on the index alone)
  "CREATE INDEX IF NOT EXISTS artists_nationality_market_cap ON artists (nationality, market_cap)",
  // one nationality sorted by name (A–Z within a country: names cluster by nationality, so a walk
  // of the name index alone passes many other artists)
  "CREATE INDEX IF NOT EXISTS artists_nationality_name ON artists (nationality, name COLLATE NOCASE)",
  // is_living=true (death IS NULL) with a total_sales floor or sort, on the index alone
  "CREATE INDEX IF NOT EXISTS artists_living_total_sales ON artists (death, total_sales)",
  `CREATE VIRTUAL TABLE IF NOT EXISTS artists_fts USING fts5(name, synonyms, content='artists', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
  "INSERT INTO artists_fts(artists_fts) VALUES ('rebuild')",
];
