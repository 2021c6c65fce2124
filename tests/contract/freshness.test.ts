/**
 * Freshness, measured (issue 33, item 5; docs/operations.md#data-freshness): each house's latest
 * result, computed here in SQL of the test's own, against GET /v1/auction-houses' results_as_of;
 * /readyz's tiers against the oldest latest result of each tier's active houses; the gauges of
 * /metrics against now; and, with the clock given, the gauges crossing the spec's 48 h and 14 d.
 * Results owed: each tier's oldest sale that has ended with lots still without a result, found
 * here by reading every sale's lots, against /readyz's results_owed and
 * artmarket_results_owed_seconds; the service's own query reads only indexes (its plan).
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { freshnessOf, MarketFreshness, OPEN_SALES_SQL } from "../../src/serve/freshness";
import { createTestContext, tempDataDir, type TestContext } from "../helpers/app";

const DAY_MS = 86_400_000;
const HOUR_S = 3600;

let ctx: TestContext;
/** house id → the day of its latest result (null: none), in (priority_order, id) order. */
let latest: { id: number; day: string | null }[];
let asOf: string;

beforeAll(async () => {
  ctx = await createTestContext();
  // the sale's status from the sales table (the lots' copy of it is what the service reads)
  latest = ctx.deps.market
    .query<{ id: number; day: string | null }, []>(
      `SELECT h.id,
         (SELECT max(date(l.sale_datetime, 'unixepoch')) FROM lots l JOIN sales s ON s.id = l.sale_id
          WHERE l.house_id = h.id AND l.status IN ('sold', 'passed', 'withdrawn') AND s.status IN ('closed', 'live', 'session_off')) AS day
       FROM auction_houses h ORDER BY h.priority_order, h.id`,
    )
    .all();
  asOf = ctx.deps.market.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()!.value;
});
afterAll(() => ctx.close());

/** The end (UTC) of `day`, Unix milliseconds. */
const endOf = (day: string) => Date.parse(`${day}T00:00:00Z`) + DAY_MS;

/** The oldest latest result of the tier's houses with a result within 365 days of the as-of date. */
function expectedTier(tier: "top" | "other", of = latest): string | null {
  const since = new Date(Date.parse(`${asOf}T00:00:00Z`) - 365 * DAY_MS).toISOString().slice(0, 10);
  const houses = tier === "top" ? of.slice(0, 7) : of.slice(7);
  const active = houses.map((h) => h.day).filter((d): d is string => d !== null && d >= since);
  return active.length ? active.sort()[0]! : null;
}

