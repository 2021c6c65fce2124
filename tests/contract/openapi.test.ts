/**
 * /openapi.json: a valid OpenAPI 3.1.0 document that describes every mounted endpoint.
 *
 * Validity is checked twice with real validators: the document against the official OpenAPI 3.1
 * JSON schema (@seriousme/openapi-schema-validator, which leaves Schema Objects out), and every
 * Schema Object in it against JSON Schema 2020-12 (Ajv in strict mode, plus the OpenAPI dialect's
 * extra keywords), which is what OpenAPI 3.1 makes of them. Then the route table, path parameters,
 * security, DU headers, the 422 shape and the references are held to the endpoint declarations.
 *
 * The same checks run on the document the app serves and on one built from a set of declarations
 * that has every shape the builder handles (path parameters, optional auth, entitlements, full and
 * public schemas, 204s, list grammar, TypeBox references), so they bite before such endpoints exist.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Type as t } from "@sinclair/typebox";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { mountable, type Endpoint, type MountedEndpoint } from "../../src/serve/http/endpoint";
import { DU_HEADERS } from "../../src/serve/http/metering";
import { buildOpenApi } from "../../src/serve/http/openapi";
import { PRICES } from "../../src/serve/app";
import { T } from "../../src/serve/query/grammar";
import { VERSION } from "../../src/platform/version";
import { createApp } from "../../src/serve/app";
import { createTestContext, type TestContext } from "../helpers/app";
import { DU } from "../../src/serve/http/pricing";

type Json = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const VALIDATION_FIELDS = ["loc", "msg", "type", "input", "ctx"];

let ctx: TestContext;
let served: Response;
let servedDoc: Json;
beforeAll(async () => {
  ctx = await createTestContext();
  served = await ctx.call("/openapi.json", { key: null });
  servedDoc = (await served.clone().json()) as Json;
});
afterAll(() => ctx.close());

/** Declarations with every shape the builder handles, at priced routes. */
function syntheticEndpoints(): MountedEndpoint[] {
  const Artist = t.Object({ id: t.Integer(), name: t.String(), market_cap: t.Union([t.Number(), t.Null()]) }, { $id: "ArtistSchema" });
  const ArtistPublic = t.Omit(Artist, ["market_cap"], { $id: "ArtistPublicSchema" });
  const page = (item: typeof Artist | typeof ArtistPublic) => t.Object({ items: t.Array(item), total: t.Integer(), has_more: t.Boolean() });
  const handle = () => null;
  const declared: Endpoint[] = [
    {
      method: "GET",
      path: "/v1/artists",
      price: DU.spec(2, 1),
      operationId: "listArtists",
      summary: "Artist list",
      tag: "Artists",
      auth: "optional",
      list: {
        fields: {
          id: { column: "a.id", type: T.int(1), suffixes: ["", "__in"] },
          name: { column: "a.name", type: T.str(), suffixes: ["__ilike"] },
          birth_year: { column: "a.birth_year", type: T.int(), suffixes: ["__gte", "__lte"] },
          size: { column: "a.size", type: T.enum(["S", "M", "L"]), suffixes: ["__eq"] },
        },
        sorts: { NAME_ASC: "a.name ASC", NAME_DESC: "a.name DESC" },
        defaultSort: "NAME_ASC",
        limit: { default: 100, max: 1000 },
        params: { preferred_currency: { type: T.enum(["USD", "EUR"]) }, finance: { type: T.str(), many: true } },
        maxInValues: 100,
      },
      response: { full: page(Artist), public: page(ArtistPublic) },
      records: (b) => b.items.length,
      handle,
    },
    {
      method: "GET",
      path: "/v1/artists/{artist_id}",
      price: DU.spec(1),
      operationId: "getArtist",
      summary: "One artist",
      tag: "Artists",
      auth: "optional",
      pathParams: { artist_id: T.int(1) },
      response: { full: Artist, public: ArtistPublic },
      handle,
    },
    {
      method: "GET",
      path: "/v1/artists/{artist_id}/chart",
      price: DU.spec(10),
      operationId: "getArtistChart",
      summary: "Artist chart",
      tag: "Artists",
      auth: "required",
      entitlement: "analytics",
      pathParams: { artist_id: T.int(1) },
      // A TypeBox reference to a schema hoisted elsewhere.
      response: { full: t.Object({ artist: t.Ref(Artist), points: t.Array(t.Object({ date: t.String({ format: "date" }), value: t.Number() })) }) },
      handle,
    },
    {
      method: "POST",
      path: "/v1/artists/{artist_id}/follow",
      price: DU.FREE,
      operationId: "followArtist",
      summary: "Follow",
      tag: "Artists",
      auth: "required",
      pathParams: { artist_id: T.int(1) },
      status: 204,
      handle,
    },
    {
      method: "GET",
      path: "/v1/lots/shared/{token}",
      price: DU.FREE,
      operationId: "getSharedLots",
      summary: "Shared lots",
      tag: "Lots",
      auth: "public",
      pathParams: { token: T.str(64) },
      response: { full: t.Array(ArtistPublic) },
      handle,
    },
    {
      // pathParams names only one of the two template parameters: both must still be declared.
      method: "PATCH",
      path: "/v1/collectables/{collectable_id}/appraisals/{appraisal_id}",
      price: DU.WRITE,
      operationId: "updateCollectableAppraisal",
      summary: "Update an appraisal",
      tag: "Collectables",
      auth: "required",
      entitlement: "collectables",
      pathParams: { collectable_id: T.int(1) },
      body: t.Object({ value: t.Optional(t.Number({ minimum: 0 })), currency: t.Optional(t.String({ minLength: 3, maxLength: 3 })) }, { $id: "AppraisalUpdate" }),
      response: { full: t.Object({ id: t.Integer(), value: t.Number({ minimum: 0 }) }, { $id: "AppraisalSchema" }) },
      handle,
    },
    {
      // a multipart form: text fields and a file part
      method: "PUT",
      path: "/v1/collectables/{collectable_id}/image",
      price: DU.WRITE,
      operationId: "uploadCollectableImage",
      summary: "Upload an image",
      tag: "Collectables",
      auth: "required",
      pathParams: { collectable_id: T.int(1) },
      form: {
        fields: t.Object({ caption: t.Optional(t.String({ maxLength: 200 })), ids: t.Optional(t.Array(t.Integer({ minimum: 1 }))) }),
        files: { image: { required: true, description: "the picture", accept: ["image/jpeg", "image/png"] } },
      },
      response: { full: t.Object({ id: t.Integer() }) },
      handle,
    },
  ];
  return declared.map(mountable);
}

