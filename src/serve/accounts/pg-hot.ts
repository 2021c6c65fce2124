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
 *   the daily roll-ups, ends the admissions they settle, adds the rows to each account's period,
 *   day and month totals (du_totals, migration 0012: counted again from the roll-up when the
 *   windows are not the row's, so a batch's cost does not grow with the period's history) and
 *   inserts the allowance notices crossed (the lines a plan's notices mark sent once per plan in
 *   the batch, migration 0014). The totals are global (every node's committed rows,
 *   ordered by the lock), so the Remaining header and the notices count every node's calls.
 * - The hard cap (PgLedger.admit): under the same per-account lock, a call is admitted when the
 *   period's committed consumption plus the calls admitted and not yet charged, at their largest
 *   cost, still fit; past that one call at a time. An admission is a row of cap_admissions,
 *   deleted in the statement that commits the call's ledger row (or when the call ends without a
 *   charge), so the cap is crossed by at most the one call that crosses it, on any node. A row
 *   left by a node that died expires after ADMISSION_TTL_MS.
 * - Rate limits (PgRateLimiter): a worker leases an account's units of the current second
 *   (artmarket_rate_lease, migration account-pg 0010, on the unlogged rate_windows table) and
 *   answers the calls a lease covers with no round trip. A lease is counted in the account's
 *   second and minute when taken; it doubles when spent within its second and halves when it ends
 *   unused, up to leaseCap (1/20 of either window), and what it left unused goes back with the
 *   worker's next lease of the account. The calls of one turn that find no unit ask together in
 *   one statement (the first ones the windows allow pass, the rest get 429; a refused call does
 *   not count). No account passes either limit; a call can be refused while other workers hold
 *   unused units, at most leaseCap per worker (docs/scaling.md). Node clocks are assumed in sync
 *   (NTP): the windows are wall-clock seconds and minutes.
 */
import type { SQL } from "bun";
import { addDays } from "../../market/time";
import { HttpError } from "../http/errors";
import { type RateState, rateLimited, rateLimitsOf, rateState } from "../http/metering";
import { type Caller, KeyVerifier, type KeyVerifierOptions } from "./keys";
import { type Admission, CallerCalendars, type Charged, type LedgerEntry, type LedgerOptions, type MeteringLedger, type NoticeLine, noticeLines, type Windows } from "./ledger";
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

/** An account's du_totals row (migration account-pg 0012). */
interface TotalsRow {
  period_start: string;
  period_end: string;
  period_du: number;
  day: string;
  day_du: number;
  month_start: string;
  month_end: string;
  month_du: number;
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
  private readonly calendars = new CallerCalendars();
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

  /**
   * The caller's three windows: from the account's du_totals row for each window that is the
   * row's (its latest batch's), else summed from du_daily (a window the account has not called in
   * yet, or a batch's windows that were another day's): one look-up instead of three sums of up to
   * a year of daily rows per endpoint.
   */
  windows(caller: Caller, now: number = Date.now()): Windows {
    const cal = this.calendars.of(caller, now);
    const sum = (from: string, to: string) => this.store.consumedBetween(caller.userId, from, to);
    const row = this.store.pg.get<TotalsRow>(
      "SELECT period_start, period_end, period_du, day, day_du, month_start, month_end, month_du FROM du_totals WHERE user_id = ?",
      caller.userId,
    );
    const { period, day, month } = cal;
    return {
      period,
      periodConsumed: row?.period_start === period.start && row.period_end === period.end ? row.period_du : sum(period.start, period.end),
      day,
      dayConsumed: row?.day === day ? row.day_du : sum(day, day),
      month,
      monthConsumed: row?.month_start === month.start && row.month_end === month.end ? row.month_du : sum(month.start, month.end),
    };
  }

