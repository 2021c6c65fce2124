/**
 * Unknown query parameters (issue 32, item 15): 422 `extra_forbidden` at ["query", name], the
 * nearest known name suggested, costing nothing, on every endpoint of the pipeline.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ENDPOINTS } from "../../src/serve/app";
import { parameterNames } from "../../src/serve/query/grammar";
import { editDistance, nearestName } from "../../src/serve/query/unknown";
import { createTestContext, type TestContext } from "../helpers/app";

interface Issue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input: unknown;
  ctx: Record<string, unknown>;
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const ledgerRows = () => (ctx.deps.account.query("SELECT count(*) AS n FROM du_ledger").get() as { n: number }).n;
const remaining = async () => Number((await ctx.call("/v1/usage", { key: ctx.keys.pro })).headers.get("X-Service-DataUnits-Remaining"));

/** Calls `path` with the pro key and checks that it is a 422 that charged nothing; returns its issues. */
async function refused(path: string, method = "GET"): Promise<Issue[]> {
  const rowsBefore = ledgerRows();
  const before = await remaining();
  const res = await ctx.call(path, { key: ctx.keys.pro, method });
  expect(res.status).toBe(422);
  expect(res.headers.get("X-Service-DataUnits")).toBeNull();
  expect(await remaining()).toBe(before);
  // the two /v1/usage calls write their own (0 DU) rows; the refused call writes none
  expect(ledgerRows()).toBe(rowsBefore + 2);
  return method === "HEAD" ? [] : ((await res.json()) as { detail: Issue[] }).detail;
}

