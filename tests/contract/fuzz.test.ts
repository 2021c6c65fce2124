/**
 * A property-based fuzz of the whole HTTP surface (fast-check, fixed seed): every operation that
 * /openapi.json declares, driven in-process with generated path parameters, query strings (from the
 * operation's declared parameters, plus unknown ones), JSON and form bodies (from the request
 * schemas, then broken: wrong types, extra properties, null, arrays, deep nesting, huge numbers and
 * strings, control characters, invalid JSON, bodies past 1 MiB) and credentials (none, each plan,
 * revoked, malformed). For every answer:
 *
 * - the status is below 500;
 * - a body whose Content-Type says JSON parses as JSON;
 * - a 4xx carries `detail`: a string, or for 422 an array of issues with exactly loc (array),
 *   msg (string), type (string), input and ctx (object);
 * - a refused write (4xx on POST/PUT/PATCH/DELETE) leaves account.db's user data as it was (the
 *   collectables and their children, follows, shares, users, api_keys; not the DU ledger, which
 *   records successful calls) and the stored collectable images too;
 *
 * and after the run GET /healthcheck is 200. A failure prints fast-check's shrunk counterexample
 * (method, URL, credentials, headers, body) with the status and the response body.
 *
 * `image_url` values (search by image) are only ever loopback addresses on port 1 or strings that
 * are not http(s) URLs: nothing is fetched from any other host (assertSafe checks every request).
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import fc from "fast-check";
import { AccountCounters } from "../../src/serve/accounts/counters";
import { createUserWithKey, revokeKey, type Caller } from "../../src/serve/accounts/keys";
import { isValidHost } from "../../src/serve/http/client";
import { RateLimiter, type RateState } from "../../src/serve/http/metering";
import { listen, RUNTIME_HEAD_LIMIT } from "../../src/serve/http/serve";
import { collectableImageDir } from "../../src/serve/images/renditions";
import { loadSharp } from "../../src/platform/native";
import { createTestContext } from "../helpers/app";
import { tableHash } from "../helpers/rows";
import { pngHeaderOnly } from "../modules/collectables-helpers";

/**
 * Fixed for CI. FUZZ_SEED and FUZZ_SCALE (a factor on every numRuns) explore further by hand:
 * `FUZZ_SEED=7 FUZZ_SCALE=10 bun test tests/contract/fuzz.test.ts`.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
/** Runs per operation (about 6 s of requests on 2 cores); the heavier ones (image embedding, uploads) get fewer, see RUNS_BY_OP. */
const RUNS = 150;
const RUNS_BY_OP: Record<string, number> = {
  "POST /v1/artworks/search-by-image": 120,
  "POST /v1/collectables": 120,
  "PUT /v1/collectables/{collectable_id}/image": 100,
};

type S = Record<string, any>;

// ---------------------------------------------------------------- the app, keys and state

const ctx = await createTestContext();
afterAll(() => ctx.close());
const db = ctx.deps.account;
const sharp = loadSharp(ctx.dataDir);

/** Several users per plan: the rate limits are per user (429 is fine, but coverage is the point). */
const extra = async (plan: string, n: number) => {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await createUserWithKey(db, plan, `fuzz ${plan} ${i}`)).key);
  return out;
};
const KEYS: Record<string, string> = {};
for (const [plan, first, more] of [
  ["enterprise", ctx.keys.enterprise, 1],
  ["pro", ctx.keys.pro, 1],
  ["sandbox", ctx.keys.sandbox, 2],
] as const) {
  [first, ...(await extra(plan, more))].forEach((k, i) => (KEYS[`${plan}#${i}`] = k));
}
{
  const made = await createUserWithKey(db, "pro", "fuzz revoked");
  revokeKey(db, String(made.keyId));
  KEYS.revoked = made.key;
}
const userOf = (key: string) => (db.query("SELECT user_id FROM api_keys WHERE kid = ?").get(key.split("_")[1]!) as { user_id: number }).user_id;
/** The users whose collectables the fuzz keeps seeded (their keys are the most used). */
const OWNER_LABELS = ["enterprise#0", "pro#0"];
const OWNERS = OWNER_LABELS.map((l) => KEYS[l]!);
const OWNER_IDS = OWNERS.map(userOf);

const MALFORMED_AUTH: ((k: Record<string, string>) => string)[] = [
  () => "Bearer",
  () => "Bearer ",
  () => `Bearer am_0000000000000000_${"A".repeat(43)}`,
  () => "Basic dXNlcjpwYXNz",
  (k) => `Bearer ${k["pro#0"]}x`,
  (k) => `Bearer ${k["pro#0"]!.slice(0, 20)}${"A".repeat(43)}`,
  (k) => `Bearer ${k["pro#0"]} ${k["pro#0"]}`,
  (k) => `Token ${k["enterprise#0"]}`,
  () => "Bearer am_zz",
  () => `Bearer ${"a".repeat(5000)}`,
  () => "Bearer\tabc def",
  () => "Bearer %00",
  () => "",
];

/** Largest id of each market table (the tiny market's ids are dense from 1). */
const marketMax = (table: string) => (ctx.deps.market.query(`SELECT max(id) AS n FROM ${table}`).get() as { n: number | null }).n ?? 1;
const ID_MAX: Record<string, number> = {
  artist_id: marketMax("artists"),
  artwork_id: marketMax("artworks"),
  suggested_artwork_id: marketMax("artworks"),
  exclude_artwork_id: marketMax("artworks"),
  lot_id: marketMax("lots"),
  sale_id: marketMax("sales"),
  category_id: marketMax("categories"),
  auction_house_id: marketMax("auction_houses"),
  sale_auction_house_id: marketMax("auction_houses"),
  location_id: marketMax("auction_locations"),
  material_ids: marketMax("materials"),
  substrate_ids: marketMax("substrates"),
  surface_ids: marketMax("surfaces"),
  damage_ids: marketMax("damages"),
};

/** Images for the upload fields, made once. */
const picture = (format: "png" | "jpeg" | "gif" | "webp", w = 48, h = 32) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .composite([{ input: { create: { width: Math.max(1, Math.floor(w / 3)), height: h, channels: 3, background: { r: 10, g: 220, b: 30 } } }, left: 0, top: 0 }])
    [format]()
    .toBuffer()
    .then((b) => new Uint8Array(b));
const IMAGES: Record<string, Uint8Array> = {
  png: await picture("png"),
  jpeg: await picture("jpeg"),
  gif: await picture("gif"),
  webp: await picture("webp"),
  tiny: await picture("png", 1, 1),
  bomb: pngHeaderOnly(40_000, 40_000),
  garbage: new Uint8Array(Array.from({ length: 700 }, (_, i) => (i * 7919 + 13) % 256)),
  text: new TextEncoder().encode("hello, not an image"),
  svg: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
  empty: new Uint8Array(0),
};
IMAGES.truncated = IMAGES.png!.slice(0, 60);

