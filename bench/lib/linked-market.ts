/**
 * A market served from a scratch data directory through a hard link (the market measured is never
 * copied, and a merge's rename never changes it). Two rules keep the linked file sound:
 * - it is migrated to this build's format at its own path first (openMarketReader), so that a
 *   server never writes the shared file through the link;
 * - a scratch directory is removed only after any rollback journal beside the link has been
 *   played back (a server stopped mid-write leaves one there: removing it would leave the shared
 *   file with half a transaction in it).
 */
import { Database } from "bun:sqlite";
import { existsSync, linkSync, rmSync, symlinkSync } from "node:fs";
import { dirname } from "node:path";
import { openMarketReader } from "../../src/db/connection";

/** Links `source` (a market.db, migrated here first) at `target`: a hard link, else a symlink. */
export function linkMarket(source: string, target: string): "hard link" | "symlink" {
  openMarketReader(dirname(source)).close();
  try {
    linkSync(source, target);
    return "hard link";
  } catch {
    symlinkSync(source, target);
    return "symlink";
  }
}

/** Removes a scratch data directory that links a market, its rollback journal played back first. */
export function removeLinkedScratch(dir: string, market = `${dir}/market.db`): void {
  if (existsSync(`${market}-journal`)) {
    // opening the file rolls the hot journal back into it
    const db = new Database(market);
    db.query("SELECT count(*) FROM sqlite_master").get();
    db.close();
  }
  rmSync(dir, { recursive: true, force: true });
}
