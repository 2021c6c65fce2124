/**
 * The primitives of the list services' cost-based plans (lots, artists, artworks). SQLite keeps no
 * histograms here, so it cannot tell a narrow range from a broad one: a service counts or probes
 * a filter's own index (bounded reads), estimates the rows of each plan, and names the index of
 * the cheaper one (INDEXED BY). Each module keeps only its index map (which sort is served by
 * which index, which filters have one) and its thresholds' values; the steps are these.
 */
import type { Database } from "bun:sqlite";
import { checkQueryBudget } from "./budget";
import type { SqlFragment } from "./grammar";

type Bind = SqlFragment["params"][number];

/**
 * The thresholds of a module's plan (each module exports its values so that tests can lower them
 * to walk every branch; a module uses the ones its plan has).
 */
export interface PlanThresholds {
  /** The most entries a probe reads of a filter's range. */
  probeRows?: number;
  /** What a look-up of a table row costs, in index entries. */
  rowCost?: number;
  /** A value range matching fewer rows drives the query from its own index (then sorted). */
  rangeRows?: number;
  /** A search matching fewer rows is an id list (then sorted); more, a per-row check. */
  searchRows?: number;
  /** How far past the walk-vs-sort bound a sort's walk is tried (times the bound). */
  walkSlack?: number;
  /** The most rows sorted from a filter's own index when the sort's walk does not find the page. */
  sortRows?: number;
}

/** Rows between two checks of the request's time budget while a statement's rows are read. */
const BUDGET_CHECK_ROWS = 64;

/**
 * Runs a statement whose text depends on the request, uncached (prepared, run, finalised), so that
 * the statement cache stays bounded; the request's time budget (budget.ts) is checked before it
 * runs and between its rows.
 */
export function allOnce<T>(db: Database, f: SqlFragment): T[] {
  checkQueryBudget();
  const stmt = db.prepare<T, Bind[]>(f.sql);
  try {
    const rows: T[] = [];
    for (const row of stmt.iterate(...(f.params as Bind[]))) {
      rows.push(row);
      if (rows.length % BUDGET_CHECK_ROWS === 0) checkQueryBudget();
    }
    return rows;
  } finally {
    stmt.finalize();
  }
}

/** allOnce's first row (null for none). */
export function getOnce<T>(db: Database, f: SqlFragment): T | null {
  checkQueryBudget();
  const stmt = db.prepare<T, Bind[]>(f.sql);
  try {
    return stmt.get(...(f.params as Bind[]));
  } finally {
    stmt.finalize();
  }
}

/** The rows of `from` (a table, with its alias if `where` uses one) matching `where`, read through `index`, counted up to `cap` (the count stops there). */
export function countUpTo(db: Database, from: string, index: string, where: SqlFragment, cap: number): number {
  checkQueryBudget();
  return db.query<{ n: number }, Bind[]>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${from} INDEXED BY ${index} WHERE ${where.sql} LIMIT ?)`).get(...where.params, cap)!.n;
}

/** What a probe of one range found: entries read (at most the probe's rows), and of those, how many pass every filter. */
export interface Probe {
  index: string;
  read: number;
  matched: number;
}

/** Reads at most `rows` entries of `range` through `index` and counts those that pass `where` (the list's whole WHERE). */
export function probeRange(db: Database, from: string, index: string, where: SqlFragment, range: SqlFragment, rows: number): Probe {
  const r = getOnce<{ read: number; matched: number }>(db, {
    sql: `SELECT count(*) AS read, coalesce(sum(ok), 0) AS matched FROM (SELECT (${where.sql}) AS ok FROM ${from} INDEXED BY ${index} WHERE ${range.sql} LIMIT ?)`,
    params: [...where.params, ...range.params, rows],
  })!;
  return { index, read: r.read, matched: r.matched };
}

/** The share of a probe's entries that matched (1 for a probe that read none). */
export const matchShare = (p: Probe): number => (p.read === 0 ? 1 : p.matched / p.read);

/**
 * The range to read among the probed ones: `complete`, the shortest range that ended within its
 * probe (its matches are the count), else `best`, the one whose entries matched best (range size
 * ≈ count / that share: the shortest). `best` is `complete` when there is one.
 */
export function chooseRange(probes: readonly Probe[], probeRows: number): { best: Probe; complete: Probe | undefined } {
  const complete = probes.filter((p) => p.read < probeRows).sort((a, b) => a.read - b.read)[0];
  return { best: complete ?? probes.reduce((b, p) => (matchShare(p) > matchShare(b) ? p : b)), complete };
}

/** The entries of the chosen range: read whole by a complete probe, else estimated as total / share; `none` when no probed entry matched. */
export function rangeRows(choice: { best: Probe; complete: Probe | undefined }, total: number, none: number): number {
  if (choice.complete) return choice.complete.read;
  const share = matchShare(choice.best);
  return share > 0 ? total / share : none;
}

/** Entries of a sort's index walked to fill `need` rows when `matches` of its `span` entries match, spread evenly (at most the span). */
export function walkRows(need: number, span: number, matches: number): number {
  return Math.min(span, (need * span) / Math.max(matches, 1));
}

/**
 * The matches above which walking a sort's index (checking each row) beats reading the matches
 * and sorting them: the walk reads about need × rows / matches rows, the sort `matches`, equal at
 * √(need × rows).
 */
export function walkBound(need: number, rows: number): number {
  return Math.ceil(Math.sqrt(need * rows));
}
