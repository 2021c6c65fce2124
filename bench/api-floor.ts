#!/usr/bin/env bun
/**
 * bench/api's floor: a bare Bun.serve that, for a URL of the query mix, makes the same service
 * call as the endpoint's handler (the same SQL, the same rows, presented the same way) and
 * JSON.stringify's the result. No framework, no auth, no validation, no metering, no CORS or DU
 * headers: what serving these queries costs at the least, in this process model.
 *
 *   bun bench/api-floor.ts --data DIR --user-id N [--port 0] [--max-seconds 3600]
 *
 * --user-id: whose follows the followed lists and is_followed read (the bench user; the real
 * service learns it from the key). Prints `listening on http://127.0.0.1:PORT` first. Stops on
 * SIGTERM/SIGINT, when its parent's IPC channel closes, and after --max-seconds.
 *
 * Diagnostic only (never in bench/api.ts's runs): --defer microtask|immediate answers through a
 * promise, resolved at once or on the next turn (setImmediate), as the metered service answers
 * after its ledger commit, to measure what a deferred response costs in Bun.serve by itself;
 * --load-app also builds the service's app (createApp(openDeps(…)), never called) and keeps it,
 * to measure what the service's heap alone costs the same handlers (GC).
 */
import { HttpError } from "../src/serve/http/errors";
import { handleFloor, openFloorDeps } from "./lib/api-routes";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const dataDir = flag("data");
const userId = Number(flag("user-id"));
const port = Number(flag("port") ?? 0);
if (!dataDir || !Number.isInteger(userId) || !Number.isInteger(port)) {
  process.stderr.write("usage: bun bench/api-floor.ts --data DIR --user-id N [--port 0]\n");
  process.exit(2);
}

const deps = openFloorDeps(dataDir);
const heldApp = process.argv.includes("--load-app")
  ? await import("../src/serve/app").then(({ createApp, openDeps }) => createApp(openDeps({ dataDir, port: 0, host: "127.0.0.1", publicUrl: null })))
  : null;
const JSON_HEADERS = { "Content-Type": "application/json" };
const defer = flag("defer") ?? "none";
if (!["none", "microtask", "immediate"].includes(defer)) throw new Error("--defer must be none, microtask or immediate");

function answer(req: Request): Response {
  try {
    const body = handleFloor(deps, userId, new URL(req.url));
    if (body === null) return new Response("Not Found", { status: 404 });
    return new Response(JSON.stringify(body), { headers: JSON_HEADERS });
  } catch (err) {
    if (err instanceof HttpError) return new Response(JSON.stringify({ detail: err.message }), { status: err.status, headers: JSON_HEADERS });
    process.stderr.write(`api-floor: ${err instanceof Error ? err.stack : String(err)}\n`);
    return new Response("Internal Server Error", { status: 500 });
  }
}

const server = Bun.serve({
  port,
  hostname: "127.0.0.1",
  development: false,
  fetch: defer === "none" ? answer : defer === "microtask" ? async (req) => answer(req) : (req) => new Promise<Response>((res) => setImmediate(() => res(answer(req)))),
});

process.stdout.write(`listening on http://127.0.0.1:${server.port}${heldApp ? " (service app loaded, unused)" : ""}\n`);

const stop = () => {
  server.stop(true);
  deps.market.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
// Never outlive the parent (spawned with an IPC channel), nor run past --max-seconds.
process.on("disconnect", stop);
setTimeout(stop, Number(flag("max-seconds") ?? 3600) * 1000).unref();
