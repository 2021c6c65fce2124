/**
 * The PostgreSQL account store out of reach: every connection-class failure, on SyncPg's path
 * and on the hot path's asynchronous client alike, answers 503 with Retry-After (never a 500),
 * errors of a statement that did run stay what they are, and an outage is logged once with a
 * count, not per request.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { StoreOutage, storeOutage, storeUnreachable } from "../../src/db/pg/outage";
import { PgError } from "../../src/db/pg/sync-client";
import { accountStoreUnreachable, closeDeps, createApp, errorResponse, openDeps } from "../../src/serve/app";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { type PostgresServer, startPostgres } from "../helpers/postgres";

// a server of this file's own: the test stops it, and the other files' shared one runs on
let server: PostgresServer | null = null;
afterAll(() => server?.stop());

/** An error as Bun's asynchronous client throws it: its code, and the SQLSTATE in `errno` for a server error. */
function bunError(message: string, code: string, errno?: string): Error {
  return Object.assign(new Error(message), { name: "PostgresError", code, ...(errno ? { errno } : {}) });
}

test("which errors mean the store is out of reach", async () => {
  const reachable = [
    new PgError("PostgreSQL did not answer within 30 s", null),
    new PgError("the PostgreSQL connection is closed", null),
    new PgError("the database system is shutting down", "57P03"),
    new PgError("terminating connection due to administrator command", "57P01"),
    new PgError("connection failure", "08006"),
    new PgError("Connection closed", "ERR_POSTGRES_CONNECTION_CLOSED"),
    // the hot path: Bun's client puts the SQLSTATE in errno
    bunError("the database system is shutting down", "ERR_POSTGRES_SERVER_ERROR", "57P03"),
    bunError("the database system is starting up", "ERR_POSTGRES_SERVER_ERROR", "57P03"),
    bunError("terminating connection due to administrator command", "ERR_POSTGRES_SERVER_ERROR", "57P01"),
    bunError("terminating connection because of crash of another server process", "ERR_POSTGRES_SERVER_ERROR", "57P02"),
    bunError("sorry, too many clients already", "ERR_POSTGRES_SERVER_ERROR", "53300"),
    bunError("connection does not exist", "ERR_POSTGRES_SERVER_ERROR", "08003"),
    bunError("Connection closed", "ERR_POSTGRES_CONNECTION_CLOSED"),
    bunError("Failed to connect", "ERR_POSTGRES_CONNECTION_REFUSED"),
    bunError("Connection timeout", "ERR_POSTGRES_CONNECTION_TIMEOUT"),
    bunError("Idle timeout", "ERR_POSTGRES_IDLE_TIMEOUT"),
    bunError("socket reset", "ECONNRESET"),
    new Error("request failed", { cause: bunError("Connection closed", "ERR_POSTGRES_CONNECTION_CLOSED") }),
  ];
  const failed = [
    new PgError('duplicate key value violates unique constraint "t_s_key"', "23505"),
    new PgError("canceling statement due to statement timeout", "57014"),
    bunError("division by zero", "ERR_POSTGRES_SERVER_ERROR", "22012"),
    bunError("relation does not exist", "ERR_POSTGRES_SERVER_ERROR", "42P01"),
    bunError("syntax error", "ERR_POSTGRES_SYNTAX_ERROR"),
    Object.assign(new Error("connect ECONNREFUSED"), { errno: -111 }),
    new Error("connection string is malformed"),
    new Error("boom"),
    null,
    "ECONNRESET",
  ];
  expect(reachable.filter((e) => !accountStoreUnreachable(e))).toEqual([]);
  expect(failed.filter((e) => storeUnreachable(e))).toEqual([]);
  const quiet = console.error;
  console.error = () => {};
  try {
    for (const error of [new PgError("PostgreSQL did not answer within 30 s", null), bunError("shutting down", "ERR_POSTGRES_SERVER_ERROR", "57P03")]) {
      const res = errorResponse("UNKNOWN", error);
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("5");
    }
    expect(errorResponse("UNKNOWN", bunError("division by zero", "ERR_POSTGRES_SERVER_ERROR", "22012")).status).toBe(500);
    expect(storeOutage.active).toBe(true);
    expect(storeOutage.count).toBe(2);
    storeOutage.answered(); // this thread's record ends here, not at the next test's first statement
    for (let waited = 0; storeOutage.active && waited < 5_000; waited += 100) await Bun.sleep(100);
    expect(storeOutage.active).toBe(false);
  } finally {
    console.error = quiet;
  }
});

test("an outage is logged when it starts, once a minute while it lasts, and when it ends, with a count", () => {
  const lines: string[] = [];
  let now = 1_000_000;
  const outage = new StoreOutage(
    (line) => lines.push(line),
    () => now,
    0,
  );
  outage.answered();
  expect(lines).toEqual([]);
  for (let i = 0; i < 500; i++) {
    outage.failure(bunError("the database system is shutting down", "ERR_POSTGRES_SERVER_ERROR", "57P03"));
    now += 10;
  }
  expect(lines.length).toBe(1);
  expect(lines[0]).toContain("account store unreachable: the database system is shutting down (57P03)");
  now += 60_000;
  outage.failure(new PgError("Failed to connect", "ERR_POSTGRES_CONNECTION_REFUSED"));
  expect(lines.length).toBe(2);
  expect(lines[1]).toContain("501 request(s) answered 503 so far");
  expect(outage.active).toBe(true);
  outage.answered();
  outage.answered();
  expect(lines.length).toBe(3);
  expect(lines[2]).toMatch(/answers again after 65\.0 s: 501 request\(s\) were answered 503 meanwhile/);
  expect(outage.active).toBe(false);
  outage.failure(new PgError("PostgreSQL did not answer within 30 s", null));
  expect(lines.length).toBe(4);
  expect(outage.outages).toBe(2);
});

