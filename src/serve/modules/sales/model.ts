/**
 * SaleSchema (full) and SalePublicSchema (no money: totals, estimate envelope, *_preferred,
 * is_followed), and their list pages.
 *
 * Aggregates: lots_count and the estimate envelope describe the catalogue and are given for
 * every sale; the outcome counts and the totals only for concluded (closed) sales: null before,
 * except the *_usd_zeroied totals, which are 0 where the others are null.
 */
import { type Static, Type as t, type TSchema } from "@sinclair/typebox";
import { SALE_STATUSES } from "../../../market/statuses";
import { NEXT_CURSOR } from "../../query/cursor";

const nullable = (schema: TSchema) => t.Union([schema, t.Null()], { description: schema.description });
const count = (what: string) => nullable(t.Integer({ description: `${what}; null until the sale is closed` }));
const money = (what: string) => nullable(t.Number({ description: what }));

const publicSaleFields = {
  id: t.Integer(),
  name: t.String(),
  status: t.Union(
    SALE_STATUSES.map((s) => t.Literal(s)),
    { description: "closed, upcoming, live (under way) or session_off (between the sessions of a sale of several days)" },
  ),
  is_online: t.Boolean(),
  is_bids_streaming: t.Boolean({ description: "whether a live bid feed exists" }),
  location: t.String({ description: "a name from /v1/auction-locations" }),
  location_id: t.Integer(),
  start_datetime: t.String({ format: "date-time" }),
  end_datetime: t.String({ format: "date-time" }),
  auction_house: t.Object({ id: t.Integer(), name: t.String() }),
  currency: t.String({ description: "the sale's native currency (ISO 4217 code): the currency of its lots' prices and of its totals and estimates" }),
  lots_count: t.Integer({ description: "lots offered in the sale" }),
  lots_count_not_sold: count("lots bought in (passed)"),
  lots_count_sold_above_estimations: count("lots sold with a hammer above the high estimate"),
  lots_count_sold_within_estimations: count("lots sold with a hammer between the estimates"),
  lots_count_sold_below_estimations: count("lots sold with a hammer below the low estimate"),
};

export const SaleSchema = t.Object(
  {
    ...publicSaleFields,
    hammer_total: money("sum of hammer prices of the lots sold, sale currency; null until closed"),
    premium_sold_total: money("sum of the buyer's premiums (price with premium − hammer) of the lots sold, sale currency; null until closed"),
    cumulative_total: money("sum of the prices with premium of the lots sold, sale currency; null until closed"),
    hammer_total_usd_zeroied: t.Number({ description: "hammer_total in USD at each lot's sale-day rate; 0 instead of null" }),
    premium_sold_total_usd_zeroied: t.Number({ description: "premium_sold_total in USD; 0 instead of null" }),
    cumulative_total_usd_zeroied: t.Number({ description: "cumulative_total in USD; 0 instead of null" }),
    hammer_low_estimate: t.Number({ description: "sum of the low estimates of the lots not withdrawn, sale currency" }),
    hammer_high_estimate: t.Number({ description: "sum of the high estimates of the lots not withdrawn, sale currency" }),
    preferred_currency: t.Optional(t.String({ description: "the preferred_currency asked for (ISO 4217 code): the currency of the *_preferred totals" })),
    hammer_total_preferred: t.Optional(money("the USD hammer total at the sale day's rate of the preferred currency")),
    premium_sold_total_preferred: t.Optional(money("the USD premium total in the preferred currency")),
    cumulative_total_preferred: t.Optional(money("the USD cumulative total in the preferred currency")),
    is_followed: t.Boolean({ description: "whether the caller follows this sale" }),
  },
  { $id: "SaleSchema" },
);

export const SalePublicSchema = t.Object(publicSaleFields, { $id: "SalePublicSchema" });

export type Sale = Static<typeof SaleSchema>;
export type SalePublic = Static<typeof SalePublicSchema>;

const salesPage = (sale: TSchema, $id: string) =>
  t.Object({ sales: t.Array(sale), total: t.Integer(), limit: t.Integer(), offset: t.Integer(), next_cursor: NEXT_CURSOR }, { $id });

export const SalesResponse = salesPage(SaleSchema, "SalesResponse");
export const SalesPublicResponse = salesPage(SalePublicSchema, "SalesPublicResponse");
