/**
 * /openapi.json: an OpenAPI 3.1.0 document built from the endpoint declarations, so the route
 * table, the parameters (from the list grammar), the response schemas (full and public) and the
 * DU prices are described by the same objects that serve them. Every endpoint declares its
 * operationId (the name generated clients give its method); the document is not built without one.
 */
import type { TSchema } from "@sinclair/typebox";
import type { MountedEndpoint } from "./endpoint";
import { MAX_IN_VALUES, type ListSpec, type ScalarType } from "../query/grammar";
import { requestOrigin } from "./client";
import { FORM_MEDIA_TYPES, MAX_FORM_BYTES, type FormSpec } from "./multipart";
import { formatDu } from "./pricing";

type Json = Record<string, unknown>;

export function scalarSchema(type: ScalarType): Json {
  switch (type.kind) {
    case "integer":
      return { type: "integer", ...(type.min !== undefined && { minimum: type.min }), ...(type.max !== undefined && { maximum: type.max }) };
    case "number":
      return { type: "number", ...(type.min !== undefined && { minimum: type.min }), ...(type.max !== undefined && { maximum: type.max }) };
    case "string":
      return { type: "string", ...(type.minLength && { minLength: type.minLength }), ...(type.maxLength && { maxLength: type.maxLength }) };
    case "boolean":
      return { type: "boolean" };
    case "date":
      return { type: "string", format: "date" };
    case "datetime":
      return { type: "string", format: "date-time" };
    case "enum":
      return { type: "string", enum: [...type.values] };
  }
}

function listParameters(spec: ListSpec): Json[] {
  const out: Json[] = [];
  for (const [field, decl] of Object.entries(spec.fields)) {
    for (const suffix of decl.suffixes) {
      const base = suffix === "__ilike" ? { type: "string", minLength: 1, maxLength: 200 } : scalarSchema(decl.type);
      const schema = suffix === "__in" ? { type: "array", items: base, maxItems: spec.maxInValues ?? MAX_IN_VALUES } : base;
      const what = {
        "": "equals",
        __eq: "equals",
        __in: "any of (repeat the parameter or separate with commas)",
        __gte: "greater than or equal to",
        __lte: "less than or equal to",
        __ilike: "case-insensitive substring of",
      }[suffix];
      out.push({
        name: field + suffix,
        in: "query",
        required: false,
        schema,
        ...(suffix === "__in" && { style: "form", explode: true }),
        description: `${field} ${what}${decl.description ? `; ${decl.description}` : ""}`,
      });
    }
  }
  for (const [name, decl] of Object.entries(spec.params ?? {})) {
    const base = scalarSchema(decl.type);
    out.push({
      name,
      in: "query",
      required: false,
      schema: decl.many ? { type: "array", items: base, maxItems: decl.maxItems ?? MAX_IN_VALUES } : { ...base, ...(decl.default !== undefined && { default: decl.default }) },
      ...(decl.many && { style: "form", explode: true }),
      ...(decl.description && { description: decl.description }),
    });
  }
  if (spec.sorts) {
    out.push({
      name: "sort",
      in: "query",
      required: false,
      schema: { type: "string", enum: Object.keys(spec.sorts), ...(spec.defaultSort && { default: spec.defaultSort }) },
    });
  }
  if (spec.limit) {
    out.push(
      { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: spec.limit.max, default: spec.limit.default } },
      { name: "offset", in: "query", required: false, schema: { type: "integer", minimum: 0, default: 0 } },
    );
  }
  return out;
}

/**
 * Copies a TypeBox schema into plain JSON, hoisting every schema with an $id into components and
 * pointing TypeBox references (`Type.Ref`: `{ $ref: "Id" }`) at the component. Two different
 * schemas under one $id would make one of them silently wrong, so that is an error.
 */
function hoist(schema: TSchema, components: Record<string, Json>): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const obj = node as Json;
    const id = typeof obj.$id === "string" ? obj.$id : undefined;
    const copy: Json = {};
    for (const [k, v] of Object.entries(obj)) {
      if (k === "$id") continue;
      copy[k] = k === "$ref" && typeof v === "string" && !v.startsWith("#") ? componentRef(v) : walk(v);
    }
    if (id) {
      const existing = components[id];
      if (existing === undefined) components[id] = copy;
      else if (JSON.stringify(existing) !== JSON.stringify(copy)) {
        throw new Error(`OpenAPI: two different schemas share the $id "${id}"; give one of them another $id`);
      }
      return { $ref: componentRef(id) };
    }
    return copy;
  };
  return walk(JSON.parse(JSON.stringify(schema))) as Json;
}

