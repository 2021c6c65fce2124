/**
 * What the data says about itself: the artist index's points before the artist's first priced lot
 * are flagged `extrapolated` (the values unchanged), and every currency field of the OpenAPI
 * document says what it is the currency of.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unpackSeries } from "../../src/db/series";
import { monthDate, monthIndex } from "../../src/market/calendar";
import { createTestContext, type TestContext } from "../helpers/app";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers and the OpenAPI document, read field by field
type Json = Record<string, any>;
type Point = { time: string; value: number; value_low?: number; value_high?: number; extrapolated: boolean };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function get(path: string): Promise<Json> {
  const res = await ctx.call(path);
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

/** The day of the artist's first sold lot with a hammer price, read straight from the lots (null without one). */
function firstPricedDay(artistId: number): string | null {
  const row = ctx.deps.market
    .query<{ t: number | null }, [number]>("SELECT min(sale_datetime) AS t FROM lots WHERE artist_id = ? AND status = 'sold' AND hammer_usd_cents > 0")
    .get(artistId);
  return row?.t == null ? null : new Date(row.t * 1000).toISOString().slice(0, 10);
}

// ---------------------------------------------------------------- the artist index's extrapolated points

describe("artist index: points before the first priced lot are flagged extrapolated", () => {
  /** Artists with a chart and a first priced lot after the chart's first month, and one priced from the start if any. */
  let artists: { id: number; first: string | null; start: string }[];
  beforeAll(() => {
    const charted = ctx.deps.market.query<{ id: number; start: string }, []>("SELECT artist_id AS id, start_month AS start FROM artist_charts ORDER BY artist_id").all();
    artists = charted.map((a) => ({ ...a, first: firstPricedDay(a.id) }));
  });

  const sample = () => {
    const late = artists.filter((a) => a.first !== null && a.first > a.start);
    expect(late.length).toBeGreaterThanOrEqual(5);
    return late.filter((_, i) => i % Math.ceil(late.length / 8) === 0);
  };

  test("monthly: every point before the first priced lot's day is flagged and none from it on; the values are the stored index", async () => {
    let before = 0;
    let after = 0;
    for (const a of sample()) {
      const data = (await get(`/v1/artists/${a.id}/chart`)).series[0].data as Point[];
      const stored = ctx.deps.market.query<{ points: Uint8Array }, [number]>("SELECT points FROM artist_charts WHERE artist_id = ?").get(a.id)!;
      const values = unpackSeries(stored.points);
      expect(data).toHaveLength(values.length);
      data.forEach((p, i) => {
        expect(p.time).toBe(monthDate(monthIndex(a.start) + i));
        expect(p.value).toBe(Math.round(values[i]! * 100) / 100);
        expect(p.extrapolated).toBe(p.time < a.first!);
        if (p.extrapolated) before++;
        else after++;
      });
      // the flag flips once, at the month of the first priced lot (or the one after, when that lot fell on the first)
      const flips = data.filter((p, i) => i > 0 && p.extrapolated !== data[i - 1]!.extrapolated);
      expect(flips).toHaveLength(1);
      expect(flips[0]!.time.slice(0, 7) >= a.first!.slice(0, 7)).toBe(true);
    }
    expect(before).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(0);
  });

  test("yearly and daily: the same rule on their own dates", async () => {
    for (const a of sample().slice(0, 3)) {
      for (const resolution of ["yearly", "daily"]) {
        const data = (await get(`/v1/artists/${a.id}/chart?resolution=${resolution}`)).series[0].data as Point[];
        expect(data.length).toBeGreaterThan(0);
        for (const p of data) expect(p.extrapolated).toBe(p.time < a.first!);
      }
    }
  });

  test("an artist without a priced lot: every point is extrapolated, the values the same", async () => {
    // a market of its own where one artist's lots are all bought in (the stored index unchanged)
    const a = sample()[0]!;
    const chart = async (c: TestContext) => ((await (await c.call(`/v1/artists/${a.id}/chart`)).json()) as Json).series[0].data as Point[];
    const before = await chart(ctx);
    expect(before.some((p) => !p.extrapolated)).toBe(true);
    const own = await createTestContext({
      prepareMarket: (writer) => writer.query("UPDATE lots SET status = 'passed', hammer = NULL, hammer_usd_cents = NULL WHERE artist_id = ? AND status = 'sold'").run(a.id),
    });
    try {
      const after = await chart(own);
      expect(after.every((p) => p.extrapolated)).toBe(true);
      expect(after.map(({ extrapolated: _, ...p }) => p)).toEqual(before.map(({ extrapolated: _, ...p }) => p));
    } finally {
      own.close();
    }
  });

  test("artist_index_chart (include_chart=true) carries the same flag as the chart's monthly points", async () => {
    const ids = sample().map((a) => a.id);
    const list = await get(`/v1/artists?id__in=${ids.join(",")}&include_chart=true&limit=${ids.length}`);
    expect(list.artists.map((r: Json) => r.id).sort((x: number, y: number) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    for (const r of list.artists as Json[]) {
      const chart = (await get(`/v1/artists/${r.id}/chart`)).series[0].data as Point[];
      expect(r.artist_index_chart).toEqual(chart.map((p) => ({ time: p.time, value: p.value, extrapolated: p.extrapolated })));
    }
  });
});

// ---------------------------------------------------------------- currency fields in the schema

/** Every property of every schema in the document: where it sits, its name and its schema. */
function properties(doc: Json): { where: string; name: string; schema: Json }[] {
  const out: { where: string; name: string; schema: Json }[] = [];
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
    if (!node || typeof node !== "object") return;
    const o = node as Json;
    if (o.properties && typeof o.properties === "object" && !Array.isArray(o.properties)) {
      for (const [name, schema] of Object.entries(o.properties as Json)) if (schema && typeof schema === "object") out.push({ where, name, schema: schema as Json });
    }
    for (const [k, v] of Object.entries(o)) walk(v, `${where}/${k}`);
  };
  walk(doc, "#");
  return out;
}

describe("currency fields: every one says what it is", () => {
  let doc: Json;
  beforeAll(async () => {
    doc = (await (await ctx.call("/openapi.json", { key: null })).json()) as Json;
  });

  test("every property named currency or *_currency has a description", () => {
    const found = properties(doc).filter((p) => p.name === "currency" || p.name.endsWith("_currency"));
    const undescribed = found.filter((p) => typeof p.schema.description !== "string" || p.schema.description.trim() === "").map((p) => `${p.where}.${p.name}`);
    expect(undescribed).toEqual([]);
    // the walk reaches the fields the issue was about
    const schemas = doc.components.schemas as Json;
    expect(schemas.PriceSchema.properties.currency.description).toContain("native currency");
    expect(schemas.PriceSchema.properties.currency.description).toContain("sale");
    expect(schemas.ArtworkSchema.properties.currency.description).toContain("most recent lot");
    expect(schemas.ArtworkSchema.properties.current_estimated_price_currency.description).toContain("USD");
    expect(found.length).toBeGreaterThanOrEqual(20);
  });

  test("every *_usd property says it is in US dollars", () => {
    const usd = properties(doc).filter((p) => p.name.endsWith("_usd"));
    expect(usd.length).toBeGreaterThanOrEqual(8);
    expect(usd.filter((p) => !/\bUSD\b|US dollars/.test(p.schema.description ?? "")).map((p) => `${p.where}.${p.name}`)).toEqual([]);
  });

  test("the artist index points describe extrapolated", () => {
    const schemas = doc.components.schemas as Json;
    const chartPoint = schemas.ArtistChartResponse.properties.series.items.properties.data.items;
    for (const point of [schemas.ArtistIndexPoint, chartPoint]) {
      expect(point.required).toContain("extrapolated");
      expect(point.properties.extrapolated.type).toBe("boolean");
      expect(point.properties.extrapolated.description).toContain("first priced lot");
    }
  });
});
