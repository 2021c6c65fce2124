/**
 * The hot path of the PostgreSQL account store: key verification, the DU ledger, the hard cap's
 * admissions and the request-rate limits, exact across every worker of every node that shares
 * the database.
 *
 * - Keys: the KeyVerifier caches verdicts per thread as with SQLite; its change counter is the
 *   account epoch SyncPg keeps from LISTEN/NOTIFY (no round trip per request), so a revocation
 *   on any node reaches every thread within the notification's latency (0.5 s at worst, polled).
 * - The ledger (PgLedger): a response waits for its row's commit, as with SQLite. The rows of one
 *   event-loop turn go in one transaction over Bun's asynchronous client (the thread serves other
 *   requests meanwhile). The transaction takes a transaction-scoped advisory lock per account in
 *   the batch (in id order, so two batches never deadlock), inserts the rows and the daily
 *   roll-ups, then reads each account's period, day and month totals from the roll-up: those are
 *   global (every node's committed rows), so the Remaining header and the allowance notices
 *   (before and after the batch, under the lock) are exact across nodes.
 * - The hard cap (PgLedger.admit): under the same per-account lock, a call is admitted when the
 *   period's committed consumption plus the calls admitted and not yet charged, at their largest
 *   cost, still fit; past that one call at a time. An admission is a row of cap_admissions,
 *   deleted in the transaction that commits the call's ledger row (or when the call ends without
 *   a charge), so the cap is crossed by at most the one call that crosses it, on any node. A row
 *   left by a node that died expires after ADMISSION_TTL_MS.
 * - Rate limits (PgRateLimiter): one upsert per call on the unlogged rate_windows table counts the
 *   call in its second and minute only while both are under the plan's limits; a refused call
 *   does not count. Node clocks are assumed in sync (NTP): the windows are wall-clock seconds
 *   and minutes.
 */
import type { SQL } from "bun";
import { addDays, monthContaining, periodContaining, today, type Period } from "../../market/time";
import { HttpError } from "../http/errors";
import { type RateState, rateLimitHeaders } from "../http/metering";
import { type Caller, KeyVerifier, type KeyVerifierOptions } from "./keys";
import { type Admission, type Charged, type LedgerEntry, type LedgerOptions, type MeteringLedger, poolsOf, projectEndOfPeriod, type Windows } from "./ledger";
import type { PgAccountStore } from "./pg-store";
import { loadSecret } from "../images/urls";

/** A cap admission row older than this belongs to a call that can no longer be running (ms). */
export const ADMISSION_TTL_MS = 120_000;
/** How long a call under a hard cap waits before asking again for room (ms). */
const ADMIT_RETRY_MS = 2;
/** The advisory lock space of the per-account locks (pg_advisory_xact_lock(space, user id)). */
const LOCK_SPACE = 0x61_6d_6b; // "amk"
/** The most rows one batch commits. */
const MAX_BATCH = 512;

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

