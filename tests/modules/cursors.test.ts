/**
 * Cursor pagination of the market lists on the tiny market: for every list and every sort (both
 * directions) and a few filter combinations, walking the list by cursor with a small page gives
 * exactly the rows of one offset query of the whole list (same order, none twice, none missing),
 * next_cursor null on the last page; the followed forms too; a cursor of other filters, another
 * sort, another snapshot, an edited or a garbage one is a 422 at ["query","cursor"]; offset with a
 * cursor is a 422 at ["query","offset"]; a cursor page costs what the page by offset costs.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SORT_BY } from "../../src/serve/modules/artists/fields";
import { ARTWORK_SORTS } from "../../src/serve/modules/artworks/fields";
import { LOT_SORTS } from "../../src/serve/modules/lots/fields";
import { SALE_LIST } from "../../src/serve/modules/sales/fields";
import { keysetRanges } from "../../src/serve/query/cursor";
import { sortKeys } from "../../src/serve/query/grammar";
import type { Caller } from "../../src/serve/accounts/keys";
import { RateLimiter, type RateState } from "../../src/serve/http/metering";
import { createTestContext, type TestContext, type TestContextOptions } from "../helpers/app";

let ctx: TestContext;

/** The rate limiter on a clock of its own (each request 110 ms after the one before): the walks make thousands of requests. */
class PacedLimiter extends RateLimiter {
  private t = 0;
  override check(caller: Caller): RateState {
    this.t += 110;
    return super.check(caller, this.t);
  }
}

async function pacedContext(options: TestContextOptions = {}): Promise<TestContext> {
  const c = await createTestContext(options);
  (c.deps as { limiter: RateLimiter }).limiter = new PacedLimiter();
  return c;
}

beforeAll(async () => {
  ctx = await pacedContext();
});
afterAll(() => ctx.close());

/** Where a list's rows are in its body. */
const ROWS: Record<string, string> = { artists: "artists", artworks: "items", lots: "lots", sales: "sales" };

async function get(path: string, key?: string | null) {
  const res = await ctx.call(path, { key });
  return { status: res.status, body: (await res.json()) as any, du: res.headers.get("X-Service-DataUnits") };
}

const rowsOf = (path: string, body: any): number[] => (body[ROWS[path.split("?")[0]!.split("/")[2]!]!] as { id: number }[]).map((r) => r.id);
const withParams = (path: string, extra: string) => `${path}${path.includes("?") ? "&" : "?"}${extra}`;

/** The whole list by offset, in one page (the lists' largest page is enough on the tiny market), or in pages of 100. */
async function byOffset(path: string, key?: string | null): Promise<number[]> {
  const out: number[] = [];
  for (let offset = 0; ; offset += 100) {
    const { status, body } = await get(withParams(path, `limit=100&offset=${offset}`), key);
    expect(status).toBe(200);
    const rows = rowsOf(path, body);
    out.push(...rows);
    if (rows.length < 100) return out;
  }
}

