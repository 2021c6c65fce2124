#!/usr/bin/env bun
/**
 * Where the metered path's time goes, in process (no network): the per-request cost of each
 * step the metered pipeline adds to the bare one, and of the whole pipeline both ways.
 *
 *   bun bench/lib/profile.ts [--batch 32] [--ms 300]
 *
 * Each figure is the best of 5 timed repeats of a loop run for about --ms milliseconds, in µs
 * per request (per entry for the ledger); the whole pipelines (bare, metered, metered with the
 * suggested what-ifs of whatif.ts, metered with a ledger that writes nothing, and that also does
 * not make the response wait for the commit) are measured
 * interleaved, 7 times each, best kept, because the machine is shared and noisy. `--batch` is
 * how many requests arrive together, i.e. the group-commit batch size (wrk's 32 connections
 * give at most 32; bench/core.ts --diag measured a mean of about 20).
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Caller } from "../../src/serve/accounts/keys";
import type { LedgerEntry } from "../../src/serve/accounts/ledger";
import { closeDeps, CORS_HEADERS, createApp, openSqliteDeps } from "../../src/serve/app";
import { openAccountDb } from "../../src/db/connection";
import { today } from "../../src/market/time";
import { fmt, table } from "./stats";
import { prepareDataDir } from "./setup";
import { applyWhatIfs, commitOf, leanLedgerTable, SUGGESTED } from "./whatif";

function flag(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}
const BATCH = flag("batch", 32);
const MS = flag("ms", 300);

/** µs per op: best of 5 repeats of `fn` (which does `ops` operations per call), each ~MS ms. */
async function measure(ops: number, fn: () => unknown | Promise<unknown>, repeats = 5): Promise<number> {
  for (let i = 0; i < 50; i++) await fn(); // warm
  const t = performance.now();
  let calls = 0;
  while (performance.now() - t < 30) await fn(), calls++;
  const perCall = (performance.now() - t) / calls;
  const n = Math.max(1, Math.round(MS / perCall));
  let best = Infinity;
  for (let r = 0; r < repeats; r++) {
    Bun.gc(true);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    best = Math.min(best, ((performance.now() - t0) * 1000) / (n * ops));
  }
  return best;
}

