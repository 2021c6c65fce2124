/**
 * The Data-Unit ledger. Every metered request is one row in du_ledger plus an upsert into the
 * daily roll-up du_daily. A response waits for its row to be committed before it leaves, so a DU
 * that a client saw in a header survives a SIGKILL right after (WAL; committed = durable against
 * process death). Requests that arrive together share one transaction (group commit), so the
 * cost of a commit is spread over the batch instead of paid per request; a request that finds the
 * ledger idle (no batch open, the last commit held one request and ended IDLE_MS ago or more) is
 * committed at once, in its own event-loop turn, so that its response is not deferred to a later
 * turn (see IDLE_MS).
 *
 * Consumption per user is also kept in memory for the three windows (entitlement period,
 * UTC day, calendar month) so that the Remaining header and the caps cost no query.
 */
import type { Database } from "bun:sqlite";
import type { Caller } from "./keys";
import type { Plan } from "./plans";
import { dayNumber, monthContaining, periodContaining, today, type Period } from "../../market/time";

export interface LedgerEntry {
  userId: number;
  keyId: number;
  ts: number;
  method: string;
  route: string;
  status: number;
  records: number;
  du: number;
}

export interface Windows {
  period: Period;
  periodConsumed: number;
  day: string;
  dayConsumed: number;
  month: Period;
  monthConsumed: number;
}

interface UserCounters extends Windows {}

/** What a charge returns at once: the figures for the headers, and the commit to wait for. */
export interface Charged {
  /** The period's consumption including this request (and none after it). */
  periodConsumed: number;
  periodEnd: string;
  /** Settles when the request's ledger row is committed. */
  committed: Promise<void>;
}

export interface PoolLimits {
  du_limit: number;
  daily_du_limit: number;
  monthly_du_limit: number;
}

/** The pools a plan meters: the main pool, and for plans that have one, the separate API pool. */
export function poolsOf(plan: Plan): { pool: "main" | "api"; limits: PoolLimits }[] {
  const pools: { pool: "main" | "api"; limits: PoolLimits }[] = [
    {
      pool: "main",
      limits: {
        du_limit: plan.du_limit,
        daily_du_limit: plan.features.daily_du_limit,
        monthly_du_limit: plan.features.monthly_du_limit,
      },
    },
  ];
  if (plan.features.api_pool) pools.push({ pool: "api", limits: plan.features.api_pool });
  return pools;
}

/** Projected consumption at the end of the period, at the average rate so far (today counts as a day). */
export function projectEndOfPeriod(consumed: number, period: Period, day: string): number {
  const elapsed = Math.min(period.days, Math.max(1, dayNumber(day) - dayNumber(period.start) + 1));
  return Math.round((consumed / elapsed) * period.days * 100) / 100;
}

/** The promise of a row committed before `charge` returned. */
const COMMITTED: Promise<void> = Promise.resolve();

/** Ledger rows written per multi-row INSERT. */
const CHUNK = 16;
/** A batch commits at this many rows at the latest… */
const MAX_BATCH = 128;
/** …or this long after its first row. */
const MAX_WAIT_MS = 2;
/**
 * A request that comes at least this long after the last commit ended, when that commit held a
 * single request (and no batch is open), is committed at once. A commit costs 15–20 µs (WAL,
 * synchronous = NORMAL), so committing each request alone at this rate or slower costs at most
 * about a tenth of the time between commits, while gathering a batch would hold its response for
 * a later event-loop turn (which costs a loaded server more than the commit). Faster arrivals
 * (cheap endpoints under load) gather batches as before; and once batches hold several requests,
 * the ledger keeps batching until one holds a single request: under a burst of concurrent
 * requests the first of the next burst, however late, joins its batch instead of paying a commit
 * of its own.
 */
export const IDLE_MS = 0.25;

export interface LedgerOptions {
  /** The group commit's clock in milliseconds (default performance.now()); tests inject their own. */
  now?: () => number;
}

