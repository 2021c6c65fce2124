/**
 * What a full derivation keeps in its snapshot for the next merge (`derive_state`): the model pass
 * 2 fits artists against (ArtistModel with the upcoming lots' model, ArtistNoise) and the market
 * index's sums (MarketSums), so that a merge derives only what its records touch
 * (src/pipeline/derive/touched.ts, docs/derivation.md#a-merge-derives-what-it-touches).
 *
 * Rows: `version`; `fitted_as_of` (the as-of date of the full derivation that fitted the model); `model` and `noise` as JSON (numbers that JSON cannot hold, NaN and ±Infinity,
 * as `{"$num": "NaN"}`); the float arrays as their bytes (`model.beta`, `model.marketLevel`,
 * `market.gram`, `market.rhs`, `market.statusShift.K`, `market.hammerShift.K`); `market` the
 * accumulator's counts as JSON. Every value round-trips exactly: an artist derived again from
 * the loaded model gives the same rows (tests/import/incremental.test.ts). About 8 × months² bytes
 * for the sums (2.5 MB for the 40 years from 1986).
 */
import type { Database } from "bun:sqlite";
import { RepeatSalesAccumulator } from "../../analytics/index-model";
import type { ArtistModel, ArtistNoise } from "./artist";
import type { MarketSums } from "./market-pass";

/** The layout's version: a snapshot whose state has another is derived whole by its next merge. */
export const DERIVE_STATE_VERSION = 1;

export interface DeriveState {
  model: ArtistModel;
  noise: ArtistNoise;
  sums: MarketSums;
  /** The as-of date of the full derivation that fitted the model (merges since keep it). */
  fittedAsOf: string;
}

const bytes = (a: Float64Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const floats = (b: Uint8Array) => new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

const toJson = (value: unknown) => JSON.stringify(value, (_key, v) => (typeof v === "number" && !Number.isFinite(v) ? { $num: String(v) } : v));
const fromJson = (text: string) =>
  JSON.parse(text, (_key, v) => (v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && typeof v.$num === "string" ? Number(v.$num) : v));

/** Replaces the snapshot's derive_state with `state` (in one transaction). */
export function saveDeriveState(db: Database, state: DeriveState): void {
  const { beta, marketLevel, ...model } = state.model;
  const { market, statusShift, hammerShift } = state.sums;
  const put = db.query("INSERT INTO derive_state (key, value) VALUES (?, ?)");
  db.transaction(() => {
    db.run("DELETE FROM derive_state");
    put.run("version", String(DERIVE_STATE_VERSION));
    put.run("fitted_as_of", state.fittedAsOf);
    put.run("model", toJson(model));
    put.run("noise", toJson(state.noise));
    put.run("model.beta", bytes(beta));
    put.run("model.marketLevel", bytes(marketLevel));
    put.run("market", toJson({ months: market.months, count: market.count, skipped: market.skipped, sumWR2: market.sumWR2, sumWeights: market.sumWeights }));
    put.run("market.gram", bytes(market.gram));
    put.run("market.rhs", bytes(market.rhs));
    statusShift.forEach((a, k) => put.run(`market.statusShift.${k}`, bytes(a)));
    hammerShift.forEach((a, k) => put.run(`market.hammerShift.${k}`, bytes(a)));
  })();
}

/** The snapshot's derive_state, or why there is none to go on from (a market derived before it, another layout). */
export function loadDeriveState(db: Database): DeriveState | { missing: string } {
  const table = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'derive_state'").get();
  if (!table) return { missing: "the market has no derive_state table (built by an older artmarket)" };
  const rows = new Map(
    db
      .query<{ key: string; value: Uint8Array | string }, []>("SELECT key, value FROM derive_state")
      .all()
      .map((r) => [r.key, r.value]),
  );
  const version = rows.get("version");
  if (version === undefined) return { missing: "the market kept no derive_state (derived before it was kept)" };
  const text = (v: Uint8Array | string | undefined) => (typeof v === "string" ? v : new TextDecoder().decode(v));
  if (Number(text(version)) !== DERIVE_STATE_VERSION) return { missing: `its derive_state has version ${text(version)}, not ${DERIVE_STATE_VERSION}` };
  const blob = (key: string) => {
    const v = rows.get(key);
    if (!(v instanceof Uint8Array)) throw new Error(`derive_state: ${key} is missing`);
    return floats(v);
  };
  const counts = fromJson(text(rows.get("market"))) as { months: number; count: number; skipped: number; sumWR2: number; sumWeights: number };
  const market = new RepeatSalesAccumulator(counts.months);
  market.gram.set(blob("market.gram"));
  market.rhs.set(blob("market.rhs"));
  market.count = counts.count;
  market.skipped = counts.skipped;
  market.sumWR2 = counts.sumWR2;
  market.sumWeights = counts.sumWeights;
  const series = (prefix: string) => {
    const out: Float64Array[] = [];
    for (let k = 0; rows.has(`${prefix}.${k}`); k++) out.push(blob(`${prefix}.${k}`));
    return out;
  };
  const model = fromJson(text(rows.get("model"))) as Omit<ArtistModel, "beta" | "marketLevel">;
  return {
    model: { ...model, beta: blob("model.beta"), marketLevel: blob("model.marketLevel") },
    noise: fromJson(text(rows.get("noise"))) as ArtistNoise,
    sums: { market, statusShift: series("market.statusShift"), hammerShift: series("market.hammerShift") },
    // (a state kept before the row was: saved by a full derivation, whose model's as-of date it is)
    fittedAsOf: rows.has("fitted_as_of") ? text(rows.get("fitted_as_of")) : model.asOf,
  };
}
