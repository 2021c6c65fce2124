/**
 * What every phase of a whole market's derivation reads (DeriveContext): the options it was given,
 * the months, the hedonic features (the media with a one-hot of their own) and the market's counts.
 */
import type { Database } from "bun:sqlite";
import { addDays } from "../../market/time";
import { FIRST_YEAR, monthIndex } from "../../market/calendar";
import { FeatureSpace, mediumKey, SaleTimes } from "./artist";

/** A medium (category, first material, substrate) with this many works or more gets a hedonic one-hot of its own. */
export const MEDIUM_MIN_WORKS = 200;

/** The media are counted over this many works at most (the table's first rows). */
export const MEDIUM_SAMPLE_WORKS = 200_000;

export interface DeriveOptions {
  asOf: string;
  /** Variance of the monthly step of an artist's own index around the market (log²). */
  processVar?: number;
  /** Lots sampled for the hedonic regression (at most). */
  hedonicSample?: number;
  onProgress?: (phase: string, done: number, total: number) => void;
  /**
   * Worker threads for pass 2 (each artist on its own is independent given the model). Default:
   * defaultDeriveThreads: for a market of PARALLEL_MIN_ARTISTS artists or more, one per CPU but
   * one from PARALLEL_MIN_CPUS CPUs, one per CPU on 2 or 3 CPUs with PARALLEL_MIN_SOLD sold lots
   * or more, else none (this thread). The rows are the same for
   * any number.
   */
  workers?: number;
  /**
   * The connection every read goes through until the first write (pass 1, the calibration, the
   * pages of artists): default `db`. An immutable reader on the snapshot (openSnapshotReader)
   * while another connection builds indexes (src/pipeline/db/index-builder.ts): `db` then stays idle,
   * holding no lock, until `beforeWrite` has resolved.
   */
  reader?: Database;
  /** Awaited before the first write on `db` (an index builder beside the derivation stops there). */
  beforeWrite?: () => Promise<void>;
}

/** What every phase reads: the connections and options, the months, the hedonic features and the market's counts. */
export interface DeriveContext {
  db: Database;
  /** The connection every read goes through until the first write (DeriveOptions.reader, else db). */
  src: Database;
  options: DeriveOptions;
  progress: (phase: string, done: number, total: number) => void;
  months: number;
  /** The last month (months − 1). */
  T: number;
  /** The hedonic model's sale years, from FIRST_YEAR to the as-of date's. */
  yearCount: number;
  oneYearAgo: string;
  categories: number;
  materials: number;
  /** The media with a hedonic one-hot of their own. */
  mediaKeys: string[];
  space: FeatureSpace;
  /** The hedonic features (space.size), before the year effects. */
  K: number;
  artistCount: number;
  /** Sold lots with a hammer. */
  soldCount: number;
  /** Lots store their sale's start as Unix seconds, read as ISO text through this. */
  saleTimes: SaleTimes;
}

export function deriveContext(db: Database, options: DeriveOptions): DeriveContext {
  const months = monthIndex(options.asOf) + 1;
  const asOfYear = Number(options.asOf.slice(0, 4));
  const src = options.reader ?? db;
  const categories = (src.query("SELECT count(*) AS n FROM categories").get() as { n: number }).n;
  const materials = (src.query("SELECT count(*) AS n FROM materials").get() as { n: number }).n;
  // media (category, first material, substrate) with MEDIUM_MIN_WORKS works or more among the
  // first MEDIUM_SAMPLE_WORKS: a one-hot of their own in the hedonic features, since a material's
  // effect may differ by category and substrate (oil on canvas or on panel, ceramic sculpture or
  // tableware)
  const mediumCounts = new Map<string, number>();
  for (const r of src
    .query(
      `SELECT category_id AS c, material_ids AS m, substrate_id AS s, count(*) AS n
       FROM (SELECT category_id, material_ids, substrate_id FROM src_artworks LIMIT ${MEDIUM_SAMPLE_WORKS}) GROUP BY 1, 2, 3`,
    )
    .all() as { c: number; m: string; s: number | null; n: number }[]) {
    const k = mediumKey(r.c, r.m, r.s);
    mediumCounts.set(k, (mediumCounts.get(k) ?? 0) + r.n);
  }
  const mediaKeys = [...mediumCounts]
    .filter(([, n]) => n >= MEDIUM_MIN_WORKS)
    .map(([k]) => k)
    .sort();
  const space = new FeatureSpace(categories, materials, mediaKeys);
  const artistCount = (src.query("SELECT count(*) AS n FROM src_artists").get() as { n: number }).n;
  const soldCount = (src.query("SELECT count(*) AS n FROM lots WHERE status = 'sold' AND hammer_usd_cents > 0").get() as { n: number }).n;
  return {
    db,
    src,
    options,
    progress: options.onProgress ?? (() => {}),
    months,
    T: months - 1,
    yearCount: asOfYear - FIRST_YEAR + 1,
    oneYearAgo: addDays(options.asOf, -365),
    categories,
    materials,
    mediaKeys,
    space,
    K: space.size,
    artistCount,
    soldCount,
    saleTimes: new SaleTimes(),
  };
}
