/**
 * Collectables: the caller's own records in account.db, valued against the current market.
 *
 * Every read and write is scoped by (collectable id, user id): another user's record is simply not
 * found (404), the same as a record that does not exist. Children are reached through their
 * collectable (child id and collectable id together). Writes check everything first (types, dates,
 * currencies, reference ids in market.db) and then change the database in one transaction, so a
 * refused write leaves the stored record as it was.
 *
 * The machine estimate is kept on the row (machine_estimate_usd, with the market snapshot it was
 * computed on in valued_on) so that lists can filter and sort by value in SQL; a row valued on
 * another snapshot is valued again before it is read.
 */
import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toVector, vectorBytes } from "../../../db/collectables";
import type { AppDeps } from "../../http/endpoint";
import { issue, notFound, ValidationFailed, type ValidationIssue } from "../../http/errors";
import { IMAGE_INDEX } from "../../../images/indexes";
import { embedImage } from "../../../images/embedding";
import { cacheDir, collectableImageDir } from "../../images/renditions";
import { VectorIndex } from "../../../images/vector-index";
import { orderClause, whereClause, type ParsedList } from "../../query/grammar";
import { CURRENCY_CODES } from "../../../market/currencies";
import { loadSharp } from "../../../platform/native";
import { isIsoDate } from "../../../market/time";
import { COLLECTABLE_LIST } from "./fields";
import { CURRENT_VALUE_SQL, currentValue, machineEstimate, momentumFraction } from "./valuation";

type Bind = string | number | null | Uint8Array | boolean;
type Row = Record<string, any>;

// ---------------------------------------------------------------- statements (one-off: prepare, run, finalize)

function all<T = Row>(db: Database, sql: string, ...params: Bind[]): T[] {
  const st = db.prepare(sql);
  try {
    return st.all(...(params as never[])) as T[];
  } finally {
    st.finalize();
  }
}

function get<T = Row>(db: Database, sql: string, ...params: Bind[]): T | null {
  const st = db.prepare(sql);
  try {
    return (st.get(...(params as never[])) as T | null) ?? null;
  } finally {
    st.finalize();
  }
}

function run(db: Database, sql: string, ...params: Bind[]): number {
  const st = db.prepare(sql);
  try {
    return st.run(...(params as never[])).changes;
  } finally {
    st.finalize();
  }
}

const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");
const iso = (ms: number) => new Date(ms).toISOString();
const cents = (x: number) => Math.round(x * 100) / 100;

// ---------------------------------------------------------------- the market snapshot and its vectors

const stamps = new WeakMap<Database, string>();

/** Identity of the market snapshot behind `market` (its metadata), for the valuation cache. */
function marketStamp(market: Database): string {
  let s = stamps.get(market);
  if (s === undefined) {
    const rows = all<{ key: string; value: string }>(market, "SELECT key, value FROM market_meta ORDER BY key");
    s = rows.map((r) => `${r.key}=${r.value}`).join(";") || "market";
    stamps.set(market, s);
  }
  return s;
}

const indexes = new WeakMap<Database, VectorIndex | null>();

/** The image vector index of the market, or null when the snapshot has none. */
export function imageIndex(market: Database): VectorIndex | null {
  if (!indexes.has(market)) indexes.set(market, VectorIndex.exists(market, IMAGE_INDEX) ? new VectorIndex(market, IMAGE_INDEX) : null);
  return indexes.get(market)!;
}

export function cosine(a: Float32Array, b: Float32Array): number | null {
  if (a.length !== b.length || a.length === 0) return null;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  if (na === 0 || nb === 0) return null;
  return Math.round((dot / Math.sqrt(na * nb)) * 1e6) / 1e6;
}

// ---------------------------------------------------------------- validation helpers

/** A reference kind: its market table and how an unknown id is named in a message. */
const REFERENCES = {
  artist: { table: "artists", label: "Artist" },
  category: { table: "categories", label: "Category" },
  artwork: { table: "artworks", label: "Artwork" },
  material: { table: "materials", label: "Material" },
  substrate: { table: "substrates", label: "Substrate" },
  surface: { table: "surfaces", label: "Surface" },
  damage: { table: "damages", label: "Damage" },
  auction_house: { table: "auction_houses", label: "Auction house" },
} as const;
type Reference = keyof typeof REFERENCES;

/** Ids of `kind` the market does not have, among `ids`. */
function missingIds(market: Database, kind: Reference, ids: readonly number[]): Set<number> {
  if (ids.length === 0) return new Set();
  const unique = [...new Set(ids)];
  const found = new Set(all<{ id: number }>(market, `SELECT id FROM ${REFERENCES[kind].table} WHERE id IN (${marks(unique.length)})`, ...unique).map((r) => r.id));
  return new Set(unique.filter((id) => !found.has(id)));
}

/** Pushes a 422 issue for an id the market does not have (a single field, or each element of an array field). */
function checkReference(market: Database, issues: ValidationIssue[], kind: Reference, loc: (string | number)[], value: number | number[] | null | undefined): void {
  if (value === null || value === undefined) return;
  const list = Array.isArray(value) ? value : [value];
  const missing = missingIds(market, kind, list);
  const { label, table } = REFERENCES[kind];
  list.forEach((id, i) => {
    if (!missing.has(id)) return;
    issues.push(issue.custom(Array.isArray(value) ? [...loc, i] : loc, id, `${label} ${id} does not exist`, "value_error", { reference: table }));
  });
  if (Array.isArray(value)) {
    const seen = new Set<number>();
    list.forEach((id, i) => {
      if (seen.has(id)) issues.push(issue.custom([...loc, i], id, `${label} ${id} is listed twice`, "value_error", { reference: table }));
      seen.add(id);
    });
  }
}

