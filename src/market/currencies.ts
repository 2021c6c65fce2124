/**
 * The 16 currencies of the market: the codes in the order the API documents them
 * (preferred_currency, /v1/currencies), and each one's name, symbol and decimal places.
 */

export const CURRENCY_CODES = ["USD", "GBP", "EUR", "CHF", "JPY", "CNY", "HKD", "SGD", "TWD", "KRW", "INR", "AUD", "CAD", "NZD", "NOK", "RUB"] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

const DETAILS: Readonly<Record<CurrencyCode, readonly [name: string, symbol: string, decimals: number]>> = {
  USD: ["US dollar", "$", 2],
  GBP: ["Pound sterling", "£", 2],
  EUR: ["Euro", "€", 2],
  CHF: ["Swiss franc", "CHF", 2],
  JPY: ["Japanese yen", "¥", 0],
  CNY: ["Chinese yuan", "CN¥", 2],
  HKD: ["Hong Kong dollar", "HK$", 2],
  SGD: ["Singapore dollar", "S$", 2],
  TWD: ["New Taiwan dollar", "NT$", 2],
  KRW: ["South Korean won", "₩", 0],
  INR: ["Indian rupee", "₹", 2],
  AUD: ["Australian dollar", "A$", 2],
  CAD: ["Canadian dollar", "C$", 2],
  NZD: ["New Zealand dollar", "NZ$", 2],
  NOK: ["Norwegian krone", "kr", 2],
  RUB: ["Russian ruble", "₽", 2],
};

/** The currencies table's rows (code, name, symbol, decimals), in CURRENCY_CODES' order. */
export const CURRENCIES: readonly (readonly [code: string, name: string, symbol: string, decimals: number])[] = CURRENCY_CODES.map((code) => [code, ...DETAILS[code]] as const);
