/**
 * The typed endpoint contract (src/serve/http/endpoint.ts): what defineEndpoint infers for a
 * handler. The checks are the type checker's (`npx tsc --noEmit -p .`: each @ts-expect-error must
 * meet an error); the test itself only makes sure the declarations build.
 */
import { expect, test } from "bun:test";
import { Type as t } from "@sinclair/typebox";
import { defineEndpoint, type Endpoint } from "../../src/serve/http/endpoint";
import { T } from "../../src/serve/query/grammar";
import { DU } from "../../src/serve/http/pricing";

const declared: Endpoint[] = [
  defineEndpoint({
    method: "POST",
    path: "/x/{id}/{raw}",
    price: DU.FREE,
    summary: "typed",
    tag: "Test",
    auth: "required",
    pathParams: { id: T.int(1) },
    list: { fields: {}, params: { tags: { type: T.enum(["a", "b"]), many: true }, flag: { type: T.bool(), default: false } } },
    body: t.Object({ n: t.Number() }),
    response: { full: t.Object({ ok: t.Boolean() }) },
    handle: (ctx) => {
      const user: number = ctx.caller.userId; // required: never null
      const id: number = ctx.params.id; // from pathParams
      const raw: string = ctx.params.raw; // in the path only: the raw text
      const tags: ("a" | "b")[] | undefined = ctx.query.params.tags; // many, no default: optional array
      const flag: boolean = ctx.query.params.flag; // with a default: always there
      const n: number = ctx.body.n; // Static of the body schema
      // @ts-expect-error not a declared parameter
      void ctx.query.params.other;
      void [user, id, raw, tags, flag, n];
      return { ok: true };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/y",
    price: DU.FREE,
    summary: "loose",
    tag: "Test",
    auth: "optional",
    response: { full: t.Object({ ok: t.Boolean() }), public: t.Object({ n: t.Integer() }) },
    handle: (ctx) => {
      // @ts-expect-error optional auth: the caller may be null
      void ctx.caller.userId;
      // @ts-expect-error no body declared
      void ctx.body.n;
      return ctx.schema === "full" ? { ok: true } : { n: 1 };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/z",
    summary: "wrong reply",
    tag: "Test",
    auth: "public",
    response: { full: t.Object({ ok: t.Boolean() }) },
    // @ts-expect-error the reply must be Static of the response schema
    handle: () => ({ ok: 1 }),
  }),
  defineEndpoint({
    method: "DELETE",
    path: "/w",
    summary: "204",
    tag: "Test",
    auth: "required",
    status: 204,
    // @ts-expect-error an endpoint without a response schema returns nothing
    handle: () => ({ ok: true }),
  }),
];

test("typed declarations stay usable as the erased registry type", () => {
  expect(declared.map((e) => e.path)).toEqual(["/x/{id}/{raw}", "/y", "/z", "/w"]);
});
