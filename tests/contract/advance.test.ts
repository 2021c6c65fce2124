/**
 * `serve --advance` (issue 33, item 6): a server on a tiny seeded market feeds it one day and merges
 * it every second in the background (rounds that overrun make the next ones skipped: shown apart, on
 * a 10 ms interval, since a quiet machine's round takes under a second). While a client
 * keeps requesting: /readyz's snapshot id changes, its as_of moves one day per round, every request
 * answers 200, the swap counter grows, each round is one JSON log line; a round whose feed fails
 * (truth.db taken away) is logged with the child's stderr and the server goes on; SIGTERM during an
 * import ends the child and leaves no round directory and no importing file. Bad values exit 2.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openAccountDb } from "../../src/db/connection";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { SqliteAccountStore } from "../../src/serve/accounts/store";
import { MarketAdvancer } from "../../src/serve/cluster/advance";
import { TINY_AS_OF, tempDataDir, tinyMarketDir } from "../helpers/app";
import { spawnServe } from "../helpers/server";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawnSync([...ARTMARKET, ...args], { env: { ...process.env, ...env }, timeout: 30_000 });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

const nextDay = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe("serve --advance: refused values", () => {
  let bare: string;
  beforeAll(async () => {
    bare = tempDataDir();
    dirs.push(bare);
    // an imported market: market.db without its latent truth
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(bare, "market.db"));
  }, 120_000);

  for (const [args, env, says] of [
    [["--advance", "5"], {}, 'takes a duration with a unit (90s, 2m, 1h, 1h30m), got "5"'],
    [["--advance", "0s"], {}, "--advance must be from 1s to 168h"],
    [["--advance", "200h"], {}, "--advance must be from 1s to 168h"],
    [[], { ARTMARKET_ADVANCE: "soon" }, '--advance takes a duration with a unit (90s, 2m, 1h, 1h30m), got "soon"'],
    [["--advance", "2m", "--snapshot-from", "http://127.0.0.1:9"], {}, "--advance cannot be used with --snapshot-from"],
  ] as const) {
    test(`${args.join(" ") || JSON.stringify(env)} → exit 2, one line`, () => {
      const r = cli(["serve", "--data", join(bare, "never"), "--port", "0", ...args], env);
      expect(r.code).toBe(2);
      expect(r.err).toContain(says);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(existsSync(join(bare, "never"))).toBe(false);
    });
  }

  test("a market without truth.db → exit 2 saying why", () => {
    const r = cli(["serve", "--data", bare, "--port", "0", "--advance", "90s", "--log-format", "off"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--advance needs the latent truth of a seeded market (truth.db)");
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.out).toBe("");
  });
});

describe("rounds that overrun", () => {
  test("a round due while one runs is skipped: counted, logged with how long the running one has taken", async () => {
    // no truth.db: each round's feed child fails, after a process start and the CLI's load, far
    // longer than the 10 ms interval, so ticks fall due while it runs
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const lines: { level: string; fields: Record<string, unknown> }[] = [];
    const advancer = new MarketAdvancer({
      dataDir,
      everyMs: 10,
      snapshot: () => "0000000000000000",
      publish: () => Promise.reject(new Error("no round gets this far")),
      log: (level, _msg, fields) => lines.push({ level, fields }),
    });
    advancer.start();
    try {
      const deadline = performance.now() + 30_000;
      while (advancer.counts.failed === 0 && performance.now() < deadline) await Bun.sleep(20);
    } finally {
      await advancer.stop();
    }
    const outcome = (l: (typeof lines)[number]) => (l.fields.advance as { outcome?: string }).outcome;
    const skipped = lines.filter((l) => outcome(l) === "skipped");
    expect(advancer.counts.failed).toBeGreaterThanOrEqual(1);
    expect(advancer.counts.published).toBe(0);
    expect(advancer.counts.skipped).toBeGreaterThan(0);
    expect(skipped).toHaveLength(advancer.counts.skipped);
    for (const l of skipped) {
      expect(l.level).toBe("info");
      expect((l.fields.advance as { running_seconds: number }).running_seconds).toBeGreaterThanOrEqual(0);
    }
    expect(advancer.metricsText()).toContain(`artmarket_advance_rounds_total{outcome="skipped"} ${advancer.counts.skipped}`);
    expect(lines.find((l) => outcome(l) === "failed")!.fields.advance).toMatchObject({ step: "feed" });
  }, 60_000);
});

describe("serve --advance 1s", () => {
  let dataDir: string;
  let key: string;
  beforeAll(async () => {
    dataDir = tempDataDir();
    dirs.push(dataDir);
    const tiny = await tinyMarketDir();
    for (const f of ["market.db", "truth.db"]) copyFileSync(join(tiny, f), join(dataDir, f));
    const db = openAccountDb(dataDir);
    new SqliteAccountStore(db).seedPlans();
    db.run("UPDATE plans SET rps_limit = 100000, rpm_limit = 10000000 WHERE slug = 'enterprise'");
    key = (await createUserWithKey(db, "enterprise", "advance")).key;
    // the user follows every artist: each round's lot events reach them (fanned out by the server)
    const market = new Database(join(dataDir, "market.db"), { readonly: true });
    const artists = market.query<{ id: number }, []>("SELECT id FROM artists").all();
    market.close();
    const user = db.query<{ user_id: number }, []>("SELECT user_id FROM api_keys LIMIT 1").get()!.user_id;
    const follow = db.query("INSERT INTO follows (user_id, kind, target_id, created_at) VALUES (?, 'artist', ?, ?)");
    db.transaction(() => {
      for (const a of artists) follow.run(user, a.id, Date.now());
    })();
    db.close();
  }, 120_000);

  test("rounds publish a day each while requests answer 200; a failed round is logged; SIGTERM mid-round leaves nothing", async () => {
    const server = await spawnServe(dataDir, ["--workers", "2", "--log-format", "json", "--advance", "1s", "--drain-delay", "0"]);
    try {
      type Ready = { snapshot: { id: string; as_of: string } };
      const ready = async () => ((await (await fetch(`${server.url}/readyz`)).json()) as Ready).snapshot;
      const rounds = () =>
        server
          .stderr()
          .split("\n")
          .filter((l) => l.includes('"advance"'))
          .map((l) => JSON.parse(l) as { level: string; msg: string; advance: Record<string, unknown> & { outcome?: string } });
      const metric = async (name: string, outcome: string) =>
        Number(new RegExp(`${name}\\{outcome="${outcome}"\\} (\\d+)`).exec(await (await fetch(`${server.url}/metrics`)).text())?.[1] ?? Number.NaN);
      const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, ms: number, everyMs = 200) => {
        const deadline = performance.now() + ms;
        while (!(await ok())) {
          if (performance.now() > deadline) throw new Error(`no ${what} in ${ms / 1000} s; log: ${server.stderr().slice(-3000)}`);
          await Bun.sleep(everyMs);
        }
      };

      const first = await ready();
      expect(first.as_of).toBe(TINY_AS_OF);
      // a client keeps asking while the rounds run
      const statuses: number[] = [];
      const seen: { id: string; as_of: string }[] = [];
      let stop = false;
      const client = (async () => {
        const headers = { Authorization: `Bearer ${key}` };
        for (let i = 0; !stop; i++) {
          try {
            const res = await fetch(`${server.url}${["/v1/sales?limit=5", "/v1/lots?limit=5", "/v1/artists?limit=5"][i % 3]}`, { headers });
            await res.arrayBuffer();
            statuses.push(res.status);
          } catch {
            statuses.push(0);
          }
          if (i % 5 === 0) seen.push(await ready());
          await Bun.sleep(50);
        }
      })();

      await waitFor("published round", () => rounds().some((r) => r.advance.outcome === "published"), 75_000);
      const published = rounds().filter((r) => r.advance.outcome === "published");
      const now = await ready();
      expect(now.id).not.toBe(first.id);
      expect(now.as_of).toBe(nextDay(TINY_AS_OF, published.length));
      published.forEach((r, i) => {
        expect(r.level).toBe("info");
        expect(r.advance).toMatchObject({ days: 1, as_of: nextDay(TINY_AS_OF, i + 1) });
        expect(r.advance.snapshot).toMatch(/^[0-9a-f]{16}$/);
        expect(r.advance.seconds as number).toBeGreaterThan(0);
        const res = r.advance.results as { sold: number; passed: number; withdrawn: number };
        expect(res.sold + res.passed + res.withdrawn).toBeGreaterThanOrEqual(0);
      });
      expect(published.at(-1)!.advance.snapshot).toBe(now.id);
      // the rounds' events reach the follower: fanned out by a worker after the swap, each with its object
      type Note = { id: string; subject: { kind: string; id: number }; data: { object?: { id: number } } };
      let notes: Note[] = [];
      await waitFor(
        "notification",
        async () => {
          notes = ((await (await fetch(`${server.url}/v1/notifications?limit=100`, { headers: { Authorization: `Bearer ${key}` } })).json()) as { items: Note[] }).items;
          return notes.length > 0;
        },
        15_000,
      );
      for (const n of notes) expect(n.data.object?.id).toBe(n.subject.id);
      // the supervisor logs the fan-out once the worker has answered it, after the rows are there
      await waitFor("the fan-out's log line", async () => server.stderr().includes("notification(s)"), 10_000);
      expect(server.stderr()).toContain("notification(s)");
      expect(await metric("artmarket_snapshot_swaps_total", "ok")).toBe(published.length);
      expect(await metric("artmarket_advance_rounds_total", "published")).toBe(published.length);
      // a round of 2 s or more spans a tick of the 1 s interval: that round was skipped, and said so
      // (a quiet machine runs a round in under a second; the skip itself: "rounds that overrun" below)
      const skippedLines = rounds().filter((r) => r.advance.outcome === "skipped").length;
      expect(await metric("artmarket_advance_rounds_total", "skipped")).toBeGreaterThanOrEqual(skippedLines);
      if (published.some((r) => (r.advance.seconds as number) >= 2)) expect(skippedLines).toBeGreaterThan(0);

      // without its truth the feed fails: logged with the child's stderr, the server goes on
      renameSync(join(dataDir, "truth.db"), join(dataDir, "truth.db.away"));
      await waitFor("failed round", () => rounds().some((r) => r.advance.outcome === "failed"), 20_000);
      const failed = rounds().find((r) => r.advance.outcome === "failed")!;
      expect(failed.level).toBe("warn");
      expect(failed.advance.step).toBe("feed");
      expect(failed.advance.reason).toStartWith("exit 1: ");
      expect(failed.advance.reason).toContain("artmarket feed: no truth.db in");
      // the snapshot is the last published round's (rounds go on publishing until the rename), and
      // no round publishes once the feed fails
      const log = rounds();
      const lastPublished = log.findLastIndex((r) => r.advance.outcome === "published");
      expect(lastPublished).toBeLessThan(log.findIndex((r) => r.advance.outcome === "failed"));
      expect((await ready()).id).toBe(log[lastPublished]!.advance.snapshot as string);
      renameSync(join(dataDir, "truth.db.away"), join(dataDir, "truth.db"));

      // SIGTERM while the next round's import builds: the child ends, its files and the round's directory go.
      // The client stops first, and the import's file is looked for every 5 ms: a tiny round's import
      // is over in about 0.2 s
      stop = true;
      await client;
      await waitFor("import under way", () => readdirSync(dataDir).some((f) => f.startsWith("market.db.importing-")), 30_000, 5);
      server.proc.kill("SIGTERM");
      expect(await server.proc.exited).toBe(0);
      const stopped = rounds().at(-1)!;
      expect(stopped.advance).toMatchObject({ outcome: "stopped", step: "import" });
      expect(readdirSync(dataDir).filter((f) => /^advance-|importing|building/.test(f))).toEqual([]);
      // every request during the rounds answered 200, over both swaps' moments
      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(new Set(seen.map((s) => s.as_of)).size).toBeGreaterThanOrEqual(2);
      console.log(
        `advance 1s, tiny: ${published.length} round(s) published (${published.map((r) => `${r.advance.seconds} s: feed ${r.advance.feed_seconds} s, import ${r.advance.import_seconds} s`).join("; ")}), ` +
          `${rounds().filter((r) => r.advance.outcome === "skipped").length} skipped, ${statuses.length} requests all 200`,
      );
    } finally {
      server.proc.kill("SIGKILL");
    }
  }, 150_000);
});
