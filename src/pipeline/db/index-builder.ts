/**
 * Index builds on a thread of their own, beside work that only reads the snapshot.
 *
 * The read API's indexes on `lots` (src/db/market-indexes) need nothing but the lots, which are
 * final once generated or imported; the derivation's pass 1 then reads for minutes (every lot,
 * artist by artist) and writes nothing. An IndexBuilder runs those index builds meanwhile on a
 * worker thread (index-builder-worker.ts) with its own writable connection, so they take the
 * second core instead of following the derivation on the first.
 *
 * Two connections writing, or one writing while the other reads with locks, would wait on each
 * other: an index build holds the file's exclusive lock for most of its run (its page cache
 * spills). So while a builder runs, the owning thread's connection must stay idle (it holds no
 * lock: journal_mode = OFF, autocommit) and what it reads goes through an immutable reader
 * (openSnapshotReader: no locks), which is sound for tables no build writes: a build only adds
 * the index's pages (from the free list or at the end of the file) and its row in sqlite_master.
 * Before the owner writes again, `stop()` asks the thread to stop after the statement under way
 * and waits for it; the statements are idempotent (IF NOT EXISTS), so those it did not reach are
 * built later with the rest.
 */
import { workerEntry } from "../../platform/native";

/** How far the builder got. */
export interface BuilderSummary {
  /** Statements built (from the first, in order). */
  built: number;
  total: number;
  /** Seconds from the start to the end of the last statement built. */
  seconds: number;
  /** Seconds `stop()` waited for the statement under way. */
  waited: number;
}

export class IndexBuilder {
  private readonly worker: Worker;
  /** Set to 1 to ask the thread to stop after the statement under way. */
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  private built = 0;
  private seconds = 0;
  private readonly total: number;
  private readonly done: Promise<void>;
  private failure: Error | null = null;

  /** Starts building `statements` (idempotent, in order) on the snapshot at `path`. */
  constructor(path: string, statements: readonly string[]) {
    this.total = statements.length;
    this.worker = new Worker(workerEntry("pipeline/db/index-builder-worker.ts"));
    this.done = new Promise<void>((resolve) => {
      this.worker.onmessage = (event: MessageEvent) => {
        const msg = event.data as { built?: number; seconds?: number; finished?: true; error?: string };
        if (msg.error !== undefined) {
          this.failure = new Error(`index builder: ${msg.error}`);
          resolve();
        } else if (msg.finished) resolve();
        else {
          this.built = msg.built!;
          this.seconds = msg.seconds!;
        }
      };
      this.worker.onerror = (event: ErrorEvent) => {
        this.failure ??= new Error(`index builder: ${event.message}`);
        resolve();
      };
    });
    this.worker.postMessage({ path, statements: [...statements], stop: this.stopFlag.buffer });
  }

  /** Statements built so far (as the thread has reported). */
  get builtSoFar(): number {
    return this.built;
  }

  /**
   * Asks the thread to stop after the statement under way, waits for it and closes it. Throws
   * the error of a statement that failed (the snapshot is then abandoned: its connection writes
   * without a journal).
   */
  async stop(): Promise<BuilderSummary> {
    Atomics.store(this.stopFlag, 0, 1);
    return this.finish();
  }

  /** Waits for the thread to build every statement (or to stop, once asked), then closes it; throws as stop() does. */
  async finish(): Promise<BuilderSummary> {
    const t = performance.now();
    await this.done;
    const waited = (performance.now() - t) / 1000;
    this.worker.terminate();
    if (this.failure) throw this.failure;
    return { built: this.built, total: this.total, seconds: this.seconds, waited };
  }

  /** Stops the thread at once, mid-statement (only when the snapshot is being abandoned). */
  terminate(): void {
    this.worker.terminate();
  }
}
