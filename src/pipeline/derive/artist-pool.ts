/**
 * Worker threads for pass 2 of the derivation: each builds an ArtistDeriver from the model, reads
 * the works and lots of each page of artists it is given from its own read-only connection on the
 * snapshot (artist-worker.ts), and returns their rows. The thread that owns the snapshot writes
 * the rows, in page order.
 */
import { Database, constants } from "bun:sqlite";
import { attachWorksReader, immutableUri, worksViewOfSnapshot } from "../db/works-file";
import { workerEntry } from "../../platform/native";
import type { ArtistModel, ArtistNoise, ArtistOutput, ArtistRow } from "./artist";

/**
 * A connection that reads the snapshot at `path` beside its writer: read-only and `immutable`
 * (SQLite takes no lock and never checks the file for changes), so the writer's commits never
 * wait for it. Only for tables the writer leaves alone while it is open. Refused on a file with
 * auto-vacuum, whose commits may move any table's pages. The snapshot's works file
 * (src/pipeline/db/works-file.ts), while it is being built, is attached the same way.
 */
export function openSnapshotReader(path: string, options: { worksFrom?: string } = {}): Database {
  const db = new Database(immutableUri(path), constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
  const vacuum = db.query<{ auto_vacuum: number }, []>("PRAGMA auto_vacuum").get()?.auto_vacuum ?? 0;
  if (vacuum !== 0) {
    db.close();
    throw new Error(`${path} has auto_vacuum = ${vacuum}: its pages may move under a reader`);
  }
  db.run("PRAGMA cache_size = -65536");
  if (options.worksFrom) worksViewOfSnapshot(db, options.worksFrom);
  else attachWorksReader(db, path);
  return db;
}

export class ArtistPool {
  private readonly workers: Worker[] = [];
  private readonly outstanding: number[] = [];
  private readonly waiting = new Map<number, { resolve: (rows: ArtistOutput[]) => void; reject: (err: Error) => void; worker: number }>();
  private nextId = 0;

  /**
   * `snapshot`: the path of the snapshot's file, which each thread opens with openSnapshotReader;
   * `worksFrom`: a finished snapshot whose served artworks the threads read the works' source rows
   * from (a merge, whose own artworks its writer rewrites meanwhile: src/pipeline/derive/touched.ts).
   */
  constructor(threads: number, model: ArtistModel, noise: ArtistNoise, snapshot: string, worksFrom?: string) {
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(workerEntry("pipeline/derive/artist-worker.ts"));
      worker.onmessage = (event: MessageEvent) => {
        const msg = event.data as { page: number; rows?: ArtistOutput[]; error?: string };
        const entry = this.waiting.get(msg.page);
        if (!entry) return;
        this.waiting.delete(msg.page);
        this.outstanding[entry.worker]!--;
        if (msg.error !== undefined) entry.reject(new Error(`derivation worker: ${msg.error}`));
        else entry.resolve(msg.rows!);
      };
      worker.onerror = (event: ErrorEvent) => {
        for (const [page, entry] of this.waiting) {
          if (entry.worker !== i) continue;
          this.waiting.delete(page);
          entry.reject(new Error(`derivation worker: ${event.message}`));
        }
      };
      worker.postMessage({ model, noise, snapshot, worksFrom });
      this.workers.push(worker);
      this.outstanding.push(0);
    }
  }

  /** The rows of a page of artists, read and derived on the least busy thread. */
  derive(artists: ArtistRow[]): Promise<ArtistOutput[]> {
    let w = 0;
    for (let k = 1; k < this.workers.length; k++) if (this.outstanding[k]! < this.outstanding[w]!) w = k;
    const page = this.nextId++;
    this.outstanding[w]!++;
    return new Promise((resolve, reject) => {
      this.waiting.set(page, { resolve, reject, worker: w });
      this.workers[w]!.postMessage({ page, artists });
    });
  }

  close(): void {
    for (const worker of this.workers) worker.terminate();
    this.workers.length = 0;
    for (const entry of this.waiting.values()) entry.reject(new Error("derivation stopped"));
    this.waiting.clear();
  }
}
