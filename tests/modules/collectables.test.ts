/**
 * Collectables: the record's state table (create, partial update, image upload, delete with its
 * children), validation with the 422 shape, uploads, the list grammar, valuation (every branch of
 * the rule), cross-user isolation on every route and method, and the DU headers.
 * Children and comp sets: tests/modules/collectables-children.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { collectableEmbedding } from "../../src/db/collectables";
import { embedImage } from "../../src/images/embedding";
import { imageIndex } from "../../src/serve/modules/collectables/service";
import { comparableEstimate, currentValue } from "../../src/serve/modules/collectables/valuation";
import { loadSharp } from "../../src/platform/native";
import { createTestContext, type TestContext } from "../helpers/app";
import { create, du, expect422, form, json, marketRow, marketRows, png, pngHeaderOnly, rowsOf, send, type Json } from "./collectables-helpers";

let ctx: TestContext;
let userId: number;
beforeAll(async () => {
  ctx = await createTestContext();
  userId = (ctx.deps.account.query("SELECT user_id FROM api_keys ORDER BY id DESC LIMIT 1").get() as { user_id: number }).user_id;
});
afterAll(() => ctx.close());

/** An estimated artwork of the market, with what seeding copies from it. */
const artwork = (offset = 0) =>
  marketRow(
    ctx,
    `SELECT a.*, i.width AS image_width FROM artworks a JOIN images i ON i.id = a.image_id
      WHERE a.estimate_usd IS NOT NULL AND a.height_cm IS NOT NULL AND a.edition_group_id IS NULL ORDER BY a.id LIMIT 1 OFFSET ?`,
    offset,
  );

const get = async (id: number, key = ctx.keys.enterprise) => json(await ctx.call(`/v1/collectables/${id}`, { key }));