/** The numeric value of one sample of a metrics page (name with its labels), NaN when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
}

describe("per house: results_as_of", () => {
  test("GET /v1/auction-houses gives each house's latest result day, as SQL finds it", async () => {
    const res = await ctx.call("/v1/auction-houses");
    expect(res.status).toBe(200);
    const houses = (await res.json()) as { id: number; results_as_of: string | null }[];
    expect(houses.map((h) => [h.id, h.results_as_of])).toEqual(latest.map((h) => [h.id, h.day]));
    // the tiny market has houses with results, and none dated after its as-of date
    const days = latest.map((h) => h.day).filter((d): d is string => d !== null);
    expect(days.length).toBeGreaterThan(3);
    for (const d of days) expect(d <= asOf).toBe(true);
  });
});

describe("/readyz", () => {
  test("each tier is as fresh as its stalest active house; ages from the end of that day", async () => {
    const before = Date.now();
    const body = (await (await ctx.call("/readyz", { key: null })).json()) as {
      snapshot: { published_at: string };
      freshness: Record<"top" | "other", { latest_result: string | null; age_hours: number | null }>;
    };
    const after = Date.now();
    const top = expectedTier("top");
    const other = expectedTier("other");
    // both tiers have an active house in the tiny market, so the figures are real dates
    expect(top).not.toBeNull();
    expect(other).not.toBeNull();
    expect(body.freshness.top.latest_result).toBe(top);
    expect(body.freshness.other.latest_result).toBe(other);
    for (const [tier, day] of [
      ["top", top!],
      ["other", other!],
    ] as const) {
      const age = body.freshness[tier].age_hours!;
      expect(age).toBeGreaterThanOrEqual(Math.floor((before - endOf(day)) / 360_000) / 10);
      expect(age).toBeLessThanOrEqual(Math.ceil((after - endOf(day)) / 360_000) / 10);
    }
    // published: market.db's modification time
    expect(body.snapshot.published_at).toBe(statSync(join(ctx.dataDir, "market.db")).mtime.toISOString());
  });
});

describe("/metrics", () => {
  test("the snapshot's age and each tier's freshness are now minus their times, with HELP and TYPE", async () => {
    const text = await (await ctx.call("/metrics", { key: null })).text();
    const now = Date.now();
    for (const name of ["artmarket_snapshot_age_seconds", "artmarket_freshness_seconds"]) {
      expect(text).toContain(`# TYPE ${name} gauge`);
      expect(text).toMatch(new RegExp(`^# HELP ${name} \\S`, "m"));
    }
    const published = statSync(join(ctx.dataDir, "market.db")).mtime.getTime();
    expect(Math.abs(sample(text, "artmarket_snapshot_age_seconds") - (now - published) / 1000)).toBeLessThan(5);
    expect(Math.abs(sample(text, 'artmarket_freshness_seconds{tier="top"}') - (now - endOf(expectedTier("top")!)) / 1000)).toBeLessThan(5);
    expect(Math.abs(sample(text, 'artmarket_freshness_seconds{tier="other"}') - (now - endOf(expectedTier("other")!)) / 1000)).toBeLessThan(5);
  });

  test("as time passes the gauges cross 48 h (top) and 14 days (other)", () => {
    const f = freshnessOf(ctx.deps.market);
    const top = expectedTier("top")!;
    const other = expectedTier("other")!;
    const noon = (day: string, days: number) => Date.parse(`${day}T12:00:00Z`) + days * DAY_MS;
    const topAt = (now: number) => sample(f.metricsText(now), 'artmarket_freshness_seconds{tier="top"}');
    const otherAt = (now: number) => sample(f.metricsText(now), 'artmarket_freshness_seconds{tier="other"}');
    // a day after the top tier's latest result: 12 h from the end of that day, under 48 h
    expect(topAt(noon(top, 1))).toBe(12 * HOUR_S);
    expect(topAt(noon(top, 1))).toBeLessThan(48 * HOUR_S);
    expect(f.report(noon(top, 1)).top).toEqual({ latest_result: top, age_hours: 12 });
    // three days after: 60 h, over
    expect(topAt(noon(top, 3))).toBe(60 * HOUR_S);
    expect(topAt(noon(top, 3))).toBeGreaterThan(48 * HOUR_S);
    expect(f.report(noon(top, 3)).top).toEqual({ latest_result: top, age_hours: 60 });
    // the others: 13 days after is under 14 days, 15 after is over
    expect(otherAt(noon(other, 13))).toBeLessThan(14 * 24 * HOUR_S);
    expect(otherAt(noon(other, 15))).toBeGreaterThan(14 * 24 * HOUR_S);
    // a result dated the day it is read is age 0, never negative
    expect(topAt(noon(top, 0))).toBe(0);
  });
});

describe("a newer result moves the tier to its next stalest house", () => {
  let dir: string;
  let db: Database;
  beforeAll(() => {
    dir = tempDataDir("artmarket-fresh-");
    copyFileSync(join(ctx.dataDir, "market.db"), join(dir, "market.db"));
    db = new Database(join(dir, "market.db"));
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the stalest top house's latest result brought to the as-of date", () => {
    const top = expectedTier("top")!;
    expect(top < asOf).toBe(true);
    const stalest = latest.slice(0, 7).find((h) => h.day === top)!;
    // one of its results is dated the as-of date (a result the market now holds)
    const lot = db
      .query<{ id: number }, [number]>("SELECT id FROM lots WHERE house_id = ? AND status IN ('sold', 'passed', 'withdrawn') AND sale_status <> 'upcoming' LIMIT 1")
      .get(stalest.id)!;
    db.query("UPDATE lots SET sale_datetime = ? WHERE id = ?").run(Date.parse(`${asOf}T10:00:00Z`) / 1000, lot.id);
    const f = new MarketFreshness(db);
    expect(f.resultsAsOf(stalest.id)).toBe(asOf);
    const next = expectedTier(
      "top",
      latest.map((h) => (h.id === stalest.id ? { ...h, day: asOf } : h)),
    );
    expect(f.tiers.top).toBe(next);
    expect(next! > top).toBe(true);
    // the published time is the copy's own file
    expect(f.publishedAt).toBe(statSync(join(dir, "market.db")).mtime.toISOString());
  });
});

type Owed = { sale_id: number; house_id: number; ended_at: string; age_hours: number } | null;

/** Each tier's oldest sale ended before `now` with a lot not sold, passed nor withdrawn (then lowest id), by reading every sale's lots. */
function expectedOwed(db: Database, now: number): Record<"top" | "other", Owed> {
  const top = new Set(latest.slice(0, 7).map((h) => h.id));
  const open = db
    .query<{ id: number; house_id: number; ended: string }, []>(
      `SELECT s.id, s.house_id, CASE WHEN s.end_datetime IS NULL OR s.end_datetime = '' THEN s.start_datetime ELSE s.end_datetime END AS ended
       FROM sales s WHERE EXISTS (SELECT 1 FROM lots l WHERE l.sale_id = s.id AND l.status NOT IN ('sold', 'passed', 'withdrawn'))`,
    )
    .all()
    .filter((r) => Date.parse(r.ended) < now)
    .sort((a, b) => Date.parse(a.ended) - Date.parse(b.ended) || a.id - b.id);
  const oldest = (tier: "top" | "other"): Owed => {
    const r = open.find((o) => top.has(o.house_id) === (tier === "top"));
    return r ? { sale_id: r.id, house_id: r.house_id, ended_at: r.ended, age_hours: Math.round((now - Date.parse(r.ended)) / 360_000) / 10 } : null;
  };
  return { top: oldest("top"), other: oldest("other") };
}

