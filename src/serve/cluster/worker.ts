/**
 * An HTTP worker of `serve` (a thread; src/serve/cluster/supervisor.ts starts N of them). It opens
 * its own connections (market.db read-only: the OS page cache is shared; account.db for reads and
 * the account writes of its requests), builds the app and listens on the server's port with
 * reusePort. What must be exact across workers goes through shared memory or the supervisor:
 * - the rate-limit windows, the DU windows and the hard cap's admissions: the AccountCounters
 *   table in a SharedArrayBuffer (src/serve/accounts/counters.ts);
 * - a key not verified yet: the supervisor verifies it (argon2 once per key for the server);
 * - the ledger rows: with the SQLite store, committed over this worker's own connection when
 *   account.db's write lock is free, else handed to the supervisor (with PostgreSQL, by the
 *   worker's own client); the response waits for the commit. No connection of the worker
 *   checkpoints account.db: the supervisor's checkpoint thread does (src/db/checkpointer.ts);
 * - /metrics: the supervisor collects every worker's registry;
 * - a new snapshot: the supervisor checks it once and asks every worker to swap to it (swapMarket;
 *   src/serve/live-market.ts: the requests in flight finish on the old one).
 * Each worker writes its own access-log lines to stderr (whole lines per write).
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts).
 */
import type { Database } from "bun:sqlite";
import type { FromWorker, ToWorker, WorkerInit } from "./protocol";
import { openAccountNoWait } from "../../db/connection";
import type { RemoteVerdict } from "../accounts/keys";
import { AccountCounters } from "../accounts/counters";
import { createApp, openDeps } from "../app";
import { AccessLog } from "../http/access-log";
import { STATES, type ServiceControl } from "../http/control";
import type { AppDeps } from "../deps";
import { MetricsRegistry } from "../http/metrics";
import { requestNote } from "../http/request-note";
import { clientAddressOf } from "../http/client";
import { jsonConsole } from "../http/log-lines";
import { type Listener, listen } from "../http/serve";
import { snapshotId } from "../http/etag";
import { openMarketView } from "../live-market";
import { fanOutByDay } from "../webhooks/fan-out";
import type { PublishedFile } from "../http/snapshot-routes";

declare const self: Worker;

const post = (msg: FromWorker) => self.postMessage(msg);
const waiting = new Map<number, (msg: ToWorker) => void>();
let nextId = 1;

/** Sends a request to the supervisor and waits for its answer. */
type Asked = Extract<FromWorker, { id: number }>;
type Asking = Asked extends infer R ? (R extends Asked ? Omit<R, "id"> : never) : never;

function ask<T extends ToWorker>(msg: Asking): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve) => {
    waiting.set(id, resolve as (m: ToWorker) => void);
    post({ ...msg, id } as FromWorker);
  });
}

let deps: AppDeps | null = null;
/** The connection the ledger commits over when account.db's write lock is free. */
let ledgerDb: Database | null = null;
let listener: Listener | null = null;
let log: AccessLog | null = null;
const registry = new MetricsRegistry();
/** The snapshot served, with its SHA-256 (src/serve/http/snapshot-routes.ts), once the supervisor computed it. */
let published: PublishedFile | null = null;

/** The route label of a request no endpoint handled (a bounded set). */
function fixedRoute(path: string): string {
  if (path === "/" || path === "/readyz" || path === "/metrics" || path === "/openapi.json" || path === "/healthcheck") return path;
  if (path === "/docs" || path.startsWith("/docs/")) return "/docs";
  if (path.startsWith("/images/")) return "/images/{path}";
  if (path === "/snapshot" || path === "/snapshot/market.db") return path;
  if (path.startsWith("/chunk-")) return "/{asset}";
  return "other";
}

/** The path and query of an absolute request URL. */
function pathOf(url: string): string {
  const slash = url.indexOf("/", url.indexOf("//") + 2);
  return slash < 0 ? "/" : url.slice(slash);
}

