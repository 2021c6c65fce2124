/**
 * The hot path of the PostgreSQL account store: key verification, the DU ledger, the hard cap's
 * admissions and the request-rate limits, exact across every worker of every node that shares
 * the database.
 *
 * - Keys: the KeyVerifier caches verdicts per thread as with SQLite; its change counter is the
 *   account epoch SyncPg keeps from LISTEN/NOTIFY (no round trip per request), so a revocation
 *   on any node reaches every thread within the notification's latency (0.5 s at worst, polled).
 * - The ledger (PgLedger): a response waits for its row's commit, as with SQLite. The rows
 *   charged while a commit runs gather into the next one (group commit, one commit in flight per
 *   thread: the busier the thread, the larger the batch), and a batch is one statement on Bun's
 *   asynchronous client, artmarket_ledger_commit (migration account-pg 0003): it takes a
 *   transaction-scoped advisory lock per account in the batch (in id order), inserts the rows and
 *   the daily roll-ups, ends the admissions they settle, reads each account's period, day and
 *   month totals from the roll-up and inserts the allowance notices crossed. The totals are
 *   global (every node's committed rows, ordered by the lock), so the Remaining header and the
 *   notices count every node's calls.
 * - The hard cap (PgLedger.admit): under the same per-account lock, a call is admitted when the
 *   period's committed consumption plus the calls admitted and not yet charged, at their largest
 *   cost, still fit; past that one call at a time. An admission is a row of cap_admissions,
 *   deleted in the statement that commits the call's ledger row (or when the call ends without a
 *   charge), so the cap is crossed by at most the one call that crosses it, on any node. A row
 *   left by a node that died expires after ADMISSION_TTL_MS.
 * - Rate limits (PgRateLimiter): the checks of one account that arrive while the previous
 *   statement runs go together in one call of artmarket_rate_take, which counts as many of them
 *   as the second's and the minute's limits still allow (the first ones pass, the rest get 429;
 *   a refused call does not count), on the unlogged rate_windows table. Node clocks are assumed
 *   in sync (NTP): the windows are wall-clock seconds and minutes.
 */
import type { SQL } from "bun";
import { addDays, dayNumber, monthContaining, periodContaining, today, type Period } from "../../market/time";
import { HttpError } from "../http/errors";
import { type RateState, rateLimitHeaders } from "../http/metering";
import { type Caller, KeyVerifier, type KeyVerifierOptions } from "./keys";
import { type Admission, type Charged, type LedgerEntry, type LedgerOptions, type MeteringLedger, poolsOf, type Windows } from "./ledger";
import type { PgAccountStore } from "./pg-store";
import { loadSecret } from "../images/urls";
import { storeOutage } from "../../db/pg/outage";

/** A cap admission row older than this belongs to a call that can no longer be running (ms). */
export const ADMISSION_TTL_MS = 120_000;
/** How long a call under a hard cap waits before asking again for room (ms). */
const ADMIT_RETRY_MS = 2;
/** The most rows one batch commits. */
const MAX_BATCH = 512;
/** Batch commits one thread keeps running at once; more rows wait for one to end (group commit). */
const MAX_IN_FLIGHT = 1;

/** Bun's asynchronous client for one thread of one store (a small pool). */
const clients = new WeakMap<PgAccountStore, SQL>();
export function asyncClient(store: PgAccountStore): SQL {
  let sql = clients.get(store);
  if (!sql) {
    sql = new Bun.SQL(store.pg.url, { max: 4, idleTimeout: 0 });
    clients.set(store, sql);
  }
  return sql;
}

/** Closes the thread's asynchronous client of a store (with the store). */
export async function closeAsyncClient(store: PgAccountStore): Promise<void> {
  const sql = clients.get(store);
  clients.delete(store);
  await sql?.close();
}

/**
 * The secret that signs image URLs, shared by every node through account_meta: the first node to
 * start stores its own (the data directory's secret file, so URLs signed before the move to
 * PostgreSQL stay valid), the others adopt it.
 */
