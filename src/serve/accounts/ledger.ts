/**
 * The Data-Unit ledger. Every metered request is one row in du_ledger plus an upsert into the
 * daily roll-up du_daily. A response waits for its row to be committed before it leaves, so a DU
 * that a client saw in a header survives a SIGKILL right after (WAL; committed = durable against
 * process death). Requests that arrive together share one transaction (group commit), so the
 * cost of a commit is spread over the batch instead of paid per request; a request that finds the
 * ledger idle (no batch open, the last commit held one request and ended IDLE_MS ago or more) is
 * committed at once, in its own event-loop turn, so that its response is not deferred to a later
 * turn (see IDLE_MS). (A large response made on a later turn streams: STREAM_BYTES in
 * src/serve/http/endpoint.ts.)
 *
 * Consumption per user is also kept in memory for the three windows (entitlement period,
 * UTC day, calendar month) so that the Remaining header and the caps cost no query. Those
 * counters live in the AccountCounters table every worker of the server shares (counters.ts):
 * loaded from the roll-up once per account and server, then moved by every charge under the
 * account's lock, and rolled forward at a new day, month or period.
 *
 * In a worker of `serve` (src/serve/cluster), the Ledger commits over a connection of its own
 * that never waits for account.db's write lock (`localWriter`): when another writer holds it, the
 * batch goes to the supervisor instead (`sink`), which commits the rows of all workers that arrive
 * together in one transaction and answers. A response waits for its row's commit either way.
 */
import type { Database } from "bun:sqlite";
import type { Caller } from "./keys";
import type { Plan } from "./plans";
import { AccountCounters, F } from "./counters";
import { HttpError } from "../http/errors";
import { valueRows } from "../../db/sql";
import { addDays, dayNumber, monthContaining, periodContaining, today, type Period } from "../../market/time";

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

/** An allowance line a soft-capped plan's notices mark: `threshold` % of a pool's allowance. */
export interface NoticeLine {
  pool: "main" | "api";
  threshold: number;
  line: number;
  du_limit: number;
}
const linesOfPlan = new WeakMap<Plan, NoticeLine[]>();

/** The lines a plan's notices mark: 80 % and 100 % of each pool's allowance under a soft cap, none otherwise (once per plan object). */
export function noticeLines(plan: Plan): NoticeLine[] {
  let lines = linesOfPlan.get(plan);
  if (!lines) {
    lines =
      plan.features.cap !== "soft"
        ? []
        : poolsOf(plan).flatMap(({ pool, limits }) => [80, 100].map((threshold) => ({ pool, threshold, line: (limits.du_limit * threshold) / 100, du_limit: limits.du_limit })));
    linesOfPlan.set(plan, lines);
  }
  return lines;
}

/** The rows being gathered for one commit, and the promise their requests wait on. */
interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
  /** now() at its first row. */
  started: number;
  /** Rows pending at the last tick. */
  seen: number;
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
  /** The per-account counters (shared by the server's workers); a table of its own by default. */
  counters?: AccountCounters;
  /**
   * Where the rows go when another thread writes the ledger: resolves once they are committed.
   * Without it the Ledger commits over its own connection (group commit, below).
   */
  sink?: (entries: LedgerEntry[], notices: NoticeRow[]) => Promise<void>;
  /**
   * With a sink: a writer over a connection of this thread that does not wait for account.db's
   * write lock (busy_timeout 0). A batch is committed here when the lock is free and handed to
   * the sink when another writer holds it, so an uncontended worker pays no round trip to the
   * supervisor; either way the response waits for its row's commit.
   */
  localWriter?: LedgerWriter;
}

/** Whether an error is SQLite's "the database is locked" (another connection holds the write lock). */
function isBusy(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return (typeof e?.code === "string" && e.code.startsWith("SQLITE_BUSY")) || (typeof e?.message === "string" && e.message.includes("database is locked"));
}

/** An allowance notice's row as the ledger inserts it (user, plan, pool, threshold, period, limit, consumed, projection, time). */
export type NoticeRow = [number, string, string, number, string, string, number, number, number, number];

/**
 * What the service asks of a DU ledger: the Ledger below (account.db), or PgLedger (pg-hot.ts,
 * PostgreSQL shared by several nodes).
 */
