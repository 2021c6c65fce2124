import { Type as t } from "@sinclair/typebox";

import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { PlanSchema } from "./model";

const PlanList = t.Array(PlanSchema);

export const planEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/plans",
    price: DU.REFERENCE,
    operationId: "listPlans",
    summary: "Plans with their allowances, rate limits and features",
    tag: "Account",
    auth: "required",
    response: { full: PlanList },
    records: (body: unknown[]) => body.length,
    handle: ({ deps }) => deps.accounts.listPlans(),
  }),
];