const componentRef = (name: string) => `#/components/schemas/${name}`;

/**
 * A form request body: the text fields' schema with the file parts added as binary strings
 * (`format: binary`, which client generators type as Blob or File, and OpenAPI 3.1's
 * `contentMediaType`), as multipart/form-data; urlencoded too when it has no files, and a JSON
 * object of the text fields when no file is required. The fields' schema is written in place,
 * with the file parts among its properties.
 */
function formRequestBody(form: FormSpec, components: Record<string, Json>): Json {
  const files = Object.entries(form.files ?? {});
  const fileProps: Json = Object.fromEntries(
    files.map(([name, decl]) => [
      name,
      { type: "string", format: "binary", contentMediaType: "application/octet-stream", ...(decl.description && { description: decl.description }) },
    ]),
  );
  const fileRequired = files.filter(([, decl]) => decl.required).map(([name]) => name);
  // The fields' own $id is not hoisted: the file parts join their properties (a reference to a
  // closed object, in allOf with the files, would refuse the files).
  const { $id: _, ...own } = form.fields;
  const fields = hoist(own as TSchema, components);
  let schema: Json;
  if (typeof fields.$ref === "string") {
    const filePart = { type: "object", properties: fileProps, ...(fileRequired.length && { required: fileRequired }) };
    schema = files.length ? { allOf: [fields, filePart] } : fields;
  } else {
    const required = [...((fields.required as string[] | undefined) ?? []), ...fileRequired];
    schema = { ...fields, properties: { ...((fields.properties as Json | undefined) ?? {}), ...fileProps }, ...(required.length && { required }) };
  }
  const encoding = Object.fromEntries(files.filter(([, d]) => d.accept?.length).map(([n, d]) => [n, { contentType: d.accept!.join(", ") }]));
  const content: Json = {
    "multipart/form-data": { schema, ...(Object.keys(encoding).length && { encoding }) },
  };
  if (files.length === 0) content[FORM_MEDIA_TYPES[1]] = { schema };
  // the text fields alone may come as a JSON object when no file is required
  if (fileRequired.length === 0) content["application/json"] = { schema: fields };
  // a body is required when a field or a file is (else every input may come in the query string)
  const required = fileRequired.length > 0 || ((form.fields.required as string[] | undefined) ?? []).length > 0;
  return { required, content };
}

/** The {name}s of an OpenAPI path template, in order. */
export function templateParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

const ERROR_SCHEMAS: Record<string, Json> = {
  ErrorResponse: {
    type: "object",
    required: ["detail"],
    properties: { detail: { type: "string" } },
  },
  ValidationIssue: {
    type: "object",
    required: ["loc", "msg", "type", "input", "ctx"],
    properties: {
      loc: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } },
      msg: { type: "string" },
      type: { type: "string" },
      input: {},
      ctx: { type: "object" },
    },
  },
  HTTPValidationError: {
    type: "object",
    required: ["detail"],
    properties: { detail: { type: "array", items: { $ref: "#/components/schemas/ValidationIssue" } } },
  },
};

const errorResponse = (description: string, schema = "ErrorResponse", headers?: Json) => ({
  description,
  ...(headers && { headers }),
  content: { "application/json": { schema: { $ref: componentRef(schema) } } },
});

const RETRY_AFTER = {
  "Retry-After": { description: "seconds to wait before retrying", schema: { type: "integer", minimum: 1 } },
};

const REQUEST_ID_DOCS = {
  "X-Request-Id": { description: "the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one", schema: { type: "string" } },
  "X-Market-Snapshot": {
    description: "the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot",
    schema: { type: "string" },
  },
};

/** The IETF RateLimit headers of a call the rate limiter counted (routes that take a key). */
const RATE_LIMIT_DOCS = {
  "RateLimit-Policy": { description: 'the account\'s windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60', schema: { type: "string" } },
  RateLimit: { description: 'the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset>', schema: { type: "string" } },
};

const DU_HEADER_DOCS = {
  ...REQUEST_ID_DOCS,
  ...RATE_LIMIT_DOCS,
  "X-Service-DataUnits": { description: "DU cost of this call", schema: { type: "number" } },
  "X-Service-DataUnits-Remaining": { description: "DU remaining in the current entitlement period", schema: { type: "number" } },
  "X-Service-DataUnits-Period-End": { description: "last day of the current period", schema: { type: "string", format: "date" } },
};

