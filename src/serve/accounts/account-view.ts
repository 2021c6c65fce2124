/**
 * The account view: what the market reader's `account` schema holds when the account store is
 * PostgreSQL. Market SQL joins the caller's account rows in one query (`account.follows` in the
 * followed filters and lists of artists, artworks, lots and sales and in `followedAmong`;
 * `account.collectables` and `account.collectable_acquisitions` in the collectables list). With
 * account.db that schema is the file attached (src/db/connection.ts); PostgreSQL cannot be
 * attached, so the reader gets an in-memory database attached as `account` instead, with the same
 * three tables, and `syncAccountView(market, userId)` copies the user's rows into it from the
 * store (`accountRows`) right before a query reads them. Every market SQL text stays as it is.
 *
 * The connection: a read-only bun:sqlite connection cannot write an attached ':memory:' database
 * (SQLITE_READONLY: attached databases take the connection's open flags), and `PRAGMA query_only`
 * would block the view's writes the same way. So in this mode market.db is opened with the
 * read-write flag (never created; `openMarketReader(dir, { attachAccount: false })`) and is never
 * written: only the `account` schema is. Where market.db is write-protected on disk, SQLite opens
 * it read-only all the same and the in-memory schema stays writable (checked), so an operator can
 * make a node's market file read-only. A temporary table (which a read-only connection may write)
 * would not do: it lives in `temp`, not in `account`, and the SQL texts name `account`.
 *
 * One user at a time: each sync empties the three tables and inserts that user's rows, in one
 * transaction on the in-memory schema. The server's thread runs one request's SQL at a time and
 * each request syncs right before its query, with no await in between (the list functions are
 * synchronous), so the view holds the caller's rows while the query runs. Every query also
 * filters by user id: rows of an earlier caller (left by a sync that failed) are never read as
 * another's. A sync costs the store's round trips (~0.2 ms each on a local PostgreSQL), so the
 * call sites sync only where a query reads the schema, and skip it when there is nothing to ask
 * (followedAmong without ids or caller).
 *
 * The tables' columns come from account.db's own migrations (applied once per process to a
 * scratch in-memory database), so they follow the SQLite schema; foreign keys are left out (the
 * view has no users table, and nothing here deletes through them), indexes are kept.
 */
import { Database, type SQLQueryBindings, type Statement } from "bun:sqlite";
import { FOLLOW_KINDS, setAccountSchemaSync, syncAccountSchema } from "../../db/follows";
import { migrate } from "../../db/migrate";
import { accountMigrations } from "../../db/migrations/embedded";
import type { AccountRows, AccountStore } from "./store";

/** The account tables that market SQL reads. */
const TABLES = ["follows", "collectables", "collectable_acquisitions"] as const;
type ViewTable = (typeof TABLES)[number];

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

let ddl: string[] | null = null;

/**
 * The CREATE statements of the view's tables and their indexes in the `account` schema: each
 * table's columns (type, NOT NULL, default, primary key) as account.db's migrations leave them,
 * without its foreign keys; the indexes as the migrations wrote them.
 */
function viewDdl(): string[] {
  if (ddl) return ddl;
  const scratch = new Database(":memory:");
  try {
    migrate(scratch, accountMigrations, "account view");
    const out: string[] = [];
    for (const table of TABLES) {
      const cols = scratch.query<ColumnInfo, []>(`PRAGMA table_info("${table}")`).all();
      if (!cols.length) throw new Error(`account view: account.db's migrations have no table ${table}`);
      const defs = cols.map((c) => `"${c.name}" ${c.type}${c.notnull ? " NOT NULL" : ""}${c.dflt_value === null ? "" : ` DEFAULT ${c.dflt_value}`}`);
      const pk = cols
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => `"${c.name}"`);
      // a lone INTEGER column as the primary key stays the rowid (collectables.id, acquisitions' collectable_id)
      if (pk.length) defs.push(`PRIMARY KEY (${pk.join(", ")})`);
      out.push(`CREATE TABLE account."${table}" (${defs.join(", ")})`);
    }
    const indexes = scratch
      .query<{ sql: string }, []>(
        `SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${TABLES.map((t) => `'${t}'`).join(", ")}) ORDER BY name`,
      )
      .all();
    for (const { sql } of indexes) out.push(sql.replace(/^CREATE\s+(UNIQUE\s+)?INDEX\s+(IF\s+NOT\s+EXISTS\s+)?/i, "CREATE $1INDEX $2account."));
    ddl = out;
    return out;
  } finally {
    scratch.close();
  }
}

/** The rowid of a follow in the view (see AccountView.fill). */
function followRowid(kind: string, targetId: number): number | null {
  const k = FOLLOW_KINDS.indexOf(kind as (typeof FOLLOW_KINDS)[number]);
  return k < 0 ? null : targetId * FOLLOW_KINDS.length + k;
}

/** How many users' follows one view keeps a copy of (least recently used dropped first). */
const FOLLOWS_CACHED = 512;

class AccountView {
  private readonly inserts: Record<ViewTable, { columns: string[]; st: Statement }>;
  private readonly fillAll: (rows: AccountRows) => void;
  private readonly fillFollows: (follows: AccountRows["follows"]) => void;
  /** Copies of users' follows with the version they were read at (store.followsVersion). */
  private readonly follows = new Map<number, { version: number; rows: AccountRows["follows"] }>();
  /** Whose follows the view's table holds now, at which version (null: unknown, refill). */
  private holding: { userId: number; version: number | null } | null = null;

