#!/usr/bin/env bun
/**
 * `bun run build`: writes dist/artmarket, one executable made with `bun build --compile` from
 * src/cli.ts. It embeds the code, the migrations (text imports) and the native parts: vec0.so and
 * libvips-cpp.so as file assets (written under <data>/lib/<build>/ at run time by
 * src/platform/native.ts), sharp's and argon2's `.node` addons (required statically; Bun extracts
 * them itself). See docs/binary.md.
 *
 *   bun scripts/build.ts [--outfile PATH] [--no-bytecode]
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };

const root = resolve(import.meta.dir, "..");
const args = process.argv.slice(2);
const outIndex = args.indexOf("--outfile");
const outfile = resolve(root, outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1]! : "dist/artmarket");
const bytecode = !args.includes("--no-bytecode");

function fail(message: string): never {
  process.stderr.write(`build: ${message}\n`);
  process.exit(1);
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

// The native files the binary embeds must be installed for this platform. native.ts is read as text
// (importing it would fail on a missing asset before this could say what to do).
const nativeSource = await Bun.file(join(root, "src/platform/native.ts")).text();
const LIBVIPS_FILE = /export const LIBVIPS_FILE = "([^"]+)"/.exec(nativeSource)?.[1] ?? fail("LIBVIPS_FILE not found in src/platform/native.ts");
if (!nativeSource.includes(`sharp-libvips-linux-x64/lib/${LIBVIPS_FILE}"`)) fail(`src/platform/native.ts: the libvips import and LIBVIPS_FILE (${LIBVIPS_FILE}) disagree`);
if (process.platform !== "linux" || process.arch !== "x64") fail(`the binary embeds linux-x64 native parts; this is ${process.platform}-${process.arch}`);
const vipsDir = join(root, "node_modules/@img/sharp-libvips-linux-x64/lib");
const vipsFiles = existsSync(vipsDir) ? readdirSync(vipsDir).filter((f) => f.startsWith("libvips-cpp.so.")) : [];
if (!vipsFiles.includes(LIBVIPS_FILE)) {
  fail(
    `src/platform/native.ts embeds ${LIBVIPS_FILE}, but ${relative(root, vipsDir)} holds ${vipsFiles.join(", ") || "no libvips-cpp.so.*"}: ` +
      `update LIBVIPS_FILE and the libvips import in src/platform/native.ts (or run npm/bun install)`,
  );
}
for (const required of ["node_modules/sqlite-vec-linux-x64/vec0.so", "node_modules/@img/sharp-linux-x64/package.json", "node_modules/@node-rs/argon2-linux-x64-gnu/package.json"]) {
  if (!existsSync(join(root, required))) fail(`${required} is missing: install dependencies first`);
}

// The build id: version + short git sha (+ "-dirty" with uncommitted changes), else a timestamp.
function gitSha(): string | null {
  const sha = Bun.spawnSync(["git", "rev-parse", "--short=10", "HEAD"], { cwd: root, stderr: "ignore" });
  if (sha.exitCode !== 0) return null;
  const status = Bun.spawnSync(["git", "status", "--porcelain", "--", "src", "package.json"], { cwd: root, stderr: "ignore" });
  const dirty = status.exitCode === 0 && status.stdout.toString().trim() !== "";
  // A dirty tree gets a timestamp too, so two builds of different uncommitted code never share a lib dir.
  return sha.stdout.toString().trim() + (dirty ? `-dirty${Date.now().toString(36)}` : "");
}
const buildId = `${pkg.version}-${gitSha() ?? `t${Date.now().toString(36)}`}`;

// worker threads: a compiled binary holds only the workers listed as entry points
const workerEntries = [
  "src/pipeline/images/embed-worker.ts",
  "src/pipeline/derive/artist-worker.ts",
  "src/pipeline/db/index-builder-worker.ts",
  "src/serve/cluster/worker.ts",
  "src/serve/cluster/check-worker.ts",
  "src/pipeline/seed/generate-worker.ts",
  "src/db/pg/sync-worker.ts",
  "src/db/checkpoint-worker.ts",
];

const cmd = [
  process.execPath,
  "build",
  "--compile",
  "--target=bun-linux-x64",
  // The binary ignores bunfig.toml, .env, tsconfig.json and package.json in the folder it starts from.
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
  "--minify",
  // The source map is embedded (stack traces name src/… lines); bun also writes copies beside the
  // binary, one .map per entry point and chunk, which nothing reads: removed below, so the output
  // folder holds the binary alone.
  "--sourcemap",
  // The entry points' paths in the binary are relative to src/ (platform/native.ts workerEntry): a
  // root named, not one bun infers (it took the repository's root once there were nine of them).
  "--root",
  join(root, "src"),
  ...(bytecode ? ["--bytecode", "--format=esm"] : []),
  `--define`,
  `ARTMARKET_BUILD=${JSON.stringify(buildId)}`,
  "--outfile",
  outfile,
  join(root, "src/cli.ts"),
  ...workerEntries.map((entry) => join(root, entry)),
];

mkdirSync(dirname(outfile), { recursive: true });
rmSync(outfile, { force: true });
console.log(`build: artmarket ${buildId}`);
console.log(`build: ${cmd.map((a) => (/[\s"']/.test(a) ? `'${a}'` : a)).join(" ")}`);
const started = performance.now();
const proc = Bun.spawnSync(cmd, { cwd: root, stdout: "inherit", stderr: "inherit" });
if (proc.exitCode !== 0) fail(`bun build exited with ${proc.exitCode}`);
if (!existsSync(outfile)) fail(`bun build succeeded but ${outfile} is missing`);
// The external source maps bun writes beside the binary (this build's and any an earlier one left):
// <binary>.map, <worker>.js.map per worker entry, chunk-<hash>.js.map per shared chunk.
const mapNames = new Set([`${basename(outfile)}.map`, ...workerEntries.map((entry) => `${basename(entry, ".ts")}.js.map`)]);
for (const name of readdirSync(dirname(outfile))) {
  if (mapNames.has(name) || /^chunk-[0-9a-z]+\.js\.map$/.test(name)) rmSync(join(dirname(outfile), name), { force: true });
}

const size = statSync(outfile).size;
console.log(`build: wrote ${relative(process.cwd(), outfile) || outfile} (${mib(size)}, ${size} bytes) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`build: embeds vec0.so, ${LIBVIPS_FILE} (written under <data>/lib/${buildId}/), sharp and argon2 addons, migrations`);
