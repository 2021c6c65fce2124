import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { marketDbPath, openAccountDb, openMarketReader } from "../../src/db/connection";
import { packDocument, unpackDocument } from "../../src/db/documents";
import { migrate } from "../../src/db/migrate";
import { marketMigrations } from "../../src/db/migrations/embedded";
import { dayNumber, epochSeconds, fromDayNumber, isoOfSeconds } from "../../src/market/time";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A data dir whose market.db has only the first `migrations` of this build's (as an older build left it), open for writing. */
function olderMarket(migrations: number): { dir: string; old: Database } {
  const dir = mkdtempSync(join(tmpdir(), "artmarket-format-"));
  dirs.push(dir);
  openAccountDb(dir).close();
  const old = new Database(marketDbPath(dir), { create: true, strict: true });
  migrate(old, marketMigrations.slice(0, migrations), "market.db");
  return { dir, old };
}

describe("stored formats", () => {
  test("analytics documents: zstd-compressed JSON, smaller than the text, read back equal; text bodies still read", () => {
    const doc = [{ medium: "Painting", points: Array.from({ length: 60 }, (_, i) => ({ year: 1950 + i, value: i % 7 === 0 ? 1234.5 : 0 })) }];
    const packed = packDocument(doc);
    expect(packed).toBeInstanceOf(Uint8Array);
    expect(packed.length).toBeLessThan(JSON.stringify(doc).length / 4);
    expect(unpackDocument(packed)).toEqual(doc);
    expect(unpackDocument(JSON.stringify(doc))).toEqual(doc);
  });

  test("lot sale times: Unix seconds; bounds round to whole seconds inward", () => {
    expect(epochSeconds("2024-05-14T18:00:00Z")).toBe(Date.UTC(2024, 4, 14, 18) / 1000);
    expect(epochSeconds("2024-05-14")).toBe(Date.UTC(2024, 4, 14) / 1000);
    expect(epochSeconds("2024-05-14T18:00:00.250Z", "lower")).toBe(Date.UTC(2024, 4, 14, 18) / 1000 + 1);
    expect(epochSeconds("2024-05-14T18:00:00.250Z", "upper")).toBe(Date.UTC(2024, 4, 14, 18) / 1000);
    expect(isoOfSeconds(Date.UTC(1986, 0, 2, 9, 30) / 1000)).toBe("1986-01-02T09:30:00Z");
  });
});

