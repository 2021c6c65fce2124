/**
 * A DU a client saw in a header is never lost: run the real server, make requests, SIGKILL it
 * right after the last response, and find every header's DU in the ledger.
 */
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { seedPlans } from "../../src/serve/accounts/plans";
import { openAccountDb } from "../../src/db/connection";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { firstStartSeed } from "../../src/cli";
import { ConfigError, DEFAULT_SEED } from "../../src/platform/config";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

/** The first start's demo market, cut to tiny without embeddings for the test. */
const DEMO_ENV = { ARTMARKET_DEMO_SCALE: "tiny", ARTMARKET_DEMO_EMBED: "0" };

async function startServer(dataDir: string, env: Record<string, string> = {}) {
  const proc = Bun.spawn([...ARTMARKET, "serve", "--data", dataDir, "--port", "0"], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${await new Response(proc.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  const first = text.split("\n")[0]!;
  expect(first).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
  /** Everything the server printed on stdout, once it has exited. */
  const rest = async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += new TextDecoder().decode(value);
    }
  };
  /** Reads stdout until it matches `re` (or the server exits). */
  const until = async (re: RegExp) => {
    while (!re.test(text)) {
      const { value, done } = await reader.read();
      if (done) return;
      text += new TextDecoder().decode(value);
    }
  };
  return { proc, url: first.replace("listening on ", ""), rest, until };
}

test("every DU seen in a header is in the ledger after SIGKILL", async () => {
  const dataDir = tempDataDir();
  try {
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
    const db = openAccountDb(dataDir);
    seedPlans(db);
    const { key, userId } = await createUserWithKey(db, "enterprise", "durability");
    db.close();

    const { proc, url } = await startServer(dataDir);
    let seen = 0;
    let requests = 0;
    const paths = ["/v1/categories", "/v1/auction-houses", "/v1/currencies", "/v1/usage"];
    // sequential and concurrent requests, so both single commits and group commits are covered
    for (let round = 0; round < 5; round++) {
      const batch = await Promise.all(paths.map((p) => fetch(`${url}${p}`, { headers: { Authorization: `Bearer ${key}` } })));
      for (const res of batch) {
        expect(res.status).toBe(200);
        seen += Number(res.headers.get("X-Service-DataUnits"));
        requests++;
        await res.arrayBuffer();
      }
    }
    proc.kill("SIGKILL");
    await proc.exited;

    const after = new Database(join(dataDir, "account.db"));
    const row = after.query("SELECT count(*) AS n, sum(du) AS du FROM du_ledger WHERE user_id = ?").get(userId) as {
      n: number;
      du: number;
    };
    const daily = after.query("SELECT sum(du) AS du, sum(requests) AS n FROM du_daily WHERE user_id = ?").get(userId) as {
      n: number;
      du: number;
    };
    after.close();
    expect(seen).toBe(15);
    expect(row).toEqual({ n: requests, du: seen });
    expect(daily).toEqual({ n: requests, du: seen });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

test("the first start's demo market is small with its images embedded, unless ARTMARKET_DEMO_SCALE / ARTMARKET_DEMO_EMBED say otherwise", () => {
  expect(firstStartSeed("/d", {})).toEqual({ dataDir: "/d", scale: "small", embed: true, seed: DEFAULT_SEED });
  expect(firstStartSeed("/d", { ARTMARKET_DEMO_SCALE: "", ARTMARKET_DEMO_EMBED: "" })).toMatchObject({ scale: "small", embed: true });
  expect(firstStartSeed("/d", { ARTMARKET_DEMO_SCALE: "tiny", ARTMARKET_DEMO_EMBED: "0" })).toMatchObject({ scale: "tiny", embed: false });
  expect(() => firstStartSeed("/d", { ARTMARKET_DEMO_SCALE: "huge" })).toThrow(ConfigError);
  expect(() => firstStartSeed("/d", { ARTMARKET_DEMO_EMBED: "maybe" })).toThrow(ConfigError);
});

test("serve on an empty data directory seeds, prints the listening line first and a key once", async () => {
  const dataDir = tempDataDir();
  try {
    // the first-start flow on the tiny market without embeddings (the default, small with its
    // images embedded, is the unit check above: about a minute on two busy cores)
    const first = await startServer(dataDir, DEMO_ENV);
    const firstOut = await (async () => {
      await first.until(/^am_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/m);
      first.proc.kill("SIGTERM");
      await first.proc.exited;
      return first.rest();
    })();
    const key = firstOut.match(/^am_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/m)?.[0];
    expect(key).toBeDefined();
    expect(firstOut.trim().split("\n").at(-1)).toBe(key!);

    const second = await startServer(dataDir, DEMO_ENV);
    const res = await fetch(`${second.url}/v1/categories`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    second.proc.kill("SIGTERM");
    await second.proc.exited;
    expect(await second.rest()).not.toMatch(/am_[0-9a-f]{16}_/);
    const db = new Database(join(dataDir, "account.db"));
    const users = db.query("SELECT plan_slug FROM users").all();
    db.close();
    expect(users).toEqual([{ plan_slug: "enterprise" }]);
    const market = new Database(join(dataDir, "market.db"), { readonly: true });
    const scale = market.query("SELECT value FROM market_meta WHERE key = 'scale'").get();
    market.close();
    expect(scale).toEqual({ value: "tiny" });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
