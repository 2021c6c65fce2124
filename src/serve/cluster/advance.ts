/**
 * A living demo market (issue 33, item 6): `serve --advance DURATION`. Every DURATION the
 * supervisor (the main thread, never a worker) runs one round in the background: `artmarket feed
 * --days 1` into a directory of its own under the data directory (`advance-<server pid>-<round>`),
 * then `artmarket import --from that directory --mode merge`, each a child process of this same
 * executable (the compiled binary itself, or bun and src/cli.ts from source), at a low CPU priority
 * (nice 10), so the HTTP workers keep the machine first. The import builds the next snapshot beside
 * market.db and renames it over it: the hot swap (swap.ts) serves it, and the round asks it to at
 * once rather than waiting for its watch. Then the round's directory is removed.
 *
 * One round at a time: a round still running when the next is due makes that one skipped (logged
 * and counted). A round is logged as one line: the new as-of date, the results published, how long
 * it took and the snapshot now served. A failed round (a child's non-zero exit, a snapshot the swap
 * refused) is logged with the child's stderr tail and the server goes on; the next round tries
 * again. On a stop (SIGTERM) the running child is sent SIGTERM (SIGKILL after KILL_GRACE_MS), and
 * the files it was building (`market.db.importing-<pid>…`, `embeddings.building-<pid>…`) and the
 * round's directory are removed before the server exits. A directory a killed server left is
 * removed when the next one starts advancing (the data directory's lock says no other server uses it).
 *
 * The feed needs the market's latent truth (truth.db, which `seed` writes and a merge keeps); the
 * command line refuses `--advance` on a market without it (src/cli.ts).
 */
import type { Subprocess } from "bun";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isCompiled } from "../../platform/native";
import type { LogLevel } from "../http/log-lines";
import type { SwapRound } from "./swap";

/** The feed's latent truth, in the data directory (src/pipeline/seed/truth.ts, TRUTH_DB). */
export const TRUTH_FILE = "truth.db";
/** A round's import directory in the data directory: `advance-<server pid>-<round>`. */
const ROUND_DIR = /^advance-\d+-\d+$/;
/** The children's niceness (0 is the server's; 19 the lowest priority). */
export const NICE = 10;
/** How long a child gets to end on SIGTERM before it is killed. */
const KILL_GRACE_MS = 5000;
/** How much of a failed child's stderr the log line carries. */
const STDERR_TAIL = 600;

/** The command line that runs `artmarket ARGS` with this executable: the binary itself, or bun with src/cli.ts. */
export function selfCommand(args: readonly string[]): string[] {
  return isCompiled ? [process.execPath, ...args] : [process.execPath, fileURLToPath(new URL("../../cli.ts", import.meta.url)), ...args];
}

export interface AdvanceResults {
  sold: number;
  passed: number;
  withdrawn: number;
}

/** What one round did: the fields of its log line (under `advance` in the JSON log). */
export interface AdvanceRound {
  round: number;
  /** published: a new snapshot is served; failed: a child failed (or the swap refused the file); stopped: cut by the server's stop; skipped: the previous round still ran. */
  outcome: "published" | "failed" | "stopped" | "skipped";
  days: number;
  /** The market's as-of date after the round (the feed's). */
  as_of?: string;
  /** The lot results the day published (lots sold, passed, withdrawn). */
  results?: AdvanceResults;
  seconds: number;
  feed_seconds?: number;
  import_seconds?: number;
  /** The snapshot served after the round. */
  snapshot: string;
  /** What failed: `feed`, `import` or `swap`. */
  step?: string;
  reason?: string;
}

export interface AdvancerOptions {
  dataDir: string;
  everyMs: number;
  /** The snapshot the workers serve now. */
  snapshot(): string;
  /** Swaps to the newest published snapshot now (the swapper's round). */
  publish(): Promise<SwapRound>;
  log(level: LogLevel, msg: string, fields: Record<string, unknown>): void;
}

interface ChildResult {
  code: number;
  signal: string | null;
  stdout: string;
  stderrTail: string;
  seconds: number;
}

