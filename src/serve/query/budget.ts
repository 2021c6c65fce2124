/**
 * The time budget of a request's market queries. Queries run synchronously on the worker's
 * thread, so a long one holds every other request of that worker. The pipeline runs each handler
 * under a deadline (QUERY_BUDGET.ms after the handler starts, carried across its awaits by an
 * AsyncLocalStorage), and the list services check it before each request-dependent statement and
 * between the rows it returns (planner.ts: allOnce, getOnce; the materials' resolution between
 * media): past it the request stops with 503 and `Retry-After`.
 *
 * bun:sqlite offers neither sqlite3_interrupt nor a progress handler, so one step of SQLite (a
 * count, a sort before its first row) is not cut where it stands: what bounds such a step is the
 * plan, every filter costing a constant per row however long its value list (docs/decisions.md,
 * "Requests the service refuses").
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { HttpError } from "../http/errors";

/** The budget of one request's queries, in milliseconds (tests lower it). */
export const QUERY_BUDGET = { ms: 2_000 };

/** Seconds a client is told to wait before retrying a request stopped by the budget. */
export const BUDGET_RETRY_AFTER_S = 1;

const deadlines = new AsyncLocalStorage<number>();

/** The 503 of a request whose queries ran past the budget. */
export class QueryBudgetExceeded extends HttpError {
  constructor(budgetMs: number) {
    super(
      503,
      `The request's queries ran past their time budget (${budgetMs} ms) and were stopped: narrow the filters (fewer or more selective values, a smaller page) or retry later`,
      { "Retry-After": String(BUDGET_RETRY_AFTER_S) },
    );
  }
}

/** Runs `fn` (a handler) with a deadline QUERY_BUDGET.ms from now for the queries it makes. */
export function withQueryBudget<T>(fn: () => T): T {
  return deadlines.run(performance.now() + QUERY_BUDGET.ms, fn);
}

/** Throws QueryBudgetExceeded when the current request is past its deadline (nothing outside a request). */
export function checkQueryBudget(): void {
  const deadline = deadlines.getStore();
  if (deadline !== undefined && performance.now() > deadline) throw new QueryBudgetExceeded(QUERY_BUDGET.ms);
}
