/**
 * The PostgreSQL ledger's running totals (du_totals, migrations account-pg 0012 and 0013): a batch adds its
 * rows to each account's row when the windows are the row's and counts them again from du_daily
 * when they are not. Whatever the order of days, periods and months the batches come in (late
 * rows, batches across midnight, a plan whose period moves, a crash that empties the table), the
 * totals a batch returns are du_daily's sums for the windows it was given, and the hard cap reads
 * them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQL } from "bun";
import type { Caller } from "../../src/serve/accounts/keys";
import { asyncClient, type BatchUser, closeAsyncClient, pgLedger } from "../../src/serve/accounts/pg-hot";
import { PgAccountStore } from "../../src/serve/accounts/pg-store";
import { DEFAULT_PLANS } from "../../src/serve/accounts/plans";
import { HttpError } from "../../src/serve/http/errors";
import { addDays, monthContaining, periodContaining } from "../../src/market/time";
import { database } from "../helpers/postgres";

let store: PgAccountStore;
let sql: SQL;
let nextUser = 1;

beforeAll(async () => {
  store = PgAccountStore.open(await database("totals"));
  sql = asyncClient(store);
});

afterAll(async () => {
  await closeAsyncClient(store);
  store.close();
});

const noon = (day: string) => Date.parse(`${day}T12:00:00Z`);

/** `days` days of usage before `until` (exclusive), `endpoints` endpoints a day, `du` each: straight into du_daily. */
async function history(userId: number, until: string, days: number, endpoints: number, du: number): Promise<number> {
  await sql.unsafe(
    `INSERT INTO du_daily (user_id, day, endpoint, du, requests)
     SELECT $1, to_char(date '${until}' - d, 'YYYY-MM-DD'), 'GET /v1/e' || e, $2, 1 FROM generate_series(1, ${days}) d, generate_series(1, ${endpoints}) e`,
    [userId, du],
  );
  return days * endpoints * du;
}

/** du_daily's sum for an account between two days. */
async function summed(userId: number, from: string, to: string): Promise<number> {
  const [row] = await sql`SELECT coalesce(sum(du), 0)::float8 AS du FROM du_daily WHERE user_id = ${userId} AND day BETWEEN ${from} AND ${to}`;
  return (row as { du: number }).du;
}

function callerOf(slug: string, anchor: string, userId = nextUser++): Caller {
  const plan = DEFAULT_PLANS.find((p) => p.slug === slug)!;
  return { userId, keyId: userId, userName: "totals", plan, periodAnchor: anchor, scope: "full", role: "member", expiresAt: null, sessionId: null };
}

const entry = (caller: Caller, ts: number, du: number) => ({ userId: caller.userId, keyId: caller.keyId, ts, method: "GET", route: "/v1/categories", status: 200, records: 1, du });

