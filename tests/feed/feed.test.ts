/**
 * `feed` (issue 33, item 1): a tiny seeded market fed three days, twice (byte-identical files),
 * its records checked against the market, merged in with `import --mode merge`, then fed again.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type FeedSummary, feedMarket, publicationDelay } from "../../src/pipeline/feed";
import { runImport } from "../../src/pipeline/import/run";
import { seedMarket } from "../../src/pipeline/seed";
import { catalogueMin, SCALE_SPECS } from "../../src/pipeline/seed/market";
import { unpackLogIndex } from "../../src/pipeline/seed/truth";
import { addDays, dayNumber } from "../../src/market/time";
import { tempDataDir } from "../helpers/app";

// seed 3 at this date: a top house's evening sale on the third day, published on the fourth or fifth
const SEED = 3;
const AS_OF = "2026-06-15";
const NEW_AS_OF = addDays(AS_OF, 3);
const FILES = ["manifest.json", "fx_rates.jsonl", "artist_events.jsonl", "sales.jsonl", "lots.jsonl"];

let data: string;
let out: string;
let first: FeedSummary;
let before: Database;
let after: Database;
let again: FeedSummary;
let later: Database;
let truthMonthsBefore = 0;

type Rec = Record<string, unknown> & { id: number };
const read = (dir: string, file: string): Rec[] =>
  readFileSync(join(dir, file), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rec);
const sha = (path: string) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");

beforeAll(async () => {
  data = tempDataDir();
  out = tempDataDir("artmarket-feed-");
  await seedMarket({ dataDir: data, scale: "tiny", seed: SEED, asOf: AS_OF, quiet: true, embed: false });
  const truth = new Database(join(data, "truth.db"), { readonly: true });
  truthMonthsBefore = (truth.query("SELECT log_level FROM market_truth").get() as { log_level: Uint8Array }).log_level.byteLength / 8;
  truth.close();
  const marketSha = sha(join(data, "market.db"));
  first = await feedMarket({ dataDir: data, to: join(out, "a"), days: 3, quiet: true });
  await feedMarket({ dataDir: data, to: join(out, "b"), days: 3, quiet: true });
  // feed never changes market.db
  expect(sha(join(data, "market.db"))).toBe(marketSha);
  // a copy of the market before the merge, to compare with
  before = new Database(":memory:");
  before.run(`ATTACH DATABASE '${join(data, "market.db")}' AS m`);
  for (const t of ["src_sales", "lots", "fx_rates", "auction_houses"]) before.run(`CREATE TABLE ${t} AS SELECT * FROM m.${t}`);
  before.run("DETACH DATABASE m");
  await runImport({ dataDir: data, from: join(out, "a"), mode: "merge", quiet: true, embed: false });
  after = new Database(join(data, "market.db"), { readonly: true });
  again = await feedMarket({ dataDir: data, to: join(out, "c"), days: 3, quiet: true });
  after.close();
  const copy = join(out, "after.db");
  copyFileSync(join(data, "market.db"), copy);
  await runImport({ dataDir: data, from: join(out, "c"), mode: "merge", quiet: true, embed: false });
  after = new Database(copy, { readonly: true });
  later = new Database(join(data, "market.db"), { readonly: true });
}, 300_000);

afterAll(() => {
  before?.close();
  after?.close();
  later?.close();
  rmSync(data, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

describe("feed: three days of a tiny market", () => {
  test("the same market fed the same days: byte-identical files", () => {
    expect(readdirSync(join(out, "a")).sort()).toEqual([...FILES].sort());
    for (const f of FILES) expect([f, readFileSync(join(out, "b", f), "utf8")]).toEqual([f, readFileSync(join(out, "a", f), "utf8")]);
    expect(first.counts["lots.jsonl"]).toBeGreaterThan(0);
  });

  test("the manifest: format v1 with the new as-of date", () => {
    const m = JSON.parse(readFileSync(join(out, "a", "manifest.json"), "utf8"));
    expect(m).toMatchObject({ format: "artmarket-import", version: 1, as_of: NEW_AS_OF, feed: { from: AS_OF, days: 3, seed: SEED, scale: "tiny" } });
  });

  test("the new days' FX rates: 16 currencies a day, after the as-of date, continuing the walk", () => {
    const fx = read(join(out, "a"), "fx_rates.jsonl") as unknown as { code: string; day: string; usd_per_unit: number }[];
    expect(fx.length).toBe(16 * 3);
    expect([...new Set(fx.map((r) => r.day))]).toEqual([addDays(AS_OF, 1), addDays(AS_OF, 2), NEW_AS_OF]);
    for (const r of fx) {
      if (r.code === "USD") expect(r.usd_per_unit).toBe(1);
      const last = before.query("SELECT usd_per_unit AS r FROM fx_rates WHERE code = ? AND day = ?").get(r.code, AS_OF) as { r: number };
      // a daily walk: within 10 % of the as-of rate after three days
      expect([r.code, Math.abs(Math.log(r.usd_per_unit / last.r)) < 0.1]).toEqual([r.code, true]);
    }
  });

  test("results: only for sales held in (as_of - 14 d, new as_of], published in the three days; top houses within 2 days", () => {
    const lots = read(join(out, "a"), "lots.jsonl").filter((l) => ["sold", "passed", "withdrawn"].includes(l.status as string));
    expect(lots.length).toBeGreaterThan(20);
    const sales = new Set(lots.map((l) => l.sale_id as number));
    let top = 0;
    for (const id of sales) {
      const s = before.query("SELECT house_id, start_datetime, end_datetime FROM src_sales WHERE id = ?").get(id) as {
        house_id: number;
        start_datetime: string;
        end_datetime: string;
      };
      const day = s.start_datetime.slice(0, 10);
      expect([id, day > addDays(AS_OF, -14) && day <= NEW_AS_OF]).toEqual([id, true]);
      const ended = dayNumber(s.end_datetime.slice(0, 10));
      const delay = publicationDelay(SEED, id, s.house_id <= 7);
      const published = Math.max(dayNumber(AS_OF) + 1, ended + delay);
      expect([id, published > dayNumber(AS_OF) && published <= dayNumber(NEW_AS_OF)]).toEqual([id, true]);
      if (s.house_id <= 7) {
        top++;
        expect([id, delay >= 1 && delay <= 2]).toEqual([id, true]);
      }
    }
    expect(top).toBeGreaterThan(0);
    // a sold lot carries its hammer and premium; the others neither
    for (const l of lots) {
      if (l.status === "sold") expect((l.premium as number) > (l.hammer as number) && (l.hammer as number) > 0).toBe(true);
      else expect([l.hammer, l.premium]).toEqual([undefined, undefined]);
    }
  });

  test("every top-house lot upcoming in a sale ended two days or more before the new as-of date is resolved", () => {
    const due = before
      .query(
        `SELECT l.id FROM lots l JOIN src_sales s ON s.id = l.sale_id
         WHERE l.status = 'upcoming' AND s.house_id <= 7 AND substr(s.end_datetime, 1, 10) <= ? ORDER BY l.id`,
      )
      .all(addDays(NEW_AS_OF, -2)) as { id: number }[];
    expect(due.length).toBeGreaterThan(0);
    const fed = new Map(read(join(out, "a"), "lots.jsonl").map((l) => [l.id, l.status]));
    for (const { id } of due) expect([id, ["sold", "passed", "withdrawn"].includes(fed.get(id) as string)]).toEqual([id, true]);
  });

  test("a sale held but not yet published is closed with its lots unknown", () => {
    const sales = read(join(out, "a"), "sales.jsonl");
    const lots = read(join(out, "a"), "lots.jsonl");
    const unknown = lots.filter((l) => l.status === "unknown");
    expect(unknown.length).toBeGreaterThan(0);
    for (const l of unknown) {
      const s = sales.find((x) => x.id === l.sale_id)!;
      expect(s.status).toBe("closed");
      expect((s.house_id as number) > 7).toBe(true);
      expect(lots.some((x) => x.sale_id === l.sale_id && x.status !== "unknown")).toBe(false);
    }
    expect(first.pendingSales).toBe(new Set(unknown.map((l) => l.sale_id)).size);
  });

  test("the truth covers the new months, whatever the feed's length", async () => {
    const to = join(out, "long");
    const long = await feedMarket({ dataDir: data, to, days: 45, quiet: true });
    const truth = new Database(join(data, "truth.db"), { readonly: true });
    const months = (truth.query("SELECT log_level FROM market_truth").get() as { log_level: Uint8Array }).log_level.byteLength / 8;
    expect(months).toBe(truthMonthsBefore + 2);
    const a = truth.query("SELECT first_log_index, log_index_steps FROM artist_truth WHERE artist_id = 1").get() as { first_log_index: number; log_index_steps: Uint8Array };
    expect(unpackLogIndex(a.first_log_index, a.log_index_steps).length).toBe(months);
    truth.close();
    // and the new sales: eight weeks ahead, after the new as-of date, each with a catalogue of its tier and kind
    const sales = read(to, "sales.jsonl").filter((s) => s.id > (before.query("SELECT max(id) AS n FROM src_sales").get() as { n: number }).n);
    expect(long.newSales).toBe(sales.length);
    expect(sales.length).toBeGreaterThan(2);
    const lots = read(to, "lots.jsonl");
    for (const s of sales) {
      expect([s.id, (s.start_datetime as string).slice(0, 10) > addDays(AS_OF, 45), s.status]).toEqual([s.id, true, "upcoming"]);
      const held = lots.filter((l) => l.sale_id === s.id);
      const tier = (s.house_id as number) <= 7 ? 0 : (s.house_id as number) <= 10 ? 1 : 2;
      const kind = s.is_online ? 2 : (s.start_datetime as string).slice(11, 16) === "19:00" ? 1 : 0;
      expect([s.id, held.length >= catalogueMin(SCALE_SPECS.tiny.lotsPerSale, tier, kind)]).toEqual([s.id, true]);
      for (const l of held) expect([l.status, (l.estimate_max as number) > (l.estimate_min as number)]).toEqual(["upcoming", true]);
    }
    // the works consigned are not on offer elsewhere
    const works = lots.filter((l) => l.status === "upcoming").map((l) => l.artwork_id);
    expect(new Set(works).size).toBe(works.length);
  });
});

describe("import --mode merge of the feed", () => {
  test("the market's as-of date is the new one; no rate, no result after it", () => {
    expect(after.query("SELECT value FROM market_meta WHERE key = 'as_of'").get()).toEqual({ value: NEW_AS_OF });
    expect(after.query("SELECT max(day) AS d FROM fx_rates").get()).toEqual({ d: NEW_AS_OF });
    const late = after.query("SELECT count(*) AS n FROM lots WHERE status IN ('sold', 'passed', 'withdrawn') AND date(sale_datetime, 'unixepoch') > ?").get(NEW_AS_OF);
    expect(late).toEqual({ n: 0 });
  });

  test("the resolved lots hold their statuses, hammers and USD prices at the sale day's rate", () => {
    const fed = read(join(out, "a"), "lots.jsonl");
    for (const l of fed) {
      const row = after.query("SELECT status, hammer, premium, hammer_usd_cents, currency, date(sale_datetime, 'unixepoch') AS day FROM lots WHERE id = ?").get(l.id) as {
        status: string;
        hammer: number | null;
        premium: number | null;
        hammer_usd_cents: number | null;
        currency: string;
        day: string;
      };
      const want: unknown[] = [l.id, l.status, (l.hammer as number | undefined) ?? null, (l.premium as number | undefined) ?? null];
      expect([l.id, row.status, row.hammer, row.premium] as unknown[]).toEqual(want);
      if (row.hammer !== null) {
        const rate = row.currency === "USD" ? 1 : (after.query("SELECT usd_per_unit AS r FROM fx_rates WHERE code = ? AND day = ?").get(row.currency, row.day) as { r: number }).r;
        expect(row.hammer_usd_cents).toBe(Math.round(row.hammer * rate * 100));
      }
    }
    // the served sales follow
    const resolved = fed.filter((l) => l.status === "sold");
    expect(resolved.length).toBeGreaterThan(10);
    expect(after.query("SELECT count(*) AS n FROM lots WHERE status = 'upcoming' AND sale_status = 'closed'").get()).toEqual({ n: 0 });
  });

  test("each house's latest result never goes back, and those that published moved to their sales (days 1 to 6)", () => {
    const latest = (d: Database) =>
      new Map(
        (
          d.query("SELECT house_id, max(date(sale_datetime, 'unixepoch')) AS day FROM lots WHERE status IN ('sold', 'passed', 'withdrawn') GROUP BY house_id").all() as {
            house_id: number;
            day: string;
          }[]
        ).map((r) => [r.house_id, r.day]),
      );
    const was = latest(before);
    const now = latest(later);
    for (const [house, day] of was) expect([house, (now.get(house) ?? "") >= day]).toEqual([house, true]);
    const fed = [...read(join(out, "a"), "lots.jsonl"), ...read(join(out, "c"), "lots.jsonl")];
    const published = later
      .query(
        `SELECT s.house_id, max(substr(s.start_datetime, 1, 10)) AS day FROM src_sales s WHERE s.id IN (${[
          ...new Set(fed.filter((l) => l.status !== "unknown" && l.status !== "upcoming").map((l) => l.sale_id)),
        ].join(",")}) GROUP BY s.house_id`,
      )
      .all() as { house_id: number; day: string }[];
    expect(published.length).toBeGreaterThan(0);
    for (const p of published) expect([p.house_id, now.get(p.house_id)! >= p.day]).toEqual([p.house_id, true]);
    // some house's latest result moved forward, past the first as-of date
    expect([...now].some(([house, day]) => day > (was.get(house) ?? "") && day > AS_OF)).toBe(true);
    expect(later.query("SELECT value FROM market_meta WHERE key = 'as_of'").get()).toEqual({ value: addDays(AS_OF, 6) });
  });

  test("truth.db is kept by the merge, and feeding again goes on: days 4 to 6", () => {
    expect(again.from).toBe(NEW_AS_OF);
    expect(again.asOf).toBe(addDays(AS_OF, 6));
    const fx = read(join(out, "c"), "fx_rates.jsonl") as unknown as { day: string }[];
    expect([...new Set(fx.map((r) => r.day))]).toEqual([addDays(AS_OF, 4), addDays(AS_OF, 5), addDays(AS_OF, 6)]);
    // nothing already resolved comes back
    const done = new Set(
      read(join(out, "a"), "lots.jsonl")
        .filter((l) => l.status !== "unknown")
        .map((l) => l.id),
    );
    for (const l of read(join(out, "c"), "lots.jsonl")) expect([l.id, done.has(l.id)]).toEqual([l.id, false]);
  });
});
