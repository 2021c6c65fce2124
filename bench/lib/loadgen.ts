/**
 * The fallback load generator, used when wrk is not installed: N concurrent keep-alive
 * connections, each a loop of fetch → read body → next, bounded by a deadline and a request
 * count. Requests in flight at the deadline are awaited (not abandoned), so its 200 count is
 * exact. It runs in its own process (runBunLoad spawns this file), never in the server's.
 *
 *   bun bench/lib/loadgen.ts --url URL --connections 32 --seconds 10 --max 2000000 [--header "K: V"]…
 *
 * Prints one JSON LoadResult line on stdout. Slower than wrk: a JS client on the same 2 cores
 * takes CPU from the server, so its absolute figures are lower, but the ratios still hold.
 *
 * Open loop (`--rate R`, runBunOpenLoad; bench/swap): the i-th request is sent at start + i / R
 * whatever the answers' pace (as many connections as requests in flight), and its latency is
 * measured from that scheduled time, so a server that stalls is charged for the requests that
 * waited (no coordinated omission). Every request's record goes to a file (`--record`): four
 * float64 per request, the scheduled time (ms since the epoch), the latency (ms), the status (0:
 * no response, the error counted by kind) and the index of the value of `--record-header` in the
 * result's headerValues (-1: absent). `--start-at` (ms since the epoch) delays the first request.
 */
import { writeFileSync } from "node:fs";
import { DU_HEADER, type LoadOptions, type LoadResult } from "./load";
import { percentileSorted } from "./stats";

