/** GET /v1/market/index-chart: the art index alone and with benchmarks, rebasing, 422, 403, DU. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../helpers/app";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function get(path: string, key?: string | null) {
  const res = await ctx.call(path, { key });
  return { status: res.status, body: (await res.json()) as any, du: res.headers.get("X-Service-DataUnits") };
}
const rows = (sql: string, ...p: string[]) => ctx.deps.market.query(sql).all(...p) as { month: string; value: number }[];
const lastMonth = () => ctx.deps.asOf.slice(0, 7);

describe("index chart", () => {
  test("without finance: the art index, monthly from 1986, 100 at its start; 10 DU", async () => {
    const { status, body, du } = await get("/v1/market/index-chart");
    expect(status).toBe(200);
    expect(du).toBe("10");
    const stored = rows("SELECT month, value FROM market_index WHERE month <= ? ORDER BY month", lastMonth());
    expect(body.finance_data).toEqual([]);
    expect(body.art_data.length).toBe(stored.length);
    expect(body.art_data[0]).toEqual({ time: "1986-01-01", value: 100 });
    expect(body.base_time).toBe("1986-01-01");
    body.art_data.forEach((p: { time: string; value: number }, i: number) => {
      expect(p.time).toBe(`${stored[i]!.month}-01`);
      expect(p.value).toBeCloseTo((stored[i]!.value / stored[0]!.value) * 100, 3);
    });
    expect(body.art_data.at(-1).time).toBe(`${lastMonth()}-01`);
  });

  test("with finance: one series per benchmark in the order asked, labelled synthetic, all 100 at the first common month", async () => {
    const { status, body } = await get("/v1/market/index-chart?finance=BITCOIN_USD&finance=SNP500,GOLD");
    expect(status).toBe(200);
    expect(body.finance_data.map((s: any) => s.id)).toEqual(["BITCOIN_USD", "SNP500", "GOLD"]);
    const btcStart = rows("SELECT min(month) AS month, 0 AS value FROM benchmarks WHERE series = 'BITCOIN_USD'")[0]!.month;
    expect(body.base_time).toBe(`${btcStart}-01`);
    expect(body.rebased).toBe(true);
    for (const s of body.finance_data) {
      expect(s.label).toMatch(/synthetic/i);
      const stored = rows("SELECT month, value FROM benchmarks WHERE series = ? AND month <= ? ORDER BY month", s.id, lastMonth());
      expect(s.data.length).toBe(stored.length);
      const base = stored.find((r) => r.month === btcStart)!.value;
      s.data.forEach((p: { time: string; value: number }, i: number) => {
        expect(p.time).toBe(`${stored[i]!.month}-01`);
        expect(p.value).toBeCloseTo((stored[i]!.value / base) * 100, 3);
      });
      expect(s.data.find((p: any) => p.time === body.base_time).value).toBe(100);
    }
    expect(body.art_data.find((p: any) => p.time === body.base_time).value).toBe(100);
  });

  test("rebase=false: the stored levels", async () => {
    const { body } = await get("/v1/market/index-chart?finance=MSCI_WORLD_REAL_ESTATE&rebase=false");
    expect(body.rebased).toBe(false);
    const stored = rows("SELECT month, value FROM benchmarks WHERE series = 'MSCI_WORLD_REAL_ESTATE' AND month <= ? ORDER BY month", lastMonth());
    expect(body.finance_data[0].data).toEqual(stored.map((r) => ({ time: `${r.month}-01`, value: r.value })));
    expect(body.base_time).toBe(`${stored[0]!.month}-01`);
    const art = rows("SELECT month, value FROM market_index WHERE month <= ? ORDER BY month", lastMonth());
    expect(body.art_data).toEqual(art.map((r) => ({ time: `${r.month}-01`, value: r.value })));
  });

  test("an unknown benchmark is 422 at its place; sandbox 403; no key 401", async () => {
    const bad = await get("/v1/market/index-chart?finance=GOLD&finance=NASDAQ");
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ["query", "finance", 1], type: "enum", input: "NASDAQ" });
    expect(bad.body.detail[0].ctx.expected).toContain("'SNP500'");
    expect((await get("/v1/market/index-chart?rebase=sometimes")).body.detail[0]).toMatchObject({ loc: ["query", "rebase"], type: "bool_parsing" });
    const sandbox = await get("/v1/market/index-chart", ctx.keys.sandbox);
    expect(sandbox.status).toBe(403);
    expect(typeof sandbox.body.detail).toBe("string");
    expect(sandbox.du).toBeNull();
    expect((await get("/v1/market/index-chart", null)).status).toBe(401);
    expect((await get("/v1/market/index-chart?finance=DOW_JONES", ctx.keys.pro)).du).toBe("10");
  });
});
