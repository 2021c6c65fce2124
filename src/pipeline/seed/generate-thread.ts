/**
 * The generation on a thread of its own: the generator (generateArtists, JavaScript: the draws and
 * the rows' values) runs on a worker thread (generate-worker.ts) while this thread inserts the
 * rows it hands over, a batch of artists (ARTIST_BATCH) at a time, one transaction a batch. The
 * two cost about the same (docs/market-model.md), and the second core is otherwise idle while a
 * market is generated. The thread writes the truth (truth.db) itself: nothing else touches that
 * file meanwhile.
 *
 * The rows are the same, in the same order per table, as on one thread: the generator is the
 * same code on the same random stream (Random.state / Random.resume). A batch's rows go over
 * column by column (RowColumns): numbers in Float64Arrays handed over without a copy, strings as
 * indexes into the batch's distinct strings of the column; as arrays of rows (JSON or structured
 * cloning) the copying cost the thread about as much as the inserts it spared this one
 * (docs/history/market-model.md#the-generator-on-a-thread-of-its-own). The thread stays at most BATCHES_AHEAD batches ahead of the inserts, so memory
 * holds a few batches, not the market.
 */
import type { Database } from "bun:sqlite";
import { workerEntry } from "../../platform/native";
import { MARKET_ROWS, ROW_INSERTS, type ArtistPlan, type GeneratorContext, type GeneratorTotals } from "./market";

/** Batches the generator may run ahead of the inserts. */
export const BATCHES_AHEAD = 4;

/** What the generator's thread is sent. */
export interface GenerateJob {
  spec: GeneratorContext["spec"];
  asOf: string;
  months: number;
  market: Float64Array;
  fx: { firstDay: number; days: number; codes: readonly string[]; rates: Float64Array[] };
  sales: GeneratorContext["sales"];
  rng: [number, number, number, number];
  plans: ArtistPlan[];
  truthPath: string;
  /** An Int32 counting the batches inserted (the thread waits on it). */
  inserted: SharedArrayBuffer;
}

export type MarketKind = (typeof MARKET_ROWS)[number];

/** The columns of each kind of market row, as ROW_INSERTS binds them: `n` a number or null, `s` a string. */
export const ROW_COLUMNS: Readonly<Record<MarketKind, string>> = {
  artist: "nssssnnssnn",
  artwork: "nsnsnssnnnnnnnnnn",
  lot: "nnnnnsnssnnnnnnsnnnnnnnnn",
  note: "ns",
  image: "nnnnn",
  event: "nnssssn",
};

/** Rows of one kind, column by column: a number column's values (NaN for null), a string column's indexes into `strings`. */
export interface ColumnBatch {
  rows: number;
  numbers: Float64Array[];
  codes: Int32Array[];
  strings: string[][];
}

/** Collects rows of one kind column by column (ROW_COLUMNS), a batch at a time. */
export class RowColumns {
  private rows = 0;
  private capacity: number;
  private numbers: Float64Array[] = [];
  private codes: Int32Array[] = [];
  private strings: string[][] = [];
  private seen: Map<string, number>[] = [];

  constructor(
    private readonly kinds: string,
    capacity = 1024,
  ) {
    this.capacity = capacity;
    this.reset();
  }

  private reset(): void {
    const n = this.kinds.length;
    this.rows = 0;
    this.numbers = Array.from({ length: n }, (_, c) => new Float64Array(this.kinds[c] === "n" ? this.capacity : 0));
    this.codes = Array.from({ length: n }, (_, c) => new Int32Array(this.kinds[c] === "s" ? this.capacity : 0));
    this.strings = Array.from({ length: n }, () => []);
    this.seen = Array.from({ length: n }, () => new Map());
  }

  push(row: readonly unknown[]): void {
    if (row.length !== this.kinds.length) throw new Error(`a row of ${row.length} values where ${this.kinds.length} are expected`);
    if (this.rows === this.capacity) this.grow();
    const i = this.rows;
    for (let c = 0; c < row.length; c++) {
      const v = row[c];
      if (this.kinds[c] === "n") {
        if (typeof v === "number") this.numbers[c]![i] = v;
        else if (v === null) this.numbers[c]![i] = Number.NaN;
        else throw new Error(`column ${c}: ${typeof v} where a number or null is expected`);
      } else {
        if (typeof v !== "string") throw new Error(`column ${c}: ${typeof v} where a string is expected`);
        let k = this.seen[c]!.get(v);
        if (k === undefined) {
          k = this.strings[c]!.push(v) - 1;
          this.seen[c]!.set(v, k);
        }
        this.codes[c]![i] = k;
      }
    }
    this.rows = i + 1;
  }

