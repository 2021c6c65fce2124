/**
 * A table's rows hashed in a stable order, to compare two databases row for row: rowid order, or
 * the primary key's for a WITHOUT ROWID table (artist_analytics). Blobs hash as base64.
 */
import type { Database } from "bun:sqlite";

export function rowOrder(db: Database, table: string): string {
  const list = db.query("SELECT wr FROM pragma_table_list WHERE name = ?").get(table) as { wr: number } | null;
  if (!list?.wr) return "rowid";
  const key = db.query("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk").all(table) as { name: string }[];
  return key.map((k) => `"${k.name}"`).join(", ");
}

export function tableHash(db: Database, table: string): string {
  const h = new Bun.CryptoHasher("sha256");
  for (const row of db.query(`SELECT * FROM "${table}" ORDER BY ${rowOrder(db, table)}`).values()) h.update(rowText(row));
  return h.digest("hex");
}

/**
 * A row of values as the hashes read it: its JSON, blobs as base64 (the text JSON.stringify gives
 * with a replacer that turns each blob into base64, without calling a replacer on every value).
 */
export function rowText(row: unknown[]): string {
  return JSON.stringify(row.some((v) => v instanceof Uint8Array) ? row.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString("base64") : v)) : row);
}