/** The whole list by cursor, `limit` rows a page; every page but the last has a next_cursor. */
async function byCursor(path: string, limit: number, key?: string | null): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url = withParams(path, `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    const { status, body } = await get(url, key);
    expect(status).toBe(200);
    const rows = rowsOf(path, body);
    pages++;
    ids.push(...rows);
    expect(body.next_cursor === null || typeof body.next_cursor === "string").toBe(true);
    if (body.next_cursor !== null) expect(rows.length).toBe(limit);
    cursor = body.next_cursor;
    if (pages > 2000) throw new Error("runaway walk");
  } while (cursor !== null);
  return { ids, pages };
}

async function walks(path: string, key?: string | null, limit = 7) {
  const expected = await byOffset(path, key);
  const { ids, pages } = await byCursor(path, limit, key);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual(expected);
  expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
  return expected.length;
}

describe("walking every list by cursor gives the offset order", () => {
  test("lots: every sort, and filters (a range on the sort's column, a status, a search)", async () => {
    // every sort over a narrow set (one artist's lots: every sort, NULLs included) and the broad list for two
    const artist = ctx.deps.market.query<{ artist_id: number }, []>("SELECT artist_id FROM lots GROUP BY artist_id ORDER BY count(*) DESC LIMIT 1").get()!.artist_id;
    let total = 0;
    for (const sort of Object.keys(LOT_SORTS)) total += await walks(`/v1/lots?sort=${sort}&artist_id=${artist}`);
    expect(total).toBeGreaterThan(Object.keys(LOT_SORTS).length * 20);
    // broad: the NULL tails of the nullable sorts, and the walk across them
    for (const sort of ["CREATION_YEAR_ASC", "HAMMER_PRICE_ESTIMATE_MIN_DESC", "NUMBER_DESC"])
      expect(await walks(`/v1/lots?sort=${sort}&status=passed`, undefined, 97)).toBeGreaterThan(200);
    expect(await walks("/v1/lots?sort=CREATION_YEAR_ASC&creation_year__gte=1990&status__in=sold,passed")).toBeGreaterThan(7);
    const name = ctx.deps.market.query<{ name: string }, [number]>("SELECT name FROM artists WHERE id = ?").get(artist)!.name;
    expect(await walks(`/v1/lots?sort=SALE_DATE_ASC&search=${encodeURIComponent(name)}`)).toBeGreaterThan(7);
  }, 30_000);

  test("sales: every sort, and a status filter", async () => {
    for (const sort of Object.keys(SALE_LIST.sorts!)) expect(await walks(`/v1/sales?sort=${sort}`, undefined, 23)).toBeGreaterThan(23);
    expect(await walks("/v1/sales?sort=END_DATETIME_DESC&status=closed&is_online=false")).toBeGreaterThan(7);
  });

  test("artworks: every sort, sort_by_price, no sort, and filters (a category, a range, a planned category list)", async () => {
    const category = ctx.deps.market.query<{ category_id: number }, []>("SELECT category_id FROM artworks GROUP BY category_id ORDER BY count(*) DESC LIMIT 1").get()!.category_id;
    for (const sort of [...Object.keys(ARTWORK_SORTS).map((s) => `sort=${s}`), "sort_by_price=asc", "sort_by_price=desc", ""]) {
      expect(await walks(`/v1/artworks?${sort}&creation_year__gte=1900`, undefined, 37)).toBeGreaterThan(37);
      expect(await walks(`/v1/artworks?${sort}&category_id=${category}&current_estimated_price__gte=1000`, undefined, 29)).toBeGreaterThan(29);
    }
    expect(await walks("/v1/artworks?sort=SIZE_ASC&with_images=true&size__in=small,other")).toBeGreaterThan(7);
  }, 30_000);

  test("artists: every sort_by in both directions, the legacy sorts, and filters", async () => {
    for (const sort of SORT_BY) for (const dir of ["asc", "desc"]) expect(await walks(`/v1/artists?sort_by=${sort}&sort_dir=${dir}`, undefined, 31)).toBeGreaterThan(31);
    expect(await walks("/v1/artists?sort_by_total_sales=asc&is_living=true")).toBeGreaterThan(7);
    expect(await walks("/v1/artists?sort_by=BIRTH&birth__gte=1900&is_top=false")).toBeGreaterThan(7);
  }, 30_000);

  test("the public schema (no key) walks the same rows", async () => {
    expect(await walks("/v1/lots?sort=HAMMER_PRICE_ESTIMATE_MAX_ASC&status=withdrawn", null)).toBeGreaterThan(7);
    expect(await walks("/v1/artworks?sort=NAME_DESC&creation_year__lte=1950", null, 50)).toBeGreaterThan(50);
  });

  test("the followed forms", async () => {
    const db = ctx.deps.market;
    const pick = (table: string) =>
      db
        .query<{ id: number }, []>(`SELECT id FROM ${table} ORDER BY id DESC LIMIT 40`)
        .all()
        .map((r) => r.id);
    const key = ctx.keys.pro;
    for (const [plural, table] of [
      ["lots", "lots"],
      ["sales", "sales"],
      ["artworks", "artworks"],
      ["artists", "artists"],
    ] as const) {
      for (const id of pick(table)) expect((await ctx.call(`/v1/${plural}/${id}/follow`, { method: "POST", key })).status).toBe(204);
    }
    // several follows in one second: the id (or the follow's rowid) breaks the ties of created_at
    expect(await walks("/v1/lots/followed?sort=CREATION_YEAR_DESC", key, 6)).toBe(40);
    expect(await walks("/v1/sales/followed?sort=START_DATETIME_ASC", key, 6)).toBe(40);
    expect(await walks("/v1/artworks/followed", key, 6)).toBe(40);
    expect(await walks("/v1/artists/followed", key, 6)).toBe(40);
    expect(await walks("/v1/artists?followed=true&sort_by=NAME", key, 6)).toBe(40);
    // a followed list's cursor is its user's: another user's list refuses it
    const first = await get("/v1/lots/followed?limit=5", key);
    const other = await get(`/v1/lots/followed?limit=5&cursor=${first.body.next_cursor}`, ctx.keys.enterprise);
    expect(other.status).toBe(422);
    expect(other.body.detail[0].loc).toEqual(["query", "cursor"]);
  });
});

describe("a cursor is refused for another list", () => {
  async function refused(path: string, loc = ["query", "cursor"]) {
    const { status, body } = await get(path);
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(loc);
    return body.detail[0].msg as string;
  }

  test("other filters, another sort, another list: 422 at [query, cursor]; limit may change", async () => {
    const lots = (await get("/v1/lots?sort=SALE_DATE_DESC&status=sold&limit=5")).body.next_cursor as string;
    expect(await refused(`/v1/lots?sort=SALE_DATE_DESC&status=passed&cursor=${lots}`)).toContain("other filters");
    await refused(`/v1/lots?sort=SALE_DATE_ASC&status=sold&cursor=${lots}`);
    await refused(`/v1/lots?status=sold&search=word&cursor=${lots}`);
    await refused(`/v1/sales?cursor=${lots}`);
    // the default sort is the sort named, and a reordered __in list is the same list
    expect((await get(`/v1/lots?status=sold&limit=9&cursor=${lots}`)).status).toBe(200);
    const artworks = (await get("/v1/artworks?category_id__in=1,2&limit=5")).body.next_cursor as string;
    expect((await get(`/v1/artworks?category_id__in=2,1&cursor=${artworks}`)).status).toBe(200);
    await refused(`/v1/artworks?category_id__in=2,1&with_images=true&cursor=${artworks}`);
    await refused(`/v1/artworks?category_id__in=2,1&sort_by_price=asc&cursor=${artworks}`);
    const artists = (await get("/v1/artists?sort_by=NAME&limit=5")).body.next_cursor as string;
    await refused(`/v1/artists?sort_by=NAME&sort_dir=desc&cursor=${artists}`);
    await refused(`/v1/artists?sort_by=NAME&q=a&cursor=${artists}`);
    // presentation parameters are not filters
    expect((await get(`/v1/artists?sort_by=NAME&include_chart=true&cursor=${artists}`)).status).toBe(200);
  });

  test("edited, garbage, empty or overlong cursors: 422, never a 500", async () => {
    const cursor = (await get("/v1/sales?limit=3")).body.next_cursor as string;
    const [payload, tag] = cursor.split(".") as [string, string];
    const body = JSON.parse(Buffer.from(payload, "base64url").toString());
    // the same payload with another position, under the old tag
    const moved = Buffer.from(JSON.stringify({ ...body, k: [body.k[0], body.k[1] + 1] })).toString("base64url");
    expect(await refused(`/v1/sales?cursor=${moved}.${tag}`)).toContain("altered");
    const flipped = `${cursor.slice(0, -2)}${cursor.at(-2) === "A" ? "B" : "A"}${cursor.at(-1)}`;
    await refused(`/v1/sales?cursor=${flipped}`);
    for (const bad of ["x", "not-a-cursor", "%27%3B%20DROP%20TABLE%20sales%3B--", `${"A".repeat(3000)}.${tag}`, "e30.AAAAAAAAAAAAAAAAAAAAAA", `${payload}.`]) {
      const { status, body: b } = await get(`/v1/sales?cursor=${bad}`);
      expect(status).toBe(422);
      expect(b.detail[0].loc).toEqual(["query", "cursor"]);
    }
    await refused("/v1/sales?cursor=");
  });

  test("offset with a cursor: 422 at [query, offset]; offset 0 is allowed", async () => {
    const cursor = (await get("/v1/lots?limit=3")).body.next_cursor as string;
    await refused(`/v1/lots?offset=3&cursor=${cursor}`, ["query", "offset"]);
    expect((await get(`/v1/lots?offset=0&cursor=${cursor}`)).status).toBe(200);
  });

  test("a cursor of another snapshot (another market_meta, the same secret): 422", async () => {
    // the same market under another market_meta
    const other = await pacedContext({ prepareMarket: (db) => db.run("UPDATE market_meta SET value = '2000-01-01T00:00:00.000Z' WHERE key = 'built_at'") });
    try {
      // the same signing secret on both servers (as one data directory's after a new snapshot)
      Object.assign(other.deps, { signer: ctx.deps.signer });
      const here = (await get("/v1/lots?limit=4")).body;
      const call = (path: string) => other.app.handle(new Request(`http://artmarket.test${path}`, { headers: { Authorization: `Bearer ${other.keys.enterprise}` } }));
      const there = (await (await call("/v1/lots?limit=4")).json()) as any;
      expect(there.lots).toEqual(here.lots);
      expect(there.next_cursor).not.toBe(here.next_cursor);
      const res = await call(`/v1/lots?cursor=${here.next_cursor}`);
      expect(res.status).toBe(422);
      const body = (await res.json()) as any;
      expect(body.detail[0].loc).toEqual(["query", "cursor"]);
      expect(body.detail[0].msg).toContain("another snapshot");
      // its own cursor goes on
      expect((await call(`/v1/lots?cursor=${there.next_cursor}`)).status).toBe(200);
    } finally {
      other.close();
    }
  });
});

