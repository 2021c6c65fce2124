/**
 * bench/api's data: the market (reused from a data dir, or seeded there once) and, per run, a
 * scratch data dir that serves it: market.db hard-linked (never written: the service opens it
 * read-only), a fresh account.db with the `bench` plan (enterprise with unbounded request rates
 * and allowance, so 429s never skew the measure), the bench user and its key, and its follows.
 * The market's own data dir is left as it was.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync } from "node:fs";
import { linkMarket } from "./linked-market";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createUserWithKey, type CreatedKey } from "../../src/serve/accounts/keys";
import { seedPlans } from "../../src/serve/accounts/plans";
import { marketDbPath, openAccountDb } from "../../src/db/connection";
import type { Follows } from "./api-cases";

const ROOT = resolve(import.meta.dir, "../..");

export function marketScale(dataDir: string): string | null {
  const path = marketDbPath(dataDir);
  if (!existsSync(path)) return null;
  const db = new Database(path, { readonly: true });
  try {
    return db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'scale'").get()?.value ?? null;
  } finally {
    db.close();
  }
}

/**
 * The market to measure: `dataDir` as it is when it holds a market of `scale` (any scale when
 * `anyScale`), else seeded there with `bun src/cli.ts seed` (large: several minutes; bounded).
 */
export async function ensureMarket(dataDir: string, scale: string, anyScale: boolean, log: (s: string) => void): Promise<string> {
  const found = marketScale(dataDir);
  if (found !== null && (anyScale || found === scale)) return found;
  if (found !== null) throw new Error(`${dataDir} holds a ${found} market, not ${scale}: pass --data DIR for another one`);
  // a market that names no scale (imported, or merged since its seed) is measured as it is, never seeded over
  if (existsSync(marketDbPath(dataDir))) {
    if (anyScale) return "unnamed";
    throw new Error(`${dataDir} holds a market that names no scale (imported or merged): pass it with --data DIR`);
  }
  log(`no market in ${dataDir}: seeding --scale ${scale} (kept for later runs)`);
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/cli.ts"), "seed", "--scale", scale, "--data", dataDir], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const killer = setTimeout(() => proc.kill("SIGKILL"), 3 * 3600 * 1000);
  const code = await proc.exited;
  clearTimeout(killer);
  if (code !== 0) throw new Error(`seed --scale ${scale} exited with ${code}`);
  return marketScale(dataDir) ?? scale;
}

export interface RunDir {
  dir: string;
  key: string;
  userId: number;
  /** How market.db got there: "hard link" or "symlink". */
  linked: string;
}

/** Plan `bench`: enterprise, with rps/rpm limits and allowance of 10⁹ (10¹² DU). */
export function addBenchPlan(account: Database): void {
  seedPlans(account);
  account.run(
    `INSERT INTO plans (slug, display_name, du_limit, period_days, rps_limit, rpm_limit, throttle_multiplier, price_usd, features, sort_order)
     SELECT 'bench', 'Benchmark (enterprise, unthrottled)', 1000000000000, period_days, 1000000000, 1000000000, throttle_multiplier,
            price_usd, features, 99 FROM plans WHERE slug = 'enterprise'
     ON CONFLICT DO NOTHING`,
  );
}

/** A scratch data dir serving `marketDir`'s market: market.db linked, the bench user and its follows in a new account.db. */
export async function makeRunDir(marketDir: string, follows: Follows): Promise<RunDir> {
  const dir = mkdtempSync(join(tmpdir(), "artmarket-api-bench-"));
  const linked = linkMarket(resolve(marketDbPath(marketDir)), marketDbPath(dir));
  const account = openAccountDb(dir);
  let created: CreatedKey;
  try {
    addBenchPlan(account);
    created = await createUserWithKey(account, "bench", "bench user");
    // Followed in turn, a minute apart (the lists show the most recent first).
    const insert = account.query("INSERT INTO follows (user_id, kind, target_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING");
    let t = Date.now() - 86_400_000;
    account.transaction(() => {
      for (const kind of ["artist", "artwork", "lot", "sale"] as const) for (const id of follows[kind]) insert.run(created.userId, kind, id, (t += 60_000));
    })();
  } finally {
    account.close();
  }
  return { dir, key: created.key, userId: created.userId, linked };
}
