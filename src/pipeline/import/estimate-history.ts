/**
 * The history of served estimates (docs/api-artworks.md#estimates-as-of-a-day): each merge that
 * republishes a work's estimate keeps the values it replaces in the new snapshot's
 * `estimate_history`, with the day the new ones took effect (`until`). Only changes are stored;
 * the current values are the artworks row's. market_meta `estimates_since` is the first day the
 * history answers for: the as-of date of the first snapshot the data directory kept, carried from
 * snapshot to snapshot by every merge (a `seed` or a replacing import starts it again).
 *
 * - An incremental merge hands over the values it replaced as it writes them (recordReplaced).
 * - A merge that derives the whole market (new artists or works, `--refit`) carries the previous
 *   snapshot's history and compares every work's estimate with it (carryHistory).
 */
import { Database } from "bun:sqlite";
import { estimatesSince } from "../../db/estimate-history";
import { dayNumber } from "../../market/time";
import { ESTIMATE_COLUMNS } from "../derive/materiality";

const INSERT = `INSERT OR IGNORE INTO estimate_history (artwork_id, until, ${ESTIMATE_COLUMNS.join(", ")}) VALUES (?, ?, ${ESTIMATE_COLUMNS.map(() => "?").join(", ")})`;

/**
 * Sets `db`'s estimates_since to `previous`'s (what the previous snapshot answered for), unless it
 * is the new as-of date itself (the default without the key: a merge of a market into itself
 * changes nothing).
 */
function keepSince(db: Database, previous: Database, asOf: string): void {
  const since = estimatesSince(previous);
  if (since && since !== asOf) db.query("INSERT OR REPLACE INTO market_meta (key, value) VALUES ('estimates_since', ?)").run(since);
}

/**
 * Writes the estimate values an incremental merge replaced (`replaced`: work id and its
 * ESTIMATE_COLUMNS values as published before), in effect until `asOf`. A value replaced twice on
 * one day keeps the first (the one the previous day served).
 */
export function recordReplaced(db: Database, previous: Database, asOf: string, replaced: readonly (readonly [number, readonly unknown[]])[]): void {
  const insert = db.query(INSERT);
  const until = dayNumber(asOf);
  db.transaction(() => {
    keepSince(db, previous, asOf);
    for (const [id, values] of replaced) insert.run(id, until, ...(values as never[]));
  })();
}

/**
 * The history of a snapshot derived whole from `previousPath`'s records: the previous history
 * copied, and every work whose estimate values differ from the previous snapshot's gets the
 * previous values, in effect until `asOf`.
 */
export function carryHistory(db: Database, previousPath: string, asOf: string): void {
  db.query("ATTACH DATABASE ? AS prev").run(previousPath);
  try {
    const has = db.query("SELECT 1 FROM prev.sqlite_master WHERE type = 'table' AND name = 'estimate_history'").get();
    const cols = ESTIMATE_COLUMNS.join(", ");
    const previous = new Database(previousPath, { readonly: true });
    db.transaction(() => {
      try {
        keepSince(db, previous, asOf);
      } finally {
        previous.close();
      }
      if (has) db.run(`INSERT OR IGNORE INTO estimate_history (artwork_id, until, ${cols}) SELECT artwork_id, until, ${cols} FROM prev.estimate_history`);
      db.query(
        `INSERT OR IGNORE INTO estimate_history (artwork_id, until, ${cols})
         SELECT p.id, ?, ${ESTIMATE_COLUMNS.map((c) => `p.${c}`).join(", ")} FROM prev.artworks p JOIN main.artworks a ON a.id = p.id
         WHERE ${ESTIMATE_COLUMNS.map((c) => `p.${c} IS NOT a.${c}`).join(" OR ")}`,
      ).run(dayNumber(asOf));
    })();
  } finally {
    db.run("DETACH DATABASE prev");
  }
}
