/**
 * Statements run on a finished market snapshot (after derivation) for the sales endpoints:
 * indexes for their filters and sorts. Each is idempotent.
 *
 * The table already has sales_house_start (house_id, start_datetime) and sales_start
 * (start_datetime). Each equality filter gets an index ending in start_datetime (the default
 * sort); end_datetime has its own for its range and sort. name__ilike is a substring match and
 * reads the table (about 150k sales at full scale).
 */
export const STATEMENTS: string[] = [
  "CREATE INDEX IF NOT EXISTS sales_end ON sales (end_datetime)",
  "CREATE INDEX IF NOT EXISTS sales_status_start ON sales (status, start_datetime)",
  "CREATE INDEX IF NOT EXISTS sales_location_start ON sales (location, start_datetime)",
  "CREATE INDEX IF NOT EXISTS sales_location_id_start ON sales (location_id, start_datetime)",
  "CREATE INDEX IF NOT EXISTS sales_online_start ON sales (is_online, start_datetime)",
  "CREATE INDEX IF NOT EXISTS sales_streaming_start ON sales (is_bids_streaming, start_datetime)",
];
