/**
 * SyncPg: synchronous statements over a PostgreSQL connection, for the account store's methods,
 * which are synchronous like bun:sqlite's (a write and the reads after it in one turn, with no
 * request interleaved). A worker thread (sync-worker.ts) holds the connection; the calling thread
 * posts a statement and waits on a shared flag (Atomics.wait) until the answer is on its port
 * (receiveMessageOnPort). One SyncPg is one connection: statements run in order, and a
 * transaction (`transaction`) spans the statements run inside it.
 *
 * It also keeps the account epoch (migration account-pg 0001: a counter moved by triggers when a
 * key is revoked or a plan changes, announced with NOTIFY) in a shared cell that `epoch()` reads
 * without a round trip, so the key cache of every thread of every node sees a revocation within
 * the notification's latency (and within 0.5 s should a notification be lost).
 *
 * Hot paths do not go through here: the ledger's commits and the cross-node limits use Bun's
 * asynchronous client (src/serve/accounts/pg-*.ts), so a request waiting on PostgreSQL never
 * blocks the others of its thread.
 */
import { receiveMessageOnPort } from "node:worker_threads";
import { workerEntry } from "../../platform/native";
import { storeOutage } from "./outage";

export type PgBind = string | number | null | boolean | Uint8Array;

/** An error PostgreSQL answered, with its SQLSTATE (`code`, e.g. 23505 for a unique violation). */
export class PgError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "PgError";
  }
}

/** How long a statement may take before the caller gives up (ms). */
const STATEMENT_TIMEOUT_MS = 30_000;

/** The account epoch's notification channel (triggers of the account-pg migrations). */
export const EPOCH_CHANNEL = "artmarket_account_epoch";
/** The channel a follow or unfollow announces its user on (migration account-pg 0004). */
export const FOLLOWS_CHANNEL = "artmarket_follows";
/** Slots of the follows versions (user id modulo this): a collision only costs a re-read. */
const FOLLOW_SLOTS = 4096;

type Reply = { rows: Record<string, unknown>[]; count: number } | { error: { message: string; code: string | null } } | { ready: true };

/** Rewrites SQLite's `?` placeholders as PostgreSQL's `$1, $2, …` (outside quoted text). */
export function numbered(sql: string): string {
  let n = 0;
  let out = "";
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === "?") out += `$${++n}`;
    else out += ch;
  }
  return out;
}

export class SyncPg {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly epochCell = new Float64Array(new SharedArrayBuffer(8));
  private readonly followVersions = new Int32Array(new SharedArrayBuffer(FOLLOW_SLOTS * 4));
  private readonly followGeneration = new Int32Array(new SharedArrayBuffer(4));
  private depth = 0;
  private closed = false;

  /** Opens the connection (and, with `listenEpoch`, the epoch's listener); waits until it is up. */
  constructor(
    readonly url: string,
    options: { listenEpoch?: boolean } = {},
  ) {
    this.epochCell[0] = -1;
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.worker = new Worker(workerEntry("db/pg/sync-worker.ts"));
    this.worker.unref();
    this.worker.postMessage(
      {
        url,
        port: channel.port2,
        flag: this.flag,
        epoch: this.epochCell,
        listen: options.listenEpoch ? EPOCH_CHANNEL : null,
        follows: options.listenEpoch ? { channel: FOLLOWS_CHANNEL, versions: this.followVersions, generation: this.followGeneration } : null,
      },
      [channel.port2],
    );
    const reply = this.wait();
    if (!("ready" in reply)) throw new PgError(`PostgreSQL connection failed: ${"error" in reply ? reply.error.message : "no answer"}`, null);
    // the first statement proves the connection (a wrong URL fails here, not on the first request)
    this.get("SELECT 1 AS one");
  }

  private wait(): Reply {
    for (;;) {
      const got = receiveMessageOnPort(this.port as never) as { message: Reply } | undefined;
      if (got) {
        Atomics.store(this.flag, 0, 0);
        return got.message;
      }
      if (Atomics.wait(this.flag, 0, 0, STATEMENT_TIMEOUT_MS) === "timed-out") {
        throw new PgError(`PostgreSQL did not answer within ${STATEMENT_TIMEOUT_MS / 1000} s`, null);
      }
    }
  }

  private call(sql: string, params: readonly PgBind[], mode: "rows" | "count" | "script"): { rows: Record<string, unknown>[]; count: number } {
    if (this.closed) throw new PgError("the PostgreSQL connection is closed", null);
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ sql: mode === "script" ? sql : numbered(sql), params, mode });
    const reply = this.wait();
    if ("error" in reply) throw new PgError(reply.error.message, reply.error.code);
    if ("ready" in reply) throw new PgError("unexpected reply", null);
    storeOutage.answered();
    return reply;
  }

  /** Every row of a statement (`?` placeholders). */
  all<T>(sql: string, ...params: PgBind[]): T[] {
    return this.call(sql, params, "rows").rows as T[];
  }

  /** The first row, or null. */
  get<T>(sql: string, ...params: PgBind[]): T | null {
    return (this.call(sql, params, "rows").rows[0] as T | undefined) ?? null;
  }

  /** Runs a statement; returns the rows it changed. */
  run(sql: string, ...params: PgBind[]): number {
    return this.call(sql, params, "count").count;
  }

  /** Runs several statements with no parameters (migrations). */
  script(sql: string): void {
    this.call(sql, [], "script");
  }

  /** Runs `fn` in one transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) {
      this.depth++;
      try {
        return fn();
      } finally {
        this.depth--;
      }
    }
    this.script("BEGIN");
    this.depth = 1;
    try {
      const result = fn();
      this.depth = 0;
      this.script("COMMIT");
      return result;
    } catch (err) {
      this.depth = 0;
      try {
        this.script("ROLLBACK");
      } catch {
        // the connection is gone: the server rolled back
      }
      throw err;
    }
  }

  /**
   * A number that changes whenever the user's follows may have changed (a notification for the
   * user's slot, a re-subscription of the listener, or `touchFollows` on this thread); null when
   * this connection does not listen (nothing can be cached then).
   */
  followsVersion(userId: number): number | null {
    // generation 0: the listener has not subscribed yet (or this connection does not listen)
    const generation = Atomics.load(this.followGeneration, 0);
    if (generation === 0) return null;
    return generation * 2 ** 32 + Atomics.load(this.followVersions, userId % FOLLOW_SLOTS);
  }

  /** Marks the user's follows changed on this thread at once (its own write; others learn by notification). */
  touchFollows(userId: number): void {
    Atomics.add(this.followVersions, userId % FOLLOW_SLOTS, 1);
  }

  /** The account epoch as last notified (or polled); -1 before the first read. */
  epoch(): number {
    return this.epochCell[0]!;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.worker.terminate();
  }
}
