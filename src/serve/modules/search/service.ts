/**
 * Similar artworks and search by image over the image index of the market (image_vectors, built
 * by embedMarket; src/images/vector-index.ts). One VectorIndex per read connection, opened on
 * first use (a snapshot is immutable; a new snapshot is a new connection).
 *
 * The pool filters of search by image narrow the candidates and never reorder them:
 * - artist and category only: the index's metadata columns, checked by sqlite-vec while it scans;
 * - any pool of at most SEARCH_TUNING.candidatePool (5,000) works (found by SQL with the artwork list's own WHERE):
 *   those works are ranked exactly (no index, no approximation);
 * - a broader pool with other filters: the index's nearest works (artist and category applied in
 *   the scan) are checked against the WHERE in order, fetching deeper until `limit` pass.
 * docs/api-search.md has the decisions and figures.
 */
import type { Database } from "bun:sqlite";

import type { AppDeps } from "../../deps";
import type { CallerView } from "../../http/view";
import { HttpError, issue, notFound, ValidationFailed } from "../../http/errors";
import type { Filter, ParsedList } from "../../query/grammar";
import { IMAGE_INDEX } from "../../../images/indexes";
import type { Hit, SearchOptions, VectorIndex } from "../../../images/vector-index";
import { artworkWhere } from "../artworks/fields";
import { resolveMaterials } from "../artworks/materials";
import { artworksByIds } from "../artworks/model";
import { type MarketSnapshot, snapshotOf } from "../../snapshot";
import { INDEX_FILTERS, POOL_FIELDS } from "./fields";

/** Pools of at most `candidatePool` works are ranked exactly (about 8 µs a work); tests lower it to reach the other paths. */
export const SEARCH_TUNING = { candidatePool: 5000 };
/** Deepest the index is asked when a broad pool is filtered after the scan (sqlite-vec's k limit is 4096). */
const MAX_DEPTH = 4096;

/** The image index of a read connection (opened once per connection, by its snapshot), or null when the market has none. */
export function imageIndex(db: Database): VectorIndex | null {
  return snapshotOf(db).vectorIndex(IMAGE_INDEX);
}

