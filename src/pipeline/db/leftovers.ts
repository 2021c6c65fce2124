/**
 * What a killed build leaves behind, and whether a build fits on the disk.
 *
 * A seed or an import builds its snapshot in files named after its process (`market.db.building-
 * <pid>`, `market.db.importing-<pid>`, their works file and journals, `truth.db.building-<pid>`,
 * `embeddings.building-<pid>`) and renames or deletes them when it ends. A build that is killed
 * (SIGKILL, the machine's OOM killer, a power cut) cannot: its files stay, up to about 17 GB at full
 * scale, and no later build would remove them, since each removes only files of its own PID.
 * `removeStaleBuilds` removes the files of every such PID that is no longer running; every command
 * that takes a data directory calls it as it starts (src/cli.ts), and seed and import call it again
 * before they check the free space (`checkDiskSpace`), so a rebuild reclaims the space first.
 *
 * Only the names below, each matched whole, are ever removed; a PID that is alive (our own, or
 * one we may not signal) keeps its files, even when it is an unrelated process that reuses the
 * number: the safe side. Renditions written by a killed server (`images/cache/<id>/….<pid>.….tmp`,
 * a few kB each) are not looked for: that would read one folder per cached image at every start.
 */
import { existsSync, readdirSync, rmSync, statfsSync, statSync, type Dirent } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError, pipelineSettings, type Scale } from "../../platform/config";

/** A PID written in a file name: 1 to 10 digits, no leading zero (Linux PIDs are below 2^22). */
const PID = "(?<pid>[1-9]\\d{0,9})";
/** The files SQLite may keep beside a database, and a build's seal of it (src/db/snapshot-seal.ts). */
const SIDE = "(?:-journal|-wal|-shm|\\.seal)?";

interface Pattern {
  /** The folder, below the data directory; "*" in a segment: any folder there. */
  readonly dir: readonly string[];
  readonly name: RegExp;
  /** What wrote such a file (for the message). */
  readonly by: string;
  /** Under images/: looked for only when asked (StaleOptions.images), as such folders may hold millions of files. */
  readonly images?: boolean;
}

/** Every file name in src/ that holds a process's PID (grep `process.pid`), one pattern each. */
export const BUILDER_PATTERNS: readonly Pattern[] = [
  // src/pipeline/seed/index.ts, src/pipeline/import/run.ts and merge.ts; the works file: src/pipeline/db/works-file.ts (worksPath)
  { dir: [], name: new RegExp(`^market\\.db\\.building-${PID}(?:-works)?${SIDE}$`), by: "seed" },
  { dir: [], name: new RegExp(`^market\\.db\\.importing-${PID}(?:-works)?${SIDE}$`), by: "import" },
  // src/pipeline/seed/index.ts (TRUTH_DB)
  { dir: [], name: new RegExp(`^truth\\.db\\.building-${PID}${SIDE}$`), by: "seed" },
  // src/pipeline/images/embed-market.ts: the image vectors' staging file, of a seed or an import
  { dir: [], name: new RegExp(`^embeddings\\.building-${PID}${SIDE}$`), by: "seed or import" },
  // src/platform/native.ts (materialize): `<name>.<pid>.<thread>.<random>.tmp` in lib/<build>/
  { dir: ["lib", "*"], name: new RegExp(`^[^/]+\\.${PID}\\.\\d+\\.[0-9a-z]+\\.tmp$`), by: "library extraction" },
  // src/pipeline/import/importer.ts (copyImage): `<sha256>.<ext>.part-<pid>` in images/orig/
  { dir: ["images", "orig"], name: new RegExp(`^[0-9a-f]{64}\\.[a-z0-9]*\\.part-${PID}$`), by: "import", images: true },
  // src/serve/modules/collectables/images.ts (storeImage): `c<24 hex>.<pid>.tmp` in images/collectables/
  { dir: ["images", "collectables"], name: new RegExp(`^c[0-9a-f]{24}\\.${PID}\\.tmp$`), by: "image upload", images: true },
];

export interface StaleOptions {
  /** Also look under images/ (orig/, collectables/); default false. */
  images?: boolean;
  /** Called with one line per PID whose files were removed (the CLI writes it to stderr). */
  log?: (line: string) => void;
}

export interface StaleBuilds {
  /** The paths removed. */
  removed: string[];
  /** Their size. */
  bytes: number;
}

/** Whether a process `pid` exists: signal 0 checks without sending; only ESRCH says it is gone. */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH"; // EPERM: alive, another user's
  }
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // missing or unreadable: nothing to remove there
  }
}

/** The folders of `segments` below `root` ("*": every folder there). */
function folders(root: string, segments: readonly string[]): string[] {
  let dirs = [root];
  for (const seg of segments) {
    dirs =
      seg === "*"
        ? dirs.flatMap((d) =>
            entries(d)
              .filter((e) => e.isDirectory())
              .map((e) => join(d, e.name)),
          )
        : dirs.map((d) => join(d, seg)).filter((d) => existsSync(d));
  }
  return dirs;
}

/**
 * Removes the builder files (BUILDER_PATTERNS) of every process that no longer exists, in
 * `dataDir` and its lib/<build>/ folders (and under images/ with `images`). Never throws: a file
 * that cannot be removed is left, and a later start tries again.
 */
