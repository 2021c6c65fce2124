/**
 * The hot swap (issue 33, item 3): a server with 2 workers moves to a snapshot published into its
 * data directory (a complete file renamed over market.db) while clients keep requesting on
 * keep-alive connections: no 5xx, no failed connection, each client's responses switch from the
 * old X-Market-Snapshot to the new one and never back, /readyz and ETags follow, a cursor of the
 * old snapshot is a 422 naming both; `artmarket reload` answers 0 (served), 1 (refused: a truncated
 * file, counted, the old one kept), and SIGHUP does the same.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openAccountDb } from "../../src/db/connection";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { SqliteAccountStore } from "../../src/serve/accounts/store";
import { nextTinyMarketDir, tempDataDir, tinyMarketDir } from "../helpers/app";
import { spawnServe } from "../helpers/server";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

let dataDir: string;
let otherDir: string;
let server: Awaited<ReturnType<typeof spawnServe>>;
let key: string;

/** Publishes `file` as the data directory's market.db: copied beside it, then renamed over it. */
function publish(file: string | Uint8Array): void {
  const tmp = join(dataDir, "market.db.publishing");
  if (typeof file === "string") copyFileSync(file, tmp);
  else writeFileSync(tmp, file);
  renameSync(tmp, join(dataDir, "market.db"));
}