describe("create (POST /v1/collectables, multipart)", () => {
  test("minimal: the fields sent, defaults, names from the market, no image; 1 DU; the detail reads the same record for 2 DU", async () => {
    const res = await send(ctx, "/v1/collectables", "POST", form({ artist_id: 1, category_id: 2, edition_unique_type: "unique" }));
    expect(res.status).toBe(200);
    expect(du(res)).toBe("1");
    const c = await json(res);
    const artist = marketRow(ctx, "SELECT name FROM artists WHERE id = 1");
    expect(c).toMatchObject({
      title: "Untitled",
      artist_id: 1,
      artist_name: artist.name,
      category_id: 2,
      category_name: "Works on paper",
      edition_unique_type: "unique",
      edition: { edition_unique_type: "unique", edition_number: null, edition_size: null },
      suggested_artwork_id: null,
      selected_price_type: "machine",
      manual_price_value: null,
      measurements_unit: "cm",
      measurements_height: null,
      material_ids: [],
      substrate_ids: [],
      surface_ids: [],
      damage_ids: [],
      image_url: null,
      image_thumbnail_url: null,
      appraisals: [],
      provenance: [],
      sales: [],
      acquisition: { price: null, use_instead_of_estimates: false },
      current_estimated_price_currency: "USD",
    });
    expect(typeof c.uid).toBe("string");
    expect(c.created_at).toBe(c.updated_at);
    const detail = await ctx.call(`/v1/collectables/${c.id}`);
    expect(detail.status).toBe(200);
    expect(du(detail)).toBe("2");
    expect(await json(detail)).toEqual(c);
    expect(rowsOf(ctx, "collectables", c.id)[0]!.user_id).toBe(userId);
    expect(collectableEmbedding(ctx.deps.account, userId, c.id)).toBeNull();
    expect(rowsOf(ctx, "collectable_acquisitions", c.id).length).toBe(1);
  });

  test("a JSON object body stands for the form's text fields", async () => {
    const res = await ctx.call("/v1/collectables", { method: "POST", body: { artist_id: 2, category_id: 3, edition_unique_type: "edition", edition_size: 8 } });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ artist_id: 2, category_id: 3, edition_unique_type: "edition", edition_size: 8, edition_number: null, image_url: null });
    const d = await expect422(await ctx.call("/v1/collectables", { method: "POST", body: { artist_id: 2, category_id: 3 } }));
    expect(d).toEqual([{ loc: ["body", "edition_unique_type"], msg: "Field required", type: "missing", input: null, ctx: {} }]);
  });

  test("any field of the update input may be sent with the form, and wins over the seeds; its ids are checked", async () => {
    const a = artwork(19);
    const mats = marketRows<{ id: number }>(ctx, "SELECT id FROM materials ORDER BY id LIMIT 2 OFFSET 3").map((r) => r.id);
    const res = await send(
      ctx,
      "/v1/collectables",
      "POST",
      form({
        artist_id: a.artist_id,
        category_id: a.category_id,
        edition_unique_type: "unique",
        suggested_artwork_id: a.id,
        material_ids: mats.join(","),
        condition: "Mint",
        measurements_unit: "in",
        measurements_height: 12.5,
        selected_price_type: "manual",
        manual_price_value: 4200,
        creation_year: 1901,
      }),
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      title: a.title,
      material_ids: mats,
      condition: "Mint",
      measurements_unit: "in",
      measurements_height: 12.5,
      measurements_width: a.width_cm,
      creation_year: 1901,
      selected_price_type: "manual",
      manual_price_value: 4200,
      current_estimated_price: 4200,
      current_price_source: "manual",
      machine_estimated_price: a.estimate_usd,
    });
    const d = await expect422(
      await send(ctx, "/v1/collectables", "POST", form({ artist_id: 1, category_id: 1, edition_unique_type: "unique", damage_ids: "1,777777", surface_ids: "x" })),
    );
    expect(d.map((x) => [x.loc, x.type])).toEqual([[["body", "surface_ids", 0], "int_parsing"]]);
    const d2 = await expect422(await send(ctx, "/v1/collectables", "POST", form({ artist_id: 1, category_id: 1, edition_unique_type: "unique", damage_ids: "1,777777" })));
    expect(d2).toEqual([{ loc: ["body", "damage_ids", 1], msg: "Damage 777777 does not exist", type: "value_error", input: 777777, ctx: { reference: "damages" } }]);
  });

  test("suggested_artwork_id seeds title, year, measurements, materials, substrate and the image (the artwork's vector as embedding)", async () => {
    const a = artwork(3);
    const c = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id });
    expect(c).toMatchObject({
      suggested_artwork_id: a.id,
      title: a.title,
      creation_year: a.creation_year,
      measurements_unit: "cm",
      measurements_height: a.height_cm,
      measurements_width: a.width_cm,
      measurements_depth: a.depth_cm,
      material_ids: String(a.material_ids).split(",").map(Number),
      substrate_ids: a.substrate_id ? [a.substrate_id] : [],
      machine_estimated_price: a.estimate_usd,
      machine_estimate_basis: "suggested_artwork",
    });
    expect(c.image_url).toStartWith(`http://artmarket.test/images/${a.image_id}/w1200.jpg?exp=`);
    expect(c.image_thumbnail_url).toStartWith(`http://artmarket.test/images/${a.image_id}/w240.jpg?exp=`);
    const index = imageIndex(ctx.deps.market);
    const stored = collectableEmbedding(ctx.deps.account, userId, c.id);
    if (index) expect(Array.from(stored!)).toEqual(Array.from(index.vectorOf(a.id)!));
    else expect(stored).toBeNull();
    // a title sent with the seed wins over the seeded one
    const titled = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id, title: "My copy" });
    expect(titled.title).toBe("My copy");
  });

  test("a suggested artwork by another artist seeds the record too (200), its estimate is not the machine estimate; PATCH artist_id keeps the link", async () => {
    const a = artwork(3);
    const other = marketRow(ctx, "SELECT id FROM artists WHERE id <> ? AND id IN (SELECT artist_id FROM artworks WHERE estimate_usd IS NOT NULL) ORDER BY id LIMIT 1", a.artist_id)
      .id as number;
    const res = await send(ctx, "/v1/collectables", "POST", form({ artist_id: other, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id }));
    expect(res.status).toBe(200);
    const c = await json(res);
    expect(c).toMatchObject({ artist_id: other, suggested_artwork_id: a.id, title: a.title, creation_year: a.creation_year, machine_estimate_basis: "comparable_works" });
    expect(c.image_url).toStartWith(`http://artmarket.test/images/${a.image_id}/w1200.jpg?exp=`);
    const mine = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id });
    const moved = await json(await ctx.call(`/v1/collectables/${mine.id}`, { method: "PATCH", body: { artist_id: other } }));
    expect(moved).toMatchObject({ artist_id: other, suggested_artwork_id: a.id, machine_estimate_basis: "comparable_works" });
  });

  test("an image file: stored under the data directory, embedded, signed URLs that serve it", async () => {
    const bytes = await png(ctx, 120, 80, [20, 120, 200]);
    const c = await create(ctx, { artist_id: 2, category_id: 1, edition_unique_type: "edition", edition_number: 3, edition_size: 10 }, { bytes });
    expect(c).toMatchObject({ edition_unique_type: "edition", edition_number: 3, edition_size: 10 });
    const row = rowsOf(ctx, "collectables", c.id)[0]!;
    expect(row.image_kind).toBe("upload");
    expect(c.image_url).toStartWith(`http://artmarket.test/images/${row.image_key}/w1200.jpg?exp=`);
    expect(c.image_thumbnail_url).toStartWith(`http://artmarket.test/images/${row.image_key}/w240.jpg?exp=`);
    expect(existsSync(join(ctx.dataDir, "images", "collectables", row.image_key))).toBe(true);
    const expected = await embedImage(loadSharp(ctx.dataDir), bytes);
    expect(Array.from(collectableEmbedding(ctx.deps.account, userId, c.id)!)).toEqual(Array.from(expected));
    const thumb = await ctx.app.handle(new Request(c.image_thumbnail_url));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("Content-Type")).toBe("image/jpeg");
    const meta = await loadSharp(ctx.dataDir)(new Uint8Array(await thumb.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([120, 80]); // never enlarged beyond the original
    // a tampered signature is refused
    const tampered = c.image_url.replace(/sig=(.)/, (_: string, ch: string) => `sig=${ch === "0" ? "1" : "0"}`);
    expect(tampered).not.toBe(c.image_url);
    expect((await ctx.app.handle(new Request(tampered))).status).toBe(403);
  });

  test("validation: missing, wrong types, unknown reference ids, an artwork by another artist; nothing is created", async () => {
    const before = (ctx.deps.account.query("SELECT count(*) AS n FROM collectables").get() as { n: number }).n;
    let d = await expect422(await send(ctx, "/v1/collectables", "POST", form({ category_id: 1 })));
    expect(d.map((x) => [x.loc, x.type])).toEqual([
      [["body", "artist_id"], "missing"],
      [["body", "edition_unique_type"], "missing"],
    ]);
    d = await expect422(await send(ctx, "/v1/collectables", "POST", form({ artist_id: "abc", category_id: 1, edition_unique_type: "unique" })));
    expect(d[0]).toMatchObject({ loc: ["body", "artist_id"], type: "int_parsing", input: "abc" });
    d = await expect422(await send(ctx, "/v1/collectables", "POST", form({ artist_id: 1, category_id: 1, edition_unique_type: "one-off" })));
    expect(d[0]).toMatchObject({ loc: ["body", "edition_unique_type"], type: "enum", input: "one-off" });
    d = await expect422(await send(ctx, "/v1/collectables", "POST", form({ artist_id: 999999, category_id: 999, edition_unique_type: "unique" })));
    expect(d).toEqual([
      { loc: ["body", "artist_id"], msg: "Artist 999999 does not exist", type: "value_error", input: 999999, ctx: { reference: "artists" } },
      { loc: ["body", "category_id"], msg: "Category 999 does not exist", type: "value_error", input: 999, ctx: { reference: "categories" } },
    ]);
    d = await expect422(await send(ctx, "/v1/collectables", "POST", form({ artist_id: 1, category_id: 1, edition_unique_type: "unique", suggested_artwork_id: 99999999 })));
    expect(d[0]).toMatchObject({ loc: ["body", "suggested_artwork_id"], input: 99999999 });
    d = await expect422(await send(ctx, "/v1/collectables", "POST", form({ artist_id: 1, category_id: 1, edition_unique_type: "edition", edition_number: 5, edition_size: 3 })));
    expect(d[0]).toMatchObject({ loc: ["body", "edition_number"], ctx: { edition_size: 3 } });
    d = await expect422(await send(ctx, "/v1/collectables", "POST", form({ artist_id: 1, category_id: 1, edition_unique_type: "unique", colour: "red" })));
    expect(d[0]).toMatchObject({ loc: ["body", "colour"], type: "extra_forbidden" });
    expect((ctx.deps.account.query("SELECT count(*) AS n FROM collectables").get() as { n: number }).n).toBe(before);
  });

  test("uploads: a non-image is 422 image_type, an oversized file 413, a picture over the pixel cap 422 at [body, image]; nothing is created or stored", async () => {
    const count = () => (ctx.deps.account.query("SELECT count(*) AS n FROM collectables").get() as { n: number }).n;
    const files = () => (existsSync(join(ctx.dataDir, "images", "collectables")) ? [...new Bun.Glob("*").scanSync(join(ctx.dataDir, "images", "collectables"))].length : 0);
    const before = [count(), files()];
    const fields = { artist_id: 1, category_id: 1, edition_unique_type: "unique" };
    const text = await send(ctx, "/v1/collectables", "POST", form(fields, { bytes: new TextEncoder().encode("just some text, not a picture"), type: "image/png" }));
    expect((await expect422(text))[0]).toMatchObject({ loc: ["body", "image"], type: "image_type" });
    const big = new Uint8Array(20 * 1024 * 1024 + 10);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const large = await send(ctx, "/v1/collectables", "POST", form(fields, { bytes: big }));
    expect(large.status).toBe(413);
    const bomb = await expect422(await send(ctx, "/v1/collectables", "POST", form(fields, { bytes: pngHeaderOnly(9000, 9000) })));
    expect(bomb[0]).toMatchObject({ loc: ["body", "image"], type: "image_too_many_pixels", ctx: { width: 9000, height: 9000 } });
    expect([count(), files()]).toEqual(before);
  });
});