export function sharedSecret(store: PgAccountStore, dataDir: string): Buffer {
  const mine = loadSecret(dataDir).toString("hex");
  store.pg.run("INSERT INTO account_meta (key, value, updated_at) VALUES ('image_secret', ?, ?) ON CONFLICT (key) DO NOTHING", mine, Date.now());
  const row = store.pg.get<{ value: string }>("SELECT value FROM account_meta WHERE key = 'image_secret'");
  return Buffer.from(row!.value, "hex");
}

export function pgLedger(store: PgAccountStore, options?: LedgerOptions): PgLedger {
  return new PgLedger(store, options);
}

export function pgKeyVerifier(store: PgAccountStore, onChange?: () => void, options?: KeyVerifierOptions): KeyVerifier {
  return new KeyVerifier(
    {
      lookupKey: (kid) => store.findKeyByKid(kid),
      plan: (slug) => store.getPlan(slug),
      version: () => store.pg.epoch(),
      epoch: () => store.pg.epoch(),
    },
    onChange,
    options,
  );
}

interface Calendar {
  day: string;
  period: Period;
  month: Period;
}

function calendarOf(caller: Caller, ts: number): Calendar {
  const day = today(ts);
  return { day, period: periodContaining(caller.periodAnchor, caller.plan.period_days, day), month: monthContaining(day) };
}

interface Pending {
  caller: Caller;
  entry: LedgerEntry;
  admissionId: number | null;
  charged: { periodConsumed: number; periodEnd: string };
}

/** The DU ledger on PostgreSQL (see the module comment). */
export class PgLedger implements MeteringLedger {
  private pending: Pending[] = [];
  private batch: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  readonly commits = { total: 0, immediate: 0 };

  constructor(
    private readonly store: PgAccountStore,
    _options: LedgerOptions = {},
  ) {}

  private get sql(): SQL {
    return asyncClient(this.store);
  }

  windows(caller: Caller, now: number = Date.now()): Windows {
    const cal = calendarOf(caller, now);
    const sum = (from: string, to: string) => this.store.consumedBetween(caller.userId, from, to);
    return {
      period: cal.period,
      periodConsumed: sum(cal.period.start, cal.period.end),
      day: cal.day,
      dayConsumed: sum(cal.day, cal.day),
      month: cal.month,
      monthConsumed: sum(cal.month.start, cal.month.end),
    };
  }

  async admit(caller: Caller, maxDu: number, now: () => number = Date.now): Promise<Admission> {
    const limit = caller.plan.du_limit;
    for (;;) {
      const at = now();
      const { period } = calendarOf(caller, at);
      // one statement (migration account-pg 0005), under the account's lock
      const [row] = await this
        .sql`SELECT verdict, admission_id FROM artmarket_cap_admit(${caller.userId}, ${period.start}, ${period.end}, ${limit}, ${maxDu}, ${at}, ${ADMISSION_TTL_MS})`;
      storeOutage.answered();
      const answer = row as { verdict: "used-up" | "wait" | "admitted"; admission_id: string | number | null };
      const verdict = answer.verdict === "admitted" ? { kind: "admitted" as const, id: Number(answer.admission_id) } : { kind: answer.verdict };
      if (verdict.kind === "used-up") {
        const resetAt = Date.parse(`${addDays(period.end, 1)}T00:00:00Z`);
        throw new HttpError(429, `Data Unit allowance of ${limit} for the period ${period.start} to ${period.end} is used up`, {
          "Retry-After": String(Math.max(1, Math.ceil((resetAt - at) / 1000))),
        });
      }
      if (verdict.kind === "admitted") {
        let open = true;
        const id = verdict.id;
        const admission = {
          userId: caller.userId,
          maxDu,
          release: () => {
            if (!open) return;
            open = false;
            this.sql`DELETE FROM cap_admissions WHERE id = ${id}`.catch(() => {
              // the row expires on its own (ADMISSION_TTL_MS)
            });
          },
          [PG_ADMISSION]: () => {
            const was = open;
            open = false;
            return was ? id : null;
          },
        };
        return admission as Admission;
      }
      await Bun.sleep(ADMIT_RETRY_MS);
    }
  }

