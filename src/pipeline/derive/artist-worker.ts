/**
 * A worker thread of the derivation's pass 2 (artist-pool.ts): it reads each artist of a page it
 * is sent (works and lots) from its own read-only connection on the snapshot, fits them and
 * posts back their rows.
 *
 * The connection is opened `immutable` (no locks, no change detection): the thread that owns the
 * snapshot keeps writing the served tables meanwhile, but pass 2 reads only src_artworks and lots,
 * which nothing writes until the derivation ends, and the snapshot has no auto-vacuum to move
 * their pages (openSnapshotReader checks). A reader that took locks would make every commit wait
 * for it (docs/derivation.md).
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts): a `bun build --compile`
 * binary only holds the workers it was told about.
 *
 * Messages in:  { model, noise, snapshot, worksFrom? } once, then { page, artists: ArtistRow[] }.
 * Messages out: { page, rows: ArtistOutput[] } or { page, error }.
 */
import { ArtistDeriver, artistReader, type ArtistModel, type ArtistNoise, type ArtistRow, type ArtistSource } from "./artist";
import { openSnapshotReader } from "./artist-pool";

declare const self: Worker;

let deriver: ArtistDeriver | null = null;
let noise: ArtistNoise | null = null;
let read: ((artist: ArtistRow) => ArtistSource) | null = null;
/** Why the snapshot could not be opened: every page fails with it. */
let failed: string | null = null;

self.onmessage = (event: MessageEvent) => {
  const msg = event.data as { model?: ArtistModel; noise?: ArtistNoise; snapshot?: string; worksFrom?: string; page?: number; artists?: ArtistRow[] };
  if (msg.model !== undefined) {
    deriver = new ArtistDeriver(msg.model);
    noise = msg.noise!;
    try {
      read = artistReader(openSnapshotReader(msg.snapshot!, { worksFrom: msg.worksFrom }));
    } catch (err) {
      failed = `cannot read the snapshot: ${err instanceof Error ? err.message : String(err)}`;
    }
    return;
  }
  if (failed !== null) {
    self.postMessage({ page: msg.page, error: failed });
    return;
  }
  try {
    const rows = msg.artists!.map((artist) => deriver!.derive(read!(artist), noise!));
    self.postMessage({ page: msg.page, rows });
  } catch (err) {
    self.postMessage({ page: msg.page, error: err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err) });
  }
};
