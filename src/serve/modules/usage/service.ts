/**
 * The usage report. The three windows (entitlement period, UTC day, calendar month) always
 * describe the current ones, as the allowances apply to them; `from`/`to` choose the range that
 * du_consumed and the breakdown cover (by default the current period up to today, so that
 * du_consumed + du_remaining = du_limit).
 */
import type { Caller } from "../../accounts/keys";
import type { AccountStore } from "../../accounts/store";
import { poolsOf, projectEndOfPeriod, type Windows } from "../../accounts/ledger";
import { weekStart } from "../../../market/time";

export type GroupBy = "day" | "week" | "month" | "endpoint" | "key";

const round = (n: number) => Math.round(n * 1000) / 1000;

export function usageReport(store: AccountStore, caller: Caller, w: Windows, range: { from: string; to: string }, groupBy: GroupBy | undefined): Record<string, unknown> {
  const rangeConsumed = store.consumedBetween(caller.userId, range.from, range.to);
  const report: Record<string, unknown> = {
    plan: caller.plan.slug,
    from: range.from,
    to: range.to,
    period_start: w.period.start,
    period_end: w.period.end,
  };
  for (const { pool, limits } of poolsOf(caller.plan)) {
    const p = pool === "main" ? "" : "api_";
    report[`${p}du_limit`] = limits.du_limit;
    report[`${p}du_consumed`] = round(rangeConsumed);
    report[`${p}du_remaining`] = round(Math.max(0, limits.du_limit - w.periodConsumed));
    report[`${p}projected_eop`] = projectEndOfPeriod(w.periodConsumed, w.period, w.day);
    report[`${p}daily_du_limit`] = limits.daily_du_limit;
    report[`${p}daily_du_consumed`] = round(w.dayConsumed);
    report[`${p}daily_du_remaining`] = round(Math.max(0, limits.daily_du_limit - w.dayConsumed));
    report[`${p}monthly_du_limit`] = limits.monthly_du_limit;
    report[`${p}monthly_du_consumed`] = round(w.monthConsumed);
    report[`${p}monthly_du_remaining`] = round(Math.max(0, limits.monthly_du_limit - w.monthConsumed));
  }
  if (groupBy === "key") {
    // every key of the user draws on the one pool: what each spent (label: the key's kid)
    report.breakdown = store
      .userUsageByKey(caller.userId, range.from, range.to)
      .map((r) => ({ label: r.kid, du_consumed: round(r.du), requests: r.requests, key_id: r.key_id, key_name: r.name }));
  } else if (groupBy) {
    // weeks are folded from days below
    const rows = store.usageBreakdown(caller.userId, range.from, range.to, groupBy === "week" ? "day" : groupBy);
    let items = rows.map((r) => ({ label: r.label, du_consumed: round(r.du), requests: r.requests }));
    if (groupBy === "week") {
      const weeks = new Map<string, { label: string; du_consumed: number; requests: number }>();
      for (const item of items) {
        const label = weekStart(item.label);
        const acc = weeks.get(label) ?? { label, du_consumed: 0, requests: 0 };
        acc.du_consumed = round(acc.du_consumed + item.du_consumed);
        acc.requests += item.requests;
        weeks.set(label, acc);
      }
      items = [...weeks.values()];
    }
    if (groupBy === "endpoint") items.sort((a, b) => b.du_consumed - a.du_consumed || a.label.localeCompare(b.label));
    report.breakdown = items;
  }
  return report;
}
