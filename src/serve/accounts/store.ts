/**
 * The account store: every read and write of account data (users, API keys, plans, the DU ledger
 * and its windows, allowance notices, follows, shares, collectables and their children) goes
 * through one interface with two implementations: `SqliteAccountStore` over account.db (the
 * default; its single writing connection) and `PgAccountStore` over PostgreSQL (pg-store.ts,
 * `--account-store postgres://…`, shared by several nodes). tests/contract/account-store.test.ts
 * runs one suite against both.
 *
 * The methods are synchronous, as bun:sqlite is (a write and the reads after it in one turn, no
 * request interleaved); the PostgreSQL store keeps them so through SyncPg (src/db/pg/).
 *
 * Market queries that join the caller's account rows (the followed lists and `followed=true`
 * filters of artists, artworks, lots and sales, the recommendations, the collectables list) read
 * those rows from the store first (`followedIds`, `followedRows`, `collectableListRows`) and bind
 * them to the market SQL as one value (src/db/follows.ts, src/serve/modules/collectables/fields.ts):
 * the same market SQL with either store, no account table on the market connection.
 *
 * The hot paths are each store's own: `keyVerifier` and `ledger` return the SQLite implementations
 * (statements prepared on the connection: keys.ts, ledger.ts) or the PostgreSQL ones (pg-hot.ts:
 * asynchronous statements, the epoch from notifications), with the same contracts.
 */
import type { Database } from "bun:sqlite";
import type { Table } from "drizzle-orm";
import type {
  apiKeys,
  collectableAcquisitions,
  collectableAppraisals,
  collectableProvenance,
  collectableSales,
  collectables,
  duDaily,
  follows,
  notices,
  shares,
  users,
} from "../../db/schema/account";
import { type Bind, marks, SqlAccountStore } from "./sql-store";
import { FOLLOW_KINDS, type FollowKind } from "../../db/follows";
import { SHARE_LIFETIME_DAYS, type Share, type ShareKind } from "../../db/shares";
import {
  createUserWithKey,
  KeyVerifier,
  listKeys,
  prepareDataVersion,
  prepareKeyLookup,
  revokeKey,
  type CreatedKey,
  type KeyListing,
  type KeyRow,
  type KeyVerifierOptions,
} from "./keys";
import { Ledger, type LedgerOptions, type MeteringLedger } from "./ledger";
import { getPlan, listPlans, seedPlans, type Plan } from "./plans";

export { FOLLOW_KINDS, type FollowKind, type Share, type ShareKind };

/** How a column's value comes back from raw SQL: boolean-mode integers as 0/1, blobs as bytes. */
type RawValue<D> = D extends boolean ? number : D extends Buffer ? Uint8Array : D;
type ColumnsOf<T extends Table> = T["_"]["columns"];

/**
 * A row of `T` as SQLite answers raw SQL (`SELECT *`): the drizzle table's column names
 * (snake_case) with its select types (`typeof table.$inferSelect`, nullable where the column is).
 */
export type SqlRow<T extends Table> = {
  [K in keyof ColumnsOf<T> as ColumnsOf<T>[K]["_"]["name"]]: RawValue<ColumnsOf<T>[K]["_"]["data"]> | (ColumnsOf<T>[K]["_"]["notNull"] extends true ? never : null);
};

export type UserRow = SqlRow<typeof users>;
export type ApiKeyRow = SqlRow<typeof apiKeys>;
export type FollowRow = SqlRow<typeof follows>;
export type ShareRow = SqlRow<typeof shares>;
export type NoticeRow = SqlRow<typeof notices>;
export type DuDailyRow = SqlRow<typeof duDaily>;
export type CollectableRow = SqlRow<typeof collectables>;
export type AcquisitionRow = SqlRow<typeof collectableAcquisitions>;
export type AppraisalRow = SqlRow<typeof collectableAppraisals>;
export type ProvenanceRow = SqlRow<typeof collectableProvenance>;
export type SaleRow = SqlRow<typeof collectableSales>;
export type ChildRow = AppraisalRow | ProvenanceRow | SaleRow;

/** The child tables of a collectable reached through it (appraisals, provenance, private sales). */
export type ChildTable = "collectable_appraisals" | "collectable_provenance" | "collectable_sales";

