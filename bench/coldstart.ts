#!/usr/bin/env bun
/**
 * Cold start: from spawning `serve` on an existing data directory to the first 200 of an
 * authenticated request. Compares the compiled binary with `bun src/cli.ts serve`, in one run,
 * alternating between them so both see the same machine state.
 *
 *   bun bench/coldstart.ts [--runs 15] [--bin dist/artmarket] [--scale small]
 *
 * Each run: spawn `serve --data D --port 0`, read the first stdout line (`listening on URL`),
 * GET /v1/categories with a key until it answers 200 (normally the first try), then SIGTERM and
 * wait for the exit. "Cold" means a new process; the OS page cache is warm (one untimed warm-up
 * run per variant). The data directory is seeded once and a key created before timing starts.
 * The binary is also timed on a data directory whose lib/ is removed before every run, which is
 * what the first start of a new build costs (writing its native libraries).
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const TARGET_MS = 300;

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const RUNS = Number(flag("runs", "15"));
const BIN = resolve(flag("bin", join(ROOT, "dist/artmarket")));
const SCALE = flag("scale", "small");
const BIN_LABEL = relative(ROOT, BIN).startsWith("..") ? BIN : relative(ROOT, BIN);

const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? tmpdir(), LANG: "C.UTF-8" };

if (!existsSync(BIN)) {
  console.log(`${BIN} is missing; building it (bun scripts/build.ts)`);
  const build = Bun.spawnSync([process.execPath, "scripts/build.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (build.exitCode !== 0) process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), "artmarket-coldstart-"));
const bin = join(work, "artmarket");
copyFileSync(BIN, bin);
const data = join(work, "data");

function sh(cmd: string[], cwd = work): string {
  const r = Bun.spawnSync(cmd, { cwd, env, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited with ${r.exitCode}\n${r.stdout}\n${r.stderr}`);
  return r.stdout.toString();
}

interface Variant {
  name: string;
  cmd: string[];
  cwd: string;
  data: string;
  /** Runs before every timed start (not timed). */
  before?: () => void;
}

interface Sample {
  listening: number;
  first200: number;
}

/** Reads stdout until the first line. */
async function firstLine(stream: ReadableStream<Uint8Array>, timeoutMs: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  // A timer that is cleared afterwards (a pending Bun.sleep would keep the process alive).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((done) => (timer = setTimeout(() => done(null), timeoutMs)));
  try {
    while (!text.includes("\n")) {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk === null) throw new Error(`no output within ${timeoutMs} ms`);
      if (chunk.done) throw new Error(`exited before printing a line: ${JSON.stringify(text)}`);
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  return text.split("\n")[0]!;
}

async function once(v: Variant, key: string): Promise<Sample> {
  v.before?.();
  const t0 = performance.now();
  const proc = Bun.spawn([...v.cmd, "serve", "--data", v.data, "--port", "0"], { cwd: v.cwd, env, stdout: "pipe", stderr: "pipe" });
  try {
    const line = await firstLine(proc.stdout, 30_000);
    const listening = performance.now() - t0;
    const base = /^listening on (\S+)$/.exec(line)?.[1];
    if (!base) throw new Error(`${v.name}: unexpected first line ${JSON.stringify(line)}`);
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${base}/v1/categories`, { headers: { Authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status === 200) return { listening, first200: performance.now() - t0 };
      if (attempt >= 100) throw new Error(`${v.name}: /v1/categories answered ${res.status}`);
      await Bun.sleep(1);
    }
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
  return { median: s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2, p90: at(0.9), min: s[0]! };
}

/** The key `serve` prints on its first start with no users (it creates an enterprise user). */
async function firstStartKey(dataDir: string): Promise<string> {
  const proc = Bun.spawn([bin, "serve", "--data", dataDir, "--port", "0"], { cwd: work, env, stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (!/\nam_\S+\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
  return text.trim().split("\n").at(-1) ?? "";
}

const KEY = /^am_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/;

try {
  // An existing data directory: seeded, with a key made by `keys create` (if that fails, the key
  // `serve` creates on its first start with no users).
  console.log(`data directory ${data}: seed --scale ${SCALE}`);
  sh([bin, "seed", "--scale", SCALE, "--data", data]);
  let key: string;
  const created = Bun.spawnSync([bin, "keys", "create", "--plan", "pro", "--data", data], { cwd: work, env, stdout: "pipe", stderr: "pipe" });
  if (created.exitCode === 0) {
    key = created.stdout.toString().trim().split("\n").at(-1)!;
    console.log("key: made with `keys create --plan pro`");
  } else {
    const why =
      created.stderr
        .toString()
        .split("\n")
        .find((l) => /error/i.test(l))
        ?.trim() ?? `exit ${created.exitCode}`;
    console.log(`key: \`keys create\` failed (${why}); using the enterprise key serve creates on its first start`);
    key = await firstStartKey(data);
  }
  if (!KEY.test(key)) throw new Error(`no API key: ${JSON.stringify(key)}`);

  const freshData = join(work, "fresh");
  sh([bin, "seed", "--scale", SCALE, "--data", freshData]);
  const freshKey = await firstStartKey(freshData);
  if (!KEY.test(freshKey)) throw new Error(`no API key for ${freshData}: ${JSON.stringify(freshKey)}`);

  const variants: Variant[] = [
    { name: `${BIN_LABEL} serve`, cmd: [bin], cwd: work, data },
    { name: "bun src/cli.ts serve", cmd: [process.execPath, join(ROOT, "src/cli.ts")], cwd: ROOT, data },
    {
      name: `${BIN_LABEL}, new build (lib/ removed)`,
      cmd: [bin],
      cwd: work,
      data: freshData,
      before: () => rmSync(join(freshData, "lib"), { recursive: true, force: true }),
    },
  ];
  const keys = new Map<Variant, string>([
    [variants[0]!, key],
    [variants[1]!, key],
    [variants[2]!, freshKey],
  ]);

  console.log(`warming up (1 untimed run each), then ${RUNS} timed runs per variant, interleaved`);
  for (const v of variants) await once(v, keys.get(v)!);
  const samples = new Map<Variant, Sample[]>(variants.map((v) => [v, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const v of variants) samples.get(v)!.push(await once(v, keys.get(v)!));
    process.stdout.write(`\r  run ${i + 1}/${RUNS}`);
  }
  process.stdout.write("\n\n");

  const rows = variants.map((v) => {
    const s = samples.get(v)!;
    return { v, listen: stats(s.map((x) => x.listening)), ok: stats(s.map((x) => x.first200)) };
  });
  const fmt = (n: number) => n.toFixed(1).padStart(7);
  const width = Math.max(...variants.map((v) => v.name.length));
  console.log(`cold start to first 200 of GET /v1/categories (authenticated), ${RUNS} runs, ms`);
  console.log(`${"".padEnd(width)}  ${"median".padStart(7)}  ${"p90".padStart(7)}  ${"min".padStart(7)}  | listening: median`);
  for (const r of rows) console.log(`${r.v.name.padEnd(width)}  ${fmt(r.ok.median)}  ${fmt(r.ok.p90)}  ${fmt(r.ok.min)}  | ${fmt(r.listen.median)}`);
  const binary = rows[0]!.ok.median;
  console.log(`\ntarget: binary median under ${TARGET_MS} ms: ${binary < TARGET_MS ? "met" : "MISSED"} (${binary.toFixed(1)} ms)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
