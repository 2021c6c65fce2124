/**
 * The one error mapper. Every failure leaves as JSON: 422 with the spec's detail array
 * (loc, msg, type, input, ctx), anything else as {"detail": "<message>"}. Internal errors are
 * logged and answered with a generic message; no stack or SQL ever reaches a client.
 */

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input: unknown;
  ctx: Record<string, unknown>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export class ValidationFailed extends Error {
  readonly status = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super("validation error");
  }
}

export const notFound = (what = "Not found") => new HttpError(404, what);
/** How a caller gets a key, said in every 401. */
export const GET_A_KEY = "Keys are created by the operator with `artmarket keys create --plan SLUG`.";

/** What was wrong with the credentials, for the 401's detail. */
export const AUTH_PROBLEMS = {
  none: `No API key: send the header \`Authorization: Bearer <key>\`. ${GET_A_KEY}`,
  header: `Malformed Authorization header: expected \`Authorization: Bearer <key>\`. ${GET_A_KEY}`,
  shape: `Malformed API key: a key looks like am_<16 hex digits>_<43 characters>. ${GET_A_KEY}`,
  refused: `Unknown or revoked API key, or a wrong secret. ${GET_A_KEY}`,
  account: "Sign in first (POST /v1/session), or send an API key: `Authorization: Bearer <key>`.",
} as const;

export const unauthorized = (why: string = AUTH_PROBLEMS.none) => new HttpError(401, why, { "WWW-Authenticate": 'Bearer realm="artmarket"' });
export const forbidden = (why: string) => new HttpError(403, why);

/** Builders for the usual issue kinds, phrased like the common Python API stacks phrase them. */
export const issue = {
  missing: (loc: (string | number)[]): ValidationIssue => ({
    loc,
    msg: "Field required",
    type: "missing",
    input: null,
    ctx: {},
  }),
  int: (loc: (string | number)[], input: unknown): ValidationIssue => ({
    loc,
    msg: "Input should be a valid integer, unable to parse string as an integer",
    type: "int_parsing",
    input,
    ctx: {},
  }),
  number: (loc: (string | number)[], input: unknown): ValidationIssue => ({
    loc,
    msg: "Input should be a valid number, unable to parse string as a number",
    type: "float_parsing",
    input,
    ctx: {},
  }),
  bool: (loc: (string | number)[], input: unknown): ValidationIssue => ({
    loc,
    msg: "Input should be a valid boolean, unable to interpret input",
    type: "bool_parsing",
    input,
    ctx: {},
  }),
  date: (loc: (string | number)[], input: unknown): ValidationIssue => ({
    loc,
    msg: "Input should be a valid date in the format YYYY-MM-DD",
    type: "date_parsing",
    input,
    ctx: { format: "YYYY-MM-DD" },
  }),
  datetime: (loc: (string | number)[], input: unknown): ValidationIssue => ({
    loc,
    msg: "Input should be a valid datetime in ISO 8601 format",
    type: "datetime_parsing",
    input,
    ctx: { format: "ISO 8601" },
  }),
  enum: (loc: (string | number)[], input: unknown, values: readonly string[]): ValidationIssue => {
    const expected = values.map((v) => `'${v}'`);
    const text = expected.length > 1 ? `${expected.slice(0, -1).join(", ")} or ${expected.at(-1)}` : (expected[0] ?? "");
    return { loc, msg: `Input should be ${text}`, type: "enum", input, ctx: { expected: text } };
  },
  ge: (loc: (string | number)[], input: unknown, bound: number): ValidationIssue => ({
    loc,
    msg: `Input should be greater than or equal to ${bound}`,
    type: "greater_than_equal",
    input,
    ctx: { ge: bound },
  }),
  le: (loc: (string | number)[], input: unknown, bound: number): ValidationIssue => ({
    loc,
    msg: `Input should be less than or equal to ${bound}`,
    type: "less_than_equal",
    input,
    ctx: { le: bound },
  }),
  minLength: (loc: (string | number)[], input: unknown, min: number): ValidationIssue => ({
    loc,
    msg: `String should have at least ${min} character${min === 1 ? "" : "s"}`,
    type: "string_too_short",
    input,
    ctx: { min_length: min },
  }),
  maxLength: (loc: (string | number)[], input: unknown, max: number): ValidationIssue => ({
    loc,
    msg: `String should have at most ${max} character${max === 1 ? "" : "s"}`,
    type: "string_too_long",
    input,
    ctx: { max_length: max },
  }),
  tooFew: (loc: (string | number)[], input: unknown, min: number): ValidationIssue => ({
    loc,
    msg: `List should have at least ${min} item${min === 1 ? "" : "s"}`,
    type: "too_short",
    input,
    ctx: { min_length: min },
  }),
  tooMany: (loc: (string | number)[], input: unknown, max: number): ValidationIssue => ({
    loc,
    msg: `List should have at most ${max} items`,
    type: "too_long",
    input,
    ctx: { max_length: max },
  }),
  custom: (loc: (string | number)[], input: unknown, msg: string, type = "value_error", ctx: Record<string, unknown> = {}) => ({
    loc,
    msg,
    type,
    input,
    ctx,
  }),
};

interface TypeBoxErrorLike {
  path?: string;
  value?: unknown;
  message?: string;
  schema?: Record<string, unknown>;
  /** The value as the client sent it, when the framework already converted `value`. */
  sent?: unknown;
}

/**
 * Turns a validation error raised by the framework (TypeBox errors on body, params or query)
 * into the spec's issues. `where` is the location kind (body, path, query, header).
 */