export interface MeteringLedger {
  /** Current consumption of the caller's three windows. */
  windows(caller: Caller, now?: number): Windows;
  /** Admits a call that may cost up to `maxDu` under the caller's hard cap, or throws 429 once it is used up. */
  admit(caller: Caller, maxDu: number): Promise<Admission>;
  /** Records a metered request; `committed` settles when its row is durable. */
  charge(caller: Caller, entry: LedgerEntry, admission?: Admission): Charged;
  /** Rows charged and not yet committed. */
  pendingRows(): number;
  /** Commits (or hands over) everything pending now. */
  flush(): void;
  /** Flushes, then waits until every row charged so far is committed. */
  settled(): Promise<void>;
  /** Forgets cached consumption (after a plan change, or in tests). */
  reset(): void;
}

/** A call admitted under a hard cap: what it may add at most, until it is charged or released. */
export interface Admission {
  readonly userId: number;
  readonly maxDu: number;
  /** Gives the reservation back (a call that ends without a charge); no-op once charged or released. */
  release(): void;
}

/** The calendar facts of one caller on one day, as day numbers. */
interface Calendar {
  day: string;
  dayN: number;
  period: Period;
  periodStartN: number;
  periodEndN: number;
  month: Period;
  monthStartN: number;
}

/**
 * The callers' day, period and month at a time, computed once per caller and UTC day (formatting
 * and parsing dates for every request costs more than the rest of a cheap call's metering). A
 * caller is the verified key's object, replaced when its plan or period changes.
 */
export class CallerCalendars {
  private readonly byCaller = new WeakMap<Caller, Calendar>();

  of(caller: Caller, ts: number): Calendar {
    const dayN = Math.floor(ts / 86_400_000);
    const known = this.byCaller.get(caller);
    if (known && known.dayN === dayN) return known;
    const day = today(ts);
    const period = periodContaining(caller.periodAnchor, caller.plan.period_days, day);
    const month = monthContaining(day);
    const cal = { day, dayN, period, periodStartN: dayNumber(period.start), periodEndN: dayNumber(period.end), month, monthStartN: dayNumber(month.start) };
    this.byCaller.set(caller, cal);
    return cal;
  }
}

/** How long a call under a hard cap waits before looking again for room beside the calls in flight (ms). */
const ADMIT_RETRY_MS = 1;

/** The ledger's statements over account.db: one transaction per batch of rows. */
export class LedgerWriter {
  private readonly insertStmt;
  private readonly dailyStmt;
  private readonly keyDailyStmt;
  private readonly noticeStmt;
  private readonly insertMany;
  readonly write: (entries: LedgerEntry[], noticeRows: NoticeRow[]) => void;
  private lastDay = { from: 0, to: 0, day: "" };

  constructor(db: Database) {
    this.insertStmt = db.query("INSERT INTO du_ledger (user_id, key_id, ts, day, method, route, status, records, du) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    this.dailyStmt = db.query(
      `INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(user_id, day, endpoint) DO UPDATE SET du = du + excluded.du, requests = requests + excluded.requests`,
    );
    this.keyDailyStmt = db.query(
      `INSERT INTO du_key_daily (user_id, day, key_id, du, requests) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(user_id, day, key_id) DO UPDATE SET du = du + excluded.du, requests = requests + excluded.requests`,
    );
    this.noticeStmt = db.query(
      `INSERT INTO notices (user_id, plan_slug, pool, threshold, period_start, period_end, du_limit, du_consumed, projected_eop, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id, pool, threshold, period_start) DO NOTHING`,
    );
    this.insertMany = db.query(`INSERT INTO du_ledger (user_id, key_id, ts, day, method, route, status, records, du) VALUES ${valueRows(CHUNK, 9)}`);
    this.write = db.transaction((entries: LedgerEntry[], noticeRows: NoticeRow[]) => {
      // One row per request (many per statement), one roll-up upsert per user, day and endpoint,
      // and one per user, day and key.
      const rollup = new Map<string, { userId: number; day: string; endpoint: string; du: number; requests: number }>();
      const byKey = new Map<string, { userId: number; day: string; keyId: number; du: number; requests: number }>();
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
        const kk = `${e.userId}|${day}|${e.keyId}`;
        const k = byKey.get(kk);
        if (k) {
          k.du += e.du;
          k.requests++;
        } else byKey.set(kk, { userId: e.userId, day, keyId: e.keyId, du: e.du, requests: 1 });
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
      for (const k of byKey.values()) this.keyDailyStmt.run(k.userId, k.day, k.keyId, k.du, k.requests);
      for (const row of noticeRows) this.noticeStmt.run(...row);
    }) as (entries: LedgerEntry[], noticeRows: NoticeRow[]) => void;
  }

