/**
 * What-if "ledgerWorker" (bench/lib/whatif.ts): the ledger's group commit runs in a worker thread
 * with its own connection to account.db; the request thread only posts each batch and resolves
 * the batch's responses when the worker answers that it committed. Same rows, same transaction
 * per batch, same durability (the response still waits for its commit).
 */
import { Database } from "bun:sqlite";

declare const self: Worker;

interface Entry {
  userId: number;
  keyId: number;
  ts: number;
  method: string;
  route: string;
  status: number;
  records: number;
  du: number;
}

let db: Database;
let write: (entries: Entry[], notices: unknown[][]) => void;
const dayCache = { from: 0, to: 0, day: "" };
const dayOf = (ts: number) => {
  if (ts < dayCache.from || ts >= dayCache.to) {
    dayCache.from = Math.floor(ts / 86_400_000) * 86_400_000;
    dayCache.to = dayCache.from + 86_400_000;
    dayCache.day = new Date(ts).toISOString().slice(0, 10);
  }
  return dayCache.day;
};

self.onmessage = (event: MessageEvent) => {
  const m = event.data as { open?: string; autocheckpoint?: number; id?: number; entries?: Entry[]; notices?: unknown[][] };
  if (m.open) {
    db = new Database(m.open, { strict: true });
    db.run("PRAGMA journal_mode = WAL");
    db.run("PRAGMA synchronous = NORMAL");
    db.run("PRAGMA busy_timeout = 5000");
    if (m.autocheckpoint !== undefined) db.run(`PRAGMA wal_autocheckpoint = ${m.autocheckpoint}`);
    const insert = db.query("INSERT INTO du_ledger (user_id, key_id, ts, day, method, route, status, records, du) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const daily = db.query(
      `INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(user_id, day, endpoint) DO UPDATE SET du = du + excluded.du, requests = requests + excluded.requests`,
    );
    const notice = db.query(
      `INSERT INTO notices (user_id, plan_slug, pool, threshold, period_start, period_end, du_limit, du_consumed, projected_eop, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id, pool, threshold, period_start) DO NOTHING`,
    );
    write = db.transaction((entries: Entry[], notices: unknown[][]) => {
      const rollup = new Map<string, [number, string, string, number, number]>();
      for (const e of entries) {
        const day = dayOf(e.ts);
        insert.run(e.userId, e.keyId, e.ts, day, e.method, e.route, e.status, e.records, e.du);
        const endpoint = `${e.method} ${e.route}`;
        const k = `${e.userId}|${day}|${endpoint}`;
        const r = rollup.get(k);
        if (r) (r[3] += e.du), r[4]++;
        else rollup.set(k, [e.userId, day, endpoint, e.du, 1]);
      }
      for (const r of rollup.values()) daily.run(...r);
      for (const n of notices) notice.run(...(n as [number]));
    });
    return;
  }
  try {
    write(m.entries!, m.notices ?? []);
    self.postMessage({ id: m.id, ok: true });
  } catch (err) {
    self.postMessage({ id: m.id, ok: false, error: String(err) });
  }
};