describe("cost and shape", () => {
  test("a cursor page costs what the page by offset costs; the last page has next_cursor null", async () => {
    const first = await get("/v1/artworks?limit=10&sort=NAME_ASC");
    const second = await get(`/v1/artworks?limit=10&sort=NAME_ASC&cursor=${first.body.next_cursor}`);
    const offset = await get("/v1/artworks?limit=10&sort=NAME_ASC&offset=10");
    expect(second.body.items.map((r: { id: number }) => r.id)).toEqual(offset.body.items.map((r: { id: number }) => r.id));
    expect(second.du).toBe(offset.du);
    expect(Number(second.du)).toBeGreaterThan(0);
    expect(second.body.total_count).toBe(offset.body.total_count);
    const all = (await get("/v1/sales?limit=100")).body.total as number;
    const last = await get(`/v1/sales?limit=100&offset=${all - (all % 100 || 100)}`);
    expect(last.body.next_cursor).toBeNull();
    // a page by offset that goes on has a cursor that continues after it
    const mid = await get("/v1/sales?limit=5&offset=5");
    const after = await get(`/v1/sales?limit=5&cursor=${mid.body.next_cursor}`);
    const byOffset10 = await get("/v1/sales?limit=5&offset=10");
    expect(after.body.sales.map((r: { id: number }) => r.id)).toEqual(byOffset10.body.sales.map((r: { id: number }) => r.id));
  });

  test("the keyset ranges: one seek without NULLs, the NULL tail after the values, the NULL tail alone from a NULL", () => {
    const plain = sortKeys("DESC", "sale_datetime", "id");
    expect(keysetRanges(plain, [100, 7])).toEqual([{ sql: "sale_datetime <= ? AND (sale_datetime, id) < (?, ?)", params: [100, 100, 7] }]);
    const nullable = sortKeys("ASC", ["x", true], "id");
    expect(keysetRanges(nullable, [5, 9])).toEqual([
      { sql: "x >= ? AND (x, id) > (?, ?)", params: [5, 5, 9] },
      { sql: "x IS NULL", params: [], nullTail: true },
    ]);
    expect(keysetRanges(nullable, [null, 9])).toEqual([{ sql: "x IS NULL AND id >= ? AND id > ?", params: [9, 9], nullTail: true }]);
  });
});