  constructor(
    market: Database,
    readonly store: AccountStore,
  ) {
    const insert = (table: ViewTable, extra: string[] = []) => {
      const columns = market
        .query<ColumnInfo, []>(`PRAGMA account.table_info("${table}")`)
        .all()
        .map((c) => c.name);
      const names = [...extra, ...columns.map((c) => `"${c}"`)];
      return { columns, st: market.prepare(`INSERT INTO account."${table}" (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`) };
    };
    this.inserts = { follows: insert("follows", ["rowid"]), collectables: insert("collectables"), collectable_acquisitions: insert("collectable_acquisitions") };
    const clear = Object.fromEntries(TABLES.map((t) => [t, market.prepare(`DELETE FROM account."${t}"`)])) as Record<ViewTable, Statement>;
    const put = (table: ViewTable, row: object, ...extra: SQLQueryBindings[]) => {
      const { columns, st } = this.inserts[table];
      const r = row as Record<string, unknown>;
      // a column the store's row lacks is bound as NULL (a NOT NULL one then fails loudly)
      st.run(...extra, ...(columns.map((c) => r[c] ?? null) as SQLQueryBindings[]));
    };
    // The followed artworks' order breaks ties of created_at by f.rowid (artworks/service.ts),
    // account.db's being the order of the follows. PostgreSQL keeps no such order: the view's
    // rowid is derived from the kind and target, the same on every sync, so a cursor's position
    // names the same follow from one page to the next.
    const putFollows = (follows: AccountRows["follows"]) => {
      clear.follows.run();
      for (const f of follows) put("follows", f, followRowid(f.kind, f.target_id));
    };
    this.fillFollows = market.transaction(putFollows);
    this.fillAll = market.transaction((rows: AccountRows) => {
      putFollows(rows.follows);
      clear.collectables.run();
      clear.collectable_acquisitions.run();
      for (const c of rows.collectables) put("collectables", c);
      for (const a of rows.acquisitions) put("collectable_acquisitions", a);
    });
  }

  /**
   * Replaces the view's rows with `userId`'s (the store is read first: a failed read leaves the
   * view as it was). `follows` brings the follows only; `fresh: false` lets them come from this
   * view's copy when the store's follows version has not moved since it was read (the marks of
   * list items), where `fresh` always reads the store (lists and filters of what one follows).
   */
  sync(userId: number, part: "follows" | "all", fresh: boolean): void {
    if (part === "all") {
      const version = this.store.followsVersion(userId);
      const rows = this.store.accountRows(userId, "all");
      this.fillAll(rows);
      this.remember(userId, version, rows.follows);
      return;
    }
    const version = this.store.followsVersion(userId);
    const copy = this.follows.get(userId);
    if (!fresh && version !== null && copy && copy.version === version) {
      if (this.holding?.userId === userId && this.holding.version === version) return; // the table holds them already
      this.follows.delete(userId); // touched: now the most recently used
      this.follows.set(userId, copy);
      this.holding = null;
      this.fillFollows(copy.rows);
      this.holding = { userId, version };
      return;
    }
    // the version is read before the rows: a change made meanwhile moves it again, and the copy is not reused
    const rows = this.store.accountRows(userId, "follows").follows;
    this.holding = null;
    this.fillFollows(rows);
    this.remember(userId, version, rows);
  }

  private remember(userId: number, version: number | null, rows: AccountRows["follows"]): void {
    this.holding = { userId, version };
    this.follows.delete(userId);
    if (version === null) return;
    if (this.follows.size >= FOLLOWS_CACHED) this.follows.delete(this.follows.keys().next().value!);
    this.follows.set(userId, { version, rows });
  }
}

const views = new WeakMap<Database, AccountView>();

/**
 * Gives `market` (a reader opened with `{ attachAccount: false }`) an in-memory `account` schema
 * filled from `store` by `syncAccountView`.
 */
export function attachAccountView(market: Database, store: AccountStore): void {
  if (views.has(market)) throw new Error("account view: this market reader has one already");
  const schemas = market.query<{ name: string }, []>("PRAGMA database_list").all();
  if (schemas.some((s) => s.name === "account")) {
    throw new Error("account view: the market reader has an `account` schema already (account.db attached): open it with { attachAccount: false }");
  }
  market.run("ATTACH DATABASE ':memory:' AS account");
  try {
    for (const sql of viewDdl()) market.run(sql);
  } catch (err) {
    market.run("DETACH DATABASE account");
    const readonly = err instanceof Error && /readonly/i.test(err.message);
    throw readonly ? new Error("account view: the market reader is read-only: open it with { attachAccount: false }", { cause: err }) : err;
  }
  const view = new AccountView(market, store);
  views.set(market, view);
  setAccountSchemaSync(market, (userId, part, fresh) => view.sync(userId, part, fresh));
}

/**
 * Copies `userId`'s rows into `market`'s account view, right before a query reads `account.*`:
 * the follows (`follows`) or also the collectables and acquisitions (`all`), read from the store
 * each time; nothing when the market has no view (account.db attached).
 */
export function syncAccountView(market: Database, userId: number, part: "follows" | "all" = "all"): void {
  syncAccountSchema(market, userId, part, true);
}

/** The store behind `market`'s account view, or null without one (account.db attached). */
export function accountViewStore(market: Database): AccountStore | null {
  return views.get(market)?.store ?? null;
}
