/**
 * The tests' temporary folders (tests/helpers/temp.ts): a child `bun test` of
 * tests/helpers/temp-fixture.ts, with TMPDIR pointed at a fresh folder, leaves it empty whether its
 * tests pass, fail or time out, after a failed PostgreSQL start, and when it is stopped by SIGTERM;
 * what a SIGKILLed run left is swept by the next run. The PostgreSQL binaries' staging
 * (tests/helpers/postgres.ts) gives a folder the user `postgres` can run them from, also when the
 * project lies under a folder only its owner can enter.
 */
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedAncestor, packagedNativeDir, stagePostgresBinaries } from "../helpers/postgres";
import { processRuns } from "../helpers/temp";

const root = join(import.meta.dir, "../..");
const made: string[] = [];

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function freshTmp(): string {
  const dir = mkdtempSync(join(tmpdir(), "artmarket-tmpcheck-"));
  made.push(dir);
  return dir;
}

function fixture(tmp: string, mode: string) {
  // a plain `bun test`, also when this file runs in a parallel worker (whose marks it would inherit)
  const { BUN_TEST_WORKER_ID: _worker, JEST_WORKER_ID: _jest, ...env } = process.env;
  return Bun.spawn([process.execPath, "test", "--timeout", "60000", "./tests/helpers/temp-fixture.ts"], {
    cwd: root,
    env: { ...env, TMPDIR: tmp, ARTMARKET_TEST_PG_TMP: tmp, ARTMARKET_FIXTURE: mode },
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function runFixture(tmp: string, mode: string): Promise<{ code: number; out: string }> {
  const proc = fixture(tmp, mode);
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out: out + err };
}

/** Starts the fixture in `hang` mode; resolves once it hangs with its folders made. */
async function hangingFixture(tmp: string) {
  const proc = fixture(tmp, "hang");
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("hanging")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the fixture ended: ${text}${await new Response(proc.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  return proc;
}

test("a passing run leaves its TMPDIR empty", async () => {
  const tmp = freshTmp();
  const { code, out } = await runFixture(tmp, "pass");
  expect(code, out).toBe(0);
  expect(readdirSync(tmp)).toEqual([]);
}, 120_000);

test("a run whose tests fail or time out leaves its TMPDIR empty", async () => {
  const tmp = freshTmp();
  const { code, out } = await runFixture(tmp, "fail");
  expect(code, out).toBe(1);
  expect(out).toContain("2 fail");
  expect(readdirSync(tmp)).toEqual([]);
}, 120_000);

test("a PostgreSQL start that cannot succeed fails at once and leaves its staging folder nowhere", async () => {
  const tmp = freshTmp();
  const t0 = performance.now();
  const { code, out } = await runFixture(tmp, "pg");
  expect(code, out).toBe(0);
  if (process.getuid?.() === 0) {
    // as root the server would run as `postgres`, who cannot enter the test's 0700 folder
    expect(out).toContain("pg: the test PostgreSQL did not start: the staging folder");
    expect(out).toContain("which the user postgres cannot enter");
    expect(performance.now() - t0).toBeLessThan(30_000);
  } else {
    expect(out).toContain("pg: started");
  }
  expect(readdirSync(tmp)).toEqual([]);
}, 120_000);

test("a run stopped by SIGTERM leaves its TMPDIR empty", async () => {
  const tmp = freshTmp();
  const proc = await hangingFixture(tmp);
  const [run] = readdirSync(tmp);
  expect(run).toMatch(new RegExp(`^artmarket-run-${proc.pid}-`));
  expect(
    readdirSync(join(tmp, run!))
      .sort()
      .map((n) => n.replace(/-\w{6}$/, "")),
  ).toEqual(["artmarket-bare", "artmarket-test"]);
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(143);
  expect(readdirSync(tmp)).toEqual([]);
}, 120_000);

test("what a SIGKILLed run left is swept by the next run", async () => {
  const tmp = freshTmp();
  const proc = await hangingFixture(tmp);
  proc.kill("SIGKILL");
  await proc.exited;
  const left = readdirSync(tmp);
  expect(left).toHaveLength(1);
  expect(left[0]).toMatch(new RegExp(`^artmarket-run-${proc.pid}-`));
  expect(processRuns(proc.pid)).toBe(false);
  const { code, out } = await runFixture(tmp, "pass");
  expect(code, out).toBe(0);
  expect(readdirSync(tmp)).toEqual([]);
}, 120_000);

test("the PostgreSQL binaries are staged where others can run them, from a project under a 0700 folder", () => {
  const closed = freshTmp(); // mode 0700, as /root is
  chmodSync(closed, 0o700);
  const project = stagePostgresBinaries(packagedNativeDir(), join(closed, "project"));
  expect(closedAncestor(project)).toBe(closed);
  const staging = mkdtempSync(`/tmp/artmarket-pg-${process.pid}-`);
  made.push(staging);
  chmodSync(staging, 0o755);
  const native = stagePostgresBinaries(project, staging);
  expect(native).toBe(join(staging, "native"));
  expect(closedAncestor(native)).toBeNull();
  for (const name of ["postgres", "initdb", "pg_ctl"]) expect(statSync(join(native, "bin", name)).mode & 0o777).toBe(0o755);
  // the versioned library links the server needs
  expect(statSync(join(native, "lib", "libicuuc.so.60")).isFile()).toBe(true);
  if (process.getuid?.() === 0) {
    const as = (dir: string) => {
      const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout);
      const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout);
      return spawnSync(join(dir, "bin", "postgres"), ["--version"], { uid, gid, encoding: "utf8" });
    };
    // from the project the user postgres cannot even start the binary; from the staging folder it runs
    expect(as(project).status).not.toBe(0);
    const staged = as(native);
    expect(staged.status, staged.stderr).toBe(0);
    expect(staged.stdout).toContain("PostgreSQL) 18");
  }
}, 120_000);
