/**
 * A killed seed or import leaves its builder files; the next command removes them (only those of
 * a process that is gone, only names a build writes) and the market it left stays served. And the
 * free-space check before a build.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../src/platform/config";
import { checkDiskSpace, DiskSpaceError, formatBytes, importSpaceNeeded, isProcessAlive, removeStaleBuilds, seedSpaceNeeded } from "../../src/pipeline/db/leftovers";
import { tempDataDir, tinyMarketDir, TINY_AS_OF } from "../helpers/app";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

const ROOT = join(import.meta.dir, "../..");
/** Above Linux's highest possible pid_max (2^22): no process has it. */
const DEAD = 4_194_304 + 4321;
const HASH = "ab".repeat(32);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const d = tempDataDir(prefix);
  dirs.push(d);
  return d;
}

function put(root: string, rel: string, bytes = 0): string {
  const path = join(root, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, Buffer.alloc(bytes, 1));
  return rel;
}

/** Every file under `root`, relative, sorted. */
function tree(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name).slice(root.length + 1))
    .sort();
}

const BUILDER = /\.(building|importing)-\d+/;

describe("removeStaleBuilds", () => {
  test("removes the builder files of a process that is gone, and nothing else", async () => {
    const dir = tempDir("artmarket-leftovers-");
    const exited = Bun.spawn(["true"]);
    await exited.exited;
    const gone = exited.pid; // reaped: its PID names no process (until reused)
    expect(isProcessAlive(DEAD)).toBe(false);
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(1)).toBe(true);

    const top = [
      put(dir, `market.db.building-${DEAD}`, 3000),
      put(dir, `market.db.building-${DEAD}-journal`, 100),
      put(dir, `market.db.building-${DEAD}-works`, 2000),
      put(dir, `market.db.building-${DEAD}-works-journal`),
      put(dir, `truth.db.building-${DEAD}`, 500),
      put(dir, `truth.db.building-${DEAD}-journal`),
      put(dir, `embeddings.building-${DEAD}`, 400),
      put(dir, `market.db.importing-${gone}`, 1000),
      put(dir, `market.db.importing-${gone}-works`),
      put(dir, `lib/0.9.0-abc/vec0.so.${DEAD}.0.k3j4x9.tmp`, 10),
    ];
    const images = [put(dir, `images/orig/${HASH}.jpg.part-${DEAD}`, 70), put(dir, `images/collectables/c${"0f".repeat(12)}.${DEAD}.tmp`, 30)];
    const kept = [
      // a live builder: this process
      put(dir, `market.db.building-${process.pid}`, 10),
      put(dir, `market.db.importing-${process.pid}-works`),
      put(dir, `embeddings.building-${process.pid}`),
      put(dir, `images/orig/${HASH}.png.part-${process.pid}`),
      // not a builder's name
      put(dir, "market.db", 10),
      put(dir, "truth.db"),
      put(dir, "account.db"),
      put(dir, "secret"),
      put(dir, "notes.txt"),
      put(dir, "market.db.building-abc"),
      put(dir, `market.db.building-${DEAD}.bak`),
      put(dir, `xmarket.db.building-${DEAD}`),
      put(dir, `market.db.building-0${DEAD}`),
      put(dir, `market.db.building-${DEAD}-notes`),
      put(dir, `import-report-2026-11-22T10-00-00-000Z.jsonl`),
      put(dir, `lib/0.9.0-abc/vec0.so`),
      put(dir, `lib/0.9.0-abc/vec0.so.${DEAD}.tmp`),
      put(dir, `images/orig/${HASH}.jpg`),
      put(dir, `images/orig/notahash.jpg.part-${DEAD}`),
      put(dir, `images/collectables/c${"0f".repeat(12)}`),
      put(dir, `images/cache/12/w640-abc.jpg`),
      put(dir, `sub/market.db.building-${DEAD}`),
    ];
    mkdirSync(join(dir, `market.db.building-${DEAD}0`)); // a folder of a builder's name: left

    const lines: string[] = [];
    const first = removeStaleBuilds(dir, { log: (l) => lines.push(l) });
    expect(first.removed.map((p) => p.slice(dir.length + 1)).sort()).toEqual([...top].sort());
    expect(first.bytes).toBe(3000 + 100 + 2000 + 500 + 400 + 1000 + 10);
    expect(lines.sort()).toEqual(
      [`removed 8 files of an interrupted seed and library extraction (pid ${DEAD}), 6.0 kB`, `removed 2 files of an interrupted import (pid ${gone}), 1.0 kB`].sort(),
    );
    expect(tree(dir)).toEqual([...images, ...kept].sort());
    expect(existsSync(join(dir, `market.db.building-${DEAD}0`))).toBe(true);

    // under images/ only when asked (serve and import)
    const second = removeStaleBuilds(dir, { images: true });
    expect(second.removed.map((p) => p.slice(dir.length + 1)).sort()).toEqual([...images].sort());
    expect(second.bytes).toBe(100);
    expect(tree(dir)).toEqual([...kept].sort());
    expect(removeStaleBuilds(dir, { images: true })).toEqual({ removed: [], bytes: 0 });
    // a data directory that is not there has nothing, and is not created
    expect(removeStaleBuilds(join(dir, "missing"), { images: true })).toEqual({ removed: [], bytes: 0 });
    expect(existsSync(join(dir, "missing"))).toBe(false);
  });

  test("formatBytes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1234)).toBe("1.2 kB");
    expect(formatBytes(1_200_000_000)).toBe("1.2 GB");
    expect(formatBytes(16_000_000_000)).toBe("16.0 GB");
  });
});

