/**
 * Validators of market reads. A market read (GET on artists, artworks, lots, sales, charts and the
 * reference lists) carries a weak ETag: W/"<snapshot id>-<digest>", where the snapshot id names the
 * open market.db (its market_meta: seed or import, as-of date, build time) and the digest covers the
 * request (path, query with its parameters sorted, response schema, whether a key was sent) and the
 * body. The body is part of it because a market read's body is not a function of the snapshot and
 * the request alone: full-schema records carry the caller's `is_followed`, and image URLs are signed
 * for the day. So a tag is never reused for other bytes, and `If-None-Match` with it answers 304.
 *
 * Not market reads (no ETag, If-None-Match ignored): the caller's own lists (`…/followed`,
 * `/v1/artworks/recommended`), shares, collectables, usage, plans, healthcheck: what they return
 * changes with the account, not with the snapshot.
 */
import { createHash } from "node:crypto";
import type { MarketSnapshot } from "../snapshot";

const MARKET_PATHS = /^\/v1\/(?:artists|artworks|lots|sales|market|categories|auction-houses|auction-locations|currencies|materials|substrates|surfaces|damages)(?:\/|$)/;
const ACCOUNT_PATHS = /\/(?:followed|recommended|shared|follow)(?:\/|$)/;

/** Whether `method path` (the endpoint's path template) is a market read, which carries an ETag. */
export function isMarketRead(method: string, path: string): boolean {
  return method === "GET" && MARKET_PATHS.test(path) && !ACCOUNT_PATHS.test(path);
}

const ids = new WeakMap<MarketSnapshot, string>();

/**
 * A short, stable name of the snapshot: the first 16 hex digits of SHA-256 over its market_meta
 * (MarketSnapshot.stamp), the same on every node that serves a copy of the same market.db.
 */
export function snapshotId(snapshot: MarketSnapshot): string {
  let id = ids.get(snapshot);
  if (id === undefined) {
    id = createHash("sha256").update(snapshot.stamp()).digest("hex").slice(0, 16);
    ids.set(snapshot, id);
  }
  return id;
}

/** The request as the tag sees it: path and query with its parameters in a fixed order (values of one name keep theirs). */
export function requestKey(url: URL, schema: string, keyed: boolean): string {
  const query = new URLSearchParams(url.searchParams);
  query.sort();
  return `${url.pathname}?${query}\n${schema}\n${keyed ? "key" : "anonymous"}`;
}

/** The weak ETag of a market read's body (see the file's comment). */
export function etagOf(snapshot: string, key: string, body: string): string {
  const digest = Bun.hash.wyhash(body, Bun.hash.wyhash(key));
  return `W/"${snapshot}-${digest.toString(16).padStart(16, "0")}"`;
}

/**
 * RFC 9110 §13.1.2: whether an If-None-Match header matches the current tag (weak comparison), so
 * a GET or HEAD answers 304. `*` matches any current representation; a list matches when one of
 * its tags does. A malformed header matches nothing.
 */
export function ifNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const value = header.trim();
  if (value === "*") return true;
  const opaque = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const m of value.matchAll(/(?:W\/)?("[^"]*")/g)) if (m[1] === opaque) return true;
  return false;
}
