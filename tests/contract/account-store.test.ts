/**
 * The AccountStore contract: the same test bodies run against account.db (SqliteAccountStore) and
 * PostgreSQL (PgAccountStore), and both stores must give the same answers: every method is checked
 * for its values, and the answers that do not depend on randomness or the clock are recorded per
 * store and compared at the end.
 *
 * Rows the store only reads (the ledger, its daily roll-ups, notices) are written with the store's
 * own connection, as the ledger would.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verify } from "@node-rs/argon2";
import { vectorBytes } from "../../src/db/collectables";
import { accountDbPath, openAccountDb } from "../../src/db/connection";
import { SyncPg } from "../../src/db/pg/sync-client";
import { today } from "../../src/market/time";
import { AccountCounters } from "../../src/serve/accounts/counters";
import { KeyError } from "../../src/serve/accounts/keys";
import { PgAccountStore } from "../../src/serve/accounts/pg-store";
import { DEFAULT_PLANS } from "../../src/serve/accounts/plans";
import { type AccountStore, type AppraisalRow, type CollectableRow, SqliteAccountStore } from "../../src/serve/accounts/store";
import { database } from "../helpers/postgres";

type Value = string | number | null;

interface Harness {
  store: AccountStore;
  /** Runs a statement over the store's own connection. */
  exec(sql: string, ...params: Value[]): void;
  /** Rows of a query over the store's own connection. */
  query<T>(sql: string, ...params: Value[]): T[];
  /** A second store over the same data (another process or node). */
  other(): AccountStore;
  close(): void;
}

const FACTORIES: { name: "sqlite" | "postgres"; open: () => Promise<Harness> }[] = [
  {
    name: "sqlite",
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "artmarket-store-"));
      const db = openAccountDb(dir);
      const store = new SqliteAccountStore(db);
      const others: Database[] = [];
      return {
        store,
        exec: (sql, ...params) => void db.prepare(sql).run(...params),
        query: <T>(sql: string, ...params: Value[]) => db.prepare(sql).all(...params) as T[],
        other: () => {
          const second = new Database(accountDbPath(dir), { strict: true });
          others.push(second);
          return new SqliteAccountStore(second);
        },
        close: () => {
          for (const o of others) o.close();
          store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "postgres",
    open: async () => {
      const url = await database("store");
      const store = PgAccountStore.open(url);
      // the test server's databases collate as C; a production one may well be en_US: give the
      // ordered text columns a language collation, so that the order the store answers is checked
      if (store.pg.get("SELECT 1 AS one FROM pg_collation WHERE collname = 'en-x-icu'")) {
        for (const [table, column] of [
          ["plans", "slug"],
          ["du_daily", "day"],
          ["du_daily", "endpoint"],
        ]) {
          store.pg.script(`ALTER TABLE ${table} ALTER COLUMN ${column} TYPE text COLLATE "en-x-icu"`);
        }
      }
      const others: SyncPg[] = [];
      return {
        store,
        exec: (sql, ...params) => void store.pg.run(sql, ...params),
        query: <T>(sql: string, ...params: Value[]) => store.pg.all<T>(sql, ...params),
        other: () => {
          const second = new SyncPg(url);
          others.push(second);
          return new PgAccountStore(second);
        },
        close: () => {
          for (const o of others) o.close();
          store.close();
        },
      };
    },
  },
];

/** What each store answered, by check: compared across the stores by the last test. */
const answers: Record<string, Record<string, unknown>> = {};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(20);
  }
}

const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);