function checkCurrency(deps: AppDeps, issues: ValidationIssue[], loc: (string | number)[], code: string | null | undefined): void {
  if (code === null || code === undefined) return;
  if (!(CURRENCY_CODES as readonly string[]).includes(code) || !deps.fx.has(code)) issues.push(issue.enum(loc, code, CURRENCY_CODES));
}

function checkDate(issues: ValidationIssue[], loc: (string | number)[], value: string | null | undefined): void {
  if (value === null || value === undefined) return;
  if (!isIsoDate(value)) issues.push(issue.date(loc, value));
}

function fail(issues: ValidationIssue[]): void {
  if (issues.length) throw new ValidationFailed(issues);
}

/** An amount in `currency` on `date` in USD at the reference rate, rounded to cents (null when unknown). */
function toUsd(deps: AppDeps, amount: number | null, currency: string | null, date: string | null): number | null {
  if (amount === null) return null;
  const rate = deps.fx.usdPerUnit(currency ?? "USD", date ?? deps.asOf);
  return rate === null ? null : cents(amount * rate);
}

// ---------------------------------------------------------------- loading and valuing rows

/** The caller's collectable, or 404 (also for another user's id). */
export function ownCollectable(deps: AppDeps, userId: number, id: number): Row {
  const row = get(deps.account, "SELECT * FROM collectables WHERE id = ? AND user_id = ?", id, userId);
  if (!row) throw notFound(`Collectable ${id} not found`);
  return row;
}

function acquisitionOf(deps: AppDeps, collectableId: number): Row | null {
  return get(deps.account, "SELECT * FROM collectable_acquisitions WHERE collectable_id = ?", collectableId);
}

/** Values again the rows computed on another market snapshot (machine estimate, acquisition in USD). */
function ensureValued(deps: AppDeps, rows: Row[]): void {
  const stamp = marketStamp(deps.market);
  const stale = rows.filter((r) => r.valued_on !== stamp);
  if (!stale.length) return;
  deps.account.transaction(() => {
    for (const r of stale) {
      const m = machineEstimate(deps.market, r as never);
      r.machine_estimate_usd = m.usd;
      r.machine_estimate_basis = m.basis;
      r.valued_on = stamp;
      run(deps.account, "UPDATE collectables SET machine_estimate_usd = ?, machine_estimate_basis = ?, valued_on = ? WHERE id = ?", m.usd, m.basis, stamp, r.id);
      const q = acquisitionOf(deps, r.id);
      if (q) run(deps.account, "UPDATE collectable_acquisitions SET price_usd = ? WHERE collectable_id = ?", toUsd(deps, q.price, q.currency, q.date), r.id);
    }
  })();
}

// ---------------------------------------------------------------- presenting

function presentAcquisition(deps: AppDeps, q: Row | null, names: Map<number, string>): Row {
  return {
    date: q?.date ?? null,
    price: q?.price ?? null,
    currency: q?.currency ?? null,
    price_usd: q?.price_usd ?? null,
    location: q?.location ?? null,
    source_type: q?.source_type ?? null,
    seller_name: q?.seller_name ?? null,
    dealer_name: q?.dealer_name ?? null,
    auction_house_id: q?.auction_house_id ?? null,
    auction_house_name: (q?.auction_house_id != null ? names.get(q.auction_house_id) : undefined) ?? q?.auction_house_name ?? null,
    use_instead_of_estimates: Boolean(q?.use_instead_of_estimates),
  };
}

function presentAppraisal(r: Row): Row {
  return {
    id: r.id,
    type: r.type,
    value: r.value,
    currency: r.currency,
    value_usd: r.value_usd,
    date: r.date,
    company_name: r.company_name,
    is_best_guess: Boolean(r.is_best_guess),
  };
}

function presentProvenance(r: Row): Row {
  return {
    id: r.id,
    owner: r.owner,
    location: r.location,
    year_from: r.year_from,
    year_to: r.year_to,
    is_up_to_present: Boolean(r.is_up_to_present),
  };
}

function presentSale(r: Row, houses: Map<number, string>): Row {
  return {
    id: r.id,
    value: r.value,
    currency: r.currency,
    value_usd: r.value_usd,
    date: r.date,
    location: r.location,
    type: r.type,
    auction_house_id: r.auction_house_id,
    auction_house_name: r.auction_house_id != null ? (houses.get(r.auction_house_id) ?? null) : null,
    seller_name: r.seller_name,
  };
}

function names(market: Database, table: string, ids: Iterable<number>): Map<number, string> {
  const list = [...new Set(ids)];
  if (!list.length) return new Map();
  return new Map(all<{ id: number; name: string }>(market, `SELECT id, name FROM ${table} WHERE id IN (${marks(list.length)})`, ...list).map((r) => [r.id, r.name]));
}

