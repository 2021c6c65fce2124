#!/usr/bin/env bun
/**
 * bench/api in process, no HTTP: what the app adds to each case of the mix, split in two.
 *
 *   bun bench/lib/api-overhead.ts [--data /tmp/artmarket-large] [--cases artists.chart,lots.by-artist]
 *                                 [--n 3000] [--concurrency 16] [--rounds 3]
 *
 * Three ways to answer the same Request, all in this process, on the same scratch data dir as
 * bench/api.ts makes (market linked, the bench user and its follows):
 *   floor    the endpoint's service call + JSON.stringify + new Response (bench/lib/api-routes.ts)
 *   bare     app.handle with openDeps(config, { bare: true }): Elysia, the pipeline, validation (parseList), CORS; no auth or metering
 *   metered  app.handle as served: plus the key check (cached), rate limit, ledger row (group commit) and DU headers
 * Each answers --n requests of the case's URLs, --concurrency at a time (as wrk -c16 keeps them in
 * flight, so group commits batch as they do under load), body read; modes alternate for --rounds.
 * Reported: CPU µs per request (process.cpuUsage: this process does nothing else), medians:
 * bare − floor is the framework and validation, metered − bare is auth and metering.
 */
import { Database } from "bun:sqlite";
import { removeLinkedScratch } from "./linked-market";
import { resolve } from "node:path";
import { closeDeps, createApp, openDeps } from "../../src/serve/app";
import { marketDbPath } from "../../src/db/connection";
import { buildCases } from "./api-cases";
import { handleFloor, openFloorDeps } from "./api-routes";
import { makeRunDir } from "./api-setup";
import { fmt, median, table } from "./stats";

function flag(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

const dataDir = resolve(flag("data", "/tmp/artmarket-large"));
// Not the followed lists: the bare app has no caller, so its followed lists are empty.
const wanted = flag("cases", "artists.detail,artists.chart,artworks.by-artist,lots.by-artist,lots.by-sale,sales.by-house").split(",");
const n = Number(flag("n", "3000"));
const concurrency = Number(flag("concurrency", "16"));
const rounds = Number(flag("rounds", "3"));

const market = new Database(marketDbPath(dataDir), { readonly: true });
const built = buildCases(market, { n: 200, seed: 1986, follows: 50 });
market.close();
const cases = built.cases.filter((c) => wanted.includes(c.name));
const run = await makeRunDir(dataDir, built.follows);
const ORIGIN = "http://127.0.0.1:1";
const config = { dataDir: run.dir, port: 0, host: "127.0.0.1", publicUrl: null };
const floorDeps = openFloorDeps(run.dir);
const bareDeps = openDeps(config, { bare: true });
const meteredDeps = openDeps(config);
const bareApp = createApp(bareDeps);
const meteredApp = createApp(meteredDeps);
const headers = { Authorization: `Bearer ${run.key}` };
const JSON_HEADERS = { "Content-Type": "application/json" };

type Mode = "floor" | "bare" | "metered";
const answer: Record<Mode, (req: Request) => Promise<Response>> = {
  floor: async (req) => new Response(JSON.stringify(handleFloor(floorDeps, run.userId, new URL(req.url))), { headers: JSON_HEADERS }),
  bare: (req) => bareApp.handle(req),
  metered: (req) => meteredApp.handle(req),
};

async function measure(mode: Mode, paths: string[]): Promise<number> {
  let next = 0;
  let bad = 0;
  const cpu0 = process.cpuUsage();
  const worker = async () => {
    while (next < n) {
      const path = paths[next++ % paths.length]!;
      const res = await answer[mode](new Request(ORIGIN + path, { headers }));
      await res.arrayBuffer();
      if (res.status !== 200) bad++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(cpu0);
  if (bad) throw new Error(`${mode}: ${bad} non-200 answers`);
  return (cpu.user + cpu.system) / n;
}

try {
  const rows: string[][] = [];
  for (const c of cases) {
    const paths = c.urls.map((u) => u.path);
    const us: Record<Mode, number[]> = { floor: [], bare: [], metered: [] };
    for (const mode of ["floor", "bare", "metered"] as Mode[]) await measure(mode, paths.slice(0, 50)); // warm-up
    for (let r = 0; r < rounds; r++) for (const mode of ["floor", "bare", "metered"] as Mode[]) us[mode].push(await measure(mode, paths));
    const [f, b, m] = [median(us.floor), median(us.bare), median(us.metered)];
    rows.push([c.name, fmt(f, 0), fmt(b, 0), fmt(m, 0), fmt(b - f, 0), fmt(m - b, 0), fmt(f / m, 2)]);
    process.stderr.write(`${c.name}: floor ${fmt(f, 0)} bare ${fmt(b, 0)} metered ${fmt(m, 0)} µs/request\n`);
  }
  process.stdout.write(
    `\nCPU µs per request in process (${n} requests × ${rounds} rounds per mode, ${concurrency} in flight, medians)\n` +
      `${table(["case", "floor", "bare app", "metered app", "framework+validation", "auth+metering", "floor/metered"], rows)}\n`,
  );
} finally {
  closeDeps(bareDeps);
  closeDeps(meteredDeps);
  floorDeps.market.close();
  removeLinkedScratch(run.dir);
}
