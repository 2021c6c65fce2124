/**
 * The one list grammar. A resource declares each filterable field once (column, type, suffixes);
 * from that declaration come the validation of the query string, the SQL WHERE clause (values
 * always bound, never spliced), the sort map with an `id` tiebreaker, pagination, and the
 * OpenAPI parameters. No parameter name ever reaches SQL: only declared columns do.
 */
import { issue, ValidationFailed, type ValidationIssue } from "../http/errors";
import { isIsoDate } from "../../market/time";
import { containsPattern } from "../../db/sql";

export const SUFFIXES = ["", "__in", "__gte", "__lte", "__eq", "__ilike"] as const;
export type Suffix = (typeof SUFFIXES)[number];

export type IntType = { kind: "integer"; min?: number; max?: number };
export type NumType = { kind: "number"; min?: number; max?: number };
export type StrType = { kind: "string"; minLength?: number; maxLength?: number };
export type BoolType = { kind: "boolean" };
export type DateType = { kind: "date" };
export type DateTimeType = { kind: "datetime" };
export type EnumType<V extends string = string> = { kind: "enum"; values: readonly V[] };

export type ScalarType = IntType | NumType | StrType | BoolType | DateType | DateTimeType | EnumType;

/** The value parseScalar gives for a scalar type (an enum: the union of its values where they are literal). */
export type ScalarValue<S> = S extends { kind: "integer" | "number" }
  ? number
  : S extends { kind: "boolean" }
    ? boolean
    : S extends { kind: "enum"; values: readonly (infer V)[] }
      ? V
      : S extends { kind: "string" | "date" | "datetime" }
        ? string
        : unknown;

/** Each T.* returns its own variant of ScalarType, so declarations keep their value types (ScalarValue). */
export const T = {
  int: (min?: number, max?: number): IntType => ({ kind: "integer", min, max }),
  num: (min?: number, max?: number): NumType => ({ kind: "number", min, max }),
  str: (maxLength = 200): StrType => ({ kind: "string", minLength: 1, maxLength }),
  bool: (): BoolType => ({ kind: "boolean" }),
  date: (): DateType => ({ kind: "date" }),
  datetime: (): DateTimeType => ({ kind: "datetime" }),
  enum: <const V extends string>(values: readonly V[]): EnumType<V> => ({ kind: "enum", values }),
};

export interface FieldDecl {
  /** SQL expression the filter applies to (a declared column, never user text). */
  column: string;
  type: ScalarType;
  suffixes: readonly Suffix[];
  description?: string;
  /**
   * The column holds the value in smaller units (USD amounts in cents: 100; fractions in millionths:
   * 10⁶): numeric bounds are multiplied by it, and a product within 10⁻⁶ of a whole number is that
   * number (0.05 × 10⁶ is 50000.000000000007 in binary; the stored 50000 must meet it).
   */
  scale?: number;
  /** The column holds another form of the value (a date as a day number): bounds are converted by it. */
  toColumn?: (value: string) => number;
}

export interface ParamDecl<S extends ScalarType = ScalarType> {
  type: S;
  /** Accepts several values (repeated or comma-separated). */
  many?: boolean;
  /** With `many`: at most this many values (default MAX_IN_VALUES). */
  maxItems?: number;
  default?: unknown;
  description?: string;
}

export type Dir = "ASC" | "DESC";

export interface SortKey {
  /** SQL expression (fixed text of a declaration, never user input). */
  expr: string;
  dir: Dir;
  /** The expression can be NULL: NULLs sort last in both directions (only the first key may be nullable). */
  nullable?: boolean;
}

/** A total order: every key in the same direction, the last one the tiebreaker (unique, never NULL). */
export type SortKeys = readonly SortKey[];

/**
 * How NULLS LAST is written: `flag` as SQLite orders without the keyword (ASC: `(x IS NULL) ASC`
 * in front, which an index on (x IS NULL, x) or two ranges of x's own index serve; DESC: NULLs are
 * lowest, last by themselves), `keyword` with NULLS LAST.
 */
export type NullsStyle = "flag" | "keyword";

/** The keys of a sort in one direction: `[expr, nullable?]` pairs, each in `dir`. */
export function sortKeys(dir: Dir, ...keys: (string | [string, true])[]): SortKey[] {
  return keys.map((k) => (typeof k === "string" ? { expr: k, dir } : { expr: k[0], dir, nullable: true }));
}

/** ORDER BY (without the keyword) of sort keys. */
export function orderText(keys: SortKeys, style: NullsStyle = "flag"): string {
  return keys
    .map((k) => {
      if (!k.nullable) return `${k.expr} ${k.dir}`;
      if (style === "keyword") return `${k.expr} ${k.dir} NULLS LAST`;
      return k.dir === "ASC" ? `(${k.expr} IS NULL) ASC, ${k.expr} ASC` : `${k.expr} DESC`;
    })
    .join(", ");
}

