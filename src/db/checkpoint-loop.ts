/**
 * The checkpoints of src/db/checkpointer.ts, over a connection of their own: a PASSIVE checkpoint
 * every interval, a RESTART once the WAL holds enough frames, backing off while a reader keeps it
 * from finishing. Run by the checkpoint thread (checkpoint-worker.ts), or on the calling thread
 * when that thread could not run.
 */
import { Database } from "bun:sqlite";

export interface CheckpointOptions {
  /** Between two PASSIVE checkpoints (ms). */
  intervalMs: number;
  /** WAL frames (pages) from which a RESTART checkpoint follows the PASSIVE one. */
  restartFrames: number;
  /** How long a RESTART may wait for the write lock and the readers (ms): its busy timeout. */
  restartWaitMs: number;
}

/** What the checkpoints have done so far. */
export interface CheckpointStats {
  passive: number;
  restarts: number;
  /** RESTART checkpoints that gave up (the lock or a reader held past restartWaitMs). */
  restartsBusy: number;
  /** Frames in the WAL at the last checkpoint. */
  frames: number;
  /** The last error a checkpoint threw, if any. */
  error: string | null;
}

/** The figures before any checkpoint (`error`: why there is none yet, if it is known). */
export function noCheckpoints(error: string | null = null): CheckpointStats {
  return { passive: 0, restarts: 0, restartsBusy: 0, frames: 0, error };
}

/** The row PRAGMA wal_checkpoint answers: whether it gave up busy, the WAL's frames, and the frames copied. */
interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * The longest a RESTART that gave up waits before it tries again (ms). A RESTART gives up on a
 * reader of an old snapshot (a backup: then each try holds the writers restartWaitMs at most, once
 * a second) as on a write lock that happened to be held through its wait (then the next try
 * comes soon enough that the WAL grows by a second of writes at most).
 */
const MAX_BACKOFF_MS = 1000;

export class CheckpointLoop {
  readonly stats: CheckpointStats = noCheckpoints();
  private readonly db: Database;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(path: string, options: CheckpointOptions) {
    const db = new Database(path);
    this.db = db;
    db.run(`PRAGMA busy_timeout = ${options.restartWaitMs}`);
    db.run("PRAGMA wal_autocheckpoint = 0");
    const passive = db.query<CheckpointRow, []>("PRAGMA wal_checkpoint(PASSIVE)");
    const restart = db.query<CheckpointRow, []>("PRAGMA wal_checkpoint(RESTART)");
    const stats = this.stats;
    let backoffMs = options.intervalMs;
    let restartAfter = 0;
    this.timer = setInterval(() => {
      try {
        const p = passive.get()!;
        stats.passive++;
        stats.frames = p.log;
        // (a PASSIVE that copied the WAL to its end does not do: under load a writer has added
        // frames by the time it ends, so no writer finds the WAL copied to its end and restarts it)
        if (p.log < options.restartFrames || performance.now() < restartAfter) return;
        const r = restart.get()!;
        if (r.busy) {
          stats.restartsBusy++;
          backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
          restartAfter = performance.now() + backoffMs;
        } else {
          stats.restarts++;
          backoffMs = options.intervalMs;
        }
      } catch (err) {
        // SQLITE_BUSY from the checkpoint lock (another connection checkpointing), or an I/O
        // error: the next tick tries again
        stats.error = err instanceof Error ? err.message : String(err);
      }
    }, options.intervalMs);
  }

  /** Stops the timer and closes the connection. */
  close(): void {
    clearInterval(this.timer);
    this.db.close();
  }
}
