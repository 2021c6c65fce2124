/**
 * The import directory: its manifest.json (read and checked) and the record files it holds.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isIsoDate } from "../../market/time";
import { FORMAT_NAME, FORMAT_VERSION, RECORDS, type RecordName } from "./format";
import { ImportError } from "./types";

export function readManifest(from: string): { asOf: string } {
  const path = join(from, "manifest.json");
  if (!existsSync(path)) throw new ImportError(`${path} is missing: an import directory starts with a manifest.json`);
  let m: unknown;
  try {
    m = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new ImportError(`manifest.json is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof m !== "object" || m === null || Array.isArray(m)) throw new ImportError("manifest.json must be a JSON object");
  const o = m as Record<string, unknown>;
  if (o.format !== FORMAT_NAME) throw new ImportError(`manifest.json: format must be "${FORMAT_NAME}", got ${JSON.stringify(o.format)}`);
  if (o.version !== FORMAT_VERSION) throw new ImportError(`manifest.json: version ${JSON.stringify(o.version)} is not supported (this build reads version ${FORMAT_VERSION})`);
  if (typeof o.as_of !== "string" || !isIsoDate(o.as_of) || o.as_of < "1990-01-01") {
    throw new ImportError(`manifest.json: as_of must be a date YYYY-MM-DD from 1990 on, got ${JSON.stringify(o.as_of)}`);
  }
  return { asOf: o.as_of };
}

/** The record files present: name → path (JSONL or CSV; both for one type is an error). */
export function discoverFiles(from: string): Map<RecordName, { path: string; csv: boolean }> {
  const found = new Map<RecordName, { path: string; csv: boolean }>();
  for (const name of Object.keys(RECORDS) as RecordName[]) {
    const jsonl = join(from, `${name}.jsonl`);
    const csv = join(from, `${name}.csv`);
    const hasJsonl = existsSync(jsonl);
    const hasCsv = existsSync(csv);
    if (hasJsonl && hasCsv) throw new ImportError(`both ${name}.jsonl and ${name}.csv are present: keep one`);
    if (hasJsonl) found.set(name, { path: jsonl, csv: false });
    else if (hasCsv) found.set(name, { path: csv, csv: true });
  }
  return found;
}