async function generate(o: LoadOptions): Promise<LoadResult> {
  const latencies = new Float64Array(Math.min(o.maxRequests, 20_000_000));
  let started = 0;
  let done = 0;
  let ok = 0;
  let non2xx = 0;
  let withDu = 0;
  let errors = 0;
  const duHeader = DU_HEADER.toLowerCase();
  const t0 = performance.now();
  const deadline = t0 + o.seconds * 1000;
  const worker = async (_: unknown, connection: number) => {
    const auths = o.authorizations ?? [];
    const headers = auths.length ? { ...o.headers, Authorization: auths[connection % auths.length]! } : o.headers;
    while (performance.now() < deadline && started < o.maxRequests && errors < 1000) {
      started++;
      const start = performance.now();
      try {
        const res = await fetch(o.url, { headers, keepalive: true });
        await res.arrayBuffer();
        latencies[done++] = performance.now() - start;
        if (res.status === 200) ok++;
        if (res.status >= 400) non2xx++;
        if (res.headers.has(duHeader)) withDu++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: o.connections }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const sorted = latencies.subarray(0, done).sort();
  return {
    tool: "bun",
    requests: done,
    seconds,
    rps: done / seconds,
    p50ms: percentileSorted(sorted, 50),
    p90ms: percentileSorted(sorted, 90),
    p99ms: percentileSorted(sorted, 99),
    ok200: ok,
    non2xx,
    withDu,
    socketErrors: errors,
  };
}

/** An open-loop run: a fixed rate, each request recorded. */
export interface OpenLoadOptions {
  url: string;
  headers: Record<string, string>;
  /** Requests per second, on a fixed schedule. */
  rate: number;
  seconds: number;
  /** The file the per-request records are written to (RECORD_FIELDS float64 per request). */
  record: string;
  /** A response header whose value each record keeps (as an index into headerValues). */
  recordHeader?: string;
  /** A request without its answer after this long is an error ("TimeoutError"). */
  timeoutMs: number;
  /** When to send the first request, ms since the epoch (default: at once). */
  startAt?: number;
}

export interface OpenLoadResult extends LoadResult {
  targetRps: number;
  /** Requests sent (all scheduled ones: the run ends when every one has its answer or error). */
  sent: number;
  /** The first request's scheduled time, ms since the epoch. */
  startedAt: number;
  /** Sends per second over the schedule's span, and the most a send lagged behind its schedule (ms). */
  sentRps: number;
  maxLagMs: number;
  /** Responses per status. */
  statuses: Record<string, number>;
  /** Requests without a response, by error (code or name: ConnectionRefused, ECONNRESET, TimeoutError…). */
  errorKinds: Record<string, number>;
  /** The values of recordHeader seen, in order of first appearance. */
  headerValues: string[];
  record: string;
}

/** Float64 values per request in an open-loop record: scheduled (epoch ms), latency ms, status (0: error), header value index (-1: none). */
export const RECORD_FIELDS = 4;

const epochMs = () => performance.timeOrigin + performance.now();

async function generateOpen(o: OpenLoadOptions): Promise<OpenLoadResult> {
  const total = Math.max(1, Math.floor(o.seconds * o.rate));
  const interval = 1000 / o.rate;
  const rec = new Float64Array(total * RECORD_FIELDS);
  const headerValues: string[] = [];
  const valueIndex = new Map<string, number>();
  const statuses: Record<string, number> = {};
  const errorKinds: Record<string, number> = {};
  const header = o.recordHeader?.toLowerCase();
  const duHeader = DU_HEADER.toLowerCase();
  let sent = 0;
  let inFlight = 0;
  let maxLag = 0;
  let ok = 0;
  let non2xx = 0;
  let withDu = 0;
  let errors = 0;
  let lastDone = 0;
  if (o.startAt !== undefined && o.startAt > epochMs()) await Bun.sleep(o.startAt - epochMs());
  const t0 = performance.now();
  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
  const one = async (i: number, scheduled: number) => {
    inFlight++;
    let status = 0;
    let value = -1;
    try {
      const res = await fetch(o.url, { headers: o.headers, signal: AbortSignal.timeout(o.timeoutMs) });
      await res.arrayBuffer();
      status = res.status;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200) ok++;
      if (status >= 400) non2xx++;
      if (res.headers.has(duHeader)) withDu++;
      const v = header ? res.headers.get(header) : null;
      if (v !== null) {
        value = valueIndex.get(v) ?? -1;
        if (value < 0) {
          value = headerValues.push(v) - 1;
          valueIndex.set(v, value);
        }
      }
    } catch (err) {
      errors++;
      const kind = (err as { code?: string }).code ?? (err as Error).name ?? "error";
      errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
    }
    lastDone = performance.now();
    rec.set([performance.timeOrigin + scheduled, lastDone - scheduled, status, value], i * RECORD_FIELDS);
    inFlight--;
    if (sent === total && inFlight === 0) finish();
  };
  const tick = () => {
    const now = performance.now();
    const due = Math.min(total, Math.floor((now - t0) / interval) + 1);
    for (; sent < due; sent++) {
      const scheduled = t0 + sent * interval;
      maxLag = Math.max(maxLag, now - scheduled);
      void one(sent, scheduled);
    }
    if (sent < total) setTimeout(tick, Math.max(0, t0 + sent * interval - performance.now()));
    else if (inFlight === 0) finish();
  };
  tick();
  await finished;
  writeFileSync(o.record, rec);
  const latencies = new Float64Array(total);
  for (let i = 0; i < total; i++) latencies[i] = rec[i * RECORD_FIELDS + 1]!;
  const sorted = latencies.sort();
  const seconds = (lastDone - t0) / 1000;
  const span = ((total - 1) * interval) / 1000;
  return {
    tool: "bun",
    requests: total - errors,
    seconds,
    rps: (total - errors) / seconds,
    p50ms: percentileSorted(sorted, 50),
    p90ms: percentileSorted(sorted, 90),
    p99ms: percentileSorted(sorted, 99),
    ok200: ok,
    non2xx,
    withDu,
    socketErrors: errors,
    targetRps: o.rate,
    sent: total,
    startedAt: performance.timeOrigin + t0,
    sentRps: span > 0 ? (total - 1) / span : o.rate,
    maxLagMs: maxLag,
    statuses,
    errorKinds,
    headerValues,
    record: o.record,
  };
}

/** Runs the open-loop generator in a child process; killed if it outlives its schedule and the last timeout by 30 s. */
export async function runBunOpenLoad(o: OpenLoadOptions): Promise<OpenLoadResult> {
  const args = [process.execPath, import.meta.path, "--url", o.url, "--rate", String(o.rate), "--seconds", String(o.seconds)];
  args.push("--record", o.record, "--timeout-ms", String(o.timeoutMs));
  if (o.recordHeader) args.push("--record-header", o.recordHeader);
  if (o.startAt !== undefined) args.push("--start-at", String(o.startAt));
  for (const [k, v] of Object.entries(o.headers)) args.push("--header", `${k}: ${v}`);
  const waitMs = Math.max(0, (o.startAt ?? 0) - epochMs()) + o.seconds * 1000 + o.timeoutMs + 30_000;
  return runGenerator<OpenLoadResult>(args, waitMs, "open-loop load generator");
}

/** Runs this file as a generator with `args`, SIGKILLed after `waitMs`; its last line of output, as JSON. */
async function runGenerator<T>(args: string[], waitMs: number, name: string): Promise<T> {
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const killer = setTimeout(() => proc.kill("SIGKILL"), waitMs);
  const [output, errors, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(killer);
  if (code !== 0) throw new Error(`${name} exited with ${code}: ${errors}`);
  return JSON.parse(output.trim().split("\n").pop()!) as T;
}

/** Runs the fallback generator in a child process; killed if it outlives its duration by 30 s. */
export async function runBunLoad(o: LoadOptions): Promise<LoadResult> {
  const args = [process.execPath, import.meta.path, "--url", o.url, "--connections", String(o.connections)];
  args.push("--seconds", String(o.seconds), "--max", String(o.maxRequests));
  for (const [k, v] of Object.entries(o.headers)) args.push("--header", `${k}: ${v}`);
  for (const a of o.authorizations ?? []) args.push("--authorization", a);
  return runGenerator<LoadResult>(args, (o.seconds + 30) * 1000, "load generator");
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const o: LoadOptions = { url: "", headers: {}, connections: 32, threads: 1, seconds: 10, maxRequests: 2_000_000 };
  const open: Partial<OpenLoadOptions> = { timeoutMs: 10_000 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1] ?? ""];
    if (flag === "--url") o.url = value;
    else if (flag === "--rate") open.rate = Number(value);
    else if (flag === "--record") open.record = value;
    else if (flag === "--record-header") open.recordHeader = value;
    else if (flag === "--timeout-ms") open.timeoutMs = Number(value);
    else if (flag === "--start-at") open.startAt = Number(value);
    else if (flag === "--connections") o.connections = Number(value);
    else if (flag === "--seconds") o.seconds = Number(value);
    else if (flag === "--max") o.maxRequests = Number(value);
    else if (flag === "--authorization") (o.authorizations ??= []).push(value);
    else if (flag === "--header") {
      const colon = value.indexOf(":");
      o.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
    } else throw new Error(`unknown flag ${flag}`);
  }
  if (!o.url.startsWith("http://127.0.0.1:")) throw new Error("the load generator only targets http://127.0.0.1");
  if (open.rate !== undefined) {
    if (!(open.rate > 0) || !open.record) throw new Error("--rate needs a positive rate and --record FILE");
    const result = await generateOpen({ ...open, url: o.url, headers: o.headers, seconds: o.seconds, rate: open.rate, record: open.record, timeoutMs: open.timeoutMs ?? 10_000 });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else process.stdout.write(`${JSON.stringify(await generate(o))}\n`);
  process.exit(0);
}
