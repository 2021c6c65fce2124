/**
 * The global index chart: the art index (market_index, 100 at 1986-01) next to benchmark series.
 * By default every series is rebased to 100 at the first month all of them have a value, so they
 * read as growth of 100 invested from that month; earlier points keep their ratio to it.
 * rebase=false gives the stored levels.
 */
import type { Database } from "bun:sqlite";
import type { Static } from "@sinclair/typebox";
import type { BENCHMARKS, GlobalArtIndexChartResponse } from "./model";

export interface Point {
  time: string;
  value: number;
}

const monthTime = (month: string) => `${month}-01`;

function artSeries(db: Database, lastMonth: string): { month: string; value: number }[] {
  return db.query<{ month: string; value: number }, [string]>("SELECT month, value FROM market_index WHERE month <= ? ORDER BY month").all(lastMonth);
}

function benchmarkSeries(db: Database, id: string, lastMonth: string): { month: string; value: number }[] {
  return db.query<{ month: string; value: number }, [string, string]>("SELECT month, value FROM benchmarks WHERE series = ? AND month <= ? ORDER BY month").all(id, lastMonth);
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

export function indexChart(db: Database, asOf: string, finance: readonly (typeof BENCHMARKS)[number][], rebase: boolean): Static<typeof GlobalArtIndexChartResponse> {
  const lastMonth = asOf.slice(0, 7);
  const ids = [...new Set(finance)];
  const art = artSeries(db, lastMonth);
  const labels = new Map(
    db
      .query<{ id: string; label: string }, []>("SELECT id, label FROM benchmark_series")
      .all()
      .map((r) => [r.id, r.label]),
  );
  const bench = ids.map((id) => ({ id, label: labels.get(id) ?? `${id} (synthetic)`, rows: benchmarkSeries(db, id, lastMonth) }));
  const all = [art, ...bench.map((b) => b.rows)];
  // First month every series has: the latest of their first months, when all have one.
  let base: string | null = null;
  if (all.every((s) => s.length > 0)) {
    base = all.map((s) => s[0]!.month).reduce((a, b) => (a > b ? a : b));
    const sets = all.map((s) => new Set(s.map((r) => r.month)));
    // a month missing somewhere after that start: take the first month present in all
    const candidate = all[0]!.map((r) => r.month).find((m) => m >= base! && sets.every((set) => set.has(m)));
    base = candidate ?? null;
  }
  const scale = (rows: { month: string; value: number }[]): Point[] => {
    const at = rebase && base ? rows.find((r) => r.month === base)?.value : undefined;
    return rows.map((r) => ({ time: monthTime(r.month), value: at ? round((r.value / at) * 100) : r.value }));
  };
  return {
    art_data: scale(art),
    finance_data: bench.map((b) => ({ id: b.id, label: b.label, data: scale(b.rows) })),
    rebased: rebase && base !== null,
    base_time: base ? monthTime(base) : null,
  };
}
