/** The files of backup and restore: copies hashed as they are written, fsync of files and folders. */
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";

const CHUNK = 8 << 20;

/** Copies `src` to `dst` (mode 0600, synced) and returns its size and SHA-256, read once. */
export function copyHashed(src: string, dst: string): { size: number; sha256: string } {
  mkdirSync(dirname(dst), { recursive: true, mode: 0o700 });
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(CHUNK);
  const input = openSync(src, "r");
  let size = 0;
  try {
    const output = openSync(dst, "wx", 0o600);
    try {
      for (;;) {
        const n = readSync(input, buf, 0, CHUNK, null);
        if (n === 0) break;
        hash.update(buf.subarray(0, n));
        for (let off = 0; off < n; ) off += writeSync(output, buf, off, n - off);
        size += n;
      }
      fsyncSync(output);
    } finally {
      closeSync(output);
    }
  } finally {
    closeSync(input);
  }
  return { size, sha256: hash.digest("hex") };
}

export function hashFile(path: string): { size: number; sha256: string } {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(path, "r");
  let size = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      size += n;
    }
  } finally {
    closeSync(fd);
  }
  return { size, sha256: hash.digest("hex") };
}

/** fsync of a directory (its renames and new entries), where the platform allows it. */
export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not every file system lets a directory be opened for sync
  }
}

export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The regular files of `dir` whose names match `name` (none when `dir` is absent). */
export function filesIn(dir: string, name: RegExp): string[] {
  if (!isDir(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && name.test(e.name))
    .map((e) => e.name)
    .sort();
}

/** Writes `bytes` to `dst` (mode 0600, synced) and returns their size and SHA-256. */
export function writeHashed(bytes: Uint8Array, dst: string): { size: number; sha256: string } {
  mkdirSync(dirname(dst), { recursive: true, mode: 0o700 });
  const fd = openSync(dst, "wx", 0o600);
  try {
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

export function fsyncFile(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
