/**
 * Artworks' uids: a default uid is stored as '' in the served table and made on read; a given one
 * is stored; a look-up finds either, and a default uid whose title part is wrong finds nothing.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { artworkIdsByUids, artworkUid, defaultArtworkUid, expandUidPlaceholders, storedArtworkUid, UID_PLACEHOLDER_SQL } from "../../src/db/artwork-uid";

function market(): Database {
  const db = new Database(":memory:");
  db.run("CREATE TABLE artworks (id INTEGER PRIMARY KEY, uid TEXT NOT NULL, title TEXT NOT NULL)");
  db.run("CREATE UNIQUE INDEX artworks_uid ON artworks (uid) WHERE uid <> ''");
  const works: [number, string, string][] = [
    [1, "Red Field", defaultArtworkUid(1, "Red Field")],
    [40, "Ça va, No. 2", defaultArtworkUid(40, "Ça va, No. 2")],
    [41, "Blue", "inv-2024-0007"],
    [1295, "", defaultArtworkUid(1295, "")],
  ];
  const insert = db.query("INSERT INTO artworks (id, uid, title) VALUES (?, ?, ?)");
  for (const [id, title, uid] of works) insert.run(id, storedArtworkUid(id, title, uid), title);
  return db;
}

describe("artworks' uids", () => {
  test("the default: aw-, the id in base 36, the title's slug cut at 40 characters, 'untitled' for none", () => {
    expect(defaultArtworkUid(1, "Red Field")).toBe("aw-1-red-field");
    expect(defaultArtworkUid(40, "Ça va, No. 2")).toBe("aw-14-ca-va-no-2");
    expect(defaultArtworkUid(1295, "")).toBe("aw-zz-untitled");
    expect(defaultArtworkUid(7, "x".repeat(60))).toBe(`aw-7-${"x".repeat(40)}`);
  });

  test("stored as '' when it is the default, as given otherwise; read back whole", () => {
    const db = market();
    const rows = db.query("SELECT id, uid, title FROM artworks ORDER BY id").all() as { id: number; uid: string; title: string }[];
    expect(rows.map((r) => r.uid)).toEqual(["", "", "inv-2024-0007", ""]);
    expect(rows.map((r) => artworkUid(r.id, r.title, r.uid))).toEqual(["aw-1-red-field", "aw-14-ca-va-no-2", "inv-2024-0007", "aw-zz-untitled"]);
    // the index holds the given uid alone
    expect((db.query("SELECT count(*) AS n FROM artworks INDEXED BY artworks_uid WHERE uid <> ''").get() as { n: number }).n).toBe(1);
  });

  test("a look-up finds default and given uids; a wrong title part, a given work's default or an unknown id finds nothing", () => {
    const db = market();
    const found = artworkIdsByUids(db, [
      "aw-1-red-field",
      "aw-14-ca-va-no-2",
      "inv-2024-0007",
      "aw-zz-untitled",
      "aw-1-red-fields",
      "aw-15-blue",
      "aw-zzzz-red-field",
      "aw--x",
      "",
      "red-field",
    ]);
    expect(Object.fromEntries(found)).toEqual({ "aw-1-red-field": 1, "aw-14-ca-va-no-2": 40, "inv-2024-0007": 41, "aw-zz-untitled": 1295 });
    const plan = (db.query("EXPLAIN QUERY PLAN SELECT id FROM artworks WHERE uid = ? AND uid <> ''").all("x") as { detail: string }[]).map((p) => p.detail);
    expect(plan.join(" ")).toContain("artworks_uid");
  });

  test("a copy into a source table writes every uid whole (placeholders replaced)", () => {
    const db = market();
    db.run("CREATE TABLE src (id INTEGER PRIMARY KEY, uid TEXT NOT NULL, title TEXT NOT NULL)");
    db.run("CREATE UNIQUE INDEX src_uid ON src (uid)");
    db.run(`INSERT INTO src (id, uid, title) SELECT id, CASE WHEN uid = '' THEN ${UID_PLACEHOLDER_SQL("id")} ELSE uid END, title FROM artworks`);
    expect(expandUidPlaceholders(db, "src")).toBe(3);
    expect(db.query("SELECT uid FROM src ORDER BY id").all()).toEqual([
      { uid: "aw-1-red-field" },
      { uid: "aw-14-ca-va-no-2" },
      { uid: "inv-2024-0007" },
      { uid: "aw-zz-untitled" },
    ]);
  });
});
