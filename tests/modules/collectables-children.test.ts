/**
 * A collectable's children: acquisition (read, partial update), appraisals, provenance and private
 * sales (list, add, partial update, remove; value_usd at the date's reference rate), and the comp
 * set's state table (GET always 200, PUT replaces the whole set, DELETE = PUT []), with validation,
 * failed writes that change nothing, and the DU headers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { collectableEmbedding } from "../../src/db/collectables";
import { cosine, imageIndex } from "../../src/serve/modules/collectables/service";
import { MAX_COMPS } from "../../src/serve/modules/collectables/model";
import { createTestContext, type TestContext } from "../helpers/app";
import { create, du, expect422, json, marketRow, marketRows, png, rowsOf, type Json } from "./collectables-helpers";

let ctx: TestContext;
let userId: number;
beforeAll(async () => {
  ctx = await createTestContext();
  userId = (ctx.deps.account.query("SELECT user_id FROM api_keys ORDER BY id DESC LIMIT 1").get() as { user_id: number }).user_id;
});
afterAll(() => ctx.close());

const usd = (amount: number, currency: string, date: string) => Math.round(amount * ctx.deps.fx.usdPerUnit(currency, date)! * 100) / 100;
const call = (path: string, method = "GET", body?: unknown) => ctx.call(path, { method, body });
const newCollectable = () => create(ctx, { artist_id: 1, category_id: 1, edition_unique_type: "unique" });

describe("acquisition (GET|PATCH …/acquired)", () => {
  test("empty until set; partial updates; null clears; price_usd at the date's rate; 2 DU to read, 1 to write", async () => {
    const c = await newCollectable();
    const empty = await call(`/v1/collectables/${c.id}/acquired`);
    expect(empty.status).toBe(200);
    expect(du(empty)).toBe("2");
    expect(await json(empty)).toEqual({
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
      use_instead_of_estimates: false,
    });
    const house = marketRow(ctx, "SELECT id, name FROM auction_houses ORDER BY id LIMIT 1 OFFSET 1");
    const res = await call(`/v1/collectables/${c.id}/acquired`, "PATCH", { date: "2012-03-15", price: 25000, currency: "GBP", source_type: "auction", auction_house_id: house.id });
    expect(res.status).toBe(200);
    expect(du(res)).toBe("1");
    const a1 = await json(res);
    expect(a1).toMatchObject({
      date: "2012-03-15",
      price: 25000,
      currency: "GBP",
      price_usd: usd(25000, "GBP", "2012-03-15"),
      source_type: "auction",
      auction_house_id: house.id,
      auction_house_name: house.name,
    });
    const a2 = await json(await call(`/v1/collectables/${c.id}/acquired`, "PATCH", { seller_name: "Estate of X", currency: "EUR" }));
    expect(a2).toEqual({ ...a1, seller_name: "Estate of X", currency: "EUR", price_usd: usd(25000, "EUR", "2012-03-15") });
    const a3 = await json(await call(`/v1/collectables/${c.id}/acquired`, "PATCH", { auction_house_id: null, auction_house_name: "A small house", date: null }));
    expect(a3).toMatchObject({ auction_house_id: null, auction_house_name: "A small house", date: null, price_usd: usd(25000, "EUR", ctx.deps.asOf), seller_name: "Estate of X" });
    expect(await json(await call(`/v1/collectables/${c.id}/acquired`))).toEqual(a3);
    expect((await json(await call(`/v1/collectables/${c.id}`))).acquisition).toEqual(a3);
    // a price alone is in USD
    const d = await newCollectable();
    expect(await json(await call(`/v1/collectables/${d.id}/acquired`, "PATCH", { price: 900 }))).toMatchObject({ price: 900, currency: "USD", price_usd: 900 });
  });

  test("validation: unknown currency, bad date, unknown auction house, wrong types, unknown fields; nothing changes", async () => {
    const c = await newCollectable();
    await call(`/v1/collectables/${c.id}/acquired`, "PATCH", { price: 10, currency: "CHF", date: "2001-01-01" });
    const before = await json(await call(`/v1/collectables/${c.id}`));
    const patch = (body: unknown) => call(`/v1/collectables/${c.id}/acquired`, "PATCH", body);
    let d = await expect422(await patch({ price: 20, currency: "XYZ" }));
    expect(d[0]).toMatchObject({ loc: ["body", "currency"], type: "enum", input: "XYZ" });
    d = await expect422(await patch({ price: 20, date: "2001-02-30" }));
    expect(d[0]).toMatchObject({ loc: ["body", "date"], type: "date_parsing", input: "2001-02-30" });
    d = await expect422(await patch({ price: 20, auction_house_id: 987654 }));
    expect(d[0]).toMatchObject({ loc: ["body", "auction_house_id"], msg: "Auction house 987654 does not exist", type: "value_error", ctx: { reference: "auction_houses" } });
    d = await expect422(await patch({ price: "20", use_instead_of_estimates: "yes" }));
    expect(d.map((x) => x.type).sort()).toEqual(["bool_parsing", "float_parsing"]);
    d = await expect422(await patch({ paid: 20 }));
    expect(d[0]).toMatchObject({ loc: ["body", "paid"], type: "extra_forbidden" });
    expect(await json(await call(`/v1/collectables/${c.id}`))).toEqual(before);
  });
});

const KINDS = [
  {
    name: "appraisals",
    param: "appraisal_id",
    create: { type: "insurance", value: 12000, currency: "EUR", date: "2019-05-20", company_name: "Appraisers Ltd", is_best_guess: false },
    expected: (r: Json) => ({
      type: "insurance",
      value: 12000,
      currency: "EUR",
      value_usd: usd(12000, "EUR", "2019-05-20"),
      date: "2019-05-20",
      company_name: "Appraisers Ltd",
      is_best_guess: false,
      id: r.id,
    }),
    patch: { value: 15000, currency: "JPY" },
    after: (r: Json) => ({ ...r, value: 15000, currency: "JPY", value_usd: usd(15000, "JPY", "2019-05-20") }),
    clear: { company_name: null },
    invalid: [
      [{ type: "insurance", value: 1, currency: "ABC", date: "2019-01-01" }, ["body", "currency"], "enum"],
      [{ type: "insurance", value: -1, date: "2019-01-01" }, ["body", "value"], "greater_than_equal"],
      [{ type: "insurance", value: 1, date: "20190101" }, ["body", "date"], "date_parsing"],
      [{ type: "insurance", date: "2019-01-01" }, ["body", "value"], "missing"],
      [{ value: 1, date: "2019-01-01" }, ["body", "type"], "missing"],
      [{ type: "insurance", value: 1, date: "2019-01-01", is_best_guess: "maybe" }, ["body", "is_best_guess"], "bool_parsing"],
    ],
  },
  {
    name: "provenance",
    param: "provenance_id",
    create: { owner: "Private collection, Paris", location: "Paris", year_from: 1950, year_to: 1980, is_up_to_present: false },
    expected: (r: Json) => ({ owner: "Private collection, Paris", location: "Paris", year_from: 1950, year_to: 1980, is_up_to_present: false, id: r.id }),
    patch: { year_to: null, is_up_to_present: true },
    after: (r: Json) => ({ ...r, year_to: null, is_up_to_present: true }),
    clear: { location: null },
    invalid: [
      [{ location: "x" }, ["body", "owner"], "missing"],
      [{ owner: "x", year_from: 1990, year_to: 1980 }, ["body", "year_to"], "value_error"],
      [{ owner: "x", year_from: "1990" }, ["body", "year_from"], "int_parsing"],
      [{ owner: "" }, ["body", "owner"], "string_too_short"],
    ],
  },
  {
    name: "sales",
    param: "sale_id",
    create: { value: 30000, date: "2016-11-02", location: "Geneva", type: "private", seller_name: "A dealer" },
    expected: (r: Json) => ({
      value: 30000,
      currency: "USD",
      value_usd: 30000,
      date: "2016-11-02",
      location: "Geneva",
      type: "private",
      auction_house_id: null,
      auction_house_name: null,
      seller_name: "A dealer",
      id: r.id,
    }),
    patch: { currency: "CHF", date: "2017-01-10" },
    after: (r: Json) => ({ ...r, currency: "CHF", date: "2017-01-10", value_usd: usd(30000, "CHF", "2017-01-10") }),
    clear: { seller_name: null },
    invalid: [
      [{ value: 1, date: "2019-01-01", currency: "usd" }, ["body", "currency"], "enum"],
      [{ value: 1, date: "2019-01-01", auction_house_id: 555555 }, ["body", "auction_house_id"], "value_error"],
      [{ value: 1 }, ["body", "date"], "missing"],
      [{ value: "lots", date: "2019-01-01" }, ["body", "value"], "float_parsing"],
    ],
  },
] as const;

for (const kind of KINDS) {
  describe(`${kind.name} (GET|POST …/${kind.name}, PATCH|DELETE …/${kind.name}/{${kind.param}})`, () => {
    test("add, list, partial update, null clears, remove (again 404); embedded in the record; DU 1 per write, 1 + n per list", async () => {
      const c = await newCollectable();
      const base = `/v1/collectables/${c.id}/${kind.name}`;
      const empty = await call(base);
      expect(empty.status).toBe(200);
      expect(await json(empty)).toEqual([]);
      expect(du(empty)).toBe("1");
      const res = await call(base, "POST", kind.create);
      expect(res.status).toBe(200);
      // a child write moves the record's updated_at forward
      expect((await json(await call(`/v1/collectables/${c.id}`))).updated_at > c.updated_at).toBe(true);
      expect(du(res)).toBe("1");
      const made = await json(res);
      expect(made).toEqual(kind.expected(made));
      const second = await json(await call(base, "POST", kind.create));
      const listed = await call(base);
      expect(du(listed)).toBe("3");
      expect(await json(listed)).toEqual([made, second]);
      const patched = await call(`${base}/${made.id}`, "PATCH", kind.patch);
      expect(patched.status).toBe(200);
      expect(du(patched)).toBe("1");
      const p = await json(patched);
      expect(p).toEqual(kind.after(made) as Json);
      const cleared = await json(await call(`${base}/${made.id}`, "PATCH", kind.clear));
      expect(cleared).toEqual({ ...p, ...kind.clear });
      const record = await json(await call(`/v1/collectables/${c.id}`));
      expect(record[kind.name].map((x: Json) => x.id).sort()).toEqual([made.id, second.id].sort());
      expect(record[kind.name].find((x: Json) => x.id === made.id)).toEqual(cleared);
      const del = await call(`${base}/${made.id}`, "DELETE");
      expect(del.status).toBe(200);
      expect(await json(del)).toEqual({ id: made.id, deleted: true });
      expect(du(del)).toBe("1");
      expect(await json(await call(base))).toEqual([second]);
      const again = await call(`${base}/${made.id}`, "DELETE");
      expect(again.status).toBe(404);
      expect(du(again)).toBeNull();
      expect((await call(`${base}/${made.id}`, "PATCH", kind.patch)).status).toBe(404);
      // a child is reached only through its own collectable
      const other = await newCollectable();
      expect((await call(`/v1/collectables/${other.id}/${kind.name}/${second.id}`, "PATCH", kind.patch)).status).toBe(404);
      expect((await call(`/v1/collectables/${other.id}/${kind.name}/${second.id}`, "DELETE")).status).toBe(404);
      expect(await json(await call(base))).toEqual([second]);
    });

    test("validation: the 422 detail array; a failed add or update changes nothing", async () => {
      const c = await newCollectable();
      const base = `/v1/collectables/${c.id}/${kind.name}`;
      const made = await json(await call(base, "POST", kind.create));
      const before = await json(await call(`/v1/collectables/${c.id}`));
      for (const [body, loc, type] of kind.invalid) {
        const d = await expect422(await call(base, "POST", body));
        expect(d[0]).toMatchObject({ loc, type });
        // the same fields in an update fail alike (a missing field is no error in a partial update)
        if (type !== "missing") expect((await expect422(await call(`${base}/${made.id}`, "PATCH", body)))[0]).toMatchObject({ loc, type });
      }
      await expect422(await call(base, "POST", { ...kind.create, extra: 1 }));
      await expect422(await call(`${base}/${made.id}`, "PATCH", { extra: 1 }));
      expect(await json(await call(`/v1/collectables/${c.id}`))).toEqual(before);
      expect(rowsOf(ctx, `collectable_${kind.name}`, c.id).length).toBe(1);
    });
  });
}

describe("comp sets (GET|PUT|DELETE …/comps)", () => {
  const works = () => marketRows(ctx, "SELECT id, artist_id, title FROM artworks ORDER BY id LIMIT 60");

  test("GET with nothing saved: 200 {comps: [], updated_at: null}, 1 DU", async () => {
    const c = await newCollectable();
    const res = await call(`/v1/collectables/${c.id}/comps`);
    expect(res.status).toBe(200);
    expect(du(res)).toBe("1");
    expect(await json(res)).toEqual({ comps: [], updated_at: null });
  });

  test("PUT saves the whole set with names, similarity and verified; weight defaults to 1.0; GET returns it for 1 + n DU", async () => {
    const c = await create(ctx, { artist_id: 1, category_id: 1, edition_unique_type: "unique" }, { bytes: await png(ctx, 80, 60, [90, 40, 160]) });
    const w = works();
    const set = [
      { artist_id: w[0]!.artist_id, artwork_id: w[0]!.id },
      { artist_id: w[5]!.artist_id, artwork_id: w[5]!.id, weight: 2.5 },
      { artist_id: w[9]!.artist_id, artwork_id: w[9]!.id, weight: 0 },
    ];
    const res = await call(`/v1/collectables/${c.id}/comps`, "PUT", { comps: set });
    expect(res.status).toBe(200);
    expect(du(res)).toBe("1");
    const saved = await json(res);
    const index = imageIndex(ctx.deps.market);
    const mine = collectableEmbedding(ctx.deps.account, userId, c.id)!;
    expect(mine).not.toBeNull();
    expect(saved.comps).toEqual(
      set.map((s, i) => {
        const art = w.find((x) => x.id === s.artwork_id)!;
        const theirs = index?.vectorOf(s.artwork_id) ?? null;
        return {
          artist_id: s.artist_id,
          artwork_id: s.artwork_id,
          weight: [1, 2.5, 0][i],
          artist_name: marketRow(ctx, "SELECT name FROM artists WHERE id = ?", s.artist_id).name,
          artwork_title: art.title,
          similarity: theirs ? cosine(mine, theirs) : null,
          verified: true,
        };
      }),
    );
    if (index) for (const comp of saved.comps) expect(comp.similarity).toBeGreaterThan(-1.000001);
    expect(typeof saved.updated_at).toBe("string");
    const got = await call(`/v1/collectables/${c.id}/comps`);
    expect(du(got)).toBe("4");
    expect(await json(got)).toEqual(saved);
  });

  test("similarity uses the suggested artwork's vector when the record has no image; null when neither has one", async () => {
    const w = works();
    const a = marketRow(ctx, "SELECT id, artist_id, category_id FROM artworks WHERE image_id IS NOT NULL ORDER BY id LIMIT 1 OFFSET 20");
    const linked = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id });
    // drop the stored embedding: the suggested artwork's vector is used
    ctx.deps.account.run("UPDATE collectables SET embedding = NULL WHERE id = ?", [linked.id]);
    const index = imageIndex(ctx.deps.market);
    const set = await json(await call(`/v1/collectables/${linked.id}/comps`, "PUT", { comps: [{ artist_id: w[1]!.artist_id, artwork_id: w[1]!.id }] }));
    const expected = index ? cosine(index.vectorOf(a.id)!, index.vectorOf(w[1]!.id)!) : null;
    expect(set.comps[0].similarity).toBe(expected);
    const bare = await newCollectable();
    const none = await json(await call(`/v1/collectables/${bare.id}/comps`, "PUT", { comps: [{ artist_id: w[1]!.artist_id, artwork_id: w[1]!.id }] }));
    expect(none.comps[0].similarity).toBeNull();
  });

  test("verified turns false when the market no longer has the artwork by that artist (as after a rebuild)", async () => {
    const c = await newCollectable();
    const w = works();
    const path = `/v1/collectables/${c.id}/comps`;
    await call(path, "PUT", {
      comps: [
        { artist_id: w[0]!.artist_id, artwork_id: w[0]!.id },
        { artist_id: w[1]!.artist_id, artwork_id: w[1]!.id },
      ],
    });
    const other = marketRow(ctx, "SELECT id, name FROM artists WHERE id <> ? ORDER BY id LIMIT 1", w[0]!.artist_id);
    ctx.deps.account.run("UPDATE collectable_comps SET artist_id = ? WHERE collectable_id = ? AND position = 0", [other.id, c.id]);
    ctx.deps.account.run("UPDATE collectable_comps SET artwork_id = 987654321 WHERE collectable_id = ? AND position = 1", [c.id]);
    const got = await json(await call(path));
    expect(got.comps.map((x: Json) => [x.artist_id, x.artist_name, x.artwork_title === null, x.verified])).toEqual([
      [other.id, other.name, false, false],
      [w[1]!.artist_id, marketRow(ctx, "SELECT name FROM artists WHERE id = ?", w[1]!.artist_id).name, true, false],
    ]);
    expect(got.comps[1].similarity).toBeNull();
  });

  test("an artwork by another artist than the comp's artist_id is saved as given, with both names and verified false", async () => {
    const c = await newCollectable();
    const w = works();
    const wrong = w.find((x) => x.artist_id !== w[0]!.artist_id)!;
    const res = await call(`/v1/collectables/${c.id}/comps`, "PUT", { comps: [{ artist_id: w[0]!.artist_id, artwork_id: wrong.id }] });
    expect(res.status).toBe(200);
    expect(du(res)).toBe("1");
    const saved = await json(res);
    expect(saved.comps).toEqual([
      {
        artist_id: w[0]!.artist_id,
        artwork_id: wrong.id,
        weight: 1,
        artist_name: marketRow(ctx, "SELECT name FROM artists WHERE id = ?", w[0]!.artist_id).name,
        artwork_title: marketRow(ctx, "SELECT title FROM artworks WHERE id = ?", wrong.id).title,
        similarity: saved.comps[0].similarity,
        verified: false,
      },
    ]);
    expect(await json(await call(`/v1/collectables/${c.id}/comps`))).toEqual(saved);
  });

  test("PUT replaces (old comps gone), PUT [] empties, DELETE clears (same effect and answer as PUT []), DELETE again the same", async () => {
    const c = await newCollectable();
    const w = works();
    const path = `/v1/collectables/${c.id}/comps`;
    await call(path, "PUT", {
      comps: [
        { artist_id: w[0]!.artist_id, artwork_id: w[0]!.id },
        { artist_id: w[1]!.artist_id, artwork_id: w[1]!.id },
      ],
    });
    const second = await json(await call(path, "PUT", { comps: [{ artist_id: w[2]!.artist_id, artwork_id: w[2]!.id, weight: 3 }] }));
    expect(second.comps.map((x: Json) => [x.artwork_id, x.weight])).toEqual([[w[2]!.id, 3]]);
    expect(rowsOf(ctx, "collectable_comps", c.id).map((r) => r.artwork_id)).toEqual([w[2]!.id]);
    expect(await json(await call(path))).toEqual(second);
    const emptied = await call(path, "PUT", { comps: [] });
    expect(emptied.status).toBe(200);
    expect(await json(emptied)).toEqual({ comps: [], updated_at: null });
    expect(rowsOf(ctx, "collectable_comp_sets", c.id)).toEqual([]);
    await call(path, "PUT", { comps: [{ artist_id: w[3]!.artist_id, artwork_id: w[3]!.id }] });
    const del = await call(path, "DELETE");
    expect(del.status).toBe(200);
    expect(await json(del)).toEqual({ comps: [], updated_at: null });
    expect(du(del)).toBe("1");
    expect(await json(await call(path))).toEqual({ comps: [], updated_at: null });
    expect(rowsOf(ctx, "collectable_comps", c.id)).toEqual([]);
    const again = await call(path, "DELETE");
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual({ comps: [], updated_at: null });
  });

  test(`validation: more than ${MAX_COMPS} comps, unknown artworks or artists, duplicates, wrong types; the stored set stays`, async () => {
    const c = await newCollectable();
    const w = works();
    const path = `/v1/collectables/${c.id}/comps`;
    const kept = await json(await call(path, "PUT", { comps: [{ artist_id: w[4]!.artist_id, artwork_id: w[4]!.id }] }));
    const many = marketRows(ctx, `SELECT id, artist_id FROM artworks ORDER BY id LIMIT ${MAX_COMPS + 1}`).map((a) => ({ artist_id: a.artist_id, artwork_id: a.id }));
    let d = await expect422(await call(path, "PUT", { comps: many }));
    expect(d).toEqual([{ loc: ["body", "comps"], msg: `List should have at most ${MAX_COMPS} items`, type: "too_long", input: many, ctx: { max_length: MAX_COMPS } }]);
    const full = await call(path, "PUT", { comps: many.slice(0, MAX_COMPS) });
    expect(full.status).toBe(200);
    expect((await json(full)).comps.length).toBe(MAX_COMPS);
    await call(path, "PUT", { comps: [{ artist_id: w[4]!.artist_id, artwork_id: w[4]!.id }] });
    const before = await json(await call(path));
    expect(before.comps).toEqual(kept.comps);
    d = await expect422(
      await call(path, "PUT", {
        comps: [
          { artist_id: w[0]!.artist_id, artwork_id: w[0]!.id },
          { artist_id: 1, artwork_id: 98765432 },
        ],
      }),
    );
    expect(d).toEqual([{ loc: ["body", "comps", 1, "artwork_id"], msg: "Artwork 98765432 does not exist", type: "value_error", input: 98765432, ctx: { reference: "artworks" } }]);
    d = await expect422(await call(path, "PUT", { comps: [{ artist_id: 98765432, artwork_id: w[0]!.id }] }));
    expect(d).toEqual([{ loc: ["body", "comps", 0, "artist_id"], msg: "Artist 98765432 does not exist", type: "value_error", input: 98765432, ctx: { reference: "artists" } }]);
    d = await expect422(
      await call(path, "PUT", {
        comps: [
          { artist_id: w[0]!.artist_id, artwork_id: w[0]!.id },
          { artist_id: w[0]!.artist_id, artwork_id: w[0]!.id },
        ],
      }),
    );
    expect(d[0]).toMatchObject({ loc: ["body", "comps", 1, "artwork_id"], type: "value_error" });
    d = await expect422(await call(path, "PUT", { comps: [{ artist_id: "one", artwork_id: w[0]!.id, weight: -1 }] }));
    expect(d.map((x) => `${x.loc.join(".")} ${x.type}`).sort()).toEqual(["body.comps.0.artist_id int_parsing", "body.comps.0.weight greater_than_equal"]);
    d = await expect422(await call(path, "PUT", { comps: [{ artwork_id: w[0]!.id }] }));
    expect(d[0]).toMatchObject({ loc: ["body", "comps", 0, "artist_id"], type: "missing" });
    d = await expect422(await call(path, "PUT", {}));
    expect(d[0]).toMatchObject({ loc: ["body", "comps"], type: "missing" });
    d = await expect422(await call(path, "PUT", { comps: [], note: "x" }));
    expect(d[0]).toMatchObject({ loc: ["body", "note"], type: "extra_forbidden" });
    expect(await json(await call(path))).toEqual(before);
  });
});
