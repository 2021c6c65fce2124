/**
 * The supervisor of `serve`: the main thread starts N HTTP workers (worker.ts, one thread each)
 * that share the port (reusePort; the kernel spreads connections over them) and serves them what
 * must be done once for the whole server:
 * - key verification: argon2 and the limits on failed attempts (KeyVerifier), once per key;
 * - the DU ledger when a worker finds account.db's write lock taken: the rows the workers hand
 *   over are committed together, and each worker's responses wait for the answer (so every DU a
 *   client saw is on disk, whatever is killed after). A worker that finds the lock free commits
 *   its rows itself (src/serve/accounts/ledger.ts, localWriter): the round trip costs more CPU
 *   than the commit (bench/core, `serve --workers 1`: 86 µs a request through this thread, 65-81
 *   committed by the worker, the bare app 67-82);
 * - /metrics: every worker's registry collected and added up;
 * - the state /readyz reports (starting, ready, draining), in shared memory;
 * - a graceful stop: every worker drains, the ledger is committed, then the process exits;
 * - the hot swap: a snapshot published into the data directory (or asked for by `artmarket
 *   reload`, SIGHUP) is checked once and every worker swapped to it (swap.ts);
 * - the snapshot handed to other nodes: its SHA-256, computed once per snapshot served and given
 *   to the workers for `GET /snapshot` (src/serve/http/snapshot-routes.ts); with `--snapshot-from`,
 *   the follower that fetches another node's snapshot and publishes it here (snapshot-follow.ts);
 * - with `--advance`, the rounds that feed the market one more day and merge it (advance.ts).
 * The per-account counters (rate limits, DU windows, hard-cap admissions) are a SharedArrayBuffer
 * that every worker updates under per-account locks (src/serve/accounts/counters.ts).
 * A worker that dies is replaced on the same port.
 */
import type { FromWorker, ToWorker, WorkerInit } from "./protocol";
import type { Config } from "../../platform/config";
import { workerEntry } from "../../platform/native";
import { VERSION } from "../../platform/version";
import { openMarketReader } from "../../db/connection";
import { AccountCounters } from "../accounts/counters";
import type { KeyVerifier, RemoteVerdict } from "../accounts/keys";
import { type LedgerEntry, LedgerWriter, type NoticeRow } from "../accounts/ledger";
import { SqliteAccountStore } from "../accounts/store";
import { openAccountStore } from "../accounts/open";
import type { LogFormat } from "../http/access-log";
import { HttpError } from "../http/errors";
import { type LogLevel, jsonLogLine } from "../http/log-lines";
import { type MetricsSnapshot, mergeSnapshots, processStats, renderCheckpoints, renderMetrics } from "../http/metrics";
import { SnapshotSwapper, type SwapRound } from "./swap";
import { accountDbPath, marketDbPath } from "../../db/connection";
import { Checkpointer } from "../../db/checkpointer";
import { type FileIdentity, fileIdentity, sameFile } from "../../db/snapshot-check";
import { PgAccountStore } from "../accounts/pg-store";
import { sharedSecret } from "../accounts/pg-hot";
import { ImageSigner, loadSecret } from "../images/urls";
import { type PublishedFile, SNAPSHOT_KEY_PURPOSE } from "../http/snapshot-routes";
import { SnapshotFollower, sha256OfFile } from "./snapshot-follow";
import { MarketAdvancer } from "./advance";
import { WebhookDispatcher } from "../webhooks/dispatcher";
import { Database } from "bun:sqlite";

export interface ClusterOptions {
  workers: number;
  logFormat: LogFormat | "off";
  /** Where log text that is ready goes (the workers' access-log lines): stderr unless given. */
  write?: (text: string) => void;
}

