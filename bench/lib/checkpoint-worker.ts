/**
 * What-if "checkpointWorker" (bench/lib/whatif.ts): a worker thread with its own connection to
 * account.db that checkpoints the WAL every `intervalMs` (PASSIVE: it never blocks the writer),
 * so the request path's connection can run with wal_autocheckpoint = 0.
 */
import { Database } from "bun:sqlite";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ path: string; intervalMs: number }>) => {
  const db = new Database(event.data.path);
  db.run("PRAGMA busy_timeout = 5000");
  const timer = setInterval(() => {
    try {
      db.run("PRAGMA wal_checkpoint(PASSIVE)");
    } catch {
      // busy: try again next time
    }
  }, event.data.intervalMs);
  self.onmessage = () => {
    clearInterval(timer);
    db.close();
    process.exit(0);
  };
};