/** An allowance notice as `artmarket notices` lists it (with the user's name). */
export type NoticeListing = Omit<NoticeRow, "user_id" | "plan_slug"> & { user_id: number; user_name: string; plan: string };

/** A usage breakdown row: one label (day, month or endpoint), its DU and requests. */
export interface UsageBucket {
  label: string;
  du: number;
  requests: number;
}

/** One comp of a saved comp set, in its saved order. */
export interface CompRow {
  artist_id: number;
  artwork_id: number;
  weight: number;
}

/**
 * A follow as a followed list orders it: most recently followed first; `seq` breaks ties of
 * created_at in the followed artworks (account.db's rowid, the order the follows were made in;
 * PostgreSQL keeps no such order, so there it is target_id × 4 + the kind's index in FOLLOW_KINDS).
 */
export interface FollowedRow {
  target_id: number;
  created_at: number;
  seq: number;
}

/**
 * A collectable as the collectables list filters and sorts it (market SQL, the rows bound as one
 * value: src/serve/modules/collectables/fields.ts): its own columns the list reads, and its
 * acquisition's two that the current value reads (null without an acquisition row).
 */
export interface ListedCollectable {
  id: number;
  artist_id: number;
  category_id: number;
  title: string;
  creation_year: number | null;
  edition_unique_type: string;
  created_at: number;
  selected_price_type: string;
  manual_price_value: number | null;
  machine_estimate_usd: number | null;
  use_instead_of_estimates: number | null;
  acquisition_price_usd: number | null;
}

/** What market queries ask of the store about the caller's follows. */
export type FollowReader = Pick<AccountStore, "followedAmong" | "followedIds" | "followedRows">;

export interface AccountStore {
  /** Which store this is: account.db, or PostgreSQL shared by several nodes. */
  readonly kind: "sqlite" | "postgres";

  // ---------------------------------------------------------------- users & keys
  /** Creates a user on `planSlug` with one key (argon2 hash stored); the key is returned once. */
  createUserWithKey(planSlug: string, name?: string): Promise<CreatedKey>;
  /** The first user of an empty store (with its key), or null when the store has users: `serve`'s first start, on any node. */
  createFirstUser(planSlug: string, name?: string): Promise<CreatedKey | null>;
  /** The key and its user behind a kid (active or revoked), or null. */
  findKeyByKid(kid: string): KeyRow | null;
  listKeys(): KeyListing[];
  /** Revokes a key by numeric id or kid; false when no active key matched. */
  revokeKey(idOrKid: string): boolean;
  hasUsers(): boolean;
  /** A counter that changes whenever another process commits account data (cache invalidation). */
  dataVersion(): number;
  /** The key verifier over this store (its lookup statements prepared once). */
  keyVerifier(onChange?: () => void, options?: KeyVerifierOptions): KeyVerifier;

  // ---------------------------------------------------------------- plans
  getPlan(slug: string): Plan | null;
  listPlans(): Plan[];
  /** Inserts the default plans that are missing; operator edits survive. */
  seedPlans(): void;

  // ---------------------------------------------------------------- ledger
  /**
   * The DU ledger over this store: it appends batches of ledger rows with their daily roll-ups and
   * allowance notices in one transaction (group commit), and loads the window consumption.
   */
  ledger(options?: LedgerOptions): MeteringLedger;
  /** DU consumed by the user over [from, to] (UTC days, inclusive), from the daily roll-ups. */
  consumedBetween(userId: number, from: string, to: string): number;

  // ---------------------------------------------------------------- usage
  /** DU and requests per label over [from, to]: by day, month (YYYY-MM) or endpoint, ordered by label. */
  usageBreakdown(userId: number, from: string, to: string, by: "day" | "month" | "endpoint"): UsageBucket[];

  // ---------------------------------------------------------------- notices
  listNotices(): NoticeListing[];

