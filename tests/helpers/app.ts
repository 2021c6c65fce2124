/**
 * The test fixture: one tiny market built by the generator into a temporary data directory,
 * the app driven in-process (app.handle), and keys on each plan.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { closeDeps, createApp, openDeps, type App } from "../../src/serve/app";
import { accountDbPath } from "../../src/db/connection";
import type { AppDeps } from "../../src/serve/http/endpoint";
import { seedMarket } from "../../src/build/seed";

export interface TestContext {
  dataDir: string;
  deps: AppDeps;
  app: App;
  keys: { sandbox: string; pro: string; enterprise: string };
  /** GET/POST… against the app in-process; `key` null sends no Authorization header. */
  call(path: string, init?: { key?: string | null; method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** A second connection to account.db, as another process (the CLI) would have. */
  otherConnection(): Database;
  close(): void;
}

export function tempDataDir(prefix = "artmarket-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

let tinyMarket: Promise<string> | null = null;

/**
 * The tiny market of the tests (image vectors included), built by the generator once per test
 * run and copied per context.
 */
/**
 * The tiny market's as-of date, fixed: the same rows whatever day the suite runs (the seed's
 * default is today, and a tiny market drawn on another day has other prices and sales).
 */
export const TINY_AS_OF = "2026-11-22";

export function tinyMarketDir(): Promise<string> {
  tinyMarket ??= (async () => {
    const dir = tempDataDir("artmarket-tiny-");
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    await seedMarket({ dataDir: dir, scale: "tiny", seed: 7, asOf: TINY_AS_OF, quiet: true });
    return dir;
  })();
  return tinyMarket;
}

export async function createTestContext(options: { bare?: boolean } = {}): Promise<TestContext> {
  const dataDir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  const deps = openDeps({ dataDir, port: 0, host: "127.0.0.1", publicUrl: "http://artmarket.test" }, options);
  const app = createApp(deps);
  const keys = {
    sandbox: (await createUserWithKey(deps.account, "sandbox", "sandbox tester")).key,
    pro: (await createUserWithKey(deps.account, "pro", "pro tester")).key,
    enterprise: (await createUserWithKey(deps.account, "enterprise", "enterprise tester")).key,
  };
  const others: Database[] = [];
  return {
    dataDir,
    deps,
    app,
    keys,
    call(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      const key = init.key === undefined ? keys.enterprise : init.key;
      if (key !== null) headers.Authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers["Content-Type"] = "application/json";
      }
      return app.handle(new Request(`http://artmarket.test${path}`, { method: init.method ?? "GET", headers, body }));
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
