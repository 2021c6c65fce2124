/**
 * How endpoints are priced: cost = base + perRecord × records returned. Each endpoint's declaration
 * (`defineEndpoint`, `price`) holds its own price, built here.
 * The spec's DU table is copied exactly; endpoints it does not price follow the contract:
 * detail reads 1, analytics reads 10, search by image 10 + 1.5 per result, collectable reads
 * 1 + 1 per record, writes 1, the notifications feed 1; follow, share, shared lists, usage,
 * healthcheck, the account area (session, keys, admin) and webhooks cost 0.
 * docs/du.md is generated from the declarations (priceTable) and a test holds the two together.
 */

export interface Price {
  base: number;
  perRecord: number;
  /** Where the figure comes from: the spec's table, or the contract's rule for unpriced endpoints. */
  source: "spec" | "contract";
}

const spec = (base: number, perRecord = 0): Price => ({ base, perRecord, source: "spec" });
const rule = (base: number, perRecord = 0): Price => ({ base, perRecord, source: "contract" });

const DETAIL = rule(1);
const ANALYTICS = rule(10);
const REFERENCE = rule(1);
const FREE = spec(0);
const WRITE = rule(1);
const COLLECTABLE_READ = rule(1, 1);

/**
 * The prices declarations name: `price: DU.spec(2, 1)` for a row of the spec's table,
 * `DU.rule(…)` or one of the contract's classes for the others.
 */
export const DU = { spec, rule, DETAIL, ANALYTICS, REFERENCE, FREE, WRITE, COLLECTABLE_READ } as const;

/** Every endpoint's price keyed by "METHOD /path/{param}", as the OpenAPI document writes the route. */
export function priceTable(endpoints: readonly { method: string; path: string; price: Price }[]): Readonly<Record<string, Price>> {
  const table: Record<string, Price> = {};
  for (const e of endpoints) {
    const route = `${e.method} ${e.path}`;
    if (route in table) throw new Error(`two endpoints declare ${route}`);
    table[route] = e.price;
  }
  return table;
}

/** cost = base + perRecord × records; exact for the halves the table uses. */
export function costOf(price: Price, records: number): number {
  return price.base + price.perRecord * records;
}

/** Header form of a DU amount: integers without a decimal point, halves as "17.5". */
export function formatDu(du: number): string {
  return Number.isInteger(du) ? String(du) : String(Math.round(du * 1000) / 1000);
}