const dataDir = mkdtempSync(join(tmpdir(), "artmarket-profile-"));
const whatIfDir = `${dataDir}-whatif`;
try {
  const user = await prepareDataDir(dataDir);
  cpSync(dataDir, whatIfDir, { recursive: true });
  const lean = openAccountDb(whatIfDir);
  leanLedgerTable(lean);
  lean.close();

  const config = { dataDir, port: 0, host: "127.0.0.1", publicUrl: null };
  const metered = openSqliteDeps(config);
  const bare = openSqliteDeps(config, { bare: true });
  const whatIf = openSqliteDeps({ ...config, dataDir: whatIfDir });
  applyWhatIfs(whatIf, SUGGESTED);
  const noWrite = openSqliteDeps(config);
  applyWhatIfs(noWrite, ["noWrite"]);
  const noWriteApp = createApp(noWrite);
  const noWriteNoWait = openSqliteDeps(config);
  applyWhatIfs(noWriteNoWait, ["noWrite", "noWait"]);
  const noWriteNoWaitApp = createApp(noWriteNoWait);
  const meteredApp = createApp(metered);
  const bareApp = createApp(bare);
  const whatIfApp = createApp(whatIf);
  const url = "http://127.0.0.1:8080/v1/categories";
  const headers = { Authorization: `Bearer ${user.key}` };
  const caller = (await metered.verifier.verify(user.key)) as Caller;
  const body = metered.market.query("SELECT id, name FROM categories ORDER BY id").all();
  const json = JSON.stringify(body);
  const entry = (): LedgerEntry => ({
    userId: caller.userId,
    keyId: caller.keyId,
    ts: Date.now(),
    method: "GET",
    route: "/v1/categories",
    status: 200,
    records: body.length,
    du: 1,
  });
  const batchOf = (app: typeof meteredApp) => () => Promise.all(Array.from({ length: BATCH }, () => app.handle(new Request(url, { headers })).then((r) => r.arrayBuffer())));

  const rows: [string, number][] = [];
  const add = async (name: string, ops: number, fn: () => unknown) => {
    rows.push([name, await measure(ops, fn)]);
  };

  // The pipelines are measured interleaved, 7 times each, best kept: the machine is noisy.
  const pipelines: [string, () => unknown][] = [
    [`app.handle, bare, ${BATCH} concurrent`, batchOf(bareApp)],
    [`app.handle, metered, ${BATCH} concurrent`, batchOf(meteredApp)],
    [`app.handle, metered + suggested what-ifs, ${BATCH} concurrent`, batchOf(whatIfApp)],
    [`app.handle, metered, ledger writes nothing (diagnostic), ${BATCH} concurrent`, batchOf(noWriteApp)],
    [`app.handle, metered, ledger writes nothing, no wait (diagnostic), ${BATCH} concurrent`, batchOf(noWriteNoWaitApp)],
  ];
  const best = pipelines.map(() => Infinity);
  for (let round = 0; round < 7; round++) {
    for (const [i, [, fn]] of pipelines.entries()) best[i] = Math.min(best[i]!, await measure(BATCH, fn, 1));
  }
  pipelines.forEach(([name], i) => rows.push([name, best[i]!]));
  await add("app.handle, bare, one at a time", 1, () => bareApp.handle(new Request(url, { headers })).then((r) => r.arrayBuffer()));
  await add("app.handle, metered, one at a time", 1, () => meteredApp.handle(new Request(url, { headers })).then((r) => r.arrayBuffer()));
  const req = new Request(url, { headers });
  await add("new URL(request.url)", 1, () => new URL(req.url));
  await add("bearer(): headers.get + regex", 1, () => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization")!));
  const dv = metered.account.query("PRAGMA data_version");
  await add("PRAGMA data_version (alone)", 1, () => dv.get());
  await add("verifier.verify(key), cached (incl. data_version)", 1, () => metered.verifier.verify(user.key));
  await add("limiter.check(caller)", 1, () => metered.limiter.check(caller));
  await add("ledger.windows(caller)", 1, () => metered.ledger.windows(caller));
  await add("today(Date.now())", 1, () => today(Date.now()));
  await add("ledger.charge() only (no commit; pending grows)", 1, () => {
    void metered.ledger.charge(caller, entry());
  });
  metered.ledger.flush();
  await add(`ledger: charge ×${BATCH} + flush (group commit), per entry`, BATCH, async () => {
    const ps = Array.from({ length: BATCH }, () => commitOf(metered.ledger.charge(caller, entry())));
    await Promise.all(ps);
  });
  await add("ledger: charge ×1 + flush (one commit per request)", 1, () => commitOf(metered.ledger.charge(caller, entry())));
  const ins = metered.account.query("INSERT INTO du_ledger (user_id, key_id, ts, day, method, route, status, records, du) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const upsert = metered.account.query(
    `INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT(user_id, day, endpoint) DO UPDATE SET du = du + excluded.du, requests = requests + 1`,
  );
  const day = today();
  const inTx = (fn: () => void) =>
    metered.account.transaction(() => {
      for (let i = 0; i < BATCH; i++) fn();
    });
  const insBatch = inTx(() => ins.run(caller.userId, caller.keyId, Date.now(), day, "GET", "/v1/categories", 200, 9, 1));
  const upsertBatch = inTx(() => upsert.run(caller.userId, day, "GET /v1/categories", 1));
  await add(`  INSERT du_ledger, in a tx of ${BATCH}, per row`, BATCH, () => insBatch());
  await add(`  UPSERT du_daily, in a tx of ${BATCH}, per row`, BATCH, () => upsertBatch());
  const cols =
    "user_id integer NOT NULL, key_id integer NOT NULL, ts integer NOT NULL, day text NOT NULL, method text NOT NULL, " +
    "route text NOT NULL, status integer NOT NULL, records integer NOT NULL, du real NOT NULL";
  for (const [name, ddl] of [
    ["without AUTOINCREMENT", `CREATE TABLE bench_noautoinc (id integer PRIMARY KEY NOT NULL, ${cols}); CREATE INDEX bench_noautoinc_i ON bench_noautoinc (user_id, ts)`],
    ["without AUTOINCREMENT and index", `CREATE TABLE bench_noindex (id integer PRIMARY KEY NOT NULL, ${cols})`],
  ] as const) {
    metered.account.run(ddl);
    const table = /CREATE TABLE (\w+)/.exec(ddl)![1]!;
    const st = metered.account.query(`INSERT INTO ${table} (user_id, key_id, ts, day, method, route, status, records, du) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const tx = inTx(() => st.run(caller.userId, caller.keyId, Date.now(), day, "GET", "/v1/categories", 200, 9, 1));
    await add(`  INSERT, ${name}, in a tx of ${BATCH}, per row`, BATCH, () => tx());
  }
  await add("  empty BEGIN/COMMIT (write tx)", 1, () => metered.account.transaction(() => upsert.run(caller.userId, day, "x", 0))());
  const w = metered.ledger.windows(caller);
  const du = () => ({
    "X-Service-DataUnits": "1",
    "X-Service-DataUnits-Remaining": String(Math.max(0, caller.plan.du_limit - w.periodConsumed)),
    "X-Service-DataUnits-Period-End": w.period.end,
  });
  await add("new Response(json, {Content-Type})", 1, () => new Response(json, { status: 200, headers: { "Content-Type": "application/json" } }));
  await add("new Response(json, {Content-Type + 3 DU headers})", 1, () => new Response(json, { status: 200, headers: { ...du(), "Content-Type": "application/json" } }));
  await add("CORS loop: 2 × res.headers.set", 1, () => {
    const res = new Response(json);
    for (const [k, v] of Object.entries(CORS_HEADERS)) res.headers.set(k, v);
  });
  await add("await setImmediate (the group commit's wait)", 1, () => new Promise((r) => setImmediate(r)));
  const resolvedAsync = async () => caller;
  await add("await of an async function's resolved result", 1, async () => {
    await resolvedAsync();
  });
  await add("new Promise + resolver closure (a per-request waiter)", 1, () => new Promise<void>((resolve) => resolve()));

  process.stdout.write(
    `${table(
      ["step (bun " + Bun.version + ")", "µs"],
      rows.map(([n, us]) => [n, fmt(us, 3)]),
    )}\n`,
  );
  const [b, m, wi, nw, nn] = [rows[0]![1], rows[1]![1], rows[2]![1], rows[3]![1], rows[4]![1]];
  process.stdout.write(
    `\nin process, ${BATCH} concurrent, µs per request over bare (${fmt(b, 2)}): metered +${fmt(m - b, 2)}, ` +
      `with the suggested what-ifs (${SUGGESTED.join(", ")}) +${fmt(wi - b, 2)}, ` +
      `metered without any ledger write +${fmt(nw - b, 2)}, and without waiting for the commit +${fmt(nn - b, 2)}\n`,
  );
  closeDeps(noWriteNoWait);
  closeDeps(noWrite);
  closeDeps(whatIf);
  closeDeps(metered);
  closeDeps(bare);
} finally {
  for (const dir of [dataDir, whatIfDir]) rmSync(dir, { recursive: true, force: true });
}
