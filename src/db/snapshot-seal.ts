/**
 * A snapshot's seal: a build (seed, import) that finishes its market.db writes `market.db.seal`
 * beside it, naming the file (inode, size) and its digest, before it renames the file into place.
 * A running server checking the published file (src/db/snapshot-check.ts) then reads it once for
 * its digest, about 0.25 s per GB from the page cache on the 2-core dev machine (four reads in
 * flight), rather than walking every b-tree page
 * with `PRAGMA quick_check` (about 7 s per GB): the file is the one its build finished through
 * SQLite, byte for byte, not truncated, not changed since. A file without a seal naming it (copied
 * in by hand, restored from a backup) gets the quick_check; a file whose seal names it but whose
 * digest differs is refused.
 *
 * The digest: xxHash3 (64 bits) of each 16 MiB of the file, then of those hashes in order; hex.
 * Not a cryptographic hash: it guards against accidents (a partial copy, a bad disk), as the
 * quick_check does, not against an operator who rewrites both files.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";

/** The seal of the snapshot at `snapshot`. */
export const sealPath = (snapshot: string): string => `${snapshot}.seal`;

const CHUNK = 16 << 20;

export interface Seal {
  format: 1;
  /** The sealed file's inode and size (a rename keeps both). */
  ino: number;
  size: number;
  digest: string;
}

/** Reads of the digest in flight at once (their copies out of the page cache overlap; about 1.4x one at a time). */
const READS_IN_FLIGHT = 4;

/** The digest of the file at `path` (see the file's comment). */
export async function digestOf(path: string): Promise<string> {
  const file = await open(path, "r");
  try {
    const count = Math.ceil((await file.stat()).size / CHUNK);
    const parts = new BigUint64Array(count);
    let next = 0;
    const reader = async () => {
      const buf = Buffer.allocUnsafe(CHUNK);
      for (let i = next++; i < count; i = next++) {
        const { bytesRead } = await file.read(buf, 0, CHUNK, i * CHUNK);
        parts[i] = BigInt.asUintN(64, BigInt(Bun.hash.xxHash3(buf.subarray(0, bytesRead))));
      }
    };
    await Promise.all(Array.from({ length: READS_IN_FLIGHT }, reader));
    return BigInt.asUintN(64, BigInt(Bun.hash.xxHash3(new Uint8Array(parts.buffer))))
      .toString(16)
      .padStart(16, "0");
  } finally {
    await file.close();
  }
}

/**
 * Publishes the finished snapshot at `tmp` as `target`: its seal first (renamed to
 * `<target>.seal`), then the file itself (a server that looks in between finds the seal naming
 * another inode than the file it checks, and falls back to the quick_check).
 */
export async function publishSnapshot(tmp: string, target: string): Promise<void> {
  const stat = statSync(tmp);
  const seal: Seal = { format: 1, ino: stat.ino, size: stat.size, digest: await digestOf(tmp) };
  const sealTmp = `${tmp}.seal`;
  writeFileSync(sealTmp, JSON.stringify(seal));
  try {
    renameSync(sealTmp, sealPath(target));
  } catch (err) {
    rmSync(sealTmp, { force: true });
    throw err;
  }
  renameSync(tmp, target);
}

/** The seal beside `path` when it names that file (`file`: its inode and size as stat gave them); null otherwise. */
export function sealOf(path: string, file: { ino: number; size: number }): Seal | null {
  try {
    const seal = JSON.parse(readFileSync(sealPath(path), "utf8")) as Partial<Seal>;
    if (seal.format !== 1 || typeof seal.digest !== "string") return null;
    return seal.ino === file.ino && seal.size === file.size ? (seal as Seal) : null;
  } catch {
    return null;
  }
}
