/**
 * multipart/form-data (and application/x-www-form-urlencoded, or a JSON object of the text fields) request bodies for the endpoint
 * pipeline: an endpoint declares `form: { fields, files }` (src/serve/http/endpoint.ts) and gets its text
 * fields validated against a TypeBox object schema, like a JSON body (422 at loc ["body", field]),
 * and its file parts as `{ field, name, type, bytes }`.
 *
 * The whole request body is capped (FormSpec.maxBytes, default MAX_FORM_BYTES; a JSON object at
 * MAX_JSON_BYTES, as on every JSON route): a Content-Length above the cap is refused before
 * anything is read, and a body without one (chunked) is read up to the cap and refused beyond it;
 * both are 413. The parts themselves are split by Bun's own parser.
 *
 * Text fields arrive as strings and are converted as the schema asks before validation: integers
 * must be written as integers ("5", not "5.5"), numbers as finite decimals, booleans as
 * true/false/1/0/yes/no/on/off; an array property takes every value of a repeated field, each
 * possibly comma-separated (as list parameters do). A single-valued field sent twice keeps the
 * last value (as the query grammar does).
 */
import type { TObject, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { fromSchemaErrors, HttpError, issue, nestingDepth, ValidationFailed, type ValidationIssue } from "./errors";

/** Deepest nesting of arrays and objects a JSON body may have (a document nested deeper is a 422). */
export const MAX_JSON_DEPTH = 32;

/** The 422 for a JSON document nested deeper than MAX_JSON_DEPTH. */
export function tooDeep(): ValidationFailed {
  return new ValidationFailed([issue.custom(["body"], null, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, "json_too_deep", { max_depth: MAX_JSON_DEPTH })]);
}

/** Default cap on a whole form request: an upload of MAX_UPLOAD_BYTES (src/serve/images/upload.ts) plus room for the fields. */
export const MAX_FORM_BYTES = 21 * 1024 * 1024;

/** Cap on a JSON request body, on every route (a form route's JSON object too). */
export const MAX_JSON_BYTES = 1024 * 1024;

/** Media types a form endpoint accepts. */
export const FORM_MEDIA_TYPES = ["multipart/form-data", "application/x-www-form-urlencoded"] as const;
/* A JSON object is accepted too (its values as the text fields); an empty body is an empty form. */

/** One uploaded file part. */
export interface FilePart {
  /** The form field it was sent under. */
  field: string;
  /** The file name the client gave (may be empty). */
  name: string;
  /** The content type the client declared (not trusted: sniff the bytes, see src/serve/images/upload.ts). */
  type: string;
  bytes: Uint8Array;
}

export interface FileDecl {
  required?: boolean;
  description?: string;
  /** Media types documented for the part (OpenAPI encoding); not enforced here. */
  accept?: readonly string[];
}

export interface FormSpec {
  /** The text fields: an object schema (properties optional or required as usual). */
  fields: TObject;
  /** File parts by field name. A file part under any other name is a 422. */
  files?: Readonly<Record<string, FileDecl>>;
  /** Cap on the whole request body in bytes (default MAX_FORM_BYTES); beyond it, 413. */
  maxBytes?: number;
}

export interface ParsedForm {
  /** The validated (converted) text fields. */
  fields: Record<string, unknown>;
  /** The file parts, at most one per declared name. */
  files: Record<string, FilePart>;
}

const tooLarge = (max: number) => new HttpError(413, `Request body larger than ${max} bytes`);

/** A body stream read whole, throwing `tooLarge()` (after cancelling the stream) once it passes `max` bytes. */
export async function readStreamCapped(
  body: ReadableStream<Uint8Array> | null,
  max: number,
  tooLarge: () => Error,
  /** Called with each chunk's size before it is kept; what it throws ends the read (the stream is cancelled). */
  onChunk?: (bytes: number) => void,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    if (onChunk) {
      try {
        onChunk(value.byteLength);
      } catch (err) {
        await reader.cancel().catch(() => {});
        throw err;
      }
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) out.set(c, o), (o += c.byteLength);
  return out;
}

/** The request body as bytes, refusing (413) anything beyond `max` bytes, before or while reading. */
export async function readCappedBody(request: Request, max: number, onChunk?: (bytes: number) => void): Promise<Uint8Array> {
  refuseDeclaredOver(request, max);
  return readStreamCapped(request.body, max, () => tooLarge(max), onChunk);
}

/** 413 at once when the request's Content-Length says its body is larger than `max` bytes. */
export function refuseDeclaredOver(request: Request, max: number): void {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > max) throw tooLarge(max);
}

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

