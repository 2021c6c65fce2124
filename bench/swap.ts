#!/usr/bin/env bun
/**
 * bench/swap: the hot swap (issue 33, item 3) under a steady load, in one run.
 *
 *   bun bench/swap.ts [--data DIR | --scale small] [--workers 2] [--path /v1/categories]
 *                     [--connections 32] [--peak-seconds 5] [--load 0.8] [--seconds 16]
 *                     [--publish-at 5] [--margin 2] [--rounds rename,reload] [--out .bench/swap.json] [--keep]
 *
 * The market: --data DIR (any scale), else /tmp/artmarket-<scale> (default small), seeded there on
 * first use with `bun src/cli.ts seed` and kept for later runs (bench/lib/api-setup.ts). A run serves
 * a copy of its market.db from a scratch data directory, with a key made by `keys create --plan
 * enterprise` and the enterprise plan's request rates raised (an operator's edit: what is measured
 * is the swap, not 429s), by `bun src/cli.ts serve --workers N --log-format off`.
 *
 * 1. Peak: --path (default GET /v1/categories, the cheapest metered call, as in bench/scale) in a
 *    closed loop, --connections keep-alive connections for --peak-seconds after a 2 s warm-up
 *    (bench/lib/loadgen.ts, in its own process).
 * 2. Rounds of open-loop load at --load × that peak (bench/lib/loadgen.ts --rate: requests on a
 *    fixed schedule, latency from the scheduled time, each response's X-Market-Snapshot recorded),
 *    --seconds each, one per word of --rounds (default rename,reload). At --publish-at seconds a new snapshot is published the way docs/operations.md
 *    says: a copy of the served market.db with another market_meta built_at (so another snapshot
 *    id), made beside it in the data directory before the round, renamed over market.db. Round
 *    "rename": the server finds it by itself (fs.watch, its poll); round "rename + reload": `bun
 *    src/cli.ts reload --data DIR` is run at once after the rename and waited for.
 * Per round, from the records: statuses (no 5xx allowed), requests without a response (refused,
 * reset, timed out: none allowed), p50/p99/max latency in three windows by scheduled time: before
 * (from 1 s after the round's start to the publish), during (from the publish to the first response
 * with the new snapshot id plus --margin seconds), after (the rest); the time from the rename to
 * the first response with the new id and to the last with the old one; the target, sent and
 * answered rates; the server's own line for the swap (check and worker times). Exit 1 on any 5xx,
 * any request without a response, a round whose new snapshot was never served, or a failed reload.
 * Results: tables on stdout, JSON in --out. Only 127.0.0.1; the server is stopped at the end.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { marketDbPath } from "../src/db/connection";
import { snapshotIdOf } from "../src/db/snapshot-check";
import { ensureMarket } from "./lib/api-setup";
import { RECORD_FIELDS, runBunLoad, runBunOpenLoad, type OpenLoadResult } from "./lib/loadgen";
import { fmt, percentileSorted, table } from "./lib/stats";
import { readFlags } from "./lib/flags";

const ROOT = resolve(import.meta.dir, "..");
/** The first second of a round is left out of "before": the generator's connections are new. */
const SETTLE_S = 1;

// ---------------------------------------------------------------- flags