function groupBy(rows: Row[]): Map<number, Row[]> {
  const out = new Map<number, Row[]>();
  for (const r of rows) (out.get(r.collectable_id) ?? out.set(r.collectable_id, []).get(r.collectable_id)!).push(r);
  return out;
}

/** Image URLs: the 1200 px rendition and the 240 px thumbnail, signed (null without image). */
function imageUrls(deps: AppDeps, r: Row, origin: string): { image_url: string | null; image_thumbnail_url: string | null } {
  const id = r.image_kind === "upload" ? r.image_key : r.image_kind === "artwork" ? r.image_market_id : null;
  if (id === null || id === undefined) return { image_url: null, image_thumbnail_url: null };
  return { image_url: deps.signer.url(id, 1200, "full", origin), image_thumbnail_url: deps.signer.url(id, 240, "full", origin) };
}

/** CollectableSchema for each row (rows already valued), children and market names included. */
export function present(deps: AppDeps, rows: Row[], origin: string): Row[] {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const inIds = `IN (${marks(ids.length)})`;
  const acquisitions = new Map(all(deps.account, `SELECT * FROM collectable_acquisitions WHERE collectable_id ${inIds}`, ...ids).map((q) => [q.collectable_id as number, q]));
  const appraisals = groupBy(all(deps.account, `SELECT * FROM collectable_appraisals WHERE collectable_id ${inIds} ORDER BY date, id`, ...ids));
  const provenance = groupBy(all(deps.account, `SELECT * FROM collectable_provenance WHERE collectable_id ${inIds} ORDER BY id`, ...ids));
  const sales = groupBy(all(deps.account, `SELECT * FROM collectable_sales WHERE collectable_id ${inIds} ORDER BY date, id`, ...ids));
  const artistIds = rows.map((r) => r.artist_id as number);
  const artists = new Map(
    artistIds.length
      ? all<{ id: number; name: string; m: number | null }>(
          deps.market,
          `SELECT id, name, price_momentum_percentage_12mo AS m FROM artists WHERE id IN (${marks(new Set(artistIds).size)})`,
          ...new Set(artistIds),
        ).map((a) => [a.id, a])
      : [],
  );
  const categories = names(
    deps.market,
    "categories",
    rows.map((r) => r.category_id),
  );
  const houseIds: number[] = [];
  for (const q of acquisitions.values()) if (q.auction_house_id != null) houseIds.push(q.auction_house_id);
  for (const list of sales.values()) for (const s of list) if (s.auction_house_id != null) houseIds.push(s.auction_house_id);
  const houses = names(deps.market, "auction_houses", houseIds);

  return rows.map((r) => {
    const q = acquisitions.get(r.id) ?? null;
    const acquisition = presentAcquisition(deps, q, houses);
    const value = currentValue(r as never, acquisition as never, r.machine_estimate_usd);
    const artist = artists.get(r.artist_id);
    return {
      id: r.id,
      uid: r.uid,
      title: r.title,
      artist_id: r.artist_id,
      artist_name: artist?.name ?? null,
      category_id: r.category_id,
      category_name: categories.get(r.category_id) ?? null,
      suggested_artwork_id: r.suggested_artwork_id,
      creation_year: r.creation_year,
      current_estimated_price: value.value,
      current_estimated_price_currency: "USD",
      current_price_source: value.source,
      machine_estimated_price: r.machine_estimate_usd,
      machine_estimate_basis: r.machine_estimate_basis,
      manual_price_value: r.manual_price_value,
      selected_price_type: r.selected_price_type,
      price_momentum_12mo: momentumFraction(artist?.m),
      condition: r.condition,
      signature: r.signature,
      current_location: r.current_location,
      measurements_unit: r.measurements_unit,
      measurements_height: r.measurements_height,
      measurements_width: r.measurements_width,
      measurements_depth: r.measurements_depth,
      material_ids: JSON.parse(r.material_ids),
      substrate_ids: JSON.parse(r.substrate_ids),
      surface_ids: JSON.parse(r.surface_ids),
      damage_ids: JSON.parse(r.damage_ids),
      edition_unique_type: r.edition_unique_type,
      edition_number: r.edition_number,
      edition_size: r.edition_size,
      edition: { edition_unique_type: r.edition_unique_type, edition_number: r.edition_number, edition_size: r.edition_size },
      ...imageUrls(deps, r, origin),
      acquisition,
      appraisals: (appraisals.get(r.id) ?? []).map(presentAppraisal),
      provenance: (provenance.get(r.id) ?? []).map(presentProvenance),
      sales: (sales.get(r.id) ?? []).map((s) => presentSale(s, houses)),
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
    };
  });
}

/** One collectable as the API shows it. */
export function getCollectable(deps: AppDeps, userId: number, id: number, origin: string): Row {
  const row = ownCollectable(deps, userId, id);
  ensureValued(deps, [row]);
  return present(deps, [row], origin)[0]!;
}

// ---------------------------------------------------------------- list

