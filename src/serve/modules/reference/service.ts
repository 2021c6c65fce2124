/** Reference vocabularies: read straight from market.db, filtered by an optional name substring. */
import type { Database } from "bun:sqlite";
import { containsPattern } from "../../../db/sql";
import { freshnessOf } from "../../freshness";

export function auctionHouses(db: Database, name?: string) {
  const rows = db
    .query<{ id: number; name: string; slug: string; priority_order: number; is_live: number }, [string | null, string]>(
      `SELECT id, name, slug, priority_order, is_live FROM auction_houses
       WHERE ?1 IS NULL OR name LIKE ?2 ESCAPE '\\' ORDER BY priority_order, id`,
    )
    .all(name ?? null, containsPattern(name ?? ""));
  const freshness = freshnessOf(db);
  return rows.map((r) => ({ ...r, is_live: r.is_live === 1, results_as_of: freshness.resultsAsOf(r.id) }));
}

export function auctionLocations(db: Database, name?: string): string[] {
  return db
    .query<{ name: string }, [string | null, string]>(`SELECT name FROM auction_locations WHERE ?1 IS NULL OR name LIKE ?2 ESCAPE '\\' ORDER BY name`)
    .all(name ?? null, containsPattern(name ?? ""))
    .map((r) => r.name);
}

export function categories(db: Database) {
  return db.query<{ id: number; name: string }, []>("SELECT id, name FROM categories ORDER BY id").all();
}

export function currencies(db: Database) {
  return db.query<{ code: string; name: string; symbol: string }, []>("SELECT code, name, symbol FROM currencies ORDER BY rowid").all();
}

export const VOCABULARIES = ["materials", "substrates", "surfaces", "damages"] as const;
export type Vocabulary = (typeof VOCABULARIES)[number];

export function vocabulary(db: Database, table: Vocabulary, name?: string) {
  return db
    .query<{ id: number; name: string; label: string }, [string | null, string]>(
      `SELECT id, name, label FROM ${table}
       WHERE ?1 IS NULL OR name LIKE ?2 ESCAPE '\\' OR label LIKE ?2 ESCAPE '\\' ORDER BY id`,
    )
    .all(name ?? null, containsPattern(name ?? ""));
}
