/**
 * Cursor pagination of the market lists (keyset paging). A list's order is declared as sort keys
 * (SortKeys: the expressions, their direction, whether the first can be NULL; the tiebreaker,
 * unique and never NULL, last); from that one declaration come the ORDER BY text and the keyset
 * ranges: the rows after a position, read from the sort's index as the first page is, however
 * deep the position.
 *
 * A cursor is `<payload>.<tag>`, both base64url: the payload is JSON `{v, f, k, s}` (the format's
 * version, the fingerprint of the list it was made for: the snapshot's id, the list, its filters
 * and its sort; the sort keys' values of the last row given, the tiebreaker last, null for a NULL;
 * the snapshot's id, so that a cursor of a snapshot the server has swapped away from is refused
 * naming both: src/serve/live-market.ts),
 * the tag an HMAC-SHA256 of the payload (16 bytes) under a key derived from the server's signing
 * secret. Anything else (garbage, an edited cursor, one of other filters, another sort, another
 * snapshot or another server's secret) is a 422 at ["query","cursor"]. The values are bound to
 * the SQL, never spliced into it.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { Type as t } from "@sinclair/typebox";
import type { Database } from "bun:sqlite";
import { snapshotId } from "../http/etag";
import { issue, ValidationFailed } from "../http/errors";
import type { ImageSigner } from "../images/urls";
import { snapshotOf } from "../snapshot";
import type { Filter, SortKeys, SqlFragment } from "./grammar";

/** `next_cursor` of a list page. */
export const NEXT_CURSOR = t.Union([t.String(), t.Null()], {
  description: "pass as `cursor` (with the same filters and sort) for the next page; null on the last page",
});

/** One value of a position: a number, a text, or null (a NULL of the nullable first key). */
export type KeyValue = number | string | null;

/** A keyset range: a condition over the list's rows; `nullTail` when it holds only rows whose first key is NULL. */
export interface KeysetRange extends SqlFragment {
  nullTail?: boolean;
}

/**
 * The rows after `position` (one value per key) in the order of `keys`, as ranges to read in turn,
 * each in the same ORDER BY: one range (a first key without NULLs, or a position already in the
 * NULL tail: the NULL rows after it), or two (the rows with a value after the position, then
 * every NULL row). Each is a seek in the sort's index: `x >= ? AND (x, …, id) > (?, …, ?)`
 * (the leading bound lets SQLite seek where the row value alone would not, on a collated key).
 */
export function keysetRanges(keys: SortKeys, position: readonly KeyValue[]): KeysetRange[] {
  const [first] = keys;
  if (!first || position.length !== keys.length) throw new Error("keysetRanges: one value per key");
  const op = first.dir === "ASC" ? ">" : "<";
  const after = (from: number): SqlFragment => {
    const rest = keys.slice(from);
    const values = position.slice(from);
    const tuple = rest.length === 1 ? rest[0]!.expr : `(${rest.map((k) => k.expr).join(", ")})`;
    const marks = rest.length === 1 ? "?" : `(${rest.map(() => "?").join(", ")})`;
    return { sql: `${rest[0]!.expr} ${op}= ? AND ${tuple} ${op} ${marks}`, params: [values[0]!, ...values] };
  };
  if (!first.nullable) return [after(0)];
  const isNull = `${first.expr} IS NULL`;
  if (position[0] === null) {
    const tail = after(1);
    return [{ sql: `${isNull} AND ${tail.sql}`, params: tail.params, nullTail: true }];
  }
  return [after(0), { sql: isNull, params: [], nullTail: true }];
}

// ---------------------------------------------------------------- the cursor's text

const VERSION = 1;
const TAG_BYTES = 16;
const MAX_TEXT = 1000;

/** What a list's cursors are made and checked with: the key of their tags, and the fingerprint of this list (cursorFingerprint). */
export interface CursorContext {
  key: Uint8Array;
  fingerprint: string;
  /** The id of the snapshot the list is read from (X-Market-Snapshot); absent, not named in a refusal. */
  snapshot?: string;
}

/**
 * The fingerprint of a list: the snapshot's id, the list (`scope`: its route, and for a followed
 * list its user), the sort's name and the filters as parsed (`__in` values in order, so that a
 * reordered list is the same list), and the parameters that filter (`filterParams`).
 */
export function cursorFingerprint(snapshotId: string, scope: string, sort: string, filters: readonly Filter[], filterParams: Readonly<Record<string, unknown>>): string {
  const normal = (v: unknown): unknown => (Array.isArray(v) ? [...v].map(normal).sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)) : v);
  const fs = filters.map((f) => [f.field + f.suffix, normal(f.value)] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const ps = Object.entries(filterParams)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, normal(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify([snapshotId, scope, sort, fs, ps]))
    .digest()
    .subarray(0, 12)
    .toString("base64url");
}

const keys = new WeakMap<ImageSigner, Buffer>();

/** The cursor context of a list on the market `db`, its tags keyed by the server's signing secret (`signer`). */
export function cursorContext(
  db: Database,
  signer: ImageSigner,
  scope: string,
  sort: string,
  filters: readonly Filter[],
  filterParams: Readonly<Record<string, unknown>>,
): CursorContext {
  let key = keys.get(signer);
  if (!key) {
    key = signer.derivedKey("list-cursor");
    keys.set(signer, key);
  }
  const snapshot = snapshotId(snapshotOf(db));
  return { key, fingerprint: cursorFingerprint(snapshot, scope, sort, filters, filterParams), snapshot };
}

