/**
 * The PostgreSQL store's request-rate limits by leases (PgRateLimiter, src/serve/accounts/pg-hot.ts):
 * a worker takes its account's units of a second in leases that grow while they are spent, answers
 * the calls a lease covers without a round trip, gives back what a lease left unused, and never
 * lets an account's calls past its windows. Each limiter stands for one worker thread; the calls
 * carry their own clock (a second and a minute of their own for each test), so every count is exact.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Caller } from "../../src/serve/accounts/keys";
import { closeAsyncClient, LEASE_MAX, leaseCap, PgRateLimiter } from "../../src/serve/accounts/pg-hot";
import { PgAccountStore } from "../../src/serve/accounts/pg-store";
import { DEFAULT_PLANS } from "../../src/serve/accounts/plans";
import type { RateState } from "../../src/serve/http/metering";
import { HttpError } from "../../src/serve/http/errors";
import { database } from "../helpers/postgres";

let store: PgAccountStore;
let nextUser = 1;

beforeAll(async () => {
  store = PgAccountStore.open(await database("lease"));
});

afterAll(async () => {
  await closeAsyncClient(store);
  store.close();
});

/** A caller of a fresh account whose plan allows `rps` calls a second and `rpm` a minute. */
function callerWith(rps: number, rpm: number, userId = nextUser++): Caller {
  const plan = { ...DEFAULT_PLANS.find((p) => p.slug === "enterprise")!, rps_limit: rps, rpm_limit: rpm, throttle_multiplier: 1 };
  return { userId, keyId: 0, userName: "lease", plan, periodAnchor: "2026-01-01", scope: "full", role: "member", expiresAt: null, sessionId: null };
}

/** The start of a minute of its own for each test (the windows are the calls' own clock, not the wall's). */
let minuteOf = Math.floor(Date.now() / 60_000) + 100;
const freshMinute = () => minuteOf++ * 60_000;

interface Answer {
  /** Whether the answer came without waiting (from the lease). */
  immediate: boolean;
  status: 200 | 429;
  state?: RateState;
  error?: HttpError;
}

async function call(limiter: PgRateLimiter, caller: Caller, now: number): Promise<Answer> {
  let checked: RateState | Promise<RateState>;
  try {
    checked = limiter.check(caller, now);
  } catch (err) {
    if (err instanceof HttpError && err.status === 429) return { immediate: true, status: 429, error: err };
    throw err;
  }
  if (!(checked instanceof Promise)) return { immediate: true, status: 200, state: checked };
  try {
    return { immediate: false, status: 200, state: await checked };
  } catch (err) {
    if (err instanceof HttpError && err.status === 429) return { immediate: false, status: 429, error: err };
    throw err;
  }
}

function windows(userId: number): { second: number; per_second: number; minute: number; per_minute: number } {
  return store.pg.get("SELECT second::float8 AS second, per_second, minute::float8 AS minute, per_minute FROM rate_windows WHERE user_id = ?", userId)!;
}