async function api(path: string, method: string, key: string, body?: unknown): Promise<any> {
  const res = await ctx.call(path, { key, method, body });
  if (!res.ok) throw new Error(`fuzz setup: ${method} ${path} → ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/** Share tokens made once (the GET …/shared/{token} routes need real ones too). */
const TOKENS = {
  artworks: [(await api("/v1/artworks/share", "POST", KEYS["enterprise#0"]!, { ids: [1, 2, 3] })).token as string],
  lots: [(await api("/v1/lots/share", "POST", KEYS["enterprise#0"]!, { ids: [1, 2] })).token as string],
};

/** Keeps each owner at three collectables or more, each with an acquisition, children and comps. */
async function ensureSeed(): Promise<void> {
  for (const key of OWNERS) {
    const have = (db.query("SELECT count(*) AS n FROM collectables WHERE user_id = ?").get(userOf(key)) as { n: number }).n;
    for (let i = have; i < 3; i++) {
      const c = await api("/v1/collectables", "POST", key, {
        artist_id: 1 + i,
        category_id: 1,
        edition_unique_type: i === 1 ? "edition" : "unique",
        title: `fuzz seed ${i}`,
        ...(i === 2 && { suggested_artwork_id: 5 }),
      });
      const base = `/v1/collectables/${c.id}`;
      await api(`${base}/acquired`, "PATCH", key, { price: 1200, currency: "EUR", date: "2020-03-04" });
      await api(`${base}/appraisals`, "POST", key, { type: "insurance", value: 5000, date: "2024-01-02" });
      await api(`${base}/provenance`, "POST", key, { owner: "A. Collector", year_from: 1990, year_to: 2000 });
      await api(`${base}/sales`, "POST", key, { value: 900, date: "2023-05-06" });
      await api(`${base}/comps`, "PUT", key, {
        comps: [
          { artist_id: 1, artwork_id: 1 },
          { artist_id: 2, artwork_id: 7, weight: 2 },
        ],
      });
      if (i === 0) {
        const f = new FormData();
        f.set("image", new File([IMAGES.png!], "seed.png", { type: "image/png" }));
        const res = await ctx.app.handle(new Request(`http://artmarket.test${base}/image`, { method: "PUT", headers: { Authorization: `Bearer ${key}` }, body: f }));
        if (!res.ok) throw new Error(`fuzz setup: PUT image → ${res.status} ${await res.text()}`);
      }
    }
  }
}

/** Ids of the owners' collectables and their children, for path parameters that hit real rows. */
function ownedIds(): Record<string, number[]> {
  const ids = (sql: string) => (db.query(sql).all(...OWNER_IDS) as { id: number }[]).map((r) => r.id);
  const of = "collectable_id IN (SELECT id FROM collectables WHERE user_id IN (?, ?))";
  const collectables = ids("SELECT id FROM collectables WHERE user_id IN (?, ?)");
  ID_MAX.collectable_id = Math.max(1, ...collectables);
  return {
    collectable_id: collectables,
    appraisal_id: ids(`SELECT id FROM collectable_appraisals WHERE ${of}`),
    provenance_id: ids(`SELECT id FROM collectable_provenance WHERE ${of}`),
    sale_id: ids(`SELECT id FROM collectable_sales WHERE ${of}`),
  };
}

const CHILD_TABLES: Record<string, string> = {
  appraisal_id: "collectable_appraisals",
  provenance_id: "collectable_provenance",
  sale_id: "collectable_sales",
};

/** Path parameters of a collectable route that name an owner's own rows, with that owner's key. */
function ownedPaths(op: Op): { auth: string; path: Record<string, Text> }[] {
  if (!op.path.startsWith("/v1/collectables/{collectable_id}")) return [];
  const child = op.pathParams.find((p) => p.name !== "collectable_id")?.name;
  return OWNER_IDS.flatMap((uid, i) => {
    const rows = child
      ? (db.query(`SELECT c.id AS cid, x.id AS xid FROM ${CHILD_TABLES[child]} x JOIN collectables c ON c.id = x.collectable_id WHERE c.user_id = ?`).all(uid) as {
          cid: number;
          xid: number;
        }[])
      : (db.query("SELECT id AS cid FROM collectables WHERE user_id = ?").all(uid) as { cid: number; xid?: number }[]);
    return rows.map((r) => ({ auth: OWNER_LABELS[i]!, path: { collectable_id: String(r.cid), ...(child && { [child]: String(r.xid) }) } }));
  });
}

// ---------------------------------------------------------------- account.db snapshots

const USER_TABLES = [
  "users",
  "api_keys",
  "follows",
  "shares",
  "collectables",
  "collectable_acquisitions",
  "collectable_appraisals",
  "collectable_provenance",
  "collectable_sales",
  "collectable_comp_sets",
  "collectable_comps",
];
const imageDir = collectableImageDir(ctx.dataDir);

/**
 * Where account.db's writes stand: `data_version` moves when another connection commits, this
 * connection's `total_changes()` when a statement on it changes a row. While both are as they were,
 * no row changed, and the tables' hashes are the ones taken then.
 */
function writeMark(): string {
  const { data_version } = db.query("PRAGMA data_version").get() as { data_version: number };
  const { changes } = db.query("SELECT total_changes() AS changes").get() as { changes: number };
  return `${data_version}/${changes}`;
}

/** The user tables' hashes and the write mark they were taken at. */
let hashed: { mark: string; tables: Record<string, string> } | null = null;

function snapshot(): Record<string, string> {
  const mark = writeMark();
  if (hashed?.mark !== mark) {
    const tables: Record<string, string> = {};
    for (const t of USER_TABLES) tables[t] = tableHash(db, t);
    hashed = { mark, tables };
  }
  return { ...hashed.tables, "(collectable image files)": existsSync(imageDir) ? readdirSync(imageDir).sort().join(",") : "" };
}

// ---------------------------------------------------------------- the operations

const doc = (await (await ctx.call("/openapi.json")).json()) as S;
const components = doc.components.schemas as Record<string, S>;

function resolve(s: S | undefined): S {
  let cur = s ?? {};
  for (let i = 0; i < 20 && typeof cur.$ref === "string"; i++) cur = components[cur.$ref.split("/").pop()!] ?? {};
  if (Array.isArray(cur.allOf)) {
    const parts = cur.allOf.map(resolve);
    return {
      type: "object",
      additionalProperties: parts.every((p: S) => p.additionalProperties !== false) ? undefined : false,
      properties: Object.assign({}, ...parts.map((p: S) => p.properties ?? {})),
      required: parts.flatMap((p: S) => p.required ?? []),
    };
  }
  return cur;
}

interface Op {
  key: string;
  method: string;
  path: string;
  pathParams: { name: string; schema: S }[];
  query: { name: string; schema: S }[];
  /** The JSON body schema (application/json only). */
  json?: S;
  /** The form schema (text fields and file parts) when the operation takes multipart/form-data. */
  form?: { fields: S; files: string[] };
}

const OPS: Op[] = [];
for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, S>>)) {
  for (const [method, op] of Object.entries(ops)) {
    const params = (op.parameters ?? []) as S[];
    const content = (op.requestBody?.content ?? {}) as Record<string, { schema: S }>;
    let form: Op["form"];
    if (content["multipart/form-data"]) {
      const all = resolve(content["multipart/form-data"].schema);
      const props = Object.entries((all.properties ?? {}) as Record<string, S>);
      const files = props.filter(([, s]) => s.contentMediaType).map(([n]) => n);
      const fields = {
        ...all,
        properties: Object.fromEntries(props.filter(([n]) => !files.includes(n))),
        required: (all.required ?? []).filter((n: string) => !files.includes(n)),
      };
      form = { fields, files };
    }
    OPS.push({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      pathParams: params.filter((p) => p.in === "path").map((p) => ({ name: p.name, schema: p.schema })),
      query: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, schema: p.schema })),
      json: form ? undefined : content["application/json"]?.schema,
      form,
    });
  }
}

// ---------------------------------------------------------------- values