/** The `cursor` query parameter of a market list. */
export const CURSOR_PARAM = {
  type: T.str(2048),
  description:
    "continue after the page that gave this `next_cursor` (opaque): the same filters and sort, no row skipped or repeated, however deep; `limit` may change between pages, `offset` must be absent or 0. A cursor of other filters, another sort or another snapshot is refused (422)",
} satisfies ParamDecl;

export interface ListSpec {
  /** Filterable fields: `name` + suffix become query parameters. */
  fields: Readonly<Record<string, FieldDecl>>;
  /**
   * Sort values → their order: sort keys (SortKeys, the tiebreaker last: ORDER BY and the cursor's
   * keyset both come from them), or an ORDER BY fragment over declared columns, the tiebreaker
   * appended (a list without cursors).
   */
  sorts?: Readonly<Record<string, string | SortKeys>>;
  /** How the sort keys' NULLS LAST is written (default `flag`). */
  nullsStyle?: NullsStyle;
  defaultSort?: string;
  /** Column that makes every order total (usually the primary key). */
  tiebreaker?: string;
  limit?: { default: number; max: number };
  /** Parameters that are not column filters (q, preferred_currency, include_chart, …). */
  params?: Readonly<Record<string, ParamDecl>>;
  /** At most this many values in one __in list (default MAX_IN_VALUES). */
  maxInValues?: number;
}

/** The most values one list parameter takes (an `__in` filter, a `many` parameter). */
export const MAX_IN_VALUES = 1000;

export interface Filter {
  field: string;
  suffix: Suffix;
  value: unknown;
}

export interface ParsedList<P = Record<string, unknown>> {
  filters: Filter[];
  sort: string | null;
  limit: number;
  offset: number;
  params: P;
}

/** One parameter's parsed value: its scalar's value, an array of them with `many`. */
export type ParamValue<D> = D extends { type: infer S; many: true } ? ScalarValue<S>[] : D extends { type: infer S } ? ScalarValue<S> : unknown;

type Simplify<O> = { [K in keyof O]: O[K] };

/**
 * The parsed `params` of a ListSpec whose declaration keeps its literal types (`satisfies ListSpec`,
 * not `: ListSpec`): a parameter with a `default` is always there, the others only when sent. A spec
 * typed only as ListSpec gives Record<string, unknown>.
 */
export type ParamsOf<L> = L extends { params: infer PS }
  ? string extends keyof PS
    ? Record<string, unknown>
    : Simplify<
        { [K in keyof PS as PS[K] extends { default: {} } ? K : never]: ParamValue<PS[K]> } & {
          [K in keyof PS as PS[K] extends { default: {} } ? never : K]?: ParamValue<PS[K]>;
        }
      >
  : L extends ListSpec
    ? Record<string, unknown>
    : {};

const BOOL_TRUE = new Set(["true", "1", "yes", "on", "t", "y"]);
const BOOL_FALSE = new Set(["false", "0", "no", "off", "f", "n"]);
const MAX_OFFSET = 1_000_000_000;

/** Parses one raw string as `type`, pushing an issue and returning undefined when it does not fit. */
export function parseScalar(type: ScalarType, raw: string, loc: (string | number)[], issues: ValidationIssue[]): unknown {
  switch (type.kind) {
    case "integer": {
      const t = raw.trim();
      if (!/^[+-]?\d+$/.test(t) || !Number.isSafeInteger(Number(t))) {
        issues.push(issue.int(loc, raw));
        return undefined;
      }
      const n = Number(t);
      if (type.min !== undefined && n < type.min) return void issues.push(issue.ge(loc, raw, type.min));
      if (type.max !== undefined && n > type.max) return void issues.push(issue.le(loc, raw, type.max));
      return n;
    }
    case "number": {
      const t = raw.trim();
      const n = t === "" ? Number.NaN : Number(t);
      if (!Number.isFinite(n)) {
        issues.push(issue.number(loc, raw));
        return undefined;
      }
      if (type.min !== undefined && n < type.min) return void issues.push(issue.ge(loc, raw, type.min));
      if (type.max !== undefined && n > type.max) return void issues.push(issue.le(loc, raw, type.max));
      return n;
    }
    case "string": {
      if (type.minLength !== undefined && raw.length < type.minLength) return void issues.push(issue.minLength(loc, raw, type.minLength));
      if (type.maxLength !== undefined && raw.length > type.maxLength) return void issues.push(issue.maxLength(loc, raw, type.maxLength));
      return raw;
    }
    case "boolean": {
      const t = raw.trim().toLowerCase();
      if (BOOL_TRUE.has(t)) return true;
      if (BOOL_FALSE.has(t)) return false;
      issues.push(issue.bool(loc, raw));
      return undefined;
    }
    case "date": {
      if (!isIsoDate(raw)) return void issues.push(issue.date(loc, raw));
      return raw;
    }
    case "datetime": {
      const dateOnly = isIsoDate(raw);
      const full = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/.test(raw);
      const t = Date.parse(dateOnly ? `${raw}T00:00:00Z` : /Z|[+-]\d{2}:?\d{2}$/.test(raw) ? raw : `${raw.replace(" ", "T")}Z`);
      if (!(dateOnly || full) || !Number.isFinite(t)) return void issues.push(issue.datetime(loc, raw));
      return new Date(t).toISOString();
    }
    case "enum": {
      if (!type.values.includes(raw)) return void issues.push(issue.enum(loc, raw, type.values));
      return raw;
    }
  }
}

