/**
 * The SQL of the artist endpoints, over the served tables (artists, artist_charts,
 * artist_analytics, artist_events), and the caller's follows read from the account store and bound
 * as one value (src/db/follows.ts). Every value is bound; the only SQL text that varies comes from
 * the declarations in fields.ts (columns, fixed fragments).
 */
import type { Database } from "bun:sqlite";
import { Z80 } from "../../../analytics/index-model";
import { percentile } from "../../../analytics/stats";
import { monthDate, monthIndex } from "../../../market/calendar";
import { unpackDocument } from "../../../db/documents";
import { FOLLOWED_IDS, FOLLOWED_ROWS, followedParam } from "../../../db/follows";
import type { FollowReader } from "../../accounts/store";
import { unpackSeries } from "../../../db/series";
import { containsPattern } from "../../../db/sql";
import { HttpError, notFound, ValidationFailed, issue } from "../../http/errors";
import type { CallerView } from "../../http/view";
import type { ImageSigner } from "../../images/urls";
import { ARTIST_INDEX } from "../../../images/vector-index";
import { sortKeys, whereClause, type ParsedList, type SqlFragment } from "../../query/grammar";
import { chooseRange, type PlanThresholds, probeRange, rangeRows, walkRows } from "../../query/planner";
import { snapshotOf } from "../../snapshot";
import { followedPage, tablePage } from "../../query/list-engine";
import { ARTIST_FIELDS, DEFAULT_SORT, orderBy, SORTS, sortKeysFor, type Resolution, type SortBy, type SortDir } from "./fields";
import { type Artist, type ArtistPublic, EVENT_TYPES, SHARPE_HORIZONS, STATS_FIELDS } from "./model";
import { MARKET_INDEX as IX, type MarketIndex } from "../../../db/market-indexes/names";

type Bind = SqlFragment["params"][number];

// ---------------------------------------------------------------- rows and how they are shown

interface ArtistRow {
  id: number;
  uid: string;
  name: string;
  nationality: string;
  birth: number | null;
  death: number | null;
  bio: string;
  long_bio: string;
  photo_image_id: number | null;
  total_sales: number;
  market_cap: number;
  max_price: number | null;
  min_price: number | null;
  price_momentum_percentage_12mo: number | null;
  price_momentum_percentage_5y: number | null;
  artworks_count: number;
  recent_lots_count: number;
  total_sales_lots_1yr: number;
  total_sales_price_median_1yr: number | null;
}

const COLUMNS = `a.id, a.uid, a.name, a.nationality, a.birth, a.death, a.bio, a.long_bio, a.photo_image_id, a.total_sales, a.market_cap,
  a.max_price, a.min_price, a.price_momentum_percentage_12mo, a.price_momentum_percentage_5y, a.artworks_count, a.recent_lots_count,
  a.total_sales_lots_1yr, a.total_sales_price_median_1yr`;

/**
 * How rows are shown to this caller: the caller's view, the signer of photo URLs and the account
 * store's follows (the service takes a Database, not deps), the chart with include_chart.
 */
export interface ArtistView extends CallerView {
  signer: ImageSigner;
  accounts: FollowReader;
  includeChart?: boolean;
}

