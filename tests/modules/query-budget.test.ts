/**
 * Issue 32, item 1: the materials filter resolved once to the media it matches (the same works as
 * its SQL definition, one look-up per row), the request's time budget (503 with Retry-After past
 * it, for callers with and without a key), and a bad key refused before any query runs.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { artworkWhere, ARTWORK_LIST } from "../../src/serve/modules/artworks/fields";
import { matchMedia, mediumWords, resolveMaterials } from "../../src/serve/modules/artworks/materials";
import { listStatements } from "../../src/serve/modules/artworks/service";
import { QUERY_BUDGET } from "../../src/serve/query/budget";
import { parseList } from "../../src/serve/query/grammar";
import { allOnce } from "../../src/serve/query/planner";
import { createTestContext, type TestContext } from "../helpers/app";

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
}, 180_000);

afterAll(() => ctx?.close());

const parsed = (query: string) => parseList(ARTWORK_LIST, new URLSearchParams(query));
const ids = (where: { sql: string; params: unknown[] }) =>
  allOnce<{ id: number }>(ctx.deps.market, { sql: `SELECT a.id FROM artworks a WHERE ${where.sql} ORDER BY a.id`, params: where.params as never[] }).map((r) => r.id);

describe("materials resolved to media", () => {
  const cases = [
    "materials=oil",
    "materials=OIL",
    "materials=canvas",
    "materials=oil%20on%20canvas",
    "materials=silver_gelatin",
    "materials__in=bronze,paper",
    "materials__in=oil,oil,nothing-like-it",
    "materials=on",
    "materials=%25",
    "materials=___",
    "materials=oil&materials__in=canvas,panel",
  ];
  for (const query of cases) {
    test(`${query}: the works of the filter's SQL definition`, () => {
      const q = parsed(query);
      const resolved = resolveMaterials(ctx.deps.market, q);
      expect(resolved.filters.some((f) => f.field === "materials")).toBe(false);
      const expected = ids(artworkWhere(ARTWORK_LIST, q));
      expect(ids(artworkWhere(ARTWORK_LIST, resolved))).toEqual(expected);
      if (query === "materials=oil") expect(expected.length).toBeGreaterThan(0);
    });
  }

  test("matching folds ASCII case only, as SQLite's lower() and LIKE do, and needs whole words", () => {
    expect(mediumWords("Oil, on Canvas")).toBe(" oil  on canvas ");
    expect(matchMedia(["Oil on canvas", "foil", "ÉTAIN on zinc", "étain"], ["OIL", "étain"])).toEqual(["Oil on canvas", "étain"]);
    expect(matchMedia(["oil on canvas"], ["on canvas", "oil canvas"])).toEqual(["oil on canvas"]);
  });

  test("1,000 values: the plan looks each row up in the media list, no LIKE per value", () => {
    const values = Array.from({ length: 1000 }, (_, i) => (i === 0 ? "oil" : `material${i}`));
    const q = resolveMaterials(ctx.deps.market, parsed(`materials__in=${values.join(",")}`));
    const { count } = listStatements(q);
    expect(count.sql).not.toContain("LIKE");
    expect(count.sql).toContain("a.medium IN (SELECT value FROM json_each(?))");
    const media = JSON.parse(count.params[0] as string) as string[];
    expect(media.length).toBeGreaterThan(0);
    for (const m of media) expect(mediumWords(m)).toContain(" oil ");
  });
});

describe("the time budget", () => {
  const costly = `/v1/artworks?materials__in=${Array.from({ length: 1000 }, (_, i) => `material${i}`).join(",")}`;

  test("past it: 503 with Retry-After, with a key and without one", async () => {
    const saved = QUERY_BUDGET.ms;
    QUERY_BUDGET.ms = -1; // every request is past its deadline at its first statement
    try {
      for (const key of [ctx.keys.enterprise, null]) {
        const res = await ctx.call(costly, { key });
        expect(res.status).toBe(503);
        expect(res.headers.get("retry-after")).toBe("1");
        const body = (await res.json()) as { detail: string };
        expect(body.detail).toContain("time budget");
      }
    } finally {
      QUERY_BUDGET.ms = saved;
    }
    // within it, the same request is served
    const res = await ctx.call(costly, { key: null });
    expect(res.status).toBe(200);
  });

  test("a bad key is refused before any query runs (401, not the budget's 503)", async () => {
    const saved = QUERY_BUDGET.ms;
    QUERY_BUDGET.ms = -1;
    try {
      const started = performance.now();
      const res = await ctx.call(costly, { key: "am_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
      expect(res.status).toBe(401);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      QUERY_BUDGET.ms = saved;
    }
  });
});
