/**
 * Plans: read (features over their slug's defaults, plans.ts) and seeded (the default plans that
 * are missing; an operator's edits to a row survive).
 */
import { DEFAULT_PLANS, type Plan, planFromRow } from "../plans";
import { marks } from "../../../db/sql";
import type { Bind, SqlBase } from "./dialect";

export interface PlanStore {
  getPlan(slug: string): Plan | null;
  listPlans(): Plan[];
  /** Inserts the default plans that are missing; operator edits survive. */
  seedPlans(): void;
}

/** A plans row as `SELECT *` answers it (snake_case). */
type PlanSqlRow = Omit<Plan, "features"> & { features: string; sort_order: number };

const planOf = (r: PlanSqlRow): Plan =>
  planFromRow({
    slug: r.slug,
    displayName: r.display_name,
    duLimit: r.du_limit,
    periodDays: r.period_days,
    rpsLimit: r.rps_limit,
    rpmLimit: r.rpm_limit,
    throttleMultiplier: r.throttle_multiplier,
    priceUsd: r.price_usd,
    features: r.features,
    sortOrder: r.sort_order,
  });

export function PlansSql<B extends SqlBase>(Base: B) {
  abstract class Plans extends Base implements PlanStore {
    getPlan(slug: string): Plan | null {
      const row = this.sql.get<PlanSqlRow>("SELECT * FROM plans WHERE slug = ?", slug);
      return row ? planOf(row) : null;
    }

    listPlans(): Plan[] {
      return this.sql.all<PlanSqlRow>(`SELECT * FROM plans ORDER BY sort_order, slug${this.sql.bytewise}`).map(planOf);
    }

    seedPlans(): void {
      const params: Bind[] = [];
      DEFAULT_PLANS.forEach((p, i) =>
        params.push(p.slug, p.display_name, p.du_limit, p.period_days, p.rps_limit, p.rpm_limit, p.throttle_multiplier, p.price_usd, JSON.stringify(p.features), i),
      );
      this.sql.run(
        `INSERT INTO plans (slug, display_name, du_limit, period_days, rps_limit, rpm_limit, throttle_multiplier, price_usd, features, sort_order)
         VALUES ${DEFAULT_PLANS.map(() => `(${marks(10)})`).join(", ")} ON CONFLICT (slug) DO NOTHING`,
        ...params,
      );
    }
  }
  return Plans;
}