describe("through the ledger", () => {
  test("an account 300 days into its year over 40 endpoints: each call's period total counts the history and the calls before it", async () => {
    const ledger = pgLedger(store);
    const caller = callerOf("pro", "2026-01-01");
    const day = "2026-10-28";
    const before = await history(caller.userId, day, 300, 40, 0.5);
    expect(before).toBe(6000);
    const charged = [1, 2, 3].map((du, i) => ledger.charge(caller, entry(caller, noon(day) + i, du)));
    await Promise.all(charged.map((c) => c.committed));
    expect(charged.map((c) => c.periodConsumed)).toEqual([6001, 6003, 6006]);
    // the next batch adds to the row: the same totals as du_daily's sums
    const next = ledger.charge(caller, entry(caller, noon(day) + 10, 4));
    await next.committed;
    expect(next.periodConsumed).toBe(6010);
    const [row] = await sql`SELECT period_start, period_end, period_du, day, day_du, month_start, month_du FROM du_totals WHERE user_id = ${caller.userId}`;
    expect(row).toEqual({
      period_start: "2026-01-01",
      period_end: "2026-12-31",
      period_du: await summed(caller.userId, "2026-01-01", "2026-12-31"),
      day,
      day_du: 10,
      month_start: "2026-10-01",
      month_du: await summed(caller.userId, "2026-10-01", "2026-10-31"),
    });
    expect(row.period_du).toBe(6010);
    // the usage windows: the row's, and the sums where the row holds another window
    const sums = async (from: string, to: string) => summed(caller.userId, from, to);
    expect(ledger.windows(caller, noon(day))).toEqual({
      period: { start: "2026-01-01", end: "2026-12-31", days: 365 },
      periodConsumed: 6010,
      day,
      dayConsumed: 10,
      month: { start: "2026-10-01", end: "2026-10-31", days: 31 },
      monthConsumed: await sums("2026-10-01", "2026-10-31"),
    });
    // two days later, no call yet: the day is summed (none), the month and period are the row's
    const later = ledger.windows(caller, noon("2026-10-30"));
    expect([later.periodConsumed, later.dayConsumed, later.monthConsumed]).toEqual([6010, 0, await sums("2026-10-01", "2026-10-31")]);
    // in November: the month is summed (none), the period is still the row's
    const november = ledger.windows(caller, noon("2026-11-02"));
    expect([november.periodConsumed, november.dayConsumed, november.monthConsumed]).toEqual([6010, 0, 0]);
    // a row that is not du_daily's sum would show: the windows read it
    await sql`UPDATE du_totals SET period_du = period_du + 1000 WHERE user_id = ${caller.userId}`;
    expect(ledger.windows(caller, noon(day)).periodConsumed).toBe(7010);
    await sql`UPDATE du_totals SET period_du = period_du - 1000 WHERE user_id = ${caller.userId}`;
  });

  test("one batch across midnight at the end of a month: each call's day and month counted where its day falls", async () => {
    const ledger = pgLedger(store);
    const caller = callerOf("pro", "2026-01-01");
    const before = await history(caller.userId, "2026-10-31", 30, 2, 1); // October 1–30
    const midnight = Date.parse("2026-11-01T00:00:00Z");
    // a first call on October 31 makes the account's row (counted from du_daily)
    const first = ledger.charge(caller, entry(caller, midnight - 1000, 1));
    await first.committed;
    expect(first.periodConsumed).toBe(before + 1);
    // then three calls in one batch, added to that row: two on October 31, one on November 1
    const charged = [
      ledger.charge(caller, entry(caller, midnight - 200, 2)),
      ledger.charge(caller, entry(caller, midnight - 100, 3)),
      ledger.charge(caller, entry(caller, midnight + 100, 4)),
    ];
    await Promise.all(charged.map((c) => c.committed));
    expect(charged.map((c) => c.periodConsumed)).toEqual([before + 3, before + 6, before + 10]);
    // the row holds October 31 (the batch's first call): its day and month, not November's call
    const [row] = await sql`SELECT day, day_du, month_start, month_du, period_du FROM du_totals WHERE user_id = ${caller.userId}`;
    expect(row).toEqual({ day: "2026-10-31", day_du: 6, month_start: "2026-10-01", month_du: before + 6, period_du: before + 10 });
    // the next call, on November 1: its day and month counted again from du_daily
    const next = ledger.charge(caller, entry(caller, midnight + 1000, 1));
    await next.committed;
    expect(next.periodConsumed).toBe(before + 11);
    const [after] = await sql`SELECT day, day_du, month_start, month_du, period_du FROM du_totals WHERE user_id = ${caller.userId}`;
    expect(after).toEqual({ day: "2026-11-01", day_du: 5, month_start: "2026-11-01", month_du: 5, period_du: before + 11 });
  });

  test("one batch of accounts on three plans: each crosses its own plan's notice lines, sent once per plan", async () => {
    const ledger = pgLedger(store);
    const day = "2026-10-28";
    const pro = callerOf("pro", "2026-01-01");
    const enterprise = callerOf("enterprise", "2026-01-01");
    const sandbox = callerOf("sandbox", "2026-10-10");
    // five DU short of pro's 100 % line (1,200,000) and of enterprise's api pool's 80 % line (9,600,000); sandbox has a hard cap, no lines
    await history(pro.userId, day, 1, 1, 1_199_995);
    await history(enterprise.userId, day, 1, 1, 9_599_995);
    await history(sandbox.userId, day, 1, 1, 10);
    const charged = [pro, enterprise, sandbox, pro, enterprise, sandbox].map((c, i) => ledger.charge(c, entry(c, noon(day) + i, 3)));
    await Promise.all(charged.map((c) => c.committed));
    expect(ledger.commits.total).toBe(1);
    const notices =
      await sql`SELECT user_id, plan_slug, pool, threshold, du_limit, du_consumed FROM notices WHERE user_id = ANY(${[pro.userId, enterprise.userId, sandbox.userId]}) ORDER BY user_id`;
    expect(notices).toEqual([
      { user_id: pro.userId, plan_slug: "pro", pool: "main", threshold: 100, du_limit: 1_200_000, du_consumed: 1_200_001 },
      { user_id: enterprise.userId, plan_slug: "enterprise", pool: "api", threshold: 80, du_limit: 12_000_000, du_consumed: 9_600_001 },
    ]);
  });

  test("the hard cap reads the period's total: a full allowance refuses the next call, with or without a totals row", async () => {
    const ledger = pgLedger(store);
    const sandbox = DEFAULT_PLANS.find((p) => p.slug === "sandbox")!;
    const day = "2026-10-28";
    // used up before any batch: no row, the admission sums du_daily
    const full = callerOf("sandbox", "2026-10-10");
    await history(full.userId, day, 10, 50, sandbox.du_limit / 500);
    const [none] = await sql`SELECT count(*)::int AS n FROM du_totals WHERE user_id = ${full.userId}`;
    expect(none).toEqual({ n: 0 });
    const refused = await ledger
      .admit(full, 5, () => noon(day))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(429);
    // 10 DU short: one call of 4 committed (the row made), one of 6 admitted and committed, then refused
    const near = callerOf("sandbox", "2026-10-10");
    await history(near.userId, day, 10, 1, (sandbox.du_limit - 10) / 10);
    const first = ledger.charge(near, entry(near, noon(day), 4), await ledger.admit(near, 4, () => noon(day)));
    await first.committed;
    expect(first.periodConsumed).toBe(sandbox.du_limit - 6);
    const second = ledger.charge(near, entry(near, noon(day) + 1, 6), await ledger.admit(near, 6, () => noon(day) + 1));
    await second.committed;
    expect(second.periodConsumed).toBe(sandbox.du_limit);
    const [row] = await sql`SELECT period_du FROM du_totals WHERE user_id = ${near.userId}`;
    expect(row).toEqual({ period_du: sandbox.du_limit });
    const last = await ledger
      .admit(near, 1, () => noon(day) + 2)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect((last as HttpError).status).toBe(429);
  });
});

