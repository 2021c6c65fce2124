#!/usr/bin/env bun
/**
 * bench/api: the read API under a realistic query mix, against the floor.
 *
 *   bun bench/api.ts [--data DIR | --scale large] [--urls 200] [--requests 300] [--rounds 3]
 *                    [--seconds 10] [--warmup 2] [--connections 16] [--threads 2] [--follows 50]
 *                    [--cases a,b] [--profile-urls 40] [--skip-load] [--skip-single] [--seed 1986]
 *                    [--out .bench/api.json] [--keep] [--cpu-prof] [--what-if sync-ledger]
 *
 * The market: --data DIR (any scale), else /tmp/artmarket-<scale> (default large), seeded there
 * on first use with `bun src/cli.ts seed --scale <scale>` and kept for later runs. Each run serves
 * it from a scratch data dir (market.db hard-linked, a fresh account.db with the `bench` plan:
 * enterprise with unbounded request rates and allowance; one user, one key, --follows of each
 * kind followed). See bench/lib/api-setup.ts.
 *
 * The mix (bench/lib/api-cases.ts): 16 cases, each one endpoint and one kind of question, with
 * --urls concrete URLs drawn from the market (seeded). Two servers, each its own process:
 *   service  `bun src/cli.ts serve --data DIR --port 0 --workers 1 --log-format off`: the product (Elysia, auth, validation, metering)
 *   floor    `bun bench/api-floor.ts`: Bun.serve + the endpoints' service calls + JSON.stringify
 *
 * Steps:
 *   1. every URL once on both servers (warms the caches; all must be 200; the first 3 bodies of
 *      each case must be identical on both, origins aside)
 *   2. single client: per case, --requests sequential requests (keep-alive fetch), service then
 *      floor; p50/p95/p99. Target: service p95 < 25 ms.
 *   3. in process: per case, where the handler's time goes (SQL, presentation, JSON), and
 *      EXPLAIN QUERY PLAN of every statement; a SCAN of lots/artworks/artists without an index fails.
 *   4. under load: per case, wrk -c16 cycling through the case's URLs, service and floor
 *      alternating (the order flips each round), --rounds rounds after a warm-up; medians.
 *      Target: service req/s >= 0.5 × floor req/s. The same for the whole mix ("mix": all cases' URLs in turn).
 *   lots.deep-page: page 1,000 of broad lot lists by cursor and by offset beside their first page.
 *      Target: the cursor's single-client p95 within 1.5× of the first page's; its p95 < 25 ms is
 *      the first pages' and the cursor pages' (a page by offset reads every row before it).
 * Results: a table on stdout, JSON in .bench/api.json. Only 127.0.0.1; the servers are stopped at the end.
 * --cpu-prof runs both servers under Bun's CPU profiler (Markdown profiles in .bench/profiles/,
 * JSON in .bench/api-diag.json): use it with --cases to see where a case's time goes.
 * --what-if sync-ledger adds a third server under load, the service with the ledger committing
 * each row in its request's own turn (bench/lib/api-service-whatif.ts); JSON in .bench/api-diag.json.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { marketDbPath } from "../src/db/connection";
import { ImageSigner, loadSecret } from "../src/serve/images/urls";
import { buildCases, DEEP_PAGE, DEEP_TARGET, deepPageCase, mixUrls, type ApiCase } from "./lib/api-cases";
import { profileCases, type CaseProfile } from "./lib/api-profile";
import { ensureMarket, makeRunDir } from "./lib/api-setup";
import { removeLinkedScratch } from "./lib/linked-market";
import { runWrkPaths, type WrkRun } from "./lib/api-wrk";
import { fmt, median, percentileSorted, table } from "./lib/stats";
import { wrkPath } from "./lib/wrk";
import { readFlags } from "./lib/flags";

const ROOT = resolve(import.meta.dir, "..");
const P95_TARGET_MS = 25;
const RATIO_TARGET = 0.5;
/** whatif: the service with a change of bench/lib/api-service-whatif.ts, only with --what-if, only under load. */
type Mode = "service" | "floor" | "whatif";
const MODES: Mode[] = ["service", "floor"];

// ---------------------------------------------------------------- flags

