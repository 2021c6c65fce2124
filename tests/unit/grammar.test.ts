/** The list grammar over a real SQLite table: rows returned satisfy the filters and follow the sort. */
import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { ValidationFailed } from "../../src/serve/http/errors";
import { orderClause, parameterNames, parseList, scaled, T, whereClause, type ListSpec } from "../../src/serve/query/grammar";

const spec: ListSpec = {
  fields: {
    id: { column: "id", type: T.int(1), suffixes: ["__in"] },
    name: { column: "name", type: T.str(), suffixes: ["", "__ilike"] },
    size: { column: "size", type: T.enum(["small", "medium", "big", "other"]), suffixes: ["__eq", "__in"] },
    year: { column: "year", type: T.int(), suffixes: ["__gte", "__lte"] },
    price: { column: "price", type: T.num(), suffixes: ["__gte", "__lte"] },
    is_top: { column: "is_top", type: T.bool(), suffixes: [""] },
    sold: { column: "sold", type: T.date(), suffixes: ["__gte", "__lte"] },
  },
  sorts: { NAME_ASC: "name ASC", NAME_DESC: "name DESC", YEAR_DESC: "year DESC" },
  defaultSort: "NAME_ASC",
  limit: { default: 20, max: 100 },
};

type Row = { id: number; name: string; size: string; year: number; price: number; is_top: number; sold: string };
let db: Database;
const rows: Row[] = [];

beforeAll(() => {
  db = new Database(":memory:");
  db.run("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, size TEXT, year INT, price REAL, is_top INT, sold TEXT)");
  const sizes = ["small", "medium", "big", "other"];
  const insert = db.query("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (let i = 1; i <= 300; i++) {
    const r: Row = {
      id: i,
      name: `${["Ada", "Bo", "Cy", "50%_off", "Dee"][i % 5]} ${i % 17}`,
      size: sizes[i % 4]!,
      year: 1900 + ((i * 7) % 120),
      price: ((i * 37) % 1000) + 0.5,
      is_top: i % 9 === 0 ? 1 : 0,
      sold: `20${String(10 + (i % 15)).padStart(2, "0")}-0${1 + (i % 9)}-1${i % 10}`,
    };
    rows.push(r);
    insert.run(r.id, r.name, r.size, r.year, r.price, r.is_top, r.sold);
  }
});

function list(qs: string): Row[] {
  const parsed = parseList(spec, new URLSearchParams(qs));
  const where = whereClause(spec, parsed.filters);
  return db.query(`SELECT * FROM t WHERE ${where.sql} ORDER BY ${orderClause(spec, parsed.sort)} LIMIT ? OFFSET ?`).all(...where.params, parsed.limit, parsed.offset) as Row[];
}

function issues(qs: string) {
  try {
    parseList(spec, new URLSearchParams(qs));
  } catch (e) {
    if (e instanceof ValidationFailed) return e.issues;
    throw e;
  }
  return [];
}

