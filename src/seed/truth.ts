/**
 * truth.db: the latent truth of a synthetic market, beside market.db and never opened by the
 * service. The valuation benchmark reads it to measure how close the derived metrics come.
 * A plain file of its own (no migrations): it is written whole by every seed.
 */
import { Database } from "bun:sqlite";

export const TRUTH_DB = "truth.db";

const DDL = [
  `CREATE TABLE truth_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  /** Market factor: log level per month from 1986-01 (Float64 little-endian). */
  `CREATE TABLE market_truth (id INTEGER PRIMARY KEY CHECK (id = 1), log_level BLOB NOT NULL)`,
  /** Per artist: the parameters of its index and the index itself, log level per month (Float32). */
  `CREATE TABLE artist_truth (artist_id INTEGER PRIMARY KEY, beta REAL NOT NULL, drift REAL NOT NULL, vol REAL NOT NULL,
     base_log_value REAL NOT NULL, log_index BLOB NOT NULL)`,
  /** Per artwork: the hedonic log value from its attributes, and its hidden quality (log). */
  `CREATE TABLE artwork_truth (artwork_id INTEGER PRIMARY KEY, artist_id INTEGER NOT NULL, hedonic REAL NOT NULL, quality REAL NOT NULL)`,
];

export function createTruthDb(path: string): Database {
  const db = openTruthDb(path);
  for (const statement of DDL) db.run(statement);
  return db;
}

/** A connection that writes truth.db at `path` (written whole by a seed: no journal). */
export function openTruthDb(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  db.run("PRAGMA journal_mode = OFF");
  db.run("PRAGMA synchronous = OFF");
  return db;
}
