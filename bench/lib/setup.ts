/** The benchmarks' data dir: a tiny market and one key on a `bench` plan. */
import { createUserWithKey, type CreatedKey } from "../../src/serve/accounts/keys";
import { seedPlans } from "../../src/serve/accounts/plans";
import { openAccountDb } from "../../src/db/connection";
import { DEFAULT_SEED } from "../../src/platform/config";
import { seedMarket } from "../../src/pipeline/seed";

/**
 * Seeds `seed --scale tiny` into dataDir, adds the plan `bench` (a copy of enterprise whose
 * rps_limit and rpm_limit are 10⁹, so a benchmark measures metering rather than 429s) and
 * creates a user on it with one key.
 */
export async function prepareDataDir(dataDir: string): Promise<CreatedKey> {
  await seedMarket({ dataDir, scale: "tiny", seed: DEFAULT_SEED, quiet: true });
  const account = openAccountDb(dataDir);
  try {
    seedPlans(account);
    account.run(
      `INSERT INTO plans (slug, display_name, du_limit, period_days, rps_limit, rpm_limit, throttle_multiplier, price_usd, features, sort_order)
       SELECT 'bench', 'Benchmark (enterprise, unthrottled)', du_limit, period_days, 1000000000, 1000000000, throttle_multiplier,
              price_usd, features, 99 FROM plans WHERE slug = 'enterprise'`,
    );
    return await createUserWithKey(account, "bench", "bench user");
  } finally {
    account.close();
  }
}