/** The last `max` characters of a child's stderr, on one line (progress redraws and terminal escapes dropped). */
function tail(text: string, max: number): string {
  const lines = text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
    .split("\n")
    .map((l) => l.slice(l.lastIndexOf("\r") + 1).trim())
    .filter((l) => l !== "");
  const joined = lines.join(" | ");
  return joined.length > max ? `…${joined.slice(joined.length - max)}` : joined;
}

/** The as-of date and the lot results of a feed's import directory. */
export function readFeedDir(dir: string): { asOf: string; results: AdvanceResults } {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { as_of?: string };
  if (typeof manifest.as_of !== "string") throw new Error(`${join(dir, "manifest.json")} has no as_of`);
  const results: AdvanceResults = { sold: 0, passed: 0, withdrawn: 0 };
  let text = "";
  try {
    text = readFileSync(join(dir, "lots.jsonl"), "utf8");
  } catch {
    text = ""; // a day without lots
  }
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const status = (JSON.parse(line) as { status?: string }).status;
    if (status === "sold" || status === "passed" || status === "withdrawn") results[status]++;
  }
  return { asOf: manifest.as_of, results };
}

/** Removes the files a killed import (or seed's embedding) of process `pid` was building in `dataDir` (src/pipeline/db/leftovers.ts names them). */
function removeBuildFiles(dataDir: string, pid: number): void {
  const mine = new RegExp(`^(?:market\\.db\\.importing|embeddings\\.building)-${pid}(?:-.*)?$`);
  for (const name of readdirSync(dataDir)) if (mine.test(name)) rmSync(join(dataDir, name), { force: true });
}

export class MarketAdvancer {
  readonly counts = { published: 0, failed: 0, skipped: 0 };
  #timer: ReturnType<typeof setInterval> | null = null;
  #running: Promise<void> | null = null;
  #runningSince = 0;
  #child: Subprocess<"ignore", "pipe", "pipe"> | null = null;
  #stopping = false;
  #rounds = 0;

  constructor(private readonly options: AdvancerOptions) {}

  /** Removes the round directories a previous server left, then starts the interval. */
  start(): void {
    for (const name of readdirSync(this.options.dataDir)) if (ROUND_DIR.test(name)) rmSync(join(this.options.dataDir, name), { recursive: true, force: true });
    const s = this.options.everyMs / 1000;
    this.options.log("info", `advance: every ${s} s the market goes on one day (feed --days 1, then import --mode merge, at nice ${NICE}) and the new snapshot is served`, {
      advance: { every_seconds: s },
    });
    this.#timer = setInterval(() => this.#due(), this.options.everyMs);
  }

  /** Whether a round runs now. */
  get running(): boolean {
    return this.#running !== null;
  }

