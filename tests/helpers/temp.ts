/**
 * The tests' temporary folders. Every test process gets one folder of its own,
 * `<tmp>/artmarket-run-<pid>-XXXXXX`, and TMPDIR points into it (so `tmpdir()`, `mkdtempSync`
 * of every test and helper, and the children that inherit the environment write inside it); it is
 * removed after the last test file (the preload's afterAll: `bun test` fires no "exit" event), at
 * exit (a process outside `bun test`), and on SIGINT, SIGTERM and SIGHUP. The folders of earlier runs
 * whose process no longer runs (killed with SIGKILL, or a crash) are swept when the next one
 * starts, and so is the PostgreSQL staging folder of tests/helpers/postgres.ts
 * (`<pgStagingBase()>/artmarket-pg-<pid>-XXXXXX`), its server stopped first when it still runs.
 *
 * tests/helpers/preload.ts (bunfig.toml's [test] preload) calls `setUpTestTemp()` before any test
 * file loads; the helpers call it too, for a run without the preload.
 *
 * Under `bun test --parallel` (npm test) each worker process is a test process of its own, with
 * its own folder, tiny market and PostgreSQL server. A worker runs the preload's afterAll after
 * each of its files and ends with no "exit" event, so there nothing is removed by the afterAll:
 * a detached process (tests/helpers/reaper.ts) waits for the worker to end, then sweeps its folders.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Folders of this process's making: `<prefix><pid>-XXXXXX`. */
const OWNED = /^artmarket-(run|pg)-(\d+)-[A-Za-z0-9]{6}$/;

const removals = new Set<() => void>();
let root: string | null = null;
let hooked = false;

/**
 * Whether process `pid` still runs (EPERM: it does, as another user). A zombie (ended, not reaped
 * yet: an orphan whose init does not reap) does not.
 */
export function processRuns(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return true; // no /proc: kill's answer
  }
}

/** How long a sweep waits for a left server it stopped to end before removing its folder (ms). */
const LEFT_SERVER_STOP_MS = 10_000;

/**
 * Stops the PostgreSQL servers left running on the data directories (`data-*`) under `dir`
 * (postmaster.pid's first line) and waits until they have ended: an ending server still writes
 * into its data directory, which a removal meanwhile would leave half there.
 */
function stopLeftServers(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith("data"));
  } catch {}
  const stopped: number[] = [];
  for (const name of names) {
    const file = join(dir, name, "postmaster.pid");
    if (!existsSync(file)) continue;
    try {
      const pid = Number(readFileSync(file, "utf8").split("\n")[0]);
      if (processRuns(pid)) {
        process.kill(pid, "SIGQUIT");
        stopped.push(pid);
      }
    } catch {
      // not ours to stop, or gone meanwhile
    }
  }
  const deadline = Date.now() + LEFT_SERVER_STOP_MS;
  while (stopped.some(processRuns) && Date.now() < deadline) Bun.sleepSync(20);
}

/**
 * Removes the folders of dead test processes from `base`: `artmarket-run-<pid>-*` and
 * `artmarket-pg-<pid>-*` whose pid no longer runs. Returns the paths removed.
 */
export function sweepDeadRuns(base: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = OWNED.exec(name);
    if (!m || processRuns(Number(m[2]))) continue;
    const path = join(base, name);
    try {
      if (m[1] === "pg") stopLeftServers(path);
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // another user's, or removed meanwhile by another run's sweep
    }
  }
  return removed;
}

/**
 * Runs every registered removal now (the preload's afterAll, after the last test file; `bun test`
 * fires no "exit" event).
 */
export function removeRegistered(): void {
  for (const remove of [...removals].reverse()) {
    try {
      remove();
    } catch {}
  }
  removals.clear();
}

/** Runs `remove` when the process exits (or is stopped by SIGINT, SIGTERM, SIGHUP); returns a function that unregisters it. */
export function onExitRemove(remove: () => void): () => void {
  removals.add(remove);
  if (!hooked) {
    hooked = true;
    process.on("exit", removeRegistered);
    for (const [signal, code] of [
      ["SIGINT", 2],
      ["SIGTERM", 15],
      ["SIGHUP", 1],
    ] as const) {
      process.once(signal, () => process.exit(128 + code));
    }
  }
  return () => removals.delete(remove);
}

/** Removes `path` (a folder or a file) when the process exits; returns a function that unregisters it. */
export function removeAtExit(path: string): () => void {
  return onExitRemove(() => rmSync(path, { recursive: true, force: true }));
}

/**
 * Whether this process is a worker of `bun test --parallel` (which sets BUN_TEST_WORKER_ID in
 * each): its files share the process, and the process ends without a last afterAll or "exit".
 */
export function parallelWorker(): boolean {
  return process.env.BUN_TEST_WORKER_ID !== undefined;
}

/** A memory file system's `f_type` (statfs). */
export const TMPFS_MAGIC = 0x01021994;
/** The room /dev/shm must have for the PostgreSQL servers of a run (a run's peak was 435 MiB). */
const PG_MEMORY_ROOM = 2 * 1024 ** 3;

/**
 * Where tests/helpers/postgres.ts stages its servers (binaries and data directories):
 * ARTMARKET_TEST_PG_TMP when set; else /dev/shm where it is a memory file system with
 * PG_MEMORY_ROOM free, since a server's files are thrown away with it, and creating a database's
 * few hundred files on a disk file system cost the run about 7 s of CPU (ext4 inode allocation);
 * else /tmp.
 */
export function pgStagingBase(): string {
  if (process.env.ARTMARKET_TEST_PG_TMP) return process.env.ARTMARKET_TEST_PG_TMP;
  return memoryTempBase();
}

/** /dev/shm where it is a memory file system with PG_MEMORY_ROOM free, else /tmp. */
export function memoryTempBase(): string {
  try {
    const fs = statfsSync("/dev/shm");
    if (fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= PG_MEMORY_ROOM) return "/dev/shm";
  } catch {
    // no /dev/shm: the disk
  }
  return "/tmp";
}

/** Where a durable PostgreSQL server keeps its data (tests/helpers/postgres.ts): /var/tmp, on the disk, else the system's temporary folder. */
export function durableDataBase(): string {
  return existsSync("/var/tmp") ? "/var/tmp" : tmpdir();
}

/**
 * The folders the test processes make their own in: this process's TMPDIR, /tmp, PostgreSQL's
 * staging base, /dev/shm where it exists (an earlier run may have staged there when it had room)
 * and a durable server's data base.
 */
function tempBases(base: string): Set<string> {
  return new Set([base, "/tmp", pgStagingBase(), durableDataBase(), ...(existsSync("/dev/shm") ? ["/dev/shm"] : [])]);
}

/**
 * Makes this process's temporary folder and points TMPDIR at it (once); sweeps dead runs' folders
 * first; in a parallel worker, starts the reaper that sweeps the worker's own when it ends. Returns
 * the folder.
 */
export function setUpTestTemp(): string {
  if (root) return root;
  const base = tmpdir();
  const bases = tempBases(base);
  for (const dir of bases) sweepDeadRuns(dir);
  root = mkdtempSync(join(base, `artmarket-run-${process.pid}-`));
  const made = root;
  removeAtExit(made);
  process.env.TMPDIR = made;
  if (parallelWorker()) {
    const reaper = spawn(process.execPath, [join(import.meta.dir, "reaper.ts"), String(process.pid), ...bases], { detached: true, stdio: "ignore" });
    reaper.unref();
  }
  return made;
}
