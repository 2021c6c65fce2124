import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { FxCache } from "../../src/db/fx";
import { tinyMarketDir } from "../helpers/app";

let db: Database;
beforeAll(async () => {
  // the run's shared tiny market, read in place (built here when no earlier file has)
  db = new Database(join(await tinyMarketDir(), "market.db"), { readonly: true });
}, 120_000);
afterAll(() => db?.close());

test("rates and conversions agree with the fx_rates table, lazily loaded", () => {
  const fx = FxCache.lazy(db);
  for (const [code, day] of [
    ["GBP", "1987-05-04"],
    ["JPY", "2008-10-01"],
    ["EUR", "2025-03-31"],
  ] as const) {
    const row = db.query("SELECT usd_per_unit AS r FROM fx_rates WHERE code = ? AND day = ?").get(code, day) as { r: number };
    expect(fx.usdPerUnit(code, day)).toBe(row.r);
    expect(fx.usdPerUnit(code, `${day}T19:00:00Z`)).toBe(row.r);
    expect(fx.fromUsd(1000, code, day)).toBe(Math.round((1000 / row.r) * 100) / 100);
  }
  expect(fx.usdPerUnit("USD", "2001-01-01")).toBe(1);
  expect(fx.fromUsd(null, "GBP", "2001-01-01")).toBeNull();
  expect(fx.usdPerUnit("XXX", "2001-01-01")).toBeNull();
  expect(fx.has("CHF")).toBe(true);
  // before the first and after the last day: the nearest known rate
  expect(fx.usdPerUnit("GBP", "1970-01-01")).toBe(fx.usdPerUnit("GBP", "1986-01-01"));
});
