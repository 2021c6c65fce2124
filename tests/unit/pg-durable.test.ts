/**
 * The two kinds of test PostgreSQL server (tests/helpers/postgres.ts): the tests' shared one runs
 * with fsync off, its data beside the staged binaries; a durable one (what bench/scale starts, as
 * a deployment runs PostgreSQL) has fsync on and its data directory on the disk (in /var/tmp, not a
 * memory file system), removed when it stops.
 */
import { expect, test } from "bun:test";
import { existsSync, statfsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { database, startPostgres } from "../helpers/postgres";
import { pgStagingBase } from "../helpers/temp";

/** A memory file system's `f_type` (statfs). */
const TMPFS_MAGIC = 0x01021994;

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
