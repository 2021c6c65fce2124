/**
 * The migration runner of the account store on PostgreSQL: applies the SQL that drizzle-kit
 * generated from schema/account-pg.ts (embedded as text, see migrations/embedded.ts) like the
 * SQLite runner (../migrate.ts) does: statements split at drizzle's breakpoints, each migration
 * in its own transaction, recorded with a hash so that a second run does nothing and an edited
 * or unknown migration is refused.
 *
 * Several nodes may start at the same moment against one database: the whole run holds a
 * session-level advisory lock, so the second node waits, then finds every migration recorded
 * and applies nothing.
 */
import { type Migration, MigrationError } from "../migrate";
import { accountPgMigrations } from "../migrations/embedded";
import type { SyncPg } from "./sync-client";

/** The advisory lock key of the migrations (ASCII "artmkt"); no other part of artmarket takes it. */
export const MIGRATION_LOCK = 0x6172746d6b74;

const LABEL = "account store (PostgreSQL)";

const hashOf = (sql: string) => new Bun.CryptoHasher("sha256").update(sql).digest("hex");

/** Applies the pending migrations in order; returns the tags applied now. */
export function migratePg(pg: SyncPg, migrations: readonly Migration[] = accountPgMigrations): string[] {
  // waits while another node migrates (up to SyncPg's statement timeout)
  pg.get("SELECT pg_advisory_lock(?::bigint)", MIGRATION_LOCK);
  try {
    pg.script("CREATE TABLE IF NOT EXISTS artmarket_migrations (tag text PRIMARY KEY, hash text NOT NULL, applied_at bigint NOT NULL)");
    const applied = new Map(pg.all<{ tag: string; hash: string }>("SELECT tag, hash FROM artmarket_migrations ORDER BY tag").map((r) => [r.tag, r.hash]));
    const known = new Set(migrations.map((m) => m.tag));
    for (const tag of applied.keys()) {
      if (!known.has(tag)) {
        throw new MigrationError(`${LABEL}: migration ${tag} is in the database but not in this build (was it written by a newer artmarket?)`);
      }
    }
    const done: string[] = [];
    for (const m of migrations) {
      const hash = hashOf(m.sql);
      const previous = applied.get(m.tag);
      if (previous !== undefined) {
        if (previous !== hash) throw new MigrationError(`${LABEL}: migration ${m.tag} was changed after it was applied`);
        continue;
      }
      // each migration whole or not at all (PostgreSQL's DDL is transactional)
      pg.transaction(() => {
        for (const statement of m.sql.split("--> statement-breakpoint")) {
          if (statement.trim()) pg.script(statement);
        }
        pg.run("INSERT INTO artmarket_migrations (tag, hash, applied_at) VALUES (?, ?, ?)", m.tag, hash, Date.now());
      });
      done.push(m.tag);
    }
    return done;
  } finally {
    try {
      pg.get("SELECT pg_advisory_unlock(?::bigint)", MIGRATION_LOCK);
    } catch {
      // the connection is gone, and the server released its session lock with it
    }
  }
}
