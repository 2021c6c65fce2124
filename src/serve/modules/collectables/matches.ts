/**
 * Suggested matches: the market artworks a collectable's image looks like so closely that it is
 * probably that very work (a photo or copy of its catalogue picture), offered so the owner can
 * link it in one step (PATCH suggested_artwork_id). Never linked automatically.
 *
 * Only a collectable with an image embedding and no suggested_artwork_id has any. They are found on
 * read against the current market's image index (so a rebuilt market answers with its own works)
 * and kept per snapshot in memory, by image: the vector search runs once per image and snapshot in
 * each worker, later reads only look the artworks' titles up. Nothing is stored in the account
 * store.
 *
 * The rule (MATCH_RULE): of the market's nearest artworks, best first, the first n (n ≤ 3) are
 * matches when the n-th scores at least 0.975 (cosine similarity) and at least 0.01 more than the
 * next one: the match must stand clear of the rest. A bare threshold does not do: the embedding
 * (docs/vectors.md) is built to place an artist's works together, and a new work drawn by a market
 * artist's painter scores up to 0.989 against that artist's nearest catalogue work. Measured on the
 * tiny market (docs/api-collectables.md, "Suggested matches"): the renditions the service serves
 * (240, 480 and 1200 px) of 103 works each found their work first (lowest score 0.978), while 7
 * of 103 new works of the same artists got a wrong suggestion; a threshold of 0.9 alone would
 * have suggested a wrong work for 195 of 205. Several matches come back when several works look
 * the same (copies of an edition sharing one picture).
 */
import type { Database } from "bun:sqlite";
import { toVector } from "../../../db/collectables";
import { IMAGE_INDEX } from "../../../images/indexes";
import type { Hit } from "../../../images/vector-index";
import type { CollectableRow } from "../../accounts/store";
import type { AppDeps } from "../../deps";
import { type MarketSnapshot, snapshotOf } from "../../snapshot";
import { marks } from "../../../db/sql";
import { marketAll } from "./checks";

export const MATCH_RULE = {
  /** Least cosine similarity of a match. */
  minScore: 0.975,
  /** How far a match must score above the next artwork that is not one. */
  margin: 0.01,
  /** Most matches returned. */
  max: 3,
} as const;

/** Images whose matches a snapshot keeps (least recently used first out). */
const CACHE_SIZE = 10_000;
const caches = new WeakMap<MarketSnapshot, Map<string, readonly Hit[]>>();

export interface SuggestedMatch {
  artwork_id: number;
  score: number;
  title: string;
  artist_id: number;
  artist_name: string | null;
}

const round6 = (x: number) => Math.round(Math.max(-1, Math.min(1, x)) * 1e6) / 1e6;

/** The matches among `hits` (the nearest artworks, best first, MATCH_RULE.max + 1 of them when the market has as many). */
export function closeMatches(hits: readonly Hit[]): Hit[] {
  for (let n = Math.min(MATCH_RULE.max, hits.length); n >= 1; n--) {
    const score = hits[n - 1]!.score;
    const next = hits[n]?.score;
    if (score >= MATCH_RULE.minScore && (next === undefined || score - next >= MATCH_RULE.margin)) return hits.slice(0, n);
  }
  return [];
}

/** What identifies a row's image for the cache: the upload's key, or the market image it was seeded with. */
function imageIdentity(r: CollectableRow): string | null {
  if (r.image_kind === "upload" && r.image_key) return `u:${r.image_key}`;
  if (r.image_kind === "artwork" && r.image_market_id !== null) return `m:${r.image_market_id}`;
  return null;
}

function matchHits(market: Database, r: CollectableRow): readonly Hit[] {
  if (r.suggested_artwork_id !== null || !r.embedding) return [];
  const snapshot = snapshotOf(market);
  const index = snapshot.vectorIndex(IMAGE_INDEX);
  if (!index) return [];
  const key = imageIdentity(r);
  let cache = caches.get(snapshot);
  if (!cache) caches.set(snapshot, (cache = new Map()));
  if (key !== null) {
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
  }
  const vector = toVector(r.embedding);
  if (vector.length !== IMAGE_INDEX.dims) return [];
  const found = closeMatches(index.search(vector, MATCH_RULE.max + 1));
  if (key !== null) {
    cache.set(key, found);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return found;
}

/** The suggested matches of each row by collectable id ([] for a linked row, one without image, or no close match). */
export function suggestedMatches(deps: AppDeps, rows: readonly CollectableRow[]): Map<number, SuggestedMatch[]> {
  const hits = new Map(rows.map((r) => [r.id, matchHits(deps.market, r)] as const));
  const ids = [...new Set([...hits.values()].flatMap((h) => h.map((x) => x.id)))];
  const works = new Map(
    ids.length
      ? marketAll<{ id: number; title: string; artist_id: number; artist_name: string | null }>(
          deps.market,
          `SELECT a.id, a.title, a.artist_id, ar.name AS artist_name FROM artworks a LEFT JOIN artists ar ON ar.id = a.artist_id WHERE a.id IN (${marks(ids.length)})`,
          ...ids,
        ).map((w) => [w.id, w])
      : [],
  );
  const out = new Map<number, SuggestedMatch[]>();
  for (const [id, list] of hits) {
    out.set(
      id,
      list.flatMap((h) => {
        const w = works.get(h.id);
        return w ? [{ artwork_id: h.id, score: round6(h.score), title: w.title, artist_id: w.artist_id, artist_name: w.artist_name }] : [];
      }),
    );
  }
  return out;
}
