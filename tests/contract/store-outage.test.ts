/**
 * The PostgreSQL account store out of reach: calls answer 503 with Retry-After (not a 500), and
 * errors of a statement that did run stay what they are.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { PgError } from "../../src/db/pg/sync-client";
import { accountStoreUnreachable, closeDeps, createApp, errorResponse, openDeps } from "../../src/serve/app";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { database, stopPostgres } from "../helpers/postgres";

afterAll(stopPostgres);

test("which errors mean the store is out of reach", () => {
  expect(accountStoreUnreachable(new PgError("PostgreSQL did not answer within 30 s", null))).toBe(true);
  expect(accountStoreUnreachable(Object.assign(new Error("Connection closed"), { code: "ERR_POSTGRES_CONNECTION_CLOSED" }))).toBe(true);
  expect(accountStoreUnreachable(new PgError("the database system is shutting down", "57P03"))).toBe(true);
  expect(accountStoreUnreachable(new PgError("connection failure", "08006"))).toBe(true);
  expect(accountStoreUnreachable(new PgError('duplicate key value violates unique constraint "t_s_key"', "23505"))).toBe(false);
  expect(accountStoreUnreachable(new Error("boom"))).toBe(false);
  const res = errorResponse("UNKNOWN", new PgError("PostgreSQL did not answer within 30 s", null));
  expect(res.status).toBe(503);
  expect(res.headers.get("Retry-After")).toBe("5");
});

test("a node whose PostgreSQL went away answers 503 with Retry-After", async () => {
  const url = await database("outage");
  const dataDir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  const deps = openDeps({ dataDir, port: 0, host: "127.0.0.1", publicUrl: "http://artmarket.test", accountStore: url });
  const app = createApp(deps);
  try {
    const { key } = await deps.accounts.createUserWithKey("pro", "outage");
    const call = () => app.handle(new Request("http://artmarket.test/v1/categories", { headers: { Authorization: `Bearer ${key}` } }));
    expect((await call()).status).toBe(200);
    await stopPostgres();
    const res = await call();
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("5");
    expect(((await res.json()) as { detail: string }).detail).toContain("account store");
  } finally {
    try {
      closeDeps(deps);
    } catch {
      // the store's connection is gone already
    }
  }
}, 60_000);
