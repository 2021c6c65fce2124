/**
 * The listening side of `serve`: Bun.serve around the app, with what only a real socket brings.
 * - Request lines up to MAX_REQUEST_HEAD bytes (the runtime's default head limit, 16 KiB, is too
 *   small for a 1,000-value list): a longer URL is a JSON 414. The runtime reads heads up to
 *   RUNTIME_HEAD_LIMIT and answers an empty 431 beyond it, before the app sees the request.
 * - The Host header is validated (400 otherwise) and the app always sees an absolute URL it can
 *   route, whatever the Host (a one-letter Host must not change the path the router finds).
 * - The peer address is recorded for rate limits (src/serve/http/client.ts).
 * - A graceful stop: no new connections, requests in flight finish (up to a timeout), then the
 *   caller closes the databases.
 */
import type { Server } from "bun";
import { isValidHost, setPeerAddress, setPeerSource } from "./client";
import { RESPONSE_HEADERS } from "./endpoint";

/** The longest URL the service reads, in bytes. */
export const MAX_REQUEST_HEAD = 1024 * 1024;
/** The runtime's own limit, above ours so that our JSON answers the requests in between. */
const RUNTIME_HEAD_LIMIT = 16 * MAX_REQUEST_HEAD;
/** The runtime's body limit: above every endpoint's cap (each refuses larger bodies itself, in JSON). */
const RUNTIME_BODY_LIMIT = 1024 * 1024 * 1024;

function json(status: number, detail: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ detail }), { status, headers: { "Content-Type": "application/json", ...RESPONSE_HEADERS, ...headers } });
}

/** Raises the runtime's limit on request heads (process-wide; node:http's setting is Bun's too). */
function raiseHeadLimit(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const http = require("node:http") as { maxHeaderSize: number };
  if (http.maxHeaderSize < RUNTIME_HEAD_LIMIT) http.maxHeaderSize = RUNTIME_HEAD_LIMIT;
}

/**
 * The URL the app is given: scheme, the validated Host, path and query. A host of fewer than four
 * characters gets an explicit port (the default one, or the port zero-padded), which the URL parser
 * drops again: the router reads the path from the fifth character after "//" on.
 */
export function canonicalUrl(raw: string, host: string | null, fallbackHost: string): string | null {
  let path = raw;
  if (/^[a-z]+:\/\//i.test(raw)) {
    const slash = raw.indexOf("/", raw.indexOf("//") + 2);
    path = slash < 0 ? "/" : raw.slice(slash);
  }
  if (!path.startsWith("/")) return null;
  let authority = host ?? fallbackHost;
  if (authority.length < 4) {
    const colon = authority.lastIndexOf(":");
    const hasPort = colon > 0 && !authority.endsWith("]");
    authority = hasPort ? `${authority.slice(0, colon)}:${authority.slice(colon + 1).padStart(4 - colon, "0")}` : `${authority}:80`;
  }
  return `http://${authority}${path}`;
}

export interface Listener {
  readonly server: Server<undefined>;
  readonly port: number;
  /** Requests being handled now. */
  inFlight(): number;
  /** Refuses new connections, lets requests in flight finish for up to `timeoutMs`, then closes every connection. */
  drain(timeoutMs: number): Promise<{ unfinished: number }>;
}

export function listen(handle: (request: Request) => Response | Promise<Response>, options: { port: number; host: string }): Listener {
  raiseHeadLimit();
  let draining = false;
  const fallbackHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  const server: Server<undefined> = Bun.serve({
    port: options.port,
    hostname: options.host,
    development: false,
    maxRequestBodySize: RUNTIME_BODY_LIMIT,
    // not async: the checks run in line and the app's promise is handed back as it is (an async
    // wrapper costs a promise and a microtask per request, about 2 µs of CPU here)
    fetch(request, srv) {
      if (draining) return json(503, "The server is shutting down", { Connection: "close", "Retry-After": "1" });
      const host = request.headers.get("host");
      if (host !== null && !isValidHost(host)) return json(400, "Invalid Host header");
      const raw = request.url;
      const url = canonicalUrl(raw, host, `${fallbackHost}:${srv.port}`);
      if (url === null) return json(400, "Invalid request target");
      if (url.length > MAX_REQUEST_HEAD) return json(414, `URI longer than ${MAX_REQUEST_HEAD} bytes`);
      if (url === raw) return handle(request);
      // a rebuilt request is not the one the server received: its peer is recorded with it
      const req = new Request(url, request);
      setPeerAddress(req, () => srv.requestIP(request)?.address);
      return handle(req);
    },
  });
  setPeerSource(server);
  return {
    server,
    port: server.port!,
    inFlight: () => server.pendingRequests,
    async drain(timeoutMs) {
      draining = true;
      const closed = server.stop(false);
      const deadline = performance.now() + timeoutMs;
      while (server.pendingRequests > 0 && performance.now() < deadline) await Bun.sleep(10);
      const unfinished = server.pendingRequests;
      await Promise.race([server.stop(true), closed, Bun.sleep(1000)]);
      return { unfinished };
    },
  };
}
