/**
 * The kernel's shared domain facts (src/market/, and Z80 in src/analytics/index-model.ts): their
 * values are the spec's, and the API's OpenAPI document and the import format use them, not copies.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { Z80 } from "../../src/analytics/index-model";
import { RECORDS } from "../../src/pipeline/import/format";
import { containsPattern, likeEscape } from "../../src/db/sql";
import { FIRST_YEAR, monthDate, monthIndex } from "../../src/market/calendar";
import { CURRENCIES, CURRENCY_CODES } from "../../src/market/currencies";
import { TOP_LOT_MIN_ESTIMATE_USD } from "../../src/market/lots";
import { SIZE_BUCKETS, sizeBucket } from "../../src/market/sizes";
import { LOT_STATUSES, SALE_STATUSES } from "../../src/market/statuses";
import { ENDPOINTS } from "../../src/serve/app";
import { mountable } from "../../src/serve/http/endpoint";
import { buildOpenApi } from "../../src/serve/http/openapi";
import { estimateBand } from "../../src/serve/modules/artworks/service";

type Json = Record<string, any>;

/** Every list of allowed values in a JSON Schema tree: `enum` arrays and unions of `const`s. */
function enumsOf(node: unknown, out: string[][] = []): string[][] {
  if (Array.isArray(node)) {
    for (const x of node) enumsOf(x, out);
  } else if (node && typeof node === "object") {
    const o = node as Json;
    if (Array.isArray(o.enum)) out.push(o.enum);
    const union = o.anyOf ?? o.oneOf;
    if (Array.isArray(union) && union.length > 0 && union.every((u: Json) => u && "const" in u)) out.push(union.map((u: Json) => u.const));
    for (const v of Object.values(o)) enumsOf(v, out);
  }
  return out;
}

describe("the values are the spec's", () => {
  test("lot and sale statuses, in the documented order", () => {
    expect([...LOT_STATUSES]).toEqual(["unknown", "upcoming", "withdrawn", "sold", "passed"]);
    expect([...SALE_STATUSES]).toEqual(["closed", "upcoming", "live", "session_off"]);
  });

  test("the 16 currencies, USD first; the reference table's rows in the same order", () => {
    expect([...CURRENCY_CODES]).toEqual(["USD", "GBP", "EUR", "CHF", "JPY", "CNY", "HKD", "SGD", "TWD", "KRW", "INR", "AUD", "CAD", "NZD", "NOK", "RUB"]);
    expect(CURRENCIES.map((c) => c[0])).toEqual([...CURRENCY_CODES]);
    expect(CURRENCIES.find((c) => c[0] === "JPY")).toEqual(["JPY", "Japanese yen", "¥", 0]);
  });

  test("size buckets by the largest of height and width: < 40 cm small, < 100 cm medium, else big; 3D or unmeasured other", () => {
    expect([...SIZE_BUCKETS]).toEqual(["small", "medium", "big", "other"]);
    expect(sizeBucket(39.9, 10, null)).toBe("small");
    expect(sizeBucket(10, 40, null)).toBe("medium");
    expect(sizeBucket(99.9, 50, 0)).toBe("medium");
    expect(sizeBucket(100, 50, null)).toBe("big");
    expect(sizeBucket(30, 30, 5)).toBe("other");
    expect(sizeBucket(null, 30, null)).toBe("other");
  });

  test("a top lot from a high estimate of USD 250,000", () => {
    expect(TOP_LOT_MIN_ESTIMATE_USD).toBe(250_000);
  });
});

describe("the OpenAPI document and the import format use them", () => {
  const doc = buildOpenApi(ENDPOINTS.map(mountable), { version: "test" }) as Json;
  const enums = enumsOf(doc);
  const containing = (value: string) => enums.filter((e) => e.includes(value));

  test("every enum holding a lot status, a sale status, a currency or a size bucket is the kernel's list", () => {
    for (const [probe, list] of [
      ["withdrawn", LOT_STATUSES],
      ["session_off", SALE_STATUSES],
      ["JPY", CURRENCY_CODES],
      ["big", SIZE_BUCKETS],
    ] as const) {
      const found = containing(probe);
      expect(found.length).toBeGreaterThan(0);
      for (const e of found) expect(e).toEqual([...list]);
    }
  });

  test("the lot and sale filters and the lot, sale and artwork schemas", () => {
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: Json) => p.name === name).schema;
    expect(param("/v1/lots", "status").enum).toEqual([...LOT_STATUSES]);
    expect(param("/v1/lots", "sale_status").enum).toEqual([...SALE_STATUSES]);
    expect(param("/v1/sales", "status").enum).toEqual([...SALE_STATUSES]);
    expect(param("/v1/artworks", "last_lot_status").enum).toEqual([...LOT_STATUSES]);
    expect(param("/v1/lots", "preferred_currency").enum).toEqual([...CURRENCY_CODES]);
    const consts = (schema: Json) => schema.anyOf.map((u: Json) => u.const);
    expect(consts(doc.components.schemas.LotSchema.properties.status)).toEqual([...LOT_STATUSES]);
    expect(consts(doc.components.schemas.SaleSchema.properties.status)).toEqual([...SALE_STATUSES]);
    expect(doc.components.schemas.LotSchema.properties.is_top.description).toContain(`$${TOP_LOT_MIN_ESTIMATE_USD / 1000}k`);
  });

  test("the import format's status and currency fields", () => {
    const values = (record: string, field: string) => (RECORDS as Json)[record].fields.find((f: Json) => f.name === field).values;
    expect(values("sales", "status")).toEqual(SALE_STATUSES);
    expect(values("lots", "status")).toEqual(LOT_STATUSES);
    expect(values("lots", "currency")).toEqual(CURRENCY_CODES);
  });
});

