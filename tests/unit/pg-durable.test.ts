/**
 * The two kinds of test PostgreSQL server (tests/helpers/postgres.ts): the tests' shared one runs
 * with fsync off, its data beside the staged binaries; a durable one (what bench/scale starts, as
 * a deployment runs PostgreSQL) has fsync on and its data directory on the disk (in /var/tmp, not a
 * memory file system), removed when it stops; when the process that started it is SIGKILLed, the
 * next test run stops that server and removes its folder (tests/helpers/temp.ts).
 */
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { database, startPostgres } from "../helpers/postgres";
import { pgStagingBase, processRuns, TMPFS_MAGIC } from "../helpers/temp";

async function settings(url: string): Promise<{ fsync: string; data: string }> {
  const sql = new Bun.SQL(url, { max: 1 });
  try {
    const [fsync] = (await sql`SHOW fsync`) as { fsync: string }[];
    const [data] = (await sql`SHOW data_directory`) as { data_directory: string }[];
    return { fsync: fsync!.fsync, data: data!.data_directory };
  } finally {
    await sql.close();
  }
}

test("the tests' server runs with fsync off, its data beside the staged binaries", async () => {
  const { fsync, data } = await settings(await database("durable"));
  expect(fsync).toBe("off");
  expect(data.startsWith(`${resolve(pgStagingBase())}/`)).toBe(true);
});

test("a durable server runs with fsync on, its data in /var/tmp, not in memory, gone once stopped", async () => {
  const server = await startPostgres({ durable: true });
  let data = "";
  try {
    const shown = await settings(await server.database("durable"));
    data = shown.data;
    expect(shown.fsync).toBe("on");
    expect(dirname(dirname(data))).toBe("/var/tmp");
    expect(statfsSync(data).type).not.toBe(TMPFS_MAGIC);
  } finally {
    await server.stop();
  }
  expect(existsSync(dirname(data))).toBe(false);
}, 120_000);

test("a durable server whose process was SIGKILLed is stopped, and its folder removed, by the next test run", async () => {
  const root = join(import.meta.dir, "../..");
  // a process that starts a durable server, says where its data is, and waits to be killed
  const script = `const { startPostgres } = await import(${JSON.stringify(join(root, "tests/helpers/postgres.ts"))});
const server = await startPostgres({ durable: true });
const sql = new Bun.SQL(server.url("postgres"), { max: 1 });
const [row] = await sql\`SHOW data_directory\`;
console.log("data " + row.data_directory);
await Bun.sleep(600_000);`;
  const child = Bun.spawn([process.execPath, "-e", script], { cwd: root, stdout: "pipe", stderr: "pipe" });
  const reader = child.stdout.getReader();
  let text = "";
  while (!/data (\S+)\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the child ended: ${text}${await new Response(child.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  const data = /data (\S+)\n/.exec(text)![1]!;
  child.kill("SIGKILL");
  await child.exited;
  const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  expect(processRuns(postmaster)).toBe(true);
  // the next run: a process that sets up its test temp (as the preload does), with a fresh TMPDIR
  const tmp = mkdtempSync(join(tmpdir(), "artmarket-sweep-"));
  try {
    const next = Bun.spawn([process.execPath, "-e", `(await import(${JSON.stringify(join(root, "tests/helpers/temp.ts"))})).setUpTestTemp();`], {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await next.exited).toBe(0);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  // the sweep waited for the server to end before removing its folder
  expect(existsSync(dirname(data))).toBe(false);
  expect(processRuns(postmaster)).toBe(false);
}, 120_000);
