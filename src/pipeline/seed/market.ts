/**
 * The synthetic market generator. It models a market rather than filling columns:
 *
 * - a market factor over months (src/pipeline/seed/series.ts) and, per artist, a log-price index on top of
 *   it: beta to the market plus the artist's own drift and volatility;
 * - artworks inside the artist's career, with category, medium, materials, size, signature and
 *   editions (prints, photographs, some bronzes: a ladder of tracked copies), each with a hedonic
 *   log value from those attributes plus a hidden quality;
 * - lots: every artwork is offered one or more times over the years (so repeat-sale pairs exist);
 *   at each offer the true value is the hedonic value moved by the artist's index; the house
 *   estimates it with some error, sets a reserve below the low estimate, the hammer is the true
 *   value with sale noise, below the reserve the lot is bought in (passed), a few are withdrawn;
 *   a tiered buyer's premium is added; prices are in the sale's currency and in USD at the day's
 *   reference rate;
 * - sales: a calendar of auction sessions of each house (more and larger at the top houses),
 *   closed, live, between sessions and upcoming; a lot goes to a sale of the tier its value calls
 *   for, near its offer date.
 *
 * The latent truth (market factor, each artist's index, each artwork's hedonic value and quality)
 * is written to truth.db, never to market.db: the service cannot serve it, the valuation
 * benchmark measures the derived metrics against it.
 *
 * Generation streams artist by artist: memory holds the sales calendar and one artist at a time.
 */
import type { Database } from "bun:sqlite";
import type { Scale } from "../../platform/config";
import { defaultArtworkUid } from "../../db/artwork-uid";
import { usdCents } from "../../db/fx";
import { dayNumber, fromDayNumber } from "../../market/time";
import { slugify } from "../../market/slug";
import { artistName, artworkTitle, NOTE_PHRASES, pickNationality, saleName } from "./names";
import { Random } from "../../market/random";
import { CURRENCY_CODES } from "../../market/currencies";
import { CATEGORIES, LOCATIONS, MATERIALS, SUBSTRATES, type HouseInfo } from "./reference";
import type { FxTable } from "./series";
import { FIRST_YEAR, monthIndex } from "../../market/calendar";
import { TOP_LOT_MIN_ESTIMATE_USD } from "../../market/lots";
import { packLogIndex, truthSteps } from "./truth";

export interface ScaleSpec {
  artists: number;
  lots: number;
  lotsPerSale: number;
  /**
   * Share of artworks with an image. Every image is embedded by the seed (600–800 images/s on
   * two cores), so above `small` the share keeps that step to a minute or two: about 41k images
   * at medium, 98k at large and 100k at full.
   */
  imageShare: number;
}

export const SCALE_SPECS: Readonly<Record<Scale, ScaleSpec>> = {
  tiny: { artists: 200, lots: 5_000, lotsPerSale: 25, imageShare: 1 },
  small: { artists: 2_000, lots: 60_000, lotsPerSale: 60, imageShare: 1 },
  medium: { artists: 20_000, lots: 1_000_000, lotsPerSale: 120, imageShare: 0.1 },
  large: { artists: 100_000, lots: 8_000_000, lotsPerSale: 160, imageShare: 0.03 },
  full: { artists: 350_000, lots: 30_000_000, lotsPerSale: 200, imageShare: 0.008 },
};

/** The generator's knobs, kept together so the docs and the valuation benchmark can cite them. */
export const MODEL = {
  /** Lots per artwork: 1 + Poisson(λ). */
  offersLambda: 1.45,
  /** Sale noise: log hammer = log true value + N(0, σ). */
  saleNoise: 0.25,
  /** House estimate error: log estimate midpoint = log true value + N(0, σ). */
  estimateNoise: 0.15,
  /**
   * Hidden quality of a work: N(0, σ) in log value, seen only through its own sales. Kept well
   * below the sale noise: a valuation is judged against the noise the generator puts on prices,
   * and nothing can know a hidden quality before a work's first sale.
   */
  qualitySd: 0.12,
  withdrawnRate: 0.03,
  reserveShare: 0.8,
  /** Reserve as a share of the low estimate (at most the low estimate, as houses require). */
  reserveOfLow: 1.0,
  /** Houses estimate a little high on average: log midpoint bias. */
  estimateBias: 0.05,
  /** Median work of a median artist, USD at the 1986 market level. */
  baseUsd: 1_000,
  fameSd: 1.35,
} as const;

/** Category effects on log value (Painting = 0). */
const CATEGORY_EFFECT: Readonly<Record<string, number>> = {
  Painting: 0,
  "Works on paper": -1.0,
  Sculpture: 0.1,
  "Prints and multiples": -1.3,
  Photography: -1.0,
  Design: -0.5,
  "Decorative art": -0.8,
  Installation: -0.2,
  "New media": -0.7,
};

const CATEGORY_WEIGHTS = [45, 15, 10, 10, 10, 4, 3, 2, 1];

interface MediumChoice {
  materials: string[];
  substrate: string | null;
  effect: number;
  weight: number;
  /** Earliest birth year of an artist who would use it. */
  from?: number;
}

const MEDIA: Readonly<Record<string, MediumChoice[]>> = {
  Painting: [
    { materials: ["oil"], substrate: "canvas", effect: 0.15, weight: 60 },
    { materials: ["acrylic"], substrate: "canvas", effect: 0, weight: 20, from: 1900 },
    { materials: ["oil"], substrate: "panel", effect: 0.1, weight: 8 },
    { materials: ["tempera"], substrate: "panel", effect: 0.05, weight: 3 },
    { materials: ["mixed media"], substrate: "canvas", effect: -0.1, weight: 7, from: 1880 },
    { materials: ["enamel"], substrate: "board", effect: -0.05, weight: 2, from: 1900 },
  ],
  "Works on paper": [
    { materials: ["watercolour"], substrate: "paper", effect: 0.1, weight: 25 },
    { materials: ["gouache"], substrate: "paper", effect: 0.1, weight: 15 },
    { materials: ["ink"], substrate: "paper", effect: -0.05, weight: 15 },
    { materials: ["pencil"], substrate: "paper", effect: -0.2, weight: 15 },
    { materials: ["charcoal"], substrate: "paper", effect: -0.1, weight: 10 },
    { materials: ["pastel"], substrate: "paper", effect: 0.05, weight: 10 },
    { materials: ["collage", "gouache"], substrate: "paper", effect: 0, weight: 10, from: 1880 },
  ],
  Sculpture: [
    { materials: ["bronze"], substrate: null, effect: 0.1, weight: 45 },
    { materials: ["marble"], substrate: null, effect: 0.15, weight: 12 },
    { materials: ["wood"], substrate: null, effect: -0.1, weight: 12 },
    { materials: ["steel"], substrate: null, effect: 0, weight: 10, from: 1900 },
    { materials: ["ceramic"], substrate: null, effect: -0.2, weight: 12 },
    { materials: ["resin"], substrate: null, effect: -0.25, weight: 9, from: 1930 },
  ],
  "Prints and multiples": [
    { materials: ["screenprint"], substrate: "paper", effect: 0, weight: 30, from: 1900 },
    { materials: ["lithograph"], substrate: "paper", effect: -0.05, weight: 30 },
    { materials: ["etching"], substrate: "paper", effect: 0, weight: 20 },
    { materials: ["woodcut"], substrate: "paper", effect: 0.05, weight: 10 },
    { materials: ["aquatint"], substrate: "paper", effect: 0, weight: 5 },
    { materials: ["linocut"], substrate: "paper", effect: -0.05, weight: 5 },
  ],
  Photography: [
    { materials: ["silver gelatin"], substrate: "photographic paper", effect: 0.1, weight: 40 },
    { materials: ["chromogenic print"], substrate: "photographic paper", effect: 0, weight: 30 },
    { materials: ["pigment print"], substrate: "photographic paper", effect: -0.05, weight: 25 },
    { materials: ["platinum print"], substrate: "photographic paper", effect: 0.2, weight: 5 },
  ],
  Design: [
    { materials: ["wood"], substrate: null, effect: 0, weight: 40 },
    { materials: ["steel"], substrate: null, effect: 0, weight: 25 },
    { materials: ["aluminium"], substrate: null, effect: 0, weight: 20 },
    { materials: ["glass"], substrate: null, effect: 0, weight: 15 },
  ],
  "Decorative art": [
    { materials: ["ceramic"], substrate: null, effect: 0, weight: 40 },
    { materials: ["glass"], substrate: null, effect: 0, weight: 30 },
    { materials: ["enamel"], substrate: "copper", effect: 0, weight: 30 },
  ],
  Installation: [
    { materials: ["mixed media"], substrate: null, effect: 0, weight: 60 },
    { materials: ["neon"], substrate: null, effect: 0, weight: 20 },
    { materials: ["steel"], substrate: null, effect: 0, weight: 20 },
  ],
  "New media": [
    { materials: ["video"], substrate: null, effect: 0, weight: 70 },
    { materials: ["neon"], substrate: null, effect: 0, weight: 30 },
  ],
};