export function fromSchemaErrors(where: string, errors: readonly TypeBoxErrorLike[], raw?: unknown): ValidationIssue[] {
  const seen = new Set<string>();
  const out: ValidationIssue[] = [];
  for (const e of errors) {
    const segments = (e.path ?? "")
      .split("/")
      .filter(Boolean)
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, "/").replace(/~0/g, "~")));
    const loc = [where === "params" ? "path" : where, ...segments];
    const key = loc.join("\u0000");
    if (seen.has(key)) continue;
    seen.add(key);
    const value = e.value === undefined ? rawAt(raw, segments) : e.value;
    const input = e.sent ?? value;
    let s = e.schema ?? {};
    // A nullable field (anyOf [T, null]) sent with a non-null value: report against T.
    if (Array.isArray(s.anyOf) && value !== null) {
      const others = (s.anyOf as Record<string, unknown>[]).filter((x) => x && x.type !== "null");
      if (others.length === 1 && others.length < (s.anyOf as unknown[]).length) s = others[0]!;
    }
    if (e.message === "Unexpected property") out.push(issue.custom(loc, input, "Extra inputs are not permitted", "extra_forbidden"));
    else if (value === undefined) out.push(issue.missing(loc));
    else if (typeof s.maxItems === "number" && Array.isArray(value) && value.length > s.maxItems) out.push(issue.tooMany(loc, input, s.maxItems));
    else if (typeof s.minItems === "number" && Array.isArray(value) && value.length < s.minItems) out.push(issue.tooFew(loc, input, s.minItems));
    else if (typeof s.maximum === "number" && typeof value === "number" && value > s.maximum) out.push(issue.le(loc, input, s.maximum));
    else if (typeof s.minimum === "number" && typeof value === "number" && value < s.minimum) out.push(issue.ge(loc, input, s.minimum));
    else if (typeof s.maxLength === "number" && typeof input === "string" && input.length > s.maxLength) out.push(issue.maxLength(loc, input, s.maxLength));
    else if (typeof s.minLength === "number" && typeof input === "string" && input.length < s.minLength) out.push(issue.minLength(loc, input, s.minLength));
    else if (s.type === "integer") out.push(issue.int(loc, input));
    else if (s.type === "number") out.push(issue.number(loc, input));
    else if (s.type === "boolean") out.push(issue.bool(loc, input));
    else if (s.type === "string" && typeof value !== "string") out.push(issue.custom(loc, input, "Input should be a valid string", "string_type"));
    else if (s.type === "array" && !Array.isArray(value)) out.push(issue.custom(loc, input, "Input should be a valid list", "list_type"));
    else if (s.type === "object" && (value === null || typeof value !== "object" || Array.isArray(value))) {
      out.push(issue.custom(loc, input, "Input should be a valid dictionary or object", "dict_type"));
    } else if (Array.isArray(s.anyOf) && s.anyOf.every((x: any) => x && "const" in x)) {
      out.push(
        issue.enum(
          loc,
          input,
          (s.anyOf as { const: unknown }[]).map((x) => String(x.const)),
        ),
      );
    } else if (Array.isArray(s.enum)) out.push(issue.enum(loc, input, s.enum.map(String)));
    else out.push(issue.custom(loc, input, e.message ?? "Invalid value"));
  }
  return out.length ? out : [issue.custom([where], raw ?? null, "Invalid request")];
}

function rawAt(raw: unknown, path: (string | number)[]): unknown {
  let cur: any = raw;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = cur[p];
  }
  return cur;
}

export function errorBody(err: HttpError | ValidationFailed): unknown {
  return err instanceof ValidationFailed ? { detail: err.issues.slice(0, MAX_ISSUES).map(bounded) } : { detail: err.message };
}

/** At most this many issues in one 422 (a 1,000-value list of bad values says enough with fewer). */
export const MAX_ISSUES = 100;

/**
 * Limits on what a 422 echoes back as `input` (and `ctx`): nesting depth, items per array or
 * object, characters per string. What the client sent can be nested thousands of levels deep or
 * megabytes long; its echo stays small and always serialisable. Values within the limits are
 * echoed exactly.
 */
export const ECHO_LIMITS = { depth: 8, items: 100, chars: 4096 } as const;

function bounded(i: ValidationIssue): ValidationIssue {
  return { ...i, input: boundValue(i.input, ECHO_LIMITS.depth), ctx: boundValue(i.ctx, ECHO_LIMITS.depth) as Record<string, unknown> };
}

/** A copy of `value` within ECHO_LIMITS: deeper levels become "…", longer lists and strings are cut. */
export function boundValue(value: unknown, depth: number = ECHO_LIMITS.depth): unknown {
  if (typeof value === "string") return value.length > ECHO_LIMITS.chars ? `${value.slice(0, ECHO_LIMITS.chars)}…` : value;
  if (value === null || typeof value !== "object") return typeof value === "bigint" || typeof value === "function" || typeof value === "symbol" ? String(value) : value;
  if (depth <= 0) return "…";
  if (Array.isArray(value)) {
    const out = value.slice(0, ECHO_LIMITS.items).map((v) => boundValue(v, depth - 1));
    if (value.length > ECHO_LIMITS.items) out.push(`… ${value.length - ECHO_LIMITS.items} more`);
    return out;
  }
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const key in value as Record<string, unknown>) {
    if (!Object.hasOwn(value, key)) continue;
    if (n++ >= ECHO_LIMITS.items) {
      out["…"] = "more keys";
      break;
    }
    out[key.length > 200 ? `${key.slice(0, 200)}…` : key] = boundValue((value as Record<string, unknown>)[key], depth - 1);
  }
  return out;
}

/** How deeply `value` nests arrays and objects, counted without recursion (stops past `limit`). */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (d + 1 > deepest) deepest = d + 1;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) if (child !== null && typeof child === "object") stack.push([child, d + 1]);
  }
  return deepest;
}