const tagOf = (key: Uint8Array, payload: string) => createHmac("sha256", key).update(payload).digest().subarray(0, TAG_BYTES);

/** The cursor of a position (the last row's sort key values, the tiebreaker last). */
export function encodeCursor(ctx: CursorContext, position: readonly KeyValue[]): string {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, f: ctx.fingerprint, k: position, s: ctx.snapshot })).toString("base64url");
  return `${payload}.${tagOf(ctx.key, payload).toString("base64url")}`;
}

const refused = (raw: string, msg: string, type = "value_error") => new ValidationFailed([issue.custom(["query", "cursor"], raw, msg, type)]);

/**
 * The position of a cursor, checked: its tag, its shape (one value per key: a finite number or a
 * text, null only for a nullable key, the tiebreaker an integer) and its fingerprint against this
 * list's. Throws ValidationFailed at ["query","cursor"] otherwise.
 */
export function decodeCursor(ctx: CursorContext, raw: string, keys: SortKeys): KeyValue[] {
  const m = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{22})$/.exec(raw);
  if (!m) throw refused(raw, "Invalid cursor: pass the next_cursor of a previous page unchanged");
  const [, payload, tag] = m as unknown as [string, string, string];
  if (!timingSafeEqual(tagOf(ctx.key, payload), Buffer.from(tag, "base64url"))) throw refused(raw, "Invalid cursor: it was altered, or made by another server");
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw refused(raw, "Invalid cursor: pass the next_cursor of a previous page unchanged");
  }
  const b = body as { v?: unknown; f?: unknown; k?: unknown; s?: unknown };
  const ok =
    typeof body === "object" &&
    body !== null &&
    b.v === VERSION &&
    typeof b.f === "string" &&
    Array.isArray(b.k) &&
    b.k.length === keys.length &&
    b.k.every((v, i) =>
      i === keys.length - 1
        ? Number.isSafeInteger(v)
        : (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && v.length <= MAX_TEXT) || (v === null && keys[i]!.nullable === true),
    );
  // made on a snapshot the server no longer serves: say so, with both ids
  if (typeof b.s === "string" && ctx.snapshot !== undefined && b.s !== ctx.snapshot) {
    throw refused(
      raw,
      `This cursor belongs to another snapshot: it was made on market snapshot ${b.s.slice(0, 16)}, and the market has moved to snapshot ${ctx.snapshot} since (X-Market-Snapshot); start again without cursor`,
      "cursor_mismatch",
    );
  }
  // a well-signed cursor of another sort (another number of keys) is a cursor of other filters or sort
  if (!ok || b.f !== ctx.fingerprint) {
    throw refused(
      raw,
      "This cursor belongs to other filters, another sort or another snapshot: repeat the filters and sort of the page that gave it, or start again without cursor",
      "cursor_mismatch",
    );
  }
  return b.k as KeyValue[];
}

// ---------------------------------------------------------------- reading a page

type Bind = SqlFragment["params"][number];

/**
 * The ids of one page, `want` of them at most, in the list's order: by offset without a position
 * (`page(null, want, offset)`), else from each keyset range after the position in turn, each read
 * as a first page (`page(range, rows still wanted, 0)`: the list's statement with the range ANDed
 * to its WHERE).
 */
export function readPage<T = number>(
  keys: SortKeys,
  position: readonly KeyValue[] | null,
  want: number,
  offset: number,
  page: (range: KeysetRange | null, limit: number, offset: number) => T[],
): T[] {
  if (!position) return page(null, want, offset);
  const rows: T[] = [];
  for (const range of keysetRanges(keys, position)) {
    if (rows.length >= want) break;
    rows.push(...page(range, want - rows.length, 0));
  }
  return rows;
}

/**
 * The rows after `position` of a list held in its order (a followed list: the caller's follows,
 * read from the account store), all of them without a position: what keysetRanges selects from a
 * table, here a tail of `rows`. `key` gives a row's sort key values (none NULL).
 */
export function rowsAfter<T>(keys: SortKeys, rows: readonly T[], key: (row: T) => readonly KeyValue[], position: readonly KeyValue[] | null): readonly T[] {
  if (!position) return rows;
  const after = (row: T): boolean => {
    const values = key(row);
    for (let i = 0; i < keys.length; i++) {
      const a = values[i]!;
      const b = position[i]!;
      if (a === b) continue;
      return keys[i]!.dir === "ASC" ? a > b : a < b;
    }
    return false; // the position's own row
  };
  const first = rows.findIndex(after);
  return first < 0 ? [] : rows.slice(first);
}

/** The sort keys' values of the one row of `from` (a table with its alias, or a join) that `where` selects: the position after it. */
export function positionOf(db: Database, keys: SortKeys, from: string, where: SqlFragment): KeyValue[] {
  const row = db.query<KeyValue[], Bind[]>(`SELECT ${keys.map((k) => k.expr).join(", ")} FROM ${from} WHERE ${where.sql} LIMIT 1`).values(...(where.params as Bind[]))[0];
  if (!row) throw new Error("positionOf: no such row");
  return row as KeyValue[];
}

/**
 * The page's next cursor: the position of its last row when the list goes on (`ids` holds one row
 * past the page), else null.
 */
export function nextCursor(ctx: CursorContext, ids: readonly number[], limit: number, position: (lastId: number) => KeyValue[]): string | null {
  return ids.length > limit ? encodeCursor(ctx, position(ids[limit - 1]!)) : null;
}