/** The ids the caller follows, for `followed=true` (none without a caller); null when the list does not ask. */
function followedFilter(query: ParsedList, view: Pick<ArtistView, "userId" | "accounts">): number[] | null {
  if (query.params.followed !== true) return null;
  return view.userId === null ? [] : view.accounts.followedIds(view.userId, "artist");
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A Float32 little-endian blob as numbers. */
export function float32s(blob: Uint8Array): Float32Array {
  const n = blob.byteLength >> 2;
  if (LITTLE_ENDIAN) return new Float32Array(new Uint8Array(blob).buffer, 0, n);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getFloat32(4 * i, true);
  return out;
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** "YYYY-MM-01" of month `i` counted from `start` ("YYYY-MM"). */
const monthFrom = (start: string, i: number): string => monthDate(monthIndex(start) + i);

/** The monthly index as chart points; months without a value (NaN) are left out. */
function indexPoints(start: string, points: Float64Array, firstPriced: string | null): { time: string; value: number; extrapolated: boolean }[] {
  const first = monthIndex(start);
  const out: { time: string; value: number; extrapolated: boolean }[] = [];
  for (let i = 0; i < points.length; i++) {
    const v = points[i]!;
    if (!Number.isFinite(v)) continue;
    const time = monthDate(first + i);
    out.push({ time, value: Math.round(v * 100) / 100, extrapolated: extrapolated(time, firstPriced) });
  }
  return out;
}

/**
 * The day (YYYY-MM-DD) of each artist's first priced lot (sold, with a hammer price), null for an
 * artist without one: one probe of lots_artist_date (artist_id, sale_datetime) per artist, read
 * in date order up to the first priced lot. The unary + keeps the planner off the status and
 * price indexes, which would read every priced lot of the market.
 */
function firstPricedDays(db: Database, ids: readonly number[]): Map<number, string | null> {
  if (ids.length === 0) return new Map();
  const rows = db
    .query<{ id: number; day: string | null }, [string]>(
      `SELECT j.value AS id,
              (SELECT strftime('%Y-%m-%d', l.sale_datetime, 'unixepoch') FROM lots l
                WHERE l.artist_id = j.value AND +l.status = 'sold' AND +l.hammer_usd_cents > 0
                ORDER BY l.sale_datetime LIMIT 1) AS day
         FROM json_each(?) j`,
    )
    .all(JSON.stringify(ids));
  return new Map(rows.map((r) => [r.id, r.day]));
}

/**
 * Whether an index point dated `time` (YYYY-MM-DD) lies before the artist's first priced lot: its
 * value is carried back from later sales by the index model, not measured on a sale of the
 * artist's (every point, for an artist without a priced lot).
 */
const extrapolated = (time: string, firstPriced: string | null): boolean => firstPriced === null || time < firstPriced;

interface ChartRow {
  artist_id: number;
  start_month: string;
  vector: Uint8Array;
  points?: Uint8Array;
}

/** The artist's photo: a signed URL of its 240-pixel rendition (blurred by the view's variant), or null. */
const photoOf = (r: ArtistRow, view: ArtistView) => (r.photo_image_id === null ? null : view.signer.url(r.photo_image_id, 240, view.image, view.origin));

/** The fields both schemas open with, in their order. */
const identityOf = (r: ArtistRow) => ({ id: r.id, uid: r.uid, name: r.name, nationality: r.nationality, birth: r.birth, death: r.death });

/** Rows as the public schema shows them, in the order given. */
function presentPublic(rows: readonly ArtistRow[], view: ArtistView): ArtistPublic[] {
  return rows.map((r) => ({
    ...identityOf(r),
    price_momentum_percentage_5y: r.price_momentum_percentage_5y,
    photo_thumbnail_url: photoOf(r, view),
  }));
}

/** Rows as the full schema shows them, in the order given: with the index vector, the caller's follows and (include_chart) the chart. */
function presentFull(db: Database, rows: readonly ArtistRow[], view: ArtistView): Artist[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const cols = view.includeChart ? "artist_id, start_month, vector, points" : "artist_id, start_month, vector";
  const charts = new Map(
    db
      .query<ChartRow, number[]>(`SELECT ${cols} FROM artist_charts WHERE artist_id IN (${ids.map(() => "?").join(",")})`)
      .all(...ids)
      .map((c) => [c.artist_id, c]),
  );
  const followed = view.accounts.followedAmong(view.userId, "artist", ids);
  const firstPriced = view.includeChart ? firstPricedDays(db, ids) : new Map<number, string | null>();
  return rows.map((r) => {
    const chart = charts.get(r.id);
    return {
      ...identityOf(r),
      bio: r.bio,
      long_bio: r.long_bio,
      total_sales: r.total_sales,
      market_cap: r.market_cap,
      max_price: r.max_price,
      min_price: r.min_price,
      price_momentum_percentage_12mo: r.price_momentum_percentage_12mo,
      price_momentum_percentage_5y: r.price_momentum_percentage_5y,
      artworks_count: r.artworks_count,
      recent_lots_count: r.recent_lots_count,
      total_sales_lots_1yr: r.total_sales_lots_1yr,
      total_sales_price_median_1yr: r.total_sales_price_median_1yr,
      ...(view.includeChart && {
        artist_index_chart: chart?.points ? indexPoints(chart.start_month, unpackSeries(chart.points), firstPriced.get(r.id) ?? null) : [],
      }),
      artist_index_vector: chart ? Array.from(float32s(chart.vector), (x) => round(x, 6)) : null,
      is_followed: followed.has(r.id),
      photo_thumbnail_url: photoOf(r, view),
    };
  });
}

/** Rows as the caller's schema shows them, in the order given. */
function present(db: Database, rows: readonly ArtistRow[], view: ArtistView): Artist[] | ArtistPublic[] {
  return view.schema === "full" ? presentFull(db, rows, view) : presentPublic(rows, view);
}

// ---------------------------------------------------------------- the list: filters and order

/** The words of a free-text query, as the FTS tokenizer (unicode61) splits them. */
export function queryWords(q: string): string[] {
  return q
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "")
    .slice(0, 16);
}

/** WHERE (without the keyword) for the list's filters and its filter parameters; `followed`: the caller's followed ids, for followed=true. */
export function filterSql(db: Database, query: ParsedList, followed: readonly number[] | null): SqlFragment {
  const base = whereClause({ fields: ARTIST_FIELDS }, query.filters);
  const parts = base.sql === "1" ? [] : [base.sql];
  const params: Bind[] = [...base.params];
  const p = query.params;
  if (typeof p.q === "string") {
    const words = queryWords(p.q);
    if (words.length === 0) throw new ValidationFailed([issue.custom(["query", "q"], p.q, "q must contain at least one letter or digit")]);
    // the name index (built by src/db/market-indexes/artists.ts), absent from an older snapshot
    if (snapshotOf(db).hasFts("artists_fts")) {
      // Each word quoted (it holds only letters and digits), as a prefix: "word"*. All must match.
      parts.push("a.id IN (SELECT rowid FROM artists_fts WHERE artists_fts MATCH ?)");
      params.push(words.map((w) => `"${w}"*`).join(" "));
    } else {
      for (const w of words) {
        parts.push("(a.name LIKE ? ESCAPE '\\' OR a.synonyms LIKE ? ESCAPE '\\')");
        params.push(containsPattern(w), containsPattern(w));
      }
    }
  }
  if (p.is_living === true) parts.push("a.death IS NULL");
  if (p.is_living === false) parts.push("a.death IS NOT NULL");
  if (p.followed === true) {
    parts.push(`a.id IN (${FOLLOWED_IDS})`);
    params.push(followedParam(followed ?? []));
  }
  return { sql: parts.length ? parts.join(" AND ") : "1", params };
}

/** The sort and direction a list asks for: sort_by, else the legacy sorts, else MARKET_CAP. */
export function resolveSort(params: Record<string, unknown>): { sort: SortBy; dir: SortDir } {
  const sortBy = params.sort_by as SortBy | undefined;
  const dir = params.sort_dir as SortDir | undefined;
  if (sortBy) return { sort: sortBy, dir: dir ?? SORTS[sortBy].defaultDir };
  if (params.sort_by_total_sales) return { sort: "TOTAL_SALES", dir: params.sort_by_total_sales as SortDir };
  if (params.sort_by_market_cap) return { sort: "MARKET_CAP", dir: params.sort_by_market_cap as SortDir };
  return { sort: DEFAULT_SORT, dir: dir ?? SORTS[DEFAULT_SORT].defaultDir };
}

// ---------------------------------------------------------------- the list: the plan chosen per request

/** Runs a statement whose text depends on the request (uncached: a planned list has many texts). */
function runOnce<T>(db: Database, sql: string, params: Bind[], all: true): T[];
function runOnce<T>(db: Database, sql: string, params: Bind[], all: false): T | null;
function runOnce<T>(db: Database, sql: string, params: Bind[], all: boolean): T[] | T | null {
  const stmt = db.prepare<T, Bind[]>(sql);
  try {
    return all ? stmt.all(...params) : stmt.get(...params);
  } finally {
    stmt.finalize();
  }
}

/**
 * The page and the count of a list are planned here when the filters are ranges (or nationality
 * and is_living) and the list has a sort: SQLite keeps no histograms, so it cannot tell a range
 * that holds no artist from one that holds half of them, and either walks the sort's index past
 * every artist (a narrow filter checked row by row) or reads a broad filter's rows and sorts them.
 * Each filter's own index is probed instead (a pair's index for nationality with market_cap and
 * for is_living=true with total_sales): at most PROBE_ROWS entries of its range are read, and of
 * those, how many pass every filter. A range that ends within its probe gives the count at once;
 * else the count reads the range whose probe matched best (range size ≈ count / that share). The
 * page then takes the cheaper of two plans, in row look-ups: that range, its matches sorted (a
 * look-up per entry unless the index carries every filter, plus one per match for the sort key),
 * or a walk of the sort's index, which meets a match about every artists / count entries and
 * looks each one up to check the filters. One nationality sorted by NAME or MARKET_CAP, and the
 * living sorted by TOTAL_SALES, walk the pair's index instead: the group in the sort's order.
 * Free text (q), ids, uids and followed are selective by nature: SQLite's own plan then.
 */
export const ARTIST_PLAN = { probeRows: 4_000 } satisfies PlanThresholds;

/** The index of each range filter (src/db/market-indexes/artists.ts and the schema's). */
const FILTER_INDEX: Readonly<Record<string, MarketIndex>> = {
  is_top: IX.artists_is_top,
  nationality: IX.artists_nationality,
  birth: IX.artists_birth,
  market_cap: IX.artists_market_cap,
  total_sales: IX.artists_total_sales,
  max_price: IX.artists_max_price,
  artworks_count: IX.artists_artworks_count,
  recent_lots_count: IX.artists_recent_lots_count,
  total_sales_lots_1yr: IX.artists_total_sales_lots_1yr,
  total_sales_price_median_1yr: IX.artists_total_sales_price_median_1yr,
  price_momentum_percentage_12mo: IX.artists_price_momentum_percentage_12mo,
  price_momentum_percentage_5y: IX.artists_price_momentum_percentage_5y,
};

/** The index of each sort: its order, and for a nullable column sorted ascending its NULLs-last one. */
const SORT_INDEX: Readonly<Record<SortBy, { order: MarketIndex; nullsLast?: MarketIndex }>> = {
  MARKET_CAP: { order: IX.artists_market_cap },
  TOTAL_SALES: { order: IX.artists_total_sales },
  MAX_PRICE: { order: IX.artists_max_price, nullsLast: IX.artists_max_price_nulls_last },
  MEDIAN_1YR: { order: IX.artists_total_sales_price_median_1yr, nullsLast: IX.artists_total_sales_price_median_1yr_nulls_last },
  RECENT_LOTS: { order: IX.artists_recent_lots_count },
  LOTS_1YR: { order: IX.artists_total_sales_lots_1yr },
  ARTWORKS: { order: IX.artists_artworks_count },
  MOMENTUM_12MO: { order: IX.artists_price_momentum_percentage_12mo, nullsLast: IX.artists_price_momentum_percentage_12mo_nulls_last },
  MOMENTUM_5Y: { order: IX.artists_price_momentum_percentage_5y, nullsLast: IX.artists_price_momentum_percentage_5y_nulls_last },
  NAME: { order: IX.artists_name_nocase },
  BIRTH: { order: IX.artists_birth, nullsLast: IX.artists_birth_nulls_last },
};

/** The index that gives a sort's order (the id, the rowid, ends every index). */
function sortIndex(sort: SortBy, dir: SortDir): MarketIndex {
  const { order, nullsLast } = SORT_INDEX[sort];
  return dir === "asc" && SORTS[sort].nullable ? nullsLast! : order;
}

/**
 * The index the page is read through and the one the count is read through (null: SQLite's
 * choice), and the count when a probe already found it.
 */
function planList(db: Database, query: ParsedList, where: SqlFragment, sort: SortBy, dir: SortDir, probeRows: number) {
  const none = { page: null, count: null, total: null } as { page: string | null; count: string | null; total: number | null };
  const snapshot = snapshotOf(db);
  const p = query.params;
  if (typeof p.q === "string" || p.followed === true) return none;
  if (query.filters.some((f) => f.field === "id" || f.field === "uid")) return none;
  const fields = new Set(query.filters.map((f) => f.field));
  const living = p.is_living === true || p.is_living === false ? (p.is_living ? "a.death IS NULL" : "a.death IS NOT NULL") : null;
  /** Distinct filters (is_living counts as one). */
  const filterCount = fields.size + (living ? 1 : 0);
  // index → its range, and whether it carries every filtered column (then no look-up to check them)
  const ranges = new Map<string, SqlFragment & { covers: boolean }>();
  const range = (index: string, only: string[], extra?: string) => {
    const w = whereClause(
      { fields: ARTIST_FIELDS },
      query.filters.filter((f) => only.includes(f.field)),
    );
    const sql = [w.sql === "1" ? "" : w.sql, extra ?? ""].filter(Boolean).join(" AND ");
    ranges.set(index, { sql, params: w.params, covers: filterCount === only.length + (extra ? 1 : 0) });
  };
  if (fields.has("nationality") && fields.has("market_cap") && snapshot.hasIndex(IX.artists_nationality_market_cap)) {
    range(IX.artists_nationality_market_cap, ["nationality", "market_cap"]);
    fields.delete("nationality");
    fields.delete("market_cap");
  }
  let livingDone = false;
  if (p.is_living === true && fields.has("total_sales") && snapshot.hasIndex(IX.artists_living_total_sales)) {
    range(IX.artists_living_total_sales, ["total_sales"], living!);
    fields.delete("total_sales");
    livingDone = true;
  }
  for (const field of fields) {
    const index = FILTER_INDEX[field];
    if (!index || !snapshot.hasIndex(index)) return none;
    range(index, [field]);
  }
  if (living && !livingDone) {
    if (!snapshot.hasIndex(IX.artists_death)) return none;
    range(IX.artists_death, [], living);
  }
  // One nationality (or the living) sorted by a key that an index holds right after it: the walk
  // stays within the group, in order, and with no other filter it stops after the page's rows.
  const nationality = query.filters.filter((f) => f.field === "nationality");
  const oneNationality = nationality.length === 1 && (nationality[0]!.value as unknown[]).length === 1;
  const group =
    oneNationality && sort === "NAME" && snapshot.hasIndex(IX.artists_nationality_name)
      ? { index: IX.artists_nationality_name, only: filterCount === 1 }
      : oneNationality && sort === "MARKET_CAP" && snapshot.hasIndex(IX.artists_nationality_market_cap)
        ? {
            index: IX.artists_nationality_market_cap,
            only: ranges.has(IX.artists_nationality_market_cap) ? ranges.get(IX.artists_nationality_market_cap)!.covers : filterCount === 1,
          }
        : p.is_living === true && sort === "TOTAL_SALES" && snapshot.hasIndex(IX.artists_living_total_sales)
          ? { index: IX.artists_living_total_sales, only: ranges.has(IX.artists_living_total_sales) ? ranges.get(IX.artists_living_total_sales)!.covers : filterCount === 1 }
          : null;
  const walk = group?.index ?? sortIndex(sort, dir);
  if (ranges.size === 0 || !snapshot.hasIndex(walk)) return none;
  const probes = [...ranges].map(([index, range]) => probeRange(db, "artists a", index, where, range, probeRows));
  const choice = chooseRange(probes, probeRows);
  const { best, complete } = choice;
  const total = complete ? complete.matched : runOnce<{ n: number }>(db, `SELECT count(*) AS n FROM artists a INDEXED BY ${best.index} WHERE ${where.sql}`, where.params, false)!.n;
  // The page's two plans, in row look-ups.
  const artists = snapshot.artistCount();
  const walked = group?.only ? query.offset + query.limit : walkRows(query.offset + query.limit, artists, total);
  const fromRange = (ranges.get(best.index)!.covers ? 0 : rangeRows(choice, total, artists)) + total;
  return { page: fromRange < walked ? best.index : walk, count: best.index, total };
}

/**
 * The page query of the list and its count (exported for the query-plan test), with the count
 * itself when the plan found it. `followed`: the caller's followed ids, for followed=true.
 * `probeRows` is for tests (the tiny market never reaches it).
 * `page(range, limit, offset)` is the page's statement for `limit` rows from `offset` within a
 * cursor's keyset `range` (ANDed to the filters; the plan stays the first page's).
 */
export function listSql(
  db: Database,
  query: ParsedList,
  followed: readonly number[] | null,
  probeRows: number = ARTIST_PLAN.probeRows,
): SqlFragment & { count: string; total: number | null; page: (range: SqlFragment | null, limit: number, offset: number) => SqlFragment } {
  const where = filterSql(db, query, followed);
  const { sort, dir } = resolveSort(query.params);
  const plan = planList(db, query, where, sort, dir, probeRows);
  const from = (index: string | null) => `artists a${index ? ` INDEXED BY ${index}` : ""}`;
  const page = (range: SqlFragment | null, limit: number, offset: number): SqlFragment => ({
    sql: `SELECT ${COLUMNS} FROM ${from(plan.page)} WHERE ${where.sql}${range ? ` AND ${range.sql}` : ""} ORDER BY ${orderBy(sort, dir)} LIMIT ? OFFSET ?`,
    params: [...where.params, ...(range?.params ?? []), limit, offset],
  });
  return {
    ...page(null, query.limit, query.offset),
    count: `SELECT count(*) AS n FROM ${from(plan.count)} WHERE ${where.sql}`,
    total: plan.total,
    page,
  };
}

/** The filter parameters beside the fields (what a cursor's fingerprint covers besides the filters and the sort). */
const filterParams = (query: ParsedList) => ({ q: query.params.q, is_living: query.params.is_living, followed: query.params.followed });

export function listArtists(db: Database, query: ParsedList, view: ArtistView) {
  const { sort, dir } = resolveSort(query.params);
  const q = listSql(db, query, followedFilter(query, view));
  const page = tablePage(
    {
      db,
      signer: view.signer,
      // a followed list is the caller's own: its cursors are too
      cursor: {
        scope: query.params.followed === true ? `artists/followed:${view.userId ?? -1}` : "artists",
        sort: `${sort}:${dir}`,
        filters: query.filters,
        params: filterParams(query),
      },
      keys: sortKeysFor(sort, dir),
      from: "artists a",
      idColumn: "a.id",
      page: (range, limit, offset) => {
        const f = q.page(range, limit, offset);
        return runOnce<ArtistRow>(db, f.sql, f.params, true);
      },
      total: q.total,
      count: () => runOnce<{ n: number }>(db, q.count, q.params.slice(0, -2), false)!.n,
      id: (r) => r.id,
    },
    query,
  );
  return { artists: present(db, page.rows, view), total: page.total ?? 0, limit: query.limit, offset: query.offset, next_cursor: page.nextCursor };
}

/** The followed list's order: most recently followed first, ties by the artist's id (the store's order of the follows). */
const FOLLOWED_KEYS = sortKeys("DESC", "f.created_at", "f.target_id");

/**
 * The caller's followed artists, most recently followed first: one statement finds which of them
 * the market holds (the ids bound as one value), the follows' order gives the page, the cursor's
 * position and the total, and the page's rows are read by id.
 */
export function followedArtists(db: Database, query: ParsedList, view: ArtistView) {
  const userId = view.userId ?? -1;
  const follows = view.accounts.followedRows(userId, "artist");
  const page = followedPage(
    {
      db,
      signer: view.signer,
      cursor: { scope: `artists/followed-list:${userId}`, sort: "", filters: [], params: {} },
      keys: FOLLOWED_KEYS,
      follows,
      kept: { sql: `SELECT a.id FROM ${FOLLOWED_ROWS} f JOIN artists a ON a.id = f.value`, params: [followedParam(follows.map((f) => f.target_id))] },
      id: (f) => f.target_id,
      key: (f) => [f.created_at, f.target_id],
    },
    query,
  );
  const rows = new Map(
    (page.ids.length ? runOnce<ArtistRow>(db, `SELECT ${COLUMNS} FROM artists a WHERE a.id IN (${page.ids.map(() => "?").join(", ")})`, page.ids, true) : []).map((r) => [r.id, r]),
  );
  return {
    artists: present(
      db,
      page.ids.map((id) => rows.get(id)!),
      view,
    ),
    total: page.total,
    limit: query.limit,
    offset: query.offset,
    next_cursor: page.nextCursor,
  };
}

function artistRow(db: Database, id: number): ArtistRow {
  const row = db.query<ArtistRow, [number]>(`SELECT ${COLUMNS} FROM artists a WHERE a.id = ?`).get(id);
  if (!row) throw notFound(`Artist ${id} not found`);
  return row;
}

export function assertArtist(db: Database, id: number): void {
  if (!db.query("SELECT 1 FROM artists WHERE id = ?").get(id)) throw notFound(`Artist ${id} not found`);
}

export function getArtist(db: Database, id: number, view: ArtistView): Artist | ArtistPublic {
  return present(db, [artistRow(db, id)], view)[0]!;
}

/** The artists of `ids` as response objects in the view's schema (ids the market lacks are skipped). */
export function artistsByIds(db: Database, ids: readonly number[], view: ArtistView): Artist[] | ArtistPublic[] {
  if (!ids.length) return [];
  const rows = db.query<ArtistRow, [string]>(`SELECT ${COLUMNS} FROM artists a WHERE a.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids));
  return present(db, rows, view);
}

// ---------------------------------------------------------------- stats

type FieldStats = { min: number | null; max: number | null; p50: number | null; p95: number | null };

/** The list's statistics; `view` gives the caller's follows (followed=true). */
export function artistStats(db: Database, query: ParsedList, view: Pick<ArtistView, "userId" | "accounts">) {
  const where = filterSql(db, query, followedFilter(query, view));
  const key = JSON.stringify([where.sql, where.params]);
  // answered once per connection and filter (the most recently used kept: src/serve/snapshot.ts)
  const snapshot = snapshotOf(db);
  const hit = snapshot.artistStats(key);
  if (hit) return hit;
  const cols = STATS_FIELDS.map((f) => `a.${f}`).join(", ");
  const rows = db.query<unknown, Bind[]>(`SELECT ${cols}, a.nationality FROM artists a WHERE ${where.sql}`).values(...where.params) as unknown[][];
  const columns = STATS_FIELDS.map(() => new Float64Array(rows.length));
  const counts = STATS_FIELDS.map(() => 0);
  const nationalities = new Map<string, number>();
  for (const row of rows) {
    for (let j = 0; j < STATS_FIELDS.length; j++) {
      const v = row[j] as number | null;
      if (v !== null && Number.isFinite(v)) columns[j]![counts[j]!++] = v;
    }
    const nat = row[STATS_FIELDS.length] as string;
    nationalities.set(nat, (nationalities.get(nat) ?? 0) + 1);
  }
  const out: Record<string, unknown> = { total: rows.length };
  STATS_FIELDS.forEach((f, j) => {
    const s = columns[j]!.subarray(0, counts[j]!).sort();
    const q = (p: number) => (s.length ? round(percentile(s, p), 4) : null); // R type 7, null for no values
    out[f] = { min: s.length ? s[0]! : null, max: s.length ? s[s.length - 1]! : null, p50: q(0.5), p95: q(0.95) } satisfies FieldStats;
  });
  out.nationalities = [...nationalities].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  snapshot.keepArtistStats(key, out);
  return out;
}

// ---------------------------------------------------------------- related (the artist vector index)

/** The `limit` artists nearest to `id` by cosine similarity of artist_index_vector, best first (ties by id); none for an artist without a usable vector. */
export function nearestArtists(db: Database, id: number, limit: number): { id: number; similarity: number }[] {
  // the artist index (artist_vectors: artist_index_vector normalised, zero vectors left out; built
  // by embedMarket), opened once per connection; null when the market has none
  const index = snapshotOf(db).vectorIndex(ARTIST_INDEX);
  if (!index) throw new HttpError(503, "This market has no artist vector index yet: seed it, or re-run the import");
  const vector = index.vectorOf(id);
  if (!vector) return [];
  return index.search(vector, limit, { exclude: [id] }).map((h) => ({ id: h.id, similarity: round(Math.max(-1, Math.min(1, h.score)), 6) }));
}

export function relatedArtists(db: Database, id: number, limit: number, view: ArtistView) {
  assertArtist(db, id);
  const near = nearestArtists(db, id, limit);
  if (near.length === 0) return { artist_id: id, artists: [] };
  const rows = db.query<ArtistRow, number[]>(`SELECT ${COLUMNS} FROM artists a WHERE a.id IN (${near.map(() => "?").join(",")})`).all(...near.map((n) => n.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const kept = near.filter((n) => byId.has(n.id));
  const shown = kept.map((n) => byId.get(n.id)!);
  const withSimilarity = <A>(artists: A[]) => ({ artist_id: id, artists: artists.map((a, i) => ({ ...a, similarity: kept[i]!.similarity })) });
  return view.schema === "full" ? withSimilarity(presentFull(db, shown, view)) : withSimilarity(presentPublic(shown, view));
}

// ---------------------------------------------------------------- chart

const DAY_MS = 86_400_000;
const DAILY_MONTHS = 24;

interface Point {
  time: string;
  value: number;
  value_low?: number;
  value_high?: number;
  extrapolated: boolean;
}

/**
 * A chart point, its central 80 % band exp(log value ± Z80 · stderr) where the standard error is
 * known, flagged when it lies before the artist's first priced lot (`firstPriced`).
 */
function chartPoint(time: string, value: number, se: number, firstPriced: string | null): Point {
  const p: Point = { time, value: round(value, 2), extrapolated: extrapolated(time, firstPriced) };
  if (Number.isFinite(se) && se >= 0) {
    p.value_low = round(value * Math.exp(-Z80 * se), 2);
    p.value_high = round(value * Math.exp(Z80 * se), 2);
  }
  return p;
}

const dayMs = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));

export function artistChart(db: Database, id: number, resolution: Resolution) {
  const artist = db.query<{ name: string }, [number]>("SELECT name FROM artists WHERE id = ?").get(id);
  if (!artist) throw notFound(`Artist ${id} not found`);
  const chart = db
    .query<{ start_month: string; points: Uint8Array; stderr: Uint8Array }, [number]>("SELECT start_month, points, stderr FROM artist_charts WHERE artist_id = ?")
    .get(id);
  const data: Point[] = [];
  if (chart) {
    const firstPriced = firstPricedDays(db, [id]).get(id) ?? null;
    const point = (time: string, value: number, se: number) => chartPoint(time, value, se, firstPriced);
    const values = unpackSeries(chart.points);
    const errs = unpackSeries(chart.stderr);
    const n = values.length;
    const ok = (i: number) => Number.isFinite(values[i]!) && values[i]! > 0;
    if (resolution === "monthly") {
      for (let i = 0; i < n; i++) if (ok(i)) data.push(point(monthFrom(chart.start_month, i), values[i]!, errs[i]!));
    } else if (resolution === "yearly") {
      // the December point of each year, or the year's last point (the current year)
      for (let i = 0; i < n; i++) {
        const time = monthFrom(chart.start_month, i);
        const last = i === n - 1 || monthFrom(chart.start_month, i + 1).slice(0, 4) !== time.slice(0, 4);
        if (last && ok(i)) data.push(point(time, values[i]!, errs[i]!));
      }
    } else {
      // daily: the monthly points of the last two years, linearly interpolated to every day
      for (let i = Math.max(0, n - 1 - DAILY_MONTHS); i < n - 1; i++) {
        if (!ok(i) || !ok(i + 1)) continue;
        const t0 = dayMs(monthFrom(chart.start_month, i));
        const t1 = dayMs(monthFrom(chart.start_month, i + 1));
        for (let t = t0; t < t1; t += DAY_MS) {
          const f = (t - t0) / (t1 - t0);
          const v = values[i]! + (values[i + 1]! - values[i]!) * f;
          const se = errs[i]! + (errs[i + 1]! - errs[i]!) * f;
          data.push(point(new Date(t).toISOString().slice(0, 10), v, se));
        }
      }
      if (n > 0 && ok(n - 1)) data.push(point(monthFrom(chart.start_month, n - 1), values[n - 1]!, errs[n - 1]!));
    }
  }
  return {
    resolution,
    unit: "USD",
    currency: "USD",
    series: [{ id: "service_index", label: `${artist.name}: price index (typical work, USD)`, data }],
  };
}

// ---------------------------------------------------------------- events and analytics documents

export function artistEvents(db: Database, id: number, types: readonly string[] | undefined) {
  assertArtist(db, id);
  const wanted = types && types.length ? [...new Set(types)] : [...EVENT_TYPES];
  const events = db
    // type: one of EVENT_TYPES, as the WHERE clause keeps it
    .query<{ id: number; date: string; type: (typeof EVENT_TYPES)[number]; title: string; description: string }, (string | number)[]>(
      `SELECT id, date, type, title, description FROM artist_events
       WHERE artist_id = ? AND visible = 1 AND type IN (${wanted.map(() => "?").join(",")}) ORDER BY date ASC, id ASC`,
    )
    .all(id, ...wanted);
  return { artist_id: id, events };
}

export const ANALYTICS_KINDS = ["sales-volume", "sharpe-ratio", "career-path-count", "career-path-lae", "returns-vs-period", "compound-annual-returns"] as const;
export type AnalyticsKind = (typeof ANALYTICS_KINDS)[number];

/** The stored document of `kind`, wrapped in the documented response object. */
export function artistAnalytics(db: Database, id: number, kind: AnalyticsKind): Record<string, unknown> {
  assertArtist(db, id);
  const row = db.query<{ body: string | Uint8Array }, [number, string]>("SELECT body FROM artist_analytics WHERE artist_id = ? AND kind = ?").get(id, kind);
  const doc = row ? (unpackDocument(row.body) as unknown[]) : null;
  switch (kind) {
    case "sharpe-ratio": {
      const stored = new Map(((doc ?? []) as { horizon_years: number; sharpe_ratio: number | null }[]).map((h) => [h.horizon_years, h.sharpe_ratio]));
      return {
        artist_id: id,
        horizons: SHARPE_HORIZONS.map((h) => {
          const v = stored.get(h);
          return { horizon_years: h, sharpe_ratio: typeof v === "number" && Number.isFinite(v) ? round(v, 6) : null };
        }),
      };
    }
    case "career-path-count":
      return { artist_id: id, unit: "artworks", items: doc ?? [] };
    case "career-path-lae": {
      const items = (doc ?? []) as { medium: string; points: { year: number; value: number }[] }[];
      return { artist_id: id, unit: "USD", items: items.map((m) => ({ medium: m.medium, points: m.points.map((p) => ({ year: p.year, value: round(p.value, 2) })) })) };
    }
    case "returns-vs-period":
      return { artist_id: id, items: ((doc ?? []) as { period_months: number }[]).filter((p) => p.period_months >= 12) };
    case "sales-volume":
    case "compound-annual-returns":
      return { artist_id: id, items: doc ?? [] };
  }
}
