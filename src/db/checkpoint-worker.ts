/**
 * The thread of a Checkpointer (src/db/checkpointer.ts): its own connection to the database, a
 * PASSIVE checkpoint every interval, a RESTART once the WAL holds enough frames (backing off while
 * a reader keeps it from finishing).
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts).
 */
import { Database } from "bun:sqlite";
import type { CheckpointStats, FromCheckpointer, ToCheckpointer } from "./checkpointer";

declare const self: Worker;

const post = (msg: FromCheckpointer) => self.postMessage(msg);

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

let db: Database | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
const stats: CheckpointStats = { passive: 0, restarts: 0, restartsBusy: 0, frames: 0, error: null };

function start(path: string, options: { intervalMs: number; restartFrames: number; restartWaitMs: number }): void {
  const conn = new Database(path);
  db = conn;
  conn.run(`PRAGMA busy_timeout = ${options.restartWaitMs}`);
  conn.run("PRAGMA wal_autocheckpoint = 0");
  const passive = conn.query<CheckpointRow, []>("PRAGMA wal_checkpoint(PASSIVE)");
  const restart = conn.query<CheckpointRow, []>("PRAGMA wal_checkpoint(RESTART)");
  let backoffMs = options.intervalMs;
  let restartAfter = 0;
  timer = setInterval(() => {
    try {
      const p = passive.get()!;
      stats.passive++;
      stats.frames = p.log;
      // (a PASSIVE that copied the WAL to its end does not do: under load a writer has added frames
      // by the time it ends, so no writer finds the WAL copied to its end and starts it again)
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
      // SQLITE_BUSY from the checkpoint lock (another connection checkpointing), or an I/O error:
      // the next tick tries again
      stats.error = err instanceof Error ? err.message : String(err);
    }
  }, options.intervalMs);
}

self.onmessage = (event: MessageEvent<ToCheckpointer>) => {
  const msg = event.data;
  switch (msg.t) {
    case "start":
      try {
        start(msg.path, msg.options);
      } catch (err) {
        post({ t: "failed", error: err instanceof Error ? err.message : String(err) });
      }
      return;
    case "stats":
      post({ t: "stats", id: msg.id, stats: { ...stats } });
      return;
    case "stop":
      if (timer) clearInterval(timer);
      timer = null;
      db?.close();
      db = null;
      post({ t: "stopped" });
      return;
  }
};