/** Median height in cm and log spread per category; 3D categories also get a depth. */
const SIZES: Readonly<Record<string, [number, number, boolean]>> = {
  Painting: [70, 0.5, false],
  "Works on paper": [40, 0.4, false],
  Sculpture: [45, 0.7, true],
  "Prints and multiples": [55, 0.35, false],
  Photography: [50, 0.45, false],
  Design: [80, 0.4, true],
  "Decorative art": [35, 0.5, true],
  Installation: [200, 0.5, true],
  "New media": [120, 0.3, false],
};

const EDITION_SIZES = [3, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 75, 100, 150, 250];

const materialId = (name: string) => MATERIALS.indexOf(name) + 1;
const substrateId = (name: string | null) => (name === null ? null : SUBSTRATES.indexOf(name) + 1);

/** Rounds an estimate to a figure an auction house would print. */
export function niceEstimate(x: number): number {
  if (x <= 0) return 0;
  const mag = 10 ** Math.floor(Math.log10(x));
  const steps = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10];
  const r = x / mag;
  let best = steps[0]!;
  for (const s of steps) if (Math.abs(s - r) < Math.abs(best - r)) best = s;
  return Math.round(best * mag);
}

/** Rounds a hammer price to the house's bidding increment. */
export function hammerIncrement(x: number): number {
  const inc = x < 1_000 ? 10 : x < 10_000 ? 100 : x < 100_000 ? 1_000 : x < 1_000_000 ? 10_000 : 50_000;
  return Math.max(inc, Math.round(x / inc) * inc);
}

/**
 * Buyer's premium, tiered on the hammer in USD: 26 % up to $1M, 21 % from $1M to $6M, 15 % above.
 * Returns the price with premium in the sale currency.
 */
export function withPremium(hammer: number, usdPerUnit: number): number {
  const usd = hammer * usdPerUnit;
  const tiers: [number, number][] = [
    [1_000_000, 0.26],
    [6_000_000, 0.21],
    [Number.POSITIVE_INFINITY, 0.15],
  ];
  let premiumUsd = 0;
  let lower = 0;
  for (const [upper, rate] of tiers) {
    if (usd <= lower) break;
    premiumUsd += (Math.min(usd, upper) - lower) * rate;
    lower = upper;
  }
  return Math.round(hammer + premiumUsd / usdPerUnit);
}

/** The house's printed estimates, in a currency of `usdPerUnit`, around its midpoint (USD): low 0.8 ×, high 1.25 ×. */
export function houseEstimates(midUsd: number, usdPerUnit: number): { estMin: number; estMax: number } {
  const estMin = niceEstimate((midUsd * 0.8) / usdPerUnit);
  return { estMin, estMax: Math.max(estMin + 1, niceEstimate((midUsd * 1.25) / usdPerUnit)) };
}

/**
 * A lot's outcome when it is offered, with `r`'s draws: withdrawn (MODEL.withdrawnRate), else the
 * hammer is the true value with the sale noise, rounded to the bidding increment in the sale's
 * currency (at `usdPerUnit`); under the reserve (at the low estimate, when there is one) the lot is
 * passed, else sold with the tiered buyer's premium.
 */
export function lotOutcome(
  r: Random,
  valueUsd: number,
  estMin: number,
  reserve: boolean,
  usdPerUnit: number,
): { status: "sold" | "passed" | "withdrawn"; hammer: number | null; premium: number | null } {
  if (r.chance(MODEL.withdrawnRate)) return { status: "withdrawn", hammer: null, premium: null };
  const hammerUsd = valueUsd * Math.exp(MODEL.saleNoise * r.normal());
  const native = hammerIncrement(hammerUsd / usdPerUnit);
  if (reserve && native < estMin * MODEL.reserveOfLow) return { status: "passed", hammer: null, premium: null };
  return { status: "sold", hammer: native, premium: withPremium(native, usdPerUnit) };
}

// ---------------------------------------------------------------- sales calendar

export interface SaleCalendar {
  count: number;
  day: Int32Array;
  tier: Uint8Array;
  house: Int32Array;
  location: Int32Array;
  currency: Uint8Array;
  status: string[];
  start: string[];
  /** The start as Unix seconds (what a lot stores). */
  startSeconds: Float64Array;
  end: string[];
  /** Sale indexes per tier, sorted by day: concluded sales and coming ones apart. */
  closedByTier: Int32Array[];
  comingByTier: Int32Array[];
  /** Lots placed so far in each sale (for lot numbers). */
  lotCounter: Int32Array;
  /** The sale's kind (SALE_KINDS: a day sale, an evening sale, an online sale) and its days. */
  kind: Uint8Array;
  days: Uint8Array;
}

/** The kinds of sale, as SaleCalendar.kind numbers them. */
export const SALE_KINDS = ["day", "evening", "online"] as const;

const ONLINE = LOCATIONS.findIndex((l) => l[0] === "Online");

/** A sale drawn before its row: its day, start minute, days, tier, house, kind. */
export interface SaleDraft {
  day: number;
  minute: number;
  days: number;
  tier: number;
  house: HouseInfo;
  online: boolean;
  evening: boolean;
}

const HOUSES_BY_TIER = new WeakMap<readonly HouseInfo[], HouseInfo[][]>();

/** Houses' share of the sales by tier: the seven top houses, the next tenth, the rest. */
const TIER_SHARE = [0.14, 0.3, 0.56];

/** Coming sales (announced, in the eight weeks after the as-of date) of a market of `spec`. */
export function comingSaleCount(spec: ScaleSpec): number {
  return Math.max(9, Math.round(Math.max(60, Math.ceil(spec.lots / spec.lotsPerSale)) * 0.012));
}