export function removeStaleBuilds(dataDir: string, options: StaleOptions = {}): StaleBuilds {
  const removed: string[] = [];
  let bytes = 0;
  const alive = new Map<number, boolean>();
  const byPid = new Map<number, { files: number; bytes: number; by: Set<string> }>();
  for (const pattern of BUILDER_PATTERNS) {
    if (pattern.images && !options.images) continue;
    for (const dir of folders(dataDir, pattern.dir)) {
      for (const e of entries(dir)) {
        const m = pattern.name.exec(e.name);
        if (!m || !e.isFile()) continue;
        const pid = Number(m.groups!.pid);
        if (!alive.has(pid)) alive.set(pid, isProcessAlive(pid));
        if (alive.get(pid)) continue;
        const path = join(dir, e.name);
        let size = 0;
        try {
          size = statSync(path).size;
          rmSync(path);
        } catch {
          continue; // gone already (another start removed it), or not ours to remove
        }
        removed.push(path);
        bytes += size;
        const sum = byPid.get(pid) ?? { files: 0, bytes: 0, by: new Set<string>() };
        sum.files++;
        sum.bytes += size;
        sum.by.add(pattern.by);
        byPid.set(pid, sum);
      }
    }
  }
  if (options.log) {
    for (const [pid, s] of byPid) {
      if (s.by.has("seed") || s.by.has("import")) s.by.delete("seed or import");
      options.log(`removed ${s.files} file${s.files === 1 ? "" : "s"} of an interrupted ${[...s.by].join(" and ")} (pid ${pid}), ${formatBytes(s.bytes)}`);
    }
  }
  return { removed, bytes };
}

/**
 * The CLI's call as a command starts: removes the stale builder files of `dataDir` (under images/
 * too with `images`) and says so on stderr. Creates nothing: a missing directory has none.
 */
export function removeStaleBuildsAtStart(dataDir: string, options: { images?: boolean } = {}): void {
  if (!existsSync(dataDir)) return;
  removeStaleBuilds(dataDir, { ...options, log: (line) => process.stderr.write(`artmarket: ${line}\n`) });
}

/** The commands that take a data directory, which remove stale builder files as they start. */
export const DATA_DIR_COMMANDS: readonly string[] = ["serve", "seed", "import", "export", "keys", "users", "notices", "doctor"];

/** 1,234 B, 12.3 kB, 1.2 MB, 1.2 GB (powers of 1000, as the README's sizes). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ["kB", "MB", "GB", "TB", "PB"];
  let v = n / 1000;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** Not enough free disk space for a build: the CLI prints it as it does a bad flag (a ConfigError). */
export class DiskSpaceError extends ConfigError {}

/** `ARTMARKET_SKIP_SPACE_CHECK=1`: build without checking the free space (pipelineSettings, src/platform/config.ts). */
export const SKIP_SPACE_CHECK_ENV = "ARTMARKET_SKIP_SPACE_CHECK";

/** Bytes free to this user on the file system of `path` (or of its nearest existing folder); null when statfs fails. */
export function freeDiskBytes(path: string): number | null {
  let p = resolve(path);
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  try {
    const s = statfsSync(p);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/**
 * Throws DiskSpaceError when the file system of `dataDir` has less than `neededBytes` free:
 * "not enough free disk space in DIR for WHAT: about 18.5 GB needed, 3.2 GB free". No check with
 * ARTMARKET_SKIP_SPACE_CHECK=1, nor where statfs cannot tell.
 */
export function checkDiskSpace(dataDir: string, neededBytes: number, what: string, env: Record<string, string | undefined> = process.env): void {
  if (pipelineSettings(env).skipSpaceCheck) return;
  const free = freeDiskBytes(dataDir);
  if (free === null || free >= neededBytes) return;
  throw new DiskSpaceError(
    `not enough free disk space in ${dataDir} for ${what}: about ${formatBytes(neededBytes)} needed, ${formatBytes(free)} free ` +
      `(free some space, or set ${SKIP_SPACE_CHECK_ENV}=1 to build anyway)`,
  );
}

const MiB = 1024 * 1024;

/** A seeded market on disk, market.db and truth.db (docs/benchmarks.md#seed), in MiB. */
const SEED_MIB: Record<Scale, number> = { tiny: 19, small: 78, medium: 571, large: 3805, full: 14107 };

/**
 * The disk a seed of `scale` needs while it builds: the finished market and its truth, plus a
 * quarter for what lives only during the build (the works file, about 1.7 GB at full scale, the
 * image vectors' staging file, SQLite's sort runs when its temporary folder is on the same disk).
 * The market it replaces stays until the new one is renamed into place, so it is not counted free.
 */
export function seedSpaceNeeded(scale: Scale): number {
  return Math.ceil(SEED_MIB[scale] * 1.25 * MiB);
}

/** The size of every file under `dir` (following no folder link). */
function treeBytes(dir: string, skip: ReadonlySet<string>): number {
  let sum = 0;
  for (const e of entries(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory()) sum += treeBytes(path, skip);
    else if (!skip.has(path)) {
      try {
        const s = statSync(path);
        if (s.isFile()) sum += s.size;
      } catch {
        // a broken link
      }
    }
  }
  return sum;
}

/**
 * The disk an import of the directory `from` needs while it builds: three times its record files
 * (`records`: the rows, their indexes, the derived tables), its other files once (image originals,
 * copied into images/orig/), the current market when merging (its rows are copied into the new
 * snapshot), and 16 MiB for the reference data.
 */
export function importSpaceNeeded(from: string, records: readonly string[], mergeWith: string | null): number {
  let recordBytes = 0;
  for (const path of records) {
    try {
      recordBytes += statSync(path).size;
    } catch {
      // the import says what is wrong with it
    }
  }
  const others = treeBytes(from, new Set(records.map((p) => resolve(p))));
  const current = mergeWith !== null && existsSync(mergeWith) ? statSync(mergeWith).size : 0;
  return 3 * recordBytes + others + current + 16 * MiB;
}
