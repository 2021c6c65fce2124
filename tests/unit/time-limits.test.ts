import { describe, expect, test } from "bun:test";
import type { Caller } from "../../src/serve/accounts/keys";
import { projectEndOfPeriod } from "../../src/serve/accounts/ledger";
import { DEFAULT_PLANS } from "../../src/serve/accounts/plans";
import { HttpError } from "../../src/serve/http/errors";
import { enforceCap, RateLimiter } from "../../src/serve/http/metering";
import { costOf, formatDu } from "../../src/serve/http/pricing";
import { PRICES } from "../../src/serve/app";
import { addDays, isIsoDate, monthContaining, periodContaining, weekStart } from "../../src/market/time";

const caller = (slug: string): Caller => ({
  userId: 1,
  keyId: 1,
  userName: "t",
  scope: "full",
  role: "member",
  expiresAt: null,
  sessionId: null,
  plan: DEFAULT_PLANS.find((p) => p.slug === slug)!,
  periodAnchor: "2026-01-15",
});

describe("calendar", () => {
  test("periods follow back to back from the anchor", () => {
    expect(periodContaining("2026-01-15", 30, "2026-01-15")).toEqual({ start: "2026-01-15", end: "2026-02-13", days: 30 });
    expect(periodContaining("2026-01-15", 30, "2026-02-14")).toEqual({ start: "2026-02-14", end: "2026-03-15", days: 30 });
    expect(periodContaining("2026-01-15", 365, "2027-01-14").end).toBe("2027-01-14");
  });
  test("months, weeks and dates", () => {
    expect(monthContaining("2024-02-10")).toEqual({ start: "2024-02-01", end: "2024-02-29", days: 29 });
    expect(monthContaining("2026-12-31")).toEqual({ start: "2026-12-01", end: "2026-12-31", days: 31 });
    expect(weekStart("2026-11-22")).toBe("2026-11-16"); // a Sunday → its Monday
    expect(weekStart("2026-11-16")).toBe("2026-11-16");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(isIsoDate("2026-02-29")).toBe(false);
    expect(isIsoDate("2028-02-29")).toBe(true);
  });
  test("projection at the average rate so far", () => {
    const p = { start: "2026-01-01", end: "2026-12-31", days: 365 };
    expect(projectEndOfPeriod(100, p, "2026-01-10")).toBe(3650); // 100 over 10 days
    expect(projectEndOfPeriod(0, p, "2026-06-01")).toBe(0);
  });
});

describe("pricing", () => {
  test("the spec's examples", () => {
    expect(costOf(PRICES["GET /v1/artists"]!, 20)).toBe(22);
    expect(costOf(PRICES["GET /v1/artworks"]!, 500)).toBe(752);
    expect(costOf(PRICES["GET /v1/artists/{artist_id}/related"]!, 0)).toBe(10);
    expect(formatDu(752)).toBe("752");
    expect(formatDu(6.5)).toBe("6.5");
  });
});

describe("rate limiter", () => {
  test("rps_limit × throttle per second, then the next second is free again", () => {
    const limiter = new RateLimiter();
    const c = caller("sandbox"); // 10 rps
    const t0 = 1_700_000_000_000;
    for (let i = 0; i < 10; i++) limiter.check(c, t0 + i);
    let err: unknown;
    try {
      limiter.check(c, t0 + 500);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(429);
    expect((err as HttpError).headers["Retry-After"]).toBe("1");
    expect(() => limiter.check(c, t0 + 1000)).not.toThrow();
  });

  test("rpm_limit applies across seconds, with Retry-After to the next minute", () => {
    const limiter = new RateLimiter();
    const c = caller("sandbox"); // 300 rpm
    const t0 = 1_700_000_080_000; // 40 s into a minute
    for (let i = 0; i < 300; i++) limiter.check(c, t0 + ((Math.floor(i / 10) * 1000) % 20_000));
    try {
      limiter.check(c, t0 + 19_500);
      throw new Error("not limited");
    } catch (e) {
      expect((e as HttpError).status).toBe(429);
      expect(Number((e as HttpError).headers["Retry-After"])).toBe(1);
    }
  });

  test("throttle_multiplier scales the limits", () => {
    const limiter = new RateLimiter();
    const base = caller("sandbox");
    const c = { ...base, plan: { ...base.plan, throttle_multiplier: 0.5 } };
    const t0 = 1_700_000_000_000;
    for (let i = 0; i < 5; i++) limiter.check(c, t0);
    expect(() => limiter.check(c, t0)).toThrow();
  });
});

describe("caps", () => {
  const windows = (consumed: number) => ({
    period: { start: "2026-11-01", end: "2026-11-30", days: 30 },
    periodConsumed: consumed,
    day: "2026-11-22",
    dayConsumed: 0,
    month: { start: "2026-11-01", end: "2026-11-30", days: 30 },
    monthConsumed: 0,
  });
  test("hard cap: 429 from the allowance on, with Retry-After to the next period", () => {
    const now = Date.parse("2026-11-22T00:00:00Z");
    expect(() => enforceCap(caller("sandbox"), windows(9_999), now)).not.toThrow();
    try {
      enforceCap(caller("sandbox"), windows(10_000), now);
      throw new Error("not capped");
    } catch (e) {
      expect((e as HttpError).status).toBe(429);
      expect((e as HttpError).headers["Retry-After"]).toBe(String(9 * 86400));
    }
  });
  test("soft cap: served on", () => {
    expect(() => enforceCap(caller("pro"), windows(5_000_000))).not.toThrow();
  });
});
