/**
 * bench/api in process: where a request's time goes, and the query plans.
 *
 * Each case's URLs go through the floor handlers (bench/lib/api-routes.ts: the endpoints' own
 * service calls) on a market connection whose statements are wrapped to record their SQL, bound
 * values and time. Per case: the handler's time, split into SQL and the rest (presentation), and
 * JSON.stringify's time and the body size. Then every distinct statement is explained (EXPLAIN
 * QUERY PLAN) on a second read-only connection, each EXPLAIN prepared and finalized (a cached
 * EXPLAIN statement left active would freeze that connection's view), and its plan checked: a
 * `SCAN <table>` of lots, artworks or artists without an index reads the whole table, a failure.
 */
import type { Database, Statement } from "bun:sqlite";
import { openMarketReader } from "../../src/db/connection";
import type { ApiCase } from "./api-cases";
import { handleFloor, openFloorDeps } from "./api-routes";
import { median, percentileSorted } from "./stats";

/** Tables whose whole scan is a failure (the large ones). */
export const LARGE_TABLES = new Set(["lots", "artworks", "artists"]);

interface Recorded {
  sql: string;
  params: unknown[];
  ms: number;
}

const RUNNERS = new Set(["all", "get", "values", "run", "iterate"]);

/** Wraps db.query and db.prepare of this connection so that every statement run is recorded. */
function record(db: Database, sink: { on: Recorded[] | null }): void {
  const wrap = (stmt: Statement, sql: string): Statement =>
    new Proxy(stmt, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target);
        if (typeof v !== "function") return v;
        if (typeof prop === "string" && RUNNERS.has(prop)) {
          return (...args: unknown[]) => {
            const t0 = performance.now();
            const out = (v as (...a: unknown[]) => unknown).apply(target, args);
            sink.on?.push({ sql, params: args, ms: performance.now() - t0 });
            return out;
          };
        }
        return (v as (...a: unknown[]) => unknown).bind(target);
      },
    });
  const query = db.query.bind(db);
  const prepare = db.prepare.bind(db);
  (db as { query: unknown }).query = (sql: string) => wrap(query(sql) as Statement, sql);
  (db as { prepare: unknown }).prepare = (sql: string, ...rest: unknown[]) => wrap((prepare as (...a: unknown[]) => Statement)(sql, ...rest), sql);
}

export interface StatementStats {
  sql: string;
  calls: number;
  meanMs: number;
  maxMs: number;
  plan: string[];
  /** Plan lines that scan a large table without an index. */
  fullScans: string[];
  /** Plan lines that walk a whole index of a large table (SCAN … USING INDEX): bounded only by LIMIT or a filter's luck. */
  indexWalks: string[];
}

export interface CaseProfile {
  case: string;
  requests: number;
  /** Medians per request, ms. */
  handlerMs: number;
  sqlMs: number;
  jsMs: number;
  stringifyMs: number;
  /** p95 per request of handler + stringify, ms. */
  p95Ms: number;
  bodyKb: number;
  statementsPerRequest: number;
  statements: StatementStats[];
  errors: string[];
}

/** Table names by alias in a statement (FROM/JOIN x [AS] y). */
function aliases(sql: string): Map<string, string> {
  const out = new Map<string, string>();
  const keyword = /^(where|on|left|join|inner|cross|order|group|limit|indexed|using|natural|union|as)$/i;
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+([A-Za-z_][\w.]*)(?:\s+(?:AS\s+)?([A-Za-z_]\w*))?/gi)) {
    const table = m[1]!.replace(/^(main|account)\./i, "");
    out.set(table, table);
    if (m[2] && !keyword.test(m[2])) out.set(m[2], table);
  }
  return out;
}

