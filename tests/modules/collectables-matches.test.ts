/**
 * Suggested matches (src/serve/modules/collectables/matches.ts, issue 32 item 25): a collectable
 * whose image is a market artwork's own picture offers that artwork (never linked by itself); an
 * unrelated picture or another work of the same artist offers none; linking with PATCH makes the
 * artwork's estimate the machine estimate. The rule itself on hand-made hits.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderSvg } from "../../src/images/procedural";
import { closeMatches, MATCH_RULE } from "../../src/serve/modules/collectables/matches";
import { loadSharp } from "../../src/platform/native";
import { createTestContext, type TestContext } from "../helpers/app";
import { create, du, form, json, marketRow, send, type Json } from "./collectables-helpers";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const ORIGIN = "http://artmarket.test";

/**
 * An estimated unique artwork of the market with its image's drawing parameters, by an artist with
 * several estimated works in its category (so the comparable-works estimate is not its own).
 */
const artwork = (offset: number) =>
  marketRow(
    ctx,
    `SELECT a.id, a.title, a.artist_id, a.category_id, a.estimate_usd, a.image_id, i.seed, i.width, i.height FROM artworks a JOIN images i ON i.id = a.image_id
      WHERE a.estimate_usd IS NOT NULL AND a.height_cm IS NOT NULL AND a.edition_group_id IS NULL
        AND (SELECT count(*) FROM artworks b WHERE b.artist_id = a.artist_id AND b.category_id = a.category_id AND b.estimate_usd IS NOT NULL) >= 5
      ORDER BY a.id LIMIT 1 OFFSET ?`,
    offset,
  );