/** All values given for `name`: repeated parameters, each possibly comma-separated. */
function manyValues(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

function suffixType(decl: FieldDecl, suffix: Suffix): ScalarType {
  return suffix === "__ilike" ? { kind: "string", minLength: 1, maxLength: 200 } : decl.type;
}

/** A filter parameter of a list: its name (field and suffix) and its declaration. */
interface FilterName {
  name: string;
  field: string;
  decl: FieldDecl;
  suffix: Suffix;
}

const filterNames = new WeakMap<ListSpec, readonly FilterName[]>();

/**
 * The spec's filter parameters in the order parseList reads them (each field's suffixes in turn),
 * listed once per spec: a list declares a few dozen (the lots 31) and a request sends a few.
 */
function filterNamesOf(spec: ListSpec): readonly FilterName[] {
  let names = filterNames.get(spec);
  if (names === undefined) {
    names = Object.entries(spec.fields).flatMap(([field, decl]) => decl.suffixes.map((suffix) => ({ name: field + suffix, field, decl, suffix })));
    filterNames.set(spec, names);
  }
  return names;
}

/** Validates a list request's query string against the spec; throws ValidationFailed with every issue found. */
export function parseList(spec: ListSpec, query: URLSearchParams): ParsedList {
  const issues: ValidationIssue[] = [];
  const filters: Filter[] = [];
  const maxIn = spec.maxInValues ?? MAX_IN_VALUES;
  // the names sent, looked up in JavaScript rather than by a call into URLSearchParams per name
  const sent = new Set(query.keys());

  for (const { name, field, decl, suffix } of filterNamesOf(spec)) {
    if (!sent.has(name)) continue;
    const type = suffixType(decl, suffix);
    if (suffix === "__in") {
      const raws = manyValues(query, name);
      if (raws.length === 0) continue;
      if (raws.length > maxIn) {
        issues.push(issue.tooMany(["query", name], query.getAll(name).join(","), maxIn));
        continue;
      }
      const values: unknown[] = [];
      raws.forEach((raw, i) => {
        const v = parseScalar(type, raw, ["query", name, i], issues);
        if (v !== undefined) values.push(v);
      });
      if (values.length === raws.length) filters.push({ field, suffix, value: values });
      continue;
    }
    const raw = query.getAll(name).at(-1)!;
    const value = parseScalar(type, raw, ["query", name], issues);
    if (value !== undefined) filters.push({ field, suffix, value });
  }

  const params: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(spec.params ?? {})) {
    if (!sent.has(name)) {
      if (decl.default !== undefined) params[name] = decl.default;
      continue;
    }
    if (decl.many) {
      const values: unknown[] = [];
      const raws = manyValues(query, name);
      const max = decl.maxItems ?? MAX_IN_VALUES;
      if (raws.length > max) {
        issues.push(issue.tooMany(["query", name], query.getAll(name).join(","), max));
        continue;
      }
      raws.forEach((raw, i) => {
        const v = parseScalar(decl.type, raw, ["query", name, i], issues);
        if (v !== undefined) values.push(v);
      });
      params[name] = values;
    } else {
      const v = parseScalar(decl.type, query.getAll(name).at(-1)!, ["query", name], issues);
      if (v !== undefined) params[name] = v;
    }
  }

  let sort: string | null = spec.defaultSort ?? null;
  if (spec.sorts && sent.has("sort")) {
    const v = parseScalar(T.enum(Object.keys(spec.sorts)), query.getAll("sort").at(-1)!, ["query", "sort"], issues);
    if (v !== undefined) sort = v as string;
  }

  let limit = spec.limit?.default ?? 0;
  let offset = 0;
  if (spec.limit) {
    if (sent.has("limit")) {
      const v = parseScalar(T.int(1, spec.limit.max), query.getAll("limit").at(-1)!, ["query", "limit"], issues);
      if (v !== undefined) limit = v as number;
    }
    if (sent.has("offset")) {
      const v = parseScalar(T.int(0, MAX_OFFSET), query.getAll("offset").at(-1)!, ["query", "offset"], issues);
      if (v !== undefined) offset = v as number;
    }
  }

  // a cursor continues from its own position (its checks against the list: the list's service)
  if (spec.params?.cursor && params.cursor !== undefined && offset !== 0) {
    issues.push(issue.custom(["query", "offset"], query.getAll("offset").at(-1)!, "offset cannot be combined with cursor: a cursor continues from its own position"));
  }
  if (issues.length) throw new ValidationFailed(issues);
  return { filters, sort, limit, offset, params };
}