  /** Stops the interval, ends a running round's child and waits until its files are removed. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    const child = this.#child;
    if (child) {
      child.kill("SIGTERM");
      const kill = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
      await child.exited;
      clearTimeout(kill);
    }
    await this.#running;
  }

  #due(): void {
    if (this.#stopping) return;
    if (this.#running) {
      this.counts.skipped++;
      const running = (performance.now() - this.#runningSince) / 1000;
      this.options.log("info", `advance: the previous round still runs (${running.toFixed(1)} s); this one is skipped`, {
        advance: { outcome: "skipped", running_seconds: Math.round(running * 10) / 10 },
      });
      return;
    }
    this.#runningSince = performance.now();
    this.#running = this.#round().finally(() => {
      this.#running = null;
    });
  }

  async #round(): Promise<void> {
    const { dataDir, log } = this.options;
    const round = ++this.#rounds;
    const dir = join(dataDir, `advance-${process.pid}-${round}`);
    const started = performance.now();
    const before = this.options.snapshot();
    const r: AdvanceRound = { round, outcome: "failed", days: 1, seconds: 0, snapshot: before };
    const fail = (step: string, reason: string) => Object.assign(r, { outcome: this.#stopping ? "stopped" : "failed", step, reason });
    try {
      const feed = await this.#run(["feed", "--days", "1", "--to", dir, "--data", dataDir]);
      r.feed_seconds = round1(feed.seconds);
      if (feed.code !== 0) return void fail("feed", childFailure(feed));
      const day = readFeedDir(dir);
      r.as_of = day.asOf;
      r.results = day.results;
      if (this.#stopping) return void fail("feed", "the server stops");
      const merge = await this.#run(["import", "--from", dir, "--mode", "merge", "--data", dataDir]);
      r.import_seconds = round1(merge.seconds);
      if (merge.code !== 0) return void fail("import", childFailure(merge));
      if (this.#stopping) return void fail("swap", "the server stops (the snapshot is published; the next start serves it)");
      const swap = await this.options.publish();
      r.snapshot = swap.snapshot;
      if (swap.outcome !== "ok" || swap.snapshot === before) return void fail("swap", swap.reason ?? `still serving ${swap.snapshot}`);
      r.outcome = "published";
    } catch (err) {
      fail("round", (err as Error).message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      r.seconds = round1((performance.now() - started) / 1000);
      if (r.outcome === "published") this.counts.published++;
      else if (r.outcome === "failed") this.counts.failed++;
      // the fields in a reader's order
      const { round: n, outcome, days, as_of, results, seconds, feed_seconds, import_seconds, snapshot, step, reason } = r;
      const fields = { round: n, outcome, days, as_of, results, seconds, feed_seconds, import_seconds, snapshot, step, reason };
      log(r.outcome === "failed" ? "warn" : "info", describe(r), { advance: fields });
    }
  }

  /** Runs `artmarket ARGS` as a child at low priority; its stdout whole, its stderr's tail. */
  async #run(args: string[]): Promise<ChildResult> {
    const started = performance.now();
    const child = Bun.spawn(selfCommand(args), { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
    this.#child = child;
    niceProcess(child.pid);
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    this.#child = null;
    // a killed build cannot remove its files; a process that ended has nothing left to write
    if (code !== 0) removeBuildFiles(this.options.dataDir, child.pid);
    return { code, signal: child.signalCode ? String(child.signalCode) : null, stdout, stderrTail: tail(stderr, STDERR_TAIL), seconds: (performance.now() - started) / 1000 };
  }

  /** The rounds' counter, Prometheus text. */
  metricsText(): string {
    return [
      "# HELP artmarket_advance_rounds_total Rounds of serve --advance: published (a new day served), failed, skipped (the previous round still ran).",
      "# TYPE artmarket_advance_rounds_total counter",
      ...(["published", "failed", "skipped"] as const).map((o) => `artmarket_advance_rounds_total{outcome="${o}"} ${this.counts[o]}`),
      "",
    ].join("\n");
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function childFailure(c: ChildResult): string {
  return `${c.signal ? `killed by ${c.signal}` : `exit ${c.code}`}${c.stderrTail ? `: ${c.stderrTail}` : ""}`;
}

/** The round's log line. */
function describe(r: AdvanceRound): string {
  const took = `in ${r.seconds.toFixed(1)} s${r.feed_seconds !== undefined ? ` (feed ${r.feed_seconds.toFixed(1)} s${r.import_seconds !== undefined ? `, import ${r.import_seconds.toFixed(1)} s` : ""})` : ""}`;
  const res = r.results;
  const day = r.as_of ? `day ${r.as_of}, ${res!.sold + res!.passed + res!.withdrawn} result(s) (${res!.sold} sold, ${res!.passed} passed, ${res!.withdrawn} withdrawn)` : "";
  if (r.outcome === "published") return `advance: round ${r.round}: ${day} published ${took}; serving snapshot ${r.snapshot}`;
  if (r.outcome === "stopped") return `advance: round ${r.round} stopped by the server's stop at the ${r.step} step ${took}; its files removed`;
  return `advance: round ${r.round} failed at the ${r.step} step ${took}${day ? ` (${day})` : ""}; still serving ${r.snapshot}: ${r.reason}`;
}

/**
 * Lowers a child's priority: the process and each of its threads so far (on Linux a niceness is a
 * thread's, and the threads it starts later inherit it). Best effort: a failure leaves it as it is.
 */
function niceProcess(pid: number): void {
  let tids: number[] = [pid];
  try {
    tids = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    tids = [pid]; // not Linux, or already gone
  }
  for (const tid of tids) {
    try {
      setPriority(tid, NICE);
    } catch {
      // gone, or not permitted
    }
  }
}