/** A query or path value written into the URL as is (no percent-encoding): malformed escapes and the like. */
class Raw {
  constructor(readonly text: string) {}
  [fc.toStringMethod]() {
    return `raw(${JSON.stringify(this.text)})`;
  }
}

/** n values in one comma list (kept symbolic so a counterexample prints short). */
class Seq {
  constructor(
    readonly n: number,
    readonly item: S,
  ) {}
  text(): string {
    const values = this.item.enum as string[] | undefined;
    return Array.from({ length: this.n }, (_, i) =>
      values ? values[i % values.length] : this.item.type === "integer" || this.item.type === "number" ? String(i + 1) : `v${i}`,
    ).join(",");
  }
  [fc.toStringMethod]() {
    return `seq(${this.n} × ${this.item.type ?? "value"})`;
  }
}

/** A JSON value nested n levels deep (arrays or objects). */
class Deep {
  constructor(
    readonly n: number,
    readonly kind: "array" | "object",
  ) {}
  json(): string {
    return this.kind === "array" ? "[".repeat(this.n) + "]".repeat(this.n) : '{"a":'.repeat(this.n) + "1" + "}".repeat(this.n);
  }
  [fc.toStringMethod]() {
    return `deep(${this.n} ${this.kind}s)`;
  }
}

/** A string of n copies of ch. */
class Big {
  constructor(
    readonly n: number,
    readonly ch: string,
  ) {}
  text(): string {
    return this.ch.repeat(this.n);
  }
  [fc.toStringMethod]() {
    return `big(${this.n} × ${JSON.stringify(this.ch)})`;
  }
}

type Text = string | Raw | Seq | Big;
const textOf = (v: Text | Deep): string => (v instanceof Raw ? v.text : v instanceof Seq || v instanceof Big ? v.text() : v instanceof Deep ? v.json() : v);

const weighted = <T>(...pairs: [number, fc.Arbitrary<T>][]) => fc.oneof(...pairs.filter(([w]) => w > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })));

/** image_url values: loopback on port 1 (nothing listens) or no http(s) URL at all. */
const SAFE_IMAGE_URL: fc.Arbitrary<string> = weighted(
  [
    3,
    fc.constantFrom(
      "http://127.0.0.1:1/x.jpg",
      "https://127.0.0.1:1/x.png",
      "http://[::1]:1/a.png",
      "http://127.0.0.1:1/",
      "HTTP://127.0.0.1:1/X.JPG",
      " http://127.0.0.1:1/x.jpg ",
    ),
  ],
  [1, fc.string({ unit: "grapheme", maxLength: 20 }).map((p) => `http://127.0.0.1:1/${encodeURIComponent(p.toWellFormed())}`)],
  [1, fc.constantFrom(3000, 2048 - 19, 2049 - 19).map((n) => `http://127.0.0.1:1/${"a".repeat(n)}`)],
  [
    2,
    fc.constantFrom(
      "",
      " ",
      "not a url",
      "ftp://127.0.0.1/x.jpg",
      "file:///etc/passwd",
      "data:image/png;base64,iVBORw0KGgo=",
      "javascript:alert(1)",
      "//127.0.0.1:1/x.jpg",
      "/x.jpg",
      "http://",
      "http://[::1",
      "mailto:a@b",
      "\u0000",
      "😀",
    ),
  ],
);

/**
 * The fields whose value the service resolves and may connect to: `image_url` (search by image) and
 * a webhook destination's `url`. Both only ever get SAFE_IMAGE_URL's values.
 */
const FETCHED: ReadonlySet<string> = new Set(["image_url", "url"]);

/** True when `v` is no http(s) URL or one on a loopback address: what an image_url may be. */
function safeImageUrl(v: string): boolean {
  let url: URL;
  try {
    url = new URL(v.trim());
  } catch {
    return true;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return true;
  return url.hostname === "127.0.0.1" || url.hostname === "[::1]";
}

const controlString = fc.array(fc.integer({ min: 0, max: 0x1f }), { minLength: 1, maxLength: 8 }).map((cs) => `a${String.fromCharCode(...cs)}b`);

const NASTY_STRINGS = [
  "",
  " ",
  "null",
  "undefined",
  "NaN",
  "[]",
  "{}",
  "'",
  '"',
  "' OR 1=1 --",
  "\\",
  "%",
  "*",
  '"unterminated',
  "AND",
  "OR NOT",
  "NEAR(a b)",
  "a:b",
  "^x",
  "-",
  "(",
  ")",
  "{a}",
  "\u0000",
  "\u202e",
  "\ufeff",
  "😀",
  "Ω≈ç√",
  "١٢٣",
  "a,b,,c",
  ",,,",
  "\r\n",
  "\t",
  "__proto__",
];

const nastyText: fc.Arbitrary<Text> = weighted<Text>(
  [4, fc.constantFrom(...NASTY_STRINGS)],
  [2, fc.string({ unit: "grapheme", maxLength: 16 })],
  [1, fc.string({ unit: "binary", maxLength: 16 })],
  [1, controlString],
  [1, fc.tuple(fc.constantFrom(201, 1000, 10_000, 100_000), fc.constantFrom("x", "é", "9", "😀")).map(([n, ch]) => new Big(n, ch))],
);

const rawEscape: fc.Arbitrary<Text> = fc
  .constantFrom("%00", "%", "%zz", "%E0%A4%A", "%C0%AE", "%FF%FE", "%u0041", "a%00b", "%0A", "+", "%2B", "%26", "%3D", "%%", "1%2C2%2C3", "%2F..%2F")
  .map((t) => new Raw(t));

/** A schema's scalar form: nullables and unions of consts folded to one type or an enum. */
function scalarOf(s0: S): S {
  const s = resolve(s0);
  if (Array.isArray(s.anyOf)) {
    const opts = (s.anyOf as S[]).map(resolve).filter((x) => x.type !== "null");
    if (opts.length && opts.every((x) => "const" in x)) return { type: "string", enum: opts.map((x) => x.const) };
    if (opts.length) return { ...scalarOf(opts[0]!), nullable: true };
  }
  if ("const" in s) return { type: typeof s.const === "number" ? "number" : "string", enum: [s.const] };
  return s;
}

const baseName = (name: string) => name.replace(/__(in|gte|lte|eq|ilike)$/, "");
const idMax = (name: string, fallback = 60) => ID_MAX[baseName(name)] ?? fallback;

const WORDS = ["oil", "oil on canvas", "silver_gelatin", "bronze", "Picasso", "Warhol", "sotheby", "Paris", "blue", "untitled", "a"];
const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CHF", "HKD", "usd", "XXX", "US", ""];

const dateText = fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2100-12-31T00:00:00Z"), noInvalidDate: true });

/** A well-formed text value for a parameter or form field of this schema. */
function validText(name: string, s0: S): fc.Arbitrary<string> {
  const s = scalarOf(s0);
  if (FETCHED.has(name)) return SAFE_IMAGE_URL;
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum.map(String));
  switch (s.type) {
    case "integer": {
      const min = s.minimum ?? (name.endsWith("_id") ? 1 : -1000);
      const max = s.maximum ?? (name.endsWith("_id") || name.endsWith("_ids") ? idMax(name) : min + 5000);
      return fc.integer({ min, max }).map(String);
    }
    case "number": {
      const min = s.minimum ?? -1e7;
      const max = s.maximum ?? 1e7;
      return weighted(
        [3, fc.double({ min, max, noNaN: true, noDefaultInfinity: true })],
        [1, fc.integer({ min: Math.ceil(Math.max(min, -1e6)), max: Math.floor(Math.min(max, 1e6)) })],
      ).map(String);
    }
    case "boolean":
      return fc.constantFrom("true", "false", "1", "0", "yes", "no", "on", "off");
    case "string":
      if (s.format === "date" || name === "date" || /\bYYYY-MM-DD\b/.test(s.description ?? "") || name === "from" || name === "to") {
        return dateText.map((d) => d.toISOString().slice(0, 10));
      }
      if (s.format === "date-time") return weighted([2, dateText.map((d) => d.toISOString())], [1, dateText.map((d) => d.toISOString().slice(0, 10))]);
      if (/currency/.test(name)) return fc.constantFrom(...CURRENCIES);
      return weighted(
        [2, fc.constantFrom(...WORDS)],
        [2, fc.string({ unit: "grapheme-ascii", minLength: Math.max(1, s.minLength ?? 0), maxLength: Math.max(1, Math.min(s.maxLength ?? 20, 20)) })],
      );
    default:
      return fc.string({ maxLength: 10 });
  }
}

