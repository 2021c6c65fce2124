/**
 * PriceSchema, shared by lots and artworks: native amounts, USD amounts, and with
 * preferred_currency the same converted at the reference rate of the sale's day.
 */
import { Type as t } from "@sinclair/typebox";
import type { FxCache } from "../../db/fx";

const money = (what: string) => t.Union([t.Number(), t.Null()], { description: what });

export const PriceSchema = t.Object(
  {
    currency: t.String({ description: "native sale currency code" }),
    hammer: money("hammer price in the sale currency; null unless sold"),
    hammer_estimate_min: money("low estimate, sale currency"),
    hammer_estimate_max: money("high estimate, sale currency"),
    premium: money("price with buyer's premium, sale currency; null unless sold"),
    hammer_usd: money("hammer in USD at the sale day's reference rate"),
    hammer_estimate_min_usd: money("low estimate in USD"),
    hammer_estimate_max_usd: money("high estimate in USD"),
    premium_usd: money("price with buyer's premium in USD"),
    preferred_currency: t.Optional(t.String({ description: "the preferred_currency asked for" })),
    hammer_preferred: t.Optional(money("hammer in the preferred currency")),
    hammer_estimate_min_preferred: t.Optional(money("low estimate in the preferred currency")),
    hammer_estimate_max_preferred: t.Optional(money("high estimate in the preferred currency")),
    premium_preferred: t.Optional(money("price with premium in the preferred currency")),
  },
  { $id: "PriceSchema" },
);

/** The lot columns a price is made from (as in the lots table). */
export interface PriceRow {
  currency: string;
  hammer: number | null;
  estimate_min: number | null;
  estimate_max: number | null;
  premium: number | null;
  hammer_usd: number | null;
  estimate_min_usd: number | null;
  estimate_max_usd: number | null;
  premium_usd: number | null;
  sale_datetime: string;
}

/** A PriceSchema object; with `preferred`, the *_preferred values at the rate of the sale's day. */
export function priceObject(row: PriceRow, fx: FxCache, preferred?: string): Record<string, unknown> {
  const price: Record<string, unknown> = {
    currency: row.currency,
    hammer: row.hammer,
    hammer_estimate_min: row.estimate_min,
    hammer_estimate_max: row.estimate_max,
    premium: row.premium,
    hammer_usd: row.hammer_usd,
    hammer_estimate_min_usd: row.estimate_min_usd,
    hammer_estimate_max_usd: row.estimate_max_usd,
    premium_usd: row.premium_usd,
  };
  if (preferred) {
    const day = row.sale_datetime;
    price.preferred_currency = preferred;
    price.hammer_preferred = fx.fromUsd(row.hammer_usd, preferred, day);
    price.hammer_estimate_min_preferred = fx.fromUsd(row.estimate_min_usd, preferred, day);
    price.hammer_estimate_max_preferred = fx.fromUsd(row.estimate_max_usd, preferred, day);
    price.premium_preferred = fx.fromUsd(row.premium_usd, preferred, day);
  }
  return price;
}