export function listCollectables(deps: AppDeps, userId: number, q: ParsedList, origin: string) {
  const stamp = marketStamp(deps.market);
  const stale = all(deps.account, "SELECT * FROM collectables WHERE user_id = ? AND (valued_on IS NULL OR valued_on <> ?)", userId, stamp);
  ensureValued(deps, stale);
  const where = whereClause(COLLECTABLE_LIST, q.filters);
  const from = `FROM account.collectables c
    LEFT JOIN account.collectable_acquisitions q ON q.collectable_id = c.id
    LEFT JOIN artists ar ON ar.id = c.artist_id
    WHERE c.user_id = ? AND ${where.sql}`;
  const params = [userId, ...where.params] as Bind[];
  const total = get<{ n: number }>(deps.market, `SELECT count(*) AS n ${from}`, ...params)!.n;
  const ids = all<{ id: number }>(deps.market, `SELECT c.id ${from} ORDER BY ${orderClause(COLLECTABLE_LIST, q.sort)} LIMIT ? OFFSET ?`, ...params, q.limit, q.offset).map(
    (r) => r.id,
  );
  let items: Row[] = [];
  if (ids.length) {
    const byId = new Map(all(deps.account, `SELECT * FROM collectables WHERE user_id = ? AND id IN (${marks(ids.length)})`, userId, ...ids).map((r) => [r.id as number, r]));
    const rows = ids.map((id) => byId.get(id)).filter((r): r is Row => r !== undefined);
    ensureValued(deps, rows);
    items = present(deps, rows, origin);
  }
  return { items, total_count: total, limit: q.limit, offset: q.offset };
}

export { CURRENT_VALUE_SQL };

// ---------------------------------------------------------------- images

export interface StoredImage {
  key: string;
  width: number;
  height: number;
  embedding: Float32Array;
}

function newImageKey(): string {
  return `c${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex")}`;
}

/** Embeds a checked upload and writes its original under <data>/images/collectables/<key>. */
export async function storeImage(deps: AppDeps, bytes: Uint8Array, width: number, height: number): Promise<StoredImage> {
  const embedding = await embedImage(loadSharp(deps.config.dataDir), bytes);
  const key = newImageKey();
  const dir = collectableImageDir(deps.config.dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, key);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
  return { key, width, height, embedding };
}

/** Removes an uploaded original and its renditions (after the row no longer names it). */
export function removeImage(deps: AppDeps, key: string | null | undefined): void {
  if (!key) return;
  try {
    rmSync(join(collectableImageDir(deps.config.dataDir), key), { force: true });
    const cache = cacheDir(deps.config.dataDir, key);
    if (existsSync(cache)) rmSync(cache, { recursive: true, force: true });
  } catch {
    // a file left behind is harmless: nothing names it any more
  }
}

// ---------------------------------------------------------------- create

/** The create form: the required fields, the suggested artwork, and any field of the update input. */
export interface CreateInput {
  artist_id: number;
  category_id: number;
  edition_unique_type: string;
  suggested_artwork_id?: number;
  title?: string;
  creation_year?: number | null;
  edition_number?: number | null;
  edition_size?: number | null;
  [field: string]: unknown;
}

interface ArtworkSeed {
  id: number;
  artist_id: number;
  title: string;
  creation_year: number | null;
  height_cm: number | null;
  width_cm: number | null;
  depth_cm: number | null;
  material_ids: string;
  substrate_id: number | null;
  edition_number: number | null;
  edition_size: number | null;
  image_id: number | null;
  image_width: number | null;
  image_height: number | null;
}

function artworkSeed(market: Database, id: number): ArtworkSeed | null {
  return get<ArtworkSeed>(
    market,
    `SELECT a.id, a.artist_id, a.title, a.creation_year, a.height_cm, a.width_cm, a.depth_cm, a.material_ids, a.substrate_id,
            a.edition_number, a.edition_size, a.image_id, i.width AS image_width, i.height AS image_height
       FROM artworks a LEFT JOIN images i ON i.id = a.image_id WHERE a.id = ?`,
    id,
  );
}

function checkEdition(issues: ValidationIssue[], number: number | null, size: number | null, loc: (string | number)[]): void {
  if (number !== null && size !== null && number > size) {
    issues.push(issue.custom([...loc, "edition_number"], number, `edition_number must not exceed edition_size (${size})`, "value_error", { edition_size: size }));
  }
}

/** Checks a create request against the market (reference ids, the suggested artwork's artist). */
export function checkCreate(deps: AppDeps, input: CreateInput): ArtworkSeed | null {
  const issues: ValidationIssue[] = [];
  checkReference(deps.market, issues, "artist", ["body", "artist_id"], input.artist_id);
  checkReference(deps.market, issues, "category", ["body", "category_id"], input.category_id);
  let seed: ArtworkSeed | null = null;
  if (input.suggested_artwork_id !== undefined) {
    seed = artworkSeed(deps.market, input.suggested_artwork_id);
    // An artwork by another artist seeds the record all the same (the spec ties the two fields in
    // no way); only an artwork by the record's artist gives the machine estimate (valuation.ts).
    if (!seed) {
      issues.push(
        issue.custom(["body", "suggested_artwork_id"], input.suggested_artwork_id, `Artwork ${input.suggested_artwork_id} does not exist`, "value_error", {
          reference: "artworks",
        }),
      );
    }
  }
  for (const [field, kind] of Object.entries(ID_ARRAYS)) checkReference(deps.market, issues, kind, ["body", field], input[field] as number[] | undefined);
  checkEdition(issues, input.edition_number ?? null, input.edition_size ?? null, ["body"]);
  fail(issues);
  return seed;
}

