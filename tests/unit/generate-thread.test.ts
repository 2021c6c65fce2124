/** The generator's thread: the random stream carried over, and a failed insert ends the generation with its error. */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openMarketForWrite } from "../../src/db/connection";
import { attachNewWorks } from "../../src/pipeline/db/works-file";
import { batchBuffers, forEachRow, generateOnThread, RowColumns } from "../../src/pipeline/seed/generate-thread";
import { buildSales, planArtists, SCALE_SPECS } from "../../src/pipeline/seed/market";
import { Random } from "../../src/market/random";
import { CURRENCY_CODES } from "../../src/market/currencies";
import { writeReference } from "../../src/pipeline/seed/reference";
import { fxLastDay, fxRates, marketFactor } from "../../src/pipeline/seed/series";
import { monthIndex } from "../../src/market/calendar";
import { createTruthDb } from "../../src/pipeline/seed/truth";
import { tempDataDir } from "../helpers/app";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("Random.state and Random.resume go on with the same stream", () => {
  const a = new Random(99);
  for (let i = 0; i < 10; i++) a.next();
  const b = Random.resume(a.state());
  const c = new Random(1).restore(a.state());
  const drawn = Array.from({ length: 20 }, () => a.next());
  expect(Array.from({ length: 20 }, () => b.next())).toEqual(drawn);
  expect(Array.from({ length: 20 }, () => c.next())).toEqual(drawn);
});

test("RowColumns: rows go over column by column and come back as they were", () => {
  const kinds = "nsn";
  const cols = new RowColumns(kinds, 2);
  const rows: unknown[][] = [];
  for (let i = 0; i < 9; i++) rows.push([i % 3 === 0 ? null : i * 1.25, i % 2 ? "odd" : `even ${i}`, -i]);
  for (const r of rows) cols.push(r);
  const batch = cols.take();
  expect(batch.rows).toBe(9);
  // a string column holds each distinct string once
  expect(batch.strings[1]).toEqual(["even 0", "odd", "even 2", "even 4", "even 6", "even 8"]);
  expect(batchBuffers([batch]).length).toBe(3);
  const back: unknown[][] = [];
  forEachRow(batch, kinds, (row) => back.push([...row]));
  expect(back).toEqual(rows);
  expect(Object.is(back[0]![2], -0)).toBe(true);
  // the next batch starts empty
  expect(cols.take().rows).toBe(0);
  expect(() => cols.push([1, 2, 3])).toThrow("where a string is expected");
  expect(() => cols.push(["1", "a", 3])).toThrow("where a number or null is expected");
  expect(() => cols.push([1, "a"])).toThrow("a row of 2 values");
  // a refused row is not counted
  expect(cols.take().rows).toBe(0);
});

test("an insert that fails rejects the generation with its error and stops the thread", async () => {
  const dir = tempDataDir("artmarket-generate-");
  dirs.push(dir);
  const db = openMarketForWrite(join(dir, "market.db"), dir);
  attachNewWorks(db, join(dir, "market.db"));
  const truthPath = join(dir, "truth.db");
  const truth = createTruthDb(truthPath);
  const rng = new Random(3);
  const spec = SCALE_SPECS.tiny;
  const asOf = "2026-06-15";
  const reference = writeReference(db, rng, "tiny");
  const months = monthIndex(asOf) + 1;
  const market = marketFactor(rng, months);
  const fx = fxRates(rng, CURRENCY_CODES, asOf, fxLastDay(asOf));
  const sales = buildSales(db, rng, spec, reference.houses, asOf);
  const plans = planArtists(rng, spec);
  // a lot already holds the first lot's id: the first batch's insert fails
  db.run(
    `INSERT INTO lots (id, sale_id, artwork_id, artist_id, house_id, lot_num, lot_seq, status, sale_status, sale_datetime, location_id, currency)
     VALUES (1, 1, 1, 1, 1, '1', 1, 'sold', 'closed', 0, 1, 'USD')`,
  );
  let batches = 0;
  await expect(generateOnThread(db, truthPath, { rng, spec, asOf, months, market, fx, sales }, plans, () => batches++)).rejects.toThrow("UNIQUE constraint failed: lots.id");
  expect(batches).toBe(0);
  expect((db.query("SELECT count(*) AS n FROM lots").get() as { n: number }).n).toBe(1);
  db.close();
  truth.close();
});
