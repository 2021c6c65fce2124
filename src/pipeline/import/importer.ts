/**
 * The records' checker and loader (Importer): every record file streamed, each record checked
 * against the rules and the records read before it, and written (upserted in a merge), or
 * rejected into the report; with what only it uses (id sets, vocabulary lookups, the lot's
 * derived columns and upsert) and the built-in vocabularies.
 */
import type { Database, Statement } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { defaultArtworkUid } from "../../db/artwork-uid";
import { latestRate, usdCents } from "../../db/fx";
import { valueRows } from "../../db/sql";
import { fillWorksFrom } from "../db/works-file";
import { deferIndexes } from "../derive/snapshot";
import { loadSharp } from "../../platform/native";
import type { Progress } from "../progress";
import { slugify } from "../../market/slug";
import { CURRENCIES } from "../../market/currencies";
import { FIRST_YEAR } from "../../market/calendar";
import { TOP_LOT_MIN_ESTIMATE_USD } from "../../market/lots";
import { CATEGORIES, DAMAGES, LOCATIONS, MATERIALS, SUBSTRATES, SURFACES } from "../seed/reference";
import { epochSeconds } from "../../market/time";
import { parseRecord, RECORDS, VOCABULARIES, type RecordName, type RecordSpec, type Row, type Vocabulary } from "./format";
import { forEachCsvRecord, forEachLine } from "./reader";
import type { Report } from "./report";
import { type FileSummary, ImportError, type ImportMode } from "./types";

/** A rejected record: its reason. */
type Verdict = string | undefined;

const BUILTIN_VOCABULARIES: Record<Vocabulary, readonly string[]> = {
  categories: CATEGORIES,
  materials: MATERIALS,
  substrates: SUBSTRATES,
  surfaces: SURFACES,
  damages: DAMAGES,
};

/** The built-in vocabulary rows, as the seed writes them. */
export function builtinVocabulary(v: Vocabulary): { id: number; name: string; second: string }[] {
  return BUILTIN_VOCABULARIES[v].map((w, i) =>
    v === "categories" ? { id: i + 1, name: w, second: slugify(w) } : { id: i + 1, name: slugify(w).replace(/-/g, "_"), second: w[0]!.toUpperCase() + w.slice(1) },
  );
}

/** Source tables of a market (copied whole in merge mode), in a fixed order. */
export const SOURCE_TABLES = [
  "auction_locations",
  "categories",
  "materials",
  "substrates",
  "surfaces",
  "damages",
  "fx_rates",
  "auction_houses",
  "src_artists",
  "artist_events",
  "src_sales",
  "src_artworks",
  "images",
  "lot_notes",
  "lots",
  "benchmark_series",
  "benchmarks",
] as const;

/**
 * Notes texts an import remembers (with their lot_notes ids), about 100 MB at most: a market's
 * notes repeat a few phrases, so each is stored once; a file of mostly distinct notes past this
 * many gives each further text a row of its own (correct, only not shared).
 */
const NOTE_TEXTS_KEPT = 1_000_000;

/** Integer ids seen in this import: a bit set (a Set beyond 2^28). */
class IdSet {
  private bits = new Uint8Array(1 << 12);
  private readonly big = new Set<number>();
  has(id: number): boolean {
    if (id >= 2 ** 28) return this.big.has(id);
    const byte = id >>> 3;
    return byte < this.bits.length && (this.bits[byte]! & (1 << (id & 7))) !== 0;
  }
  add(id: number): void {
    if (id >= 2 ** 28) {
      this.big.add(id);
      return;
    }
    const byte = id >>> 3;
    if (byte >= this.bits.length) {
      let size = this.bits.length;
      while (size <= byte) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.bits);
      this.bits = next;
    }
    this.bits[byte]! |= 1 << (id & 7);
  }
}

interface SaleInfo {
  houseId: number;
  locationId: number;
  currency: string;
  status: string;
  start: string;
  /** `start` as Unix seconds, what a lot stores (computed on first use). */
  startSeconds?: number;
}

const norm = (s: string) => slugify(s).replace(/-/g, "_");

/** Looks a vocabulary word up by its name, label or slug, in any case. */
class Lookup {
  private readonly map = new Map<string, number>();
  add(id: number, ...keys: string[]): void {
    for (const k of keys) {
      if (!k) continue;
      if (!this.map.has(k.toLowerCase())) this.map.set(k.toLowerCase(), id);
      if (!this.map.has(norm(k))) this.map.set(norm(k), id);
    }
  }
  get(word: string): number | undefined {
    return this.map.get(word.trim().toLowerCase()) ?? this.map.get(norm(word));
  }
}

/** A lots record that passed every rule (Importer.checkLot), with the sale and the work it names. */
interface CheckedLot {
  id: number;
  saleId: number;
  sale: SaleInfo;
  artworkId: number;
  work: { artist_id: number; creation_year: number | null };
  /** The lot number, trimmed. */
  lotNum: string;
  /** The record's own lot_seq, if it has one. */
  lotSeq: number | undefined;
  status: string;
  hammer: number | undefined;
  premium: number | undefined;
  estMin: number | undefined;
  estMax: number | undefined;
  /** The record's currency, else its sale's. */
  currency: string;
  /** USD per unit of `currency` on the sale's day. */
  rate: number;
  /** The record's own is_top, if it has one. */
  isTop: boolean | undefined;
  reserveMark: boolean;
  thirdPartyMark: boolean;
  notes: string;
}

/** The columns of a lot computed from its record (lotDerived). */
interface LotDerived {
  lotSeq: number;
  hammerUsdCents: number | null;
  estimateMinUsdCents: number | null;
  estimateMaxUsdCents: number | null;
  premiumUsdCents: number | null;
  isTop: boolean;
}

/**
 * A checked lot's derived columns: its sequence (the record's, else the lot number's leading
 * digits, else 0), its amounts in US cents at the sale day's rate, and whether it is a top lot
 * (the record's flag, else a high estimate of TOP_LOT_MIN_ESTIMATE_USD, USD 250,000, or more).
 */
function lotDerived(lot: CheckedLot): LotDerived {
  const lead = /^\d+/.exec(lot.lotNum);
  const usd = (x: number | undefined) => (x === undefined ? null : usdCents(x, lot.rate));
  const estimateMaxUsdCents = usd(lot.estMax);
  return {
    lotSeq: lot.lotSeq ?? (lead ? Math.min(2 ** 31 - 1, Number(lead[0])) : 0),
    hammerUsdCents: usd(lot.hammer),
    estimateMinUsdCents: usd(lot.estMin),
    estimateMaxUsdCents,
    premiumUsdCents: usd(lot.premium),
    isTop: lot.isTop ?? (estimateMaxUsdCents !== null && estimateMaxUsdCents >= TOP_LOT_MIN_ESTIMATE_USD * 100),
  };
}

