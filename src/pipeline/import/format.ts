/**
 * The import format, version 1 (docs/import-format.md): which files a directory may hold, the
 * fields of each record type, and the field-level checks (type, required, allowed values) shared
 * by the JSONL and the CSV readers. Record-level checks (references, cross-field rules) live in
 * the importer.
 */
import { CURRENCY_CODES } from "../../market/currencies";
import { isIsoDate } from "../../market/time";
import { LOT_STATUSES, SALE_STATUSES } from "../../market/statuses";

export const FORMAT_NAME = "artmarket-import";
export const FORMAT_VERSION = 1;

export const EVENT_TYPES = ["Life Events", "Major Exhibitions", "Major Publications", "Major Sales"] as const;

export type FieldType = "int" | "number" | "string" | "bool" | "date" | "datetime" | "month" | "list" | "code";

export interface FieldSpec {
  name: string;
  type: FieldType;
  required?: boolean;
  /** Allowed values (strings). */
  values?: readonly string[];
  /** Inclusive lower bound of a number (or `gt`: strictly greater). */
  min?: number;
  gt?: number;
  max?: number;
}

export interface RecordSpec {
  /** File name without extension: `<name>.jsonl` or `<name>.csv`. */
  name: string;
  fields: FieldSpec[];
}

const id = (name = "id"): FieldSpec => ({ name, type: "int", required: true, min: 1, max: 2 ** 53 - 1 });
const ref = (name: string, required = true): FieldSpec => ({ name, type: "int", required, min: 1, max: 2 ** 53 - 1 });
const str = (name: string, required = false): FieldSpec => ({ name, type: "string", required });
const bool = (name: string): FieldSpec => ({ name, type: "bool" });
const price = (name: string): FieldSpec => ({ name, type: "number", min: 0 });
const code = (name: string, required = false): FieldSpec => ({ name, type: "code", required, values: CURRENCY_CODES });

/** Every record type, in the order the importer reads them (references point to earlier ones). */
export const RECORDS = {
  categories: { name: "categories", fields: [id(), str("name", true), str("slug")] },
  materials: { name: "materials", fields: [id(), str("name", true), str("label")] },
  substrates: { name: "substrates", fields: [id(), str("name", true), str("label")] },
  surfaces: { name: "surfaces", fields: [id(), str("name", true), str("label")] },
  damages: { name: "damages", fields: [id(), str("name", true), str("label")] },
  auction_locations: { name: "auction_locations", fields: [id(), str("name", true), str("country", true), code("currency", true)] },
  fx_rates: {
    name: "fx_rates",
    fields: [code("code", true), { name: "day", type: "date", required: true }, { name: "usd_per_unit", type: "number", required: true, gt: 0 }],
  },
  auction_houses: {
    name: "auction_houses",
    fields: [id(), str("name", true), str("slug"), { name: "priority_order", type: "int", min: -(2 ** 31), max: 2 ** 31 - 1 }, bool("is_live"), str("country"), str("city")],
  },
  artists: {
    name: "artists",
    fields: [
      id(),
      str("uid"),
      str("name", true),
      { name: "synonyms", type: "list" },
      str("nationality"),
      { name: "birth", type: "int", min: 1000, max: 2100 },
      { name: "death", type: "int", min: 1000, max: 2100 },
      str("bio"),
      str("long_bio"),
      bool("is_top"),
    ],
  },
  artist_events: {
    name: "artist_events",
    fields: [
      id(),
      ref("artist_id"),
      { name: "date", type: "date", required: true },
      { name: "type", type: "string", required: true, values: EVENT_TYPES },
      str("title", true),
      str("description"),
      bool("visible"),
    ],
  },
  sales: {
    name: "sales",
    fields: [
      id(),
      ref("house_id"),
      str("name", true),
      str("location", true),
      str("country"),
      code("currency"),
      bool("is_online"),
      bool("is_bids_streaming"),
      { name: "status", type: "string", values: SALE_STATUSES },
      { name: "start_datetime", type: "datetime", required: true },
      { name: "end_datetime", type: "datetime" },
    ],
  },
  artworks: {
    name: "artworks",
    fields: [
      id(),
      ref("artist_id"),
      str("uid"),
      str("title", true),
      str("category", true),
      str("medium"),
      { name: "materials", type: "list" },
      str("substrate"),
      { name: "creation_year", type: "int", min: 1000, max: 2100 },
      { name: "height_cm", type: "number", gt: 0 },
      { name: "width_cm", type: "number", gt: 0 },
      { name: "depth_cm", type: "number", gt: 0 },
      bool("signed"),
      ref("edition_group_id", false),
      { name: "edition_number", type: "int", min: 1 },
      { name: "edition_size", type: "int", min: 1 },
    ],
  },
  images: {
    name: "images",
    fields: [
      id(),
      ref("artwork_id", false),
      ref("artist_id", false),
      str("path"),
      { name: "seed", type: "int", min: 0, max: 2 ** 53 - 1 },
      { name: "width", type: "int", min: 1, max: 100_000 },
      { name: "height", type: "int", min: 1, max: 100_000 },
    ],
  },
  lots: {
    name: "lots",
    fields: [
      id(),
      ref("sale_id"),
      ref("artwork_id"),
      str("lot_num", true),
      { name: "lot_seq", type: "int", min: 0, max: 2 ** 31 - 1 },
      { name: "status", type: "string", required: true, values: LOT_STATUSES },
      code("currency"),
      price("hammer"),
      price("estimate_min"),
      price("estimate_max"),
      price("premium"),
      bool("is_top"),
      bool("reserve_mark"),
      bool("third_party_mark"),
      str("notes"),
    ],
  },
  benchmarks: {
    name: "benchmarks",
    fields: [str("series", true), { name: "month", type: "month", required: true }, { name: "value", type: "number", required: true }, str("label"), bool("synthetic")],
  },
} satisfies Record<string, RecordSpec>;

