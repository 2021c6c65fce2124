/**
 * The compiled binary, run the way a customer runs it: dist/artmarket copied alone into a fresh
 * folder outside the repo (no node_modules, bunfig.toml or .env within reach), started from there
 * with only `--data DIR`. Builds the binary first unless dist/artmarket is newer than every source
 * file (a clean clone, as in CI, always builds).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };

const ROOT = resolve(import.meta.dir, "../..");
const DIST = join(ROOT, "dist/artmarket");
const KEY = /^am_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/;
const BUILD_TIMEOUT = 300_000;
const STEP_TIMEOUT = 60_000;

let work = "";
let bin = "";
let data = "";
let proKey = "";

/** Newest modification time of the files the binary is made from. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(ROOT, "src"));
  for (const file of ["scripts/build.ts", "package.json"]) newest = Math.max(newest, statSync(join(ROOT, file)).mtimeMs);
  return newest;
}

/** Only what a shell on a clean machine would have: no ARTMARKET_* settings, no repo paths. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: work, LANG: "C.UTF-8" };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

async function run(...args: (string | Record<string, string>)[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.assign(cleanEnv(), ...args.filter((a): a is Record<string, string> => typeof a !== "string"));
  const proc = Bun.spawn([bin, ...args.filter((a): a is string => typeof a === "string")], { cwd: work, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "");
}

/** `serve --port 0` started from the work folder; resolves once it prints its listening line. */
async function serve(args: string[]): Promise<{ base: string; proc: ReturnType<typeof Bun.spawn> }> {
  const proc = Bun.spawn([bin, "serve", "--port", "0", ...args], { cwd: work, env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let buffered = "";
  while (!buffered.includes("\n")) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`serve exited (${await proc.exited}): ${buffered}${await new Response(proc.stderr as ReadableStream).text()}`);
    buffered += new TextDecoder().decode(chunk.value);
  }
  reader.releaseLock();
  const match = /^listening on (http:\/\/\S+:\d+)$/.exec(buffered.split("\n")[0]!);
  if (!match) {
    proc.kill();
    throw new Error(`serve's first line is not the listening line: ${JSON.stringify(buffered)}`);
  }
  return { base: match[1]!, proc };
}

beforeAll(async () => {
  if (!existsSync(DIST) || statSync(DIST).mtimeMs <= newestSource()) {
    const build = Bun.spawn([process.execPath, "scripts/build.ts"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(build.stdout).text(), new Response(build.stderr).text(), build.exited]);
    if (code !== 0) throw new Error(`bun scripts/build.ts exited with ${code}\n${out}\n${err}`);
  }
  work = mkdtempSync(join(tmpdir(), "artmarket-binary-"));
  if (work.startsWith(ROOT)) throw new Error(`temp folder ${work} is inside the repo`);
  bin = join(work, "artmarket");
  copyFileSync(DIST, bin);
  await Bun.$`chmod 755 ${bin}`.quiet();
  data = join(work, "D");
  // Files a started-from folder may hold, which the binary must ignore (it is built without
  // bunfig/dotenv autoload): a bunfig.toml that would fail on a missing preload, and a .env that
  // would move the extracted libraries to lib/from-dotenv/.
  writeFileSync(join(work, "bunfig.toml"), 'preload = ["./missing-preload.ts"]\n');
  writeFileSync(join(work, ".env"), "ARTMARKET_BUILD_ID=from-dotenv\n");
}, BUILD_TIMEOUT);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test(
  "doctor: every native part works",
  async () => {
    const r = await run("doctor", "--data", data);
    const out = lines(r.stdout);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    for (const check of ["sqlite-vec", "argon2", "sharp"]) expect(out.some((l) => l.startsWith(`ok   ${check}:`))).toBe(true);
    expect(out.every((l) => l.startsWith("ok   "))).toBe(true);
    expect(out.find((l) => l.startsWith("ok   build:"))).toContain("(compiled binary)");
  },
  STEP_TIMEOUT,
);

