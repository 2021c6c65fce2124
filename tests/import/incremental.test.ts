/**
 * A merge derives what its records touch (docs/derivation.md#a-merge-derives-what-it-touches): the
 * tests' tiny market fed three days, merged into one copy incrementally (the default) and into
 * another with `--refit` (the whole market derived again, the model refitted), from the same
 * records. The incremental snapshot keeps every untouched artist's rows as the previous snapshot
 * had them, agrees with the full rebuild within the stated tolerance (median absolute difference
 * of the artworks' estimates ≤ 1 %), has the rebuild's source rows and sales exactly, and passes
 * the checks a running server makes before it swaps.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { feedMarket } from "../../src/pipeline/feed";
import { LOT_DERIVED_FROM } from "../../src/pipeline/import/merge";
import { runImport } from "../../src/pipeline/import/run";
import type { ImportSummary } from "../../src/pipeline/import/types";
import { ARTIST_INSERTS, ArtistDeriver, artistReader, type ArtistRow } from "../../src/pipeline/derive/artist";
import { loadDeriveState } from "../../src/pipeline/derive/state";
import { worksViewOfFinished } from "../../src/pipeline/db/works-file";
import { checkSnapshot } from "../../src/db/snapshot-check";
import { missingIndexes } from "../../src/db/market-indexes";
import { estimateBandSql } from "../../src/db/market-indexes/artworks";
import { tempDataDir, tinyMarketDir } from "../helpers/app";

let root: string;
let previous: Database;
let inc: Database;
let full: Database;
let incSummary: ImportSummary;
let fullSummary: ImportSummary;
/** Artists with a lot the merge added or changed (from the records, not from the import's own report). */
let touchedArtists: Set<number>;
let feedLots: { id: number; artwork_id: number; status: string }[];

const copyMarket = (from: string, to: string) => {
  mkdirSync(to, { recursive: true });
  for (const f of ["market.db", "truth.db"]) copyFileSync(join(from, f), join(to, f));
};

beforeAll(async () => {
  root = tempDataDir("artmarket-incremental-");
  const seeded = await tinyMarketDir();
  copyMarket(seeded, join(root, "prev"));
  await feedMarket({ dataDir: join(root, "prev"), to: join(root, "day"), days: 3, quiet: true });
  copyMarket(join(root, "prev"), join(root, "inc"));
  // a market built before its newest read index: the merge builds the index (the swap checks it)
  const older = new Database(join(root, "inc", "market.db"));
  older.run("DROP INDEX lots_house_estimate_max");
  // and one it holds under another definition: the merge builds this build's
  older.run("DROP INDEX lots_withdrawn");
  older.run("CREATE INDEX lots_withdrawn ON lots (sale_datetime, sale_id) WHERE status = 'withdrawn'");
  older.close();
  copyMarket(join(root, "prev"), join(root, "full"));
  incSummary = await runImport({ dataDir: join(root, "inc"), from: join(root, "day"), mode: "merge", quiet: true, embed: false });
  fullSummary = await runImport({ dataDir: join(root, "full"), from: join(root, "day"), mode: "merge", refit: true, quiet: true, embed: false });
  previous = new Database(join(root, "prev", "market.db"), { readonly: true });
  inc = new Database(join(root, "inc", "market.db"), { readonly: true });
  full = new Database(join(root, "full", "market.db"), { readonly: true });
  feedLots = (await Bun.file(join(root, "day", "lots.jsonl")).text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: number; artwork_id: number; status: string });
  // what the merge should touch, found here independently: the artists of the fed lots and of
  // every lot whose derived-from columns differ between the previous market and the rebuilt one
  const artistOf = previous.query<{ artist_id: number }, [number]>("SELECT artist_id FROM artworks WHERE id = ?");
  touchedArtists = new Set(feedLots.map((l) => artistOf.get(l.artwork_id)!.artist_id));
  const cols = `id, artist_id, ${LOT_DERIVED_FROM.join(", ")}, hammer_usd_cents, estimate_min_usd_cents, estimate_max_usd_cents, premium_usd_cents`;
  const lotsOf = (db: Database) =>
    new Map(
      db
        .query<Record<string, unknown>, []>(`SELECT ${cols} FROM lots`)
        .all()
        .map((r) => [r.id as number, r]),
    );
  const before = lotsOf(previous);
  for (const [id, row] of lotsOf(full)) {
    const old = before.get(id);
    // an announced lot repriced by the day's rates alone keeps its artist's fit (its forecast is scaled)
    const repricedOnly = old && row.status === "upcoming" && LOT_DERIVED_FROM.every((c) => old[c] === row[c]);
    if (!old || (JSON.stringify(old) !== JSON.stringify(row) && !repricedOnly)) touchedArtists.add(row.artist_id as number);
  }
}, 300_000);