function parseFlags(argv: string[]) {
  const flags = readFlags(argv, ["data", "scale", "workers", "path", "connections", "peak-seconds", "load", "seconds", "publish-at", "margin", "rounds", "out", "keep"]);
  const num = (name: string, def: number, min: number, max: number, integer = true) => {
    const v = flags[name];
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max)
      throw new Error(`--${name} must be ${integer ? "an integer" : "a number"} in ${min}..${max}`);
    return n;
  };
  const scale = typeof flags.scale === "string" ? flags.scale : "small";
  if (!["tiny", "small", "medium", "large", "full"].includes(scale)) throw new Error("--scale must be tiny, small, medium, large or full");
  const path = typeof flags.path === "string" ? flags.path : "/v1/categories";
  if (!path.startsWith("/")) throw new Error("--path must start with /");
  const o = {
    data: typeof flags.data === "string" ? resolve(flags.data) : `/tmp/artmarket-${scale}`,
    anyScale: typeof flags.data === "string" && flags.scale === undefined,
    scale,
    workers: num("workers", 2, 1, 256),
    path,
    connections: num("connections", 32, 1, 1024),
    peakSeconds: num("peak-seconds", 5, 1, 120),
    load: num("load", 0.8, 0.01, 2, false),
    seconds: num("seconds", 16, 4, 600),
    publishAt: num("publish-at", 5, 2, 600, false),
    margin: num("margin", 2, 0, 60, false),
    rounds: (typeof flags.rounds === "string" ? flags.rounds : "rename,reload").split(","),
    out: resolve(ROOT, typeof flags.out === "string" ? flags.out : ".bench/swap.json"),
    keep: flags.keep === true,
  };
  if (o.publishAt >= o.seconds) throw new Error("--publish-at must come before the round's end (--seconds)");
  for (const r of o.rounds) if (r !== "rename" && r !== "reload") throw new Error(`--rounds: rename or reload, got "${r}"`);
  return o;
}

const o = parseFlags(process.argv.slice(2));
const log = (s: string) => process.stderr.write(`${s}\n`);
const epochMs = () => performance.timeOrigin + performance.now();
const cli = (args: string[]) => [process.execPath, join(ROOT, "src/cli.ts"), ...args];

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const proc = Bun.spawn(cli(args), { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr, ms: performance.now() - started };
}

