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
  /**
   * Per artist: the parameters of its index and the index itself, log level per month: its first
   * month, then each month as a whole number of TRUTH_STEP from it (Int16 steps: packLogIndex).
   */
  `CREATE TABLE artist_truth (artist_id INTEGER PRIMARY KEY, beta REAL NOT NULL, drift REAL NOT NULL, vol REAL NOT NULL,
     base_log_value REAL NOT NULL, first_log_index REAL NOT NULL, log_index_steps BLOB NOT NULL)`,
  /** Per artwork: the hedonic log value from its attributes, and its hidden quality (log), each in whole TRUTH_STEPs. */
  `CREATE TABLE artwork_truth (artwork_id INTEGER PRIMARY KEY, hedonic INTEGER NOT NULL, quality INTEGER NOT NULL)`,
];

/**
 * The truth's log values are kept as whole numbers of this step (0.01 % of a price): at full scale
 * the monthly indexes (350k artists × 490 months) and the works' values (12.2M) take about half
 * what they took as floats (docs/history/market-model.md#the-truth-truthdb-its-log-values). What the valuation benchmark measures (errors of 10 % and more,
 * correlations of 12-month returns) does not see a twentieth of a step.
 */
export const TRUTH_STEP = 1e-4;

/** A log value in whole TRUTH_STEPs. */
export const truthSteps = (x: number): number => Math.round(x / TRUTH_STEP);

/**
 * A monthly log index as its first month and Int16 steps from month to month. Each step is taken
 * from the value rebuilt so far, so every month is within half a TRUTH_STEP of the index (no
 * drift); a month moves by at most 3.27 in log (a factor of 26), far beyond any month generated.
 */
export function packLogIndex(index: ArrayLike<number>): { first: number; steps: Uint8Array } {
  const first = index.length ? index[0]! : 0;
  const steps = new Int16Array(index.length);
  let level = 0;
  for (let m = 1; m < index.length; m++) {
    const step = Math.max(-32768, Math.min(32767, Math.round((index[m]! - first - level) / TRUTH_STEP)));
    steps[m] = step;
    level += step * TRUTH_STEP;
  }
  return { first, steps: new Uint8Array(steps.buffer) };
}

/**
 * packLogIndex's steps with `more` months appended (each step taken from the value rebuilt so
 * far, as packLogIndex does): how `feed` extends an artist's index to new months.
 */
export function appendLogIndex(first: number, steps: Uint8Array, more: ArrayLike<number>): Uint8Array {
  const old = new Int16Array(steps.buffer.slice(steps.byteOffset, steps.byteOffset + steps.byteLength));
  const out = new Int16Array(old.length + more.length);
  out.set(old);
  let level = 0;
  for (let m = 0; m < old.length; m++) level += old[m]! * TRUTH_STEP;
  for (let k = 0; k < more.length; k++) {
    const step = Math.max(-32768, Math.min(32767, Math.round((more[k]! - first - level) / TRUTH_STEP)));
    out[old.length + k] = step;
    level += step * TRUTH_STEP;
  }
  return new Uint8Array(out.buffer);
}

/** The monthly log index back from packLogIndex's first month and steps. */
export function unpackLogIndex(first: number, steps: Uint8Array): Float64Array {
  const d = new Int16Array(steps.buffer.slice(steps.byteOffset, steps.byteOffset + steps.byteLength));
  const out = new Float64Array(d.length);
  let level = 0;
  for (let m = 0; m < d.length; m++) {
    level += d[m]! * TRUTH_STEP;
    out[m] = first + level;
  }
  return out;
}

export function createTruthDb(path: string): Database {
  const db = openTruthDb(path);
  for (const statement of DDL) db.run(statement);
  return db;
}

/** A connection that writes truth.db at `path` (written whole by a seed; OFF is refused: see openMarketForWrite). */
export function openTruthDb(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  db.run("PRAGMA journal_mode = OFF");
  db.run("PRAGMA synchronous = OFF");
  return db;
}