test("the native libraries are extracted under <data>/lib/<build>/", () => {
  const builds = readdirSync(join(data, "lib"));
  expect(builds.length).toBe(1);
  expect(builds[0]).toMatch(/^\d+\.\d+\.\d+-/); // the build id defined at build time, not "dev" or the .env's
  const files = readdirSync(join(data, "lib", builds[0]!));
  expect(files).toContain("vec0.so");
  expect(files.some((f) => /^libvips-cpp\.so\.\d/.test(f))).toBe(true);
  expect(files.some((f) => f.endsWith(".tmp"))).toBe(false);
});

// ---- docs/binary.md's figures, checked against the build (none of them typed by hand)

const MIB = 1024 * 1024;

/** docs/binary.md with its line breaks as spaces, so a phrase may wrap. */
function binaryDoc(): string {
  return readFileSync(join(ROOT, "docs/binary.md"), "utf8").replace(/\s+/g, " ");
}

/** The first capture of `re` in docs/binary.md; fails the test when the doc no longer says it. */
function docSays(re: RegExp): string {
  const m = re.exec(binaryDoc());
  if (!m?.[1]) throw new Error(`docs/binary.md no longer matches ${re}`);
  return m[1];
}

test("docs/binary.md: the binary's size is within 5 % of dist/artmarket's", () => {
  const stated = Number(docSays(/dist\/artmarket \(about (\d+(?:\.\d+)?) MiB\)/));
  const actual = statSync(DIST).size / MIB;
  expect(Math.abs(stated - actual) / actual).toBeLessThanOrEqual(0.05);
});

