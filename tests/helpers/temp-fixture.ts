/**
 * Not a test of its own: the test file tests/unit/test-temp.test.ts runs in a child `bun test`,
 * with TMPDIR pointed at a fresh folder, to check that a run leaves nothing there. It makes temp
 * folders the ways the tests do (tempDataDir, a bare mkdtemp under tmpdir(), a PostgreSQL staging
 * folder), removes none of them, then does what ARTMARKET_FIXTURE says: `pass`, `fail` (an
 * assertion and a time-out fail), or `hang` (prints "hanging" and waits to be killed).
 */
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempDataDir } from "./app";
import { database } from "./postgres";

const mode = process.env.ARTMARKET_FIXTURE ?? "pass";

test("makes temp folders and leaves them", async () => {
  writeFileSync(join(tempDataDir(), "market.db"), "x".repeat(1024));
  writeFileSync(join(mkdtempSync(join(tmpdir(), "artmarket-bare-")), "file"), "x");
  if (mode === "pg") {
    // a PostgreSQL start: refused at once as root (the staging folder is under a 0700 folder), else a real server
    const started = await database().then(
      () => "started",
      (err: Error) => err.message,
    );
    console.log(`pg: ${started}`);
  }
  expect(mode).not.toBe("fail");
});

if (mode === "fail") {
  test("times out", async () => {
    await Bun.sleep(5_000);
  }, 50);
}

if (mode === "hang") {
  test("hangs until killed", async () => {
    console.log("hanging");
    await Bun.sleep(600_000);
  }, 700_000);
}
