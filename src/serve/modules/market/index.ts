/** GET /v1/market/index-chart: the global art index next to financial benchmarks. 10 DU, analytics plans. */
import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { T } from "../../query/grammar";
import { BENCHMARKS, GlobalArtIndexChartResponse } from "./model";
import { indexChart } from "./service";

export const marketEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/market/index-chart",
    price: DU.ANALYTICS,
    operationId: "getMarketIndexChart",
    summary: "Global art index chart",
    description:
      "The monthly global art index and, for each `finance` value, a benchmark series (synthetic, as their labels say). " +
      "By default every series is rebased to 100 at base_time, the first month they all have; rebase=false gives the stored levels.",
    tag: "Market",
    auth: "required",
    entitlement: "analytics",
    list: {
      fields: {},
      params: {
        finance: { type: T.enum(BENCHMARKS), many: true, description: "benchmarks to add; repeat the parameter or separate with commas" },
        rebase: { type: T.bool(), default: true, description: "rebase every series to 100 at base_time (default true)" },
      },
    },
    response: { full: GlobalArtIndexChartResponse },
    handle: ({ deps, query }) => indexChart(deps.market, deps.asOf, query.params.finance ?? [], query.params.rebase),
  }),
];