test("docs/binary.md: dist/ holds exactly the files the doc lists", () => {
  const listed = [...docSays(/`dist\/` holds exactly \w+ files?: ((?:`[^`]+`(?:, | and )?)+)/).matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  expect(listed.length).toBeGreaterThan(0);
  expect(readdirSync(join(ROOT, "dist")).sort()).toEqual(listed.sort());
});

test("docs/binary.md: libvips' file name and size are the embedded library's", () => {
  const native = readFileSync(join(ROOT, "src/platform/native.ts"), "utf8");
  const file = /export const LIBVIPS_FILE = "([^"]+)"/.exec(native)?.[1];
  expect(file).toMatch(/^libvips-cpp\.so\.\d/);
  const doc = binaryDoc();
  // every libvips-cpp.so.<version> the page names is the one native.ts embeds
  const named = [...doc.matchAll(/libvips-cpp\.so\.[\d.]*\d/g)].map((m) => m[0]);
  expect(named.length).toBeGreaterThan(0);
  expect(new Set(named)).toEqual(new Set([file!]));
  const stated = Number(docSays(/`@img\/sharp-libvips-linux-x64`, ~(\d+(?:\.\d+)?) MiB\)/));
  const actual = statSync(join(ROOT, "node_modules/@img/sharp-libvips-linux-x64/lib", file!)).size / MIB;
  expect(Math.abs(stated - actual) / actual).toBeLessThanOrEqual(0.05);
});

test("docs/binary.md: the glibc version is the highest the binary's parts require", () => {
  const stated = docSays(/only glibc \(>= (2\.\d+)\)/);
  // symbol versions (GLIBC_2.N) of the executable and of every library and addon it embeds
  const bytes = readFileSync(DIST);
  const marker = Buffer.from("GLIBC_2.");
  let highest = 0;
  for (let at = bytes.indexOf(marker); at >= 0; at = bytes.indexOf(marker, at + marker.length)) {
    let end = at + marker.length;
    while (end < bytes.length && bytes[end]! >= 0x30 && bytes[end]! <= 0x39) end++;
    if (end > at + marker.length) highest = Math.max(highest, Number(bytes.subarray(at + marker.length, end).toString("latin1")));
  }
  expect(`2.${highest}`).toBe(stated);
  // the Dockerfile's base image comment cites the same figure
  expect(readFileSync(join(ROOT, "deploy/Dockerfile"), "utf8")).toContain(`glibc >= ${stated}`);
});

test("docs/binary.md: the build id has the form the doc gives", async () => {
  const shaLength = Number(docSays(/<(\d+)-char git sha>/));
  const version = await run("--version");
  expect(version.code).toBe(0);
  const build = /^artmarket \S+ \((\S+)\)$/.exec(version.stdout.trim())?.[1];
  // <version>-<sha>[-dirty<timestamp>], or <version>-t<timestamp> outside git
  const form = new RegExp(`^${pkg.version.replaceAll(".", "\\.")}-(?:[0-9a-f]{${shaLength}}(?:-dirty[0-9a-z]+)?|t[0-9a-z]+)$`);
  expect(build).toMatch(form);
});

test(
  "seed --scale tiny writes market.db",
  async () => {
    // two derivation threads and the lots' indexes built beside the derivation, so that the
    // compiled binary's worker entries are used
    const r = await run("seed", "--scale", "tiny", "--data", data, { ARTMARKET_DERIVE_WORKERS: "2", ARTMARKET_EARLY_LOT_INDEXES: "1" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/derive [\d.]+s \(2 threads\)/);
    expect(r.stdout).toMatch(/lot indexes +\d+ of \d+ built beside the derivation/);
    expect(existsSync(join(data, "market.db"))).toBe(true);
  },
  STEP_TIMEOUT,
);

test(
  "keys create prints the key last; keys list shows it",
  async () => {
    const created = await run("keys", "create", "--plan", "pro", "--data", data);
    expect(created.code, created.stderr).toBe(0);
    proKey = lines(created.stdout).at(-1) ?? "";
    expect(proKey).toMatch(KEY);

    const listed = await run("keys", "list", "--data", data);
    expect(listed.code, listed.stderr).toBe(0);
    const kid = proKey.split("_")[1]!;
    expect(listed.stdout).toContain(kid);
    expect(listed.stdout).toContain("pro");
  },
  STEP_TIMEOUT,
);

test(
  "serve with two workers answers an authenticated request, the healthcheck, /readyz and /metrics",
  async () => {
    const proc = Bun.spawn([bin, "serve", "--data", data, "--port", "0", "--workers", "2"], { cwd: work, env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
    try {
      const reader = proc.stdout.getReader();
      let buffered = "";
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<null>((done) => (timer = setTimeout(() => done(null), 20_000)));
      try {
        // Normally the first line is all we need; if `keys create` failed above, account.db has no
        // users and serve creates one and prints its key after the first line: use that one, so this
        // test still says whether serve itself works.
        const wanted = () => (KEY.test(proKey) ? buffered.includes("\n") : /\nam_\S+\n/.test(buffered));
        while (!wanted()) {
          const chunk = await Promise.race([reader.read(), timeout]);
          if (chunk === null) throw new Error(`serve printed no listening line (and key) within 20 s: ${JSON.stringify(buffered)}`);
          if (chunk.done) throw new Error(`serve exited (${await proc.exited}): ${buffered}${await new Response(proc.stderr).text()}`);
          buffered += new TextDecoder().decode(chunk.value);
        }
      } finally {
        clearTimeout(timer);
        reader.releaseLock();
      }
      const first = buffered.split("\n")[0]!;
      const match = /^listening on (http:\/\/\S+:\d+)$/.exec(first);
      expect(match, first).not.toBeNull();
      const base = match![1]!;

      const key = KEY.test(proKey) ? proKey : buffered.trim().split("\n").at(-1)!;
      expect(key).toMatch(KEY);
      const categories = await fetch(`${base}/v1/categories`, { headers: { Authorization: `Bearer ${key}` } });
      const body = await categories.text();
      expect(categories.status, body).toBe(200);
      expect(categories.headers.get("X-Service-DataUnits")).toBe("1");
      expect(Array.isArray(JSON.parse(body))).toBe(true);

      const health = await fetch(`${base}/healthcheck`);
      await health.arrayBuffer();
      expect(health.status).toBe(200);

      const ready = (await (await fetch(`${base}/readyz`)).json()) as { status: string; workers: number; snapshot: { id: string } };
      expect(ready.status).toBe("ready");
      expect(ready.workers).toBe(2);
      expect(ready.snapshot.id).toMatch(/^[0-9a-f]{16}$/);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toContain('artmarket_http_requests_total{route="/v1/categories",method="GET",status="200"} 1');
      expect(metrics).toContain('artmarket_info{version="');
      // account.db's checkpoint thread runs from the binary too (its entry is one of the build's):
      // a PASSIVE checkpoint every 100 ms
      const passive = (text: string) => Number(/^artmarket_account_checkpoints_total\{mode="passive",result="done"\} (\d+)$/m.exec(text)?.[1] ?? 0);
      let checkpoints = passive(metrics);
      for (let i = 0; i < 50 && checkpoints === 0; i++) {
        await Bun.sleep(100);
        checkpoints = passive(await (await fetch(`${base}/metrics`)).text());
      }
      expect(checkpoints).toBeGreaterThan(0);
    } finally {
      proc.kill();
      await proc.exited;
    }
  },
  STEP_TIMEOUT,
);

test(
  "upcoming lots' forecasts, their filter and sort, and a walk by cursor, from the binary",
  async () => {
    const { base, proc } = await serve(["--data", data]);
    try {
      const get = async (path: string) => {
        const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${proKey}` } });
        return { status: res.status, body: (await res.json()) as Record<string, any> };
      };
      const sorted = await get("/v1/lots?status=upcoming&sort=SALE_PROBABILITY_DESC&limit=50");
      expect(sorted.status).toBe(200);
      const lots = sorted.body.lots as Record<string, any>[];
      expect(lots.length).toBeGreaterThan(0);
      for (const [i, lot] of lots.entries()) {
        expect(lot.status).toBe("upcoming");
        expect(lot.sale_probability).toBeGreaterThanOrEqual(0);
        expect(lot.sale_probability).toBeLessThanOrEqual(1);
        if (i > 0) expect(lot.sale_probability).toBeLessThanOrEqual(lots[i - 1]!.sale_probability);
        if (lot.expected_hammer_usd !== null) {
          expect(lot.expected_hammer_usd_low).toBeLessThanOrEqual(lot.expected_hammer_usd);
          expect(lot.expected_hammer_usd_high).toBeGreaterThanOrEqual(lot.expected_hammer_usd);
        }
      }
      const median = lots[Math.floor(lots.length / 2)]!.sale_probability as number;
      const over = await get(`/v1/lots?sale_probability__gte=${median}&limit=100`);
      expect(over.status).toBe(200);
      expect(over.body.lots.length).toBeGreaterThan(0);
      for (const lot of over.body.lots) expect(lot.sale_probability).toBeGreaterThanOrEqual(median);

      // the sold lots by cursor, 7 a page: the offset walk's rows, none twice
      const byOffset: number[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await get(`/v1/lots?status=sold&sort=SALE_DATE_DESC&limit=100&offset=${offset}`);
        byOffset.push(...page.body.lots.map((l: { id: number }) => l.id));
        if (page.body.lots.length < 100 || offset >= 400) break;
      }
      const byCursor: number[] = [];
      let cursor: string | null = null;
      while (byCursor.length < byOffset.length) {
        const page = await get(`/v1/lots?status=sold&sort=SALE_DATE_DESC&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(page.status).toBe(200);
        byCursor.push(...page.body.lots.map((l: { id: number }) => l.id));
        cursor = page.body.next_cursor;
        if (cursor === null) break;
      }
      expect(byCursor.slice(0, byOffset.length)).toEqual(byOffset);
      // a cursor of other filters
      const first = await get("/v1/lots?status=sold&sort=SALE_DATE_DESC&limit=7");
      const wrong = await get(`/v1/lots?status=passed&sort=SALE_DATE_DESC&limit=7&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expect(wrong.status).toBe(422);
      expect(wrong.body.detail[0].loc).toEqual(["query", "cursor"]);
    } finally {
      proc.kill();
      await proc.exited;
    }
  },
  STEP_TIMEOUT,
);

