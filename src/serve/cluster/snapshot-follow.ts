/**
 * A node that follows another's snapshot (issue 33, item 4): `serve --snapshot-from URL`. Nodes on
 * one PostgreSQL account store each serve a market.db of their own; one node imports and publishes,
 * the others follow it over HTTP. The follower's supervisor asks the source for its snapshot
 * (`GET /snapshot`, src/serve/http/snapshot-routes.ts) every POLL_MS and at once on a reload
 * (SIGHUP, `artmarket reload`); when the id differs from the one it serves, it downloads the
 * source's market.db into `<data>/market.db.fetching` (a transfer cut midway resumes from where it
 * stopped at the next poll, with an HTTP range, while the source serves the same file), checks its
 * size and SHA-256 against what the source stated, runs the snapshot checks on it (integrity,
 * migrations, read indexes: src/db/snapshot-check.ts, on a thread of its own), gives it the
 * source's modification time (so `published_at` and the snapshot's age agree on every node) and
 * renames it over market.db: the hot swap (swap.ts) takes it from there, without checking it again.
 * A file that fails the SHA-256 or a check is deleted, logged and counted, never renamed; the same
 * file (by its SHA-256) is not fetched again. Requests are signed with a key derived from the
 * image-signing secret, which nodes on one PostgreSQL store share.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { marketDbPath } from "../../db/connection";
import type { FileIdentity } from "../../db/snapshot-check";
import { type PublishedSnapshot, signSnapshotRequest } from "../http/snapshot-routes";
import { checkOffThread, onCheckThread, type SnapshotSwapper } from "./swap";

/** How often a follower asks its source for the snapshot it serves. */
export const POLL_MS = 5000;
/** A download that receives nothing for this long is cut (and resumed at the next poll). */
const STALL_MS = 30_000;
/** Where a download goes, in the data directory, and what it is the download of. */
export const FETCHING = "market.db.fetching";
const FETCHING_INFO = "market.db.fetching.json";

/** SHA-256 of a file, hex, read on a thread of its own (check-worker.ts): the caller's thread goes on serving. */
export async function sha256OfFile(path: string): Promise<string> {
  const answer = await onCheckThread<{ sha256?: string; error?: string }>({ path, job: "sha256" }, (error) => ({ error }));
  if (answer.sha256 === undefined) throw new Error(`SHA-256 of ${path}: ${answer.error}`);
  return answer.sha256;
}

