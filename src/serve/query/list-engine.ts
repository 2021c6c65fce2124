/**
 * The one engine the market lists page with (artists, artworks, lots, sales, and the followed
 * lists of artists and artworks): the cursor (its context, the position it names), one row read
 * past the page (whether a next page exists), the total, and the next cursor. A list gives what is
 * its own: its sort keys, the table its positions are read from, and its plan (the page's
 * statement for an offset or a keyset range, chosen by the list's cost planner over its declared
 * indexes: src/db/market-indexes/names.ts), or, for a followed list, the follows in their order
 * and which of them the market holds; the service keeps only the presentation.
 */
import type { Database } from "bun:sqlite";
import type { ImageSigner } from "../images/urls";
import { type CursorContext, cursorContext, decodeCursor, type KeyValue, type KeysetRange, nextCursor, positionOf, readPage, rowsAfter } from "./cursor";
import type { Filter, ParsedList, SortKeys, SqlFragment } from "./grammar";
import { allOnce } from "./planner";
import { snapshotOf } from "../snapshot";

/** What identifies a list's cursors: its scope, its sort, its filters and the parameters beside them. */
export interface ListCursor {
  scope: string;
  sort: string;
  filters: readonly Filter[];
  params: Readonly<Record<string, unknown>>;
}

/** A list read from a table through its plan. */
export interface TableList<T> {
  db: Database;
  signer: ImageSigner;
  cursor: ListCursor;
  keys: SortKeys;
  /** The table (with the alias the keys' expressions use) a row's position is read from, and its id column. */
  from: string;
  idColumn: string;
  /** The rows of one page: `limit` of them from `offset`, within `range` (a cursor's keyset range; null: by offset). */
  page(range: KeysetRange | null, limit: number, offset: number): T[];
  /** The list's total when the plan knows it already (a probe counted it), else null. */
  total: number | null;
  /** Counts the list (when the page does not tell it); absent for a list that gives no total. */
  count?: () => number;
  id(row: T): number;
}

/** A page of a list: its rows (`limit` at most), the total (null for a list that gives none), the next cursor. */
export interface ListPage<T> {
  rows: T[];
  total: number | null;
  /** Whether rows follow this page. */
  more: boolean;
  nextCursor: string | null;
}

function contextOf(db: Database, signer: ImageSigner, c: ListCursor): CursorContext {
  return cursorContext(db, signer, c.scope, c.sort, c.filters, c.params);
}

const rawCursor = (query: ParsedList) => query.params.cursor as string | undefined;

/**
 * A page of a table's list: by offset, or after the cursor's position (each keyset range in turn);
 * one row past the page; the total as the plan knows it, or from the page itself (a first page by
 * offset that ends the list: its offset plus its rows), or counted.
 */
export function tablePage<T>(list: TableList<T>, query: ParsedList): ListPage<T> {
  const cursor = contextOf(list.db, list.signer, list.cursor);
  const raw = rawCursor(query);
  const position = raw === undefined ? null : decodeCursor(cursor, raw, list.keys);
  // a first page past the known total reads nothing
  if (position === null && list.total !== null && list.total <= query.offset) return { rows: [], total: list.total, more: false, nextCursor: null };
  const rows = readPage(list.keys, position, query.limit + 1, query.offset, (range, limit, offset) => list.page(range, limit, offset));
  const page = rows.slice(0, query.limit);
  const more = rows.length > query.limit;
  const total = list.total ?? (list.count ? (position === null && page.length > 0 && !more ? query.offset + page.length : list.count()) : null);
  const ids = rows.map((r) => list.id(r));
  return {
    rows: page,
    total,
    more,
    nextCursor: nextCursor(cursor, ids, query.limit, (id) => positionOf(list.db, list.keys, list.from, { sql: `${list.idColumn} = ?`, params: [id] })),
  };
}

/** A followed list: the caller's follows in the list's order, those the market holds and the filters keep. */
export interface FollowedList<F> {
  db: Database;
  signer: ImageSigner;
  cursor: ListCursor;
  /** The follows' order (the keys' values from `key`). */
  keys: SortKeys;
  follows: readonly F[];
  /**
   * The statement that selects (as `id`) the followed ids the market holds and the list's filters
   * keep, the ids bound in it; its answer is kept for the snapshot (MarketSnapshot.followedKept).
   */
  kept: SqlFragment;
  id(follow: F): number;
  key(follow: F): KeyValue[];
}

/**
 * A page of a followed list: the follows the market holds in their order, after the cursor's
 * position (from its first) or from the offset; one past the page; the total is all of them.
 */
export function followedPage<F>(list: FollowedList<F>, query: ParsedList): { ids: number[]; total: number; nextCursor: string | null } {
  const cursor = contextOf(list.db, list.signer, list.cursor);
  const raw = rawCursor(query);
  const position = raw === undefined ? null : decodeCursor(cursor, raw, list.keys);
  const kept = snapshotOf(list.db).followedKept(JSON.stringify([list.kept.sql, list.kept.params]), () => new Set(allOnce<{ id: number }>(list.db, list.kept).map((r) => r.id)));
  const listed = list.follows.filter((f) => kept.has(list.id(f)));
  // after a cursor's position: the rows after it, from the first (the offset is the first page's)
  const from = position ? 0 : query.offset;
  const rows = rowsAfter(list.keys, listed, (f) => list.key(f), position).slice(from, from + query.limit + 1);
  const ids = rows.map((f) => list.id(f));
  const byId = new Map(rows.map((f) => [list.id(f), f]));
  return { ids: ids.slice(0, query.limit), total: listed.length, nextCursor: nextCursor(cursor, ids, query.limit, (id) => list.key(byId.get(id)!)) };
}