/** On the public routes the DU headers come only with a valid key (the call is then an authenticated one, at 0 DU). */
const PUBLIC_DU_HEADER_DOCS = {
  ...REQUEST_ID_DOCS,
  ...Object.fromEntries(
    Object.entries(DU_HEADER_DOCS)
      .filter(([name]) => name.startsWith("X-Service-DataUnits"))
      .map(([name, h]) => [name, { ...h, description: `${h.description}; only when a valid bearer key is sent` }]),
  ),
};

/** The name of the bearer scheme in components.securitySchemes (the docs page preselects it). */
export const BEARER_SCHEME = "bearerAuth";
/** The console session's cookie scheme (the account area's routes take it besides a key). */
export const SESSION_SCHEME = "sessionCookie";

/** What each tag holds, for the document's tag list (the docs page's sections). */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Service: "The service itself: `/healthcheck` (public, free).",
  Artists:
    "Artists of the market: the screener list (public schema without a key) and its statistics, one artist, the artist price index chart, related artists, events, the six analytics (plans with analytics), following and the followed list.",
  Artworks:
    "Artworks: the list (public schema without a key), recommended and followed lists, one artwork with its estimate chart, edition ladder and CAGR, similar artworks and search by image, shared lists behind public tokens, following.",
  Lots: "Auction lots: the list (public schema without a key) with search, followed lots, one lot, shared lists behind public tokens, following.",
  Sales: "Auction sales (the events lots are offered in): the list (public schema without a key) with the concluded-sale aggregates, followed sales, one sale, following.",
  Market: "The global art market index chart, with synthetic finance benchmarks.",
  Reference: "Reference data: auction houses, auction locations, categories, currencies and the materials, substrates, surfaces and damages vocabularies.",
  Account:
    "The plans with their allowances, rate limits and features, the caller's Data Unit consumption (`/v1/usage`, free), signing in to the console (`/v1/session`) and the caller's own API keys (`/v1/keys`: made, rotated and revoked by their user; free).",
  Notifications: "The caller's notifications: each new snapshot's market events about the artists, artworks, lots and sales they follow (1 DU a call).",
  Webhooks:
    "A user's webhook destinations: events for what the user follows, POSTed and signed per the Standard Webhooks specification, retried with backoff; the deliveries, a test event, redelivery. Free.",
  Admin: "For admins only (403 to a member): users, their plans, roles and access, everyone's usage, and the audit log. Free.",
  Collectables:
    "Each user's private collection: records with an image, acquisition, appraisals, provenance, private sales and a comp set, valued against the market. Only the caller's own records are visible; another user's are 404.",
};

