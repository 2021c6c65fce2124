#!/usr/bin/env bun
/**
 * bench/core: what auth + metering cost.
 *
 *   bun bench/core.ts [--rounds 3] [--seconds 10] [--connections 32] [--threads 2] [--warmup 3]
 *                     [--loadgen auto|wrk|bun] [--keep] [--out .bench/core.json] [--at REF]
 *                     [--profile] [--diag] [--what-if [A,B]]
 *
 * Four servers, each its own process (bench/core-server.ts), all serving GET /v1/categories:
 *   bare     the app with auth and metering off (openDeps(config, { bare: true }))
 *   metered  the app with metering, one thread: enterprise-like key (argon2 once, then cached),
 *            rate-limit counters, the DU ledger row committed before the response, the DU headers
 *   served   `artmarket serve --workers 1` itself: the same app in a worker thread, the key
 *            verified by the supervisor, the ledger rows committed by the supervisor (the
 *            cross-worker path of every server), the counters in shared memory
 *   raw      Bun.serve + the same SQL + JSON.stringify, no framework: the floor
 * The load generator (wrk when on PATH, else bench/lib/loadgen.ts) runs in its own process too.
 * Modes alternate (bare, metered, served, raw, bare, …) for --rounds rounds; the table shows medians.
 * The bench user sits on its own `bench` plan (enterprise with unbounded request rates), so
 * what is measured is the metering, not 429s. After the metered runs the du_ledger rows of the
 * bench user are counted against the 200s the load generator and the server counted.
 * Results also go to .bench/core.json. Everything is on 127.0.0.1; the bench stops by itself.
 * --at REF measures the service as committed at REF (exported to a temp dir) rather than the
 * working tree, which others may be editing while the bench runs.
 *
 * Diagnostics (results go to .bench/core-diag.json instead, as they disturb the figures):
 *   --profile  runs the bare and metered servers under Bun's CPU profiler (--cpu-prof-md),
 *              the Markdown profiles land in .bench/profiles/
 *   --diag     counts the ledger's group commits and prints the mean batch size per metered run
 *   --what-if [A,B]  adds a fourth mode: the metered app with changes of bench/lib/whatif.ts applied
 *              at run time (its own copy of the data dir), to measure suggestions before making them;
 *              default: the suggested ones (dataVersionPerTick,dailyPerBatch,leanTable,bigCheckpoint)
 * bench/lib/profile.ts measures the metered path's steps one by one, in process.
 */
import { Database } from "bun:sqlite";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { accountDbPath, openAccountDb } from "../src/db/connection";
import type { ServerStats } from "./core-server";
import type { LoadOptions, LoadResult } from "./lib/load";
import { runBunLoad } from "./lib/loadgen";
import { prepareDataDir } from "./lib/setup";
import { fmt, median, table } from "./lib/stats";
import { leanLedgerTable, parseWhatIfs, SUGGESTED, type WhatIf } from "./lib/whatif";
import { runWrk, wrkPath } from "./lib/wrk";
import { readFlags } from "./lib/flags";

const MODES = ["bare", "metered", "served", "raw"] as const;
/** whatif: the metered app with bench/lib/whatif.ts applied, only with --what-if. */
type Mode = (typeof MODES)[number] | "whatif";
const metering = (mode: Mode) => mode === "metered" || mode === "served" || mode === "whatif";
const PATH = "/v1/categories";
const TARGET = 0.9;
const ROOT = resolve(import.meta.dir, "..");

// ---------------------------------------------------------------- flags

