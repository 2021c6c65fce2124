/**
 * A collectable's children, always reached through the caller's collectable: its acquisition (one
 * row, created with it) and its appraisals, provenance entries and private sales (lists). A write
 * bumps the collectable's updated_at in the same transaction.
 */
import { type AppraisalRow, type ChildRow, type ChildTable, type ProvenanceRow, type SaleRow } from "../../accounts/store";
import type { AppDeps } from "../../deps";
import { issue, notFound, type ValidationIssue } from "../../http/errors";
import { type Body, checkCurrency, checkDate, checkReference, fail } from "./checks";
import { marketNames, ownCollectable, presentAcquisition, presentAppraisal, presentProvenance, presentSale } from "./presentation";
import { ensureValued, toUsd } from "./valuation";

/** Column values of a write, as bound to SQL. */
type Values = Record<string, string | number | null>;

// ---------------------------------------------------------------- acquisition

export function getAcquisition(deps: AppDeps, userId: number, id: number) {
  const row = ownCollectable(deps, userId, id);
  ensureValued(deps, userId, [row]);
  const q = deps.accounts.acquisition(userId, id);
  return presentAcquisition(q, marketNames(deps.market, "auction_houses", q?.auction_house_id != null ? [q.auction_house_id] : []));
}

const ACQUISITION_COLUMNS = [
  "date",
  "price",
  "currency",
  "location",
  "source_type",
  "seller_name",
  "dealer_name",
  "auction_house_id",
  "auction_house_name",
  "use_instead_of_estimates",
] as const;

export function updateAcquisition(deps: AppDeps, userId: number, id: number, body: Body) {
  ownCollectable(deps, userId, id);
  const issues: ValidationIssue[] = [];
  checkDate(issues, ["body", "date"], body.date);
  checkCurrency(deps, issues, ["body", "currency"], body.currency);
  checkReference(deps.market, issues, "auction_house", ["body", "auction_house_id"], body.auction_house_id);
  fail(issues);
  const now = Date.now();
  const store = deps.accounts;
  store.transaction(() => {
    const next: Values = { ...(store.acquisition(userId, id) ?? {}) } as Values;
    for (const c of ACQUISITION_COLUMNS) if (c in body) next[c] = c === "use_instead_of_estimates" ? (body[c] ? 1 : 0) : (body[c] as string | number | null);
    // a price without a currency is in USD
    if (next.price != null && next.currency == null) next.currency = "USD";
    const priceUsd = toUsd(deps, (next.price as number | null) ?? null, (next.currency as string | null) ?? null, (next.date as string | null) ?? null);
    const values: Values = {};
    for (const c of ACQUISITION_COLUMNS) values[c] = c === "use_instead_of_estimates" ? (next[c] ? 1 : 0) : (next[c] ?? null);
    values.price_usd = priceUsd;
    store.saveAcquisition(userId, id, values, now);
  });
  return getAcquisition(deps, userId, id);
}

// ---------------------------------------------------------------- appraisals, provenance, private sales

interface ChildKind<R extends ChildRow> {
  table: ChildTable;
  label: string;
  columns: readonly string[];
  order: string;
  /** Has value, currency, date and value_usd. */
  money: boolean;
  present: (r: R, houses: Map<number, string>) => object;
}

export const CHILDREN = {
  appraisals: {
    table: "collectable_appraisals",
    label: "Appraisal",
    columns: ["type", "value", "currency", "date", "company_name", "is_best_guess"],
    order: "date, id",
    money: true,
    present: (r: AppraisalRow) => presentAppraisal(r),
  } satisfies ChildKind<AppraisalRow>,
  provenance: {
    table: "collectable_provenance",
    label: "Provenance entry",
    columns: ["owner", "location", "year_from", "year_to", "is_up_to_present"],
    order: "id",
    money: false,
    present: (r: ProvenanceRow) => presentProvenance(r),
  } satisfies ChildKind<ProvenanceRow>,
  sales: {
    table: "collectable_sales",
    label: "Sale",
    columns: ["value", "currency", "date", "location", "type", "auction_house_id", "seller_name"],
    order: "date, id",
    money: true,
    present: presentSale,
  } satisfies ChildKind<SaleRow>,
};
export type ChildName = keyof typeof CHILDREN;

