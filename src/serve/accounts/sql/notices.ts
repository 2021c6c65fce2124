/** Allowance notices, as `artmarket notices` lists them (the ledger writes them: ledger.ts, pg-hot.ts). */
import type { NoticeListing } from "../store";
import type { SqlBase } from "./dialect";

export interface NoticeStore {
  listNotices(): NoticeListing[];
}

export function NoticesSql<B extends SqlBase>(Base: B) {
  abstract class Notices extends Base implements NoticeStore {
    listNotices(): NoticeListing[] {
      return this.sql.all<NoticeListing>(
        `SELECT n.id, n.user_id, u.name AS user_name, n.plan_slug AS plan, n.pool, n.threshold, n.period_start, n.period_end,
                n.du_limit, n.du_consumed, n.projected_eop, n.created_at
         FROM notices n JOIN users u ON u.id = n.user_id ORDER BY n.id`,
      );
    }
  }
  return Notices;
}
