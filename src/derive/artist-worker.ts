/**
 * A worker thread of the derivation's pass 2 (artist-pool.ts): it fits each page of artists it
 * is sent (with their works and lots) and posts back their rows. It never opens the snapshot.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts): a `bun build --compile`
 * binary only holds the workers it was told about.
 *
 * Messages in:  { model, noise } once, then { page, sources: ArtistSource[] }.
 * Messages out: { page, rows: ArtistOutput[] } or { page, error }.
 */
import { ArtistDeriver, type ArtistModel, type ArtistNoise, type ArtistSource } from "./artist";

declare const self: Worker;

let deriver: ArtistDeriver | null = null;
let noise: ArtistNoise | null = null;

self.onmessage = (event: MessageEvent) => {
  const msg = event.data as { model?: ArtistModel; noise?: ArtistNoise; page?: number; sources?: ArtistSource[] };
  if (msg.model !== undefined) {
    deriver = new ArtistDeriver(msg.model);
    noise = msg.noise!;
    return;
  }
  try {
    const rows = msg.sources!.map((source) => deriver!.derive(source, noise!));
    self.postMessage({ page: msg.page, rows });
  } catch (err) {
    self.postMessage({ page: msg.page, error: err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err) });
  }
};
