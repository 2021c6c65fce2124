/**
 * A build's seal (src/db/snapshot-seal.ts): a sealed snapshot is checked by its digest, a changed
 * byte is refused, and a file the seal does not name (another inode, no seal) gets SQLite's
 * quick_check.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, copyFileSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { checkSnapshot } from "../../../src/db/snapshot-check";
import { digestOf, publishSnapshot, sealOf, sealPath } from "../../../src/db/snapshot-seal";
import { tempDataDir, tinyMarketDir } from "../../helpers/app";

let dir: string;
let target: string;

beforeAll(async () => {
  dir = tempDataDir("artmarket-seal-");
  target = join(dir, "market.db");
  const tmp = join(dir, "market.db.importing-1");
  copyFileSync(join(await tinyMarketDir(), "market.db"), tmp);
  await publishSnapshot(tmp, target);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("snapshot seal", () => {
  test("publishing writes the seal naming the file, then the file", async () => {
    expect(existsSync(join(dir, "market.db.importing-1"))).toBe(false);
    const stat = statSync(target);
    const seal = JSON.parse(readFileSync(sealPath(target), "utf8"));
    expect(seal).toEqual({ format: 1, ino: stat.ino, size: stat.size, digest: await digestOf(target) });
    expect(seal.digest).toMatch(/^[0-9a-f]{16}$/);
    expect(sealOf(target, stat)).toEqual(seal);
  });

  test("a sealed file is checked by its digest", async () => {
    const check = await checkSnapshot(target);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.integrity).toBe("seal");
  });

  test("one byte changed in place (same inode and size) is refused, and put back is accepted", async () => {
    const at = Math.floor(statSync(target).size / 2);
    const fd = openSync(target, "r+");
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, at);
    const original = byte[0]!;
    writeSync(fd, Buffer.from([original ^ 0xff]), 0, 1, at);
    const bad = await checkSnapshot(target);
    writeSync(fd, Buffer.from([original]), 0, 1, at);
    closeSync(fd);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.reason).toContain("not the one its build sealed");
    expect((await checkSnapshot(target)).ok).toBe(true);
  });

  test("a file the seal does not name gets the quick_check", async () => {
    // a copy over the name: another inode, the seal left naming the old one
    const copy = join(dir, "copy.db");
    copyFileSync(target, copy);
    copyFileSync(sealPath(target), sealPath(copy));
    expect(sealOf(copy, statSync(copy))).toBeNull();
    const check = await checkSnapshot(copy);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.integrity).toBe("quick_check");
    rmSync(sealPath(copy));
    const unsealed = await checkSnapshot(copy);
    if (unsealed.ok) expect(unsealed.integrity).toBe("quick_check");
  });
});
