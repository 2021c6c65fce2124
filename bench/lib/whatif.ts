/**
 * What-if patches for the benchmark only: changes suggested for src/serve/accounts (see
 * docs/history/benchmarks.md), applied at run time to one process's deps so their effect can be measured
 * before anyone edits the real code. Nothing here is used by the service.
 * (leanLedgerTable, below, is another: a schema change, applied to a scratch data dir.)
 *
 *   dataVersionPerTick  KeyVerifier reads PRAGMA data_version once per event-loop turn instead of
 *                       once per request (a revocation still takes effect on the next turn).
 *                       The service does so since: skipped.
 *   dailyPerBatch       the group commit upserts du_daily once per (user, day, endpoint) per batch
 *                       instead of once per request, and formats each day once per batch. The
 *                       service does so since: skipped.
 *   bigCheckpoint       wal_autocheckpoint = 16384 pages (64 MiB) instead of 1000, journal_size_limit
 *                       64 MiB: a checkpoint (and its fsyncs) every ~16 times fewer commits.
 *   ledgerWorker        the group commit runs in a worker thread (bench/lib/ledger-worker.ts); the
 *                       request thread posts each batch and its responses wait for the answer.
 *   checkpointWorker    WAL checkpoints leave the request path: wal_autocheckpoint = 0 on the
 *                       writer, a worker thread runs PRAGMA wal_checkpoint(PASSIVE) every 250 ms.
 *   journal             the group commit appends its rows (and notices) to a file of the data dir,
 *                       one write() of JSON lines a batch, instead of an SQLite transaction: as
 *                       durable as account.db's commit is (through the death of the process, not of
 *                       the machine), but nothing folds the lines into account.db here, so usage
 *                       and the windows' reload would not see them. What such a journal, folded in
 *                       the background, would cost the request path.
 *   journalFold         `journal`, and every FOLD_MS the same thread folds what was appended since
 *                       into account.db: the new complete lines read back from the file and parsed,
 *                       written by the ledger's own transaction (rows and roll-ups) together with
 *                       the offset folded to. The whole of such a design's CPU, in the process's
 *                       figures; account.db trails the calls by up to FOLD_MS.
 *   journalRollups      journalFold, but the fold writes only the daily roll-ups (du_daily,
 *                       du_key_daily) and the notices: the journal files would be the per-call
 *                       record, du_ledger no longer written (its ledger check reads 0 rows).
 *   binaryJournal       with journal, journalFold or journalRollups: each row a fixed record of
 *                       eight float64 (the method and route as an id of an in-memory table, which
 *                       a real journal would also write once per route) instead of a JSON line;
 *                       the notices, rare, kept in memory for the fold. What encoding and parsing
 *                       the lines cost.
 */
import { fstatSync, openSync, readSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import type { KeyVerifier } from "../../src/serve/accounts/keys";
import type { Ledger, LedgerEntry } from "../../src/serve/accounts/ledger";

/** The suggested changes (leanTable is applied by bench/core.ts to the what-if server's data dir). */
export const SUGGESTED = ["dataVersionPerTick", "dailyPerBatch", "leanTable", "bigCheckpoint"] as const;
/** Measured, not retained by default (see docs/history/benchmarks.md). */
export const OTHERS = ["checkpointWorker", "ledgerWorker", "journal", "journalFold", "journalRollups", "binaryJournal"] as const;
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
  const names = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) if (!(WHAT_IFS as readonly string[]).includes(n)) throw new Error(`unknown what-if "${n}" (${WHAT_IFS.join(", ")})`);
  return names as WhatIf[];
}

interface VerifierInternals {
  checkVersion(): void;
}