describe("an unknown query parameter is 422 extra_forbidden and costs nothing", () => {
  test("a typo on a list (limt) suggests limit", async () => {
    const detail = await refused("/v1/artists?limt=1");
    expect(detail).toEqual([
      {
        loc: ["query", "limt"],
        msg: "Extra inputs are not permitted: unknown query parameter 'limt'; did you mean 'limit'?",
        type: "extra_forbidden",
        input: "1",
        ctx: { suggestion: "limit" },
      },
    ]);
  });

  test("sort_by on lots suggests sort, rather than answering in the default order", async () => {
    const detail = await refused("/v1/lots?sort_by=SALE_DATE_DESC");
    expect(detail).toEqual([
      {
        loc: ["query", "sort_by"],
        msg: "Extra inputs are not permitted: unknown query parameter 'sort_by'; did you mean 'sort'?",
        type: "extra_forbidden",
        input: "SALE_DATE_DESC",
        ctx: { suggestion: "sort" },
      },
    ]);
  });

  test("a detail route: a near name is suggested, an endpoint without parameters says so", async () => {
    const artwork = (await ctx.call("/v1/artworks?limit=1", { key: ctx.keys.pro }).then((r) => r.json())) as { items?: { id: number }[]; artworks?: { id: number }[] };
    const id = (artwork.items ?? artwork.artworks)![0]!.id;
    const near = await refused(`/v1/artworks/${id}?preferred_curency=EUR`);
    expect(near).toEqual([
      {
        loc: ["query", "preferred_curency"],
        msg: "Extra inputs are not permitted: unknown query parameter 'preferred_curency'; did you mean 'preferred_currency'?",
        type: "extra_forbidden",
        input: "EUR",
        ctx: { suggestion: "preferred_currency" },
      },
    ]);
    const none = await refused("/v1/artists/1?fields=name");
    expect(none).toEqual([
      {
        loc: ["query", "fields"],
        msg: "Extra inputs are not permitted: unknown query parameter 'fields'; this endpoint takes no query parameters",
        type: "extra_forbidden",
        input: "name",
        ctx: {},
      },
    ]);
  });

  test("a chart route (resoluton) suggests resolution", async () => {
    const detail = await refused("/v1/artists/1/chart?resoluton=yearly");
    expect(detail).toHaveLength(1);
    expect(detail[0]).toMatchObject({ loc: ["query", "resoluton"], type: "extra_forbidden", input: "yearly", ctx: { suggestion: "resolution" } });
    expect(detail[0]!.msg).toEndWith("did you mean 'resolution'?");
  });

  test("several unknown parameters give one entry each, in the order sent, before the grammar's own issues", async () => {
    const detail = await refused("/v1/artists?limit=0&zzz_nothing_near=1&Offset=2&zzz_nothing_near=3");
    expect(detail.map((d) => [d.loc, d.type, d.input])).toEqual([
      [["query", "zzz_nothing_near"], "extra_forbidden", ["1", "3"]],
      [["query", "Offset"], "extra_forbidden", "2"],
      [["query", "limit"], "greater_than_equal", "0"],
    ]);
    expect(detail[0]!.msg).toBe("Extra inputs are not permitted: unknown query parameter 'zzz_nothing_near'; not a parameter of this endpoint");
    expect(detail[0]!.ctx).toEqual({});
    expect(detail[1]!.ctx).toEqual({ suggestion: "offset" });
  });

  test("HEAD agrees: a typo is a 422 too, and the quote of a correct HEAD is the GET's cost", async () => {
    await refused("/v1/artists?limt=1", "HEAD");
    const head = await ctx.call("/v1/artists?limit=1", { key: ctx.keys.pro, method: "HEAD" });
    expect(head.status).toBe(200);
    const get = await ctx.call("/v1/artists?limit=1", { key: ctx.keys.pro });
    expect(get.status).toBe(200);
    expect(head.headers.get("X-Service-DataUnits-Quote")).toBe(get.headers.get("X-Service-DataUnits"));
  });

  test("a public route refuses it too, without a key", async () => {
    const res = await ctx.call("/healthcheck?verbose=1", { key: null });
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: Issue[] };
    expect(detail).toEqual([expect.objectContaining({ loc: ["query", "verbose"], type: "extra_forbidden", input: "1" })]);
  });

  test("every declared parameter of every endpoint is known: none is refused as extra", async () => {
    for (const e of ENDPOINTS) {
      if (e.method !== "GET") continue;
      const names = e.list ? parameterNames(e.list) : [];
      const path = e.path.replace(/\{\w+\}/g, "1");
      const query = new URLSearchParams(names.map((n): [string, string] => [n, "\u0000"]));
      const res = await ctx.call(`${path}?${query}`, { key: ctx.keys.enterprise });
      if (res.status !== 422) continue; // answered (or refused before validation): nothing was extra
      const { detail } = (await res.json()) as { detail: Issue[] };
      expect(detail.filter((d) => d.type === "extra_forbidden").map((d) => `${e.path} ${d.loc[1]}`)).toEqual([]);
    }
  });
});

describe("the suggestion", () => {
  test("edit distance counts an adjacent transposition as one edit", () => {
    expect(editDistance("limt", "limit", 2)).toBe(1);
    expect(editDistance("lmiit", "limit", 2)).toBe(1);
    expect(editDistance("ofset", "offset", 2)).toBe(1);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
    expect(editDistance("x".repeat(5000), "limit", 2)).toBe(3);
  });

  test("nearest by distance, then by a known prefix; nothing when far", () => {
    const known = ["limit", "offset", "sort", "q", "name__ilike", "preferred_currency", "price__gte", "price__lte"];
    expect(nearestName("limt", known)).toBe("limit");
    expect(nearestName("LIMIT", known)).toBe("limit");
    expect(nearestName("price_gte", known)).toBe("price__gte");
    expect(nearestName("sort_by", known)).toBe("sort");
    expect(nearestName("pref", known)).toBe("preferred_currency");
    expect(nearestName("qq", known)).toBe("q");
    expect(nearestName("x", known)).toBeNull();
    expect(nearestName("colour", known)).toBeNull();
    expect(nearestName("price", known)).toBeNull(); // two names extend it: neither is suggested
  });
});