/** Values at and just past the schema's edges, and the classic parser traps for its type. */
function edgeText(name: string, s0: S): fc.Arbitrary<Text> {
  const s = scalarOf(s0);
  if (FETCHED.has(name)) return SAFE_IMAGE_URL;
  const out: Text[] = [];
  if (Array.isArray(s.enum)) out.push(...s.enum.map((v: string) => String(v).toUpperCase()), `${s.enum[0]} `, s.enum.join(","), "");
  else if (s.type === "integer") {
    for (const b of [s.minimum, s.maximum]) if (typeof b === "number") out.push(String(b - 1), String(b), String(b + 1));
    out.push("9007199254740991", "9007199254740992", "-9007199254740993", "99999999999999999999999", "1.0", "1.5", "1e2", " 5", "+5", "-0", "0x1F", "１２", "Infinity");
  } else if (s.type === "number") {
    for (const b of [s.minimum, s.maximum]) if (typeof b === "number") out.push(String(b - 1e-9), String(b), String(b + 1));
    out.push("-0", "1e308", "1e309", "-1e309", "5e-324", "1e-400", "NaN", "Infinity", "0x10", ".5", "5.", "1_000", "1,5");
  } else if (s.type === "boolean") out.push("maybe", "TRUE", "", "2", "nope", "t", "y");
  else if (s.format === "date" || s.type === "string") {
    out.push("2026-02-30", "2026-13-01", "0000-00-00", "9999-12-31", "-000001-01-01", "+275760-09-13", "2026-1-1", "20261122", "2026-11-22T00:00:00Z");
    out.push(
      "2026-11-22T25:00:00Z",
      "2026-11-22 10:00",
      "2026-11-22T10:00:00+14:00",
      "2026-11-22T10:00:00.1234567891Z",
      "275760-09-13T00:00:00Z",
      "2026-11-22T10:00:00-99:99",
      "0001-01-01T00:00:00Z",
    );
    if (typeof s.maxLength === "number") out.push(new Big(s.maxLength, "x"), new Big(s.maxLength + 1, "x"));
    if (typeof s.minLength === "number" && s.minLength > 0) out.push(new Big(s.minLength - 1, "x"));
  }
  return out.length ? fc.constantFrom(...out) : nastyText;
}

/** One text value for a scalar parameter or field: mostly valid, sometimes at the edges, sometimes garbage. */
function scalarText(name: string, s: S, raw: boolean): fc.Arbitrary<Text> {
  if (FETCHED.has(name)) return SAFE_IMAGE_URL;
  return weighted<Text>([6, validText(name, s)], [2, edgeText(name, s)], [2, nastyText], [raw ? 1 : 0, rawEscape]);
}

/** Values of a list parameter or field: comma lists, repeated names, empty items, ~1000 values. */
function listTexts(name: string, s: S, raw: boolean): fc.Arbitrary<Text[]> {
  const item = resolve(s.items ?? { type: "string" });
  return weighted<Text[]>(
    [6, fc.array(validText(name, item), { minLength: 1, maxLength: 5 }).map((vs) => [vs.join(",")])],
    [2, fc.array(validText(name, item), { minLength: 2, maxLength: 4 })],
    [2, fc.array(scalarText(name, item, raw), { minLength: 1, maxLength: 3 }).map((vs) => [vs.map(textOf).join(",")])],
    [1, fc.constantFrom([","], [",,,"], [""], [" , "], ["1,,2"])],
    [1, fc.constantFrom(999, 1000, 1001, 5000).map((n) => [new Seq(n, item)])],
  );
}

/** One query pair; value null writes the name alone (`?flag`). */
interface Pair {
  name: string;
  value: Text | null;
}

function paramPairs(p: { name: string; schema: S }): fc.Arbitrary<Pair[]> {
  const s = resolve(p.schema);
  if (s.type === "array") return listTexts(p.name, s, true).map((vs) => vs.map((value) => ({ name: p.name, value })));
  const one = scalarText(p.name, s, true);
  return weighted<Pair[]>(
    [8, one.map((value) => [{ name: p.name, value }])],
    [
      1,
      fc.tuple(one, one).map(([a, b]) => [
        { name: p.name, value: a },
        { name: p.name, value: b },
      ]),
    ],
    [1, fc.constant([{ name: p.name, value: "" }])],
    [FETCHED.has(p.name) ? 0 : 1, fc.constant([{ name: p.name, value: null }])],
  );
}

const unknownName = weighted(
  [2, fc.constantFrom("foo", "__proto__", "constructor", "limit[]", "sort_by_nothing", "id__gt", "x__in", "=", "a b", "ÿ", "LIMIT", "Limit", "offset ")],
  [1, fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 10 })],
).filter((n) => n !== "image_url" && n.trim() !== "image_url");

/** Parameters most lists take, each sent a third of the time whatever filters are chosen (sorting and paging meet the filters). */
const COMMON_PARAMS = new Set(["sort", "sort_by", "sort_dir", "limit", "offset", "preferred_currency", "include_chart"]);

function queryArb(op: Op): fc.Arbitrary<Pair[]> {
  const rest = op.query.filter((p) => !COMMON_PARAMS.has(p.name));
  const common = op.query.filter((p) => COMMON_PARAMS.has(p.name));
  const filters = rest.length
    ? fc.subarray(rest, { maxLength: Math.min(4, rest.length) }).chain((ps) => (ps.length ? fc.tuple(...ps.map(paramPairs)) : fc.constant([] as Pair[][])))
    : fc.constant([] as Pair[][]);
  const usual = common.length ? fc.tuple(...common.map((p) => weighted<Pair[]>([2, fc.constant([])], [1, paramPairs(p)]))) : fc.constant([] as Pair[][]);
  const chosen = fc.tuple(filters, usual).map(([a, b]) => [...a, ...b]);
  const unknown = weighted<Pair[]>(
    [6, fc.constant([])],
    [1, fc.array(fc.record({ name: unknownName, value: weighted<Text | null>([4, nastyText], [1, rawEscape], [1, fc.constant(null)]) }), { minLength: 1, maxLength: 2 })],
  );
  return fc.tuple(chosen, unknown).map(([lists, more]) => [...lists.flat(), ...more]);
}

// ---------------------------------------------------------------- path parameters

