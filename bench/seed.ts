/**
 * bench/seed: time, size on disk and peak memory of `seed --scale S`, each in a process of its own.
 * Also the CPU time of the process (all its threads: on a machine shared with other work, wall
 * time alone says little), the load average before and after, and the seed's own split by step.
 *
 *   bun bench/seed.ts [--scales tiny,small,medium] [--keep DIR]
 *
 * Targets (issue): tiny in seconds, small (images included) under 60 s, full under 20 minutes and
 * 15 GB with bounded memory.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "../src/platform/config";

const { flags } = parseArgs(process.argv.slice(2));
const scales = String(flags.scales ?? "tiny,small,medium").split(",");
const root = join(import.meta.dir, "..");

function dirSize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    total += entry.isDirectory() ? dirSize(p) : statSync(p).size;
  }
  return total;
}

const rows: string[] = [];
for (const scale of scales) {
  const dir = typeof flags.keep === "string" ? join(flags.keep, scale) : mkdtempSync(join(tmpdir(), `artmarket-seed-${scale}-`));
  const loadBefore = loadavg()[0]!;
  const t0 = performance.now();
  // /usr/bin/time is not on every machine: the child reports its own peak RSS on exit.
  const proc = Bun.spawnSync(
    [
      process.execPath,
      "-e",
      `const {main}=await import(${JSON.stringify(join(root, "src/cli.ts"))}); const c=await main(["seed","--scale",${JSON.stringify(scale)},"--data",${JSON.stringify(dir)}]); const u=process.resourceUsage(); console.error("PEAK_RSS " + u.maxRSS + " CPU_US " + (u.userCPUTime + u.systemCPUTime)); process.exit(c);`,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  const seconds = (performance.now() - t0) / 1000;
  const err = proc.stderr.toString();
  const peak = Number(/PEAK_RSS (\d+)/.exec(err)?.[1] ?? 0) * 1024;
  const cpu = Number(/CPU_US (\d+)/.exec(err)?.[1] ?? 0) / 1e6;
  const load = `load ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`;
  if (proc.exitCode !== 0) {
    console.error(err);
    throw new Error(`seed ${scale} failed`);
  }
  const stdout = proc.stdout.toString();
  const lots = /lots\s+([\d,]+)/.exec(stdout)?.[1] ?? "?";
  const steps = [/^ {2}images embedded .*$/m.exec(stdout)?.[0], /^ {2}time .*$/m.exec(stdout)?.[0], /^ {2}steps .*$/m.exec(stdout)?.[0], /^ {2}lot indexes .*$/m.exec(stdout)?.[0]]
    .filter(Boolean)
    .map((l) => `    ${l!.trim()}`);
  const size = dirSize(dir);
  const line =
    `${scale.padEnd(7)} lots ${lots.padStart(11)}  ${seconds.toFixed(1).padStart(7)} s (CPU ${cpu.toFixed(0)} s, ${load})  ` +
    `${(size / 2 ** 20).toFixed(0).padStart(7)} MiB on disk  peak RSS ${(peak / 2 ** 20).toFixed(0).padStart(6)} MiB\n${steps.join("\n")}`;
  console.log(line);
  rows.push(line);
  if (typeof flags.keep !== "string") rmSync(dir, { recursive: true, force: true });
}
console.log(`\nbench/seed on ${navigator.hardwareConcurrency} cores:\n${rows.join("\n")}`);