function kindOf(name: ChildName): ChildKind<ChildRow> {
  return CHILDREN[name] as ChildKind<ChildRow>;
}

function presentChildren(deps: AppDeps, kind: ChildKind<ChildRow>, rows: ChildRow[]): object[] {
  const houses = marketNames(
    deps.market,
    "auction_houses",
    rows.map((r) => ("auction_house_id" in r ? r.auction_house_id : null)).filter((x): x is number => x != null),
  );
  return rows.map((r) => kind.present(r, houses));
}

export function listChildren(deps: AppDeps, userId: number, id: number, name: ChildName): object[] {
  ownCollectable(deps, userId, id);
  const kind = kindOf(name);
  return presentChildren(deps, kind, deps.accounts.children(userId, kind.table, [id], kind.order));
}

function ownChild(deps: AppDeps, userId: number, name: ChildName, collectableId: number, childId: number): ChildRow {
  const kind = kindOf(name);
  const row = deps.accounts.child(userId, kind.table, collectableId, childId);
  if (!row) throw notFound(`${kind.label} ${childId} not found`);
  return row;
}

/** Checks a child's fields as they would be after the write; the issues' locs name the fields sent. */
function checkChild(deps: AppDeps, name: ChildName, body: Body, next: Values): void {
  const issues: ValidationIssue[] = [];
  if (CHILDREN[name].money) {
    checkDate(issues, ["body", "date"], body.date);
    checkCurrency(deps, issues, ["body", "currency"], body.currency);
  }
  if (name === "sales") checkReference(deps.market, issues, "auction_house", ["body", "auction_house_id"], body.auction_house_id);
  if (name === "provenance") {
    if (next.year_from != null && next.year_to != null && next.year_from > next.year_to) {
      const field = "year_to" in body ? "year_to" : "year_from";
      issues.push(issue.custom(["body", field], body[field], "year_from must not be after year_to", "value_error", { year_from: next.year_from, year_to: next.year_to }));
    }
  }
  fail(issues);
}

/** value_usd of a money child at the reference rate of its date. */
function valueUsd(deps: AppDeps, next: Values): number | null {
  return toUsd(deps, next.value as number | null, next.currency as string | null, next.date as string | null);
}

export function addChild(deps: AppDeps, userId: number, id: number, name: ChildName, body: Body): object {
  ownCollectable(deps, userId, id);
  const kind = kindOf(name);
  const next: Values = {};
  for (const c of kind.columns) next[c] = (body[c] as string | number | null | undefined) ?? null;
  if (kind.money && next.currency === null) next.currency = "USD";
  if (name === "appraisals") next.is_best_guess = body.is_best_guess ? 1 : 0;
  if (name === "provenance") next.is_up_to_present = body.is_up_to_present ? 1 : 0;
  checkChild(deps, name, body, next);
  const now = Date.now();
  if (kind.money) next.value_usd = valueUsd(deps, next);
  const childId = deps.accounts.insertChild(userId, kind.table, id, next, now);
  return presentChildren(deps, kind, [ownChild(deps, userId, name, id, childId)])[0]!;
}

export function updateChild(deps: AppDeps, userId: number, id: number, name: ChildName, childId: number, body: Body): object {
  ownCollectable(deps, userId, id);
  const kind = kindOf(name);
  const row = ownChild(deps, userId, name, id, childId);
  const next = { ...row } as Values;
  for (const c of kind.columns) if (c in body) next[c] = typeof body[c] === "boolean" ? (body[c] ? 1 : 0) : (body[c] as string | number | null);
  checkChild(deps, name, body, next);
  const now = Date.now();
  if (kind.money) next.value_usd = valueUsd(deps, next);
  const cols = kind.money ? [...kind.columns, "value_usd"] : [...kind.columns];
  const values: Values = {};
  for (const c of cols) values[c] = next[c] ?? null;
  deps.accounts.updateChild(userId, kind.table, id, childId, values, now);
  return presentChildren(deps, kind, [ownChild(deps, userId, name, id, childId)])[0]!;
}

export function deleteChild(deps: AppDeps, userId: number, id: number, name: ChildName, childId: number): void {
  ownCollectable(deps, userId, id);
  const kind = kindOf(name);
  ownChild(deps, userId, name, id, childId);
  deps.accounts.deleteChild(userId, kind.table, id, childId, Date.now());
}
