/**
 * The service's metrics. Each HTTP worker counts what it answered in a MetricsRegistry; GET
 * /metrics asks the supervisor, which collects every worker's registry, adds them up and renders
 * Prometheus text format 0.0.4 (src/serve/cluster): the figures are the whole server's. Labels
 * are bounded: the route template (an endpoint's path, a fixed path, or "other"), the method, the
 * status, the plan. Never a user id, key id or secret. The standard process_* metrics (memory,
 * CPU time, start time, open files) are the whole process's, read when the page is rendered.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { CheckpointStats } from "../../db/checkpointer";

/** The duration histogram's upper bounds, in seconds. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** A registry as posted between threads (plain arrays). */
export interface MetricsSnapshot {
  requests: [string, number][];
  durations: [string, { buckets: number[]; sum: number; count: number }][];
  du: [string, number][];
  keyCacheHits: number;
  ledgerPending: number;
}

/** The process's own figures, as Prometheus's client libraries name them. */
export interface ProcessStats {
  residentBytes: number;
  cpuSeconds: number;
  startTimeSeconds: number;
  /** From /proc/self/fd; null where there is no /proc. */
  openFds: number | null;
  /** The soft limit on open files, from /proc/self/limits; null where unknown. */
  maxFds: number | null;
}

/** When this process started, in Unix seconds (read once). */
let startTime: number | null = null;

function processStartTime(): number {
  if (startTime !== null) return startTime;
  startTime = (Date.now() - process.uptime() * 1000) / 1000;
  try {
    // Linux: the start in clock ticks after boot (field 22 of /proc/self/stat), and the boot time
    const stat = readFileSync("/proc/self/stat", "utf8");
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    // USER_HZ is 100 on every Linux this runs on
    if (Number.isFinite(ticks) && boot > 0) startTime = boot + ticks / 100;
  } catch {
    // no /proc: the uptime's estimate
  }
  return startTime;
}

/** The process's memory, CPU time, start time and open files now (the whole process, every thread). */
export function processStats(): ProcessStats {
  const cpu = process.cpuUsage();
  let openFds: number | null = null;
  let maxFds: number | null = null;
  try {
    openFds = readdirSync("/proc/self/fd").length;
    const limit = /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1];
    maxFds = limit === undefined ? null : Number(limit);
  } catch {
    // no /proc (not Linux): the figures are left out
  }
  return { residentBytes: process.memoryUsage.rss(), cpuSeconds: (cpu.user + cpu.system) / 1e6, startTimeSeconds: processStartTime(), openFds, maxFds };
}

