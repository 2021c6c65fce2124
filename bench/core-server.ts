#!/usr/bin/env bun
/**
 * One server of bench/core.ts, in its own process:
 *
 *   bun bench/core-server.ts --mode metered|served|bare|raw --data DIR [--port 0] [--diag] [--what-if NAMES]
 *
 *   metered  the app with auth and metering on, one thread: createApp(openDeps(config)) behind the listener
 *   served   the service exactly as `artmarket serve --workers 1` runs it: the supervisor (key
 *            verification, the ledger's one writer) and one HTTP worker thread; its stats come from
 *            its own /metrics
 *   bare     the same app and handlers with auth and metering off: openDeps(config, { bare: true })
 *   raw      Bun.serve alone running the categories SQL and JSON.stringify: the floor
 *
 * Prints `listening on http://127.0.0.1:PORT` as its first line. Every mode counts the responses
 * it produced (200s, others, with X-Service-DataUnits) the same way and answers a "stats"
 * message on the IPC channel with them, so the parent can compare them with the ledger.
 * --diag (metered) also counts group commits, to report the mean batch size; it wraps
 * Ledger.flush, so bench/core.ts passes it only when asked (--diag), never by default.
 */
import { Database } from "bun:sqlite";
import { closeDeps, createApp, openSqliteDeps } from "../src/serve/app";
import { listen } from "../src/serve/http/serve";
import { marketDbPath } from "../src/db/connection";
import { applyWhatIfs, parseWhatIfs } from "./lib/whatif";

const MODES = ["metered", "served", "bare", "raw"] as const;
type Mode = (typeof MODES)[number];

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const mode = flag("mode") as Mode;
const dataDir = flag("data");
const port = Number(flag("port") ?? 0);
if (!MODES.includes(mode) || !dataDir || !Number.isInteger(port)) {
  process.stderr.write("usage: bun bench/core-server.ts --mode metered|served|bare|raw --data DIR [--port N]\n");
  process.exit(2);
}

export interface ServerStats {
  mode: Mode;
  ok: number;
  other: number;
  withDu: number;
  /** With --diag (metered): ledger commits and the entries they committed (batches and requests committed alone). */
  commits?: number;
  committed?: number;
  /** Of those, commits of one request alone in its own turn (the ledger was idle). */
  immediate?: number;
}
const stats: ServerStats = { mode, ok: 0, other: 0, withDu: 0 };
const DU = "x-service-dataunits";

function tally(res: Response): Response {
  if (res.status === 200) stats.ok++;
  else stats.other++;
  if (res.headers.has(DU)) stats.withDu++;
  return res;
}

let server: { readonly port: number | undefined; stop(closeActiveConnections?: boolean): unknown };
let close: () => void;
/** The stats of a served server: from its /metrics (its responses are made in a worker thread). */
let servedStats: (() => Promise<ServerStats>) | null = null;

if (mode === "served") {
  const { startCluster } = await import("../src/serve/cluster/supervisor");
  const cluster = await startCluster({ dataDir, port, host: "127.0.0.1", publicUrl: null, workers: 1, logFormat: "off" }, { workers: 1, logFormat: "off" });
  server = { port: cluster.port, stop: () => undefined };
  close = () => void cluster.drain(1000);
  servedStats = async () => {
    const text = await (await fetch(`http://127.0.0.1:${cluster.port}/metrics`)).text();
    const s: ServerStats = { mode, ok: 0, other: 0, withDu: 0 };
    for (const m of text.matchAll(/^artmarket_http_requests_total\{route="\/v1\/categories",method="GET",status="(\d+)"\} (\d+)$/gm)) {
      if (m[1] === "200") s.ok += Number(m[2]);
      else s.other += Number(m[2]);
    }
    s.withDu = s.ok; // every metered 200 carries the DU headers
    return s;
  };
} else if (mode === "raw") {
  // Bun's own router, one prepared statement, JSON.stringify: nothing else.
  const db = new Database(marketDbPath(dataDir), { readonly: true, strict: true });
  const categories = db.query("SELECT id, name FROM categories ORDER BY id");
  server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    development: false,
    routes: {
      "/v1/categories": () => tally(new Response(JSON.stringify(categories.all()), { headers: { "Content-Type": "application/json" } })),
    },
    fetch: () => tally(new Response("Not Found", { status: 404 })),
  });
  close = () => db.close();
} else {
  const deps = openSqliteDeps({ dataDir, port, host: "127.0.0.1", publicUrl: null }, { bare: mode === "bare" });
  if (process.argv.includes("--diag")) {
    // Diagnostics only (never in the measured runs): group-commit batch sizes.
    stats.commits = 0;
    stats.committed = 0;
    stats.immediate = 0;
    const ledger = deps.ledger as unknown as { pending: unknown[]; flush(): void; commits: { total: number; immediate: number } };
    const flush = ledger.flush.bind(ledger);
    ledger.flush = () => {
      const n = ledger.pending.length;
      if (n > 0) stats.commits!++, (stats.committed! += n);
      flush();
    };
    // Requests committed alone (in `charge`, not through flush): one entry each. Added before
    // the stats are sent (this listener is registered first).
    process.on("message", (message) => {
      if (message !== "stats") return;
      const fresh = ledger.commits.immediate - stats.immediate!;
      stats.commits! += fresh;
      stats.committed! += fresh;
      stats.immediate = ledger.commits.immediate;
    });
  }
  // Only for bench/core.ts --what-if: the suggested changes, applied at run time.
  const whatIf = flag("what-if");
  if (whatIf) applyWhatIfs(deps, parseWhatIfs(whatIf));
  const app = createApp(deps);
  // The same listener as `artmarket serve` (src/serve/http/serve.ts), plus the tally.
  server = listen(async (req) => tally(await app.handle(req)), { port, host: "127.0.0.1" }).server as typeof server;
  close = () => closeDeps(deps);
}

process.stdout.write(`listening on http://127.0.0.1:${server.port}\n`);

process.on("message", (message) => {
  if (message !== "stats") return;
  if (servedStats) void servedStats().then((s) => process.send?.(s));
  else process.send?.({ ...stats });
});

const stop = () => {
  server.stop(true);
  close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
// Never outlive the parent: a bench that dies leaves no server behind.
process.on("disconnect", stop);
// And never run for more than --max-seconds (default one hour).
setTimeout(stop, Number(flag("max-seconds") ?? 3600) * 1000).unref();