const BOOL_TRUE = new Set(["true", "1", "yes", "on"]);
const BOOL_FALSE = new Set(["false", "0", "no", "off"]);

/** The JSON types a property schema admits (through unions), in order. */
function typesOf(schema: TSchema): string[] {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).flatMap(typesOf);
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  return [];
}

/** A text value converted to what the schema asks for; left as the string when it does not convert (validation then reports it). */
function convert(schema: TSchema, raw: string): unknown {
  for (const type of typesOf(schema)) {
    const t = raw.trim();
    if (type === "integer" && /^[+-]?\d+$/.test(t) && Number.isSafeInteger(Number(t))) return Number(t);
    if (type === "number" && t !== "" && Number.isFinite(Number(t))) return Number(t);
    if (type === "boolean" && BOOL_TRUE.has(t.toLowerCase())) return true;
    if (type === "boolean" && BOOL_FALSE.has(t.toLowerCase())) return false;
    if (type === "string") return raw;
  }
  return raw;
}

/**
 * A JSON object sent instead of a form (no files possible): its values become the text fields
 * (arrays stay repeated values, numbers and booleans their text), then the same conversion and
 * validation apply.
 */
function jsonFields(bytes: Uint8Array): Map<string, string[]> {
  const raw = new TextDecoder().decode(bytes);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new ValidationFailed([issue.custom(["body"], raw.slice(0, 200), `JSON decode error: ${(err as Error).message}`, "json_invalid")]);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationFailed([issue.custom(["body"], value, "Input should be a valid dictionary or object", "dict_type")]);
  }
  if (nestingDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw tooDeep();
  const text = new Map<string, string[]>();
  const scalar = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    text.set(k, Array.isArray(v) ? v.map(scalar) : [scalar(v)]);
  }
  return text;
}

/** Splits the body into text values and file parts (415 for another media type, 422 when malformed). */
async function splitParts(request: Request, bytes: Uint8Array): Promise<{ text: Map<string, string[]>; files: Map<string, FilePart[]> }> {
  const contentType = request.headers.get("content-type");
  const media = mediaType(contentType);
  const text = new Map<string, string[]>();
  const files = new Map<string, FilePart[]>();
  // no body at all (every input in the query string): an empty form, whatever the Content-Type
  if (bytes.byteLength === 0) return { text, files };
  if (media === "application/json") return { text: jsonFields(bytes), files };
  if (!(FORM_MEDIA_TYPES as readonly string[]).includes(media)) {
    throw new HttpError(415, `Content-Type must be multipart/form-data, application/x-www-form-urlencoded or application/json (got ${media || "none"})`);
  }
  let entries: [string, string | Blob][];
  try {
    const form = await new Response(bytes, { headers: { "content-type": contentType! } }).formData();
    entries = [...(form as unknown as Iterable<[string, string | Blob]>)];
  } catch (err) {
    throw new ValidationFailed([issue.custom(["body"], null, `Malformed ${media} body: ${(err as Error).message}`, "value_error", { content_type: media })]);
  }
  for (const [name, value] of entries) {
    if (typeof value === "string") {
      (text.get(name) ?? text.set(name, []).get(name)!).push(value);
      continue;
    }
    const file = value as File;
    // a form's empty file input arrives as a part with no file name and no bytes: nothing was chosen
    if (file.size === 0 && !file.name) continue;
    const part: FilePart = { field: name, name: file.name ?? "", type: file.type ?? "", bytes: new Uint8Array(await file.arrayBuffer()) };
    (files.get(name) ?? files.set(name, []).get(name)!).push(part);
  }
  return { text, files };
}

