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
export function migrate(db: Database, migrations: readonly Migration[], label: string): string[] {
  db.run(
    "CREATE TABLE IF NOT EXISTS __migrations (tag TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  const applied = new Map(
    db
      .query<{ tag: string; hash: string }, []>("SELECT tag, hash FROM __migrations ORDER BY tag")
      .all()
      .map((r) => [r.tag, r.hash]),
  );
  const known = new Set(migrations.map((m) => m.tag));
  for (const tag of applied.keys()) {
    if (!known.has(tag)) {
      throw new MigrationError(
        `${label}: migration ${tag} is in the database but not in this build (was it written by a newer artmarket?)`,
      );
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
