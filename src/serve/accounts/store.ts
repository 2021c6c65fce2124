/**
 * The account store: every read and write of account data (users, API keys, plans, the DU ledger
 * and its windows, allowance notices, follows, shares, collectables and their children) goes
 * through one interface, AccountStore: the composition of one small interface per concern (sql/:
 * keys, plans, usage, notices, follows, shares, collectables, users: sign-in, sessions, audit; webhooks and their outbox), each implemented once over a dialect
 * (sql-store.ts), with the hot path added per store. Two stores: `SqliteAccountStore` over
 * account.db (the default; its single writing connection) and `PgAccountStore` over PostgreSQL
 * (pg-store.ts, `--account-store postgres://…`, shared by several nodes).
 * tests/contract/account-store.test.ts runs one suite against both.
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
import { FOLLOW_KINDS, type FollowKind } from "../../db/follows";
import type { Share, ShareKind } from "../../db/shares";
import { KeyVerifier, type KeyVerifierOptions, prepareDataVersion } from "./keys";
import { Ledger, type LedgerOptions, type MeteringLedger } from "./ledger";
import { SqlAccountStore } from "./sql-store";
import type { CollectableStore } from "./sql/collectables";
import { type Bind, type FollowsVersions, type SqliteDialect, sqliteDialect } from "./sql/dialect";
import type { FollowedRow, FollowReader, FollowStore } from "./sql/follows";
import type { KeyStore } from "./sql/keys";
import type { NoticeStore } from "./sql/notices";
import type { PlanStore } from "./sql/plans";
import type { ShareStore } from "./sql/shares";
import type { UsageStore } from "./sql/usage";
import type { UserStore } from "./sql/users";
import type { WebhookStore } from "./sql/webhooks";
import type { NotificationStore } from "./sql/notifications";

export { type Bind, FOLLOW_KINDS, type FollowedRow, type FollowKind, type FollowReader, type Share, type ShareKind };

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

/** Every read and write of account data: one interface per concern (sql/), and each store's hot path. */
export interface AccountStore extends KeyStore, PlanStore, UsageStore, NoticeStore, FollowStore, ShareStore, CollectableStore, UserStore, WebhookStore, NotificationStore {
  /** Which store this is: account.db, or PostgreSQL shared by several nodes. */
  readonly kind: "sqlite" | "postgres";
  /** A counter that changes whenever another process commits account data (cache invalidation). */
  dataVersion(): number;
  /** The key verifier over this store (its lookup statements prepared once). */
  keyVerifier(onChange?: () => void, options?: KeyVerifierOptions): KeyVerifier;
  /**
   * The DU ledger over this store: it appends batches of ledger rows with their daily roll-ups and
   * allowance notices in one transaction (group commit), and loads the window consumption.
   */
  ledger(options?: LedgerOptions): MeteringLedger;
  /** Runs `fn` in one transaction (a nested call joins the outer one). */
  transaction<T>(fn: () => T): T;
  /** Closes the store's connection. */
  close(): void;
}

/** The store over account.db (the single writing connection). */
export class SqliteAccountStore extends SqlAccountStore implements AccountStore {
  readonly kind = "sqlite" as const;
  private readonly version;

  constructor(readonly db: Database) {
    super(sqliteDialect(db));
    this.version = prepareDataVersion(db);
  }

  dataVersion(): number {
    return this.version.get()!.data_version;
  }

  /** Follow marks from a copy of each user's follows, checked against the server's shared versions (SqliteDialect.shareFollows). */
  shareFollows(versions: FollowsVersions): void {
    (this.sql as SqliteDialect).shareFollows(versions);
  }

  keyVerifier(onChange?: () => void, options?: KeyVerifierOptions): KeyVerifier {
    return new KeyVerifier(this.db, onChange, options);
  }

  ledger(options?: LedgerOptions): Ledger {
    return new Ledger(this.db, options);
  }

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
