/**
 * The migration runner: applies the SQL that drizzle-kit generated (embedded as text, see
 * migrations/embedded.ts), each migration in its own transaction, recorded with a hash so that
 * a second run does nothing and an edited or unknown migration is refused.
 */
import type { Database } from "bun:sqlite";

export interface Migration {
  readonly tag: string;
  readonly sql: string;
}

export class MigrationError extends Error {}

const hashOf = (sql: string) => new Bun.CryptoHasher("sha256").update(sql).digest("hex");

/** Applies the pending migrations in order; returns the tags applied now. */
export function migrate(db: Database, migrations: readonly Migration[], label: string, options: { oneLock?: boolean } = {}): string[] {
  db.run("CREATE TABLE IF NOT EXISTS __migrations (tag TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL)");
  const pending = () => {
    const tags = new Set(
      db
        .query<{ tag: string }, []>("SELECT tag FROM __migrations")
        .all()
        .map((r) => r.tag),
    );
    return migrations.some((m) => !tags.has(m.tag));
  };
  if (!pending() || options.oneLock === false) return apply(db, migrations, label);
  // Two processes may open a new data directory at once (a server and `keys create`): the check
  // and the migrations run under one write lock (BEGIN IMMEDIATE waits for busy_timeout), so the
  // second sees the first's work and applies nothing. (`oneLock: false` keeps one transaction per
  // migration: an existing market's conversion rewrites whole tables, too much for one journal.)
  return db.transaction(() => apply(db, migrations, label)).immediate();
}

function apply(db: Database, migrations: readonly Migration[], label: string): string[] {
  const applied = new Map(
    db
      .query<{ tag: string; hash: string }, []>("SELECT tag, hash FROM __migrations ORDER BY tag")
      .all()
      .map((r) => [r.tag, r.hash]),
  );
  const known = new Set(migrations.map((m) => m.tag));
  for (const tag of applied.keys()) {
    if (!known.has(tag)) {
      throw new MigrationError(`${label}: migration ${tag} is in the database but not in this build (was it written by a newer artmarket?)`);
    }
  }
  const done: string[] = [];
  for (const m of migrations) {
    const hash = hashOf(m.sql);
    const previous = applied.get(m.tag);
    if (previous !== undefined) {
      if (previous !== hash) throw new MigrationError(`${label}: migration ${m.tag} was changed after it was applied`);
      continue;
    }
    // inside the caller's transaction this is a savepoint: each migration whole or not at all
    db.transaction(() => {
      for (const statement of m.sql.split("--> statement-breakpoint")) {
        if (statement.trim()) db.run(statement);
      }
      db.query("INSERT INTO __migrations (tag, hash, applied_at) VALUES (?, ?, ?)").run(m.tag, hash, Date.now());
    })();
    done.push(m.tag);
  }
  return done;
}
