/**
 * Worker threads for pass 2 of the derivation: each builds an ArtistDeriver from the model and
 * returns the rows of each page of artists it is given, with their works and lots. The thread
 * that owns the snapshot reads those and writes the rows, in page order: the threads never open
 * the snapshot.
 */
import { dirname } from "node:path";
import { isCompiled } from "../platform/native";
import type { ArtistModel, ArtistNoise, ArtistOutput, ArtistSource } from "./artist";

/**
 * The worker's entry: beside this file from source; in the compiled binary, where the build put
 * it (scripts/build.ts lists it as an entry point).
 */
function workerEntry(): string {
  return isCompiled ? `${dirname(Bun.main)}/derive/artist-worker.ts` : new URL("./artist-worker.ts", import.meta.url).href;
}

export class ArtistPool {
  private readonly workers: Worker[] = [];
  private readonly outstanding: number[] = [];
  private readonly waiting = new Map<number, { resolve: (rows: ArtistOutput[]) => void; reject: (err: Error) => void; worker: number }>();
  private nextId = 0;

  constructor(threads: number, model: ArtistModel, noise: ArtistNoise) {
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(workerEntry());
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
      worker.postMessage({ model, noise });
      this.workers.push(worker);
      this.outstanding.push(0);
    }
  }

  /** The rows of a page of artists, derived on the least busy thread. */
  derive(sources: ArtistSource[]): Promise<ArtistOutput[]> {
    let w = 0;
    for (let k = 1; k < this.workers.length; k++) if (this.outstanding[k]! < this.outstanding[w]!) w = k;
    const page = this.nextId++;
    this.outstanding[w]!++;
    return new Promise((resolve, reject) => {
      this.waiting.set(page, { resolve, reject, worker: w });
      this.workers[w]!.postMessage({ page, sources });
    });
  }

  close(): void {
    for (const worker of this.workers) worker.terminate();
    this.workers.length = 0;
    for (const entry of this.waiting.values()) entry.reject(new Error("derivation stopped"));
    this.waiting.clear();
  }
}