  // ---------------------------------------------------------------- follows
  follow(userId: number, kind: FollowKind, targetId: number): void;
  unfollow(userId: number, kind: FollowKind, targetId: number): void;
  /** Which of `ids` the user follows. */
  followedAmong(userId: number | null, kind: FollowKind, ids: readonly number[]): Set<number>;
  /** Every id of `kind` the user follows, most recently followed first (ties: the larger id first). */
  followedIds(userId: number, kind: FollowKind): number[];
  /** The user's follows of `kind` in the order of followedIds, with what the followed lists' keysets read. */
  followedRows(userId: number, kind: FollowKind): FollowedRow[];

  // ---------------------------------------------------------------- shares
  createShare(userId: number, kind: ShareKind, ids: number[], title: string | null, now?: number): Share;
  /** The share behind a token, or null when unknown, of another kind, or expired. */
  findShare(token: string, kind: ShareKind, now?: number): Share | null;

  // ---------------------------------------------------------------- collectables (user id always in the key)
  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T;
  collectable(userId: number, id: number): CollectableRow | null;
  collectablesByIds(userId: number, ids: readonly number[]): CollectableRow[];
  /** The user's collectables valued on another market snapshot than `stamp` (or never). */
  staleCollectables(userId: number, stamp: string): CollectableRow[];
  /** Inserts a collectable with its empty acquisition; returns its id. */
  insertCollectable(userId: number, values: Record<string, Bind>, now: number): number;
  /** Sets columns of a collectable; updated_at moves forward (at least one ms past the last write). */
  updateCollectable(userId: number, id: number, values: Record<string, Bind>, now: number): void;
  /** Stores a machine estimate (and the snapshot it was computed on). */
  saveValuation(userId: number, id: number, usd: number | null, basis: string | null, stamp: string): void;
  /** Deletes a collectable; its children go with it. */
  deleteCollectable(userId: number, id: number): void;
  /** Bumps updated_at of a collectable after a change to one of its children. */
  touchCollectable(userId: number, id: number, now: number): void;
  /** The image embedding: undefined without such a collectable of the user, null without embedding. */
  collectableEmbedding(userId: number, id: number): Float32Array | null | undefined;

  acquisition(userId: number, collectableId: number): AcquisitionRow | null;
  acquisitionsOf(userId: number, collectableIds: readonly number[]): AcquisitionRow[];
  /** Writes the acquisition (creating its row when missing) and bumps the collectable. */
  saveAcquisition(userId: number, collectableId: number, values: Record<string, Bind>, now: number): void;
  setAcquisitionPriceUsd(userId: number, collectableId: number, priceUsd: number | null): void;

  children<R extends ChildRow>(userId: number, table: ChildTable, collectableIds: readonly number[], order: string): R[];
  child<R extends ChildRow>(userId: number, table: ChildTable, collectableId: number, childId: number): R | null;
  insertChild(userId: number, table: ChildTable, collectableId: number, values: Record<string, Bind>, now: number): number;
  updateChild(userId: number, table: ChildTable, collectableId: number, childId: number, values: Record<string, Bind>, now: number): void;
  deleteChild(userId: number, table: ChildTable, collectableId: number, childId: number, now: number): void;

  /** When the saved comp set was last replaced (ms), or null without one. */
  compSetUpdatedAt(userId: number, collectableId: number): number | null;
  comps(userId: number, collectableId: number): CompRow[];
  replaceComps(userId: number, collectableId: number, comps: readonly CompRow[], now: number): void;

  // ---------------------------------------------------------------- usage per key (`artmarket keys usage`)
  /**
   * DU and requests per user and key from the ledger (every key listed, unused ones with 0), over
   * the days from `since` (YYYY-MM-DD, UTC; all days when absent), ordered by user and key.
   */
  usageByKey(since?: string): KeyUsage[];

  // ---------------------------------------------------------------- what market queries join, and shared image bytes
  /** The user's collectables as the collectables list reads them (market SQL, bound as one value), in no order. */
  collectableListRows(userId: number): ListedCollectable[];
  /** The size of an uploaded collectable image by its key (whoever owns it), or null. */
  uploadedImageSize(imageKey: string): { width: number; height: number } | null;
  /**
   * Keeps an uploaded original's bytes in the store, so that every node can serve it (PostgreSQL);
   * the SQLite store keeps originals as files under the data directory only, and does nothing.
   */
  saveImageOriginal(imageKey: string, bytes: Uint8Array): void;
  /** An uploaded original's bytes kept in the store, or null (always null for SQLite). */
  imageOriginal(imageKey: string): Uint8Array | null;
  /** Forgets an original's bytes (after the collectable's image was replaced or the collectable deleted). */
  deleteImageOriginal(imageKey: string): void;