function parseFlags(argv: string[]) {
  const flags = readFlags(argv);
  const known = [
    "data",
    "scale",
    "urls",
    "requests",
    "rounds",
    "seconds",
    "warmup",
    "connections",
    "threads",
    "follows",
    "cases",
    "profile-urls",
    "skip-load",
    "skip-single",
    "seed",
    "out",
    "keep",
    "cpu-prof",
    "what-if",
  ];
  for (const k of Object.keys(flags)) if (!known.includes(k)) throw new Error(`unknown option --${k}`);
  const int = (name: string, def: number, min: number, max: number) => {
    const v = flags[name];
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in ${min}..${max}`);
    return n;
  };
  const scale = typeof flags.scale === "string" ? flags.scale : "large";
  if (!["tiny", "small", "medium", "large", "full"].includes(scale)) throw new Error("--scale must be tiny, small, medium, large or full");
  return {
    data: typeof flags.data === "string" ? resolve(flags.data) : `/tmp/artmarket-${scale}`,
    anyScale: typeof flags.data === "string" && flags.scale === undefined,
    scale,
    urls: int("urls", 200, 1, 10_000),
    requests: int("requests", 300, 1, 100_000),
    rounds: int("rounds", 3, 1, 20),
    seconds: int("seconds", 10, 1, 120),
    warmup: int("warmup", 2, 0, 60),
    connections: int("connections", 16, 1, 1024),
    threads: int("threads", 2, 1, 64),
    follows: int("follows", 50, 0, 10_000),
    profileUrls: int("profile-urls", 40, 0, 10_000),
    seed: int("seed", 1986, 0, 2 ** 31 - 1),
    cases:
      typeof flags.cases === "string"
        ? flags.cases
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : null,
    skipLoad: flags["skip-load"] === true,
    skipSingle: flags["skip-single"] === true,
    keep: flags.keep === true,
    cpuProf: flags["cpu-prof"] === true,
    whatIf: (() => {
      const v = flags["what-if"];
      if (v === undefined) return null;
      if (v !== "sync-ledger") throw new Error("--what-if: the one what-if is sync-ledger");
      return v;
    })(),
    // A profiled run disturbs the figures: its results do not overwrite the benchmark's.
    out: resolve(ROOT, typeof flags.out === "string" ? flags.out : flags["cpu-prof"] || flags["what-if"] ? ".bench/api-diag.json" : ".bench/api.json"),
  };
}

// ---------------------------------------------------------------- machine and code

function machine() {
  let model = "unknown";
  try {
    model = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? model;
  } catch {}
  let memGiB = Number.NaN;
  try {
    memGiB = Number(/^MemTotal:\s+(\d+) kB/m.exec(readFileSync("/proc/meminfo", "utf8"))?.[1]) / 1024 / 1024;
  } catch {}
  const wrk = wrkPath();
  const wrkVersion = wrk ? (/wrk (\S+)/.exec(Bun.spawnSync([wrk, "--version"]).stdout.toString())?.[1] ?? "?") : null;
  return { nproc: availableParallelism(), model, memGiB: Math.round(memGiB), bun: Bun.version, wrk: wrkVersion, platform: `${process.platform} ${process.arch}` };
}

function gitState(): { head: string; dirtySrc: string[] } {
  const run = (args: string[]) => {
    const p = Bun.spawnSync(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
    return p.exitCode === 0 ? p.stdout.toString().trimEnd() : "";
  };
  const dirty = run(["status", "--porcelain", "--", "src"]);
  return { head: run(["rev-parse", "--short", "HEAD"]) || "unknown", dirtySrc: dirty ? dirty.split("\n").map((l) => l.slice(3)) : [] };
}

const CLOCK_TICKS = 100;
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** Waits (up to 120 s) until process `pid` has used under 5 ms of CPU in each of 3 successive 100 ms; returns the seconds waited. */
async function waitIdle(pid: number): Promise<number> {
  const t0 = performance.now();
  let last = cpuSecondsOf(pid);
  let quiet = 0;
  for (let i = 0; i < 1200 && quiet < 3; i++) {
    await Bun.sleep(100);
    const now = cpuSecondsOf(pid);
    if (!Number.isFinite(now)) break;
    quiet = now - last < 0.005 ? quiet + 1 : 0;
    last = now;
  }
  return (performance.now() - t0) / 1000;
}

// ---------------------------------------------------------------- servers

interface Server {
  mode: Mode;
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  stop(): Promise<void>;
}

const started: Server[] = [];
/** The scratch data dir of this run, removed however the bench ends (unless --keep). */
let scratchDir: string | null = null;

async function startServer(mode: Mode, dataDir: string, userId: number, profileDir: string | null, whatIf: string | null): Promise<Server> {
  const bunArgs = profileDir ? ["--cpu-prof-md", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=api-${mode}.md`] : [];
  const cmd =
    mode === "service"
      ? // one worker, as the floor is one thread (bench/scale.ts measures the workers); no access log on the bench's stderr
        [process.execPath, ...bunArgs, join(ROOT, "src/cli.ts"), "serve", "--data", dataDir, "--port", "0", "--host", "127.0.0.1", "--workers", "1", "--log-format", "off"]
      : mode === "floor"
        ? [process.execPath, ...bunArgs, join(ROOT, "bench/api-floor.ts"), "--data", dataDir, "--user-id", String(userId), "--port", "0"]
        : [process.execPath, ...bunArgs, join(ROOT, "bench/lib/api-service-whatif.ts"), "--data", dataDir, "--port", "0", "--what-if", whatIf!];
  // The bench's own servers get an IPC channel: they stop when the bench goes away, however it goes.
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "inherit", ...(mode !== "service" ? { ipc() {} } : {}) });
  const server: Server = {
    mode,
    url: "",
    proc,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGTERM");
      const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
      if (!exited) proc.kill("SIGKILL");
    },
  };
  started.push(server);
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const deadline = Date.now() + 120_000;
  let url: string | null = null;
  for (let i = 0; i < 10_000 && url === null && Date.now() < deadline; i++) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(Math.max(1, deadline - Date.now())).then(() => null)]);
    if (chunk === null || chunk.done) break;
    buffered += decoder.decode(chunk.value, { stream: true });
    url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(buffered)?.[1] ?? null;
  }
  if (!url) {
    proc.kill("SIGKILL");
    throw new Error(`${mode} server did not start: ${JSON.stringify(buffered.slice(0, 500))}`);
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  void (async () => {
    for (let i = 0; i < 1e9; i++) if ((await reader.read().catch(() => ({ done: true }))).done) return;
  })();
  server.url = url;
  return server;
}

