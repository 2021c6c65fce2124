/**
 * Native parts of the product. The only code that knows about the compiled binary: in a
 * `bun build --compile` executable, embedded files live under /$bunfs and cannot be handed to
 * dlopen, so each is written once under <data>/lib/<build>/ and loaded from there. From source,
 * the same imports resolve to the files in node_modules and are used in place.
 *
 * - sqlite-vec: vec0.so, embedded as a file asset, loaded into every connection.
 * - sharp: its CommonJS entry names its `.node` addon statically, so the bundler embeds it and Bun
 *   extracts it itself; the addon needs libvips-cpp.so.<version> (found through an rpath relative to
 *   node_modules, which the binary does not have), so the binary writes the embedded libvips out and
 *   dlopens it first: the dynamic linker then satisfies the addon's NEEDED entry by its soname.
 * - @node-rs/argon2: a static require of its platform package, embedded and extracted by Bun itself
 *   (nothing to do here).
 */
import type { Database } from "bun:sqlite";
import type sharpDefault from "sharp";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { threadId } from "node:worker_threads";
// @ts-ignore: a file asset; Bun resolves it to a path (embedded in the binary)
import vecAsset from "../../node_modules/sqlite-vec-linux-x64/vec0.so" with { type: "file" };
// @ts-ignore: a file asset. The file name carries libvips' version: when sharp's libvips package is
// updated, change it here too (scripts/build.ts says so when it no longer matches).
import vipsAsset from "../../node_modules/@img/sharp-libvips-linux-x64/lib/libvips-cpp.so.8.18.7" with { type: "file" };

/** The libvips file name the addon asks for (its soname); kept in step with the import above. */
export const LIBVIPS_FILE = "libvips-cpp.so.8.18.7";

/** True inside the compiled executable. */
export const isCompiled = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:/~BUN/");

/**
 * A worker thread's entry, `srcPath` relative to src/ (e.g. "seed/generate-worker.ts"): from
 * source, the file itself; in the compiled binary, where the build put it (entry points keep
 * their path under src/, next to the main one; scripts/build.ts must list each worker, as a
 * `bun build --compile` binary only holds the workers it was told about).
 */
export function workerEntry(srcPath: string): string {
  return isCompiled ? `${EMBEDDED_ROOT}/${srcPath}` : new URL(`../${srcPath}`, import.meta.url).href;
}

/**
 * The root of the binary's embedded files. Bun.main is the executable on the main thread but the
 * worker's own entry inside a worker (/$bunfs/root/serve/cluster/worker.js), so a worker that
 * starts a worker of its own (a serve worker's PostgreSQL connection) takes the root from it.
 */
const EMBEDDED_ROOT = /^(.*?\/\$bunfs\/root)\//.exec(Bun.main)?.[1] ?? /^(B:\/~BUN\/root)\//.exec(Bun.main)?.[1] ?? dirname(Bun.main);

/** Identifies the build, so a newer binary never loads an older binary's extracted libraries. */
export const BUILD_ID: string = process.env.ARTMARKET_BUILD_ID ?? (typeof ARTMARKET_BUILD === "string" ? ARTMARKET_BUILD : "dev");
declare const ARTMARKET_BUILD: string | undefined;

/** Where the binary writes its native libraries. */
export function libDir(dataDir: string): string {
  return join(dataDir, "lib", BUILD_ID);
}

/**
 * A real path on disk for an embedded asset: itself from source, an extracted copy named `name`
 * in the binary (the bundler adds a content hash to an asset's name; the copy gets the real one,
 * which dlopen and sqlite's entry-point guess depend on). Written once per build: a copy of the
 * right size is reused; a new one is written to a temporary name and renamed, so processes that
 * start together never see half a file.
 */
export function materialize(asset: string, name: string, dataDir: string): string {
  if (!isCompiled) return asset;
  const dir = libDir(dataDir);
  const target = join(dir, name);
  const size = Bun.file(asset).size;
  if (existsSync(target) && statSync(target).size === size) return target;
  mkdirSync(dir, { recursive: true });
  // unique per process and thread: worker threads of one process may extract the same file at once
  const tmp = `${target}.${process.pid}.${threadId}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, readFileSync(asset));
  chmodSync(tmp, 0o755);
  renameSync(tmp, target);
  return target;
}

/** Loads sqlite-vec into a connection (every connection the product opens). */
export function loadSqliteVec(db: Database, dataDir: string): void {
  const path = materialize(vecAsset as unknown as string, "vec0.so", dataDir);
  db.loadExtension(path, "sqlite3_vec_init");
}

/** sharp's callable module (`require("sharp")` returns the function itself, with `versions` and the rest on it). */
export type Sharp = typeof sharpDefault;
let sharpModule: Sharp | null = null;
let vipsHandle: { close(): void } | null = null;

/**
 * The sharp module. In the binary, libvips is written under <data>/lib/<build>/ and opened first
 * (kept open for the life of the process); from source, sharp finds libvips in node_modules.
 */
export function loadSharp(dataDir: string): Sharp {
  if (sharpModule) return sharpModule;
  if (isCompiled && !vipsHandle) {
    const path = materialize(vipsAsset as unknown as string, LIBVIPS_FILE, dataDir);
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    vipsHandle = dlopen(path, { vips_version: { args: [FFIType.i32], returns: FFIType.i32 } });
  }
  sharpModule = require("sharp") as Sharp;
  return sharpModule;
}