  /** Closes the store's connection. */
  close(): void;
}

/** The store over account.db (the single writing connection). */
export class SqliteAccountStore extends SqlAccountStore implements AccountStore {
  readonly kind = "sqlite" as const;
  protected readonly greatest = "max" as const;
  protected readonly usageCasts = { count: "", sum: "" };
  private readonly lookup;
  private readonly version;

  constructor(readonly db: Database) {
    super();
    this.lookup = prepareKeyLookup(db);
    this.version = prepareDataVersion(db);
  }

  // ---------------------------------------------------------------- one-off statements (prepare, run, finalize)

  protected all<T>(sql: string, ...params: Bind[]): T[] {
    const st = this.db.prepare(sql);
    try {
      return st.all(...(params as never[])) as T[];
    } finally {
      st.finalize();
    }
  }

  protected get<T>(sql: string, ...params: Bind[]): T | null {
    const st = this.db.prepare(sql);
    try {
      return (st.get(...(params as never[])) as T | null) ?? null;
    } finally {
      st.finalize();
    }
  }

  protected run(sql: string, ...params: Bind[]): number {
    const st = this.db.prepare(sql);
    try {
      return st.run(...(params as never[])).changes;
    } finally {
      st.finalize();
    }
  }

  // ---------------------------------------------------------------- users & keys

  createUserWithKey(planSlug: string, name?: string): Promise<CreatedKey> {
    return createUserWithKey(this.db, planSlug, name);
  }

  async createFirstUser(planSlug: string, name?: string): Promise<CreatedKey | null> {
    // one server per data directory (serve's lock): nothing else writes users meanwhile
    return this.hasUsers() ? null : await this.createUserWithKey(planSlug, name);
  }

  findKeyByKid(kid: string): KeyRow | null {
    return this.lookup.get(kid);
  }

  listKeys(): KeyListing[] {
    return listKeys(this.db);
  }

  revokeKey(idOrKid: string): boolean {
    return revokeKey(this.db, idOrKid);
  }

  hasUsers(): boolean {
    return this.db.query("SELECT 1 FROM users LIMIT 1").get() !== null;
  }

  dataVersion(): number {
    return this.version.get()!.data_version;
  }

  keyVerifier(onChange?: () => void, options?: KeyVerifierOptions): KeyVerifier {
    return new KeyVerifier(this.db, onChange, options);
  }

  // ---------------------------------------------------------------- plans

  getPlan(slug: string): Plan | null {
    return getPlan(this.db, slug);
  }

  listPlans(): Plan[] {
    return listPlans(this.db);
  }

  seedPlans(): void {
    seedPlans(this.db);
  }

  // ---------------------------------------------------------------- ledger and usage

  ledger(options?: LedgerOptions): Ledger {
    return new Ledger(this.db, options);
  }

  consumedBetween(userId: number, from: string, to: string): number {
    return (
      this.db.query<{ du: number | null }, [number, string, string]>("SELECT sum(du) AS du FROM du_daily WHERE user_id = ? AND day BETWEEN ? AND ?").get(userId, from, to)?.du ?? 0
    );
  }

  usageBreakdown(userId: number, from: string, to: string, by: "day" | "month" | "endpoint"): UsageBucket[] {
    const label = by === "month" ? "substr(day, 1, 7)" : by;
    return this.db
      .query<UsageBucket, [number, string, string]>(
        `SELECT ${label} AS label, sum(du) AS du, sum(requests) AS requests
         FROM du_daily WHERE user_id = ? AND day BETWEEN ? AND ? GROUP BY label ORDER BY label`,
      )
      .all(userId, from, to);
  }

  // ---------------------------------------------------------------- notices

  listNotices(): NoticeListing[] {
    return this.db
      .query<NoticeListing, []>(
        `SELECT n.id, n.user_id, u.name AS user_name, n.plan_slug AS plan, n.pool, n.threshold, n.period_start, n.period_end,
                n.du_limit, n.du_consumed, n.projected_eop, n.created_at
         FROM notices n JOIN users u ON u.id = n.user_id ORDER BY n.id`,
      )
      .all();
  }

