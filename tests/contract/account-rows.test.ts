/**
 * The market queries that need the caller's account rows (the followed lists and `followed=true`
 * filters of artists, artworks, lots and sales, the is_followed marks, the recommendations, the
 * collectables list, an uploaded image's size) read them from the account store and bind them to
 * the market SQL as one value (src/db/follows.ts, src/serve/modules/collectables/fields.ts). The
 * same tests run on both stores, over the tiny market read in place through a reader that holds
 * market.db alone: what a follow or unfollow changes is seen by the next query (no copy to go
 * stale; with PostgreSQL also a follow made on another node), the lists keep their order and
 * their cursor pages, and a user following thousands of items is read by the market tables'
 * primary keys.
 */
import type { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { FOLLOWED_IDS, FOLLOWED_ROWS, followedParam } from "../../src/db/follows";
import { FxCache } from "../../src/db/fx";
import { openAccountDb, openMarketReader } from "../../src/db/connection";
import { loadSharp } from "../../src/platform/native";
import { closeAsyncClient } from "../../src/serve/accounts/pg-hot";
import { PgAccountStore } from "../../src/serve/accounts/pg-store";
import { type AccountStore, SqliteAccountStore } from "../../src/serve/accounts/store";
import type { AppDeps } from "../../src/serve/deps";
import { collectableImageDir, locateRendition, renderRendition } from "../../src/serve/images/renditions";
import { ImageSigner } from "../../src/serve/images/urls";
import { artistStats, followedArtists, getArtist, listArtists, type ArtistView } from "../../src/serve/modules/artists/service";
import { COLLECTABLE_LIST, LISTED, listedParam } from "../../src/serve/modules/collectables/fields";
import { followedArtworks, recommendedArtworks } from "../../src/serve/modules/artworks/service";
import { listLots } from "../../src/serve/modules/lots/service";
import { listSales } from "../../src/serve/modules/sales/service";
import { orderClause, type ParsedList } from "../../src/serve/query/grammar";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { database } from "../helpers/postgres";

const signer = new ImageSigner(Buffer.alloc(32, 7), null);
const list = (params: Record<string, unknown> = {}, limit = 20): ParsedList => ({ filters: [], sort: null, limit, offset: 0, params });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let marketDir: string;
let market: Database;

beforeAll(async () => {
  marketDir = await tinyMarketDir();
  market = openMarketReader(marketDir);
});

afterAll(() => market?.close());

test("the market reader holds market.db alone: nothing attached", () => {
  expect(
    market
      .query<{ name: string }, []>("PRAGMA database_list")
      .all()
      .map((d) => d.name),
  ).toEqual(["main"]);
});

/** A store, a second one over the same data (another process or node), and how to close them. */
interface Stores {
  store: AccountStore;
  other: AccountStore;
  /** Runs a statement on the store's own connection. */
  exec(sql: string, ...params: (string | number)[]): void;
  close(): Promise<void>;
}

const FACTORIES: { name: "sqlite" | "postgres"; open: () => Promise<Stores> }[] = [
  {
    name: "sqlite",
    open: async () => {
      const dir = tempDataDir("artmarket-rows-");
      const store = new SqliteAccountStore(openAccountDb(dir));
      const other = new SqliteAccountStore(openAccountDb(dir));
      return {
        store,
        other,
        exec: (sql, ...params) => void store.db.prepare(sql).run(...params),
        close: async () => {
          other.close();
          store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "postgres",
    open: async () => {
      const url = await database("rows");
      const store = PgAccountStore.open(url);
      const other = PgAccountStore.open(url);
      return {
        store,
        other,
        exec: (sql, ...params) => void store.pg.run(sql, ...params),
        close: async () => {
          for (const s of [other, store]) {
            await closeAsyncClient(s);
            s.close();
          }
        },
      };
    },
  },
];

for (const factory of FACTORIES) {
  describe(`account rows bound to market SQL (${factory.name})`, () => {
    let s: Stores;
    let store: AccountStore;
    let user1 = 0;
    let user2 = 0;
    let artists: number[] = [];
    const view = (userId: number | null): ArtistView => ({ schema: "full", userId, image: "full", origin: "http://artmarket.test", signer, accounts: store });
    const deps = () =>
      ({
        market,
        signer,
        accounts: store,
        fx: FxCache.lazy(market),
        asOf: market.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()!.value,
      }) as unknown as AppDeps;
    const ids = (table: string, n = 3) =>
      market
        .query<{ id: number }, [number]>(`SELECT id FROM ${table} ORDER BY id LIMIT ?`)
        .all(n)
        .map((r) => r.id);

    beforeAll(async () => {
      s = await factory.open();
      store = s.store;
      store.seedPlans();
      user1 = (await store.createUserWithKey("pro", "one")).userId;
      user2 = (await store.createUserWithKey("pro", "two")).userId;
      artists = ids("artists", 5);
      store.follow(user1, "artist", artists[0]!);
      await sleep(3);
      store.follow(user1, "artist", artists[1]!);
      store.follow(user2, "artist", artists[2]!);
    }, 60_000);

    afterAll(async () => {
      await s?.close();
    });

    test("the followed filter, the followed list, the stats and the marks: the caller's follows only", () => {
      const filtered = listArtists(market, list({ followed: true }), view(user1));
      expect(filtered.artists.map((a) => a.id).sort()).toEqual([artists[0]!, artists[1]!].sort());
      expect(filtered.artists.every((a) => "is_followed" in a && a.is_followed === true)).toBe(true);
      expect(filtered.total).toBe(2);
      const followed = followedArtists(market, list(), view(user1));
      expect(followed.artists.map((a) => a.id)).toEqual([artists[1]!, artists[0]!]); // most recently followed first
      expect(followed.total).toBe(2);
      expect((artistStats(market, list({ followed: true }), view(user1)) as { total: number }).total).toBe(2);
      expect(listArtists(market, list({ followed: true }), view(user2)).artists.map((a) => a.id)).toEqual([artists[2]!]);
      // the plain list marks the caller's follows
      const plain = listArtists(market, list({}, 100), view(user1));
      expect(plain.artists.filter((a) => "is_followed" in a && a.is_followed === true).map((a) => a.id)).toEqual(
        plain.artists.filter((a) => artists.slice(0, 2).includes(a.id as number)).map((a) => a.id),
      );
    });

    test("a follow, then the lists: seen at once, no stale read (here, and on another node for the lists)", async () => {
      const followedIds = () => followedArtists(market, list(), view(user1)).artists.map((a) => a.id);
      const marked = () => artists.filter((id) => (getArtist(market, id, view(user1)) as { is_followed?: boolean }).is_followed === true).length;
      expect(marked()).toBe(2); // the marks of this node read (PostgreSQL: a copy, kept while no change is announced)
      await sleep(3);
      store.follow(user1, "artist", artists[3]!);
      expect(followedIds()).toEqual([artists[3]!, artists[1]!, artists[0]!]);
      expect(listArtists(market, list({ followed: true }), view(user1)).total).toBe(3);
      expect((artistStats(market, list({ followed: true }), view(user1)) as { total: number }).total).toBe(3);
      expect(marked()).toBe(3);
      store.unfollow(user1, "artist", artists[3]!);
      expect(followedIds()).toEqual([artists[1]!, artists[0]!]);
      expect(marked()).toBe(2);
      // another node's follow: the lists and filters read the store each time; the marks follow the announcement
      s.other.follow(user1, "artist", artists[4]!);
      expect(followedIds()).toEqual([artists[4]!, artists[1]!, artists[0]!]);
      expect(listArtists(market, list({ followed: true }), view(user1)).total).toBe(3);
      const end = Date.now() + 5000;
      while (marked() !== 3 && Date.now() < end) await sleep(20);
      expect(marked()).toBe(3);
      s.other.unfollow(user1, "artist", artists[4]!);
      expect(followedIds()).toEqual([artists[1]!, artists[0]!]);
    });

    test("artworks: the followed list in order, ties in a stable order, page by page; the recommendations", () => {
      const works = ids("artworks");
      for (const id of works) store.follow(user1, "artwork", id);
      // one millisecond for all: ties go by the follow's seq (account.db: the order made; PostgreSQL: the target)
      s.exec("UPDATE follows SET created_at = 1000 WHERE user_id = ? AND kind = 'artwork'", user1);
      const page = followedArtworks(deps(), view(user1), user1, list());
      expect(page.total_count).toBe(3);
      expect(page.items.map((a) => a.id)).toEqual([...works].reverse());
      expect(page.items.every((a) => a.is_followed === true)).toBe(true);
      const first = followedArtworks(deps(), view(user1), user1, list({}, 2));
      expect(first.next_cursor).not.toBeNull();
      const second = followedArtworks(deps(), view(user1), user1, list({ cursor: first.next_cursor }, 2));
      expect(second.next_cursor).toBeNull();
      expect([...first.items, ...second.items].map((a) => a.id)).toEqual([...works].reverse());
      const byOffset = followedArtworks(deps(), view(user1), user1, { ...list({}, 2), offset: 1 });
      expect(byOffset.items.map((a) => a.id)).toEqual([...works].reverse().slice(1));
      // the recommendations start from the caller's followed artworks
      expect(recommendedArtworks(deps(), view(user1), user1, list()).total_count).toBeGreaterThan(0);
    });

    test("lots and sales: the followed filter and the marks", () => {
      const lots = ids("lots").slice(0, 2);
      const sales = ids("sales").slice(0, 1);
      for (const id of lots) store.follow(user1, "lot", id);
      for (const id of sales) store.follow(user1, "sale", id);
      const l = listLots(deps(), list(), view(user1), user1);
      expect(l.lots.map((x) => x.id).sort()).toEqual([...lots].sort());
      expect(l.lots.every((x) => "is_followed" in x && x.is_followed === true)).toBe(true);
      expect(listLots(deps(), list(), view(user2), user2).lots).toEqual([]);
      const sl = listSales(deps(), list(), view(user1), user1);
      expect(sl.sales.map((x) => x.id)).toEqual(sales);
      expect(sl.total).toBe(1);
      expect(sl.sales[0]).toMatchObject({ is_followed: true });
    });

    describe("collectables", () => {
      let key: string;

      beforeAll(() => {
        const now = Date.now();
        key = `c${"ab".repeat(12)}`;
        const base = { artist_id: artists[0]!, category_id: 1, edition_unique_type: "unique", created_at: now, updated_at: now };
        store.insertCollectable(user1, { ...base, uid: crypto.randomUUID(), title: "Cheap", machine_estimate_usd: 100 }, now);
        const id = store.insertCollectable(
          user1,
          { ...base, uid: crypto.randomUUID(), title: "Dear", machine_estimate_usd: 50, image_kind: "upload", image_key: key, image_width: 40, image_height: 30 },
          now,
        );
        // the acquisition's price wins over the estimate when asked to
        store.saveAcquisition(user1, id, { price_usd: 5000, use_instead_of_estimates: 1 }, now);
        store.insertCollectable(user2, { ...base, uid: crypto.randomUUID(), title: "Theirs", machine_estimate_usd: 1e6 }, now);
      });

      test("the list's SQL over the bound rows: the caller's rows, their acquisitions, the market's artists", () => {
        const rows = market
          .query<{ title: string; artist: string | null }, [string]>(
            `SELECT c.title, ar.name AS artist FROM ${LISTED} c LEFT JOIN artists ar ON ar.id = c.artist_id ORDER BY ${orderClause(COLLECTABLE_LIST, "VALUE_DESC")}`,
          )
          .all(listedParam(store.collectableListRows(user1)));
        expect(rows.map((r) => r.title)).toEqual(["Dear", "Cheap"]);
        expect(rows[0]!.artist).not.toBeNull();
      });

      test("an uploaded image's size comes from the store; a node without the original fetches it (PostgreSQL)", async () => {
        const rdeps = { market, dataDir: tempDataDir("artmarket-rows-images-"), accounts: store };
        const ref = locateRendition(rdeps, key, 240, "full");
        expect(ref?.row).toMatchObject({ id: key, kind: "upload", width: 40, height: 30, path: key });
        expect(locateRendition(rdeps, "c000000000000000000000000", 240, "full")).toBeNull();
        if (store.kind === "sqlite") return; // account.db keeps no originals: the file is the data directory's
        const sharp = loadSharp(marketDir);
        const png = new Uint8Array(
          await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c04020" } })
            .png()
            .toBuffer(),
        );
        store.saveImageOriginal(key, png);
        const file = join(collectableImageDir(rdeps.dataDir), key);
        expect(existsSync(file)).toBe(false);
        const r = await renderRendition(rdeps, key, 240, "full");
        expect(r?.body?.byteLength).toBeGreaterThan(0);
        expect(new Uint8Array(readFileSync(file))).toEqual(png);
        rmSync(rdeps.dataDir, { recursive: true, force: true });
      });
    });

    test("a user following thousands of items: the market's primary key per id, the lists whole and in order", () => {
      const all = market
        .query<{ id: number }, []>("SELECT id FROM artworks ORDER BY id")
        .all()
        .map((r) => r.id);
      const heavy = all.slice(0, 2000);
      // one statement for all: rows as a follow makes them, one millisecond apart in id order
      const values = heavy.map((id, i) => `(${user2}, 'artwork', ${id}, ${2_000_000 + i})`).join(", ");
      s.exec(`INSERT INTO follows (user_id, kind, target_id, created_at) VALUES ${values}`);
      const page = followedArtworks(deps(), view(user2), user2, list({}, 100));
      expect(page.total_count).toBe(2000);
      expect(page.items.map((a) => a.id)).toEqual([...heavy].reverse().slice(0, 100));
      let cursor = page.next_cursor;
      const seen = page.items.map((a) => a.id as number);
      while (cursor && seen.length < 400) {
        const next = followedArtworks(deps(), view(user2), user2, list({ cursor }, 100));
        seen.push(...next.items.map((a) => a.id as number));
        cursor = next.next_cursor;
      }
      expect(seen).toEqual([...heavy].reverse().slice(0, 400));
      // the plans: each followed id is a search of the table's primary key, never a scan of it
      const plan = (sql: string) =>
        market
          .query<{ detail: string }, [string]>(`EXPLAIN QUERY PLAN ${sql}`)
          .all(followedParam(heavy))
          .map((r) => r.detail);
      for (const [table, sql] of [
        ["artworks", `SELECT a.id FROM ${FOLLOWED_ROWS} f JOIN artworks a ON a.id = f.value WHERE 1`],
        ["artists", `SELECT a.id FROM ${FOLLOWED_ROWS} f JOIN artists a ON a.id = f.value`],
        ["artworks", `SELECT a.id FROM artworks a WHERE a.id IN (${FOLLOWED_IDS}) AND a.creation_year >= 1900`],
        ["lots", `SELECT id FROM lots WHERE id IN (${FOLLOWED_IDS}) ORDER BY sale_datetime DESC LIMIT 21`],
        ["artists", `SELECT a.id FROM artists a WHERE a.id IN (${FOLLOWED_IDS}) ORDER BY a.id LIMIT 21`],
      ] as const) {
        const steps = plan(sql);
        expect(steps.join(" | "), sql).toMatch(new RegExp(`SEARCH (a|${table}) USING (INTEGER PRIMARY KEY|COVERING INDEX \\w+) \\((\\w+=\\? AND )*rowid=\\?\\)`));
        expect(
          steps.some((d) => /^SCAN (a|artworks|lots|artists)\b/.test(d)),
          steps.join(" | "),
        ).toBe(false);
      }
    });
  });
}
