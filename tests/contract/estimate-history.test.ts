/**
 * The history of served estimates (docs/api-artworks.md#estimates-as-of-a-day): two merges of fed
 * days each keep the estimate values they replaced, exactly the works whose values changed
 * (checked here against the three snapshots compared independently); `as_of` on the artwork
 * detail and on a collectable answers with the values of the snapshot in effect that day, a day
 * before the first snapshot is 422, and the chart's estimate_history series has a point at each
 * change. The merges' artist.index_moved events are the republished charts that moved the threshold
 * or more (lowered here: the tiny market's indexes move less than 3 % a month).
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { unpackSeries } from "../../src/db/series";
import { monthDate, monthIndex } from "../../src/market/calendar";
import { addDays, dayNumber } from "../../src/market/time";
import { feedMarket } from "../../src/pipeline/feed";
import { eventIdOf, INDEX_EVENT } from "../../src/pipeline/import/events";
import { runImport } from "../../src/pipeline/import/run";
import { createTestContext, type TestContext, tempDataDir, tinyMarketDir } from "../helpers/app";

const COLS = ["estimate_usd", "estimate_min_usd", "estimate_max_usd", "price_change_12mo", "price_change_24mo"] as const;
/** The index move reported in these merges (INDEX_EVENT lowered for them). */
const MOVE = 0.01;
type Values = Record<(typeof COLS)[number], number | null>;

let root: string;
let ctx: TestContext;
/** The three snapshots' as-of dates and each work's estimate values in them. */
const asOf: string[] = [];
const values: Map<number, Values>[] = [];
/** The history rows after the second merge, and the index events of each merge. */
let history: ({ artwork_id: number; until: number } & Values)[];
let since: string;
const indexEvents: { id: string; subject_id: number; data: string }[][] = [];
const expectedIndex: Set<string>[] = [];

function read(path: string): { asOf: string; values: Map<number, Values>; charts: Map<number, { start: string; points: Uint8Array }> } {
  const db = new Database(path, { readonly: true });
  try {
    const day = db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()!.value;
    const rows = db.query<{ id: number } & Values, []>(`SELECT id, ${COLS.join(", ")} FROM artworks`).all();
    const charts = db.query<{ artist_id: number; start_month: string; points: Uint8Array }, []>("SELECT artist_id, start_month, points FROM artist_charts").all();
    return {
      asOf: day,
      values: new Map(rows.map(({ id, ...v }) => [id, v])),
      charts: new Map(charts.map((c) => [c.artist_id, { start: c.start_month, points: c.points }])),
    };
  } finally {
    db.close();
  }
}

const same = (a: Values, b: Values) => COLS.every((c) => a[c] === b[c]);
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

beforeAll(async () => {
  root = tempDataDir("artmarket-history-");
  const market = join(root, "market");
  mkdirSync(market);
  for (const f of ["market.db", "truth.db"]) copyFileSync(join(await tinyMarketDir(), f), join(market, f));
  let snap = read(join(market, "market.db"));
  // the tiny market's indexes move less than 3 % a month: a lower threshold, so that some do
  const threshold = INDEX_EVENT.move;
  INDEX_EVENT.move = MOVE;
  asOf.push(snap.asOf);
  values.push(snap.values);
  for (const [i, days] of [3, 2].entries()) {
    const before = snap;
    await feedMarket({ dataDir: market, to: join(root, `day-${i}`), days, quiet: true });
    await runImport({ dataDir: market, from: join(root, `day-${i}`), mode: "merge", quiet: true, embed: false });
    snap = read(join(market, "market.db"));
    asOf.push(snap.asOf);
    values.push(snap.values);
    // the index moves a merge should report: charts it wrote again, 3 % or more from the month before
    const expected = new Set<string>();
    for (const [artist, chart] of snap.charts) {
      const old = before.charts.get(artist);
      if (old && old.start === chart.start && sameBytes(old.points, chart.points)) continue;
      const p = unpackSeries(chart.points);
      const n = p.length;
      if (n < 2 || !(p[n - 2]! > 0 && p[n - 1]! > 0) || Math.abs(p[n - 1]! / p[n - 2]! - 1) < MOVE) continue;
      const month = monthDate(monthIndex(chart.start) + n - 1).slice(0, 7);
      expected.add(eventIdOf("artist.index_moved", "artist", artist, month));
    }
    expectedIndex.push(expected);
    const db = new Database(join(market, "market.db"), { readonly: true });
    indexEvents.push(
      db
        .query<{ id: string; subject_id: number; data: string }, [string]>("SELECT id, subject_id, data FROM market_events WHERE type = 'artist.index_moved' AND day = ?")
        .all(snap.asOf),
    );
    if (i === 1) {
      history = db.query<(typeof history)[number], []>(`SELECT artwork_id, until, ${COLS.join(", ")} FROM estimate_history ORDER BY artwork_id, until`).all();
      since = db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'estimates_since'").get()!.value;
    }
    db.close();
  }
  INDEX_EVENT.move = threshold;
  ctx = await createTestContext({ market });
}, 300_000);

