/**
 * Sales: GET /v1/sales (key optional: no key gives the public schema, unmetered), GET
 * /v1/sales/{sale_id} (1 DU) and GET /v1/sales/followed. Follow and unfollow live in the follows
 * module. docs/api-lots-sales.md.
 */
import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { notFound } from "../../http/errors";
import { callerView } from "../../http/view";
import { T } from "../../query/grammar";
import { SALE_LIST } from "./fields";
import { SalePublicSchema, SaleSchema, SalesPublicResponse, SalesResponse } from "./model";
import { listSales, saleObjects } from "./service";

const count = (body: { sales: unknown[] }) => body.sales.length;

export const saleEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/sales",
    price: DU.spec(2, 1),
    operationId: "listSales",
    summary: "Sale list",
    description:
      "Filters combine with AND. Without a key, or on a plan with the public schema, sales come without the money aggregates " +
      "(totals, estimate envelope, *_preferred) and is_followed.",
    tag: "Sales",
    auth: "optional",
    list: SALE_LIST,
    response: { full: SalesResponse, public: SalesPublicResponse },
    records: count,
    handle: (ctx) => listSales(ctx.deps, ctx.query, callerView(ctx)),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/sales/followed",
    price: DU.spec(2, 1),
    operationId: "listFollowedSales",
    summary: "Followed sales",
    description: "The sale list's grammar, limited to the sales the caller follows.",
    tag: "Sales",
    auth: "required",
    list: SALE_LIST,
    response: { full: SalesResponse, public: SalesPublicResponse },
    records: count,
    handle: (ctx) => listSales(ctx.deps, ctx.query, callerView(ctx), ctx.caller?.userId ?? -1),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/sales/{sale_id}",
    price: DU.DETAIL,
    operationId: "getSale",
    summary: "One sale",
    tag: "Sales",
    auth: "required",
    pathParams: { sale_id: T.int(1) },
    list: { fields: {}, params: { preferred_currency: SALE_LIST.params!.preferred_currency! } },
    response: { full: SaleSchema, public: SalePublicSchema },
    handle: (ctx) => {
      const [sale] = saleObjects(ctx.deps, [ctx.params.sale_id], callerView(ctx));
      if (!sale) throw notFound(`Sale ${ctx.params.sale_id} not found`);
      return sale;
    },
  }),
];