/** Creates a collectable (input checked by checkCreate; image already stored when given). */
export function createCollectable(deps: AppDeps, userId: number, input: CreateInput, seed: ArtworkSeed | null, image: StoredImage | null, origin: string): Row {
  const now = Date.now();
  const fromSeed = seed !== null;
  const record: Row = {
    artist_id: input.artist_id,
    category_id: input.category_id,
    suggested_artwork_id: seed?.id ?? null,
    title: seed?.title ?? "Untitled",
    creation_year: seed?.creation_year ?? null,
    edition_unique_type: input.edition_unique_type,
    edition_number: fromSeed && input.edition_unique_type === "edition" ? seed!.edition_number : null,
    edition_size: fromSeed && input.edition_unique_type === "edition" ? seed!.edition_size : null,
    measurements_unit: "cm",
    measurements_height: seed?.height_cm ?? null,
    measurements_width: seed?.width_cm ?? null,
    measurements_depth: seed?.depth_cm ?? null,
    material_ids: JSON.stringify(
      seed
        ? seed.material_ids
            .split(",")
            .map((s) => Number.parseInt(s, 10))
            .filter((n) => Number.isInteger(n) && n > 0)
        : [],
    ),
    substrate_ids: JSON.stringify(seed?.substrate_id ? [seed.substrate_id] : []),
    selected_price_type: "machine",
  };
  // fields sent with the form win over the seeds
  for (const c of COLUMNS) {
    if (input[c] === undefined || c === "artist_id" || c === "category_id" || c === "suggested_artwork_id") continue;
    record[c] = c in ID_ARRAYS ? JSON.stringify(input[c]) : input[c];
  }
  let embedding: Uint8Array | null = null;
  if (image) {
    Object.assign(record, { image_kind: "upload", image_key: image.key, image_market_id: null, image_width: image.width, image_height: image.height });
    embedding = vectorBytes(image.embedding);
  } else if (seed?.image_id) {
    Object.assign(record, { image_kind: "artwork", image_key: null, image_market_id: seed.image_id, image_width: seed.image_width, image_height: seed.image_height });
    const v = imageIndex(deps.market)?.vectorOf(seed.id) ?? null;
    embedding = v ? vectorBytes(v) : null;
  }
  const m = machineEstimate(deps.market, record as never);
  const uid = crypto.randomUUID();
  const id = deps.account.transaction(() => {
    const cols = {
      ...record,
      uid,
      user_id: userId,
      embedding,
      machine_estimate_usd: m.usd,
      machine_estimate_basis: m.basis,
      valued_on: marketStamp(deps.market),
      created_at: now,
      updated_at: now,
    };
    const names = Object.keys(cols);
    const st = deps.account.prepare(`INSERT INTO collectables (${names.join(", ")}) VALUES (${marks(names.length)}) RETURNING id`);
    let newId: number;
    try {
      newId = (st.get(...(Object.values(cols) as never[])) as { id: number }).id;
    } finally {
      st.finalize();
    }
    run(deps.account, "INSERT INTO collectable_acquisitions (collectable_id, updated_at) VALUES (?, ?)", newId, now);
    return newId;
  })();
  return getCollectable(deps, userId, id, origin);
}

// ---------------------------------------------------------------- update

const COLUMNS = [
  "title",
  "artist_id",
  "category_id",
  "suggested_artwork_id",
  "creation_year",
  "selected_price_type",
  "manual_price_value",
  "condition",
  "signature",
  "current_location",
  "measurements_unit",
  "measurements_height",
  "measurements_width",
  "measurements_depth",
  "edition_unique_type",
  "edition_number",
  "edition_size",
  "material_ids",
  "substrate_ids",
  "surface_ids",
  "damage_ids",
] as const;
const ID_ARRAYS = { material_ids: "material", substrate_ids: "substrate", surface_ids: "surface", damage_ids: "damage" } as const;

/** The flat changes of a PATCH body: grouped `measurements` and `edition` objects unfolded (a flat field sent as well wins). */
function flatten(body: Row): Row {
  const out: Row = {};
  const m = body.measurements as Row | undefined;
  if (m) for (const [k, v] of Object.entries(m)) out[`measurements_${k}`] = v;
  const e = body.edition as Row | undefined;
  if (e) Object.assign(out, e);
  for (const [k, v] of Object.entries(body)) if (k !== "measurements" && k !== "edition") out[k] = v;
  return out;
}

