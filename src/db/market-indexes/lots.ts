/**
 * Statements run on a finished market snapshot (after derivation) for the lots endpoints:
 * indexes for their filters and sorts, and the full-text index of the `search` filter. Each is
 * idempotent (the FTS table is dropped and rebuilt).
 *
 * The table already has lots_sale (sale_id, lot_seq), lots_artist_date (artist_id,
 * sale_datetime), lots_artwork (artwork_id, sale_datetime) and lots_date (sale_datetime). An
 * equality filter followed by sale_datetime serves the common question "these lots, newest
 * first" without sorting; the price columns have plain indexes for their ranges and sorts (a DESC
 * sort walks one backwards, NULLs being lowest; an ASC sort with NULLs last reads it as two
 * ranges, the rows with a value and then the NULLs: NULLS_LAST_ASC in src/serve/modules/lots/fields.ts).
 * What stays unserved is written down in docs/api-lots-sales.md (a range on one column sorted by
 * another).
 *
 * Each index costs a sort of every lot and its size (docs/benchmarks.md#seed), so only what a
 * filter or sort needs is built. sale_status has no index of its own: a lot of an open sale
 * (upcoming, live, between sessions: under 1 % of lots) is among the newest, so the default
 * newest-first order finds them at the head of lots_date, and "closed" is nearly every lot; the
 * oldest-first order with an open sale_status reads lots_date to its end.
 */
/** lots_fts's tokenizer; the service cuts a search into tokens with the same one (src/serve/modules/lots/service.ts). */
export const LOTS_FTS_TOKENIZE = "unicode61 remove_diacritics 2";

/** A lot's search text (lots_fts): its artist's name and other spellings, its work's title, its notes; over LOTS_FTS_FROM. */
export const LOTS_FTS_TEXT = "coalesce(a.name, '') || ' ' || replace(coalesce(a.synonyms, ''), '|', ' ') || ' ' || coalesce(w.title, '') || ' ' || coalesce(n.text, '')";
export const LOTS_FTS_FROM = "lots l LEFT JOIN artists a ON a.id = l.artist_id LEFT JOIN artworks w ON w.id = l.artwork_id LEFT JOIN lot_notes n ON n.id = l.notes_id";

