/**
 * A worker thread of the derivation's pass 2 (artist-pool.ts): it reads the snapshot on a
 * read-only connection of its own and derives each page of artists it is sent.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts): a `bun build --compile`
 * binary only holds the workers it was told about.
 *
 * Messages in:  { dbPath, model, noise } once, then { page, artists: ArtistRow[] }.
 * Messages out: { page, rows: ArtistOutput[] } or { page, error }.
 */
import { Database } from "bun:sqlite";
import { ArtistDeriver, type ArtistModel, type ArtistNoise, type ArtistRow } from "./artist";

declare const self: Worker;

let deriver: ArtistDeriver | null = null;
let noise: ArtistNoise | null = null;

self.onmessage = (event: MessageEvent) => {
  const msg = event.data as { dbPath?: string; model?: ArtistModel; noise?: ArtistNoise; page?: number; artists?: ArtistRow[] };
  if (msg.dbPath !== undefined) {
    const db = new Database(msg.dbPath, { readonly: true, strict: true });
    // the owning thread commits a page of rows at a time; reads wait for its commits
    db.run("PRAGMA busy_timeout = 60000");
    db.run("PRAGMA cache_size = -65536");
    deriver = new ArtistDeriver(db, msg.model!);
    noise = msg.noise!;
    return;
  }
  try {
    const rows = msg.artists!.map((a) => deriver!.derive(a, noise!));
    self.postMessage({ page: msg.page, rows });
  } catch (err) {
    self.postMessage({ page: msg.page, error: err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err) });
  }
};
