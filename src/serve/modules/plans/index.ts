import { Type as t } from "@sinclair/typebox";
import { listPlans } from "../../accounts/plans";
import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { PlanSchema } from "./model";

export const planEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/plans",
    summary: "Plans with their allowances, rate limits and features",
    tag: "Account",
    auth: "required",
    response: { full: t.Array(PlanSchema) },
    records: (body: unknown[]) => body.length,
    handle: ({ deps }) => listPlans(deps.account),
  }),
];
