import { Type as t } from "@sinclair/typebox";

const windowFields = (prefix: string) => ({
  [`${prefix}du_limit`]: t.Number(),
  [`${prefix}du_consumed`]: t.Number(),
  [`${prefix}du_remaining`]: t.Number(),
  [`${prefix}daily_du_limit`]: t.Number(),
  [`${prefix}daily_du_consumed`]: t.Number(),
  [`${prefix}daily_du_remaining`]: t.Number(),
  [`${prefix}monthly_du_limit`]: t.Number(),
  [`${prefix}monthly_du_consumed`]: t.Number(),
  [`${prefix}monthly_du_remaining`]: t.Number(),
});

export const UsageBreakdownItem = t.Object(
  {
    label: t.String({ description: "the day, week (its Monday), month, endpoint, or key (its kid)" }),
    du_consumed: t.Number(),
    requests: t.Integer(),
    key_id: t.Optional(t.Integer({ description: "group_by=key: the key's id (DELETE /v1/keys/{key_id})" })),
    key_name: t.Optional(t.String({ description: "group_by=key: the key's name" })),
  },
  { $id: "UsageBreakdownItem" },
);

export const UsageResponse = t.Object(
  {
    plan: t.String(),
    from: t.String({ format: "date" }),
    to: t.String({ format: "date" }),
    period_start: t.String({ format: "date" }),
    period_end: t.String({ format: "date" }),
    ...windowFields(""),
    projected_eop: t.Number({ description: "projected consumption at the end of the period at the average daily rate so far" }),
    ...Object.fromEntries(Object.entries(windowFields("api_")).map(([k, v]) => [k, t.Optional(v)])),
    api_projected_eop: t.Optional(t.Number()),
    breakdown: t.Optional(t.Array(UsageBreakdownItem)),
  },
  { $id: "UsageResponse" },
);