describe("artmarket_ledger_commit in any order of windows", () => {
  test("600 random batches: late rows, batches across midnight and months, a period that moves, the table emptied: every total is du_daily's sum", async () => {
    let seed = 20261128;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const users = Array.from({ length: 10 }, () => nextUser++);
    // each account's plan: a 30-day period from one of two anchors (a plan change moves it)
    const anchor = new Map(users.map((u) => [u, pick(["2026-01-01", "2026-01-15"])]));
    let today = "2026-03-20";
    let checked = 0;
    for (let b = 0; b < 600; b++) {
      if (random() < 0.08) today = addDays(today, 1); // to 2026-04-30 or so: months and periods end
      if (random() < 0.03) anchor.set(pick(users), pick(["2026-01-01", "2026-01-15", "2026-01-08"]));
      if (random() < 0.02) await sql`DELETE FROM du_totals WHERE user_id = ANY(${users})`; // a crash empties the UNLOGGED table
      const rows: Record<string, unknown>[] = [];
      const windows = new Map<number, BatchUser>();
      const n = 1 + Math.floor(random() * 12);
      for (let i = 0; i < n; i++) {
        const u = pick(users);
        // most rows today; some late (yesterday) or early (tomorrow: another worker's clock past midnight)
        const r = random();
        const day = r < 0.8 ? today : r < 0.9 ? addDays(today, -1) : addDays(today, 1);
        const du = pick([1, 2, 2.5, 10]);
        rows.push({ user_id: u, key_id: u, ts: noon(day), day, method: "GET", route: pick(["/v1/a", "/v1/b", "/v1/c"]), status: 200, records: 1, du });
        let w = windows.get(u);
        if (!w) {
          // the account's windows are those of its first row in the batch, as PgLedger sends them
          const period = periodContaining(anchor.get(u)!, 30, day);
          const month = monthContaining(day);
          w = {
            user_id: u,
            period_start: period.start,
            period_end: period.end,
            day,
            month_start: month.start,
            month_end: month.end,
            added: 0,
            add_period: 0,
            add_day: 0,
            add_month: 0,
            plan_slug: "pro",
            period_days: 30,
            elapsed: 1,
            ts: noon(day),
            lines: 0,
          };
          windows.set(u, w);
        }
        w.added += du;
        if (day >= w.period_start && day <= w.period_end) w.add_period += du;
        if (day === w.day) w.add_day += du;
        if (day >= w.month_start && day <= w.month_end) w.add_month += du;
      }
      // one account in ten from a node of the build before 0012, which sends the windows without what falls in each
      const sent = [...windows.values()].map((w) => (random() < 0.1 ? { ...w, add_period: undefined, add_day: undefined, add_month: undefined } : w));
      // one batch in five from a node of the build before 0014: each account's notice lines in its own row
      const older = random() < 0.2;
      const result = (
        older
          ? await sql`SELECT * FROM artmarket_ledger_commit(${JSON.stringify(rows)}::text::jsonb, ${JSON.stringify(sent.map((w) => ({ ...w, lines: [] })))}::text::jsonb, '[]'::jsonb)`
          : await sql`SELECT * FROM artmarket_ledger_commit(${JSON.stringify(rows)}::text::jsonb, ${JSON.stringify(sent)}::text::jsonb, '[]'::jsonb, '[]'::jsonb)`
      ) as {
        user_id: number;
        period: number;
        day: number;
        month: number;
      }[];
      expect(result.map((r) => r.user_id).sort((a, b) => a - b)).toEqual([...windows.keys()].sort((a, b) => a - b));
      for (const r of result) {
        const w = windows.get(r.user_id)!;
        const expected = {
          user_id: r.user_id,
          period: await summed(r.user_id, w.period_start, w.period_end),
          day: await summed(r.user_id, w.day, w.day),
          month: await summed(r.user_id, w.month_start, w.month_end),
        };
        expect(r).toEqual(expected);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1500);
    expect(today > "2026-04-01").toBe(true);
  });

  test("a batch finds its accounts' totals rows by the primary key, whatever the number of accounts", async () => {
    // 3,000 other accounts with a totals row: a batch of one account reads its own row only
    await sql`INSERT INTO du_totals (user_id, period_start, period_end, period_du, day, day_du, month_start, month_end, month_du)
              SELECT 900000 + g, '2026-01-01', '2026-12-31', 1, '2026-06-01', 1, '2026-06-01', '2026-06-30', 1 FROM generate_series(1, 3000) g`;
    const user = nextUser++;
    const day = "2026-06-01";
    const rows = JSON.stringify([{ user_id: user, key_id: user, ts: noon(day), day, method: "GET", route: "/v1/a", status: 200, records: 1, du: 2 }]);
    const windows = { user_id: user, period_start: "2026-01-01", period_end: "2026-12-31", day, month_start: "2026-06-01", month_end: "2026-06-30" };
    const users = JSON.stringify([{ ...windows, added: 2, add_period: 2, add_day: 2, add_month: 2, plan_slug: "pro", period_days: 365, elapsed: 152, ts: noon(day), lines: 0 }]);
    await sql`SELECT * FROM artmarket_ledger_commit(${rows}::text::jsonb, ${users}::text::jsonb, '[]'::jsonb, '[]'::jsonb)`; // the account's row, counted
    // the next batch adds to it: the scans of du_totals it made, from the transaction's own statistics
    const scans = await sql.begin(async (tx) => {
      const [result] = await tx`SELECT * FROM artmarket_ledger_commit(${rows}::text::jsonb, ${users}::text::jsonb, '[]'::jsonb, '[]'::jsonb)`;
      expect((result as { period: number }).period).toBe(4);
      const [s] = await tx`SELECT seq_scan::int AS seq, idx_scan::int AS idx FROM pg_stat_xact_user_tables WHERE relname = 'du_totals'`;
      return s as { seq: number; idx: number };
    });
    expect(scans.seq).toBe(0);
    expect(scans.idx).toBeGreaterThan(0);
    await sql`DELETE FROM du_totals WHERE user_id > 900000`;
  });
});