describe("results owed", () => {
  test("/readyz's results_owed and the artmarket_results_owed_seconds gauges, on the server's clock, as SQL finds them", async () => {
    const before = Date.now();
    const body = (await (await ctx.call("/readyz", { key: null })).json()) as { results_owed: Record<"top" | "other", Owed> };
    const text = await (await ctx.call("/metrics", { key: null })).text();
    const after = Date.now();
    expect(text).toContain("# TYPE artmarket_results_owed_seconds gauge");
    expect(text).toMatch(/^# HELP artmarket_results_owed_seconds \S/m);
    const [lo, hi] = [expectedOwed(ctx.deps.market, before), expectedOwed(ctx.deps.market, after)];
    for (const t of ["top", "other"] as const) {
      const got = body.results_owed[t];
      const gauge = sample(text, `artmarket_results_owed_seconds{tier="${t}"}`);
      if (hi[t] === null) {
        expect([t, got, gauge]).toEqual([t, null, 0]);
        continue;
      }
      const want = hi[t]!;
      expect([t, got?.sale_id, got?.house_id, got?.ended_at]).toEqual([t, want.sale_id, want.house_id, want.ended_at]);
      const since = lo[t]?.sale_id === want.sale_id ? lo[t]!.age_hours : 0;
      expect([t, got!.age_hours >= since && got!.age_hours <= want.age_hours]).toEqual([t, true]);
      const ended = Date.parse(want.ended_at);
      expect([t, gauge >= Math.floor((before - ended) / 1000) && gauge <= Math.ceil((after - ended) / 1000)]).toEqual([t, true]);
    }
  });

  test("an hour after each of the seeded market's sales under way on its as-of date ends, the tiers owe what SQL finds", () => {
    const f = freshnessOf(ctx.deps.market);
    const ends = ctx.deps.market
      .query<{ ended: string }, []>("SELECT DISTINCT end_datetime AS ended FROM sales WHERE status IN ('live', 'session_off') ORDER BY 1")
      .all()
      .map((r) => Date.parse(r.ended));
    expect(ends.length).toBeGreaterThan(0);
    for (const now of [Date.parse(`${asOf}T12:00:00Z`), ...ends, ...ends.map((e) => e + 3_600_000)]) {
      expect([now, f.owedReport(now)]).toEqual([now, expectedOwed(ctx.deps.market, now)]);
    }
  });

  test("its query reads the open statuses' indexes and the sales', never a scan of the lots table", () => {
    const plan = ctx.deps.market
      .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${OPEN_SALES_SQL}`)
      .all()
      .map((r) => r.detail);
    expect(plan.filter((d) => /^SCAN (lots|l)\b/.test(d))).toEqual([]);
    for (const index of ["lots_upcoming", "lots_unknown", "sales_start", "lots_sale"]) expect([index, plan.some((d) => d.includes(index))]).toEqual([index, true]);
  });

  describe("a lot of a sale held long ago marked unknown (its result not yet in)", () => {
    let dir: string;
    let db: Database;
    beforeAll(() => {
      dir = tempDataDir("artmarket-owed-");
      copyFileSync(join(ctx.dataDir, "market.db"), join(dir, "market.db"));
      db = new Database(join(dir, "market.db"));
    });
    afterAll(() => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test("that sale is its tier's oldest owed, aged from its end; the other tier is unchanged", () => {
      const now = Date.parse(`${asOf}T12:00:00Z`);
      const before = expectedOwed(db, now);
      // the first sale of the first house of the other tier that holds a result
      const house = latest.slice(7).find((h) => h.day !== null)!.id;
      const sale = db
        .query<{ id: number; end_datetime: string }, [number]>("SELECT id, end_datetime FROM sales WHERE house_id = ? AND lots_count > 0 ORDER BY start_datetime, id LIMIT 1")
        .get(house)!;
      db.query("UPDATE lots SET status = 'unknown' WHERE id = (SELECT min(id) FROM lots WHERE sale_id = ?)").run(sale.id);
      const f = new MarketFreshness(db);
      const want = expectedOwed(db, now);
      expect(want.other).toEqual({
        sale_id: sale.id,
        house_id: house,
        ended_at: sale.end_datetime,
        age_hours: Math.round((now - Date.parse(sale.end_datetime)) / 360_000) / 10,
      });
      expect(f.owedReport(now)).toEqual(want);
      expect(want.top).toEqual(before.top);
      expect(sample(f.metricsText(now), 'artmarket_results_owed_seconds{tier="other"}')).toBe((now - Date.parse(sale.end_datetime)) / 1000);
      // before it ended, nothing of it is owed
      expect(f.owed("other", Date.parse(sale.end_datetime))?.saleId).not.toBe(sale.id);
    });
  });
});