describe("image upload (PUT …/{id}/image)", () => {
  test("replaces the image: fresh URLs, new embedding, the old original gone; 1 DU", async () => {
    const a = artwork(5);
    const c = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id });
    const bytes = await png(ctx, 64, 64, [10, 200, 10]);
    const res = await send(ctx, `/v1/collectables/${c.id}/image`, "PUT", form({}, { bytes }));
    expect(res.status).toBe(200);
    expect(du(res)).toBe("1");
    const first = await json(res);
    expect(first.image_url).not.toBe(c.image_url);
    expect(first.image_thumbnail_url).not.toBe(c.image_thumbnail_url);
    expect(first.updated_at > c.updated_at).toBe(true); // strictly later, even within one millisecond
    const key1 = rowsOf(ctx, "collectables", c.id)[0]!.image_key;
    expect((await ctx.app.handle(new Request(first.image_url))).status).toBe(200);
    const again = await json(await send(ctx, `/v1/collectables/${c.id}/image`, "PUT", form({}, { bytes: await png(ctx, 50, 90, [240, 240, 0]) })));
    expect(again.image_url).not.toBe(first.image_url);
    expect(existsSync(join(ctx.dataDir, "images", "collectables", key1))).toBe(false);
    expect((await ctx.app.handle(new Request(first.image_url))).status).toBe(404);
    expect((await ctx.app.handle(new Request(again.image_url))).status).toBe(200);
    // everything but the image fields and updated_at is as it was
    const strip = (x: Json) => ({ ...x, image_url: 0, image_thumbnail_url: 0, updated_at: 0 });
    expect(strip(again)).toEqual(strip(c));
    const v = collectableEmbedding(ctx.deps.account, userId, c.id)!;
    expect(Array.from(v)).toEqual(Array.from(await embedImage(loadSharp(ctx.dataDir), await png(ctx, 50, 90, [240, 240, 0]))));
  });

  test("a failed upload (no file, not an image, a text field) leaves the record exactly as it was", async () => {
    const c = await create(ctx, { artist_id: 3, category_id: 1, edition_unique_type: "unique" }, { bytes: await png(ctx) });
    const before = await get(c.id);
    const none = await expect422(await send(ctx, `/v1/collectables/${c.id}/image`, "PUT", form({})));
    expect(none[0]).toMatchObject({ loc: ["body", "image"], type: "missing" });
    const svg = await expect422(
      await send(ctx, `/v1/collectables/${c.id}/image`, "PUT", form({}, { bytes: new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>") })),
    );
    expect(svg[0]).toMatchObject({ loc: ["body", "image"], type: "image_type" });
    await expect422(await send(ctx, `/v1/collectables/${c.id}/image`, "PUT", form({ title: "x" }, { bytes: await png(ctx) })));
    const asText = await expect422(
      await send(ctx, `/v1/collectables/${c.id}/image`, "PUT", JSON.stringify({ image: "x" }), ctx.keys.enterprise, { "Content-Type": "application/json" }),
    );
    expect(asText[0]).toMatchObject({ loc: ["body", "image"] });
    expect((await send(ctx, `/v1/collectables/${c.id}/image`, "PUT", "<p>hi</p>", ctx.keys.enterprise, { "Content-Type": "text/html" })).status).toBe(415);
    expect(await get(c.id)).toEqual(before);
  });
});

describe("partial update (PATCH)", () => {
  test("only the fields sent change; null clears a nullable field; grouped measurements and edition; 1 DU", async () => {
    const a = artwork(7);
    const c = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id });
    const materials = marketRows<{ id: number }>(ctx, "SELECT id FROM materials ORDER BY id LIMIT 2").map((r) => r.id);
    const damages = marketRows<{ id: number }>(ctx, "SELECT id FROM damages ORDER BY id LIMIT 1").map((r) => r.id);
    const res = await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { condition: "Very good", signature: "signed lower right", damage_ids: damages } });
    expect(res.status).toBe(200);
    expect(du(res)).toBe("1");
    const p1 = await json(res);
    expect(p1).toEqual({ ...c, condition: "Very good", signature: "signed lower right", damage_ids: damages, updated_at: p1.updated_at });
    expect(p1.updated_at > c.updated_at).toBe(true);
    const p2 = await json(
      await ctx.call(`/v1/collectables/${c.id}`, {
        method: "PATCH",
        body: { condition: null, material_ids: materials, measurements: { unit: "in", depth: 2 }, edition: { edition_unique_type: "edition", edition_size: 5 } },
      }),
    );
    expect(p2).toMatchObject({
      condition: null,
      signature: "signed lower right",
      material_ids: materials,
      measurements_unit: "in",
      measurements_height: a.height_cm,
      measurements_depth: 2,
      edition_unique_type: "edition",
      edition_size: 5,
      edition_number: null,
      edition: { edition_unique_type: "edition", edition_size: 5, edition_number: null },
      title: a.title,
    });
    const p3 = await json(await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { measurements_height: null, title: "Renamed", current_location: "Vault 3" } }));
    expect(p3).toEqual({
      ...p2,
      measurements_height: null,
      title: "Renamed",
      current_location: "Vault 3",
      updated_at: p3.updated_at,
      machine_estimated_price: p3.machine_estimated_price,
      current_estimated_price: p3.current_estimated_price,
    });
    // an empty patch changes nothing
    const p4 = await json(await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: {} }));
    expect(p4).toEqual(p3);
  });

  test("validation: unknown fields, wrong types, unknown ids, an artwork not by the artist; a failed PATCH leaves the record exactly as it was", async () => {
    const a = artwork(9);
    const c = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id });
    await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { condition: "Fair" } });
    const before = await get(c.id);
    const patch = (body: unknown) => ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body });
    let d = await expect422(await patch({ title: "ok", colour: "red" }));
    expect(d).toEqual([{ loc: ["body", "colour"], msg: "Extra inputs are not permitted", type: "extra_forbidden", input: "red", ctx: {} }]);
    d = await expect422(await patch({ title: 12, manual_price_value: "a lot", creation_year: 2020.5, material_ids: "1,2", selected_price_type: "auction" }));
    expect(d.map((x) => `${x.loc.join(".")} ${x.type}`).sort()).toEqual([
      "body.creation_year int_parsing",
      "body.manual_price_value float_parsing",
      "body.material_ids list_type",
      "body.selected_price_type enum",
      "body.title string_type",
    ]);
    d = await expect422(await patch({ manual_price_value: -5 }));
    expect(d[0]).toMatchObject({ loc: ["body", "manual_price_value"], type: "greater_than_equal", ctx: { ge: 0 } });
    d = await expect422(await patch({ title: "changed", material_ids: [1, 99999], surface_ids: [424242], damage_ids: [1, 1] }));
    expect(d).toEqual([
      { loc: ["body", "material_ids", 1], msg: "Material 99999 does not exist", type: "value_error", input: 99999, ctx: { reference: "materials" } },
      { loc: ["body", "surface_ids", 0], msg: "Surface 424242 does not exist", type: "value_error", input: 424242, ctx: { reference: "surfaces" } },
      { loc: ["body", "damage_ids", 1], msg: "Damage 1 is listed twice", type: "value_error", input: 1, ctx: { reference: "damages" } },
    ]);
    d = await expect422(await patch({ measurements: { height: "tall" } }));
    expect(d[0]).toMatchObject({ loc: ["body", "measurements", "height"], type: "float_parsing" });
    d = await expect422(await patch({ artist_id: 999999, category_id: 4242 }));
    expect(d.map((x) => x.loc)).toEqual([
      ["body", "artist_id"],
      ["body", "category_id"],
    ]);
    const other = marketRow(ctx, "SELECT id FROM artists WHERE id <> ? ORDER BY id LIMIT 1", a.artist_id).id;
    d = await expect422(await patch({ edition_number: 9, edition_size: 4 }));
    expect(d[0]).toMatchObject({ loc: ["body", "edition_number"] });
    d = await expect422(await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: [1] }));
    expect(d[0]).toMatchObject({ loc: ["body"], type: "dict_type" });
    expect(await get(c.id)).toEqual(before);
    // changing artist and clearing the link together is fine
    const moved = await json(await patch({ artist_id: other, suggested_artwork_id: null }));
    expect(moved).toMatchObject({ artist_id: other, suggested_artwork_id: null, machine_estimate_basis: "comparable_works" });
  });
});

