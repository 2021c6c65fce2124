/** The synthetic market generator: determinism and the properties of the model. */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { FxCache } from "../../src/db/fx";
import { LOT_INDEXES } from "../../src/db/market-indexes";
import { seedMarket, type SeedSummary } from "../../src/pipeline/seed";
import { catalogueMin, hammerIncrement, niceEstimate, SCALE_SPECS, withPremium } from "../../src/pipeline/seed/market";
import { sizeBucket } from "../../src/market/sizes";
import { tempDataDir } from "../helpers/app";
import { tableHash } from "../helpers/rows";

const AS_OF = "2026-06-15";
let dirA: string;
let dirB: string;
let db: Database;
let summary: SeedSummary;
let summaryB: SeedSummary;

beforeAll(async () => {
  dirA = tempDataDir();
  dirB = tempDataDir();
  // A generates and inserts on one thread and builds every read index after the derivation; B
  // generates on a thread of its own and builds the lots' read indexes beside the derivation.
  // Neither embeds its images (the generator is the subject here; tests/images/vectors.test.ts
  // covers the embedding), which spares about 10 s of the two busy cores.
  [summary, summaryB] = await Promise.all([
    seedMarket({ dataDir: dirA, scale: "tiny", seed: 42, asOf: AS_OF, quiet: true, generatorThread: false, earlyLotIndexes: false, embed: false }),
    seedMarket({ dataDir: dirB, scale: "tiny", seed: 42, asOf: AS_OF, quiet: true, generatorThread: true, earlyLotIndexes: true, embed: false }),
  ]);
  db = new Database(join(dirA, "market.db"), { readonly: true });
});
afterAll(() => {
  db.close();
  rmSync(dirA, { recursive: true, force: true });
  rmSync(dirB, { recursive: true, force: true });
});

const all = <T>(sql: string, ...params: (string | number)[]) => db.query(sql).all(...params) as T[];
const one = <T>(sql: string, ...params: (string | number)[]) => db.query(sql).get(...params) as T;