/** The checks, over one document and the endpoints it was built from. */
function documentSuite(name: string, get: () => { doc: Json; endpoints: readonly MountedEndpoint[] }) {
  describe(name, () => {
    let doc: Json;
    let endpoints: readonly MountedEndpoint[];
    beforeAll(() => ({ doc, endpoints } = get()));

    /** Every operation of the document as [path, method, operation]. */
    const operations = (): [string, string, Json][] => {
      const out: [string, string, Json][] = [];
      for (const [path, item] of Object.entries(doc.paths as Json)) {
        for (const method of METHODS) if (item[method]) out.push([path, method, item[method]]);
      }
      return out;
    };

    /** Follows a local reference ("#/components/schemas/X") in the document. */
    const deref = (node: Json): Json => {
      if (typeof node?.$ref !== "string") return node;
      expect(node.$ref.startsWith("#/")).toBe(true);
      let at: any = doc;
      for (const part of node.$ref.slice(2).split("/")) at = at?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
      expect({ ref: node.$ref, found: at !== undefined }).toEqual({ ref: node.$ref, found: true });
      return deref(at);
    };

    /** Every Schema Object of the document (components, parameters, headers, bodies), by where it is. */
    const schemaObjects = (): [string, Json][] => {
      const out: [string, Json][] = Object.entries((doc.components?.schemas ?? {}) as Json).map(([n, s]) => [`#/components/schemas/${n}`, s]);
      for (const [path, method, op] of operations()) {
        const at = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters ?? []) if (p.schema) out.push([`${at} parameter ${p.name}`, p.schema]);
        for (const [media, m] of Object.entries((op.requestBody?.content ?? {}) as Json)) out.push([`${at} body ${media}`, m.schema]);
        for (const [status, r] of Object.entries((op.responses ?? {}) as Json)) {
          for (const [h, header] of Object.entries((r.headers ?? {}) as Json)) out.push([`${at} ${status} header ${h}`, header.schema]);
          for (const [media, m] of Object.entries((r.content ?? {}) as Json)) if (m.schema) out.push([`${at} ${status} ${media}`, m.schema]);
        }
      }
      return out;
    };

    test("is valid against the official OpenAPI 3.1 schema", async () => {
      expect(doc.openapi).toBe("3.1.0");
      const validator = new Validator();
      const result = await validator.validate(structuredClone(doc));
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe("3.1");
    });

    test("every Schema Object compiles as JSON Schema 2020-12 in strict mode, its references resolved", () => {
      const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: true, allErrors: true });
      addFormats(ajv);
      // The OpenAPI 3.1 dialect's own keywords, and any x- extension a schema uses.
      const extensions = new Set(["discriminator", "xml", "externalDocs", "example"]);
      for (const [, s] of schemaObjects()) for (const [, node] of walk(s)) for (const k of Object.keys(node)) if (k.startsWith("x-")) extensions.add(k);
      ajv.addVocabulary([...extensions]);
      for (const [n, s] of Object.entries((doc.components?.schemas ?? {}) as Json)) ajv.addSchema(asAjv(s), `urn:artmarket:${n}`);
      const failures: string[] = [];
      for (const [where, s] of schemaObjects()) {
        try {
          if (!ajv.validateSchema(asAjv(s))) failures.push(`${where}: ${ajv.errorsText(ajv.errors)}`);
          else ajv.compile(asAjv(s));
        } catch (e) {
          failures.push(`${where}: ${(e as Error).message}`);
        }
      }
      expect(failures).toEqual([]);
    });

    test("every endpoint appears with its method, and nothing else does", () => {
      const documented = operations()
        .map(([path, method]) => `${method.toUpperCase()} ${path}`)
        .sort();
      const mounted = endpoints.map((e) => `${e.method} ${e.path}`).sort();
      expect(mounted.length).toBeGreaterThan(0);
      expect(documented).toEqual(mounted);
    });

    test("an endpoint with a JSON body schema documents it as a required application/json request body, and only then", () => {
      const byRoute = new Map(endpoints.map((e) => [`${e.method} ${e.path}`, e]));
      for (const [path, method, op] of operations()) {
        const where = `${method.toUpperCase()} ${path}`;
        const e = byRoute.get(where)!;
        expect({ where, requestBody: op.requestBody !== undefined }).toEqual({ where, requestBody: e.body !== undefined || e.form !== undefined });
        if (e.form) {
          const required = Object.values(e.form.files ?? {}).some((f) => f.required) || (e.form.fields.required ?? []).length > 0;
          expect({ where, required: op.requestBody.required, multipart: "multipart/form-data" in op.requestBody.content }).toEqual({ where, required, multipart: true });
          continue;
        }
        if (!e.body) continue;
        expect({ where, required: op.requestBody.required, media: Object.keys(op.requestBody.content) }).toEqual({ where, required: true, media: ["application/json"] });
        expect(typeof op.requestBody.content["application/json"].schema).toBe("object");
      }
    });

    test("operationIds are unique; every operation has a summary, a declared tag and a success response", () => {
      const ids = operations().map(([, , op]) => op.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      const tags = new Set(((doc.tags ?? []) as Json[]).map((tag) => tag.name));
      for (const [path, method, op] of operations()) {
        const where = `${method.toUpperCase()} ${path}`;
        expect({ where, summary: typeof op.summary }).toEqual({ where, summary: "string" });
        expect({ where, tags: op.tags.length > 0 && op.tags.every((tag: string) => tags.has(tag)) }).toEqual({ where, tags: true });
        expect({ where, success: Object.keys(op.responses ?? {}).some((s) => /^2\d\d$/.test(s)) }).toEqual({ where, success: true });
      }
    });

    test("every path parameter is declared, required and in the template; no parameter is declared twice", () => {
      for (const [path, method, op] of operations()) {
        const where = `${method.toUpperCase()} ${path}`;
        const params = [...((doc.paths[path].parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])].map(deref);
        const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).sort();
        const declared = params.filter((p) => p.in === "path");
        expect({ where, path: declared.map((p) => p.name).sort() }).toEqual({ where, path: inTemplate });
        for (const p of declared) {
          expect({ where, name: p.name, required: p.required, schema: typeof p.schema }).toEqual({ where, name: p.name, required: true, schema: "object" });
        }
        const keys = params.map((p) => `${p.in}:${p.name}`);
        expect({ where, duplicates: keys.filter((k, i) => keys.indexOf(k) !== i) }).toEqual({ where, duplicates: [] });
      }
    });

    test("non-public operations take the bearer key and document 401, 429 and the DU headers; public ones take a key optionally and document the headers it brings, without 401 or 429", () => {
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
      const byRoute = new Map(endpoints.map((e) => [`${e.method} ${e.path}`, e]));
      for (const [path, method, op] of operations()) {
        const where = `${method.toUpperCase()} ${path}`;
        const e = byRoute.get(where)!;
        const success = Object.entries(op.responses as Json)
          .filter(([s]) => /^2\d\d$/.test(s))
          .map(([, r]) => deref(r));
        if (e.auth === "public") {
          expect({ where, security: op.security }).toEqual({ where, security: [{}, { bearerAuth: [] }] });
          for (const r of success) {
            expect({
              where,
              headers: Object.keys(r.headers ?? {})
                .filter((h) => h.startsWith("X-Service-"))
                .sort(),
            }).toEqual({ where, headers: [...DU_HEADERS].sort() });
            for (const h of DU_HEADERS)
              expect({ where, h, description: deref(r.headers[h]).description }).toEqual({
                where,
                h,
                description: expect.stringContaining("only when a valid bearer key is sent"),
              });
          }
          for (const status of ["401", "429"]) expect({ where, status, documented: status in op.responses }).toEqual({ where, status, documented: false });
          continue;
        }
        const security = (op.security ?? doc.security ?? []) as Json[];
        expect({ where, bearer: security.some((req) => "bearerAuth" in req) }).toEqual({ where, bearer: true });
        // A required key has no anonymous alternative; an optional one has.
        expect({ where, anonymous: security.some((req) => Object.keys(req).length === 0) }).toEqual({ where, anonymous: e.auth === "optional" });
        for (const r of success) {
          for (const h of DU_HEADERS) {
            const header = deref(r.headers?.[h] ?? {});
            expect({ where, header: h, documented: typeof header.schema === "object" && typeof header.description === "string" }).toEqual({
              where,
              header: h,
              documented: true,
            });
          }
        }
        for (const status of ["401", "429"]) expect({ where, status, documented: status in op.responses }).toEqual({ where, status, documented: true });
        // 403: an entitlement the plan may lack, the account area's refusals (CSRF, admins only), a read-only key's write
        const refusable = e.entitlement !== undefined || e.auth === "account" || e.auth === "admin" || e.method !== "GET";
        expect({ where, refusable: "403" in op.responses }).toEqual({ where, refusable });
      }
    });

    test("every operation that takes input documents 422 with the validation error schema (loc, msg, type, input, ctx)", () => {
      let seen = 0;
      for (const [path, method, op] of operations()) {
        const where = `${method.toUpperCase()} ${path}`;
        const takesInput = (op.parameters ?? []).length > 0 || op.requestBody !== undefined;
        const r = op.responses["422"];
        if (!takesInput && !r) continue;
        expect({ where, has422: r !== undefined }).toEqual({ where, has422: true });
        seen++;
        const schema = r.content["application/json"].schema;
        expect(schema.$ref).toBe("#/components/schemas/HTTPValidationError");
        const body = deref(schema);
        expect(body.required).toContain("detail");
        expect(body.properties.detail.type).toBe("array");
        const item = deref(body.properties.detail.items);
        expect(item.type).toBe("object");
        expect([...item.required].sort()).toEqual([...VALIDATION_FIELDS].sort());
        for (const f of VALIDATION_FIELDS) expect(item.properties).toHaveProperty(f);
        expect(item.properties.loc.type).toBe("array");
        expect(item.properties.msg.type).toBe("string");
        expect(item.properties.type.type).toBe("string");
        expect(item.properties.ctx.type).toBe("object");
      }
      expect(seen).toBeGreaterThan(0);
    });

    test("every $ref points into components at something that exists, and every component is used", () => {
      const refs = new Set<string>();
      for (const [pointer, node] of walk(doc)) {
        if (typeof node.$ref !== "string") continue;
        refs.add(node.$ref);
        expect({ pointer, ref: node.$ref, local: node.$ref.startsWith("#/components/") }).toEqual({ pointer, ref: node.$ref, local: true });
        deref(node);
      }
      for (const n of Object.keys(doc.components.schemas)) expect({ n, used: refs.has(`#/components/schemas/${n}`) }).toEqual({ n, used: true });
    });

    test("each operation states its DU price as the pricing table has it", () => {
      for (const [path, method, op] of operations()) {
        const route = `${method.toUpperCase()} ${path}`;
        const price = PRICES[route]!;
        expect({ route, du: op["x-data-units"] }).toEqual({ route, du: { base: price.base, per_record: price.perRecord } });
        expect(op.description).toContain(" DU.");
      }
    });

    test("every operation has its declared operationId: unique, camelCase, none generated from the path", () => {
      const byRoute = new Map(endpoints.map((e) => [`${e.method} ${e.path}`, e]));
      const ids = operations().map(([path, method, op]) => {
        const route = `${method.toUpperCase()} ${path}`;
        expect({ route, operationId: op.operationId }).toEqual({ route, operationId: byRoute.get(route)!.operationId });
        // camelCase, and nothing like the old generated ids (getV1ArtistsByArtistIdChart)
        expect({ route, camel: /^[a-z][a-zA-Z0-9]*$/.test(op.operationId), generated: /V1|By[A-Z]\w*Id|^(get|post|put|patch|delete)V/.test(op.operationId) }).toEqual({
          route,
          camel: true,
          generated: false,
        });
        return op.operationId as string;
      });
      expect(new Set(ids).size).toBe(ids.length);
    });

    test("every tag used has a description, and the tag list is exactly the tags used", () => {
      const used = [...new Set(operations().flatMap(([, , op]) => op.tags as string[]))].sort();
      expect((doc.tags as Json[]).map((t) => t.name).sort()).toEqual(used);
      for (const tag of doc.tags as Json[])
        expect({ tag: tag.name, described: typeof tag.description === "string" && tag.description.length > 20 }).toEqual({ tag: tag.name, described: true });
    });

    test("every file part of a multipart body is a binary string (format: binary), so generated clients type it as a Blob", () => {
      let parts = 0;
      for (const e of endpoints) {
        const media = doc.paths[e.path][e.method.toLowerCase()].requestBody?.content?.["multipart/form-data"];
        if (!media) continue;
        const schema = deref(media.schema);
        // the file parts are among the body's own properties, not behind a reference to a closed object
        expect(schema.allOf).toBeUndefined();
        for (const [name, decl] of Object.entries(e.form?.files ?? {})) {
          parts++;
          expect({ where: `${e.method} ${e.path} ${name}`, ...schema.properties[name] }).toMatchObject({
            where: `${e.method} ${e.path} ${name}`,
            type: "string",
            format: "binary",
          });
          expect({ name, required: (schema.required ?? []).includes(name) }).toEqual({ name, required: decl.required === true });
        }
      }
      expect(parts).toBeGreaterThan(0);
    });

    test("the introduction says how to get a key, how Data Units are charged with every operation's price, and the limits", () => {
      const intro = doc.info.description as string;
      for (const text of [
        "artmarket keys create --plan SLUG",
        "prints its key once",
        "enterprise",
        "Authorization: Bearer <key>",
        ...DU_HEADERS,
        "RateLimit-Policy",
        "429",
        "Retry-After",
      ]) {
        expect({ text, found: intro.includes(text) }).toEqual({ text, found: true });
      }
      const rows = new Map(
        [...intro.matchAll(/^\| `(\w+)` \| `([A-Z]+ \S+)` \| ([\d.]+) \| ([\d.]+|–) \|$/gm)].map((m) => [
          m[2]!,
          { operationId: m[1], base: Number(m[3]), perRecord: m[4] === "–" ? 0 : Number(m[4]) },
        ]),
      );
      expect([...rows.keys()].sort()).toEqual(endpoints.map((e) => `${e.method} ${e.path}`).sort());
      for (const e of endpoints) {
        const route = `${e.method} ${e.path}`;
        expect({ route, ...rows.get(route) }).toEqual({ route, operationId: e.operationId, base: PRICES[route]!.base, perRecord: PRICES[route]!.perRecord });
      }
    });
  });
}

