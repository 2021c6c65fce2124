/**
 * Writes the client's types (src/schema.d.ts) from artmarket's /openapi.json with openapi-typescript.
 *
 *   npx bun clients/typescript/generate.ts                      # the document of this checkout, in-process
 *   npx bun clients/typescript/generate.ts --url http://127.0.0.1:8080   # a running server's /openapi.json
 *   … --out FILE                                                # somewhere else than src/schema.d.ts
 *
 * openapi-typescript types a `format: binary` string as `string` unless told otherwise (its CLI has
 * no option for it); here its `transform` hook turns every file part of a multipart/form-data body
 * into `Blob | File`, so that an upload takes what `fetch` and `FormData` take.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import ts from "typescript";

export const SCHEMA_FILE = join(import.meta.dir, "src/schema.d.ts");

const HEADER = `/**
 * artmarket's API types, generated from its /openapi.json by clients/typescript/generate.ts.
 * Do not edit: run \`npx bun clients/typescript/generate.ts\` after the API changes.
 */
`;

/** `Blob | File`: what a multipart file part takes. */
const BLOB_OR_FILE = ts.factory.createUnionTypeNode([
  ts.factory.createTypeReferenceNode(ts.factory.createIdentifier("Blob")),
  ts.factory.createTypeReferenceNode(ts.factory.createIdentifier("File")),
]);

/** Whether a schema's location (a JSON pointer) lies inside a multipart/form-data body. */
export function inMultipartBody(path: string | undefined): boolean {
  return path !== undefined && /\/requestBody\/content\/multipart~1form-data\//.test(path);
}

/** The schema.d.ts text of an OpenAPI document. */
export async function schemaText(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, {
    silent: true,
    transform(schema, { path }) {
      if (schema.format === "binary" && inMultipartBody(path)) return BLOB_OR_FILE;
      return undefined;
    },
  });
  return HEADER + astToString(ast);
}

/** The OpenAPI document of a running server (its origin or the document's URL itself). */
export async function fetchDocument(url: string): Promise<OpenAPI3> {
  const target = new URL(url);
  if (!target.pathname.endsWith(".json")) target.pathname = `${target.pathname.replace(/\/$/, "")}/openapi.json`;
  const res = await fetch(target);
  if (!res.ok) throw new Error(`GET ${target}: ${res.status} ${await res.text()}`);
  return (await res.json()) as OpenAPI3;
}

/** The OpenAPI document this checkout serves, built in-process from its endpoints (no server, no market). */
export async function localDocument(): Promise<OpenAPI3> {
  const { ENDPOINTS } = await import("../../src/serve/app");
  const { mountable } = await import("../../src/serve/http/endpoint");
  const { buildOpenApi } = await import("../../src/serve/http/openapi");
  const { VERSION } = await import("../../src/platform/version");
  return buildOpenApi(ENDPOINTS.map(mountable), { version: VERSION }) as unknown as OpenAPI3;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value`);
  return value;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a, i) => a.startsWith("--") && a !== "--url" && a !== "--out" && !(i > 0 && ["--url", "--out"].includes(args[i - 1]!)));
  if (unknown.length) {
    console.error(`unknown option ${unknown[0]}; usage: generate.ts [--url SERVER_URL] [--out FILE]`);
    process.exit(2);
  }
  const url = option(args, "--url");
  const out = option(args, "--out") ?? SCHEMA_FILE;
  const text = await schemaText(url ? await fetchDocument(url) : await localDocument());
  writeFileSync(out, text);
  console.log(`wrote ${out} (${text.length} characters) from ${url ?? "this checkout's endpoints"}`);
}
