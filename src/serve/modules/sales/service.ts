/**
 * Sales: one query for the page (by offset, or by cursor: the keyset after the previous page's
 * last row), one count for the total, then the response objects.
 */
import { FOLLOWED_IDS, followedParam } from "../../../db/follows";
import type { AppDeps } from "../../deps";
import type { CallerView } from "../../http/view";
import { tablePage } from "../../query/list-engine";
import { allOnce } from "../../query/planner";
import { orderClause, sortKeysOf, whereClause, type ParsedList, type SqlFragment } from "../../query/grammar";
import { storedDatetimeBounds } from "../lots/fields";
import { SALE_LIST } from "./fields";
import type { Sale, SalePublic } from "./model";
import type { SaleStatus } from "../../../market/statuses";

type Bind = SqlFragment["params"][number];

interface SaleRow {
  id: number;
  name: string;
  status: SaleStatus;
  is_online: number;
  is_bids_streaming: number;
  location: string;
  location_id: number;
  start_datetime: string;
  end_datetime: string;
  house_id: number;
  house_name: string | null;
  currency: string;
  lots_count: number;
  lots_count_not_sold: number;
  lots_count_sold_above_estimations: number;
  lots_count_sold_within_estimations: number;
  lots_count_sold_below_estimations: number;
  hammer_total: number;
  premium_sold_total: number;
  cumulative_total: number;
  hammer_total_usd: number;
  premium_sold_total_usd: number;
  cumulative_total_usd: number;
  hammer_low_estimate: number;
  hammer_high_estimate: number;
}

const COLUMNS = `s.id, s.name, s.status, s.is_online, s.is_bids_streaming, s.location, s.location_id, s.start_datetime, s.end_datetime,
  s.house_id, h.name AS house_name, s.currency, s.lots_count, s.lots_count_not_sold, s.lots_count_sold_above_estimations,
  s.lots_count_sold_within_estimations, s.lots_count_sold_below_estimations, s.hammer_total, s.premium_sold_total,
  s.cumulative_total, s.hammer_total_usd, s.premium_sold_total_usd, s.cumulative_total_usd, s.hammer_low_estimate,
  s.hammer_high_estimate`;

/** The page query's WHERE (over unqualified `sales` columns) and its bound values; `followed`: the ids of the sales a user follows (read from the account store), for a followed list. */
export function saleWhere(query: ParsedList, followed: readonly number[] | null = null): SqlFragment {
  const where = whereClause(SALE_LIST, storedDatetimeBounds(query.filters, ["start_datetime", "end_datetime"]));
  if (followed === null) return where;
  return {
    sql: `${where.sql} AND id IN (${FOLLOWED_IDS})`,
    params: [...where.params, followedParam(followed)],
  };
}

/** The ids of one page, by the sales table's indexes: `limit` rows from `offset`, `range` (a keyset range of a cursor) ANDed to the filters. */
export function saleListSql(
  query: ParsedList,
  followed: readonly number[] | null = null,
  range: SqlFragment | null = null,
  limit = query.limit,
  offset = query.offset,
): SqlFragment {
  const where = saleWhere(query, followed);
  return {
    sql: `SELECT id FROM sales WHERE ${where.sql}${range ? ` AND ${range.sql}` : ""} ORDER BY ${orderClause(SALE_LIST, query.sort)} LIMIT ? OFFSET ?`,
    params: [...where.params, ...(range?.params ?? []), limit, offset],
  };
}

/** Money totals are sums of cent amounts: rounded to cents, so float noise (50680.419999999984) never shows. */
const cents = (x: number) => Math.round(x * 100) / 100;

