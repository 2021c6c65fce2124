/**
 * Similar artworks and search by image (src/serve/modules/search) on the tiny market: each anchor
 * (upload, image_url, collectable_id), the one-anchor rule, pool filters (every row in the pool,
 * scores descending, the unfiltered order restricted to the pool), exclusions, min_score, limits,
 * the work itself found from transformed catalogue images, bad uploads and addresses, entitlements
 * and DU.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { vectorBytes } from "../../src/db/collectables";
import { IMAGE_INDEX } from "../../src/images/indexes";
import { renderSvg } from "../../src/images/procedural";
import { MAX_UPLOAD_BYTES } from "../../src/serve/images/upload";
import { buildVectorIndex, VectorIndex } from "../../src/images/vector-index";
import { SearchByImageResponse, SimilarArtworksResponse } from "../../src/serve/modules/search/model";
import { SEARCH_TUNING } from "../../src/serve/modules/search/service";
import { loadSharp, type Sharp } from "../../src/platform/native";
import { checkResponse, createTestContext, type TestContext } from "../helpers/app";

type Json = Record<string, any>;
type Work = { id: number; artist_id: number; category_id: number; seed: number; width: number; height: number; title: string };

let ctx: TestContext;
let sharp: Sharp;
let index: VectorIndex;
let works: Work[];
let server: ReturnType<typeof Bun.serve>;
let served = new Map<string, Uint8Array>();
let base: string;

function checkSchema(schema: TSchema, value: unknown) {
  const errors = [...Value.Errors(schema, value)].slice(0, 3).map((e) => `${e.path}: ${e.message}`);
  expect(errors).toEqual([]);
}

/** A catalogue work drawn at half its size and saved as JPEG quality 60 (a photo of it, roughly). */
async function queryImage(w: Work, format: "jpeg" | "png" = "jpeg"): Promise<Uint8Array> {
  const svg = renderSvg({ artistId: w.artist_id, seed: w.seed, width: w.width, height: w.height, title: w.title });
  const img = sharp(Buffer.from(svg), { density: 36 });
  return new Uint8Array(await (format === "jpeg" ? img.jpeg({ quality: 60 }) : img.png()).toBuffer());
}

beforeAll(async () => {
  ctx = await createTestContext();
  sharp = loadSharp(ctx.dataDir);
  index = new VectorIndex(ctx.deps.market, IMAGE_INDEX);
  works = ctx.deps.market
    .query<Work, []>(
      "SELECT a.id, a.artist_id, a.category_id, i.seed, i.width, i.height, a.title FROM artworks a JOIN images i ON i.id = a.image_id WHERE i.kind = 'procedural' ORDER BY a.id",
    )
    .all();
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/page.html") return new Response("<html><body>gallery</body></html>", { headers: { "Content-Type": "text/html" } });
      const bytes = served.get(path);
      return bytes ? new Response(bytes, { headers: { "Content-Type": "image/jpeg" } }) : new Response("nothing here", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
}, 120_000);
afterAll(() => {
  server?.stop(true);
  ctx?.close();
});

async function get(path: string, key: string | null = ctx.keys.enterprise) {
  const res = await ctx.call(path, { key });
  return { status: res.status, body: (await res.json()) as Json, du: res.headers.get("X-Service-DataUnits") };
}

/** POST /v1/artworks/search-by-image with a form (or a JSON body) and a query string. */
async function search(form: FormData | Json | null, query = "", key: string | null = ctx.keys.enterprise) {
  const headers: Record<string, string> = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  let body: FormData | string | undefined;
  if (form instanceof FormData) body = form;
  else if (form) {
    body = JSON.stringify(form);
    headers["Content-Type"] = "application/json";
  }
  const path = `/v1/artworks/search-by-image${query ? `?${query}` : ""}`;
  const res = await ctx.app.handle(new Request(`http://artmarket.test${path}`, { method: "POST", headers, body }));
  await checkResponse(ctx.app, ctx.deps, "POST", path, key, res);
  const text = await res.text();
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = { text };
  }
  return { status: res.status, body: json, du: res.headers.get("X-Service-DataUnits") };
}

