/**
 * Reference data of the synthetic market: the 16 currencies (src/market/currencies.ts), sale locations, categories, the
 * four vocabularies and the auction houses (seven top houses first by priority_order).
 */
import type { Database } from "bun:sqlite";
import type { Scale } from "../../platform/config";
import type { Random } from "../../market/random";
import { CURRENCIES } from "../../market/currencies";

/** Sale locations: city, country, the currency its sales are held in. */
export const LOCATIONS: readonly (readonly [string, string, string])[] = [
  ["New York", "US", "USD"],
  ["Los Angeles", "US", "USD"],
  ["Chicago", "US", "USD"],
  ["Miami", "US", "USD"],
  ["San Francisco", "US", "USD"],
  ["Dallas", "US", "USD"],
  ["London", "GB", "GBP"],
  ["Edinburgh", "GB", "GBP"],
  ["Paris", "FR", "EUR"],
  ["Cologne", "DE", "EUR"],
  ["Munich", "DE", "EUR"],
  ["Berlin", "DE", "EUR"],
  ["Vienna", "AT", "EUR"],
  ["Milan", "IT", "EUR"],
  ["Rome", "IT", "EUR"],
  ["Amsterdam", "NL", "EUR"],
  ["Brussels", "BE", "EUR"],
  ["Madrid", "ES", "EUR"],
  ["Stockholm", "SE", "EUR"],
  ["Geneva", "CH", "CHF"],
  ["Zurich", "CH", "CHF"],
  ["Tokyo", "JP", "JPY"],
  ["Beijing", "CN", "CNY"],
  ["Shanghai", "CN", "CNY"],
  ["Hong Kong", "HK", "HKD"],
  ["Singapore", "SG", "SGD"],
  ["Taipei", "TW", "TWD"],
  ["Seoul", "KR", "KRW"],
  ["Mumbai", "IN", "INR"],
  ["New Delhi", "IN", "INR"],
  ["Sydney", "AU", "AUD"],
  ["Melbourne", "AU", "AUD"],
  ["Toronto", "CA", "CAD"],
  ["Montreal", "CA", "CAD"],
  ["Auckland", "NZ", "NZD"],
  ["Oslo", "NO", "NOK"],
  ["Moscow", "RU", "RUB"],
  ["Online", "US", "USD"],
];

export const CATEGORIES: readonly string[] = [
  "Painting",
  "Works on paper",
  "Sculpture",
  "Prints and multiples",
  "Photography",
  "Design",
  "Decorative art",
  "Installation",
  "New media",
];

export const MATERIALS: readonly string[] = [
  "oil",
  "acrylic",
  "watercolour",
  "gouache",
  "tempera",
  "ink",
  "pencil",
  "charcoal",
  "pastel",
  "crayon",
  "mixed media",
  "collage",
  "enamel",
  "spray paint",
  "bronze",
  "marble",
  "stone",
  "wood",
  "ceramic",
  "glass",
  "steel",
  "aluminium",
  "resin",
  "silver gelatin",
  "chromogenic print",
  "pigment print",
  "platinum print",
  "screenprint",
  "lithograph",
  "etching",
  "woodcut",
  "linocut",
  "aquatint",
  "video",
  "neon",
];

export const SUBSTRATES: readonly string[] = [
  "canvas",
  "linen",
  "panel",
  "board",
  "paper",
  "card",
  "copper",
  "aluminium sheet",
  "plywood",
  "silk",
  "vellum",
  "photographic paper",
  "masonite",
];

export const SURFACES: readonly string[] = ["varnished", "unvarnished", "glazed", "matte", "gloss", "patinated", "polished", "lacquered", "gilded", "waxed"];

export const DAMAGES: readonly string[] = [
  "craquelure",
  "tear",
  "paint loss",
  "abrasion",
  "foxing",
  "discoloration",
  "water damage",
  "flaking",
  "scratches",
  "chips",
  "restoration",
  "relining",
  "stretcher marks",
  "fading",
  "mould",
];