function parseFlags(argv: string[]) {
  const flags = readFlags(argv);
  const int = (name: string, def: number, min: number, max: number) => {
    const v = flags[name];
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in ${min}..${max}`);
    return n;
  };
  const loadgen = (flags.loadgen ?? "auto") as string;
  if (!["auto", "wrk", "bun"].includes(loadgen)) throw new Error("--loadgen must be auto, wrk or bun");
  return {
    rounds: int("rounds", 3, 1, 20),
    seconds: int("seconds", 10, 1, 120),
    connections: int("connections", 32, 1, 1024),
    threads: int("threads", 2, 1, 64),
    warmup: int("warmup", 3, 0, 60),
    maxRequests: int("max-requests", 5_000_000, 1, 100_000_000),
    loadgen: loadgen as "auto" | "wrk" | "bun",
    profile: flags.profile === true,
    diag: flags.diag === true,
    whatIf: flags["what-if"] === undefined ? null : parseWhatIfs(flags["what-if"] === true ? SUGGESTED.join(",") : flags["what-if"]),
    keep: flags.keep === true,
    at: typeof flags.at === "string" ? flags.at : null,
    // Diagnostic runs (profiler attached, flush wrapped) do not overwrite the benchmark's results.
    out: resolve(ROOT, typeof flags.out === "string" ? flags.out : flags.profile || flags.diag || flags["what-if"] ? ".bench/core-diag.json" : ".bench/core.json"),
  };
}

// ---------------------------------------------------------------- servers

interface Server {
  mode: Mode;
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  stats(): Promise<ServerStats>;
  /** CPU time (user + system, all threads) the server process has used, in seconds; NaN off Linux. */
  cpuSeconds(): number;
  /**
   * The same for the thread whose event loop answers the requests, where they, SQLite and JS run:
   * the main thread, or with `served` the HTTP worker's thread.
   */
  loopCpuSeconds(): number;
  stop(): Promise<void>;
}

const CLOCK_TICKS = 100; // USER_HZ: what /proc/<pid>/stat counts in on Linux

/** CPU seconds of a process (all threads), or of one of its threads with `tid`. */
function cpuSecondsOf(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
  } catch {
    return Number.NaN;
  }
}

/**
 * The thread of a `served` process that answers the requests: its busiest thread named "Worker"
 * (Bun's name for a Worker's thread; the other one is account.db's checkpoint thread, which is
 * nearly idle). Looked up once, after the server answered its first requests.
 */
function busiestWorkerThread(pid: number): number | undefined {
  let best: { tid: number; cpu: number } | undefined;
  try {
    for (const name of readdirSync(`/proc/${pid}/task`)) {
      const tid = Number(name);
      if (readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim() !== "Worker") continue;
      const cpu = cpuSecondsOf(pid, tid);
      if (!best || cpu > best.cpu) best = { tid, cpu };
    }
  } catch {
    // no /proc (not Linux)
  }
  return best?.tid;
}

const started: Server[] = [];

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: Timer;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]);
}

async function startServer(mode: Mode, dataDir: string, profileDir: string | null, diag: boolean, whatIf: WhatIf[] | null): Promise<Server> {
  const waiting: ((s: ServerStats) => void)[] = [];
  const bunArgs = profileDir && mode !== "raw" ? ["--cpu-prof-md", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${mode}.md`] : [];
  const proc = Bun.spawn(
    [
      process.execPath,
      ...bunArgs,
      join(import.meta.dir, "core-server.ts"),
      ...["--mode", mode === "whatif" ? "metered" : mode, "--data", dataDir, "--port", "0"],
      ...(diag ? ["--diag"] : []),
      ...(mode === "whatif" && whatIf?.length ? ["--what-if", whatIf.join(",")] : []),
    ],
    {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "inherit",
      ipc(message) {
        waiting.shift()?.(message as ServerStats);
      },
    },
  );
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const firstLine = async () => {
    for (let i = 0; i < 1000 && !buffered.includes("\n"); i++) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
    }
    return buffered.split("\n")[0]!;
  };
  let line: string;
  try {
    line = await withTimeout(firstLine(), 30_000, `${mode} server start`);
  } catch (err) {
    proc.kill("SIGKILL");
    throw err;
  }
  const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
  if (!m) {
    proc.kill("SIGKILL");
    throw new Error(`${mode} server did not start: "${line}"`);
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  void (async () => {
    for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
  })();
  let loopTid: number | undefined;
  const server: Server = {
    mode,
    url: m[1]!,
    proc,
    cpuSeconds: () => cpuSecondsOf(proc.pid),
    loopCpuSeconds: () => {
      if (mode !== "served") return cpuSecondsOf(proc.pid, proc.pid);
      loopTid ??= busiestWorkerThread(proc.pid);
      return loopTid === undefined ? Number.NaN : cpuSecondsOf(proc.pid, loopTid);
    },
    stats: () =>
      withTimeout(
        new Promise<ServerStats>((res) => {
          waiting.push(res);
          proc.send("stats");
        }),
        5_000,
        `${mode} server stats`,
      ),
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGTERM");
      const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
      if (!exited) proc.kill("SIGKILL");
    },
  };
  started.push(server);
  return server;
}