describe("leased request-rate units on the PostgreSQL store", () => {
  test("a lease covers at most 1/20 of either window, one call for the sandbox plan", () => {
    const cap = (slug: string) => {
      const p = DEFAULT_PLANS.find((x) => x.slug === slug)!;
      return leaseCap(p.rps_limit, p.rpm_limit);
    };
    expect([cap("sandbox"), cap("pro"), cap("enterprise")]).toEqual([1, 5, 25]);
    expect(leaseCap(10_000, 7)).toBe(1);
    expect(leaseCap(10_000, 600_000)).toBe(500);
    expect(leaseCap(1e9, 1e9)).toBe(LEASE_MAX);
  });

  test("one worker's calls in a second: leases of 1, 2, 4 … calls, the rest answered without a round trip", async () => {
    const limiter = new PgRateLimiter(store);
    const c = callerWith(10_000, 600_000);
    const t = freshMinute() + 200;
    const answers: Answer[] = [];
    for (let i = 0; i < 40; i++) answers.push(await call(limiter, c, t + i));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // leases of 1, 2, 4, 8, 16 and 32 calls: the first call of each waits for its statement
    const waited = answers.flatMap((a, i) => (a.immediate ? [] : [i]));
    expect(waited).toEqual([0, 1, 3, 7, 15, 31]);
    // each call sees the windows after itself, as when every call was counted alone
    expect(answers.map((a) => a.state!.second.remaining)).toEqual(Array.from({ length: 40 }, (_, i) => 10_000 - (i + 1)));
    expect(answers.map((a) => a.state!.minute.remaining)).toEqual(Array.from({ length: 40 }, (_, i) => 600_000 - (i + 1)));
    // the store counts the units leased: the 40 calls and the 23 the last lease still holds
    expect(windows(c.userId)).toMatchObject({ per_second: 63, per_minute: 63 });

    // the next second: the 23 unused units go back to the minute, and the lease halves to 16
    const next = await call(limiter, c, t + 1000);
    expect(next).toMatchObject({ immediate: false, status: 200 });
    expect(next.state!.minute.remaining).toBe(600_000 - 41);
    expect(next.state!.second.remaining).toBe(10_000 - 1);
    expect(windows(c.userId)).toMatchObject({ per_second: 16, per_minute: 40 + 16 });
  });

  test("two workers of one account: never past the second's limit, at most a lease's units short of it", async () => {
    const [a, b] = [new PgRateLimiter(store), new PgRateLimiter(store)];
    const c = callerWith(100, 100_000);
    const cap = leaseCap(100, 100_000);
    expect(cap).toBe(5);
    const t = freshMinute() + 100;
    const answers: Answer[] = [];
    for (let i = 0; i < 150; i++) answers.push(await call(i % 2 === 0 ? a : b, c, t + Math.floor(i / 2)));
    const served = answers.filter((x) => x.status === 200).length;
    expect(served).toBeLessThanOrEqual(100);
    expect(served).toBeGreaterThanOrEqual(100 - cap);
    expect(windows(c.userId).per_second).toBe(100);
    const refused = answers.filter((x) => x.status === 429);
    expect(refused.length).toBe(150 - served);
    for (const r of refused) {
      expect(r.error!.message).toBe("Rate limit exceeded: 100 requests per second");
      expect(Number(r.error!.headers!["Retry-After"])).toBeGreaterThanOrEqual(1);
    }
    // a worker that found the second full refuses the rest of it without asking the store again
    expect(refused.filter((r) => r.immediate).length).toBeGreaterThan(refused.length / 2);
    // the next second has room again
    expect((await call(a, c, t + 1000)).status).toBe(200);
  });

  test("a burst of one account's calls in one turn: one statement, exactly the room left", async () => {
    const limiter = new PgRateLimiter(store);
    const c = callerWith(3, 100_000);
    const t = freshMinute() + 10;
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(limiter, c, t)));
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers.map((x) => x.state?.second.remaining ?? null)).toEqual([2, 1, 0, null, null]);
    expect(windows(c.userId)).toMatchObject({ per_second: 3, per_minute: 3 });
  });

  test("a plan lowered within a second: the old lease's unused units go back, the new limit holds to the call", async () => {
    const limiter = new PgRateLimiter(store);
    const fast = callerWith(1000, 60_000);
    const t = freshMinute() + 10;
    // leases of 1, 2, 4 and 8: 10 calls made, 5 units unused
    for (let i = 0; i < 10; i++) expect((await call(limiter, fast, t + i)).status).toBe(200);
    expect(windows(fast.userId).per_minute).toBe(15);
    const slow = callerWith(1000, 12, fast.userId);
    const after: Answer[] = [];
    for (let i = 0; i < 3; i++) after.push(await call(limiter, slow, t + 20 + i));
    // 10 calls counted, the 5 unused given back: 2 more fit in 12 a minute
    expect(after.map((x) => x.status)).toEqual([200, 200, 429]);
    expect(after[2]!.error!.message).toBe("Rate limit exceeded: 12 requests per minute");
    expect(windows(fast.userId).per_minute).toBe(12);
  });

  test("the accounts of past minutes are forgotten at the next minute's first call", async () => {
    const limiter = new PgRateLimiter(store);
    const t = freshMinute();
    freshMinute(); // the next minute is this test's too
    const callers = [1, 2, 3].map(() => callerWith(10_000, 600_000));
    for (const c of callers) for (let i = 0; i < 3; i++) expect((await call(limiter, c, t + 500 + i)).status).toBe(200);
    expect(limiter.accounts).toBe(3);
    const other = callerWith(10_000, 600_000);
    expect((await call(limiter, other, t + 60_000 + 10)).status).toBe(200);
    expect(limiter.accounts).toBe(1);
    // a forgotten account starts again with a lease of one call
    expect(await call(limiter, callers[0]!, t + 60_000 + 20)).toMatchObject({ immediate: false, status: 200 });
    expect(windows(callers[0]!.userId)).toMatchObject({ per_second: 1, per_minute: 1 });
  });
});
