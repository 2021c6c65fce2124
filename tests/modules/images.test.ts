/**
 * Renditions and signed image URLs on the tiny market: every width of every kind of original
 * decodes to the expected size at the original's aspect ratio, never enlarged (procedural works
 * narrower than 1920, artist photos, a 600-px file original); 403 on each kind of tampering and on
 * expiry; 404 for an unknown image; ETag / 304, Content-Type and Cache-Control; the disk cache
 * (atomic files, versioned names, stale versions removed); single flight; and the blurred
 * previews keyless callers get.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { cacheDir, locateRendition, renditionStats, RENDITION_VERSION } from "../../src/serve/images/renditions";
import { WIDTHS, type ImageObject } from "../../src/serve/images/urls";
import { createTestContext, type TestContext } from "../helpers/app";

const ORIGIN = "http://artmarket.test";
let ctx: TestContext;
let keyed: ImageObject[];
let keyless: ImageObject[];
let fileImageId: number;

interface Orig {
  width: number;
  height: number;
  kind: string;
  artwork_id: number | null;
}
const orig = (id: number) => ctx.deps.market.query<Orig, [number]>("SELECT width, height, kind, artwork_id FROM images WHERE id = ?").get(id)!;

function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  return ctx.app.handle(new Request(url, { headers, method }));
}

async function decode(res: Response) {
  const bytes = Buffer.from(await res.arrayBuffer());
  return { bytes, meta: await sharp(bytes).metadata() };
}

/** Expected rendition size: min(width, original) wide, height at the original's aspect ratio. */
function expected(o: { width: number; height: number }, w: number) {
  const width = Math.min(w, o.width);
  return { width, height: (width * o.height) / o.width };
}

async function checkAllWidths(image: ImageObject, o: { width: number; height: number }, format = "jpeg") {
  for (const w of WIDTHS) {
    const res = await get(image.urls[`w${w}`]);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const { meta } = await decode(res);
    const want = expected(o, w);
    expect(meta.format).toBe(format as never);
    expect(meta.width).toBe(want.width);
    expect(Math.abs(meta.height! - want.height)).toBeLessThanOrEqual(1);
  }
}

/** Greyscale pixels of a JPEG at its own size. */
async function grey(bytes: Buffer) {
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
/** Mean absolute difference between horizontally and vertically adjacent pixels (high-frequency energy). */
function edgeEnergy(g: { data: Buffer; width: number; height: number }): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < g.height - 1; y++) {
    for (let x = 0; x < g.width - 1; x++) {
      const i = y * g.width + x;
      sum += Math.abs(g.data[i]! - g.data[i + 1]!) + Math.abs(g.data[i]! - g.data[i + g.width]!);
      n += 2;
    }
  }
  return sum / n;
}

