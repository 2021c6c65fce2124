/**
 * The account store over PostgreSQL, shared by several nodes: the same methods and answers as
 * `SqliteAccountStore` (store.ts), over the tables of the account-pg migrations (the same table and
 * column names as account.db; millisecond timestamps as bigint, boolean columns as integer 0/1,
 * the embedding as bytea) through SyncPg, whose statements are synchronous like bun:sqlite's. The
 * SQL is the stores' shared one (sql/, over PostgreSQL's dialect: sql/dialect.ts says what differs).
 * The ledger and the key verifier are the PostgreSQL ones of pg-hot.ts.
 */
import { migratePg } from "../../db/pg/migrate";
import { SyncPg } from "../../db/pg/sync-client";
import type { KeyVerifier, KeyVerifierOptions } from "./keys";
import type { LedgerOptions, MeteringLedger } from "./ledger";
import { closeAsyncClient, pgKeyVerifier, pgLedger } from "./pg-hot";
import { SqlAccountStore } from "./sql-store";
import { pgDialect } from "./sql/dialect";
import type { AccountStore } from "./store";

/** The store over PostgreSQL (one SyncPg connection). */
export class PgAccountStore extends SqlAccountStore implements AccountStore {
  readonly kind = "postgres" as const;

  constructor(readonly pg: SyncPg) {
    super(pgDialect(pg));
  }

  /** Connects (listening for the account epoch), brings the schema to this build's, and returns the store. */
  static open(url: string): PgAccountStore {
    const pg = new SyncPg(url, { listenEpoch: true });
    try {
      migratePg(pg);
    } catch (err) {
      pg.close();
      throw err;
    }
    return new PgAccountStore(pg);
  }

  /** The account epoch as SyncPg last heard it (notified by the triggers, polled as a fallback). */
  dataVersion(): number {
    return this.pg.epoch();
  }

  keyVerifier(onChange?: () => void, options?: KeyVerifierOptions): KeyVerifier {
    return pgKeyVerifier(this, onChange, options);
  }

  ledger(options?: LedgerOptions): MeteringLedger {
    return pgLedger(this, options);
  }

  close(): void {
    this.pg.close();
    // the hot path's asynchronous pool of this thread, when it was opened
    void closeAsyncClient(this);
  }
}
