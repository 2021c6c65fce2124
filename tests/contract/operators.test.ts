/**
 * What an operator sees of a running `serve`: the start-up lines (where to go next), the JSON log
 * stream (every stderr line one object; the access log's `bytes` and `client`), the process_*
 * metrics, and a graceful stop with `--drain-delay` that never resets a keep-alive request.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { artmarketCommand } from "../helpers/cli";
import { STREAM_BYTES } from "../../src/serve/http/endpoint";

const ARTMARKET = await artmarketCommand();

interface Serve {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  port: number;
  /** The stdout lines printed so far. */
  stdout: () => string[];
  /** What stderr held so far. */
  stderr: () => string;
  /** When the process was started (Unix seconds). */
  spawnedAt: number;
}

/** Starts `serve` with `args`, reading stdout and stderr as they come; resolves once stdout holds `lines` lines. */
async function startServe(dataDir: string, args: string[], lines = 3): Promise<Serve> {
  const spawnedAt = Date.now() / 1000;
  const proc = Bun.spawn([...ARTMARKET, "serve", "--data", dataDir, "--port", "0", ...args], { stdout: "pipe", stderr: "pipe" });
  let out = "";
  let err = "";
  const pump = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const outDone = pump(proc.stdout, (t) => (out += t));
  void pump(proc.stderr, (t) => (err += t));
  while (out.split("\n").length <= lines) {
    if (proc.exitCode !== null) throw new Error(`serve exited: ${err}`);
    await Promise.race([Bun.sleep(20), outDone]);
  }
  const url = out.split("\n")[0]!.replace("listening on ", "");
  return { proc, url, port: Number(new URL(url).port), stdout: () => out.split("\n").filter((l) => l !== ""), stderr: () => err, spawnedAt };
}

let dataDir: string;