/** Every object node of a JSON value with its JSON pointer. */
function* walk(node: unknown, pointer = ""): Generator<[string, Json]> {
  if (node === null || typeof node !== "object") return;
  yield [pointer, node as Json];
  for (const [k, v] of Object.entries(node)) yield* walk(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
}

/** A Schema Object with its component references turned into references between Ajv schemas. */
function asAjv(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema), (k, v) =>
    k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/") ? `urn:artmarket:${v.slice("#/components/schemas/".length)}` : v,
  );
}

describe("/openapi.json", () => {
  test("is served publicly as JSON without DU headers, and is what buildOpenApi makes of the mounted endpoints", () => {
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toStartWith("application/json");
    expect(served.headers.get("X-Service-DataUnits")).toBeNull();
    expect(servedDoc).toEqual(buildOpenApi(ctx.app.endpoints, { version: VERSION, serverUrl: "http://artmarket.test" }) as Json);
    expect(servedDoc.openapi).toBe("3.1.0");
    expect(servedDoc.info.version).toBe(VERSION);
    expect(servedDoc.servers).toEqual([{ url: "http://artmarket.test", description: "this service (its --public-url)" }]);
  });

  test("the 3.1 validator rejects a broken document (it really checks)", async () => {
    const broken = structuredClone(servedDoc);
    const [path, item] = Object.entries(broken.paths as Json)[0]!;
    delete item[Object.keys(item)[0]!].responses;
    broken.info.title = 42;
    expect((await new Validator().validate(broken)).valid).toBe(false);
    expect(path).toStartWith("/");
  });

  test("real error bodies match the documented 401 and 422 schemas", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const [n, s] of Object.entries((servedDoc.components.schemas ?? {}) as Json)) ajv.addSchema(asAjv(s), `urn:artmarket:${n}`);
    const unauthorized = await ctx.call("/v1/auction-houses", { key: null });
    expect(unauthorized.status).toBe(401);
    expect(ajv.validate("urn:artmarket:ErrorResponse", await unauthorized.json()) || ajv.errorsText(ajv.errors)).toBe(true);
    const invalid = await ctx.call("/v1/auction-houses?name=");
    expect(invalid.status).toBe(422);
    const body = (await invalid.json()) as Json;
    expect(ajv.validate("urn:artmarket:HTTPValidationError", body) || ajv.errorsText(ajv.errors)).toBe(true);
    expect(body.detail.length).toBeGreaterThan(0);
  });

  test("two different schemas under one $id are refused rather than one silently replacing the other", () => {
    const [one] = syntheticEndpoints();
    const clash = {
      ...one!,
      method: "GET" as const,
      path: "/v1/artists/followed",
      operationId: "listFollowedArtists",
      response: { full: t.Object({ other: t.String() }, { $id: "ArtistSchema" }) },
    };
    expect(() => buildOpenApi([one!, mountable(clash)], { version: "test" })).toThrow(/ArtistSchema/);
  });

  test("an endpoint without an operationId, two sharing one, or one not in camelCase is refused when the document is built", () => {
    const [list, detail] = syntheticEndpoints();
    expect(() => buildOpenApi([list!, { ...detail!, operationId: undefined }], { version: "test" })).toThrow(/GET \/v1\/artists\/\{artist_id\} declares no operationId/);
    expect(() => buildOpenApi([list!, { ...detail!, operationId: "listArtists" }], { version: "test" })).toThrow(/share the operationId "listArtists"/);
    expect(() => buildOpenApi([list!, { ...detail!, operationId: "get_artist" }], { version: "test" })).toThrow(/not camelCase/);
  });

  test("the served document's operation ids are the readable ones (a sample, by route)", () => {
    const byRoute: Record<string, string> = {};
    for (const [path, item] of Object.entries(servedDoc.paths as Json))
      for (const method of METHODS) if (item[method]) byRoute[`${method.toUpperCase()} ${path}`] = item[method].operationId;
    expect(byRoute).toMatchObject({
      "GET /v1/artists": "listArtists",
      "GET /v1/artists/{artist_id}": "getArtist",
      "GET /v1/artists/{artist_id}/chart": "getArtistChart",
      "GET /v1/artists/followed": "listFollowedArtists",
      "POST /v1/artists/{artist_id}/follow": "followArtist",
      "DELETE /v1/artists/{artist_id}/follow": "unfollowArtist",
      "POST /v1/artworks/search-by-image": "searchArtworksByImage",
      "GET /v1/collectables": "listCollectables",
      "POST /v1/collectables": "createCollectable",
      "PUT /v1/collectables/{collectable_id}/image": "uploadCollectableImage",
      "GET /v1/materials": "listMaterials",
      "GET /healthcheck": "getHealth",
    });
  });

  test("servers: the --public-url when set, else the origin the request reached (the forwarded one behind a trusted proxy)", async () => {
    expect(servedDoc.servers).toEqual([{ url: "http://artmarket.test", description: expect.any(String) }]);
    const fetchDoc = async (app: ReturnType<typeof createApp>, url: string, headers: Record<string, string> = {}) => {
      const res = await app.handle(new Request(url, { headers }));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("application/json");
      return (await res.json()) as Json;
    };
    const direct = createApp({ ...ctx.deps, config: { ...ctx.deps.config, publicUrl: null, trustProxy: false } });
    const here = await fetchDoc(direct, "http://127.0.0.1:8123/openapi.json", { "X-Forwarded-Host": "evil.test" });
    expect(here.servers).toEqual([{ url: "http://127.0.0.1:8123", description: expect.any(String) }]);
    // the rest of the document is the one built once, its keys in the same order
    const { servers: _, ...rest } = here;
    const { servers: __, ...expected } = servedDoc;
    expect(Object.keys(here)).toEqual(Object.keys(servedDoc));
    expect(rest).toEqual(expected);
    expect((await fetchDoc(direct, "http://localhost:9000/openapi.json")).servers[0].url).toBe("http://localhost:9000");
    const proxied = createApp({ ...ctx.deps, config: { ...ctx.deps.config, publicUrl: null, trustProxy: true } });
    const behind = await fetchDoc(proxied, "http://10.0.0.5:8000/openapi.json", { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "api.example.test" });
    expect(behind.servers[0].url).toBe("https://api.example.test");
    // a forwarded host that is no host is not written into the document
    const bad = await fetchDoc(proxied, "http://10.0.0.5:8000/openapi.json", { "X-Forwarded-Host": "a b/c" });
    expect(bad.servers[0].url).toBe("http://10.0.0.5:8000");
  });

  test("Redocly's recommended lint finds no error in the document served without --public-url, and no missing tag description or operationId", async () => {
    const app = createApp({ ...ctx.deps, config: { ...ctx.deps.config, publicUrl: null } });
    const source = await (await app.handle(new Request("http://127.0.0.1:8000/openapi.json"))).text();
    const problems = await lintFromString({ source, absoluteRef: "/openapi.json", config: await createConfig({ extends: ["recommended"] }) });
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`);
    expect(found.filter((p) => p.startsWith("error"))).toEqual([]);
    expect(found.filter((p) => /tag-description|operation-operationId|operation-tag|no-empty-servers|no-server/.test(p))).toEqual([]);
    // it does report: the same document without servers is an error
    const { servers: _, ...bare } = JSON.parse(source) as Json;
    const without = await lintFromString({ source: JSON.stringify(bare), absoluteRef: "/openapi.json", config: await createConfig({ extends: ["recommended"] }) });
    expect(without.filter((p) => p.severity === "error").map((p) => p.ruleId)).toEqual(["no-empty-servers"]);
  });

  test("a path parameter left out of pathParams is still declared (as a string)", () => {
    const doc = buildOpenApi(syntheticEndpoints(), { version: "test" }) as Json;
    const op = doc.paths["/v1/collectables/{collectable_id}/appraisals/{appraisal_id}"].patch;
    const byName = Object.fromEntries((op.parameters as Json[]).map((p) => [p.name, p]));
    expect(byName.collectable_id.schema).toEqual({ type: "integer", minimum: 1 });
    expect(byName.appraisal_id).toEqual({ name: "appraisal_id", in: "path", required: true, schema: { type: "string" } });
  });
});

documentSuite("/openapi.json as served", () => ({ doc: servedDoc, endpoints: ctx.app.endpoints }));
documentSuite("OpenAPI built from every shape of declaration", () => {
  const endpoints = syntheticEndpoints();
  return { doc: buildOpenApi(endpoints, { version: "test", serverUrl: "https://example.test" }) as Json, endpoints };
});