const withFile = (bytes: Uint8Array, name = "query.jpg", type = "image/jpeg", fields: Record<string, string> = {}) => {
  const f = new FormData();
  f.append("image", new File([bytes], name, { type }));
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

const fields = (values: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.append(k, v);
  return f;
};

/**
 * Runs `fn` with the operator's allow list (`--fetch-allow`) set to loopback, so that image_url
 * may name the local server; the test context's config has none, so loopback is refused otherwise.
 */
async function allowingLoopback<T>(fn: () => Promise<T>): Promise<T> {
  const config = ctx.deps.config as { fetchAllow?: readonly string[] };
  const saved = config.fetchAllow;
  config.fetchAllow = ["127.0.0.0/8"];
  try {
    return await fn();
  } finally {
    config.fetchAllow = saved;
  }
}

const ids = (body: Json) => (body.results as Json[]).map((r) => r.artwork.id as number);
const scores = (body: Json) => (body.results as Json[]).map((r) => r.score as number);

function expectDescending(body: Json) {
  const s = scores(body);
  for (let i = 1; i < s.length; i++) expect(s[i]!).toBeLessThanOrEqual(s[i - 1]!);
}

/** The whole catalogue ranked exactly against a query vector (the tiny index is small). */
const exactOrder = (v: Float32Array) => index.exact(v, index.count).map((h) => h.id);

// ---------------------------------------------------------------- similar

describe("GET /v1/artworks/{artwork_id}/similar", () => {
  test("the nearest images, best first, itself left out, equal to an exact search; full artwork objects; DU 10 + 1.5 per result", async () => {
    for (const w of [works[0]!, works[Math.floor(works.length / 2)]!, works.at(-1)!]) {
      const { status, body, du } = await get(`/v1/artworks/${w.id}/similar?limit=12`);
      expect(status).toBe(200);
      checkSchema(SimilarArtworksResponse, body);
      expect(body.artwork_id).toBe(w.id);
      expect(body.results.length).toBe(12);
      expect(ids(body)).not.toContain(w.id);
      expectDescending(body);
      expect(ids(body)).toEqual(
        exactOrder(index.vectorOf(w.id)!)
          .filter((id) => id !== w.id)
          .slice(0, 12),
      );
      expect(du).toBe(String(10 + 1.5 * 12));
      for (const r of body.results as Json[]) {
        expect(Object.keys(r).sort()).toEqual(["artwork", "score"]);
        expect(r.artwork).toHaveProperty("current_estimated_price");
        expect(r.artwork.description.image.urls.w240).toContain("/images/");
      }
    }
  });

  test("similar is meaningful: most neighbours are by the same artist", async () => {
    const byArtist = new Map<number, number>();
    for (const w of works) byArtist.set(w.artist_id, (byArtist.get(w.artist_id) ?? 0) + 1);
    const sample = works
      .filter((w) => byArtist.get(w.artist_id)! >= 11)
      .filter((_, i) => i % 25 === 0)
      .slice(0, 20);
    expect(sample.length).toBeGreaterThan(5);
    let same = 0,
      all = 0;
    for (const w of sample) {
      const { body } = await get(`/v1/artworks/${w.id}/similar?limit=10`);
      for (const r of body.results as Json[]) all++, (same += r.artwork.description.artist.id === w.artist_id ? 1 : 0);
    }
    expect(same / all).toBeGreaterThanOrEqual(0.7);
  });

  test("default 20, limit 1..100 (101 and 0: 422), preferred_currency adds the *_preferred values", async () => {
    const id = works[3]!.id;
    expect((await get(`/v1/artworks/${id}/similar`)).body.results.length).toBe(20);
    for (const bad of ["101", "0", "x"]) {
      const { status, body } = await get(`/v1/artworks/${id}/similar?limit=${bad}`);
      expect(status).toBe(422);
      expect(body.detail[0].loc).toEqual(["query", "limit"]);
    }
    const { body } = await get(`/v1/artworks/${id}/similar?limit=3&preferred_currency=EUR`);
    for (const r of body.results as Json[]) expect(r.artwork.preferred_currency).toBe("EUR");
  });

  test("unknown artwork 404; an artwork without an image: 200 with no results (base price)", async () => {
    expect((await get(`/v1/artworks/99999999/similar`)).status).toBe(404);
    // the tiny market draws an image for every work: take one's away (and its vector), as a larger market has works without
    // (in a market of its own)
    const bare = works.at(-5)!;
    const own = await createTestContext({
      prepareMarket: (db) => {
        db.run("UPDATE artworks SET image_id = NULL WHERE id = ?", [bare.id]);
        db.run(`DELETE FROM "${IMAGE_INDEX.name}" WHERE id = ?`, [bare.id]);
      },
    });
    try {
      expect(new VectorIndex(own.deps.market, IMAGE_INDEX).vectorOf(bare.id)).toBeNull();
      const res = await own.call(`/v1/artworks/${bare.id}/similar`);
      const answer = { status: res.status, body: await res.json(), du: res.headers.get("X-Service-DataUnits") };
      expect(answer).toEqual({ status: 200, body: { artwork_id: bare.id, results: [] }, du: "10" });
    } finally {
      own.close();
    }
  });

  test("sandbox 403, no key 401, pro 200", async () => {
    const id = works[0]!.id;
    expect((await get(`/v1/artworks/${id}/similar`, ctx.keys.sandbox)).status).toBe(403);
    expect((await get(`/v1/artworks/${id}/similar`, null)).status).toBe(401);
    expect((await get(`/v1/artworks/${id}/similar`, ctx.keys.pro)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- search by image: anchors

describe("POST /v1/artworks/search-by-image: anchors", () => {
  test("an uploaded photo of a catalogue work (half size, JPEG q60) finds the work itself first", async () => {
    const sample = [works[1]!, works[Math.floor(works.length / 3)]!, works[Math.floor((2 * works.length) / 3)]!, works.at(-2)!];
    for (const w of sample) {
      const { status, body, du } = await search(withFile(await queryImage(w)), "limit=10");
      expect(status).toBe(200);
      checkSchema(SearchByImageResponse, body);
      expect(ids(body)[0]).toBe(w.id);
      expect(body.results.length).toBe(10);
      expectDescending(body);
      expect(du).toBe(String(10 + 1.5 * 10));
    }
  });

  test("default limit 50; the file type is sniffed (a PNG named .jpg works)", async () => {
    const w = works[7]!;
    const { status, body } = await search(withFile(await queryImage(w, "png"), "photo.jpg", "image/jpeg"));
    expect(status).toBe(200);
    expect(body.results.length).toBe(50);
    expect(ids(body)[0]).toBe(w.id);
  });

  test("image_url (form field, query parameter or JSON body) fetches the picture and finds the work", () =>
    allowingLoopback(async () => {
      const w = works[11]!;
      served.set("/work.jpg", await queryImage(w));
      for (const [form, query] of [
        [fields({ image_url: `${base}/work.jpg`, limit: "5" }), ""],
        [null, `image_url=${encodeURIComponent(`${base}/work.jpg`)}&limit=5`],
        [{ image_url: `${base}/work.jpg`, limit: 5 }, ""],
      ] as const) {
        const { status, body } = await search(form as FormData | Json | null, query);
        expect(status).toBe(200);
        expect(ids(body)[0]).toBe(w.id);
        expect(body.results.length).toBe(5);
      }
    }));

  test("image_url failures are 422 at the parameter, never 500: 404, an HTML page, ftp://, garbage", () =>
    allowingLoopback(async () => {
      const cases: [string, string][] = [
        [`${base}/missing.jpg`, "fetch_status"],
        [`${base}/page.html`, "fetch_not_image"],
        ["ftp://artmarket.test/work.jpg", "url_scheme"],
        ["not an address", "url_parsing"],
      ];
      for (const [url, type] of cases) {
        const { status, body, du } = await search(fields({ image_url: url }));
        expect({ url, status }).toEqual({ url, status: 422 });
        expect(body.detail[0]).toMatchObject({ loc: ["body", "image_url"], type, input: url });
        expect(du).toBeNull();
      }
      const { body } = await search(null, `image_url=${encodeURIComponent(`${base}/missing.jpg`)}`);
      expect(body.detail[0].loc).toEqual(["query", "image_url"]);
    }));

  test("image_url naming an internal address (here the local server on 127.0.0.1) is 422 fetch_forbidden_address, nothing fetched, no DU", async () => {
    const w = works[11]!;
    served.set("/work.jpg", await queryImage(w));
    let requests = 0;
    const counting = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch() {
        requests++;
        return new Response(served.get("/work.jpg")!, { headers: { "Content-Type": "image/jpeg" } });
      },
    });
    try {
      const url = `http://127.0.0.1:${counting.port}/work.jpg`;
      expect(ctx.deps.config.fetchAllow).toBeUndefined();
      for (const [form, query, loc] of [
        [fields({ image_url: url }), "", ["body", "image_url"]],
        [{ image_url: url }, "", ["body", "image_url"]],
        [null, `image_url=${encodeURIComponent(url)}`, ["query", "image_url"]],
      ] as const) {
        const { status, body, du } = await search(form as FormData | Json | null, query);
        expect(status).toBe(422);
        expect(body.detail).toHaveLength(1);
        expect(body.detail[0]).toMatchObject({ loc, type: "fetch_forbidden_address", input: url, ctx: { address: "127.0.0.1" } });
        expect(Object.keys(body.detail[0]).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
        expect(du).toBeNull();
      }
      const { status, body } = await search(fields({ image_url: `http://localhost:${counting.port}/work.jpg` }));
      expect(status).toBe(422);
      expect(body.detail[0].type).toBe("fetch_forbidden_address");
      expect(requests).toBe(0);
      // the operator's allow list lets the same address through
      const allowed = await allowingLoopback(() => search(fields({ image_url: url, limit: "3" })));
      expect(allowed.status).toBe(200);
      expect(ids(allowed.body)[0]).toBe(w.id);
      expect(requests).toBe(1);
    } finally {
      counting.stop(true);
    }
  });

  test("collectable_id: the caller's own collectable's image; another user's or unknown: 404; without image: 422", async () => {
    const owner = await createUserWithKey(ctx.deps.account, "pro", "collector");
    const stranger = await createUserWithKey(ctx.deps.account, "pro", "stranger");
    const w = works[20]!;
    const insert = ctx.deps.account.prepare(
      `INSERT INTO collectables (uid, user_id, artist_id, category_id, edition_unique_type, embedding, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'unique', ?, 0, 0) RETURNING id`,
    );
    const withImage = (insert.get(`c-${owner.userId}-a`, owner.userId, w.artist_id, w.category_id, vectorBytes(index.vectorOf(w.id)!)) as { id: number }).id;
    const noImage = (insert.get(`c-${owner.userId}-b`, owner.userId, w.artist_id, w.category_id, null) as { id: number }).id;
    insert.finalize();

    let r = await search(fields({ collectable_id: String(withImage), limit: "3" }), "", owner.key);
    expect(r.status).toBe(200);
    expect(ids(r.body)[0]).toBe(w.id);
    expect(r.body.results[0].score).toBeCloseTo(1, 5);
    r = await search(null, `collectable_id=${withImage}&limit=3`, owner.key);
    expect(ids(r.body)[0]).toBe(w.id);
    expect((await search(fields({ collectable_id: String(withImage) }), "", stranger.key)).status).toBe(404);
    expect((await search(fields({ collectable_id: "987654" }), "", owner.key)).status).toBe(404);
    r = await search(fields({ collectable_id: String(noImage) }), "", owner.key);
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ["body", "collectable_id"], input: noImage });
  });

  test("exactly one anchor: none, two and three are 422 with the detail array", async () => {
    const jpeg = await queryImage(works[2]!);
    let r = await search(fields({ limit: "5" }));
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      {
        loc: ["body"],
        msg: "Give exactly one anchor: an image file, image_url or collectable_id",
        type: "missing",
        input: null,
        ctx: { anchors: ["image", "image_url", "collectable_id"] },
      },
    ]);
    r = await search(null);
    expect(r.status).toBe(422);

    r = await search(withFile(jpeg, "q.jpg", "image/jpeg", { image_url: `${base}/work.jpg` }));
    expect(r.status).toBe(422);
    expect((r.body.detail as Json[]).map((d) => d.loc)).toEqual([
      ["body", "image"],
      ["body", "image_url"],
    ]);
    for (const d of r.body.detail as Json[]) expect(Object.keys(d).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);

    r = await search(withFile(jpeg, "q.jpg", "image/jpeg", { image_url: `${base}/work.jpg` }), "collectable_id=1");
    expect(r.status).toBe(422);
    expect((r.body.detail as Json[]).map((d) => d.loc)).toEqual([
      ["body", "image"],
      ["body", "image_url"],
      ["query", "collectable_id"],
    ]);

    // the same parameter in the query and in the form is ambiguous
    r = await search(withFile(jpeg, "q.jpg", "image/jpeg", { limit: "5" }), "limit=6");
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(["body", "limit"]);
  });
});

// ---------------------------------------------------------------- search by image: parameters

describe("POST /v1/artworks/search-by-image: pool filters, exclusions, min_score, limits", () => {
  let anchor: Work;
  let jpeg: Uint8Array;
  let queryVector: Float32Array;

  beforeAll(async () => {
    anchor = works[5]!;
    jpeg = await queryImage(anchor);
    const { embedImage } = await import("../../src/images/embedding");
    queryVector = await embedImage(sharp, jpeg);
  });

  /** Artwork ids in the pool of a filter, by SQL written in the test. */
  const poolOf = (where: string, params: (string | number)[] = []) =>
    new Set(
      ctx.deps.market
        .query<{ id: number }, (string | number)[]>(`SELECT id FROM artworks WHERE image_id IS NOT NULL AND ${where}`)
        .all(...params)
        .map((r) => r.id),
    );

  test("each pool filter: every row in the pool, scores descending, exactly the unfiltered order restricted to the pool", async () => {
    const artist = anchor.artist_id;
    const other = works.find((w) => w.artist_id !== artist && w.category_id !== anchor.category_id)!;
    const cases: [string, Set<number>][] = [
      [`artist_id=${artist}`, poolOf("artist_id = ?", [artist])],
      [`artist_id__in=${artist},${other.artist_id}`, poolOf("artist_id IN (?, ?)", [artist, other.artist_id])],
      [`category_id=${anchor.category_id}`, poolOf("category_id = ?", [anchor.category_id])],
      [`category_id__in=${anchor.category_id}&category_id__in=${other.category_id}`, poolOf("category_id IN (?, ?)", [anchor.category_id, other.category_id])],
      ["size=big", poolOf("size_bucket = 'big'")],
      ["creation_year__gte=1980&creation_year__lte=2005", poolOf("creation_year BETWEEN 1980 AND 2005")],
      ["current_estimated_price__gte=20000", poolOf("estimate_usd >= 20000")],
      ["measurements_height_cm__lte=60", poolOf("height_cm <= 60")],
      ["without_editions=true", poolOf("edition_group_id IS NULL")],
      ["materials=oil", poolOf("(' ' || replace(lower(medium), ',', ' ') || ' ') LIKE '% oil %'")],
      [`category_id=${anchor.category_id}&size__in=medium,big`, poolOf("category_id = ? AND size_bucket IN ('medium', 'big')", [anchor.category_id])],
    ];
    const order = exactOrder(queryVector);
    // every path: exact ranking of a small pool (default), the index's own filter and the deep search past it
    for (const candidatePool of [5000, 10]) {
      SEARCH_TUNING.candidatePool = candidatePool;
      try {
        for (const [query, pool] of cases) {
          expect({ query, pool: pool.size > 0 }).toEqual({ query, pool: true });
          const { status, body } = await search(withFile(jpeg), `${query}&limit=40`);
          expect({ query, status }).toEqual({ query, status: 200 });
          for (const id of ids(body)) expect({ query, id, inPool: pool.has(id) }).toEqual({ query, id, inPool: true });
          expectDescending(body);
          expect({ query, ids: ids(body) }).toEqual({ query, ids: order.filter((id) => pool.has(id)).slice(0, 40) });
        }
      } finally {
        SEARCH_TUNING.candidatePool = 5000;
      }
    }
  });

  test("a pool filter that matches nothing: empty results; an invalid filter: 422", async () => {
    let r = await search(withFile(jpeg), "artist_id=99999999");
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([]);
    expect(r.du).toBe("10");
    r = await search(withFile(jpeg), "size=huge&creation_year__gte=x");
    expect(r.status).toBe(422);
    expect((r.body.detail as Json[]).map((d) => d.loc.join(".")).sort()).toEqual(["query.creation_year__gte", "query.size"]);
  });

  test("exclusions: the listed works are left out, the rest keep their order (form field or query, repeated or comma-separated)", async () => {
    const all = ids((await search(withFile(jpeg), "limit=20")).body);
    expect(all[0]).toBe(anchor.id);
    const drop = [all[0]!, all[3]!, all[7]!];
    const expected = all.filter((id) => !drop.includes(id));
    let r = await search(withFile(jpeg, "q.jpg", "image/jpeg", { exclude_artwork_id__in: `${drop[0]},${drop[1]}` }), `limit=17&exclude_artwork_id__in=${drop[2]}`);
    // given both in the form and the query string: ambiguous
    expect(r.status).toBe(422);
    const f = withFile(jpeg);
    f.append("exclude_artwork_id__in", `${drop[0]},${drop[1]}`);
    f.append("exclude_artwork_id__in", String(drop[2]));
    r = await search(f, "limit=17");
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual(expected);
    r = await search(withFile(jpeg), `limit=17&exclude_artwork_id__in=${drop.join(",")}`);
    expect(ids(r.body)).toEqual(expected);
    expect((await search(withFile(jpeg), "exclude_artwork_id__in=0")).status).toBe(422);
  });

  test("min_score: every score at least it (and the results are the unfiltered prefix); outside 0..1: 422", async () => {
    const all = (await search(withFile(jpeg), "limit=200")).body;
    const s = scores(all);
    const threshold = s[30]!;
    for (const r of [
      await search(withFile(jpeg, "q.jpg", "image/jpeg", { min_score: String(threshold) }), "limit=200"),
      await search(withFile(jpeg), `min_score=${threshold}&limit=200`),
    ]) {
      expect(r.status).toBe(200);
      for (const x of scores(r.body)) expect(x).toBeGreaterThanOrEqual(threshold);
      expect(ids(r.body)).toEqual(ids(all).filter((_, i) => s[i]! >= threshold));
      expect(r.du).toBe(String(10 + 1.5 * r.body.results.length));
    }
    for (const bad of ["1.5", "-0.1", "high"]) {
      const r = await search(withFile(jpeg), `min_score=${bad}`);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(["query", "min_score"]);
    }
    expect((await search(withFile(jpeg, "q.jpg", "image/jpeg", { min_score: "2" }))).body.detail[0]).toMatchObject({ loc: ["body", "min_score"], ctx: { le: 1 } });
  });

  test("limit: 200 allowed; 201 and 0 are 422, in the query and in the form", async () => {
    const r = await search(withFile(jpeg), "limit=200");
    expect(r.status).toBe(200);
    expect(r.body.results.length).toBe(200);
    expect(r.du).toBe(String(10 + 1.5 * 200));
    for (const bad of ["201", "0"]) {
      const q = await search(withFile(jpeg), `limit=${bad}`);
      expect(q.status).toBe(422);
      expect(q.body.detail[0]).toMatchObject({ loc: ["query", "limit"], input: bad });
      const b = await search(withFile(jpeg, "q.jpg", "image/jpeg", { limit: bad }));
      expect(b.status).toBe(422);
      expect(b.body.detail[0]).toMatchObject({ loc: ["body", "limit"], input: bad });
    }
  });
});

// ---------------------------------------------------------------- bad uploads, entitlements

describe("POST /v1/artworks/search-by-image: bad uploads and access", () => {
  test("a text file renamed .jpg: 422 image_type (the spec's validation error); truncated: 422; a decompression bomb: 422; oversized: 413; nothing charged", async () => {
    let r = await search(withFile(new TextEncoder().encode("not a picture at all\n"), "photo.jpg"));
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ["body", "image"], type: "image_type", ctx: { accepted: ["image/jpeg", "image/png", "image/webp", "image/gif", "image/tiff"] } });
    expect(r.du).toBeNull();

    const whole = await queryImage(works[4]!);
    r = await search(withFile(whole.subarray(0, Math.floor(whole.length / 2))));
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ["body", "image"], type: "image_invalid" });

    const bomb = new Uint8Array(
      await sharp({ create: { width: 9000, height: 9000, channels: 3, background: "#777777" }, limitInputPixels: false })
        .png({ compressionLevel: 1 })
        .toBuffer(),
    );
    r = await search(withFile(bomb, "flat.png", "image/png"));
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ["body", "image"], type: "image_too_many_pixels" });

    const big = new Uint8Array(MAX_UPLOAD_BYTES + 10);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    r = await search(withFile(big));
    expect(r.status).toBe(413);
    expect(r.du).toBeNull();
  });

  test("sandbox 403 (before the upload is read), no key 401, bad key 401", async () => {
    const jpeg = await queryImage(works[0]!);
    expect((await search(withFile(jpeg), "", ctx.keys.sandbox)).status).toBe(403);
    expect((await search(withFile(jpeg), "", null)).status).toBe(401);
    expect((await search(withFile(jpeg), "", "am_not_a_key")).status).toBe(401);
    expect((await search(withFile(jpeg), "limit=3", ctx.keys.pro)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- the IVF paths

describe("search by image on a partitioned index (the paths a large catalogue takes)", () => {
  let ivf: TestContext;
  let ivfIndex: VectorIndex;
  const queries: { work: Work; jpeg: Uint8Array; vector: Float32Array }[] = [];

  beforeAll(async () => {
    // the image index of this copy rebuilt in 8 partitions, 2 probed (4 with a filter)
    ivf = await createTestContext({
      prepareMarket: (db) => {
        const rows = db
          .query<{ id: number; embedding: Uint8Array; artist_id: number; category_id: number }, []>(`SELECT id, embedding, artist_id, category_id FROM "${IMAGE_INDEX.name}"`)
          .all()
          .map((r) => ({ id: r.id, vector: new Float32Array(new Uint8Array(r.embedding).buffer), meta: [r.artist_id, r.category_id] }));
        buildVectorIndex(db, IMAGE_INDEX, () => rows, { nlist: 8, nprobe: 2 });
      },
    });
    ivfIndex = new VectorIndex(ivf.deps.market, IMAGE_INDEX);
    const { embedImage } = await import("../../src/images/embedding");
    for (const w of [works[30]!, works[400]!, works[900]!, works[1500]!]) {
      const jpeg = await queryImage(w);
      queries.push({ work: w, jpeg, vector: await embedImage(sharp, jpeg) });
    }
  }, 120_000);
  afterAll(() => ivf?.close());

  const post = async (jpeg: Uint8Array, query: string) => {
    const res = await ivf.app.handle(
      new Request(`http://artmarket.test/v1/artworks/search-by-image?${query}`, { method: "POST", headers: { Authorization: `Bearer ${ivf.keys.pro}` }, body: withFile(jpeg) }),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  };

  test("the index is partitioned and probes part of it", () => {
    expect(ivfIndex.nlist).toBe(8);
    expect(ivfIndex.nprobe).toBe(2);
  });

  test("unfiltered, the index filter and the deep search: rows in the pool, scores descending, the work itself first, near the exact pool ranking", async () => {
    const meta = new Map(
      ivf.deps.market
        .query<{ id: number; category_id: number; size_bucket: string }, []>("SELECT id, category_id, size_bucket FROM artworks")
        .all()
        .map((r) => [r.id, r]),
    );
    SEARCH_TUNING.candidatePool = 10;
    let found = 0,
      wanted = 0;
    try {
      for (const q of queries) {
        const exact = ivfIndex.exact(q.vector, ivfIndex.count).map((h) => h.id);
        const cases: [string, (id: number) => boolean][] = [
          ["", () => true],
          [`category_id=${q.work.category_id}`, (id) => meta.get(id)!.category_id === q.work.category_id],
          [`size=${meta.get(q.work.id)!.size_bucket}&creation_year__gte=0`, (id) => meta.get(id)!.size_bucket === meta.get(q.work.id)!.size_bucket],
        ];
        for (const [query, inPool] of cases) {
          const body = await post(q.jpeg, `${query}&limit=20`);
          expect({ query, first: ids(body)[0] }).toEqual({ query, first: q.work.id });
          for (const id of ids(body)) expect({ query, id, inPool: inPool(id) }).toEqual({ query, id, inPool: true });
          expectDescending(body);
          const want = exact.filter(inPool).slice(0, 20);
          found += ids(body).filter((id) => want.includes(id)).length;
          wanted += want.length;
        }
      }
    } finally {
      SEARCH_TUNING.candidatePool = 5000;
    }
    expect(found / wanted).toBeGreaterThanOrEqual(0.9);
  });
});