test("an outage ends once the store has answered for a while with no request failing", async () => {
  const lines: string[] = [];
  const outage = new StoreOutage((line) => lines.push(line), Date.now, 100);
  const cut = new PgError("terminating connection due to administrator command", "57P01");
  outage.failure(cut);
  // connections cut one by one: some statements answer while others still fail
  outage.answered();
  outage.failure(cut);
  await Bun.sleep(150);
  expect(outage.active).toBe(true);
  expect(lines.length).toBe(1);
  outage.answered();
  outage.answered();
  await Bun.sleep(150);
  expect(outage.active).toBe(false);
  expect(lines.length).toBe(2);
  expect(lines[1]).toContain("2 request(s) were answered 503 meanwhile");
});

/** Sends `calls` on `clients` loops at once; returns every response's status and Retry-After. */
async function load(send: (i: number) => Promise<Response>, clients: number, until: () => boolean): Promise<{ status: number; retryAfter: string | null }[]> {
  const seen: { status: number; retryAfter: string | null }[] = [];
  let i = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!until()) {
        const res = await send(i++);
        await res.arrayBuffer();
        seen.push({ status: res.status, retryAfter: res.headers.get("Retry-After") });
      }
    }),
  );
  return seen;
}

test("a node whose PostgreSQL goes away under load answers 503 with Retry-After, never 500, and logs the outage once", async () => {
  server = await startPostgres();
  const url = await server.database("outage");
  const dataDir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  const deps = openDeps({ dataDir, port: 0, host: "127.0.0.1", publicUrl: "http://artmarket.test", accountStore: url });
  const app = createApp(deps);
  const logged: string[] = [];
  const { error, warn } = console;
  try {
    const { key } = await deps.accounts.createUserWithKey("enterprise", "outage");
    // the hot path (rate limit and ledger on the asynchronous client) and SyncPg's (the usage windows)
    const paths = ["/v1/categories", "/v1/usage", "/v1/currencies", "/v1/collectables"];
    const send = (i: number) => app.handle(new Request(`http://artmarket.test${paths[i % paths.length]}`, { headers: { Authorization: `Bearer ${key}` } }));
    for (let i = 0; i < paths.length; i++) expect((await send(i)).status).toBe(200);
    console.error = (...args: unknown[]) => void logged.push(args.map(String).join(" "));
    console.warn = console.error;

    // every connection of the database cut under load: whatever failed is a 503, then it answers
    const admin = new Bun.SQL(server.url("postgres"), { max: 1 });
    let cut = false;
    const cutting = load(send, 8, () => cut);
    await Bun.sleep(200);
    await admin.unsafe("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [new URL(url).pathname.slice(1)]);
    await Bun.sleep(500);
    cut = true;
    await admin.close();
    const around = await cutting;
    // (eight clients without a pause pass the enterprise plan's per-second rate on a quiet machine:
    // its 429s, with their Retry-After, are the rate limit at work, not an answer to the outage)
    const rateLimited = (r: { status: number; retryAfter: string | null }) => r.status === 429 && r.retryAfter !== null;
    expect(around.filter((r) => r.status !== 200 && !rateLimited(r) && (r.status !== 503 || r.retryAfter !== "5"))).toEqual([]);
    expect(around.some((r) => r.status === 503 || r.status === 200)).toBe(true);
    await Bun.sleep(1100); // the rate window the load may have filled
    for (let i = 0; i < paths.length; i++) expect((await send(i)).status).toBe(200);
    // an outage, if the cut caused one, was logged once and its end once (after a second of answers)
    for (let waited = 0; logged.length === 1 && waited < 10_000; waited += 100) {
      await send(0);
      await Bun.sleep(100);
    }
    expect(logged.length).toBeLessThanOrEqual(2);
    if (logged.length) expect(logged.at(-1)).toContain("account store answers again");
    logged.length = 0;

    // the server stopped (fast shutdown: 57P01, 57P03, then refused connections) under load
    let stopped = false;
    let after = 0;
    const during = load(
      async (i) => {
        if (stopped) after++;
        return send(i);
      },
      8,
      () => after >= 400,
    );
    await Bun.sleep(200);
    await server.stop();
    stopped = true;
    const seen = await during;
    const unavailable = seen.filter((r) => r.status === 503);
    expect(seen.filter((r) => r.status === 500).length).toBe(0);
    // (the load before the stop may fill the plan's per-second rate, as above)
    expect(seen.filter((r) => r.status !== 200 && r.status !== 503 && !rateLimited(r))).toEqual([]);
    expect(unavailable.length).toBeGreaterThanOrEqual(400);
    expect(unavailable.filter((r) => r.retryAfter !== "5")).toEqual([]);
    // one line for the whole outage, however many requests it refused
    expect(logged.length).toBe(1);
    expect(logged[0]).toContain("account store unreachable");
  } finally {
    console.error = error;
    console.warn = warn;
    try {
      closeDeps(deps);
    } catch {
      // the store's connection is gone already
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