beforeAll(async () => {
  // A "file" original 600 px wide (4:3), registered in this market.db (written under images/orig/ below).
  ctx = await createTestContext({
    prepareMarket: (market) => {
      fileImageId = market.query<{ id: number }, []>("SELECT max(id) + 1 AS id FROM images").get()!.id;
      market.run("INSERT INTO images (id, artwork_id, width, height, kind, seed, path) VALUES (?, NULL, 600, 450, 'file', NULL, 'test/small.jpg')", [fileImageId]);
    },
  });
  const withKey = (await (await ctx.call("/v1/artworks?limit=5")).json()) as { items: { description: { image: ImageObject | null } }[] };
  keyed = withKey.items.map((a) => a.description.image).filter((x): x is ImageObject => x !== null);
  const noKey = (await (await ctx.call("/v1/artworks?limit=5", { key: null })).json()) as { items: { description: { image: ImageObject | null } }[] };
  keyless = noKey.items.map((a) => a.description.image).filter((x): x is ImageObject => x !== null);

  // the "file" original's picture
  const dir = join(ctx.dataDir, "images", "orig", "test");
  mkdirSync(dir, { recursive: true });
  const pixels = Buffer.alloc(600 * 450 * 3);
  for (let y = 0; y < 450; y++) for (let x = 0; x < 600; x++) pixels.set([(x * 7) & 255, (y * 5) & 255, ((x ^ y) * 3) & 255], (y * 600 + x) * 3);
  writeFileSync(
    join(dir, "small.jpg"),
    await sharp(pixels, { raw: { width: 600, height: 450, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
}, 60_000);

afterAll(() => ctx?.close());

describe("image objects", () => {
  test("keyed callers get full renditions, keyless callers blurred ones, five signed widths each", () => {
    expect(keyed.length).toBe(5);
    expect(keyless.length).toBe(5);
    for (const [i, image] of keyed.entries()) {
      expect(Object.keys(image.urls).sort()).toEqual(["w1200", "w1920", "w240", "w480", "w768"]);
      for (const w of WIDTHS) {
        expect(image.urls[`w${w}`]).toMatch(new RegExp(`^${ORIGIN}/images/${image.id}/w${w}\\.jpg\\?exp=\\d+&sig=[0-9a-f]{64}$`));
        expect(keyless[i]!.urls[`w${w}`]).toMatch(new RegExp(`^${ORIGIN}/images/${image.id}/w${w}-blur\\.jpg\\?exp=\\d+&sig=[0-9a-f]{64}$`));
      }
    }
  });
});

describe("renditions", () => {
  test("every width decodes to min(width, original) at the original's aspect ratio", async () => {
    for (const image of keyed.slice(0, 3)) await checkAllWidths(image, orig(image.id));
  }, 60_000);

  test("blurred renditions have the same sizes", async () => {
    await checkAllWidths(keyless[0]!, orig(keyless[0]!.id));
  }, 60_000);

  test("a procedural work narrower than 1920 px is never enlarged", async () => {
    const row = ctx.deps.market
      .query<{ id: number }, []>("SELECT id FROM images WHERE artwork_id IS NOT NULL AND kind = 'procedural' AND width < 1900 ORDER BY width LIMIT 1")
      .get()!;
    const o = orig(row.id);
    expect(o.width).toBeLessThan(1920);
    const image = ctx.deps.signer.imageObject(row.id, "full", ORIGIN)!;
    await checkAllWidths(image, o);
    const { meta } = await decode(await get(image.urls.w1920));
    expect(meta.width).toBe(o.width);
  }, 60_000);

  test("an artist photo (600×800 procedural) is 600 wide from w768 up", async () => {
    const row = ctx.deps.market.query<{ id: number }, []>("SELECT photo_image_id AS id FROM src_artists WHERE photo_image_id IS NOT NULL LIMIT 1").get()!;
    const o = orig(row.id);
    expect(o).toMatchObject({ width: 600, height: 800, artwork_id: null });
    await checkAllWidths(ctx.deps.signer.imageObject(row.id, "full", ORIGIN)!, o);
  }, 60_000);

  test("a 600-px file original: 240 and 480 scaled down, 768…1920 all 600 × 450", async () => {
    const image = ctx.deps.signer.imageObject(fileImageId, "full", ORIGIN)!;
    await checkAllWidths(image, { width: 600, height: 450 });
    for (const w of [768, 1200, 1920] as const) {
      const { meta } = await decode(await get(image.urls[`w${w}`]));
      expect([meta.width, meta.height]).toEqual([600, 450]);
    }
    await checkAllWidths(ctx.deps.signer.imageObject(fileImageId, "blur", ORIGIN)!, { width: 600, height: 450 });
  }, 60_000);

  test("the blurred preview is visibly different: far less edge energy, and not the same pixels", async () => {
    for (let i = 0; i < 3; i++) {
      const sharpImg = await grey((await decode(await get(keyed[i]!.urls.w480))).bytes);
      const blurImg = await grey((await decode(await get(keyless[i]!.urls.w480))).bytes);
      expect([blurImg.width, blurImg.height]).toEqual([sharpImg.width, sharpImg.height]);
      let diff = 0;
      for (let p = 0; p < sharpImg.data.length; p++) diff += Math.abs(sharpImg.data[p]! - blurImg.data[p]!);
      expect(diff / sharpImg.data.length).toBeGreaterThan(2);
      expect(edgeEnergy(blurImg)).toBeLessThan(edgeEnergy(sharpImg) * 0.35);
    }
  }, 60_000);
});

describe("signatures", () => {
  const tamper = (url: string, f: (u: URL) => void) => {
    const u = new URL(url);
    f(u);
    return u.toString();
  };

  test("403 on each kind of tampering", async () => {
    const image = keyed[0]!;
    const good = image.urls.w768;
    const blur = keyless[0]!.urls.w768;
    expect((await get(good)).status).toBe(200);
    expect((await get(blur)).status).toBe(200);
    const exp = new URL(good).searchParams.get("exp")!;
    const sig = new URL(good).searchParams.get("sig")!;
    const cases: Record<string, string> = {
      "width changed": good.replace("/w768.jpg", "/w480.jpg"),
      "width outside the five": good.replace("/w768.jpg", "/w500.jpg"),
      "id changed": good.replace(`/images/${image.id}/`, `/images/${image.id + 1}/`),
      "id with a leading zero": good.replace(`/images/${image.id}/`, `/images/0${image.id}/`),
      "-blur added": good.replace("/w768.jpg", "/w768-blur.jpg"),
      "-blur removed": blur.replace("/w768-blur.jpg", "/w768.jpg"),
      "exp changed": tamper(good, (u) => u.searchParams.set("exp", String(Number(exp) + 86_400))),
      "exp one second more": tamper(good, (u) => u.searchParams.set("exp", String(Number(exp) + 1))),
      "exp with a leading zero": tamper(good, (u) => u.searchParams.set("exp", `0${exp}`)),
      "exp missing": tamper(good, (u) => u.searchParams.delete("exp")),
      "sig changed": tamper(good, (u) => u.searchParams.set("sig", (sig[0] === "a" ? "b" : "a") + sig.slice(1))),
      "sig upper-case": tamper(good, (u) => u.searchParams.set("sig", sig.toUpperCase())),
      "sig truncated": tamper(good, (u) => u.searchParams.set("sig", sig.slice(0, 63))),
      "sig missing": tamper(good, (u) => u.searchParams.delete("sig")),
      "sig repeated": `${good}&sig=${sig}`,
      "another parameter": `${good}&w=1920`,
      "sig of another width": tamper(good, (u) => u.searchParams.set("sig", new URL(image.urls.w480).searchParams.get("sig")!)),
      "no query": good.split("?")[0]!,
    };
    for (const [name, url] of Object.entries(cases)) {
      const res = await get(url);
      expect({ name, status: res.status }).toEqual({ name, status: 403 });
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(((await res.json()) as { detail: string }).detail).toMatch(/signature/i);
    }
  });

  test("403 after expiry (a URL signed five days ago)", async () => {
    const fiveDaysAgo = Date.now() - 5 * 86_400_000;
    const url = ctx.deps.signer.url(keyed[0]!.id, 768, "full", ORIGIN, fiveDaysAgo);
    expect(Number(new URL(url).searchParams.get("exp")) * 1000).toBeLessThan(Date.now());
    const res = await get(url);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/expired/i);
  });

  test("URLs live a few days", () => {
    const exp = Number(new URL(keyed[0]!.urls.w240).searchParams.get("exp"));
    const days = (exp * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(3);
    expect(days).toBeLessThanOrEqual(4);
  });

  test("404 for an unknown image behind a genuine signature", async () => {
    const res = await get(ctx.deps.signer.url(99_999_999, 768, "full", ORIGIN));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Image not found" });
  });
});

describe("HTTP caching", () => {
  test("Content-Type, ETag, Cache-Control until exp, 304 on If-None-Match, HEAD", async () => {
    const url = keyed[1]!.urls.w240;
    const exp = Number(new URL(url).searchParams.get("exp"));
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const cc = res.headers.get("cache-control")!;
    expect(cc).toMatch(/^public, max-age=\d+, immutable$/);
    const maxAge = Number(/max-age=(\d+)/.exec(cc)![1]);
    expect(Math.abs(maxAge - (exp - Date.now() / 1000))).toBeLessThan(5);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);

    const again = await get(url);
    expect(again.headers.get("etag")).toBe(etag);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);

    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
      const nm = await get(url, { "If-None-Match": inm });
      expect(nm.status).toBe(304);
      expect(nm.headers.get("etag")).toBe(etag);
      expect(nm.headers.get("cache-control")).toMatch(/^public, max-age=\d+, immutable$/);
      expect((await nm.arrayBuffer()).byteLength).toBe(0);
    }
    expect((await get(url, { "If-None-Match": '"other"' })).status).toBe(200);
    // Another width or the blurred variant has another ETag.
    expect((await get(keyed[1]!.urls.w480)).headers.get("etag")).not.toBe(etag);
    expect((await get(keyless[1]!.urls.w240)).headers.get("etag")).not.toBe(etag);

    const head = await get(url, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(Number(head.headers.get("content-length"))).toBe(bytes.length);
  });

  test("an image fetch is not metered: no DU headers, no key needed for a signed URL", async () => {
    const res = await get(keyed[1]!.urls.w240);
    expect(res.status).toBe(200);
    for (const h of ["X-Service-DataUnits", "X-Service-DataUnits-Remaining"]) expect(res.headers.get(h)).toBeNull();
  });
});

describe("disk cache and single flight", () => {
  test("cached under images/cache/<id>/w<width>[-blur]-<version>.jpg, written atomically", async () => {
    const image = keyed[2]!;
    await get(image.urls.w480);
    await get(keyless[2]!.urls.w480);
    const files = readdirSync(cacheDir(ctx.dataDir, image.id));
    expect(files.some((f) => new RegExp(`^w480-${RENDITION_VERSION}\\.[0-9a-f]+\\.jpg$`).test(f))).toBe(true);
    expect(files.some((f) => new RegExp(`^w480-blur-${RENDITION_VERSION}\\.[0-9a-f]+\\.jpg$`).test(f))).toBe(true);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // Served from the file afterwards: no render.
    const before = renditionStats.renders;
    expect((await get(image.urls.w480)).status).toBe(200);
    expect(renditionStats.renders).toBe(before);
  });

  test("a new version replaces the old file of the same rendition, and only that one", async () => {
    const image = keyed[3]!;
    const dir = cacheDir(ctx.dataDir, image.id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "w1200-r0.0123456789.jpg"), "old");
    writeFileSync(join(dir, "w1200-blur-r0.0123456789.jpg"), "old");
    const res = await get(image.urls.w1200);
    expect(res.status).toBe(200);
    const { meta } = await decode(res);
    expect(meta.format).toBe("jpeg");
    const files = readdirSync(dir);
    expect(files).not.toContain("w1200-r0.0123456789.jpg");
    expect(files).toContain("w1200-blur-r0.0123456789.jpg");
  }, 60_000);

  test("10 concurrent first requests for one rendition render it once", async () => {
    const image = keyed[4]!;
    const ref = locateRendition({ market: ctx.deps.market, dataDir: ctx.dataDir, accounts: ctx.deps.accounts }, image.id, 1920, "full")!;
    expect(existsSync(ref.file)).toBe(false);
    const before = { ...renditionStats };
    const responses = await Promise.all(Array.from({ length: 10 }, () => get(image.urls.w1920)));
    expect(renditionStats.renders - before.renders).toBe(1);
    expect(renditionStats.joined - before.joined).toBe(9);
    const bodies = await Promise.all(responses.map(async (r) => Buffer.from(await r.arrayBuffer())));
    for (const r of responses) expect(r.status).toBe(200);
    for (const b of bodies) expect(b.equals(bodies[0]!)).toBe(true);
    expect(existsSync(ref.file)).toBe(true);
    // And a second wave is served from disk.
    await Promise.all(Array.from({ length: 10 }, () => get(image.urls.w1920)));
    expect(renditionStats.renders - before.renders).toBe(1);
  }, 60_000);
});