afterAll(() => ctx?.close());

/** A work whose estimate changed in both merges (else in the first), with an estimate throughout. */
function changedWork(): number {
  const changed = (i: number) => [...values[i + 1]!].filter(([id, v]) => values[i]!.has(id) && !same(values[i]!.get(id)!, v) && v.estimate_usd !== null).map(([id]) => id);
  const first = new Set(changed(0).filter((id) => values[0]!.get(id)!.estimate_usd !== null));
  return changed(1).find((id) => first.has(id)) ?? [...first][0]!;
}

describe("estimate history", () => {
  test("each merge keeps exactly the values it replaced, until its as-of day; estimates_since is the first snapshot's", () => {
    expect(asOf[1]! > asOf[0]! && asOf[2]! > asOf[1]!).toBe(true);
    expect(since).toBe(asOf[0]!);
    const expected: typeof history = [];
    for (const i of [0, 1]) {
      for (const [id, now] of values[i + 1]!) {
        const was = values[i]!.get(id);
        if (was && !same(was, now)) expected.push({ artwork_id: id, until: dayNumber(asOf[i + 1]!), ...was });
      }
    }
    expected.sort((a, b) => a.artwork_id - b.artwork_id || a.until - b.until);
    expect(expected.length).toBeGreaterThan(0);
    expect(history).toEqual(expected);
  });

  test("as_of answers with the values in effect that day; before the first snapshot is 422", async () => {
    const id = changedWork();
    const get = async (day: string, extra = "") => {
      const res = await ctx.call(`/v1/artworks/${id}?as_of=${day}${extra}`);
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, number | null | string>;
    };
    const expectValues = (body: Record<string, unknown>, v: Values) =>
      expect([body.current_estimated_price, body.current_estimated_price_min, body.current_estimated_price_max, body.price_change_12mo, body.price_change_24mo]).toEqual([
        v.estimate_usd,
        v.estimate_min_usd,
        v.estimate_max_usd,
        v.price_change_12mo,
        v.price_change_24mo,
      ]);
    expectValues(await get(asOf[0]!), values[0]!.get(id)!);
    expectValues(await get(addDays(asOf[1]!, -1)), values[0]!.get(id)!);
    expectValues(await get(asOf[1]!), values[1]!.get(id)!);
    expectValues(await get(addDays(asOf[2]!, -1)), values[1]!.get(id)!);
    expectValues(await get(asOf[2]!), values[2]!.get(id)!);
    expectValues(await get(addDays(asOf[2]!, 30)), values[2]!.get(id)!);
    // without as_of: the current values, and the same price either way
    const plain = await ctx.call(`/v1/artworks/${id}`);
    expectValues((await plain.json()) as Record<string, unknown>, values[2]!.get(id)!);
    const past = await ctx.call(`/v1/artworks/${id}?as_of=${asOf[0]}`);
    expect(past.headers.get("x-service-dataunits")).toBe(plain.headers.get("x-service-dataunits"));
    // preferred values at the day's rate
    const eur = await get(asOf[0]!, "&preferred_currency=EUR");
    expect(eur.current_estimated_price_preferred).toBe(ctx.deps.fx.fromUsd(values[0]!.get(id)!.estimate_usd, "EUR", asOf[0]!));

    for (const [day, status] of [
      [addDays(asOf[0]!, -1), 422],
      ["2026-02-30", 422],
      ["yesterday", 422],
    ] as const) {
      const res = await ctx.call(`/v1/artworks/${id}?as_of=${day}`);
      expect(res.status).toBe(status);
      const body = (await res.json()) as { detail: { loc: unknown[] }[] };
      expect(body.detail[0]!.loc).toEqual(["query", "as_of"]);
    }
    // the public schema has no estimate: as_of changes nothing there
    const pub = await ctx.call(`/v1/artworks/${id}?as_of=${asOf[0]}`, { key: ctx.keys.sandbox });
    expect(pub.status).toBe(200);
    expect((await pub.json()) as object).not.toHaveProperty("current_estimated_price");
  });

  test("the chart's estimate_history series has a point where each value took effect", async () => {
    const id = changedWork();
    const chart = (await (await ctx.call(`/v1/artworks/${id}/chart`)).json()) as {
      series: { id: string; data: { time: string; value: number; value_low: number; value_high: number }[] }[];
    };
    const served = chart.series.find((s) => s.id === "estimate_history")!;
    const expected: { time: string; value: number; value_low: number; value_high: number }[] = [];
    let last: Values | null = null;
    for (const i of [0, 1, 2]) {
      const v = values[i]!.get(id)!;
      if (last && same(last, v)) continue;
      last = v;
      const r2 = (x: number) => Math.round(x * 100) / 100;
      if (v.estimate_usd !== null) expected.push({ time: asOf[i]!, value: r2(v.estimate_usd), value_low: r2(v.estimate_min_usd!), value_high: r2(v.estimate_max_usd!) });
    }
    expect(expected.length).toBeGreaterThan(1);
    expect(served.data).toEqual(expected);
  });

  test("a collectable's machine estimate as of a day uses the market's estimates of that day", async () => {
    const id = changedWork();
    const work = (await (await ctx.call(`/v1/artworks/${id}`)).json()) as { description: { artist: { id: number }; category_id: number } };
    const created = await ctx.call("/v1/collectables", {
      method: "POST",
      body: { title: "History check", artist_id: work.description.artist.id, category_id: work.description.category_id, edition_unique_type: "unique", suggested_artwork_id: id },
    });
    expect(created.status).toBe(200);
    const cid = ((await created.json()) as { id: number }).id;
    const at = async (q: string) =>
      (await (await ctx.call(`/v1/collectables/${cid}${q}`)).json()) as { machine_estimated_price: number | null; current_estimated_price: number | null };
    expect((await at("")).machine_estimated_price).toBe(values[2]!.get(id)!.estimate_usd);
    const then = await at(`?as_of=${asOf[0]}`);
    expect(then.machine_estimated_price).toBe(values[0]!.get(id)!.estimate_usd);
    expect(then.current_estimated_price).toBe(values[0]!.get(id)!.estimate_usd);
    // the stored valuation is still today's
    expect((await at("")).machine_estimated_price).toBe(values[2]!.get(id)!.estimate_usd);
    const early = await ctx.call(`/v1/collectables/${cid}?as_of=${addDays(asOf[0]!, -1)}`);
    expect(early.status).toBe(422);
    expect(((await early.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(["query", "as_of"]);
  });
});

describe("a merge that derives the whole market (--refit)", () => {
  test("carries the history and adds the values it replaced", async () => {
    const market = join(root, "refit");
    mkdirSync(market);
    for (const f of ["market.db", "truth.db"]) copyFileSync(join(root, "market", f), join(market, f));
    await feedMarket({ dataDir: market, to: join(root, "day-refit"), days: 1, quiet: true });
    await runImport({ dataDir: market, from: join(root, "day-refit"), mode: "merge", refit: true, quiet: true, embed: false });
    const after = read(join(market, "market.db"));
    const db = new Database(join(market, "market.db"), { readonly: true });
    const rows = db.query<(typeof history)[number], []>(`SELECT artwork_id, until, ${COLS.join(", ")} FROM estimate_history ORDER BY artwork_id, until`).all();
    expect(db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'estimates_since'").get()!.value).toBe(asOf[0]!);
    db.close();
    const added: typeof history = [];
    for (const [id, now] of after.values) {
      const was = values[2]!.get(id);
      if (was && !same(was, now)) added.push({ artwork_id: id, until: dayNumber(after.asOf), ...was });
    }
    expect(added.length).toBeGreaterThan(0);
    expect(rows).toEqual([...history, ...added].sort((a, b) => a.artwork_id - b.artwork_id || a.until - b.until));
  }, 120_000);
});

describe("artist.index_moved", () => {
  test("each merge reports the republished charts that moved the threshold or more from the month before, once a month", () => {
    expect(expectedIndex[0]!.size).toBeGreaterThan(0);
    expect(new Set(indexEvents[0]!.map((e) => e.id))).toEqual(expectedIndex[0]!);
    // the second merge: the same month's moves already told are not told again
    expect(new Set(indexEvents[1]!.map((e) => e.id))).toEqual(new Set([...expectedIndex[1]!].filter((id) => !expectedIndex[0]!.has(id))));
    for (const e of indexEvents.flat()) {
      const d = JSON.parse(e.data) as { month: string; index_usd_before: number; index_usd: number; change: number };
      expect(Math.abs(d.change)).toBeGreaterThanOrEqual(MOVE - 1e-4);
      expect(d.change).toBeCloseTo(d.index_usd / d.index_usd_before - 1, 3);
    }
  });
});