/** A string as an SQL literal. */
function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export interface SqlFragment {
  sql: string;
  params: (string | number | boolean | null)[];
}

/** The WHERE clause (without the keyword; "1" when empty) for parsed filters, every value bound. */
export function whereClause(spec: ListSpec, filters: readonly Filter[]): SqlFragment {
  const parts: string[] = [];
  const params: SqlFragment["params"] = [];
  for (const f of filters) {
    const decl = spec.fields[f.field]!;
    const col = decl.column;
    const scale = decl.scale ?? 1;
    const bind = (v: unknown) =>
      typeof v === "boolean" ? (v ? 1 : 0) : typeof v === "number" ? scaled(v, scale) : decl.toColumn && typeof v === "string" ? decl.toColumn(v) : (v as string | number);
    switch (f.suffix) {
      case "":
      case "__eq":
        // a boolean or an enum value is written as its literal (1 or 0, 'value': validated against
        // the declared values): a partial index on `col = 1` or `col = 'value'` serves it
        if (typeof f.value === "boolean") parts.push(`${col} = ${f.value ? 1 : 0}`);
        else if (decl.type.kind === "enum" && decl.type.values.includes(f.value as string)) parts.push(`${col} = ${sqlString(f.value as string)}`);
        else {
          parts.push(`${col} = ?`);
          params.push(bind(f.value));
        }
        break;
      case "__in": {
        const values = f.value as unknown[];
        parts.push(`${col} IN (${values.map(() => "?").join(", ")})`);
        params.push(...values.map(bind));
        break;
      }
      case "__gte":
        parts.push(`${col} >= ?`);
        params.push(bind(f.value));
        break;
      case "__lte":
        parts.push(`${col} <= ?`);
        params.push(bind(f.value));
        break;
      case "__ilike":
        parts.push(`${col} LIKE ? ESCAPE '\\'`);
        params.push(containsPattern(f.value as string)); // wildcards escaped: `__ilike` is a plain substring match
        break;
    }
  }
  return { sql: parts.length ? parts.join(" AND ") : "1", params };
}

/** A bound in the column's units (FieldDecl.scale). */
export function scaled(v: number, scale: number): number {
  if (scale === 1) return v;
  const x = v * scale;
  const whole = Math.round(x);
  return Math.abs(x - whole) <= 1e-6 ? whole : x;
}

/** ORDER BY (without the keyword) for the parsed sort, always ending with the tiebreaker. */
export function orderClause(spec: ListSpec, sort: string | null): string {
  const tiebreaker = spec.tiebreaker ?? "id";
  const base = sort && spec.sorts ? spec.sorts[sort] : undefined;
  if (!base) return `${tiebreaker} ASC`;
  if (typeof base !== "string") return orderText(base, spec.nullsStyle);
  return base.includes(tiebreaker) ? base : `${base}, ${tiebreaker} ${/\bDESC\b/i.test(base) ? "DESC" : "ASC"}`;
}

/** The sort keys of the parsed sort (no sort: the tiebreaker ascending); only for sorts declared as keys. */
export function sortKeysOf(spec: ListSpec, sort: string | null): SortKeys {
  const base = sort && spec.sorts ? spec.sorts[sort] : undefined;
  if (base === undefined) return [{ expr: spec.tiebreaker ?? "id", dir: "ASC" }];
  if (typeof base === "string") throw new Error(`sort ${sort} is an ORDER BY text, not sort keys`);
  return base;
}

/** Every query parameter a list accepts, by name (used to document and to test the grammar). */
export function parameterNames(spec: ListSpec): string[] {
  const names: string[] = [];
  for (const [field, decl] of Object.entries(spec.fields)) for (const s of decl.suffixes) names.push(field + s);
  names.push(...Object.keys(spec.params ?? {}));
  if (spec.sorts) names.push("sort");
  if (spec.limit) names.push("limit", "offset");
  return names;
}
