/** Rate limits, the sandbox hard cap, the paid plans' soft cap with notices, and /v1/usage. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { main } from "../../src/cli";
import { periodContaining, today } from "../../src/market/time";
import { createTestContext, type TestContext } from "../helpers/app";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const userIdOf = (key: string) => (ctx.deps.account.query("SELECT user_id FROM api_keys WHERE kid = ?").get(key.slice(3, 19)) as { user_id: number }).user_id;

/**
 * Books `du` of past consumption for a user today, as a ledger written before the server started
 * would hold it: a server reads an account's consumption from the roll-up when it first meets the
 * account (then keeps it in the counters its workers share), so the test has the server reload
 * them, as a restart would.
 */
async function bookConsumption(userId: number, du: number, endpoint = "GET /v1/artworks") {
  ctx.otherConnection().run(
    `INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT(user_id, day, endpoint) DO UPDATE SET du = du + excluded.du, requests = requests + 1`,
    [userId, today(), endpoint, du],
  );
  ctx.deps.ledger.reset();
}

describe("request-rate limits", () => {
  test("a burst above the sandbox's rps_limit gets 429 with Retry-After, and the 429s cost nothing", async () => {
    const { key, userId } = await createUserWithKey(ctx.deps.account, "sandbox", "burst");
    const rows = () => (ctx.deps.account.query("SELECT count(*) AS n FROM du_ledger WHERE user_id = ?").get(userId) as { n: number }).n;
    const responses = await Promise.all(Array.from({ length: 25 }, () => ctx.call("/v1/categories", { key })));
    const limited = responses.filter((r) => r.status === 429);
    const served = responses.filter((r) => r.status === 200);
    expect(limited.length).toBeGreaterThan(0);
    expect(served.length).toBeLessThanOrEqual(20); // 10 per second; the burst may straddle one second boundary
    for (const r of limited) {
      expect(Number(r.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect(r.headers.get("X-Service-DataUnits")).toBeNull();
      expect(await r.json()).toEqual({ detail: expect.stringContaining("Rate limit") });
    }
    expect(rows()).toBe(served.length);
  });
});

describe("sandbox hard cap", () => {
  test("429 once the period allowance is used, with no DU charged; other users unaffected", async () => {
    const { key, userId } = await createUserWithKey(ctx.deps.account, "sandbox", "capped");
    expect((await ctx.call("/v1/categories", { key })).status).toBe(200);
    await bookConsumption(userId, 10_000); // the sandbox allowance
    const res = await ctx.call("/v1/categories", { key });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({ detail: expect.stringContaining("allowance") });
    expect((await ctx.call("/v1/categories", { key: ctx.keys.sandbox })).status).toBe(200);
  });

  test("past the cap, calls that cost 0 DU are still served: /v1/usage shows the used-up allowance", async () => {
    const { key, userId } = await createUserWithKey(ctx.deps.account, "sandbox", "capped reader");
    await bookConsumption(userId, 10_000);
    expect((await ctx.call("/v1/categories", { key })).status).toBe(429);
    const usage = await ctx.call("/v1/usage", { key });
    expect(usage.status).toBe(200);
    expect(usage.headers.get("X-Service-DataUnits")).toBe("0");
    expect(usage.headers.get("X-Service-DataUnits-Remaining")).toBe("0");
    expect(await usage.json()).toMatchObject({ du_limit: 10_000, du_consumed: 10_000, du_remaining: 0 });
    expect((await ctx.call("/v1/artists/1/follow", { key, method: "POST" })).status).toBe(204);
  });
});

describe("soft cap with notices", () => {
  test("a pro user crossing 80 % and 100 % is served on and gets one notice per threshold", async () => {
    const { key, userId } = await createUserWithKey(ctx.deps.account, "pro", "heavy user");
    const limit = 1_200_000;
    await bookConsumption(userId, limit * 0.8 - 0.5);
    const a = await ctx.call("/v1/categories", { key }); // +1 → crosses 80 %
    expect(a.status).toBe(200);
    await bookConsumption(userId, limit * 0.2 - 1);
    const b = await ctx.call("/v1/categories", { key }); // +1 → reaches 100 %
    const c = await ctx.call("/v1/categories", { key }); // served on beyond the allowance
    expect([b.status, c.status]).toEqual([200, 200]);
    expect(c.headers.get("X-Service-DataUnits-Remaining")).toBe("0");
    ctx.deps.ledger.flush();
    const notices = ctx.deps.account.query("SELECT pool, threshold, du_limit, du_consumed FROM notices WHERE user_id = ? ORDER BY threshold").all(userId) as {
      pool: string;
      threshold: number;
      du_limit: number;
      du_consumed: number;
    }[];
    expect(notices.map((n) => [n.pool, n.threshold])).toEqual([
      ["main", 80],
      ["main", 100],
    ]);
    expect(notices[0]!.du_consumed).toBeGreaterThanOrEqual(limit * 0.8);
    expect(notices[1]!.du_consumed).toBeGreaterThanOrEqual(limit);
  });

  test("`artmarket notices` lists them", async () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stdout.write;
    try {
      expect(await main(["notices", "--json", "--data", ctx.dataDir])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const listed = JSON.parse(lines.join("")) as { threshold: number; user_name: string }[];
    expect(listed.filter((n) => n.user_name === "heavy user").map((n) => n.threshold)).toEqual([80, 100]);
  });
});

describe("GET /v1/usage", () => {
  test("the windows, with du_consumed + du_remaining = du_limit and 0 DU for itself", async () => {
    const { key } = await createUserWithKey(ctx.deps.account, "pro", "usage reader");
    await ctx.call("/v1/categories", { key });
    await ctx.call("/v1/auction-houses", { key });
    const res = await ctx.call("/v1/usage", { key });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Service-DataUnits")).toBe("0");
    const u = (await res.json()) as Record<string, number | string>;
    const period = periodContaining(today(), 365, today());
    expect(u.period_start).toBe(period.start);
    expect(u.period_end).toBe(period.end);
    expect(u.du_consumed).toBe(2);
    expect(Number(u.du_consumed) + Number(u.du_remaining)).toBe(Number(u.du_limit));
    expect([u.daily_du_consumed, u.monthly_du_consumed]).toEqual([2, 2]);
    expect(Number(u.daily_du_limit) - Number(u.daily_du_consumed)).toBe(Number(u.daily_du_remaining));
    expect(u.projected_eop).toBe(2 * 365);
    expect(u).not.toHaveProperty("api_du_limit");
    expect(u).not.toHaveProperty("breakdown");
  });

  test("enterprise has the separate API pool windows", async () => {
    const u = (await (await ctx.call("/v1/usage")).json()) as Record<string, unknown>;
    for (const f of [
      "api_du_limit",
      "api_du_consumed",
      "api_du_remaining",
      "api_daily_du_limit",
      "api_daily_du_consumed",
      "api_daily_du_remaining",
      "api_monthly_du_limit",
      "api_monthly_du_consumed",
      "api_monthly_du_remaining",
    ]) {
      expect(typeof u[f]).toBe("number");
    }
    expect(u.api_du_limit).not.toBe(u.du_limit);
  });

  for (const groupBy of ["day", "week", "month", "endpoint"]) {
    test(`group_by=${groupBy}: the breakdown adds up to du_consumed`, async () => {
      const { key } = await createUserWithKey(ctx.deps.account, "pro", `grouped ${groupBy}`);
      await ctx.call("/v1/categories", { key });
      await ctx.call("/v1/categories", { key });
      await ctx.call("/v1/auction-houses", { key });
      const u = (await (await ctx.call(`/v1/usage?group_by=${groupBy}`, { key })).json()) as {
        du_consumed: number;
        breakdown: { label: string; du_consumed: number; requests: number }[];
      };
      expect(u.breakdown.reduce((s, b) => s + b.du_consumed, 0)).toBe(u.du_consumed);
      expect(u.breakdown.reduce((s, b) => s + b.requests, 0)).toBe(3);
      if (groupBy === "endpoint") {
        expect(u.breakdown).toEqual([
          { label: "GET /v1/categories", du_consumed: 2, requests: 2 },
          { label: "GET /v1/auction-houses", du_consumed: 1, requests: 1 },
        ]);
      }
      if (groupBy === "day") expect(u.breakdown.map((b) => b.label)).toEqual([today()]);
      if (groupBy === "month") expect(u.breakdown.map((b) => b.label)).toEqual([today().slice(0, 7)]);
    });
  }

  test("from/to select the range", async () => {
    const u = (await (await ctx.call("/v1/usage?from=2001-01-01&to=2001-12-31")).json()) as Record<string, unknown>;
    expect(u.du_consumed).toBe(0);
    expect([u.from, u.to]).toEqual(["2001-01-01", "2001-12-31"]);
  });

  test("bad from, to and group_by are 422 with the detail array", async () => {
    const bad = await ctx.call("/v1/usage?from=yesterday&group_by=year");
    expect(bad.status).toBe(422);
    const { detail } = (await bad.json()) as { detail: { loc: string[]; type: string }[] };
    expect(detail.map((d) => [d.loc[1], d.type])).toEqual([
      ["from", "date_parsing"],
      ["group_by", "enum"],
    ]);
    const reversed = await ctx.call("/v1/usage?from=2026-02-01&to=2026-01-01");
    expect(reversed.status).toBe(422);
  });

  test("another user's consumption never shows", async () => {
    const { key } = await createUserWithKey(ctx.deps.account, "pro", "fresh");
    const u = (await (await ctx.call("/v1/usage?group_by=endpoint", { key })).json()) as Record<string, unknown>;
    expect(u.du_consumed).toBe(0);
    expect(u.breakdown).toEqual([]);
    expect(userIdOf(key)).toBeGreaterThan(0);
  });
});
