/**
 * The account view (src/serve/accounts/account-view.ts): a market reader opened without account.db
 * gets an in-memory `account` schema filled from the store right before the queries that read it.
 * The store here is a stand-in for PostgreSQL: the SQLite store over an account.db that is NOT
 * attached (its rows are the shapes `accountRows` gives), counting the calls, and keeping image
 * originals in a map.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { accountDbPath, openAccountDb, openMarketReader } from "../../src/db/connection";
import { followedAmong } from "../../src/db/follows";
import { FxCache } from "../../src/db/fx";
import { loadSharp } from "../../src/platform/native";
import { accountViewStore, attachAccountView, syncAccountView } from "../../src/serve/accounts/account-view";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { accountStore, type AccountRows, type AccountStore, type SqliteAccountStore } from "../../src/serve/accounts/store";
import type { AppDeps } from "../../src/serve/deps";
import { collectableImageDir, locateRendition, renderRendition } from "../../src/serve/images/renditions";
import { ImageSigner } from "../../src/serve/images/urls";
import { artistStats, followedArtists, listArtists, type ArtistView } from "../../src/serve/modules/artists/service";
import { COLLECTABLE_LIST } from "../../src/serve/modules/collectables/fields";
import { removeImage } from "../../src/serve/modules/collectables/images";
import { followedArtworks, recommendedArtworks } from "../../src/serve/modules/artworks/service";
import { listLots } from "../../src/serve/modules/lots/service";
import { listSales } from "../../src/serve/modules/sales/service";
import { orderClause, type ParsedList } from "../../src/serve/query/grammar";
import { tempDataDir, tinyMarketDir } from "../helpers/app";

/** What the account view and the image code ask of a PostgreSQL store, over an account.db nobody attaches. */
class StandInStore {
  readonly kind = "postgres" as const;
  rowsCalls = 0;
  sizeCalls = 0;
  readonly originals = new Map<string, Uint8Array>();
  constructor(readonly inner: SqliteAccountStore) {}
  /** Follows versions the test sets (none: nothing may be cached, as before a listener is up). */
  readonly versions = new Map<number, number>();
  accountRows(userId: number, part: "follows" | "all" = "all"): AccountRows {
    this.rowsCalls++;
    return this.inner.accountRows(userId, part);
  }
  followsVersion(userId: number): number | null {
    return this.versions.get(userId) ?? null;
  }
  uploadedImageSize(key: string) {
    this.sizeCalls++;
    return this.inner.uploadedImageSize(key);
  }
  saveImageOriginal(key: string, bytes: Uint8Array): void {
    this.originals.set(key, bytes);
  }
  imageOriginal(key: string): Uint8Array | null {
    return this.originals.get(key) ?? null;
  }
  deleteImageOriginal(key: string): void {
    this.originals.delete(key);
  }
}

let marketDir: string;
let accountDir: string;
let market: Database;
let account: Database;
let store: StandInStore;
let user1: number;
let user2: number;
let artists: number[];
const signer = new ImageSigner(Buffer.alloc(32, 7), null);

const view = (userId: number | null): ArtistView => ({ schema: "full", userId, image: "full", origin: "http://artmarket.test", signer });
const list = (params: Record<string, unknown> = {}, sort: string | null = null): ParsedList => ({ filters: [], sort, limit: 20, offset: 0, params });

beforeAll(async () => {
  marketDir = tempDataDir("artmarket-view-");
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(marketDir, "market.db"));
  accountDir = tempDataDir("artmarket-view-account-");
  account = openAccountDb(accountDir);
  const inner = accountStore(account);
  inner.seedPlans();
  user1 = (await createUserWithKey(account, "pro", "one")).userId;
  user2 = (await createUserWithKey(account, "pro", "two")).userId;
  market = openMarketReader(marketDir, { attachAccount: false });
  store = new StandInStore(inner);
  attachAccountView(market, store as unknown as AccountStore);
  artists = market
    .query<{ id: number }, []>("SELECT id FROM artists ORDER BY id LIMIT 5")
    .all()
    .map((r) => r.id);
  inner.follow(user1, "artist", artists[0]!);
  inner.follow(user1, "artist", artists[1]!);
  inner.follow(user2, "artist", artists[2]!);
});

