/**
 * The import graph of src/ runs downwards only (ARCHITECTURE.md): the kernel (platform, market,
 * analytics), the stores and shared image code (db, images), then the two sides, pipeline (seed,
 * import, derive, embedding the market) and serve (HTTP, queries, modules, accounts), which never
 * import each other; ops (backup and restore of a data directory) stands beside them on the stores;
 * cli.ts on top wires them all.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const SRC = join(import.meta.dir, "../../src");

/** Each layer and the layers it may import (itself included). */
const ALLOWED: Record<string, readonly string[]> = {
  platform: ["platform"],
  market: ["market", "platform"],
  analytics: ["analytics", "market", "platform"],
  db: ["db", "market", "analytics", "platform"],
  images: ["images", "db", "market", "analytics", "platform"],
  pipeline: ["pipeline", "images", "db", "market", "analytics", "platform"],
  serve: ["serve", "images", "db", "market", "analytics", "platform"],
  ops: ["ops", "db", "market", "analytics", "platform"],
  cli: ["cli", "pipeline", "serve", "ops", "images", "db", "market", "analytics", "platform"],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The layer of a path under src/: its first folder, or the file's own name at the top. */
function layerOf(path: string): string {
  const rel = relative(SRC, path);
  if (rel.startsWith("..")) return "outside";
  const first = rel.split("/")[0]!;
  return first.replace(/\.ts$/, "");
}

/** Every relative module specifier in a file: static and dynamic imports, re-exports, require. */
function importsOf(text: string): string[] {
  const specs: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;
  for (let m = re.exec(text); m; m = re.exec(text)) specs.push(m[1]!);
  return specs;
}

test("every file of src/ belongs to a known layer", () => {
  const unknown = sources(SRC)
    .map(layerOf)
    .filter((l) => !(l in ALLOWED));
  expect([...new Set(unknown)]).toEqual([]);
});

test("imports run downwards only: pipeline and serve never import each other, the kernel neither", () => {
  const violations: string[] = [];
  for (const file of sources(SRC)) {
    const from = layerOf(file);
    for (const spec of importsOf(readFileSync(file, "utf8"))) {
      const target = normalize(join(dirname(file), spec));
      const to = layerOf(target);
      if (to === "outside") continue; // package.json, native files under node_modules
      if (!ALLOWED[from]!.includes(to)) violations.push(`${relative(SRC, file)} (${from}) imports ${spec} (${to})`);
    }
  }
  expect(violations).toEqual([]);
});

test("the rule has teeth: the parser sees each kind of import", () => {
  const text = `import a from "./a"; import { b } from "../b"; export { c } from "./c"; const d = await import("../d"); require("./e"); import "./f";`;
  expect(importsOf(text)).toEqual(["./a", "../b", "./c", "../d", "./e", "./f"]);
});
