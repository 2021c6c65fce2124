/**
 * A collectable's comp set: market artworks the owner compares it with, in the order given, each
 * with its similarity to the collectable's image and whether the artwork is by the comp's artist.
 */
import { toVector } from "../../../db/collectables";
import { type CollectableRow } from "../../accounts/store";
import type { AppDeps } from "../../deps";
import { issue, type ValidationIssue } from "../../http/errors";
import { marks } from "../../../db/sql";
import { fail, iso, marketAll, missingIds } from "./checks";
import { cosine, imageIndex } from "./images";
import { marketNames, ownCollectable } from "./presentation";

export interface CompIn {
  artist_id: number;
  artwork_id: number;
  weight?: number;
}

/** The collectable's embedding: its own (stored), else its suggested artwork's image vector. */
function collectableVector(deps: AppDeps, row: CollectableRow): Float32Array | null {
  if (row.embedding) return toVector(row.embedding);
  if (row.suggested_artwork_id != null) return imageIndex(deps.market)?.vectorOf(row.suggested_artwork_id) ?? null;
  return null;
}

function presentComps(deps: AppDeps, userId: number, row: CollectableRow) {
  const store = deps.accounts;
  const updatedAt = store.compSetUpdatedAt(userId, row.id);
  if (updatedAt === null) return { comps: [], updated_at: null };
  const comps = store.comps(userId, row.id);
  const artworkIds = comps.map((c) => c.artwork_id);
  const artworks = new Map(
    artworkIds.length
      ? marketAll<{ id: number; title: string; artist_id: number }>(
          deps.market,
          `SELECT id, title, artist_id FROM artworks WHERE id IN (${marks(artworkIds.length)})`,
          ...artworkIds,
        ).map((a) => [a.id, a])
      : [],
  );
  const artists = marketNames(
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
    updated_at: iso(updatedAt),
  };
}

export function getComps(deps: AppDeps, userId: number, id: number) {
  return presentComps(deps, userId, ownCollectable(deps, userId, id));
}

export function replaceComps(deps: AppDeps, userId: number, id: number, comps: CompIn[]) {
  const row = ownCollectable(deps, userId, id);
  const issues: ValidationIssue[] = [];
  const ids = comps.map((c) => c.artwork_id);
  const found = new Map(
    ids.length
      ? marketAll<{ id: number; artist_id: number }>(deps.market, `SELECT id, artist_id FROM artworks WHERE id IN (${marks(new Set(ids).size)})`, ...new Set(ids)).map((a) => [
          a.id,
          a,
        ])
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
  deps.accounts.replaceComps(
    userId,
    id,
    comps.map((c) => ({ artist_id: c.artist_id, artwork_id: c.artwork_id, weight: c.weight ?? 1 })),
    Date.now(),
  );
  return presentComps(deps, userId, row);
}
