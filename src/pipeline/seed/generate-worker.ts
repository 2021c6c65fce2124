/**
 * The generator's thread (generate-thread.ts): it runs generateArtists on the job it is sent,
 * writes the truth into truth.db itself and posts each batch of market rows, column by column, to the
 * thread that inserts them, never more than BATCHES_AHEAD batches ahead of it.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts): a `bun build --compile`
 * binary only holds the workers it was told about.
 *
 * Messages in:  one GenerateJob.
 * Messages out: { rows: MarketRows (buffers transferred), done: artists, lots } per batch, then
 *               { totals: GeneratorTotals, rng: the random state at the end }, or { error }.
 */
import type { Database } from "bun:sqlite";
import { BATCHES_AHEAD, batchBuffers, ROW_COLUMNS, RowColumns, type GenerateJob, type MarketRows } from "./generate-thread";
import { generateArtists, MARKET_ROWS, ROW_INSERTS, type RowSink } from "./market";
import { Random } from "../../market/random";
import { fxTable } from "./series";
import { openTruthDb } from "./truth";

declare const self: Worker;

self.onmessage = (event: MessageEvent) => {
  const job = event.data as GenerateJob;
  let truth: Database | null = null;
  try {
    truth = openTruthDb(job.truthPath);
    const artistTruth = truth.query(ROW_INSERTS.artistTruth);
    const artworkTruth = truth.query(ROW_INSERTS.artworkTruth);
    const inserted = new Int32Array(job.inserted);
    const columns = Object.fromEntries(MARKET_ROWS.map((kind) => [kind, new RowColumns(ROW_COLUMNS[kind])])) as Record<keyof MarketRows, RowColumns>;
    let batch = 0;
    const t = truth;
    const sink: RowSink = {
      artist: (row) => columns.artist.push(row),
      artwork: (row) => columns.artwork.push(row),
      lot: (row) => columns.lot.push(row),
      note: (row) => columns.note.push(row),
      image: (row) => columns.image.push(row),
      event: (row) => columns.event.push(row),
      artistTruth: (row) => artistTruth.run(...(row as never[])),
      artworkTruth: (row) => artworkTruth.run(...(row as never[])),
      begin: () => t.run("BEGIN"),
      commit(done, lots) {
        t.run("COMMIT");
        // wait while BATCHES_AHEAD batches are still to be inserted
        for (let seen = Atomics.load(inserted, 0); batch - seen >= BATCHES_AHEAD; seen = Atomics.load(inserted, 0)) Atomics.wait(inserted, 0, seen, 1000);
        const rows = Object.fromEntries(MARKET_ROWS.map((kind) => [kind, columns[kind].take()])) as MarketRows;
        self.postMessage({ rows, done, lots }, { transfer: batchBuffers(Object.values(rows)) });
        batch++;
      },
    };
    const rng = Random.resume(job.rng);
    const fx = fxTable(job.fx.firstDay, job.fx.days, job.fx.codes, job.fx.rates);
    const totals = generateArtists({ rng, spec: job.spec, asOf: job.asOf, months: job.months, market: job.market, fx, sales: job.sales }, job.plans, sink);
    truth.close();
    truth = null;
    self.postMessage({ totals, rng: rng.state() });
  } catch (err) {
    truth?.close();
    self.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err) });
  }
};