const readyId = async () => ((await (await fetch(`${server.url}/readyz`)).json()) as { snapshot: { id: string } }).snapshot.id;
const swaps = async () => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const count = (outcome: string) => Number(new RegExp(`artmarket_snapshot_swaps_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? Number.NaN);
  return { ok: count("ok"), refused: count("refused") };
};

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([...ARTMARKET, ...args], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const p99 = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]! : Number.NaN;
};

beforeAll(async () => {
  dataDir = tempDataDir();
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  // the next snapshot: another tiny market (another seed), the run's shared one (only read here)
  otherDir = await nextTinyMarketDir();
  const db = openAccountDb(dataDir);
  new SqliteAccountStore(db).seedPlans();
  // the client loop is not to be rate limited (an operator's edit)
  db.run("UPDATE plans SET rps_limit = 100000, rpm_limit = 10000000 WHERE slug = 'enterprise'");
  key = (await createUserWithKey(db, "enterprise", "hot swap")).key;
  db.close();
  server = await spawnServe(dataDir, ["--workers", "2", "--log-format", "off"]);
}, 180_000);

afterAll(() => {
  server?.proc.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("hot swap", () => {
  test("a published snapshot is served with no failed request; responses move to it and never back", async () => {
    const oldId = await readyId();
    const headers = { Authorization: `Bearer ${key}` };
    const cursor = ((await (await fetch(`${server.url}/v1/lots?limit=3`, { headers })).json()) as { next_cursor: string }).next_cursor;
    const paths = ["/v1/categories", "/v1/artists?limit=5", "/v1/lots?limit=5", "/v1/sales?limit=5"];
    type Sample = { at: number; ms: number; status: number; snapshot: string | null; error?: string };
    const loops: Sample[][] = [];
    let stop = false;
    let publishedAt = Number.POSITIVE_INFINITY;
    let newSeenAt = Number.POSITIVE_INFINITY;
    const clients = Array.from({ length: 4 }, async (_, c) => {
      const samples: Sample[] = [];
      loops.push(samples);
      for (let i = 0; !stop; i++) {
        const at = performance.now();
        try {
          // keep-alive: fetch reuses its connections to the server
          const res = await fetch(`${server.url}${paths[(i + c) % paths.length]}`, { headers });
          await res.arrayBuffer();
          const snapshot = res.headers.get("x-market-snapshot");
          if (snapshot !== oldId && newSeenAt === Number.POSITIVE_INFINITY) newSeenAt = performance.now();
          samples.push({ at, ms: performance.now() - at, status: res.status, snapshot });
        } catch (err) {
          samples.push({ at, ms: performance.now() - at, status: 0, snapshot: null, error: String(err) });
        }
      }
    });
    await Bun.sleep(1500);
    publishedAt = performance.now();
    publish(join(otherDir, "market.db"));
    const deadline = performance.now() + 20_000;
    while (performance.now() < deadline && performance.now() - newSeenAt < 1000) await Bun.sleep(50);
    stop = true;
    await Promise.all(clients);

    const all = loops.flat();
    expect(all.filter((s) => s.error !== undefined)).toEqual([]);
    expect(all.filter((s) => s.status >= 500)).toEqual([]);
    expect(new Set(all.map((s) => s.status))).toEqual(new Set([200]));
    const newId = await readyId();
    expect(newId).not.toBe(oldId);
    for (const samples of loops) {
      const ids = samples.map((s) => s.snapshot);
      const firstNew = ids.indexOf(newId);
      expect(firstNew).toBeGreaterThan(0); // old ones first, then the new one
      expect(ids.slice(0, firstNew).every((id) => id === oldId)).toBe(true);
      expect(ids.slice(firstNew).every((id) => id === newId)).toBe(true);
    }
    const before = all.filter((s) => s.at < publishedAt).map((s) => s.ms);
    const during = all.filter((s) => s.at >= publishedAt && s.at < newSeenAt + 1000).map((s) => s.ms);
    console.log(
      `hot swap, 2 workers, 4 keep-alive clients: ${all.length} requests, 0 failed; p99 before ${p99(before).toFixed(1)} ms (${before.length}), ` +
        `during the swap ${p99(during).toFixed(1)} ms (${during.length}); new snapshot served ${(newSeenAt - publishedAt).toFixed(0)} ms after the rename`,
    );

    // ETags and cursors follow the snapshot; an error names it too
    const etag = (await fetch(`${server.url}/v1/categories`, { headers })).headers.get("etag");
    expect(etag).toStartWith(`W/"${newId}-`);
    const refused = await fetch(`${server.url}/v1/lots?limit=3&cursor=${cursor}`, { headers });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("x-market-snapshot")).toBe(newId);
    const detail = ((await refused.json()) as { detail: { loc: string[]; msg: string }[] }).detail[0]!;
    expect(detail.loc).toEqual(["query", "cursor"]);
    expect(detail.msg).toContain(`made on market snapshot ${oldId}`);
    expect(detail.msg).toContain(`moved to snapshot ${newId}`);
    expect((await fetch(`${server.url}/v1/lots?limit=3`)).headers.get("x-market-snapshot")).toBe(newId); // a 401
    expect(await swaps()).toEqual({ ok: 1, refused: 0 });

    // reload: the newest is served already
    const reload = await cli("reload", "--data", dataDir);
    expect(reload.code).toBe(0);
    expect(reload.stdout).toContain(`serving snapshot ${newId}`);
  }, 120_000);

  test("a truncated file is refused: reload exits 1 with the reason, the old snapshot stays, counted once", async () => {
    const served = await readyId();
    const whole = readFileSync(join(otherDir, "market.db"));
    publish(whole.subarray(0, Math.floor(whole.length / 3)));
    const reload = await cli("reload", "--data", dataDir);
    expect(reload.code).toBe(1);
    expect(reload.stderr).toContain("refused");
    expect(reload.stderr).toMatch(/malformed|integrity|not a readable SQLite database/);
    expect(reload.stderr).toContain(`still serves snapshot ${served}`);
    expect(await readyId()).toBe(served);
    const res = await fetch(`${server.url}/v1/categories`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-market-snapshot")).toBe(served);
    expect(await swaps()).toEqual({ ok: 1, refused: 1 });
  }, 60_000);

  test("SIGHUP swaps to the newest file; reload on a directory no server holds exits 2", async () => {
    const first = join(await tinyMarketDir(), "market.db");
    const sent = Date.now();
    publish(first);
    server.proc.kill("SIGHUP");
    let status: { pid: number; started_at: number; outcome: string; snapshot: string } | null = null;
    for (let i = 0; i < 200 && !(status && status.started_at >= sent); i++) {
      await Bun.sleep(50);
      try {
        status = JSON.parse(readFileSync(join(dataDir, "serve.reload"), "utf8"));
      } catch {
        status = null;
      }
    }
    expect(status?.pid).toBe(server.proc.pid);
    expect(status?.outcome).toBe("ok");
    expect(await readyId()).toBe(status!.snapshot);
    expect((await fetch(`${server.url}/v1/categories`, { headers: { Authorization: `Bearer ${key}` } })).headers.get("x-market-snapshot")).toBe(status!.snapshot);
    expect((await swaps()).ok).toBe(2);

    const none = await cli("reload", "--data", otherDir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no server holds");
  }, 60_000);
});
