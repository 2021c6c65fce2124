/**
 * What an import is given (ImportOptions) and gives back (ImportSummary), and the error it fails
 * with (ImportError): shared by run.ts, merge.ts and importer.ts.
 */
import type { TouchedSummary } from "../derive/touched";
import type { EmbedMarketSummary } from "../images/embed-market";

export type ImportMode = "replace" | "merge";

export interface ImportOptions {
  dataDir: string;
  /** The import directory (manifest.json and the record files). */
  from: string;
  mode?: ImportMode;
  quiet?: boolean;
  /** Called as each phase starts (a file name such as "lots.jsonl", or a step of the build). */
  onPhase?: (name: string) => void;
  /** Embed the images and build the vector indexes (default true; tests that never read them may skip it). */
  embed?: boolean;
  /** A merge derives the whole market again (the model refitted) rather than what its records touch. */
  refit?: boolean;
}

export interface FileSummary {
  file: string;
  accepted: number;
  rejected: number;
}

export interface ImportSummary {
  from: string;
  mode: ImportMode;
  asOf: string;
  files: FileSummary[];
  accepted: number;
  rejected: number;
  /** Rows of the source tables of the new market. */
  counts: Record<string, number>;
  estimated: number;
  pairs: number;
  /** The image embeddings (null when skipped, or an incremental merge: the vectors stay). */
  embed: EmbedMarketSummary | null;
  /** How the snapshot was derived: `incremental` (a merge, what it touched) or `full`, and for a merge derived whole, why. */
  derivation: { kind: "incremental"; summary: TouchedSummary } | { kind: "full"; reason: string | null };
  /** The report of rejected records; null when none was rejected. */
  reportPath: string | null;
  /** Reading and checking the files, seconds; records (accepted and rejected) per second. */
  loadSeconds: number;
  rowsPerSecond: number;
  seconds: number;
  bytes: number;
  path: string;
}

/** A structural failure: nothing is replaced. */
export class ImportError extends Error {}