function pathValue(op: Op, p: { name: string; schema: S }, owned: Record<string, number[]>): fc.Arbitrary<Text> {
  const s = resolve(p.schema);
  const collectables = op.path.startsWith("/v1/collectables");
  const known: string[] = collectables && owned[p.name] ? owned[p.name]!.map(String) : p.name === "token" ? (op.path.startsWith("/v1/lots") ? TOKENS.lots : TOKENS.artworks) : [];
  const nasty = fc.constantFrom(
    "0",
    "-1",
    "-9007199254740993",
    "9007199254740991",
    "9007199254740992",
    "99999999999999999999999999",
    "1e3",
    "1.5",
    "+1",
    " 1",
    "01",
    "0x1A",
    "１２",
    "Infinity",
    "NaN",
    "abc",
    "null",
    "true",
    "%",
    "",
    "..",
    ".",
    "a/b",
    "?x=1",
    "#frag",
  );
  return weighted<Text>(
    [s.type === "integer" ? (collectables ? 3 : 10) : 1, fc.integer({ min: 1, max: collectables ? 400 : idMax(p.name, 5000) }).map(String)],
    [known.length ? 8 : 0, fc.constantFrom(...(known.length ? known : ["1"]))],
    [3, nasty],
    [1, fc.constantFrom("%00", "%zz", "%2F", "%E0%A4%A", "%C0%AE", "1%00", "%FF", "1;2", "1,2", "%2e%2e").map((t) => new Raw(t))],
    [1, fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 })],
    [1, fc.tuple(fc.constantFrom(65, 5000, 100_000), fc.constantFrom("9", "a")).map(([n, ch]) => new Big(n, ch))],
  );
}

// ---------------------------------------------------------------- bodies

type Json = unknown;

/** Schema-shaped JSON: right types, within or near the bounds, with realistic ids. */
function validJson(s0: S, name = "", depth = 0): fc.Arbitrary<Json> {
  const s = resolve(s0);
  if (depth > 6) return fc.constant(null);
  if (FETCHED.has(name)) return SAFE_IMAGE_URL;
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  if (Array.isArray(s.anyOf)) return fc.oneof(...(s.anyOf as S[]).map((x) => validJson(x, name, depth + 1)));
  switch (s.type) {
    case "integer":
    case "number":
    case "boolean":
      return validText(name, s).map((t) => (s.type === "boolean" ? ["true", "1", "yes", "on"].includes(t) : Number(t)));
    case "string":
      return validText(name, s);
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(validJson(s.items ?? {}, name, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 5, 5) });
    case "object": {
      const props = (s.properties ?? {}) as Record<string, S>;
      const names = Object.keys(props);
      if (!names.length) return fc.constant({});
      return fc.record(Object.fromEntries(names.map((n) => [n, validJson(props[n]!, n, depth + 1)])), {
        requiredKeys: (s.required ?? []).filter((n: string) => names.includes(n)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** Values of the wrong kind or size for any field: null, huge numbers, control characters, nesting. */
const nastyJson: fc.Arbitrary<Json> = weighted<Json>(
  [2, fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 5e-324, 1e21, -0)],
  [1, fc.integer()],
  [1, fc.double({ noNaN: true, noDefaultInfinity: true })],
  [2, nastyText.map((t) => (t instanceof Raw ? t.text : t))],
  [1, controlString],
  [1, fc.jsonValue({ maxDepth: 2 })],
  [1, fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 4 })],
  [1, fc.tuple(fc.constantFrom(10, 31, 32, 33, 100, 1000, 10_000, 100_000), fc.constantFrom("array" as const, "object" as const)).map(([n, k]) => new Deep(n, k))],
);

const extraKey = weighted(
  [2, fc.constantFrom("__proto__", "constructor", "prototype", "id", "user_id", "extra", "", "a.b", "comps[0]")],
  [1, fc.string({ unit: "grapheme", minLength: 1, maxLength: 10 })],
).filter((k) => !FETCHED.has(k));

/** A JSON body for an object schema: valid, one field broken, extra fields, or not an object at all. */
function jsonBody(schema: S): fc.Arbitrary<Json> {
  const s = resolve(schema);
  const props = Object.keys(s.properties ?? {});
  const valid = validJson(s);
  const obj = (v: Json) => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, Json>) : {});
  return weighted<Json>(
    [6, valid],
    [
      props.length ? 4 : 0,
      fc
        .tuple(valid, fc.constantFrom(...(props.length ? props : ["x"])), nastyJson)
        .map(([v, k, bad]) => ({ ...obj(v), [k]: k === "image_url" && typeof bad === "string" ? "not a url" : bad })),
    ],
    [
      props.includes("comps") ? 2 : 0,
      fc.tuple(fc.array(validJson(resolve(s.properties?.comps ?? {}).items ?? {}), { minLength: 40, maxLength: 60 })).map(([comps]) => ({ comps })),
    ],
    [1, fc.tuple(valid, extraKey, nastyJson).map(([v, k, bad]) => ({ ...obj(v), [k]: bad }))],
    [2, nastyJson],
    [1, fc.constantFrom(1_048_577, 1_200_000).map((n) => ({ ...(props.includes("title") ? { title: new Big(n, "x") } : { padding: new Big(n, "x") }) }))],
  );
}

interface FilePart {
  field: string;
  content: string;
  filename: string;
  type: string;
}

type Body =
  | { kind: "json"; value: Json; contentType: string | null }
  | { kind: "text"; text: string; contentType: string | null }
  | { kind: "multipart"; fields: [string, Text][]; files: FilePart[] }
  | { kind: "urlencoded"; fields: [string, Text][] }
  | { kind: "none" };

const JSON_CONTENT_TYPES = fc.constantFrom<string | null>(
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  null,
  "application/x-www-form-urlencoded",
  "APPLICATION/JSON",
);

const rawBody: fc.Arbitrary<Body> = fc.record({
  kind: fc.constant("text" as const),
  text: fc.constantFrom(
    "",
    "{",
    '{"a":}',
    "nul",
    "[1,2",
    "\u0000",
    '{"a":1}garbage',
    "1e99999",
    '"\\ud800"',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    "a=1&b=2",
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
  ),
  contentType: fc.constantFrom<string | null>(
    "application/json",
    "text/plain",
    null,
    "multipart/form-data",
    "multipart/form-data; boundary=x",
    "multipart/form-data; boundary=",
    "application/x-www-form-urlencoded",
    "image/png",
    "application/xml",
  ),
});

function jsonOpBody(schema: S): fc.Arbitrary<Body> {
  return weighted<Body>(
    [12, jsonBody(schema).map((value) => ({ kind: "json" as const, value, contentType: "application/json" }))],
    [1, fc.tuple(validJson(schema), JSON_CONTENT_TYPES).map(([value, contentType]) => ({ kind: "json" as const, value, contentType }))],
    [1, rawBody],
    [1, fc.constant({ kind: "none" as const })],
  );
}