describe("determinism (one seed generated on this thread, the other on a thread of its own)", () => {
  for (const table of ["src_artists", "src_sales", "lots", "lot_notes", "images", "artist_events", "fx_rates", "benchmarks"]) {
    test(`same seed and as-of date: ${table} identical row for row`, () => {
      const other = new Database(join(dirB, "market.db"), { readonly: true });
      expect(tableHash(other, table)).toBe(tableHash(db, table));
      other.close();
    });
  }

  test("the lots' read indexes built beside the derivation: the same schema, the same derived rows", () => {
    expect(summary.early).toBeNull();
    expect(summaryB.early!.total).toBe(LOT_INDEXES.length);
    expect(summaryB.early!.built).toBeLessThanOrEqual(LOT_INDEXES.length);
    const other = new Database(join(dirB, "market.db"), { readonly: true });
    const schema = (d: Database) => d.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").all();
    expect(schema(other)).toEqual(schema(db));
    for (const table of ["artists", "artworks", "artist_charts", "artist_analytics", "market_index", "sales"]) {
      expect([table, tableHash(other, table)]).toEqual([table, tableHash(db, table)]);
    }
    expect((other.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    other.close();
  });

  test("same seed: the truth identical row for row", () => {
    const [a, b] = [dirA, dirB].map((d) => new Database(join(d, "truth.db"), { readonly: true }));
    for (const table of ["market_truth", "artist_truth", "artwork_truth", "truth_meta"]) {
      expect([table, tableHash(b!, table)]).toEqual([table, tableHash(a!, table)]);
    }
    expect(a!.query("SELECT count(*) AS n FROM artwork_truth").get()).toEqual({ n: summary.counts.artworks });
    a!.close();
    b!.close();
  });

  test("the truth is written beside the market, not in it", () => {
    const truth = new Database(join(dirA, "truth.db"), { readonly: true });
    expect(truth.query("SELECT count(*) AS n FROM artist_truth").get()).toEqual({ n: summary.counts.artists });
    expect(truth.query("SELECT count(*) AS n FROM artwork_truth").get()).toEqual({ n: summary.counts.artworks });
    truth.close();
    const tables = all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => r.name);
    expect(tables.some((t) => t.includes("truth"))).toBe(false);
  });
});

describe("the model", () => {
  test("scale: about the contract's tiny size", () => {
    expect(summary.counts.artists).toBe(200);
    expect(summary.counts.lots).toBeGreaterThan(3_000);
    expect(summary.counts.lots).toBeLessThan(6_000);
  });

  test("repeat sales exist: artworks sold two or more times", () => {
    const { n } = one<{ n: number }>("SELECT count(*) AS n FROM (SELECT artwork_id FROM lots WHERE status = 'sold' GROUP BY artwork_id HAVING count(*) >= 2)");
    expect(n).toBeGreaterThan(200);
  });

  test("buy-in rate, withdrawals and upcoming lots in plausible ranges", () => {
    const rows = all<{ status: string; n: number }>("SELECT status, count(*) AS n FROM lots GROUP BY status");
    const total = rows.reduce((s, r) => s + r.n, 0);
    const share = (s: string) => (rows.find((r) => r.status === s)?.n ?? 0) / total;
    const offered = share("sold") + share("passed");
    expect(share("passed") / offered).toBeGreaterThan(0.1);
    expect(share("passed") / offered).toBeLessThan(0.4);
    expect(share("withdrawn")).toBeGreaterThan(0.005);
    expect(share("withdrawn")).toBeLessThan(0.08);
    expect(share("upcoming")).toBeGreaterThan(0);
  });

  test("prices: only sold lots have a hammer; premium above hammer; estimates ordered", () => {
    expect(one("SELECT count(*) AS n FROM lots WHERE status != 'sold' AND hammer IS NOT NULL")).toEqual({ n: 0 });
    expect(one("SELECT count(*) AS n FROM lots WHERE status = 'sold' AND (hammer IS NULL OR premium <= hammer)")).toEqual({ n: 0 });
    expect(one("SELECT count(*) AS n FROM lots WHERE estimate_min >= estimate_max")).toEqual({ n: 0 });
    expect(one("SELECT count(*) AS n FROM lots WHERE hammer_usd_cents IS NULL AND status = 'sold'")).toEqual({ n: 0 });
  });

  test("FX: every USD price is the native price at the sale day's reference rate", () => {
    const rows = all<{ hammer: number; hammer_usd: number; estimate_min: number; estimate_min_usd: number; rate: number; currency: string }>(
      `SELECT l.hammer, l.hammer_usd_cents / 100.0 AS hammer_usd, l.estimate_min, l.estimate_min_usd_cents / 100.0 AS estimate_min_usd, f.usd_per_unit AS rate, l.currency
       FROM lots l JOIN fx_rates f ON f.code = l.currency AND f.day = date(l.sale_datetime, 'unixepoch')
       WHERE l.status = 'sold'`,
    );
    expect(rows.length).toBeGreaterThan(1000);
    for (const r of rows) {
      expect(Math.abs(r.hammer * r.rate - r.hammer_usd)).toBeLessThanOrEqual(0.01);
      expect(Math.abs(r.estimate_min * r.rate - r.estimate_min_usd)).toBeLessThanOrEqual(0.01);
      if (r.currency === "USD") expect(r.rate).toBe(1);
    }
    expect(new Set(rows.map((r) => r.currency)).size).toBeGreaterThan(3);
  });

  test("a lot's currency is its sale's, and its sale status and date are its sale's", () => {
    expect(
      one(`SELECT count(*) AS n FROM lots l JOIN src_sales s ON s.id = l.sale_id
           WHERE l.currency != s.currency OR l.sale_status != s.status OR l.sale_datetime != unixepoch(s.start_datetime) OR l.house_id != s.house_id`),
    ).toEqual({ n: 0 });
  });

  test("sale statuses follow the as-of date", () => {
    const now = `${AS_OF}T12:00:00Z`;
    const bad = all<{ status: string; start_datetime: string; end_datetime: string }>("SELECT status, start_datetime, end_datetime FROM src_sales").filter((s) =>
      s.status === "closed" ? s.end_datetime >= now : s.status === "upcoming" ? s.start_datetime <= now : s.start_datetime > now || s.end_datetime < now,
    );
    expect(bad).toEqual([]);
    const statuses = new Set(all<{ status: string }>("SELECT DISTINCT status FROM src_sales").map((r) => r.status));
    expect(statuses).toEqual(new Set(["closed", "upcoming", "live", "session_off"]));
  });

  test("lots of upcoming sales are upcoming, with estimates and no hammer", () => {
    expect(one("SELECT count(*) AS n FROM lots WHERE sale_status = 'upcoming' AND (status != 'upcoming' OR estimate_min IS NULL)")).toEqual({ n: 0 });
    expect(one("SELECT count(*) AS n FROM lots WHERE sale_status = 'closed' AND status = 'upcoming'")).toEqual({ n: 0 });
  });

  test("as of its date: no FX rate and no result after it; upcoming lots in USD at the as-of rate (issue 33)", () => {
    expect(one("SELECT max(day) AS d FROM fx_rates")).toEqual({ d: AS_OF });
    expect(one("SELECT count(DISTINCT code) AS n FROM fx_rates WHERE day = ?", AS_OF)).toEqual({ n: 16 });
    // every lot with a result (sold, passed, withdrawn) is of a sale dated on or before the as-of date
    expect(one("SELECT max(date(sale_datetime, 'unixepoch')) AS d FROM lots WHERE status != 'upcoming'")).toEqual({ d: AS_OF });
    // the only later dates are the announced sales' and their upcoming lots'
    expect(one("SELECT count(*) AS n FROM src_sales WHERE substr(start_datetime, 1, 10) > ? AND status != 'upcoming'", AS_OF)).toEqual({ n: 0 });
    expect(one("SELECT count(*) AS n FROM lots WHERE date(sale_datetime, 'unixepoch') > ? AND status != 'upcoming'", AS_OF)).toEqual({ n: 0 });
    const rows = all<{ currency: string; estimate_min: number; estimate_max: number; min_usd: number; max_usd: number; rate: number }>(
      `SELECT l.currency, l.estimate_min, l.estimate_max, l.estimate_min_usd_cents AS min_usd, l.estimate_max_usd_cents AS max_usd, f.usd_per_unit AS rate
       FROM lots l JOIN fx_rates f ON f.code = l.currency AND f.day = ? WHERE date(l.sale_datetime, 'unixepoch') > ?`,
      AS_OF,
      AS_OF,
    );
    const future = one<{ n: number }>("SELECT count(*) AS n FROM lots WHERE date(sale_datetime, 'unixepoch') > ?", AS_OF).n;
    expect(rows.length).toBe(future);
    expect(future).toBeGreaterThan(100);
    expect(new Set(rows.map((r) => r.currency)).size).toBeGreaterThan(2);
    for (const r of rows) {
      expect([r.currency, r.min_usd]).toEqual([r.currency, Math.round(r.estimate_min * r.rate * 100)]);
      expect([r.currency, r.max_usd]).toEqual([r.currency, Math.round(r.estimate_max * r.rate * 100)]);
    }
    // and the API's conversions (the FX cache) take the as-of rate for a later day
    const fx = FxCache.load(db);
    const gbp = one<{ r: number }>("SELECT usd_per_unit AS r FROM fx_rates WHERE code = 'GBP' AND day = ?", AS_OF).r;
    expect(fx.usdPerUnit("GBP", "2026-07-30T19:00:00Z")).toBe(gbp);
    expect(fx.fromUsd(1000, "GBP", "2026-08-01")).toBe(Math.round((1000 / gbp) * 100) / 100);
  });

  describe("the coming sales' catalogues (upcoming, live, session_off)", () => {
    // tiny: 20 houses, the seven top ones tier 0, the next max(3, 20 / 10) tier 1; 25 lots per sale
    const TIER_SQL = "CASE WHEN s.house_id <= 7 THEN 0 WHEN s.house_id <= 10 THEN 1 ELSE 2 END";
    const KIND_SQL = "CASE WHEN s.is_online THEN 2 WHEN substr(s.start_datetime, 12, 5) = '19:00' THEN 1 ELSE 0 END";
    type Coming = { id: number; house_id: number; status: string; tier: number; kind: number; lots: number };
    const coming = (d: Database) =>
      d
        .query(
          `SELECT s.id, s.house_id, s.status, ${TIER_SQL} AS tier, ${KIND_SQL} AS kind, (SELECT count(*) FROM lots l WHERE l.sale_id = s.id) AS lots
           FROM src_sales s WHERE s.status != 'closed' ORDER BY s.id`,
        )
        .all() as Coming[];

    test("every coming sale holds a catalogue of its tier and kind: at least N lots", () => {
      // N at tiny (25 lots per sale): tier 0 day 36, evening 20, online 30; tier 1 30; tier 2 20
      const n = SCALE_SPECS.tiny.lotsPerSale;
      expect([0, 1, 2].map((kind) => catalogueMin(n, 0, kind))).toEqual([36, 20, 30]);
      expect([0, 1, 2].map((kind) => catalogueMin(n, 1, kind))).toEqual([30, 30, 30]);
      expect([0, 1, 2].map((kind) => catalogueMin(n, 2, kind))).toEqual([20, 20, 20]);
      const sales = coming(db);
      expect(new Set(sales.map((s) => s.status))).toEqual(new Set(["upcoming", "live", "session_off"]));
      expect(sales.length).toBeGreaterThanOrEqual(13);
      for (const s of sales) expect([s.id, s.lots >= catalogueMin(n, s.tier, s.kind)]).toEqual([s.id, true]);
      // dozens, not hundreds, at this scale: a sale at most twice its tier's largest size
      for (const s of sales) expect(s.lots).toBeLessThanOrEqual(2 * 1.8 * 1.25 * n);
    });

    test("the counts are deterministic: the same per sale on either generator path", () => {
      const other = new Database(join(dirB, "market.db"), { readonly: true });
      expect(coming(other)).toEqual(coming(db));
      other.close();
    });

    test("a top house's evening sale holds its most valuable coming lots", () => {
      const lots = all<{ house_id: number; evening: number; mid: number }>(
        `SELECT s.house_id, ${KIND_SQL} = 1 AS evening, sqrt(l.estimate_min_usd_cents * l.estimate_max_usd_cents) / 100 AS mid
         FROM lots l JOIN src_sales s ON s.id = l.sale_id WHERE s.status != 'closed' AND s.house_id <= 7`,
      );
      const houses = [...new Set(lots.filter((l) => l.evening).map((l) => l.house_id))];
      expect(houses.length).toBeGreaterThanOrEqual(1);
      for (const house of houses) {
        const evening = lots.filter((l) => l.house_id === house && l.evening).map((l) => l.mid);
        const others = lots.filter((l) => l.house_id === house && !l.evening).map((l) => l.mid);
        // the house's highest estimate is in its evening sale, and every evening lot is estimated
        // at least as high as the house's other lots, up to the rounding of printed estimates
        expect(Math.max(...evening)).toBeGreaterThan(Math.max(0, ...others));
        expect(Math.min(...evening)).toBeGreaterThanOrEqual(0.8 * Math.max(0, ...others));
      }
      // and the top houses' coming lots are worth more than the others'
      const avg = all<{ top: number; mid: number }>(
        `SELECT s.house_id <= 7 AS top, avg(l.estimate_max_usd_cents) / 100 AS mid FROM lots l JOIN src_sales s ON s.id = l.sale_id
         WHERE s.status != 'closed' GROUP BY top ORDER BY top`,
      );
      expect(avg[1]!.mid).toBeGreaterThan(avg[0]!.mid * 3);
    });

    test("a sale under way has offered the first half of its catalogue; the rest is upcoming", () => {
      const sales = coming(db).filter((s) => s.status !== "upcoming");
      expect(sales.length).toBe(4);
      for (const s of sales) {
        const rows = all<{ lot_seq: number; status: string; hammer: number | null }>("SELECT lot_seq, status, hammer FROM lots WHERE sale_id = ? ORDER BY lot_seq", s.id);
        const offered = Math.floor(rows.length / 2);
        expect(rows.map((r) => r.lot_seq)).toEqual(rows.map((_, i) => i + 1));
        expect(rows.slice(0, offered).every((r) => ["sold", "passed", "withdrawn"].includes(r.status))).toBe(true);
        expect(rows.slice(offered).every((r) => r.status === "upcoming" && r.hammer === null)).toBe(true);
        expect(rows.slice(0, offered).filter((r) => r.status === "sold" && r.hammer !== null).length).toBeGreaterThan(offered / 2);
      }
    });
  });

  test("an artwork's lots come in time order, never two in one sale", () => {
    expect(
      one(`SELECT count(*) AS n FROM lots a JOIN lots b ON a.artwork_id = b.artwork_id AND a.id < b.id
           WHERE b.sale_datetime <= a.sale_datetime`),
    ).toEqual({ n: 0 });
  });

  test("editions form ladders: one artist, distinct numbers within the edition size", () => {
    const groups = all<{ g: number; copies: number; artists: number; numbers: number; size: number; max: number }>(
      `SELECT edition_group_id AS g, count(*) AS copies, count(DISTINCT artist_id) AS artists,
              count(DISTINCT edition_number) AS numbers, max(edition_size) AS size, max(edition_number) AS max
       FROM artworks WHERE edition_group_id IS NOT NULL GROUP BY edition_group_id`,
    );
    expect(groups.length).toBeGreaterThan(20);
    expect(groups.filter((g) => g.copies >= 2).length).toBeGreaterThan(10);
    for (const g of groups) {
      expect(g.artists).toBe(1);
      expect(g.numbers).toBe(g.copies);
      expect(g.max).toBeLessThanOrEqual(g.size);
    }
  });

  test("works are made inside the artist's career and sold after they are made", () => {
    expect(
      one(`SELECT count(*) AS n FROM artworks w JOIN src_artists a ON a.id = w.artist_id
           WHERE w.creation_year < a.birth + 10 OR (a.death IS NOT NULL AND w.creation_year > a.death)`),
    ).toEqual({ n: 0 });
    expect(
      one(`SELECT count(*) AS n FROM lots l JOIN artworks w ON w.id = l.artwork_id
           WHERE CAST(strftime('%Y', l.sale_datetime, 'unixepoch') AS INTEGER) < w.creation_year`),
    ).toEqual({ n: 0 });
  });

  test("each artwork is kept once: the served artworks hold the source columns, no src_artworks, no works file left", () => {
    const tables = all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => r.name);
    expect(tables).toContain("artworks");
    expect(tables).not.toContain("src_artworks");
    expect(readdirSync(dirA).filter((f) => f.includes("works") || f.includes("building"))).toEqual([]);
    // signed comes from the generator (about 70 % of works), not a default
    const signed = one<{ yes: number; no: number }>("SELECT sum(signed = 1) AS yes, sum(signed = 0) AS no FROM artworks");
    expect(signed.yes).toBeGreaterThan(signed.no);
    expect(signed.no).toBeGreaterThan(0);
  });

  test("lot notes: each text once in lot_notes, never empty; a lot without notes names none", () => {
    const notes = one<{ rows: number; texts: number; empty: number }>("SELECT count(*) AS rows, count(DISTINCT text) AS texts, sum(text = '') AS empty FROM lot_notes");
    expect(notes.rows).toBeGreaterThan(5);
    expect(notes.texts).toBe(notes.rows);
    expect(notes.empty).toBe(0);
    const lots = one<{ named: number; none: number; dangling: number }>(
      `SELECT sum(notes_id IS NOT NULL) AS named, sum(notes_id IS NULL) AS none,
              sum(notes_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM lot_notes n WHERE n.id = lots.notes_id)) AS dangling FROM lots`,
    );
    expect(lots.dangling).toBe(0);
    // unsigned works without an added phrase have none; most lots have some
    expect(lots.none).toBeGreaterThan(0);
    expect(lots.named).toBeGreaterThan(lots.none);
    expect(one<{ n: number }>("SELECT count(*) AS n FROM lot_notes WHERE text LIKE 'signed and dated%'").n).toBeGreaterThan(0);
  });

  test("every artwork has an image at tiny scale; the seven top houses come first", () => {
    expect(one("SELECT count(*) AS n FROM artworks WHERE image_id IS NULL")).toEqual({ n: 0 });
    expect(all<{ priority_order: number }>("SELECT priority_order FROM auction_houses ORDER BY priority_order LIMIT 7").map((r) => r.priority_order)).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);
  });

  test("the top houses sell the most valuable lots", () => {
    const rows = all<{ top: number; avg: number }>("SELECT house_id <= 7 AS top, avg(hammer_usd_cents) / 100 AS avg FROM lots WHERE status = 'sold' GROUP BY top ORDER BY top");
    expect(rows[1]!.avg).toBeGreaterThan(rows[0]!.avg * 3);
  });

  test("benchmarks are labelled synthetic; Bitcoin starts in 2010", () => {
    expect(all("SELECT id FROM benchmark_series WHERE synthetic = 0")).toEqual([]);
    expect(one<{ m: string }>("SELECT min(month) AS m FROM benchmarks WHERE series = 'BITCOIN_USD'").m).toBe("2010-07");
    expect(one<{ m: string }>("SELECT min(month) AS m FROM benchmarks WHERE series = 'SNP500'").m).toBe("1986-01");
  });
});

