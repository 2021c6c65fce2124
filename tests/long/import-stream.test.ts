/**
 * A large import is streamed, not loaded whole: 200k lots (a 200+ MiB lots.jsonl) imported in a
 * process of its own while its memory is sampled. About 40 s on two busy cores, so it runs with
 * `npm run test:long`, not `npm test`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tempDataDir } from "../helpers/app";
import { writeBigImport } from "../import/fixtures";

const dirs: string[] = [];
const temp = (prefix: string) => {
  const d = tempDataDir(prefix);
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// ---------------------------------------------------------------- a large file, streamed

describe("a large import is streamed, not loaded whole", () => {
  test("200k lots: memory grows far less than the file while it is read", async () => {
    const dir = temp("artmarket-big-import-");
    const data = temp("artmarket-big-data-");
    const size = await writeBigImport(dir, { lots: 200_000, artists: 400, sales: 2_000, padding: 1_000 });
    expect(size).toBeGreaterThan(200 * 2 ** 20);
    // measured in a process of its own, so the rest of the test run does not move the figure
    const probe = Bun.spawnSync([process.execPath, join(import.meta.dir, "../import/stream-probe.ts"), dir, data], { stderr: "inherit" });
    expect(probe.exitCode).toBe(0);
    const s = JSON.parse(probe.stdout.toString().trim().split("\n").at(-1)!) as {
      lots: { file: string; accepted: number; rejected: number };
      growth: number;
      rowsPerSecond: number;
      seconds: number;
    };
    expect(s.lots).toEqual({ file: "lots.jsonl", accepted: 200_000, rejected: 0 });
    const growth = s.growth;
    console.log(
      `import: lots.jsonl ${(size / 2 ** 20).toFixed(0)} MiB; RSS grew ${(growth / 2 ** 20).toFixed(0)} MiB while reading it; ` +
        `${Math.round(s.rowsPerSecond).toLocaleString("en-US")} records/s; whole import ${s.seconds.toFixed(1)}s`,
    );
    expect(growth).toBeLessThan(size / 3);
  }, 120_000);
});