export type RecordName = keyof typeof RECORDS;
export const RECORD_ORDER = Object.keys(RECORDS) as RecordName[];
export const VOCABULARIES = ["categories", "materials", "substrates", "surfaces", "damages"] as const;
export type Vocabulary = (typeof VOCABULARIES)[number];

export type Value = string | number | boolean | string[];
export type Row = Record<string, Value | undefined>;
export type Parsed = { ok: true; row: Row } | { ok: false; reason: string };

const DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** ISO 8601 date-time to the stored form `YYYY-MM-DDTHH:MM:SSZ` (UTC); null when it is not one. */
export function normaliseDatetime(s: string): string | null {
  const m = DATETIME.exec(s);
  if (!m || !isIsoDate(m[1]!)) return null;
  const hh = Number(m[2] ?? 0);
  const mm = Number(m[3] ?? 0);
  const ss = Number(m[4] ?? 0);
  if (hh > 23 || mm > 59 || ss > 59) return null;
  let offset = 0;
  const zone = m[6];
  if (zone && zone !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 14 || om > 59) return null;
    offset = sign * (oh * 60 + om);
  }
  const ms = Date.parse(`${m[1]}T00:00:00Z`) + ((hh * 60 + mm - offset) * 60 + ss) * 1000;
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

const describe = (v: unknown): string => {
  const s = typeof v === "string" ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/**
 * Checks one field. `raw` is a JSON value (JSONL) or a string (CSV: `fromText`); returns the typed
 * value, undefined when absent, or an error string.
 */
function parseField(f: FieldSpec, raw: unknown, fromText: boolean): { value?: Value; error?: string } {
  if (raw === undefined || raw === null || (fromText && raw === "")) return {};
  const bad = (what: string) => ({ error: `${f.name}: ${what}, got ${describe(raw)}` });
  let value: Value;
  switch (f.type) {
    case "int":
    case "number": {
      let n: number;
      if (typeof raw === "number") n = raw;
      else if (fromText && typeof raw === "string" && /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(raw)) n = Number(raw);
      else return bad(f.type === "int" ? "expected an integer" : "expected a number");
      if (!Number.isFinite(n)) return bad("expected a finite number");
      if (f.type === "int" && !Number.isInteger(n)) return bad("expected an integer");
      if (f.min !== undefined && n < f.min) return bad(f.min === 0 ? "must not be negative" : `must be at least ${f.min}`);
      if (f.gt !== undefined && !(n > f.gt)) return bad(`must be greater than ${f.gt}`);
      if (f.max !== undefined && n > f.max) return bad(`must be at most ${f.max}`);
      value = n;
      break;
    }
    case "bool":
      if (typeof raw === "boolean") value = raw;
      else if (fromText && typeof raw === "string" && /^(true|1)$/i.test(raw.trim())) value = true;
      else if (fromText && typeof raw === "string" && /^(false|0)$/i.test(raw.trim())) value = false;
      else return bad("expected true or false");
      break;
    case "list": {
      let items: unknown[];
      if (Array.isArray(raw)) items = raw;
      else if (fromText && typeof raw === "string") items = raw.split("|");
      else return bad('expected an array of strings (in CSV: values separated by "|")');
      const out: string[] = [];
      for (const it of items) {
        if (typeof it !== "string") return bad("expected an array of strings");
        if (it.includes("|")) return bad('an item must not contain "|"');
        const t = it.trim();
        if (t) out.push(t);
      }
      value = out;
      break;
    }
    default: {
      // string-like types; a lot number may come as a JSON number
      let s: string;
      if (typeof raw === "string") s = raw;
      else if (f.name === "lot_num" && typeof raw === "number" && Number.isInteger(raw) && raw >= 0) s = String(raw);
      else return bad("expected a string");
      if (f.type === "date") {
        if (!isIsoDate(s)) return bad("expected a date YYYY-MM-DD");
      } else if (f.type === "month") {
        if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(s)) return bad("expected a month YYYY-MM");
      } else if (f.type === "datetime") {
        const n = normaliseDatetime(s.trim());
        if (n === null) return bad("expected an ISO 8601 date-time, e.g. 2024-05-14T18:00:00Z");
        s = n;
      } else if (f.type === "code") {
        s = s.trim().toUpperCase();
      }
      if (f.values && !f.values.includes(s)) return bad(`must be one of ${f.values.join(", ")}`);
      if (f.required && s.trim() === "") return { error: `${f.name}: required, must not be empty` };
      value = s;
    }
  }
  return { value };
}

/** Field-level checks of one record (JSON object, or a CSV row of strings keyed by the header). */
export function parseRecord(spec: RecordSpec, input: unknown, fromText: boolean): Parsed {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { ok: false, reason: "not a JSON object" };
  const obj = input as Record<string, unknown>;
  const row: Row = {};
  for (const f of spec.fields) {
    const r = parseField(f, obj[f.name], fromText);
    if (r.error) return { ok: false, reason: r.error };
    if (r.value === undefined) {
      if (f.required) return { ok: false, reason: `${f.name}: required` };
      continue;
    }
    row[f.name] = r.value;
  }
  return { ok: true, row };
}

export interface Manifest {
  format: typeof FORMAT_NAME;
  version: typeof FORMAT_VERSION;
  as_of: string;
}