/** One row of `lots`, its 25 columns in the table's order. */
type LotValues = [
  id: number,
  saleId: number,
  artworkId: number,
  artistId: number,
  houseId: number,
  lotNum: string,
  lotSeq: number,
  status: string,
  saleStatus: string,
  saleDatetime: number,
  locationId: number,
  creationYear: number | null,
  isTop: number,
  reserveMark: number,
  thirdPartyMark: number,
  currency: string,
  hammer: number | null,
  estimateMin: number | null,
  estimateMax: number | null,
  premium: number | null,
  hammerUsdCents: number | null,
  estimateMinUsdCents: number | null,
  estimateMaxUsdCents: number | null,
  premiumUsdCents: number | null,
  notesId: number | null,
];

/** Inserts a lot, or replaces every column of the lot of its id (a merge). */
function lotUpsert(db: Database): (values: LotValues) => void {
  const stmt = db.prepare<unknown, LotValues>(
    `INSERT INTO lots (id, sale_id, artwork_id, artist_id, house_id, lot_num, lot_seq, status, sale_status, sale_datetime,
       location_id, creation_year, is_top, reserve_mark, third_party_mark, currency, hammer, estimate_min, estimate_max, premium,
       hammer_usd_cents, estimate_min_usd_cents, estimate_max_usd_cents, premium_usd_cents, notes_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET sale_id = excluded.sale_id, artwork_id = excluded.artwork_id, artist_id = excluded.artist_id,
       house_id = excluded.house_id, lot_num = excluded.lot_num, lot_seq = excluded.lot_seq, status = excluded.status,
       sale_status = excluded.sale_status, sale_datetime = excluded.sale_datetime, location_id = excluded.location_id,
       creation_year = excluded.creation_year, is_top = excluded.is_top, reserve_mark = excluded.reserve_mark,
       third_party_mark = excluded.third_party_mark, currency = excluded.currency, hammer = excluded.hammer,
       estimate_min = excluded.estimate_min, estimate_max = excluded.estimate_max, premium = excluded.premium,
       hammer_usd_cents = excluded.hammer_usd_cents, estimate_min_usd_cents = excluded.estimate_min_usd_cents,
       estimate_max_usd_cents = excluded.estimate_max_usd_cents, premium_usd_cents = excluded.premium_usd_cents, notes_id = excluded.notes_id`,
  );
  return (values) => {
    stmt.run(...values);
  };
}

/** Lots a merge priced again with no other change (refreshLots): announced ones (id, new / old rate, artist) and the others' ids. */
interface Repriced {
  upcoming: [number, number, number][];
  other: number[];
}

interface ImporterContext {
  dataDir: string;
  from: string;
  asOf: string;
  mode: ImportMode;
  /** A merge into a copy of the current snapshot (its source tables already there): derivation of what it touches. */
  incremental?: boolean;
  report: Report;
  createdImages: string[];
  files: Map<RecordName, { path: string; csv: boolean }>;
  progress: Progress;
  summaries: FileSummary[];
}

/** fx_rates rows written per INSERT. */
const RATES_PER_INSERT = 200;

/** A currency's rates by day in `rates` (made empty when it has none yet). */
function daysOf<V>(rates: Map<string, Map<string, V>>, currency: string): Map<string, V> {
  let days = rates.get(currency);
  if (!days) rates.set(currency, (days = new Map()));
  return days;
}

export class Importer {
  private readonly asOfYear: number;
  private readonly nowIso: string;
  /**
   * This import's rates, by currency then day. (Two levels, not one key of code and day: a key made
   * by concatenation is hashed anew on every look-up, and a 240,000-rate file took 0.3 s in these
   * maps alone.)
   */
  private readonly fx = new Map<string, Map<string, number>>();
  /**
   * A merge's market rates as looked up (null: none that day), by currency then day: read from
   * the new file's fx_rates (the market's, with this import's written so far) when a record needs
   * one, not read whole first (240,000 rates, 0.1–0.15 s of every merge). This import's own win.
   */
  private readonly marketFx = new Map<string, Map<string, number | null>>();
  /** The days of each currency this import gave a rate: a second one is a duplicate. */
  private readonly fxSeen = new Map<string, Set<string>>();
  /** The rates read and not written yet: code, day, rate, … (writeRates). */
  private ratesToWrite: (string | number)[] = [];
  /** Per currency, the first day of a rate this import brought (the lots priced from it on may change). */
  private readonly fxFrom = new Map<string, string>();
  /** Per currency, its latest rate on or before the as-of date (null: none; found on first use, forgotten when a rate is read). */
  private latestFx = new Map<string, number | null>();
  private readonly sales = new Map<number, SaleInfo>();
  /** lot_notes ids by text (at most NOTE_TEXTS_KEPT texts; past that a new text gets a row of its own each time). */
  private readonly noteIds = new Map<string, number>();
  private nextNoteId = 1;
  private readonly seen: Record<string, IdSet> = {};
  private readonly categories = new Lookup();
  private readonly materials = new Lookup();
  private readonly substrates = new Lookup();
  private readonly locations = new Map<string, { id: number; name: string; currency: string }>();
  private nextLocationId = 1;
  private readonly seriesSeen = new Set<string>();
  private readonly benchSeen = new Set<string>();
  private pending = 0;
  private artworkOf?: Statement<{ artist_id: number; creation_year: number | null }, [number]>;
  private upsertLot?: (values: LotValues) => void;
  private insertNote?: Statement;

  constructor(
    private readonly db: Database,
    private readonly ctx: ImporterContext,
  ) {
    this.asOfYear = Number(ctx.asOf.slice(0, 4));
    this.nowIso = `${ctx.asOf}T12:00:00Z`;
  }

  private ids(name: string): IdSet {
    return (this.seen[name] ??= new IdSet());
  }

