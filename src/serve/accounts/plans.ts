/**
 * Plans: allowances, rate limits and entitlements. The rows are seeded into the account store on
 * every start (insert-if-missing: sql/plans.ts), so an operator's edits to a plan row survive
 * restarts. The functions over a Database are account.db's (tests, benchmarks, the key verifier).
 */
import type { Database } from "bun:sqlite";
import type { plans } from "../../db/schema/account";
import { accountStore } from "./store";

/** What a plan grants; stored as the plan's `features` JSON (free-form in PlanSchema). */
export type PlanFeatures = {
  /** Which schema the market lists answer with. */
  schema: "full" | "public";
  /** Analytics, charts, similar, related and search by image. */
  analytics: boolean;
  collectables: boolean;
  api: boolean;
  /** hard: 429 once the period allowance is used; soft: served on, with notices at 80 % and 100 %. */
  cap: "hard" | "soft";
  daily_du_limit: number;
  monthly_du_limit: number;
  /** Enterprise only: a separate API pool with its own three windows. */
  api_pool?: { du_limit: number; daily_du_limit: number; monthly_du_limit: number };
};

export interface Plan {
  slug: string;
  display_name: string;
  du_limit: number;
  period_days: number;
  rps_limit: number;
  rpm_limit: number;
  throttle_multiplier: number;
  price_usd: number;
  features: PlanFeatures;
}

export type Entitlement = "analytics" | "collectables";

export const DEFAULT_PLANS: readonly Plan[] = [
  {
    slug: "sandbox",
    display_name: "Sandbox",
    du_limit: 10_000,
    period_days: 30,
    rps_limit: 10,
    rpm_limit: 300,
    throttle_multiplier: 1,
    price_usd: 0,
    features: {
      schema: "public",
      analytics: false,
      collectables: true,
      api: true,
      cap: "hard",
      daily_du_limit: 2_000,
      monthly_du_limit: 10_000,
    },
  },
  {
    slug: "pro",
    display_name: "Professional",
    du_limit: 1_200_000,
    period_days: 365,
    rps_limit: 100,
    rpm_limit: 6_000,
    throttle_multiplier: 1,
    price_usd: 12_000,
    features: {
      schema: "full",
      analytics: true,
      collectables: true,
      api: true,
      cap: "soft",
      daily_du_limit: 10_000,
      monthly_du_limit: 100_000,
    },
  },
  {
    slug: "enterprise",
    display_name: "Enterprise",
    du_limit: 24_000_000,
    period_days: 365,
    rps_limit: 500,
    rpm_limit: 30_000,
    throttle_multiplier: 1,
    price_usd: 96_000,
    features: {
      schema: "full",
      analytics: true,
      collectables: true,
      api: true,
      cap: "soft",
      daily_du_limit: 200_000,
      monthly_du_limit: 2_000_000,
      api_pool: { du_limit: 12_000_000, daily_du_limit: 100_000, monthly_du_limit: 1_000_000 },
    },
  },
];

/** Inserts the default plans that are not there yet into account.db; existing rows are left as the operator set them (sql/plans.ts). */
export function seedPlans(db: Database): void {
  accountStore(db).seedPlans();
}

/** A plans row as drizzle selects it (camelCase): what planFromRow reads. */
export type PlanRow = typeof plans.$inferSelect;

/** A plan from its row: features over the defaults of its slug (a row written by an older build gains new features' defaults). */
export function planFromRow(row: PlanRow): Plan {
  const defaults = DEFAULT_PLANS.find((p) => p.slug === row.slug)?.features ?? DEFAULT_PLANS[0]!.features;
  let features: PlanFeatures;
  try {
    features = { ...defaults, ...(JSON.parse(row.features) as Partial<PlanFeatures>) };
  } catch {
    features = { ...defaults };
  }
  return {
    slug: row.slug,
    display_name: row.displayName,
    du_limit: row.duLimit,
    period_days: row.periodDays,
    rps_limit: row.rpsLimit,
    rpm_limit: row.rpmLimit,
    throttle_multiplier: row.throttleMultiplier,
    price_usd: row.priceUsd,
    features,
  };
}

export function listPlans(db: Database): Plan[] {
  return accountStore(db).listPlans();
}

export function getPlan(db: Database, slug: string): Plan | null {
  return accountStore(db).getPlan(slug);
}

export function planGrants(plan: Plan, entitlement: Entitlement): boolean {
  return plan.features[entitlement] === true;
}