describe("a market built before lots stored seconds", () => {
  test("is migrated when the service opens it: same instants as seconds, documents kept, read indexes rebuilt", () => {
    const { dir, old } = olderMarket(1);
    const insert = old.query(
      `INSERT INTO lots (id, sale_id, artwork_id, artist_id, house_id, lot_num, lot_seq, status, sale_status, sale_datetime, location_id, currency, hammer)
       VALUES (?, 1, ?, 1, 1, ?, ?, 'sold', 'closed', ?, 1, 'USD', 1000)`,
    );
    const times = ["1988-03-01T18:00:00Z", "2024-05-14T10:30:00Z", "2024-05-14T10:30:00Z", "2026-11-30T19:00:00Z"];
    times.forEach((t, i) => insert.run(i + 1, i + 1, String(i + 1), i + 1, t));
    const body = JSON.stringify([{ horizon_years: 1, sharpe_ratio: 0.5 }]);
    old.query("INSERT INTO artist_analytics (artist_id, kind, body) VALUES (1, 'sharpe-ratio', ?)").run(body);
    old.close();

    const db = openMarketReader(dir);
    try {
      const lots = db.query("SELECT id, sale_datetime, typeof(sale_datetime) AS type FROM lots ORDER BY id").all() as { id: number; sale_datetime: number; type: string }[];
      expect(lots.map((l) => l.type)).toEqual(["integer", "integer", "integer", "integer"]);
      expect(lots.map((l) => isoOfSeconds(l.sale_datetime))).toEqual(times);
      const stored = db.query("SELECT body FROM artist_analytics WHERE artist_id = 1").get() as { body: string | Uint8Array };
      expect(unpackDocument(stored.body)).toEqual(JSON.parse(body));
      const indexes = new Set((db.query("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((r) => r.name));
      for (const name of ["lots_artist_date", "lots_date", "lots_withdrawn", "lots_house_date", "lots_hammer_usd"]) expect(indexes.has(name)).toBe(true);
      expect(indexes.has("lots_status_date")).toBe(false);
      const plan = db.query("EXPLAIN QUERY PLAN SELECT id FROM lots WHERE status = 'withdrawn' ORDER BY sale_datetime DESC LIMIT 5").all() as { detail: string }[];
      expect(plan.map((p) => p.detail).join(" ")).toContain("lots_withdrawn");
    } finally {
      db.close();
    }
    // opened again: nothing left to migrate, nothing rebuilt
    const again = new Database(marketDbPath(dir), { readonly: true });
    expect((again.query("SELECT count(*) AS n FROM __migrations").get() as { n: number }).n).toBe(marketMigrations.length);
    again.close();
  });
});

describe("a market built with src_artworks, repeat_pairs and lots' notes as text in market.db", () => {
  test("is migrated when the service opens it: signed copied into artworks, notes into lot_notes; src_artworks, repeat_pairs, the stored slug gone", () => {
    const { dir, old } = olderMarket(2);
    const src = old.query(`INSERT INTO src_artworks (id, uid, artist_id, title, category_id, medium, signed) VALUES (?, ?, 1, ?, 1, 'oil on canvas', ?)`);
    const served = old.query(
      `INSERT INTO artworks (id, uid, slug, artist_id, title, category_id, medium, material_ids, size_bucket, lots_count, last_lot_status, currency, artist_market_cap)
       VALUES (?, ?, ?, 1, ?, 1, 'oil on canvas', '', 'small', 0, 'unknown', 'USD', 0)`,
    );
    [
      [1, "aw-1", "Dawn", 1],
      [2, "aw-2", "Dusk", 0],
      [3, "aw-3", "Noon", 1],
    ].forEach(([id, uid, title, signed]) => {
      src.run(id as number, uid as string, title as string, signed as number);
      served.run(id as number, uid as string, `${(title as string).toLowerCase()}-${id}`, title as string);
    });
    const lot = old.query(
      `INSERT INTO lots (id, sale_id, artwork_id, artist_id, house_id, lot_num, lot_seq, status, sale_status, sale_datetime, location_id, currency, notes)
       VALUES (?, 1, 1, 1, 1, ?, ?, 'sold', 'closed', 0, 1, 'USD', ?)`,
    );
    ["signed lower right", "", "signed lower right", "provenance: the artist"].forEach((notes, i) => lot.run(i + 1, String(i + 1), i + 1, notes));
    old.close();

    openMarketReader(dir).close();
    const db = new Database(marketDbPath(dir), { readonly: true });
    try {
      expect(db.query("SELECT id, uid, title, signed FROM artworks ORDER BY id").all()).toEqual([
        { id: 1, uid: "aw-1", title: "Dawn", signed: 1 },
        { id: 2, uid: "aw-2", title: "Dusk", signed: 0 },
        { id: 3, uid: "aw-3", title: "Noon", signed: 1 },
      ]);
      const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
      expect(tables).not.toContain("src_artworks");
      expect(tables).not.toContain("repeat_pairs");
      expect((db.query("SELECT name FROM pragma_table_info('artworks')").all() as { name: string }[]).map((c) => c.name)).not.toContain("slug");
      // lots' notes: each text once in lot_notes, named by id
      expect(db.query("SELECT l.id, n.text FROM lots l LEFT JOIN lot_notes n ON n.id = l.notes_id ORDER BY l.id").all()).toEqual([
        { id: 1, text: "signed lower right" },
        { id: 2, text: null },
        { id: 3, text: "signed lower right" },
        { id: 4, text: "provenance: the artist" },
      ]);
      expect(db.query("SELECT count(*) AS n FROM lot_notes").get()).toEqual({ n: 2 });
      expect((db.query("SELECT name FROM pragma_table_info('lots')").all() as { name: string }[]).map((c) => c.name)).not.toContain("notes");
    } finally {
      db.close();
    }
  });
});

describe("a market built with the lots' USD amounts as 2-decimal REALs", () => {
  test("is migrated when the service opens it: the amounts in whole cents, the price indexes on them, the page serves the same values", () => {
    const { dir, old } = olderMarket(6);
    const lot = old.query(
      `INSERT INTO lots (id, sale_id, artwork_id, artist_id, house_id, lot_num, lot_seq, status, sale_status, sale_datetime, location_id, currency,
         hammer, estimate_min, estimate_max, premium, hammer_usd, estimate_min_usd, estimate_max_usd, premium_usd)
       VALUES (?, 1, 1, 1, 1, ?, ?, ?, 'closed', 0, 1, 'EUR', ?, 2000, 3000, ?, ?, 2201.01, 3301.52, ?)`,
    );
    lot.run(1, "1", 1, "sold", 3100, 3906, 3411.57, 4298.58);
    lot.run(2, "2", 2, "passed", null, null, null, null);
    lot.run(3, "3", 3, "sold", 1e7, 1.2e7, 10912345.67, 13094814.8);
    old.query("CREATE INDEX lots_hammer_usd ON lots (hammer_usd)").run();
    old.close();

    openMarketReader(dir).close();
    const db = new Database(marketDbPath(dir), { readonly: true });
    try {
      const cols = (db.query("SELECT name FROM pragma_table_info('lots')").all() as { name: string }[]).map((c) => c.name);
      expect(cols).toContain("hammer_usd_cents");
      expect(cols).not.toContain("hammer_usd");
      expect(db.query("SELECT hammer_usd_cents, estimate_min_usd_cents, estimate_max_usd_cents, premium_usd_cents FROM lots ORDER BY id").all()).toEqual([
        { hammer_usd_cents: 341157, estimate_min_usd_cents: 220101, estimate_max_usd_cents: 330152, premium_usd_cents: 429858 },
        { hammer_usd_cents: null, estimate_min_usd_cents: 220101, estimate_max_usd_cents: 330152, premium_usd_cents: null },
        { hammer_usd_cents: 1091234567, estimate_min_usd_cents: 220101, estimate_max_usd_cents: 330152, premium_usd_cents: 1309481480 },
      ]);
      // read back as the service reads them: the same doubles as before
      const served = db.query("SELECT hammer_usd_cents / 100.0 AS h, premium_usd_cents / 100.0 AS p FROM lots WHERE id IN (1, 3) ORDER BY id").all();
      expect(served).toEqual([
        { h: 3411.57, p: 4298.58 },
        { h: 10912345.67, p: 13094814.8 },
      ]);
      const sql = (db.query("SELECT sql FROM sqlite_master WHERE name = 'lots_hammer_usd'").get() as { sql: string }).sql;
      expect(sql).toContain("hammer_usd_cents");
    } finally {
      db.close();
    }
  });
});

describe("a market built with the artworks' last prices and momentum fractions as REALs", () => {
  test("is migrated when the service opens it: last prices in cents, momentum and CAGR in millionths, read back as before", () => {
    const { dir, old } = olderMarket(7);
    const work = old.query(
      `INSERT INTO artworks (id, uid, artist_id, title, category_id, medium, material_ids, size_bucket, lots_count, last_lot_status, currency, artist_market_cap,
         last_hammer_usd, last_premium_usd, price_momentum_12mo, price_momentum_24mo, cagr)
       VALUES (?, '', 1, 'Dawn', 1, 'oil on canvas', '', 'small', 1, 'sold', 'USD', 0, ?, ?, ?, ?, ?)`,
    );
    work.run(1, 4120.05, 5191.27, 0.084907, -0.123456, 0.048561);
    work.run(2, null, null, null, null, null);
    old.query("CREATE INDEX artworks_momentum_12mo ON artworks (price_momentum_12mo)").run();
    old.close();

    openMarketReader(dir).close();
    const db = new Database(marketDbPath(dir), { readonly: true });
    try {
      expect(
        db
          .query(
            "SELECT last_hammer_usd_cents AS h, last_premium_usd_cents AS p, price_momentum_12mo_ppm AS m12, price_momentum_24mo_ppm AS m24, cagr_ppm AS c FROM artworks ORDER BY id",
          )
          .all(),
      ).toEqual([
        { h: 412005, p: 519127, m12: 84907, m24: -123456, c: 48561 },
        { h: null, p: null, m12: null, m24: null, c: null },
      ]);
      expect(
        db.query("SELECT price_momentum_12mo_ppm / 1000000.0 AS m12, price_momentum_24mo_ppm / 1000000.0 AS m24, cagr_ppm / 1000000.0 AS c FROM artworks WHERE id = 1").get(),
      ).toEqual({
        m12: 0.084907,
        m24: -0.123456,
        c: 0.048561,
      });
      expect((db.query("SELECT sql FROM sqlite_master WHERE name = 'artworks_momentum_12mo'").get() as { sql: string }).sql).toContain("price_momentum_12mo_ppm");
    } finally {
      db.close();
    }
  });
});

describe("a market built with the artworks' last sale date as text", () => {
  test("is migrated when the service opens it: the day as a number (days since 1970), the date column gone, its index on the day", () => {
    const { dir, old } = olderMarket(8);
    const work = old.query(
      `INSERT INTO artworks (id, uid, artist_id, title, category_id, medium, material_ids, size_bucket, lots_count, last_lot_status, currency, artist_market_cap, date_last_sold)
       VALUES (?, '', 1, 'Dawn', 1, 'oil on canvas', '', 'small', 1, 'sold', 'USD', 0, ?)`,
    );
    work.run(1, "2018-01-20");
    work.run(2, null);
    work.run(3, "1969-12-31");
    old.close();

    openMarketReader(dir).close();
    const db = new Database(marketDbPath(dir), { readonly: true });
    try {
      const rows = db.query("SELECT id, day_last_sold, typeof(day_last_sold) AS t FROM artworks ORDER BY id").all() as { id: number; day_last_sold: number | null; t: string }[];
      expect(rows).toEqual([
        { id: 1, day_last_sold: dayNumber("2018-01-20"), t: "integer" },
        { id: 2, day_last_sold: null, t: "null" },
        { id: 3, day_last_sold: -1, t: "integer" },
      ]);
      expect(fromDayNumber(rows[0]!.day_last_sold!)).toBe("2018-01-20");
      expect((db.query("SELECT name FROM pragma_table_info('artworks')").all() as { name: string }[]).map((c) => c.name)).not.toContain("date_last_sold");
      expect((db.query("SELECT sql FROM sqlite_master WHERE name = 'artworks_last_sold'").get() as { sql: string }).sql).toContain("day_last_sold");
    } finally {
      db.close();
    }
  });
});