  charge(caller: Caller, entry: LedgerEntry, admission?: Admission): Charged {
    const admissionId = admission ? ((admission as Admission & { [PG_ADMISSION]?: () => number | null })[PG_ADMISSION]?.() ?? null) : null;
    const cal = calendarOf(caller, entry.ts);
    const charged = { periodConsumed: 0, periodEnd: cal.period.end };
    this.pending.push({ caller, entry, admissionId, charged });
    if (!this.batch) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.batch = { promise, resolve, reject };
      setImmediate(this.tick);
    }
    const committed = this.batch.promise;
    if (this.pending.length >= MAX_BATCH) this.flush();
    // periodConsumed is set when the row is committed (the endpoint reads it after `committed`)
    return Object.assign(charged, { committed }) as Charged;
  }

  pendingRows(): number {
    return this.pending.length;
  }

  /**
   * The end of the turn that opened a batch: it commits now, unless MAX_IN_FLIGHT commits are
   * already running; then it waits for one of them to end and goes with every row gathered
   * meanwhile (group commit: the busier the thread, the larger the batches, the fewer the commits).
   */
  private readonly tick = () => {
    if (this.inFlight.size >= MAX_IN_FLIGHT) this.waiting = true;
    else this.flush();
  };
  private waiting = false;

  flush(): void {
    this.waiting = false;
    const batch = this.batch;
    this.batch = null;
    const items = this.pending;
    this.pending = [];
    if (!items.length) {
      batch?.resolve();
      return;
    }
    this.commits.total++;
    const done = this.commit(items).then(
      () => batch?.resolve(),
      (err) => batch?.reject(err),
    );
    this.inFlight.add(done);
    void done.finally(() => {
      this.inFlight.delete(done);
      if (this.waiting) this.flush();
    });
  }

  async settled(): Promise<void> {
    this.flush();
    await Promise.allSettled([...this.inFlight]);
  }

  reset(): void {
    this.flush();
  }

  /**
   * One statement for a batch (artmarket_ledger_commit, migration account-pg 0003): the rows,
   * their roll-ups, the admissions they end, each account's totals and the notices crossed, under
   * a transaction-scoped lock per account.
   */
  private async commit(items: Pending[]): Promise<void> {
    const rows = items.map(({ entry: e }) => ({
      user_id: e.userId,
      key_id: e.keyId,
      ts: e.ts,
      day: today(e.ts),
      method: e.method,
      route: e.route,
      status: e.status,
      records: e.records,
      du: e.du,
    }));
    const users = new Map<number, Record<string, unknown>>();
    for (const { caller, entry } of items) {
      const known = users.get(entry.userId);
      if (known) {
        known.added = (known.added as number) + entry.du;
        continue;
      }
      const cal = calendarOf(caller, entry.ts);
      users.set(entry.userId, {
        user_id: entry.userId,
        period_start: cal.period.start,
        period_end: cal.period.end,
        day: cal.day,
        month_start: cal.month.start,
        month_end: cal.month.end,
        added: entry.du,
        plan_slug: caller.plan.slug,
        period_days: cal.period.days,
        elapsed: Math.min(cal.period.days, Math.max(1, dayNumber(cal.day) - dayNumber(cal.period.start) + 1)),
        ts: entry.ts,
        lines: noticeLines(caller),
      });
    }
    const admissions = items.map((i) => i.admissionId).filter((id): id is number => id !== null);
    const result = (await this
      .sql`SELECT * FROM artmarket_ledger_commit(${JSON.stringify(rows)}::text::jsonb, ${JSON.stringify([...users.values()])}::text::jsonb, ${JSON.stringify(admissions)}::text::jsonb)`) as {
      user_id: number;
      period: number;
    }[];
    storeOutage.answered();
    // each response shows its account's period total up to its own row: the batch's total less
    // what the account's later rows of the batch added (in the order they were charged)
    const after = new Map(result.map((r) => [r.user_id, r.period]));
    for (let k = items.length - 1; k >= 0; k--) {
      const i = items[k]!;
      const total = after.get(i.entry.userId)!;
      i.charged.periodConsumed = total;
      after.set(i.entry.userId, total - i.entry.du);
    }
  }
}

