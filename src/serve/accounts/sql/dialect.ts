/**
 * What the account data's SQL runs over: one dialect object per store, bun:sqlite (account.db) or
 * PostgreSQL through SyncPg, with the same synchronous statements (`all`, `get`, `run`,
 * `transaction`) and the few things that differ between the two, by name. Every concern's SQL in
 * this folder is written once over it (keys.ts, plans.ts, usage.ts, notices.ts, follows.ts,
 * shares.ts, collectables.ts) and composed into the store by sql-store.ts.
 *
 * Where PostgreSQL differs from SQLite:
 * - SQLite's scalar `max(a, b)` is `greatest(a, b)`;
 * - `count` and `sum` are cast so that they come back as numbers (PostgreSQL widens them to
 *   bigint or numeric, and numeric comes back as text);
 * - text is ordered with `COLLATE "C"` where the order is part of the answer (plan slugs, usage
 *   labels): SQLite compares bytes, PostgreSQL's default collation may not;
 * - ids are int4 (a larger number is refused rather than matching no row);
 * - JS booleans are bound as 0/1 (the boolean columns are integers, which refuse a boolean);
 * - tables keep no insertion order (SQLite's rowid);
 * - nodes starting together make one first user under an advisory lock;
 * - the uploaded originals' bytes are kept (`collectable_images`), so every node can draw them;
 * - a user's follows have a version that any node's change moves (notifications, kept by SyncPg);
 *   account.db's is kept in the server's shared AccountCounters once `shareFollows` is called.
 */
import type { Database, Statement } from "bun:sqlite";
import type { PgBind, SyncPg } from "../../../db/pg/sync-client";
import { RecentMap } from "../../../platform/recent";

/** A value bound to a statement. */
export type Bind = string | number | null | Uint8Array | boolean;

export interface Dialect {
  readonly name: "sqlite" | "postgres";
  all<T>(sql: string, ...params: Bind[]): T[];
  get<T>(sql: string, ...params: Bind[]): T | null;
  /** Runs a statement; returns the rows it changed. */
  run(sql: string, ...params: Bind[]): number;
  /** Runs `fn` in one transaction (a nested call joins the outer one). */
  transaction<T>(fn: () => T): T;
  /** SQL's two-argument maximum. */
  readonly greatest: "max" | "greatest";
  /** Casts that give a count and a sum number types ("" where the driver's numbers are numbers already). */
  readonly casts: { readonly count: string; readonly sum: string };
  /** Appended to a text in ORDER BY so that it sorts by bytes ("" in SQLite, which compares bytes). */
  readonly bytewise: string;
  /** The largest id of an identity column. */
  readonly maxId: number;
  /** An expression of a row's order of insertion (SQLite's rowid), or null where tables keep none. */
  readonly insertionOrder: string | null;
  /** Run first in the transaction that makes the first user, so that nodes starting together make one; null: nothing to lock. */
  readonly firstUserLock: string | null;
  /** Whether the store keeps uploaded originals' bytes (`collectable_images`). */
  readonly keepsOriginals: boolean;
  /** A number that moves whenever the user's follows may have changed, anywhere; null where none is kept. */
  followsVersion(userId: number): number | null;
  /** This thread's own change of the user's follows (others learn of it by notification). */
  followsChanged(userId: number): void;
}

/** Statements one SQLite dialect keeps prepared (texts that vary with a list's length come and go). */
const STATEMENTS_KEPT = 256;

/** Per-account follows versions shared by the threads of one server (AccountCounters). */
export interface FollowsVersions {
  followsVersion(userId: number): number;
  touchFollows(userId: number): void;
}

/** account.db's dialect, and where it learns the server's follows versions. */
export type SqliteDialect = Dialect & {
  /**
   * From now on the dialect keeps a follows version per account in `versions`, which every
   * thread's store over account.db of this server shares (openDeps): the store then answers a
   * page's follow marks from its copy of the user's follows while the version stands. Only the
   * server's stores write follows (a restore is refused while it runs).
   */
  shareFollows(versions: FollowsVersions): void;
};

