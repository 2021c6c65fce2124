/**
 * Several nodes move to a new snapshot with no operator restarting each (issue 33, item 4): two
 * nodes on one PostgreSQL account store, node B started with `--snapshot-from` node A. A second
 * tiny market (another seed) is published into A's data directory; A swaps to it, B fetches it
 * from A (signed GET /snapshot/market.db, SHA-256 checked) and swaps too, while a client loop on
 * each node sees no 5xx and no failed connection. The snapshot routes refuse an unsigned or
 * wrongly signed request (401, never the file), serve byte ranges, and the fetch helper resumes a
 * cut transfer with a range and refuses a file whose SHA-256 is not the one stated.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FETCHING, fetchSnapshotFile, sha256OfFile } from "../../src/serve/cluster/snapshot-follow";
import { type PublishedSnapshot, SNAPSHOT_KEY_PURPOSE, signSnapshotRequest } from "../../src/serve/http/snapshot-routes";
import { ImageSigner } from "../../src/serve/images/urls";
import { nextTinyMarketDir, tempDataDir, tinyMarketDir } from "../helpers/app";
import { database } from "../helpers/postgres";
import { spawnServe } from "../helpers/server";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

interface Node {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  dataDir: string;
  stderr: () => string;
}

let url: string;
let sql: InstanceType<typeof Bun.SQL>;
let a: Node;
let b: Node;
let otherDir: string;
let key: string;
/** The key the nodes sign snapshot requests with (from the secret they share in account_meta). */
let nodeKey: Buffer;
const dirs: string[] = [];

async function startNode(dataDir: string, extra: string[] = []): Promise<Node> {
  const { proc, url: nodeUrl, stderr } = await spawnServe(dataDir, ["--workers", "2", "--account-store", url, "--log-format", "off", ...extra]);
  return { proc, url: nodeUrl, dataDir, stderr };
}

const readyId = async (n: Node) => ((await (await fetch(`${n.url}/readyz`)).json()) as { snapshot: { id: string } }).snapshot.id;
const signed = (path: string, extra: Record<string, string> = {}) => ({ headers: { Authorization: signSnapshotRequest(nodeKey, "GET", path), ...extra } });

beforeAll(async () => {
  url = await database("nodes_snapshot");
  const market = join(await tinyMarketDir(), "market.db");
  // the next snapshot: another tiny market (another seed), the run's shared one (only copied from)
  otherDir = await nextTinyMarketDir();
  const dirA = tempDataDir();
  const dirB = tempDataDir();
  dirs.push(dirA, dirB);
  copyFileSync(market, join(dirA, "market.db"));
  copyFileSync(market, join(dirB, "market.db"));
  a = await startNode(dirA);
  b = await startNode(dirB, ["--snapshot-from", a.url]);
  sql = new Bun.SQL(url, { max: 2 });
  const made = Bun.spawnSync([...ARTMARKET, "keys", "create", "--plan", "enterprise", "--name", "followers", "--account-store", url, "--data", dirA]);
  if (made.exitCode !== 0) throw new Error(made.stderr.toString());
  key = made.stdout
    .toString()
    .split("\n")
    .find((l) => l.startsWith("am_"))!;
  // the client loops are not to be rate limited (an operator's edit)
  await sql`UPDATE plans SET rps_limit = 100000, rpm_limit = 10000000 WHERE slug = 'enterprise'`;
  const [secret] = await sql`SELECT value FROM account_meta WHERE key = 'image_secret'`;
  nodeKey = new ImageSigner(Buffer.from(secret.value, "hex"), null).derivedKey(SNAPSHOT_KEY_PURPOSE);
  await Bun.sleep(1200); // the plan edit reaches every worker (epoch)
}, 180_000);

