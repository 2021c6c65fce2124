import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../helpers/app";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("reference data", () => {
  test("auction houses: every field, top houses first, 1 DU", async () => {
    const res = await ctx.call("/v1/auction-houses");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Service-DataUnits")).toBe("1");
    const houses = (await res.json()) as any[];
    expect(houses.length).toBeGreaterThan(7);
    for (const h of houses) {
      expect(Object.keys(h).sort()).toEqual(["id", "is_live", "name", "priority_order", "results_as_of", "slug"]);
      expect(typeof h.is_live).toBe("boolean");
    }
    expect(houses.slice(0, 7).map((h) => h.priority_order)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  test("auction houses filtered by a name substring, case-insensitively", async () => {
    const all = (await (await ctx.call("/v1/auction-houses")).json()) as any[];
    const needle = all[0].name.slice(1, 4).toUpperCase();
    const some = (await (await ctx.call(`/v1/auction-houses?name=${encodeURIComponent(needle)}`)).json()) as any[];
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThanOrEqual(all.length);
    for (const h of some) expect(h.name.toLowerCase()).toContain(needle.toLowerCase());
  });

  test("LIKE wildcards in a name filter are literal", async () => {
    const res = await ctx.call("/v1/auction-houses?name=%25");
    expect(((await res.json()) as any[]).every((h) => h.name.includes("%"))).toBe(true);
  });

  test("currencies: the sixteen preferred_currency codes", async () => {
    const res = await ctx.call("/v1/currencies");
    const codes = ((await res.json()) as any[]).map((c) => c.code).sort();
    expect(codes).toEqual(["AUD", "CAD", "CHF", "CNY", "EUR", "GBP", "HKD", "INR", "JPY", "KRW", "NOK", "NZD", "RUB", "SGD", "TWD", "USD"]);
  });

  test("categories are {id, name} and cost 1 DU", async () => {
    const res = await ctx.call("/v1/categories");
    expect(res.headers.get("X-Service-DataUnits")).toBe("1");
    const cats = (await res.json()) as any[];
    expect(cats.length).toBeGreaterThan(3);
    for (const c of cats) expect(Number.isInteger(c.id) && typeof c.name === "string").toBe(true);
  });

  for (const vocab of ["materials", "substrates", "surfaces", "damages"]) {
    test(`${vocab}: flat {id, name, label}, name filter narrows`, async () => {
      const all = (await (await ctx.call(`/v1/${vocab}`)).json()) as any[];
      expect(all.length).toBeGreaterThan(3);
      for (const m of all) expect(Object.keys(m).sort()).toEqual(["id", "label", "name"]);
      const needle = all[1].name.slice(0, 3);
      const some = (await (await ctx.call(`/v1/${vocab}?name=${needle}`)).json()) as any[];
      expect(some.length).toBeGreaterThan(0);
      for (const m of some) expect(`${m.name} ${m.label}`.toLowerCase()).toContain(needle.toLowerCase());
    });
  }

  test("auction locations are strings, filterable by name", async () => {
    const all = (await (await ctx.call("/v1/auction-locations")).json()) as string[];
    expect(all).toContain("London");
    const some = (await (await ctx.call("/v1/auction-locations?name=lon")).json()) as string[];
    expect(some).toEqual(all.filter((l) => l.toLowerCase().includes("lon")));
  });

  test("plans carry the PlanSchema fields", async () => {
    const plans = (await (await ctx.call("/v1/plans")).json()) as any[];
    expect(plans.map((p) => p.slug)).toEqual(["sandbox", "pro", "enterprise"]);
    for (const p of plans) {
      for (const f of ["slug", "display_name", "du_limit", "period_days", "rps_limit", "rpm_limit", "throttle_multiplier", "price_usd", "features"]) {
        expect(p).toHaveProperty(f);
      }
    }
  });

  test("healthcheck is public and costs nothing", async () => {
    const res = await ctx.call("/healthcheck", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Service-DataUnits")).toBeNull();
  });
});