beforeAll(async () => {
  dataDir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
}, 120_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("serve with --log-format json", () => {
  let s: Serve;
  let exitCode: number;
  const bodies: { path: string; length: number; id: string }[] = [];
  const metered: { encoding: string; status: number; length: number; chunked: string | null; contentLength: string | null }[] = [];
  let metrics = "";

  beforeAll(async () => {
    s = await startServe(dataDir, ["--workers", "2", "--log-format", "json", "--drain-delay", "0"], 5);
    const paths = ["/healthcheck", "/readyz", "/openapi.json", "/docs", "/v1/no-such-route", "/v1/artists"];
    for (const path of paths) {
      // identity and compressed bodies alike: bytes is what came over the wire
      for (const encoding of ["identity", "gzip"]) {
        const res = await fetch(`${s.url}${path}`, { headers: { "Accept-Encoding": encoding }, decompress: false } as RequestInit);
        const body = new Uint8Array(await res.arrayBuffer());
        bodies.push({ path, length: body.byteLength, id: res.headers.get("x-request-id")! });
      }
    }
    // a metered list over STREAM_BYTES (the first start's key): streamed as it is, not when compressed
    const key = s.stdout().find((l) => /^am_\S+$/.test(l))!;
    for (const encoding of ["identity", "gzip"]) {
      const res = await fetch(`${s.url}/v1/artists?limit=20`, { headers: { Authorization: `Bearer ${key}`, "Accept-Encoding": encoding }, decompress: false } as RequestInit);
      const body = new Uint8Array(await res.arrayBuffer());
      bodies.push({ path: `/v1/artists?limit=20 ${encoding}`, length: body.byteLength, id: res.headers.get("x-request-id")! });
      metered.push({ encoding, status: res.status, length: body.byteLength, chunked: res.headers.get("transfer-encoding"), contentLength: res.headers.get("content-length") });
    }
    const head = await fetch(`${s.url}/healthcheck`, { method: "HEAD" });
    bodies.push({ path: "/healthcheck", length: 0, id: head.headers.get("x-request-id")! });
    metrics = await (await fetch(`${s.url}/metrics`)).text();
    s.proc.kill("SIGTERM");
    exitCode = await s.proc.exited;
  }, 120_000);

  test("the start-up lines: listening first, then the console and the docs", () => {
    const lines = s.stdout();
    expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toBe(`console: ${s.url}/console`);
    expect(lines[2]).toBe(`docs: ${s.url}/docs`);
    // the first start's key follows
    expect(lines.some((l) => /^am_\S+$/.test(l))).toBe(true);
  });

  test("every stderr line is one JSON object, the server's messages included", () => {
    expect(exitCode).toBe(0);
    const lines = s
      .stderr()
      .split("\n")
      .filter((l) => l !== "");
    expect(lines.length).toBeGreaterThan(bodies.length);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of records) expect(typeof r).toBe("object");
    const messages = records.filter((r) => r.level !== undefined).map((r) => r.msg);
    expect(messages.some((m) => String(m).startsWith("SIGTERM: stopping; 0 request(s) in flight"))).toBe(true);
    expect(messages).toContain("stopped");
  });

  test("the access log's bytes is the body as received, client the peer's address", () => {
    const records = s
      .stderr()
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const b of bodies) {
      const line = records.find((r) => r.request_id === b.id);
      expect(line, b.path).toBeDefined();
      expect(line!.bytes, `${b.path} ${b.id}`).toBe(b.length);
      expect(line!.client).toBe("127.0.0.1");
    }
    // a compressed body logs its encoded size, smaller than the identity one
    const openapi = bodies.filter((b) => b.path === "/openapi.json");
    expect(openapi[1]!.length).toBeLessThan(openapi[0]!.length);
  });

  test("a metered body over STREAM_BYTES goes chunked; compressed under it, with its Content-Length", () => {
    const [identity, gzip] = metered;
    expect(identity).toMatchObject({ encoding: "identity", status: 200, chunked: "chunked", contentLength: null });
    expect(identity!.length).toBeGreaterThan(STREAM_BYTES);
    expect(gzip).toMatchObject({ encoding: "gzip", status: 200, chunked: null, contentLength: String(gzip!.length) });
    expect(gzip!.length).toBeLessThan(STREAM_BYTES);
  });

  test("/metrics has the standard process metrics, with plausible values", () => {
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(metrics)?.[1]);
    expect(metrics).toContain("# TYPE process_resident_memory_bytes gauge");
    expect(metrics).toContain("# TYPE process_cpu_seconds_total counter");
    expect(metrics).toContain("# TYPE process_start_time_seconds gauge");
    expect(metrics).toContain("# TYPE process_open_fds gauge");
    expect(metrics).toMatch(/^# HELP process_open_fds \S/m);
    // a server with its market open and two workers holds tens of MB
    expect(value("process_resident_memory_bytes")).toBeGreaterThan(10 * 1024 * 1024);
    expect(value("process_resident_memory_bytes")).toBeLessThan(8 * 1024 ** 3);
    expect(value("process_cpu_seconds_total")).toBeGreaterThan(0);
    // started after this test spawned it (a second of slack for the clock's rounding) and before the scrape
    expect(value("process_start_time_seconds")).toBeGreaterThan(s.spawnedAt - 1);
    expect(value("process_start_time_seconds")).toBeLessThan(Date.now() / 1000);
    // stdio, the listening socket, market.db and account.db at least
    expect(value("process_open_fds")).toBeGreaterThan(3);
  });
});

test("--public-url: the start-up lines point there", async () => {
  const dir = tempDataDir();
  try {
    copyFileSync(join(dataDir, "market.db"), join(dir, "market.db"));
    const s = await startServe(dir, ["--workers", "1", "--log-format", "off", "--public-url", "https://api.example.com/", "--drain-delay", "0"]);
    const lines = s.stdout();
    expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.slice(1, 3)).toEqual(["console: https://api.example.com/console", "docs: https://api.example.com/docs"]);
    s.proc.kill("SIGTERM");
    expect(await s.proc.exited).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

/** One answered request of a client loop. */
interface Answer {
  path: string;
  sentAt: number;
  status: number;
  close: boolean;
}

/** Reads one HTTP/1.1 response (its head and a Content-Length body) from `socket`; rejects when the socket ends or fails first. */
function readResponse(socket: Socket, buffered: { data: Buffer }): Promise<{ status: number; close: boolean }> {
  return new Promise((resolve, reject) => {
    const tryParse = () => {
      const end = buffered.data.indexOf("\r\n\r\n");
      if (end < 0) return false;
      const head = buffered.data.subarray(0, end).toString("latin1");
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.data.length < end + 4 + length) return false;
      buffered.data = buffered.data.subarray(end + 4 + length);
      cleanup();
      resolve({ status: Number(head.split(" ")[1]), close: /\r\nconnection: *close/i.test(head) });
      return true;
    };
    const onData = (chunk: Buffer) => {
      buffered.data = Buffer.concat([buffered.data, chunk]);
      tryParse();
    };
    const onEnd = () => {
      cleanup();
      reject(new Error("connection ended before the response"));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("close", onEnd);
      socket.off("error", onError);
    };
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("close", onEnd);
    socket.on("error", onError);
    tryParse();
  });
}

/** Opens a connection; null when it is refused. */
function open(port: number): Promise<Socket | null> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => (err.code === "ECONNREFUSED" ? resolve(null) : reject(err)));
  });
}