/** Days ahead that the coming sales are announced (COMING_DAYS: eight weeks). */
export const COMING_DAYS = 56;

/**
 * A sale on `day`: its tier (by TIER_SHARE, or `forceTier`), a house of that tier (the others'
 * smaller houses less often), online (none before 2000, 15 % to 2015, 40 % after), an evening
 * sale (35 % of a top house's salesroom sales), a two-day sale (15 %).
 */
export function draftSale(rng: Random, day: number, houses: readonly HouseInfo[], forceTier?: number): SaleDraft {
  const r = rng.next();
  const tier = forceTier ?? (r < TIER_SHARE[0]! ? 0 : r < TIER_SHARE[0]! + TIER_SHARE[1]! ? 1 : 2);
  let byTier = HOUSES_BY_TIER.get(houses);
  if (!byTier) HOUSES_BY_TIER.set(houses, (byTier = [0, 1, 2].map((t) => houses.filter((h) => h.tier === t))));
  const pool = byTier[tier]!.length ? byTier[tier]! : houses;
  const house = pool[Math.floor(rng.next() ** (tier === 2 ? 1.6 : 1) * pool.length)]!;
  const year = FIRST_YEAR + (day - dayNumber(`${FIRST_YEAR}-01-01`)) / 365.25;
  const online = rng.chance(year < 2000 ? 0 : year < 2015 ? 0.15 : 0.4);
  const evening = !online && tier === 0 && rng.chance(0.35);
  return { day, minute: online ? 600 : evening ? 1140 : 600, days: online ? 7 : rng.chance(0.15) ? 2 : 1, tier, house, online, evening };
}

/** A sale's start and end, in minutes since 1970: a week online, an evening session 3 h, a day session 8 h a day. */
export function saleMinutes(d: SaleDraft): { start: number; end: number } {
  const start = d.day * 1440 + d.minute;
  return { start, end: d.online ? start + d.days * 1440 : start + (d.days - 1) * 1440 + (d.evening ? 180 : 480) };
}

/**
 * A sale's status at `nowMinute` (the as-of date at 12:00 UTC): closed once it ended, upcoming
 * before it starts, else under way: live, or session_off for a two-day salesroom sale.
 */
export function saleStatusAt(d: SaleDraft, nowMinute: number): string {
  const { start, end } = saleMinutes(d);
  if (end < nowMinute) return "closed";
  if (start > nowMinute) return "upcoming";
  if (d.days > 1 && !d.online) return "session_off";
  return "live";
}

/** ISO 8601 of a minute since 1970 (`2024-05-14T18:00:00Z`). */
export function isoMinute(minutes: number): string {
  return `${fromDayNumber(Math.floor(minutes / 1440))}T${String(Math.floor((minutes % 1440) / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}:00Z`;
}

/** A sale's saleroom (LOCATIONS index: the house's, or Online), currency, bids streaming (70 % of a live house's salesroom sales after 2008) and name. */
export function saleFacts(rng: Random, d: SaleDraft): { location: number; city: string; currency: string; streaming: boolean; name: string } {
  const location = d.online ? ONLINE : d.house.location;
  const [city, , currency] = LOCATIONS[location]!;
  const streaming = !d.online && d.house.isLive && FIRST_YEAR + (d.day - dayNumber(`${FIRST_YEAR}-01-01`)) / 365.25 > 2008 && rng.chance(0.7);
  return { location, city, currency, streaming, name: saleName(rng, d.house.name, d.online, d.evening) };
}

/**
 * Builds the sales calendar and writes src_sales. Ids follow start time. "Now" is the as-of date
 * at 12:00 UTC: sales that ended are closed, those that have not started are upcoming, a few are
 * under way (live), and a two-day sale between its sessions is session_off.
 */
