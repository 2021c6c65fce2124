/**
 * `export`: writes the current market's source tables in the import format (version 1,
 * docs/import-format.md), JSONL or CSV, so that importing the directory rebuilds the same
 * market. Tables are read row by row and written through a buffered sink: memory holds the
 * vocabularies, never a table.
 */
import type { FileSink } from "bun";
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { artworkUid } from "../../db/artwork-uid";
import { marketDbPath } from "../../db/connection";
import { Progress } from "../progress";
import { LOCATIONS } from "../seed/reference";
import { today } from "../../market/time";
import { FORMAT_NAME, FORMAT_VERSION, RECORDS, VOCABULARIES, type RecordName, type Value } from "./format";
import { builtinVocabulary } from "./importer";

export interface ExportOptions {
  format?: "jsonl" | "csv";
  quiet?: boolean;
}

export interface ExportSummary {
  path: string;
  asOf: string;
  format: "jsonl" | "csv";
  files: { file: string; records: number }[];
  seconds: number;
}

type Rec = Record<string, Value | null | undefined>;

function csvCell(v: Value | null | undefined): string {
  if (v === null || v === undefined) return "";
  const s = Array.isArray(v) ? v.join("|") : typeof v === "boolean" ? (v ? "true" : "false") : String(v);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

class RecordWriter {
  private readonly sink: FileSink;
  private readonly fields: string[];
  count = 0;
  constructor(
    readonly file: string,
    name: RecordName,
    private readonly csv: boolean,
  ) {
    this.fields = RECORDS[name].fields.map((f) => f.name);
    this.sink = Bun.file(file).writer({ highWaterMark: 1 << 20 });
    if (csv) this.sink.write(`${this.fields.join(",")}\n`);
  }
  write(rec: Rec): void {
    this.count++;
    if (this.csv) {
      this.sink.write(`${this.fields.map((f) => csvCell(rec[f])).join(",")}\n`);
    } else {
      const out: Record<string, Value> = {};
      for (const f of this.fields) {
        const v = rec[f];
        if (v !== null && v !== undefined) out[f] = v;
      }
      this.sink.write(`${JSON.stringify(out)}\n`);
    }
  }
  async end(): Promise<void> {
    await this.sink.end();
  }
}

const bool = (x: number | null) => x === 1;

export async function exportMarket(dataDir: string, toDir: string, options: ExportOptions = {}): Promise<ExportSummary> {
  const path = marketDbPath(resolve(dataDir));
  if (!existsSync(path)) throw new Error(`no market in ${dataDir}: nothing to export`);
  const format = options.format ?? "jsonl";
  const csv = format === "csv";
  const out = resolve(toDir);
  mkdirSync(out, { recursive: true });
  const progress = new Progress("export", options.quiet);
  const db = new Database(path, { readonly: true, strict: true });
  const files: ExportSummary["files"] = [];
  try {
    const asOf = db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()?.value ?? today();
    writeFileSync(join(out, "manifest.json"), `${JSON.stringify({ format: FORMAT_NAME, version: FORMAT_VERSION, as_of: asOf }, null, 2)}\n`);

    const run = async (name: RecordName, sql: string, map: (row: any) => Rec | null) => {
      const phase = progress.phase(name);
      const w = new RecordWriter(join(out, `${name}.${format}`), name, csv);
      let read = 0;
      for (const row of db.query(sql).iterate()) {
        const rec = map(row);
        if (rec) w.write(rec);
        if (++read % 8192 === 0) phase.tick(w.count);
      }
      phase.tick(w.count);
      await w.end();
      files.push({ file: `${name}.${format}`, records: w.count });
      phase.end();
    };

    // vocabularies: written only where they differ from the built-in reference
    const names: Record<string, Map<number, string>> = {};
    for (const v of VOCABULARIES) {
      const second = v === "categories" ? "slug" : "label";
      const rows = db.query<{ id: number; name: string; second: string }, []>(`SELECT id, name, ${second} AS second FROM ${v} ORDER BY id`).all();
      names[v] = new Map(rows.map((r) => [r.id, r.name]));
      if (JSON.stringify(rows) !== JSON.stringify(builtinVocabulary(v))) {
        await run(v, `SELECT id, name, ${second} AS second FROM ${v} ORDER BY id`, (r) => ({ id: r.id, name: r.name, [second]: r.second }));
      }
    }
    const builtinLocation = (r: { id: number; name: string; country: string; currency: string }) => {
      const b = LOCATIONS[r.id - 1];
      return b !== undefined && b[0] === r.name && b[1] === r.country && b[2] === r.currency;
    };
    const extraLocations = db
      .query<{ id: number; name: string; country: string; currency: string }, []>("SELECT id, name, country, currency FROM auction_locations ORDER BY id")
      .all()
      .filter((r) => !builtinLocation(r));
    if (extraLocations.length) {
      await run("auction_locations", "SELECT id, name, country, currency FROM auction_locations ORDER BY id", (r) => (builtinLocation(r) ? null : r));
    }

    await run("fx_rates", "SELECT code, day, usd_per_unit FROM fx_rates ORDER BY rowid", (r) => r);
    await run("auction_houses", "SELECT id, name, slug, priority_order, is_live, country, city FROM auction_houses ORDER BY id", (r) => ({ ...r, is_live: bool(r.is_live) }));
    await run("artists", "SELECT id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top FROM src_artists ORDER BY id", (r) => ({
      ...r,
      synonyms: r.synonyms ? (r.synonyms as string).split("|").filter(Boolean) : [],
      is_top: bool(r.is_top),
    }));
    await run("artist_events", "SELECT id, artist_id, date, type, title, description, visible FROM artist_events ORDER BY id", (r) => ({ ...r, visible: bool(r.visible) }));
    await run("sales", "SELECT id, house_id, name, location, currency, is_online, is_bids_streaming, status, start_datetime, end_datetime FROM src_sales ORDER BY id", (r) => ({
      ...r,
      is_online: bool(r.is_online),
      is_bids_streaming: bool(r.is_bids_streaming),
    }));
    const materials = names.materials!;
    // the served artworks keep every source column (a market built before them: src_artworks)
    const works = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'src_artworks'").get() ? "src_artworks" : "artworks";
    await run(
      "artworks",
      `SELECT id, artist_id, uid, title, category_id, medium, material_ids, substrate_id, creation_year, height_cm, width_cm, depth_cm, signed,
              edition_group_id, edition_number, edition_size FROM ${works} ORDER BY id`,
      (r) => ({
        id: r.id,
        artist_id: r.artist_id,
        uid: artworkUid(r.id, r.title, r.uid),
        title: r.title,
        category: names.categories!.get(r.category_id) ?? String(r.category_id),
        medium: r.medium,
        materials: r.material_ids ? (r.material_ids as string).split(",").map((m) => materials.get(Number(m)) ?? m) : [],
        substrate: r.substrate_id === null ? null : (names.substrates!.get(r.substrate_id) ?? String(r.substrate_id)),
        creation_year: r.creation_year,
        height_cm: r.height_cm,
        width_cm: r.width_cm,
        depth_cm: r.depth_cm,
        signed: bool(r.signed),
        edition_group_id: r.edition_group_id,
        edition_number: r.edition_number,
        edition_size: r.edition_size,
      }),
    );
    const origDir = join(resolve(dataDir), "images", "orig");
    await run(
      "images",
      `SELECT i.id, i.artwork_id, (SELECT min(a.id) FROM src_artists a WHERE a.photo_image_id = i.id) AS artist_id, i.kind, i.seed, i.path, i.width, i.height
       FROM images i ORDER BY i.id`,
      (r) => {
        if (r.artwork_id === null && r.artist_id === null) return null; // an orphan: nothing would show it
        const rec: Rec = { id: r.id, artwork_id: r.artwork_id, artist_id: r.artwork_id === null ? r.artist_id : null, width: r.width, height: r.height };
        if (r.kind === "file" && r.path) {
          const src = join(origDir, r.path);
          if (!existsSync(src)) return null;
          const dest = join(out, "images", r.path);
          mkdirSync(dirname(dest), { recursive: true });
          if (!existsSync(dest)) copyFileSync(src, dest);
          rec.path = `images/${r.path}`;
        } else rec.seed = r.seed;
        return rec;
      },
    );
    // the notes' texts in lot_notes (a market built before them: lots.notes)
    const notesOf = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lot_notes'").get()
      ? "(SELECT n.text FROM lot_notes n WHERE n.id = lots.notes_id)"
      : "notes";
    await run(
      "lots",
      `SELECT id, sale_id, artwork_id, lot_num, lot_seq, status, currency, hammer, estimate_min, estimate_max, premium, is_top, reserve_mark,
              third_party_mark, coalesce(${notesOf}, '') AS notes FROM lots ORDER BY id`,
      (r) => ({ ...r, is_top: bool(r.is_top), reserve_mark: bool(r.reserve_mark), third_party_mark: bool(r.third_party_mark) }),
    );
    await run("benchmarks", "SELECT b.series, b.month, b.value, s.label, s.synthetic FROM benchmarks b LEFT JOIN benchmark_series s ON s.id = b.series ORDER BY b.rowid", (r) => ({
      ...r,
      synthetic: bool(r.synthetic),
    }));
    return { path: out, asOf, format, files, seconds: progress.elapsed() };
  } finally {
    db.close();
  }
}

export function formatExportSummary(s: ExportSummary): string {
  return [
    `export: market as of ${s.asOf} written to ${s.path} (${s.format}, import format v${FORMAT_VERSION}) in ${s.seconds.toFixed(1)}s`,
    ...s.files.map((f) => `  ${f.file.padEnd(26)} ${f.records.toLocaleString("en-US").padStart(11)}`),
  ].join("\n");
}