for (const factory of FACTORIES) {
  describe(`AccountStore (${factory.name})`, () => {
    let h: Harness;
    let store: AccountStore;
    const note = (name: string, value: unknown) => {
      answers[factory.name] ??= {};
      answers[factory.name]![name] = value;
    };
    // the users of the tests below (created by the keys test)
    let ada = 0;
    let bob = 0;

    beforeAll(async () => {
      h = await factory.open();
      store = h.store;
    });

    afterAll(() => h?.close());

    test("kind", () => {
      expect(store.kind).toBe(factory.name);
    });

    test("plans: seeded once, listed in order, operator edits survive", () => {
      expect(store.listPlans()).toEqual([]);
      expect(store.getPlan("pro")).toBeNull();
      store.seedPlans();
      store.seedPlans(); // idempotent
      expect(store.listPlans()).toEqual([...DEFAULT_PLANS]);
      expect(store.getPlan("pro")).toEqual(DEFAULT_PLANS[1]!);
      expect(store.getPlan("gold")).toBeNull();

      // an operator's edit survives the next seeding; a removed default plan comes back
      h.exec("UPDATE plans SET rps_limit = 7, features = ? WHERE slug = 'sandbox'", JSON.stringify({ analytics: true }));
      h.exec("DELETE FROM plans WHERE slug = 'enterprise'");
      expect(store.listPlans().map((p) => p.slug)).toEqual(["sandbox", "pro"]);
      store.seedPlans();
      const sandbox = store.getPlan("sandbox")!;
      expect(sandbox.rps_limit).toBe(7);
      // features over the slug's defaults
      expect(sandbox.features).toEqual({ ...DEFAULT_PLANS[0]!.features, analytics: true });
      expect(store.getPlan("enterprise")).toEqual(DEFAULT_PLANS[2]!);
      expect(store.listPlans().map((p) => p.slug)).toEqual(["sandbox", "pro", "enterprise"]);
      note("plans", store.listPlans());
    });

    test("users and keys: create, find by kid, list, revoke", async () => {
      expect(store.hasUsers()).toBe(false);
      const created = await store.createUserWithKey("sandbox", "  Ada  ");
      expect(store.hasUsers()).toBe(true);
      expect(created).toEqual({ userId: 1, keyId: 1, kid: expect.stringMatching(/^[0-9a-f]{16}$/), key: expect.any(String), plan: "sandbox" });
      expect(created.key).toMatch(new RegExp(`^am_${created.kid}_[A-Za-z0-9_-]{43}$`));
      ada = created.userId;

      const row = store.findKeyByKid(created.kid)!;
      expect(row).toEqual({
        key_id: 1,
        hash: expect.stringMatching(/^\$argon2id\$/),
        revoked_at: null,
        scope: "full",
        expires_at: null,
        user_id: 1,
        user_name: "Ada",
        plan_slug: "sandbox",
        role: "member",
        disabled_at: null,
        period_anchor: today(),
      });
      expect(await verify(row.hash, created.key)).toBe(true);
      expect(store.findKeyByKid("0123456789abcdef")).toBeNull();

      const second = await store.createUserWithKey("pro");
      expect(second).toMatchObject({ userId: 2, keyId: 2, plan: "pro" });
      bob = second.userId;
      expect(store.findKeyByKid(second.kid)).toMatchObject({ user_name: "pro user", plan_slug: "pro" });

      const err = await store.createUserWithKey("gold", "x").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KeyError);
      expect((err as Error).message).toBe('unknown plan "gold" (plans: sandbox, pro, enterprise)');
      expect(store.listKeys()).toHaveLength(2); // nothing written for the unknown plan

      const third = await store.createUserWithKey("enterprise", "Cy");
      const before = Date.now();
      const keys = store.listKeys();
      expect(keys).toEqual([
        { id: 1, kid: created.kid, user_id: 1, name: "Ada", plan: "sandbox", created_at: expect.any(String), revoked_at: null },
        { id: 2, kid: second.kid, user_id: 2, name: "pro user", plan: "pro", created_at: expect.any(String), revoked_at: null },
        { id: 3, kid: third.kid, user_id: 3, name: "Cy", plan: "enterprise", created_at: expect.any(String), revoked_at: null },
      ]);
      for (const k of keys) expect(new Date(k.created_at).toISOString()).toBe(k.created_at);

      // by numeric id, then by kid; only active keys
      expect(store.revokeKey("3")).toBe(true);
      expect(store.revokeKey("3")).toBe(false);
      expect(store.revokeKey(third.kid)).toBe(false);
      expect(store.revokeKey("99")).toBe(false);
      expect(store.revokeKey("99999999999999999999999")).toBe(false);
      expect(store.revokeKey("3000000000")).toBe(false);
      expect(store.revokeKey("no-such-kid")).toBe(false);
      const revoked = store.listKeys()[2]!;
      expect(Date.parse(revoked.revoked_at!)).toBeGreaterThanOrEqual(before - 1);
      expect(store.findKeyByKid(third.kid)!.revoked_at).toBe(Date.parse(revoked.revoked_at!));
      expect(store.listKeys().map((k) => k.revoked_at === null)).toEqual([true, true, false]);
      note(
        "keys",
        store.listKeys().map((k) => ({ ...k, kid: "", created_at: "", revoked_at: k.revoked_at && "revoked" })),
      );
    });

    test("dataVersion moves when another connection revokes a key", async () => {
      const other = h.other();
      const { kid } = await other.createUserWithKey("sandbox", "Dee");
      expect(store.findKeyByKid(kid)).toMatchObject({ user_name: "Dee", revoked_at: null });
      // the changes of the tests before have been heard (PostgreSQL's epoch comes by notification)
      await until(() => store.dataVersion() >= 0);
      await sleep(700);
      const v0 = store.dataVersion();
      expect(other.revokeKey(kid)).toBe(true);
      expect(store.findKeyByKid(kid)!.revoked_at).not.toBeNull();
      await until(() => store.dataVersion() !== v0);
    });

    test("follows: idempotent, among, most recent first, unfollow", async () => {
      store.follow(ada, "artist", 9);
      store.follow(ada, "artist", 9);
      await sleep(3);
      store.follow(ada, "artist", 3);
      await sleep(3);
      store.follow(ada, "artist", 5);
      store.follow(ada, "artwork", 5);
      store.follow(bob, "artist", 4);
      expect(store.followedIds(ada, "artist")).toEqual([3, 5, 9]); // by id
      expect(store.followedRows(ada, "artist").map((r) => r.target_id)).toEqual([5, 3, 9]); // most recently followed first
      expect(store.followedIds(ada, "artwork")).toEqual([5]);
      expect(store.followedIds(ada, "lot")).toEqual([]);
      expect(store.followedAmong(ada, "artist", [3, 4, 5, 6])).toEqual(new Set([3, 5]));
      expect(store.followedAmong(ada, "artist", [])).toEqual(new Set());
      expect(store.followedAmong(null, "artist", [3])).toEqual(new Set());
      store.unfollow(ada, "artist", 3);
      store.unfollow(ada, "artist", 42);
      expect(store.followedIds(ada, "artist")).toEqual([5, 9]);
      expect(store.followedIds(bob, "artist")).toEqual([4]);
      // the rows of the followed lists: followedIds' order, created_at, and a seq per follow (ties' order)
      const rows = store.followedRows(ada, "artist");
      expect(rows.map((r) => r.target_id)).toEqual([5, 9]);
      for (const r of rows) expect([typeof r.created_at, Number.isSafeInteger(r.seq)]).toEqual(["number", true]);
      expect(new Set(rows.map((r) => r.seq)).size).toBe(2);
      expect(store.followedRows(ada, "lot")).toEqual([]);
      note("follows", [store.followedIds(ada, "artist"), store.followedIds(ada, "artwork"), [...store.followedAmong(ada, "artist", [5, 9, 3])].sort()]);
    });

    test("shares: create, find, wrong kind, expired, bad token", () => {
      const now = 1_700_000_000_000;
      const share = store.createShare(ada, "artwork", [3, 1, 2], "Mine", now);
      expect(share).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/), kind: "artwork", ids: [3, 1, 2], title: "Mine", expiresAt: now + 30 * 86_400_000 });
      expect(store.findShare(share.token, "artwork", now + 1)).toEqual(share);
      expect(store.findShare(share.token, "lot", now + 1)).toBeNull();
      expect(store.findShare(share.token, "artwork", share.expiresAt)).toBeNull();
      expect(store.findShare(share.token, "artwork", share.expiresAt - 1)).toEqual(share);
      expect(store.findShare("not a token!", "artwork", now)).toBeNull();
      expect(store.findShare("A".repeat(24), "artwork", now)).toBeNull();
      const untitled = store.createShare(bob, "lot", [], null, now);
      expect(store.findShare(untitled.token, "lot", now)).toEqual({ ...untitled, title: null, ids: [] });
      note("shares", [
        { ...store.findShare(share.token, "artwork", now)!, token: "" },
        { ...store.findShare(untitled.token, "lot", now)!, token: "" },
      ]);
    });

    // ---------------------------------------------------------------- collectables

    let first = 0;
    let second = 0;
    const vector = new Float32Array([0.5, -1, 2.25]);

    test("collectables: insert with its acquisition, read, not another user's", () => {
      first = store.insertCollectable(
        ada,
        {
          uid: "uid-1",
          artist_id: 10,
          category_id: 2,
          edition_unique_type: "unique",
          title: "Sunset",
          measurements_height: 50.5,
          material_ids: "[1,2]",
          image_kind: "upload",
          image_key: "img-1",
          image_width: 800,
          image_height: 600,
          embedding: vectorBytes(vector),
          valued_on: "s1",
          created_at: 1000,
          updated_at: 1000,
        },
        1000,
      );
      second = store.insertCollectable(
        ada,
        { uid: "uid-2", artist_id: 11, category_id: 3, edition_unique_type: "edition", edition_number: 2, edition_size: 10, created_at: 1100, updated_at: 1100 },
        1100,
      );
      const theirs = store.insertCollectable(
        bob,
        {
          uid: "uid-3",
          artist_id: 12,
          category_id: 2,
          edition_unique_type: "unique",
          image_kind: "artwork",
          image_key: "img-3",
          image_width: 5,
          image_height: 6,
          created_at: 1200,
          updated_at: 1200,
        },
        1200,
      );
      expect([first, second, theirs]).toEqual([1, 2, 3]);

      const row = store.collectable(ada, first)!;
      expect(row).toEqual({
        id: first,
        uid: "uid-1",
        user_id: ada,
        artist_id: 10,
        category_id: 2,
        suggested_artwork_id: null,
        title: "Sunset",
        creation_year: null,
        edition_unique_type: "unique",
        edition_number: null,
        edition_size: null,
        condition: null,
        signature: null,
        current_location: null,
        measurements_unit: "cm",
        measurements_height: 50.5,
        measurements_width: null,
        measurements_depth: null,
        material_ids: "[1,2]",
        substrate_ids: "[]",
        surface_ids: "[]",
        damage_ids: "[]",
        manual_price_value: null,
        selected_price_type: "machine",
        image_kind: "upload",
        image_key: "img-1",
        image_market_id: null,
        image_width: 800,
        image_height: 600,
        embedding: expect.anything(),
        machine_estimate_usd: null,
        machine_estimate_basis: null,
        valued_on: "s1",
        created_at: 1000,
        updated_at: 1000,
      } satisfies Record<keyof CollectableRow, unknown>);
      expect(row.embedding).toBeInstanceOf(Uint8Array);
      expect([...row.embedding!]).toEqual([...vectorBytes(vector)]);
      expect(store.collectable(bob, first)).toBeNull();
      expect(store.collectable(ada, 999)).toBeNull();

      expect(store.acquisition(ada, first)).toEqual({
        collectable_id: first,
        date: null,
        price: null,
        currency: null,
        price_usd: null,
        location: null,
        source_type: null,
        seller_name: null,
        dealer_name: null,
        auction_house_id: null,
        auction_house_name: null,
        use_instead_of_estimates: 0,
        updated_at: 1000,
      });
      expect(store.acquisition(bob, first)).toBeNull();
      note("collectable", { ...row, embedding: [...row.embedding!] });
    });

    test("collectables: update moves updated_at forward, valuation, stale, by ids", () => {
      store.updateCollectable(ada, first, { title: "Dawn", condition: "good" }, 1000);
      expect(store.collectable(ada, first)).toMatchObject({ title: "Dawn", condition: "good", updated_at: 1001 });
      store.updateCollectable(ada, first, {}, 5000);
      expect(store.collectable(ada, first)!.updated_at).toBe(5000);
      store.updateCollectable(bob, first, { title: "Stolen" }, 6000);
      expect(store.collectable(ada, first)).toMatchObject({ title: "Dawn", updated_at: 5000 });
      store.touchCollectable(ada, first, 10);
      expect(store.collectable(ada, first)!.updated_at).toBe(5001);
      store.touchCollectable(bob, first, 9999);
      expect(store.collectable(ada, first)!.updated_at).toBe(5001);

      store.saveValuation(ada, first, 1234.5, "comps", "s2");
      store.saveValuation(bob, first, 1, "x", "s9");
      expect(store.collectable(ada, first)).toMatchObject({ machine_estimate_usd: 1234.5, machine_estimate_basis: "comps", valued_on: "s2" });
      expect(store.staleCollectables(ada, "s2").map((r) => r.id)).toEqual([second]);
      expect(byId(store.staleCollectables(ada, "s1")).map((r) => r.id)).toEqual([first, second]);
      expect(store.staleCollectables(bob, "s2").map((r) => r.id)).toEqual([3]);

      expect(byId(store.collectablesByIds(ada, [second, first, 3, 999])).map((r) => r.uid)).toEqual(["uid-1", "uid-2"]);
      expect(store.collectablesByIds(bob, [first, second])).toEqual([]);
      expect(store.collectablesByIds(ada, [])).toEqual([]);
      expect(byId(store.collectablesByIds(ada, [first, second]))).toEqual([store.collectable(ada, first)!, store.collectable(ada, second)!]);

      expect(store.collectableEmbedding(ada, first)).toEqual(vector);
      expect(store.collectableEmbedding(ada, second)).toBeNull();
      expect(store.collectableEmbedding(bob, first)).toBeUndefined();
      expect(store.collectableEmbedding(ada, 999)).toBeUndefined();
      note(
        "updated",
        byId(store.collectablesByIds(ada, [first, second])).map((r) => ({ ...r, embedding: r.embedding && [...r.embedding] })),
      );
    });

    test("acquisitions: save (creating the row), price in USD, not another user's", () => {
      store.saveAcquisition(ada, first, { date: "2020-01-02", price: 100, currency: "EUR", use_instead_of_estimates: true }, 6000);
      expect(store.acquisition(ada, first)).toMatchObject({ date: "2020-01-02", price: 100, currency: "EUR", price_usd: null, use_instead_of_estimates: 1, updated_at: 6000 });
      expect(store.collectable(ada, first)!.updated_at).toBe(6000);
      store.setAcquisitionPriceUsd(ada, first, 110.5);
      store.setAcquisitionPriceUsd(bob, first, 1);
      expect(store.acquisition(ada, first)!.price_usd).toBe(110.5);
      store.saveAcquisition(ada, first, { use_instead_of_estimates: false }, 6000);
      expect(store.acquisition(ada, first)).toMatchObject({ use_instead_of_estimates: 0, price: 100, updated_at: 6000 });
      expect(store.collectable(ada, first)!.updated_at).toBe(6001);

      // a collectable without its acquisition row gets one
      h.exec("DELETE FROM collectable_acquisitions WHERE collectable_id = ?", second);
      expect(store.acquisition(ada, second)).toBeNull();
      store.saveAcquisition(ada, second, { seller_name: "Gallery" }, 7000);
      expect(store.acquisition(ada, second)).toMatchObject({ collectable_id: second, seller_name: "Gallery", use_instead_of_estimates: 0, updated_at: 7000 });

      expect(store.acquisitionsOf(ada, [])).toEqual([]);
      expect(store.acquisitionsOf(bob, [first, second])).toEqual([]);
      const both = [...store.acquisitionsOf(ada, [second, first, 3])].sort((a, b) => a.collectable_id - b.collectable_id);
      expect(both).toEqual([store.acquisition(ada, first)!, store.acquisition(ada, second)!]);
      note("acquisitions", both);
    });

    test("children: insert, order, update, delete, not another user's", () => {
      const t = "collectable_appraisals";
      const late = store.insertChild(ada, t, first, { type: "insurance", value: 10, currency: "USD", value_usd: 10, date: "2021-05-01", is_best_guess: true }, 8000);
      const early = store.insertChild(ada, t, first, { type: "retail", value: 5, currency: "EUR", value_usd: 5.5, date: "2020-01-01", company_name: "Acme" }, 8000);
      expect(store.collectable(ada, first)!.updated_at).toBe(8001);
      expect(store.children<AppraisalRow>(ada, t, [first], "date, id").map((r) => r.id)).toEqual([early, late]);
      expect(store.children<AppraisalRow>(ada, t, [first], "id").map((r) => r.id)).toEqual([late, early]);
      expect(store.children(ada, t, [], "id")).toEqual([]);
      expect(store.children(bob, t, [first], "id")).toEqual([]);
      expect(store.child<AppraisalRow>(ada, t, first, late)).toEqual({
        id: late,
        collectable_id: first,
        type: "insurance",
        value: 10,
        currency: "USD",
        value_usd: 10,
        date: "2021-05-01",
        company_name: null,
        is_best_guess: 1,
        created_at: 8000,
      });
      expect(store.child(bob, t, first, late)).toBeNull();
      expect(store.child(ada, t, second, late)).toBeNull();
      expect(() => store.insertChild(bob, t, first, { type: "x", value: 1, currency: "USD", value_usd: 1, date: "2020-01-01" }, 8000)).toThrow(
        `collectable ${first} is not the user's`,
      );

      store.updateChild(ada, t, first, late, { value: 20, is_best_guess: false }, 9000);
      expect(store.child(ada, t, first, late)).toMatchObject({ value: 20, is_best_guess: 0 });
      expect(store.collectable(ada, first)!.updated_at).toBe(9000);
      store.updateChild(bob, t, first, late, { value: 99 }, 9000);
      expect(store.child(ada, t, first, late)).toMatchObject({ value: 20 });

      store.deleteChild(ada, t, first, early, 9500);
      expect(store.children<AppraisalRow>(ada, t, [first], "id").map((r) => r.id)).toEqual([late]);
      expect(store.collectable(ada, first)!.updated_at).toBe(9500);

      const prov = store.insertChild(ada, "collectable_provenance", first, { owner: "Estate", year_from: 1901, is_up_to_present: true }, 9600);
      const prov2 = store.insertChild(ada, "collectable_provenance", second, { owner: "Dealer", location: "Paris" }, 9600);
      const sale = store.insertChild(ada, "collectable_sales", first, { value: 300, currency: "USD", value_usd: 300, date: "2019-03-03", auction_house_id: 7 }, 9700);
      expect(store.children(ada, "collectable_provenance", [second, first], "id")).toEqual([
        { id: prov, collectable_id: first, owner: "Estate", location: null, year_from: 1901, year_to: null, is_up_to_present: 1, created_at: 9600 },
        { id: prov2, collectable_id: second, owner: "Dealer", location: "Paris", year_from: null, year_to: null, is_up_to_present: 0, created_at: 9600 },
      ]);
      expect(store.children(ada, "collectable_sales", [first], "date, id")).toEqual([
        {
          id: sale,
          collectable_id: first,
          value: 300,
          currency: "USD",
          value_usd: 300,
          date: "2019-03-03",
          location: null,
          type: null,
          auction_house_id: 7,
          seller_name: null,
          created_at: 9700,
        },
      ]);
      note("children", [
        store.children(ada, t, [first, second], "date, id"),
        store.children(ada, "collectable_provenance", [first, second], "id"),
        store.children(ada, "collectable_sales", [first, second], "id"),
      ]);
    });

    test("comps: replace, read in order, clear, not another user's", () => {
      expect(store.compSetUpdatedAt(ada, first)).toBeNull();
      expect(store.comps(ada, first)).toEqual([]);
      const set = [
        { artist_id: 1, artwork_id: 2, weight: 0.5 },
        { artist_id: 3, artwork_id: 4, weight: 1 },
        { artist_id: 1, artwork_id: 9, weight: 2.25 },
      ];
      store.replaceComps(ada, first, set, 10_000);
      expect(store.comps(ada, first)).toEqual(set);
      expect(store.compSetUpdatedAt(ada, first)).toBe(10_000);
      expect(store.comps(bob, first)).toEqual([]);
      expect(store.compSetUpdatedAt(bob, first)).toBeNull();

      store.replaceComps(ada, first, [set[2]!, set[0]!], 11_000);
      expect(store.comps(ada, first)).toEqual([set[2]!, set[0]!]);
      expect(store.compSetUpdatedAt(ada, first)).toBe(11_000);
      expect(() => store.replaceComps(bob, first, set, 12_000)).toThrow(`collectable ${first} is not the user's`);
      expect(store.comps(ada, first)).toEqual([set[2]!, set[0]!]);

      store.replaceComps(ada, second, set, 12_000);
      store.replaceComps(ada, second, [], 13_000);
      expect(store.comps(ada, second)).toEqual([]);
      expect(store.compSetUpdatedAt(ada, second)).toBeNull();
      note("comps", [store.comps(ada, first), store.compSetUpdatedAt(ada, first)]);
    });

    test("transaction: commits its value, rolls back on a throw", () => {
      expect(store.transaction(() => (store.follow(ada, "sale", 1), 42))).toBe(42);
      expect(() =>
        store.transaction(() => {
          store.follow(ada, "lot", 1);
          store.updateCollectable(ada, first, { title: "Rolled back" }, 20_000);
          throw new Error("boom");
        }),
      ).toThrow("boom");
      expect(store.followedIds(ada, "lot")).toEqual([]);
      expect(store.followedIds(ada, "sale")).toEqual([1]);
      expect(store.collectable(ada, first)).toMatchObject({ title: "Dawn", updated_at: 9700 });
      // a nested transaction joins the outer one
      expect(() =>
        store.transaction(() => {
          store.transaction(() => store.follow(ada, "lot", 2));
          throw new Error("outer");
        }),
      ).toThrow("outer");
      expect(store.followedIds(ada, "lot")).toEqual([]);
    });

    test("transaction: another connection writing between its read and its write does not fail it", () => {
      const other = h.other();
      let theirs = "";
      store.transaction(() => {
        expect(store.followedIds(ada, "sale")).toEqual([1]); // a read first
        try {
          other.follow(bob, "sale", 77);
          theirs = "committed";
        } catch (e) {
          theirs = (e as { code?: string }).code ?? String(e);
        }
        store.follow(ada, "sale", 78);
      });
      // account.db: the transaction held the write lock from its start, so the other connection
      // (busy_timeout 0) was told to wait; a deferred one would have thrown SQLITE_BUSY_SNAPSHOT
      // at its write. PostgreSQL: rows apart do not conflict.
      expect(theirs).toBe(factory.name === "sqlite" ? "SQLITE_BUSY" : "committed");
      expect(store.followedIds(ada, "sale")).toEqual([1, 78]);
      store.unfollow(ada, "sale", 78);
      store.unfollow(bob, "sale", 77);
    });

    test("collectableListRows: the user's collectables as the list reads them, with their acquisition's price", () => {
      const rows = byId(store.collectableListRows(ada));
      expect(rows.map((r) => r.id)).toEqual([first, second]);
      for (const r of rows) {
        const c = store.collectable(ada, r.id)!;
        const q = store.acquisition(ada, r.id)!;
        expect(r).toEqual({
          id: c.id,
          artist_id: c.artist_id,
          category_id: c.category_id,
          title: c.title,
          creation_year: c.creation_year,
          edition_unique_type: c.edition_unique_type,
          created_at: c.created_at,
          selected_price_type: c.selected_price_type,
          manual_price_value: c.manual_price_value,
          machine_estimate_usd: c.machine_estimate_usd,
          use_instead_of_estimates: q.use_instead_of_estimates,
          acquisition_price_usd: q.price_usd,
        });
      }
      expect(store.collectableListRows(bob).map((r) => store.collectable(bob, r.id)!.uid)).toEqual(["uid-3"]);
      expect(store.collectableListRows(999)).toEqual([]);
      note("collectableListRows", rows);
    });

    test("images: uploaded size, originals kept by PostgreSQL only", () => {
      expect(store.uploadedImageSize("img-1")).toEqual({ width: 800, height: 600 });
      expect(store.uploadedImageSize("img-3")).toBeNull(); // a market artwork's image, not an upload
      expect(store.uploadedImageSize("nope")).toBeNull();

      const bytes = new Uint8Array([0, 1, 2, 255, 0]);
      store.saveImageOriginal("img-1", bytes);
      const kept = store.kind === "postgres";
      expect(store.imageOriginal("img-1")).toEqual(kept ? bytes : null);
      store.saveImageOriginal("img-1", new Uint8Array([7]));
      expect(store.imageOriginal("img-1")).toEqual(kept ? new Uint8Array([7]) : null);
      expect(store.imageOriginal("img-2")).toBeNull();
      store.deleteImageOriginal("img-1");
      store.deleteImageOriginal("img-2");
      expect(store.imageOriginal("img-1")).toBeNull();
    });

    test("deleteCollectable: children go with it, another user's stays", () => {
      store.deleteCollectable(bob, first);
      expect(store.collectable(ada, first)).not.toBeNull();
      const count = (table: string) => h.query<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE collectable_id = ?`, first)[0]!.n;
      const tables = ["collectable_acquisitions", "collectable_appraisals", "collectable_provenance", "collectable_sales", "collectable_comp_sets", "collectable_comps"];
      expect(tables.map(count)).toEqual([1, 1, 1, 1, 1, 2]);
      store.deleteCollectable(ada, first);
      expect(store.collectable(ada, first)).toBeNull();
      expect(tables.map(count)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(store.acquisition(ada, first)).toBeNull();
      expect(store.comps(ada, first)).toEqual([]);
      expect(store.collectable(ada, second)).not.toBeNull();
      expect(store.children(ada, "collectable_provenance", [second], "id")).toHaveLength(1);
      expect(store.collectableEmbedding(ada, first)).toBeUndefined();
    });

    test("usage: consumed, breakdown by day, month and endpoint", () => {
      const daily: [number, string, string, number, number][] = [
        [ada, "2024-01-30", "/v1/artists", 1.5, 2],
        [ada, "2024-01-31", "/v1/lots", 2.25, 3],
        [ada, "2024-02-01", "/v1/artists", 4, 1],
        [ada, "2024-02-01", "/v1/artists/{id}", 0.5, 1],
        [ada, "2024-02-02", "/v1/artists-x", 0.125, 4],
        [ada, "2024-02-03", "/v1/Zeta", 1, 1],
        [ada, "2024-02-03", "/v1/alpha", 1, 1],
        [bob, "2024-01-31", "/v1/lots", 100, 10],
      ];
      for (const d of daily) h.exec("INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, ?, ?, ?)", ...d);
      expect(store.consumedBetween(ada, "2024-01-01", "2024-01-31")).toBe(3.75);
      expect(store.consumedBetween(ada, "2024-01-31", "2024-02-01")).toBe(6.75);
      expect(store.consumedBetween(ada, "2024-03-01", "2024-03-31")).toBe(0);
      expect(store.consumedBetween(999, "2024-01-01", "2024-12-31")).toBe(0);

      expect(store.usageBreakdown(ada, "2024-01-31", "2024-02-02", "day")).toEqual([
        { label: "2024-01-31", du: 2.25, requests: 3 },
        { label: "2024-02-01", du: 4.5, requests: 2 },
        { label: "2024-02-02", du: 0.125, requests: 4 },
      ]);
      expect(store.usageBreakdown(ada, "2024-01-01", "2024-12-31", "month")).toEqual([
        { label: "2024-01", du: 3.75, requests: 5 },
        { label: "2024-02", du: 6.625, requests: 8 },
      ]);
      // ordered by the bytes of the label (as SQLite compares text), whatever the server's collation
      expect(store.usageBreakdown(ada, "2024-01-01", "2024-12-31", "endpoint")).toEqual([
        { label: "/v1/Zeta", du: 1, requests: 1 },
        { label: "/v1/alpha", du: 1, requests: 1 },
        { label: "/v1/artists", du: 5.5, requests: 3 },
        { label: "/v1/artists-x", du: 0.125, requests: 4 },
        { label: "/v1/artists/{id}", du: 0.5, requests: 1 },
        { label: "/v1/lots", du: 2.25, requests: 3 },
      ]);
      expect(store.usageBreakdown(ada, "2025-01-01", "2025-12-31", "day")).toEqual([]);
      note("usage", [store.usageBreakdown(ada, "2024-01-01", "2024-12-31", "endpoint"), store.usageBreakdown(bob, "2024-01-01", "2024-12-31", "month")]);
    });

    test("usage per key: every key, unused ones with 0, from a day on", () => {
      const ledger: [number, number, number, string, number][] = [
        [ada, 1, 1, "2024-01-30", 0.1],
        [ada, 1, 2, "2024-01-31", 0.2],
        [ada, 1, 3, "2024-02-01", 1.000_000_4],
        [bob, 2, 4, "2024-02-01", 3],
      ];
      for (const [user, key, ts, day, du] of ledger) {
        h.exec("INSERT INTO du_ledger (user_id, key_id, ts, day, method, route, status, records, du) VALUES (?, ?, ?, ?, 'GET', '/v1/lots', 200, 1, ?)", user, key, ts, day, du);
        // the roll-up by key: PostgreSQL's trigger on du_ledger writes it, SQLite's ledger writer with each row
        if (store.kind === "sqlite") {
          h.exec(
            "INSERT INTO du_key_daily (user_id, day, key_id, du, requests) VALUES (?, ?, ?, ?, 1) ON CONFLICT DO UPDATE SET du = du + excluded.du, requests = requests + 1",
            user,
            day,
            key,
            du,
          );
        }
      }
      const all = store.usageByKey();
      expect(all.map((k) => k.kid)).toEqual(store.listKeys().map((k) => k.kid));
      expect(all.map(({ kid: _kid, ...k }) => k)).toEqual([
        { user_id: 1, user_name: "Ada", plan: "sandbox", key_id: 1, key_name: "Ada", revoked: false, requests: 3, du: 1.3, first_day: "2024-01-30", last_day: "2024-02-01" },
        { user_id: 2, user_name: "pro user", plan: "pro", key_id: 2, key_name: "pro user", revoked: false, requests: 1, du: 3, first_day: "2024-02-01", last_day: "2024-02-01" },
        { user_id: 3, user_name: "Cy", plan: "enterprise", key_id: 3, key_name: "Cy", revoked: true, requests: 0, du: 0, first_day: null, last_day: null },
        { user_id: 4, user_name: "Dee", plan: "sandbox", key_id: 4, key_name: "Dee", revoked: true, requests: 0, du: 0, first_day: null, last_day: null },
      ]);
      const since = store.usageByKey("2024-01-31");
      expect(since.map((k) => [k.key_id, k.requests, k.du, k.first_day])).toEqual([
        [1, 2, 1.2, "2024-01-31"],
        [2, 1, 3, "2024-02-01"],
        [3, 0, 0, null],
        [4, 0, 0, null],
      ]);
      note(
        "usageByKey",
        [all, since].map((list) => list.map((k) => ({ ...k, kid: "" }))),
      );
    });

    test("notices: listed in order with the user's name", () => {
      const insert = (user: number, plan: string, pool: string, threshold: number, consumed: number) =>
        h.exec(
          "INSERT INTO notices (user_id, plan_slug, pool, threshold, period_start, period_end, du_limit, du_consumed, projected_eop, created_at) VALUES (?, ?, ?, ?, '2024-01-01', '2024-01-30', 10000, ?, 12500.5, 1234)",
          user,
          plan,
          pool,
          threshold,
          consumed,
        );
      expect(store.listNotices()).toEqual([]);
      insert(bob, "pro", "period", 80, 8000.25);
      insert(ada, "sandbox", "daily", 100, 10_000);
      const notices = store.listNotices();
      expect(notices).toEqual([
        {
          id: 1,
          user_id: bob,
          user_name: "pro user",
          plan: "pro",
          pool: "period",
          threshold: 80,
          period_start: "2024-01-01",
          period_end: "2024-01-30",
          du_limit: 10_000,
          du_consumed: 8000.25,
          projected_eop: 12500.5,
          created_at: 1234,
        },
        {
          id: 2,
          user_id: ada,
          user_name: "Ada",
          plan: "sandbox",
          pool: "daily",
          threshold: 100,
          period_start: "2024-01-01",
          period_end: "2024-01-30",
          du_limit: 10_000,
          du_consumed: 10_000,
          projected_eop: 12500.5,
          created_at: 1234,
        },
      ]);
      note("notices", notices);
    });

    test("the account area: users who sign in, a session seen by another node, a user's keys, the audit log", async () => {
      const other = h.other();
      const id = store.createUser({ email: " Eve@Example.com ", plan: "pro", role: "admin" });
      expect(() => store.createUser({ email: "eve@example.com", plan: "pro", role: "member" })).toThrow(KeyError);
      expect(() => store.createUser({ email: "zed@example.com", plan: "gold", role: "member" })).toThrow(KeyError);
      const eve = store.getUser(id)!;
      expect(eve).toMatchObject({ email: "eve@example.com", name: "eve@example.com", role: "admin", plan: "pro", disabled_at: null, has_password: false });
      expect(store.signInRow("EVE@example.com")).toMatchObject({ id, role: "admin", password_hash: null, disabled_at: null });
      store.setPasswordHash(id, "h1");
      expect(other.signInRow("eve@example.com")!.password_hash).toBe("h1");

      // set-password links: once, until they expire; a new one ends the earlier
      store.addPasswordToken(id, "tok-1", 1000, 5000);
      store.addPasswordToken(id, "tok-2", 2000, 6000);
      expect(other.usePasswordToken("tok-1", 2500)).toBeNull();
      expect(other.usePasswordToken("tok-2", 7000)).toBeNull();
      store.addPasswordToken(id, "tok-3", 3000, 9000);
      expect(other.usePasswordToken("tok-3", 4000)).toBe(id);
      expect(store.usePasswordToken("tok-3", 4001)).toBeNull();

      // a session opened on one node is found on another, until it ends or its user is disabled
      store.addSession({ id: "sess-1", userId: id, csrf: "csrf-1", now: 10_000, expiresAt: 50_000, address: "127.0.0.1", method: "password" });
      store.addSession({ id: "sess-2", userId: id, csrf: "csrf-2", now: 10_000, expiresAt: 50_000, address: null, method: "password" });
      expect(other.findSession("sess-1")).toMatchObject({
        user_id: id,
        csrf: "csrf-1",
        last_seen_at: 10_000,
        expires_at: 50_000,
        role: "admin",
        plan_slug: "pro",
        email: "eve@example.com",
      });
      other.touchSession("sess-1", 20_000);
      expect(store.findSession("sess-1")!.last_seen_at).toBe(20_000);
      expect(other.endSession("sess-1")).toBe(true);
      expect(store.findSession("sess-1")).toBeNull();
      expect(store.findSession("sess-2")).not.toBeNull();

      // a user's keys: made, listed, rotated (the old one until the overlap ends), revoked
      const made = await store.createKey(id, { name: "desk", scope: "read", expiresAt: null });
      expect(made).toMatchObject({ userId: id, plan: "pro" });
      expect(other.findKeyByKid(made.kid)).toMatchObject({ key_id: made.keyId, scope: "read", expires_at: null, role: "admin", disabled_at: null });
      const rotated = (await store.rotateKey(id, made.keyId, 99_000_000_000_000))!;
      expect(rotated.oldExpiresAt).toBe(99_000_000_000_000);
      expect(rotated.created).toMatchObject({ name: "desk", scope: "read", expiresAt: null });
      expect(other.findKeyByKid(made.kid)!.expires_at).toBe(99_000_000_000_000);
      expect(store.userKeys(id).map((k) => [k.id, k.name, k.scope])).toEqual([
        [made.keyId, "desk", "read"],
        [rotated.created.keyId, "desk", "read"],
      ]);
      expect(store.userKey(bob, made.keyId)).toBeNull();
      expect(store.revokeUserKey(bob, made.keyId, 1)).toBe(false);
      expect(other.revokeUserKey(id, made.keyId, 123)).toBe(true);
      expect(store.revokeUserKey(id, made.keyId, 124)).toBe(false);
      expect(await store.rotateKey(id, made.keyId, 1)).toBeNull();
      expect(store.userKey(id, 2 ** 40)).toBeNull();

      // changes: plan, role, disabled (which ends the sessions and shows on every key's row)
      const before = other.changeUser(id, { plan: "enterprise", role: "member", disabled: true }, 77_000)!;
      expect(before).toMatchObject({ plan: "pro", role: "admin", disabled_at: null });
      expect(store.getUser(id)).toMatchObject({ plan: "enterprise", role: "member", disabled_at: 77_000 });
      expect(store.findSession("sess-2")).toBeNull();
      expect(store.findKeyByKid(rotated.created.kid)).toMatchObject({ disabled_at: 77_000, role: "member", plan_slug: "enterprise" });
      expect(store.changeUser(2 ** 40, { disabled: true }, 1)).toBeNull();
      expect(() => store.changeUser(id, { plan: "gold" }, 1)).toThrow(KeyError);
      expect(store.listUsers(0, 1000).map((u) => u.email)).toContain("eve@example.com");
      expect(store.listUsers(id, 1000).every((u) => u.id > id)).toBe(true);

      // the audit log: appended, newest first, by page and by user
      for (let i = 0; i < 5; i++) {
        other.audit({
          ts: 1000 + i,
          actorUserId: i % 2 ? id : null,
          actorKeyId: null,
          via: i % 2 ? "session" : "cli",
          action: `a${i}`,
          targetKind: "user",
          targetId: i % 2 ? bob : id,
          address: null,
          detail: { i },
        });
      }
      const page = store.auditPage(null, 3);
      expect(page.map((r) => r.action)).toEqual(["a4", "a3", "a2"]);
      expect(JSON.parse(page[0]!.detail)).toEqual({ i: 4 });
      expect(store.auditPage(page.at(-1)!.id, 10).map((r) => r.action)).toEqual(["a1", "a0"]);
      expect(store.auditPage(null, 10, bob).map((r) => r.action)).toEqual(["a3", "a1"]);
      note("account area", {
        users: store.listUsers(0, 1000).map(({ created_at: _c, ...u }) => u),
        keys: store.userKeys(id).map(({ kid: _k, created_at: _c, ...k }) => k),
        audit: store.auditPage(null, 100).map(({ id: _i, ...r }) => r),
      });
    });

    test("a kid of decimal digits only (one in about 1,800) is revoked as a kid, not read as a key id", async () => {
      const made = await store.createUserWithKey("sandbox", "Digits");
      const kid = "1234567890123456";
      h.exec("UPDATE api_keys SET kid = ? WHERE id = ?", kid, made.keyId);
      expect(store.revokeKey(kid)).toBe(true);
      expect(store.findKeyByKid(kid)!.revoked_at).not.toBeNull();
      expect(store.revokeKey(kid)).toBe(false);
      // a key's numeric id is still an id
      const other = await store.createUserWithKey("sandbox", "Numbered");
      expect(store.revokeKey(String(other.keyId))).toBe(true);
    });
  });
}

describe("account.db's follow marks across the threads of a server", () => {
  test("a copy of a user's follows serves while the shared version stands; another store's change moves it, one in a transaction once more at its end", async () => {
    const dir = mkdtempSync(join(tmpdir(), "artmarket-marks-"));
    const counters = AccountCounters.create(64);
    // two threads' stores over one account.db, sharing the server's table (openDeps)
    const a = new SqliteAccountStore(openAccountDb(dir));
    const b = new SqliteAccountStore(new Database(accountDbPath(dir), { strict: true }));
    const raw = new Database(accountDbPath(dir), { strict: true });
    try {
      a.seedPlans();
      a.shareFollows(counters);
      b.shareFollows(counters);
      const { userId } = await a.createUserWithKey("pro", "Ada");
      const marks = () => [...a.followedAmong(userId, "artist", [1, 2, 3])].sort();
      expect(marks()).toEqual([]);
      b.follow(userId, "artist", 2);
      expect(marks()).toEqual([2]);
      // the copy serves: a row written around the stores is seen once the version moves
      raw.run("INSERT INTO follows (user_id, kind, target_id, created_at) VALUES (?, 'artist', 3, ?)", [userId, Date.now()]);
      expect(marks()).toEqual([2]);
      counters.touchFollows(userId);
      expect(marks()).toEqual([2, 3]);
      // a reads inside b's transaction (the committed rows, at the version b's unfollow moved);
      // the end of the transaction moves it again
      b.transaction(() => {
        b.unfollow(userId, "artist", 2);
        expect(marks()).toEqual([2, 3]);
      });
      expect(marks()).toEqual([3]);
      expect(() =>
        b.transaction(() => {
          b.unfollow(userId, "artist", 3);
          throw new Error("rolled back");
        }),
      ).toThrow("rolled back");
      expect(marks()).toEqual([3]);
      // another user's version is their own
      const other = await a.createUserWithKey("pro", "Bo");
      const before = counters.followsVersion(userId);
      b.follow(other.userId, "artist", 1);
      expect(counters.followsVersion(userId)).toBe(before);
      expect(a.followedAmong(other.userId, "artist", [1])).toEqual(new Set([1]));
    } finally {
      raw.close();
      b.close();
      a.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("both stores gave the same answers", () => {
  expect(Object.keys(answers.sqlite ?? {}).length).toBeGreaterThan(10);
  expect(answers.postgres).toEqual(answers.sqlite!);
});
