/**
 * A typed client made from /openapi.json the way a customer makes one: openapi-typescript turns the
 * served document into `paths` types (a `format: binary` part as a Blob, the generator's documented
 * recipe), and a small program on openapi-fetch's createClient<paths> calls a list, a chart, a 404
 * and an upload. The program must type-check with no diagnostic at all, its @ts-expect-error lines
 * included (each must be an error: a file part given as text, an upload without its file, a path
 * parameter left out, a field the response does not have); then the same program runs against the
 * in-process app and what it got is compared with the API's own answers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import ts from "typescript";
import { loadSharp } from "../../src/platform/native";
import { createTestContext, type TestContext } from "../helpers/app";
import { virtualTypeChecker } from "../helpers/typecheck";

const ORIGIN = "http://artmarket.test";
const MISSING_ARTIST = 999_999_999;

/** The customer's program: it imports the generated types as ./artmarket. */
const PROGRAM = `
import createClient from "openapi-fetch";
import type { paths } from "./artmarket";

type SearchForm = NonNullable<paths["/v1/artworks/search-by-image"]["post"]["requestBody"]>["content"]["multipart/form-data"];
type ImageForm = paths["/v1/collectables/{collectable_id}/image"]["put"]["requestBody"]["content"]["multipart/form-data"];

/** File parts are Blobs (or Files), never text. */
export const anImage: ImageForm = { image: new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }) };
export const textImage: Pick<SearchForm, "image"> = {
  // @ts-expect-error: a file part is a Blob, not a string
  image: "a picture",
};
// @ts-expect-error: the upload's image part is required
export const noImage: ImageForm = {};

/** A multipart body from a form's fields: Blobs as file parts, everything else as text. */
function formOf(body: object | undefined): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body ?? {})) {
    if (value instanceof Blob) form.append(name, value, "query.png");
    else if (value !== undefined) form.append(name, String(value));
  }
  return form;
}

export async function run(baseUrl: string, key: string, fetch: (request: Request) => Promise<Response>, picture: Blob) {
  const client = createClient<paths>({ baseUrl, fetch, headers: { Authorization: \`Bearer \${key}\` } });

  const list = await client.GET("/v1/artists", { params: { query: { limit: 3 } } });
  if (list.error) throw new Error(\`list: \${list.response.status}\`);
  const artists = list.data.artists.map((a) => ({ id: a.id, name: a.name }));
  const first = artists[0];
  if (!first) throw new Error("no artist");

  const chart = await client.GET("/v1/artists/{artist_id}/chart", { params: { path: { artist_id: first.id }, query: { resolution: "yearly" } } });
  if (chart.error) throw new Error(\`chart: \${chart.response.status}\`);
  const points: number = chart.data.series.reduce((n, s) => n + s.data.length, 0);
  // @ts-expect-error: a chart has no "items"
  void chart.data.items;

  // @ts-expect-error: the path parameter is required
  const _noId = () => client.GET("/v1/artists/{artist_id}", { params: { path: {} } });

  const missing = await client.GET("/v1/artists/{artist_id}", { params: { path: { artist_id: ${MISSING_ARTIST} } } });
  let notFound: { status: number; detail: string } | null = null;
  if (missing.error) {
    const detail = missing.error.detail;
    notFound = { status: missing.response.status, detail: typeof detail === "string" ? detail : detail.map((issue) => issue.msg).join("; ") };
  }

  const search = await client.POST("/v1/artworks/search-by-image", { body: { image: picture, limit: 5 }, bodySerializer: formOf });
  if (search.error) throw new Error(\`search: \${search.response.status} \${JSON.stringify(search.error)}\`);
  const results = search.data.results.map((r) => ({ id: r.artwork.id, score: r.score }));

  return {
    artists,
    chart: { resolution: chart.data.resolution, points, du: Number(chart.response.headers.get("X-Service-DataUnits")) },
    notFound,
    search: { status: search.response.status, results },
  };
}
`;

/** openapi-typescript's documented transform for file parts: `format: binary` becomes Blob. */
const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier("Blob"));

/** Type-checks the program and the generated types as if they lay in a folder of this repository (for node_modules). */
const typeCheck = virtualTypeChecker(join(import.meta.dir, ".typed-client"));

/** What the program's run() returns. */
interface Ran {
  artists: { id: number; name: string }[];
  chart: { resolution: string; points: number; du: number };
  notFound: { status: number; detail: string } | null;
  search: { status: number; results: { id: number; score: number }[] };
}