  private exists(table: string, id: number): boolean {
    return this.db.query(`SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== null;
  }

  /** The starting point: built-in reference data, or (merge) the current market's source tables. */
  base(currentPath: string): void {
    const db = this.db;
    if (!this.ctx.incremental)
      db.transaction(() => {
        const cur = db.query("INSERT INTO currencies (code, name, symbol, decimals) VALUES (?, ?, ?, ?)");
        for (const c of CURRENCIES) cur.run(...c);
        if (this.ctx.mode === "replace") {
          const loc = db.query("INSERT INTO auction_locations (id, name, country, currency) VALUES (?, ?, ?, ?)");
          LOCATIONS.forEach(([name, country, currency], i) => loc.run(i + 1, name, country, currency));
          for (const v of VOCABULARIES) {
            const stmt = db.query(v === "categories" ? "INSERT INTO categories (id, name, slug) VALUES (?, ?, ?)" : `INSERT INTO ${v} (id, name, label) VALUES (?, ?, ?)`);
            for (const r of builtinVocabulary(v)) stmt.run(r.id, r.name, r.second);
          }
        }
      })();
    if (this.ctx.mode === "merge" && !this.ctx.incremental) this.copyCurrent(currentPath);
    if (this.ctx.mode === "merge") this.readCurrent();
  }

  /** A merge's starting point: the current market's source tables, copied into the new file. */
  private copyCurrent(currentPath: string): void {
    const db = this.db;
    {
      const restore = deferIndexes(db, ["lots", "works.src_artworks", "artist_events", "src_sales", "images"], { keepUnique: true });
      db.run("ATTACH DATABASE ? AS old", [currentPath]);
      // the works' source rows come from the current market's served artworks, which keep every
      // source column (a market built before them still has its src_artworks)
      const oldWorks = db.query("SELECT 1 FROM old.sqlite_master WHERE type = 'table' AND name = 'src_artworks'").get() ? "src_artworks" : "artworks";
      db.transaction(() => {
        for (const t of SOURCE_TABLES) {
          if (t === "src_artworks") {
            fillWorksFrom(db, `old.${oldWorks}`);
            continue;
          }
          const columns = (schema: string) => (db.query(`PRAGMA ${schema}.table_info(${t})`).all() as { name: string }[]).map((c) => `"${c.name}"`).join(", ");
          const cols = columns("main");
          // the same columns in the same order: SQLite copies the table's pages as they are (its
          // transfer optimisation, `SELECT *` only), not row by row (fx_rates, lots and src_sales of
          // the small market: 0.5-0.6 s → 0.17 s)
          if (cols === columns("old")) db.run(`INSERT INTO main.${t} SELECT * FROM old.${t}`);
          else db.run(`INSERT INTO main.${t} (${cols}) SELECT ${cols} FROM old.${t}`);
        }
      })();
      db.run("DETACH DATABASE old");
      restore();
    }
  }

  /** What a merge checks records against: the current market's sales and notes texts (its rates: marketRate). */
  private readCurrent(): void {
    const db = this.db;
    for (const r of db
      .query<{ id: number; house_id: number; location_id: number; currency: string; status: string; start_datetime: string }, []>(
        "SELECT id, house_id, location_id, currency, status, start_datetime FROM src_sales",
      )
      .iterate()) {
      this.sales.set(r.id, { houseId: r.house_id, locationId: r.location_id, currency: r.currency, status: r.status, start: r.start_datetime });
    }
    for (const r of db.query<{ id: number; text: string }, [number]>("SELECT id, text FROM lot_notes ORDER BY id LIMIT ?").iterate(NOTE_TEXTS_KEPT)) {
      this.noteIds.set(r.text, r.id);
    }
    this.nextNoteId = (db.query<{ n: number | null }, []>("SELECT max(id) AS n FROM lot_notes").get()?.n ?? 0) + 1;
  }

  /** The lot_notes row of a notes text (added when new); null for no notes. */
  private noteId(text: string): number | null {
    if (!text) return null;
    const known = this.noteIds.get(text);
    if (known !== undefined) return known;
    const id = this.nextNoteId++;
    (this.insertNote ??= this.db.prepare("INSERT INTO lot_notes (id, text) VALUES (?, ?)")).run(id, text);
    if (this.noteIds.size < NOTE_TEXTS_KEPT) this.noteIds.set(text, id);
    return id;
  }

  async loadAll(): Promise<void> {
    for (const v of VOCABULARIES) await this.loadVocabulary(v);
    await this.load("auction_locations", (r) => this.location(r));
    this.lookups();
    await this.load("fx_rates", (r) => this.fxRate(r));
    this.writeRates();
    await this.load("auction_houses", (r) => this.house(r));
    await this.load("artists", (r) => this.artist(r));
    await this.load("artist_events", (r) => this.event(r));
    await this.load("sales", (r) => this.sale(r));
    await this.load("artworks", (r) => this.artwork(r));
    await this.load("images", (r) => this.image(r));
    await this.load("lots", (r) => this.lot(r));
    await this.load("benchmarks", (r) => this.benchmark(r));
  }

  /**
   * Streams one record file: every record is parsed, checked by `accept` (which writes it and
   * returns undefined, or returns the reason it is rejected) and reported when rejected.
   */
  private async load(name: RecordName, accept: (row: Row) => Verdict | Promise<Verdict>): Promise<void> {
    const file = this.ctx.files.get(name);
    if (!file) return;
    const spec: RecordSpec = RECORDS[name];
    const fileName = file.path.slice(file.path.lastIndexOf(sep) + 1);
    const summary: FileSummary = { file: fileName, accepted: 0, rejected: 0 };
    this.ctx.summaries.push(summary);
    const size = statSync(file.path).size;
    const phase = this.ctx.progress.phase(fileName, size, { unit: "bytes" });
    const reject = (line: number, reason: string, row: unknown) => {
      summary.rejected++;
      this.ctx.report.add(fileName, line, reason, row);
    };
    const settle = (line: number, verdict: Verdict, row: unknown) => {
      if (verdict === undefined) {
        summary.accepted++;
        if (++this.pending >= 20_000) {
          this.db.run("COMMIT");
          this.db.run("BEGIN");
          this.pending = 0;
        }
      } else reject(line, verdict, row);
    };
    const handle = (input: unknown, fromText: boolean, line: number): void | Promise<void> => {
      const parsed = parseRecord(spec, input, fromText);
      if (!parsed.ok) return reject(line, parsed.reason, input);
      let verdict: Verdict | Promise<Verdict>;
      try {
        verdict = accept(parsed.row);
      } catch (err) {
        if (err instanceof ImportError) throw err;
        return reject(line, `not written: ${(err as Error).message}`, input);
      }
      if (verdict instanceof Promise) return verdict.then((v) => settle(line, v, input));
      settle(line, verdict, input);
    };
    this.db.run("BEGIN");
    this.pending = 0;
    try {
      if (!file.csv) {
        await forEachLine(
          file.path,
          (text, line) => {
            let value: unknown;
            try {
              value = JSON.parse(text);
            } catch (err) {
              return reject(line, `malformed JSON: ${(err as Error).message}`, text);
            }
            return handle(value, false, line);
          },
          (bytes) => phase.tick(bytes),
        );
      } else {
        let header: string[] | null = null;
        await forEachCsvRecord(
          file.path,
          (rec, line) => {
            if (!header) {
              header = rec.fields.map((f) => f.trim());
              const dup = header.find((h, i) => header!.indexOf(h) !== i);
              if (dup) throw new ImportError(`${fileName}: column "${dup}" appears twice in the header`);
              const missing = spec.fields.filter((f) => f.required && !header!.includes(f.name)).map((f) => f.name);
              if (missing.length) throw new ImportError(`${fileName}: the header lacks the required column(s) ${missing.join(", ")}`);
              return;
            }
            const obj: Record<string, string> = {};
            header.forEach((h, i) => {
              if (rec.fields[i] !== undefined) obj[h] = rec.fields[i]!;
            });
            if (rec.error) return reject(line, `malformed CSV: ${rec.error}`, obj);
            if (rec.fields.length !== header.length) return reject(line, `malformed CSV: ${rec.fields.length} fields where the header has ${header.length}`, obj);
            return handle(obj, true, line);
          },
          (bytes) => phase.tick(bytes),
        );
        if (!header) throw new ImportError(`${fileName}: a CSV file needs a header row`);
      }
    } catch (err) {
      if (err instanceof ImportError) throw err;
      throw new ImportError(`${fileName}: ${(err as Error).message}`);
    } finally {
      if (this.db.inTransaction) this.db.run("COMMIT");
    }
    phase.end();
  }

  // ---------------------------------------------------------------- vocabularies

  private async loadVocabulary(v: Vocabulary): Promise<void> {
    if (!this.ctx.files.has(v)) return;
    const rows: { id: number; name: string; second: string }[] = [];
    await this.load(v, (r) => {
      const name = (r.name as string).trim();
      const second = ((v === "categories" ? r.slug : r.label) as string | undefined)?.trim() || (v === "categories" ? slugify(name) : name[0]!.toUpperCase() + name.slice(1));
      if (rows.some((x) => x.id === r.id)) return `duplicate id ${r.id}`;
      if (rows.some((x) => x.name.toLowerCase() === name.toLowerCase())) return `duplicate name "${name}"`;
      rows.push({ id: r.id as number, name, second });
      return undefined;
    });
    rows.sort((a, b) => a.id - b.id);
    if (rows.some((r, i) => r.id !== i + 1))
      throw new ImportError(`${v}: ids must run 1, 2, … without gaps (the estimates' model has a column per ${v === "categories" ? "category" : "word"})`);
    const current = this.db
      .query<{ id: number; name: string; second: string }, []>(`SELECT id, name, ${v === "categories" ? "slug" : "label"} AS second FROM ${v} ORDER BY id`)
      .all();
    if (this.ctx.mode === "merge") {
      if (JSON.stringify(current) !== JSON.stringify(rows)) throw new ImportError(`${v}: a merge cannot change the vocabulary of the current market (import in replace mode)`);
      return;
    }
    this.db.run(`DELETE FROM ${v}`);
    const stmt = this.db.query(v === "categories" ? "INSERT INTO categories (id, name, slug) VALUES (?, ?, ?)" : `INSERT INTO ${v} (id, name, label) VALUES (?, ?, ?)`);
    this.db.transaction(() => {
      for (const r of rows) stmt.run(r.id, r.name, r.second);
    })();
  }

  private location(r: Row): Verdict {
    const id = r.id as number;
    const name = (r.name as string).trim();
    const other = this.db.query<{ id: number }, [string]>("SELECT id FROM auction_locations WHERE name = ?").get(name);
    if (other && other.id !== id) return `name "${name}" is already location ${other.id}`;
    const ids = this.ids("auction_locations");
    if (ids.has(id)) return `duplicate id ${id}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO auction_locations (id, name, country, currency) VALUES (?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, country = excluded.country, currency = excluded.currency`,
      )
      .run(id, name, (r.country as string).trim(), r.currency as string);
    return undefined;
  }

  private lookups(): void {
    for (const r of this.db.query<{ id: number; name: string; slug: string }, []>("SELECT id, name, slug FROM categories ORDER BY id").all())
      this.categories.add(r.id, r.name, r.slug);
    for (const r of this.db.query<{ id: number; name: string; label: string }, []>("SELECT id, name, label FROM materials ORDER BY id").all())
      this.materials.add(r.id, r.name, r.label);
    for (const r of this.db.query<{ id: number; name: string; label: string }, []>("SELECT id, name, label FROM substrates ORDER BY id").all())
      this.substrates.add(r.id, r.name, r.label);
    for (const r of this.db.query<{ id: number; name: string; currency: string }, []>("SELECT id, name, currency FROM auction_locations ORDER BY id").all()) {
      this.locations.set(r.name.toLowerCase(), { id: r.id, name: r.name, currency: r.currency });
      this.nextLocationId = Math.max(this.nextLocationId, r.id + 1);
    }
  }

  // ---------------------------------------------------------------- records

  private fxRate(r: Row): Verdict {
    const code = r.code as string;
    const day = r.day as string;
    const rate = r.usd_per_unit as number;
    if (code === "USD" && rate !== 1) return "USD is the base currency: its rate is 1";
    let seen = this.fxSeen.get(code);
    if (!seen) this.fxSeen.set(code, (seen = new Set()));
    if (seen.has(day)) return `duplicate rate for ${code} on ${day}`;
    seen.add(day);
    this.setRate(code, day, rate);
    this.latestFx.clear();
    this.ratesToWrite.push(code, day, rate);
    if (this.ratesToWrite.length === RATES_PER_INSERT * 3) this.writeRates();
    const first = this.fxFrom.get(code);
    if (first === undefined || day < first) this.fxFrom.set(code, day);
    return undefined;
  }

  /**
   * Writes the rates read since the last write, RATES_PER_INSERT at most, in one statement (a
   * statement a rate cost 2 µs a rate). A rate has no constraint its record's checks have not
   * checked, so a statement fails only as the file would.
   */
  private writeRates(): void {
    const values = this.ratesToWrite;
    if (values.length === 0) return;
    this.db
      .query(`INSERT INTO fx_rates (code, day, usd_per_unit) VALUES ${valueRows(values.length / 3, 3)} ON CONFLICT(code, day) DO UPDATE SET usd_per_unit = excluded.usd_per_unit`)
      .run(...values);
    this.ratesToWrite = [];
  }

  private house(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("auction_houses");
    if (ids.has(id)) return `duplicate id ${id}`;
    const name = (r.name as string).trim();
    const slug = ((r.slug as string | undefined) ?? slugify(name)).trim();
    if (!slug) return "slug: empty (give a slug, or a name with letters or digits)";
    const other = this.db.query<{ id: number }, [string]>("SELECT id FROM auction_houses WHERE slug = ?").get(slug);
    if (other && other.id !== id) return `slug "${slug}" is already used by auction house ${other.id}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO auction_houses (id, name, slug, priority_order, is_live, country, city) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, slug = excluded.slug, priority_order = excluded.priority_order,
           is_live = excluded.is_live, country = excluded.country, city = excluded.city`,
      )
      .run(id, name, slug, (r.priority_order as number | undefined) ?? id, r.is_live ? 1 : 0, (r.country as string | undefined) ?? null, (r.city as string | undefined) ?? null);
    return undefined;
  }