  /** The UTC day of a timestamp, without formatting a date for every request of the same day. */
  private dayOf(ts: number): string {
    const d = this.lastDay;
    if (ts >= d.from && ts < d.to) return d.day;
    const from = Math.floor(ts / 86_400_000) * 86_400_000;
    this.lastDay = { from, to: from + 86_400_000, day: today(ts) };
    return this.lastDay.day;
  }
}

export class Ledger implements MeteringLedger {
  private readonly now: () => number;
  readonly counters: AccountCounters;
  private readonly sink: LedgerOptions["sink"];
  private readonly writer: LedgerWriter | null;
  private pending: LedgerEntry[] = [];
  private pendingNotices: NoticeRow[] = [];
  /** The batch being gathered: one promise shared by every response waiting on it. */
  private batch: Batch | null = null;
  /** Batches handed to the sink and not answered yet. */
  private inSink = new Set<Promise<void>>();

  /**
   * Runs once per event-loop turn while a batch is open: as long as requests keep arriving (each
   * turn brought new entries), wait one more turn, up to MAX_WAIT_MS from the batch's first entry;
   * when a turn brought nothing new, commit. (A request that finds the ledger idle never opens a
   * batch: it is committed in `charge`.) With a sink, the batch goes at the end of its first turn:
   * the supervisor gathers the workers' batches itself.
   */
  private readonly tick = () => {
    const batch = this.batch;
    if (!batch) return;
    const grew = this.pending.length > batch.seen;
    batch.seen = this.pending.length;
    if (this.writer && grew && batch.seen > 1 && this.now() - batch.started < MAX_WAIT_MS) setImmediate(this.tick);
    else this.flush();
  };
  private readonly sumStmt;
  /** now() when the last commit ended (-Infinity: none yet), and how many rows it held. */
  private lastCommitEnd = Number.NEGATIVE_INFINITY;
  private lastCommitRows = 0;
  /** Commits so far, and how many of them were a request committed alone in its own turn. */
  readonly commits = { total: 0, immediate: 0 };
  private readonly calendars = new CallerCalendars();

  constructor(db: Database, options: LedgerOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.counters = options.counters ?? AccountCounters.create();
    this.sink = options.sink;
    this.writer = options.sink ? (options.localWriter ?? null) : new LedgerWriter(db);
    this.sumStmt = db.query<{ du: number | null }, [number, string, string]>("SELECT sum(du) AS du FROM du_daily WHERE user_id = ? AND day BETWEEN ? AND ?");
  }

  private sum(userId: number, from: string, to: string): number {
    return this.sumStmt.get(userId, from, to)?.du ?? 0;
  }

  /**
   * Brings the slot at `b` to the caller's windows at `cal` (the slot's lock held): loads them from
   * the roll-up the first time, moves to a later day, month or period (starting it at zero), and
   * reloads the period when it no longer matches the caller's (the plan or its anchor changed).
   * Never moves back: a call stamped just before midnight that is charged after another worker
   * moved on counts in the windows it still shares with the slot's (see `charge`).
   */
  private align(b: number, caller: Caller, cal: Calendar): void {
    const v = this.counters.values;
    if (v[b + F.loaded] !== 1) {
      v[b + F.periodStart] = cal.periodStartN;
      v[b + F.periodEnd] = cal.periodEndN;
      v[b + F.periodConsumed] = this.sum(caller.userId, cal.period.start, cal.period.end);
      v[b + F.day] = cal.dayN;
      v[b + F.dayConsumed] = this.sum(caller.userId, cal.day, cal.day);
      v[b + F.monthStart] = cal.monthStartN;
      v[b + F.monthConsumed] = this.sum(caller.userId, cal.month.start, cal.month.end);
      v[b + F.loaded] = 1;
      return;
    }
    if (cal.dayN > v[b + F.day]!) {
      v[b + F.day] = cal.dayN;
      v[b + F.dayConsumed] = 0;
    }
    if (cal.monthStartN > v[b + F.monthStart]!) {
      v[b + F.monthStart] = cal.monthStartN;
      v[b + F.monthConsumed] = 0;
    }
    if (cal.periodStartN !== v[b + F.periodStart] || cal.periodEndN !== v[b + F.periodEnd]) {
      const rolled = cal.periodStartN > v[b + F.periodEnd]!;
      if (rolled || cal.dayN >= v[b + F.day]!) {
        v[b + F.periodConsumed] = rolled ? 0 : this.sum(caller.userId, cal.period.start, cal.period.end);
        v[b + F.periodStart] = cal.periodStartN;
        v[b + F.periodEnd] = cal.periodEndN;
      }
    }
  }

