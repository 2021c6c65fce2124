#!/usr/bin/env bun
/**
 * bench/api diagnostic: the service as `artmarket serve` runs it, with a change applied at run
 * time, to measure a suggestion before anyone makes it in src/. Never used by bench/api.ts's runs.
 *
 *   bun bench/lib/api-service-whatif.ts --data DIR [--port 0] --what-if sync-ledger
 *
 *   sync-ledger  Ledger.charge commits its row at once (one transaction per request, in the
 *                request's own turn) instead of gathering a batch over the next turns: the
 *                response still leaves after its row is committed (the durability contract
 *                holds), but without being deferred to a later event-loop turn.
 *
 * Prints `listening on http://127.0.0.1:PORT` first; stops on SIGTERM/SIGINT or when its parent's
 * IPC channel closes.
 */
import { closeDeps, createApp, openDeps } from "../../src/serve/app";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const dataDir = flag("data");
const port = Number(flag("port") ?? 0);
const whatIf = flag("what-if");
if (!dataDir || !Number.isInteger(port) || whatIf !== "sync-ledger") {
  process.stderr.write("usage: bun bench/lib/api-service-whatif.ts --data DIR [--port 0] --what-if sync-ledger\n");
  process.exit(2);
}

const deps = openDeps({ dataDir, port, host: "127.0.0.1", publicUrl: null });
const ledger = deps.ledger as unknown as { charge: (...a: unknown[]) => unknown; flush(): void };
const charge = ledger.charge.bind(ledger);
ledger.charge = (...args: unknown[]) => {
  const charged = charge(...args);
  ledger.flush(); // commits now and settles the batch: the awaiting response resumes on a microtask
  return charged;
};
const app = createApp(deps);
const server = Bun.serve({ port, hostname: "127.0.0.1", development: false, fetch: (req) => app.handle(req) });
process.stdout.write(`listening on http://127.0.0.1:${server.port} (what-if ${whatIf})\n`);

const stop = () => {
  server.stop(true);
  closeDeps(deps);
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
process.on("disconnect", stop);
setTimeout(stop, 3600 * 1000).unref();