export interface Cluster {
  readonly port: number;
  readonly workers: number;
  /** Requests the workers are handling now. */
  inFlight(): number;
  /** Swaps to the newest snapshot published into the data directory now (`artmarket reload`, SIGHUP); a follower first asks its source (and fetches). */
  reload(): Promise<SwapRound>;
  /**
   * Stops: /readyz turns 503 and every response carries `Connection: close` at once; requests are
   * served for `delayMs` more (a load balancer takes the node out meanwhile); then the workers
   * refuse new connections (then `onClosed` runs, with the requests in flight) and finish their
   * requests (up to `timeoutMs`), the ledger is committed.
   */
  drain(timeoutMs: number, onClosed?: (inFlight: number) => void, delayMs?: number): Promise<{ unfinished: number }>;
}

export class ClusterStartError extends Error {}

/** How long a /metrics scrape waits for the workers' registries. */
const COLLECT_TIMEOUT_MS = 2000;

interface Slot {
  index: number;
  worker: Worker;
}

export async function startCluster(config: Config, options: ClusterOptions): Promise<Cluster> {
  // the market's migrations (if any) run once here, before the workers open it read-only
  openMarketReader(config.dataDir).close();
  const store = openAccountStore(config.dataDir, config.accountStore);
  // the image-signing secret, made here when the data directory has none, and handed to every
  // worker: the workers start together (two making it at once would each sign with its own)
  const secret = store instanceof PgAccountStore ? sharedSecret(store, config.dataDir) : loadSecret(config.dataDir);
  const verifier: KeyVerifier = store.keyVerifier();
  // with SQLite, the rows a worker hands over are written here; PostgreSQL takes every worker's own
  const sqlite = store instanceof SqliteAccountStore ? store : null;
  const writer = sqlite ? new LedgerWriter(sqlite.db) : null;
  const counters = AccountCounters.create();
  // [0] the state (starting, ready, draining), [1] requests in flight, [2] the drain's timeout (ms)
  // once the workers are to stop accepting (0 before): a worker also reads it on each request, so a
  // worker whose message queue is starved by a flood of requests still drains on time
  const stateBuffer = new SharedArrayBuffer(12);
  const state = new Int32Array(stateBuffer);
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  /** The supervisor's own messages, JSON lines with the JSON log. */
  const say = (level: LogLevel, msg: string) => write(options.logFormat === "json" ? jsonLogLine(level, msg) : `${msg}\n`);
  // account.db's WAL checkpoints on a thread of their own, none on a connection that commits
  // (src/db/checkpointer.ts); the workers' connections are told so in their init
  const checkpointer = sqlite ? new Checkpointer(accountDbPath(config.dataDir), {}, (error) => say("warn", `account.db checkpoints: ${error}`)) : null;
  sqlite?.db.run("PRAGMA wal_autocheckpoint = 0");
  const account = {
    close: () => {
      void checkpointer?.stop();
      store.close();
    },
  };
  // the file the workers are about to open is the one served; any later one is a new snapshot
  const swaps = new Map<number, { left: number; errors: string[]; done: () => void }>();
  let nextSwap = 1;
  const swapper = new SnapshotSwapper({
    dataDir: config.dataDir,
    say,
    served: (id, file) => {
      digest(id, file);
      notify(id);
    },
    async broadcast(snapshot, timeoutMs) {
      const id = nextSwap++;
      const errors: string[] = [];
      await new Promise<void>((resolve) => {
        swaps.set(id, { left: slots.length, errors, done: resolve });
        for (const s of slots) s.worker.postMessage({ t: "swap", id, snapshot } satisfies ToWorker);
        setTimeout(() => {
          if (swaps.get(id)?.left) errors.push(`no answer from ${swaps.get(id)!.left} worker(s) in ${timeoutMs / 1000} s`);
          resolve();
        }, timeoutMs);
      });
      swaps.delete(id);
      return errors;
    },
  });

  // ---------------------------------------------------------------- the snapshot other nodes fetch
  // its SHA-256 once per snapshot served (streamed; one a follower fetched is known already), then
  // handed to every worker for GET /snapshot. Not before a node asks for it (a worker's first
  // GET /snapshot answers 503 and says so): a server no node follows never reads its market.db
  // through for it (14 s at full, at every start); once asked, every snapshot served is hashed
  // as it is swapped in.
  let published: PublishedFile | null = null;
  let hashing = false;
  let digestNext: { id: string; file: FileIdentity } | null = null;
  let servedFile: { id: string; file: FileIdentity } | null = null;
  let digestWanted = false;
  let follower: SnapshotFollower | null = null;
  let advancer: MarketAdvancer | null = null;
  const dispatcher = new WebhookDispatcher(store, { allow: config.webhookAllow ?? [], say: (msg) => say("warn", msg) });
  /** The last market day whose events this server fanned out ("": none yet, so all the snapshot keeps). */
  let fannedThrough = "";
  const fanOuts = new Map<number, (answer: Extract<FromWorker, { t: "fanned" }>) => void>();
  let nextFanOut = 1;
  /**
   * The snapshot's market events to the users who follow what they concern (once each, whichever
   * node): done by the first worker, which reads the objects the events are about as a request
   * does. The days fanned out already are not read again (a day is, as it may bring more merges).
   */
  function notify(id: string | null): void {
    const slot = slots.find((s) => s !== undefined);
    if (!id || !slot) return;
    const ask = nextFanOut++;
    fanOuts.set(ask, (answer) => {
      if (answer.error !== undefined) {
        say("warn", `events of snapshot ${id}: ${answer.error}`);
        return;
      }
      if (answer.lastDay > fannedThrough) fannedThrough = answer.lastDay;
      if (answer.notified > 0) say("info", `events of snapshot ${id}: ${answer.notified} notification(s), ${answer.queued} webhook deliveries queued`);
    });
    slot.worker.postMessage({ t: "fan-out", id: ask, snapshot: id, fromDay: fannedThrough } satisfies ToWorker);
  }
  /** The snapshot served now is `id` (`file`): hashed at once when a node asked before, else when one asks. */
  function digest(id: string, file: FileIdentity | null): void {
    if (!file) return;
    servedFile = { id, file };
    if (!digestWanted) return;
    digestNext = { id, file };
    if (hashing) return; // the loop below takes it next
    hashing = true;
    void (async () => {
      while (digestNext) {
        const next = digestNext;
        digestNext = null;
        const path = marketDbPath(config.dataDir);
        const sha256 = follower?.knownSha256(next.file) ?? (await sha256OfFile(path).catch(() => null));
        // replaced while it was read: the swap to the newer file hashes that one
        if (!sha256 || !sameFile(fileIdentity(path), next.file)) continue;
        published = { id: next.id, size: next.file.size, sha256, published_at: new Date(next.file.mtimeMs).toISOString(), file: next.file };
        for (const s of slots) s?.worker.postMessage({ t: "published", info: published } satisfies ToWorker);
      }
    })().finally(() => {
      hashing = false;
    });
  }

  // the port: bound once without reusePort, so a port another server holds is refused as before
  // (port 0 picks a free one), then released for the workers
  let port: number;
  try {
    const probe = Bun.serve({ port: config.port, hostname: config.host, fetch: () => new Response(null, { status: 503 }) });
    port = probe.port!;
    await probe.stop(true);
  } catch (err) {
    account.close();
    throw new ClusterStartError(`cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
  }

  // ---------------------------------------------------------------- the ledger rows workers hand over
  let queued: { entries: LedgerEntry[]; notices: NoticeRow[]; answer: (error?: string) => void }[] = [];
  let commitScheduled = false;
  const commitQueued = () => {
    commitScheduled = false;
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    const entries = batch.length === 1 ? batch[0]!.entries : batch.flatMap((b) => b.entries);
    const notices = batch.flatMap((b) => b.notices);
    let error: string | undefined;
    try {
      if (!writer) throw new Error("no ledger writer here: the account store is PostgreSQL");
      writer.write(entries, notices);
    } catch (err) {
      error = (err as Error).message;
    }
    for (const b of batch) b.answer(error);
  };
  const pendingRows = () => queued.reduce((n, b) => n + b.entries.length, 0);

  // ---------------------------------------------------------------- workers
  const slots: Slot[] = [];
  let draining = false;
  const collects = new Map<number, { parts: MetricsSnapshot[]; left: number; done: () => void }>();
  let nextCollect = 1;
  const drained = new Map<number, (unfinished: number) => void>();
  const closed = new Map<number, () => void>();

  async function metricsText(): Promise<string> {
    const id = nextCollect++;
    const parts: MetricsSnapshot[] = [];
    await new Promise<void>((resolve) => {
      collects.set(id, { parts, left: slots.length, done: resolve });
      for (const s of slots) s.worker.postMessage({ t: "collect", id } satisfies ToWorker);
      setTimeout(resolve, COLLECT_TIMEOUT_MS);
    });
    collects.delete(id);
    return (
      renderMetrics(mergeSnapshots(parts, pendingRows()), {
        version: VERSION,
        workers: options.workers,
        keyVerifications: verifier.argon2Runs,
        process: processStats(),
      }) +
      swapper.metricsText() +
      (follower?.metricsText() ?? "") +
      (advancer?.metricsText() ?? "") +
      dispatcher.metricsText() +
      (checkpointer ? renderCheckpoints(await checkpointer.stats()) : "")
    );
  }

  function handle(slot: Slot, msg: FromWorker): void {
    const send = (m: ToWorker) => slot.worker.postMessage(m);
    switch (msg.t) {
      case "verify":
        verifier.verify(msg.key, msg.address, msg.refuse).then(
          (caller) => send({ t: "verified", id: msg.id, verdict: { ok: caller !== null } }),
          (err) => {
            const verdict: RemoteVerdict = err instanceof HttpError ? { status: err.status, message: err.message, headers: err.headers } : { ok: false };
            send({ t: "verified", id: msg.id, verdict });
          },
        );
        return;
      case "ledger":
        queued.push({ entries: msg.entries, notices: msg.notices, answer: (error) => send({ t: "ledgered", id: msg.id, error }) });
        if (!commitScheduled) {
          commitScheduled = true;
          setImmediate(commitQueued);
        }
        return;
      case "metrics":
        void metricsText().then((text) => send({ t: "metrics", id: msg.id, text }));
        return;
      case "collected": {
        const c = collects.get(msg.id);
        if (!c) return;
        c.parts.push(msg.snapshot);
        if (--c.left === 0) c.done();
        return;
      }
      case "log":
        write(msg.text);
        return;
      case "swapped": {
        const w = swaps.get(msg.id);
        if (!w) return;
        if (!msg.ok) w.errors.push(`worker ${slot.index}: ${msg.error ?? "refused"}`);
        if (--w.left === 0) w.done();
        return;
      }
      case "fanned":
        fanOuts.get(msg.id)?.(msg);
        fanOuts.delete(msg.id);
        return;
      case "publish-wanted":
        if (digestWanted) return;
        digestWanted = true;
        if (servedFile) digest(servedFile.id, servedFile.file);
        return;
      case "closed":
        closed.get(slot.index)?.();
        return;
      case "drained":
        drained.get(slot.index)?.(msg.unfinished);
        return;
      default:
        return;
    }
  }

  /** Starts worker `index` on `listenPort`; resolves with the port it bound. */
  function spawn(index: number, listenPort: number): Promise<number> {
    const worker = new Worker(workerEntry("serve/cluster/worker.ts"));
    const slot: Slot = { index, worker };
    slots[index] = slot;
    return new Promise<number>((resolve, reject) => {
      let up = false;
      worker.onmessage = (event: MessageEvent) => {
        const msg = event.data as FromWorker;
        if (msg.t === "listening") {
          up = true;
          resolve(msg.port);
        } else if (msg.t === "failed") {
          if (!up) reject(new ClusterStartError(`worker ${index}: ${msg.error}`));
        } else handle(slot, msg);
      };
      worker.onerror = (event: ErrorEvent) => {
        if (!up) reject(new ClusterStartError(`worker ${index}: ${event.message}`));
        else say("error", `worker ${index}: ${event.message}`);
      };
      worker.addEventListener("close", () => {
        if (!up || draining || slots[index] !== slot) return;
        // a worker that died is replaced on the same port; its requests in flight are lost, not its ledger rows (each response waited for its commit)
        say("warn", `worker ${index} stopped unexpectedly; starting another`);
        spawn(index, port).catch((err) => say("error", `worker ${index} could not restart: ${(err as Error).message}`));
      });
      const init: WorkerInit = {
        t: "init",
        config,
        port: listenPort,
        index,
        workers: options.workers,
        logFormat: options.logFormat,
        localLedger: writer !== null,
        checkpointed: checkpointer !== null,
        secret: new Uint8Array(secret),
        counters: counters.buffer,
        state: stateBuffer,
      };
      worker.postMessage(init);
      if (published) worker.postMessage({ t: "published", info: published } satisfies ToWorker);
    });
  }

  try {
    await Promise.all(Array.from({ length: options.workers }, (_, i) => spawn(i, port)));
  } catch (err) {
    for (const s of slots) s?.worker.terminate();
    account.close();
    throw err;
  }
  Atomics.store(state, 0, 1);
  swapper.start();
  digest(swapper.snapshot, swapper.file);
  if (config.snapshotFrom) {
    // the key of the signed snapshot requests, from the secret the nodes of one store share
    follower = new SnapshotFollower({ from: config.snapshotFrom, key: new ImageSigner(secret, null).derivedKey(SNAPSHOT_KEY_PURPOSE), dataDir: config.dataDir, swapper, say });
    follower.start();
  }
  // the node's webhook deliveries: from the outbox every node shares (with PostgreSQL, each once)
  dispatcher.start();
  notify(swapper.snapshot);
  if (config.advanceMs) {
    advancer = new MarketAdvancer({
      dataDir: config.dataDir,
      everyMs: config.advanceMs,
      snapshot: () => swapper.snapshot,
      publish: () => swapper.round(false),
      log: (level, msg, fields) => write(options.logFormat === "json" ? jsonLogLine(level, msg, fields) : `${msg}\n`),
    });
    advancer.start();
  }

  return {
    port,
    workers: options.workers,
    inFlight: () => Atomics.load(state, 1),
    async reload() {
      // a follower asks its source first (and fetches what it publishes)
      if (follower) await follower.poll(true);
      return swapper.round(true);
    },
    async drain(timeoutMs, onClosed, delayMs = 0) {
      draining = true;
      swapper.stop();
      follower?.stop();
      // a round's child is ended now, its files removed before the process exits
      const advanceStopped = advancer?.stop();
      const dispatchStopped = dispatcher.stop();
      Atomics.store(state, 0, 2);
      if (delayMs > 0) await Bun.sleep(delayMs);
      const allClosed = Promise.all(
        slots.map(
          (s) =>
            new Promise<void>((resolve) => {
              closed.set(s.index, resolve);
              setTimeout(resolve, 5000);
            }),
        ),
      );
      Atomics.store(state, 2, Math.max(1, Math.round(timeoutMs)));
      const results = Promise.all(
        slots.map(
          (s) =>
            new Promise<number>((resolve) => {
              drained.set(s.index, resolve);
              s.worker.postMessage({ t: "drain", timeoutMs } satisfies ToWorker);
              // a worker that does not answer is cut after the timeout and a grace second
              setTimeout(() => resolve(0), timeoutMs + 5000);
            }),
        ),
      );
      await allClosed;
      onClosed?.(Atomics.load(state, 1));
      const unfinished = await results;
      await advanceStopped;
      await dispatchStopped;
      commitQueued();
      for (const s of slots) s.worker.terminate();
      await checkpointer?.stop();
      account.close();
      return { unfinished: unfinished.reduce((a, b) => a + b, 0) };
    },
  };
}
