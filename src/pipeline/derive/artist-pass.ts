/**
 * Pass 2 of a whole market's derivation (market.ts): every artist fitted against the model, on
 * worker threads when there are enough (defaultDeriveThreads), and its rows written; then the
 * upcoming lots' forecasts it made, into the lots (writeForecasts).
 */
import type { Database } from "bun:sqlite";
import { cpus } from "node:os";
import { artistWriter, type ArtistDeriver, type ArtistModel, type ArtistNoise, type ArtistOutput, type ArtistRow, type ArtistSource } from "./artist";
import { ArtistPool } from "./artist-pool";
import type { DeriveContext } from "./context";

/** Below this many artists, pass 2 runs on this thread (starting worker threads costs more). */
export const PARALLEL_MIN_ARTISTS = 1000;

/**
 * From this many CPUs, pass 2 runs on one thread per CPU but one by default (this thread writes).
 * Below it, on this thread, except for a market of PARALLEL_MIN_SOLD sold lots or more. The threads
 * read and fit, this thread writes; on 2 cores one thread alone is slower than this thread (it
 * fits more slowly and posts its rows back), two gain
 * 0–20 %, and during a seed of a medium market the image embedding holds the second core
 * (docs/history/derivation.md#pass-2-on-worker-threads).
 */
export const PARALLEL_MIN_CPUS = 4;

/**
 * From this many sold lots, pass 2 runs on one thread per CPU on a machine of 2 or 3 CPUs: the
 * image embedding (at most about 100k images) then spreads over a derivation of many minutes and
 * takes little of the second core (docs/history/benchmarks.md#full-scale-now-2-cores-seed-1986),
 * and the owning thread mostly waits for rows to write.
 */
export const PARALLEL_MIN_SOLD = 4_000_000;

/** Pass 2's threads by default (0: this thread). */
export function defaultDeriveThreads(artists: number, sold: number, cpuCount = cpus().length): number {
  if (artists < PARALLEL_MIN_ARTISTS || cpuCount < 2) return 0;
  if (cpuCount >= PARALLEL_MIN_CPUS) return cpuCount - 1;
  return sold >= PARALLEL_MIN_SOLD ? cpuCount : 0;
}

/** Pass 2's rows written: artists, artworks, estimated artworks, and the worker threads it ran on (0: this thread). */
interface ArtistsWritten {
  artists: number;
  artworks: number;
  estimated: number;
  workers: number;
  /** The upcoming lots' forecasts (ArtistOutput.forecasts), written once pass 2's threads are done. */
  forecasts: (number | null)[][];
}

/**
 * Pass 2: every artist fitted against the model (on worker threads when there are enough) and
 * its rows written (artists, artworks, charts, analytics), after DeriveOptions.beforeWrite.
 */
export async function deriveArtists(
  ctx: DeriveContext,
  model: ArtistModel,
  noise: ArtistNoise,
  deriver: ArtistDeriver,
  readArtist: (artist: ArtistRow) => ArtistSource,
): Promise<ArtistsWritten> {
  const { db, src, options, progress, artistCount, soldCount } = ctx;
  let done = 0;
  let estimated = 0;
  let artworksWritten = 0;
  let artistsWritten = 0;
  const forecasts: (number | null)[][] = [];
  // the first write on db: after beforeWrite (nothing touches db before, not even a prepare)
  let writePage: ((outs: ArtistOutput[]) => void) | null = null;
  const startWriting = async () => {
    await options.beforeWrite?.();
    db.run("DELETE FROM artists");
    db.run("DELETE FROM artworks");
    db.run("DELETE FROM artist_charts");
    db.run("DELETE FROM artist_analytics");
    db.run("DELETE FROM market_index");
    const write = artistWriter(db);
    writePage = db.transaction((outs: ArtistOutput[]) => {
      for (const out of outs) {
        write(out);
        estimated += out.estimated;
        artworksWritten += out.artworks.length;
      }
    });
  };
  // artists in pages of 200 (a page is one transaction; a large market's artists, bios
  // included, are never in memory at once), derived on worker threads when there are enough
  const artistPage = src.query<ArtistRow, [number]>(
    "SELECT id, uid, name, synonyms, nationality, birth, death, bio, long_bio, is_top, photo_image_id FROM src_artists WHERE id > ? ORDER BY id LIMIT 200",
  );
  let after = Number.MIN_SAFE_INTEGER;
  const nextPage = (): ArtistRow[] | null => {
    const page = artistPage.all(after);
    if (page.length === 0) return null;
    after = page[page.length - 1]!.id;
    return page;
  };
  const written = (outs: ArtistOutput[]) => {
    writePage!(outs);
    for (const out of outs) for (const f of out.forecasts) forecasts.push(f);
    done += outs.length;
    artistsWritten += outs.length;
    progress("artist indexes, estimates, analytics", done, artistCount);
  };
  const threads = options.workers ?? defaultDeriveThreads(artistCount, soldCount);
  // the threads read the snapshot's file on their own connections (an in-memory one has none)
  const snapshot = db.filename && db.filename !== ":memory:" ? db.filename : null;
  const parallel = threads >= 1 && snapshot !== null;
  if (parallel) {
    // The threads read each artist's works and lots (immutable connections: openSnapshotReader)
    // and fit them; this thread writes the rows.
    const pool = new ArtistPool(threads, model, noise, snapshot);
    try {
      // pages are handed out ahead (two per thread) and written in order as they come back
      const ahead: Promise<ArtistOutput[]>[] = [];
      for (;;) {
        while (ahead.length < 2 * threads) {
          const page = nextPage();
          if (!page) break;
          ahead.push(pool.derive(page));
        }
        // the threads have their first pages: now wait, if need be, to write
        if (!writePage) await startWriting();
        const first = ahead.shift();
        if (!first) break;
        written(await first);
      }
    } finally {
      pool.close();
    }
  } else {
    await startWriting();
    for (let page = nextPage(); page; page = nextPage()) written(page.map((a) => deriver.derive(readArtist(a), noise)));
  }
  progress("artist indexes, estimates, analytics", done, artistCount);
  return { artists: artistsWritten, artworks: artworksWritten, estimated, workers: parallel ? threads : 0, forecasts };
}

/**
 * The upcoming lots' forecasts into their rows, after pass 2 (whose threads read the lots through
 * immutable connections: nothing may write the table while they run). A snapshot derived again
 * (a finished one has lots_sale_probability_known, or lots_sale_probability when older) first
 * loses its earlier forecasts; a new one has none.
 */
export function writeForecasts(db: Database, forecasts: (number | null)[][]): void {
  const indexed = db.query("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name IN ('lots_sale_probability_known', 'lots_sale_probability')").get() !== null;
  const update = db.query("UPDATE lots SET sale_probability = ?2, expected_hammer_usd = ?3, expected_hammer_usd_low = ?4, expected_hammer_usd_high = ?5 WHERE id = ?1");
  db.transaction(() => {
    if (indexed)
      db.run(
        "UPDATE lots SET sale_probability = NULL, expected_hammer_usd = NULL, expected_hammer_usd_low = NULL, expected_hammer_usd_high = NULL WHERE sale_probability IS NOT NULL",
      );
    // in id order: the updates walk the table's b-tree forwards
    forecasts.sort((a, b) => a[0]! - b[0]!);
    for (const f of forecasts) update.run(...(f as [number, number, number | null, number | null, number | null]));
  })();
}