/** EXPLAIN QUERY PLAN of one statement: its lines, and the ones that read a whole large table. */
export function explain(db: Database, sql: string, params: unknown[]): Pick<StatementStats, "plan" | "fullScans" | "indexWalks"> {
  const stmt = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  let rows: { detail: string }[];
  try {
    rows = stmt.all(...(params as never[])) as { detail: string }[];
  } finally {
    stmt.finalize();
  }
  const names = aliases(sql);
  const plan = rows.map((r) => r.detail);
  const fullScans: string[] = [];
  const indexWalks: string[] = [];
  // the table read in id (rowid) order, no sort, stopped by LIMIT: a walk like an index's
  const rowidWalk = /\bORDER BY (\w+\.)?id (ASC|DESC)\b[^()]*\bLIMIT\b/i.test(sql) && !plan.some((line) => line.includes("USE TEMP B-TREE"));
  for (const line of plan) {
    const m = /^SCAN (\S+)(.*)$/.exec(line);
    if (!m) continue;
    const table = names.get(m[1]!) ?? m[1]!;
    if (!LARGE_TABLES.has(table)) continue;
    if (/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/.test(m[2]!)) indexWalks.push(`${line} (${table})`);
    else if (rowidWalk && m[2] === "") indexWalks.push(`${line} (${table}, in id order)`);
    else if (!/VIRTUAL TABLE/.test(m[2]!)) fullScans.push(`${line} (${table})`);
  }
  return { plan, fullScans, indexWalks };
}

/** Runs each case's first `perCase` URLs in process (after one warm-up pass) and explains their statements. */
export function profileCases(dataDir: string, userId: number, cases: readonly ApiCase[], perCase: number): CaseProfile[] {
  const market = openMarketReader(dataDir);
  const plain = openMarketReader(dataDir);
  const sink: { on: Recorded[] | null } = { on: null };
  record(market, sink);
  const deps = openFloorDeps(dataDir, market);
  const origin = "http://127.0.0.1:1";
  const out: CaseProfile[] = [];
  try {
    for (const c of cases) {
      const urls = c.urls.slice(0, perCase).map((u) => new URL(origin + u.path));
      const errors: string[] = [];
      for (const url of urls) {
        try {
          JSON.stringify(handleFloor(deps, userId, url));
        } catch (err) {
          errors.push(`${url.pathname}${url.search}: ${(err as Error).message}`);
        }
      }
      const handler: number[] = [];
      const sql: number[] = [];
      const stringify: number[] = [];
      const total: number[] = [];
      const bytes: number[] = [];
      const recorded: Recorded[] = [];
      for (const url of urls) {
        const mine: Recorded[] = [];
        sink.on = mine;
        const t0 = performance.now();
        let body: unknown;
        try {
          body = handleFloor(deps, userId, url);
        } catch {
          sink.on = null;
          continue;
        }
        const t1 = performance.now();
        sink.on = null;
        const text = JSON.stringify(body);
        const t2 = performance.now();
        handler.push(t1 - t0);
        sql.push(mine.reduce((s, r) => s + r.ms, 0));
        stringify.push(t2 - t1);
        total.push(t2 - t0);
        bytes.push(text.length);
        recorded.push(...mine);
      }
      const bySql = new Map<string, Recorded[]>();
      for (const r of recorded) {
        const list = bySql.get(r.sql);
        if (list) list.push(r);
        else bySql.set(r.sql, [r]);
      }
      const statements: StatementStats[] = [...bySql].map(([text, runs]) => ({
        sql: text.replace(/\s+/g, " ").trim(),
        calls: runs.length,
        meanMs: runs.reduce((s, r) => s + r.ms, 0) / runs.length,
        maxMs: Math.max(...runs.map((r) => r.ms)),
        ...explain(plain, text, runs[0]!.params),
      }));
      statements.sort((a, b) => b.meanMs * b.calls - a.meanMs * a.calls);
      const sorted = Float64Array.from(total).sort();
      out.push({
        case: c.name,
        requests: handler.length,
        handlerMs: median(handler),
        sqlMs: median(sql),
        jsMs: median(handler.map((h, i) => h - sql[i]!)),
        stringifyMs: median(stringify),
        p95Ms: percentileSorted(sorted, 95),
        bodyKb: median(bytes) / 1024,
        statementsPerRequest: handler.length ? recorded.length / handler.length : 0,
        statements,
        errors,
      });
    }
  } finally {
    market.close();
    plain.close();
  }
  return out;
}
