/** The one error mapper: body validation, the framework's own validation, and no 500 for any input. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type as t } from "@sinclair/typebox";
import { Elysia, t as et } from "elysia";
import { createApp, ENDPOINTS, errorResponse } from "../../src/serve/app";
import { defineEndpoint } from "../../src/serve/http/endpoint";
import { createTestContext, type TestContext } from "../helpers/app";
import { DU } from "../../src/serve/http/pricing";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const probeBody = defineEndpoint({
  method: "POST",
  path: "/v1/artworks/share",
  price: DU.FREE,
  operationId: "probeBody",
  summary: "probe body",
  tag: "Test",
  auth: "required",
  body: t.Object({ ids: t.Array(t.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }), title: t.Optional(t.String({ maxLength: 20 })) }),
  response: { full: t.Object({}) },
  handle: ({ body }) => ({ received: body }),
});

describe("JSON bodies", () => {
  const post = (body: string, key: string) =>
    createApp(ctx.deps, [probeBody]).handle(
      new Request("http://artmarket.test/v1/artworks/share", {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body,
      }),
    );

  test("a valid body reaches the handler", async () => {
    const res = await post(JSON.stringify({ ids: [1, 2], title: "mine" }), ctx.keys.pro);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: { ids: [1, 2], title: "mine" } });
  });

  test("malformed JSON is 422 json_invalid at loc body", async () => {
    const res = await post("{ids: [1,", ctx.keys.pro);
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: unknown[]; type: string }[] };
    expect(detail[0]).toMatchObject({ loc: ["body"], type: "json_invalid" });
  });

  test("a missing field, a wrong item type and a bound are each located", async () => {
    const missing = (await (await post("{}", ctx.keys.pro)).json()) as { detail: { loc: unknown[]; type: string }[] };
    expect(missing.detail[0]).toMatchObject({ loc: ["body", "ids"], type: "missing" });
    const wrong = (await (await post(JSON.stringify({ ids: [1, "x"] }), ctx.keys.pro)).json()) as { detail: any[] };
    expect(wrong.detail[0]).toMatchObject({ loc: ["body", "ids", 1], type: "int_parsing", input: "x" });
    const low = (await (await post(JSON.stringify({ ids: [0] }), ctx.keys.pro)).json()) as { detail: any[] };
    expect(low.detail[0]).toMatchObject({ loc: ["body", "ids", 0], type: "greater_than_equal", ctx: { ge: 1 }, input: 0 });
    const long = (await (await post(JSON.stringify({ ids: [1], title: "x".repeat(21) }), ctx.keys.pro)).json()) as { detail: any[] };
    expect(long.detail[0]).toMatchObject({ loc: ["body", "title"], type: "string_too_long", ctx: { max_length: 20 } });
  });
});

describe("the framework's own validation errors", () => {
  test("are mapped to the spec's 422 detail array", async () => {
    const app = new Elysia()
      .onError(({ code, error, request }) => errorResponse(code, error, request))
      .get("/x", () => "ok", { query: et.Object({ limit: et.Numeric({ maximum: 100 }) }) });
    const res = await app.handle(new Request("http://artmarket.test/x?limit=1000"));
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: any[] };
    expect(detail[0]).toMatchObject({ loc: ["query", "limit"], type: "less_than_equal", ctx: { le: 100 }, input: "1000" });
    const missing = await app.handle(new Request("http://artmarket.test/x"));
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: any[] }).detail[0]).toMatchObject({ loc: ["query", "limit"], type: "missing" });
  });
});

describe("no input yields a 500", () => {
  const nasty = [
    "",
    "?",
    "?limit=",
    "?limit=-0",
    "?limit=1e3",
    "?limit=99999999999999999999",
    "?offset=NaN",
    "?name=%00",
    "?name=" + "x".repeat(5000),
    "?from=0000-00-00",
    "?from=2026-01-01T00:00:00Z",
    "?group_by=",
    "?to=9999-99-99",
    "?name=%E0%A4%A",
    "?name[]=a",
    "?__proto__=1",
    "?constructor=x",
    "?limit=1&limit=2&limit=abc",
    "/extra/segments",
    "/%ZZ",
    "?name=%27%20OR%201%3D1--",
  ];
  const keys = () => [null, ctx.keys.sandbox, ctx.keys.pro, "am_bad", ""] as (string | null)[];
  for (const e of ENDPOINTS) {
    test(`${e.method} ${e.path}`, async () => {
      const path = e.path.replace(/\{\w+\}/g, "1");
      for (const suffix of nasty) {
        for (const key of keys()) {
          for (const method of [e.method, "POST", "DELETE"]) {
            const res = await ctx.app.handle(
              new Request(`http://artmarket.test${path}${suffix}`, {
                method,
                headers: key === null ? {} : { Authorization: `Bearer ${key}` },
                body: method === "GET" ? undefined : "{not json",
              }),
            );
            if (res.status >= 500) throw new Error(`${method} ${path}${suffix} with ${key?.slice(0, 8)} gave ${res.status}`);
            expect(res.headers.get("Content-Type") ?? "application/json").toContain("application/json");
          }
        }
      }
    });
  }
});