export const STATEMENTS: string[] = [
  // equality filter + the default date sort
  // status: the rare values alone, like lots_top (withdrawn about 3 % of lots, upcoming 1 %,
  // unknown only in imports). sold and passed (about 77 % and 19 %) walk lots_date or the sort's
  // index. Replaces lots_status_date (status, sale_datetime) of older markets: 532 MiB at full scale.
  "DROP INDEX IF EXISTS lots_status_date",
  "CREATE INDEX IF NOT EXISTS lots_withdrawn ON lots (sale_datetime) WHERE status = 'withdrawn'",
  "CREATE INDEX IF NOT EXISTS lots_upcoming ON lots (sale_datetime) WHERE status = 'upcoming'",
  "CREATE INDEX IF NOT EXISTS lots_unknown ON lots (sale_datetime) WHERE status = 'unknown'",
  // the upcoming lots by estimate (thinly spread through the estimates' order): 0.6 MiB each at
  // large, about 2.5 MiB at full scale
  "CREATE INDEX IF NOT EXISTS lots_upcoming_estimate_min ON lots (estimate_min_usd_cents) WHERE status = 'upcoming'",
  "CREATE INDEX IF NOT EXISTS lots_upcoming_estimate_max ON lots (estimate_max_usd_cents) WHERE status = 'upcoming'",
  "CREATE INDEX IF NOT EXISTS lots_house_date ON lots (house_id, sale_datetime)",
  // a house's lots by creation year or estimate, both directions (each run of equal values in id
  // order, as the sorts' tiebreak): a house holds 0.01-1 % of lots, which sit anywhere in those
  // orders, so walking the sort's index for them or sorting them both read about
  // sqrt(page end x lots) rows with a table look-up each (80-130 ms at full). About 380 MiB each
  // at full scale.
  "CREATE INDEX IF NOT EXISTS lots_house_creation_year ON lots (house_id, creation_year)",
  "CREATE INDEX IF NOT EXISTS lots_house_estimate_min ON lots (house_id, estimate_min_usd_cents)",
  "CREATE INDEX IF NOT EXISTS lots_house_estimate_max ON lots (house_id, estimate_max_usd_cents)",
  "CREATE INDEX IF NOT EXISTS lots_location_date ON lots (location_id, sale_datetime)",
  // the top lots (about 3 %) alone: is_top = true reads them newest first; is_top = false is
  // nearly every lot, read from lots_date (the filter's literal 1 or 0 lets SQLite match the
  // partial index: src/serve/query/grammar.ts). Replaces lots_top_date (is_top, sale_datetime) of older
  // markets, 406 MiB at full scale against about 12 MiB.
  "DROP INDEX IF EXISTS lots_top_date",
  "CREATE INDEX IF NOT EXISTS lots_top ON lots (sale_datetime) WHERE is_top = 1",
  // the top lots by estimate: they sit late in the estimates' ASC order (the lots of highest
  // value), so neither walking lots_estimate_* nor sorting them serves a page (2.8 MiB each at
  // large, about 11 MiB at full scale)
  "CREATE INDEX IF NOT EXISTS lots_top_estimate_min ON lots (estimate_min_usd_cents) WHERE is_top = 1",
  "CREATE INDEX IF NOT EXISTS lots_top_estimate_max ON lots (estimate_max_usd_cents) WHERE is_top = 1",
  // and by lot number (few in the oldest sales, which NUMBER_ASC walks first): 3 MiB at large,
  // about 12 MiB at full scale
  "CREATE INDEX IF NOT EXISTS lots_top_sale ON lots (sale_id, lot_seq) WHERE is_top = 1",
  // the withdrawn lots by lot number: NUMBER_DESC walks past the sales to come (about 1 % of lots,
  // none withdrawn) and then found its start from the withdrawn lots themselves, a look-up each
  // (4.7 s at full scale, once a snapshot); read in order instead (about 12 MiB at full scale)
  "CREATE INDEX IF NOT EXISTS lots_withdrawn_sale ON lots (sale_id, lot_seq) WHERE status = 'withdrawn'",
  // and the upcoming lots by number: the sales to come hold the highest sale ids, so NUMBER_ASC
  // walked every other lot before them, and its start, found from the upcoming lots themselves, cost
  // 0.5 s warm and 5.7 s from a cold page cache at full scale (about 10 MiB at full scale)
  "CREATE INDEX IF NOT EXISTS lots_upcoming_sale ON lots (sale_id, lot_seq) WHERE status = 'upcoming'",
  // ranges and the sorts (DESC walks backwards, NULLs being lowest; ASC with NULLs last reads x IS
  // NOT NULL, then x IS NULL)
  "CREATE INDEX IF NOT EXISTS lots_hammer_usd ON lots (hammer_usd_cents)",
  "CREATE INDEX IF NOT EXISTS lots_premium_usd ON lots (premium_usd_cents)",
  "CREATE INDEX IF NOT EXISTS lots_estimate_max_usd ON lots (estimate_max_usd_cents)",
  "CREATE INDEX IF NOT EXISTS lots_estimate_min_usd ON lots (estimate_min_usd_cents)",
  "CREATE INDEX IF NOT EXISTS lots_creation_year ON lots (creation_year)",
  // the upcoming lots' forecast (null on every other status): its range filter, and both sorts,
  // each read as two ranges (NULLS_APART in src/serve/modules/lots/fields.ts): the lots with a
  // value from this index, then the NULL rows in id order from the table. Partial: about 3 MiB at
  // full scale against 276 MiB for lots_sale_probability (every lot) of older markets.
  "DROP INDEX IF EXISTS lots_sale_probability",
  "CREATE INDEX IF NOT EXISTS lots_sale_probability_known ON lots (sale_probability) WHERE sale_probability IS NOT NULL",
  // the ASC sorts' own (x IS NULL, x) indexes of older markets, now read from the plain ones above
  "DROP INDEX IF EXISTS lots_creation_year_nl",
  "DROP INDEX IF EXISTS lots_estimate_min_nl",
  "DROP INDEX IF EXISTS lots_estimate_max_nl",
  // search: artist name (and its other spellings), artwork title and lot notes, one row per lot
  // under the lot's id. Contentless: only the index is kept, the text stays in its tables. No
  // positions (detail=none): a search is an AND of single words, which needs only which lots hold
  // each word (88 MiB against 285 MiB with positions at large).
  "DROP TABLE IF EXISTS lots_fts",
  `CREATE VIRTUAL TABLE lots_fts USING fts5(text, content='', columnsize=0, detail=none, tokenize='${LOTS_FTS_TOKENIZE}')`,
  `INSERT INTO lots_fts (rowid, text) SELECT l.id, ${LOTS_FTS_TEXT} FROM ${LOTS_FTS_FROM}`,
  // one segment instead of the several the build leaves (7 at large): a common word is checked row
  // by row (rowid = ?), and each check seeks every segment, about 150 µs a row with 7 against
  // 25 µs with one (3 s at large)
  "INSERT INTO lots_fts (lots_fts) VALUES ('optimize')",
];