  // ---------------------------------------------------------------- follows

  follow(userId: number, kind: FollowKind, targetId: number): void {
    this.db.query("INSERT INTO follows (user_id, kind, target_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING").run(userId, kind, targetId, Date.now());
  }

  unfollow(userId: number, kind: FollowKind, targetId: number): void {
    this.db.query("DELETE FROM follows WHERE user_id = ? AND kind = ? AND target_id = ?").run(userId, kind, targetId);
  }

  followedAmong(userId: number | null, kind: FollowKind, ids: readonly number[]): Set<number> {
    if (userId === null || ids.length === 0) return new Set();
    const rows = this.db
      .query<{ id: number }, (string | number)[]>(`SELECT target_id AS id FROM follows WHERE user_id = ? AND kind = ? AND target_id IN (${marks(ids.length)})`)
      .all(userId, kind, ...ids);
    return new Set(rows.map((r) => r.id));
  }

  followedIds(userId: number, kind: FollowKind): number[] {
    return this.db
      .query<{ id: number }, [number, string]>("SELECT target_id AS id FROM follows WHERE user_id = ? AND kind = ? ORDER BY created_at DESC, target_id DESC")
      .all(userId, kind)
      .map((r) => r.id);
  }

  followedRows(userId: number, kind: FollowKind): FollowedRow[] {
    return this.db
      .query<FollowedRow, [number, string]>("SELECT target_id, created_at, rowid AS seq FROM follows WHERE user_id = ? AND kind = ? ORDER BY created_at DESC, target_id DESC")
      .all(userId, kind);
  }

  // ---------------------------------------------------------------- shares

  createShare(userId: number, kind: ShareKind, ids: number[], title: string | null, now = Date.now()): Share {
    const token = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64url");
    const expiresAt = now + SHARE_LIFETIME_DAYS * 86_400_000;
    this.db
      .query("INSERT INTO shares (token, user_id, kind, ids, title, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .run(token, userId, kind, JSON.stringify(ids), title, now, expiresAt);
    return { token, kind, ids, title, expiresAt };
  }

  findShare(token: string, kind: ShareKind, now = Date.now()): Share | null {
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) return null;
    const row = this.db
      .query<Pick<ShareRow, "token" | "kind" | "ids" | "title" | "expires_at">, [string]>("SELECT token, kind, ids, title, expires_at FROM shares WHERE token = ?")
      .get(token);
    if (!row || row.kind !== kind || row.expires_at <= now) return null;
    return { token: row.token, kind, ids: JSON.parse(row.ids) as number[], title: row.title, expiresAt: row.expires_at };
  }

  // ---------------------------------------------------------------- collectables

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ---------------------------------------------------------------- image bytes

  uploadedImageSize(imageKey: string): { width: number; height: number } | null {
    return this.get<{ width: number; height: number }>(
      "SELECT image_width AS width, image_height AS height FROM collectables WHERE image_key = ? AND image_kind = 'upload'",
      imageKey,
    );
  }

  saveImageOriginal(_imageKey: string, _bytes: Uint8Array): void {}

  imageOriginal(_imageKey: string): Uint8Array | null {
    return null;
  }

  deleteImageOriginal(_imageKey: string): void {}

  close(): void {
    this.db.close();
  }
}

const stores = new WeakMap<Database, SqliteAccountStore>();

/** The store over an account.db connection (one per connection, so its statements are prepared once). */
export function accountStore(db: Database): SqliteAccountStore {
  let s = stores.get(db);
  if (!s) {
    s = new SqliteAccountStore(db);
    stores.set(db, s);
  }
  return s;
}

/** A key's usage as `artmarket keys usage` lists it: its user, plan, requests and DU, and the days they span. */
export interface KeyUsage {
  user_id: number;
  user_name: string;
  plan: string;
  key_id: number;
  kid: string;
  key_name: string;
  revoked: boolean;
  requests: number;
  du: number;
  /** The first and last UTC day with a request (in the range asked), or null without one. */
  first_day: string | null;
  last_day: string | null;
}