function formFields(fields: S): fc.Arbitrary<[string, Text][]> {
  const props = Object.entries((fields.properties ?? {}) as Record<string, S>);
  const required = new Set<string>(fields.required ?? []);
  const field = (name: string, s: S, valid: boolean): fc.Arbitrary<[string, Text][]> => {
    const r = resolve(s);
    if (r.type === "array") return listTexts(name, r, false).map((vs) => vs.map((v) => [name, v] as [string, Text]));
    return (valid ? validText(name, r) : scalarText(name, r, false)).map((v) => [[name, v] as [string, Text]]);
  };
  const pick = (valid: boolean) =>
    fc
      .subarray(
        props.filter(([n]) => !required.has(n)),
        { maxLength: Math.min(4, props.filter(([n]) => !required.has(n)).length) },
      )
      .chain((optional) => {
        const chosen = [...props.filter(([n]) => required.has(n)), ...optional];
        return chosen.length ? fc.tuple(...chosen.map(([n, s]) => field(n, s, valid))) : fc.constant([] as [string, Text][][]);
      })
      .map((lists) => lists.flat());
  const anyField = fc
    .subarray(props, { maxLength: Math.min(5, props.length) })
    .chain((chosen) => (chosen.length ? fc.tuple(...chosen.map(([n, s]) => field(n, s, false))).map((l) => l.flat()) : fc.constant([] as [string, Text][])));
  const unknown = fc.array(fc.tuple(extraKey, nastyText.map((t) => (t instanceof Raw ? t.text : t)) as fc.Arbitrary<Text>), { minLength: 1, maxLength: 2 });
  return weighted<[string, Text][]>([4, pick(true)], [3, pick(false)], [2, anyField], [1, fc.tuple(pick(true), unknown).map(([a, b]) => [...a, ...b])]);
}

const IMAGE_KINDS = ["png", "jpeg", "gif", "webp", "tiny", "bomb", "garbage", "text", "svg", "empty", "truncated"];

const GOOD_IMAGES = fc.constantFrom("png", "jpeg", "gif", "webp");

const filePart = (field: fc.Arbitrary<string>, content = weighted([4, GOOD_IMAGES], [3, fc.constantFrom(...IMAGE_KINDS)])): fc.Arbitrary<FilePart> =>
  fc.record({
    field,
    content,
    filename: fc.constantFrom("work.png", "", "x.jpg", "../../etc/passwd", "é😀.png", "a".repeat(300), "a\u0000b.png"),
    type: fc.constantFrom("image/png", "image/jpeg", "application/octet-stream", "text/plain", ""),
  });

function formOpBody(op: Op): fc.Arbitrary<Body> {
  const form = op.form!;
  const declared = form.files.length ? fc.constantFrom(...form.files) : fc.constant("image");
  const files = weighted<FilePart[]>(
    [3, fc.constant([])],
    [form.files.length ? 5 : 1, filePart(declared).map((f) => [f])],
    [1, fc.array(filePart(declared), { minLength: 2, maxLength: 2 })],
    [1, filePart(fc.constantFrom("photo", "title", "artist_id", "")).map((f) => [f])],
  );
  // search by image: one anchor, an uploaded picture, with valid or broken other fields
  const anchors = ["image_url", "collectable_id"];
  const search = op.key === "POST /v1/artworks/search-by-image";
  const notAnchors = { ...form.fields, properties: Object.fromEntries(Object.entries(form.fields.properties ?? {}).filter(([n]) => !anchors.includes(n))) };
  const picture = filePart(fc.constant("image"), GOOD_IMAGES).map((f) => [f]);
  return weighted<Body>(
    [search ? 5 : 0, fc.record({ kind: fc.constant("multipart" as const), fields: formFields(notAnchors), files: picture })],
    [8, fc.record({ kind: fc.constant("multipart" as const), fields: formFields(form.fields), files })],
    [3, jsonBody(form.fields).map((value) => ({ kind: "json" as const, value, contentType: "application/json" }))],
    [1, fc.record({ kind: fc.constant("urlencoded" as const), fields: formFields(form.fields) })],
    [1, rawBody],
    [1, fc.constant({ kind: "none" as const })],
  );
}

// ---------------------------------------------------------------- requests

const AUTH: [number, string][] = [
  [8, "enterprise#0"],
  [1, "enterprise#1"],
  [4, "pro#0"],
  [1, "pro#1"],
  [1, "sandbox#0"],
  [1, "sandbox#1"],
  [1, "sandbox#2"],
  [1.5, "none"],
  [0.5, "revoked"],
];
const authArb = weighted<string>(...AUTH.map(([w, label]) => [w * 4, fc.constant(label)] as [number, fc.Arbitrary<string>]), [
  4,
  fc.integer({ min: 0, max: MALFORMED_AUTH.length - 1 }).map((i) => `malformed#${i}`),
]);

const headersArb = weighted<Record<string, string>>(
  [12, fc.constant({})],
  [
    1,
    fc.constantFrom<Record<string, string>>(
      { Host: "evil.test" },
      { Host: "" },
      { Host: "a b" },
      { Host: "[::1]:8080" },
      { Host: "127.0.0.1:99999" },
      { Host: "x".repeat(300) },
      { "X-Forwarded-Host": "evil.test/path?x" },
      { "X-Forwarded-Host": "a b, c" },
      { "X-Forwarded-Proto": "javascript" },
      { "X-Forwarded-For": "not-an-ip, 1.2.3.4" },
      { "Content-Length": "99999999999" },
      { "Transfer-Encoding": "chunked" },
      { Accept: "text/html" },
      { Origin: "http://evil.test" },
    ),
  ],
);

/** The request's base URL host: mostly the test host, sometimes another form a Host header could take. */
const hostArb = weighted(
  [12, fc.constant("artmarket.test")],
  [1, fc.constantFrom("127.0.0.1:8080", "[::1]:3000", "EXAMPLE.TEST:80", "artmarket.test:65535", "xn--bcher-kva.test")],
);

class FuzzRequest {
  constructor(
    readonly op: Op,
    readonly host: string,
    readonly path: Record<string, Text>,
    readonly query: Pair[],
    readonly auth: string,
    readonly headers: Record<string, string>,
    readonly body: Body | null,
  ) {}

  /** The URL sent; `symbolic` writes long generated values as their recipe (seq(…), big(…)) for a report. */
  url(symbolic = false): string {
    const enc = (s: string) => encodeURIComponent(s.toWellFormed());
    const text = (v: Text) => (v instanceof Raw ? v.text : symbolic && (v instanceof Seq || v instanceof Big) ? `<${fc.stringify(v)}>` : enc(textOf(v)));
    const path = this.op.path.replace(/\{(\w+)\}/g, (_, n: string) => text(this.path[n]!));
    const qs = this.query.map((p) => (p.value === null ? enc(p.name) : `${enc(p.name)}=${text(p.value)}`)).join("&");
    return `http://${this.host}${path}${qs ? `?${qs}` : ""}`;
  }

  authorization(): string | undefined {
    if (this.auth === "none") return undefined;
    if (this.auth.startsWith("malformed#")) return MALFORMED_AUTH[Number(this.auth.slice(10))]!(KEYS);
    return `Bearer ${KEYS[this.auth]}`;
  }

  [fc.toStringMethod](): string {
    const lines = [`${this.op.method} ${short(this.url(true), 600)}`, `  auth: ${this.auth}`];
    if (Object.keys(this.headers).length) lines.push(`  headers: ${short(JSON.stringify(this.headers), 200)}`);
    if (this.body) lines.push(`  body: ${describeBody(this.body)}`);
    return lines.join("\n");
  }
}

function short(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}

/** JSON text for a value that may hold Deep and Big markers (expanded in the text, not in memory as objects). */
function jsonText(value: Json): string {
  const marks: string[] = [];
  const text = JSON.stringify(value, (_k, v) => {
    if (v instanceof Deep) return `\u0001MARK${marks.push(v.json()) - 1}\u0001`;
    if (v instanceof Big) return `\u0001MARK${marks.push(JSON.stringify(v.text())) - 1}\u0001`;
    return v;
  });
  if (text === undefined) return "";
  return text.replace(/"\\u0001MARK(\d+)\\u0001"/g, (_m, i: string) => marks[Number(i)]!);
}

