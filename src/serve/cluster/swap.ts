/**
 * The supervisor's side of the hot swap (issue 33, item 3). A snapshot is *published* when a
 * complete market file is renamed over `<data>/market.db` (what `seed` and `import` do when they
 * finish: src/pipeline/seed/index.ts, src/pipeline/import/run.ts; an operator does the same with a
 * file copied beside it and `mv`). The supervisor notices a new file there (another inode, size or
 * modification time than the one served) from fs.watch on market.db itself, with a poll every
 * POLL_MS as a fallback, or when asked (`artmarket reload`, SIGHUP). It then checks the file once,
 * on a thread of its own (check-worker.ts: integrity, migrations, read indexes, snapshot id), and
 * asks every worker to swap to it (worker.ts, src/serve/live-market.ts). A file that fails a check
 * is refused, logged and counted, and the snapshot served stays; it is not checked again until it
 * changes or a reload asks. Rounds run one at a time; a change seen during one starts another.
 *
 * What a reload reads back: each round asked for (reload, SIGHUP) writes `<data>/serve.reload`
 * (JSON: the server's pid, when the round started, its outcome, the snapshot served, the reason
 * of a refusal), which `artmarket reload` waits for (src/cli.ts).
 */
import { type FSWatcher, renameSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { marketDbPath } from "../../db/connection";
import { fileIdentity, type FileIdentity, sameFile, type SnapshotCheck, snapshotIdOf } from "../../db/snapshot-check";
import { Database } from "bun:sqlite";
import { workerEntry } from "../../platform/native";

/** The file a reload round's outcome is written to, in the data directory. */
export const RELOAD_STATUS = "serve.reload";
/** How often the supervisor looks at market.db when fs.watch said nothing. */
export const POLL_MS = 1000;
/** How long the workers get to open a new snapshot. */
const SWAP_TIMEOUT_MS = 30_000;

export interface ReloadStatus {
  pid: number;
  /** When the round started (ms since the epoch): a reload waits for a round started after its signal. */
  started_at: number;
  finished_at: number;
  /** ok: the newest file is served (swapped now, or already); refused: it failed a check or a worker could not open it. */
  outcome: "ok" | "refused";
  /** The snapshot served after the round. */
  snapshot: string;
  swapped: boolean;
  reason?: string;
}

export interface SwapRound {
  outcome: "ok" | "refused" | "unchanged";
  snapshot: string;
  swapped: boolean;
  reason?: string;
}

export interface SwapperOptions {
  dataDir: string;
  /** Asks every worker to swap to `snapshot`; resolves with the errors of those that could not. */
  broadcast(snapshot: string, timeoutMs: number): Promise<string[]>;
  say(level: "info" | "warn" | "error", msg: string): void;
  /** Called with each snapshot the workers start serving (a swap), and the file it is. */
  served?(snapshot: string, file: FileIdentity): void;
  /** The poll's period (POLL_MS). */
  pollMs?: number;
}

/** Runs one job of check-worker.ts on a thread of its own: its one answer, or `failed` of the thread's error. */
export function onCheckThread<T>(message: { path: string; job?: "check" | "sha256" }, failed: (error: string) => T): Promise<T> {
  return new Promise((resolve) => {
    const worker = new Worker(workerEntry("serve/cluster/check-worker.ts"));
    const done = (answer: T) => {
      worker.terminate();
      resolve(answer);
    };
    worker.onmessage = (event: MessageEvent) => done(event.data as T);
    worker.onerror = (event: ErrorEvent) => done(failed(event.message));
    worker.postMessage(message);
  });
}

/** Checks `path` on a thread of its own (check-worker.ts). */
export function checkOffThread(path: string): Promise<SnapshotCheck> {
  return onCheckThread<SnapshotCheck>({ path }, (error) => ({ ok: false, reason: `the check failed: ${error}`, file: fileIdentity(path), ms: 0 }));
}

export class SnapshotSwapper {
  readonly #path: string;
  #served: FileIdentity | null;
  #servedId: string;
  /** The last file refused (not checked again until it changes, or a reload asks). */
  #refused: FileIdentity | null = null;
  #refusedReason = "";
  readonly counts = { ok: 0, refused: 0 };
  #round: Promise<SwapRound> | null = null;
  /** A check of the file published, handed over by the round's caller. */
  #checked: SnapshotCheck | null = null;
  #again = false;
  #againForced = false;
  #watcher: FSWatcher | null = null;
  #poll: ReturnType<typeof setInterval> | null = null;
  #soon: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: SwapperOptions) {
    this.#path = marketDbPath(options.dataDir);
    // what the workers opened at start (the supervisor migrated it just before)
    this.#served = fileIdentity(this.#path);
    const db = new Database(this.#path, { readonly: true });
    try {
      this.#servedId = snapshotIdOf(db);
    } finally {
      db.close();
    }
  }

  /** The snapshot the workers serve. */
  get snapshot(): string {
    return this.#servedId;
  }

  /** The file the workers serve, as stat saw it when it was checked. */
  get file(): FileIdentity | null {
    return this.#served;
  }

  /** Watches market.db (fs.watch, and a poll as its fallback). */
  start(): void {
    this.#watch();
    this.#poll = setInterval(() => {
      const changed = !sameFile(fileIdentity(this.#path), this.#served);
      // market.db is back, the watch failed, or it missed a new file (a file system that does not report it)
      if (!this.#watcher || changed) this.#watch();
      if (!this.#round && changed) void this.round(false);
    }, this.options.pollMs ?? POLL_MS);
  }

  /**
   * Watches the file at market.db itself, not the data directory: a rename over it (its link count
   * drops) or a write into it wakes the supervisor, and nothing else does. A watch of the
   * directory woke the watcher's thread and this one for every write to account.db's WAL, that
   * is every ledger commit, all the time under load. The watch follows the file it was set on,
   * so each wake sets it again on the file there now.
   */
  #watch(): void {
    this.#watcher?.close();
    this.#watcher = null;
    try {
      const watcher = watch(this.#path, () => this.#schedule());
      watcher.on("error", () => {
        watcher.close();
        if (this.#watcher === watcher) this.#watcher = null;
      });
      this.#watcher = watcher;
    } catch {
      // no market.db now: the poll alone, which sets the watch again once there is one
    }
  }

  stop(): void {
    this.#watcher?.close();
    this.#watcher = null;
    if (this.#poll) clearInterval(this.#poll);
    if (this.#soon) clearTimeout(this.#soon);
    this.#poll = null;
  }

  #schedule(): void {
    if (this.#soon) return;
    // events come in bursts (the link count, the rename): one look after them, on a fresh watch
    this.#soon = setTimeout(() => {
      this.#soon = null;
      if (this.#poll) this.#watch();
      void this.round(false);
    }, 50);
  }

  /**
   * One round: the newest market.db is checked and swapped in, unless it is the one served (or,
   * unless `forced`, the one refused last). A reload forces it and writes RELOAD_STATUS.
   * `checked`: a check already run on the file now at market.db (a follower checks the file it
   * fetched before it renames it: src/serve/cluster/snapshot-follow.ts), used if it is that file.
   */
  round(forced: boolean, checked?: SnapshotCheck): Promise<SwapRound> {
    if (checked) this.#checked = checked;
    if (this.#round) {
      // one more after the round running now: it sees whatever was published meanwhile
      this.#again = true;
      this.#againForced ||= forced;
      return this.#round;
    }
    this.#round = (async () => {
      let f = forced;
      let result: SwapRound;
      do {
        this.#again = false;
        this.#againForced = false;
        const started = Date.now();
        result = await this.#run(f);
        if (f) this.#writeStatus(started, result);
        f = this.#againForced;
      } while (this.#again);
      return result;
    })().finally(() => {
      this.#round = null;
    });
    return this.#round;
  }

  async #run(forced: boolean): Promise<SwapRound> {
    for (;;) {
      const file = fileIdentity(this.#path);
      if (!file) return this.#refuse(null, `${this.#path} does not exist`, forced);
      if (sameFile(file, this.#served)) return { outcome: "ok", snapshot: this.#servedId, swapped: false };
      if (!forced && sameFile(file, this.#refused)) return { outcome: "unchanged", snapshot: this.#servedId, swapped: false, reason: this.#refusedReason };
      const prior = this.#checked;
      this.#checked = null;
      const check = prior?.ok && sameFile(prior.file, file) ? prior : await checkOffThread(this.#path);
      if (!check.ok) return this.#refuse(check.file ?? file, check.reason, true);
      if (sameFile(check.file, this.#refused)) this.#refused = null;
      // published again while it was checked: check the newer one
      if (!sameFile(fileIdentity(this.#path), check.file)) continue;
      const started = performance.now();
      const errors = await this.options.broadcast(check.id, SWAP_TIMEOUT_MS);
      if (errors.length) return this.#refuse(check.file, `a worker could not open it: ${errors[0]}`, true);
      const previous = this.#servedId;
      this.#served = check.file;
      this.#servedId = check.id;
      this.#refused = null;
      this.counts.ok++;
      this.options.served?.(check.id, check.file);
      this.options.say(
        "info",
        `snapshot ${check.id} published: swapped in from ${previous} (checked in ${Math.round(check.ms)} ms, every worker on it ${Math.round(performance.now() - started)} ms later)`,
      );
      return { outcome: "ok", snapshot: check.id, swapped: true };
    }
  }

  #refuse(file: FileIdentity | null, reason: string, count: boolean): SwapRound {
    // a file is counted (and logged) once, however many reloads ask about it again
    if (count && !sameFile(file, this.#refused)) {
      this.counts.refused++;
      this.#refused = file;
      this.#refusedReason = reason;
      this.options.say("warn", `snapshot refused, still serving ${this.#servedId}: ${reason}`);
    }
    return { outcome: "refused", snapshot: this.#servedId, swapped: false, reason };
  }

  #writeStatus(started: number, r: SwapRound): void {
    const status: ReloadStatus = {
      pid: process.pid,
      started_at: started,
      finished_at: Date.now(),
      outcome: r.outcome === "refused" ? "refused" : "ok",
      snapshot: r.snapshot,
      swapped: r.swapped,
      ...(r.outcome === "refused" && { reason: r.reason }),
    };
    const path = join(this.options.dataDir, RELOAD_STATUS);
    try {
      writeFileSync(`${path}.${process.pid}.tmp`, `${JSON.stringify(status)}\n`);
      renameSync(`${path}.${process.pid}.tmp`, path);
    } catch (err) {
      this.options.say("error", `cannot write ${path}: ${(err as Error).message}`);
    }
  }

  /** The swap counter, Prometheus text. */
  metricsText(): string {
    return [
      "# HELP artmarket_snapshot_swaps_total Published market snapshots swapped in (ok) or refused (a failed check, or a worker could not open it).",
      "# TYPE artmarket_snapshot_swaps_total counter",
      `artmarket_snapshot_swaps_total{outcome="ok"} ${this.counts.ok}`,
      `artmarket_snapshot_swaps_total{outcome="refused"} ${this.counts.refused}`,
      "",
    ].join("\n");
  }
}