/** The standard process_* metrics. */
function renderProcess(p: ProcessStats, out: string[]): void {
  out.push("# HELP process_resident_memory_bytes Resident memory size in bytes.", "# TYPE process_resident_memory_bytes gauge");
  out.push(`process_resident_memory_bytes ${p.residentBytes}`);
  out.push("# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.", "# TYPE process_cpu_seconds_total counter");
  out.push(`process_cpu_seconds_total ${num(p.cpuSeconds)}`);
  out.push("# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.", "# TYPE process_start_time_seconds gauge");
  out.push(`process_start_time_seconds ${num(p.startTimeSeconds)}`);
  if (p.openFds !== null) {
    out.push("# HELP process_open_fds Number of open file descriptors.", "# TYPE process_open_fds gauge");
    out.push(`process_open_fds ${p.openFds}`);
  }
  if (p.maxFds !== null) {
    out.push("# HELP process_max_fds Maximum number of open file descriptors.", "# TYPE process_max_fds gauge");
    out.push(`process_max_fds ${p.maxFds}`);
  }
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export class MetricsRegistry {
  private readonly requests = new Map<string, number>();
  private readonly durations = new Map<string, { buckets: number[]; sum: number; count: number }>();
  private readonly du = new Map<string, number>();

  /** Counts one answered request. */
  record(route: string, method: string, status: number, seconds: number, du: number, plan: string | null): void {
    const m = METHODS.has(method) ? method : "OTHER";
    const key = `${route}\t${m}\t${status}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    let h = this.durations.get(route);
    if (!h) {
      h = { buckets: new Array<number>(DURATION_BUCKETS.length).fill(0), sum: 0, count: 0 };
      this.durations.set(route, h);
    }
    // each request counts in its own bucket here; the rendering makes them cumulative
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
    if (i < DURATION_BUCKETS.length) h.buckets[i]!++;
    h.sum += seconds;
    h.count++;
    if (plan !== null && du > 0) this.du.set(plan, (this.du.get(plan) ?? 0) + du);
  }

  snapshot(extra: { keyCacheHits: number; ledgerPending: number }): MetricsSnapshot {
    return {
      requests: [...this.requests],
      durations: [...this.durations].map(([k, v]) => [k, { buckets: [...v.buckets], sum: v.sum, count: v.count }]),
      du: [...this.du],
      ...extra,
    };
  }
}

/** Adds up the workers' snapshots (and the supervisor's own ledger rows pending). */
export function mergeSnapshots(parts: readonly MetricsSnapshot[], supervisorPending = 0): MetricsSnapshot {
  const requests = new Map<string, number>();
  const durations = new Map<string, { buckets: number[]; sum: number; count: number }>();
  const du = new Map<string, number>();
  let keyCacheHits = 0;
  let ledgerPending = supervisorPending;
  for (const p of parts) {
    for (const [k, v] of p.requests) requests.set(k, (requests.get(k) ?? 0) + v);
    for (const [k, v] of p.durations) {
      const h = durations.get(k) ?? { buckets: new Array<number>(DURATION_BUCKETS.length).fill(0), sum: 0, count: 0 };
      for (let i = 0; i < h.buckets.length; i++) h.buckets[i]! += v.buckets[i] ?? 0;
      h.sum += v.sum;
      h.count += v.count;
      durations.set(k, h);
    }
    for (const [k, v] of p.du) du.set(k, (du.get(k) ?? 0) + v);
    keyCacheHits += p.keyCacheHits;
    ledgerPending += p.ledgerPending;
  }
  return { requests: [...requests], durations: [...durations], du: [...du], keyCacheHits, ledgerPending };
}

/** A label value escaped as the text format wants (backslash, quote, newline). */
function label(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 1e6) / 1e6);
}

/**
 * account.db's checkpoint thread (src/db/checkpointer.ts): the WAL's pages after its last
 * checkpoint, and its checkpoints by mode and result (a RESTART that gave up: `busy`).
 */
export function renderCheckpoints(stats: CheckpointStats): string {
  return [
    "# HELP artmarket_account_wal_frames Pages in account.db's WAL at the checkpoint thread's last checkpoint.",
    "# TYPE artmarket_account_wal_frames gauge",
    `artmarket_account_wal_frames ${stats.frames}`,
    "# HELP artmarket_account_checkpoints_total account.db WAL checkpoints by the checkpoint thread, by mode and result.",
    "# TYPE artmarket_account_checkpoints_total counter",
    `artmarket_account_checkpoints_total{mode="passive",result="done"} ${stats.passive}`,
    `artmarket_account_checkpoints_total{mode="restart",result="done"} ${stats.restarts}`,
    `artmarket_account_checkpoints_total{mode="restart",result="busy"} ${stats.restartsBusy}`,
    "",
  ].join("\n");
}

/** Prometheus text format 0.0.4. */
export function renderMetrics(m: MetricsSnapshot, info: { version: string; workers: number; keyVerifications?: number; process?: ProcessStats }): string {
  const out: string[] = [];
  out.push("# HELP artmarket_info The running service: version and HTTP workers.", "# TYPE artmarket_info gauge");
  out.push(`artmarket_info{version="${label(info.version)}",workers="${info.workers}"} 1`);
  out.push("# HELP artmarket_http_requests_total HTTP requests answered, by route template, method and status.", "# TYPE artmarket_http_requests_total counter");
  for (const [k, v] of [...m.requests].sort()) {
    const [route, method, status] = k.split("\t") as [string, string, string];
    out.push(`artmarket_http_requests_total{route="${label(route)}",method="${method}",status="${status}"} ${v}`);
  }
  out.push("# HELP artmarket_http_request_duration_seconds Time from a request's arrival to its response, by route template.");
  out.push("# TYPE artmarket_http_request_duration_seconds histogram");
  for (const [route, h] of [...m.durations].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const r = label(route);
    let cumulative = 0;
    DURATION_BUCKETS.forEach((le, i) => {
      cumulative += h.buckets[i]!;
      out.push(`artmarket_http_request_duration_seconds_bucket{route="${r}",le="${le}"} ${cumulative}`);
    });
    out.push(`artmarket_http_request_duration_seconds_bucket{route="${r}",le="+Inf"} ${h.count}`);
    out.push(`artmarket_http_request_duration_seconds_sum{route="${r}"} ${num(h.sum)}`);
    out.push(`artmarket_http_request_duration_seconds_count{route="${r}"} ${h.count}`);
  }
  out.push("# HELP artmarket_du_charged_total Data Units charged, by plan.", "# TYPE artmarket_du_charged_total counter");
  for (const [plan, v] of [...m.du].sort()) out.push(`artmarket_du_charged_total{plan="${label(plan)}"} ${num(v)}`);
  out.push("# HELP artmarket_ledger_pending Ledger rows charged and not yet committed.", "# TYPE artmarket_ledger_pending gauge");
  out.push(`artmarket_ledger_pending ${m.ledgerPending}`);
  out.push("# HELP artmarket_key_cache_hits_total Requests whose API key was answered from the verified-key cache.", "# TYPE artmarket_key_cache_hits_total counter");
  out.push(`artmarket_key_cache_hits_total ${m.keyCacheHits}`);
  if (info.keyVerifications !== undefined) {
    out.push("# HELP artmarket_key_verifications_total argon2 verifications run (once per distinct key for the whole server).", "# TYPE artmarket_key_verifications_total counter");
    out.push(`artmarket_key_verifications_total ${info.keyVerifications}`);
  }
  if (info.process) renderProcess(info.process, out);
  return `${out.join("\n")}\n`;
}