/** `serve` on dataDir; its stderr read as it comes (the swap's lines), resolved at its listening line. */
async function startServer(dataDir: string) {
  const proc = Bun.spawn(cli(["serve", "--data", dataDir, "--port", "0", "--workers", String(o.workers), "--log-format", "off"]), { stdout: "pipe", stderr: "pipe" });
  let errText = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) errText += decoder.decode(chunk);
  })();
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening: ${errText}`);
    text += new TextDecoder().decode(value);
  }
  return { proc, url: text.split("\n")[0]!.replace("listening on ", ""), stderr: () => errText };
}

function snapshotId(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return snapshotIdOf(db);
  } finally {
    db.close();
  }
}

/** A copy of `from` at `to` whose market_meta built_at differs: the same market, another snapshot id. */
function prepareSnapshot(from: string, to: string, builtAt: string): string {
  copyFileSync(from, to);
  const db = new Database(to);
  try {
    db.run("UPDATE market_meta SET value = ? WHERE key = 'built_at'", [builtAt]);
  } finally {
    db.close();
  }
  return snapshotId(to);
}

// ---------------------------------------------------------------- setup

/** Which code is measured: ARTMARKET_BENCH_CODE (a run from an exported commit says which), else HEAD and the files of src/ that differ from it. */
function codeMeasured(): string {
  if (process.env.ARTMARKET_BENCH_CODE) return process.env.ARTMARKET_BENCH_CODE;
  const git = (args: string[]) => {
    const p = Bun.spawnSync(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
    return p.exitCode === 0 ? p.stdout.toString().trim() : "";
  };
  const dirty = git(["status", "--porcelain", "--", "src"]);
  const head = git(["rev-parse", "--short", "HEAD"]) || "unknown";
  return dirty ? `${head} with ${dirty.split("\n").length} file(s) of src/ changed` : head;
}

const commit = codeMeasured();
const scale = await ensureMarket(o.data, o.scale, o.anyScale, log);
const loadBefore = loadavg().map((x) => Number(x.toFixed(2)));
const runDir = mkdtempSync(join(tmpdir(), "artmarket-swap-"));
const recordDir = mkdtempSync(join(tmpdir(), "artmarket-swap-records-"));
const market = marketDbPath(runDir);
copyFileSync(marketDbPath(o.data), market);
const marketMb = statSync(market).size / 2 ** 20;
log(
  `bench/swap: ${cpus()[0]?.model ?? "cpu"} × ${availableParallelism()}, load average ${loadBefore.join(" ")}; ${scale} market (${fmt(marketMb, 0)} MB) from ${o.data} in ${runDir}`,
);

const created = await run(["keys", "create", "--plan", "enterprise", "--name", "swap bench", "--data", runDir]);
if (created.code !== 0) throw new Error(`keys create exited ${created.code}: ${created.stderr}`);
const key = created.stdout.trim().split("\n").at(-1)!;
{
  const db = new Database(join(runDir, "account.db"));
  db.run("PRAGMA busy_timeout = 30000");
  db.run("UPDATE plans SET rps_limit = 1000000000, rpm_limit = 1000000000 WHERE slug = 'enterprise'");
  db.close();
}
const headers = { Authorization: `Bearer ${key}` };

interface Round {
  name: string;
  reload: boolean;
  oldId: string;
  newId: string;
  /** ms since the epoch */
  publishedAt: number;
  load: OpenLoadResult;
  reloadRun?: { code: number; ms: number; output: string };
  /** ms after the rename: the first response with the new id (its end), the last with the old one. */
  newServedMs: number;
  lastOldMs: number;
  windows: { name: string; from: number; to: number; requests: number; p50: number; p99: number; max: number }[];
  fivexx: number;
  errors: number;
}

const server = await startServer(runDir);
const rounds: Round[] = [];
let peak: Awaited<ReturnType<typeof runBunLoad>>;
let target = 0;
try {
  const url = `${server.url}${o.path}`;
  const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { snapshot: { id: string } };
  let servedId = ready.snapshot.id;
  if (servedId !== snapshotId(market)) throw new Error(`/readyz says ${servedId}, market.db is ${snapshotId(market)}`);
  // the snapshots to publish, made beside market.db before any load (the server is up: any migration is done)
  const plan = o.rounds
    .map((kind, i) => ({ name: `${i + 1}: ${kind === "reload" ? "rename + reload" : "rename"}`, reload: kind === "reload" }))
    .map((r, i) => {
      const file = join(runDir, `market.db.next-${i + 1}`);
      return { ...r, file, id: prepareSnapshot(market, file, new Date(Date.now() + i + 1).toISOString()) };
    });

  // 1. peak, closed loop
  const first = await fetch(url, { headers });
  await first.arrayBuffer();
  if (first.status !== 200) throw new Error(`GET ${o.path} answered ${first.status}`);
  await runBunLoad({ url, headers, connections: o.connections, threads: 1, seconds: 2, maxRequests: 50_000_000 });
  peak = await runBunLoad({ url, headers, connections: o.connections, threads: 1, seconds: o.peakSeconds, maxRequests: 50_000_000 });
  target = Math.max(1, Math.round(peak.rps * o.load));
  log(`peak: ${fmt(peak.rps, 0)} req/s (p50 ${fmt(peak.p50ms)} ms, p99 ${fmt(peak.p99ms)} ms, non-2xx ${peak.non2xx}); open loop at ${fmt(target, 0)} req/s`);

  // 2. the rounds
  for (const [i, r] of plan.entries()) {
    if (i > 0) await Bun.sleep(2000);
    const startAt = epochMs() + 1000; // the generator's process starts meanwhile
    const record = join(recordDir, `round-${i + 1}.f64`);
    const loading = runBunOpenLoad({ url, headers, rate: target, seconds: o.seconds, record, recordHeader: "X-Market-Snapshot", timeoutMs: 10_000, startAt });
    await Bun.sleep(startAt + o.publishAt * 1000 - epochMs());
    const publishedAt = epochMs();
    renameSync(r.file, market);
    const reloadRun = r.reload ? await run(["reload", "--data", runDir]) : undefined;
    const load = await loading;
    if (load.startedAt > startAt + 200) log(`round ${i + 1}: the generator started ${fmt(load.startedAt - startAt, 0)} ms late`);
    rounds.push(
      measure(r.name, r.reload, servedId, r.id, publishedAt, load, reloadRun && { code: reloadRun.code, ms: reloadRun.ms, output: (reloadRun.stdout + reloadRun.stderr).trim() }),
    );
    servedId = r.id;
    const last = rounds.at(-1)!;
    log(
      `round ${i + 1} (${r.name}): ${load.sent} sent, statuses ${JSON.stringify(load.statuses)}, errors ${JSON.stringify(load.errorKinds)}; new snapshot served ${fmt(last.newServedMs, 0)} ms after the rename`,
    );
  }
} finally {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
}

/** Splits a round's records into its windows. */
function measure(name: string, reload: boolean, oldId: string, newId: string, publishedAt: number, load: OpenLoadResult, reloadRun?: Round["reloadRun"]): Round {
  const rec = new Float64Array(new Uint8Array(readFileSync(load.record)).buffer);
  const n = rec.length / RECORD_FIELDS;
  const oldIx = load.headerValues.indexOf(oldId);
  const newIx = load.headerValues.indexOf(newId);
  let firstNew = Number.POSITIVE_INFINITY;
  let lastOld = Number.NEGATIVE_INFINITY;
  let fivexx = 0;
  for (let i = 0; i < n; i++) {
    const at = rec[i * RECORD_FIELDS]!;
    const end = at + rec[i * RECORD_FIELDS + 1]!;
    const status = rec[i * RECORD_FIELDS + 2]!;
    const value = rec[i * RECORD_FIELDS + 3]!;
    if (status >= 500) fivexx++;
    if (value === newIx && newIx >= 0) firstNew = Math.min(firstNew, end);
    if (value === oldIx && oldIx >= 0) lastOld = Math.max(lastOld, end);
  }
  const start = load.startedAt;
  const duringEnd = Number.isFinite(firstNew) ? firstNew + o.margin * 1000 : Number.POSITIVE_INFINITY;
  const bounds = [
    { name: "before", from: start + SETTLE_S * 1000, to: publishedAt },
    { name: `during (rename → new id + ${o.margin} s)`, from: publishedAt, to: duringEnd },
    { name: "after", from: duringEnd, to: Number.POSITIVE_INFINITY },
  ];
  const windows = bounds.map((b) => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const at = rec[i * RECORD_FIELDS]!;
      if (at >= b.from && at < b.to) ms.push(rec[i * RECORD_FIELDS + 1]!);
    }
    const sorted = Float64Array.from(ms).sort();
    return {
      name: b.name,
      from: (b.from - start) / 1000,
      to: Number.isFinite(b.to) ? (b.to - start) / 1000 : o.seconds,
      requests: ms.length,
      p50: percentileSorted(sorted, 50),
      p99: percentileSorted(sorted, 99),
      max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
    };
  });
  return {
    name,
    reload,
    oldId,
    newId,
    publishedAt,
    load,
    reloadRun,
    newServedMs: firstNew - publishedAt,
    lastOldMs: lastOld - publishedAt,
    windows,
    fivexx,
    errors: load.socketErrors,
  };
}

// ---------------------------------------------------------------- report

const loadAfter = loadavg().map((x) => Number(x.toFixed(2)));
/** The server's line for each swap: `snapshot <id> published: swapped in from <old> (checked in N ms, every worker on it M ms later)`. */
const swapLines = [...server.stderr().matchAll(/snapshot (\w+) published: swapped in from \w+ \(checked in (\d+) ms, every worker on it (\d+) ms later\)/g)].map((m) => ({
  id: m[1]!,
  checkMs: Number(m[2]),
  workersMs: Number(m[3]),
}));
const refusals = server.stderr().match(/snapshot refused[^\n]*/g) ?? [];
const n0 = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString("en-US") : "n/a");

process.stdout.write(
  `\nbench/swap, code ${commit}: ${availableParallelism()} cores, load average ${loadBefore.join(" ")} → ${loadAfter.join(" ")}; ${scale} market (${fmt(marketMb, 0)} MB), ` +
    `serve --workers ${o.workers}, GET ${o.path}\n` +
    `peak (closed loop, ${o.connections} connections, ${o.peakSeconds} s): ${n0(peak!.rps)} req/s, p50 ${fmt(peak!.p50ms)} ms, p99 ${fmt(peak!.p99ms)} ms; ` +
    `rounds: open loop at ${n0(target)} req/s (${fmt(o.load * 100, 0)} % of it), ${o.seconds} s each, the rename at ${o.publishAt} s; latency from each request's scheduled time\n\n`,
);
process.stdout.write(
  `${table(
    ["round", "window", "from s", "to s", "requests", "p50 ms", "p99 ms", "max ms"],
    rounds.flatMap((r) => r.windows.map((w) => [r.name, w.name, fmt(w.from, 1), fmt(w.to, 1), n0(w.requests), fmt(w.p50, 1), fmt(w.p99, 1), fmt(w.max, 1)])),
  )}\n\n`,
);
process.stdout.write(
  `${table(
    ["round", "target/s", "sent/s", "answered/s", "new id after ms", "last old id after ms", "check ms", "workers ms", "statuses", "5xx", "no response", "reload"],
    rounds.map((r) => {
      const line = swapLines.find((l) => l.id === r.newId);
      return [
        r.name,
        n0(r.load.targetRps),
        n0(r.load.sentRps),
        n0(r.load.rps),
        n0(r.newServedMs),
        n0(r.lastOldMs),
        line ? n0(line.checkMs) : "n/a",
        line ? n0(line.workersMs) : "n/a",
        Object.entries(r.load.statuses)
          .map(([s, c]) => `${s}: ${c}`)
          .join(", "),
        String(r.fivexx),
        r.errors ? `${r.errors} ${JSON.stringify(r.load.errorKinds)}` : "0",
        r.reloadRun ? `exit ${r.reloadRun.code}, ${n0(r.reloadRun.ms)} ms` : "-",
      ];
    }),
  )}\n`,
);
const lag = Math.max(...rounds.map((r) => r.load.maxLagMs));
process.stdout.write(`the generator's sends lagged their schedule by at most ${fmt(lag, 1)} ms\n`);
if (refusals.length) process.stdout.write(`the server refused: ${refusals.join("; ")}\n`);