function start(init: WorkerInit): void {
  const state = new Int32Array(init.state);
  // with the JSON log, what this thread's code prints is one JSON line too (the supervisor writes it)
  if (init.logFormat === "json") jsonConsole((text) => post({ t: "log", text }));
  const control: ServiceControl = {
    workers: init.workers,
    state: () => STATES[Atomics.load(state, 0)] ?? "starting",
    metrics: async () => (await ask<Extract<ToWorker, { t: "metrics" }>>({ t: "metrics" })).text,
    published: () => {
      if (!published) post({ t: "publish-wanted" });
      return published;
    },
  };
  const remoteVerify = async (key: string, address: string, refuse: boolean): Promise<RemoteVerdict> =>
    (await ask<Extract<ToWorker, { t: "verified" }>>({ t: "verify", key, address, refuse })).verdict;
  ledgerDb = init.localLedger ? openAccountNoWait(init.config.dataDir) : null;
  deps = openDeps(init.config, {
    counters: new AccountCounters(init.counters),
    remoteVerify,
    ledgerLocal: ledgerDb ?? undefined,
    secret: init.secret,
    ledgerSink: async (entries, notices) => {
      const answer = await ask<Extract<ToWorker, { t: "ledgered" }>>({ t: "ledger", entries, notices });
      if (answer.error !== undefined) throw new Error(`ledger: ${answer.error}`);
    },
    control,
    metrics: registry,
    live: true,
  });
  if (init.checkpointed) {
    // the supervisor's thread checkpoints account.db: a commit here never does (src/db/checkpointer.ts)
    deps.account?.run("PRAGMA wal_autocheckpoint = 0");
    ledgerDb?.run("PRAGMA wal_autocheckpoint = 0");
  }
  const app = createApp(deps);
  log = init.logFormat === "off" ? null : new AccessLog(init.logFormat, (text) => post({ t: "log", text }));
  const accessLog = log;
  listener = listen((req) => app.handle(req), {
    port: init.port,
    host: init.config.host,
    reusePort: true,
    inFlight: state,
    measureBodies: accessLog !== null,
    draining: () => {
      // the supervisor's word to stop accepting, read here too: a flood of requests can hold the
      // "drain" message back for as long as it lasts
      const timeoutMs = Atomics.load(state, 2);
      if (timeoutMs > 0) void drain(timeoutMs);
      return Atomics.load(state, 0) === 2;
    },
    onAnswered(request, response, id, started, bytes) {
      const seconds = (performance.now() - started) / 1000;
      const note = requestNote(request);
      // the path only when something reads it: the log, or a request no endpoint handled
      const path = accessLog || !note ? pathOf(request.url) : "";
      const route = note?.route ?? fixedRoute(path.split("?", 1)[0]!);
      const du = note?.du ?? 0;
      registry.record(route, request.method, response.status, seconds, du, note?.plan ?? null);
      if (accessLog) {
        accessLog.write({
          time: Date.now(),
          id,
          method: request.method,
          route,
          path,
          status: response.status,
          durationMs: seconds * 1000,
          du,
          keyId: note?.keyId ?? null,
          bytes,
          client: clientAddressOf(request, init.config.trustProxy ?? false),
          worker: init.index,
        });
      }
    },
  });
  post({ t: "listening", port: listener.port });
}

let drainStarted = false;

/** Stops accepting, lets the requests in flight finish, closes; once (the message and the shared state may both ask). */
async function drain(timeoutMs: number): Promise<void> {
  if (drainStarted) return;
  drainStarted = true;
  let unfinished = 0;
  if (listener) {
    // drain() stops accepting at once; the supervisor hears so before the requests in flight end
    const draining = listener.drain(timeoutMs);
    post({ t: "closed" });
    ({ unfinished } = await draining);
  } else post({ t: "closed" });
  if (deps) {
    await deps.ledger.settled();
    if (deps.live) deps.live.close();
    else deps.market.close();
    deps.accounts.close();
    ledgerDb?.close();
  }
  log?.flush();
  post({ t: "drained", unfinished });
}

/**
 * Opens market.db anew and points new requests at it, if it is the snapshot the supervisor
 * checked (`snapshot`); a file published again meanwhile is left for the next round.
 */
function swapMarket(id: number, snapshot: string): void {
  const live = deps?.live;
  if (!deps || !live) {
    post({ t: "swapped", id, ok: false, snapshot: null, error: "the worker has not started" });
    return;
  }
  const serving = snapshotId(live.current().snapshot);
  if (serving === snapshot) {
    post({ t: "swapped", id, ok: true, snapshot });
    return;
  }
  try {
    const view = openMarketView(deps.config.dataDir);
    const opened = snapshotId(view.snapshot);
    if (opened !== snapshot) {
      view.market.close();
      post({ t: "swapped", id, ok: false, snapshot: serving, error: `market.db changed again while it was swapped in (snapshot ${opened}, not ${snapshot})` });
      return;
    }
    live.swap(view);
    post({ t: "swapped", id, ok: true, snapshot });
  } catch (err) {
    post({ t: "swapped", id, ok: false, snapshot: serving, error: err instanceof Error ? err.message : String(err) });
  }
}

self.onmessage = (event: MessageEvent) => {
  const msg = event.data as ToWorker;
  switch (msg.t) {
    case "init":
      try {
        start(msg);
      } catch (err) {
        post({ t: "failed", error: err instanceof Error ? err.message : String(err) });
      }
      return;
    case "collect":
      post({
        t: "collected",
        id: msg.id,
        snapshot: registry.snapshot({ keyCacheHits: deps?.verifier.cacheHits ?? 0, ledgerPending: deps?.ledger.pendingRows() ?? 0 }),
      });
      return;
    case "drain":
      void drain(msg.timeoutMs);
      return;
    case "swap":
      swapMarket(msg.id, msg.snapshot);
      return;
    case "published":
      published = msg.info;
      return;
    case "fan-out": {
      const failed = (err: unknown) => post({ t: "fanned", id: msg.id, notified: 0, queued: 0, lastDay: msg.fromDay, error: err instanceof Error ? err.message : String(err) });
      if (!deps) failed(new Error("the worker has not started"));
      else fanOutByDay(deps, msg.snapshot, msg.fromDay).then((done) => post({ t: "fanned", id: msg.id, ...done }), failed);
      return;
    }
    default: {
      const resolve = waiting.get(msg.id);
      waiting.delete(msg.id);
      resolve?.(msg);
    }
  }
};