let ctx: TestContext;
let types: string;
let picture: Blob;
const scratch = mkdtempSync(join(tmpdir(), "artmarket-typed-client-"));
beforeAll(async () => {
  ctx = await createTestContext();
  const doc = (await (await ctx.call("/openapi.json", { key: null })).json()) as OpenAPI3;
  types = astToString(await openapiTS(doc, { silent: true, transform: (schema) => (schema.format === "binary" ? BLOB : undefined) }));
  const sharp = loadSharp(ctx.dataDir);
  const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 180, g: 90, b: 40 } } })
    .png()
    .toBuffer();
  picture = new Blob([new Uint8Array(png)], { type: "image/png" });
});
afterAll(() => {
  ctx.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a client generated from /openapi.json (openapi-typescript + openapi-fetch)", () => {
  test("types every upload's image part as a Blob, and names the operations by their ids", () => {
    expect(types).toContain("export interface paths");
    expect(types.match(/\bimage\??: Blob;/g)?.length).toBe(3);
    expect(types).not.toMatch(/\bimage\??: string;/);
    for (const id of ["listArtists", "getArtistChart", "getArtist", "searchArtworksByImage", "uploadCollectableImage"]) expect(types).toContain(`    ${id}: {`);
  });

  test("a program calling a list, a chart, a 404 and an upload type-checks with no diagnostic, its @ts-expect-error lines each an error", () => {
    expect(typeCheck({ "artmarket.ts": types, "program.ts": PROGRAM })).toEqual([]);
    // the checker does report: the same program with a wrong call is refused
    const broken = PROGRAM.replace("{ params: { query: { limit: 3 } } }", '{ params: { query: { limit: "three" } } }');
    expect(typeCheck({ "artmarket.ts": types, "program.ts": broken }).join("\n")).toMatch(/program\.ts:\d+: .*string.*number/s);
    // and a file part generated as text would leave the @ts-expect-error lines unused
    const asText = types.replace(/\bimage(\??): Blob;/g, "image$1: string;");
    expect(typeCheck({ "artmarket.ts": asText, "program.ts": PROGRAM }).join("\n")).toContain("Unused '@ts-expect-error' directive");
  }, 30_000);

  test("the program runs against the service: the list, the chart, the typed 404 and the search by an uploaded image", async () => {
    const js = ts.transpileModule(PROGRAM, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const file = join(scratch, "program.mjs");
    writeFileSync(file, js.replace(`from "openapi-fetch"`, `from ${JSON.stringify(Bun.resolveSync("openapi-fetch", import.meta.dir))}`));
    const { run } = (await import(file)) as { run: (baseUrl: string, key: string, fetch: (r: Request) => Promise<Response>, picture: Blob) => Promise<Ran> };
    const got = await run(ORIGIN, ctx.keys.pro, (request) => ctx.app.handle(request), picture);

    const list = (await (await ctx.call("/v1/artists?limit=3", { key: ctx.keys.pro })).json()) as { artists: { id: number; name: string }[] };
    expect(got.artists).toEqual(list.artists.map((a) => ({ id: a.id, name: a.name })));
    expect(got.artists.length).toBe(3);

    const chart = (await (await ctx.call(`/v1/artists/${got.artists[0]!.id}/chart?resolution=yearly`, { key: ctx.keys.pro })).json()) as { series: { data: unknown[] }[] };
    expect(got.chart).toEqual({ resolution: "yearly", points: chart.series.reduce((n, s) => n + s.data.length, 0), du: 10 });
    expect(got.chart.points).toBeGreaterThan(0);

    const missing = await ctx.call(`/v1/artists/${MISSING_ARTIST}`, { key: ctx.keys.pro });
    expect(missing.status).toBe(404);
    expect(got.notFound).toEqual({ status: 404, detail: ((await missing.json()) as { detail: string }).detail });

    const form = new FormData();
    form.append("image", picture, "query.png");
    form.append("limit", "5");
    const direct = await ctx.app.handle(new Request(`${ORIGIN}/v1/artworks/search-by-image`, { method: "POST", headers: { Authorization: `Bearer ${ctx.keys.pro}` }, body: form }));
    expect(direct.status).toBe(200);
    const expected = ((await direct.json()) as { results: { score: number; artwork: { id: number } }[] }).results.map((r) => ({ id: r.artwork.id, score: r.score }));
    expect(got.search).toEqual({ status: 200, results: expected });
    expect(expected.length).toBe(5);
  }, 30_000);
});
