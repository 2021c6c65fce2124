/**
 * The test fixture: one tiny market built by the generator into a temporary data directory,
 * the app driven in-process (app.handle), and keys on each plan.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cachedMarket } from "./market-cache";
import { setUpTestTemp } from "./temp";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { closeDeps, createApp, openSqliteDeps, type App, type SqliteAppDeps } from "../../src/serve/app";
import { accountDbPath, openAccountDb, openMarketForWrite } from "../../src/db/connection";
import { seedPlans } from "../../src/serve/accounts/plans";
import type { MountedEndpoint } from "../../src/serve/http/endpoint";
import type { AppDeps } from "../../src/serve/deps";
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { seedMarket, type SeedSummary } from "../../src/pipeline/seed";
import type { Config } from "../../src/platform/config";

/** Deps over the SQLite account store, whose account.db connection tests may read and write. */
export type SqliteDeps = SqliteAppDeps;

export interface TestContext {
  dataDir: string;
  deps: SqliteDeps;
  app: App;
  keys: { sandbox: string; pro: string; enterprise: string };
  /**
   * GET/POST… against the app in-process; `key` null sends no Authorization header. Every 2xx JSON
   * answer of a declared endpoint is checked against its response schema (the caller's: full or
   * public); a body that does not match fails the call (see expectedSchemas). Such a body is parsed
   * once: the test's json() gets the object the check read.
   */
  call(path: string, init?: { key?: string | null; method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** A second connection to account.db, as another process (the CLI) would have. */
  otherConnection(): Database;
  close(): void;
}

/** A fresh folder in the test process's temporary folder (tests/helpers/temp.ts: removed at exit at the latest). */
export function tempDataDir(prefix = "artmarket-test-"): string {
  setUpTestTemp();
  return mkdtempSync(join(tmpdir(), prefix));
}

let tinyMarket: Promise<string> | null = null;

/**
 * The tiny market's as-of date, fixed: the same rows whatever day the suite runs (the seed's
 * default is today, and a tiny market drawn on another day has other prices and sales).
 */
export const TINY_AS_OF = "2026-11-22";

/**
 * The tiny market of the tests (seed 7, image vectors included), built by the generator once and
 * kept between runs while the pipeline's sources stay the same (tests/helpers/market-cache.ts),
 * shared by every file and worker: a test reads it in place, or copies its files into a folder of
 * its own before it writes (createTestContext does).
 */
export function tinyMarketDir(): Promise<string> {
  tinyMarket ??= (async () => {
    // kept between runs while the pipeline's sources are the same (market-cache.ts)
    const options = { scale: "tiny", seed: 7, asOf: TINY_AS_OF } as const;
    const { dir, built } = await cachedMarket("tiny", options, (dataDir) => seedMarket({ dataDir, ...options, quiet: true }));
    tinySummary = built;
    return dir;
  })();
  return tinyMarket;
}

let tinySummary: SeedSummary | null = null;

let nextTinyMarket: Promise<string> | null = null;

/**
 * A second tiny market, another seed (8) as of the same date, without image vectors: the next
 * snapshot of the tests that publish one over the tiny market. Kept like the tiny market, and as
 * shared: read it, copy what is to change, never write or remove it.
 */
export function nextTinyMarketDir(): Promise<string> {
  nextTinyMarket ??= (async () => {
    const options = { scale: "tiny", seed: 8, asOf: TINY_AS_OF, embed: false } as const;
    return (await cachedMarket("tiny-next", options, (dataDir) => seedMarket({ dataDir, ...options, quiet: true }))).dir;
  })();
  return nextTinyMarket;
}

/** The tiny market's seed summary (its embedding's included), for tests that would otherwise redo a step. */
export async function tinyMarketSummary(): Promise<SeedSummary> {
  await tinyMarketDir();
  return tinySummary!;
}

let accountTemplate: Promise<{ path: string; keys: TestContext["keys"] }> | null = null;

/**
 * The account.db each context starts from, made once per test process: migrated, its plans seeded,
 * and the users sandbox, pro and enterprise (ids 1, 2, 3) with a key each. A context copies it, so
 * every context of a process has the same three keys, each in a file of its own; making them anew
 * for each context cost three argon2 hashes (about 12 ms of CPU each) and the migrations.
 */
function accountTemplateOf(): Promise<{ path: string; keys: TestContext["keys"] }> {
  accountTemplate ??= (async () => {
    const dir = tempDataDir("artmarket-account-template-");
    const db = openAccountDb(dir);
    seedPlans(db);
    const keys = {
      sandbox: (await createUserWithKey(db, "sandbox", "sandbox tester")).key,
      pro: (await createUserWithKey(db, "pro", "pro tester")).key,
      enterprise: (await createUserWithKey(db, "enterprise", "enterprise tester")).key,
    };
    // the rows into account.db itself: the copies take the file alone (a close with statements
    // still cached may leave them in the WAL)
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close();
    return { path: accountDbPath(dir), keys };
  })();
  return accountTemplate;
}

export interface TestContextOptions {
  bare?: boolean;
  config?: Partial<Config>;
  /** The data directory whose market.db this context serves a copy of (default: the tiny market). */
  market?: string;
  /**
   * Changes the copy before the app opens it (a served market is never written in place: its
   * reader holds a lock that refuses a writer, src/db/connection.ts openMarketReader).
   */
  prepareMarket?: (db: Database) => void;
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const dataDir = tempDataDir();
  // the tiny market, or the market.db of another data directory (`market`)
  copyFileSync(join(options.market ?? (await tinyMarketDir()), "market.db"), join(dataDir, "market.db"));
  if (options.prepareMarket) {
    const db = openMarketForWrite(join(dataDir, "market.db"), dataDir);
    try {
      options.prepareMarket(db);
    } finally {
      db.close();
    }
  }
  const template = await accountTemplateOf();
  copyFileSync(template.path, accountDbPath(dataDir));
  const deps = openSqliteDeps({ dataDir, port: 0, host: "127.0.0.1", publicUrl: "http://artmarket.test", ...options.config }, options);
  const app = createApp(deps);
  const keys = { ...template.keys };
  const others: Database[] = [];
  return {
    dataDir,
    deps,
    app,
    keys,
    async call(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      const key = init.key === undefined ? keys.enterprise : init.key;
      if (key !== null) headers.Authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers["Content-Type"] = "application/json";
      }
      const method = init.method ?? "GET";
      const res = await app.handle(new Request(`http://artmarket.test${path}`, { method, headers, body }));
      const expected = expectedSchemas(app, deps, method, path, key, res);
      if (!expected) return res;
      // the body read and parsed once: the check reads the object that the test's json() gets
      const text = await res.text();
      const parsed: unknown = JSON.parse(text);
      assertMatches(expected, method, path, parsed);
      return withParsedJson(res, text, parsed);
    },
    otherConnection() {
      const db = new Database(accountDbPath(dataDir));
      db.run("PRAGMA busy_timeout = 5000");
      others.push(db);
      return db;
    },
    close() {
      for (const db of others) db.close();
      closeDeps(deps);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- responses against their schemas

/** Each endpoint's path as a pattern, and its number of {params}: made once per endpoint and run. */
const pathPatterns = new WeakMap<MountedEndpoint, { pattern: RegExp; params: number }>();

/** The mounted endpoint that answers `method path` (literal segments before {params}, as the router does). */
export function endpointFor(app: App, method: string, path: string): MountedEndpoint | undefined {
  const pathname = new URL(path, "http://artmarket.test").pathname;
  let best: { e: MountedEndpoint; params: number } | undefined;
  for (const e of app.endpoints) {
    if (e.method !== method.toUpperCase()) continue;
    let p = pathPatterns.get(e);
    if (!p) {
      p = {
        pattern: new RegExp(`^${e.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{\w+\\?\}/g, "[^/]+")}$`),
        params: (e.path.match(/\{/g) ?? []).length,
      };
      pathPatterns.set(e, p);
    }
    if (!p.pattern.test(pathname)) continue;
    if (!best || p.params < best.params) best = { e, params: p.params };
  }
  return best?.e;
}

/** Formats the schemas use, as patterns: TypeBox's Value.Check knows no format unless registered, and the app registers none. */
const FORMAT_PATTERNS: Record<string, string> = {
  date: "^\\d{4}-\\d{2}-\\d{2}$",
  "date-time": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$",
  uri: "^[A-Za-z][A-Za-z0-9+.-]*:[^\\s]*$",
};
const checkable = new WeakMap<object, TSchema>();

/** A copy of a schema with each `format` turned into the equivalent `pattern` (Kind symbols kept). */
function withoutFormats(schema: TSchema): TSchema {
  const known = checkable.get(schema);
  if (known) return known;
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(copy);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string | symbol, unknown> = {};
    for (const k of Reflect.ownKeys(v)) {
      const x = (v as Record<string | symbol, unknown>)[k];
      if (k === "format" && typeof x === "string") {
        const pattern = FORMAT_PATTERNS[x];
        if (pattern === undefined) throw new Error(`response check: no pattern for format ${x}`);
        if (!("pattern" in v)) out.pattern = pattern;
        continue;
      }
      out[k] = copy(x);
    }
    return out;
  };
  const result = copy(schema) as TSchema;
  checkable.set(schema, result);
  return result;
}

const compiled = new WeakMap<object, TypeCheck<TSchema> | null>();

/**
 * Whether `body` matches `schema` (its formats as patterns): TypeBox's compiled check, built once
 * per schema and test run (the module is shared by every file of the run), the same verdict as
 * Value.Check without walking the schema again on every answer; a schema the compiler refuses is
 * checked by Value.Check.
 */
function matches(schema: TSchema, body: unknown): boolean {
  let check = compiled.get(schema);
  if (check === undefined) {
    try {
      check = TypeCompiler.Compile(withoutFormats(schema));
    } catch {
      check = null;
    }
    compiled.set(schema, check);
  }
  return check ? check.Check(body) : Value.Check(withoutFormats(schema), body);
}

/**
 * The response schema of a key's plan, read from account.db by the key's kid (not through the
 * verifier: its cache and version checks are the server's state, which a test must not move).
 */
function schemaOfKey(deps: AppDeps, key: string): "full" | "public" | undefined {
  const kid = /^am_([0-9a-f]+)_/.exec(key)?.[1];
  if (!kid) return undefined;
  const row = deps.accounts.findKeyByKid(kid);
  const schema = row ? deps.accounts.getPlan(row.plan_slug)?.features.schema : undefined;
  return schema === "full" || schema === "public" ? schema : undefined;
}

/** What a response must match: its endpoint and the schemas, one of which it must match. */
interface ExpectedSchemas {
  e: MountedEndpoint;
  schemas: TSchema[];
}

/**
 * The schemas a 2xx JSON answer of a declared endpoint must match (one of them): the public one for
 * a caller on the public schema (no key, a sandbox key, a public route), else the full one; a key
 * whose plan's schema cannot be read accepts either. Null for any other answer.
 */
function expectedSchemas(app: App, deps: AppDeps, method: string, path: string, key: string | null, res: Response): ExpectedSchemas | null {
  if (!res.ok || res.status === 204 || !(res.headers.get("content-type") ?? "").includes("application/json")) return null;
  const e = endpointFor(app, method, path);
  if (!e?.response) return null;
  const { full, public: reduced } = e.response;
  const planSchema = key === null ? undefined : schemaOfKey(deps, key);
  const schemas = deps.bare
    ? [full]
    : e.auth === "public" || key === null
      ? [reduced ?? full]
      : planSchema
        ? [planSchema === "full" ? full : (reduced ?? full)]
        : [full, reduced ?? full];
  return { e, schemas };
}

/** Throws, with the first differences, when `body` matches none of the expected schemas. */
function assertMatches({ e, schemas }: ExpectedSchemas, method: string, path: string, body: unknown): void {
  if (schemas.some((s) => matches(s, body))) return;
  const errors = [...Value.Errors(withoutFormats(schemas[0]!), body)].slice(0, 10).map((x) => `  ${x.path || "/"}: ${x.message} (got ${JSON.stringify(x.value)?.slice(0, 80)})`);
  const which = schemas.length > 1 ? "full or public" : schemas[0] === e.response!.full ? "full" : "public";
  throw new Error(`${method} ${path}: the response does not match the ${e.method} ${e.path} schema (${which}):\n${errors.join("\n")}`);
}

/**
 * Fails (throws) when a 2xx JSON answer of a declared endpoint does not match its response schema
 * (expectedSchemas). Reads a clone of the body: `res` is left unread.
 */
export async function checkResponse(app: App, deps: AppDeps, method: string, path: string, key: string | null, res: Response): Promise<void> {
  const expected = expectedSchemas(app, deps, method, path, key, res);
  if (expected) assertMatches(expected, method, path, await res.clone().json());
}

/**
 * The answer again, its body `text`, whose `json()` gives `parsed` (the object the check read)
 * rather than parsing the text a second time; it reads the body as json() would, so a second read
 * fails as it does on any response.
 */
function withParsedJson(res: Response, text: string, parsed: unknown): Response {
  const out = new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  const read = out.text.bind(out);
  Object.defineProperty(out, "json", {
    value: async () => {
      await read();
      return parsed;
    },
  });
  return out;
}