export function applyWhatIfs(deps: { verifier: KeyVerifier; ledger: Ledger; account: import("bun:sqlite").Database }, which: readonly WhatIf[] = SUGGESTED): void {
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
  // adopted by the service since they were suggested: nothing left to patch
  if (which.includes("dataVersionPerTick")) process.stderr.write("what-if dataVersionPerTick: src/serve/accounts/keys.ts already reads data_version once per turn; skipped\n");
  if (which.includes("dailyPerBatch")) process.stderr.write("what-if dailyPerBatch: src/serve/accounts/ledger.ts already rolls du_daily up per batch; skipped\n");
  // the ledger's own writer (src/serve/accounts/ledger.ts, LedgerWriter): writes nothing, or a journal
  if (which.includes("noWrite")) writerOf(deps.ledger, "noWrite").write = () => {};
  if (which.includes("journal") || which.includes("journalFold") || which.includes("journalRollups")) {
    const writer = writerOf(deps.ledger, "journal");
    const binary = which.includes("binaryJournal") ? new BinaryJournal() : null;
    const path = join(dirname(deps.account.filename), binary ? "ledger-journal.bin" : "ledger-journal.jsonl");
    const fd = openSync(path, "a");
    if (which.includes("journalFold")) foldJournal(deps.account, path, writer.write, binary);
    else if (which.includes("journalRollups")) foldJournal(deps.account, path, rollupsOnly(writer), binary);
    if (binary) writer.write = (entries, notices) => writeSync(fd, binary.encode(entries, notices));
    else
      writer.write = (entries, notices) => {
        let text = "";
        for (const e of entries) text += `[${e.userId},${e.keyId},${e.ts},${JSON.stringify(e.method)},${JSON.stringify(e.route)},${e.status},${e.records},${e.du}]\n`;
        for (const n of notices) text += `${JSON.stringify(n)}\n`;
        writeSync(fd, text);
      };
  }
  if (which.includes("ledgerWorker")) ledgerInWorker(deps, which.includes("bigCheckpoint") ? 16384 : undefined);
  if (which.includes("noWait")) {
    const ledger = deps.ledger;
    const charge = ledger.charge.bind(ledger);
    // Either Ledger API: the returned commit promise is replaced by one already settled.
    (ledger as unknown as { charge: (c: unknown, e: LedgerEntry) => unknown }).charge = (caller, entry) => {
      const charged = charge(caller as Parameters<typeof charge>[0], entry) as unknown;
      if (charged instanceof Promise) return Promise.resolve(ledger.windows(caller as Parameters<typeof charge>[0], entry.ts));
      return { ...(charged as object), committed: Promise.resolve() };
    };
  }
}

/** The statements and day cache of the ledger's LedgerWriter (src/serve/accounts/ledger.ts) that journalRollups reuses. */
interface WriterParts {
  dailyStmt: { run(...values: (string | number)[]): unknown };
  keyDailyStmt: { run(...values: (string | number)[]): unknown };
  noticeStmt: { run(...values: (string | number)[]): unknown };
  dayOf(ts: number): string;
}

/** journalRollups' fold: the batch's daily roll-ups and notices by the ledger's own statements, no du_ledger row. */
function rollupsOnly(writer: object): (entries: LedgerEntry[], notices: unknown[]) => void {
  const w = writer as WriterParts;
  for (const part of ["dailyStmt", "keyDailyStmt", "noticeStmt", "dayOf"]) {
    if (!(part in w)) throw new Error(`what-if journalRollups: LedgerWriter has no "${part}" any more`);
  }
  return (entries, notices) => {
    const sums = new Map<string, [number, string, string | number, number, number]>();
    const add = (key: string, userId: number, day: string, what: string | number, du: number) => {
      const s = sums.get(key);
      if (s) (s[3] += du), s[4]++;
      else sums.set(key, [userId, day, what, du, 1]);
    };
    for (const e of entries) {
      const day = w.dayOf(e.ts);
      add(`d|${e.userId}|${day}|${e.method} ${e.route}`, e.userId, day, `${e.method} ${e.route}`, e.du);
      add(`k|${e.userId}|${day}|${e.keyId}`, e.userId, day, e.keyId, e.du);
    }
    for (const [key, row] of sums) (key.startsWith("d|") ? w.dailyStmt : w.keyDailyStmt).run(...row);
    for (const n of notices) w.noticeStmt.run(...(n as (string | number)[]));
  };
}

/** binaryJournal's records: eight float64 a row; the routes by id, the notices in memory. */
class BinaryJournal {
  static readonly WIDTH = 8;
  private readonly ids = new Map<string, number>();
  private readonly routes: [string, string][] = [];
  private notices: unknown[] = [];

