/**
 * The snapshot a node hands to the nodes that follow it (issue 33, item 4; the follower:
 * src/serve/cluster/snapshot-follow.ts). Two routes outside /v1, for nodes only:
 * - `GET /snapshot`: `{"id", "size", "sha256", "published_at"}` of the snapshot this server serves;
 * - `GET /snapshot/market.db`: that file, streamed, with HTTP ranges (`Range: bytes=N-`, `If-Range`
 *   with the ETag, which is the SHA-256), so an interrupted transfer resumes where it stopped.
 * Both need `Authorization: Artmarket-Snapshot t=<unix seconds>, sig=<hex>`: an HMAC-SHA256 of
 * `METHOD\nPATH\nt` under a key derived from the image-signing secret (ImageSigner.derivedKey), which
 * the nodes of one PostgreSQL store share (account_meta), within SIGNATURE_WINDOW_S of the server's
 * clock. Anything else is a 401 and never the file.
 *
 * The SHA-256 is computed once per served snapshot by the supervisor (src/serve/cluster/supervisor.ts,
 * streamed), which hands it to every worker: from the first signed request on (a server no node
 * follows never hashes its market.db), then at every swap. Until it is known (a second or so for a
 * small market, about 1 s per GB) the routes answer 503 with Retry-After. The file is served only
 * while the data directory's market.db is the file that was hashed (a file published since, not yet
 * swapped in or refused, gives 503): a download that still catches a rename midway fails the
 * follower's SHA-256 check.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import { marketDbPath } from "../../db/connection";
import { type FileIdentity, fileIdentity, sameFile } from "../../db/snapshot-check";
import type { AppDeps } from "../deps";
import { RESPONSE_HEADERS, SNAPSHOT_HEADER } from "./endpoint";

/** What `GET /snapshot` answers. */
export interface PublishedSnapshot {
  id: string;
  size: number;
  sha256: string;
  /** market.db's modification time, ISO 8601 (the `published_at` of /readyz). */
  published_at: string;
}

/** A published snapshot with the file it was computed from (the supervisor's, handed to the workers). */
export interface PublishedFile extends PublishedSnapshot {
  file: FileIdentity;
}

/** The purpose the routes' key is derived for (ImageSigner.derivedKey). */
export const SNAPSHOT_KEY_PURPOSE = "snapshot-sync";
/** How far a request's time may be from the server's clock, in seconds. */
export const SIGNATURE_WINDOW_S = 300;
const SCHEME = "Artmarket-Snapshot";

/** The Authorization header of a request for `path` (no query) at `now`. */
export function signSnapshotRequest(key: Buffer, method: string, path: string, now = Date.now()): string {
  const t = Math.floor(now / 1000);
  return `${SCHEME} t=${t}, sig=${createHmac("sha256", key).update(`${method}\n${path}\n${t}`).digest("hex")}`;
}

/** Whether `header` signs `method` `path` under `key`, within the window of `now`. */
export function verifySnapshotRequest(key: Buffer, method: string, path: string, header: string | null, now = Date.now()): boolean {
  const m = header ? /^Artmarket-Snapshot t=(\d{1,12}), ?sig=([0-9a-f]{64})$/.exec(header) : null;
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(now / 1000 - t) > SIGNATURE_WINDOW_S) return false;
  const want = createHmac("sha256", key).update(`${method}\n${path}\n${t}`).digest();
  return timingSafeEqual(want, Buffer.from(m[2]!, "hex"));
}

/** `bytes=A-` or `bytes=A-B` of a file of `size` bytes: [start, end] inclusive; null: unsatisfiable; undefined: no (usable) range. */
export function parseRange(header: string | null, size: number): [number, number] | null | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d+)-(\d*)$/.exec(header.trim());
  if (!m) return undefined; // several ranges, suffix ranges: the whole file
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return null;
  return [start, end];
}

export function snapshotRoutes(deps: AppDeps) {
  const key = deps.signer.derivedKey(SNAPSHOT_KEY_PURPOSE);
  const path = marketDbPath(deps.config.dataDir);
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...RESPONSE_HEADERS, ...headers } });
  /** The published snapshot, or the response that refuses the request. */
  const gate = (request: Request): PublishedFile | Response => {
    const url = new URL(request.url);
    if (!verifySnapshotRequest(key, "GET", url.pathname, request.headers.get("authorization")))
      return json(401, { detail: "A node's signed request is required (Authorization: Artmarket-Snapshot)" }, { "WWW-Authenticate": SCHEME });
    const published = deps.control?.published;
    if (!published) return json(404, { detail: "This server publishes no snapshot" });
    const info = published();
    if (!info) return json(503, { detail: "The snapshot's SHA-256 is being computed; retry shortly" }, { "Retry-After": "2" });
    return info;
  };
  return new Elysia()
    .get(
      "/snapshot",
      ({ request }) => {
        const info = gate(request);
        if (info instanceof Response) return info;
        const { id, size, sha256, published_at } = info;
        return json(200, { id, size, sha256, published_at }, { [SNAPSHOT_HEADER]: id });
      },
      { detail: { hide: true } },
    )
    .get(
      "/snapshot/market.db",
      ({ request }) => {
        const info = gate(request);
        if (info instanceof Response) return info;
        if (!sameFile(fileIdentity(path), info.file))
          return json(503, { detail: "A newer market.db is being published here; retry shortly" }, { "Retry-After": "2", [SNAPSHOT_HEADER]: info.id });
        const etag = `"${info.sha256}"`;
        const headers: Record<string, string> = {
          ...RESPONSE_HEADERS,
          "Content-Type": "application/vnd.sqlite3",
          "Cache-Control": "no-store",
          "Accept-Ranges": "bytes",
          ETag: etag,
          [SNAPSHOT_HEADER]: info.id,
        };
        const file = Bun.file(path);
        const ifRange = request.headers.get("if-range");
        const range = ifRange === null || ifRange === etag ? parseRange(request.headers.get("range"), info.size) : undefined;
        if (range === null) return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${info.size}` } });
        if (range === undefined) return new Response(file, { headers: { ...headers, "Content-Length": String(info.size) } });
        const [start, end] = range;
        return new Response(file.slice(start, end + 1), {
          status: 206,
          headers: { ...headers, "Content-Range": `bytes ${start}-${end}/${info.size}`, "Content-Length": String(end - start + 1) },
        });
      },
      { detail: { hide: true } },
    );
}
