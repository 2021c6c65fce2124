/**
 * A PostgreSQL account store out of reach: which errors say so, and the log of an outage.
 *
 * `storeUnreachable(error)` tells a connection-class failure (the server refused, closed or lost
 * the connection, is shutting down or starting up, has no connection slot left, or did not answer
 * in time) from a statement that ran and failed. The caller answers the first with 503 and
 * Retry-After, the second stays a 500. Both paths of the store meet it: SyncPg's `PgError` (its
 * `code` the SQLSTATE, or Bun's code when there is none) and the errors of Bun's asynchronous
 * client on the hot path (`code` ERR_POSTGRES_SERVER_ERROR with the SQLSTATE in `errno`, or an
 * ERR_POSTGRES_CONNECTION_* code).
 *
 * `storeOutage` logs an outage, not each request: one line when the first request fails, one
 * every minute while it lasts, and one when a statement answers again, with the number of requests
 * answered 503 meanwhile. The count is per thread (each HTTP worker logs its own lines).
 */

/** Bun's client codes for a connection that could not be made, was closed or timed out. */
const BUN_CONNECTION = /^ERR_POSTGRES_(CONNECTION_[A-Z_]+|IDLE_TIMEOUT|LIFETIME_TIMEOUT)$/;
/** Operating-system errors of a socket that cannot reach the server. */
const SOCKET = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * Whether a SQLSTATE is connection-class: class 08 (connection exception), 57P01 admin shutdown,
 * 57P02 crash shutdown, 57P03 cannot connect now (shutting down or starting up), 57P05 idle
 * session timeout, 53300 too many connections.
 */
export function connectionSqlState(state: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(state) || /^57P0[1235]$/.test(state) || state === "53300";
}

/** Whether `error` says the PostgreSQL store could not be reached, rather than that a statement failed. */
export function storeUnreachable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== "object" || depth > 3) return false;
  const e = error as { code?: unknown; errno?: unknown; message?: unknown; name?: unknown; cause?: unknown };
  for (const value of [e.code, e.errno]) {
    if (typeof value !== "string") continue;
    if (BUN_CONNECTION.test(value) || SOCKET.has(value) || connectionSqlState(value)) return true;
  }
  // SyncPg's own failures carry no code: no answer in time, its connection closed or not made
  if (e.name === "PgError" && (e.code === null || e.code === undefined) && typeof e.message === "string") {
    if (/did not answer|connection/i.test(e.message)) return true;
  }
  return e.cause !== undefined && storeUnreachable(e.cause, depth + 1);
}

/** The time between the lines of one long outage (ms). */
const REMIND_MS = 60_000;
/**
 * How long the store must answer with no request failing before the outage is over (ms): a
 * server that cuts its connections one by one (a restart, pg_terminate_backend) fails some
 * statements while others already answer, which is one outage, not several.
 */
const SETTLE_MS = 1_000;

/** One thread's record of an outage of the account store (see the module comment). */
export class StoreOutage {
  private since: number | null = null;
  private failed = 0;
  private lastLine = 0;
  private ending: ReturnType<typeof setTimeout> | null = null;
  /** Outages seen by this thread (ended or not). */
  outages = 0;

  constructor(
    private readonly log: (line: string) => void = (line) => console.error(line),
    private readonly now: () => number = Date.now,
    private readonly settleMs: number = SETTLE_MS,
  ) {}

  /** Whether an outage is under way (a request failed and no statement has answered since). */
  get active(): boolean {
    return this.since !== null;
  }

  /** Requests answered 503 in the current outage (0 when none). */
  get count(): number {
    return this.failed;
  }

  /** A request failed because the store is out of reach: logs the outage's start, or a reminder. */
  failure(error: unknown): void {
    const at = this.now();
    const reason = error instanceof Error ? error.message : String(error);
    const state = (error as { errno?: unknown; code?: unknown } | null)?.errno ?? (error as { code?: unknown } | null)?.code;
    const why = typeof state === "string" && state !== "" ? `${reason} (${state})` : reason;
    if (this.since === null) {
      this.since = at;
      this.failed = 1;
      this.lastLine = at;
      this.outages++;
      this.log(`account store unreachable: ${why}; answering 503 with Retry-After until it answers again`);
      return;
    }
    this.failed++;
    if (at - this.lastLine >= REMIND_MS) {
      this.lastLine = at;
      this.log(`account store still unreachable after ${seconds(at - this.since)}: ${this.failed} request(s) answered 503 so far; last error: ${why}`);
    }
  }

  /**
   * A statement answered: the outage, if any, ends with one line once no request has failed for
   * `settleMs` since (at once when `settleMs` is 0). Cheap when there is none.
   */
  answered(): void {
    if (this.since === null || this.ending !== null) return;
    const at = this.now();
    if (this.settleMs <= 0) {
      this.end(at);
      return;
    }
    const failed = this.failed;
    this.ending = setTimeout(() => {
      this.ending = null;
      // no request failed since: the outage ended when this statement answered
      if (this.since !== null && this.failed === failed) this.end(at);
    }, this.settleMs);
    (this.ending as { unref?: () => void }).unref?.();
  }

  private end(at: number): void {
    this.log(`account store answers again after ${seconds(at - this.since!)}: ${this.failed} request(s) were answered 503 meanwhile`);
    this.since = null;
    this.failed = 0;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** This thread's outage record, which the error mapper and both clients of the store report to. */
export const storeOutage = new StoreOutage();