/**
 * A client behind a load balancer: it sends requests one after another on a kept-alive
 * connection, opening another when the server closes it, until `stopOpening()` (the balancer has
 * taken the node out) or a connection is refused. Every request sent must be answered.
 */
async function clientLoop(port: number, answers: Answer[], failures: string[], stopOpening: () => boolean): Promise<void> {
  let n = 0;
  while (!stopOpening()) {
    const socket = await open(port);
    if (socket === null) return; // refused before anything was sent: the server stopped accepting
    const buffered = { data: Buffer.alloc(0) };
    for (;;) {
      const path = n++ % 4 === 0 ? "/readyz" : "/healthcheck";
      const sentAt = performance.now();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      let answer: { status: number; close: boolean };
      try {
        answer = await readResponse(socket, buffered);
      } catch (err) {
        failures.push(`${path} sent at ${Math.round(sentAt)}: ${(err as Error).message}`);
        socket.destroy();
        break;
      }
      answers.push({ path, sentAt, ...answer });
      if (answer.close) {
        socket.end();
        break;
      }
    }
  }
}

test("SIGTERM with --drain-delay: /readyz 503 at once, requests served with Connection: close, none reset", async () => {
  const dir = tempDataDir();
  try {
    copyFileSync(join(dataDir, "market.db"), join(dir, "market.db"));
    const delayS = 1;
    const s = await startServe(dir, ["--workers", "2", "--log-format", "off", "--drain-delay", String(delayS)]);
    const answers: Answer[] = [];
    const failures: string[] = [];
    let killedAt = Number.POSITIVE_INFINITY;
    // new connections until 300 ms before the delay ends (a balancer has taken the node out by then)
    const stopOpening = () => performance.now() > killedAt + delayS * 1000 - 300;
    const loops = Array.from({ length: 6 }, () => clientLoop(s.port, answers, failures, stopOpening));
    await Bun.sleep(400);
    const before = answers.length;
    killedAt = performance.now();
    s.proc.kill("SIGTERM");
    await Promise.all(loops);
    // the delay over, a new connection is refused
    await Bun.sleep(Math.max(0, killedAt + delayS * 1000 + 500 - performance.now()));
    const late = await open(s.port);
    late?.destroy();
    expect(late).toBeNull();
    expect(await s.proc.exited).toBe(0);
    expect(failures).toEqual([]);
    expect(before).toBeGreaterThan(10);
    // sent well before the signal: ready, kept alive
    const early = answers.filter((a) => a.sentAt < killedAt - 50);
    expect(early.filter((a) => a.path === "/readyz").every((a) => a.status === 200)).toBe(true);
    expect(early.every((a) => !a.close)).toBe(true);
    // during the delay (the signal's arrival and the end of the delay given 200 ms each)
    const during = answers.filter((a) => a.sentAt > killedAt + 200 && a.sentAt < killedAt + delayS * 1000 - 200);
    expect(during.filter((a) => a.path === "/readyz").length).toBeGreaterThan(0);
    expect(during.filter((a) => a.path === "/healthcheck").length).toBeGreaterThan(0);
    for (const a of during) expect([a.path, a.status, a.close]).toEqual([a.path, a.path === "/readyz" ? 503 : 200, true]);
    // after the signal every response closes its connection
    const after = answers.filter((a) => a.sentAt > killedAt + 200);
    expect(after.every((a) => a.close)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