// ---------------------------------------------------------------- single client

interface Single {
  n: number;
  p50ms: number;
  p95ms: number;
  p99ms: number;
  maxMs: number;
  non200: number;
  /** p95 per variant, when the case has several. */
  variants: Record<string, { n: number; p50ms: number; p95ms: number }>;
}

async function singleClient(base: string, c: ApiCase, n: number, headers: Record<string, string>): Promise<Single> {
  const lat = new Float64Array(n);
  const byVariant = new Map<string, number[]>();
  let non200 = 0;
  for (let i = 0; i < n; i++) {
    const u = c.urls[i % c.urls.length]!;
    const t0 = performance.now();
    const res = await fetch(base + u.path, { headers });
    await res.arrayBuffer();
    const ms = performance.now() - t0;
    lat[i] = ms;
    if (res.status !== 200) non200++;
    const list = byVariant.get(u.variant);
    if (list) list.push(ms);
    else byVariant.set(u.variant, [ms]);
  }
  const sorted = lat.slice().sort();
  const variants: Single["variants"] = {};
  if (byVariant.size > 1) {
    for (const [v, xs] of byVariant) {
      const s = Float64Array.from(xs).sort();
      variants[v] = { n: s.length, p50ms: percentileSorted(s, 50), p95ms: percentileSorted(s, 95) };
    }
  }
  return {
    n,
    p50ms: percentileSorted(sorted, 50),
    p95ms: percentileSorted(sorted, 95),
    p99ms: percentileSorted(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
    non200,
    variants,
  };
}

// ---------------------------------------------------------------- main

interface LoadRun extends WrkRun {
  case: string;
  mode: Mode;
  round: number;
  warmup: boolean;
  cpuUsPerRequest: number;
  /** Seconds the server stayed busy after wrk stopped (abandoned requests). */
  drainSeconds: number;
}

async function main(): Promise<number> {
  const o = parseFlags(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  if (!o.skipLoad && !wrkPath()) throw new Error("wrk is not on PATH (Debian: apt-get install wrk), or pass --skip-load");
  const m = machine();
  const git = gitState();
  log(`bench/api: ${m.nproc} × ${m.model}, ${m.memGiB} GiB, bun ${m.bun}, wrk ${m.wrk ?? "absent"}`);
  log(`code: ${git.head}${git.dirtySrc.length ? ` with uncommitted changes to ${git.dirtySrc.join(", ")}` : " (src/ clean)"}`);

  const scale = await ensureMarket(o.data, o.scale, o.anyScale, log);
  const counts = (() => {
    const db = new Database(marketDbPath(o.data), { readonly: true });
    try {
      const n = (t: string) => db.query<{ n: number }, []>(`SELECT max(rowid) AS n FROM ${t}`).get()!.n;
      return { artists: n("artists"), artworks: n("artworks"), lots: n("lots"), sales: n("sales") };
    } finally {
      db.close();
    }
  })();
  log(
    `market: ${o.data} (scale ${scale}; max ids: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")})`,
  );

  // ---- the mix
  const t0 = performance.now();
  const drawDb = new Database(marketDbPath(o.data), { readonly: true });
  let built: ReturnType<typeof buildCases>;
  try {
    built = buildCases(drawDb, { n: o.urls, seed: o.seed, follows: o.follows });
  } finally {
    drawDb.close();
  }
  const run = await makeRunDir(o.data, built.follows);
  if (!o.keep) scratchDir = run.dir;
  // lots.deep-page's cursors are signed with the run's secret (the server's, created here first)
  const deepDb = new Database(marketDbPath(run.dir), { readonly: true });
  try {
    built.cases.push(deepPageCase(deepDb, new ImageSigner(loadSecret(run.dir), null)));
  } finally {
    deepDb.close();
  }
  let cases = built.cases.filter((c) => c.urls.length > 0);
  if (o.cases) {
    const wanted = o.cases;
    cases = cases.filter((c) => wanted.some((w) => c.name === w || c.name.startsWith(`${w}.`) || c.name.startsWith(w)));
    if (!cases.length) throw new Error(`--cases ${o.cases.join(",")} matches none of ${built.cases.map((c) => c.name).join(", ")}`);
  }
  log(`mix: ${cases.length} cases, ${cases.reduce((s, c) => s + c.urls.length, 0)} URLs (drawn in ${fmt((performance.now() - t0) / 1000, 1)} s)`);

  const headers = { Authorization: `Bearer ${run.key}` };
  try {
    log(`run dir: ${run.dir} (market.db by ${run.linked}; bench user ${run.userId} on plan bench)`);
    const servers = {} as Record<Mode, Server>;
    const profileDir = o.cpuProf ? join(dirname(o.out), "profiles") : null;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const loadModes: Mode[] = o.whatIf ? [...MODES, "whatif"] : MODES;
    for (const mode of loadModes) servers[mode] = await startServer(mode, run.dir, run.userId, profileDir, o.whatIf);
    log(`servers: ${loadModes.map((mode) => `${mode} ${servers[mode].url}`).join(", ")}`);

    // ---- 1. every URL once on both: statuses, warm caches, identical bodies
    const failures: string[] = [];
    const t1 = performance.now();
    for (const c of cases) {
      for (let i = 0; i < c.urls.length; i++) {
        const path = c.urls[i]!.path;
        const bodies: Partial<Record<Mode, string>> = {};
        for (const mode of MODES) {
          const res = await fetch(servers[mode].url + path, { headers });
          const text = await res.text();
          if (res.status !== 200) failures.push(`${c.name}: ${mode} answered ${res.status} to ${path}: ${text.slice(0, 200)}`);
          if (mode === "service" && res.status === 200 && !res.headers.has("x-service-dataunits")) failures.push(`${c.name}: no X-Service-DataUnits on ${path}`);
          bodies[mode] = text.replaceAll(servers[mode].url, "ORIGIN");
        }
        if (i < 3 && bodies.service !== bodies.floor) failures.push(`${c.name}: service and floor bodies differ for ${path}`);
      }
    }
    log(`check: ${cases.reduce((s, c) => s + c.urls.length, 0)} URLs on both servers in ${fmt((performance.now() - t1) / 1000, 1)} s, ${failures.length} problems`);
    for (const f of failures.slice(0, 20)) log(`  ${f}`);

    // ---- 2. single client
    const single: Record<string, Record<Mode, Single>> = {};
    if (!o.skipSingle) {
      for (const c of cases) {
        single[c.name] = {} as Record<Mode, Single>;
        for (const mode of MODES) single[c.name]![mode] = await singleClient(servers[mode].url, c, o.requests, headers);
        const s = single[c.name]!;
        log(
          `single ${c.name.padEnd(21)} service p50 ${fmt(s.service.p50ms)} p95 ${fmt(s.service.p95ms)} p99 ${fmt(s.service.p99ms)} ms` +
            `   floor p50 ${fmt(s.floor.p50ms)} p95 ${fmt(s.floor.p95ms)} ms`,
        );
      }
    }

    // ---- 3. in process: time split and query plans
    const profiles: CaseProfile[] = o.profileUrls > 0 ? profileCases(run.dir, run.userId, cases, o.profileUrls) : [];
    for (const p of profiles) {
      log(
        `in process ${p.case.padEnd(21)} handler ${fmt(p.handlerMs)} ms (SQL ${fmt(p.sqlMs)}, rest ${fmt(p.jsMs)}), JSON ${fmt(p.stringifyMs)} ms, ` +
          `${fmt(p.bodyKb, 1)} KB, ${fmt(p.statementsPerRequest, 1)} statements/request` +
          `${p.statements.some((s) => s.fullScans.length) ? "  FULL SCAN" : ""}`,
      );
    }

    // ---- 4. under load
    const loadCases: { name: string; paths: string[] }[] = cases.map((c) => ({ name: c.name, paths: c.urls.map((u) => u.path) }));
    if (cases.length > 1) loadCases.push({ name: "mix", paths: mixUrls(cases).map((u) => u.path) });
    const runs: LoadRun[] = [];
    if (!o.skipLoad) {
      const loadOnce = async (lc: (typeof loadCases)[number], mode: Mode, round: number, seconds: number, warmup: boolean) => {
        const server = servers[mode];
        const cpu0 = cpuSecondsOf(server.proc.pid);
        const r = await runWrkPaths({
          baseUrl: server.url,
          paths: lc.paths,
          headers,
          connections: o.connections,
          threads: o.threads,
          seconds,
        });
        // Requests wrk abandoned at its deadline still run (a slow case leaves seconds of them):
        // the next run starts once the server's CPU is idle again.
        const cpu = ((cpuSecondsOf(server.proc.pid) - cpu0) * 1e6) / Math.max(1, r.requests);
        const idle = await waitIdle(server.proc.pid);
        runs.push({ ...r, case: lc.name, mode, round, warmup, cpuUsPerRequest: cpu, drainSeconds: idle });
        log(
          `${warmup ? "warm-up" : `round ${round}`} ${lc.name.padEnd(21)} ${mode.padEnd(7)} ${fmt(r.rps, 0).padStart(6)} req/s  ` +
            `p50 ${fmt(r.p50ms)} p95 ${fmt(r.p95ms)} p99 ${fmt(r.p99ms)} ms  CPU ${fmt(cpu, 0)} µs/req  ` +
            `200s ${r.ok200} other ${r.other} socket errors ${r.socketErrors}${idle >= 1 ? `  (drained ${fmt(idle, 1)} s)` : ""}`,
        );
      };
      if (o.warmup > 0) for (const lc of loadCases) for (const mode of loadModes) await loadOnce(lc, mode, 0, o.warmup, true);
      for (let round = 1; round <= o.rounds; round++) {
        const order = round % 2 === 1 ? loadModes : [...loadModes].reverse();
        for (const lc of loadCases) for (const mode of order) await loadOnce(lc, mode, round, o.seconds, false);
      }
    }

    // ---- summary
    const measured = runs.filter((r) => !r.warmup);
    const loadSummary = (name: string) => {
      const of = (mode: Mode) => measured.filter((r) => r.case === name && r.mode === mode);
      const s = of("service");
      const f = of("floor");
      if (!s.length || !f.length) return null;
      const paired: number[] = [];
      for (let round = 1; round <= o.rounds; round++) {
        const a = s.find((r) => r.round === round);
        const b = f.find((r) => r.round === round);
        if (a && b) paired.push(a.rps / b.rps);
      }
      const serviceRps = median(s.map((r) => r.rps));
      const floorRps = median(f.map((r) => r.rps));
      return {
        serviceRps,
        floorRps,
        ratio: serviceRps / floorRps,
        pairedRatios: paired,
        service: {
          p50ms: median(s.map((r) => r.p50ms)),
          p95ms: median(s.map((r) => r.p95ms)),
          p99ms: median(s.map((r) => r.p99ms)),
          cpuUsPerRequest: median(s.map((r) => r.cpuUsPerRequest)),
        },
        floor: {
          p50ms: median(f.map((r) => r.p50ms)),
          p95ms: median(f.map((r) => r.p95ms)),
          p99ms: median(f.map((r) => r.p99ms)),
          cpuUsPerRequest: median(f.map((r) => r.cpuUsPerRequest)),
        },
        non200: [...s, ...f].reduce((n, r) => n + r.other, 0),
        socketErrors: [...s, ...f].reduce((n, r) => n + r.socketErrors, 0),
        // With --what-if: the changed service, against the same floor (not part of the verdict).
        whatIf: (() => {
          const w = of("whatif");
          if (!w.length) return null;
          const rps = median(w.map((r) => r.rps));
          return { rps, ratio: rps / floorRps, p99ms: median(w.map((r) => r.p99ms)), cpuUsPerRequest: median(w.map((r) => r.cpuUsPerRequest)) };
        })(),
      };
    };
    const summary = loadCases.map((lc) => {
      const c = cases.find((x) => x.name === lc.name);
      const s = single[lc.name];
      const load = loadSummary(lc.name);
      const profile = profiles.find((p) => p.case === lc.name) ?? null;
      const fullScans = profile ? [...new Set(profile.statements.flatMap((st) => st.fullScans))] : [];
      const caseFailures = failures.filter((f) => f.startsWith(`${lc.name}:`));
      // lots.deep-page: page DEEP_PAGE by cursor at the first page's cost (p95 within DEEP_TARGET times)
      const deep = s?.service.variants[`page ${DEEP_PAGE}, cursor`];
      const first = s?.service.variants["first page"];
      const deepRatio = deep && first ? deep.p95ms / first.p95ms : null;
      // its p95 target is its first pages' and its cursor pages': a page by offset reads every row
      // before it (reported beside them, the reason cursors exist)
      const p95ms = deep && first ? Math.max(deep.p95ms, first.p95ms) : s?.service.p95ms;
      const checks = {
        ...(deepRatio !== null && { deepPage: deepRatio <= DEEP_TARGET }),
        p95: p95ms !== undefined ? p95ms < P95_TARGET_MS : null,
        ratio: load ? load.ratio >= RATIO_TARGET && load.non200 === 0 : null,
        plans: profile ? fullScans.length === 0 : null,
        responses: caseFailures.length === 0 && (!s || (s.service.non200 === 0 && s.floor.non200 === 0)),
      };
      const pass = Object.values(checks).every((v) => v !== false);
      return {
        case: lc.name,
        endpoint: c?.endpoint ?? "(all cases in turn)",
        what: c?.what ?? "",
        urls: lc.paths.length,
        single: s ?? null,
        load,
        profile,
        fullScans,
        checks,
        deepRatio,
        pass,
      };
    });

    const out = process.stdout;
    out.write(
      `\nbench/api: ${m.nproc} × ${m.model}, bun ${m.bun}; market ${scale} (${counts.lots.toLocaleString("en")} lots); code ${git.head}` +
        `${git.dirtySrc.length ? ` + uncommitted ${git.dirtySrc.join(", ")}` : ""}\n` +
        `single client: ${o.requests} sequential requests per case; load: wrk -t${o.threads} -c${o.connections} ${o.seconds}s, ` +
        `${o.rounds} rounds, service/floor alternating, medians; CPU ratio = floor/service server CPU per request ` +
        `(the req/s ratio a CPU-bound server would show, steadier on a busy machine)\n\n`,
    );
    const mark = (v: boolean | null) => (v === null ? "-" : v ? "ok" : "FAIL");
    out.write(
      `${table(
        [
          "case",
          "p50 ms",
          "p95 ms",
          "p99 ms",
          "floor p95",
          "service req/s",
          "floor req/s",
          "ratio",
          "per round",
          "CPU ratio",
          "load p99 ms",
          "p95<25",
          "ratio>=.5",
          "plans",
          "result",
        ],
        summary.map((r) => [
          r.case,
          fmt(r.single?.service.p50ms ?? Number.NaN),
          fmt(r.single?.service.p95ms ?? Number.NaN),
          fmt(r.single?.service.p99ms ?? Number.NaN),
          fmt(r.single?.floor.p95ms ?? Number.NaN),
          fmt(r.load?.serviceRps ?? Number.NaN, 0),
          fmt(r.load?.floorRps ?? Number.NaN, 0),
          fmt(r.load?.ratio ?? Number.NaN, 2),
          r.load ? r.load.pairedRatios.map((x) => fmt(x, 2)).join(" ") : "-",
          fmt(r.load ? r.load.floor.cpuUsPerRequest / r.load.service.cpuUsPerRequest : Number.NaN, 2),
          fmt(r.load?.service.p99ms ?? Number.NaN),
          mark(r.checks.p95),
          mark(r.checks.ratio),
          mark(r.checks.plans),
          r.pass ? "PASS" : "FAIL",
        ]),
      )}\n\n`,
    );
    if (o.whatIf) {
      out.write(
        `what-if ${o.whatIf} (bench/lib/api-service-whatif.ts, the service with that change, same runs):\n${table(
          ["case", "service req/s", "what-if req/s", "floor req/s", "service/floor", "what-if/floor", "what-if p99 ms", "what-if CPU µs"],
          summary
            .filter((r) => r.load?.whatIf)
            .map((r) => {
              const l = r.load!;
              const w = l.whatIf!;
              return [r.case, fmt(l.serviceRps, 0), fmt(w.rps, 0), fmt(l.floorRps, 0), fmt(l.ratio, 2), fmt(w.ratio, 2), fmt(w.p99ms), fmt(w.cpuUsPerRequest, 0)];
            }),
        )}\n\n`,
      );
    }
    const mix = summary.find((r) => r.case === "mix")?.load;
    if (mix) {
      out.write(
        `total (the whole mix, every case in turn): service ${fmt(mix.serviceRps, 0)} req/s, floor ${fmt(mix.floorRps, 0)} req/s, ` +
          `ratio ${fmt(mix.ratio, 2)}; service under load p50 ${fmt(mix.service.p50ms)} p95 ${fmt(mix.service.p95ms)} p99 ${fmt(mix.service.p99ms)} ms\n\n`,
      );
    }
    const variantRows = summary.flatMap((r) =>
      Object.entries(r.single?.service.variants ?? {}).map(([v, x]) => [r.case, v, String(x.n), fmt(x.p50ms), fmt(x.p95ms), fmt(r.single!.floor.variants[v]?.p95ms ?? Number.NaN)]),
    );
    if (variantRows.length) out.write(`single client by variant:\n${table(["case", "variant", "n", "p50 ms", "p95 ms", "floor p95"], variantRows)}\n\n`);
    if (profiles.length) {
      out.write(
        `where the time goes (medians per request, ms; in process: the endpoint's service call (SQL + presenting the rows) and\n` +
          `JSON.stringify on one connection, no HTTP, first --profile-urls URLs; app overhead: single-client p50 of the service minus the\n` +
          `floor's (same URLs, same SQL: framework, auth, validation, metering); CPU: server CPU per request under load, µs):\n`,
      );
      out.write(
        `${table(
          ["case", "in process", "SQL", "present", "JSON", "in-proc p95", "body KB", "stmts/req", "app overhead", "service CPU", "floor CPU"],
          summary
            .filter((r) => r.profile)
            .map((r) => {
              const p = r.profile!;
              const inProc = p.handlerMs + p.stringifyMs;
              return [
                r.case,
                fmt(inProc),
                fmt(p.sqlMs),
                fmt(p.jsMs),
                fmt(p.stringifyMs),
                fmt(p.p95Ms),
                fmt(p.bodyKb, 1),
                fmt(p.statementsPerRequest, 1),
                fmt((r.single?.service.p50ms ?? Number.NaN) - (r.single?.floor.p50ms ?? Number.NaN)),
                fmt(r.load?.service.cpuUsPerRequest ?? Number.NaN, 0),
                fmt(r.load?.floor.cpuUsPerRequest ?? Number.NaN, 0),
              ];
            }),
        )}\n\n`,
      );
      out.write("slowest statements (mean ms × calls in the in-process pass):\n");
      for (const p of profiles) {
        for (const st of p.statements.slice(0, 2)) {
          if (st.meanMs < 1) continue;
          out.write(`  ${p.case}: ${fmt(st.meanMs)} ms mean, ${fmt(st.maxMs)} max, ${st.calls} calls: ${st.sql.slice(0, 240)}\n    plan: ${st.plan.join(" | ")}\n`);
        }
      }
      out.write("\n");
      let planFailures = 0;
      for (const p of profiles) {
        for (const st of p.statements) {
          for (const line of st.fullScans) {
            planFailures++;
            out.write(`FAIL plan ${p.case}: ${line}: ${st.sql.slice(0, 200)}\n`);
          }
        }
      }
      const walks = new Set(profiles.flatMap((p) => p.statements.flatMap((st) => st.indexWalks.map((w) => `${p.case}: ${w}`))));
      for (const w of walks) out.write(`note plan ${w} (an index walk in sort order, stopped by LIMIT; as slow as the filter is rare)\n`);
      out.write(`query plans: ${planFailures} full scans of lots/artworks/artists\n`);
    }
    for (const r of summary) {
      if (r.deepRatio === null) continue;
      const v = r.single!.service.variants;
      out.write(
        `${r.case}: p95 first page ${fmt(v["first page"]!.p95ms)} ms, page ${DEEP_PAGE} by cursor ${fmt(v[`page ${DEEP_PAGE}, cursor`]!.p95ms)} ms ` +
          `(${fmt(r.deepRatio, 2)}×; target <= ${DEEP_TARGET}× ${r.checks.deepPage ? "PASS" : "FAIL"}), by offset ${fmt(v[`page ${DEEP_PAGE}, offset`]?.p95ms ?? Number.NaN)} ms\n`,
      );
    }
    for (const f of failures) out.write(`FAIL ${f}\n`);
    const passed = summary.filter((r) => r.pass).length;
    out.write(
      `\n${passed} of ${summary.length} cases pass (p95 < ${P95_TARGET_MS} ms single client, lots.deep-page's by its first and cursor pages; service/floor >= ${RATIO_TARGET} under load; no full scans)\n`,
    );

    mkdirSync(dirname(o.out), { recursive: true });
    writeFileSync(
      o.out,
      `${JSON.stringify(
        {
          bench: "api",
          date: new Date().toISOString(),
          command: `bun bench/api.ts ${process.argv.slice(2).join(" ")}`.trim(),
          machine: m,
          git,
          market: { dir: o.data, scale, maxIds: counts },
          config: { ...o, out: undefined },
          targets: { p95Ms: P95_TARGET_MS, ratio: RATIO_TARGET, deepPageRatio: DEEP_TARGET },
          cases: cases.map((c) => ({ name: c.name, endpoint: c.endpoint, what: c.what, urls: c.urls })),
          summary,
          failures,
          runs,
        },
        null,
        2,
      )}\n`,
    );
    log(`results written to ${o.out}`);
    if (profileDir) log(`CPU profiles (markdown) of both servers: ${profileDir}/api-service.md, api-floor.md (written when they stop)`);
    return summary.every((r) => r.pass) ? 0 : 1;
  } finally {
    await Promise.all(started.map((s) => s.stop()));
    if (o.keep) log(`run dir kept: ${run.dir}`);
    else if (existsSync(run.dir)) removeLinkedScratch(run.dir);
  }
}

const killAll = () => {
  for (const s of started) s.proc.kill("SIGKILL");
  if (scratchDir) rmSync(scratchDir, { recursive: true, force: true });
  process.exit(130);
};
process.on("SIGINT", killAll);
process.on("SIGTERM", killAll);

try {
  process.exit(await main());
} catch (err) {
  for (const s of started) s.proc.kill("SIGKILL");
  if (scratchDir) rmSync(scratchDir, { recursive: true, force: true });
  process.stderr.write(`bench/api: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(2);
}