  encode(entries: LedgerEntry[], notices: unknown[]): Uint8Array {
    const out = new Float64Array(entries.length * BinaryJournal.WIDTH);
    let o = 0;
    for (const e of entries) {
      const name = `${e.method} ${e.route}`;
      let id = this.ids.get(name);
      if (id === undefined) {
        id = this.routes.push([e.method, e.route]) - 1;
        this.ids.set(name, id);
      }
      out[o++] = e.userId;
      out[o++] = e.keyId;
      out[o++] = e.ts;
      out[o++] = id;
      out[o++] = e.status;
      out[o++] = e.records;
      out[o++] = e.du;
      out[o++] = 0;
    }
    if (notices.length) this.notices.push(...notices);
    return new Uint8Array(out.buffer);
  }

  /** The rows of whole records in `bytes` (a multiple of the record's size), and the notices since the last call. */
  decode(bytes: Uint8Array): { entries: LedgerEntry[]; notices: unknown[] } {
    const v = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
    const entries: LedgerEntry[] = [];
    for (let o = 0; o < v.length; o += BinaryJournal.WIDTH) {
      const [method, route] = this.routes[v[o + 3]!]!;
      entries.push({ userId: v[o]!, keyId: v[o + 1]!, ts: v[o + 2]!, method, route, status: v[o + 4]!, records: v[o + 5]!, du: v[o + 6]! });
    }
    const notices = this.notices;
    this.notices = [];
    return { entries, notices };
  }
}

/** How often journalFold folds the journal into account.db (ms). */
const FOLD_MS = 100;

/**
 * journalFold: every FOLD_MS, the lines appended to `path` since the last fold (complete lines
 * only) are parsed and written by `transaction` (the ledger's own: rows and roll-ups), with the
 * offset folded to, in one transaction of `db`.
 */
function foldJournal(db: import("bun:sqlite").Database, path: string, transaction: (entries: LedgerEntry[], notices: unknown[]) => void, binary: BinaryJournal | null): void {
  db.run("CREATE TABLE IF NOT EXISTS bench_journal_folded (id integer PRIMARY KEY, offset integer NOT NULL)");
  const saveOffset = db.query("INSERT INTO bench_journal_folded (id, offset) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET offset = excluded.offset");
  const fold = db.transaction((entries: LedgerEntry[], notices: unknown[], offset: number) => {
    transaction(entries, notices);
    saveOffset.run(offset);
  });
  const fd = openSync(path, "a+");
  let folded = 0;
  const tick = () => {
    const size = fstatSync(fd).size;
    if (size <= folded) return;
    const buf = Buffer.allocUnsafe(size - folded);
    const read = readSync(fd, buf, 0, buf.length, folded);
    if (binary) {
      // whole records only (a record being appended is folded next time)
      const whole = read - (read % (BinaryJournal.WIDTH * 8));
      if (whole === 0) return;
      const { entries, notices } = binary.decode(new Uint8Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + whole)));
      fold(entries, notices, folded + whole);
      folded += whole;
      return;
    }
    const end = buf.subarray(0, read).lastIndexOf(10) + 1;
    if (end === 0) return;
    const entries: LedgerEntry[] = [];
    const notices: unknown[] = [];
    for (const line of buf.toString("utf8", 0, end).split("\n")) {
      if (!line) continue;
      const a = JSON.parse(line) as unknown[];
      // a ledger row is 8 values; a notice row 10 (NoticeRow)
      if (a.length === 8) {
        const [userId, keyId, ts, method, route, status, records, du] = a as [number, number, number, string, string, number, number, number];
        entries.push({ userId, keyId, ts, method, route, status, records, du });
      } else notices.push(a);
    }
    fold(entries, notices, folded + end);
    folded += end;
  };
  setInterval(tick, FOLD_MS);
}