type Totals = { period: number; day: number; month: number };

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
      const verdict = await this.sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${LOCK_SPACE}, ${caller.userId})`;
        await tx`DELETE FROM cap_admissions WHERE user_id = ${caller.userId} AND expires_at < ${at}`;
        const [row] = await tx`
          SELECT (SELECT coalesce(sum(du), 0)::float8 FROM du_daily WHERE user_id = ${caller.userId} AND day BETWEEN ${period.start} AND ${period.end}) AS consumed,
                 (SELECT count(*)::int FROM cap_admissions WHERE user_id = ${caller.userId}) AS in_flight,
                 (SELECT coalesce(sum(max_du), 0)::float8 FROM cap_admissions WHERE user_id = ${caller.userId}) AS reserved`;
        const { consumed, in_flight: inFlight, reserved } = row as { consumed: number; in_flight: number; reserved: number };
        if (consumed >= limit) return { kind: "used-up" as const };
        if (inFlight > 0 && consumed + reserved + maxDu >= limit) return { kind: "wait" as const };
        const [added] = await tx`INSERT INTO cap_admissions (user_id, max_du, expires_at) VALUES (${caller.userId}, ${maxDu}, ${at + ADMISSION_TTL_MS}) RETURNING id`;
        return { kind: "admitted" as const, id: Number((added as { id: number | bigint | string }).id) };
      });
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
      setImmediate(() => this.flush());
    }
    const committed = this.batch.promise;
    if (this.pending.length >= MAX_BATCH) this.flush();
    // periodConsumed is set when the row is committed (the endpoint reads it after `committed`)
    return Object.assign(charged, { committed }) as Charged;
  }

  pendingRows(): number {
    return this.pending.length;
  }

  flush(): void {
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
    void done.finally(() => this.inFlight.delete(done));
  }

  async settled(): Promise<void> {
    this.flush();
    await Promise.allSettled([...this.inFlight]);
  }

  reset(): void {
    this.flush();
  }

  /** One transaction for a batch: rows, roll-ups, the accounts' totals, notices, admissions ended. */
  private async commit(items: Pending[]): Promise<void> {
    const users = [...new Set(items.map((i) => i.entry.userId))].sort((a, b) => a - b);
    const totals = await this.sql.begin(async (tx) => {
      for (const u of users) await tx`SELECT pg_advisory_xact_lock(${LOCK_SPACE}, ${u})`;
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
      await tx`INSERT INTO du_ledger ${tx(rows, "user_id", "key_id", "ts", "day", "method", "route", "status", "records", "du")}`;
      const rollup = new Map<string, { user_id: number; day: string; endpoint: string; du: number; requests: number }>();
      for (const r of rows) {
        const endpoint = `${r.method} ${r.route}`;
        const key = `${r.user_id}|${r.day}|${endpoint}`;
        const x = rollup.get(key);
        if (x) {
          x.du += r.du;
          x.requests++;
        } else rollup.set(key, { user_id: r.user_id, day: r.day, endpoint, du: r.du, requests: 1 });
      }
      await tx`
        INSERT INTO du_daily ${tx([...rollup.values()], "user_id", "day", "endpoint", "du", "requests")}
        ON CONFLICT (user_id, day, endpoint) DO UPDATE SET du = du_daily.du + excluded.du, requests = du_daily.requests + excluded.requests`;
      const ended = items.map((i) => i.admissionId).filter((id): id is number => id !== null);
      if (ended.length) await tx`DELETE FROM cap_admissions WHERE id IN ${tx(ended)}`;
      // each account's totals after the batch (every node's committed rows: the lock orders them)
      const out = new Map<number, Totals>();
      for (const u of users) {
        const first = items.find((i) => i.entry.userId === u)!;
        const cal = calendarOf(first.caller, first.entry.ts);
        const [t] = await tx`
          SELECT coalesce(sum(du) FILTER (WHERE day BETWEEN ${cal.period.start} AND ${cal.period.end}), 0)::float8 AS period,
                 coalesce(sum(du) FILTER (WHERE day = ${cal.day}), 0)::float8 AS day,
                 coalesce(sum(du) FILTER (WHERE day BETWEEN ${cal.month.start} AND ${cal.month.end}), 0)::float8 AS month
          FROM du_daily WHERE user_id = ${u} AND day BETWEEN ${minDay(cal.period.start, cal.month.start)} AND ${maxDay(cal.period.end, cal.month.end)}`;
        const totals = t as Totals;
        out.set(u, totals);
        const added = items.filter((i) => i.entry.userId === u).reduce((s, i) => s + i.entry.du, 0);
        const notices = noticesFor(first.caller, cal, totals.period - added, totals.period, first.entry.ts);
        if (notices.length) {
          await tx`
            INSERT INTO notices ${tx(notices, "user_id", "plan_slug", "pool", "threshold", "period_start", "period_end", "du_limit", "du_consumed", "projected_eop", "created_at")}
            ON CONFLICT (user_id, pool, threshold, period_start) DO NOTHING`;
        }
      }
      return out;
    });
    // each response shows its account's period total as committed with its row
    for (const i of items) i.charged.periodConsumed = totals.get(i.entry.userId)!.period;
  }
}

const minDay = (a: string, b: string) => (a < b ? a : b);
const maxDay = (a: string, b: string) => (a > b ? a : b);

/** The allowance notices a soft-capped account crosses between `before` and `after` (80 % and 100 % of each pool). */
function noticesFor(caller: Caller, cal: Calendar, before: number, after: number, ts: number) {
  if (caller.plan.features.cap !== "soft" || after <= before) return [];
  const out: Record<string, string | number>[] = [];
  for (const { pool, limits } of poolsOf(caller.plan)) {
    for (const threshold of [80, 100]) {
      const line = (limits.du_limit * threshold) / 100;
      if (before < line && after >= line) {
        out.push({
          user_id: caller.userId,
          plan_slug: caller.plan.slug,
          pool,
          threshold,
          period_start: cal.period.start,
          period_end: cal.period.end,
          du_limit: limits.du_limit,
          du_consumed: after,
          projected_eop: projectEndOfPeriod(after, cal.period, cal.day),
          created_at: ts,
        });
      }
    }
  }
  return out;
}

/** The charge's private handle on a PostgreSQL admission: ends it and gives its row id. */
const PG_ADMISSION = Symbol("pg admission");

/** Request-rate limits per account across every node (see the module comment). */
export class PgRateLimiter {
  constructor(private readonly store: PgAccountStore) {}

  async check(caller: Caller, now: number = Date.now()): Promise<RateState> {
    const plan = caller.plan;
    const rps = Math.max(1, Math.floor(plan.rps_limit * plan.throttle_multiplier));
    const rpm = Math.max(1, Math.floor(plan.rpm_limit * plan.throttle_multiplier));
    const second = Math.floor(now / 1000);
    const minute = Math.floor(now / 60_000);
    const sql = asyncClient(this.store);
    const counted = await sql`
      INSERT INTO rate_windows AS r (user_id, second, per_second, minute, per_minute) VALUES (${caller.userId}, ${second}, 1, ${minute}, 1)
      ON CONFLICT (user_id) DO UPDATE SET
        per_second = CASE WHEN r.second >= ${second} THEN r.per_second + 1 ELSE 1 END,
        second = greatest(r.second, ${second}),
        per_minute = CASE WHEN r.minute >= ${minute} THEN r.per_minute + 1 ELSE 1 END,
        minute = greatest(r.minute, ${minute})
      WHERE (r.second < ${second} OR r.per_second < ${rps}) AND (r.minute < ${minute} OR r.per_minute < ${rpm})
      RETURNING per_second, per_minute`;
    let perSecond: number;
    let perMinute: number;
    let refused: "second" | "minute" | null = null;
    if (counted.length) {
      ({ per_second: perSecond, per_minute: perMinute } = counted[0] as { per_second: number; per_minute: number });
    } else {
      const [row] = await sql`SELECT second, per_second, minute, per_minute FROM rate_windows WHERE user_id = ${caller.userId}`;
      const r = row as { second: number | string; per_second: number; minute: number | string; per_minute: number };
      perSecond = Number(r.second) >= second ? r.per_second : 0;
      perMinute = Number(r.minute) >= minute ? r.per_minute : 0;
      refused = perSecond >= rps ? "second" : "minute";
    }
    const state: RateState = {
      second: { quota: rps, remaining: Math.max(0, rps - perSecond), reset: Math.max(1, Math.ceil(((second + 1) * 1000 - now) / 1000)) },
      minute: { quota: rpm, remaining: Math.max(0, rpm - perMinute), reset: Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000)) },
    };
    if (refused === "second") {
      throw new HttpError(429, `Rate limit exceeded: ${rps} requests per second`, { "Retry-After": String(state.second.reset), ...rateLimitHeaders(state) });
    }
    if (refused === "minute") {
      throw new HttpError(429, `Rate limit exceeded: ${rpm} requests per minute`, { "Retry-After": String(state.minute.reset), ...rateLimitHeaders(state) });
    }
    return state;
  }
}
