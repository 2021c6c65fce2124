import { Type as t } from "@sinclair/typebox";

export const PlanSchema = t.Object(
  {
    slug: t.String(),
    display_name: t.String(),
    du_limit: t.Number({ description: "Data Units per period" }),
    period_days: t.Integer(),
    rps_limit: t.Integer(),
    rpm_limit: t.Integer(),
    throttle_multiplier: t.Number(),
    price_usd: t.Number({ description: "the plan's price for one period (period_days), in US dollars (USD)" }),
    features: t.Record(t.String(), t.Unknown(), { description: "entitlements and the daily, monthly and API-pool windows" }),
  },
  { $id: "PlanSchema" },
);
