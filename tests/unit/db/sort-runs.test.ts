import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { buildReadIndexes } from "../../../src/db/market-indexes";
import { buildsIndex, SORT_RUN_KIB, withSortRuns } from "../../../src/db/sort-runs";
import { deferIndexes } from "../../../src/pipeline/derive/snapshot";

function cacheSize(db: Database): number {
  return db.query<{ cache_size: number }, []>("PRAGMA cache_size").get()!.cache_size;
}
function tempStore(db: Database): number {
  return db.query<{ temp_store: number }, []>("PRAGMA temp_store").get()!.temp_store;
}

describe("index builds with small sort runs", () => {
  test("the page cache is SORT_RUN_KIB and the runs go to files during the build, both restored after, also when the build fails", () => {
    const db = new Database(":memory:");
    db.run("PRAGMA cache_size = -262144");
    db.run("PRAGMA temp_store = MEMORY");
    let during = [0, 0];
    withSortRuns(db, () => {
      during = [cacheSize(db), tempStore(db)];
    });
    expect(during).toEqual([-SORT_RUN_KIB, 1]);
    expect(cacheSize(db)).toBe(-262144);
    expect(tempStore(db)).toBe(2);
    expect(() =>
      withSortRuns(db, () => {
        throw new Error("failed build");
      }),
    ).toThrow("failed build");
    expect(cacheSize(db)).toBe(-262144);
    expect(tempStore(db)).toBe(2);
  });

  test("an index built with small runs orders its rows as a query's own sort does", () => {
    const db = new Database(":memory:");
    db.run("PRAGMA cache_size = -262144");
    db.run("CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, s TEXT)");
    const ins = db.query("INSERT INTO t (k, s) VALUES (?, ?)");
    db.transaction(() => {
      // enough rows that the sorter spills several runs of SORT_RUN_KIB
      for (let i = 0; i < 200_000; i++) ins.run((i * 7919) % 1009, `name-${(i * 104729) % 200_000}-padding-to-spill-runs`);
    })();
    db.run("CREATE INDEX t_k_s_setup ON t (k, s)");
    const restore = deferIndexes(db, ["t"]);
    expect(db.query("SELECT count(*) n FROM sqlite_master WHERE type = 'index' AND tbl_name = 't'").get()).toEqual({ n: 0 });
    restore();
    expect(cacheSize(db)).toBe(-262144);
    const viaIndex = db.query<{ id: number }, []>("SELECT id FROM t INDEXED BY t_k_s_setup ORDER BY k, s, id").all();
    const sorted = db.query<{ id: number }, []>("SELECT id FROM t NOT INDEXED ORDER BY k, s, id").all();
    expect(viaIndex.length).toBe(200_000);
    expect(viaIndex).toEqual(sorted);
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
  });

  test("only index statements are recognised as builds; the read statements restore the cache", () => {
    expect(buildsIndex("CREATE INDEX IF NOT EXISTS a ON b (c)")).toBe(true);
    expect(buildsIndex("  create unique index a on b (c)")).toBe(true);
    expect(buildsIndex("DROP INDEX IF EXISTS a")).toBe(false);
    expect(buildsIndex("CREATE VIRTUAL TABLE lots_fts USING fts5(text)")).toBe(false);
    expect(buildsIndex("INSERT INTO lots_fts (rowid, text) SELECT 1, 'a'")).toBe(false);
    // buildReadIndexes on an empty schema fails at its first statement: the cache is restored
    const db = new Database(":memory:");
    db.run("PRAGMA cache_size = -65536");
    expect(() => buildReadIndexes(db)).toThrow();
    expect(cacheSize(db)).toBe(-65536);
  });
});