afterAll(() => {
  market?.close();
  account?.close();
  for (const dir of [marketDir, accountDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the reader without account.db", () => {
  test("nothing attached but the view; market tables readable; market.db not attached read-only", () => {
    const schemas = market
      .query<{ name: string; file: string }, []>("PRAGMA database_list")
      .all()
      .map((d) => [d.name, d.file]);
    expect(schemas).toEqual([
      ["main", join(marketDir, "market.db")],
      ["account", ""],
    ]);
    expect(market.query<{ n: number }, []>("SELECT count(*) AS n FROM artists").get()!.n).toBeGreaterThan(0);
    expect(accountViewStore(market)).toBe(store as unknown as AccountStore);
  });

  test("a second view, a reader with an `account` schema already, or a read-only reader is refused", () => {
    expect(() => attachAccountView(market, store as unknown as AccountStore)).toThrow(/has one already/);
    const attached = openMarketReader(marketDir, { attachAccount: false });
    attached.run("ATTACH DATABASE ? AS account", [accountDbPath(accountDir)]); // as the default reader does
    try {
      expect(() => attachAccountView(attached, store as unknown as AccountStore)).toThrow(/attachAccount: false/);
      expect(accountViewStore(attached)).toBeNull();
      syncAccountView(attached, user1); // no view: nothing happens
    } finally {
      attached.close();
    }
    const readonly = new Database(join(marketDir, "market.db"), { readonly: true, strict: true });
    try {
      expect(() => attachAccountView(readonly, store as unknown as AccountStore)).toThrow(/read-only/);
      expect(
        readonly
          .query<{ name: string }, []>("PRAGMA database_list")
          .all()
          .map((d) => d.name),
      ).toEqual(["main"]);
    } finally {
      readonly.close();
    }
  });

  test("the view's tables have account.db's columns and indexes", () => {
    for (const table of ["follows", "collectables", "collectable_acquisitions"]) {
      const cols = (db: Database, schema: string) =>
        db
          .query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA ${schema}.table_info("${table}")`)
          .all()
          .map((c) => [c.name, c.type.toLowerCase(), c.notnull, c.pk]);
      expect(cols(market, "account")).toEqual(cols(account, "main"));
      const indexes = (db: Database, schema: string) =>
        db
          .query<{ name: string }, []>(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'index' AND tbl_name = '${table}' ORDER BY name`)
          .all()
          .map((r) => r.name);
      expect(indexes(market, "account")).toEqual(indexes(account, "main"));
    }
  });
});

describe("follows", () => {
  test("followedAmong sees the caller's follows only, one store read each, none without ids or caller", () => {
    const before = store.rowsCalls;
    expect([...followedAmong(market, user1, "artist", artists)].sort((a, b) => a - b)).toEqual([artists[0]!, artists[1]!]);
    expect([...followedAmong(market, user2, "artist", artists)]).toEqual([artists[2]!]);
    expect(store.rowsCalls).toBe(before + 2);
    expect(followedAmong(market, user1, "artist", []).size).toBe(0);
    expect(followedAmong(market, null, "artist", artists).size).toBe(0);
    expect(store.rowsCalls).toBe(before + 2);
  });

  test("the next sync sees the store's changes", () => {
    store.inner.follow(user1, "artist", artists[3]!);
    expect(followedAmong(market, user1, "artist", artists).has(artists[3]!)).toBe(true);
    store.inner.unfollow(user1, "artist", artists[3]!);
    expect(followedAmong(market, user1, "artist", artists).has(artists[3]!)).toBe(false);
  });

  test("with a follows version, the marks reuse the view's copy until the version moves; lists of follows always read", () => {
    store.versions.set(user1, 1);
    store.versions.set(user2, 1);
    try {
      const before = store.rowsCalls;
      expect(followedAmong(market, user1, "artist", artists).size).toBe(2);
      expect(followedAmong(market, user1, "artist", artists).size).toBe(2);
      expect(store.rowsCalls).toBe(before + 1);
      // another user in between: the copy refills the table, no store read
      expect(followedAmong(market, user2, "artist", artists).size).toBe(1);
      expect(followedAmong(market, user1, "artist", artists).size).toBe(2);
      expect(store.rowsCalls).toBe(before + 2);
      // a change announced (the version moves): read again
      store.inner.follow(user1, "artist", artists[3]!);
      expect(followedAmong(market, user1, "artist", artists).has(artists[3]!)).toBe(false); // not announced yet: the copy
      store.versions.set(user1, 2);
      expect(followedAmong(market, user1, "artist", artists).has(artists[3]!)).toBe(true);
      expect(store.rowsCalls).toBe(before + 3);
      // the followed filter reads the store whatever the version
      store.inner.unfollow(user1, "artist", artists[3]!);
      expect(listArtists(market, list({ followed: true }), view(user1)).total).toBe(2);
      expect(store.rowsCalls).toBeGreaterThan(before + 3);
    } finally {
      store.versions.clear();
    }
  });

  test("the followed filter, the followed list and the stats sync before their queries", () => {
    // leave user2's rows in the view: each call must bring user1's
    syncAccountView(market, user2);
    const filtered = listArtists(market, list({ followed: true }), view(user1));
    expect(filtered.artists.map((a) => a.id).sort()).toEqual([artists[0], artists[1]].sort());
    expect(filtered.artists.every((a) => a.is_followed === true)).toBe(true);
    expect(filtered.total).toBe(2);

    syncAccountView(market, user2);
    const followed = followedArtists(market, list(), view(user1));
    expect(followed.artists.map((a) => a.id)).toEqual([artists[1], artists[0]]); // most recently followed first
    expect(followed.total).toBe(2);

    syncAccountView(market, user2);
    expect((artistStats(market, list({ followed: true }), user1) as { total: number }).total).toBe(2);

    // the plain list marks the caller's follows
    syncAccountView(market, user2);
    const plain = listArtists(market, list({}), view(user1));
    const marked = plain.artists.filter((a) => a.is_followed === true).map((a) => a.id);
    expect(marked.sort()).toEqual([artists[0], artists[1]].filter((id) => plain.artists.some((a) => a.id === id)).sort());
  });
});

describe("the followed lists and filters of artworks, lots and sales", () => {
  const deps = () =>
    ({
      market,
      signer,
      fx: FxCache.lazy(market),
      asOf: market.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()!.value,
    }) as unknown as AppDeps;
  const ids = (table: string) =>
    market
      .query<{ id: number }, []>(`SELECT id FROM ${table} ORDER BY id LIMIT 3`)
      .all()
      .map((r) => r.id);

  test("artworks: the followed list, most recently followed first (ties in a stable order)", () => {
    const works = ids("artworks");
    for (const id of works) store.inner.follow(user1, "artwork", id);
    // one millisecond for all: the view orders ties by its rowid, derived from the target
    account.run("UPDATE follows SET created_at = 1000 WHERE user_id = ? AND kind = 'artwork'", [user1]);
    syncAccountView(market, user2);
    const page = followedArtworks(deps(), view(user1), user1, list());
    expect(page.total_count).toBe(3);
    expect(page.items.map((a) => a.id)).toEqual([...works].reverse());
    expect(page.items.every((a) => a.is_followed === true)).toBe(true);
    // and page by page through the cursor, the same order
    const first = followedArtworks(deps(), view(user1), user1, { ...list(), limit: 2 });
    expect(first.next_cursor).not.toBeNull();
    syncAccountView(market, user2);
    const second = followedArtworks(deps(), view(user1), user1, { ...list({ cursor: first.next_cursor }), limit: 2 });
    expect([...first.items, ...second.items].map((a) => a.id)).toEqual([...works].reverse());
    // the recommendations start from the caller's followed artworks
    syncAccountView(market, user2);
    expect(recommendedArtworks(deps(), view(user1), user1, list()).total_count).toBeGreaterThan(0);
  });

  test("lots and sales: the followed filter", () => {
    const lots = ids("lots").slice(0, 2);
    const sales = ids("sales").slice(0, 1);
    for (const id of lots) store.inner.follow(user1, "lot", id);
    for (const id of sales) store.inner.follow(user1, "sale", id);
    syncAccountView(market, user2);
    const l = listLots(deps(), list(), view(user1), user1);
    expect(l.lots.map((x) => x.id).sort()).toEqual([...lots].sort());
    expect(l.lots.every((x) => x.is_followed === true)).toBe(true);
    syncAccountView(market, user2);
    const s = listSales(deps(), list(), view(user1), user1);
    expect(s.sales.map((x) => x.id)).toEqual(sales);
    expect(s.total).toBe(1);
    expect(s.sales[0]!.is_followed).toBe(true);
  });
});

describe("collectables", () => {
  let key: string;

  beforeAll(() => {
    const now = Date.now();
    key = `c${"ab".repeat(12)}`;
    const base = { artist_id: artists[0]!, category_id: 1, edition_unique_type: "unique", created_at: now, updated_at: now };
    store.inner.insertCollectable(user1, { ...base, uid: crypto.randomUUID(), title: "Cheap", machine_estimate_usd: 100 }, now);
    const id = store.inner.insertCollectable(
      user1,
      {
        ...base,
        uid: crypto.randomUUID(),
        title: "Dear",
        machine_estimate_usd: 50,
        image_kind: "upload",
        image_key: key,
        image_width: 40,
        image_height: 30,
      },
      now,
    );
    // the acquisition's price wins over the estimate when asked to
    store.inner.saveAcquisition(user1, id, { price_usd: 5000, use_instead_of_estimates: 1 }, now);
    store.inner.insertCollectable(user2, { ...base, uid: crypto.randomUUID(), title: "Theirs", machine_estimate_usd: 1e6 }, now);
  });

  test("the list's SQL runs over the view: the caller's rows, their acquisitions, the market's artists", () => {
    syncAccountView(market, user1);
    const rows = market
      .query<{ title: string; artist: string | null }, [number]>(
        `SELECT c.title, ar.name AS artist FROM account.collectables c
           LEFT JOIN account.collectable_acquisitions q ON q.collectable_id = c.id
           LEFT JOIN artists ar ON ar.id = c.artist_id
          WHERE c.user_id = ? ORDER BY ${orderClause(COLLECTABLE_LIST, "VALUE_DESC")}`,
      )
      .all(user1);
    expect(rows.map((r) => r.title)).toEqual(["Dear", "Cheap"]);
    expect(rows[0]!.artist).not.toBeNull();
  });

  test("an uploaded image's size comes from the store", () => {
    const before = store.sizeCalls;
    const ref = locateRendition({ market, dataDir: marketDir }, key, 240, "full");
    expect(ref?.row).toMatchObject({ id: key, kind: "upload", width: 40, height: 30, path: key });
    expect(locateRendition({ market, dataDir: marketDir }, "c000000000000000000000000", 240, "full")).toBeNull();
    expect(store.sizeCalls).toBe(before + 2);
  });

  test("a node without the original fetches it from the store, keeps it, and draws", async () => {
    const sharp = loadSharp(marketDir);
    const png = new Uint8Array(
      await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c04020" } })
        .png()
        .toBuffer(),
    );
    store.saveImageOriginal(key, png);
    const file = join(collectableImageDir(marketDir), key);
    expect(existsSync(file)).toBe(false);
    const r = await renderRendition({ market, dataDir: marketDir }, key, 240, "full");
    expect(r?.body?.byteLength).toBeGreaterThan(0);
    expect(new Uint8Array(readFileSync(file))).toEqual(png);

    // removing the image forgets the stored bytes with the files
    removeImage({ config: { dataDir: marketDir }, accounts: store } as unknown as AppDeps, key);
    expect(store.imageOriginal(key)).toBeNull();
    expect(existsSync(file)).toBe(false);
  });
});