const failures: string[] = [];
for (const r of rounds) {
  if (r.fivexx) failures.push(`${r.name}: ${r.fivexx} 5xx`);
  if (r.errors) failures.push(`${r.name}: ${r.errors} request(s) without a response ${JSON.stringify(r.load.errorKinds)}`);
  if (!Number.isFinite(r.newServedMs)) failures.push(`${r.name}: snapshot ${r.newId} was never served`);
  if (r.reloadRun && r.reloadRun.code !== 0) failures.push(`${r.name}: reload exited ${r.reloadRun.code}: ${r.reloadRun.output}`);
}
for (const f of failures) process.stdout.write(`FAIL ${f}\n`);

mkdirSync(dirname(o.out), { recursive: true });
writeFileSync(
  o.out,
  JSON.stringify(
    {
      commit,
      cores: availableParallelism(),
      cpu: cpus()[0]?.model,
      loadavg: { before: loadBefore, after: loadAfter },
      options: o,
      scale,
      marketMb,
      peak: peak!,
      target,
      rounds: rounds.map(({ load, ...r }) => ({ ...r, load: { ...load, record: undefined } })),
      swapLines,
      refusals,
      failures,
    },
    null,
    2,
  ),
);
if (o.keep) log(`kept ${runDir} and the records in ${recordDir}`);
else {
  rmSync(runDir, { recursive: true, force: true });
  rmSync(recordDir, { recursive: true, force: true });
}
process.exit(failures.length ? 1 : 0);
