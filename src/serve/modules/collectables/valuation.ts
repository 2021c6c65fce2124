/**
 * Valuation of a collectable (docs/api-collectables.md, "Valuation"):
 *
 * - machine estimate (USD): the suggested market artwork's current estimate when it has one and
 *   is by the record's artist;
 *   otherwise a comparable-works estimate from the artist's estimated works (comparableEstimate);
 *   null when the market has no estimated work by the artist.
 * - the value in effect (current_estimated_price), first that applies:
 *   1. selected_price_type "manual" and a manual_price_value → the manual value;
 *   2. acquisition.use_instead_of_estimates and a known acquisition price → that price in USD;
 *   3. the machine estimate (possibly null).
 * - price_momentum_12mo: the artist's 12-month index momentum as a fraction, clipped to −1..1.
 */
import type { Database } from "bun:sqlite";
import { estimatesOn } from "../../../db/estimate-history";
import { type CollectableRow } from "../../accounts/store";
import type { AppDeps } from "../../deps";
import { snapshotOf } from "../../snapshot";
import { cents } from "./checks";

/** Price elasticity to area and to edition size: the market model's hedonic coefficients. */
export const AREA_ELASTICITY = 0.45;
export const EDITION_ELASTICITY = 0.45;
/** Years at which a comparable's weight halves (1 / (1 + |Δyear| / YEAR_SCALE)). */
export const YEAR_SCALE = 10;
export const CM_PER_INCH = 2.54;

export interface WorkFacts {
  creationYear: number | null;
  /** Area in cm² (height × width), null when unknown. */
  areaCm2: number | null;
  /** Copies in the edition; 1 (or null) for a unique work. */
  editionSize: number | null;
}

export interface Comparable extends WorkFacts {
  estimateUsd: number;
}

/**
 * The comparable-works estimate of a work from the artist's estimated works (the pool: works of the
 * same category when there are any, else all of them; chosen by the caller):
 * each comparable's log estimate is moved to the target's size and edition,
 *   ln vᵢ' = ln vᵢ + 0.45·ln(A / Aᵢ) − 0.45·(ln E − ln Eᵢ)   (a term only when both sides are known),
 * and weighted by closeness in year and size,
 *   wᵢ = 1 / (1 + |Y − Yᵢ| / 10) × 1 / (1 + |ln(A / Aᵢ)|)    (a factor 1 when either side is unknown);
 * the estimate is exp(Σ wᵢ ln vᵢ' / Σ wᵢ), rounded to cents. Null for an empty pool.
 */
export function comparableEstimate(target: WorkFacts, pool: readonly Comparable[]): number | null {
  let sw = 0;
  let swv = 0;
  const edition = (e: number | null) => Math.log(e && e > 1 ? e : 1);
  for (const c of pool) {
    if (!(c.estimateUsd > 0)) continue;
    let lv = Math.log(c.estimateUsd);
    let w = 1;
    if (target.areaCm2 && c.areaCm2 && target.areaCm2 > 0 && c.areaCm2 > 0) {
      const r = Math.log(target.areaCm2 / c.areaCm2);
      lv += AREA_ELASTICITY * r;
      w *= 1 / (1 + Math.abs(r));
    }
    lv -= EDITION_ELASTICITY * (edition(target.editionSize) - edition(c.editionSize));
    if (target.creationYear !== null && c.creationYear !== null) w *= 1 / (1 + Math.abs(target.creationYear - c.creationYear) / YEAR_SCALE);
    sw += w;
    swv += w * lv;
  }
  if (sw === 0) return null;
  return Math.round(Math.exp(swv / sw) * 100) / 100;
}

export interface CollectableFacts {
  artist_id: number;
  category_id: number;
  suggested_artwork_id: number | null;
  creation_year: number | null;
  measurements_unit: string;
  measurements_height: number | null;
  measurements_width: number | null;
  edition_unique_type: string;
  edition_size: number | null;
}

export type MachineBasis = "suggested_artwork" | "comparable_works";

export interface MachineEstimate {
  usd: number | null;
  basis: MachineBasis | null;
}

/** Area in cm² from a record's measurements (inches converted), null without both sides. */
export function areaCm2(unit: string, height: number | null, width: number | null): number | null {
  if (!(height && width && height > 0 && width > 0)) return null;
  const k = unit === "in" ? CM_PER_INCH : 1;
  return height * k * width * k;
}

/**
 * The machine estimate of a collectable from the market (see the file comment); with `day`, from
 * the market's estimates in effect that day (src/db/estimate-history.ts).
 */