/** The artwork's picture as the service serves it (the 1200 px rendition behind its signed URL): what a user would save and upload. */
async function rendition(imageId: number): Promise<Uint8Array> {
  const res = await ctx.app.handle(new Request(ctx.deps.signer.url(imageId, 1200, "full", ORIGIN)));
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** A work the market does not have, drawn by the painter of `artistId` (a new seed), as a JPEG. */
async function newWork(artistId: number, seed: number, width: number, height: number): Promise<Uint8Array> {
  const svg = renderSvg({ artistId, seed, width, height });
  return new Uint8Array(await loadSharp(ctx.dataDir)(Buffer.from(svg), { density: 36 }).jpeg({ quality: 80 }).toBuffer());
}

const fields = (a: Json) => ({ artist_id: a.artist_id, category_id: a.category_id, edition_unique_type: "unique" });

describe("closeMatches: the rule on hand-made hits", () => {
  const hits = (...scores: number[]) => scores.map((score, i) => ({ id: i + 1, score, distance: Math.sqrt(2 - 2 * score) }));
  const ids = (scores: number[]) => closeMatches(hits(...scores)).map((h) => h.id);

  test("one clear match, several alike (an edition's copies), none clear of the rest, none high enough", () => {
    expect(MATCH_RULE).toEqual({ minScore: 0.975, margin: 0.01, max: 3 });
    expect(ids([0.998, 0.955, 0.95, 0.94])).toEqual([1]);
    expect(ids([0.999, 0.999, 0.998, 0.95])).toEqual([1, 2, 3]);
    expect(ids([0.99, 0.985, 0.97, 0.96])).toEqual([1, 2]);
    expect(ids([0.99, 0.976, 0.95, 0.94])).toEqual([1, 2]);
    // four alike: no three of them stand clear of the fourth, nor fewer
    expect(ids([0.999, 0.999, 0.999, 0.999])).toEqual([]);
    expect(ids([0.99, 0.985, 0.982, 0.981])).toEqual([]);
    expect(ids([0.974, 0.9, 0.8, 0.7])).toEqual([]);
    // exactly 0.975 is enough; a market with fewer works than max + 1 leaves nothing to stand clear of
    expect(closeMatches([{ id: 7, score: 0.975, distance: 0 }]).map((h) => h.id)).toEqual([7]);
    expect(ids([0.99, 0.98])).toEqual([1, 2]);
    expect(ids([0.99, 0.974])).toEqual([1]);
    expect(ids([])).toEqual([]);
  });
});

describe("suggested_matches on the collectable", () => {
  test("a market artwork's own picture, uploaded without suggested_artwork_id: the artwork is offered (not linked), on create, detail and list; 1 DU", async () => {
    const a = artwork(0);
    const res = await send(ctx, "/v1/collectables", "POST", form(fields(a), { bytes: await rendition(a.image_id), type: "image/jpeg", name: "work.jpg" }));
    expect(res.status).toBe(200);
    expect(du(res)).toBe("1");
    const c = await json(res);
    expect(c.suggested_artwork_id).toBeNull();
    expect(c.machine_estimate_basis).toBe("comparable_works");
    expect(c.machine_estimated_price).not.toBe(a.estimate_usd);
    const artist = marketRow(ctx, "SELECT name FROM artists WHERE id = ?", a.artist_id).name;
    expect(c.suggested_matches.length).toBeGreaterThanOrEqual(1);
    expect(c.suggested_matches[0]).toMatchObject({ artwork_id: a.id, title: a.title, artist_id: a.artist_id, artist_name: artist });
    expect(c.suggested_matches[0].score).toBeGreaterThanOrEqual(MATCH_RULE.minScore);
    expect(c.suggested_matches[0].score).toBeLessThanOrEqual(1);
    // the same on read (kept in memory: equal answers), in the list too
    expect((await json(await ctx.call(`/v1/collectables/${c.id}`))).suggested_matches).toEqual(c.suggested_matches);
    const list = await json(await ctx.call("/v1/collectables?limit=100"));
    expect(list.items.find((x: Json) => x.id === c.id).suggested_matches).toEqual(c.suggested_matches);
  });

  test("linking the match with PATCH: the artwork's estimate becomes the value, the suggestion goes; clearing the link brings it back", async () => {
    const a = artwork(1);
    const c = await create(ctx, fields(a), { bytes: await rendition(a.image_id), type: "image/jpeg" });
    expect(c.suggested_matches[0].artwork_id).toBe(a.id);
    const before = c.current_estimated_price;
    const linked = await json(await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { suggested_artwork_id: c.suggested_matches[0].artwork_id } }));
    expect(linked).toMatchObject({
      suggested_artwork_id: a.id,
      suggested_matches: [],
      machine_estimated_price: a.estimate_usd,
      machine_estimate_basis: "suggested_artwork",
      current_estimated_price: a.estimate_usd,
      current_price_source: "machine",
    });
    expect(linked.current_estimated_price).not.toBe(before);
    // the image stays the upload: linking changes the link only
    expect(linked.image_url).toBe(c.image_url);
    const unlinked = await json(await ctx.call(`/v1/collectables/${c.id}`, { method: "PATCH", body: { suggested_artwork_id: null } }));
    expect(unlinked.suggested_matches).toEqual(c.suggested_matches);
  });

  test("PUT …/image with the artwork's picture on a record without image offers it; a record seeded from an artwork offers nothing", async () => {
    const a = artwork(2);
    const c = await create(ctx, fields(a));
    expect(c.suggested_matches).toEqual([]);
    const res = await send(ctx, `/v1/collectables/${c.id}/image`, "PUT", form({}, { bytes: await rendition(a.image_id), type: "image/jpeg" }));
    expect(res.status).toBe(200);
    expect(du(res)).toBe("1");
    const up = await json(res);
    expect(up.suggested_matches[0]).toMatchObject({ artwork_id: a.id, title: a.title });
    expect(up.suggested_matches[0].score).toBeGreaterThanOrEqual(MATCH_RULE.minScore);
    const seeded = await create(ctx, { ...fields(a), suggested_artwork_id: a.id });
    expect(seeded.suggested_matches).toEqual([]);
    // its link cleared, the seeded picture (the artwork's own vector) offers the artwork back at 1
    const cleared = await json(await ctx.call(`/v1/collectables/${seeded.id}`, { method: "PATCH", body: { suggested_artwork_id: null } }));
    expect(cleared.suggested_matches[0]).toMatchObject({ artwork_id: a.id, score: 1 });
  });

  test("a flat colour picture and new works of the artists (pictures the market does not have): no match", async () => {
    const sharp = loadSharp(ctx.dataDir);
    const a = artwork(0);
    const flat = new Uint8Array(
      await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 40, g: 90, b: 160 } } })
        .png()
        .toBuffer(),
    );
    expect((await create(ctx, fields(a), { bytes: flat })).suggested_matches).toEqual([]);
    for (const offset of [0, 5, 10, 20, 40]) {
      const w = artwork(offset);
      const bytes = await newWork(w.artist_id, (w.seed * 7919 + 13) >>> 0, w.width, w.height);
      const c = await create(ctx, fields(w), { bytes, type: "image/jpeg" });
      expect({ artwork: w.id, matches: c.suggested_matches }).toEqual({ artwork: w.id, matches: [] });
    }
  });
});
