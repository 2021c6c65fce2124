/**
 * Loading a collectable of the caller (404 otherwise) and presenting collectables as the API shows
 * them (CollectableSchema), with their children and the market's names.
 */
import type { Database } from "bun:sqlite";
import { type AcquisitionRow, type AppraisalRow, type CollectableRow, type ProvenanceRow, type SaleRow } from "../../accounts/store";
import type { AppDeps } from "../../deps";
import { notFound } from "../../http/errors";
import { marks } from "../../../db/sql";
import { iso, marketAll } from "./checks";
import { suggestedMatches } from "./matches";
import { currentValue, ensureValued, machineEstimate, momentumFraction } from "./valuation";

/** The caller's collectable, or 404 (also for another user's id). */
export function ownCollectable(deps: AppDeps, userId: number, id: number): CollectableRow {
  const row = deps.accounts.collectable(userId, id);
  if (!row) throw notFound(`Collectable ${id} not found`);
  return row;
}

export function presentAcquisition(q: AcquisitionRow | null, names: Map<number, string>) {
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

export function presentAppraisal(r: AppraisalRow) {
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

export function presentProvenance(r: ProvenanceRow) {
  return {
    id: r.id,
    owner: r.owner,
    location: r.location,
    year_from: r.year_from,
    year_to: r.year_to,
    is_up_to_present: Boolean(r.is_up_to_present),
  };
}

export function presentSale(r: SaleRow, houses: Map<number, string>) {
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

/** Names of market rows (artists, categories, auction houses) by id. */
export function marketNames(market: Database, table: string, ids: Iterable<number>): Map<number, string> {
  const list = [...new Set(ids)];
  if (!list.length) return new Map();
  return new Map(marketAll<{ id: number; name: string }>(market, `SELECT id, name FROM ${table} WHERE id IN (${marks(list.length)})`, ...list).map((r) => [r.id, r.name]));
}

function byCollectable<R extends { collectable_id: number }>(rows: R[]): Map<number, R[]> {
  const out = new Map<number, R[]>();
  for (const r of rows) (out.get(r.collectable_id) ?? out.set(r.collectable_id, []).get(r.collectable_id)!).push(r);
  return out;
}

/** Image URLs: the 1200 px rendition and the 240 px thumbnail, signed (null without image). */
function imageUrls(deps: AppDeps, r: CollectableRow, origin: string): { image_url: string | null; image_thumbnail_url: string | null } {
  const id = r.image_kind === "upload" ? r.image_key : r.image_kind === "artwork" ? r.image_market_id : null;
  if (id === null || id === undefined) return { image_url: null, image_thumbnail_url: null };
  return { image_url: deps.signer.url(id, 1200, "full", origin), image_thumbnail_url: deps.signer.url(id, 240, "full", origin) };
}

/** CollectableSchema for each of the user's rows (rows already valued), children and market names included. */
export function present(deps: AppDeps, userId: number, rows: CollectableRow[], origin: string) {
  if (!rows.length) return [];
  const store = deps.accounts;
  const ids = rows.map((r) => r.id);
  const acquisitions = new Map(store.acquisitionsOf(userId, ids).map((q) => [q.collectable_id, q]));
  const appraisals = byCollectable(store.children<AppraisalRow>(userId, "collectable_appraisals", ids, "date, id"));
  const provenance = byCollectable(store.children<ProvenanceRow>(userId, "collectable_provenance", ids, "id"));
  const sales = byCollectable(store.children<SaleRow>(userId, "collectable_sales", ids, "date, id"));
  const artistIds = rows.map((r) => r.artist_id);
  const artists = new Map(
    artistIds.length
      ? marketAll<{ id: number; name: string; m: number | null }>(
          deps.market,
          `SELECT id, name, price_momentum_percentage_12mo AS m FROM artists WHERE id IN (${marks(new Set(artistIds).size)})`,
          ...new Set(artistIds),
        ).map((a) => [a.id, a])
      : [],
  );
  const categories = marketNames(
    deps.market,
    "categories",
    rows.map((r) => r.category_id),
  );
  const houseIds: number[] = [];
  for (const q of acquisitions.values()) if (q.auction_house_id != null) houseIds.push(q.auction_house_id);
  for (const list of sales.values()) for (const s of list) if (s.auction_house_id != null) houseIds.push(s.auction_house_id);
  const houses = marketNames(deps.market, "auction_houses", houseIds);
  const matches = suggestedMatches(deps, rows);

  return rows.map((r) => {
    const q = acquisitions.get(r.id) ?? null;
    const acquisition = presentAcquisition(q, houses);
    const value = currentValue(r, acquisition, r.machine_estimate_usd);
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
      suggested_matches: matches.get(r.id) ?? [],
      creation_year: r.creation_year,
      current_estimated_price: value.value,
      current_estimated_price_currency: "USD" as const,
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
      material_ids: JSON.parse(r.material_ids) as number[],
      substrate_ids: JSON.parse(r.substrate_ids) as number[],
      surface_ids: JSON.parse(r.surface_ids) as number[],
      damage_ids: JSON.parse(r.damage_ids) as number[],
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

export type PresentedCollectable = ReturnType<typeof present>[number];

/**
 * One collectable as the API shows it; with `day` (before the market's as-of date), its machine
 * estimate, and the value in effect when that is the machine's, from the market's estimates of
 * that day (the user's own entries are shown as they are now).
 */
export function getCollectable(deps: AppDeps, userId: number, id: number, origin: string, day: string | null = null): PresentedCollectable {
  const row = ownCollectable(deps, userId, id);
  ensureValued(deps, userId, [row]);
  if (day === null) return present(deps, userId, [row], origin)[0]!;
  const then = machineEstimate(deps.market, row, day);
  return present(deps, userId, [{ ...row, machine_estimate_usd: then.usd, machine_estimate_basis: then.basis }], origin)[0]!;
}
