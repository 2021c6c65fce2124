/**
 * The artworks' source rows in a file of their own while a snapshot is built (src/pipeline/db/works-file.ts):
 * unqualified statements reach the attached table, deferIndexes drops and rebuilds its indexes in
 * the attached file, an immutable reader of the snapshot sees it, and it is deleted whole.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attachNewWorks, detachWorks, removeWorks, worksPath } from "../../src/pipeline/db/works-file";
import { openSnapshotReader } from "../../src/pipeline/derive/artist-pool";
import { deferIndexes } from "../../src/pipeline/derive/snapshot";

const dir = mkdtempSync(join(tmpdir(), "artmarket-works-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const indexesOf = (db: Database, schema: string) =>
  (db.query(`SELECT name FROM "${schema}".sqlite_master WHERE type = 'index' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);

describe("the works file", () => {
  test("attached beside the snapshot: written and read without a schema, indexes deferred and rebuilt there, read immutable, deleted", () => {
    const snapshot = join(dir, "market.db.building");
    const db = new Database(snapshot, { create: true, strict: true });
    db.run("CREATE TABLE lots (id INTEGER PRIMARY KEY, artwork_id INTEGER NOT NULL)");
    db.run("CREATE INDEX lots_artwork ON lots (artwork_id)");
    attachNewWorks(db, snapshot);
    expect(existsSync(worksPath(snapshot))).toBe(true);
    expect(indexesOf(db, "works")).toEqual(["src_artworks_artist", "src_artworks_uid"]);

    const restore = deferIndexes(db, ["lots", "works.src_artworks"]);
    expect(indexesOf(db, "works")).toEqual([]);
    expect(indexesOf(db, "main")).toEqual([]);
    const insert = db.query("INSERT INTO src_artworks (id, uid, artist_id, title, category_id, medium, signed) VALUES (?, ?, ?, 'Untitled', 1, 'ink', 0)");
    for (let i = 1; i <= 50; i++) insert.run(i, `aw-${i}`, 1 + (i % 5));
    restore();
    expect(indexesOf(db, "works")).toEqual(["src_artworks_artist", "src_artworks_uid"]);
    expect(indexesOf(db, "main")).toEqual(["lots_artwork"]);
    expect(() => insert.run(51, "aw-7", 1)).toThrow(/UNIQUE/);
    const plan = (db.query("EXPLAIN QUERY PLAN SELECT id FROM src_artworks WHERE artist_id = 3").all() as { detail: string }[]).map((p) => p.detail).join(" ");
    expect(plan).toContain("src_artworks_artist");
    // the main file holds no source artwork
    expect(db.query("SELECT count(*) AS n FROM main.sqlite_master WHERE name LIKE 'src_artworks%'").get()).toEqual({ n: 0 });

    const reader = openSnapshotReader(snapshot);
    expect(reader.query("SELECT count(*) AS n FROM src_artworks WHERE artist_id = 3").get()).toEqual({ n: 10 });
    reader.close();

    detachWorks(db);
    detachWorks(db); // not attached: nothing to do
    removeWorks(snapshot);
    expect(existsSync(worksPath(snapshot))).toBe(false);
    expect(() => db.query("SELECT 1 FROM src_artworks").get()).toThrow(/no such table/);
    db.close();
  });

  test("a works file left behind by a stopped build is replaced, not appended to", () => {
    const snapshot = join(dir, "market.db.again");
    const first = new Database(snapshot, { create: true, strict: true });
    attachNewWorks(first, snapshot);
    first.run("INSERT INTO src_artworks (id, uid, artist_id, title, category_id, medium) VALUES (1, 'aw-1', 1, 'A', 1, 'ink')");
    first.close();
    const second = new Database(snapshot, { create: true, strict: true });
    attachNewWorks(second, snapshot);
    expect(second.query("SELECT count(*) AS n FROM src_artworks").get()).toEqual({ n: 0 });
    second.close();
    removeWorks(snapshot);
  });
});
