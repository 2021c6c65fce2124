import { Type as t } from "@sinclair/typebox";
import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { DU } from "../../http/pricing";

export const healthEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/healthcheck",
    price: DU.FREE,
    operationId: "getHealth",
    summary: "Liveness: 200 while the service is reachable",
    tag: "Service",
    auth: "public",
    response: { full: t.Object({ status: t.Literal("ok") }, { $id: "HealthcheckResponse" }) },
    handle: ({ deps }) => {
      deps.market.query("SELECT 1").get();
      return { status: "ok" as const };
    },
  }),
];