/** account.db's dialect: statements prepared on the connection, the most recently used kept. */
export function sqliteDialect(db: Database): SqliteDialect {
  const kept = new RecentMap<string, Statement>(STATEMENTS_KEPT, (old) => old.finalize());
  const statement = (sql: string): Statement => {
    let st = kept.get(sql);
    if (!st) {
      st = db.prepare(sql);
      kept.set(sql, st);
    }
    return st;
  };
  const values = (params: Bind[]) => params as never[];
  let versions: FollowsVersions | null = null;
  // the transactions open on this connection, and the accounts whose follows changed in them
  let depth = 0;
  const touched = new Set<number>();
  return {
    name: "sqlite",
    all: <T>(sql: string, ...params: Bind[]) => statement(sql).all(...values(params)) as T[],
    get: <T>(sql: string, ...params: Bind[]) => (statement(sql).get(...values(params)) as T | null) ?? null,
    run: (sql, ...params) => statement(sql).run(...values(params)).changes,
    // BEGIN IMMEDIATE: the write lock from the start (waiting out busy_timeout). A deferred
    // transaction that read first fails with SQLITE_BUSY_SNAPSHOT when another process (a
    // `keys create` beside `serve`) commits before its first write, and no wait helps it then.
    transaction: <T>(fn: () => T) => {
      depth++;
      try {
        return db.transaction(fn).immediate();
      } finally {
        // committed or rolled back: the versions move again (followsChanged)
        if (--depth === 0 && touched.size > 0) {
          for (const userId of touched) versions?.touchFollows(userId);
          touched.clear();
        }
      }
    },
    greatest: "max",
    casts: { count: "", sum: "" },
    bytewise: "",
    maxId: Number.MAX_SAFE_INTEGER,
    insertionOrder: "rowid",
    // the transaction's own write lock (IMMEDIATE) orders the processes that make a first user
    firstUserLock: null,
    keepsOriginals: false,
    followsVersion: (userId) => versions?.followsVersion(userId) ?? null,
    followsChanged: (userId) => {
      if (!versions) return;
      versions.touchFollows(userId);
      // inside a transaction another thread may copy the rows before they are committed (or
      // rolled back): the version moves once more when it ends
      if (depth > 0) touched.add(userId);
    },
    shareFollows: (v) => {
      versions = v;
    },
  };
}

/** A value as PostgreSQL takes it: booleans as the 0/1 of the integer columns that keep them. */
const pgValue = (v: Bind): PgBind => (typeof v === "boolean" ? (v ? 1 : 0) : v);

/** PostgreSQL's dialect over a SyncPg connection. */
export function pgDialect(pg: SyncPg): Dialect {
  return {
    name: "postgres",
    all: <T>(sql: string, ...params: Bind[]) => pg.all<T>(sql, ...params.map(pgValue)),
    get: <T>(sql: string, ...params: Bind[]) => pg.get<T>(sql, ...params.map(pgValue)),
    run: (sql, ...params) => pg.run(sql, ...params.map(pgValue)),
    transaction: (fn) => pg.transaction(fn),
    greatest: "greatest",
    casts: { count: "::bigint", sum: "::double precision" },
    bytewise: ' COLLATE "C"',
    maxId: 2_147_483_647,
    insertionOrder: null,
    firstUserLock: "SELECT pg_advisory_xact_lock(7040364, 0)",
    keepsOriginals: true,
    followsVersion: (userId) => pg.followsVersion(userId),
    followsChanged: (userId) => pg.touchFollows(userId),
  };
}

/** What every concern of the account data extends (sql-store.ts composes them): the store's dialect. */
export abstract class OverDialect {
  constructor(readonly sql: Dialect) {}

  /** Runs `fn` in one transaction (a nested call joins the outer one). */
  transaction<T>(fn: () => T): T {
    return this.sql.transaction(fn);
  }
}

/** The class a concern's SQL extends (a mixin: `Concern(Base)` returns Base with the concern's methods). */
// biome-ignore lint/suspicious/noExplicitAny: a mixin's base takes any constructor arguments (TypeScript's rule)
export type SqlBase = abstract new (...args: any[]) => OverDialect;
