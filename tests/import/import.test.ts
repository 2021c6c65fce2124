/**
 * import and export: the round trip (seed → export → import into an empty directory → the same
 * tables, derived ones included), idempotence, row-level rejections with reasons, structural
 * failures that leave the current market byte for byte, CSV = JSONL. A large file streamed (200k
 * lots, about 40 s): tests/long/import-stream.test.ts (`npm run test:long`).
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runImport } from "../../src/pipeline/import/run";
import { ImportError, type ImportSummary } from "../../src/pipeline/import/types";
import { artworkUid } from "../../src/db/artwork-uid";
import { exportMarket } from "../../src/pipeline/import/export";
import { loadSharp } from "../../src/platform/native";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { rowText } from "../helpers/rows";
import { AS_OF, writeJsonl, writeManifest } from "./fixtures";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

const dirs: string[] = [];
const temp = (prefix: string) => {
  const d = tempDataDir(prefix);
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** sha256 of every stored table of a market (the migrations log and market_meta's build time aside). */
function tableHashes(dataDir: string, options: { vectors?: boolean } = {}): Record<string, string> {
  const db = new Database(join(dataDir, "market.db"), { readonly: true });
  try {
    const tables = db
      .query<{ name: string }, []>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('__migrations')
         AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`,
      )
      .all()
      .map((r) => r.name)
      .filter((name) => options.vectors !== false || !VECTOR_TABLE.test(name));
    const out: Record<string, string> = {};
    for (const t of tables) {
      const h = new Bun.CryptoHasher("sha256");
      const where = t === "market_meta" ? " WHERE key NOT IN ('built_at', 'import_mode')" : "";
      const columns = db.query(`PRAGMA table_info("${t}")`).all().length;
      const withoutRowid = /WITHOUT ROWID/i.test((db.query("SELECT sql FROM sqlite_master WHERE name = ?").get(t) as { sql: string }).sql);
      const order = withoutRowid ? Array.from({ length: columns }, (_, i) => i + 1).join(", ") : "rowid";
      for (const row of db.query(`SELECT * FROM "${t}"${where} ORDER BY ${order}`).values()) h.update(rowText(row));
      out[t] = h.digest("hex");
    }
    return out;
  } finally {
    db.close();
  }
}

/** The vector indexes' tables: a market built with `embed: false` has none (the rest is the same). */
const VECTOR_TABLE = /^(image|artist)_vectors_/;

const fileHash = (path: string) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");

function reportRows(s: ImportSummary): { file: string; line: number; reason: string; row: unknown }[] {
  if (!s.reportPath) return [];
  return readFileSync(s.reportPath, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

const SOURCE = ["src_artists", "src_sales", "lots", "images", "artist_events", "fx_rates", "auction_houses", "auction_locations", "categories", "materials", "benchmarks"];
const DERIVED = ["artists", "artworks", "sales", "artist_charts", "artist_analytics", "market_index"];

describe("round trip: seed → export → import", () => {
  let seeded: string;
  let exported: string;
  let exportedCsv: string;
  let imported: string;
  let first: ImportSummary;
  let hashesA: Record<string, string>;
  let hashesB: Record<string, string>;

  beforeAll(async () => {
    seeded = await tinyMarketDir();
    exported = temp("artmarket-export-");
    exportedCsv = temp("artmarket-export-csv-");
    imported = temp("artmarket-import-");
    await exportMarket(seeded, exported, { quiet: true });
    await exportMarket(seeded, exportedCsv, { format: "csv", quiet: true });
    // no embedding: the records are the subject here (the images table is compared like the rest;
    // an import's embedding: "bad records…" below; the embedding itself: tests/images/vectors.test.ts)
    first = await runImport({ dataDir: imported, from: exported, quiet: true, embed: false });
    hashesA = tableHashes(seeded, { vectors: false });
    hashesB = tableHashes(imported);
  }, 120_000);

  test("the export is the import format: a manifest and one JSONL file per record type", () => {
    const manifest = JSON.parse(readFileSync(join(exported, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ format: "artmarket-import", version: 1 });
    expect(manifest.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const f of ["fx_rates", "auction_houses", "artists", "artist_events", "sales", "artworks", "images", "lots", "benchmarks"]) {
      expect(existsSync(join(exported, `${f}.jsonl`))).toBe(true);
      expect(existsSync(join(exportedCsv, `${f}.csv`))).toBe(true);
    }
    // the built-in vocabularies are not written out
    expect(existsSync(join(exported, "categories.jsonl"))).toBe(false);
  });

  test("every record is accepted", () => {
    expect(first.rejected).toBe(0);
    expect(first.reportPath).toBeNull();
    const lots = first.files.find((f) => f.file === "lots.jsonl")!;
    expect(lots.accepted).toBeGreaterThan(3000);
  });

  for (const t of SOURCE) {
    test(`source table ${t}: identical row for row`, () => {
      expect(hashesB[t]).toBe(hashesA[t]!);
    });
  }
  for (const t of DERIVED) {
    test(`derived table ${t}: identical (derivation is deterministic on the same source rows)`, () => {
      expect(hashesB[t]).toBe(hashesA[t]!);
    });
  }

  test("every other table too, and market_meta says it is an import as of the same day", () => {
    const { market_meta: metaA, ...restA } = hashesA;
    const { market_meta: metaB, ...restB } = hashesB;
    expect(restB).toEqual(restA);
    expect(metaB).not.toBe(metaA);
    const db = new Database(join(imported, "market.db"), { readonly: true });
    const meta = Object.fromEntries(
      db
        .query<{ key: string; value: string }, []>("SELECT key, value FROM market_meta")
        .all()
        .map((r) => [r.key, r.value]),
    );
    db.close();
    expect(meta.contents).toBe("import");
    expect(meta.as_of).toBe(JSON.parse(readFileSync(join(exported, "manifest.json"), "utf8")).as_of);
    expect(existsSync(join(imported, "truth.db"))).toBe(false);
  });

  test("idempotent: the same directory imported again gives the same market", async () => {
    await runImport({ dataDir: imported, from: exported, quiet: true, embed: false });
    expect(tableHashes(imported)).toEqual(hashesB);
  }, 60_000);

  test("idempotent in merge mode: merging the same directory into its own market changes nothing", async () => {
    const s = await runImport({ dataDir: imported, from: exported, mode: "merge", quiet: true, embed: false });
    expect(s.mode).toBe("merge");
    expect(s.rejected).toBe(0);
    expect(tableHashes(imported)).toEqual(hashesB);
  }, 60_000);

  test("CSV and JSONL give the same market", async () => {
    const fromCsv = temp("artmarket-import-csv-");
    const s = await runImport({ dataDir: fromCsv, from: exportedCsv, quiet: true, embed: false });
    expect(s.rejected).toBe(0);
    expect(s.files.map((f) => f.file)).toContain("lots.csv");
    expect(tableHashes(fromCsv)).toEqual(hashesB);
  }, 60_000);
});

// ---------------------------------------------------------------- a hand-made import with bad records

async function writeBadImport(dir: string): Promise<void> {
  writeManifest(dir);
  writeJsonl(dir, "fx_rates", [
    { code: "GBP", day: "2020-03-02", usd_per_unit: 1.28 },
    { code: "EUR", day: "2020-03-02", usd_per_unit: 1.1 },
    { code: "GBP", day: "2021-05-10", usd_per_unit: 1.4 },
    { code: "XYZ", day: "2020-01-01", usd_per_unit: 1 },
    { code: "GBP", day: "2020-02-30", usd_per_unit: 1.3 },
  ]);
  writeJsonl(dir, "auction_houses", [
    { id: 1, name: "Ashcombe's", is_live: true },
    { id: 2, name: "Bellweather & Co" },
  ]);
  writeJsonl(dir, "artists", [
    { id: 1, name: "Alice Marchetti", nationality: "Italian", birth: 1950, synonyms: ["A. Marchetti"] },
    { id: 2, name: "Bruno Keller", nationality: "Swiss", birth: 1960 },
    { id: 3, name: "Carla Duval", birth: 1970, death: 1960 },
  ]);
  writeJsonl(dir, "sales", [
    { id: 1, house_id: 1, name: "Evening sale", location: "London", start_datetime: "2020-03-02T18:00:00Z" },
    { id: 2, house_id: 2, name: "Day sale", location: "New York", start_datetime: "2021-05-10T10:00:00-04:00" },
    { id: 3, house_id: 2, name: "Paris sale", location: "Paris", start_datetime: "2021-05-10T14:00:00Z" },
    { id: 4, house_id: 1, name: "Impossible day", location: "London", start_datetime: "2021-02-30T10:00:00Z" },
    { id: 5, house_id: 99, name: "Unknown house", location: "London", start_datetime: "2021-03-01T10:00:00Z" },
    { id: 6, house_id: 1, name: "Coming sale", location: "Lisbon", country: "PT", currency: "EUR", start_datetime: "2024-07-15T10:00:00Z" },
  ]);
  // artworks as CSV: a quoted field with a comma, a list separated by "|", a short row, an unknown category
  writeFileSync(
    join(dir, "artworks.csv"),
    [
      "id,artist_id,title,category,medium,materials,substrate,creation_year,height_cm,width_cm,signed",
      '1,1,"Red Field, No. 2",Painting,oil on canvas,oil,canvas,1985,100,80,true',
      "2,1,Study,Works on paper,gouache and collage on paper,gouache|collage,paper,1990,30,20,false",
      "3,2,Head,Sculpture,bronze,bronze,,1995,40,,1",
      "4,2,Untitled,Painting,acrylic on canvas,acrylic,canvas,2001,120,150,0",
      "5,2,Vase,Pottery,,,,2002,,,",
      "6,9,Orphan,Painting,,,,2003,,,",
      "7,2,Short row",
    ].join("\r\n") + "\r\n",
  );
  const sharp = loadSharp(dir);
  await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c04020" } })
    .png()
    .toFile(join(dir, "red-field.png"));
  writeFileSync(join(dir, "not-an-image.png"), "hello");
  writeJsonl(dir, "images", [
    { id: 1, artwork_id: 1, path: "red-field.png" },
    { id: 2, artwork_id: 2, path: "missing.jpg" },
    { id: 3, artwork_id: 3, path: "../outside.png" },
    { id: 4, artwork_id: 4, path: "not-an-image.png" },
    { id: 5, artist_id: 1, seed: 1, width: 600, height: 800 },
  ]);
  writeJsonl(dir, "lots", [
    /* 1 */ { id: 1, sale_id: 1, artwork_id: 1, lot_num: "12", status: "sold", hammer: 1000, premium: 1250, estimate_min: 800, estimate_max: 1200 },
    /* 2 */ { id: 2, sale_id: 2, artwork_id: 1, lot_num: 7, status: "sold", hammer: 2000, premium: 2500, estimate_min: 1500, estimate_max: 2500, notes: "Signed lower right" },
    /* 3 */ { id: 3, sale_id: 1, artwork_id: 2, lot_num: "13A", status: "passed", estimate_min: 500, estimate_max: 700 },
    /* 4 */ { id: 4, sale_id: 2, artwork_id: 4, lot_num: "8", status: "sold", hammer: 30000 },
    /* 5 */ { id: 5, sale_id: 77, artwork_id: 1, lot_num: "1", status: "sold", hammer: 10 },
    /* 6 */ { id: 6, sale_id: 1, artwork_id: 3, lot_num: "14", status: "bought-in" },
    /* 7 */ { id: 7, sale_id: 1, artwork_id: 3, lot_num: "15", status: "sold", hammer: -5 },
    /* 8 */ { id: 8, sale_id: 3, artwork_id: 3, lot_num: "1", status: "sold", hammer: 900 },
    /* 9 */ '{"id": 9, "sale_id": 1,',
    /* 10 */ { id: 10, sale_id: 4, artwork_id: 3, lot_num: "2", status: "sold", hammer: 100 },
    /* 11 */ { id: 1, sale_id: 2, artwork_id: 3, lot_num: "3", status: "sold", hammer: 100 },
    /* 12 */ { id: 12, sale_id: 2, artwork_id: 3, lot_num: "4", status: "sold" },
    /* 13 */ { id: 13, sale_id: 2, artwork_id: 3, lot_num: "5", status: "withdrawn", currency: "GBP", estimate_min: 1000, estimate_max: 1500 },
    /* 14 */ { id: 14, sale_id: 6, artwork_id: 3, lot_num: "1", status: "upcoming", estimate_min: 2000, estimate_max: 3000, currency: "USD" },
    /* 15 */ { id: 15, sale_id: 6, artwork_id: 2, lot_num: "2", status: "sold", hammer: 100, currency: "USD" },
    /* 16 */ "[1, 2, 3]",
  ]);
}

describe("bad records are rejected with reasons, the rest imported", () => {
  let dir: string;
  let data: string;
  let s: ImportSummary;
  let report: ReturnType<typeof reportRows>;
  let db: Database;

  beforeAll(async () => {
    dir = temp("artmarket-bad-import-");
    data = temp("artmarket-bad-data-");
    await writeBadImport(dir);
    s = await runImport({ dataDir: data, from: dir, quiet: true });
    report = reportRows(s);
    db = new Database(join(data, "market.db"), { readonly: true });
  }, 60_000);
  afterAll(() => db.close());

  const reasonAt = (file: string, line: number) => report.find((r) => r.file === file && r.line === line)?.reason;

  test("the summary counts accepted and rejected records per file", () => {
    const byFile = Object.fromEntries(s.files.map((f) => [f.file, [f.accepted, f.rejected]]));
    expect(byFile).toEqual({
      "fx_rates.jsonl": [3, 2],
      "auction_houses.jsonl": [2, 0],
      "artists.jsonl": [2, 1],
      "sales.jsonl": [4, 2],
      "artworks.csv": [4, 3],
      "images.jsonl": [2, 3],
      "lots.jsonl": [6, 10],
    });
    expect(s.rejected).toBe(21);
    expect(report).toHaveLength(21);
    expect(s.reportPath!.startsWith(join(data, "import-report-"))).toBe(true);
  });

  test("each rejected record: file, line, reason and the record itself", () => {
    expect(reasonAt("lots.jsonl", 5)).toContain("unknown sale 77");
    expect(reasonAt("lots.jsonl", 6)).toMatch(/^status: must be one of unknown, upcoming, withdrawn, sold, passed/);
    expect(reasonAt("lots.jsonl", 7)).toMatch(/^hammer: must not be negative/);
    expect(reasonAt("lots.jsonl", 8)).toBe("no FX rate for EUR on 2021-05-10, the sale day (add it to fx_rates)");
    expect(reasonAt("lots.jsonl", 9)).toMatch(/^malformed JSON/);
    expect(reasonAt("lots.jsonl", 10)).toContain("unknown sale 4");
    expect(reasonAt("lots.jsonl", 11)).toBe("duplicate id 1");
    expect(reasonAt("lots.jsonl", 12)).toBe("hammer: required for a sold lot");
    expect(reasonAt("lots.jsonl", 15)).toContain("cannot be sold");
    expect(reasonAt("lots.jsonl", 16)).toBe("not a JSON object");
    expect(reasonAt("sales.jsonl", 4)).toMatch(/^start_datetime: expected an ISO 8601 date-time/);
    expect(reasonAt("sales.jsonl", 5)).toContain("unknown auction house 99");
    expect(reasonAt("fx_rates.jsonl", 4)).toMatch(/^code: must be one of USD, GBP, EUR/);
    expect(reasonAt("fx_rates.jsonl", 5)).toMatch(/^day: expected a date YYYY-MM-DD/);
    expect(reasonAt("artists.jsonl", 3)).toBe("death (1960) before birth (1970)");
    expect(reasonAt("artworks.csv", 6)).toBe('category: unknown category "Pottery"');
    expect(reasonAt("artworks.csv", 7)).toContain("unknown artist 9");
    expect(reasonAt("artworks.csv", 8)).toMatch(/^malformed CSV: 3 fields where the header has 11/);
    expect(reasonAt("images.jsonl", 2)).toContain('no file "missing.jpg"');
    expect(reasonAt("images.jsonl", 3)).toContain("outside the import directory");
    expect(reasonAt("images.jsonl", 4)).toContain("not an image");
    const bad = report.find((r) => r.file === "lots.jsonl" && r.line === 7)!;
    expect(bad.row).toMatchObject({ id: 7, hammer: -5 });
    expect(report.find((r) => r.line === 9 && r.file === "lots.jsonl")!.row).toBe('{"id": 9, "sale_id": 1,');
  });

  test("accepted lots carry their sale's and artwork's columns and USD at the sale day's rate", () => {
    const lots = db.query("SELECT l.*, coalesce(n.text, '') AS notes FROM lots l LEFT JOIN lot_notes n ON n.id = l.notes_id ORDER BY l.id").all() as Record<string, unknown>[];
    expect(lots.map((l) => l.id)).toEqual([1, 2, 3, 4, 13, 14]);
    expect(lots[0]).toMatchObject({
      sale_id: 1,
      artwork_id: 1,
      artist_id: 1,
      house_id: 1,
      currency: "GBP",
      hammer: 1000,
      hammer_usd_cents: 128000,
      premium_usd_cents: 160000,
      lot_seq: 12,
      sale_status: "closed",
      sale_datetime: Date.parse("2020-03-02T18:00:00Z") / 1000,
    });
    expect(lots[1]).toMatchObject({
      currency: "USD",
      hammer_usd_cents: 200000,
      lot_num: "7",
      notes: "Signed lower right",
      sale_datetime: Date.parse("2021-05-10T14:00:00Z") / 1000,
    });
    expect(lots[2]).toMatchObject({ status: "passed", hammer: null, lot_num: "13A", lot_seq: 13, estimate_max_usd_cents: 89600 });
    expect(lots[4]).toMatchObject({ currency: "GBP", estimate_min_usd_cents: 140000, estimate_max_usd_cents: 210000, status: "withdrawn" });
    expect(lots[5]).toMatchObject({ sale_status: "upcoming", status: "upcoming" });
  });

  test("sales: currency from the location, status from the as-of date, a new location added", () => {
    const sales = db.query("SELECT id, currency, status, location, location_id FROM src_sales ORDER BY id").all() as Record<string, unknown>[];
    expect(sales.map((x) => x.id)).toEqual([1, 2, 3, 6]);
    expect(sales[0]).toMatchObject({ currency: "GBP", status: "closed", location: "London" });
    expect(sales[2]).toMatchObject({ currency: "EUR" });
    expect(sales[3]).toMatchObject({ currency: "EUR", status: "upcoming", location: "Lisbon" });
    const lisbon = db.query("SELECT * FROM auction_locations WHERE name = 'Lisbon'").get();
    expect(lisbon).toEqual({ id: 39, name: "Lisbon", country: "PT", currency: "EUR" });
  });

  test("artworks: vocabulary by name, CSV quoting and lists", () => {
    const works = db.query("SELECT id, title, category_id, material_ids, substrate_id, signed, image_id, uid FROM artworks ORDER BY id").all() as Record<string, unknown>[];
    expect(works).toHaveLength(4);
    // a uid the record did not give: the default, stored as '' and made on read
    expect(works[0]).toMatchObject({ title: "Red Field, No. 2", category_id: 1, signed: 1, image_id: 1, uid: "" });
    expect(artworkUid(1, "Red Field, No. 2", "")).toBe("aw-1-red-field-no-2");
    expect(works[1]).toMatchObject({ material_ids: "4,12", substrate_id: 5, signed: 0 });
    expect(works[2]).toMatchObject({ category_id: 3, substrate_id: null, signed: 1 });
    const artists = db.query("SELECT id, uid, synonyms, photo_image_id FROM src_artists ORDER BY id").all();
    expect(artists).toEqual([
      { id: 1, uid: "alice-marchetti-1950", synonyms: "A. Marchetti", photo_image_id: 5 },
      { id: 2, uid: "bruno-keller-1960", synonyms: "", photo_image_id: null },
    ]);
  });

  test("an image file is copied to images/orig/ (named by its content) and recorded as kind file", () => {
    const img = db.query("SELECT * FROM images WHERE id = 1").get() as { kind: string; path: string; width: number; height: number; artwork_id: number };
    expect(img).toMatchObject({ kind: "file", width: 40, height: 30, artwork_id: 1 });
    expect(img.path).toMatch(/^[0-9a-f]{64}\.png$/);
    const copied = join(data, "images", "orig", img.path);
    expect(fileHash(copied)).toBe(fileHash(join(dir, "red-field.png")));
    expect(db.query("SELECT kind, seed FROM images WHERE id = 5").get()).toEqual({ kind: "procedural", seed: 1 });
  });

  test("an import embeds its artworks' images, a file and a procedural one alike, into the vector index", () => {
    const withImage = (db.query("SELECT count(*) AS n FROM artworks WHERE image_id IS NOT NULL").get() as { n: number }).n;
    expect(withImage).toBeGreaterThan(0);
    expect(s.embed).toMatchObject({ images: withImage, failed: 0 });
    expect(db.query("SELECT count(*) AS n FROM image_vectors_rowids").get()).toEqual({ n: withImage });
  });

  test("the market is derived and served from the accepted records", () => {
    const artist = db.query("SELECT total_sales, artworks_count FROM artists WHERE id = 1").get() as { total_sales: number; artworks_count: number };
    expect(artist.artworks_count).toBe(2);
    expect(artist.total_sales).toBe(1600 + 2500);
    expect((db.query("SELECT count(*) AS n FROM sales").get() as { n: number }).n).toBe(4);
  });

  test("importing the same directory again: the same market and the same rejections", async () => {
    const before = tableHashes(data);
    const again = await runImport({ dataDir: data, from: dir, quiet: true });
    expect(again.rejected).toBe(21);
    expect(reportRows(again).map((r) => [r.file, r.line, r.reason])).toEqual(report.map((r) => [r.file, r.line, r.reason]));
    expect(tableHashes(data)).toEqual(before);
  }, 60_000);
});

// ---------------------------------------------------------------- merge

describe("merge mode: records upserted by id over the current market", () => {
  test("changed rate, moved sale, new and changed lots; the rest kept; lots follow their sale", async () => {
    const base = temp("artmarket-merge-base-");
    const data = temp("artmarket-merge-data-");
    await writeBadImport(base);
    await runImport({ dataDir: data, from: base, quiet: true });
    const update = temp("artmarket-merge-update-");
    writeManifest(update);
    writeJsonl(update, "fx_rates", [
      { code: "GBP", day: "2020-03-02", usd_per_unit: 1.3 },
      { code: "GBP", day: "2020-03-03", usd_per_unit: 1.25 },
    ]);
    writeJsonl(update, "sales", [{ id: 2, house_id: 2, name: "Day sale (moved)", location: "London", currency: "GBP", start_datetime: "2020-03-03T10:00:00Z" }]);
    writeJsonl(update, "lots", [
      { id: 3, sale_id: 1, artwork_id: 2, lot_num: "13A", status: "sold", hammer: 600 },
      { id: 20, sale_id: 2, artwork_id: 3, lot_num: "9", status: "sold", hammer: 100, currency: "GBP" },
      { id: 21, sale_id: 2, artwork_id: 3, lot_num: "10", status: "sold", hammer: 100, currency: "EUR" },
    ]);
    const s = await runImport({ dataDir: data, from: update, mode: "merge", quiet: true });
    expect(s.mode).toBe("merge");
    const report = reportRows(s);
    // lot 21: EUR has no rate on the new day; lot 13 (GBP, in sale 2) is repriced; lot 2 and 4 were priced in USD: still fine
    expect(report.map((r) => [r.file, r.line, r.reason])).toEqual([["lots.jsonl", 3, "no FX rate for EUR on 2020-03-03, the sale day (add it to fx_rates)"]]);
    const db = new Database(join(data, "market.db"), { readonly: true });
    const lots = Object.fromEntries(
      (
        db.query("SELECT id, status, hammer_usd_cents / 100.0 AS hammer_usd, estimate_min_usd_cents / 100.0 AS estimate_min_usd, sale_datetime, location_id FROM lots").all() as {
          id: number;
        }[]
      ).map((l) => [l.id, l]),
    );
    const artists = (db.query("SELECT count(*) AS n FROM src_artists").get() as { n: number }).n;
    const sale2 = db.query("SELECT name, location, status FROM src_sales WHERE id = 2").get();
    db.close();
    expect(
      Object.keys(lots)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 3, 4, 13, 14, 20]);
    expect(lots[1]).toMatchObject({ hammer_usd: 1300 }); // the changed GBP rate
    expect(lots[3]).toMatchObject({ status: "sold", hammer_usd: 780 });
    expect(lots[13]).toMatchObject({ sale_datetime: Date.parse("2020-03-03T10:00:00Z") / 1000, estimate_min_usd: 1250, location_id: 7 }); // followed its sale
    expect(lots[20]).toMatchObject({ hammer_usd: 125 });
    expect(artists).toBe(2);
    expect(sale2).toEqual({ name: "Day sale (moved)", location: "London", status: "closed" });
    // and merging the same update again changes nothing
    const before = tableHashes(data);
    await runImport({ dataDir: data, from: update, mode: "merge", quiet: true });
    expect(tableHashes(data)).toEqual(before);
  }, 60_000);

  test("an upcoming lot is priced at the latest rate known at the as-of date: the market's, or the import's when later", async () => {
    const base = temp("artmarket-merge-base-");
    const data = temp("artmarket-merge-data-");
    await writeBadImport(base);
    await runImport({ dataDir: data, from: base, quiet: true });
    const estimates = () => {
      const db = new Database(join(data, "market.db"), { readonly: true });
      const rows = db.query("SELECT id, estimate_min_usd_cents / 100.0 AS usd FROM lots WHERE id >= 30 ORDER BY id").all() as { id: number; usd: number }[];
      db.close();
      return Object.fromEntries(rows.map((r) => [r.id, r.usd]));
    };
    // the market's rates: EUR 1.1 on 2020-03-02; GBP 1.28 then 1.4 on 2021-05-10. Sale 6 (EUR) is after the as-of date.
    const first = temp("artmarket-merge-upcoming-");
    writeManifest(first);
    writeJsonl(first, "lots", [
      { id: 30, sale_id: 6, artwork_id: 1, lot_num: "3", status: "upcoming", estimate_min: 1000, estimate_max: 2000 },
      { id: 31, sale_id: 6, artwork_id: 4, lot_num: "4", status: "upcoming", estimate_min: 1000, estimate_max: 2000, currency: "GBP" },
    ]);
    const s1 = await runImport({ dataDir: data, from: first, mode: "merge", quiet: true });
    expect(reportRows(s1)).toEqual([]);
    expect(estimates()).toEqual({ 30: 1100, 31: 1400 });
    // a later EUR rate and an earlier GBP one: EUR's is used from now on, GBP keeps the market's later one
    const second = temp("artmarket-merge-upcoming-");
    writeManifest(second);
    writeJsonl(second, "fx_rates", [
      { code: "EUR", day: "2023-01-02", usd_per_unit: 1.05 },
      { code: "GBP", day: "2020-06-01", usd_per_unit: 1.2 },
    ]);
    writeJsonl(second, "lots", [
      { id: 32, sale_id: 6, artwork_id: 2, lot_num: "5", status: "upcoming", estimate_min: 1000, estimate_max: 2000 },
      { id: 33, sale_id: 6, artwork_id: 3, lot_num: "6", status: "upcoming", estimate_min: 1000, estimate_max: 2000, currency: "GBP" },
    ]);
    const s2 = await runImport({ dataDir: data, from: second, mode: "merge", quiet: true });
    expect(reportRows(s2)).toEqual([]);
    expect(estimates()).toEqual({ 30: 1050, 31: 1400, 32: 1050, 33: 1400 });
  }, 60_000);
});

// ---------------------------------------------------------------- structural failures

describe("a structurally broken import replaces nothing", () => {
  let data: string;
  let before: string;
  let good: string;

  beforeAll(async () => {
    data = temp("artmarket-structural-");
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(data, "market.db"));
    before = fileHash(join(data, "market.db"));
    good = temp("artmarket-good-import-");
    await writeBadImport(good);
  }, 60_000);

  const variant = (mutate: (dir: string) => void): string => {
    const dir = temp("artmarket-broken-");
    for (const f of readdirSync(good)) copyFileSync(join(good, f), join(dir, f));
    mutate(dir);
    return dir;
  };

  async function expectUntouched(from: string, message: RegExp): Promise<void> {
    let error: unknown = null;
    try {
      await runImport({ dataDir: data, from, quiet: true });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(message);
    expect(fileHash(join(data, "market.db"))).toBe(before);
    expect(readdirSync(data).filter((f) => f.includes("importing"))).toEqual([]);
  }

  test("manifest of another version", async () => {
    await expectUntouched(
      variant((d) => writeManifest(d, { format: "artmarket-import", version: 2, as_of: AS_OF })),
      /version 2 is not supported/,
    );
  });
  test("manifest missing", async () => {
    await expectUntouched(
      variant((d) => rmSync(join(d, "manifest.json"))),
      /manifest\.json is missing/,
    );
  });
  test("manifest not JSON, or another format, or without as_of", async () => {
    await expectUntouched(
      variant((d) => writeManifest(d, "{ not json")),
      /not valid JSON/,
    );
    await expectUntouched(
      variant((d) => writeManifest(d, { format: "other", version: 1, as_of: AS_OF })),
      /format must be "artmarket-import"/,
    );
    await expectUntouched(
      variant((d) => writeManifest(d, { format: "artmarket-import", version: 1 })),
      /as_of must be a date/,
    );
  });
  test("a CSV header without a required column", async () => {
    await expectUntouched(
      variant((d) => writeFileSync(join(d, "artworks.csv"), "id,artist_id,title\n1,1,x\n")),
      /artworks\.csv: the header lacks the required column\(s\) category/,
    );
  });
  test("one record type given as both JSONL and CSV", async () => {
    await expectUntouched(
      variant((d) => writeFileSync(join(d, "lots.csv"), "id\n")),
      /both lots\.jsonl and lots\.csv/,
    );
  });
  test("a failure after records were read: the report says the import was aborted", async () => {
    const dir = variant((d) => writeFileSync(join(d, "benchmarks.csv"), "series,value\nSNP,1\n"));
    await expectUntouched(dir, /benchmarks\.csv: the header lacks the required column\(s\) month/);
    const reports = readdirSync(data).filter((f) => f.startsWith("import-report-"));
    const last = readFileSync(join(data, reports.sort().at(-1)!), "utf8")
      .trim()
      .split("\n")
      .at(-1)!;
    expect(JSON.parse(last).reason).toMatch(/^import aborted, nothing replaced: benchmarks\.csv/);
  });
  test("not a directory", async () => {
    await expectUntouched(join(good, "does-not-exist"), /is not a directory/);
  });
});

// ---------------------------------------------------------------- the command line

describe("artmarket import / export", () => {
  const cli = (...args: string[]) => {
    const p = Bun.spawnSync([...ARTMARKET, ...args], { env: { ...process.env } });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };

  test("import prints the summary; a broken import exits 1 and says nothing changed; export writes the format", async () => {
    const dir = temp("artmarket-cli-import-");
    const data = temp("artmarket-cli-data-");
    await writeBadImport(dir);
    const ok = cli("import", "--from", dir, "--data", data);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("lots.jsonl");
    expect(ok.out).toMatch(/21 rejected records, with reasons, in .*import-report-/);
    writeManifest(dir, { format: "artmarket-import", version: 9, as_of: AS_OF });
    const broken = cli("import", "--from", dir, "--data", data);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain("version 9 is not supported");
    expect(broken.err).toContain("the current market is unchanged");
    expect(broken.err).not.toContain("    at ");
    expect(cli("import", "--data", data).code).toBe(2);
    const out = temp("artmarket-cli-export-");
    const exp = cli("export", "--to", out, "--format", "csv", "--data", data);
    expect(exp.code).toBe(0);
    expect(readFileSync(join(out, "lots.csv"), "utf8").split("\n")[0]).toBe(
      "id,sale_id,artwork_id,lot_num,lot_seq,status,currency,hammer,estimate_min,estimate_max,premium,is_top,reserve_mark,third_party_mark,notes",
    );
    // the exported image file travels with the export and imports again
    expect(readFileSync(join(out, "images.csv"), "utf8")).toMatch(/images\/[0-9a-f]{64}\.png/);
    const again = temp("artmarket-cli-again-");
    expect(cli("import", "--from", out, "--data", again).code).toBe(0);
    expect(tableHashes(again)).toEqual(tableHashes(data));
  }, 60_000);
});
