/**
 * Seeded markets kept between test runs: node_modules/.cache/artmarket-tests/<name>-<hash>, where
 * the hash covers everything a seed reads (the sources of the layers below serve: pipeline, db,
 * market, analytics, images, platform; the lock file; Bun's version; the seed's options). An edit
 * to the serving code, the usual edit-test loop, keeps the markets; an edit to the pipeline builds
 * them again. Within a run, the first process that needs one builds it under a lock and the
 * others wait for it, so a run seeds each market once, whatever its parallel workers.
 *
 * A cached market is shared: read it in place or copy its files, never write into it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const CACHE = join(ROOT, "node_modules/.cache/artmarket-tests");
const SOURCES = ["src/pipeline", "src/db", "src/market", "src/analytics", "src/images", "src/platform"];

let sourcesHash: string | null = null;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path) : [path];
  });
}

/** The hash of what a seed reads (computed once per process: about 250 files). */
function hashOfSources(): string {
  if (sourcesHash === null) {
    const h = createHash("sha256").update(Bun.version);
    const files = [...SOURCES.flatMap((d) => filesUnder(join(ROOT, d))), join(ROOT, "package-lock.json")].filter(existsSync).sort();
    for (const f of files) h.update(f.slice(ROOT.length)).update(readFileSync(f));
    sourcesHash = h.digest("hex").slice(0, 16);
  }
  return sourcesHash;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The directory of the market `name` built with `options` by `build` (which seeds it into the
 * folder it is given and returns what to keep beside it, JSON), and that JSON: from the cache, or
 * built now (or waited for, while another process builds it).
 */
export async function cachedMarket<T>(name: string, options: object, build: (dir: string) => Promise<T>): Promise<{ dir: string; built: T }> {
  const key = createHash("sha256").update(hashOfSources()).update(JSON.stringify(options)).digest("hex").slice(0, 16);
  const dir = join(CACHE, `${name}-${key}`);
  const ready = join(dir, "cache.json");
  const lock = `${dir}.lock`;
  mkdirSync(CACHE, { recursive: true });
  for (let waited = 0; ; waited++) {
    if (existsSync(ready)) return { dir, built: JSON.parse(readFileSync(ready, "utf8")) as T };
    try {
      mkdirSync(lock);
    } catch {
      // another process builds it: wait, unless it is gone (then its lock goes too)
      try {
        const owner = existsSync(join(lock, "pid")) ? Number(readFileSync(join(lock, "pid"), "utf8")) : 0;
        const stale = owner > 0 ? !alive(owner) : waited > 50 && Date.now() - statSync(lock).mtimeMs > 10_000;
        if (stale) rmSync(lock, { recursive: true, force: true });
      } catch {
        // the lock went meanwhile: look again
      }
      await Bun.sleep(200);
      continue;
    }
    writeFileSync(join(lock, "pid"), String(process.pid));
    try {
      if (existsSync(ready)) continue; // built while the lock was taken
      const building = `${dir}.building-${process.pid}`;
      rmSync(building, { recursive: true, force: true });
      mkdirSync(building);
      const built = await build(building);
      writeFileSync(join(building, "cache.json"), JSON.stringify(built));
      rmSync(dir, { recursive: true, force: true });
      renameSync(building, dir);
      // the same market of other sources, a day old: no longer of use
      for (const other of readdirSync(CACHE)) {
        const path = join(CACHE, other);
        if (other.startsWith(`${name}-`) && other !== `${name}-${key}` && Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
