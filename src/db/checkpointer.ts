/**
 * WAL checkpoints off the request path. SQLite checkpoints a WAL database on the connection that
 * commits past `wal_autocheckpoint` pages, in that commit's call: the thread that made it waits
 * while the WAL is copied into the database file and both are synced. For account.db in `serve`,
 * that thread is an HTTP worker committing a ledger row, and every request it holds waits with
 * it: at 16,384 pages (64 MiB) bench/api measured 95–200 ms for one such commit, which set the
 * p99 of every cheap call under load (130–160 ms, against 15–25 ms without checkpoints).
 *
 * In `serve`, every connection that writes account.db therefore runs with
 * `wal_autocheckpoint = 0`, and this thread checkpoints instead, over a connection of its own:
 * - every `intervalMs`, a PASSIVE checkpoint: it copies what the readers allow and never waits
 *   for a writer or a reader, so the writers go on meanwhile;
 * - once the WAL holds `restartFrames` frames, a RESTART checkpoint, which lets the next writer
 *   start the WAL file again from its beginning. Under sustained writes a PASSIVE checkpoint never
 *   finds the WAL caught up, so without it the WAL would grow for as long as the load lasts (and
 *   every look-up in it would cost more). A RESTART holds the write lock while it copies the
 *   little the last PASSIVE left and waits for the readers of older snapshots: at most
 *   `restartWaitMs`, then it gives up until twice as long later, up to a second (a long reader,
 *   such as a backup, is never waited on for long, nor often).
 * A writer that finds the lock held meanwhile waits as it does for any other writer (the HTTP
 * workers' ledger hands its rows to the supervisor, whose connection waits: ledger.ts).
 */
import { workerEntry } from "../platform/native";

export interface CheckpointerOptions {
  /** Between two PASSIVE checkpoints (ms). */
  intervalMs?: number;
  /** WAL frames (pages) from which a RESTART checkpoint follows the PASSIVE one. */
  restartFrames?: number;
  /** How long a RESTART may wait for the write lock and the readers (ms): its busy timeout. */
  restartWaitMs?: number;
}

export const CHECKPOINT_DEFAULTS: Required<CheckpointerOptions> = { intervalMs: 100, restartFrames: 8192, restartWaitMs: 20 };

/** What the thread has done so far. */
export interface CheckpointStats {
  passive: number;
  restarts: number;
  /** RESTART checkpoints that gave up (the lock or a reader held past restartWaitMs). */
  restartsBusy: number;
  /** Frames in the WAL after the last checkpoint. */
  frames: number;
  /** The last error a checkpoint threw, if any. */
  error: string | null;
}

export type ToCheckpointer = { t: "start"; path: string; options: Required<CheckpointerOptions> } | { t: "stats"; id: number } | { t: "stop" };
export type FromCheckpointer = { t: "stats"; id: number; stats: CheckpointStats } | { t: "stopped" } | { t: "failed"; error: string };

/** The checkpoint thread of one database file (see the file's comment). */
export class Checkpointer {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, (s: CheckpointStats) => void>();
  private stopped: Promise<void> | null = null;
  private onStopped: (() => void) | null = null;
  private last: CheckpointStats = { passive: 0, restarts: 0, restartsBusy: 0, frames: 0, error: null };

  /** Starts the thread on `path` (a WAL database); `onError` hears a thread that could not start or died. */
  constructor(path: string, options: CheckpointerOptions = {}, onError: (message: string) => void = () => {}) {
    this.worker = new Worker(workerEntry("db/checkpoint-worker.ts"));
    this.worker.onmessage = (event: MessageEvent<FromCheckpointer>) => {
      const msg = event.data;
      if (msg.t === "stats") {
        this.waiting.get(msg.id)?.(msg.stats);
        this.waiting.delete(msg.id);
      } else if (msg.t === "stopped") this.onStopped?.();
      else onError(msg.error);
    };
    this.worker.onerror = (event) => onError(event.message);
    this.worker.postMessage({ t: "start", path, options: { ...CHECKPOINT_DEFAULTS, ...options } } satisfies ToCheckpointer);
  }

  /** What the thread has done so far (what it said last, should it not answer within a second). */
  stats(): Promise<CheckpointStats> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(this.last);
      }, 1000);
      this.waiting.set(id, (stats) => {
        clearTimeout(timer);
        this.last = stats;
        resolve(stats);
      });
      this.worker.postMessage({ t: "stats", id } satisfies ToCheckpointer);
    });
  }

  /** Stops the timer, closes the thread's connection and ends the thread (at most 2 s). */
  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      const done = () => {
        this.worker.terminate();
        resolve();
      };
      this.onStopped = done;
      setTimeout(done, 2000).unref();
      this.worker.postMessage({ t: "stop" } satisfies ToCheckpointer);
    });
    return this.stopped;
  }
}