/** Waits until the server's counters stop moving (requests wrk abandoned at its deadline finish). */
async function settledStats(s: Server): Promise<ServerStats> {
  let last = await s.stats();
  for (let i = 0; i < 30; i++) {
    await Bun.sleep(100);
    const now = await s.stats();
    if (now.ok === last.ok && now.other === last.other) return now;
    last = now;
  }
  return last;
}

// ---------------------------------------------------------------- machine

function machine() {
  let model = "unknown";
  try {
    model = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? model;
  } catch {}
  return { nproc: availableParallelism(), model, bun: Bun.version, platform: `${process.platform} ${process.arch}` };
}

/** Which code is measured: the commit, and the files under src/ that differ from it. */
function gitState(): { head: string; dirtySrc: string[] } {
  // Under --at, the parent exported a commit and says which.
  if (process.env.ARTMARKET_BENCH_CODE) return { head: process.env.ARTMARKET_BENCH_CODE, dirtySrc: [] };
  const run = (args: string[]) => {
    const p = Bun.spawnSync(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
    return p.exitCode === 0 ? p.stdout.toString().trimEnd() : "";
  };
  const dirty = run(["status", "--porcelain", "--", "src"]);
  return { head: run(["rev-parse", "--short", "HEAD"]) || "unknown", dirtySrc: dirty ? dirty.split("\n").map((l) => l.slice(3)) : [] };
}

/**
 * --at REF: measures the service as committed at REF instead of the working tree (other people
 * edit src/ while a bench runs). `git archive REF` is unpacked into a temp dir, node_modules is
 * linked, the working tree's bench/ copied in, and the bench re-run from there.
 */
let atChild: ReturnType<typeof Bun.spawn> | null = null;

async function runAt(ref: string, argv: string[], out: string): Promise<number> {
  const git = (args: string[]) => {
    const p = Bun.spawnSync(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${p.stderr.toString().trim()}`);
    return p.stdout.toString().trim();
  };
  const sha = git(["rev-parse", "--short", `${ref}^{commit}`]);
  const dir = mkdtempSync(join(tmpdir(), "artmarket-at-"));
  try {
    git(["archive", "--format=tar", "-o", join(dir, "src.tar"), sha]);
    const tar = Bun.spawnSync(["tar", "-xf", "src.tar"], { cwd: dir, stderr: "pipe" });
    if (tar.exitCode !== 0) throw new Error(`tar: ${tar.stderr.toString()}`);
    rmSync(join(dir, "src.tar"));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    rmSync(join(dir, "bench"), { recursive: true, force: true });
    cpSync(join(ROOT, "bench"), join(dir, "bench"), { recursive: true });
    const rest: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      if (argv[i] === "--at" || argv[i] === "--out") i++;
      else rest.push(argv[i]!);
    }
    process.stderr.write(`bench/core --at ${ref}: measuring commit ${sha}, exported to ${dir}\n`);
    const child = Bun.spawn([process.execPath, join(dir, "bench", "core.ts"), ...rest, "--out", out], {
      cwd: dir,
      stdio: ["inherit", "inherit", "inherit"],
      env: { ...process.env, ARTMARKET_BENCH_CODE: `${sha} (--at ${ref}, working tree's bench/)` },
    });
    atChild = child;
    return await child.exited;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- main

interface Run {
  round: number;
  mode: Mode;
  warmup: boolean;
  result: LoadResult;
  /** Metering modes: du_ledger rows of the bench user added during the run, and the server's 200s. */
  ledgerRows?: number;
  serverOk?: number;
  serverWithDu?: number;
  /** With --diag: mean group-commit batch size during the run. */
  meanBatch?: number;
  /** With --diag: requests the ledger committed alone, in their own turn (it was idle). */
  immediateCommits?: number;
  /** CPU the server process used during the run per request it answered (less noisy than req/s). */
  serverCpuUsPerRequest: number;
  /** The same for the thread that answers the requests alone (the main thread; served: the HTTP worker's). */
  loopCpuUsPerRequest: number;
}

interface LedgerCheck {
  mode: Mode;
  rowsDuringRuns: number;
  loadgen200s: number;
  loadgenNon2xx: number;
  loadgenWithDu: number;
  server200s: number;
  serverWithDu: number;
  /** Requests wrk had sent when its time ran out: handled and charged, their responses never read. */
  abandonedInFlight: number;
  totalRows: number;
  totalServer200s: number;
  /** rows = 200s the server sent, during the runs and all time. */
  exact: boolean;
  /** Every 200 carried X-Service-DataUnits; no non-2xx. */
  everyResponseMetered: boolean;
  /** Load generator 200s + requests abandoned in flight = server 200s, at most one per connection per run. */
  inFlightBounded: boolean;
  ok: boolean;
}

async function main(): Promise<number> {
  const o = parseFlags(process.argv.slice(2));
  if (o.at) return runAt(o.at, process.argv.slice(2), o.out);
  const useWrk = o.loadgen === "wrk" || (o.loadgen === "auto" && wrkPath() !== null);
  if (o.loadgen === "wrk" && !wrkPath()) throw new Error("--loadgen wrk: wrk is not on PATH (apt-get install wrk)");
  const modes: Mode[] = o.whatIf ? [...MODES, "whatif"] : [...MODES];
  const load = (url: string, seconds: number, key: string): Promise<LoadResult> => {
    const opts: LoadOptions = {
      url: url + PATH,
      // Every mode gets the same request bytes; bare and raw ignore the header.
      headers: { Authorization: `Bearer ${key}` },
      connections: o.connections,
      threads: o.threads,
      seconds,
      maxRequests: o.maxRequests,
    };
    return useWrk ? runWrk(opts) : runBunLoad(opts);
  };
  const m = machine();
  const git = gitState();
  const log = (s: string) => process.stderr.write(`${s}\n`);
  log(
    `bench/core: ${m.nproc} × ${m.model}, bun ${m.bun}; load generator ${useWrk ? "wrk" : "bun (fallback)"}; ` +
      `${o.rounds} rounds × ${modes.length} modes × ${o.seconds}s, ${o.connections} connections`,
  );
  log(`code: ${git.head}${git.dirtySrc.length ? ` with uncommitted changes to ${git.dirtySrc.join(", ")}` : " (src/ clean)"}`);

  const dataDir = mkdtempSync(join(tmpdir(), "artmarket-bench-"));
  const whatIfDir = `${dataDir}-whatif`;
  const ledgerDbs: Database[] = [];
  try {
    const user = await prepareDataDir(dataDir);
    if (o.whatIf) {
      // Its own copy of the data dir (same key), with the lean du_ledger table if asked.
      cpSync(dataDir, whatIfDir, { recursive: true });
      if (o.whatIf.includes("leanTable")) {
        const db = openAccountDb(whatIfDir);
        leanLedgerTable(db);
        db.close();
      }
      log(`what-if mode: ${o.whatIf.join(", ") || "(nothing: a second metered server)"}`);
    }
    // the served server has a copy of its own (same key): each metering mode's ledger is its own
    const servedDir = `${dataDir}-served`;
    cpSync(dataDir, servedDir, { recursive: true });
    const dirOf = (mode: Mode) => (mode === "whatif" ? whatIfDir : mode === "served" ? servedDir : dataDir);

    const profileDir = o.profile ? join(dirname(o.out), "profiles") : null;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const servers = {} as Record<Mode, Server>;
    for (const mode of modes) servers[mode] = await startServer(mode, dirOf(mode), profileDir, o.diag, o.whatIf);
    log(`servers: ${modes.map((mode) => `${mode} ${servers[mode].url}`).join(", ")}; data ${dataDir}`);

    const ledgerRows = {} as Record<Mode, () => number>;
    for (const mode of modes.filter(metering)) {
      const db = new Database(accountDbPath(dirOf(mode)), { readonly: true });
      ledgerDbs.push(db);
      const count = db.query<{ n: number }, [number]>("SELECT count(*) AS n FROM du_ledger WHERE user_id = ?");
      ledgerRows[mode] = () => count.get(user.userId)!.n;
    }

    // ---- sanity: every mode answers 200 with the same body; only the metering modes carry DU headers
    const bodies: Partial<Record<Mode, string>> = {};
    for (const mode of modes) {
      const res = await fetch(servers[mode].url + PATH, { headers: { Authorization: `Bearer ${user.key}` } });
      bodies[mode] = await res.text();
      const du = res.headers.get("X-Service-DataUnits");
      if (res.status !== 200) throw new Error(`${mode}: GET ${PATH} answered ${res.status}: ${bodies[mode]}`);
      if (metering(mode) !== (du !== null)) throw new Error(`${mode}: X-Service-DataUnits is ${du ?? "missing"}`);
      if (bodies[mode] !== bodies.bare) throw new Error(`${mode} does not serve the same body as bare`);
    }
    log(`sanity: 200 and identical ${bodies.bare!.length}-byte bodies from all modes; metered carries X-Service-DataUnits`);

    // ---- runs: a warm-up per mode, then the rounds, modes alternating
    const runs: Run[] = [];
    const runOne = async (round: number, mode: Mode, seconds: number, warmup: boolean) => {
      const server = servers[mode];
      const before = {
        rows: metering(mode) ? ledgerRows[mode]() : 0,
        server: await server.stats(),
        cpu: server.cpuSeconds(),
        loop: server.loopCpuSeconds(),
      };
      const result = await load(server.url, seconds, user.key);
      const after = await settledStats(server);
      const handled = after.ok + after.other - before.server.ok - before.server.other;
      const run: Run = {
        round,
        mode,
        warmup,
        result,
        serverCpuUsPerRequest: ((server.cpuSeconds() - before.cpu) * 1e6) / handled,
        loopCpuUsPerRequest: ((server.loopCpuSeconds() - before.loop) * 1e6) / handled,
      };
      if (metering(mode)) {
        run.ledgerRows = ledgerRows[mode]() - before.rows;
        run.serverOk = after.ok - before.server.ok;
        run.serverWithDu = after.withDu - before.server.withDu;
        if (after.commits !== undefined) run.meanBatch = (after.committed! - before.server.committed!) / (after.commits - before.server.commits!);
        if (after.immediate !== undefined) run.immediateCommits = after.immediate - before.server.immediate!;
      }
      runs.push(run);
      const r = result;
      log(
        `${warmup ? "warm-up" : `round ${round}`} ${mode.padEnd(7)} ${fmt(r.rps, 0).padStart(7)} req/s  p50 ${fmt(r.p50ms, 3)} ms  ` +
          `p99 ${fmt(r.p99ms, 3)} ms  server CPU ${fmt(run.serverCpuUsPerRequest, 1)} µs/req ` +
          `(loop thread ${fmt(run.loopCpuUsPerRequest, 1)})  ` +
          `200s ${r.ok200}  non-2xx ${r.non2xx}  socket errors ${r.socketErrors}` +
          (run.ledgerRows !== undefined ? `  ledger +${run.ledgerRows} (server sent ${run.serverOk} 200s)` : "") +
          (run.meanBatch !== undefined ? `  mean commit batch ${fmt(run.meanBatch, 1)}` : "") +
          (run.immediateCommits !== undefined ? ` (${run.immediateCommits} requests committed alone)` : ""),
      );
    };
    if (o.warmup > 0) for (const mode of modes) await runOne(0, mode, o.warmup, true);
    for (let round = 1; round <= o.rounds; round++) for (const mode of modes) await runOne(round, mode, o.seconds, false);

    // ---- summary: medians per mode
    const measured = runs.filter((r) => !r.warmup);
    const summary = {} as Record<
      Mode,
      {
        rps: number;
        p50ms: number;
        p99ms: number;
        ratio: number;
        non2xx: number;
        requests: number;
        cpuUs: number;
        loopCpuUs: number;
        cpuRatio: number;
      }
    >;
    for (const mode of modes) {
      const runsOf = measured.filter((r) => r.mode === mode);
      const mine = runsOf.map((r) => r.result);
      summary[mode] = {
        cpuUs: median(runsOf.map((r) => r.serverCpuUsPerRequest)),
        loopCpuUs: median(runsOf.map((r) => r.loopCpuUsPerRequest)),
        cpuRatio: Number.NaN,
        rps: median(mine.map((r) => r.rps)),
        p50ms: median(mine.map((r) => r.p50ms)),
        p99ms: median(mine.map((r) => r.p99ms)),
        ratio: Number.NaN,
        non2xx: mine.reduce((s, r) => s + r.non2xx, 0),
        requests: mine.reduce((s, r) => s + r.requests, 0),
      };
    }
    for (const mode of modes) {
      summary[mode].ratio = summary[mode].rps / summary.bare.rps;
      summary[mode].cpuRatio = summary.bare.cpuUs / summary[mode].cpuUs;
    }
    const ratio = summary.metered.ratio;
    // Paired: each round's mode against the same round's bare (adjacent in time), then the median.
    const paired = {} as Record<Mode, number[]>;
    for (const mode of modes) {
      paired[mode] = [];
      for (let round = 1; round <= o.rounds; round++) {
        const b = measured.find((r) => r.round === round && r.mode === "bare")!.result.rps;
        paired[mode].push(measured.find((r) => r.round === round && r.mode === mode)!.result.rps / b);
      }
    }

    // ---- the ledger against the 200s
    const ledgers: LedgerCheck[] = [];
    for (const mode of modes.filter(metering)) {
      const mine = runs.filter((r) => r.mode === mode);
      const sum = (f: (r: Run) => number) => mine.reduce((s, r) => s + f(r), 0);
      const final = await servers[mode].stats();
      const c = {
        mode,
        rowsDuringRuns: sum((r) => r.ledgerRows!),
        loadgen200s: sum((r) => r.result.ok200),
        loadgenNon2xx: sum((r) => r.result.non2xx),
        loadgenWithDu: sum((r) => r.result.withDu),
        server200s: sum((r) => r.serverOk!),
        serverWithDu: sum((r) => r.serverWithDu!),
        abandonedInFlight: sum((r) => r.serverOk! - r.result.ok200),
        totalRows: ledgerRows[mode](),
        totalServer200s: final.ok,
      };
      const exact = c.rowsDuringRuns === c.server200s && c.totalRows === c.totalServer200s;
      const everyResponseMetered = c.loadgenWithDu === c.loadgen200s && c.serverWithDu === c.server200s && c.loadgenNon2xx === 0;
      const inFlightBounded = mine.every((r) => r.serverOk! - r.result.ok200 >= 0 && r.serverOk! - r.result.ok200 <= o.connections);
      ledgers.push({ ...c, exact, everyResponseMetered, inFlightBounded, ok: exact && everyResponseMetered && inFlightBounded });
    }

    const out = process.stdout;
    out.write(
      `\nbench/core: ${m.nproc} × ${m.model}, bun ${m.bun}, ${useWrk ? `wrk -t${o.threads}` : "bun load generator"} -c${o.connections}, ` +
        `${o.rounds} rounds × ${o.seconds}s per mode; code ${git.head}${git.dirtySrc.length ? ` + uncommitted ${git.dirtySrc.join(", ")}` : ""}\n\n`,
    );
    out.write(
      `${table(
        ["mode", "req/s (median)", "p50 ms", "p99 ms", "vs bare", "per-round vs bare", "CPU µs/req", "loop µs/req", "bare/this CPU", "non-2xx"],
        modes.map((mode) => {
          const s = summary[mode];
          const rounds = paired[mode].map((x) => fmt(x, 2)).join(" ");
          const name = mode === "whatif" ? "metered + what-ifs" : mode;
          const cpu = [fmt(s.cpuUs, 1), fmt(s.loopCpuUs, 1), fmt(s.cpuRatio, 2)];
          return [name, fmt(s.rps, 0), fmt(s.p50ms, 3), fmt(s.p99ms, 3), fmt(s.ratio, 2), rounds, ...cpu, String(s.non2xx)];
        }),
      )}\n\n`,
    );
    for (const l of ledgers) {
      const name = l.mode === "whatif" ? "ledger (what-ifs)" : "ledger";
      out.write(
        `${name}: ${l.rowsDuringRuns} du_ledger rows written during the ${l.mode} runs; ` +
          `${l.loadgen200s} 200s counted by ${useWrk ? "wrk" : "the load generator"} ` +
          `(${l.loadgenWithDu} with X-Service-DataUnits, ${l.loadgenNon2xx} non-2xx); ${l.server200s} 200s sent by the server` +
          (l.abandonedInFlight ? ` (${l.abandonedInFlight} were in flight when wrk stopped and were never read)` : "") +
          `\n${name} check: ${l.ok ? "OK" : "MISMATCH"} (rows ${l.rowsDuringRuns} = server 200s ${l.server200s}; ` +
          `all time ${l.totalRows} = ${l.totalServer200s}; load generator 200s ${l.loadgen200s} + in flight ${l.abandonedInFlight} = ` +
          `${l.loadgen200s + l.abandonedInFlight})\n`,
      );
    }
    if (o.whatIf) {
      out.write(`metered + what-ifs (${o.whatIf.join(", ")})/bare throughput ratio: ${fmt(summary.whatif.ratio, 2)} (bench/lib/whatif.ts, not the service)\n`);
    }
    out.write(
      `server CPU per request, metered vs bare: ${fmt(summary.metered.cpuUs, 1)} vs ${fmt(summary.bare.cpuUs, 1)} µs ` +
        `(bare/metered ${fmt(summary.metered.cpuRatio, 2)}: the throughput ratio a CPU-bound server would show, less sensitive to other load)\n`,
    );
    out.write(`metered/bare throughput ratio: ${fmt(ratio, 2)} (target >= ${TARGET.toFixed(2)})\n`);
    out.write(
      `served (serve --workers 1: supervisor + one worker)/bare throughput ratio: ${fmt(summary.served.ratio, 2)}; ` +
        `CPU per request ${fmt(summary.served.cpuUs, 1)} µs, all threads (bare/served ${fmt(summary.served.cpuRatio, 2)})\n`,
    );

    mkdirSync(dirname(o.out), { recursive: true });
    writeFileSync(
      o.out,
      `${JSON.stringify(
        {
          bench: "core",
          date: new Date().toISOString(),
          command: `bun bench/core.ts ${process.argv.slice(2).join(" ")}`.trim(),
          machine: m,
          git,
          config: { ...o, out: undefined, loadgen: useWrk ? "wrk" : "bun", path: PATH, modes },
          summary,
          pairedRatios: paired,
          ratio,
          target: TARGET,
          targetMet: ratio >= TARGET,
          ledger: ledgers,
          runs,
        },
        null,
        2,
      )}\n`,
    );
    log(`results written to ${o.out}`);
    if (profileDir) log(`CPU profiles (markdown) in ${profileDir}`);
    // The what-if server's ledger is reported, but only the service's own decides the exit code.
    return ledgers.every((l) => l.ok || l.mode === "whatif") ? 0 : 1;
  } finally {
    for (const db of ledgerDbs) db.close();
    await Promise.all(started.map((s) => s.stop()));
    if (o.keep) log(`data dir kept: ${dataDir} (and ${dataDir}-served${o.whatIf ? `, ${whatIfDir}` : ""})`);
    else for (const dir of [dataDir, `${dataDir}-served`, whatIfDir]) rmSync(dir, { recursive: true, force: true });
  }
}

const killAll = () => {
  atChild?.kill("SIGTERM"); // it stops its own servers
  for (const s of started) s.proc.kill("SIGKILL");
  process.exit(130);
};
process.on("SIGINT", killAll);
process.on("SIGTERM", killAll);

try {
  process.exit(await main());
} catch (err) {
  for (const s of started) s.proc.kill("SIGKILL");
  process.stderr.write(`bench/core: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