function describeBody(b: Body): string {
  const fields = (fs: [string, Text][]) =>
    fs.map(([k, v]) => `${JSON.stringify(k)}=${v instanceof Big || v instanceof Seq ? fc.stringify(v) : short(JSON.stringify(textOf(v)), 200)}`).join(" ");
  switch (b.kind) {
    case "json":
      return `json (${b.contentType ?? "no Content-Type"}) ${short(fc.stringify(b.value), 800)}`;
    case "text":
      return `text (${b.contentType ?? "no Content-Type"}) ${JSON.stringify(b.text)}`;
    case "multipart":
      return `multipart ${fields(b.fields)} ${b.files.map((f) => `[file ${JSON.stringify(f.field)}: ${f.content}, ${JSON.stringify(short(f.filename, 40))}, ${f.type || "no type"}]`).join(" ")}`;
    case "urlencoded":
      return `urlencoded ${fields(b.fields)}`;
    case "none":
      return "none";
  }
}

function requestArb(op: Op, owned: Record<string, number[]>): fc.Arbitrary<FuzzRequest> {
  const path = fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, pathValue(op, p, owned)]))) as fc.Arbitrary<Record<string, Text>>;
  const body: fc.Arbitrary<Body | null> = op.form ? formOpBody(op) : op.json ? jsonOpBody(op.json) : fc.constant(null);
  const query = queryArb(op);
  const independent = fc.tuple(hostArb, path, query, authArb, headersArb, body).map(([host, p, q, auth, headers, b]) => new FuzzRequest(op, host, p, q, auth, headers, b));
  // a collectable route: half the time the caller's own record (and child), with the caller's key
  const mine = ownedPaths(op);
  if (!mine.length) return independent;
  const coherent = fc.tuple(hostArb, fc.constantFrom(...mine), query, headersArb, body).map(([host, m, q, headers, b]) => new FuzzRequest(op, host, m.path, q, m.auth, headers, b));
  return weighted([1, independent], [1, coherent]);
}

/** Refuses (as a bug of this test) any request that would make the service fetch from a non-loopback host. */
function assertSafe(r: FuzzRequest, url: string): void {
  const values = new URL(url).searchParams.getAll("image_url");
  const b = r.body;
  if (b && (b.kind === "multipart" || b.kind === "urlencoded")) values.push(...b.fields.filter(([k]) => k === "image_url").map(([, v]) => textOf(v)));
  if (b && b.kind === "json" && b.value !== null && typeof b.value === "object") {
    for (const name of FETCHED) {
      const v = (b.value as Record<string, unknown>)[name];
      for (const x of Array.isArray(v) ? v : [v]) if (typeof x === "string") values.push(x);
    }
  }
  if (b && b.kind === "text" && /image_url/.test(b.text)) throw new Error("fuzz bug: raw body names image_url");
  for (const v of values) if (!safeImageUrl(v)) throw new Error(`fuzz bug: unsafe image_url ${JSON.stringify(v)}`);
}

function buildRequest(r: FuzzRequest): Request {
  const url = r.url();
  assertSafe(r, url);
  const headers = new Headers();
  for (const [k, v] of Object.entries(r.headers)) headers.set(k, v);
  const auth = r.authorization();
  if (auth !== undefined) headers.set("Authorization", auth);
  let body: string | FormData | URLSearchParams | undefined;
  const b = r.body;
  if (b) {
    switch (b.kind) {
      case "json":
        body = jsonText(b.value);
        if (b.contentType) headers.set("Content-Type", b.contentType);
        break;
      case "text":
        body = b.text;
        if (b.contentType) headers.set("Content-Type", b.contentType);
        break;
      case "multipart": {
        const f = new FormData();
        for (const [k, v] of b.fields) f.append(k, textOf(v).toWellFormed());
        for (const p of b.files) f.append(p.field, new File([IMAGES[p.content]!], p.filename, { type: p.type }));
        body = f;
        break;
      }
      case "urlencoded": {
        const u = new URLSearchParams();
        for (const [k, v] of b.fields) u.append(k, textOf(v).toWellFormed());
        body = u;
        break;
      }
      case "none":
        break;
    }
  }
  return new Request(url, { method: r.op.method, headers, body });
}

// ---------------------------------------------------------------- the property

const ISSUE_KEYS = ["ctx", "input", "loc", "msg", "type"];

function contractProblems(status: number, contentType: string, text: string): string[] {
  const problems: string[] = [];
  if (status >= 500) problems.push(`status ${status} (must be < 500)`);
  let body: any;
  let parsed = false;
  if (/\bjson\b/i.test(contentType)) {
    try {
      body = JSON.parse(text);
      parsed = true;
    } catch (err) {
      problems.push(`Content-Type is JSON but the body does not parse: ${(err as Error).message}`);
    }
  }
  if (status >= 400 && status < 500) {
    if (!parsed) problems.push(`a ${status} without a JSON body (Content-Type ${contentType || "none"})`);
    else if (body === null || typeof body !== "object" || !("detail" in body)) problems.push(`a ${status} body without detail`);
    else if (status === 422) {
      if (!Array.isArray(body.detail) || body.detail.length === 0) problems.push("a 422 whose detail is not a non-empty array");
      else
        body.detail.forEach((i: any, n: number) => {
          const keys = i && typeof i === "object" ? Object.keys(i).sort() : [];
          if (JSON.stringify(keys) !== JSON.stringify(ISSUE_KEYS)) problems.push(`422 detail[${n}] has keys ${JSON.stringify(keys)}, not exactly loc, msg, type, input, ctx`);
          else {
            if (!Array.isArray(i.loc)) problems.push(`422 detail[${n}].loc is not an array`);
            if (typeof i.msg !== "string") problems.push(`422 detail[${n}].msg is not a string`);
            if (typeof i.type !== "string") problems.push(`422 detail[${n}].type is not a string`);
            if (i.ctx === null || typeof i.ctx !== "object" || Array.isArray(i.ctx)) problems.push(`422 detail[${n}].ctx is not an object`);
          }
        });
    } else if (typeof body.detail !== "string") problems.push(`a ${status} whose detail is not a string`);
  }
  return problems;
}

let requests = 0;
const statuses = new Map<number, number>();
/** Statuses per operation (printed with FUZZ_VERBOSE=1). */
const byOp: Record<string, Record<number, number>> = {};

async function check(r: FuzzRequest): Promise<void> {
  const request = buildRequest(r);
  const write = r.op.method !== "GET";
  const before = write ? snapshot() : null;
  let res: Response;
  try {
    res = await ctx.app.handle(request);
  } catch (err) {
    throw new Error(`app.handle threw: ${(err as Error)?.stack ?? err}`);
  }
  const text = await res.text();
  requests++;
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const mine = (byOp[r.op.key] ??= {});
  mine[res.status] = (mine[res.status] ?? 0) + 1;
  const contentType = res.headers.get("content-type") ?? "";
  const problems = contractProblems(res.status, contentType, text);
  if (before && res.status >= 400 && res.status < 500) {
    const after = snapshot();
    const changed = Object.keys(before).filter((t) => before[t] !== after[t]);
    if (changed.length) problems.push(`a refused ${r.op.method} (${res.status}) changed ${changed.join(", ")}`);
  }
  if (problems.length) {
    throw new Error(`${problems.join("; ")}\n  response: ${res.status} ${contentType}\n  ${short(text, 1500)}`);
  }
}