export function updateCollectable(deps: AppDeps, userId: number, id: number, body: Row, origin: string): Row {
  const row = ownCollectable(deps, userId, id);
  const patch = flatten(body);
  const issues: ValidationIssue[] = [];
  const loc = (field: string): (string | number)[] => {
    if (field in body) return ["body", field];
    if (field.startsWith("measurements_") && body.measurements) return ["body", "measurements", field.slice("measurements_".length)];
    if (body.edition && field in body.edition) return ["body", "edition", field];
    return ["body", field];
  };
  if ("artist_id" in patch) checkReference(deps.market, issues, "artist", loc("artist_id"), patch.artist_id);
  if ("category_id" in patch) checkReference(deps.market, issues, "category", loc("category_id"), patch.category_id);
  for (const [field, kind] of Object.entries(ID_ARRAYS)) if (field in patch) checkReference(deps.market, issues, kind, loc(field), patch[field]);
  const next: Row = { ...row };
  for (const c of COLUMNS) if (c in patch) next[c] = ID_ARRAYS[c as keyof typeof ID_ARRAYS] ? JSON.stringify(patch[c]) : patch[c];
  if ("suggested_artwork_id" in patch && next.suggested_artwork_id !== null && !issues.length) {
    const a = get<{ artist_id: number }>(deps.market, "SELECT artist_id FROM artworks WHERE id = ?", next.suggested_artwork_id);
    if (!a) {
      issues.push(
        issue.custom(loc("suggested_artwork_id"), next.suggested_artwork_id, `Artwork ${next.suggested_artwork_id} does not exist`, "value_error", { reference: "artworks" }),
      );
    }
  }
  if ("edition_number" in patch || "edition_size" in patch) checkEdition(issues, next.edition_number, next.edition_size, ["body"]);
  fail(issues);

  const changed = COLUMNS.filter((c) => next[c] !== row[c]);
  if (changed.length) {
    const m = machineEstimate(deps.market, next as never);
    const sets = [...changed, "machine_estimate_usd", "machine_estimate_basis", "valued_on"];
    const values = [...changed.map((c) => next[c]), m.usd, m.basis, marketStamp(deps.market), Date.now()];
    // updated_at always moves forward, even within the millisecond of the previous write
    run(deps.account, `UPDATE collectables SET ${sets.map((c) => `${c} = ?`).join(", ")}, updated_at = max(?, updated_at + 1) WHERE id = ? AND user_id = ?`, ...values, id, userId);
  }
  return getCollectable(deps, userId, id, origin);
}

// ---------------------------------------------------------------- delete

export function deleteCollectable(deps: AppDeps, userId: number, id: number): void {
  const row = ownCollectable(deps, userId, id);
  deps.account.transaction(() => {
    // children go with it (ON DELETE CASCADE): acquisition, appraisals, provenance, sales, comp set
    run(deps.account, "DELETE FROM collectables WHERE id = ? AND user_id = ?", id, userId);
  })();
  removeImage(deps, row.image_key);
}

// ---------------------------------------------------------------- image

export function replaceImage(deps: AppDeps, userId: number, id: number, image: StoredImage, origin: string): Row {
  let old: string | null = null;
  try {
    const row = ownCollectable(deps, userId, id);
    old = row.image_key;
    run(
      deps.account,
      `UPDATE collectables SET image_kind = 'upload', image_key = ?, image_market_id = NULL, image_width = ?, image_height = ?, embedding = ?, updated_at = max(?, updated_at + 1)
        WHERE id = ? AND user_id = ?`,
      image.key,
      image.width,
      image.height,
      vectorBytes(image.embedding),
      Date.now(),
      id,
      userId,
    );
  } catch (err) {
    removeImage(deps, image.key);
    throw err;
  }
  removeImage(deps, old);
  return getCollectable(deps, userId, id, origin);
}

// ---------------------------------------------------------------- acquisition

export function getAcquisition(deps: AppDeps, userId: number, id: number): Row {
  const row = ownCollectable(deps, userId, id);
  ensureValued(deps, [row]);
  const q = acquisitionOf(deps, id);
  return presentAcquisition(deps, q, names(deps.market, "auction_houses", q?.auction_house_id != null ? [q.auction_house_id] : []));
}

const ACQUISITION_COLUMNS = [
  "date",
  "price",
  "currency",
  "location",
  "source_type",
  "seller_name",
  "dealer_name",
  "auction_house_id",
  "auction_house_name",
  "use_instead_of_estimates",
] as const;

export function updateAcquisition(deps: AppDeps, userId: number, id: number, body: Row): Row {
  ownCollectable(deps, userId, id);
  const issues: ValidationIssue[] = [];
  checkDate(issues, ["body", "date"], body.date);
  checkCurrency(deps, issues, ["body", "currency"], body.currency);
  checkReference(deps.market, issues, "auction_house", ["body", "auction_house_id"], body.auction_house_id);
  fail(issues);
  const now = Date.now();
  deps.account.transaction(() => {
    const current = acquisitionOf(deps, id) ?? {};
    if (!acquisitionOf(deps, id)) run(deps.account, "INSERT INTO collectable_acquisitions (collectable_id, updated_at) VALUES (?, ?)", id, now);
    const next: Row = { ...current };
    for (const c of ACQUISITION_COLUMNS) if (c in body) next[c] = c === "use_instead_of_estimates" ? (body[c] ? 1 : 0) : body[c];
    // a price without a currency is in USD
    if (next.price != null && next.currency == null) next.currency = "USD";
    const priceUsd = toUsd(deps, next.price ?? null, next.currency ?? null, next.date ?? null);
    const cols = [...ACQUISITION_COLUMNS, "price_usd", "updated_at"];
    run(
      deps.account,
      `UPDATE collectable_acquisitions SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE collectable_id = ?`,
      ...ACQUISITION_COLUMNS.map((c) => (c === "use_instead_of_estimates" ? (next[c] ? 1 : 0) : (next[c] ?? null))),
      priceUsd,
      now,
      id,
    );
    run(deps.account, "UPDATE collectables SET updated_at = max(?, updated_at + 1) WHERE id = ?", now, id);
  })();
  return getAcquisition(deps, userId, id);
}

// ---------------------------------------------------------------- appraisals, provenance, private sales

