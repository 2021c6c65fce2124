/**
 * The one table that prices every endpoint: cost = base + perRecord × records returned.
 * The spec's DU table is copied exactly; endpoints it does not price follow the contract:
 * detail reads 1, analytics reads 10, search by image 10 + 1.5 per result, collectable reads
 * 1 + 1 per record, writes 1; follow, share, shared lists, usage and healthcheck cost 0.
 * docs/du.md is generated from this table and a test holds the two together.
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

/** Keyed by "METHOD /path/{param}" exactly as the OpenAPI document writes the route. */
export const PRICES: Readonly<Record<string, Price>> = {
  // Artists
  "GET /v1/artists": spec(2, 1),
  "GET /v1/artists/stats": ANALYTICS,
  "GET /v1/artists/followed": spec(2, 1),
  "GET /v1/artists/{artist_id}": spec(1),
  "GET /v1/artists/{artist_id}/chart": spec(10),
  "GET /v1/artists/{artist_id}/related": spec(10, 1),
  "POST /v1/artists/{artist_id}/follow": FREE,
  "DELETE /v1/artists/{artist_id}/follow": FREE,
  "GET /v1/artists/{artist_id}/events": ANALYTICS,
  "GET /v1/artists/{artist_id}/sales-volume": ANALYTICS,
  "GET /v1/artists/{artist_id}/sharpe-ratio": ANALYTICS,
  "GET /v1/artists/{artist_id}/career-path-count": ANALYTICS,
  "GET /v1/artists/{artist_id}/career-path-lae": ANALYTICS,
  "GET /v1/artists/{artist_id}/returns-vs-period": ANALYTICS,
  "GET /v1/artists/{artist_id}/compound-annual-returns": ANALYTICS,
  // Artworks
  "GET /v1/artworks": spec(2, 1.5),
  "GET /v1/artworks/followed": rule(2, 1.5),
  "GET /v1/artworks/recommended": rule(2, 1.5),
  "GET /v1/artworks/{artwork_id}": DETAIL,
  "GET /v1/artworks/{artwork_id}/chart": spec(10),
  "GET /v1/artworks/{artwork_id}/similar": spec(10, 1.5),
  "GET /v1/artworks/{artwork_id}/editions": spec(2, 1.5),
  "GET /v1/artworks/{artwork_id}/cagr": ANALYTICS,
  "POST /v1/artworks/{artwork_id}/follow": FREE,
  "DELETE /v1/artworks/{artwork_id}/follow": FREE,
  "POST /v1/artworks/share": FREE,
  "GET /v1/artworks/shared/{token}": FREE,
  "POST /v1/artworks/search-by-image": rule(10, 1.5),
  // Lots
  "GET /v1/lots": spec(2, 1),
  "GET /v1/lots/followed": spec(2, 1),
  "GET /v1/lots/{lot_id}": DETAIL,
  "POST /v1/lots/{lot_id}/follow": FREE,
  "DELETE /v1/lots/{lot_id}/follow": FREE,
  "POST /v1/lots/share": FREE,
  "GET /v1/lots/shared/{token}": FREE,
  // Sales
  "GET /v1/sales": spec(2, 1),
  "GET /v1/sales/followed": spec(2, 1),
  "GET /v1/sales/{sale_id}": DETAIL,
  "POST /v1/sales/{sale_id}/follow": FREE,
  "DELETE /v1/sales/{sale_id}/follow": FREE,
  // Collectables
  "GET /v1/collectables": COLLECTABLE_READ,
  "POST /v1/collectables": WRITE,
  "GET /v1/collectables/{collectable_id}": COLLECTABLE_READ,
  "PATCH /v1/collectables/{collectable_id}": WRITE,
  "DELETE /v1/collectables/{collectable_id}": WRITE,
  "PUT /v1/collectables/{collectable_id}/image": WRITE,
  "GET /v1/collectables/{collectable_id}/acquired": COLLECTABLE_READ,
  "PATCH /v1/collectables/{collectable_id}/acquired": WRITE,
  "GET /v1/collectables/{collectable_id}/appraisals": COLLECTABLE_READ,
  "POST /v1/collectables/{collectable_id}/appraisals": WRITE,
  "PATCH /v1/collectables/{collectable_id}/appraisals/{appraisal_id}": WRITE,
  "DELETE /v1/collectables/{collectable_id}/appraisals/{appraisal_id}": WRITE,
  "GET /v1/collectables/{collectable_id}/provenance": COLLECTABLE_READ,
  "POST /v1/collectables/{collectable_id}/provenance": WRITE,
  "PATCH /v1/collectables/{collectable_id}/provenance/{provenance_id}": WRITE,
  "DELETE /v1/collectables/{collectable_id}/provenance/{provenance_id}": WRITE,
  "GET /v1/collectables/{collectable_id}/sales": COLLECTABLE_READ,
  "POST /v1/collectables/{collectable_id}/sales": WRITE,
  "PATCH /v1/collectables/{collectable_id}/sales/{sale_id}": WRITE,
  "DELETE /v1/collectables/{collectable_id}/sales/{sale_id}": WRITE,
  "GET /v1/collectables/{collectable_id}/comps": COLLECTABLE_READ,
  "PUT /v1/collectables/{collectable_id}/comps": WRITE,
  "DELETE /v1/collectables/{collectable_id}/comps": WRITE,
  // Reference data and other
  "GET /v1/auction-houses": spec(1),
  "GET /v1/auction-locations": REFERENCE,
  "GET /v1/categories": spec(1),
  "GET /v1/currencies": REFERENCE,
  "GET /v1/materials": REFERENCE,
  "GET /v1/substrates": REFERENCE,
  "GET /v1/surfaces": REFERENCE,
  "GET /v1/damages": REFERENCE,
  "GET /v1/plans": REFERENCE,
  "GET /v1/market/index-chart": ANALYTICS,
  "GET /v1/usage": FREE,
  "GET /healthcheck": FREE,
};

export function priceOf(method: string, path: string): Price {
  const price = PRICES[`${method} ${path}`];
  if (!price) throw new Error(`no price for ${method} ${path}: add it to src/serve/http/pricing.ts`);
  return price;
}

/** cost = base + perRecord × records; exact for the halves the table uses. */
export function costOf(price: Price, records: number): number {
  return price.base + price.perRecord * records;
}

/** Header form of a DU amount: integers without a decimal point, halves as "17.5". */
export function formatDu(du: number): string {
  return Number.isInteger(du) ? String(du) : String(Math.round(du * 1000) / 1000);
}