/** The document's introduction (Markdown): keys, Data Units with the price of every operation, limits, errors. */
function introduction(endpoints: readonly MountedEndpoint[]): string {
  const optional = endpoints.filter((e) => e.auth === "optional").map((e) => `\`${e.method} ${e.path}\``);
  const open = endpoints.filter((e) => e.auth === "public").map((e) => `\`${e.method} ${e.path}\``);
  const rows = endpoints.map((e) => {
    const per = e.price.perRecord > 0 ? formatDu(e.price.perRecord) : "–";
    return `| \`${e.operationId}\` | \`${e.method} ${e.path}\` | ${formatDu(e.price.base)} | ${per} |`;
  });
  return [
    "Auction-market data: artists, artworks, lots, sales, charts, estimates and analytics, metered in Data Units (DU), plus each user's private collection.",
    "## API keys",
    "Send the key as `Authorization: Bearer <key>`; on this page, enter it under Authentication (bearer) to use Try it. A missing, malformed, unknown or revoked key is 401 with a `detail` that says which.",
    "Keys are created by the operator of this server: `artmarket keys create --plan SLUG` (a plan of `GET /v1/plans`: sandbox, pro or enterprise) creates a user on that plan and prints its key once, as the last line of its output; only a hash is stored, so a lost key is replaced, not recovered (`artmarket keys list`, `artmarket keys revoke ID`). The first start of `artmarket serve` on an empty data directory creates an enterprise user and prints its key once, after the `listening on` line.",
    `Without a key, ${optional.join(", ")} answer with the reduced public schema, unmetered; ${open.join(", ")} are public. Every other operation needs a key.`,
    "## Data Units",
    "A call costs base + per record × the records it returns (below, in each operation's description and in its `x-data-units`). Every successful call made with a key carries `X-Service-DataUnits` (its cost), `X-Service-DataUnits-Remaining` (left in the current period) and `X-Service-DataUnits-Period-End` (the period's last day); errors and calls without a key cost nothing. `GET /v1/usage` (free) gives the period's, the day's and the month's consumption.",
    ["| operation | route | base DU | per record |", "|---|---|---|---|", ...rows].join("\n"),
    // HTTP conventions (HEAD, ETag and 304, compression): src/serve/http/endpoint.ts, etag.ts, compression.ts
    "`HEAD` on a GET costs nothing: it answers the GET's headers with `X-Service-DataUnits: 0` and `X-Service-DataUnits-Quote` (what the GET would cost). Market reads (artists, artworks, lots, sales, charts, reference lists) carry a weak `ETag`; sent back in `If-None-Match`, it answers 304 with no body at the base price only (no per-record part). JSON bodies of 1 KiB or more are compressed (br, else gzip) when `Accept-Encoding` allows, with `Vary: Accept-Encoding`.",
    "## Limits",
    "Each plan has a request rate per second and per minute (`GET /v1/plans`). Responses to keyed calls carry `RateLimit-Policy` and `RateLimit` (the window nearest to running out). Past a limit the answer is 429 with `Retry-After` (seconds). A plan with a hard cap (sandbox) answers 429 with `Retry-After` to every call that costs DU once its period's allowance is used up (free calls such as `/v1/usage` are still served); paid plans are served on past their allowance.",
    `A JSON body may have 1 MiB, a form with its uploads ${MAX_FORM_BYTES / 2 ** 20} MiB (413 beyond); a list parameter takes up to ${MAX_IN_VALUES.toLocaleString("en")} values.`,
    "## Errors",
    'Validation errors are 422 `{"detail": [{"loc", "msg", "type", "input", "ctx"}]}`; every other error is `{"detail": "…"}`.',
    'A query parameter an operation does not list is refused, not ignored: 422 with type `extra_forbidden` at `["query", name]`, the nearest listed name suggested in `msg` and `ctx.suggestion` when one is close; like every error it costs nothing.',
  ].join("\n\n");
}

/** camelCase: a lower-case letter, then letters and digits (listArtists, getArtistChart). */
const OPERATION_ID = /^[a-z][a-zA-Z0-9]*$/;