export function machineEstimate(market: Database, c: CollectableFacts, day: string | null = null): MachineEstimate {
  if (c.suggested_artwork_id !== null) {
    const st = market.prepare<{ estimate_usd: number | null; artist_id: number }, [number]>("SELECT estimate_usd, artist_id FROM artworks WHERE id = ?");
    try {
      const a = st.get(c.suggested_artwork_id);
      if (a && day !== null) a.estimate_usd = (estimatesOn(market, [c.suggested_artwork_id], day).get(c.suggested_artwork_id) ?? a).estimate_usd;
      if (a && a.estimate_usd !== null && a.artist_id === c.artist_id) return { usd: a.estimate_usd, basis: "suggested_artwork" };
    } finally {
      st.finalize();
    }
  }
  type PoolRow = {
    id: number;
    category_id: number;
    creation_year: number | null;
    height_cm: number | null;
    width_cm: number | null;
    edition_size: number | null;
    estimate_usd: number | null;
  };
  // on a past day, a work without an estimate now may have had one
  const st = market.prepare<PoolRow, [number]>(
    `SELECT id, category_id, creation_year, height_cm, width_cm, edition_size, estimate_usd
       FROM artworks WHERE artist_id = ?${day === null ? " AND estimate_usd IS NOT NULL" : ""}`,
  );
  let rows: (PoolRow & { estimate_usd: number })[];
  try {
    const all = st.all(c.artist_id);
    if (day !== null) {
      const then = estimatesOn(
        market,
        all.map((r) => r.id),
        day,
      );
      for (const r of all) r.estimate_usd = (then.get(r.id) ?? r).estimate_usd;
    }
    rows = all.filter((r): r is PoolRow & { estimate_usd: number } => r.estimate_usd !== null);
  } finally {
    st.finalize();
  }
  const sameCategory = rows.filter((r) => r.category_id === c.category_id);
  const pool = (sameCategory.length ? sameCategory : rows).map((r) => ({
    estimateUsd: r.estimate_usd,
    creationYear: r.creation_year,
    areaCm2: areaCm2("cm", r.height_cm, r.width_cm),
    editionSize: r.edition_size,
  }));
  const usd = comparableEstimate(
    {
      creationYear: c.creation_year,
      areaCm2: areaCm2(c.measurements_unit, c.measurements_height, c.measurements_width),
      editionSize: c.edition_unique_type === "edition" ? c.edition_size : null,
    },
    pool,
  );
  return usd === null ? { usd: null, basis: null } : { usd, basis: "comparable_works" };
}

export type PriceSource = "manual" | "acquisition" | "machine";

/** The value in effect and where it comes from (see the file comment for the order). */
export function currentValue(
  c: { selected_price_type: string; manual_price_value: number | null },
  acquisition: { use_instead_of_estimates: boolean; price_usd: number | null } | null,
  machineUsd: number | null,
): { value: number | null; source: PriceSource | null } {
  if (c.selected_price_type === "manual" && c.manual_price_value !== null) return { value: c.manual_price_value, source: "manual" };
  if (acquisition?.use_instead_of_estimates && acquisition.price_usd !== null) return { value: acquisition.price_usd, source: "acquisition" };
  if (machineUsd !== null) return { value: machineUsd, source: "machine" };
  return { value: null, source: null };
}

/** The same rule in SQL over `c` (the list's rows: a collectable with its acquisition's two columns, fields.ts), for list filters and sorts. */
export const CURRENT_VALUE_SQL = `(CASE
  WHEN c.selected_price_type = 'manual' AND c.manual_price_value IS NOT NULL THEN c.manual_price_value
  WHEN c.use_instead_of_estimates = 1 AND c.acquisition_price_usd IS NOT NULL THEN c.acquisition_price_usd
  ELSE c.machine_estimate_usd END)`;

/** An artist's 12-month momentum (stored in percent) as a fraction clipped to −1..1; null when unknown. */
export function momentumFraction(percent: number | null | undefined): number | null {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return null;
  return Math.max(-1, Math.min(1, Math.round(percent * 1e6) / 1e8));
}

// ---------------------------------------------------------------- valuing stored rows

/** Identity of the market snapshot behind `market` (its metadata), for the valuation cache. */
export function marketStamp(market: Database): string {
  return snapshotOf(market).stamp();
}

/** An amount in `currency` on `date` in USD at the reference rate, rounded to cents (null when unknown). */
export function toUsd(deps: AppDeps, amount: number | null, currency: string | null, date: string | null): number | null {
  if (amount === null) return null;
  const rate = deps.fx.usdPerUnit(currency ?? "USD", date ?? deps.asOf);
  return rate === null ? null : cents(amount * rate);
}

/** Values again the user's rows computed on another market snapshot (machine estimate, acquisition in USD); updates `rows` in place. */
export function ensureValued(deps: AppDeps, userId: number, rows: CollectableRow[]): void {
  const stamp = marketStamp(deps.market);
  const stale = rows.filter((r) => r.valued_on !== stamp);
  if (!stale.length) return;
  const store = deps.accounts;
  store.transaction(() => {
    for (const r of stale) {
      const m = machineEstimate(deps.market, r);
      r.machine_estimate_usd = m.usd;
      r.machine_estimate_basis = m.basis;
      r.valued_on = stamp;
      store.saveValuation(userId, r.id, m.usd, m.basis, stamp);
      const q = store.acquisition(userId, r.id);
      if (q) store.setAcquisitionPriceUsd(userId, r.id, toUsd(deps, q.price, q.currency, q.date));
    }
  });
}
