/**
 * Checks of collectable writes against the market and the reference rates: reference ids, dates,
 * currencies and editions. Each pushes 422 issues; `fail` throws them together, before any write.
 * Bodies reach here already validated against their schemas (types, enums, bounds).
 */
import type { Database } from "bun:sqlite";
import type { AppDeps } from "../../deps";
import { issue, ValidationFailed, type ValidationIssue } from "../../http/errors";
import { CURRENCY_CODES } from "../../../market/currencies";
import { isIsoDate } from "../../../market/time";
import { marks } from "../../../db/sql";

/** A request body as the handler receives it (checked against its schema by the pipeline). */
export type Body = { readonly [field: string]: unknown };

export type Loc = (string | number)[];

export const iso = (ms: number) => new Date(ms).toISOString();
export const cents = (x: number) => Math.round(x * 100) / 100;

/** One-off market query: prepare, read, finalize. */
export function marketAll<T>(market: Database, sql: string, ...params: (string | number | null)[]): T[] {
  const st = market.prepare(sql);
  try {
    return st.all(...(params as never[])) as T[];
  } finally {
    st.finalize();
  }
}

export function marketGet<T>(market: Database, sql: string, ...params: (string | number | null)[]): T | null {
  const st = market.prepare(sql);
  try {
    return (st.get(...(params as never[])) as T | null) ?? null;
  } finally {
    st.finalize();
  }
}

/** A reference kind: its market table and how an unknown id is named in a message. */
const REFERENCES = {
  artist: { table: "artists", label: "Artist" },
  category: { table: "categories", label: "Category" },
  artwork: { table: "artworks", label: "Artwork" },
  material: { table: "materials", label: "Material" },
  substrate: { table: "substrates", label: "Substrate" },
  surface: { table: "surfaces", label: "Surface" },
  damage: { table: "damages", label: "Damage" },
  auction_house: { table: "auction_houses", label: "Auction house" },
} as const;
export type Reference = keyof typeof REFERENCES;

/** Ids of `kind` the market does not have, among `ids`. */
export function missingIds(market: Database, kind: Reference, ids: readonly number[]): Set<number> {
  if (ids.length === 0) return new Set();
  const unique = [...new Set(ids)];
  const found = new Set(marketAll<{ id: number }>(market, `SELECT id FROM ${REFERENCES[kind].table} WHERE id IN (${marks(unique.length)})`, ...unique).map((r) => r.id));
  return new Set(unique.filter((id) => !found.has(id)));
}

/** Pushes a 422 issue for an id the market does not have (a single field, or each element of an array field). */
export function checkReference(market: Database, issues: ValidationIssue[], kind: Reference, loc: Loc, field: unknown): void {
  const value = field as number | number[] | null | undefined;
  if (value === null || value === undefined) return;
  const list = Array.isArray(value) ? value : [value];
  const missing = missingIds(market, kind, list);
  const { label, table } = REFERENCES[kind];
  list.forEach((id, i) => {
    if (!missing.has(id)) return;
    issues.push(issue.custom(Array.isArray(value) ? [...loc, i] : loc, id, `${label} ${id} does not exist`, "value_error", { reference: table }));
  });
  if (Array.isArray(value)) {
    const seen = new Set<number>();
    list.forEach((id, i) => {
      if (seen.has(id)) issues.push(issue.custom([...loc, i], id, `${label} ${id} is listed twice`, "value_error", { reference: table }));
      seen.add(id);
    });
  }
}

export function checkCurrency(deps: AppDeps, issues: ValidationIssue[], loc: Loc, field: unknown): void {
  const code = field as string | null | undefined;
  if (code === null || code === undefined) return;
  if (!(CURRENCY_CODES as readonly string[]).includes(code) || !deps.fx.has(code)) issues.push(issue.enum(loc, code, CURRENCY_CODES));
}

export function checkDate(issues: ValidationIssue[], loc: Loc, field: unknown): void {
  const value = field as string | null | undefined;
  if (value === null || value === undefined) return;
  if (!isIsoDate(value)) issues.push(issue.date(loc, value));
}

export function checkEdition(issues: ValidationIssue[], number: number | null, size: number | null, loc: Loc): void {
  if (number !== null && size !== null && number > size) {
    issues.push(issue.custom([...loc, "edition_number"], number, `edition_number must not exceed edition_size (${size})`, "value_error", { edition_size: size }));
  }
}

export function fail(issues: ValidationIssue[]): void {
  if (issues.length) throw new ValidationFailed(issues);
}
