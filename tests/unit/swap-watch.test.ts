/**
 * How the supervisor notices a published snapshot (src/serve/cluster/swap.ts): fs.watch on
 * market.db itself, not on the data directory, whose other files (account.db's WAL, written by
 * every ledger commit) would wake it all the time. The process's inotify watches (Linux's
 * /proc/self/fdinfo) show which inodes are watched. With the poll set far off, only the watch can
 * start a round: a rename over market.db starts one at once, and so does the next (the watch is
 * set again on the new file).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { appendFileSync, copyFileSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { SnapshotSwapper } from "../../src/serve/cluster/swap";
import { tempDataDir, tinyMarketDir } from "../helpers/app";

/** The swapper, counting its rounds (the watch's and the poll's both go through round()). */
class CountingSwapper extends SnapshotSwapper {
  rounds = 0;
  override round(forced: boolean) {
    this.rounds++;
    return super.round(forced);
  }
}

let dataDir: string;
let swapper: CountingSwapper;
const served: string[] = [];

beforeAll(async () => {
  dataDir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  swapper = new CountingSwapper({ dataDir, pollMs: 3_600_000, say: () => {}, broadcast: async () => [], served: (id) => void served.push(id) });
  swapper.start();
});

afterAll(() => {
  swapper.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until(ok: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = performance.now() + ms; !ok(); ) {
    if (performance.now() > deadline) return false;
    await Bun.sleep(10);
  }
  return true;
}

/** The inodes this process's inotify instances watch (hex, as /proc writes them). */
function watchedInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (!readlinkSync(`/proc/self/fd/${fd}`).includes("inotify")) continue;
      for (const m of readFileSync(`/proc/self/fdinfo/${fd}`, "utf8").matchAll(/^inotify wd:\d+ ino:([0-9a-f]+) /gm)) inodes.add(m[1]!);
    } catch {
      // the descriptor closed meanwhile
    }
  }
  return inodes;
}
const inodeOf = (path: string) => statSync(path).ino.toString(16);

/** Publishes a copy of the tiny market stamped `builtAt` (another snapshot id), as operators do: made beside market.db, renamed over it. */
async function publish(builtAt: string): Promise<void> {
  const next = join(dataDir, "market.db.new");
  copyFileSync(join(await tinyMarketDir(), "market.db"), next);
  const db = new Database(next);
  db.run("UPDATE market_meta SET value = ? WHERE key = 'built_at'", [builtAt]);
  db.close();
  renameSync(next, join(dataDir, "market.db"));
}

test.if(process.platform === "linux")("the watch is on market.db's inode, not the data directory's", () => {
  const watched = watchedInodes();
  expect(watched.has(inodeOf(join(dataDir, "market.db")))).toBe(true);
  expect(watched.has(inodeOf(dataDir))).toBe(false);
});

test("writes to the data directory's other files start no round", async () => {
  for (let i = 0; i < 20; i++) {
    appendFileSync(join(dataDir, "account.db-wal"), "a ledger commit");
    await Bun.sleep(10);
  }
  await Bun.sleep(200);
  expect(swapper.rounds).toBe(0);
});

test("a rename over market.db is swapped in with no poll, and the next one too", async () => {
  const first = swapper.snapshot;
  await publish("2026-11-29T10:00:00.000Z");
  expect(await until(() => served.length === 1, 20_000)).toBe(true);
  expect(served[0]).not.toBe(first);
  expect(swapper.snapshot).toBe(served[0]!);

  await publish("2026-11-29T11:00:00.000Z");
  expect(await until(() => served.length === 2, 20_000)).toBe(true);
  expect(new Set([first, ...served]).size).toBe(3);
  expect(swapper.snapshot).toBe(served[1]!);
  // the watch follows each new file, and the old ones are no longer watched
  if (process.platform === "linux") expect(watchedInodes().has(inodeOf(join(dataDir, "market.db")))).toBe(true);
}, 60_000);