interface ChildKind {
  table: string;
  label: string;
  columns: readonly string[];
  order: string;
  /** Has value, currency, date and value_usd. */
  money: boolean;
  present: (r: Row, houses: Map<number, string>) => Row;
}

export const CHILDREN = {
  appraisals: {
    table: "collectable_appraisals",
    label: "Appraisal",
    columns: ["type", "value", "currency", "date", "company_name", "is_best_guess"],
    order: "date, id",
    money: true,
    present: (r: Row) => presentAppraisal(r),
  },
  provenance: {
    table: "collectable_provenance",
    label: "Provenance entry",
    columns: ["owner", "location", "year_from", "year_to", "is_up_to_present"],
    order: "id",
    money: false,
    present: (r: Row) => presentProvenance(r),
  },
  sales: {
    table: "collectable_sales",
    label: "Sale",
    columns: ["value", "currency", "date", "location", "type", "auction_house_id", "seller_name"],
    order: "date, id",
    money: true,
    present: presentSale,
  },
} satisfies Record<string, ChildKind>;
export type ChildName = keyof typeof CHILDREN;

function presentChildren(deps: AppDeps, kind: ChildKind, rows: Row[]): Row[] {
  const houses = names(
    deps.market,
    "auction_houses",
    rows.map((r) => r.auction_house_id).filter((x) => x != null),
  );
  return rows.map((r) => kind.present(r, houses));
}

export function listChildren(deps: AppDeps, userId: number, id: number, name: ChildName): Row[] {
  ownCollectable(deps, userId, id);
  const kind = CHILDREN[name];
  return presentChildren(deps, kind, all(deps.account, `SELECT * FROM ${kind.table} WHERE collectable_id = ? ORDER BY ${kind.order}`, id));
}

function ownChild(deps: AppDeps, name: ChildName, collectableId: number, childId: number): Row {
  const kind = CHILDREN[name];
  const row = get(deps.account, `SELECT * FROM ${kind.table} WHERE id = ? AND collectable_id = ?`, childId, collectableId);
  if (!row) throw notFound(`${kind.label} ${childId} not found`);
  return row;
}

/** Checks a child's fields as they would be after the write; the issues' locs name the fields sent. */
function checkChild(deps: AppDeps, name: ChildName, body: Row, next: Row): void {
  const issues: ValidationIssue[] = [];
  if (CHILDREN[name].money) {
    checkDate(issues, ["body", "date"], body.date);
    checkCurrency(deps, issues, ["body", "currency"], body.currency);
  }
  if (name === "sales") checkReference(deps.market, issues, "auction_house", ["body", "auction_house_id"], body.auction_house_id);
  if (name === "provenance") {
    if (next.year_from != null && next.year_to != null && next.year_from > next.year_to) {
      const field = "year_to" in body ? "year_to" : "year_from";
      issues.push(issue.custom(["body", field], body[field], "year_from must not be after year_to", "value_error", { year_from: next.year_from, year_to: next.year_to }));
    }
  }
  fail(issues);
}

export function addChild(deps: AppDeps, userId: number, id: number, name: ChildName, body: Row): Row {
  ownCollectable(deps, userId, id);
  const kind = CHILDREN[name];
  const next: Row = {};
  for (const c of kind.columns) next[c] = body[c] ?? null;
  if (kind.money && next.currency === null) next.currency = "USD";
  if (name === "appraisals") next.is_best_guess = body.is_best_guess ? 1 : 0;
  if (name === "provenance") next.is_up_to_present = body.is_up_to_present ? 1 : 0;
  checkChild(deps, name, body, next);
  const now = Date.now();
  if (kind.money) next.value_usd = toUsd(deps, next.value, next.currency, next.date);
  const childId = deps.account.transaction(() => {
    const cols = Object.keys(next);
    const st = deps.account.prepare(`INSERT INTO ${kind.table} (collectable_id, ${cols.join(", ")}, created_at) VALUES (?, ${marks(cols.length)}, ?) RETURNING id`);
    let newId: number;
    try {
      newId = (st.get(id, ...(Object.values(next) as never[]), now) as { id: number }).id;
    } finally {
      st.finalize();
    }
    run(deps.account, "UPDATE collectables SET updated_at = max(?, updated_at + 1) WHERE id = ?", now, id);
    return newId;
  })();
  return presentChildren(deps, kind, [ownChild(deps, name, id, childId)])[0]!;
}

export function updateChild(deps: AppDeps, userId: number, id: number, name: ChildName, childId: number, body: Row): Row {
  ownCollectable(deps, userId, id);
  const kind = CHILDREN[name];
  const row = ownChild(deps, name, id, childId);
  const next: Row = { ...row };
  for (const c of kind.columns) if (c in body) next[c] = typeof body[c] === "boolean" ? (body[c] ? 1 : 0) : body[c];
  checkChild(deps, name, body, next);
  const now = Date.now();
  if (kind.money) next.value_usd = toUsd(deps, next.value, next.currency, next.date);
  const cols = kind.money ? [...kind.columns, "value_usd"] : [...kind.columns];
  deps.account.transaction(() => {
    run(deps.account, `UPDATE ${kind.table} SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE id = ? AND collectable_id = ?`, ...cols.map((c) => next[c] ?? null), childId, id);
    run(deps.account, "UPDATE collectables SET updated_at = max(?, updated_at + 1) WHERE id = ?", now, id);
  })();
  return presentChildren(deps, kind, [ownChild(deps, name, id, childId)])[0]!;
}

