/**
 * A merge import reuses the previous snapshot's image vectors (issue 33, item 2): the tiny market
 * fed two days and merged embeds nothing; a merge that changes two pictures, takes one away (every
 * later picture moves up a place) and adds three works embeds only the sheets whose pictures changed (src/pipeline/images/embed-market.ts, stageReused), and
 * the index it builds is byte for byte the one a full embedding of the same market builds.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { feedMarket } from "../../src/pipeline/feed";
import { type EmbedRow, embedCatalogueImage, embedMarket, IMAGE_INDEX } from "../../src/pipeline/images/embed-market";
import { runImport } from "../../src/pipeline/import/run";
import type { ImportSummary } from "../../src/pipeline/import/types";
import { openMarketForWrite } from "../../src/db/connection";
import { SVG_SHEET } from "../../src/images/embedding";
import { VectorIndex } from "../../src/images/vector-index";
import { loadSharp } from "../../src/platform/native";
import { tempDataDir, tinyMarketDir, tinyMarketSummary } from "../helpers/app";
import { writeJsonl, writeManifest } from "./fixtures";

/** A catalogue image as the embedding reads it, with its image's id. */
interface Work extends EmbedRow {
  image_id: number;
}

let data: string;
let out: string;
let imagesBefore = 0;
let fed: ImportSummary;
let changed: ImportSummary;
let expectedEmbedded = 0;
let touched: number[] = [];
let unpictured = 0;
let merged: Database;
let full: Database;

const works = (db: Database): Work[] =>
  db
    .query<Work, []>(
      `SELECT a.id AS artwork_id, a.artist_id, a.category_id, i.kind, i.seed, i.path, i.width, i.height, a.title, i.id AS image_id
         FROM artworks a JOIN images i ON i.id = a.image_id ORDER BY a.id`,
    )
    .all();
const vectors = (db: Database): Map<number, string> =>
  new Map(
    db
      .query<{ id: number; embedding: Uint8Array }, []>(`SELECT id, embedding FROM "${IMAGE_INDEX.name}"`)
      .all()
      .map((r) => [r.id, Buffer.from(r.embedding).toString("hex")]),
  );

beforeAll(async () => {
  data = tempDataDir();
  out = tempDataDir("artmarket-merge-embed-");
  cpSync(await tinyMarketDir(), data, { recursive: true });
  const before = new Database(join(data, "market.db"), { readonly: true });
  imagesBefore = works(before).length;
  before.close();

  // two days of feed: results and new sales, no new picture; merged with --refit, the path that
  // builds the snapshot anew and reuses the vectors (a merge without it keeps the file's own:
  // tests/import/incremental.test.ts)
  await feedMarket({ dataDir: data, to: join(out, "fed"), days: 2, quiet: true });
  fed = await runImport({ dataDir: data, from: join(out, "fed"), mode: "merge", refit: true, quiet: true });

  // a day that retitles the first work, redraws the 501st, gives the 1,801st's image to the
  // 1,901st (which keeps its own: the 1,801st has none then) and adds three works after the last
  const db = new Database(join(data, "market.db"), { readonly: true });
  const list = works(db);
  const category = (id: number) => (db.query("SELECT name FROM categories WHERE id = ?").get(id) as { name: string }).name;
  const first = list[0]!;
  const redrawn = list[500]!;
  const moved = list[1800]!;
  const maxWork = list.reduce((m, w) => Math.max(m, w.artwork_id), 0);
  const maxImage = (db.query("SELECT max(id) AS n FROM images").get() as { n: number }).n;
  const dir = join(out, "changed");
  writeManifest(dir, { format: "artmarket-import", version: 1, as_of: fed.asOf });
  const added = [1, 2, 3].map((k) => ({ id: maxWork + k, artist_id: first.artist_id, title: `Merged study ${k}`, category: "Painting" }));
  writeJsonl(dir, "artworks", [{ id: first.artwork_id, artist_id: first.artist_id, title: `${first.title} (retitled)`, category: category(first.category_id) }, ...added]);
  writeJsonl(dir, "images", [
    { id: redrawn.image_id, artwork_id: redrawn.artwork_id, seed: (redrawn.seed ?? 0) + 1, width: redrawn.width, height: redrawn.height },
    { id: moved.image_id, artwork_id: list[1900]!.artwork_id, seed: moved.seed, width: moved.width, height: moved.height },
    ...added.map((w, k) => ({ id: maxImage + 1 + k, artwork_id: w.id, seed: 1000 + k, width: 800, height: 600 })),
  ]);
  db.close();
  touched = [first.artwork_id, redrawn.artwork_id, ...added.map((w) => w.id)];
  unpictured = moved.artwork_id;
  // embedded: the first sheet, the 501st work's sheet, and from the 1,801st's sheet to the end
  expectedEmbedded = SVG_SHEET + SVG_SHEET + (list.length - 1 + added.length - Math.floor(1800 / SVG_SHEET) * SVG_SHEET);
  changed = await runImport({ dataDir: data, from: dir, mode: "merge", quiet: true });

  // the same market embedded in full, to compare with
  copyFileSync(join(data, "market.db"), join(out, "full.db"));
  const w = openMarketForWrite(join(out, "full.db"), data);
  await embedMarket(w, data, undefined, { workers: 0 });
  w.close();
  // connections with sqlite-vec loaded (the vec0 tables); nothing is written
  merged = openMarketForWrite(join(data, "market.db"), data);
  full = openMarketForWrite(join(out, "full.db"), data);
}, 300_000);

