/**
 * The upcoming lots' forecast on the API: sale_probability and expected_hammer_usd with its 80 %
 * band on upcoming lots (full schema), null on every other status, absent from the public schema;
 * the filters sale_probability__gte/__lte, the two sorts, and the artwork chart's upcoming_lot
 * series. The model itself: tests/unit/derive/upcoming.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../helpers/app";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Json = Record<string, any>;
const get = async (path: string, key: string | null = ctx.keys.enterprise) => {
  const res = await ctx.call(path, { key });
  return { status: res.status, body: (await res.json()) as Json };
};
const FIELDS = ["sale_probability", "expected_hammer_usd", "expected_hammer_usd_low", "expected_hammer_usd_high"];

describe("upcoming lots carry their forecast", () => {
  test("upcoming: a probability in [0, 1] and a hammer inside its band; other statuses: null", async () => {
    const upcoming = await get("/v1/lots?status=upcoming&limit=100");
    expect(upcoming.status).toBe(200);
    expect(upcoming.body.lots.length).toBeGreaterThan(0);
    for (const lot of upcoming.body.lots) {
      expect(lot.sale_probability).toBeGreaterThanOrEqual(0);
      expect(lot.sale_probability).toBeLessThanOrEqual(1);
      expect(lot.expected_hammer_usd).toBeGreaterThan(0);
      expect(lot.expected_hammer_usd_low).toBeLessThanOrEqual(lot.expected_hammer_usd);
      expect(lot.expected_hammer_usd_high).toBeGreaterThanOrEqual(lot.expected_hammer_usd);
    }
    for (const status of ["sold", "passed", "withdrawn"]) {
      const other = await get(`/v1/lots?status=${status}&limit=50`);
      expect(other.body.lots.length).toBeGreaterThan(0);
      for (const lot of other.body.lots) for (const f of FIELDS) expect({ status, f, v: lot[f] }).toEqual({ status, f, v: null });
    }
    // the detail as the list
    const one = upcoming.body.lots[0];
    const detail = await get(`/v1/lots/${one.id}`);
    for (const f of FIELDS) expect(detail.body[f]).toBe(one[f]);
    // the values are the stored ones
    const row = ctx.deps.market.query("SELECT sale_probability AS p FROM lots WHERE id = ?").get(one.id) as { p: number };
    expect(one.sale_probability).toBe(row.p);
  });

  test("the public schema (no key, sandbox) leaves them out", async () => {
    for (const key of [null, ctx.keys.sandbox]) {
      const res = await get("/v1/lots?status=upcoming&limit=5", key);
      expect(res.status).toBe(200);
      for (const lot of res.body.lots) for (const f of FIELDS) expect(f in lot).toBe(false);
    }
  });

  test("sale_probability__gte/__lte keep exactly the upcoming lots in the range", async () => {
    const count = (sql: string) => (ctx.deps.market.query(`SELECT count(*) AS n FROM lots WHERE ${sql}`).get() as { n: number }).n;
    for (const [q, sql, check] of [
      ["sale_probability__gte=0.7", "sale_probability >= 0.7", (p: number) => p >= 0.7],
      ["sale_probability__lte=0.5", "sale_probability <= 0.5", (p: number) => p <= 0.5],
      ["sale_probability__gte=0.3&sale_probability__lte=0.8", "sale_probability BETWEEN 0.3 AND 0.8", (p: number) => p >= 0.3 && p <= 0.8],
    ] as const) {
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page = await get(`/v1/lots?${q}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(page.status).toBe(200);
        for (const lot of page.body.lots) {
          expect(lot.status).toBe("upcoming");
          expect(check(lot.sale_probability)).toBe(true);
          seen.push(lot.id);
        }
        cursor = page.body.next_cursor;
      } while (cursor);
      expect({ q, n: seen.length }).toEqual({ q, n: count(sql) });
    }
    const bad = await ctx.call("/v1/lots?sale_probability__gte=1.5");
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as Json).detail[0].loc).toEqual(["query", "sale_probability__gte"]);
  });

  test("the sorts order by the probability, NULLs (every other lot) last", async () => {
    for (const [dir, sign] of [
      ["DESC", -1],
      ["ASC", 1],
    ] as const) {
      const page = await get(`/v1/lots?sort=SALE_PROBABILITY_${dir}&limit=100`);
      const ps = page.body.lots.map((l: Json) => l.sale_probability);
      const values = ps.filter((p: number | null) => p !== null);
      expect(values.length).toBeGreaterThan(1);
      for (let i = 1; i < values.length; i++) expect(Math.sign(values[i] - values[i - 1]) * sign).toBeGreaterThanOrEqual(0);
      // the values come first
      const firstNull = ps.indexOf(null);
      if (firstNull >= 0) expect(ps.slice(firstNull).every((p: number | null) => p === null)).toBe(true);
    }
  });

  test("the artwork chart shows the upcoming lot's expected hammer, band and probability", async () => {
    const lot = (await get("/v1/lots?status=upcoming&sort=SALE_PROBABILITY_DESC&limit=1")).body.lots[0];
    const chart = (await get(`/v1/artworks/${lot.artwork.id}/chart`)).body;
    const series = chart.series.find((s: Json) => s.id === "upcoming_lot");
    expect(series).toBeDefined();
    const point = series.data[0];
    const next = ctx.deps.market
      .query("SELECT id FROM lots WHERE artwork_id = ? AND status = 'upcoming' AND sale_probability IS NOT NULL ORDER BY sale_datetime, id LIMIT 1")
      .get(lot.artwork.id) as { id: number };
    expect(point.lot_id).toBe(next.id);
    const shown = (await get(`/v1/lots/${next.id}`)).body;
    expect(point.sale_probability).toBe(shown.sale_probability);
    expect(point.value).toBeCloseTo(shown.expected_hammer_usd, 1);
    expect(point.value_low).toBeCloseTo(shown.expected_hammer_usd_low, 1);
    expect(point.value_high).toBeCloseTo(shown.expected_hammer_usd_high, 1);
    expect(point.time).toBe(shown.sale_datetime.slice(0, 10));
    // a work without an upcoming lot has no such series
    const sold = (await get("/v1/lots?status=sold&limit=1")).body.lots[0];
    const hasUpcoming = ctx.deps.market.query("SELECT 1 FROM lots WHERE artwork_id = ? AND status = 'upcoming'").get(sold.artwork.id);
    if (!hasUpcoming) expect((await get(`/v1/artworks/${sold.artwork.id}/chart`)).body.series.map((s: Json) => s.id)).toEqual(["hammer_prices", "estimate", "estimate_history"]);
  });
});