function saleObject(r: SaleRow, deps: AppDeps, view: CallerView, followed: Set<number>): Sale | SalePublic {
  const closed = r.status === "closed";
  const sale: SalePublic = {
    id: r.id,
    name: r.name,
    status: r.status,
    is_online: r.is_online === 1,
    is_bids_streaming: r.is_bids_streaming === 1,
    location: r.location,
    location_id: r.location_id,
    start_datetime: r.start_datetime,
    end_datetime: r.end_datetime,
    auction_house: { id: r.house_id, name: r.house_name ?? "" },
    currency: r.currency,
    lots_count: r.lots_count,
    lots_count_not_sold: closed ? r.lots_count_not_sold : null,
    lots_count_sold_above_estimations: closed ? r.lots_count_sold_above_estimations : null,
    lots_count_sold_within_estimations: closed ? r.lots_count_sold_within_estimations : null,
    lots_count_sold_below_estimations: closed ? r.lots_count_sold_below_estimations : null,
  };
  if (view.schema !== "full") return sale;
  const preferred = view.preferred;
  const convert = (usd: number) => (closed && preferred ? deps.fx.fromUsd(usd, preferred, r.start_datetime) : null);
  return {
    ...sale,
    hammer_total: closed ? cents(r.hammer_total) : null,
    premium_sold_total: closed ? cents(r.premium_sold_total) : null,
    cumulative_total: closed ? cents(r.cumulative_total) : null,
    hammer_total_usd_zeroied: closed ? cents(r.hammer_total_usd) : 0,
    premium_sold_total_usd_zeroied: closed ? cents(r.premium_sold_total_usd) : 0,
    cumulative_total_usd_zeroied: closed ? cents(r.cumulative_total_usd) : 0,
    hammer_low_estimate: r.hammer_low_estimate,
    hammer_high_estimate: r.hammer_high_estimate,
    ...(preferred && {
      preferred_currency: preferred,
      hammer_total_preferred: convert(r.hammer_total_usd),
      premium_sold_total_preferred: convert(r.premium_sold_total_usd),
      cumulative_total_preferred: convert(r.cumulative_total_usd),
    }),
    is_followed: followed.has(r.id),
  };
}

/** Response objects for `ids`, in that order (ids the market lacks are skipped). */
export function saleObjects(deps: AppDeps, ids: readonly number[], view: CallerView): (Sale | SalePublic)[] {
  if (!ids.length) return [];
  const rows = deps.market
    .query<SaleRow, number[]>(`SELECT ${COLUMNS} FROM sales s LEFT JOIN auction_houses h ON h.id = s.house_id WHERE s.id IN (${ids.map(() => "?").join(", ")})`)
    .all(...ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is SaleRow => r !== undefined);
  const followed =
    view.schema === "full"
      ? deps.accounts.followedAmong(
          view.userId,
          "sale",
          ordered.map((r) => r.id),
        )
      : new Set<number>();
  return ordered.map((r) => saleObject(r, deps, view, followed));
}

/** A page of the sale list; `followedBy`: a user whose followed sales the list is restricted to. */
export function listSales(deps: AppDeps, query: ParsedList, view: CallerView, followedBy: number | null = null) {
  const followed = followedBy === null ? null : deps.accounts.followedIds(followedBy, "sale");
  const where = saleWhere(query, followed);
  const page = tablePage(
    {
      db: deps.market,
      signer: deps.signer,
      cursor: { scope: followedBy === null ? "sales" : `sales/followed:${followedBy}`, sort: query.sort ?? "", filters: query.filters, params: {} },
      keys: sortKeysOf(SALE_LIST, query.sort),
      from: "sales",
      idColumn: "id",
      page: (range, limit, offset) => allOnce<{ id: number }>(deps.market, saleListSql(query, followed, range, limit, offset)).map((r) => r.id),
      total: null,
      count: () => deps.market.query<{ n: number }, Bind[]>(`SELECT count(*) AS n FROM sales WHERE ${where.sql}`).get(...where.params)?.n ?? 0,
      id: (id) => id,
    },
    query,
  );
  return {
    sales: saleObjects(deps, page.rows, view),
    total: page.total ?? 0,
    limit: query.limit,
    offset: query.offset,
    next_cursor: page.nextCursor,
  };
}