test(
  "the binary with --account-store postgres://: keys made there, two workers serve them, the ledger is in PostgreSQL",
  async () => {
    const { database, stopPostgres } = await import("../helpers/postgres");
    const url = await database("binary");
    const node = mkdtempSync(join(tmpdir(), "artmarket-binary-pg-"));
    try {
      copyFileSync(join(data, "market.db"), join(node, "market.db"));
      const made = await run("keys", "create", "--plan", "pro", "--name", "pg binary", "--data", node, "--account-store", url);
      expect(made.code, made.stderr).toBe(0);
      const key = made.stdout.trim().split("\n").at(-1)!;
      expect(key).toMatch(KEY);
      const { base, proc } = await serve(["--data", node, "--workers", "2", "--account-store", url]);
      try {
        const res = await Promise.all(Array.from({ length: 6 }, () => fetch(`${base}/v1/artists?limit=3`, { headers: { Authorization: `Bearer ${key}` } })));
        expect(res.map((r) => r.status)).toEqual(Array(6).fill(200));
        const seen = res.reduce((s, r) => s + Number(r.headers.get("X-Service-DataUnits")), 0);
        const sql = new Bun.SQL(url, { max: 1 });
        try {
          const [row] = await sql`SELECT count(*)::int AS n, sum(du)::float8 AS du FROM du_ledger`;
          expect(row.n).toBe(6);
          expect(row.du).toBeCloseTo(seen, 6);
        } finally {
          await sql.close();
        }
        expect(existsSync(join(node, "account.db"))).toBe(false);
      } finally {
        proc.kill();
        await proc.exited;
      }
    } finally {
      rmSync(node, { recursive: true, force: true });
      await stopPostgres();
    }
  },
  STEP_TIMEOUT,
);