const TOP_HOUSES = ["Ashcombe's", "Bellweather & Co", "Castellane", "Dunmore Fine Art", "Everleigh", "Fairbanks Rowe", "Greyfriars"];
const NAME_A = [
  "Abbot",
  "Barrow",
  "Calder",
  "Delacroix",
  "Ellery",
  "Fenwick",
  "Garrick",
  "Hallam",
  "Ingram",
  "Jarvis",
  "Kessler",
  "Lindqvist",
  "Marlow",
  "Norwood",
  "Osgood",
  "Pemberton",
  "Quill",
  "Rothwell",
  "Sterling",
  "Thackeray",
  "Underhill",
  "Vance",
  "Whitcombe",
  "Yardley",
  "Zeller",
];
const NAME_B = ["Auctions", "Fine Art", "& Partners", "Salesrooms", "Gallery Auctions", "& Sons", "Kunstauktionen", "Encheres", "Aste", "Collective"];

export const HOUSE_COUNTS: Readonly<Record<Scale, number>> = { tiny: 20, small: 120, medium: 500, large: 1000, full: 1400 };

function slugify(s: string): string {
  return s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

const label = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export interface HouseInfo {
  id: number;
  name: string;
  /** Index into LOCATIONS of the house's saleroom. */
  location: number;
  /** 0: the seven top houses; 1: the next tenth; 2: the rest. */
  tier: number;
  isLive: boolean;
}

/** The tier of the house of `rank` (0 first, by priority_order) among `n`: the seven top houses, the next tenth (at least 3), the rest. */
export function houseTier(rank: number, n: number): number {
  return rank < TOP_HOUSES.length ? 0 : rank < TOP_HOUSES.length + Math.max(3, Math.round(n / 10)) ? 1 : 2;
}

/** Salerooms of the seven top houses: New York, London, Paris, Hong Kong, Geneva, New York, London. */
const TOP_LOCATIONS = ["New York", "London", "Paris", "Hong Kong", "Geneva", "New York", "London"];

/** Writes every reference table; returns the row counts and the auction houses. */
export function writeReference(db: Database, rng: Random, scale: Scale): { counts: Record<string, number>; houses: HouseInfo[] } {
  const counts: Record<string, number> = {};
  const houses: HouseInfo[] = [];
  db.transaction(() => {
    const cur = db.query("INSERT INTO currencies (code, name, symbol, decimals) VALUES (?, ?, ?, ?)");
    for (const c of CURRENCIES) cur.run(...c);
    counts.currencies = CURRENCIES.length;

    const loc = db.query("INSERT INTO auction_locations (id, name, country, currency) VALUES (?, ?, ?, ?)");
    LOCATIONS.forEach(([name, country, currency], i) => loc.run(i + 1, name, country, currency));
    counts.auction_locations = LOCATIONS.length;

    const cat = db.query("INSERT INTO categories (id, name, slug) VALUES (?, ?, ?)");
    CATEGORIES.forEach((name, i) => cat.run(i + 1, name, slugify(name)));
    counts.categories = CATEGORIES.length;

    for (const [table, words] of [
      ["materials", MATERIALS],
      ["substrates", SUBSTRATES],
      ["surfaces", SURFACES],
      ["damages", DAMAGES],
    ] as const) {
      const stmt = db.query(`INSERT INTO ${table} (id, name, label) VALUES (?, ?, ?)`);
      words.forEach((w, i) => stmt.run(i + 1, slugify(w).replace(/-/g, "_"), label(w)));
      counts[table] = words.length;
    }

    const house = db.query("INSERT INTO auction_houses (id, name, slug, priority_order, is_live, country, city) VALUES (?, ?, ?, ?, ?, ?, ?)");
    const used = new Set<string>();
    const n = HOUSE_COUNTS[scale];
    for (let i = 1; i <= n; i++) {
      let name = i <= TOP_HOUSES.length ? TOP_HOUSES[i - 1]! : `${rng.pick(NAME_A)} ${rng.pick(NAME_B)}`;
      let slug = slugify(name);
      for (let k = 2; used.has(slug); k++) {
        name = `${name.replace(/ \(\d+\)$/, "")} (${k})`;
        slug = slugify(name);
      }
      used.add(slug);
      const top = i <= TOP_HOUSES.length;
      const location = top ? LOCATIONS.findIndex((l) => l[0] === TOP_LOCATIONS[i - 1]) : rng.int(0, LOCATIONS.length - 2);
      const [city, country] = LOCATIONS[location]!;
      const isLive = top || rng.chance(0.6);
      house.run(i, name, slug, i, isLive ? 1 : 0, country, city);
      houses.push({ id: i, name, location, tier: houseTier(i - 1, n), isLive });
    }
    counts.auction_houses = n;
  })();
  return { counts, houses };
}