function requireIndex(snapshot: MarketSnapshot): VectorIndex {
  const index = snapshot.vectorIndex(IMAGE_INDEX);
  if (!index) throw new HttpError(503, "This market has no image index yet: seed it, or re-run the import, to embed its images");
  return index;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
/** A hit's score as the response writes it: cosine similarity, clamped to [−1, 1], 6 decimals. */
const shownScore = (score: number) => round6(Math.max(-1, Math.min(1, score)));

/** Hits as response rows with their artworks (in hit order; a hit the market lacks is skipped). */
function results(deps: AppDeps, view: CallerView, hits: readonly Hit[]): { score: number; artwork: Record<string, unknown> }[] {
  const artworks = new Map(
    artworksByIds(
      deps,
      view,
      hits.map((h) => h.id),
    ).map((a) => [a.id as number, a]),
  );
  return hits.flatMap((h) => {
    const artwork = artworks.get(h.id);
    return artwork ? [{ score: shownScore(h.score), artwork }] : [];
  });
}

// ---------------------------------------------------------------- similar

/**
 * The `limit` artworks whose images are nearest to the artwork's own, itself left out. 404 for an
 * unknown artwork; an artwork without an image has no neighbours (empty results).
 */
export function similarArtworks(deps: AppDeps, view: CallerView, artworkId: number, limit: number) {
  const known = deps.market.query<{ id: number }, [number]>("SELECT id FROM artworks WHERE id = ?").get(artworkId);
  if (!known) throw notFound(`Artwork ${artworkId} not found`);
  const index = requireIndex(deps.snapshot);
  const vector = index.vectorOf(artworkId);
  if (!vector) return { artwork_id: artworkId, results: [] };
  return { artwork_id: artworkId, results: results(deps, view, index.search(vector, limit, { exclude: [artworkId] })) };
}

// ---------------------------------------------------------------- search by image

export interface SearchInput {
  limit: number;
  minScore?: number;
  exclude: readonly number[];
  /** The parsed query string: the pool filters (and without_editions). */
  pool: ParsedList;
}

/** The collectable anchor's vector: 404 when the caller has no such collectable, 422 when it has no image. */
export function collectableAnchor(deps: AppDeps, userId: number, collectableId: number, loc: (string | number)[]): Float32Array {
  const vector = deps.accounts.collectableEmbedding(userId, collectableId);
  if (vector === undefined) throw notFound(`Collectable ${collectableId} not found`);
  if (vector === null || vector.length !== IMAGE_INDEX.dims) {
    throw new ValidationFailed([
      issue.custom(loc, collectableId, `Collectable ${collectableId} has no image to search with; upload one first`, "value_error", { collectable_id: collectableId }),
    ]);
  }
  return vector;
}

/** The pool filters of a parsed query: those the index applies while scanning, and whether any other remains. */
function poolOf(q: ParsedList): { filter: NonNullable<SearchOptions["filter"]>; sqlFilters: Filter[]; other: boolean } {
  const filter: Record<string, number[]> = {};
  const sqlFilters = q.filters.filter((f) => f.field in POOL_FIELDS);
  let other = q.params.without_editions === true;
  for (const f of sqlFilters) {
    if ((INDEX_FILTERS as readonly string[]).includes(f.field) && (f.suffix === "" || f.suffix === "__in")) {
      const values = f.suffix === "__in" ? (f.value as number[]) : [f.value as number];
      // two filters on one column (artist_id and artist_id__in) keep the values both allow
      filter[f.field] = filter[f.field] ? filter[f.field]!.filter((v) => values.includes(v)) : [...values];
    } else other = true;
  }
  return { filter, sqlFilters, other };
}

/**
 * The artworks nearest to `query` in the pool, best first: at most `limit`, each scoring at least
 * `minScore`, none of `exclude`.
 */
export function searchByVector(deps: AppDeps, view: CallerView, query: Float32Array, input: SearchInput) {
  const index = requireIndex(deps.snapshot);
  const { limit, minScore, exclude } = input;
  const { filter, sqlFilters, other } = poolOf(input.pool);
  const filtered = sqlFilters.length > 0 || other;
  let hits: Hit[];
  if (!filtered) {
    hits = index.search(query, limit, { exclude });
  } else {
    const where = artworkWhere({ fields: POOL_FIELDS }, resolveMaterials(deps.market, { ...input.pool, filters: sqlFilters }));
    const st = deps.market.prepare<{ id: number }, (string | number | null)[]>(
      `SELECT a.id FROM artworks a WHERE a.image_id IS NOT NULL AND ${where.sql} LIMIT ${SEARCH_TUNING.candidatePool + 1}`,
    );
    let pool: number[];
    try {
      pool = st.all(...(where.params as (string | number | null)[])).map((r) => r.id);
    } finally {
      st.finalize();
    }
    if (pool.length <= SEARCH_TUNING.candidatePool) {
      hits = pool.length ? index.search(query, limit, { candidates: pool, exclude }) : [];
    } else if (!other) {
      hits = index.search(query, limit, { filter, exclude });
    } else {
      hits = deepSearch(deps.market, index, query, limit, { filter, exclude }, where);
    }
  }
  // compared as written in the response: a result shown with the score asked for is kept
  if (minScore !== undefined) hits = hits.filter((h) => shownScore(h.score) >= minScore);
  return { results: results(deps, view, hits) };
}

/** A broad pool with filters the index cannot apply: the index's nearest works, checked against the WHERE in order, deeper until `limit` pass. */
function deepSearch(
  db: Database,
  index: VectorIndex,
  query: Float32Array,
  limit: number,
  options: SearchOptions,
  where: { sql: string; params: (string | number | boolean | null)[] },
): Hit[] {
  const excluded = new Set(options.exclude ?? []);
  let depth = Math.min(MAX_DEPTH - excluded.size, Math.max(4 * limit, 200));
  for (;;) {
    const hits = index.search(query, depth, options);
    const st = db.prepare<{ id: number }, (string | number | boolean | null)[]>(`SELECT a.id FROM artworks a WHERE a.id IN (SELECT value FROM json_each(?)) AND ${where.sql}`);
    let pass: Set<number>;
    try {
      pass = new Set(st.all(JSON.stringify(hits.map((h) => h.id)), ...where.params).map((r) => r.id));
    } finally {
      st.finalize();
    }
    const kept = hits.filter((h) => pass.has(h.id));
    const deeper = Math.min(MAX_DEPTH - excluded.size, depth * 4);
    if (kept.length >= limit || hits.length < depth || deeper <= depth) return kept.slice(0, limit);
    depth = deeper;
  }
}
