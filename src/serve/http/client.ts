/**
 * Who sent a request: the peer address of its connection, recorded by the listening server
 * (`serve`) before the app handles the request. Requests built in-process (tests, benchmarks) have
 * none and count as one local client. With `--trust-proxy`, the first address of
 * `X-Forwarded-For` (the client as the reverse proxy saw it) takes the peer's place.
 */
import { isIP } from "node:net";

const peers = new WeakMap<Request, string | (() => string | null | undefined)>();

/**
 * Records the connection's peer address for `request` (called by the listening server): the
 * address, or a function that finds it, called only when it is needed.
 */
export function setPeerAddress(request: Request, address: string | null | undefined | (() => string | null | undefined)): void {
  if (address) peers.set(request, address);
}

/** The listening server, which knows the peer of each request it received (set by `listen`). */
let source: { requestIP(request: Request): { address: string } | null } | null = null;

/** Tells where requests come from: the server that received them (nothing is stored per request). */
export function setPeerSource(server: { requestIP(request: Request): { address: string } | null } | null): void {
  source = server;
}

function peerOf(request: Request): string | undefined {
  let peer = peers.get(request);
  if (peer === undefined && source) {
    try {
      return source.requestIP(request)?.address ?? undefined;
    } catch {
      return undefined; // a request the server did not receive (built in process)
    }
  }
  if (typeof peer === "function") {
    peer = peer() ?? undefined;
    if (peer) peers.set(request, peer);
    else peers.delete(request);
  }
  return peer;
}

/** The address rate limits and logs attribute `request` to. */
export function clientAddressOf(request: Request, trustProxy = false): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const first = forwarded?.split(",")[0]?.trim();
    if (first && isIP(first)) return first;
  }
  return peerOf(request) ?? "local";
}

/**
 * A Host header (or X-Forwarded-Host) fit to be written into a URL: a DNS name, an IPv4 address or
 * a bracketed IPv6 address, with an optional port; nothing else (no path, userinfo, spaces, quotes).
 */
export function isValidHost(host: string): boolean {
  const known = hostVerdicts.get(host);
  if (known !== undefined) return known;
  const verdict = checkHost(host);
  if (hostVerdicts.size >= 1024) hostVerdicts.clear();
  hostVerdicts.set(host, verdict);
  return verdict;
}

/** Verdicts on the Host values seen lately (a server sees few distinct ones). */
const hostVerdicts = new Map<string, boolean>();

function checkHost(host: string): boolean {
  if (host.length === 0 || host.length > 261) return false;
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,253}[A-Za-z0-9_])?|[A-Za-z0-9])(?::(\d{1,5}))?$/.exec(host);
  if (!m) return false;
  if (m[1]!.startsWith("[") && isIP(m[1]!.slice(1, -1)) !== 6) return false;
  if (m[2] !== undefined && Number(m[2]) > 65535) return false;
  if (m[1]!.includes("..")) return false;
  // what the URL parser refuses (a last label that reads as a number but is no IPv4 address:
  // a.0, 1.2.3.999) is no host either
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The scheme and host a response's URLs are written with when no --public-url is set: with
 * --trust-proxy, the reverse proxy's X-Forwarded-Proto and X-Forwarded-Host (each validated;
 * either may be absent), else the request's own (its Host was validated by the server).
 */
export function requestOrigin(request: Request, url: URL, trustProxy = false): string {
  if (!trustProxy) return url.origin;
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const scheme = proto === "http" || proto === "https" ? proto : url.protocol.slice(0, -1);
  return `${scheme}://${host && isValidHost(host) ? host : url.host}`;
}
