/**
 * What-if patches for the benchmark only: changes suggested for src/accounts (see
 * docs/benchmarks.md), applied at run time to one process's deps so their effect can be measured
 * before anyone edits the real code. Nothing here is used by the service.
 * (leanLedgerTable, below, is another: a schema change, applied to a scratch data dir.)
 *
 *   dataVersionPerTick  KeyVerifier reads PRAGMA data_version once per event-loop turn instead of
 *                       once per request (a revocation still takes effect on the next turn).
 *   dailyPerBatch       the group commit upserts du_daily once per (user, day, endpoint) per batch
 *                       instead of once per request, and formats each day once per batch.
 *   bigCheckpoint       wal_autocheckpoint = 16384 pages (64 MiB) instead of 1000, journal_size_limit
 *                       64 MiB: a checkpoint (and its fsyncs) every ~16 times fewer commits.
 *   checkpointWorker    WAL checkpoints leave the request path: wal_autocheckpoint = 0 on the
 *                       writer, a worker thread runs PRAGMA wal_checkpoint(PASSIVE) every 250 ms.
 */
import type { KeyVerifier } from "../../src/accounts/keys";
import type { Ledger, LedgerEntry } from "../../src/accounts/ledger";
import { today } from "../../src/time";

/** The suggested changes (leanTable is applied by bench/core.ts to the what-if server's data dir). */
export const SUGGESTED = ["dataVersionPerTick", "dailyPerBatch", "leanTable", "bigCheckpoint"] as const;
/** Measured, not retained by default (see docs/benchmarks.md). */
export const OTHERS = ["checkpointWorker"] as const;
/**
 * Diagnostics, NOT suggestions (they break the durability contract), to split the cost:
 *   noWait   a response does not wait for its ledger row (still committed at the next turn)
 *   noWrite  the group commit writes nothing at all
 *   noCheckpoint  wal_autocheckpoint = 0: the WAL is never copied back (it grows without bound)
 */
export const DIAGNOSTIC = ["noWait", "noWrite", "noCheckpoint"] as const;
export const WHAT_IFS = [...SUGGESTED, ...OTHERS, ...DIAGNOSTIC] as const;
export type WhatIf = (typeof WHAT_IFS)[number];

export function parseWhatIfs(text: string): WhatIf[] {
  const names = text.split(",").map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!(WHAT_IFS as readonly string[]).includes(n)) throw new Error(`unknown what-if "${n}" (${WHAT_IFS.join(", ")})`);
  return names as WhatIf[];
}

interface VerifierInternals {
  checkVersion(): void;
}

interface LedgerInternals {
  db: import("bun:sqlite").Database;
  insertStmt: import("bun:sqlite").Statement;
  dailyStmt: import("bun:sqlite").Statement;
  noticeStmt: import("bun:sqlite").Statement;
  writeBatch: (entries: LedgerEntry[], noticeRows: unknown[][]) => void;
}

export function applyWhatIfs(
  deps: { verifier: KeyVerifier; ledger: Ledger; account: import("bun:sqlite").Database },
  which: readonly WhatIf[] = SUGGESTED,
): void {
  if (which.includes("noCheckpoint")) deps.account.run("PRAGMA wal_autocheckpoint = 0");
  if (which.includes("bigCheckpoint")) {
    deps.account.run("PRAGMA wal_autocheckpoint = 16384");
    deps.account.run("PRAGMA journal_size_limit = 67108864");
  }
  if (which.includes("checkpointWorker")) {
    deps.account.run("PRAGMA wal_autocheckpoint = 0");
    const worker = new Worker(new URL("./checkpoint-worker.ts", import.meta.url));
    worker.postMessage({ path: deps.account.filename, intervalMs: 250 });
    worker.unref();
  }
  if (which.includes("dataVersionPerTick")) {
    const v = deps.verifier as unknown as VerifierInternals;
    const check = v.checkVersion.bind(v);
    let checked = false;
    v.checkVersion = () => {
      if (checked) return;
      checked = true;
      setImmediate(() => (checked = false));
      check();
    };
  }
  if (which.includes("dailyPerBatch") && "dayOf" in deps.ledger) {
    process.stderr.write("what-if dailyPerBatch: src/accounts/ledger.ts already rolls du_daily up per batch; skipped\n");
  } else if (which.includes("dailyPerBatch")) {
    const l = deps.ledger as unknown as LedgerInternals;
    l.writeBatch = l.db.transaction((entries: LedgerEntry[], noticeRows: unknown[][]) => {
      const daily = new Map<string, { userId: number; day: string; endpoint: string; du: number; requests: number }>();
      let lastDayMs = -1;
      let day = "";
      for (const e of entries) {
        const dayMs = Math.floor(e.ts / 86_400_000);
        if (dayMs !== lastDayMs) (lastDayMs = dayMs), (day = today(e.ts));
        l.insertStmt.run(e.userId, e.keyId, e.ts, day, e.method, e.route, e.status, e.records, e.du);
        const endpoint = `${e.method} ${e.route}`;
        const k = `${e.userId}|${day}|${endpoint}`;
        const d = daily.get(k);
        if (d) (d.du += e.du), d.requests++;
        else daily.set(k, { userId: e.userId, day, endpoint, du: e.du, requests: 1 });
      }
      for (const d of daily.values()) dailyUpsert(l).run(d.userId, d.day, d.endpoint, d.du, d.requests);
      for (const row of noticeRows) l.noticeStmt.run(...(row as [number]));
    });
  }
  if (which.includes("noWrite")) (deps.ledger as unknown as LedgerInternals).writeBatch = () => {};
  if (which.includes("noWait")) {
    const ledger = deps.ledger;
    const charge = ledger.charge.bind(ledger);
    ledger.charge = (caller, entry) => {
      void charge(caller, entry);
      return Promise.resolve(ledger.windows(caller, entry.ts));
    };
  }
}

const upserts = new WeakMap<object, import("bun:sqlite").Statement>();
function dailyUpsert(l: LedgerInternals): import("bun:sqlite").Statement {
  let s = upserts.get(l);
  if (!s) {
    s = l.db.query(
      `INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(user_id, day, endpoint) DO UPDATE SET du = du + excluded.du, requests = requests + excluded.requests`,
    );
    upserts.set(l, s);
  }
  return s;
}

/**
 * What-if for a scratch data dir only: du_ledger without AUTOINCREMENT (an append-only table
 * gains nothing from it; it costs a sqlite_sequence update per row) and without the
 * (user_id, ts) index (no query in src/ reads du_ledger; usage reads du_daily).
 * The table must be empty.
 */
export function leanLedgerTable(db: import("bun:sqlite").Database): void {
  const n = db.query<{ n: number }, []>("SELECT count(*) AS n FROM du_ledger").get()!.n;
  if (n !== 0) throw new Error("leanLedgerTable: du_ledger is not empty");
  db.transaction(() => {
    db.run("DROP TABLE du_ledger");
    db.run(
      `CREATE TABLE du_ledger (id integer PRIMARY KEY NOT NULL, user_id integer NOT NULL, key_id integer NOT NULL,
       ts integer NOT NULL, day text NOT NULL, method text NOT NULL, route text NOT NULL, status integer NOT NULL,
       records integer NOT NULL, du real NOT NULL)`,
    );
  })();
}
