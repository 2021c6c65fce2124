#!/usr/bin/env bun
/**
 * bench/merge: a day's results into a running server (issue 33, item 2), in one run.
 *
 *   bun bench/merge.ts [--data DIR | --scale large] [--days 1] [--refit] [--keep]
 *
 * The market: --data DIR (a seeded market, with its truth.db), else /tmp/artmarket-<scale> (default
 * large), seeded there on first use (bench/lib/api-setup.ts). A run works in a scratch data
 * directory beside it: market.db hard-linked (a merge writes a new file and renames it over the
 * name, so the market measured is never changed) and truth.db copied (`feed` extends it). Then:
 * 1. `serve --workers 1` on the scratch directory, until /readyz answers; its snapshot id;
 * 2. `feed --days N` into the scratch directory (timed);
 * 3. `import --from <feed> --mode merge` (with --refit: `--refit`, the whole market derived),
 *    timed from its start to its exit, its phases from its progress lines; meanwhile /readyz is
 *    polled every 100 ms until it names another snapshot (the time from the import's start to the
 *    new snapshot served: what the target counts), and the scratch directory's size and the
 *    import's peak RSS (VmHWM) are sampled every 100 ms (peak extra disk: the largest size over the
 *    size before, less the feed's directory).
 * Printed: a table, and the import's own summary. Only 127.0.0.1; the server is stopped at the end.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ensureMarket } from "./lib/api-setup";
import { linkMarket, removeLinkedScratch } from "./lib/linked-market";
import { fmt, table } from "./lib/stats";
import { readFlags } from "./lib/flags";

const ROOT = resolve(import.meta.dir, "..");
const CLI = [process.execPath, join(ROOT, "src/cli.ts")];

/**
 * What the merge added to the history of estimates (docs/api-artworks.md#estimates-as-of-a-day):
 * its rows, the table's pages (dbstat) and bytes a row, for the year's disk cost.
 */
function historyLine(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.query<{ n: number }, []>("SELECT count(*) AS n FROM estimate_history").get()!.n;
    const works = db.query<{ n: number }, []>("SELECT count(*) AS n FROM artworks").get()!.n;
    const bytes = db.query<{ b: number | null }, []>("SELECT sum(pgsize) AS b FROM dbstat WHERE name = 'estimate_history'").get()!.b ?? 0;
    const perRow = rows ? bytes / rows : 0;
    return `estimate history: ${rows.toLocaleString("en-US")} rows (${fmt((100 * rows) / works, 2)} % of ${works.toLocaleString("en-US")} works), ${fmt(bytes / 2 ** 20, 2)} MiB, ${fmt(perRow, 1)} bytes a row; a year of such days: ${fmt((365 * rows * perRow) / 2 ** 20, 0)} MiB`;
  } finally {
    db.close();
  }
}

/** Bytes under `dir` (files only, one level of subdirectories is enough here). */
function sizeOf(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isFile()) n += statSync(p).size;
    else if (e.isDirectory()) n += sizeOf(p);
  }
  return n;
}

const vmHwmKiB = (pid: number): number => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
};