afterAll(() => {
  merged?.close();
  full?.close();
  rmSync(data, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

describe("merge import: the previous snapshot's image vectors reused", () => {
  test("seed embeds every image; a fed merge embeds none and reuses them all", async () => {
    const seeded = (await tinyMarketSummary()).embed!;
    expect(seeded.reused).toBe(0);
    expect(seeded.embedded).toBe(imagesBefore);
    expect(fed.mode).toBe("merge");
    expect(fed.embed!.embedded).toBe(0);
    expect(fed.embed!.reused).toBe(imagesBefore);
    expect(fed.embed!.images).toBe(imagesBefore);
    expect(fed.embed!.reuseCheck).toEqual({ checked: SVG_SHEET, matched: true });
  });

  test("a merge that changes pictures embeds only their sheets", () => {
    const e = changed.embed!;
    expect(changed.rejected).toBe(0);
    expect(e.embedded).toBe(expectedEmbedded);
    expect(e.reused).toBe(imagesBefore + 2 - expectedEmbedded);
    expect(e.images).toBe(imagesBefore + 2);
    expect(e.reuseCheck?.matched).toBe(true);
  });

  test("every vector, reused or new, is byte-identical to a full embedding's; the index the same", () => {
    const a = vectors(merged);
    const b = vectors(full);
    expect(a.size).toBe(imagesBefore + 2);
    expect([...a.keys()].sort((x, y) => x - y)).toEqual([...b.keys()].sort((x, y) => x - y));
    const differing = [...a].filter(([id, v]) => b.get(id) !== v).map(([id]) => id);
    expect(differing).toEqual([]);
    for (const id of touched) expect(a.has(id)).toBe(true);
    expect(a.has(unpictured)).toBe(false);
    const ivf = (db: Database) => db.query(`SELECT key, value FROM "${IMAGE_INDEX.name}_ivf" WHERE key NOT LIKE 'build%' ORDER BY key`).all();
    expect(ivf(merged)).toEqual(ivf(full));
  });

  test("a sample of 50 reused vectors equals each work drawn and embedded afresh, alone", async () => {
    // one picture alone can differ from its sheet in the last bits (cosine > 0.99999, docs/vectors.md)
    const list = works(merged).filter((w) => !touched.includes(w.artwork_id));
    const step = Math.floor(list.length / 50);
    const index = new VectorIndex(merged, IMAGE_INDEX);
    const sharp = loadSharp(data);
    for (let k = 0; k < 50; k++) {
      const w = list[k * step]!;
      const fresh = (await embedCatalogueImage(sharp, data, w))!;
      const stored = index.vectorOf(w.artwork_id)!;
      let dot = 0;
      for (let j = 0; j < fresh.length; j++) dot += fresh[j]! * stored[j]!;
      expect([w.artwork_id, dot > 0.99999]).toEqual([w.artwork_id, true]);
      // search by image: the work itself first
      expect(index.search(fresh, 1)[0]!.id).toBe(w.artwork_id);
    }
  });

  test("similar answers as after a full embedding", () => {
    const a = new VectorIndex(merged, IMAGE_INDEX);
    const b = new VectorIndex(full, IMAGE_INDEX);
    const list = works(merged);
    for (const id of [...touched, list[100]!.artwork_id, list[1000]!.artwork_id]) {
      const ours = a.search(a.vectorOf(id)!, 5, { exclude: [id] }).map((h) => h.id);
      const theirs = b.search(b.vectorOf(id)!, 5, { exclude: [id] }).map((h) => h.id);
      expect(ours.length).toBe(5);
      expect(ours).toEqual(theirs);
    }
  });
});