describe("filters", () => {
  test("__gte and __lte bound the rows", () => {
    const got = list("year__gte=1950&year__lte=1970&limit=100");
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBe(Math.min(100, rows.filter((r) => r.year >= 1950 && r.year <= 1970).length));
    for (const r of got) expect(r.year >= 1950 && r.year <= 1970).toBe(true);
  });

  test("__in takes repeated parameters and comma-separated values alike", () => {
    const a = list("id__in=3&id__in=5&id__in=8")
      .map((r) => r.id)
      .sort((x, y) => x - y);
    const b = list("id__in=3,5,8")
      .map((r) => r.id)
      .sort((x, y) => x - y);
    const c = list("id__in=3,5&id__in=8")
      .map((r) => r.id)
      .sort((x, y) => x - y);
    expect(a).toEqual([3, 5, 8]);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  test("__eq and __in on an enum", () => {
    for (const r of list("size__eq=big&limit=100")) expect(r.size).toBe("big");
    const got = list("size__in=small,other&limit=100");
    expect(new Set(got.map((r) => r.size))).toEqual(new Set(["small", "other"]));
  });

  test("__ilike is a case-insensitive substring, with % and _ literal", () => {
    const got = list("name__ilike=ADA&limit=100");
    expect(got.length).toBe(rows.filter((r) => r.name.toLowerCase().includes("ada")).length);
    const literal = list("name__ilike=%25_&limit=100");
    expect(literal.length).toBe(rows.filter((r) => r.name.includes("%_")).length);
    expect(list("name__ilike=_&limit=100").every((r) => r.name.includes("_"))).toBe(true);
  });

  test("booleans accept true/false/1/0", () => {
    expect(list("is_top=true&limit=100").every((r) => r.is_top === 1)).toBe(true);
    expect(list("is_top=0&limit=100").every((r) => r.is_top === 0)).toBe(true);
    expect(issues("is_top=maybe")[0]!.type).toBe("bool_parsing");
  });

  test("dates bound as ISO strings; a bad date is 422", () => {
    for (const r of list("sold__gte=2020-01-01&limit=100")) expect(r.sold >= "2020-01-01").toBe(true);
    expect(issues("sold__gte=2020-02-30")[0]).toMatchObject({ loc: ["query", "sold__gte"], type: "date_parsing" });
  });

  test("filters combine with AND", () => {
    const got = list("size__eq=medium&year__gte=1960&price__lte=500.5&limit=100");
    for (const r of got) expect(r.size === "medium" && r.year >= 1960 && r.price <= 500.5).toBe(true);
    expect(got.length).toBe(rows.filter((r) => r.size === "medium" && r.year >= 1960 && r.price <= 500.5).length);
  });

  test("values are bound, never spliced into SQL", () => {
    const evil = "x' OR 1=1 --";
    const parsed = parseList(spec, new URLSearchParams({ name: evil }));
    const where = whereClause(spec, parsed.filters);
    expect(where.sql).toBe("name = ?");
    expect(where.params).toEqual([evil]);
    expect(list(`name=${encodeURIComponent(evil)}`)).toEqual([]);
  });

  test("undeclared parameters never reach SQL", () => {
    const parsed = parseList(spec, new URLSearchParams("price__in=1,2&secret=1&name__gt=z"));
    expect(parsed.filters).toEqual([]);
  });
});

describe("sort and pagination", () => {
  test("each sort orders the rows, with id as the tiebreaker", () => {
    const asc = list("sort=NAME_ASC&limit=100");
    for (let i = 1; i < asc.length; i++) {
      const [a, b] = [asc[i - 1]!, asc[i]!];
      expect(a.name < b.name || (a.name === b.name && a.id < b.id)).toBe(true);
    }
    const desc = list("sort=YEAR_DESC&limit=100");
    for (let i = 1; i < desc.length; i++) {
      const [a, b] = [desc[i - 1]!, desc[i]!];
      expect(a.year > b.year || (a.year === b.year && a.id > b.id)).toBe(true);
    }
  });

  test("pages do not overlap and cover the whole order", () => {
    const whole = list("sort=YEAR_DESC&limit=100&offset=0").concat(list("sort=YEAR_DESC&limit=100&offset=100"));
    const pages: number[] = [];
    for (let offset = 0; offset < 200; offset += 20) pages.push(...list(`sort=YEAR_DESC&limit=20&offset=${offset}`).map((r) => r.id));
    expect(pages).toEqual(whole.map((r) => r.id));
  });

  test("an unknown sort value is a 422 enum error listing the allowed values", () => {
    expect(issues("sort=PRICE_UP")[0]).toEqual({
      loc: ["query", "sort"],
      msg: "Input should be 'NAME_ASC', 'NAME_DESC' or 'YEAR_DESC'",
      type: "enum",
      input: "PRICE_UP",
      ctx: { expected: "'NAME_ASC', 'NAME_DESC' or 'YEAR_DESC'" },
    });
  });

  test("limit defaults and bounds", () => {
    expect(parseList(spec, new URLSearchParams("")).limit).toBe(20);
    expect(issues("limit=101")[0]).toMatchObject({ type: "less_than_equal", ctx: { le: 100 }, input: "101" });
    expect(issues("limit=0")[0]).toMatchObject({ type: "greater_than_equal", ctx: { ge: 1 } });
    expect(issues("offset=1.5")[0]).toMatchObject({ type: "int_parsing", loc: ["query", "offset"] });
  });

  test("the declaration lists every parameter", () => {
    expect(parameterNames(spec)).toEqual([
      "id__in",
      "name",
      "name__ilike",
      "size__eq",
      "size__in",
      "year__gte",
      "year__lte",
      "price__gte",
      "price__lte",
      "is_top",
      "sold__gte",
      "sold__lte",
      "sort",
      "limit",
      "offset",
    ]);
  });
});

describe("scaled columns", () => {
  const spec: ListSpec = {
    fields: {
      price_usd: { column: "price_cents", scale: 100, type: T.int(0), suffixes: ["__gte", "__lte"] },
      momentum: { column: "momentum_ppm", scale: 1e6, type: T.num(-1, 1), suffixes: ["__gte", "__lte"] },
    },
  };

  test("bounds are multiplied by the scale; a product within 1e-6 of a whole number is that number", () => {
    expect(scaled(1000, 100)).toBe(100000);
    expect(scaled(0.05, 1e6)).toBe(50000);
    expect(scaled(-0.07, 1e6)).toBe(-70000);
    expect(scaled(0.0500004, 1e6)).toBeCloseTo(50000.4, 6);
    expect(scaled(0.1 + 0.2, 1)).toBe(0.1 + 0.2);
  });

  test("the filtered rows are those whose stored value, read back in units, meets the bound", () => {
    const db = new Database(":memory:");
    db.run("CREATE TABLE t (id INTEGER PRIMARY KEY, price_cents REAL, momentum_ppm REAL)");
    const values: [number, number][] = [
      [99999, -70000],
      [100000, 49999],
      [100001, 50000],
      [250050, 50001],
    ];
    values.forEach(([c, m], i) => db.run("INSERT INTO t VALUES (?, ?, ?)", [i + 1, c, m]));
    const ids = (qs: string) => {
      const w = whereClause(spec, parseList(spec, new URLSearchParams(qs)).filters);
      return (db.query(`SELECT id FROM t WHERE ${w.sql} ORDER BY id`).all(...w.params) as { id: number }[]).map((r) => r.id);
    };
    const expected = (keep: (usd: number, m: number) => boolean) => values.flatMap(([c, m], i) => (keep(c / 100, m / 1e6) ? [i + 1] : []));
    for (const [qs, keep] of [
      ["price_usd__gte=1000", (usd: number) => usd >= 1000],
      ["price_usd__lte=1000", (usd: number) => usd <= 1000],
      ["momentum__gte=0.05", (_: number, m: number) => m >= 0.05],
      ["momentum__lte=0.05", (_: number, m: number) => m <= 0.05],
      ["momentum__gte=-0.07&momentum__lte=0.0499995", (_: number, m: number) => m >= -0.07 && m <= 0.0499995],
    ] as const) {
      expect({ qs, ids: ids(qs) }).toEqual({ qs, ids: expected(keep) });
    }
    db.close();
  });
});