async function snapshotOf(port: number): Promise<string | null> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/readyz`);
    if (!r.ok) return null;
    return ((await r.json()) as { snapshot?: { id?: string } }).snapshot?.id ?? null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const flags = readFlags(process.argv.slice(2), ["data", "scale", "days", "refit", "keep"]);
  const scale = typeof flags.scale === "string" ? flags.scale : "large";
  const marketDir = resolve(typeof flags.data === "string" ? flags.data : `/tmp/artmarket-${scale}`);
  const days = typeof flags.days === "string" ? Number(flags.days) : 1;
  const log = (s: string) => process.stderr.write(`bench/merge: ${s}\n`);
  // a market given with --data is taken as it is (a merged one no longer says its scale)
  if (typeof flags.data !== "string") await ensureMarket(marketDir, scale, false, log);
  else if (!existsSync(join(marketDir, "market.db"))) throw new Error(`${marketDir} holds no market.db`);
  if (!existsSync(join(marketDir, "truth.db"))) throw new Error(`${marketDir} has no truth.db: feed needs a seeded market`);
  const scratch = mkdtempSync(join(dirname(marketDir), "artmarket-merge-"));
  const loadBefore = loadavg()[0]!;
  let server: ReturnType<typeof Bun.spawn> | null = null;
  try {
    linkMarket(join(marketDir, "market.db"), join(scratch, "market.db"));
    copyFileSync(join(marketDir, "truth.db"), join(scratch, "truth.db"));
    const marketBytes = statSync(join(scratch, "market.db")).size;
    const port = 20000 + Math.floor(Math.random() * 20000);
    server = Bun.spawn([...CLI, "serve", "--workers", "1", "--port", String(port), "--data", scratch, "--log-format", "off"], { stdout: "ignore", stderr: "inherit" });
    let before: string | null = null;
    for (let i = 0; i < 600 && !before; i++) {
      await Bun.sleep(200);
      before = await snapshotOf(port);
    }
    if (!before) throw new Error("the server did not become ready");
    log(`serving ${before} on port ${port}; feeding ${days} day(s)`);

    const feedDir = join(scratch, "feed");
    let t = performance.now();
    const feed = Bun.spawnSync([...CLI, "feed", "--days", String(days), "--to", feedDir, "--data", scratch], { stdout: "pipe", stderr: "pipe" });
    if (feed.exitCode !== 0) throw new Error(`feed failed: ${feed.stderr.toString()}`);
    const feedSeconds = (performance.now() - t) / 1000;
    const lots = readFileSync(join(feedDir, "lots.jsonl"), "utf8").split("\n").filter(Boolean).length;
    const sizeBefore = sizeOf(scratch);

    log(`import --mode merge${flags.refit ? " --refit" : ""}`);
    t = performance.now();
    const args = [...CLI, "import", "--from", feedDir, "--mode", "merge", "--data", scratch, ...(flags.refit ? ["--refit"] : [])];
    const imp = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
    let peakDisk = 0;
    let peakRss = 0;
    let visibleAt: number | null = null;
    let importedAt: number | null = null;
    const exited = imp.exited.then((code) => {
      importedAt = performance.now();
      return code;
    });
    while (visibleAt === null) {
      peakDisk = Math.max(peakDisk, sizeOf(scratch) - sizeBefore);
      if (importedAt === null) peakRss = Math.max(peakRss, vmHwmKiB(imp.pid));
      const id = await snapshotOf(port);
      if (id && id !== before) visibleAt = performance.now();
      // a failed import publishes nothing: say why at once
      else if (importedAt !== null && imp.exitCode !== 0) throw new Error(`import failed (${imp.exitCode}): ${await new Response(imp.stderr).text()}`);
      else if (importedAt !== null && performance.now() - importedAt > 600_000) throw new Error("the new snapshot was not served within 10 minutes of the import");
      else await Bun.sleep(100);
    }
    const code = await exited;
    const out = await new Response(imp.stdout).text();
    const err = await new Response(imp.stderr).text();
    if (code !== 0) throw new Error(`import failed (${code}): ${err}`);
    const importSeconds = (importedAt! - t) / 1000;
    const visibleSeconds = (visibleAt - t) / 1000;
    const phases = err
      .split(/\r|\n/)
      .map((l) => /^import: (.+?) (?:[\d,]+(?:\/[\d,]+)? )?in ([\d.]+)s$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]} ${m[2]}s`);
    console.log(
      table(
        ["market", "lots fed", "feed", "import", "served after", "peak extra disk", "import peak RSS", "cpus", "load before → after"],
        [
          [
            `${marketDir} (${fmt(marketBytes / 2 ** 20, 0)} MiB)`,
            String(lots),
            `${fmt(feedSeconds, 1)} s`,
            `${fmt(importSeconds, 1)} s`,
            `${fmt(visibleSeconds, 1)} s`,
            `${fmt(peakDisk / 2 ** 20, 0)} MiB`,
            `${fmt(peakRss / 1024, 0)} MiB`,
            String(cpus().length),
            `${fmt(loadBefore, 1)} → ${fmt(loadavg()[0]!, 1)}`,
          ],
        ],
      ),
    );
    console.log(`import phases: ${phases.join(", ")}`);
    console.log(historyLine(join(scratch, "market.db")));
    console.log(out.trim());
  } finally {
    server?.kill("SIGTERM");
    await server?.exited;
    if (!flags.keep) removeLinkedScratch(scratch);
    else log(`kept ${scratch}`);
  }
}

await main();