export function buildSales(db: Database, rng: Random, spec: ScaleSpec, houses: HouseInfo[], asOf: string): SaleCalendar {
  const first = dayNumber(`${FIRST_YEAR}-01-01`);
  const today = dayNumber(asOf);
  const span = today - first;
  const total = Math.max(60, Math.ceil(spec.lots / spec.lotsPerSale));
  const coming = comingSaleCount(spec);
  const drafts: SaleDraft[] = [];
  const draft = (day: number, forceTier?: number): SaleDraft => draftSale(rng, day, houses, forceTier);
  for (let i = 0; i < total - coming; i++) {
    // More sales in later years: density rising linearly over time.
    const u = rng.next();
    const t = rng.chance(0.4) ? u : Math.sqrt(u);
    drafts.push(draft(first + Math.min(span - 8, Math.floor(t * span))));
  }
  // Coming weeks: upcoming sales in every tier, and a few under way today.
  for (let i = 0; i < coming; i++) drafts.push(draft(today + 1 + Math.floor(rng.next() * COMING_DAYS), i % 3));
  // The season has its evening sale at a top house (the first coming sale is tier 0).
  const evening = drafts[total - coming]!;
  Object.assign(evening, { online: false, evening: true, minute: 1140, days: 1 });
  for (let tier = 0; tier < 3; tier++) {
    const live = draft(today, tier);
    // a morning session under way at noon: a day sale
    Object.assign(live, { online: false, evening: false, days: 1, minute: 540 });
    drafts.push(live);
  }
  const between = draft(today - 1, 0);
  between.online = false;
  between.days = 2;
  drafts.push(between);

  drafts.sort((a, b) => a.day - b.day || a.minute - b.minute);
  const n = drafts.length;
  const cal: SaleCalendar = {
    count: n,
    day: new Int32Array(n),
    tier: new Uint8Array(n),
    house: new Int32Array(n),
    location: new Int32Array(n),
    currency: new Uint8Array(n),
    status: [],
    start: [],
    startSeconds: new Float64Array(n),
    end: [],
    closedByTier: [],
    comingByTier: [],
    lotCounter: new Int32Array(n),
    kind: new Uint8Array(n),
    days: new Uint8Array(n),
  };
  const insert = db.query(
    `INSERT INTO src_sales (id, house_id, name, location_id, location, currency, is_online, is_bids_streaming, status, start_datetime, end_datetime)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const nowMinute = today * 1440 + 720;
  const iso = isoMinute;
  const closed: number[][] = [[], [], []];
  const upcoming: number[][] = [[], [], []];
  db.transaction(() => {
    drafts.forEach((d, i) => {
      const { start: startMin, end: endMin } = saleMinutes(d);
      const status = saleStatusAt(d, nowMinute);
      const { location, city, currency, streaming, name } = saleFacts(rng, d);
      cal.day[i] = d.day;
      cal.kind[i] = d.online ? 2 : d.evening ? 1 : 0;
      cal.days[i] = d.days;
      cal.tier[i] = d.tier;
      cal.house[i] = d.house.id;
      cal.location[i] = location;
      cal.currency[i] = (CURRENCY_CODES as readonly string[]).indexOf(currency);
      cal.status.push(status);
      cal.start.push(iso(startMin));
      cal.startSeconds[i] = startMin * 60;
      cal.end.push(iso(endMin));
      (status === "closed" ? closed : upcoming)[d.tier]!.push(i);
      insert.run(i + 1, d.house.id, name, location + 1, city, currency, d.online ? 1 : 0, streaming ? 1 : 0, status, cal.start[i]!, cal.end[i]!);
    });
  })();
  cal.closedByTier = closed.map((a) => Int32Array.from(a));
  cal.comingByTier = upcoming.map((a) => Int32Array.from(a));
  return cal;
}

/** The sale of `tier` nearest on or after `day` (the last one before when none follows). */
function findSale(list: Int32Array, cal: SaleCalendar, day: number): number {
  if (list.length === 0) return -1;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cal.day[list[mid]!]! < day) lo = mid + 1;
    else hi = mid;
  }
  return list[Math.min(lo, list.length - 1)]!;
}

// ---------------------------------------------------------------- artists, artworks, lots

export interface ArtistPlan {
  fame: number;
  lots: number;
}

/** Draws every artist's fame and lot budget first, so the market's lots add up to the scale. */
export function planArtists(rng: Random, spec: ScaleSpec): ArtistPlan[] {
  const plans: ArtistPlan[] = [];
  let weights = 0;
  for (let i = 0; i < spec.artists; i++) {
    const fame = rng.normal();
    // Activity grows with fame, with a heavy tail: most artists have few lots, a few have thousands.
    const w = Math.exp(0.9 * fame) * (1 / (1 - rng.next() * 0.995)) ** 0.55;
    plans.push({ fame, lots: w });
    weights += w;
  }
  for (const p of plans) p.lots = Math.max(1, Math.round((p.lots / weights) * spec.lots));
  return plans;
}

export interface GeneratorContext {
  rng: Random;
  spec: ScaleSpec;
  asOf: string;
  months: number;
  market: Float64Array;
  fx: FxTable;
  sales: SaleCalendar;
}

export interface GeneratorTotals {
  artists: number;
  artworks: number;
  lots: number;
  images: number;
  events: number;
  lotsByStatus: Record<string, number>;
}

export const EVENT_TEXT = {
  exhibitions: [
    "Retrospective at the Museum of Modern Art",
    "Solo exhibition, Kunsthalle",
    "Venice Biennale, national pavilion",
    "Group exhibition, Tate",
    "Solo exhibition, Centre Pompidou",
    "Survey exhibition, Whitney Museum",
    "Documenta",
    "Solo exhibition, Mori Art Museum",
    "Touring retrospective",
  ],
  publications: ["Catalogue raisonné, volume I", "Monograph", "Exhibition catalogue", "Collected writings", "Catalogue raisonné, volume II"],
};

/**
 * Where the generator's rows go, each as the values of its table's INSERT in column order
 * (ROW_INSERTS): straight into the tables (tableSink), or to the thread that writes them
 * (src/pipeline/seed/generate-thread.ts). `begin` and `commit` bracket each batch of artists.
 */
export interface RowSink {
  artist(row: unknown[]): void;
  artwork(row: unknown[]): void;
  lot(row: unknown[]): void;
  image(row: unknown[]): void;
  event(row: unknown[]): void;
  /** A lot_notes row (id, text), before the first lot that names it. */
  note(row: unknown[]): void;
  artistTruth(row: unknown[]): void;
  artworkTruth(row: unknown[]): void;
  begin(): void;
  /** The end of a batch: `done` artists and `lots` lots generated so far. */
  commit(done: number, lots: number): void;
}

/** The INSERT of each kind of row, market.db's then truth.db's. */
export const ROW_INSERTS = {
  artist: `INSERT INTO src_artists (id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  artwork: `INSERT INTO src_artworks (id, uid, artist_id, title, category_id, medium, material_ids, substrate_id, creation_year,
       height_cm, width_cm, depth_cm, signed, edition_group_id, edition_number, edition_size, image_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  lot: `INSERT INTO lots (id, sale_id, artwork_id, artist_id, house_id, lot_num, lot_seq, status, sale_status, sale_datetime,
       location_id, creation_year, is_top, reserve_mark, third_party_mark, currency, hammer, estimate_min, estimate_max, premium,
       hammer_usd_cents, estimate_min_usd_cents, estimate_max_usd_cents, premium_usd_cents, notes_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  note: "INSERT INTO lot_notes (id, text) VALUES (?, ?)",
  image: "INSERT INTO images (id, artwork_id, width, height, kind, seed, path) VALUES (?, ?, ?, ?, 'procedural', ?, NULL)",
  event: "INSERT INTO artist_events (id, artist_id, date, type, title, description, visible) VALUES (?, ?, ?, ?, ?, ?, ?)",
  artistTruth: "INSERT INTO artist_truth (artist_id, beta, drift, vol, base_log_value, first_log_index, log_index_steps) VALUES (?, ?, ?, ?, ?, ?, ?)",
  artworkTruth: "INSERT INTO artwork_truth (artwork_id, hedonic, quality) VALUES (?, ?, ?)",
} as const;

/** The market's kinds of rows (those of market.db). */
export const MARKET_ROWS = ["artist", "artwork", "note", "lot", "image", "event"] as const;

/**
 * A sink that inserts every row on this thread: market rows into `db`, the truth's into `truth`,
 * a batch of artists one transaction on each.
 */
export function tableSink(db: Database, truth: Database, onBatch: (done: number, lots: number) => void): RowSink {
  const st = (target: Database, sql: string) => {
    const q = target.query(sql);
    return (row: unknown[]) => {
      q.run(...(row as never[]));
    };
  };
  return {
    artist: st(db, ROW_INSERTS.artist),
    artwork: st(db, ROW_INSERTS.artwork),
    lot: st(db, ROW_INSERTS.lot),
    note: st(db, ROW_INSERTS.note),
    image: st(db, ROW_INSERTS.image),
    event: st(db, ROW_INSERTS.event),
    artistTruth: st(truth, ROW_INSERTS.artistTruth),
    artworkTruth: st(truth, ROW_INSERTS.artworkTruth),
    begin() {
      db.run("BEGIN");
      truth.run("BEGIN");
    },
    commit(done, lots) {
      db.run("COMMIT");
      truth.run("COMMIT");
      onBatch(done, lots);
    },
  };
}

/** Artists per batch (one transaction each). */
export const ARTIST_BATCH = 200;

/** An artist drawn by the generator, before its works. */
interface ArtistDraw {
  id: number;
  nationality: string;
  name: string;
  synonyms: string[];
  birth: number;
  death: number | null;
  careerStart: number;
  careerEnd: number;
  isTop: boolean;
  uid: string;
}

/** One artwork's design, shared by the copies of an edition. */
interface WorkGroup {
  categoryIndex: number;
  medium: MediumChoice & { label: string };
  year: number;
  h: number | null;
  w: number | null;
  d: number | null;
  signed: boolean;
  /** The edition's size; null for a unique work. */
  edition: number | null;
  groupId: number | null;
  /** The copies' edition numbers ([null] for a unique work). */
  numbers: (number | null)[];
  title: string;
  /** The work's hedonic log value (USD), before its copy's quality. */
  hedonic: number;
}

/** A sold lot among the artist's highest hammers. */
interface TopLot {
  date: string;
  usd: number;
  title: string;
}

/** What an artist's works leave for its events and bio. */
interface ArtistWorks {
  primary: number;
  secondary: number;
  topLots: TopLot[];
  /** Works per medium label. */
  mediumCounts: Map<string, number>;
}

/** A lot to write: its work, the work's value that day and the house's estimate midpoint (USD). */
interface LotDraw {
  artistId: number;
  artworkId: number;
  year: number;
  quality: number;
  /** The notes every lot of the work carries ("signed …" for a signed work, else empty). */
  notesFor: string;
  valueUsd: number;
  midUsd: number;
}

/** A work consigned to a coming sale: its lot, valued as of the as-of month. */
type Consignment = LotDraw;

/**
 * A coming sale's catalogue size, as a multiple of the scale's lots per sale, by the house's tier
 * (rows) and the sale's kind (SALE_KINDS: day, evening, online); each sale draws a factor in
 * CATALOGUE_SPREAD, and a two-day sale holds TWO_DAY_CATALOGUE times as many. The top houses hold
 * large day sales and a short evening sale of their best lots; online sales run long.
 */
export const CATALOGUE_SIZE: readonly (readonly [day: number, evening: number, online: number])[] = [
  [1.8, 1, 1.5],
  [1.5, 1.5, 1.5],
  [1, 1, 1],
];
export const CATALOGUE_SPREAD = [0.8, 1.25] as const;
export const TWO_DAY_CATALOGUE = 1.6;

/** The fewest lots a coming sale of `tier` and `kind` (SALE_KINDS index) holds at `lotsPerSale`. */
export function catalogueMin(lotsPerSale: number, tier: number, kind: number): number {
  return Math.ceil(lotsPerSale * CATALOGUE_SIZE[tier]![kind]! * CATALOGUE_SPREAD[0]);
}

export function catalogueTarget(r: Random, lotsPerSale: number, tier: number, kind: number, days: number): number {
  const [lo, hi] = CATALOGUE_SPREAD;
  const size = lotsPerSale * CATALOGUE_SIZE[tier]![kind]! * (lo + (hi - lo) * r.next()) * (days > 1 ? TWO_DAY_CATALOGUE : 1);
  return Math.max(catalogueMin(lotsPerSale, tier, kind), Math.round(size));
}

/** The stream of the coming sales' draws: from the generator's state, apart from its own stream. */
function catalogueRandom(rng: Random): Random {
  const [a, b, c, d] = rng.state();
  return new Random((a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b) ^ d ^ 0x2545f491) >>> 0);
}

/** The sales not yet concluded (upcoming, live, session_off), in calendar order. */
function comingSales(cal: SaleCalendar): number[] {
  const out: number[] = [];
  for (let i = 0; i < cal.count; i++) if (cal.status[i] !== "closed") out.push(i);
  return out;
}

/** An artist's artworks (each design's copies count one each). */
function artworksOf(plan: ArtistPlan): number {
  return Math.max(1, Math.round(plan.lots / (1 + MODEL.offersLambda)));
}

/** The house's estimate midpoint of a work worth `valueUsd`: a little high on average, with an error. */
export function houseMidpoint(r: Random, valueUsd: number): number {
  return valueUsd * Math.exp(MODEL.estimateBias + MODEL.estimateNoise * r.normal());
}

/**
 * Places the consigned works in the coming sales (`coming`, each with its `targets` size): by
 * the house's estimate, the most valuable fill the top houses' sales, the next the second tier's,
 * the rest the others'; inside a tier the best go to its evening sales. Inside a group of sales a
 * work goes to the sale with the most room left in proportion to its size, so each sale gets its
 * share of every value. Sizes are met exactly when there are as many works as places (the
 * generator consigns that many); with fewer, each sale is short in proportion.
 */
export function placeCatalogues<T extends { midUsd: number; artworkId: number }>(
  cal: Pick<SaleCalendar, "tier" | "kind">,
  coming: readonly number[],
  targets: readonly number[],
  works: readonly T[],
): T[][] {
  const order = [...works].sort((x, y) => y.midUsd - x.midUsd || x.artworkId - y.artworkId);
  const out: T[][] = coming.map(() => []);
  const total = targets.reduce((n, t) => n + t, 0);
  const scale = total > 0 ? Math.min(1, order.length / total) : 0;
  let next = 0;
  for (let tier = 0; tier < 3; tier++) {
    for (const evening of [true, false]) {
      const group = coming.map((_, k) => k).filter((k) => cal.tier[coming[k]!] === tier && (cal.kind[coming[k]!] === 1) === evening);
      // places in the order "most room left in proportion": the m-th place of a sale of size t at (m + 0.5) / t
      const places: [number, number][] = [];
      for (const k of group) {
        const t = Math.round(targets[k]! * scale);
        for (let m = 0; m < t; m++) places.push([(m + 0.5) / t, k]);
      }
      places.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      for (const [, k] of places) {
        if (next >= order.length) break;
        out[k]!.push(order[next++]!);
      }
    }
  }
  return out;
}

/** Generates every artist, with artworks, lots, images and events, and the truth, into `out`. */
export function generateArtists(ctx: GeneratorContext, plans: ArtistPlan[], out: RowSink): GeneratorTotals {
  return new ArtistGenerator(ctx, plans, out).run();
}

/**
 * The generator of generateArtists: the draws of one stream (`rng`, and `crng` for the coming
 * sales' catalogues) in a fixed order, the running ids, and the rows written to `out`. Each step
 * is a method, in the order run() takes them for one artist: identity, index, works (designs,
 * copies, lots), events, the artist's row; the catalogues once every artist is drawn.
 */
class ArtistGenerator {
  private readonly rng: Random;
  private readonly spec: ScaleSpec;
  private readonly asOf: string;
  private readonly months: number;
  private readonly market: Float64Array;
  private readonly fx: GeneratorContext["fx"];
  private readonly sales: SaleCalendar;
  private readonly asOfYear: number;
  private readonly today: number;
  private readonly firstDay: number;
  private readonly totals: GeneratorTotals = { artists: 0, artworks: 0, lots: 0, images: 0, events: 0, lotsByStatus: {} };
  private readonly usedUids = new Set<string>();
  private artworkId = 0;
  private lotId = 0;
  private imageId = 0;
  private eventId = 0;
  private editionGroup = 0;
  /** The artist being drawn: its log index by month. */
  private readonly index: Float64Array;
  private readonly fxCode = CURRENCY_CODES;
  /** Each distinct notes text once in lot_notes, numbered as it first occurs. */
  private readonly noteIds = new Map<string, number>();

  // The coming sales' catalogues (upcoming, live, session_off): each a size by the house's tier and
  // the sale's kind, filled at the end with the works consigned for them, chosen as the artists
  // stream by (selection sampling: exactly `wanted` of the market's artworks), most valuable first
  // to the top houses and, there, to the evening sales. Their draws come from a stream of their
  // own, so the concluded market does not depend on the catalogues' sizes.
  private readonly crng: Random;
  private readonly coming: number[];
  private readonly targets: number[];
  private readonly totalArtworks: number;
  private readonly wanted: number;
  private seenArtworks = 0;
  private readonly consigned: Consignment[] = [];

  constructor(
    ctx: GeneratorContext,
    private readonly plans: ArtistPlan[],
    private readonly out: RowSink,
  ) {
    ({ rng: this.rng, spec: this.spec, asOf: this.asOf, months: this.months, market: this.market, fx: this.fx, sales: this.sales } = ctx);
    this.asOfYear = Number(this.asOf.slice(0, 4));
    this.today = dayNumber(this.asOf);
    this.firstDay = dayNumber(`${FIRST_YEAR}-01-01`);
    this.index = new Float64Array(this.months);
    this.crng = catalogueRandom(this.rng);
    this.coming = comingSales(this.sales);
    this.targets = this.coming.map((sale) => catalogueTarget(this.crng, this.spec.lotsPerSale, this.sales.tier[sale]!, this.sales.kind[sale]!, this.sales.days[sale]!));
    this.totalArtworks = plans.reduce((n, p) => n + artworksOf(p), 0);
    this.wanted = Math.min(
      this.totalArtworks,
      this.targets.reduce((n, t) => n + t, 0),
    );
  }

  /** Every artist, in batches of ARTIST_BATCH (one transaction each), then the catalogues. */
  run(): GeneratorTotals {
    for (let a = 0; a < this.plans.length; a += ARTIST_BATCH) {
      const to = Math.min(this.plans.length, a + ARTIST_BATCH);
      this.out.begin();
      for (let k = a; k < to; k++) this.generateOne(k);
      this.out.commit(to, this.totals.lots);
    }
    this.out.begin();
    this.writeCatalogues();
    this.out.commit(this.plans.length, this.totals.lots);
    return this.totals;
  }

  private noteId(text: string): number | null {
    if (!text) return null;
    let id = this.noteIds.get(text);
    if (id === undefined) {
      this.noteIds.set(text, (id = this.noteIds.size + 1));
      this.out.note([id, text]);
    }
    return id;
  }

  private generateOne(a: number): void {
    const plan = this.plans[a]!;
    const artist = this.drawArtist(a, plan);
    const base = this.drawIndex(artist, plan);
    const works = this.generateWorks(artist, plan, base);
    const exhibitions = this.generateEvents(artist, plan, works.topLots);
    this.writeArtist(artist, works, exhibitions);
  }

  /** The artist's identity: nationality, name, dates, career and a uid of its own. */
  private drawArtist(a: number, plan: ArtistPlan): ArtistDraw {
    const artistId = a + 1;
    const { nationality, group } = pickNationality(this.rng);
    const { name, synonyms } = artistName(this.rng, group);
    // Birth: old masters, modern and contemporary artists; the famous skew older.
    const era = this.rng.next();
    const birth = era < 0.08 ? this.rng.int(1450, 1800) : era < 0.2 ? this.rng.int(1800, 1880) : era < 0.55 ? this.rng.int(1880, 1945) : this.rng.int(1945, 1998);
    const lifespan = this.rng.int(35, 95);
    const death = birth + lifespan <= this.asOfYear - 1 ? birth + lifespan : null;
    const careerStart = birth + this.rng.int(17, 26);
    const careerEnd = Math.min(death ?? this.asOfYear, this.asOfYear, birth + 90);
    const isTop = plan.fame > 2.2;
    let uid = slugify(`${name}-${birth}`);
    for (let k = 2; this.usedUids.has(uid); k++) uid = slugify(`${name}-${birth}-${k}`);
    this.usedUids.add(uid);
    return { id: artistId, nationality, name, synonyms, birth, death, careerStart, careerEnd, isTop, uid };
  }

  /** The artist's log index into `index` and its truth row; returns the artist's base log value (USD). */
  private drawIndex(artist: ArtistDraw, plan: ArtistPlan): number {
    const { id: artistId, birth } = artist;
    // The artist's log index: beta × market + own random walk with drift, volatility.
    const beta = Math.max(0.2, this.rng.gauss(1, 0.3));
    const drift = this.rng.gauss(0.0003, 0.0012) + (birth > 1960 ? 0.001 : 0);
    const vol = 0.008 + this.rng.next() * 0.017;
    let own = 0;
    for (let m = 0; m < this.months; m++) {
      if (m > 0) own += drift + vol * this.rng.normal();
      this.index[m] = beta * this.market[m]! + own;
    }
    const base = Math.log(MODEL.baseUsd) + MODEL.fameSd * plan.fame;
    const packed = packLogIndex(this.index);
    this.out.artistTruth([artistId, beta, drift, vol, base, packed.first, packed.steps]);
    return base;
  }

  /**
   * The artist's artworks, as many as its planned lots call for: each drawn as a design (a
   * WorkGroup), written once or once per edition copy, each copy with its lots.
   */
  private generateWorks(artist: ArtistDraw, plan: ArtistPlan, base: number): ArtistWorks {
    const { birth } = artist;
    // Categories this artist works in.
    const primary = pickWeighted(this.rng, CATEGORY_WEIGHTS, (i) => categoryAllowed(CATEGORIES[i]!, birth));
    const secondary = pickWeighted(this.rng, CATEGORY_WEIGHTS, (i) => categoryAllowed(CATEGORIES[i]!, birth));
    const nArtworks = artworksOf(plan);
    const peak = birth + this.rng.int(30, 50);
    const topLots: TopLot[] = [];
    const mediumCounts = new Map<string, number>();

    let made = 0;
    while (made < nArtworks) {
      const work = this.drawWorkGroup(artist, primary, secondary, peak, base);
      mediumCounts.set(work.medium.label, (mediumCounts.get(work.medium.label) ?? 0) + 1);

      for (const editionNumber of work.numbers) {
        if (made >= nArtworks) break;
        made++;
        const { id, quality } = this.writeArtwork(artist, work, editionNumber);
        const consign = this.crng.next() * (this.totalArtworks - this.seenArtworks++) < this.wanted - this.consigned.length;
        this.generateLots(artist, work, id, quality, topLots, consign);
      }
    }
    return { primary, secondary, topLots, mediumCounts };
  }

  /** One artwork's design: category, medium, year, size, signature, edition and its copies' numbers, title, hedonic value. */
  private drawWorkGroup(artist: ArtistDraw, primary: number, secondary: number, peak: number, base: number): WorkGroup {
    const { birth, careerStart, careerEnd } = artist;
    const categoryIndex = this.rng.chance(0.72) ? primary : secondary;
    const category = CATEGORIES[categoryIndex]!;
    const medium = pickMedium(this.rng, category, birth);
    const year = Math.max(careerStart, Math.min(careerEnd, Math.round(this.rng.gauss((careerStart + careerEnd) / 2, (careerEnd - careerStart) / 3.5 + 1))));
    const [medianH, spread, threeD] = SIZES[category]!;
    const measured = this.rng.chance(0.95);
    const h = measured ? round1(medianH * Math.exp(spread * this.rng.normal())) : null;
    const w = measured ? round1(h! * Math.exp(0.3 * this.rng.normal())) : null;
    const d = measured && threeD ? round1(h! * (0.3 + 0.5 * this.rng.next())) : null;
    const signed = this.rng.chance(0.7);
    const edition = isEditioned(this.rng, category, medium.materials[0]!);
    const copies = edition ? Math.min(edition, 1 + this.rng.poisson(1.3)) : 1;
    const groupId = edition ? ++this.editionGroup : null;
    const numbers = edition ? pickDistinct(this.rng, copies, edition) : [null];
    const title = artworkTitle(this.rng, category, year);
    const area = h !== null && w !== null ? (threeD && d !== null ? h * w * 0.6 + d * h * 0.4 : h * w) : 2500;
    const career = -0.6 * ((year - peak) / 25) ** 2;
    const hedonicBase =
      base +
      CATEGORY_EFFECT[category]! +
      medium.effect +
      0.45 * Math.log(Math.max(area, 50) / 2500) +
      Math.max(career, -1.5) +
      (signed ? 0.08 : 0) -
      (edition ? 0.45 * Math.log(edition) : 0);
    return { categoryIndex, medium, year, h, w, d, signed, edition, groupId, numbers, title, hedonic: hedonicBase };
  }

  /** One copy of a design: its quality, its picture (by chance), its row and truth row. */
  private writeArtwork(artist: ArtistDraw, work: WorkGroup, editionNumber: number | null): { id: number; quality: number } {
    const { categoryIndex, medium, year, h, w, d, signed, edition, groupId, title } = work;
    const id = ++this.artworkId;
    const quality = this.rng.gauss(0, MODEL.qualitySd);
    const hedonic = work.hedonic;
    const hasImage = this.rng.chance(this.spec.imageShare);
    let imgId: number | null = null;
    if (hasImage) {
      imgId = ++this.imageId;
      const { width, height } = pixelSize(this.rng, h, w);
      this.out.image([imgId, id, width, height, this.rng.int(1, 2 ** 31 - 1)]);
      this.totals.images++;
    }
    this.out.artwork([
      id,
      defaultArtworkUid(id, title),
      artist.id,
      title,
      categoryIndex + 1,
      medium.label,
      medium.materials.map(materialId).join(","),
      substrateId(medium.substrate),
      year,
      h,
      w,
      d,
      signed ? 1 : 0,
      groupId,
      editionNumber,
      edition,
      imgId,
    ]);
    this.out.artworkTruth([id, truthSteps(hedonic), truthSteps(quality)]);
    this.totals.artworks++;
    return { id, quality };
  }

  /**
   * An artwork's lots: offers on sorted dates between its creation (or 1986) and the as-of date,
   * each in a concluded sale of the tier its value calls for, sold, passed or withdrawn; the
   * artist's highest hammers kept in `topLots`. A work consigned to a coming sale keeps its offers
   * of more than a year ago and joins `consigned`, valued as of the as-of month with the house's
   * estimate drawn (its catalogue is placed once every artist is drawn).
   */
  private generateLots(artist: ArtistDraw, work: WorkGroup, id: number, quality: number, topLots: TopLot[], consign: boolean): void {
    const { year, signed, hedonic, title } = work;
    const dates = this.offerDates(year);
    let lastSaleDay = -1;
    const notesFor = signed ? `${NOTE_PHRASES[0]}` : "";
    const last = consign ? this.today - 365 : this.today;
    for (let i = 0; i < dates.length; i++) {
      const offerDay = dates[i]!;
      if (offerDay > last) break; // a coming offer is a consignment (below)
      const m = Math.min(this.months - 1, Math.max(0, monthIndex(fromDayNumber(offerDay))));
      const trueUsd = Math.exp(hedonic + quality + this.index[m]!);
      const tier =
        trueUsd >= 300_000 ? (this.rng.chance(0.85) ? 0 : 1) : trueUsd >= 20_000 ? (this.rng.chance(0.25) ? 0 : this.rng.chance(0.8) ? 1 : 2) : this.rng.chance(0.3) ? 1 : 2;
      const sale = findSale(this.sales.closedByTier[tier]!, this.sales, offerDay);
      if (sale < 0) continue;
      const saleDay = this.sales.day[sale]!;
      // (findSale falls back to the tier's last sale before the date: never one before the work was made)
      if (saleDay <= lastSaleDay || saleDay - offerDay > 400 || Number(fromDayNumber(saleDay).slice(0, 4)) < year) continue;
      lastSaleDay = saleDay;
      const valueUsd = Math.exp(hedonic + quality + this.index[Math.min(this.months - 1, monthIndex(fromDayNumber(saleDay)))]!);
      const lot = { artistId: artist.id, artworkId: id, year, quality, notesFor, valueUsd, midUsd: houseMidpoint(this.rng, valueUsd) };
      const hammerUsd = this.writeLot(this.rng, lot, sale, false);
      if (hammerUsd !== null) {
        topLots.push({ date: fromDayNumber(saleDay), usd: hammerUsd, title });
        if (topLots.length > 8) {
          topLots.sort((x, y) => y.usd - x.usd);
          topLots.length = 3;
        }
      }
    }
    if (consign) {
      const valueUsd = Math.exp(hedonic + quality + this.index[this.months - 1]!);
      this.consigned.push({ artistId: artist.id, artworkId: id, year, quality, notesFor, valueUsd, midUsd: houseMidpoint(this.crng, valueUsd) });
    }
  }

  /** A work's offer dates (day numbers), sorted: between its creation (or 1986) and a few weeks ahead. */
  private offerDates(year: number): number[] {
    // Offers over the years: sorted dates between creation (or 1986) and a few weeks ahead.
    const from = Math.max(this.firstDay, dayNumber(`${Math.min(year + 1, this.asOfYear)}-01-01`));
    // A recent work has had fewer chances to come up: about one offer per two years available.
    const k = Math.min(1 + this.rng.poisson(MODEL.offersLambda), 1 + Math.floor((this.today - from) / 730));
    const to = this.today + 42;
    const dates: number[] = [];
    for (let i = 0; i < k; i++) dates.push(from + Math.floor(this.rng.next() * Math.max(1, to - from)));
    dates.sort((x, y) => x - y);
    return dates;
  }

  /**
   * A lot in a sale: its estimates around the house's midpoint, its outcome (to come, or withdrawn,
   * bought in under the reserve, or sold at a hammer), its row, with `r`'s draws. Returns the
   * hammer in USD (null when not sold).
   */
  private writeLot(r: Random, lot: LotDraw, sale: number, upcoming: boolean): number | null {
    const saleStatus = this.sales.status[sale]!;
    const code = this.fxCode[this.sales.currency[sale]!]!;
    // a sale after the as-of date is priced at the latest rate known then (the market holds no later one)
    const rate = this.fx.usdPerUnit(code, fromDayNumber(Math.min(this.sales.day[sale]!, this.today)));
    const { estMin, estMax } = houseEstimates(lot.midUsd, rate);
    const reserve = r.chance(MODEL.reserveShare);
    const { status, hammer, premium } = upcoming ? { status: "upcoming", hammer: null, premium: null } : lotOutcome(r, lot.valueUsd, estMin, reserve, rate);
    const seq = ++this.sales.lotCounter[sale]!;
    const lotNum = r.chance(0.02) ? `${seq}A` : String(seq);
    const isTopLot = estMax * rate >= TOP_LOT_MIN_ESTIMATE_USD || lot.quality > 0.5;
    const { notesFor } = lot;
    const notes = r.chance(0.5) ? `${notesFor}${notesFor ? "; " : ""}${r.pick(NOTE_PHRASES)}` : notesFor;
    this.out.lot([
      ++this.lotId,
      sale + 1,
      lot.artworkId,
      lot.artistId,
      this.sales.house[sale]!,
      lotNum,
      seq,
      status,
      saleStatus,
      this.sales.startSeconds[sale]!,
      this.sales.location[sale]! + 1,
      lot.year,
      isTopLot ? 1 : 0,
      reserve ? 1 : 0,
      estMax * rate >= 1_000_000 && r.chance(0.3) ? 1 : 0,
      code,
      hammer,
      estMin,
      estMax,
      premium,
      hammer === null ? null : usdCents(hammer, rate),
      usdCents(estMin, rate),
      usdCents(estMax, rate),
      premium === null ? null : usdCents(premium, rate),
      this.noteId(notes),
    ]);
    this.totals.lots++;
    this.totals.lotsByStatus[status] = (this.totals.lotsByStatus[status] ?? 0) + 1;
    return hammer === null ? null : hammer * rate;
  }

  /**
   * The coming sales' catalogues, once every artist is drawn: the consigned works by the house's
   * estimate, the most valuable to the top houses' sales (their evening sales first), the next to
   * the second tier, the rest to the others (placeCatalogues); each sale's lots in a shuffled order.
   * A sale under way (live, or session_off between its two sessions) has offered the first half of
   * its catalogue (sold, bought in or withdrawn); the rest, and every lot of an upcoming sale, are
   * upcoming.
   */
  private writeCatalogues(): void {
    const bySale = placeCatalogues(this.sales, this.coming, this.targets, this.consigned);
    for (let k = 0; k < this.coming.length; k++) {
      const sale = this.coming[k]!;
      const lots = bySale[k]!;
      for (let i = lots.length - 1; i > 0; i--) {
        const j = Math.floor(this.crng.next() * (i + 1));
        [lots[i], lots[j]] = [lots[j]!, lots[i]!];
      }
      const offered = this.sales.status[sale] === "upcoming" ? 0 : Math.floor(lots.length / 2);
      lots.forEach((lot, i) => this.writeLot(this.crng, lot, sale, i >= offered));
    }
  }

  /** The artist's life events, exhibitions, publications and record sales up to the as-of date; returns the exhibitions drawn. */
  private generateEvents(artist: ArtistDraw, plan: ArtistPlan, topLots: TopLot[]): number {
    const { id: artistId, nationality, birth, death, careerStart } = artist;
    // Life events, exhibitions, publications, and the artist's record sales.
    const events: [string, string, string, string][] = [];
    events.push([`${birth}-${pad(this.rng.int(1, 12))}-${pad(this.rng.int(1, 28))}`, "Life Events", `Born`, `Born, ${nationality}`]);
    if (death) events.push([`${death}-${pad(this.rng.int(1, 12))}-${pad(this.rng.int(1, 28))}`, "Life Events", "Died", ""]);
    const exhibitions = Math.min(6, this.rng.poisson(1 + Math.max(0, plan.fame) * 1.5));
    for (let i = 0; i < exhibitions; i++) {
      const y = this.rng.int(careerStart, Math.min(this.asOfYear, (death ?? this.asOfYear) + 30));
      events.push([`${y}-${pad(this.rng.int(1, 12))}-${pad(this.rng.int(1, 28))}`, "Major Exhibitions", this.rng.pick(EVENT_TEXT.exhibitions), ""]);
    }
    const publications = Math.min(3, this.rng.poisson(0.3 + Math.max(0, plan.fame) * 0.6));
    for (let i = 0; i < publications; i++) {
      const y = this.rng.int(careerStart + 5, this.asOfYear);
      events.push([`${Math.min(y, this.asOfYear)}-${pad(this.rng.int(1, 12))}-01`, "Major Publications", this.rng.pick(EVENT_TEXT.publications), ""]);
    }
    topLots.sort((x, y) => y.usd - x.usd);
    for (const t of topLots.slice(0, 2)) {
      events.push([t.date, "Major Sales", `Auction record: ${t.title}`, `Sold for USD ${Math.round(t.usd).toLocaleString("en-US")}`]);
    }
    events.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    for (const [date, type, title, description] of events) {
      if (date > this.asOf) continue;
      this.out.event([++this.eventId, artistId, date, type, title, description, this.rng.chance(0.92) ? 1 : 0]);
      this.totals.events++;
    }
    return exhibitions;
  }

  /** The artist's row, with its bio (from its media, career and exhibitions) and its photo. */
  private writeArtist(artist: ArtistDraw, works: ArtistWorks, exhibitions: number): void {
    const { id: artistId, uid, name, synonyms, nationality, birth, death, careerStart, isTop } = artist;
    const { primary, secondary, mediumCounts } = works;
    const mediums = [...mediumCounts.entries()].sort((x, y) => y[1] - x[1]).map(([m]) => m);
    const life = death ? `${birth}–${death}` : `born ${birth}`;
    const bio = `${name} (${nationality}, ${life}) is known for ${mediums.slice(0, 2).join(" and ") || "works"}.`;
    const longBio = [
      bio,
      `${death ? "Active" : "Working"} from the ${Math.floor(careerStart / 10) * 10}s, ${name.split(" ")[0]} ${isTop ? "became one of the most sought-after names at auction" : "built a steady following among collectors"}, with works in ${CATEGORIES[primary]!.toLowerCase()}${secondary !== primary ? ` and ${CATEGORIES[secondary]!.toLowerCase()}` : ""}.`,
      exhibitions > 0 ? `Major exhibitions include ${exhibitions} surveys and solo shows.` : "",
    ]
      .filter(Boolean)
      .join(" ");
    const photo = ++this.imageId;
    this.out.image([photo, null, 600, 800, artistId]);
    this.out.artist([artistId, uid, name, synonyms.join("|"), nationality, birth, death, bio, longBio, isTop ? 1 : 0, photo]);
    this.totals.artists++;
  }
}

function categoryAllowed(category: string, birth: number): boolean {
  if (category === "Photography") return birth >= 1800;
  if (category === "New media" || category === "Installation") return birth >= 1920;
  if (category === "Design") return birth >= 1850;
  return true;
}

function pickWeighted(rng: Random, weights: number[], allowed: (i: number) => boolean): number {
  let total = 0;
  for (let i = 0; i < weights.length; i++) if (allowed(i)) total += weights[i]!;
  let x = rng.next() * total;
  for (let i = 0; i < weights.length; i++) {
    if (!allowed(i)) continue;
    x -= weights[i]!;
    if (x < 0) return i;
  }
  return 0;
}

function pickMedium(rng: Random, category: string, birth: number): MediumChoice & { label: string } {
  const choices = MEDIA[category]!.filter((c) => (c.from ?? 0) <= birth + 20);
  const pool = choices.length ? choices : MEDIA[category]!;
  const c =
    pool[
      pickWeighted(
        rng,
        pool.map((x) => x.weight),
        () => true,
      )
    ]!;
  const label = c.substrate ? `${c.materials.join(" and ")} on ${c.substrate}` : c.materials.join(" and ");
  return { ...c, label };
}

function isEditioned(rng: Random, category: string, material: string): number | null {
  const editioned = category === "Prints and multiples" ? rng.chance(0.9) : category === "Photography" ? rng.chance(0.8) : material === "bronze" ? rng.chance(0.4) : false;
  if (!editioned) return null;
  return material === "bronze" ? rng.pick([6, 8, 9, 12]) : rng.pick(EDITION_SIZES);
}

function pickDistinct(rng: Random, k: number, n: number): number[] {
  const out = new Set<number>();
  while (out.size < k) out.add(rng.int(1, n));
  return [...out].sort((a, b) => a - b);
}

/** Original pixel size: the long side 1600 to 2400 px, the work's own aspect ratio when measured. */
function pixelSize(rng: Random, h: number | null, w: number | null): { width: number; height: number } {
  const ratio = h !== null && w !== null ? w / h : Math.exp(0.45 * rng.normal());
  const long = rng.int(1600, 2400);
  const r = Math.min(2.5, Math.max(0.4, ratio));
  return r >= 1 ? { width: long, height: Math.round(long / r) } : { width: Math.round(long * r), height: long };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const pad = (n: number) => String(n).padStart(2, "0");