afterAll(async () => {
  for (const n of [a, b]) {
    if (!n) continue;
    n.proc.kill("SIGKILL");
    await n.proc.exited;
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await sql?.close();
});

describe("a node that follows another's snapshot", () => {
  test("the snapshot routes: 401 without a valid signature, the snapshot's id, size and SHA-256 with one", async () => {
    for (const path of ["/snapshot", "/snapshot/market.db"]) {
      const bare = await fetch(`${a.url}${path}`);
      expect(bare.status).toBe(401);
      expect(bare.headers.get("content-type")).toContain("application/json");
      expect((await bare.text()).length).toBeLessThan(200);
      // another key, a signature of another path, an expired time
      const wrongKey = await fetch(`${a.url}${path}`, { headers: { Authorization: signSnapshotRequest(Buffer.alloc(32, 7), "GET", path) } });
      expect(wrongKey.status).toBe(401);
      const otherPath = await fetch(`${a.url}${path}`, signed(path === "/snapshot" ? "/snapshot/market.db" : "/snapshot"));
      expect(otherPath.status).toBe(401);
      const old = await fetch(`${a.url}${path}`, { headers: { Authorization: signSnapshotRequest(nodeKey, "GET", path, Date.now() - 600_000) } });
      expect(old.status).toBe(401);
      const bearer = await fetch(`${a.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(bearer.status).toBe(401);
    }
    // the SHA-256 is computed once asked for (B asks A from its start): wait for it
    let res = await fetch(`${a.url}/snapshot`, signed("/snapshot"));
    for (let i = 0; i < 50 && res.status === 503; i++) {
      await Bun.sleep(100);
      res = await fetch(`${a.url}/snapshot`, signed("/snapshot"));
    }
    expect(res.status).toBe(200);
    const info = (await res.json()) as PublishedSnapshot;
    const file = join(a.dataDir, "market.db");
    expect(info.id).toBe(await readyId(a));
    expect(info.size).toBe(statSync(file).size);
    expect(info.sha256).toBe(new Bun.CryptoHasher("sha256").update(readFileSync(file)).digest("hex"));
    expect(info.published_at).toBe(statSync(file).mtime.toISOString());
    // B serves the same market from the start: nothing to fetch
    expect(await readyId(b)).toBe(info.id);
    // no node follows B: its SHA-256 waits for the first signed request (503), then comes
    const first = await fetch(`${b.url}/snapshot`, signed("/snapshot"));
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("2");
    let fromB = first;
    for (let i = 0; i < 50 && fromB.status === 503; i++) {
      await Bun.sleep(100);
      fromB = await fetch(`${b.url}/snapshot`, signed("/snapshot"));
    }
    expect(fromB.status).toBe(200);
    const infoB = (await fromB.json()) as PublishedSnapshot;
    expect([infoB.id, infoB.sha256]).toEqual([info.id, info.sha256]);
  }, 60_000);

  test("a range of the file: 206 with its bytes; a range past the end: 416", async () => {
    const whole = readFileSync(join(a.dataDir, "market.db"));
    const res = await fetch(`${a.url}/snapshot/market.db`, signed("/snapshot/market.db", { Range: "bytes=4096-8191" }));
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 4096-8191/${whole.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(whole.subarray(4096, 8192))).toBe(true);
    const past = await fetch(`${a.url}/snapshot/market.db`, signed("/snapshot/market.db", { Range: `bytes=${whole.length}-` }));
    expect(past.status).toBe(416);
    // an If-Range of another file: the whole file, 200
    const moved = await fetch(`${a.url}/snapshot/market.db`, signed("/snapshot/market.db", { Range: "bytes=4096-", "If-Range": `"${"0".repeat(64)}"` }));
    expect(moved.status).toBe(200);
    expect((await moved.arrayBuffer()).byteLength).toBe(whole.length);
  }, 60_000);

  test("a transfer cut midway resumes with a range; a file of another SHA-256 is refused and never renamed", async () => {
    const info = (await (await fetch(`${a.url}/snapshot`, signed("/snapshot"))).json()) as PublishedSnapshot;
    const whole = readFileSync(join(a.dataDir, "market.db"));
    const dir = tempDataDir();
    dirs.push(dir);
    // what a cut transfer leaves: the first part of the file, and what it is the download of
    const cut = Math.floor(whole.length / 3);
    writeFileSync(join(dir, FETCHING), whole.subarray(0, cut));
    writeFileSync(join(dir, `${FETCHING}.json`), JSON.stringify({ id: info.id, sha256: info.sha256, size: info.size }));
    const resumed = await fetchSnapshotFile({ from: a.url, key: nodeKey, dataDir: dir, info });
    expect(resumed.outcome).toBe("fetched");
    expect(resumed.resumedFrom).toBe(cut);
    expect(resumed.bytes).toBe(whole.length - cut);
    expect(await sha256OfFile(resumed.path)).toBe(info.sha256);
    expect(statSync(resumed.path).mtime.toISOString()).toBe(info.published_at);
    rmSync(resumed.path);

    // a SHA-256 that is not the file's: refused, the download deleted, market.db untouched
    copyFileSync(join(otherDir, "market.db"), join(dir, "market.db"));
    const before = statSync(join(dir, "market.db"));
    const wrong = await fetchSnapshotFile({ from: a.url, key: nodeKey, dataDir: dir, info: { ...info, sha256: "ab".repeat(32) } });
    expect(wrong.outcome).toBe("refused");
    expect(wrong.reason).toContain(`its SHA-256 is ${info.sha256}`);
    expect(wrong.resumedFrom).toBe(0);
    expect(wrong.bytes).toBe(whole.length);
    expect(existsSync(join(dir, FETCHING))).toBe(false);
    const after = statSync(join(dir, "market.db"));
    expect([after.ino, after.size, after.mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs]);
  }, 60_000);

  test("a snapshot published on A is served by A and B, with no 5xx on either meanwhile", async () => {
    const oldId = await readyId(a);
    expect(await readyId(b)).toBe(oldId);
    const headers = { Authorization: `Bearer ${key}` };
    const paths = ["/v1/categories", "/v1/artists?limit=5", "/v1/lots?limit=5", "/v1/sales?limit=5"];
    type Sample = { node: "A" | "B"; at: number; status: number; snapshot: string | null; error?: string };
    const samples: Sample[] = [];
    const newSeen: Record<"A" | "B", number> = { A: Number.POSITIVE_INFINITY, B: Number.POSITIVE_INFINITY };
    let stop = false;
    const clients = (["A", "B", "A", "B"] as const).map(async (name, c) => {
      const node = name === "A" ? a : b;
      for (let i = 0; !stop; i++) {
        const at = performance.now();
        try {
          const res = await fetch(`${node.url}${paths[(i + c) % paths.length]}`, { headers });
          await res.arrayBuffer();
          const snapshot = res.headers.get("x-market-snapshot");
          if (snapshot !== oldId && newSeen[name] === Number.POSITIVE_INFINITY) newSeen[name] = performance.now();
          samples.push({ node: name, at, status: res.status, snapshot });
        } catch (err) {
          samples.push({ node: name, at, status: 0, snapshot: null, error: String(err) });
        }
        await Bun.sleep(20);
      }
    });
    await Bun.sleep(1000);
    const publishedAt = performance.now();
    const tmp = join(a.dataDir, "market.db.publishing");
    copyFileSync(join(otherDir, "market.db"), tmp);
    renameSync(tmp, join(a.dataDir, "market.db"));
    const deadline = performance.now() + 30_000;
    while (performance.now() < deadline && !(Number.isFinite(newSeen.A) && Number.isFinite(newSeen.B) && performance.now() - Math.max(newSeen.A, newSeen.B) > 2000))
      await Bun.sleep(50);
    stop = true;
    await Promise.all(clients);

    expect(samples.filter((s) => s.error !== undefined)).toEqual([]);
    expect(samples.filter((s) => s.status >= 500)).toEqual([]);
    expect(new Set(samples.map((s) => s.status))).toEqual(new Set([200]));
    const newId = await readyId(a);
    expect(newId).not.toBe(oldId);
    expect(await readyId(b)).toBe(newId);
    // each node moves to the new snapshot and never back: every request started a second after its
    // first new answer is on it. (Not "every answer after the first new one": a request in flight at
    // the swap finishes on the old snapshot, after another client's first new answer, and the
    // clients share fetch's connections, which reach the node's two workers, each swapping in turn.)
    for (const name of ["A", "B"] as const) {
      const mine = samples.filter((s) => s.node === name);
      expect(mine.findIndex((s) => s.snapshot === newId)).toBeGreaterThan(0);
      expect(mine.filter((s) => s.at > newSeen[name] + 1000).every((s) => s.snapshot === newId)).toBe(true);
      expect(mine.filter((s) => s.at > newSeen[name] + 1000).length).toBeGreaterThan(0);
    }
    const aMs = newSeen.A - publishedAt;
    const bMs = newSeen.B - publishedAt;
    // A within its swap; B within its poll interval (5 s), the transfer and the checks
    expect(aMs).toBeLessThan(5000);
    expect(bMs).toBeLessThan(15_000);
    // B's file is A's, byte for byte, with A's publication time
    expect(await sha256OfFile(join(b.dataDir, "market.db"))).toBe(await sha256OfFile(join(a.dataDir, "market.db")));
    const publishedOf = async (n: Node) => ((await (await fetch(`${n.url}/readyz`)).json()) as { snapshot: { published_at: string } }).snapshot.published_at;
    expect(await publishedOf(b)).toBe(await publishedOf(a));
    expect(existsSync(join(b.dataDir, FETCHING))).toBe(false);
    const metrics = await (await fetch(`${b.url}/metrics`)).text();
    expect(metrics).toContain('artmarket_snapshot_fetches_total{outcome="ok"} 1');
    expect(metrics).toContain('artmarket_snapshot_swaps_total{outcome="ok"} 1');
    console.log(
      `two nodes, 2 workers each, B following A: ${samples.length} requests (${samples.filter((s) => s.node === "A").length} on A, ` +
        `${samples.filter((s) => s.node === "B").length} on B), 0 failed, 0 5xx; new snapshot served by A ${aMs.toFixed(0)} ms and by B ` +
        `${bMs.toFixed(0)} ms after the rename on A (${(statSync(join(a.dataDir, "market.db")).size / 1048576).toFixed(1)} MB); B's log: ${/snapshot \w+ fetched from .*/.exec(b.stderr())?.[0]}`,
    );
  }, 90_000);
});
