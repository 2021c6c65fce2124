/**
 * What the DU ledger's rows say, read back: the DU a user consumed over days (the daily roll-ups),
 * a user's usage by day, month or endpoint, and every key's usage (`artmarket keys usage`). The
 * ledger itself (writing the rows, the windows) is the hot path's: ledger.ts, pg-hot.ts.
 */
import type { KeyUsage, UsageBucket } from "../store";
import type { SqlBase } from "./dialect";

export interface UsageStore {
  /** DU consumed by the user over [from, to] (UTC days, inclusive), from the daily roll-ups. */
  consumedBetween(userId: number, from: string, to: string): number;
  /** DU and requests per label over [from, to]: by day, month (YYYY-MM) or endpoint, ordered by label. */
  usageBreakdown(userId: number, from: string, to: string, by: "day" | "month" | "endpoint"): UsageBucket[];
  /**
   * DU and requests per user and key from the ledger's roll-up by key (every key listed, unused
   * ones with 0), over the days from `since` (YYYY-MM-DD, UTC; all days when absent), ordered by
   * user and key.
   */
  usageByKey(since?: string): KeyUsage[];
  /** A user's DU and requests per key from..to (the roll-up du_key_daily), keys with calls only, by key id. */
  userUsageByKey(userId: number, from: string, to: string): { key_id: number; kid: string; name: string; du: number; requests: number }[];
}

export function UsageSql<B extends SqlBase>(Base: B) {
  abstract class Usage extends Base implements UsageStore {
    consumedBetween(userId: number, from: string, to: string): number {
      const { sum } = this.sql.casts;
      return this.sql.get<{ du: number | null }>(`SELECT sum(du)${sum} AS du FROM du_daily WHERE user_id = ? AND day BETWEEN ? AND ?`, userId, from, to)?.du ?? 0;
    }

    usageBreakdown(userId: number, from: string, to: string, by: "day" | "month" | "endpoint"): UsageBucket[] {
      const { count, sum } = this.sql.casts;
      const label = by === "month" ? "substr(day, 1, 7)" : by;
      // grouped by position (PostgreSQL does not group by an output alias inside an expression)
      return this.sql.all<UsageBucket>(
        `SELECT ${label} AS label, sum(du)${sum} AS du, sum(requests)${count} AS requests
         FROM du_daily WHERE user_id = ? AND day BETWEEN ? AND ? GROUP BY 1 ORDER BY ${label}${this.sql.bytewise}`,
        userId,
        from,
        to,
      );
    }

    userUsageByKey(userId: number, from: string, to: string) {
      const { count, sum } = this.sql.casts;
      return this.sql.all<{ key_id: number; kid: string; name: string; du: number; requests: number }>(
        `SELECT d.key_id, k.kid, k.name, sum(d.du)${sum} AS du, sum(d.requests)${count} AS requests
         FROM du_key_daily d JOIN api_keys k ON k.id = d.key_id
         WHERE d.user_id = ? AND d.day BETWEEN ? AND ? GROUP BY d.key_id, k.kid, k.name ORDER BY d.key_id`,
        userId,
        from,
        to,
      );
    }

    usageByKey(since?: string): KeyUsage[] {
      // the roll-up by user, day and key (du_key_daily, written with every ledger row): a scan of
      // days, where du_ledger would be one of every call ever charged
      const { count, sum } = this.sql.casts;
      return this.sql
        .all<Omit<KeyUsage, "revoked"> & { revoked: boolean | number }>(
          `SELECT u.id AS user_id, u.name AS user_name, u.plan_slug AS plan, k.id AS key_id, k.kid, k.name AS key_name,
                  k.revoked_at IS NOT NULL AS revoked, coalesce(l.requests, 0)${count} AS requests, coalesce(l.du, 0)${sum} AS du, l.first_day, l.last_day
           FROM api_keys k JOIN users u ON u.id = k.user_id
           LEFT JOIN (SELECT key_id, sum(requests) AS requests, sum(du) AS du, min(day) AS first_day, max(day) AS last_day
                      FROM du_key_daily WHERE day >= ? GROUP BY key_id) l ON l.key_id = k.id
           ORDER BY u.id, k.id`,
          since ?? "",
        )
        .map((r) => ({ ...r, revoked: Boolean(r.revoked), du: Math.round(r.du * 1e6) / 1e6 }));
    }
  }
  return Usage;
}