  /** The windows as the slot at `b` holds them, for the caller's calendar. */
  private read(b: number, cal: Calendar): Windows {
    const v = this.counters.values;
    return {
      period: cal.period,
      periodConsumed: v[b + F.periodConsumed]!,
      day: cal.day,
      dayConsumed: v[b + F.dayConsumed]!,
      month: cal.month,
      monthConsumed: v[b + F.monthConsumed]!,
    };
  }

  /** Current consumption of the caller's three windows (from the shared counters, loaded once per account). */
  windows(caller: Caller, now: number = Date.now()): Windows {
    const cal = this.calendars.of(caller, now);
    return this.counters.withSlot(caller.userId, (b) => {
      this.align(b, caller, cal);
      return this.read(b, cal);
    });
  }

  /**
   * Admits a call that may cost up to `maxDu` under the caller's hard cap, or throws 429 once the
   * period's allowance is used up. Calls are admitted together only while all of them at their
   * most stay within the allowance; past that one is admitted at a time (the next waits for room),
   * so the cap is crossed by at most the one call that crosses it, whatever the concurrency and on
   * whichever worker. The admission ends with the call's charge, or with `release`.
   */
  async admit(caller: Caller, maxDu: number, now: () => number = Date.now): Promise<Admission> {
    const limit = caller.plan.du_limit;
    const v = this.counters.values;
    for (;;) {
      const at = now();
      const cal = this.calendars.of(caller, at);
      const verdict = this.counters.withSlot(caller.userId, (b): "used-up" | "wait" | "admitted" => {
        this.align(b, caller, cal);
        const consumed = v[b + F.periodConsumed]!;
        if (consumed >= limit) return "used-up";
        if (v[b + F.inFlight]! > 0 && consumed + v[b + F.reserved]! + maxDu >= limit) return "wait";
        v[b + F.inFlight]!++;
        v[b + F.reserved]! += maxDu;
        return "admitted";
      });
      if (verdict === "used-up") {
        const resetAt = Date.parse(`${addDays(cal.period.end, 1)}T00:00:00Z`);
        throw new HttpError(429, `Data Unit allowance of ${limit} for the period ${cal.period.start} to ${cal.period.end} is used up`, {
          "Retry-After": String(Math.max(1, Math.ceil((resetAt - at) / 1000))),
        });
      }
      if (verdict === "admitted") {
        let open = true;
        return {
          userId: caller.userId,
          maxDu,
          release: () => {
            if (!open) return;
            open = false;
            this.endAdmission(caller.userId, maxDu);
          },
          // the charge ends it under the same lock as it adds the DU (see charge)
          [ADMISSION_END]: () => {
            const was = open;
            open = false;
            return was;
          },
        } as Admission;
      }
      await Bun.sleep(ADMIT_RETRY_MS);
    }
  }

  private endAdmission(userId: number, maxDu: number, b?: number): void {
    const v = this.counters.values;
    const end = (base: number) => {
      v[base + F.inFlight] = Math.max(0, v[base + F.inFlight]! - 1);
      v[base + F.reserved] = v[base + F.inFlight] === 0 ? 0 : Math.max(0, v[base + F.reserved]! - maxDu);
    };
    if (b !== undefined) end(b);
    else this.counters.withSlot(userId, end);
  }

