#!/usr/bin/env bun
/**
 * What one ledger transaction on account.db costs, by batch size: LedgerWriter.write (the rows,
 * the two daily roll-ups, one transaction) on a fresh account.db, no HTTP, no server.
 *
 *   bun bench/lib/ledger-cost.ts [--rows 1,16,256,2048] [--accounts 1,100] [--rounds 5] [--rows-per-round 48000]
 *                                [--locking normal|exclusive]
 *
 * Each round writes --rows-per-round rows in batches of each size (a row per request as a served
 * call charges it: GET /v1/artists/{artist_id}, 1 record, 1 DU; the batch's rows spread over
 * --accounts accounts, each with its own key), with the WAL checkpointed between rounds (as the
 * checkpoint thread keeps it short) and not inside them. Reported: CPU µs a batch (user + system
 * of this process, which does nothing else) and a row, medians of the rounds.
 *
 * `--locking exclusive` runs the same with PRAGMA locking_mode = EXCLUSIVE, a diagnostic only (a
 * server's workers could not share account.db so): the difference is what the WAL-index locks of a
 * transaction cost.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAccountDb } from "../../src/db/connection";
import { type LedgerEntry, LedgerWriter } from "../../src/serve/accounts/ledger";
import { readFlags } from "./flags";
import { fmt, median, table } from "./stats";

const flags = readFlags(process.argv.slice(2), ["rows", "accounts", "rounds", "rows-per-round", "locking"]);
const list = (name: string, def: string) =>
  String(flags[name] ?? def)
    .split(",")
    .map((x) => {
      const n = Number(x);
      if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: positive integers, comma-separated`);
      return n;
    });
const sizes = list("rows", "1,16,256,2048");
const accounts = list("accounts", "1,100");
const rounds = list("rounds", "5")[0]!;
const perRound = list("rows-per-round", "48000")[0]!;
const locking = String(flags.locking ?? "normal");
if (locking !== "normal" && locking !== "exclusive") throw new Error("--locking: normal or exclusive");

const entry = (i: number, accountsIn: number): LedgerEntry => {
  const id = 1 + (i % accountsIn);
  return { userId: id, keyId: id, ts: Date.now(), method: "GET", route: "/v1/artists/{artist_id}", status: 200, records: 1, du: 1 };
};

/** CPU µs a batch, one per round, for batches of `size` rows over `accountsIn` accounts. */
function measure(size: number, accountsIn: number): number[] {
  const dir = mkdtempSync(join(tmpdir(), "artmarket-ledger-cost-"));
  const db = openAccountDb(dir);
  try {
    db.run("PRAGMA wal_autocheckpoint = 0");
    if (locking === "exclusive") db.run("PRAGMA locking_mode = EXCLUSIVE");
    const writer = new LedgerWriter(db);
    const batches = Math.max(1, Math.round(perRound / size));
    const batch = () => Array.from({ length: size }, (_, i) => entry(i, accountsIn));
    // warm-up: the statements prepared, the tables' first pages made
    for (let b = 0; b < Math.min(batches, 200); b++) writer.write(batch(), []);
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const out: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const made = Array.from({ length: batches }, batch);
      const before = process.cpuUsage();
      for (const rows of made) writer.write(rows, []);
      const used = process.cpuUsage(before);
      out.push((used.user + used.system) / batches);
      db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    return out;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: string[][] = [];
for (const a of accounts) {
  for (const size of sizes) {
    const us = measure(size, a);
    const m = median(us);
    rows.push([String(size), String(Math.min(a, size)), fmt(m, 1), fmt(m / size, 2), us.map((x) => fmt(x, 1)).join(" ")]);
    process.stderr.write(`batch ${size} rows, ${Math.min(a, size)} account(s): ${fmt(m, 1)} µs a batch\n`);
  }
}
process.stdout.write(
  `\nledger transaction on account.db (LedgerWriter.write), locking ${locking}, ${perRound} rows × ${rounds} rounds per size; CPU µs, medians\n` +
    `${table(["rows a batch", "accounts in it", "µs a batch", "µs a row", "rounds"], rows)}\n`,
);
