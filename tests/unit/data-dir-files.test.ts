/**
 * What the data directory's own files look like: account.db (and its -wal and -shm) readable by
 * the owner only, also when an earlier build made it 0644; the server lock leaves no
 * `serve.lock-journal`, while held, after a SIGKILL, or after the restart that follows one.
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAccountDb } from "../../src/db/connection";
import { DataDirHeld, holdDataDir, SERVE_LOCK_JOURNAL } from "../../src/platform/serve-lock";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "artmarket-datadir-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

test("a new account.db, its WAL and shared-memory files are 0600", () => {
  const dir = tempDir();
  const db = openAccountDb(dir);
  try {
    db.run("CREATE TABLE mode_probe (x INTEGER)");
    db.run("INSERT INTO mode_probe VALUES (1)");
    for (const name of ["account.db", "account.db-wal", "account.db-shm"]) {
      expect(existsSync(join(dir, name))).toBe(true);
      expect({ name, mode: modeOf(join(dir, name)).toString(8) }).toEqual({ name, mode: "600" });
    }
  } finally {
    db.close();
  }
});

test("an account.db an earlier build made 0644 is tightened to 0600 when it is opened", () => {
  const dir = tempDir();
  openAccountDb(dir).close();
  for (const name of ["account.db", "account.db-wal", "account.db-shm"]) {
    if (!existsSync(join(dir, name))) writeFileSync(join(dir, name), "");
    chmodSync(join(dir, name), 0o644);
  }
  const db = openAccountDb(dir);
  try {
    for (const name of ["account.db", "account.db-wal", "account.db-shm"]) expect({ name, mode: modeOf(join(dir, name)).toString(8) }).toEqual({ name, mode: "600" });
  } finally {
    db.close();
  }
});

/** A process holding `dir`'s server lock, as `serve` does; resolves once it holds it. */
async function holder(dir: string) {
  const code = `const { holdDataDir } = await import(${JSON.stringify(join(import.meta.dir, "../../src/platform/serve-lock.ts"))});
globalThis.lock = holdDataDir(${JSON.stringify(dir)});
console.log("held");
await Bun.sleep(60_000);`;
  const proc = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("held")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the lock holder exited: ${await new Response(proc.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  return proc;
}

test("the server lock leaves no serve.lock-journal: held, after a SIGKILL, and after the restart", async () => {
  const dir = tempDir();
  const first = await holder(dir);
  try {
    expect(readdirSync(dir).sort()).toEqual(["serve.lock", "serve.pid"]);
    expect(() => holdDataDir(dir)).toThrow(DataDirHeld); // still an exclusive lock
  } finally {
    first.kill("SIGKILL");
    await first.exited;
  }
  expect(existsSync(join(dir, SERVE_LOCK_JOURNAL))).toBe(false);
  const second = await holder(dir);
  try {
    expect(readdirSync(dir)).not.toContain(SERVE_LOCK_JOURNAL);
  } finally {
    second.kill("SIGKILL");
    await second.exited;
  }
  expect(readdirSync(dir)).not.toContain(SERVE_LOCK_JOURNAL);
}, 60_000);

test("a serve.lock-journal an earlier build left is removed when the lock is taken", () => {
  const dir = tempDir();
  writeFileSync(join(dir, SERVE_LOCK_JOURNAL), "");
  const lock = holdDataDir(dir);
  try {
    expect(existsSync(join(dir, SERVE_LOCK_JOURNAL))).toBe(false);
  } finally {
    lock.release();
  }
});