/** The Ledger's LedgerWriter, whose `write` (one batch's transaction) a what-if replaces. */
function writerOf(ledger: Ledger, whatIf: string): { write: (entries: LedgerEntry[], notices: unknown[]) => void } {
  const writer = (ledger as unknown as { writer: { write: (entries: LedgerEntry[], notices: unknown[]) => void } | null }).writer;
  if (!writer) throw new Error(`what-if ${whatIf}: this ledger hands its rows to another thread; it has no writer to patch`);
  return writer;
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

/**
 * The Ledger's internal queue, in either of its shapes: a shared promise per batch (`batch`,
 * since 57bc352) or a waiter per request (`waiters` + `scheduled`, before).
 */
interface LedgerQueue {
  pending: LedgerEntry[];
  pendingNotices: unknown[][];
  counters: Map<number, unknown>;
  batch?: { resolve: () => void; reject: (e: unknown) => void } | null;
  scheduled?: boolean;
  waiters?: { resolve: () => void; reject: (e: unknown) => void }[];
}

/** What Ledger.charge returns, in either API: a promise, or `{ committed }` (since 57bc352). */
export function commitOf(charged: unknown): Promise<unknown> {
  return charged instanceof Promise ? charged : (charged as { committed: Promise<void> }).committed;
}

/** Takes the gathered batch out of the ledger's queue: its entries, notices, and how to settle it. */
function takeBatch(l: LedgerQueue): { entries: LedgerEntry[]; notices: unknown[][]; settle: (err?: unknown) => void } {
  const entries = l.pending;
  const notices = l.pendingNotices;
  let settle: (err?: unknown) => void;
  if ("batch" in l) {
    const batch = l.batch;
    l.batch = null;
    settle = (err) => (err === undefined ? batch?.resolve() : batch?.reject(err));
  } else {
    const waiters = l.waiters ?? [];
    l.scheduled = false;
    l.waiters = [];
    settle = (err) => {
      for (const w of waiters) err === undefined ? w.resolve() : w.reject(err);
    };
  }
  l.pending = [];
  l.pendingNotices = [];
  return { entries, notices, settle };
}

function ledgerInWorker(deps: { ledger: Ledger; account: import("bun:sqlite").Database; verifier: KeyVerifier }, autocheckpoint?: number): void {
  const l = deps.ledger as unknown as LedgerQueue & { flush(): void };
  // The worker is another connection: each of its commits moves PRAGMA data_version, which the
  // KeyVerifier takes for "another process changed account.db" (cache dropped, argon2 again, at
  // every batch). A real implementation needs a change signal of its own (see
  // docs/history/benchmarks.md); here, where nothing else writes, the check is simply switched off.
  const v = deps.verifier as unknown as VerifierInternals;
  if (typeof v.checkVersion !== "function") throw new Error("what-if ledgerWorker: KeyVerifier internals changed");
  v.checkVersion = () => {};
  for (const field of ["pending", "pendingNotices", "counters"]) {
    if (!(field in l)) throw new Error(`what-if ledgerWorker: Ledger has no "${field}" any more`);
  }
  if (!("batch" in l) && !("waiters" in l)) throw new Error("what-if ledgerWorker: Ledger has neither `batch` nor `waiters`");
  // Every row goes through flush (to the worker): never the ledger's own commit of an idle request.
  (l as unknown as { lastCommitEnd: number }).lastCommitEnd = Number.POSITIVE_INFINITY;
  const worker = new Worker(new URL("./ledger-worker.ts", import.meta.url));
  worker.postMessage({ open: deps.account.filename, autocheckpoint });
  const inflight = new Map<number, { entries: LedgerEntry[]; settle: (err?: unknown) => void }>();
  let seq = 0;
  worker.onmessage = (event: MessageEvent<{ id: number; ok: boolean; error?: string }>) => {
    const batch = inflight.get(event.data.id)!;
    inflight.delete(event.data.id);
    if (event.data.ok) batch.settle();
    else {
      for (const e of batch.entries) l.counters.delete(e.userId);
      batch.settle(new Error(event.data.error));
    }
    if (inflight.size === 0) worker.unref();
  };
  l.flush = () => {
    const { entries, notices, settle } = takeBatch(l);
    if (entries.length === 0) return settle();
    const id = ++seq;
    inflight.set(id, { entries, settle });
    worker.postMessage({ id, entries, notices });
    worker.ref();
  };
}
