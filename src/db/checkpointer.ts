/**
 * WAL checkpoints off the request path. SQLite checkpoints a WAL database on the connection that
 * commits past `wal_autocheckpoint` pages, in that commit's call: the thread that made it waits
 * while the WAL is copied into the database file and both are synced. For account.db in `serve`,
 * that thread is an HTTP worker committing a ledger row, and every request it holds waits with
 * it: at 16,384 pages (64 MiB) bench/api measured 95–200 ms for one such commit, which set the
 * p99 of every cheap call under load (130–160 ms, against 15–25 ms without checkpoints).
 *
 * In `serve`, every connection that writes account.db therefore runs with
 * `wal_autocheckpoint = 0`, and a thread checkpoints instead, over a connection of its own
 * (checkpoint-loop.ts):
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
 *
 * Should the thread fail to start or die, the same checkpoints run on the calling thread from then
 * on (`onError` hears why): the WAL never goes unchecked, at the cost of that thread's time.
 */
import { workerEntry } from "../platform/native";
import { type CheckpointOptions, type CheckpointStats, CheckpointLoop, noCheckpoints } from "./checkpoint-loop";

export type { CheckpointStats } from "./checkpoint-loop";

export const CHECKPOINT_DEFAULTS: CheckpointOptions = { intervalMs: 100, restartFrames: 8192, restartWaitMs: 20 };

export type ToCheckpointer = { t: "start"; path: string; options: CheckpointOptions } | { t: "stats"; id: number } | { t: "stop" };
export type FromCheckpointer = { t: "stats"; id: number; stats: CheckpointStats } | { t: "stopped" } | { t: "failed"; error: string };

/** How long stats() waits for the thread's answer before it gives the last one (ms). */
const STATS_WAIT_MS = 1000;

/** The checkpoint thread of one database file (see the file's comment). */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly options: CheckpointOptions;
  private nextId = 1;
  private readonly waiting = new Map<number, (s: CheckpointStats) => void>();
  private last: CheckpointStats = noCheckpoints();
  /** The checkpoints on this thread, once the thread failed. */
  private fallback: CheckpointLoop | null = null;
  private threadFailed = false;
  private stopped: Promise<void> | null = null;
  private onStopped: (() => void) | null = null;

  /**
   * Starts the thread on `path` (a WAL database). `threadEntry`: the thread's module (the
   * checkpoint worker; tests give one that fails, to see the checkpoints go on here).
   */
  constructor(
    private readonly path: string,
    { threadEntry = workerEntry("db/checkpoint-worker.ts"), ...options }: Partial<CheckpointOptions> & { threadEntry?: string } = {},
    private readonly onError: (message: string) => void = () => {},
  ) {
    this.options = { ...CHECKPOINT_DEFAULTS, ...options };
    this.worker = new Worker(threadEntry);
    this.worker.onmessage = (event: MessageEvent<FromCheckpointer>) => {
      const msg = event.data;
      if (msg.t === "stats") {
        this.waiting.get(msg.id)?.(msg.stats);
        this.waiting.delete(msg.id);
      } else if (msg.t === "stopped") this.onStopped?.();
      else this.failed(msg.error);
    };
    this.worker.onerror = (event) => this.failed(event.message);
    this.worker.postMessage({ t: "start", path, options: this.options } satisfies ToCheckpointer);
  }

  /** The thread could not run: its checkpoints go on here. */
  private failed(error: string): void {
    if (this.threadFailed || this.stopped) return;
    this.threadFailed = true;
    this.worker.terminate();
    try {
      this.fallback = new CheckpointLoop(this.path, this.options);
      this.onError(`${error}; checkpointing on the main thread instead`);
    } catch (err) {
      this.onError(`${error}; and on the main thread: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    for (const resolve of this.waiting.values()) resolve({ ...this.fallback.stats });
    this.waiting.clear();
  }

  /** Whether the checkpoints run on this thread (the checkpoint thread failed). */
  get onThisThread(): boolean {
    return this.fallback !== null;
  }

  /** What the checkpoints have done so far (the thread's last answer, should it not answer in time). */
  stats(): Promise<CheckpointStats> {
    if (this.fallback) return Promise.resolve({ ...this.fallback.stats });
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(this.last);
      }, STATS_WAIT_MS);
      this.waiting.set(id, (stats) => {
        clearTimeout(timer);
        this.last = stats;
        resolve(stats);
      });
      this.worker.postMessage({ t: "stats", id } satisfies ToCheckpointer);
    });
  }

  /** Stops the checkpoints and closes their connection (the thread ends; at most 2 s). */
  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      if (this.fallback) {
        this.fallback.close();
        resolve();
        return;
      }
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
