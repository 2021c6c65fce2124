/** Query parameters shared by several resources. */
import { T, type ParamDecl } from "./grammar";

/** The spec's preferred_currency values. */
export const CURRENCIES = ["USD", "GBP", "EUR", "CHF", "JPY", "CNY", "HKD", "SGD", "TWD", "KRW", "INR", "AUD", "CAD", "NZD", "NOK", "RUB"] as const;

export const PREFERRED_CURRENCY: ParamDecl = {
  type: T.enum(CURRENCIES),
  description: "adds the *_preferred values, converted from USD at the reference rate of the sale's day",
};
