/**
 * The indexes a plan names (src/db/market-indexes/names.ts) against a built market: every one
 * declared exists in the tests' tiny market, and every index READ_STATEMENTS builds is declared
 * (so that a plan can only name an index that a market has, and a new index is declared where the
 * plans take their names from).
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { READ_STATEMENTS } from "../../src/db/market-indexes";
import { MARKET_INDEX, MARKET_INDEX_NAMES } from "../../src/db/market-indexes/names";
import { tinyMarketDir } from "../helpers/app";

describe("the indexes plans name", () => {
  test("every declared index exists in a built market", async () => {
    const db = new Database(join(await tinyMarketDir(), "market.db"), { readonly: true });
    try {
      const built = new Set(
        db
          .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index'")
          .all()
          .map((r) => r.name),
      );
      expect(MARKET_INDEX_NAMES.filter((n) => !built.has(n))).toEqual([]);
    } finally {
      db.close();
    }
  }, 120_000);

  test("every index the read statements build is declared, once", () => {
    const declared = new Set<string>(MARKET_INDEX_NAMES);
    expect(declared.size).toBe(MARKET_INDEX_NAMES.length);
    const builds = READ_STATEMENTS.flatMap((sql) => /^CREATE INDEX IF NOT EXISTS (\w+)/.exec(sql)?.[1] ?? []);
    expect(builds.length).toBeGreaterThan(40);
    expect(builds.filter((n) => !declared.has(n))).toEqual([]);
    expect(MARKET_INDEX.lots_house_date).toBe("lots_house_date");
  });
});