  private grow(): void {
    this.capacity *= 2;
    this.numbers = this.numbers.map((a) => {
      if (a.length === 0) return a;
      const b = new Float64Array(this.capacity);
      b.set(a);
      return b;
    });
    this.codes = this.codes.map((a) => {
      if (a.length === 0) return a;
      const b = new Int32Array(this.capacity);
      b.set(a);
      return b;
    });
  }

  /** The rows collected since the last take. */
  take(): ColumnBatch {
    const batch = { rows: this.rows, numbers: this.numbers, codes: this.codes, strings: this.strings };
    this.reset();
    return batch;
  }
}

/** Each row of a batch as its INSERT's values (one array, reused: bind it before the next). */
export function forEachRow(batch: ColumnBatch, kinds: string, fn: (row: unknown[]) => void): void {
  const row: unknown[] = new Array(kinds.length);
  for (let i = 0; i < batch.rows; i++) {
    for (let c = 0; c < kinds.length; c++) {
      if (kinds[c] === "n") {
        const v = batch.numbers[c]![i]!;
        row[c] = Number.isNaN(v) ? null : v;
      } else row[c] = batch.strings[c]![batch.codes[c]![i]!];
    }
    fn(row);
  }
}

/** The buffers of a batch, handed over without a copy. */
export function batchBuffers(batches: readonly ColumnBatch[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const b of batches) for (const a of [...b.numbers, ...b.codes]) if (a.length > 0) out.push(a.buffer as ArrayBuffer);
  return out;
}

/** A batch of market rows, by kind. */
export type MarketRows = Record<MarketKind, ColumnBatch>;

/**
 * Generates the market on a worker thread and inserts its rows into `db` here; the truth goes to
 * `truthPath` (open on no other connection that writes meanwhile). `ctx.rng` goes on from where
 * the thread's stream ended.
 */
export function generateOnThread(
  db: Database,
  truthPath: string,
  ctx: GeneratorContext,
  plans: ArtistPlan[],
  onBatch: (done: number, lots: number) => void,
): Promise<GeneratorTotals> {
  const inserted = new Int32Array(new SharedArrayBuffer(4));
  const statements = MARKET_ROWS.map((kind) => [kind, db.query(ROW_INSERTS[kind])] as const);
  const insertBatch = db.transaction((rows: MarketRows) => {
    for (const [kind, st] of statements) forEachRow(rows[kind], ROW_COLUMNS[kind], (row) => st.run(...(row as never[])));
  });
  const job: GenerateJob = {
    spec: ctx.spec,
    asOf: ctx.asOf,
    months: ctx.months,
    market: ctx.market,
    fx: { firstDay: ctx.fx.firstDay, days: ctx.fx.days, codes: ctx.fx.codes, rates: ctx.fx.rates },
    sales: ctx.sales,
    rng: ctx.rng.state(),
    plans,
    truthPath,
    inserted: inserted.buffer as SharedArrayBuffer,
  };
  return new Promise<GeneratorTotals>((resolve, reject) => {
    const worker = new Worker(workerEntry("pipeline/seed/generate-worker.ts"));
    const fail = (err: Error) => {
      worker.terminate();
      reject(err);
    };
    worker.onmessage = (event: MessageEvent) => {
      const msg = event.data as { rows?: MarketRows; done?: number; lots?: number; totals?: GeneratorTotals; rng?: [number, number, number, number]; error?: string };
      if (msg.error !== undefined) return fail(new Error(`generator thread: ${msg.error}`));
      if (msg.rows !== undefined) {
        try {
          insertBatch(msg.rows);
        } catch (err) {
          return fail(err instanceof Error ? err : new Error(String(err)));
        }
        Atomics.add(inserted, 0, 1);
        Atomics.notify(inserted, 0);
        onBatch(msg.done!, msg.lots!);
        return;
      }
      worker.terminate();
      ctx.rng.restore(msg.rng!);
      resolve(msg.totals!);
    };
    worker.onerror = (event: ErrorEvent) => fail(new Error(`generator thread: ${event.message}`));
    worker.postMessage(job);
  });
}