/**
 * The rate limiter on a virtual clock, 5 ms a request (200 a second): the same requests are
 * refused with 429 on every run however fast the machine is (now and then a sandbox user, 10 a
 * second, meets its limit), and not most of a burst as a real-time limiter would.
 */
class VirtualClockLimiter extends RateLimiter {
  private now = Date.UTC(2026, 10, 26);
  override check(caller: Caller): RateState {
    this.now += 5;
    return super.check(caller, this.now);
  }
}

/**
 * A fresh limiter (per operation, and per exchange of the socket test, which compares two calls), over
 * a table of 64 accounts: the default table (65,536 accounts, 9 MB) made anew each time cost the file
 * about 100,000 page faults and half a second of CPU.
 */
function freshLimiter(): void {
  (ctx.deps as { limiter: RateLimiter }).limiter = new VirtualClockLimiter(AccountCounters.create(64));
}

const started = performance.now();
console.log(`fuzz: set up in ${(performance.now() / 1000).toFixed(1)} s since start`);

for (const op of OPS) {
  test(
    `fuzz ${op.key}`,
    async () => {
      freshLimiter();
      await ensureSeed();
      freshLimiter();
      await fc.assert(fc.asyncProperty(requestArb(op, ownedIds()), check), {
        seed: SEED,
        numRuns: Math.round((RUNS_BY_OP[op.key] ?? RUNS) * SCALE),
        includeErrorInReport: true,
        plugins: [fc.interruptAfterTimeLimit(30_000 * SCALE)],
      });
    },
    120_000 * SCALE,
  );
}

// ---------------------------------------------------------------- the real socket: Host and request target

/** One raw HTTP/1.1 exchange on loopback (Host headers and request targets that fetch() would not send). */
function rawExchange(port: number, text: string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer within 10 s")));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("end", () => {
      const all = Buffer.concat(chunks).toString("latin1");
      const split = all.indexOf("\r\n\r\n");
      const head = split < 0 ? all : all.slice(0, split);
      let body = split < 0 ? "" : all.slice(split + 4);
      const headers = new Map(
        head
          .split("\r\n")
          .slice(1)
          .map((l) => [l.slice(0, l.indexOf(":")).trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) {
        let out = "";
        for (let at = 0; at < body.length; ) {
          const eol = body.indexOf("\r\n", at);
          const size = parseInt(body.slice(at, eol), 16);
          if (!(size > 0)) break;
          out += body.slice(eol + 2, eol + 2 + size);
          at = eol + 2 + size + 2;
        }
        body = out;
      }
      resolve({ status: Number(head.split(" ")[1]), contentType: headers.get("content-type") ?? "", body: Buffer.from(body, "latin1").toString("utf8") });
    });
    socket.write(text, "latin1");
  });
}

const HOST_HEADERS = fc.oneof(
  fc.constantFrom<string | null>(
    "artmarket.test",
    "127.0.0.1",
    "127.0.0.1:8080",
    "[::1]",
    "[::1]:3000",
    "x",
    "ab",
    "abc",
    "x:1",
    "a:",
    ":80",
    "x:99999",
    "x:0080",
    "[::1",
    "[zz]",
    "a..b",
    "-a",
    "a_b",
    "a b",
    "a/b",
    "a?b",
    "a#b",
    "user@host",
    "<x>",
    "evil.example/x",
    "",
    null,
    "x".repeat(262),
    `${"a".repeat(63)}.test`,
    "\u00e9.test",
    "a, b",
    "a.0",
    "x.0x1",
    "1.2.3.999",
    "1.2.3.4.5",
  ),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
);

test(
  "fuzz the real socket: any Host header and request target; a valid Host answers as in-process",
  async () => {
    const listener = listen((request) => ctx.app.handle(request), { port: 0, host: "127.0.0.1" });
    try {
      const owned = ownedIds();
      const gets = OPS.filter((o) => o.method === "GET");
      const arb = fc
        .tuple(
          fc.oneof(...gets.map((op) => requestArb(op, owned))),
          HOST_HEADERS,
          fc.constantFrom("origin", "absolute", "absolute-other-host"),
          fc.constantFrom("none", "enterprise#0", "pro#0"),
          fc.constantFrom("HTTP/1.1", "HTTP/1.0"),
        )
        .map(([r, host, form, auth, version]) => {
          const url = new URL(r.url());
          const target = url.pathname + url.search;
          const line = form === "origin" ? target : form === "absolute" ? `http://artmarket.test${target}` : `http://other.test:8080${target}`;
          return {
            target,
            line,
            host,
            auth,
            version,
            [fc.toStringMethod]: () => `GET ${short(line, 600)} ${version}\n  Host: ${host === null ? "(none)" : JSON.stringify(host)}\n  auth: ${auth}`,
          };
        });
      await fc.assert(
        fc.asyncProperty(arb, async ({ target, line, host, auth, version }) => {
          const key = auth === "none" ? null : KEYS[auth]!;
          freshLimiter();
          const head = `GET ${line} ${version}\r\n${host === null ? "" : `Host: ${host}\r\n`}${key ? `Authorization: Bearer ${key}\r\n` : ""}Connection: close\r\n\r\n`;
          const res = await rawExchange(listener.port, head);
          requests++;
          // HTTP/1.1 without Host: the runtime's own bare 400 (RFC 9112 §3.2), before the app is called
          if (host === null && version === "HTTP/1.1" && res.status === 400 && res.body === "") return;
          // a head over the runtime's limit (a URL past ours, which a JSON 414 answers up to that limit): its own empty 431
          if (Buffer.byteLength(head) > RUNTIME_HEAD_LIMIT && res.status === 431 && res.body === "") return;
          const problems = contractProblems(res.status, res.contentType, res.body);
          // the runtime strips the optional whitespace around a header value
          const sent = host?.replace(/^[ \t]+|[ \t]+$/g, "") ?? null;
          if (sent !== null && isValidHost(sent)) {
            freshLimiter();
            const inProcess = await ctx.app.handle(new Request(`http://artmarket.test${target}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} }));
            await inProcess.text();
            if (inProcess.status !== res.status) problems.push(`served with Host ${JSON.stringify(host)}: ${res.status}, in-process: ${inProcess.status}`);
          } else if (sent !== null && res.status !== 400) problems.push(`an invalid Host ${JSON.stringify(host)} answered ${res.status}, not 400`);
          if (problems.length) throw new Error(`${problems.join("; ")}\n  response: ${res.status} ${res.contentType}\n  ${short(res.body, 1500)}`);
        }),
        { seed: SEED, numRuns: Math.round(200 * SCALE), includeErrorInReport: true, plugins: [fc.interruptAfterTimeLimit(30_000 * SCALE)] },
      );
    } finally {
      await listener.drain(1000);
    }
  },
  120_000 * SCALE,
);

test("every operation of /openapi.json was fuzzed, and the service is healthy afterwards", async () => {
  expect(OPS.length).toBeGreaterThan(60);
  const res = await ctx.call("/healthcheck", { key: null });
  expect(res.status).toBe(200);
  const took = ((performance.now() - started) / 1000).toFixed(1);
  if (process.env.FUZZ_VERBOSE) for (const [op, counts] of Object.entries(byOp)) console.log(`  ${op}: ${JSON.stringify(counts)}`);
  console.log(`fuzz: ${OPS.length} operations, ${requests} requests in ${took} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
});
