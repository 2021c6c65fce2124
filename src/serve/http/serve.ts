/**
 * The listening side of `serve`: Bun.serve around the app, with what only a real socket brings.
 * - URLs up to MAX_REQUEST_HEAD bytes (the runtime's default head limit, 16 KiB, is too small for
 *   a 1,000-value list): a longer URL is a JSON 414. Header fields (the request line apart) up to
 *   MAX_HEADER_BYTES in all: beyond, a JSON 431. The runtime buffers a head (request line and
 *   header fields together) up to RUNTIME_HEAD_LIMIT, the sum of both plus room for the request
 *   line, and answers an empty 431 beyond it (or beyond 198 header fields) before the app sees
 *   the request: so a connection holds at most about 1.1 MiB of head.
 * - The Host header is validated (400 otherwise) and the app always sees an absolute URL it can
 *   route, whatever the Host (a one-letter Host must not change the path the router finds).
 * - The peer address is recorded for rate limits (src/serve/http/client.ts).
 * - Every response carries X-Request-Id: the client's, when it sends a safe one, else a new one.
 * - A graceful stop: no new connections, requests in flight finish (up to a timeout), then the
 *   caller closes the databases.
 * - Each answered request is handed to `onAnswered` (the access log and the metrics), with its id
 *   and the time it took.
 * - Several workers listen on one port with `reusePort` (src/serve/cluster): the kernel spreads
 *   the connections over them.
 */
import type { Server } from "bun";
import { threadId } from "node:worker_threads";
import { isValidHost, setPeerAddress, setPeerSource } from "./client";
import { streamedBytes } from "./compression";
import { RESPONSE_HEADERS } from "./endpoint";

/** The longest URL the service reads, in bytes. */
export const MAX_REQUEST_HEAD = 1024 * 1024;
/** The header fields of a request (names, values, ": " and CRLF each; the request line apart), in bytes. */
export const MAX_HEADER_BYTES = 64 * 1024;
/**
 * The runtime's limit on a whole head, request line included: a URL and header fields each at our
 * limit fit (with 1 KiB for the method, the version and the CRLFs), so that our JSON 414 and 431
 * answer them; a head the runtime refuses (an empty 431) is over one of our limits anyway.
 */
export const RUNTIME_HEAD_LIMIT = MAX_REQUEST_HEAD + MAX_HEADER_BYTES + 1024;
/** The runtime's body limit: above every endpoint's cap (each refuses larger bodies itself, in JSON). */
const RUNTIME_BODY_LIMIT = 1024 * 1024 * 1024;

/** A client's X-Request-Id is kept when it is 1 to 128 characters of this set; else a new one is made. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const BOOT = Date.now().toString(36);
let sequence = 0;

/** This thread's prefix of new ids: boot time, process and worker thread. */
const PREFIX = `${BOOT}-${process.pid.toString(36)}-${threadId.toString(36)}`;

/** The request's id: the client's when it is safe, else this thread's next (boot time, process, thread, sequence). */
export function requestId(sent: string | null): string {
  return sent !== null && SAFE_REQUEST_ID.test(sent) ? sent : `${PREFIX}-${(++sequence).toString(36)}`;
}

function withId(res: Response, id: string, close = false): Response {
  try {
    res.headers.set("X-Request-Id", id);
    if (close) res.headers.set("Connection", "close");
    return res;
  } catch {
    // immutable headers (a Response.redirect, a fetched body): a copy carries the id
    const copy = new Response(res.body, res);
    copy.headers.set("X-Request-Id", id);
    if (close) copy.headers.set("Connection", "close");
    return copy;
  }
}

/** The body's bytes as the response states them: its Content-Length (a streamed one's size), 0 when it has none to send; else undefined. */
function statedBytes(req: Request, res: Response): number | undefined {
  if (req.method === "HEAD" || res.status === 204 || res.status === 304) return 0;
  const length = res.headers.get("content-length");
  return length === null ? streamedBytes(res) : Number(length);
}

function json(status: number, detail: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ detail }), { status, headers: { "Content-Type": "application/json", ...RESPONSE_HEADERS, ...headers } });
}

/** Sets the runtime's limit on request heads (process-wide; node:http's setting is Bun's too). */
function raiseHeadLimit(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const http = require("node:http") as { maxHeaderSize: number };
  if (http.maxHeaderSize !== RUNTIME_HEAD_LIMIT) http.maxHeaderSize = RUNTIME_HEAD_LIMIT;
}

/** The bytes of a request's header fields as sent: `name: value` and CRLF each (repeated fields are joined, a few bytes fewer). */
export function headerBytes(headers: Headers): number {
  let bytes = 0;
  headers.forEach((value, name) => {
    bytes += name.length + value.length + 4;
  });
  return bytes;
}