describe("checkDiskSpace", () => {
  test("an absurd need throws a clear DiskSpaceError (a ConfigError: the CLI prints it and exits 2)", () => {
    const dir = tempDir("artmarket-space-");
    let err: unknown;
    try {
      checkDiskSpace(dir, 1e15, "a full market", {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DiskSpaceError);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(
      new RegExp(`^not enough free disk space in ${dir} for a full market: about 1\\.0 PB needed, [\\d.]+ [kMGT]?B free \\(.*ARTMARKET_SKIP_SPACE_CHECK=1`),
    );
    // the override; a need that fits; a directory not made yet (its parent's file system)
    expect(() => checkDiskSpace(dir, 1e15, "a full market", { ARTMARKET_SKIP_SPACE_CHECK: "1" })).not.toThrow();
    expect(() => checkDiskSpace(dir, 1024, "a tiny market", {})).not.toThrow();
    expect(() => checkDiskSpace(join(dir, "a/b/c"), 1e15, "x", {})).toThrow(/not enough free disk space/);
    expect(existsSync(join(dir, "a"))).toBe(false);
  });

  test("the estimates", () => {
    expect(seedSpaceNeeded("tiny")).toBe(Math.ceil(19 * 1.25 * 1048576));
    expect(seedSpaceNeeded("full") / 1e9).toBeCloseTo(18.49, 1);
    const from = tempDir("artmarket-space-import-");
    put(from, "manifest.json", 100);
    put(from, "lots.jsonl", 1000);
    put(from, "pictures/a.jpg", 5000);
    const market = join(tempDir("artmarket-space-market-"), "market.db");
    writeFileSync(market, Buffer.alloc(7000));
    const base = 16 * 1048576;
    expect(importSpaceNeeded(from, [join(from, "lots.jsonl")], null)).toBe(3 * 1000 + 100 + 5000 + base);
    expect(importSpaceNeeded(from, [join(from, "lots.jsonl")], market)).toBe(3 * 1000 + 100 + 5000 + 7000 + base);
  });
});

// ---- a build killed by SIGKILL, and the next command ----

const env = (dataDir: string) => ({ ...process.env, ARTMARKET_DATA: dataDir, ARTMARKET_DERIVE_WORKERS: "0" });

function cli(dataDir: string, ...args: string[]) {
  return Bun.spawn([...ARTMARKET, ...args, "--data", dataDir], { cwd: ROOT, env: env(dataDir), stdout: "pipe", stderr: "pipe" });
}

/** Waits until every file of `names` is in `dir` (polling), then kills `proc` with SIGKILL. */
async function killWhenBuilding(proc: ReturnType<typeof cli>, dir: string, names: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!names.every((n) => existsSync(join(dir, n)))) {
    if (proc.exitCode !== null) throw new Error(`the build ended (${proc.exitCode}) before it was killed: ${await new Response(proc.stderr).text()}`);
    if (Date.now() > deadline) throw new Error(`no ${names.join(", ")} in ${dir}: ${readdirSync(dir).join(", ")}`);
    await Bun.sleep(10);
  }
  proc.kill("SIGKILL");
  expect(await proc.exited).not.toBe(0);
  expect(proc.signalCode).toBe("SIGKILL");
}

interface MarketState {
  meta: Record<string, string>;
  counts: Record<string, number>;
  integrity: string;
}

function marketState(dataDir: string): MarketState {
  const db = new Database(join(dataDir, "market.db"), { readonly: true });
  try {
    const meta = Object.fromEntries((db.query("SELECT key, value FROM market_meta").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    const counts: Record<string, number> = {};
    for (const t of ["artists", "artworks", "lots", "sales", "images"]) counts[t] = (db.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    const integrity = (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
    return { meta, counts, integrity };
  } finally {
    db.close();
  }
}

/** Starts `serve --port 0`, GETs /healthcheck, stops it with SIGTERM; returns the status and what serve wrote to stderr. */
async function healthcheck(dataDir: string): Promise<{ status: number; stderr: string }> {
  const proc = Bun.spawn([...ARTMARKET, "serve", "--port", "0", "--data", dataDir], { cwd: ROOT, env: env(dataDir), stdout: "pipe", stderr: "pipe" });
  try {
    const reader = proc.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`serve ended: ${text}${await new Response(proc.stderr).text()}`);
      text += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    const url = /^listening on (http:\/\/\S+)/.exec(text)?.[1];
    if (!url) throw new Error(`serve said: ${text}`);
    const res = await fetch(`${url}/healthcheck`);
    await res.arrayBuffer();
    proc.kill("SIGTERM");
    await proc.exited;
    return { status: res.status, stderr: await new Response(proc.stderr).text() };
  } finally {
    proc.kill("SIGKILL");
  }
}

describe("a build killed by SIGKILL", () => {
  test("seed: the next command removes its files; the previous market stays, whole and served", async () => {
    const dir = tempDir("artmarket-killed-seed-");
    const tiny = await tinyMarketDir();
    for (const f of ["market.db", "truth.db"]) copyFileSync(join(tiny, f), join(dir, f));
    const before = marketState(dir);
    expect(before.integrity).toBe("ok");

    const seed = cli(dir, "seed", "--scale", "tiny", "--seed", "8", "--as-of", TINY_AS_OF);
    const b = `market.db.building-${seed.pid}`;
    await killWhenBuilding(seed, dir, [b, `${b}-works`, `truth.db.building-${seed.pid}`]);
    const left = readdirSync(dir).filter((n) => BUILDER.test(n));
    expect(left).toContain(b);

    const keys = cli(dir, "keys", "list");
    expect(await keys.exited).toBe(0);
    const stderr = await new Response(keys.stderr).text();
    expect(stderr).toMatch(new RegExp(`^artmarket: removed \\d+ files of an interrupted seed \\(pid ${seed.pid}\\), [\\d.]+ [kMG]?B\\n$`));
    expect(readdirSync(dir).filter((n) => BUILDER.test(n))).toEqual([]);
    expect(marketState(dir)).toEqual(before);
    expect((await healthcheck(dir)).status).toBe(200);
  }, 60_000);

  test("import: serve removes its files as it starts; the previous market stays, whole and served", async () => {
    const dir = tempDir("artmarket-killed-import-");
    const exported = tempDir("artmarket-killed-import-from-");
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(dir, "market.db"));
    const before = marketState(dir);
    const exp = cli(dir, "export", "--to", exported);
    expect(await exp.exited).toBe(0);

    const imp = cli(dir, "import", "--from", exported);
    const b = `market.db.importing-${imp.pid}`;
    await killWhenBuilding(imp, dir, [b, `${b}-works`]);
    expect(readdirSync(dir)).toContain(b);

    const served = await healthcheck(dir);
    expect(served.status).toBe(200);
    expect(served.stderr).toMatch(new RegExp(`artmarket: removed \\d+ files of an interrupted import \\(pid ${imp.pid}\\)`));
    expect(readdirSync(dir).filter((n) => BUILDER.test(n))).toEqual([]);
    expect(marketState(dir)).toEqual(before);
  }, 60_000);
});
