/**
 * The market snapshot (src/serve/snapshot.ts): one per connection, its facts found once; and the
 * planner's primitives (src/serve/query/planner.ts).
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { chooseRange, countUpTo, probeRange, rangeRows, walkBound, walkRows } from "../../src/serve/query/planner";
import { snapshotOf } from "../../src/serve/snapshot";

function market(): Database {
  const db = new Database(":memory:");
  db.run("CREATE TABLE lots (id INTEGER PRIMARY KEY, k INTEGER)");
  db.run("CREATE INDEX lots_k ON lots (k)");
  db.run("CREATE TABLE market_meta (key TEXT PRIMARY KEY, value TEXT)");
  db.run("INSERT INTO market_meta VALUES ('as_of', '2026-01-01'), ('seed', '7')");
  const insert = db.query<null, [number, number]>("INSERT INTO lots VALUES (?, ?)");
  for (let id = 1; id <= 100; id++) insert.run(id, id % 10);
  return db;
}

test("one snapshot per connection: its schema, counts and statements are found once", () => {
  const db = market();
  const snapshot = snapshotOf(db);
  expect(snapshotOf(db)).toBe(snapshot);
  expect(snapshotOf(market())).not.toBe(snapshot);
  expect([snapshot.hasIndex("lots_k"), snapshot.hasIndex("lots"), snapshot.hasTable("lots"), snapshot.hasFts("lots_fts")]).toEqual([true, false, true, false]);
  expect(snapshot.maxId("lots")).toBe(100);
  expect(snapshot.stamp()).toBe("as_of=2026-01-01;seed=7");
  // a snapshot never changes while it is open: what was found stays
  db.run("CREATE INDEX lots_later ON lots (k, id)");
  db.run("INSERT INTO lots VALUES (101, 1)");
  expect([snapshot.hasIndex("lots_later"), snapshot.maxId("lots")]).toEqual([false, 100]);
  const sql = "SELECT k FROM lots WHERE id = ?";
  expect(snapshot.statement<{ k: number }, [number]>(sql)).toBe(snapshot.statement<{ k: number }, [number]>(sql));
  expect(snapshot.statement<{ k: number }, [number]>(sql).get(3)).toEqual({ k: 3 });
});

test("the artist statistics keep the 64 most recently used", () => {
  const snapshot = snapshotOf(market());
  for (let i = 0; i < 64; i++) snapshot.keepArtistStats(`k${i}`, { i });
  expect(snapshot.artistStats("k0")).toEqual({ i: 0 }); // now the most recently used
  snapshot.keepArtistStats("k64", { i: 64 });
  expect([snapshot.artistStats("k0"), snapshot.artistStats("k1"), snapshot.artistStats("k64")]).toEqual([{ i: 0 }, undefined, { i: 64 }]);
});

test("planner primitives: bounded counts and probes, the range chosen, the walk's rows", () => {
  const db = market();
  const k3 = { sql: "k = ?", params: [3] };
  expect(countUpTo(db, "lots", "lots_k", k3, 1000)).toBe(10);
  expect(countUpTo(db, "lots", "lots_k", k3, 4)).toBe(4);
  const everyOther = { sql: "id % 2 = 0", params: [] };
  const short = probeRange(db, "lots", "lots_k", everyOther, k3, 50);
  expect(short).toEqual({ index: "lots_k", read: 10, matched: 0 });
  const long = probeRange(db, "lots", "lots_k", everyOther, { sql: "k >= ?", params: [0] }, 50);
  expect(long).toEqual({ index: "lots_k", read: 50, matched: 30 }); // k 0, 2, 4: even ids
  // a complete probe wins; else the best share, its range estimated as total / share
  expect(chooseRange([long, short], 50)).toEqual({ best: short, complete: short });
  const other = { index: "other", read: 50, matched: 5 };
  const choice = chooseRange([other, long], 50);
  expect(choice).toEqual({ best: long, complete: undefined });
  expect(rangeRows(choice, 60, Number.POSITIVE_INFINITY)).toBeCloseTo(100);
  expect(rangeRows(chooseRange([{ index: "none", read: 50, matched: 0 }], 50), 0, 7)).toBe(7);
  expect(walkRows(20, 1000, 100)).toBe(200);
  expect(walkRows(20, 1000, 0)).toBe(1000);
  expect(walkBound(21, 1_000_000)).toBe(Math.ceil(Math.sqrt(21_000_000)));
});

test("the followed sets a list's filters keep: read once per key, 64 kept, the least recently used out", () => {
  const db = new Database(":memory:");
  const snapshot = snapshotOf(db);
  let reads = 0;
  const read = (n: number) => () => {
    reads++;
    return new Set([n]);
  };
  expect([...snapshot.followedKept("a", read(1))]).toEqual([1]);
  expect([...snapshot.followedKept("a", read(2))]).toEqual([1]);
  expect(reads).toBe(1);
  // another key (another follow made, another filter): read
  expect([...snapshot.followedKept("b", read(2))]).toEqual([2]);
  expect(reads).toBe(2);
  // "a" used last; 63 more keys push "b" out, not "a"
  snapshot.followedKept("a", read(0));
  for (let i = 0; i < 63; i++) snapshot.followedKept(`k${i}`, read(i));
  expect(reads).toBe(65);
  snapshot.followedKept("a", read(0));
  expect(reads).toBe(65);
  expect([...snapshot.followedKept("b", read(3))]).toEqual([3]);
  expect(reads).toBe(66);
  // another connection (the next snapshot) keeps its own
  expect([...snapshotOf(new Database(":memory:")).followedKept("a", read(4))]).toEqual([4]);
  db.close();
});