/** The allowance lines a soft-capped plan's notices mark: 80 % and 100 % of each pool's allowance. */
function noticeLines(caller: Caller): { pool: string; threshold: number; line: number; du_limit: number }[] {
  if (caller.plan.features.cap !== "soft") return [];
  return poolsOf(caller.plan).flatMap(({ pool, limits }) =>
    [80, 100].map((threshold) => ({ pool, threshold, line: (limits.du_limit * threshold) / 100, du_limit: limits.du_limit })),
  );
}

/** The charge's private handle on a PostgreSQL admission: ends it and gives its row id. */
const PG_ADMISSION = Symbol("pg admission");

/** Request-rate limits per account across every node (see the module comment). */
export class PgRateLimiter {
  /** The checks of this event-loop turn, by account: one statement per account and turn. */
  private pending = new Map<number, { caller: Caller; now: number; resolve: (s: RateState) => void; reject: (e: unknown) => void }[]>();
  private scheduled = false;

  constructor(private readonly store: PgAccountStore) {}

  check(caller: Caller, now: number = Date.now()): Promise<RateState> {
    return new Promise((resolve, reject) => {
      let list = this.pending.get(caller.userId);
      if (!list) this.pending.set(caller.userId, (list = []));
      list.push({ caller, now, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Statements running now; while one runs, the next turns' checks gather (like the ledger's group commit). */
  private running = 0;

  private flush(): void {
    this.scheduled = false;
    if (this.running > 0) return; // the running statement's end flushes what gathered meanwhile
    const pending = this.pending;
    this.pending = new Map();
    for (const list of pending.values()) {
      this.running++;
      void this.take(list).finally(() => {
        this.running--;
        if (this.running === 0 && this.pending.size > 0) this.flush();
      });
    }
  }

  /** Counts one account's calls of a turn in one statement: the first ones the windows allow pass, the rest get 429. */
  private async take(list: { caller: Caller; now: number; resolve: (s: RateState) => void; reject: (e: unknown) => void }[]): Promise<void> {
    const { caller, now } = list[0]!;
    const plan = caller.plan;
    const rps = Math.max(1, Math.floor(plan.rps_limit * plan.throttle_multiplier));
    const rpm = Math.max(1, Math.floor(plan.rpm_limit * plan.throttle_multiplier));
    const second = Math.floor(now / 1000);
    const minute = Math.floor(now / 60_000);
    let taken: number;
    let secondBefore: number;
    let minuteBefore: number;
    try {
      const [row] = await asyncClient(this.store)`SELECT * FROM artmarket_rate_take(${caller.userId}, ${second}, ${minute}, ${rps}, ${rpm}, ${list.length})`;
      ({ taken, second_before: secondBefore, minute_before: minuteBefore } = row as { taken: number; second_before: number; minute_before: number });
      storeOutage.answered();
    } catch (err) {
      for (const c of list) c.reject(err);
      return;
    }
    const reset = {
      second: Math.max(1, Math.ceil(((second + 1) * 1000 - now) / 1000)),
      minute: Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000)),
    };
    list.forEach((c, i) => {
      // the i-th call of the turn is counted after the i before it (when taken)
      const counted = Math.min(i + 1, taken);
      const state: RateState = {
        second: { quota: rps, remaining: Math.max(0, rps - secondBefore - counted), reset: reset.second },
        minute: { quota: rpm, remaining: Math.max(0, rpm - minuteBefore - counted), reset: reset.minute },
      };
      if (i < taken) return c.resolve(state);
      if (secondBefore + taken >= rps) {
        return c.reject(new HttpError(429, `Rate limit exceeded: ${rps} requests per second`, { "Retry-After": String(state.second.reset), ...rateLimitHeaders(state) }));
      }
      c.reject(new HttpError(429, `Rate limit exceeded: ${rpm} requests per minute`, { "Retry-After": String(state.minute.reset), ...rateLimitHeaders(state) }));
    });
  }
}