  /**
   * Records a metered request. The shared windows move at once (so the Remaining header is exact
   * under concurrency, across workers); the returned promise settles when the row is committed:
   * at once (already settled) when the ledger was idle, else with the batch it joins or opens.
   * An admission under a hard cap ends here, in the same step as the DU are added.
   */
  charge(caller: Caller, entry: LedgerEntry, admission?: Admission): Charged {
    const cal = this.calendars.of(caller, entry.ts);
    const v = this.counters.values;
    const ending = admission ? (admission as Admission & { [ADMISSION_END]: () => boolean })[ADMISSION_END]() : false;
    const { before, periodConsumed } = this.counters.withSlot(caller.userId, (b) => {
      this.align(b, caller, cal);
      const before = v[b + F.periodConsumed]!;
      // a call stamped on an earlier day than the slot's (another worker moved on at midnight)
      // counts in the windows it shares with the slot
      if (cal.periodStartN === v[b + F.periodStart]) v[b + F.periodConsumed]! += entry.du;
      if (cal.dayN === v[b + F.day]) v[b + F.dayConsumed]! += entry.du;
      if (cal.monthStartN === v[b + F.monthStart]) v[b + F.monthConsumed]! += entry.du;
      if (ending) this.endAdmission(caller.userId, admission!.maxDu, b);
      return { before, periodConsumed: v[b + F.periodConsumed]! };
    });
    if (entry.du > 0) this.queueNotices(caller, cal, before, periodConsumed, entry.ts);
    this.pending.push(entry);
    if (this.writer && !this.batch && this.lastCommitRows <= 1 && this.now() - this.lastCommitEnd >= IDLE_MS) {
      // Idle: commit this row now, in the request's own turn.
      this.commits.immediate++;
      return { periodConsumed, periodEnd: cal.period.end, committed: this.settle(null, this.commitLocal()) };
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
    return { periodConsumed, periodEnd: cal.period.end, committed };
  }

  /** The notices of the lines this charge took the period's consumption across (`before` → `consumed`). */
  private queueNotices(caller: Caller, cal: Calendar, before: number, consumed: number, ts: number): void {
    for (const { pool, threshold, line, du_limit } of noticeLines(caller.plan)) {
      if (before < line && consumed >= line) {
        this.pendingNotices.push([
          caller.userId,
          caller.plan.slug,
          pool,
          threshold,
          cal.period.start,
          cal.period.end,
          du_limit,
          consumed,
          projectEndOfPeriod(consumed, cal.period, cal.day),
          ts,
        ]);
      }
    }
  }

  /** Rows charged and not yet committed (for the metrics). */
  pendingRows(): number {
    return this.pending.length;
  }

  /** Commits everything pending (hands it to the sink) and settles the waiting responses. */
  flush(): void {
    const batch = this.batch;
    this.batch = null;
    if (!this.writer) {
      const entries = this.pending;
      const noticeRows = this.pendingNotices;
      this.pending = [];
      this.pendingNotices = [];
      if (entries.length === 0) {
        batch?.resolve();
        return;
      }
      this.commits.total++;
      this.hand(entries, noticeRows).then(
        () => batch?.resolve(),
        (err) => batch?.reject(err),
      );
      return;
    }
    void this.settle(batch, this.commitLocal()).catch(() => {});
  }

  /** Settles `batch` (when one was open) by what commitLocal returned; the commit's promise. */
  private settle(batch: Batch | null, result: ReturnType<Ledger["commitLocal"]>): Promise<void> {
    if (result === undefined) {
      batch?.resolve();
      return COMMITTED;
    }
    if ("handed" in result) {
      if (batch) result.handed.then(batch.resolve, batch.reject);
      return result.handed;
    }
    batch?.reject(result.err);
    return Promise.reject(result.err);
  }

  /** Hands rows to the sink; settles when they are committed. */
  private hand(entries: LedgerEntry[], noticeRows: NoticeRow[]): Promise<void> {
    const sent = this.sink!(entries, noticeRows).catch((err) => {
      // nothing of this batch is stored: the accounts' windows reload from the roll-up
      for (const e of entries) this.counters.unload(e.userId);
      throw err;
    });
    this.inSink.add(sent);
    void sent.then(
      () => this.inSink.delete(sent),
      () => this.inSink.delete(sent),
    );
    return sent;
  }

  /** Flushes, then waits until every row charged so far is committed. */
  async settled(): Promise<void> {
    this.flush();
    await Promise.allSettled([...this.inSink]);
  }

  /**
   * Writes everything pending in one transaction over the Ledger's connection: undefined when
   * committed, what it threw when it failed, or, when another writer held the lock and there is a
   * sink, the sink's promise for the rows handed to it.
   */
  private commitLocal(): { err: unknown } | { handed: Promise<void> } | undefined {
    const entries = this.pending;
    const noticeRows = this.pendingNotices;
    if (entries.length === 0) return undefined;
    this.pending = [];
    this.pendingNotices = [];
    try {
      this.writer!.write(entries, noticeRows);
    } catch (err) {
      if (this.sink && isBusy(err)) return { handed: this.hand(entries, noticeRows) };
      // Nothing of this batch is stored: the accounts' windows reload from the roll-up.
      for (const e of entries) this.counters.unload(e.userId);
      return { err };
    } finally {
      this.commits.total++;
      this.lastCommitEnd = this.now();
      this.lastCommitRows = entries.length;
    }
    return undefined;
  }

  /** Reloads every account's windows from the roll-up (after a plan change, or in tests). */
  reset(): void {
    this.flush();
    this.counters.unloadAll();
  }
}

/** The charge's private handle on an admission (ends it without taking the lock twice). */
const ADMISSION_END = Symbol("admission end");