  /** A uid for `table`: the given one (rejected when another record has it) or one made up, made unique with the id. */
  private uid(table: string, id: number, given: string | undefined, made: string): { uid?: string; error?: string } {
    const owner = this.db.query<{ id: number }, [string]>(`SELECT id FROM ${table} WHERE uid = ?`);
    if (given !== undefined) {
      const uid = given.trim();
      if (/[\u0000-\u001f\u007f]/.test(uid)) return { error: "a uid may not hold control characters" };
      const other = owner.get(uid);
      if (other && other.id !== id) return { error: `uid "${uid}" is already used by record ${other.id}` };
      return { uid };
    }
    let uid = made || `${id}`;
    const other = owner.get(uid);
    if (other && other.id !== id) uid = `${uid}-${id}`;
    const again = owner.get(uid);
    if (again && again.id !== id) return { error: `no free uid (tried "${uid}"): give one` };
    return { uid };
  }

  private artist(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("artists");
    if (ids.has(id)) return `duplicate id ${id}`;
    const name = (r.name as string).trim();
    const birth = r.birth as number | undefined;
    const death = r.death as number | undefined;
    if (birth !== undefined && birth > this.asOfYear) return `birth: ${birth} is after the as-of date`;
    if (death !== undefined && death > this.asOfYear) return `death: ${death} is after the as-of date`;
    if (birth !== undefined && death !== undefined && death < birth) return `death (${death}) before birth (${birth})`;
    const u = this.uid("src_artists", id, r.uid as string | undefined, slugify(`${name}-${birth ?? id}`));
    if (u.error) return `uid: ${u.error}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO src_artists (id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT(id) DO UPDATE SET uid = excluded.uid, name = excluded.name, synonyms = excluded.synonyms, nationality = excluded.nationality,
           birth = excluded.birth, death = excluded.death, bio = excluded.bio, long_bio = excluded.long_bio, is_top = excluded.is_top`,
      )
      .run(
        id,
        u.uid!,
        name,
        ((r.synonyms as string[] | undefined) ?? []).join("|"),
        (r.nationality as string | undefined) ?? "",
        birth ?? null,
        death ?? null,
        (r.bio as string | undefined) ?? "",
        (r.long_bio as string | undefined) ?? "",
        r.is_top ? 1 : 0,
      );
    return undefined;
  }

  private event(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("artist_events");
    if (ids.has(id)) return `duplicate id ${id}`;
    if (!this.exists("src_artists", r.artist_id as number)) return `artist_id: unknown artist ${r.artist_id}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO artist_events (id, artist_id, date, type, title, description, visible) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET artist_id = excluded.artist_id, date = excluded.date, type = excluded.type, title = excluded.title,
           description = excluded.description, visible = excluded.visible`,
      )
      .run(id, r.artist_id as number, r.date as string, r.type as string, r.title as string, (r.description as string | undefined) ?? "", r.visible === false ? 0 : 1);
    return undefined;
  }

  private sale(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("sales");
    if (ids.has(id)) return `duplicate id ${id}`;
    const houseId = r.house_id as number;
    if (!this.exists("auction_houses", houseId)) return `house_id: unknown auction house ${houseId}`;
    const start = r.start_datetime as string;
    const end = (r.end_datetime as string | undefined) ?? start;
    if (start < `${FIRST_YEAR}-01-01`) return `start_datetime: ${start} is before ${FIRST_YEAR}-01-01, where the market's history starts`;
    if (end < start) return `end_datetime (${end}) is before start_datetime (${start})`;
    const locationName = (r.location as string).trim();
    let loc = this.locations.get(locationName.toLowerCase());
    let newLocation: { id: number; country: string; currency: string } | null = null;
    if (!loc) {
      if (!r.country || !r.currency) return `location: unknown location "${locationName}" (give country and currency to add it)`;
      newLocation = { id: this.nextLocationId, country: (r.country as string).trim(), currency: r.currency as string };
      loc = { id: newLocation.id, name: locationName, currency: newLocation.currency };
    }
    const currency = (r.currency as string | undefined) ?? loc.currency;
    let status = r.status as string | undefined;
    if (status === undefined) status = end < this.nowIso ? "closed" : start > this.nowIso ? "upcoming" : "live";
    if (status === "closed" && start.slice(0, 10) > this.ctx.asOf) return `status: a closed sale cannot start after the as-of date (${this.ctx.asOf})`;
    const isOnline = (r.is_online as boolean | undefined) ?? locationName.toLowerCase() === "online";
    if (newLocation) {
      this.db.query("INSERT INTO auction_locations (id, name, country, currency) VALUES (?, ?, ?, ?)").run(newLocation.id, locationName, newLocation.country, newLocation.currency);
      this.locations.set(locationName.toLowerCase(), loc);
      this.nextLocationId++;
    }
    ids.add(id);
    this.db
      .query(
        `INSERT INTO src_sales (id, house_id, name, location_id, location, currency, is_online, is_bids_streaming, status, start_datetime, end_datetime)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET house_id = excluded.house_id, name = excluded.name, location_id = excluded.location_id, location = excluded.location,
           currency = excluded.currency, is_online = excluded.is_online, is_bids_streaming = excluded.is_bids_streaming, status = excluded.status,
           start_datetime = excluded.start_datetime, end_datetime = excluded.end_datetime`,
      )
      .run(id, houseId, (r.name as string).trim(), loc.id, loc.name, currency, isOnline ? 1 : 0, r.is_bids_streaming ? 1 : 0, status, start, end);
    this.sales.set(id, { houseId, locationId: loc.id, currency, status, start });
    return undefined;
  }

  private artwork(r: Row): Verdict {
    const id = r.id as number;
    const ids = this.ids("artworks");
    if (ids.has(id)) return `duplicate id ${id}`;
    const artistId = r.artist_id as number;
    if (!this.exists("src_artists", artistId)) return `artist_id: unknown artist ${artistId}`;
    const category = this.categories.get(r.category as string);
    if (category === undefined) return `category: unknown category "${r.category}"`;
    const materialIds: number[] = [];
    for (const m of (r.materials as string[] | undefined) ?? []) {
      const mid = this.materials.get(m);
      if (mid === undefined) return `materials: unknown material "${m}"`;
      materialIds.push(mid);
    }
    let substrate: number | null = null;
    if (r.substrate !== undefined) {
      const sid = this.substrates.get(r.substrate as string);
      if (sid === undefined) return `substrate: unknown substrate "${r.substrate}"`;
      substrate = sid;
    }
    const year = r.creation_year as number | undefined;
    if (year !== undefined && year > this.asOfYear) return `creation_year: ${year} is after the as-of date`;
    const en = r.edition_number as number | undefined;
    const es = r.edition_size as number | undefined;
    if (en !== undefined && es !== undefined && en > es) return `edition_number (${en}) is larger than edition_size (${es})`;
    const title = (r.title as string).trim();
    const u = this.uid("src_artworks", id, r.uid as string | undefined, defaultArtworkUid(id, title));
    if (u.error) return `uid: ${u.error}`;
    ids.add(id);
    this.db
      .query(
        `INSERT INTO src_artworks (id, uid, artist_id, title, category_id, medium, material_ids, substrate_id, creation_year,
           height_cm, width_cm, depth_cm, signed, edition_group_id, edition_number, edition_size, image_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT(id) DO UPDATE SET uid = excluded.uid, artist_id = excluded.artist_id, title = excluded.title, category_id = excluded.category_id,
           medium = excluded.medium, material_ids = excluded.material_ids, substrate_id = excluded.substrate_id, creation_year = excluded.creation_year,
           height_cm = excluded.height_cm, width_cm = excluded.width_cm, depth_cm = excluded.depth_cm, signed = excluded.signed,
           edition_group_id = excluded.edition_group_id, edition_number = excluded.edition_number, edition_size = excluded.edition_size`,
      )
      .run(
        id,
        u.uid!,
        artistId,
        title,
        category,
        (r.medium as string | undefined) ?? "",
        materialIds.join(","),
        substrate,
        year ?? null,
        (r.height_cm as number | undefined) ?? null,
        (r.width_cm as number | undefined) ?? null,
        (r.depth_cm as number | undefined) ?? null,
        r.signed ? 1 : 0,
        (r.edition_group_id as number | undefined) ?? null,
        en ?? null,
        es ?? null,
      );
    return undefined;
  }

  private async image(r: Row): Promise<Verdict> {
    const id = r.id as number;
    const ids = this.ids("images");
    if (ids.has(id)) return `duplicate id ${id}`;
    const artworkId = r.artwork_id as number | undefined;
    const artistId = r.artist_id as number | undefined;
    if ((artworkId === undefined) === (artistId === undefined)) return "an image belongs to an artwork (artwork_id) or is an artist's photo (artist_id): give one of them";
    if (artworkId !== undefined && !this.exists("src_artworks", artworkId)) return `artwork_id: unknown artwork ${artworkId}`;
    if (artistId !== undefined && !this.exists("src_artists", artistId)) return `artist_id: unknown artist ${artistId}`;
    const path = r.path as string | undefined;
    const seed = r.seed as number | undefined;
    if ((path === undefined) === (seed === undefined)) return "give either path (an image file) or seed (a procedural image)";
    let width = r.width as number | undefined;
    let height = r.height as number | undefined;
    let stored: string | null = null;
    if (path !== undefined) {
      const file = await this.copyImage(path.trim());
      if (file.error) return file.error;
      stored = file.stored!;
      width = file.width;
      height = file.height;
    } else if (width === undefined || height === undefined) return "a procedural image (seed) needs width and height";
    ids.add(id);
    this.db
      .query(
        `INSERT INTO images (id, artwork_id, width, height, kind, seed, path) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET artwork_id = excluded.artwork_id, width = excluded.width, height = excluded.height, kind = excluded.kind,
           seed = excluded.seed, path = excluded.path`,
      )
      .run(id, artworkId ?? null, width!, height!, stored ? "file" : "procedural", seed ?? null, stored);
    if (this.ctx.mode === "merge") {
      // the image may have moved: no other record keeps pointing at it
      this.db.query("UPDATE src_artworks SET image_id = NULL WHERE image_id = ?1 AND id IS NOT ?2").run(id, artworkId ?? null);
      this.db.query("UPDATE src_artists SET photo_image_id = NULL WHERE photo_image_id = ?1 AND id IS NOT ?2").run(id, artistId ?? null);
    }
    if (artworkId !== undefined) this.db.query("UPDATE src_artworks SET image_id = ? WHERE id = ? AND image_id IS NULL").run(id, artworkId);
    else this.db.query("UPDATE src_artists SET photo_image_id = ? WHERE id = ? AND photo_image_id IS NULL").run(id, artistId!);
    return undefined;
  }

  /** Copies an image file into <data>/images/orig/, named by its content hash (so a copy never changes a file the current market uses). */
  private async copyImage(path: string): Promise<{ error?: string; stored?: string; width?: number; height?: number }> {
    if (isAbsolute(path)) return { error: `path: must be relative to the import directory, got "${path}"` };
    const src = resolve(this.ctx.from, path);
    const rel = relative(this.ctx.from, src);
    if (rel.startsWith("..") || isAbsolute(rel)) return { error: `path: "${path}" is outside the import directory` };
    if (!existsSync(src) || !statSync(src).isFile()) return { error: `path: no file "${path}" in the import directory` };
    let width: number | undefined;
    let height: number | undefined;
    let format: string | undefined;
    try {
      const meta = await loadSharp(this.ctx.dataDir)(src).metadata();
      width = meta.width;
      height = meta.height;
      format = meta.format;
    } catch (err) {
      return { error: `path: "${path}" is not an image this build can read (${(err as Error).message})` };
    }
    if (!width || !height) return { error: `path: "${path}" has no pixel size` };
    const hasher = new Bun.CryptoHasher("sha256");
    for await (const chunk of Bun.file(src).stream()) hasher.update(chunk);
    const ext = (extname(src).slice(1).toLowerCase() || format || "img").replace(/[^a-z0-9]/g, "");
    const stored = `${hasher.digest("hex")}.${ext}`;
    const dir = join(this.ctx.dataDir, "images", "orig");
    const dest = join(dir, stored);
    if (!existsSync(dest)) {
      mkdirSync(dir, { recursive: true });
      const part = `${dest}.part-${process.pid}`;
      copyFileSync(src, part);
      renameSync(part, dest);
      this.ctx.createdImages.push(dest);
    }
    return { stored, width, height };
  }

  /** A lots record: checked (checkLot), its derived columns (lotDerived), upserted (lotUpsert). */
  private lot(r: Row): Verdict {
    const lot = this.checkLot(r);
    if (typeof lot === "string") return lot;
    const { sale, work } = lot;
    const derived = lotDerived(lot);
    this.ids("lots").add(lot.id);
    (this.upsertLot ??= lotUpsert(this.db))([
      lot.id,
      lot.saleId,
      lot.artworkId,
      work.artist_id,
      sale.houseId,
      lot.lotNum,
      derived.lotSeq,
      lot.status,
      sale.status,
      (sale.startSeconds ??= epochSeconds(sale.start)),
      sale.locationId,
      work.creation_year,
      derived.isTop ? 1 : 0,
      lot.reserveMark ? 1 : 0,
      lot.thirdPartyMark ? 1 : 0,
      lot.currency,
      lot.hammer ?? null,
      lot.estMin ?? null,
      lot.estMax ?? null,
      lot.premium ?? null,
      derived.hammerUsdCents,
      derived.estimateMinUsdCents,
      derived.estimateMaxUsdCents,
      derived.premiumUsdCents,
      this.noteId(lot.notes),
    ]);
    return undefined;
  }

  /**
   * The rules of a lots record, in order: a new id, a known sale and artwork, a hammer (above 0)
   * for a sold lot and no hammer nor premium for another, no sold or passed lot of a sale after the
   * as-of date, a premium not below the hammer, estimates in order, a rate for the currency on the
   * sale's day. The record checked, or the reason it is rejected.
   */
  private checkLot(r: Row): CheckedLot | string {
    const id = r.id as number;
    if (this.ids("lots").has(id)) return `duplicate id ${id}`;
    const saleId = r.sale_id as number;
    const sale = this.sales.get(saleId);
    if (!sale) return `sale_id: unknown sale ${saleId}`;
    const artworkId = r.artwork_id as number;
    const work = (this.artworkOf ??= this.db.prepare<{ artist_id: number; creation_year: number | null }, [number]>(
      "SELECT artist_id, creation_year FROM src_artworks WHERE id = ?",
    )).get(artworkId);
    if (!work) return `artwork_id: unknown artwork ${artworkId}`;
    const status = r.status as string;
    const hammer = r.hammer as number | undefined;
    const premium = r.premium as number | undefined;
    const estMin = r.estimate_min as number | undefined;
    const estMax = r.estimate_max as number | undefined;
    const day = sale.start.slice(0, 10);
    if (status === "sold") {
      if (hammer === undefined) return "hammer: required for a sold lot";
      if (!(hammer > 0)) return "hammer: a sold lot's hammer must be above 0";
    } else {
      if (hammer !== undefined) return `hammer: only a sold lot has one (status ${status})`;
      if (premium !== undefined) return `premium: only a sold lot has one (status ${status})`;
    }
    if ((status === "sold" || status === "passed") && day > this.ctx.asOf) return `status: a lot of a sale on ${day} cannot be ${status} as of ${this.ctx.asOf}`;
    if (premium !== undefined && hammer !== undefined && premium < hammer) return `premium (${premium}) is below the hammer (${hammer})`;
    if (estMin !== undefined && estMax !== undefined && estMin > estMax) return `estimate_min (${estMin}) is above estimate_max (${estMax})`;
    const currency = (r.currency as string | undefined) ?? sale.currency;
    const rate = this.rateOn(currency, day);
    if (rate === undefined)
      return day > this.ctx.asOf
        ? `no FX rate for ${currency} on or before ${this.ctx.asOf}, the as-of date (a sale after it is priced at the latest rate known then)`
        : `no FX rate for ${currency} on ${day}, the sale day (add it to fx_rates)`;
    return {
      id,
      saleId,
      sale,
      artworkId,
      work,
      lotNum: (r.lot_num as string).trim(),
      lotSeq: r.lot_seq as number | undefined,
      status,
      hammer,
      premium,
      estMin,
      estMax,
      currency,
      rate,
      isTop: r.is_top as boolean | undefined,
      reserveMark: Boolean(r.reserve_mark),
      thirdPartyMark: Boolean(r.third_party_mark),
      notes: (r.notes as string | undefined) ?? "",
    };
  }

  private benchmark(r: Row): Verdict {
    const series = (r.series as string).trim();
    const month = r.month as string;
    const key = `${series}\u0000${month}`;
    if (this.benchSeen.has(key)) return `duplicate value for ${series} in ${month}`;
    this.benchSeen.add(key);
    if (!this.seriesSeen.has(series)) {
      this.seriesSeen.add(series);
      this.db
        .query("INSERT INTO benchmark_series (id, label, synthetic) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET label = excluded.label, synthetic = excluded.synthetic")
        .run(series, (r.label as string | undefined) ?? series, r.synthetic ? 1 : 0);
    }
    this.db
      .query("INSERT INTO benchmarks (series, month, value) VALUES (?, ?, ?) ON CONFLICT(series, month) DO UPDATE SET value = excluded.value")
      .run(series, month, r.value as number);
    return undefined;
  }

  /** Records `currency`'s rate on `day`. */
  private setRate(currency: string, day: string, rate: number): void {
    daysOf(this.fx, currency).set(day, rate);
  }

  /**
   * The rate a lot of a sale on `day` is priced at: the day's own rate; for a sale after the
   * as-of date, the latest rate known at the as-of date (a market holds no later one). USD: 1.
   */
  private rateOn(currency: string, day: string): number | undefined {
    if (currency === "USD") return 1;
    if (day <= this.ctx.asOf) return this.fx.get(currency)?.get(day) ?? this.marketRate(currency, day);
    let latest = this.latestFx.get(currency);
    if (latest === undefined) {
      const asOf = this.ctx.asOf;
      let best: { day: string; rate: number } | null = null;
      for (const [d, rate] of this.fx.get(currency) ?? []) if (d <= asOf && (!best || d > best.day)) best = { day: d, rate };
      if (this.ctx.mode === "merge") {
        const market = latestRate(this.db, currency, asOf);
        if (market && (!best || market.day > best.day)) best = market;
      }
      latest = best?.rate ?? null;
      this.latestFx.set(currency, latest);
    }
    return latest ?? undefined;
  }

  /** A merge's market rate of `currency` on `day` (undefined: none, or not a merge). */
  private marketRate(currency: string, day: string): number | undefined {
    if (this.ctx.mode !== "merge") return undefined;
    const days = daysOf(this.marketFx, currency);
    let rate = days.get(day);
    if (rate === undefined) {
      rate = this.db.query<{ rate: number }, [string, string]>("SELECT usd_per_unit AS rate FROM fx_rates WHERE code = ? AND day = ?").get(currency, day)?.rate ?? null;
      days.set(day, rate);
    }
    return rate ?? undefined;
  }

  /** Reads every market rate at once: a merge that reprices every lot looks up most of them. */
  private readMarketRates(): void {
    if (this.ctx.mode !== "merge") return;
    for (const r of this.db.query<{ code: string; day: string; rate: number }, []>("SELECT code, day, usd_per_unit AS rate FROM fx_rates").iterate()) {
      daysOf(this.marketFx, r.code).set(r.day, r.rate);
    }
  }

  // ---------------------------------------------------------------- merge

  /**
   * After a merge, lots the import did not bring may belong to a sale or an artwork it replaced,
   * or be priced on a day whose rate it changed: their denormalised columns and USD values are
   * brought up to date; lots that can no longer be priced or dated are dropped (and reported).
   */
  refreshLots(sales?: number[]): Repriced {
    const db = this.db;
    const out: Repriced = { upcoming: [], other: [] };
    // an incremental merge (`sales`: the sales it changed) looks only at the lots of those sales
    // and the lots priced from the first day of a rate it brought on; its works are the current ones
    const salesJson = sales ? JSON.stringify(sales) : null;
    if (!sales) this.readMarketRates();
    const fxScope = [...this.fxFrom].map(([code, day]) => ({ code, from: Date.parse(`${day}T00:00:00Z`) / 1000 }));
    db.transaction(() => {
      if (!sales)
        db.run(`UPDATE lots SET artist_id = w.artist_id, creation_year = w.creation_year FROM src_artworks w
                WHERE w.id = lots.artwork_id AND (lots.artist_id IS NOT w.artist_id OR lots.creation_year IS NOT w.creation_year)`);
      db.query(
        `UPDATE lots SET house_id = s.house_id, sale_status = s.status, sale_datetime = unixepoch(s.start_datetime), location_id = s.location_id FROM src_sales s
         WHERE s.id = lots.sale_id AND (lots.house_id IS NOT s.house_id OR lots.sale_status IS NOT s.status
           OR lots.sale_datetime IS NOT unixepoch(s.start_datetime) OR lots.location_id IS NOT s.location_id)
           ${salesJson ? "AND lots.sale_id IN (SELECT value FROM json_each(?1))" : ""}`,
      ).run(...((salesJson ? [salesJson] : []) as []));
      type L = {
        id: number;
        artist_id: number;
        status: string;
        currency: string;
        day: string;
        hammer: number | null;
        estimate_min: number | null;
        estimate_max: number | null;
        premium: number | null;
        hammer_usd_cents: number | null;
        estimate_min_usd_cents: number | null;
        estimate_max_usd_cents: number | null;
        premium_usd_cents: number | null;
      };
      const changed: [number, number | null, number | null, number | null, number | null][] = [];
      const dropped: { id: number; reason: string }[] = [];
      const columns = `id, artist_id, status, currency, date(sale_datetime, 'unixepoch') AS day, hammer, estimate_min, estimate_max, premium,
                  hammer_usd_cents, estimate_min_usd_cents, estimate_max_usd_cents, premium_usd_cents`;
      const scoped = salesJson
        ? [
            db.query<L, [string]>(`SELECT ${columns} FROM lots WHERE sale_id IN (SELECT value FROM json_each(?))`).all(salesJson),
            ...fxScope.map((f) => db.query<L, [string, number]>(`SELECT ${columns} FROM lots WHERE currency = ? AND sale_datetime >= ?`).all(f.code, f.from)),
          ].flat()
        : null;
      const seen = new Set<number>();
      for (const l of scoped ?? db.query<L, []>(`SELECT ${columns} FROM lots`).iterate()) {
        if (scoped) {
          if (seen.has(l.id)) continue;
          seen.add(l.id);
        }
        if ((l.status === "sold" || l.status === "passed") && l.day > this.ctx.asOf) {
          dropped.push({ id: l.id, reason: `its sale moved to ${l.day}, after the as-of date, and the lot is ${l.status}` });
          continue;
        }
        const rate = this.rateOn(l.currency, l.day);
        if (rate === undefined) {
          dropped.push({ id: l.id, reason: `no FX rate for ${l.currency} on ${l.day > this.ctx.asOf ? `or before ${this.ctx.asOf}` : l.day} after the merge` });
          continue;
        }
        const usd = (x: number | null) => (x === null ? null : usdCents(x, rate));
        const next = [usd(l.hammer), usd(l.estimate_min), usd(l.estimate_max), usd(l.premium)] as const;
        if (next[0] !== l.hammer_usd_cents || next[1] !== l.estimate_min_usd_cents || next[2] !== l.estimate_max_usd_cents || next[3] !== l.premium_usd_cents) {
          changed.push([l.id, ...next]);
          if (l.status !== "upcoming") out.other.push(l.id);
          else if (next[1] !== null && l.estimate_min_usd_cents) out.upcoming.push([l.id, next[1] / l.estimate_min_usd_cents, l.artist_id]);
        }
      }
      const upd = db.query("UPDATE lots SET hammer_usd_cents = ?2, estimate_min_usd_cents = ?3, estimate_max_usd_cents = ?4, premium_usd_cents = ?5 WHERE id = ?1");
      for (const c of changed) upd.run(...c);
      const del = db.query("DELETE FROM lots WHERE id = ?");
      for (const d of dropped) {
        del.run(d.id);
        this.ctx.report.add("(merge)", 0, `lot ${d.id} dropped: ${d.reason}`, { id: d.id });
      }
    })();
    return out;
  }
}