export class Ledger {
  private readonly counters = new Map<number, UserCounters>();
  private readonly now: () => number;
  private pending: LedgerEntry[] = [];
  /** The batch being gathered: one promise shared by every response waiting on it. */
  private batch: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void; started: number; seen: number } | null = null;

  /**
   * Runs once per event-loop turn while a batch is open: as long as requests keep arriving (each
   * turn brought new entries), wait one more turn, up to MAX_WAIT_MS from the batch's first entry;
   * when a turn brought nothing new, commit. (A request that finds the ledger idle never opens a
   * batch: it is committed in `charge`.)
   */
  private readonly tick = () => {
    const batch = this.batch;
    if (!batch) return;
    const grew = this.pending.length > batch.seen;
    batch.seen = this.pending.length;
    if (grew && batch.seen > 1 && this.now() - batch.started < MAX_WAIT_MS) setImmediate(this.tick);
    else this.flush();
  };
  private readonly sumStmt;
  private readonly insertStmt;
  private readonly dailyStmt;
  private readonly noticeStmt;
  private readonly writeBatch;
  private readonly insertMany;
  private pendingNotices: unknown[][] = [];
  /** now() when the last commit ended (-Infinity: none yet), and how many rows it held. */
  private lastCommitEnd = Number.NEGATIVE_INFINITY;
  private lastCommitRows = 0;
  /** Commits so far, and how many of them were a request committed alone in its own turn. */
  readonly commits = { total: 0, immediate: 0 };

  constructor(
    private readonly db: Database,
    options: LedgerOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.sumStmt = db.query<{ du: number | null }, [number, string, string]>("SELECT sum(du) AS du FROM du_daily WHERE user_id = ? AND day BETWEEN ? AND ?");
    this.insertStmt = db.query("INSERT INTO du_ledger (user_id, key_id, ts, day, method, route, status, records, du) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    this.dailyStmt = db.query(
      `INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(user_id, day, endpoint) DO UPDATE SET du = du + excluded.du, requests = requests + excluded.requests`,
    );
    this.noticeStmt = db.query(
      `INSERT INTO notices (user_id, plan_slug, pool, threshold, period_start, period_end, du_limit, du_consumed, projected_eop, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id, pool, threshold, period_start) DO NOTHING`,
    );
    this.insertMany = db.query(
      `INSERT INTO du_ledger (user_id, key_id, ts, day, method, route, status, records, du) VALUES ${Array.from({ length: CHUNK }, () => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
    );
    this.writeBatch = db.transaction((entries: LedgerEntry[], noticeRows: unknown[][]) => {
      // One row per request (many per statement), one roll-up upsert per user, day and endpoint.
      const rollup = new Map<string, { userId: number; day: string; endpoint: string; du: number; requests: number }>();
      const values: (string | number)[] = [];
      let i = 0;
      for (const e of entries) {
        const day = this.dayOf(e.ts);
        const endpoint = `${e.method} ${e.route}`;
        const key = `${e.userId}|${day}|${endpoint}`;
        const r = rollup.get(key);
        if (r) {
          r.du += e.du;
          r.requests++;
        } else rollup.set(key, { userId: e.userId, day, endpoint, du: e.du, requests: 1 });
        if (entries.length - i >= CHUNK || values.length > 0) {
          values.push(e.userId, e.keyId, e.ts, day, e.method, e.route, e.status, e.records, e.du);
          if (values.length === CHUNK * 9) {
            this.insertMany.run(...values);
            values.length = 0;
          }
        } else {
          this.insertStmt.run(e.userId, e.keyId, e.ts, day, e.method, e.route, e.status, e.records, e.du);
        }
        i++;
      }
      for (const r of rollup.values()) this.dailyStmt.run(r.userId, r.day, r.endpoint, r.du, r.requests);
      for (const row of noticeRows) this.noticeStmt.run(...(row as [number]));
    });
  }

  private lastDay = { from: 0, to: 0, day: "" };

  /** The UTC day of a timestamp, without formatting a date for every request of the same day. */
  private dayOf(ts: number): string {
    const d = this.lastDay;
    if (ts >= d.from && ts < d.to) return d.day;
    const from = Math.floor(ts / 86_400_000) * 86_400_000;
    this.lastDay = { from, to: from + 86_400_000, day: today(ts) };
    return this.lastDay.day;
  }

  private sum(userId: number, from: string, to: string): number {
    return this.sumStmt.get(userId, from, to)?.du ?? 0;
  }

  /** Current consumption of the caller's three windows (read from memory, loaded once per window). */
  windows(caller: Caller, now: number = Date.now()): Windows {
    const day = this.dayOf(now);
    let c = this.counters.get(caller.userId);
    if (!c || c.day !== day) {
      const period = periodContaining(caller.periodAnchor, caller.plan.period_days, day);
      const month = monthContaining(day);
      c = {
        period,
        periodConsumed: this.sum(caller.userId, period.start, period.end),
        day,
        dayConsumed: this.sum(caller.userId, day, day),
        month,
        monthConsumed: this.sum(caller.userId, month.start, month.end),
      };
      this.counters.set(caller.userId, c);
    }
    return c;
  }

  /**
   * Records a metered request. The in-memory windows move at once (so the Remaining header is
   * exact under concurrency); the returned promise settles when the row is committed: at once
   * (already settled) when the ledger was idle, else with the batch it joins or opens.
   */
  charge(caller: Caller, entry: LedgerEntry): Charged {
    const w = this.windows(caller, entry.ts);
    const before = w.periodConsumed;
    w.periodConsumed += entry.du;
    w.dayConsumed += entry.du;
    w.monthConsumed += entry.du;
    if (caller.plan.features.cap === "soft" && entry.du > 0) this.queueNotices(caller, w, before, entry.ts);
    this.pending.push(entry);
    if (!this.batch && this.lastCommitRows <= 1 && this.now() - this.lastCommitEnd >= IDLE_MS) {
      // Idle: commit this row now, in the request's own turn.
      this.commits.immediate++;
      const error = this.commit();
      return {
        periodConsumed: w.periodConsumed,
        periodEnd: w.period.end,
        committed: error === undefined ? COMMITTED : Promise.reject(error.err),
      };
    }
    if (!this.batch) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.batch = { promise, resolve, reject, started: this.now(), seen: 0 };
      setImmediate(this.tick);
    }
    const committed = this.batch.promise;
    if (this.pending.length >= MAX_BATCH) this.flush();
    return { periodConsumed: w.periodConsumed, periodEnd: w.period.end, committed };
  }

  private queueNotices(caller: Caller, w: Windows, before: number, ts: number): void {
    for (const { pool, limits } of poolsOf(caller.plan)) {
      for (const threshold of [80, 100]) {
        const line = (limits.du_limit * threshold) / 100;
        if (before < line && w.periodConsumed >= line) {
          this.pendingNotices.push([
            caller.userId,
            caller.plan.slug,
            pool,
            threshold,
            w.period.start,
            w.period.end,
            limits.du_limit,
            w.periodConsumed,
            projectEndOfPeriod(w.periodConsumed, w.period, w.day),
            ts,
          ]);
        }
      }
    }
  }

  /** Commits everything pending in one transaction and settles the waiting responses. */
  flush(): void {
    const batch = this.batch;
    this.batch = null;
    const error = this.commit();
    if (error) batch?.reject(error.err);
    else batch?.resolve();
  }

  /** Writes everything pending in one transaction; what it threw, if it failed. */
  private commit(): { err: unknown } | undefined {
    const entries = this.pending;
    const noticeRows = this.pendingNotices;
    if (entries.length === 0) return undefined;
    this.pending = [];
    this.pendingNotices = [];
    try {
      this.writeBatch(entries, noticeRows);
    } catch (err) {
      // Nothing of this batch is stored: forget the in-memory windows so they reload from disk.
      for (const e of entries) this.counters.delete(e.userId);
      return { err };
    } finally {
      this.commits.total++;
      this.lastCommitEnd = this.now();
      this.lastCommitRows = entries.length;
    }
    return undefined;
  }

  /** Drops cached windows (after a plan change, or in tests). */
  reset(): void {
    this.flush();
    this.counters.clear();
  }
}