describe("the month calendar", () => {
  test("month 0 is 1986-01; monthIndex and monthDate round-trip", () => {
    expect(FIRST_YEAR).toBe(1986);
    expect(monthDate(0)).toBe("1986-01-01");
    expect(monthIndex("1986-01-20")).toBe(0);
    expect(monthIndex("1986-12")).toBe(11);
    expect(monthIndex("2026-10-01")).toBe(40 * 12 + 9);
    expect(monthDate(40 * 12 + 9)).toBe("2026-10-01");
    for (let m = -30; m <= 1200; m++) {
      const d = monthDate(m);
      expect(d).toMatch(/^\d{4}-(0[1-9]|1[0-2])-01$/);
      expect(monthIndex(d)).toBe(m);
    }
    expect(monthDate(-1)).toBe("1985-12-01");
  });

  test("monthDate: the same text from its kept months (1986–2185), before and after them, called once or again", () => {
    const made = (m: number) => {
      const k = FIRST_YEAR * 12 + m;
      const y = Math.floor(k / 12);
      return `${String(y).padStart(4, "0")}-${String(k - y * 12 + 1).padStart(2, "0")}-01`;
    };
    for (const m of [-24_000, -1, 0, 1, 490, 2399, 2400, 3000, 96_000]) for (let again = 0; again < 2; again++) expect(monthDate(m)).toBe(made(m));
    expect([monthDate(2399), monthDate(2400), monthDate(-12 * 1986)]).toEqual(["2185-12-01", "2186-01-01", "0000-01-01"]);
  });

  test("monthIndex reads digits as the plain parse does, and anything else as before", () => {
    const plain = (date: string) => (Number(date.slice(0, 4)) - FIRST_YEAR) * 12 + Number(date.slice(5, 7)) - 1;
    const cases = ["0001-01-01", "1899-09-30", "2019-12-31T23:59:59Z", "9999-12", "2026-1-05", " 2026-10", "2026", "", "abcd-ef", "2026-1a", "20-26-10"];
    for (const d of cases) expect(Object.is(monthIndex(d), plain(d))).toBe(true);
  });
});

describe("LIKE patterns", () => {
  test("likeEscape escapes \\, % and _; containsPattern is a plain substring match under ESCAPE '\\'", () => {
    expect(likeEscape("a%b_c\\d")).toBe("a\\%b\\_c\\\\d");
    expect(containsPattern("x_y")).toBe("%x\\_y%");
    const db = new Database(":memory:");
    const like = (text: string, needle: string) => db.query<{ m: number }, [string, string]>("SELECT ?1 LIKE ?2 ESCAPE '\\' AS m").get(text, containsPattern(needle))!.m;
    expect(like("pre a%b_c\\d post", "a%b_c\\d")).toBe(1);
    expect(like("PRE A%B_C\\D POST", "a%b_c\\d")).toBe(1);
    expect(like("axbyc", "x_y")).toBe(0);
    expect(like("axbyc", "a%c")).toBe(0);
    expect(like("anything", "")).toBe(1);
    db.close();
  });
});

describe("Z80", () => {
  test("Φ⁻¹(0.9), and the artwork chart reads the stored 80 % band back with it", () => {
    // Φ(Z80) = 0.9: the standard normal's upper tail by the complementary error function's series
    const phi = (x: number) => {
      let sum = x;
      let term = x;
      for (let n = 1; n < 60; n++) {
        term *= (-x * x) / 2 / n;
        sum += term / (2 * n + 1);
      }
      return 0.5 + sum / Math.sqrt(2 * Math.PI);
    };
    expect(phi(Z80)).toBeCloseTo(0.9, 12);
    // a band stored as exp(μ ± Z80·σ₀): the first forward month is exp(μ ± Z80·√(σ₀² + 0.0004))
    const s0 = 0.3;
    const [first] = estimateBand(1000, 1000 * Math.exp(-Z80 * s0), 1000 * Math.exp(Z80 * s0), "2026-01-15");
    expect(first!.value_high).toBeCloseTo(1000 * Math.exp(Z80 * Math.sqrt(s0 * s0 + 0.0004)), 9);
    expect(first!.value_low).toBeCloseTo(1000 * Math.exp(-Z80 * Math.sqrt(s0 * s0 + 0.0004)), 9);
  });
});
