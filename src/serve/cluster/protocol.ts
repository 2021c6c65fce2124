/**
 * The messages between the supervisor (the `serve` process's main thread) and its HTTP workers.
 * A worker's request carries an id that the answer repeats.
 */
import type { LedgerEntry, NoticeRow } from "../accounts/ledger";
import type { RemoteVerdict } from "../accounts/keys";
import type { LogFormat } from "../http/access-log";
import type { MetricsSnapshot } from "../http/metrics";
import type { PublishedFile } from "../http/snapshot-routes";
import type { Config } from "../../platform/config";

/** The first message to a worker: what it serves, and the memory it shares with the others. */
export interface WorkerInit {
  t: "init";
  config: Config;
  /** The port to listen on (the first worker may get 0 and report the one it bound). */
  port: number;
  index: number;
  workers: number;
  logFormat: LogFormat | "off";
  /**
   * Whether the worker commits its ledger rows itself when account.db's write lock is free (with
   * the SQLite store: a round trip to the supervisor costs more CPU than the commit); the rows of
   * a worker that finds the lock taken go to the supervisor.
   */
  localLedger: boolean;
  /**
   * Whether account.db's WAL is checkpointed by the supervisor's checkpoint thread
   * (src/db/checkpointer.ts): then no connection of the worker checkpoints on a commit.
   */
  checkpointed: boolean;
  /** The image-signing secret the supervisor read or made (<data>/secret, or the one the nodes of a PostgreSQL store share). */
  secret: Uint8Array;
  /** The AccountCounters table (rate limits, DU windows, hard-cap admissions). */
  counters: SharedArrayBuffer;
  /** Int32s: the server's state (0 starting, 1 ready, 2 draining), then the requests in flight. */
  state: SharedArrayBuffer;
}

export type ToWorker =
  | WorkerInit
  | { t: "verified"; id: number; verdict: RemoteVerdict }
  | { t: "ledgered"; id: number; error?: string }
  | { t: "collect"; id: number }
  | { t: "metrics"; id: number; text: string }
  /** Open market.db anew and serve it if its snapshot id is `snapshot` (checked by the supervisor: src/serve/cluster/swap.ts). */
  | { t: "swap"; id: number; snapshot: string }
  /** The snapshot served and its SHA-256, for `GET /snapshot` (computed once per snapshot by the supervisor). */
  | { t: "published"; info: PublishedFile }
  /** Fan the served snapshot's market events out from `fromDay` (src/serve/webhooks/fan-out.ts); `snapshot` names it. */
  | { t: "fan-out"; id: number; snapshot: string; fromDay: string }
  | { t: "drain"; timeoutMs: number };

export type FromWorker =
  | { t: "listening"; port: number }
  | { t: "failed"; error: string }
  | { t: "verify"; id: number; key: string; address: string; refuse: boolean }
  | { t: "ledger"; id: number; entries: LedgerEntry[]; notices: NoticeRow[] }
  | { t: "metrics"; id: number }
  | { t: "collected"; id: number; snapshot: MetricsSnapshot }
  | { t: "log"; text: string }
  /** The answer to a swap: the snapshot this worker serves now, or why it kept the one it had. */
  | { t: "swapped"; id: number; ok: boolean; snapshot: string | null; error?: string }
  /** The answer to a fan-out: what it wrote and the last market day it saw, or why it failed. */
  | { t: "fanned"; id: number; notified: number; queued: number; lastDay: string; error?: string }
  /** A node asked for the snapshot (GET /snapshot) before its SHA-256 was computed: compute it, and every later one's. */
  | { t: "publish-wanted" }
  /** The worker no longer accepts connections (its requests in flight go on). */
  | { t: "closed" }
  | { t: "drained"; unfinished: number };
