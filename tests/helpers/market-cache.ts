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

const sourcesHashes = new Map<string, string>();

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * The hash of the files under `paths` (folders or files, relative to the repository), the lock file
 * and Bun's version; computed once per process and list (what a seed reads: about 250 files).
 */
export function hashOfSources(paths: string[] = SOURCES): string {
  const id = paths.join("\n");
  let hash = sourcesHashes.get(id);
  if (hash === undefined) {
    const h = createHash("sha256").update(Bun.version);
    const files = [...paths.flatMap((p) => (statSync(join(ROOT, p)).isDirectory() ? filesUnder(join(ROOT, p)) : [join(ROOT, p)])), join(ROOT, "package-lock.json")]
      .filter(existsSync)
      .sort();
    for (const f of files) h.update(f.slice(ROOT.length)).update(readFileSync(f));
    hash = h.digest("hex").slice(0, 16);
    sourcesHashes.set(id, hash);
  }
  return hash;
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
export function cachedMarket<T>(name: string, options: object, build: (dir: string) => Promise<T>): Promise<{ dir: string; built: T }> {
  const key = createHash("sha256").update(hashOfSources()).update(JSON.stringify(options)).digest("hex").slice(0, 16);
  return cachedFolder(name, key, build, 86_400_000);
}

/**
 * The cache folder `<name>-<key>`, filled by `build` (given a fresh folder; returns what to keep
 * beside it, JSON) once: from the cache, or built now under a lock (or waited for, while another
 * process builds it). Once built, the folders of the same name and other keys unused for
 * `staleMs` go.
 */
export async function cachedFolder<T>(name: string, key: string, build: (dir: string) => Promise<T>, staleMs: number): Promise<{ dir: string; built: T }> {
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
      // the same folder of other sources, unused for a while: no longer of use
      for (const other of readdirSync(CACHE)) {
        const path = join(CACHE, other);
        if (/^[0-9a-f]{16}$/.test(other.slice(name.length + 1)) && other.startsWith(`${name}-`) && other !== `${name}-${key}` && Date.now() - statSync(path).mtimeMs > staleMs)
          rmSync(path, { recursive: true, force: true });
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
