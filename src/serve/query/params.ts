/** Query parameters shared by several resources. */
import { T, type ParamDecl } from "./grammar";
import { CURRENCY_CODES } from "../../market/currencies";

export const PREFERRED_CURRENCY = {
  type: T.enum(CURRENCY_CODES),
  description: "adds the *_preferred values, converted from USD at the reference rate of the sale's day",
} satisfies ParamDecl;
