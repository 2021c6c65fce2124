/**
 * Collectables themselves: list, create (seeded from a suggested market artwork), update, delete.
 *
 * The list filters and sorts in one query over the market connection: the caller's collectables,
 * read from the account store and bound as one value (fields.ts: LISTED), joined with the market's
 * artists.
 */
import type { Database } from "bun:sqlite";
import { vectorBytes } from "../../../db/collectables";
import { type CollectableRow } from "../../accounts/store";
import type { AppDeps } from "../../deps";
import { issue, type ValidationIssue } from "../../http/errors";
import { orderClause, whereClause, type ParsedList } from "../../query/grammar";
import { type Body, checkEdition, checkReference, fail, marketAll, marketGet, type Loc } from "./checks";
import { COLLECTABLE_LIST, LISTED, listedParam } from "./fields";
import { imageIndex, removeImage, type StoredImage } from "./images";
import { getCollectable, ownCollectable, present, type PresentedCollectable } from "./presentation";
import { ensureValued, machineEstimate, marketStamp, type CollectableFacts } from "./valuation";

type Bind = string | number | null | Uint8Array;
/** Column values of a write, as bound to SQL. */
type Values = Record<string, Bind>;

// ---------------------------------------------------------------- list

export function listCollectables(deps: AppDeps, userId: number, q: ParsedList, origin: string) {
  const store = deps.accounts;
  const stamp = marketStamp(deps.market);
  ensureValued(deps, userId, store.staleCollectables(userId, stamp));
  const where = whereClause(COLLECTABLE_LIST, q.filters);
  const from = `FROM ${LISTED} c LEFT JOIN artists ar ON ar.id = c.artist_id WHERE ${where.sql}`;
  // read after ensureValued: the sorts by estimate read the valuations it just saved
  const params = [listedParam(store.collectableListRows(userId)), ...where.params] as (string | number | null)[];
  const total = marketGet<{ n: number }>(deps.market, `SELECT count(*) AS n ${from}`, ...params)!.n;
  const ids = marketAll<{ id: number }>(deps.market, `SELECT c.id ${from} ORDER BY ${orderClause(COLLECTABLE_LIST, q.sort)} LIMIT ? OFFSET ?`, ...params, q.limit, q.offset).map(
    (r) => r.id,
  );
  let items: PresentedCollectable[] = [];
  if (ids.length) {
    const byId = new Map(store.collectablesByIds(userId, ids).map((r) => [r.id, r]));
    const rows = ids.map((id) => byId.get(id)).filter((r): r is CollectableRow => r !== undefined);
    ensureValued(deps, userId, rows);
    items = present(deps, userId, rows, origin);
  }
  return { items, total_count: total, limit: q.limit, offset: q.offset };
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

export interface ArtworkSeed {
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
  return marketGet<ArtworkSeed>(
    market,
    `SELECT a.id, a.artist_id, a.title, a.creation_year, a.height_cm, a.width_cm, a.depth_cm, a.material_ids, a.substrate_id,
            a.edition_number, a.edition_size, a.image_id, i.width AS image_width, i.height AS image_height
       FROM artworks a LEFT JOIN images i ON i.id = a.image_id WHERE a.id = ?`,
    id,
  );
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
  for (const [field, kind] of Object.entries(ID_ARRAYS)) checkReference(deps.market, issues, kind, ["body", field], input[field]);
  checkEdition(issues, input.edition_number ?? null, input.edition_size ?? null, ["body"]);
  fail(issues);
  return seed;
}

/** Creates a collectable (input checked by checkCreate; image already stored when given). */
export function createCollectable(deps: AppDeps, userId: number, input: CreateInput, seed: ArtworkSeed | null, image: StoredImage | null, origin: string): PresentedCollectable {
  const now = Date.now();
  const fromSeed = seed !== null;
  const record: Values = {
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
    record[c] = c in ID_ARRAYS ? JSON.stringify(input[c]) : (input[c] as Bind);
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
  const m = machineEstimate(deps.market, record as unknown as CollectableFacts);
  const id = deps.accounts.insertCollectable(
    userId,
    {
      ...record,
      uid: crypto.randomUUID(),
      embedding,
      machine_estimate_usd: m.usd,
      machine_estimate_basis: m.basis,
      valued_on: marketStamp(deps.market),
      created_at: now,
      updated_at: now,
    },
    now,
  );
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
] as const satisfies readonly (keyof CollectableRow)[];
const ID_ARRAYS = { material_ids: "material", substrate_ids: "substrate", surface_ids: "surface", damage_ids: "damage" } as const;

/** The flat changes of a PATCH body: grouped `measurements` and `edition` objects unfolded (a flat field sent as well wins). */
function flatten(body: Body): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const m = body.measurements as Body | undefined;
  if (m) for (const [k, v] of Object.entries(m)) out[`measurements_${k}`] = v;
  const e = body.edition as Body | undefined;
  if (e) Object.assign(out, e);
  for (const [k, v] of Object.entries(body)) if (k !== "measurements" && k !== "edition") out[k] = v;
  return out;
}

export function updateCollectable(deps: AppDeps, userId: number, id: number, body: Body, origin: string): PresentedCollectable {
  const row = ownCollectable(deps, userId, id);
  const patch = flatten(body);
  const edition = body.edition as Body | undefined;
  const issues: ValidationIssue[] = [];
  const loc = (field: string): Loc => {
    if (field in body) return ["body", field];
    if (field.startsWith("measurements_") && body.measurements) return ["body", "measurements", field.slice("measurements_".length)];
    if (edition && field in edition) return ["body", "edition", field];
    return ["body", field];
  };
  if ("artist_id" in patch) checkReference(deps.market, issues, "artist", loc("artist_id"), patch.artist_id);
  if ("category_id" in patch) checkReference(deps.market, issues, "category", loc("category_id"), patch.category_id);
  for (const [field, kind] of Object.entries(ID_ARRAYS)) if (field in patch) checkReference(deps.market, issues, kind, loc(field), patch[field]);
  const next: CollectableRow = { ...row };
  const set = next as unknown as Values;
  for (const c of COLUMNS) if (c in patch) set[c] = ID_ARRAYS[c as keyof typeof ID_ARRAYS] ? JSON.stringify(patch[c]) : (patch[c] as Bind);
  if ("suggested_artwork_id" in patch && next.suggested_artwork_id !== null && !issues.length) {
    const a = marketGet<{ artist_id: number }>(deps.market, "SELECT artist_id FROM artworks WHERE id = ?", next.suggested_artwork_id);
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
    const m = machineEstimate(deps.market, next);
    const values: Values = {};
    for (const c of changed) values[c] = next[c];
    Object.assign(values, { machine_estimate_usd: m.usd, machine_estimate_basis: m.basis, valued_on: marketStamp(deps.market) });
    deps.accounts.updateCollectable(userId, id, values, Date.now());
  }
  return getCollectable(deps, userId, id, origin);
}

// ---------------------------------------------------------------- delete

export function deleteCollectable(deps: AppDeps, userId: number, id: number): void {
  const row = ownCollectable(deps, userId, id);
  deps.accounts.deleteCollectable(userId, id);
  // the store's delete leaves the image's bytes: removeImage forgets them with the files
  removeImage(deps, row.image_key);
}