/** `GET <from>/snapshot`, signed. */
export async function sourceSnapshot(from: string, key: Buffer, timeoutMs = 10_000): Promise<PublishedSnapshot> {
  const res = await fetch(`${from}/snapshot`, { headers: { Authorization: signSnapshotRequest(key, "GET", "/snapshot") }, signal: AbortSignal.timeout(timeoutMs) });
  if (res.status !== 200) throw new Error(`GET ${from}/snapshot answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const info = (await res.json()) as PublishedSnapshot;
  if (typeof info.id !== "string" || !Number.isSafeInteger(info.size) || !/^[0-9a-f]{64}$/.test(info.sha256 ?? "") || Number.isNaN(Date.parse(info.published_at)))
    throw new Error(`GET ${from}/snapshot answered no snapshot: ${JSON.stringify(info).slice(0, 200)}`);
  return info;
}

export interface FetchResult {
  /** fetched: the file is at `path`, its SHA-256 the one stated; failed: try again (a partial file is kept to resume); refused: the SHA-256 is not the one stated (the file is deleted). */
  outcome: "fetched" | "failed" | "refused";
  reason?: string;
  /** The downloaded file (fetched). */
  path: string;
  /** Where this transfer started in the file (0: from the start). */
  resumedFrom: number;
  /** Bytes received by this transfer. */
  bytes: number;
  ms: number;
}

/**
 * Downloads the source's market.db, whose `GET /snapshot` said `info`, into `<dataDir>/market.db.fetching`,
 * resuming a partial file of the same snapshot (same SHA-256) with a range request; then checks its
 * size and SHA-256. Renames nothing.
 */
export async function fetchSnapshotFile(options: { from: string; key: Buffer; dataDir: string; info: PublishedSnapshot; stallMs?: number }): Promise<FetchResult> {
  const { from, key, dataDir, info } = options;
  const started = performance.now();
  const path = join(dataDir, FETCHING);
  const infoPath = join(dataDir, FETCHING_INFO);
  let resumedFrom = 0;
  let bytes = 0;
  const result = (outcome: FetchResult["outcome"], reason?: string): FetchResult => ({ outcome, reason, path, resumedFrom, bytes, ms: performance.now() - started });
  const discard = () => {
    rmSync(path, { force: true });
    rmSync(infoPath, { force: true });
  };
  try {
    const partial = JSON.parse(readFileSync(infoPath, "utf8")) as { sha256?: string };
    if (partial.sha256 === info.sha256 && existsSync(path)) resumedFrom = Math.min(statSync(path).size, info.size);
  } catch {
    resumedFrom = 0;
  }
  if (resumedFrom === 0) {
    discard();
    writeFileSync(infoPath, `${JSON.stringify({ id: info.id, sha256: info.sha256, size: info.size })}\n`);
  }
  if (resumedFrom < info.size) {
    const etag = `"${info.sha256}"`;
    const headers: Record<string, string> = { Authorization: signSnapshotRequest(key, "GET", "/snapshot/market.db") };
    if (resumedFrom > 0) Object.assign(headers, { Range: `bytes=${resumedFrom}-`, "If-Range": etag });
    const abort = new AbortController();
    let stall: ReturnType<typeof setTimeout> | undefined;
    const stallMs = options.stallMs ?? STALL_MS;
    const watch = () => {
      clearTimeout(stall);
      stall = setTimeout(() => abort.abort(new Error(`no data for ${stallMs / 1000} s`)), stallMs);
    };
    let file: Awaited<ReturnType<typeof open>> | null = null;
    try {
      watch();
      const res = await fetch(`${from}/snapshot/market.db`, { headers, signal: abort.signal });
      if (res.status !== 200 && res.status !== 206) {
        const text = (await res.text()).slice(0, 200);
        return result("failed", `GET ${from}/snapshot/market.db answered ${res.status}: ${text}`);
      }
      let at: number;
      // a 206 is the file of If-Range (the source answers a newer file whole, 200); a whole file is
      // checked against the SHA-256 stated once it is here
      if (res.status === 206) {
        const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get("content-range") ?? "");
        if (!m || Number(m[1]) !== resumedFrom || Number(m[3]) !== info.size) {
          await res.body?.cancel();
          discard();
          return result("failed", `unexpected Content-Range ${res.headers.get("content-range")} for bytes ${resumedFrom}-`);
        }
        at = resumedFrom;
      } else {
        at = 0;
        resumedFrom = 0;
      }
      file = await open(path, at === 0 ? "w" : "r+");
      for await (const chunk of res.body ?? []) {
        watch();
        await file.write(chunk, 0, chunk.length, at);
        at += chunk.length;
        bytes += chunk.length;
      }
      await file.sync();
    } catch (err) {
      return result("failed", `the transfer stopped after ${bytes} byte(s) (${resumedFrom + bytes} of ${info.size}; resumed at the next poll): ${(err as Error).message}`);
    } finally {
      clearTimeout(stall);
      await file?.close();
    }
  }
  const size = statSync(path).size;
  if (size !== info.size) {
    if (size > info.size) discard();
    return result(size > info.size ? "refused" : "failed", `${size} byte(s) received of ${info.size}`);
  }
  const sha256 = await sha256OfFile(path);
  if (sha256 !== info.sha256) {
    discard();
    return result("refused", `its SHA-256 is ${sha256}, not the ${info.sha256} the source stated`);
  }
  // the source's publication time, so that published_at and the snapshot's age agree on every node
  const mtime = new Date(info.published_at);
  utimesSync(path, mtime, mtime);
  return result("fetched");
}

export interface FollowRound {
  outcome: "current" | "swapped" | "failed" | "refused" | "unreachable";
  snapshot: string;
  reason?: string;
}

export interface FollowerOptions {
  from: string;
  key: Buffer;
  dataDir: string;
  swapper: SnapshotSwapper;
  say(level: "info" | "warn" | "error", msg: string): void;
  pollMs?: number;
}

export class SnapshotFollower {
  readonly counts = { ok: 0, failed: 0, refused: 0 };
  #poll: ReturnType<typeof setInterval> | null = null;
  #round: Promise<FollowRound> | null = null;
  #unreachable = false;
  /** The SHA-256 of the last file refused (not fetched again). */
  #refused: string | null = null;
  /** The file last fetched and renamed into place, and its SHA-256 (the supervisor need not hash it again). */
  #fetched: { file: string; sha256: string } | null = null;

  constructor(private readonly options: FollowerOptions) {}

  start(): void {
    void this.poll();
    this.#poll = setInterval(() => void this.poll(), this.options.pollMs ?? POLL_MS);
  }

  stop(): void {
    if (this.#poll) clearInterval(this.#poll);
    this.#poll = null;
  }

  /** The SHA-256 of `file` if it is the one this follower fetched (and checked). */
  knownSha256(file: FileIdentity): string | null {
    return this.#fetched && this.#fetched.file === `${file.dev}:${file.ino}:${file.size}:${file.mtimeMs}` ? this.#fetched.sha256 : null;
  }

  /**
   * Asks the source now; fetches and publishes its snapshot when it is not the one served. One at a
   * time. `forced` (a reload) fetches again a file refused before.
   */
  poll(forced = false): Promise<FollowRound> {
    if (forced) this.#refused = null;
    this.#round ??= this.#follow().finally(() => {
      this.#round = null;
    });
    return this.#round;
  }

  async #follow(): Promise<FollowRound> {
    const { from, key, dataDir, swapper, say } = this.options;
    let info: PublishedSnapshot;
    try {
      info = await sourceSnapshot(from, key);
    } catch (err) {
      const reason = (err as Error).message;
      if (!this.#unreachable) say("warn", `snapshot source ${from} does not answer, still serving ${swapper.snapshot}: ${reason}`);
      this.#unreachable = true;
      return { outcome: "unreachable", snapshot: swapper.snapshot, reason };
    }
    if (this.#unreachable) say("info", `snapshot source ${from} answers again`);
    this.#unreachable = false;
    if (info.id === swapper.snapshot) return { outcome: "current", snapshot: info.id };
    if (info.sha256 === this.#refused) return { outcome: "refused", snapshot: swapper.snapshot, reason: `the file of snapshot ${info.id} was refused before` };
    const fetched = await fetchSnapshotFile({ from, key, dataDir, info });
    if (fetched.outcome !== "fetched") {
      if (fetched.outcome === "refused") this.#refuse(info, fetched.reason!);
      else {
        this.counts.failed++;
        say("warn", `snapshot ${info.id} from ${from}: fetch failed, still serving ${swapper.snapshot}: ${fetched.reason}`);
      }
      return { outcome: fetched.outcome, snapshot: swapper.snapshot, reason: fetched.reason };
    }
    const check = await checkOffThread(fetched.path);
    if (!check.ok) {
      rmSync(fetched.path, { force: true });
      rmSync(join(dataDir, FETCHING_INFO), { force: true });
      this.#refuse(info, `it fails the snapshot checks: ${check.reason}`);
      return { outcome: "refused", snapshot: swapper.snapshot, reason: check.reason };
    }
    renameSync(fetched.path, marketDbPath(dataDir));
    rmSync(join(dataDir, FETCHING_INFO), { force: true });
    this.#fetched = { file: `${check.file.dev}:${check.file.ino}:${check.file.size}:${check.file.mtimeMs}`, sha256: info.sha256 };
    this.counts.ok++;
    const mb = (n: number) => (n / 1048576).toFixed(1);
    say(
      "info",
      `snapshot ${info.id} fetched from ${from}: ${mb(fetched.bytes)} MB in ${(fetched.ms / 1000).toFixed(2)} s${fetched.resumedFrom ? ` (resumed at ${mb(fetched.resumedFrom)} MB)` : ""}, SHA-256 and checks passed; publishing it`,
    );
    const round = await swapper.round(false, check);
    return round.snapshot === info.id ? { outcome: "swapped", snapshot: info.id } : { outcome: "refused", snapshot: round.snapshot, reason: round.reason };
  }

  #refuse(info: PublishedSnapshot, reason: string): void {
    this.counts.refused++;
    this.#refused = info.sha256;
    this.options.say("warn", `snapshot ${info.id} from ${this.options.from} refused, still serving ${this.options.swapper.snapshot}: ${reason}`);
  }

  /** The fetch counter, Prometheus text. */
  metricsText(): string {
    return [
      "# HELP artmarket_snapshot_fetches_total Snapshots fetched from the source node (--snapshot-from): ok (fetched, checked, published), failed (retried), refused (SHA-256 or checks).",
      "# TYPE artmarket_snapshot_fetches_total counter",
      ...(["ok", "failed", "refused"] as const).map((o) => `artmarket_snapshot_fetches_total{outcome="${o}"} ${this.counts[o]}`),
      "",
    ].join("\n");
  }
}
