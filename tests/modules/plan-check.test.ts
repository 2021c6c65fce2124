/**
 * bench/api's plan check as a test: every case of the bench's mix (bench/lib/api-cases.ts) run in
 * process on the tests' tiny market (bench/lib/api-profile.ts), and each statement's EXPLAIN
 * QUERY PLAN read; a SCAN of lots, artworks or artists without an index (a read of the whole
 * table) fails, as does a case whose requests fail. A plan that names an index the market lacks
 * fails here too (SQLite refuses INDEXED BY an index that does not exist).
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildCases } from "../../bench/lib/api-cases";
import { type CaseProfile, explain, profileCases } from "../../bench/lib/api-profile";
import { makeRunDir } from "../../bench/lib/api-setup";
import { tinyMarketDir } from "../helpers/app";

let profiles: CaseProfile[] = [];
let dir = "";

beforeAll(async () => {
  const market = await tinyMarketDir();
  const db = new Database(join(market, "market.db"), { readonly: true });
  const built = buildCases(db, { n: 12, seed: 7, follows: 20 });
  db.close();
  const run = await makeRunDir(market, built.follows);
  dir = run.dir;
  profiles = profileCases(run.dir, run.userId, built.cases, 12);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("bench/api's plan check on the tiny market", () => {
  test("every case ran, and no statement reads a whole large table", () => {
    expect(profiles.length).toBeGreaterThan(10);
    const scans = profiles.flatMap((p) => p.statements.flatMap((s) => s.fullScans.map((line) => `${p.case}: ${line} in ${s.sql.slice(0, 160)}`)));
    expect(scans).toEqual([]);
    const errors = profiles.flatMap((p) => p.errors.map((e) => `${p.case}: ${e}`));
    expect(errors).toEqual([]);
    expect(profiles.reduce((n, p) => n + p.statements.length, 0)).toBeGreaterThan(50);
  });

  test("the check sees a whole-table read, and an index the market lacks", async () => {
    const db = new Database(join(await tinyMarketDir(), "market.db"), { readonly: true });
    try {
      expect(explain(db, "SELECT * FROM lots WHERE hammer + 0 > ? LIMIT 20", [5]).fullScans.length).toBe(1);
      // the table in id order, stopped by LIMIT, is a walk; the same order sorted, or unbounded, is a scan
      const walk = explain(db, "SELECT id FROM lots WHERE 1 ORDER BY id DESC LIMIT ? OFFSET ?", [21, 0]);
      expect({ scans: walk.fullScans, walks: walk.indexWalks }).toEqual({ scans: [], walks: ["SCAN lots (lots, in id order)"] });
      expect(explain(db, "SELECT id FROM lots ORDER BY id DESC", []).fullScans.length).toBe(1);
      expect(explain(db, "SELECT * FROM lots WHERE hammer + 0 > ? ORDER BY id + 0 LIMIT 20", [5]).fullScans.length).toBe(1);
      expect(explain(db, "SELECT id FROM lots INDEXED BY lots_hammer_usd WHERE hammer_usd_cents > ? LIMIT 20", [5]).fullScans).toEqual([]);
      expect(() => explain(db, "SELECT id FROM lots INDEXED BY lots_no_such_index WHERE hammer_usd_cents > ? LIMIT 20", [5])).toThrow(/no such index/);
    } finally {
      db.close();
    }
  });
});