test(
  "the binary serves the console from itself: the page, every chunk it names, no other origin",
  async () => {
    const proc = Bun.spawn([bin, "serve", "--data", data, "--port", "0", "--workers", "1"], { cwd: work, env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
    try {
      const reader = proc.stdout.getReader();
      let buffered = "";
      while (!buffered.includes("\n")) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`serve exited (${await proc.exited}): ${buffered}${await new Response(proc.stderr).text()}`);
        buffered += new TextDecoder().decode(chunk.value);
      }
      reader.releaseLock();
      const base = /^listening on (http:\/\/\S+:\d+)$/.exec(buffered.split("\n")[0]!)![1]!;

      const page = await fetch(`${base}/console`);
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^text\/html\b/);
      // the bundle embedded at build time: the page names its chunks under /console/
      const named = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
      const chunks = named.filter((n) => /^\/console\/chunk-[\w-]+\.(?:js|css)$/.test(n));
      expect(chunks.filter((c) => c.endsWith(".js")).length).toBeGreaterThan(0);
      expect(chunks.filter((c) => c.endsWith(".css")).length).toBeGreaterThan(0);
      const css: string[] = [];
      for (const chunk of chunks) {
        const res = await fetch(`${base}${chunk}`);
        const body = await res.text();
        expect(res.status, chunk).toBe(200);
        expect(res.headers.get("content-type"), chunk).toMatch(chunk.endsWith(".js") ? /^(?:text|application)\/javascript\b/ : /^text\/css\b/);
        expect(body.length, chunk).toBeGreaterThan(1000);
        if (chunk.endsWith(".css")) css.push(body);
      }
      // no other origin: every address the page or its style sheet names is a path of this server
      // (or a link within the page), and the page's policy allows none
      const addresses = [...named, ...css.flatMap((c) => [...c.matchAll(/url\(\s*["']?([^"')]*)/g)].map((m) => m[1]!))];
      expect(addresses.filter((a) => !/^(?:\/(?!\/)|#|data:)/.test(a))).toEqual([]);
      expect(html).not.toMatch(/(?:https?:)?\/\/[\w-]+(?:\.[\w-]+)+/);
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toMatch(/https?:|\*/);
    } finally {
      proc.kill();
      await proc.exited;
    }
  },
  STEP_TIMEOUT,
);