export function buildOpenApi(endpoints: readonly MountedEndpoint[], info: { version: string; serverUrl?: string }): Json {
  const components: Record<string, Json> = { ...ERROR_SCHEMAS };
  const paths: Record<string, Json> = {};
  const tags: string[] = [];
  const operationIds = new Map<string, string>();
  for (const e of endpoints) {
    const route = `${e.method} ${e.path}`;
    if (!e.operationId) throw new Error(`OpenAPI: ${route} declares no operationId; give it a readable camelCase one (listArtists, getArtistChart)`);
    if (!OPERATION_ID.test(e.operationId))
      throw new Error(`OpenAPI: the operationId "${e.operationId}" of ${route} is not camelCase (a lower-case letter, then letters and digits)`);
    const taken = operationIds.get(e.operationId);
    if (taken) throw new Error(`OpenAPI: ${taken} and ${route} share the operationId "${e.operationId}"`);
    operationIds.set(e.operationId, route);
    if (!tags.includes(e.tag)) tags.push(e.tag);
    // Every {name} of the template is declared: typed from pathParams where declared, else a string.
    const pathNames = templateParams(e.path);
    const parameters: Json[] = pathNames.map((name) => {
      const type = e.pathParams?.[name];
      return { name, in: "path", required: true, schema: type ? scalarSchema(type) : { type: "string" } };
    });
    if (e.list) parameters.push(...listParameters(e.list));
    const responses: Json = {};
    const status = String(e.status ?? 200);
    if (e.status === 204 || !e.response) {
      responses[status] = { description: "Done; no body", headers: e.auth === "public" ? PUBLIC_DU_HEADER_DOCS : DU_HEADER_DOCS };
    } else {
      const full = hoist(e.response.full, components);
      const schema = e.response.public ? { anyOf: [full, hoist(e.response.public, components)] } : full;
      responses[status] = {
        description: e.response.public ? "The full schema for entitled callers, the reduced public schema for the others" : "Success",
        headers: e.auth === "public" ? PUBLIC_DU_HEADER_DOCS : DU_HEADER_DOCS,
        content: { "application/json": { schema } },
      };
    }
    if (e.auth !== "public") {
      responses["401"] = errorResponse("No, malformed, unknown or revoked API key (the detail says which, and how to get a key)");
      responses["429"] = errorResponse("Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry)", "ErrorResponse", {
        ...RETRY_AFTER,
        ...RATE_LIMIT_DOCS,
      });
    }
    if (e.entitlement) responses["403"] = errorResponse("The caller's plan does not include this resource");
    if (e.auth === "account" || e.auth === "admin")
      responses["403"] = errorResponse(
        e.auth === "admin"
          ? "The caller is not an admin, or a session's call without its CSRF token"
          : "A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write",
      );
    else if (e.auth !== "public" && e.method !== "GET") responses["403"] ??= errorResponse("A read-only key (scope read) makes GET and HEAD calls only");
    if (pathNames.length) responses["404"] = errorResponse("Not found, or not accessible to the caller");
    if (e.body || e.form) responses["413"] = errorResponse("Request body too large");
    if (e.form) responses["415"] = errorResponse("The body is not multipart/form-data, urlencoded or a JSON object (an uploaded file that is not a supported image is a 422)");
    // The pipeline validates declared path parameters, list parameters, JSON and form bodies.
    if (e.list || e.pathParams || e.body || e.form) responses["422"] = errorResponse("Validation error", "HTTPValidationError");
    const du = e.price.perRecord > 0 ? `${formatDu(e.price.base)} + ${formatDu(e.price.perRecord)} per record` : formatDu(e.price.base);
    const operation: Json = {
      operationId: e.operationId,
      summary: e.summary,
      description: `${e.description ? `${e.description}\n\n` : ""}Cost: ${du} DU.`,
      tags: [e.tag],
      parameters,
      ...(e.body && { requestBody: { required: true, content: { "application/json": { schema: hoist(e.body, components) } } } }),
      ...(e.form && { requestBody: formRequestBody(e.form, components) }),
      responses,
      "x-data-units": { base: e.price.base, per_record: e.price.perRecord },
      security:
        e.auth === "public"
          ? [{}, { [BEARER_SCHEME]: [] }]
          : e.auth === "optional"
            ? [{ [BEARER_SCHEME]: [] }, {}]
            : e.auth === "account" || e.auth === "admin"
              ? [{ [BEARER_SCHEME]: [] }, { [SESSION_SCHEME]: [] }]
              : [{ [BEARER_SCHEME]: [] }],
    };
    (paths[e.path] ??= {})[e.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: { title: "artmarket", version: info.version, description: introduction(endpoints) },
    ...(info.serverUrl && { servers: [{ url: info.serverUrl, description: "this service (its --public-url)" }] }),
    tags: tags.map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] && { description: TAG_DESCRIPTIONS[name] }) })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: "http",
          scheme: "bearer",
          description:
            "API key: `Authorization: Bearer <key>`. A signed-in user makes their own keys (`POST /v1/keys`); the operator creates users with keys with `artmarket keys create --plan SLUG`. Each key is shown once.",
        },
        [SESSION_SCHEME]: {
          type: "apiKey",
          in: "cookie",
          name: "artmarket_session",
          description:
            "The console's session (`POST /v1/session`), for the account area only (keys, session, admin). A call that changes something also carries the session's `X-CSRF-Token`.",
        },
      },
    },
  };
}

/** Documents kept per origin when `servers` follows the request (a server is reached under few names). */
const MAX_ORIGINS = 16;

/**
 * GET /openapi.json. The document (buildOpenApi's, as JSON) names its server: the --public-url when
 * one is set (already in the document), else the origin the request reached, as requestOrigin
 * finds it (X-Forwarded-Proto and -Host with --trust-proxy), so that clients generated from it or
 * the docs page's Try it call this service wherever it listens.
 */
export function openApiRoute(document: string, options: { publicUrl: string | null; trustProxy?: boolean; headers: Readonly<Record<string, string>> }) {
  const headers = { "Content-Type": "application/json", ...options.headers };
  if (options.publicUrl) return () => new Response(document, { headers });
  const { openapi, info, ...rest } = JSON.parse(document) as Json;
  const byOrigin = new Map<string, string>();
  return ({ request }: { request: Request }) => {
    const origin = requestOrigin(request, new URL(request.url), options.trustProxy);
    let text = byOrigin.get(origin);
    if (text === undefined) {
      text = JSON.stringify({ openapi, info, servers: [{ url: origin, description: "this service, as this request reached it" }], ...rest });
      if (byOrigin.size >= MAX_ORIGINS) byOrigin.clear();
      byOrigin.set(origin, text);
    }
    return new Response(text, { headers });
  };
}
