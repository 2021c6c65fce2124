/**
 * Opens the account store a command or server was given: account.db in the data directory (the
 * default), or PostgreSQL (`--account-store postgres://…`), migrated to this build's schema and
 * with the default plans seeded either way.
 */
import { openAccountDb } from "../../db/connection";
import { PgAccountStore } from "./pg-store";
import { type AccountStore, SqliteAccountStore } from "./store";

export function openAccountStore(dataDir: string, url: string | null | undefined): AccountStore {
  const store = url ? PgAccountStore.open(url) : new SqliteAccountStore(openAccountDb(dataDir));
  store.seedPlans();
  return store;
}

/** Runs `fn` over the account store, then closes it. */
export async function withAccountStore<T>(dataDir: string, url: string | null | undefined, fn: (store: AccountStore) => T | Promise<T>): Promise<T> {
  const store = openAccountStore(dataDir, url);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}
