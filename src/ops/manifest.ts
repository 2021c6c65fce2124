/**
 * The format of a backup (src/ops/backup.ts) as a restore (src/ops/restore.ts) reads it: the
 * names of its files, the files every backup holds, the manifest's types and its reading, and the
 * two errors of backup and restore.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ACCOUNT_DB, MARKET_DB } from "../db/connection";
import { ConfigError } from "../platform/config";
import { isDir } from "./files";

export const MANIFEST = "manifest.json";
export const BACKUP_FORMAT = "artmarket-backup";
export const BACKUP_VERSION = 1;
/** The signing secret of image URLs (src/serve/images/urls.ts, loadSecret). */
export const SECRET_FILE = "secret";
/** Uploaded collectable originals, named by their key (src/serve/images/renditions.ts, collectableImageDir). */
export const COLLECTABLE_IMAGES = "images/collectables";
/** Imported image originals of the market (src/pipeline/import, copyImage). */
export const ORIG_IMAGES = "images/orig";

export const COLLECTABLE_KEY = /^c[0-9a-f]{24}$/;
/** An imported original: `<sha256>.<ext>` (an import's `.part-<pid>` copies are left out). */
export const ORIG_NAME = /^[0-9a-f]{64}\.[a-z0-9]*$/;
/**
 * The files every backup holds, whatever its manifest says: the account store and the signing
 * secret (and `market.db` when the manifest says `with_market`). A manifest without one of them
 * is refused, so a backup cannot restore part of a data directory and leave the rest behind.
 */
export const REQUIRED_FILES: readonly string[] = [ACCOUNT_DB, SECRET_FILE];
/** A signing secret as loadSecret writes it: 32 random bytes in hex. */
export const SECRET_TEXT = /^[0-9a-f]{64}$/;
/** Every path a manifest may name; anything else is refused (no path leaves the data directory). */
const BACKUP_PATH = /^(?:account\.db|secret|market\.db|images\/collectables\/c[0-9a-f]{24}|images\/orig\/[0-9a-f]{64}\.[a-z0-9]*)$/;

/** A refusal of the command as given (exit 2): a non-empty target, a held data directory. */
export class BackupRefused extends ConfigError {}
/** A backup that cannot be restored (exit 1): no manifest, a missing file, a checksum that differs. */
export class BackupInvalid extends Error {}

export interface BackupFile {
  /** Relative to the backup (and to the data directory it restores into), `/`-separated. */
  path: string;
  size: number;
  sha256: string;
}

/** What the account store of a backup holds, counted in the snapshot itself. */
export interface AccountCounts {
  users: number;
  api_keys: number;
  du_ledger_rows: number;
  du_total: number;
  collectables: number;
}

/** Where the account store of a backup was read from; the files are the same either way. */
export type AccountStoreKind = "sqlite" | "postgres";

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  artmarket: string;
  created_at: string;
  /** The data directory, or the PostgreSQL URL (its password left out). */
  source: string;
  /** Absent in backups written before the PostgreSQL store existed (they are "sqlite"). */
  account_store?: AccountStoreKind;
  with_market: boolean;
  files: BackupFile[];
  account: AccountCounts;
  /** Originals the snapshot names that were gone by the time they were copied (deleted meanwhile). */
  missing: string[];
}

/** Reads and checks the shape of a backup's manifest (not yet its files' checksums). */
export function readManifest(from: string): BackupManifest {
  const path = join(from, MANIFEST);
  if (!isDir(from)) throw new BackupInvalid(`${from} is not a directory`);
  if (!existsSync(path)) throw new BackupInvalid(`${from} has no ${MANIFEST}: not an artmarket backup, or one that did not finish`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(path, "utf8")) as BackupManifest;
  } catch (err) {
    throw new BackupInvalid(`${path} is not valid JSON (${(err as Error).message})`);
  }
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.files)) throw new BackupInvalid(`${path} is not an artmarket backup manifest`);
  if (manifest.version !== BACKUP_VERSION) throw new BackupInvalid(`${path} has format version ${manifest.version}; this artmarket reads version ${BACKUP_VERSION}`);
  const seen = new Set<string>();
  for (const f of manifest.files) {
    if (typeof f?.path !== "string" || !BACKUP_PATH.test(f.path) || seen.has(f.path)) throw new BackupInvalid(`${path} names an unexpected file: ${JSON.stringify(f?.path)}`);
    if (!Number.isSafeInteger(f.size) || f.size < 0 || typeof f.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(f.sha256))
      throw new BackupInvalid(`${path}: the entry of ${f.path} has no valid size and sha256`);
    seen.add(f.path);
  }
  if (typeof manifest.with_market !== "boolean") throw new BackupInvalid(`${path} has no valid with_market (true or false)`);
  const required = manifest.with_market ? [...REQUIRED_FILES, MARKET_DB] : REQUIRED_FILES;
  const absent = required.filter((name) => !seen.has(name));
  if (absent.length)
    throw new BackupInvalid(`${path} has no entry for ${absent.join(", ")}: every backup holds ${required.join(", ")}; an incomplete or altered backup is not restored`);
  if (manifest.account_store !== undefined && manifest.account_store !== "sqlite" && manifest.account_store !== "postgres")
    throw new BackupInvalid(`${path} names an unknown account store: ${JSON.stringify(manifest.account_store)}`);
  return manifest;
}
