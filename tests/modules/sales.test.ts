/**
 * Sales on the tiny market: every filter against a direct SQL query, every sort against a sort in
 * JS, total and paging, the aggregates against sums over the sale's lots, *_preferred, public vs
 * full schema per caller, DU, followed, 422s and 404s, and the query plans.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { SALE_LIST } from "../../src/serve/modules/sales/fields";
import { saleListSql } from "../../src/serve/modules/sales/service";
import { parseList } from "../../src/serve/query/grammar";
import { createTestContext, type TestContext } from "../helpers/app";

let ctx: TestContext;
let db: Database;

interface Raw {
  id: number;
  start_datetime: string;
  end_datetime: string;
  status: string;
}
let all: Raw[];

beforeAll(async () => {
  ctx = await createTestContext();
  db = ctx.deps.market;
  all = db.query("SELECT id, start_datetime, end_datetime, status FROM sales").all() as Raw[];
});
afterAll(() => ctx.close());

async function get(path: string, key?: string | null) {
  const res = await ctx.call(path, { key });
  return { status: res.status, body: (await res.json()) as any, du: res.headers.get("X-Service-DataUnits"), res };
}
const ids = (body: { sales: { id: number }[] }) => body.sales.map((s) => s.id);
const one = <T>(sql: string, ...params: (string | number)[]) => db.query(sql).get(...params) as T;
const column = (sql: string, ...params: (string | number)[]) => (db.query(sql).all(...params) as { id: number }[]).map((r) => r.id);

describe("filters", () => {
  const cases = (): [string, string, (string | number)[]][] => {
    const [h1, h2] = column("SELECT house_id AS id FROM sales GROUP BY house_id ORDER BY count(*) DESC LIMIT 2");
    const [l1, l2] = db.query("SELECT location_id AS id, location FROM sales GROUP BY location_id ORDER BY count(*) DESC LIMIT 2 OFFSET 1").all() as {
      id: number;
      location: string;
    }[];
    const at = one<{ start_datetime: string; end_datetime: string }>("SELECT start_datetime, end_datetime FROM sales ORDER BY id LIMIT 1 OFFSET 60");
    return [
      [`auction_house_id=${h1}`, "house_id = ?", [h1!]],
      [`auction_house_id__in=${h1},${h2}`, "house_id IN (?, ?)", [h1!, h2!]],
      ["name__ilike=day%20SALE", "name LIKE '%day sale%'", []],
      ["name__ilike=online", "name LIKE '%online%'", []],
      ["name__ilike=%25", "name LIKE '%\\%%' ESCAPE '\\'", []],
      ["status=closed", "status = 'closed'", []],
      ["status__in=upcoming,live,session_off", "status IN ('upcoming', 'live', 'session_off')", []],
      ["is_online=true", "is_online = 1", []],
      ["is_online=false", "is_online = 0", []],
      ["is_bids_streaming=1", "is_bids_streaming = 1", []],
      [`location=${encodeURIComponent(l1!.location)}`, "location = ?", [l1!.location]],
      [`location__in=${encodeURIComponent(l1!.location)},${encodeURIComponent(l2!.location)}`, "location IN (?, ?)", [l1!.location, l2!.location]],
      [`location_id=${l1!.id}`, "location_id = ?", [l1!.id]],
      [`location_id__in=${l1!.id},${l2!.id}`, "location_id IN (?, ?)", [l1!.id, l2!.id]],
      [`start_datetime__gte=${at.start_datetime}`, "start_datetime >= ?", [at.start_datetime]],
      [`start_datetime__lte=${at.start_datetime}`, "start_datetime <= ?", [at.start_datetime]],
      [`start_datetime__gte=${at.start_datetime}&start_datetime__lte=${at.start_datetime}`, "start_datetime = ?", [at.start_datetime]],
      [`end_datetime__gte=${at.end_datetime}&end_datetime__lte=2020-01-01`, "end_datetime >= ? AND end_datetime <= '2020-01-01T00:00:00Z'", [at.end_datetime]],
      ["start_datetime__gte=2010-01-01&is_online=true&status=closed", "start_datetime >= '2010-01-01' AND is_online = 1 AND status = 'closed'", []],
      ["location=Atlantis", "0", []],
    ];
  };

  test("every filter returns exactly the sales its SQL condition selects, latest first, with their total", async () => {
    let nonEmpty = 0;
    for (const [query, cond, params] of cases()) {
      const expected = column(`SELECT id FROM sales WHERE ${cond} ORDER BY start_datetime DESC, id DESC`, ...params);
      const { status, body } = await get(`/v1/sales?${query}&limit=100`);
      expect({ query, status }).toEqual({ query, status: 200 });
      expect({ query, ids: ids(body) }).toEqual({ query, ids: expected.slice(0, 100) });
      expect({ query, total: body.total }).toEqual({ query, total: expected.length });
      if (expected.length) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(15);
  });
});

describe("sorts and paging", () => {
  const KEYS: Record<string, (s: Raw) => string | number> = {
    ID: (s) => s.id,
    START_DATETIME: (s) => s.start_datetime,
    END_DATETIME: (s) => s.end_datetime,
    DATE: (s) => s.start_datetime,
  };
  for (const [name, key] of Object.entries(KEYS)) {
    for (const dir of ["ASC", "DESC"] as const) {
      test(`${name}_${dir}: pages in order with the id tiebreak, no overlap, total`, async () => {
        const d = dir === "ASC" ? 1 : -1;
        const expected = [...all]
          .sort((a, b) => {
            const x = key(a);
            const y = key(b);
            return x === y ? (a.id - b.id) * d : (x < y ? -1 : 1) * d;
          })
          .map((s) => s.id);
        const seen: number[] = [];
        for (let offset = 0; offset < all.length; offset += 70) {
          const { body } = await get(`/v1/sales?sort=${name}_${dir}&limit=70&offset=${offset}`);
          expect(body).toMatchObject({ total: all.length, limit: 70, offset });
          seen.push(...ids(body));
        }
        expect(seen).toEqual(expected);
      });
    }
  }
  test("the default sort is START_DATETIME_DESC; the default limit 20", async () => {
    const a = await get("/v1/sales");
    const b = await get("/v1/sales?sort=START_DATETIME_DESC&limit=20");
    expect(a.body).toEqual(b.body);
    expect(a.body.sales.length).toBe(20);
  });
});

describe("aggregates", () => {
  test("a closed sale's aggregates equal sums over its lots", async () => {
    const { body } = await get("/v1/sales?status=closed&limit=100&sort=ID_ASC");
    let checked = 0;
    for (const s of body.sales) {
      const a = one<any>(
        `SELECT count(*) AS lots_count,
           count(*) FILTER (WHERE status = 'passed') AS not_sold,
           count(*) FILTER (WHERE status = 'sold' AND hammer > estimate_max) AS above,
           count(*) FILTER (WHERE status = 'sold' AND hammer >= estimate_min AND hammer <= estimate_max) AS within,
           count(*) FILTER (WHERE status = 'sold' AND hammer < estimate_min) AS below,
           total(hammer) FILTER (WHERE status = 'sold') AS hammer, total(premium) FILTER (WHERE status = 'sold') AS premium,
           total(hammer_usd_cents) FILTER (WHERE status = 'sold') / 100 AS hammer_usd, total(premium_usd_cents) FILTER (WHERE status = 'sold') / 100 AS premium_usd,
           total(estimate_min) FILTER (WHERE status != 'withdrawn') AS low, total(estimate_max) FILTER (WHERE status != 'withdrawn') AS high
         FROM lots WHERE sale_id = ?`,
        s.id,
      );
      expect(s).toMatchObject({
        lots_count: a.lots_count,
        lots_count_not_sold: a.not_sold,
        lots_count_sold_above_estimations: a.above,
        lots_count_sold_within_estimations: a.within,
        lots_count_sold_below_estimations: a.below,
      });
      expect(s.hammer_total).toBeCloseTo(a.hammer, 2);
      expect(s.cumulative_total).toBeCloseTo(a.premium, 2);
      expect(s.premium_sold_total).toBeCloseTo(a.premium - a.hammer, 2);
      expect(s.hammer_total_usd_zeroied).toBeCloseTo(a.hammer_usd, 2);
      expect(s.cumulative_total_usd_zeroied).toBeCloseTo(a.premium_usd, 2);
      expect(s.premium_sold_total_usd_zeroied).toBeCloseTo(a.premium_usd - a.hammer_usd, 2);
      expect(s.hammer_low_estimate).toBeCloseTo(a.low, 2);
      expect(s.hammer_high_estimate).toBeCloseTo(a.high, 2);
      expect(s.currency).toBe(one<{ currency: string }>("SELECT currency FROM sales WHERE id = ?", s.id).currency);
      if (a.lots_count > 0) checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  test("money totals are whole cents (no float noise from summing the lots' USD amounts)", async () => {
    const fields = ["hammer_total", "premium_sold_total", "cumulative_total", "hammer_total_usd_zeroied", "premium_sold_total_usd_zeroied", "cumulative_total_usd_zeroied"];
    const noisy: string[] = [];
    let seen = 0;
    for (const offset of [0, 100]) {
      const { body } = await get(`/v1/sales?status=closed&limit=100&offset=${offset}&sort=ID_ASC`);
      for (const s of body.sales) {
        for (const f of fields) {
          seen++;
          if (Math.round(s[f] * 100) / 100 !== s[f]) noisy.push(`${s.id}.${f}=${s[f]}`);
        }
      }
    }
    expect(seen).toBeGreaterThan(600);
    expect(noisy).toEqual([]);
  });

  test("a sale not yet closed: outcome counts and totals null, the zeroied totals 0", async () => {
    const { body } = await get("/v1/sales?status__in=upcoming,live,session_off&limit=100&preferred_currency=EUR");
    expect(body.sales.length).toBeGreaterThan(0);
    for (const s of body.sales) {
      expect(s).toMatchObject({
        lots_count_not_sold: null,
        lots_count_sold_above_estimations: null,
        hammer_total: null,
        premium_sold_total: null,
        cumulative_total: null,
        hammer_total_usd_zeroied: 0,
        premium_sold_total_usd_zeroied: 0,
        cumulative_total_usd_zeroied: 0,
        hammer_total_preferred: null,
      });
      expect(s.lots_count).toBe(one<{ n: number }>("SELECT count(*) AS n FROM lots WHERE sale_id = ?", s.id).n);
    }
  });

  test("*_preferred = the USD total / the rate of the sale's day", async () => {
    for (const code of ["GBP", "JPY", "USD"]) {
      const { body } = await get(`/v1/sales?status=closed&preferred_currency=${code}&limit=40`);
      for (const s of body.sales) {
        const rate = code === "USD" ? 1 : one<{ r: number }>("SELECT usd_per_unit AS r FROM fx_rates WHERE code = ? AND day = ?", code, s.start_datetime.slice(0, 10)).r;
        expect(s.preferred_currency).toBe(code);
        expect(s.hammer_total_preferred).toBeCloseTo(s.hammer_total_usd_zeroied / rate, 2);
        expect(s.premium_sold_total_preferred).toBeCloseTo(s.premium_sold_total_usd_zeroied / rate, 2);
        expect(s.cumulative_total_preferred).toBeCloseTo(s.cumulative_total_usd_zeroied / rate, 2);
      }
    }
    const plain = await get("/v1/sales?limit=3");
    for (const s of plain.body.sales) expect("hammer_total_preferred" in s).toBe(false);
  });
});

describe("schemas by caller, DU", () => {
  const MONEY = [
    "hammer_total",
    "premium_sold_total",
    "cumulative_total",
    "hammer_total_usd_zeroied",
    "premium_sold_total_usd_zeroied",
    "cumulative_total_usd_zeroied",
    "hammer_low_estimate",
    "hammer_high_estimate",
    "is_followed",
  ];
  const ALWAYS = [
    "id",
    "name",
    "status",
    "is_online",
    "is_bids_streaming",
    "location",
    "location_id",
    "start_datetime",
    "end_datetime",
    "auction_house",
    "currency",
    "lots_count",
    "lots_count_not_sold",
    "lots_count_sold_above_estimations",
    "lots_count_sold_within_estimations",
    "lots_count_sold_below_estimations",
  ];
  const scenarios: [string, () => string | null, "full" | "public", boolean][] = [
    ["anonymous", () => null, "public", false],
    ["sandbox", () => ctx.keys.sandbox, "public", true],
    ["pro", () => ctx.keys.pro, "full", true],
    ["enterprise", () => ctx.keys.enterprise, "full", true],
  ];
  for (const [who, key, schema, metered] of scenarios) {
    test(`${who}: ${schema} schema, ${metered ? "DU headers" : "no DU headers"}`, async () => {
      const { status, body, res } = await get("/v1/sales?limit=6&status=closed&preferred_currency=CHF", key());
      expect(status).toBe(200);
      expect(body.sales.length).toBe(6);
      expect(typeof body.total).toBe("number");
      for (const s of body.sales) {
        for (const f of ALWAYS) expect(s).toHaveProperty(f);
        for (const f of [...MONEY, "hammer_total_preferred"]) expect(f in s).toBe(schema === "full");
        expect(Object.keys(s.auction_house).sort()).toEqual(["id", "name"]);
      }
      for (const h of ["X-Service-DataUnits", "X-Service-DataUnits-Remaining", "X-Service-DataUnits-Period-End"]) {
        expect(res.headers.has(h)).toBe(metered);
      }
      if (metered) expect(res.headers.get("X-Service-DataUnits")).toBe("8");
      const detail = await get(`/v1/sales/${body.sales[0].id}?preferred_currency=CHF`, key());
      if (key() === null) expect(detail.status).toBe(401);
      else {
        expect(detail.status).toBe(200);
        expect(detail.du).toBe("1");
        expect(detail.body).toEqual(body.sales[0]);
      }
    });
  }

  test("DU: 2 + 1 per sale returned, also for an empty page", async () => {
    for (const [q, n] of [
      ["limit=17", 17],
      ["location=Atlantis", 0],
    ] as const) {
      const { du, body } = await get(`/v1/sales?${q}`);
      expect(body.sales.length).toBe(n);
      expect(du).toBe(String(2 + n));
    }
  });
});

describe("followed", () => {
  test("exactly the caller's followed sales, with the grammar; DU 2 + 1 per sale; is_followed", async () => {
    const picked = [all[3]!, all[40]!, all[120]!];
    for (const s of picked) expect((await ctx.call(`/v1/sales/${s.id}/follow`, { method: "POST", key: ctx.keys.pro })).status).toBe(204);
    const { body, du } = await get("/v1/sales/followed?sort=ID_ASC", ctx.keys.pro);
    expect(ids(body)).toEqual(picked.map((s) => s.id).sort((a, b) => a - b));
    expect(body.total).toBe(3);
    expect(du).toBe("5");
    for (const s of body.sales) expect(s.is_followed).toBe(true);
    const page = await get("/v1/sales/followed?sort=ID_DESC&limit=1&offset=1", ctx.keys.pro);
    expect(ids(page.body)).toEqual([picked.map((s) => s.id).sort((a, b) => a - b)[1]!]);
    expect(page.body.total).toBe(3);
    const list = await get(`/v1/sales?sort=ID_ASC&limit=100`, ctx.keys.pro);
    for (const s of list.body.sales) expect(s.is_followed).toBe(picked.some((p) => p.id === s.id));
    expect((await get("/v1/sales/followed")).body).toMatchObject({ sales: [], total: 0 });
    expect((await get("/v1/sales/followed", null)).status).toBe(401);
  });
});

describe("errors", () => {
  test("422: the detail array with loc, msg, type, input, ctx", async () => {
    const cases: [string, (string | number)[], string][] = [
      ["status=open", ["query", "status"], "enum"],
      ["status__in=closed,open", ["query", "status__in", 1], "enum"],
      ["auction_house_id=x", ["query", "auction_house_id"], "int_parsing"],
      ["is_online=perhaps", ["query", "is_online"], "bool_parsing"],
      ["start_datetime__gte=2020-13-01", ["query", "start_datetime__gte"], "datetime_parsing"],
      ["sort=NAME_ASC", ["query", "sort"], "enum"],
      ["preferred_currency=BTC", ["query", "preferred_currency"], "enum"],
      ["limit=1000", ["query", "limit"], "less_than_equal"],
      [`name__ilike=${"x".repeat(201)}`, ["query", "name__ilike"], "string_too_long"],
    ];
    for (const [q, loc, type] of cases) {
      const { status, body } = await get(`/v1/sales?${q}`);
      expect({ q, status }).toEqual({ q, status: 422 });
      expect(body.detail[0]).toMatchObject({ loc, type });
      expect(Object.keys(body.detail[0]).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
    }
    expect((await get("/v1/sales/x")).body.detail[0]).toMatchObject({ loc: ["path", "sale_id"], type: "int_parsing" });
  });

  test("404 for a sale the market lacks", async () => {
    const { status, body, du } = await get("/v1/sales/999999999");
    expect(status).toBe(404);
    expect(typeof body.detail).toBe("string");
    expect(du).toBeNull();
  });
});

describe("query plans", () => {
  const plan = (query: string) => {
    const { sql, params } = saleListSql(parseList(SALE_LIST, new URLSearchParams(query)));
    return (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
  };
  test("every indexable filter alone reads an index; every sort unfiltered needs no temp B-tree", () => {
    for (const q of [
      "auction_house_id=3",
      "status=closed",
      "is_online=true",
      "is_bids_streaming=true",
      "location=Paris",
      "location_id=3",
      "start_datetime__gte=2020-01-01",
      "end_datetime__gte=2020-01-01",
    ]) {
      expect({ q, scans: plan(`${q}&limit=20`).filter((d) => d === "SCAN sales") }).toEqual({ q, scans: [] });
    }
    for (const sort of Object.keys(SALE_LIST.sorts!)) {
      const details = plan(`sort=${sort}&limit=20`);
      expect({ sort, temp: details.filter((d) => d.includes("TEMP B-TREE")) }).toEqual({ sort, temp: [] });
    }
  });
});