afterAll(() => {
  for (const db of [previous, inc, full]) db?.close();
  rmSync(root, { recursive: true, force: true });
});

const rowsOf = (db: Database, sql: string) => db.query<Record<string, unknown>, []>(sql).all();
const byId = (rows: Record<string, unknown>[], key = "id") => new Map(rows.map((r) => [r[key] as number, JSON.stringify(r)]));

describe("import --mode merge: incremental by default, --refit derives all", () => {
  test("the day's merge is incremental and says what it touched; --refit derives the whole market", () => {
    expect(feedLots.length).toBeGreaterThan(0);
    expect(incSummary.derivation.kind).toBe("incremental");
    if (incSummary.derivation.kind !== "incremental") return;
    const s = incSummary.derivation.summary;
    // every artist with a changed lot, and no other
    expect(s.artists).toBe(touchedArtists.size);
    expect(s.pairs.added).toBeGreaterThan(0);
    // the model held is the seed's, fitted as of its as-of date
    expect(s.fittedAsOf).toBe(previous.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()!.value);
    expect(incSummary.embed).toBeNull();
    expect(fullSummary.derivation).toEqual({ kind: "full", reason: "--refit" });
    expect(incSummary.accepted).toBe(fullSummary.accepted);
    expect(incSummary.counts).toEqual(fullSummary.counts);
  });

  test("source rows, sales and the as-of date are the full rebuild's exactly", () => {
    for (const [table, key] of [
      ["src_sales", "id"],
      ["sales", "id"],
      ["fx_rates", "rowid"],
      ["artist_events", "id"],
    ] as const) {
      const sql = `SELECT ${key === "rowid" ? "code, day, usd_per_unit" : "*"} FROM ${table} ORDER BY ${key === "rowid" ? "code, day" : "id"}`;
      expect(rowsOf(inc, sql)).toEqual(rowsOf(full, sql));
    }
    // every lot column but the forecasts (the model's, held or refitted)
    const lotColumns = `id, sale_id, artwork_id, artist_id, house_id, lot_num, status, sale_status, sale_datetime, currency, hammer, estimate_min, estimate_max,
      hammer_usd_cents, estimate_min_usd_cents, estimate_max_usd_cents, premium_usd_cents, notes_id`;
    expect(rowsOf(inc, `SELECT ${lotColumns} FROM lots ORDER BY id`)).toEqual(rowsOf(full, `SELECT ${lotColumns} FROM lots ORDER BY id`));
    const asOf = (db: Database) => db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()!.value;
    expect(asOf(inc)).toBe(asOf(full));
    expect(asOf(inc) > asOf(previous)).toBe(true);
  });

  test("untouched artists keep their rows; touched ones are derived again", () => {
    const tables: [string, string][] = [
      ["artists", "id"],
      ["artist_charts", "artist_id"],
    ];
    for (const [table, key] of tables) {
      const before = byId(rowsOf(previous, `SELECT * FROM ${table}`), key);
      const after = byId(rowsOf(inc, `SELECT * FROM ${table}`), key);
      expect(after.size).toBe(before.size);
      let same = 0;
      for (const [id, row] of after) {
        if (touchedArtists.has(id)) continue;
        expect(row).toBe(before.get(id)!);
        same++;
      }
      expect(same).toBeGreaterThan(0);
    }
    const works = (db: Database) => byId(rowsOf(db, "SELECT * FROM artworks"));
    const before = works(previous);
    const artistOf = new Map(rowsOf(inc, "SELECT id, artist_id FROM artworks").map((r) => [r.id as number, r.artist_id as number]));
    let changed = 0;
    for (const [id, row] of works(inc)) {
      if (!touchedArtists.has(artistOf.get(id)!)) expect(row).toBe(before.get(id)!);
      else if (row !== before.get(id)) changed++;
    }
    // the touched artists' works moved (a new result, the as-of date, the market index)
    expect(changed).toBeGreaterThan(0);
  });

  test("estimates agree with the full rebuild: median |log(incremental / full)| ≤ 1 %", () => {
    const est = (db: Database) => new Map(rowsOf(db, "SELECT id, estimate_usd FROM artworks WHERE estimate_usd > 0").map((r) => [r.id as number, r.estimate_usd as number]));
    const a = est(inc);
    const b = est(full);
    const diffs: number[] = [];
    for (const [id, v] of a) if (b.has(id)) diffs.push(Math.abs(Math.log(v / b.get(id)!)));
    diffs.sort((x, y) => x - y);
    expect(diffs.length).toBeGreaterThan(0.9 * b.size);
    const median = diffs[diffs.length >> 1]!;
    console.log(
      `incremental merge against --refit: ${diffs.length} estimates, median |log ratio| ${median.toFixed(4)}, p90 ${diffs[Math.floor(diffs.length * 0.9)]!.toFixed(4)}, max ${diffs[diffs.length - 1]!.toFixed(4)}`,
    );
    expect(median).toBeLessThanOrEqual(0.01);
    // the market index: the same months, each within 5 % of the refitted one
    const index = (db: Database) => rowsOf(db, "SELECT month, value, lots FROM market_index ORDER BY month");
    const ia = index(inc);
    const ib = index(full);
    expect(ia.map((r) => [r.month, r.lots])).toEqual(ib.map((r) => [r.month, r.lots]));
    for (let i = 0; i < ia.length; i++) expect(Math.abs(Math.log((ia[i]!.value as number) / (ib[i]!.value as number)))).toBeLessThan(0.05);
  });

  test("the model round-trips, and a merge writes what a derivation of its touched artists gives, less what it held", () => {
    // an artist derived again from a snapshot's kept state gives the rows the snapshot holds, byte
    // for byte: the previous snapshot's biggest artists (a full derivation wrote them). The merged
    // snapshot's touched artists (the merge wrote them over their old rows, column by column) give
    // the same, except for the figures that moved less than 1 % since they were published, which
    // keep the previous snapshot's values (docs/derivation.md#what-a-merge-republishes)
    const workColumns = /INSERT INTO artworks \(([^)]*)\)/.exec(ARTIST_INSERTS.artwork.replace(/\s+/g, " "))![1]!;
    const artistFigures = ["market_cap", "price_momentum_percentage_12mo", "price_momentum_percentage_5y"];
    const workArtistFigures = ["price_momentum_12mo_ppm", "price_momentum_24mo_ppm", "cagr_ppm", "artist_market_cap"];
    const workEstimate = ["estimate_usd", "estimate_min_usd", "estimate_max_usd", "price_change_12mo", "price_change_24mo"];
    const logMove = (a: unknown, b: unknown) => Math.abs(Math.log((a as number) / (b as number)));
    const held = { artists: 0, republished: 0, estimates: 0 };
    const roundTrip = (dir: string, pick: (db: Database) => number[], published?: Database) => {
      const scratch = join(root, `scratch-${dir}.db`);
      copyFileSync(join(root, dir, "market.db"), scratch);
      const db = new Database(scratch);
      const state = loadDeriveState(db);
      if ("missing" in state) throw new Error(state.missing);
      worksViewOfFinished(db);
      const deriver = new ArtistDeriver(state.model);
      const read = artistReader(db);
      const ids = pick(db);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) {
        const row = db
          .query<ArtistRow, [number]>("SELECT id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id FROM src_artists WHERE id = ?")
          .get(id)!;
        const out = deriver.derive(read(row), state.noise);
        const records = (conn: Database, sql: string) => conn.query<Record<string, unknown>, [number]>(sql).all(id);
        const values = (sql: string) => records(db, sql).map((r) => Object.values(r));
        const chartSql = "SELECT artist_id, start_month, points, stderr, vector FROM artist_charts WHERE artist_id = ?";
        const forecasts = values(
          "SELECT id, sale_probability, expected_hammer_usd, expected_hammer_usd_low, expected_hammer_usd_high FROM lots WHERE artist_id = ? AND sale_probability IS NOT NULL ORDER BY id",
        );
        expect([...out.forecasts].sort((a, b) => (a[0] as number) - (b[0] as number)) as unknown[]).toEqual(forecasts);
        const derivedWorks = out.artworks.map((w) => w.map((v) => (typeof v === "boolean" ? Number(v) : v)) as unknown[]);
        if (!published) {
          expect(out.artist as unknown[]).toEqual(values("SELECT * FROM artists WHERE id = ?")[0]!);
          // every column of every work, in ARTIST_INSERTS.artwork's order
          expect(derivedWorks).toEqual(values(`SELECT ${workColumns} FROM artworks WHERE artist_id = ? ORDER BY id`));
          expect(out.chart as unknown[]).toEqual(values(chartSql)[0]!);
          continue;
        }
        // as derived, as stored now, as published before the merge (by column name)
        const names = workColumns.split(",").map((c) => c.trim());
        const derived = derivedWorks.map((w) => Object.fromEntries(names.map((n, i) => [n, w[i]])));
        const now = records(db, `SELECT ${workColumns} FROM artworks WHERE artist_id = ? ORDER BY id`);
        const before = new Map(records(published, `SELECT ${workColumns} FROM artworks WHERE artist_id = ?`).map((r) => [r.id, r]));
        const artistNow = records(db, "SELECT * FROM artists WHERE id = ?")[0]!;
        const artistBefore = records(published, "SELECT * FROM artists WHERE id = ?")[0]!;
        const artistNames = Object.keys(artistNow);
        const artistDerived = Object.fromEntries(artistNames.map((n, i) => [n, out.artist[i]]));
        // the artist's own figures: all as derived, or all as published and each within 1 % of the derivation
        const isHeld = artistFigures.every((c) => artistNow[c] === artistBefore[c]) && artistFigures.some((c) => artistDerived[c] !== artistBefore[c]);
        for (const c of artistNames) if (!artistFigures.includes(c)) expect([id, c, artistNow[c]]).toEqual([id, c, artistDerived[c]]);
        if (isHeld) {
          held.artists++;
          expect(logMove(artistBefore.market_cap, artistDerived.market_cap)).toBeLessThan(0.01);
          for (const c of artistFigures.slice(1)) expect(Math.abs((artistBefore[c] as number) - (artistDerived[c] as number))).toBeLessThan(1);
          expect(values(chartSql)[0]!).toEqual(records(published, chartSql).map((r) => Object.values(r))[0]!);
        } else {
          held.republished++;
          for (const c of artistFigures) expect(artistNow[c]).toBe(artistDerived[c]);
          expect(out.chart as unknown[]).toEqual(values(chartSql)[0]!);
        }
        expect(now.length).toBe(derived.length);
        for (let i = 0; i < now.length; i++) {
          const [n, d, b] = [now[i]!, derived[i]!, before.get(now[i]!.id)!];
          const own = names.filter((c) => !workArtistFigures.includes(c) && !workEstimate.includes(c));
          for (const c of own) expect([n.id, c, n[c]]).toEqual([n.id, c, d[c]]);
          // the artist's figures on its works follow the artist's
          for (const c of workArtistFigures) expect([n.id, c, n[c]]).toEqual([n.id, c, isHeld ? b[c] : d[c]]);
          // the estimate: as derived, or as published when it moved less than 1 % and the work's own record is unchanged
          const estimateHeld = workEstimate.some((c) => n[c] !== d[c]);
          if (estimateHeld) {
            held.estimates++;
            for (const c of workEstimate) expect([n.id, c, n[c]]).toEqual([n.id, c, b[c]]);
            expect(logMove(b.estimate_usd, d.estimate_usd)).toBeLessThan(0.01);
            for (const c of own) expect([n.id, c, b[c]]).toEqual([n.id, c, d[c]]);
          } else if (b.estimate_usd !== null && d.estimate_usd !== null && own.every((c) => b[c] === d[c]) && b.estimate_usd !== d.estimate_usd) {
            expect(logMove(b.estimate_usd, d.estimate_usd)).toBeGreaterThanOrEqual(0.01);
          }
        }
      }
      db.close();
    };
    roundTrip("prev", (db) =>
      db
        .query<{ id: number }, []>("SELECT id FROM artists ORDER BY lots_count DESC LIMIT 5")
        .all()
        .map((r) => r.id),
    );
    roundTrip("inc", () => [...touchedArtists], previous);
    // the day held some figures and republished others, and the summary counts what was held
    console.log(`touched artists: ${held.republished} republished, ${held.artists} held; works' estimates held: ${held.estimates}`);
    expect(held.artists).toBeGreaterThan(0);
    expect(held.republished).toBeGreaterThan(0);
    expect(held.estimates).toBeGreaterThan(0);
    if (incSummary.derivation.kind === "incremental") expect(incSummary.derivation.summary.held).toEqual({ artists: held.artists, estimates: held.estimates });
  });

  test("the incremental snapshot passes the server's swap checks, and new lots are found by search", async () => {
    const check = await checkSnapshot(join(root, "inc", "market.db"));
    expect(check.ok).toBe(true);
    expect(inc.query("SELECT sql FROM sqlite_master WHERE name = 'lots_house_estimate_max'").get()).toEqual({
      sql: "CREATE INDEX lots_house_estimate_max ON lots (house_id, estimate_max_usd_cents)",
    });
    expect(inc.query("SELECT sql FROM sqlite_master WHERE name = 'lots_withdrawn'").get()).toEqual({
      sql: "CREATE INDEX lots_withdrawn ON lots (sale_datetime) WHERE status = 'withdrawn'",
    });
    expect(missingIndexes(inc)).toEqual([]);
    // the category counts, over the works as the merge left them
    const counts = (sql: string) => inc.query(sql).all();
    const kept = counts("SELECT category_id, creation_year, band, n FROM artwork_counts ORDER BY 1, 2, 3");
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(
      counts(
        `SELECT category_id, creation_year, ${estimateBandSql("estimate_usd")} AS band, count(*) AS n FROM artworks WHERE creation_year IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      ),
    );
    expect(kept).not.toEqual(previous.query("SELECT category_id, creation_year, band, n FROM artwork_counts ORDER BY 1, 2, 3").all());
    // with its statistics, gathered before the day's records went in (the current market's lots)
    const stat = inc.query<{ stat: string }, []>("SELECT stat FROM sqlite_stat1 WHERE idx = 'lots_house_estimate_max'").get()?.stat ?? "";
    expect(stat).toMatch(/^\d+ \d+ \d+$/);
    expect(Number(stat.split(" ")[0])).toBe(previous.query<{ n: number }, []>("SELECT count(*) AS n FROM lots").get()!.n);
    // the pictures' vectors are the previous snapshot's, byte for byte (the day brought no picture)
    // (read through the vector tables' own storage: no extension needed)
    const shadows = previous
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'image\\_vectors\\_%' ESCAPE '\\'")
      .all()
      .map((r) => r.name);
    expect(shadows.length).toBeGreaterThan(0);
    for (const t of shadows) {
      const rows = (db: Database) => db.query<Record<string, unknown>, []>(`SELECT * FROM "${t}" ORDER BY rowid`).all();
      expect(rows(inc)).toEqual(rows(previous));
    }
    const fresh = feedLots.find((l) => l.status === "upcoming" && !previous.query("SELECT 1 FROM lots WHERE id = ?").get(l.id));
    const word = (db: Database, id: number) =>
      db
        .query<{ title: string }, [number]>("SELECT w.title FROM lots l JOIN artworks w ON w.id = l.artwork_id WHERE l.id = ?")
        .get(id)!
        .title.split(/\s+/)
        .find((w) => /^[A-Za-z]{4,}$/.test(w));
    if (fresh) {
      const w = word(inc, fresh.id)!;
      const hits = (db: Database) =>
        db
          .query<{ rowid: number }, [string]>("SELECT rowid FROM lots_fts WHERE lots_fts MATCH ?")
          .all(w)
          .map((r) => r.rowid);
      expect(hits(inc)).toContain(fresh.id);
      expect(hits(inc).sort()).toEqual(hits(full).sort());
    }
  });

  test("on worker threads (ARTMARKET_DERIVE_WORKERS=2) the merge writes the same rows", async () => {
    copyMarket(join(root, "prev"), join(root, "threads"));
    const before = process.env.ARTMARKET_DERIVE_WORKERS;
    process.env.ARTMARKET_DERIVE_WORKERS = "2";
    try {
      const s = await runImport({ dataDir: join(root, "threads"), from: join(root, "day"), mode: "merge", quiet: true, embed: false });
      expect(s.derivation.kind === "incremental" && s.derivation.summary.threads).toBe(2);
      expect(incSummary.derivation.kind === "incremental" && incSummary.derivation.summary.threads).toBe(0);
    } finally {
      if (before === undefined) delete process.env.ARTMARKET_DERIVE_WORKERS;
      else process.env.ARTMARKET_DERIVE_WORKERS = before;
    }
    const threaded = new Database(join(root, "threads", "market.db"), { readonly: true });
    try {
      for (const sql of [
        "SELECT * FROM artists ORDER BY id",
        "SELECT * FROM artworks ORDER BY id",
        "SELECT * FROM artist_charts ORDER BY artist_id",
        "SELECT * FROM artist_analytics ORDER BY artist_id, kind",
        "SELECT id, sale_probability, expected_hammer_usd, expected_hammer_usd_low, expected_hammer_usd_high FROM lots ORDER BY id",
        "SELECT * FROM market_index ORDER BY month",
      ])
        expect(rowsOf(threaded, sql)).toEqual(rowsOf(inc, sql));
    } finally {
      threaded.close();
    }
  }, 120_000);

  test("records of artists, artworks or pictures take the full derivation, and say why", async () => {
    const dir = join(root, "works");
    mkdirSync(dir, { recursive: true });
    const asOf = inc.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()!.value;
    writeFileSync(join(dir, "manifest.json"), JSON.stringify({ format: "artmarket-import", version: 1, as_of: asOf }));
    const work = inc.query<Record<string, unknown>, []>("SELECT id, artist_id, title, category_id, medium FROM artworks LIMIT 1").get()!;
    writeFileSync(join(dir, "artworks.jsonl"), `${JSON.stringify({ ...work, title: `${work.title} (retitled)` })}\n`);
    copyMarket(join(root, "inc"), join(root, "works-market"));
    const s = await runImport({ dataDir: join(root, "works-market"), from: dir, mode: "merge", quiet: true, embed: false });
    expect(s.derivation.kind).toBe("full");
    if (s.derivation.kind === "full") expect(s.derivation.reason).toContain("artworks");
  }, 120_000);
});