describe("delete", () => {
  test("removes the record and every child row in one go (rows checked), its image file too; again is 404; 1 DU", async () => {
    const c = await create(ctx, { artist_id: 4, category_id: 1, edition_unique_type: "unique" }, { bytes: await png(ctx) });
    const key = rowsOf(ctx, "collectables", c.id)[0]!.image_key;
    const a = artwork(11);
    expect((await ctx.call(`/v1/collectables/${c.id}/appraisals`, { method: "POST", body: { type: "insurance", value: 100, date: "2020-01-01" } })).status).toBe(200);
    expect((await ctx.call(`/v1/collectables/${c.id}/provenance`, { method: "POST", body: { owner: "A. Collector" } })).status).toBe(200);
    expect((await ctx.call(`/v1/collectables/${c.id}/sales`, { method: "POST", body: { value: 100, date: "2019-01-01" } })).status).toBe(200);
    expect((await ctx.call(`/v1/collectables/${c.id}/acquired`, { method: "PATCH", body: { price: 10 } })).status).toBe(200);
    expect((await ctx.call(`/v1/collectables/${c.id}/comps`, { method: "PUT", body: { comps: [{ artist_id: a.artist_id, artwork_id: a.id }] } })).status).toBe(200);
    const tables = [
      "collectables",
      "collectable_acquisitions",
      "collectable_appraisals",
      "collectable_provenance",
      "collectable_sales",
      "collectable_comp_sets",
      "collectable_comps",
    ];
    expect(tables.map((t) => rowsOf(ctx, t, c.id).length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const res = await ctx.call(`/v1/collectables/${c.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ id: c.id, deleted: true });
    expect(du(res)).toBe("1");
    expect(tables.map((t) => rowsOf(ctx, t, c.id).length)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(existsSync(join(ctx.dataDir, "images", "collectables", key))).toBe(false);
    const again = await ctx.call(`/v1/collectables/${c.id}`, { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(await json(again)).toEqual({ detail: `Collectable ${c.id} not found` });
    expect(du(again)).toBeNull();
    expect((await ctx.call(`/v1/collectables/${c.id}`)).status).toBe(404);
    expect((await ctx.call(`/v1/collectables/${c.id}/comps`)).status).toBe(404);
    expect(collectableEmbedding(ctx.deps.account, userId, c.id)).toBeUndefined();
  });
});

describe("list (GET /v1/collectables)", () => {
  let lister: { key: string; userId: number };
  let made: Json[];
  beforeAll(async () => {
    lister = await createUserWithKey(ctx.deps.account, "pro", "list tester");
    const works = marketRows(ctx, "SELECT a.* FROM artworks a WHERE a.estimate_usd IS NOT NULL AND a.edition_group_id IS NULL ORDER BY a.estimate_usd DESC LIMIT 40");
    const picks = [works[0]!, works[10]!, works[20]!, works[30]!];
    made = [];
    for (const w of picks)
      made.push(await create(ctx, { artist_id: w.artist_id, category_id: w.category_id, edition_unique_type: "unique", suggested_artwork_id: w.id }, undefined, lister.key));
    await ctx.call(`/v1/collectables/${made[3]!.id}`, { method: "PATCH", key: lister.key, body: { selected_price_type: "manual", manual_price_value: 1e12 } });
  });
  const list = async (query = "") => {
    const res = await ctx.call(`/v1/collectables${query}`, { key: lister.key });
    return { res, body: await json(res) };
  };

  test("items, total_count, limit, offset; newest first by default; only the caller's rows; 1 DU + 1 per item", async () => {
    const { res, body } = await list();
    expect(Object.keys(body).sort()).toEqual(["items", "limit", "offset", "total_count"]);
    expect(body).toMatchObject({ total_count: 4, limit: 20, offset: 0 });
    expect(body.items.map((i: Json) => i.id)).toEqual(made.map((m) => m.id).reverse());
    expect(du(res)).toBe("5");
    expect(body.items[3]).toEqual(await get(made[0]!.id, lister.key));
    const page = await list("?limit=2&offset=1&sort=CREATED_AT_ASC");
    expect(page.body).toMatchObject({ total_count: 4, limit: 2, offset: 1 });
    expect(page.body.items.map((i: Json) => i.id)).toEqual([made[1]!.id, made[2]!.id]);
    expect(du(page.res)).toBe("3");
    const empty = await list("?offset=10");
    expect(empty.body.items).toEqual([]);
    expect(du(empty.res)).toBe("1");
  });

  test("filters: artist_id, category_id, value range, title; sorts by value, artist name and title", async () => {
    const values = made.map((m, i) => (i === 3 ? 1e12 : (m.current_estimated_price as number)));
    const byValue = (await list("?sort=VALUE_DESC")).body.items.map((i: Json) => i.current_estimated_price);
    expect(byValue).toEqual([...values].sort((x, y) => y - x));
    expect((await list("?sort=VALUE_ASC")).body.items.map((i: Json) => i.current_estimated_price)).toEqual([...values].sort((x, y) => x - y));
    const lo = Math.min(...values.slice(0, 3));
    const hi = values[0]!;
    const ranged = (await list(`?value__gte=${lo}&value__lte=${hi}`)).body;
    expect(ranged.items.map((i: Json) => i.id).sort()).toEqual(
      made
        .slice(0, 3)
        .map((m) => m.id)
        .sort(),
    );
    expect(ranged.total_count).toBe(3);
    const artist = made[1]!.artist_id;
    const byArtist = (await list(`?artist_id=${artist}`)).body.items;
    expect(byArtist.length).toBeGreaterThan(0);
    expect(byArtist.every((i: Json) => i.artist_id === artist)).toBe(true);
    expect(byArtist.length).toBe(made.filter((m) => m.artist_id === artist).length);
    const cats = [...new Set(made.map((m) => m.category_id))];
    const byCategory = (await list(`?category_id__in=${cats[0]}`)).body;
    expect(byCategory.total_count).toBe(made.filter((m) => m.category_id === cats[0]).length);
    const names = (await list("?sort=ARTIST_NAME_ASC")).body.items.map((i: Json) => i.artist_name);
    expect(names).toEqual([...names].sort((x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)));
    const word = made[2]!.title.split(" ")[0]!.toLowerCase();
    const titled = (await list(`?title__ilike=${encodeURIComponent(word)}`)).body.items;
    expect(titled.map((i: Json) => i.id)).toContain(made[2]!.id);
    expect(titled.every((i: Json) => i.title.toLowerCase().includes(word))).toBe(true);
  });

  test("bad parameters are 422 with the detail array", async () => {
    for (const [q, loc, type] of [
      ["?sort=PRICE_DESC", ["query", "sort"], "enum"],
      ["?limit=101", ["query", "limit"], "less_than_equal"],
      ["?value__gte=abc", ["query", "value__gte"], "float_parsing"],
      ["?artist_id=x", ["query", "artist_id"], "int_parsing"],
    ] as const) {
      const d = await expect422(await ctx.call(`/v1/collectables${q}`, { key: lister.key }));
      expect(d[0]).toMatchObject({ loc, type });
    }
  });
});

describe("valuation", () => {
  test("comparableEstimate by hand: size and edition moves, year and size weights", () => {
    // one comparable: the estimate moved to the target's size: 1000 × (2)^0.45
    expect(comparableEstimate({ creationYear: null, areaCm2: 200, editionSize: null }, [{ estimateUsd: 1000, creationYear: 1990, areaCm2: 100, editionSize: null }])).toBe(
      Math.round(1000 * Math.pow(2, 0.45) * 100) / 100,
    );
    // edition of 10 against a unique work: × 10^-0.45
    expect(comparableEstimate({ creationYear: null, areaCm2: null, editionSize: 10 }, [{ estimateUsd: 1000, creationYear: null, areaCm2: null, editionSize: null }])).toBe(
      Math.round(1000 * Math.pow(10, -0.45) * 100) / 100,
    );
    // two works, years 0 and 10 away: weights 1 and 1/2 → exp((ln 100 + ½ ln 400) / 1.5) = 100 · 4^(1/3)
    expect(
      comparableEstimate({ creationYear: 2000, areaCm2: null, editionSize: null }, [
        { estimateUsd: 100, creationYear: 2000, areaCm2: 50, editionSize: null },
        { estimateUsd: 400, creationYear: 2010, areaCm2: 50, editionSize: null },
      ]),
    ).toBe(Math.round(100 * Math.cbrt(4) * 100) / 100);
    expect(comparableEstimate({ creationYear: 2000, areaCm2: 10, editionSize: null }, [])).toBeNull();
  });

  test("currentValue: manual (selected, with a value) → acquisition (use_instead, with a price) → machine → null", () => {
    const acq = { use_instead_of_estimates: true, price_usd: 500 };
    expect(currentValue({ selected_price_type: "manual", manual_price_value: 900 }, acq, 100)).toEqual({ value: 900, source: "manual" });
    expect(currentValue({ selected_price_type: "manual", manual_price_value: null }, acq, 100)).toEqual({ value: 500, source: "acquisition" });
    expect(currentValue({ selected_price_type: "machine", manual_price_value: 900 }, acq, 100)).toEqual({ value: 500, source: "acquisition" });
    expect(currentValue({ selected_price_type: "machine", manual_price_value: 900 }, { use_instead_of_estimates: true, price_usd: null }, 100)).toEqual({
      value: 100,
      source: "machine",
    });
    expect(currentValue({ selected_price_type: "machine", manual_price_value: null }, { use_instead_of_estimates: false, price_usd: 500 }, 100)).toEqual({
      value: 100,
      source: "machine",
    });
    expect(currentValue({ selected_price_type: "machine", manual_price_value: null }, null, null)).toEqual({ value: null, source: null });
  });

  test("machine estimate from the artist's comparable works: same category, else all; follows measurements and year", async () => {
    const artist = marketRow(
      ctx,
      "SELECT artist_id AS id FROM artworks WHERE estimate_usd IS NOT NULL GROUP BY artist_id HAVING count(DISTINCT category_id) >= 2 ORDER BY count(*) DESC LIMIT 1",
    ).id;
    const cats = marketRows<{ category_id: number }>(
      ctx,
      "SELECT DISTINCT category_id FROM artworks WHERE artist_id = ? AND estimate_usd IS NOT NULL ORDER BY category_id",
      artist,
    ).map((r) => r.category_id);
    const absent = marketRow(ctx, `SELECT id FROM categories WHERE id NOT IN (${cats.join(",")}) ORDER BY id LIMIT 1`)?.id;
    const poolOf = (category?: number) =>
      marketRows(ctx, `SELECT * FROM artworks WHERE artist_id = ? AND estimate_usd IS NOT NULL ${category ? `AND category_id = ${category}` : ""}`, artist).map((w) => ({
        estimateUsd: w.estimate_usd,
        creationYear: w.creation_year,
        areaCm2: w.height_cm && w.width_cm ? w.height_cm * w.width_cm : null,
        editionSize: w.edition_size,
      }));
    const c = await create(ctx, { artist_id: artist, category_id: cats[0]!, edition_unique_type: "unique", creation_year: 1990 });
    expect(c.machine_estimate_basis).toBe("comparable_works");
    expect(c.machine_estimated_price).toBe(comparableEstimate({ creationYear: 1990, areaCm2: null, editionSize: null }, poolOf(cats[0]))!);
    expect(c).toMatchObject({ current_estimated_price: c.machine_estimated_price, current_price_source: "machine" });
    // measurements in inches: area in cm²
    const sized = await json(await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { measurements_unit: "in", measurements_height: 20, measurements_width: 30 } }));
    expect(sized.machine_estimated_price).toBe(comparableEstimate({ creationYear: 1990, areaCm2: 20 * 2.54 * 30 * 2.54, editionSize: null }, poolOf(cats[0]))!);
    expect(sized.machine_estimated_price).not.toBe(c.machine_estimated_price);
    if (absent !== undefined) {
      const other = await json(await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { category_id: absent } }));
      expect(other.machine_estimated_price).toBe(comparableEstimate({ creationYear: 1990, areaCm2: 20 * 2.54 * 30 * 2.54, editionSize: null }, poolOf())!);
    }
    // the suggested artwork's estimate wins over the comparables
    const w = marketRow(ctx, "SELECT id, estimate_usd FROM artworks WHERE artist_id = ? AND estimate_usd IS NOT NULL ORDER BY id LIMIT 1", artist);
    const linked = await json(await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { suggested_artwork_id: w.id } }));
    expect(linked).toMatchObject({ machine_estimated_price: w.estimate_usd, machine_estimate_basis: "suggested_artwork", current_estimated_price: w.estimate_usd });
  });

  test("a record valued on another market snapshot is valued again before it is read (detail and list)", async () => {
    const a = artwork(17);
    const c = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id });
    await ctx.call(`/v1/collectables/${c.id}/acquired`, { method: "PATCH", body: { price: 100, currency: "EUR", date: "2000-01-03" } });
    const stale = () => ctx.deps.account.run("UPDATE collectables SET machine_estimate_usd = 1, machine_estimate_basis = NULL, valued_on = 'an older market' WHERE id = ?", [c.id]);
    stale();
    ctx.deps.account.run("UPDATE collectable_acquisitions SET price_usd = 1 WHERE collectable_id = ?", [c.id]);
    const fresh = await get(c.id);
    expect(fresh).toMatchObject({ machine_estimated_price: a.estimate_usd, machine_estimate_basis: "suggested_artwork", current_estimated_price: a.estimate_usd });
    expect(fresh.acquisition.price_usd).toBe(Math.round(100 * ctx.deps.fx.usdPerUnit("EUR", "2000-01-03")! * 100) / 100);
    stale();
    const listed = await json(await ctx.call(`/v1/collectables?value__lte=1&artist_id=${a.artist_id}`));
    expect(listed.items.map((i: Json) => i.id)).not.toContain(c.id);
    expect(rowsOf(ctx, "collectables", c.id)[0]!.machine_estimate_usd).toBe(a.estimate_usd);
  });

  test("an artist the market has no estimated work of: machine and current value null until a manual price", async () => {
    const artist = marketRow(ctx, "SELECT id FROM artists a WHERE NOT EXISTS (SELECT 1 FROM artworks w WHERE w.artist_id = a.id AND w.estimate_usd IS NOT NULL) LIMIT 1");
    if (!artist) throw new Error("the tiny market has no artist without an estimate");
    const c = await create(ctx, { artist_id: artist.id, category_id: 1, edition_unique_type: "unique" });
    expect(c).toMatchObject({ machine_estimated_price: null, machine_estimate_basis: null, current_estimated_price: null, current_price_source: null });
    const m = await json(await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { selected_price_type: "manual", manual_price_value: 1234.5 } }));
    expect(m).toMatchObject({ current_estimated_price: 1234.5, current_price_source: "manual", machine_estimated_price: null });
  });

  test("every branch through the API: machine, manual, manual without value, acquisition, acquisition without price, manual over acquisition; momentum from the artist", async () => {
    const a = artwork(13);
    const c = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id });
    const m = a.estimate_usd as number;
    const momentum = marketRow(ctx, "SELECT price_momentum_percentage_12mo AS p FROM artists WHERE id = ?", a.artist_id).p;
    expect(c.price_momentum_12mo).toBeCloseTo(Math.max(-1, Math.min(1, momentum / 100)), 10);
    const value = async () => {
      const r = await get(c.id);
      return [r.current_estimated_price, r.current_price_source, r.machine_estimated_price];
    };
    expect(await value()).toEqual([m, "machine", m]);
    await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { manual_price_value: 777 } });
    expect(await value()).toEqual([m, "machine", m]); // a manual value alone does not select it
    await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { selected_price_type: "manual" } });
    expect(await value()).toEqual([777, "manual", m]);
    await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { manual_price_value: null } });
    expect(await value()).toEqual([m, "machine", m]); // manual selected without a value falls back
    await ctx.call(`/v1/collectables/${c.id}/acquired`, { method: "PATCH", body: { use_instead_of_estimates: true } });
    expect(await value()).toEqual([m, "machine", m]); // no price yet
    const acq = await json(await ctx.call(`/v1/collectables/${c.id}/acquired`, { method: "PATCH", body: { price: 1000, currency: "EUR", date: "2015-06-30" } }));
    const usd = Math.round(1000 * ctx.deps.fx.usdPerUnit("EUR", "2015-06-30")! * 100) / 100;
    expect(acq.price_usd).toBe(usd);
    expect(await value()).toEqual([usd, "acquisition", m]);
    await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { manual_price_value: 5 } });
    expect(await value()).toEqual([5, "manual", m]); // manual selected with a value wins
    await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { selected_price_type: "machine" } });
    expect(await value()).toEqual([usd, "acquisition", m]);
    await ctx.call(`/v1/collectables/${c.id}/acquired`, { method: "PATCH", body: { use_instead_of_estimates: false } });
    expect(await value()).toEqual([m, "machine", m]);
  });
});

describe("isolation: another user's collectable is 404 on every route and method", () => {
  test("user B gets 404 everywhere for A's records, sees none of them, and changes nothing", async () => {
    const a = artwork(15);
    const mine = await create(ctx, { artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique", suggested_artwork_id: a.id });
    const id = mine.id;
    const ap = await json(await ctx.call(`/v1/collectables/${id}/appraisals`, { method: "POST", body: { type: "insurance", value: 10, date: "2020-02-02" } }));
    const pv = await json(await ctx.call(`/v1/collectables/${id}/provenance`, { method: "POST", body: { owner: "First owner" } }));
    const sl = await json(await ctx.call(`/v1/collectables/${id}/sales`, { method: "POST", body: { value: 10, date: "2020-02-02" } }));
    await ctx.call(`/v1/collectables/${id}/comps`, { method: "PUT", body: { comps: [{ artist_id: a.artist_id, artwork_id: a.id }] } });
    const before = await get(id);
    const compsBefore = await json(await ctx.call(`/v1/collectables/${id}/comps`));

    const b = await createUserWithKey(ctx.deps.account, "enterprise", "other user");
    const bOwn = await create(ctx, { artist_id: 1, category_id: 1, edition_unique_type: "unique" }, undefined, b.key);
    const png1 = await png(ctx);
    const calls: [string, string, unknown?][] = [
      ["GET", `/v1/collectables/${id}`],
      ["PATCH", `/v1/collectables/${id}`, { title: "stolen" }],
      ["DELETE", `/v1/collectables/${id}`],
      ["GET", `/v1/collectables/${id}/acquired`],
      ["PATCH", `/v1/collectables/${id}/acquired`, { price: 1 }],
      ["GET", `/v1/collectables/${id}/appraisals`],
      ["POST", `/v1/collectables/${id}/appraisals`, { type: "insurance", value: 1, date: "2020-01-01" }],
      ["PATCH", `/v1/collectables/${id}/appraisals/${ap.id}`, { value: 2 }],
      ["DELETE", `/v1/collectables/${id}/appraisals/${ap.id}`],
      ["GET", `/v1/collectables/${id}/provenance`],
      ["POST", `/v1/collectables/${id}/provenance`, { owner: "x" }],
      ["PATCH", `/v1/collectables/${id}/provenance/${pv.id}`, { owner: "y" }],
      ["DELETE", `/v1/collectables/${id}/provenance/${pv.id}`],
      ["GET", `/v1/collectables/${id}/sales`],
      ["POST", `/v1/collectables/${id}/sales`, { value: 1, date: "2020-01-01" }],
      ["PATCH", `/v1/collectables/${id}/sales/${sl.id}`, { value: 3 }],
      ["DELETE", `/v1/collectables/${id}/sales/${sl.id}`],
      ["GET", `/v1/collectables/${id}/comps`],
      ["PUT", `/v1/collectables/${id}/comps`, { comps: [] }],
      ["DELETE", `/v1/collectables/${id}/comps`],
      // B's own collectable with A's child ids: not found either
      ["PATCH", `/v1/collectables/${bOwn.id}/appraisals/${ap.id}`, { value: 2 }],
      ["DELETE", `/v1/collectables/${bOwn.id}/provenance/${pv.id}`],
      ["DELETE", `/v1/collectables/${bOwn.id}/sales/${sl.id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await ctx.call(path, { method, body, key: b.key });
      expect({ method, path, status: res.status, dus: du(res) }).toEqual({ method, path, status: 404, dus: null });
      expect(typeof (await json(res)).detail).toBe("string");
    }
    const img = await send(ctx, `/v1/collectables/${id}/image`, "PUT", form({}, { bytes: png1 }), b.key);
    expect(img.status).toBe(404);
    // B's list holds B's record only; A's detail, children and comps are exactly as before
    const list = await json(await ctx.call("/v1/collectables?limit=100", { key: b.key }));
    expect(list.items.map((i: Json) => i.id)).toEqual([bOwn.id]);
    expect(list.total_count).toBe(1);
    expect(await get(id)).toEqual(before);
    expect(await json(await ctx.call(`/v1/collectables/${id}/comps`))).toEqual(compsBefore);
    expect(collectableEmbedding(ctx.deps.account, b.userId, id)).toBeUndefined();
    // and A cannot reach B's record either
    expect((await ctx.call(`/v1/collectables/${bOwn.id}`)).status).toBe(404);
  });

  test("no key is 401; a bad path id is 422", async () => {
    for (const [method, path] of [
      ["GET", "/v1/collectables"],
      ["GET", "/v1/collectables/1"],
      ["DELETE", "/v1/collectables/1"],
      ["GET", "/v1/collectables/1/comps"],
    ]) {
      expect((await ctx.call(path!, { method, key: null })).status).toBe(401);
    }
    expect((await send(ctx, "/v1/collectables", "POST", form({ artist_id: 1, category_id: 1, edition_unique_type: "unique" }), null)).status).toBe(401);
    const d = await expect422(await ctx.call("/v1/collectables/abc"));
    expect(d[0]).toMatchObject({ loc: ["path", "collectable_id"], type: "int_parsing" });
  });

  test("every plan has collectables (sandbox included)", async () => {
    const res = await send(ctx, "/v1/collectables", "POST", form({ artist_id: 1, category_id: 1, edition_unique_type: "unique" }), ctx.keys.sandbox);
    expect(res.status).toBe(200);
    const c = await json(res);
    expect((await ctx.call(`/v1/collectables/${c.id}`, { key: ctx.keys.sandbox })).status).toBe(200);
    expect((await ctx.call(`/v1/collectables/${c.id}`, { key: ctx.keys.pro })).status).toBe(404);
  });
});
