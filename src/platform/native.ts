/**
 * Native parts of the product. The only code that knows about the compiled binary: in a
 * `bun build --compile` executable, embedded files live under /$bunfs and cannot be handed to
 * dlopen, so each is written once under <data>/lib/<build>/ and loaded from there. From source,
 * the same imports resolve to the files in node_modules and are used in place.
 */
import type { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
// @ts-ignore: a file asset; Bun resolves it to a path (embedded in the binary)
import vecAsset from "../../node_modules/sqlite-vec-linux-x64/vec0.so" with { type: "file" };

/** True inside the compiled executable. */
export const isCompiled = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:/~BUN/");

/** Identifies the build, so a newer binary never loads an older binary's extracted libraries. */
export const BUILD_ID: string = process.env.ARTMARKET_BUILD_ID ?? (typeof ARTMARKET_BUILD === "string" ? ARTMARKET_BUILD : "dev");
declare const ARTMARKET_BUILD: string | undefined;

/** A real path on disk for an embedded asset: itself from source, an extracted copy in the binary. */
export function materialize(asset: string, dataDir: string): string {
  if (!isCompiled) return asset;
  const dir = join(dataDir, "lib", BUILD_ID);
  const target = join(dir, basename(asset));
  if (existsSync(target)) return target;
  mkdirSync(dir, { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, readFileSync(asset));
  chmodSync(tmp, 0o755);
  renameSync(tmp, target);
  return target;
}

/** Loads sqlite-vec into a connection (every connection the product opens). */
export function loadSqliteVec(db: Database, dataDir: string): void {
  const path = materialize(vecAsset as unknown as string, dataDir);
  db.loadExtension(path.replace(/\.so$/, ""));
}