  async admit(caller: Caller, maxDu: number, now: () => number = Date.now): Promise<Admission> {
    const limit = caller.plan.du_limit;
    for (;;) {
      const at = now();
      const { period } = this.calendars.of(caller, at);
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
    const cal = this.calendars.of(caller, entry.ts);
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
    const rows = items.map(({ caller, entry: e }) => ({
      user_id: e.userId,
      key_id: e.keyId,
      ts: e.ts,
      day: this.calendars.of(caller, e.ts).day,
      method: e.method,
      route: e.route,
      status: e.status,
      records: e.records,
      du: e.du,
    }));
    // each account's windows are those of its first row in the batch; what the batch adds to each
    // window counts the rows whose day falls in it (a batch may straddle midnight)
    const users = new Map<number, BatchUser>();
    // the notice lines of the batch's plans, each set once (an account names its set)
    const sets = new Map<NoticeLine[], number>();
    const lines: (NoticeLine & { set: number })[] = [];
    items.forEach(({ caller, entry }, k) => {
      let u = users.get(entry.userId);
      if (!u) {
        const cal = this.calendars.of(caller, entry.ts);
        const own = noticeLines(caller.plan);
        let set = sets.get(own);
        if (set === undefined) {
          set = sets.size;
          sets.set(own, set);
          for (const l of own) lines.push({ set, ...l });
        }
        u = {
          user_id: entry.userId,
          period_start: cal.period.start,
          period_end: cal.period.end,
          day: cal.day,
          month_start: cal.month.start,
          month_end: cal.month.end,
          added: 0,
          add_period: 0,
          add_day: 0,
          add_month: 0,
          plan_slug: caller.plan.slug,
          period_days: cal.period.days,
          elapsed: Math.min(cal.period.days, Math.max(1, cal.dayN - cal.periodStartN + 1)),
          ts: entry.ts,
          lines: set,
        };
        users.set(entry.userId, u);
      }
      const day = rows[k]!.day;
      u.added += entry.du;
      if (day >= u.period_start && day <= u.period_end) u.add_period += entry.du;
      if (day === u.day) u.add_day += entry.du;
      if (day >= u.month_start && day <= u.month_end) u.add_month += entry.du;
    });
    const admissions = items.map((i) => i.admissionId).filter((id): id is number => id !== null);
    const result = (await this
      .sql`SELECT * FROM artmarket_ledger_commit(${JSON.stringify(rows)}::text::jsonb, ${JSON.stringify([...users.values()])}::text::jsonb, ${JSON.stringify(admissions)}::text::jsonb, ${JSON.stringify(lines)}::text::jsonb)`) as {
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

/** An account of a ledger batch, as artmarket_ledger_commit reads it (migrations account-pg 0012, 0014). */
export interface BatchUser {
  user_id: number;
  period_start: string;
  period_end: string;
  day: string;
  month_start: string;
  month_end: string;
  /** The batch's DU of the account, and of it what falls in each window. */
  added: number;
  add_period: number;
  add_day: number;
  add_month: number;
  plan_slug: string;
  period_days: number;
  elapsed: number;
  ts: number;
  /** The set of notice lines of the account's plan: `set` of the batch's lines (migration 0014). */
  lines: number;
}
/** The charge's private handle on a PostgreSQL admission: ends it and gives its row id. */
const PG_ADMISSION = Symbol("pg admission");

/** The most calls one lease of an account's rate units may cover (a plan's share caps it lower; see leaseCap). */
export const LEASE_MAX = 1024;

/**
 * The largest lease of a plan's rate units: 1/20 of its per-second limit and of its per-minute
 * limit's tenth of a minute (at least 1, at most LEASE_MAX), so that units leased and unused by one
 * worker hold back at most 5 % of a window from the others. Sandbox (10 rps) leases one call at a
 * time, as exact as one counter; pro 5; enterprise 25.
 */
export function leaseCap(rps: number, rpm: number): number {
  return Math.max(1, Math.min(LEASE_MAX, Math.floor(rps / 20), Math.floor(rpm / 600)));
}

/** A call waiting for its account's rate units. */
interface RateWaiter {
  rps: number;
  rpm: number;
  now: number;
  second: number;
  minute: number;
  resolve: (s: RateState) => void;
  reject: (e: unknown) => void;
}

/** One account's lease on this thread: the units of a second it may still hand out without a round trip. */
interface AccountLease {
  readonly userId: number;
  rps: number;
  rpm: number;
  /** The second and minute the units were taken in. */
  second: number;
  minute: number;
  /** The windows' counts (every node's) before the lease, and the lease's units handed out and left. */
  secondBefore: number;
  minuteBefore: number;
  used: number;
  left: number;
  /** The next lease's size: doubled when a lease runs out within its second, halved when one ends unused. */
  size: number;
  /** The window found full in this second (no more units from any worker until it ends), or null. */
  full: "second" | "minute" | null;
  /** Calls waiting for the lease statement in flight (or the next one). */
  queue: RateWaiter[];
  inFlight: boolean;
}

/**
 * Request-rate limits per account across every node (see the module comment), by leases: a call
 * takes a unit of its account's lease on this thread when one is left in the current second, with
 * no round trip; otherwise the account's calls of the event-loop turn ask for the next lease in one
 * statement (artmarket_rate_lease), which counts them and up to the lease's size in the account's
 * windows and gives back what the thread's previous lease left unused.
 */
export class PgRateLimiter {
  private readonly leases = new Map<number, AccountLease>();
  /** Accounts with calls waiting for a lease statement to be sent at the end of this turn. */
  private due = new Set<AccountLease>();
  private scheduled = false;
  /** The minute whose start last dropped the leases of earlier minutes. */
  private swept = 0;

  constructor(private readonly store: PgAccountStore) {}

  /** Accounts with a lease on this thread (for tests: the sweep keeps only the current minute's). */
  get accounts(): number {
    return this.leases.size;
  }

  check(caller: Caller, now: number = Date.now()): RateState | Promise<RateState> {
    const { rps, rpm } = rateLimitsOf(caller);
    const minute = Math.floor(now / 60_000);
    if (minute > this.swept) this.sweep(minute);
    let st = this.leases.get(caller.userId);
    if (!st) {
      st = { userId: caller.userId, rps, rpm, second: -1, minute: -1, secondBefore: 0, minuteBefore: 0, used: 0, left: 0, size: 1, full: null, queue: [], inFlight: false };
      this.leases.set(caller.userId, st);
    }
    const second = Math.floor(now / 1000);
    if (st.queue.length === 0 && st.second === second && st.rps === rps && st.rpm === rpm) {
      // a unit of this second's lease, or the 429 of a window found full in it
      const answer = this.fromLease(st, now);
      if (answer instanceof HttpError) throw answer;
      if (answer) return answer;
    }
    return new Promise((resolve, reject) => {
      st.queue.push({ rps, rpm, now, second, minute, resolve, reject });
      if (!st.inFlight) this.schedule(st);
    });
  }

  /**
   * Once a minute: forgets the accounts whose last lease was taken in an earlier minute and that
   * have no call waiting (their unused units count in no current window; the next call starts a
   * lease of one), so that the table holds the accounts of the current minute only.
   */
  private sweep(minute: number): void {
    this.swept = minute;
    for (const [userId, st] of this.leases) {
      if (st.minute < minute && !st.inFlight && st.queue.length === 0) this.leases.delete(userId);
    }
  }

  /** A unit of the lease (the windows' state after the call), the 429 of a full window, or null when the lease is spent. */
  private fromLease(st: AccountLease, now: number): RateState | HttpError | null {
    if (st.left > 0) {
      st.left--;
      st.used++;
      return this.state(st, now);
    }
    if (st.full === null) return null;
    return rateLimited(this.state(st, now), st.full);
  }

  /** The windows as a call of the lease sees them: every node's count before the lease, plus the lease's units handed out. */
  private state(st: AccountLease, now: number): RateState {
    return rateState(st.rps, st.rpm, st.secondBefore + st.used, st.minuteBefore + st.used, now);
  }

  /** Sends the account's lease statement at the end of the turn, so that the turn's calls go in one. */
  private schedule(st: AccountLease): void {
    this.due.add(st);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const due = this.due;
      this.due = new Set();
      for (const s of due) this.drain(s);
    });
  }

  /** Answers the account's waiting calls from its lease, in order, and asks for the next lease when it is spent. */
  private drain(st: AccountLease): void {
    while (st.queue.length > 0 && !st.inFlight) {
      const first = st.queue[0]!;
      if (first.second === st.second && first.rps === st.rps && first.rpm === st.rpm) {
        const answer = this.fromLease(st, first.now);
        if (answer) {
          st.queue.shift();
          if (answer instanceof HttpError) first.reject(answer);
          else first.resolve(answer);
          continue;
        }
      }
      void this.lease(st, first);
    }
  }

  /** One statement: the next lease for the waiting calls of `first`'s second (at least one unit each), the last lease's leftover given back. */
  private async lease(st: AccountLease, first: RateWaiter): Promise<void> {
    st.inFlight = true;
    const cap = leaseCap(first.rps, first.rpm);
    // a lease spent within its second doubles the next; one that ends with units left halves it
    if (st.second === first.second && st.left === 0) st.size = Math.min(cap, st.size * 2);
    else if (st.left > 0) st.size = Math.max(1, st.size >> 1);
    st.size = Math.min(st.size, cap);
    const waiting = st.queue.filter((w) => w.second === first.second).length;
    const want = Math.max(st.size, waiting);
    const back = st.left;
    let row: { taken: number; second_before: number; minute_before: number };
    try {
      const rows = (await asyncClient(
        this.store,
      )`SELECT * FROM artmarket_rate_lease(${st.userId}, ${first.second}, ${first.minute}, ${first.rps}, ${first.rpm}, ${want}, ${back}, ${st.second}, ${st.minute})`) as (typeof row)[];
      row = rows[0]!;
      storeOutage.answered();
    } catch (err) {
      // the calls it was for fail (a store outage: 503); later ones ask again
      st.inFlight = false;
      for (const w of st.queue.splice(0, waiting)) w.reject(err);
      this.drain(st);
      return;
    }
    st.inFlight = false;
    st.rps = first.rps;
    st.rpm = first.rpm;
    st.second = first.second;
    st.minute = first.minute;
    st.secondBefore = row.second_before;
    st.minuteBefore = row.minute_before;
    st.used = 0;
    st.left = row.taken;
    st.full = row.taken < want ? (row.second_before + row.taken >= st.rps ? "second" : "minute") : null;
    this.drain(st);
  }
}