/**
 * The URL the app is given: scheme, the validated Host, path and query. A host of fewer than four
 * characters gets an explicit port (the default one, or the port zero-padded), which the URL parser
 * drops again: the router reads the path from the fifth character after "//" on.
 */
export function canonicalUrl(raw: string, host: string | null, fallbackHost: string): string | null {
  // the usual request: already http://<Host>/path, nothing to build
  if (host !== null && host.length >= 4 && raw.startsWith("http://") && raw.startsWith(host, 7) && raw.charCodeAt(7 + host.length) === 47) return raw;
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

export interface ListenOptions {
  port: number;
  host: string;
  /** Share the port with other listeners that set it too (the workers of one server). */
  reusePort?: boolean;
  /** Requests in flight across the server's listeners: element 1, updated with Atomics. */
  inFlight?: Int32Array;
  /**
   * Called once per answered request, with its id, when it arrived (performance.now()) and the
   * body's bytes as sent (null unless `measureBodies`): the Content-Length it states, 0 for HEAD,
   * 204 and 304, else the body is measured (turned into a Blob, which the runtime sends as it is).
   */
  onAnswered?: (request: Request, response: Response, id: string, started: number, bytes: number | null) => void;
  /** Give `onAnswered` the body's bytes (the access log). */
  measureBodies?: boolean;
  /** While true (the server drains), every response carries `Connection: close`. */
  draining?: () => boolean;
}

export function listen(handle: (request: Request) => Response | Promise<Response>, options: ListenOptions): Listener {
  raiseHeadLimit();
  const onAnswered = options.onAnswered;
  const counter = options.inFlight;
  const measure = options.measureBodies ?? false;
  const closing = options.draining;
  let draining = false;
  const report = (req: Request, out: Response, id: string, started: number, bytes: number | null): void => {
    try {
      onAnswered!(req, out, id, started, bytes);
    } catch {
      // the log and the metrics never fail a response
    }
  };
  const answered = (req: Request, res: Response, id: string, started: number): Response | Promise<Response> => {
    if (counter) Atomics.sub(counter, 1, 1);
    // once the server drains, each connection closes after its response (never reset under a request)
    const out = withId(res, id, draining || (closing?.() ?? false));
    if (!onAnswered) return out;
    const stated = measure ? statedBytes(req, out) : null;
    if (stated !== undefined) {
      report(req, out, id, started, stated);
      return out;
    }
    return out.blob().then(
      (blob) => {
        const sized = new Response(blob, out);
        report(req, sized, id, started, blob.size);
        return sized;
      },
      () => {
        report(req, out, id, started, null);
        return out;
      },
    );
  };
  const fallbackHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  // host:port for a request without a Host header, made once: reading the server's port is a
  // getsockname() system call each time
  let fallbackAuthority: string | null = null;
  const server: Server<undefined> = Bun.serve({
    port: options.port,
    hostname: options.host,
    reusePort: options.reusePort ?? false,
    development: false,
    maxRequestBodySize: RUNTIME_BODY_LIMIT,
    // not async: the checks run in line and the app's promise is handed back as it is (an async
    // wrapper costs a promise and a microtask per request, about 2 µs of CPU here)
    fetch(request, srv) {
      const started = performance.now();
      if (counter) Atomics.add(counter, 1, 1);
      const id = requestId(request.headers.get("x-request-id"));
      if (headerBytes(request.headers) > MAX_HEADER_BYTES) {
        return answered(request, json(431, `Request header fields larger than ${MAX_HEADER_BYTES} bytes in all`, { Connection: "close" }), id, started);
      }
      if (draining) return answered(request, json(503, "The server is shutting down", { Connection: "close", "Retry-After": "1" }), id, started);
      const host = request.headers.get("host");
      if (host !== null && !isValidHost(host)) return answered(request, json(400, "Invalid Host header"), id, started);
      const raw = request.url;
      fallbackAuthority ??= `${fallbackHost}:${srv.port}`;
      const url = canonicalUrl(raw, host, fallbackAuthority);
      if (url === null) return answered(request, json(400, "Invalid request target"), id, started);
      if (url.length > MAX_REQUEST_HEAD) return answered(request, json(414, `URI longer than ${MAX_REQUEST_HEAD} bytes`), id, started);
      let req = request;
      if (url !== raw) {
        // a rebuilt request is not the one the server received: its peer is recorded with it
        req = new Request(url, request);
        setPeerAddress(req, () => srv.requestIP(request)?.address);
      }
      const res = handle(req);
      return res instanceof Response ? answered(req, res, id, started) : res.then((r) => answered(req, r, id, started));
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
