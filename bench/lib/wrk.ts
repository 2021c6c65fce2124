/**
 * wrk: spawning it, and reading its report. A small Lua script counts, per response, the 200s and
 * the responses that carried X-Service-DataUnits, and prints them (with exact percentiles) from
 * done(); the standard report gives Requests/sec, the latency distribution and the non-2xx count.
 */
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DU_HEADER, type LoadOptions, type LoadResult } from "./load";

export function wrkPath(): string | null {
  return Bun.which("wrk");
}

const LUA = `
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) ok = 0; other = 0; du = 0 end
function response(status, headers, body)
  if status == 200 then ok = ok + 1 else other = other + 1 end
  if headers["${DU_HEADER}"] ~= nil or headers["${DU_HEADER.toLowerCase()}"] ~= nil then du = du + 1 end
end
function done(summary, latency, requests)
  local ok, other, du = 0, 0, 0
  for _, t in ipairs(threads) do
    ok = ok + t:get("ok"); other = other + t:get("other"); du = du + t:get("du")
  end
  io.write(string.format("BENCH ok=%d other=%d du=%d\\n", ok, other, du))
  io.write(string.format("BENCH p50us=%d p90us=%d p99us=%d\\n",
    latency:percentile(50), latency:percentile(90), latency:percentile(99)))
end
`;

/** A request() that takes the Authorization values in turn (each wrk thread from its own counter). */
function spreadLua(authorizations: string[]): string {
  const list = authorizations.map((a) => JSON.stringify(a)).join(", ");
  return `
local auths = { ${list} }
local sent = 0
function request()
  sent = sent + 1
  wrk.headers["Authorization"] = auths[(sent % #auths) + 1]
  return wrk.format()
end
`;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "1.23ms" → 1.23; "456.00us" → 0.456. */
export function parseDuration(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

export interface WrkReport {
  requests: number;
  seconds: number;
  rps: number;
  /** Latency distribution from --latency, in ms, keyed by percentile ("50", "99"…). */
  latency: Record<string, number>;
  non2xx: number;
  socketErrors: number;
  /** From the Lua script, when it ran. */
  ok?: number;
  other?: number;
  du?: number;
  exact?: { p50ms: number; p90ms: number; p99ms: number };
}

export function parseWrk(text: string): WrkReport {
  const num = (re: RegExp) => {
    const m = re.exec(text);
    return m ? Number(m[1]) : Number.NaN;
  };
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m|h)/.exec(text);
  const latency: Record<string, number> = {};
  const dist = /Latency Distribution\s*\n((?:\s+[\d.]+%\s+\S+\s*\n)+)/.exec(text);
  if (dist) {
    for (const m of dist[1]!.matchAll(/([\d.]+)%\s+(\S+)/g)) latency[String(Number(m[1]))] = parseDuration(m[2]!);
  }
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const report: WrkReport = {
    requests: total ? Number(total[1]) : Number.NaN,
    seconds: total ? (Number(total[2]) * UNIT_MS[total[3]!]!) / 1000 : Number.NaN,
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    latency,
    non2xx: /Non-2xx or 3xx responses: (\d+)/.test(text) ? num(/Non-2xx or 3xx responses: (\d+)/) : 0,
    socketErrors: sock ? sock.slice(1).reduce((s, v) => s + Number(v), 0) : 0,
  };
  const counts = /BENCH ok=(\d+) other=(\d+) du=(\d+)/.exec(text);
  if (counts) Object.assign(report, { ok: Number(counts[1]), other: Number(counts[2]), du: Number(counts[3]) });
  const pct = /BENCH p50us=(\d+) p90us=(\d+) p99us=(\d+)/.exec(text);
  if (pct) report.exact = { p50ms: Number(pct[1]) / 1000, p90ms: Number(pct[2]) / 1000, p99ms: Number(pct[3]) / 1000 };
  return report;
}

/** Runs wrk once; killed if it outlives its duration by 30 s. */
export async function runWrk(o: LoadOptions): Promise<LoadResult & { report: WrkReport; output: string }> {
  const wrk = wrkPath();
  if (!wrk) throw new Error("wrk is not on PATH");
  const script = join(tmpdir(), `artmarket-bench-${process.pid}.lua`);
  writeFileSync(script, o.authorizations?.length ? LUA + spreadLua(o.authorizations) : LUA);
  const args = [wrk, `-t${o.threads}`, `-c${o.connections}`, `-d${o.seconds}s`, "--latency", "--timeout", "5s", "-s", script];
  for (const [k, v] of Object.entries(o.headers)) args.push("-H", `${k}: ${v}`);
  args.push(o.url);
  try {
    const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
    const killer = setTimeout(() => proc.kill("SIGKILL"), (o.seconds + 30) * 1000);
    const [output, errors, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    clearTimeout(killer);
    if (code !== 0) throw new Error(`wrk exited with ${code}: ${errors || output}`);
    const report = parseWrk(output);
    if (!Number.isFinite(report.rps) || !Number.isFinite(report.requests)) throw new Error(`could not parse wrk output:\n${output}`);
    return {
      tool: "wrk",
      requests: report.requests,
      seconds: report.seconds,
      rps: report.rps,
      // wrk's --latency table is what the bench reports; the Lua percentiles agree with it to its rounding.
      p50ms: report.latency["50"] ?? report.exact?.p50ms ?? Number.NaN,
      p90ms: report.latency["90"] ?? report.exact?.p90ms ?? Number.NaN,
      p99ms: report.latency["99"] ?? report.exact?.p99ms ?? Number.NaN,
      ok200: report.ok ?? report.requests - report.non2xx,
      non2xx: report.non2xx,
      withDu: report.du ?? Number.NaN,
      socketErrors: report.socketErrors,
      report,
      output,
    };
  } finally {
    rmSync(script, { force: true });
  }
}
