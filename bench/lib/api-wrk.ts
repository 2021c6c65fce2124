/**
 * bench/api's wrk runs: a Lua script that cycles through a case's URL list (each thread from its
 * own starting point), sends the Authorization header on every request, and prints from done()
 * the 200s, the other statuses, the responses with X-Service-DataUnits and exact p50/p95/p99.
 * The standard report (Requests/sec, socket errors, non-2xx) is read by bench/lib/wrk.ts's parser.
 */
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DU_HEADER } from "./load";
import { parseWrk, wrkPath, type WrkReport } from "./wrk";

export interface WrkRun {
  rps: number;
  requests: number;
  seconds: number;
  p50ms: number;
  p95ms: number;
  p99ms: number;
  ok200: number;
  other: number;
  withDu: number;
  non2xx: number;
  socketErrors: number;
}

const luaString = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

export function luaScript(paths: readonly string[]): string {
  return `
local paths = {
${paths.map((p) => `  ${luaString(p)},`).join("\n")}
}
local n = #paths
local threads = {}
local nthreads = 0
function setup(thread)
  thread:set("start", nthreads * 7919)
  nthreads = nthreads + 1
  table.insert(threads, thread)
end
function init(args) i = start or 0; ok = 0; other = 0; du = 0 end
function request()
  i = i + 1
  return wrk.format("GET", paths[(i % n) + 1])
end
function response(status, headers, body)
  if status == 200 then ok = ok + 1 else other = other + 1 end
  if headers["${DU_HEADER}"] ~= nil or headers["${DU_HEADER.toLowerCase()}"] ~= nil then du = du + 1 end
end
function done(summary, latency, requests)
  local ok, other, du = 0, 0, 0
  for _, t in ipairs(threads) do
    ok = ok + t:get("ok"); other = other + t:get("other"); du = du + t:get("du")
  end
  io.write(string.format("APIBENCH ok=%d other=%d du=%d\\n", ok, other, du))
  io.write(string.format("APIBENCH p50us=%d p95us=%d p99us=%d\\n",
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
`;
}

export interface WrkOptions {
  baseUrl: string;
  paths: readonly string[];
  headers: Record<string, string>;
  connections: number;
  threads: number;
  seconds: number;
}

/** One wrk run over the URL list; killed if it outlives its duration by 30 s. */
export async function runWrkPaths(o: WrkOptions): Promise<WrkRun & { report: WrkReport }> {
  const wrk = wrkPath();
  if (!wrk) throw new Error("wrk is not on PATH (Debian: apt-get install wrk)");
  const script = join(tmpdir(), `artmarket-api-bench-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  writeFileSync(script, luaScript(o.paths));
  const args = [wrk, `-t${o.threads}`, `-c${o.connections}`, `-d${o.seconds}s`, "--timeout", "10s", "-s", script];
  for (const [k, v] of Object.entries(o.headers)) args.push("-H", `${k}: ${v}`);
  args.push(o.baseUrl);
  try {
    const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
    const killer = setTimeout(() => proc.kill("SIGKILL"), (o.seconds + 30) * 1000);
    const [output, errors, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    clearTimeout(killer);
    if (code !== 0) throw new Error(`wrk exited with ${code}: ${errors || output}`);
    const report = parseWrk(output);
    if (!Number.isFinite(report.rps) || !Number.isFinite(report.requests)) throw new Error(`could not parse wrk output:\n${output}`);
    const counts = /APIBENCH ok=(\d+) other=(\d+) du=(\d+)/.exec(output);
    const pct = /APIBENCH p50us=(\d+) p95us=(\d+) p99us=(\d+)/.exec(output);
    return {
      rps: report.rps,
      requests: report.requests,
      seconds: report.seconds,
      p50ms: pct ? Number(pct[1]) / 1000 : Number.NaN,
      p95ms: pct ? Number(pct[2]) / 1000 : Number.NaN,
      p99ms: pct ? Number(pct[3]) / 1000 : Number.NaN,
      ok200: counts ? Number(counts[1]) : report.requests - report.non2xx,
      other: counts ? Number(counts[2]) : report.non2xx,
      withDu: counts ? Number(counts[3]) : Number.NaN,
      non2xx: report.non2xx,
      socketErrors: report.socketErrors,
      report,
    };
  } finally {
    rmSync(script, { force: true });
  }
}