export function deleteChild(deps: AppDeps, userId: number, id: number, name: ChildName, childId: number): void {
  ownCollectable(deps, userId, id);
  const kind = CHILDREN[name];
  ownChild(deps, name, id, childId);
  const now = Date.now();
  deps.account.transaction(() => {
    run(deps.account, `DELETE FROM ${kind.table} WHERE id = ? AND collectable_id = ?`, childId, id);
    run(deps.account, "UPDATE collectables SET updated_at = max(?, updated_at + 1) WHERE id = ?", now, id);
  })();
}

// ---------------------------------------------------------------- comps

export interface CompIn {
  artist_id: number;
  artwork_id: number;
  weight?: number;
}

/** The collectable's embedding: its own (stored), else its suggested artwork's image vector. */
function collectableVector(deps: AppDeps, row: Row): Float32Array | null {
  if (row.embedding) return toVector(row.embedding);
  if (row.suggested_artwork_id != null) return imageIndex(deps.market)?.vectorOf(row.suggested_artwork_id) ?? null;
  return null;
}

function presentComps(deps: AppDeps, row: Row): Row {
  const set = get<{ updated_at: number }>(deps.account, "SELECT updated_at FROM collectable_comp_sets WHERE collectable_id = ?", row.id);
  if (!set) return { comps: [], updated_at: null };
  const comps = all<{ artist_id: number; artwork_id: number; weight: number }>(
    deps.account,
    "SELECT artist_id, artwork_id, weight FROM collectable_comps WHERE collectable_id = ? ORDER BY position",
    row.id,
  );
  const artworkIds = comps.map((c) => c.artwork_id);
  const artworks = new Map(
    artworkIds.length
      ? all<{ id: number; title: string; artist_id: number }>(
          deps.market,
          `SELECT id, title, artist_id FROM artworks WHERE id IN (${marks(artworkIds.length)})`,
          ...artworkIds,
        ).map((a) => [a.id, a])
      : [],
  );
  const artists = names(
    deps.market,
    "artists",
    comps.map((c) => c.artist_id),
  );
  const mine = collectableVector(deps, row);
  const index = imageIndex(deps.market);
  return {
    comps: comps.map((c) => {
      const a = artworks.get(c.artwork_id);
      const theirs = index?.vectorOf(c.artwork_id) ?? null;
      return {
        artist_id: c.artist_id,
        artwork_id: c.artwork_id,
        weight: c.weight,
        artist_name: artists.get(c.artist_id) ?? null,
        artwork_title: a?.title ?? null,
        similarity: mine && theirs ? cosine(mine, theirs) : null,
        verified: a !== undefined && a.artist_id === c.artist_id,
      };
    }),
    updated_at: iso(set.updated_at),
  };
}

export function getComps(deps: AppDeps, userId: number, id: number): Row {
  return presentComps(deps, ownCollectable(deps, userId, id));
}

export function replaceComps(deps: AppDeps, userId: number, id: number, comps: CompIn[]): Row {
  const row = ownCollectable(deps, userId, id);
  const issues: ValidationIssue[] = [];
  const ids = comps.map((c) => c.artwork_id);
  const found = new Map(
    ids.length
      ? all<{ id: number; artist_id: number }>(deps.market, `SELECT id, artist_id FROM artworks WHERE id IN (${marks(new Set(ids).size)})`, ...new Set(ids)).map((a) => [a.id, a])
      : [],
  );
  // An artwork by another artist than the comp's artist_id is saved as given (verified: false):
  // the spec pairs the two ids without tying them; only ids the market lacks are refused.
  const unknownArtists = missingIds(
    deps.market,
    "artist",
    comps.map((c) => c.artist_id),
  );
  const seen = new Set<number>();
  comps.forEach((c, i) => {
    if (unknownArtists.has(c.artist_id)) {
      issues.push(issue.custom(["body", "comps", i, "artist_id"], c.artist_id, `Artist ${c.artist_id} does not exist`, "value_error", { reference: "artists" }));
    }
    if (!found.has(c.artwork_id)) {
      issues.push(issue.custom(["body", "comps", i, "artwork_id"], c.artwork_id, `Artwork ${c.artwork_id} does not exist`, "value_error", { reference: "artworks" }));
    }
    if (seen.has(c.artwork_id)) {
      issues.push(issue.custom(["body", "comps", i, "artwork_id"], c.artwork_id, `Artwork ${c.artwork_id} is in the set twice`, "value_error", {}));
    }
    seen.add(c.artwork_id);
  });
  fail(issues);
  const now = Date.now();
  deps.account.transaction(() => {
    run(deps.account, "DELETE FROM collectable_comp_sets WHERE collectable_id = ?", id); // its comps go with it
    if (comps.length) {
      run(deps.account, "INSERT INTO collectable_comp_sets (collectable_id, updated_at) VALUES (?, ?)", id, now);
      comps.forEach((c, i) =>
        run(
          deps.account,
          "INSERT INTO collectable_comps (collectable_id, position, artist_id, artwork_id, weight) VALUES (?, ?, ?, ?, ?)",
          id,
          i,
          c.artist_id,
          c.artwork_id,
          c.weight ?? 1,
        ),
      );
    }
  })();
  return presentComps(deps, row);
}