/** The cap on a form route's body: the form's, or MAX_JSON_BYTES when the body is a JSON object (no file can come with it). */
export function formBodyCap(request: Request, spec: FormSpec): number {
  const max = spec.maxBytes ?? MAX_FORM_BYTES;
  return mediaType(request.headers.get("content-type")) === "application/json" ? Math.min(max, MAX_JSON_BYTES) : max;
}

/**
 * Reads and validates a form body against its spec. 415 when the body is not a form, 413 when it
 * is larger than the cap, 422 (every issue at once) for invalid fields, missing or unexpected files.
 */
export async function readForm(request: Request, spec: FormSpec, onChunk?: (bytes: number) => void): Promise<ParsedForm> {
  const max = formBodyCap(request, spec);
  const bytes = await readCappedBody(request, max, onChunk);
  const { text, files } = await splitParts(request, bytes);
  const declaredFiles = spec.files ?? {};
  const properties = (spec.fields.properties ?? {}) as Record<string, TSchema>;
  const issues: ValidationIssue[] = [];

  // Field names are the client's: only own properties of the declarations count (a field named
  // __proto__ or constructor is an unknown field), and the fields are kept on objects without a
  // prototype, so that every name is an own property that validation sees.
  const isFile = (name: string) => Object.hasOwn(declaredFiles, name);
  const raw: Record<string, unknown> = Object.create(null);
  const converted: Record<string, unknown> = Object.create(null);
  for (const [name, values] of text) {
    // a JSON object may give any field an empty list: it is validated as that list
    const last: unknown = values.length ? values.at(-1) : values;
    if (isFile(name)) {
      issues.push(issue.custom(["body", name], last, "Expected a file upload, got a text field", "value_error"));
      continue;
    }
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!schema) {
      // unknown text fields are passed on as text (an additionalProperties: false schema refuses them)
      raw[name] = converted[name] = last;
      continue;
    }
    if (typesOf(schema).includes("array")) {
      const items = (schema.items ?? {}) as TSchema;
      const list = values
        .flatMap((v) => v.split(","))
        .map((v) => v.trim())
        .filter((v) => v !== "");
      raw[name] = list;
      converted[name] = list.map((v) => convert(items, v));
    } else {
      raw[name] = last;
      converted[name] = typeof last === "string" ? convert(schema, last) : last;
    }
  }

  const out: Record<string, FilePart> = {};
  for (const [name, parts] of files) {
    if (!isFile(name)) {
      issues.push(
        issue.custom(["body", name], parts[0]!.name, Object.hasOwn(properties, name) ? "Expected a text field, got a file" : "Unexpected file part", "value_error", {
          ...(Object.keys(declaredFiles).length > 0 && { expected: Object.keys(declaredFiles) }),
        }),
      );
      continue;
    }
    if (parts.length > 1) {
      issues.push(
        issue.custom(
          ["body", name],
          parts.map((p) => p.name),
          "Expected one file, got several",
          "value_error",
          { max_files: 1 },
        ),
      );
      continue;
    }
    out[name] = parts[0]!;
  }
  for (const [name, decl] of Object.entries(declaredFiles)) {
    if (decl.required && !files.has(name) && !text.has(name)) issues.push(issue.missing(["body", name]));
  }

  if (!Value.Check(spec.fields, converted)) {
    const errors = [...Value.Errors(spec.fields, converted)].map((e) => {
      const segments = e.path.split("/").filter(Boolean);
      let sent: unknown = raw;
      for (const s of segments) sent = sent != null && typeof sent === "object" ? (sent as Record<string, unknown>)[s] : undefined;
      return { path: e.path, value: e.value, message: e.message, schema: e.schema as Record<string, unknown>, sent };
    });
    issues.push(...fromSchemaErrors("body", errors, converted));
  }
  if (issues.length) throw new ValidationFailed(issues);
  return { fields: converted, files: out };
}