describe("pricing helpers", () => {
  test("tiered buyer's premium: 26 % to $1M, 21 % to $6M, 15 % above", () => {
    expect(withPremium(100_000, 1)).toBe(126_000);
    expect(withPremium(2_000_000, 1)).toBe(2_000_000 + 260_000 + 210_000);
    expect(withPremium(10_000_000, 1)).toBe(10_000_000 + 260_000 + 1_050_000 + 600_000);
    // thresholds apply in USD: £1M at 1.25 USD/GBP is $1.25M
    expect(withPremium(1_000_000, 1.25)).toBe(Math.round(1_000_000 + (1_000_000 * 0.26 + 250_000 * 0.21) / 1.25));
  });
  test("estimates and hammers are round figures", () => {
    expect(niceEstimate(12_345)).toBe(12_000);
    expect(niceEstimate(2_760)).toBe(3_000);
    expect(hammerIncrement(12_345)).toBe(12_000);
    expect(hammerIncrement(987)).toBe(990);
  });
  test("size buckets", () => {
    expect(sizeBucket(30, 35, null)).toBe("small");
    expect(sizeBucket(80, 60, null)).toBe("medium");
    expect(sizeBucket(150, 90, null)).toBe("big");
    expect(sizeBucket(40, 30, 20)).toBe("other");
    expect(sizeBucket(null, null, null)).toBe("other");
  });
});
