/**
 * The object an event is about, as its recipient's plan shows it (docs/webhooks.md): the lot,
 * artwork, artist or sale in the full or the public schema, read from the snapshot served, with
 * the recipient's is_followed. The feed puts it in each event's `data.object` when it is read, a
 * webhook delivery when it is queued.
 */
import type { AppDeps } from "../deps";
import type { Schema } from "../http/endpoint";
import type { CallerView } from "../http/view";
import { artworksByIds } from "../modules/artworks/model";
import { artistsByIds } from "../modules/artists/service";
import { lotObjects } from "../modules/lots/service";
import { saleObjects } from "../modules/sales/service";

export interface Subject {
  kind: string;
  id: number;
}

/** The objects of `subjects` for one recipient, by `kind:id` (a subject the market no longer holds has none). */
export function subjectObjects(deps: AppDeps, view: CallerView, subjects: readonly Subject[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const ids = (kind: string) => [...new Set(subjects.filter((s) => s.kind === kind).map((s) => s.id))];
  const keep = (kind: string, objects: Record<string, unknown>[]) => {
    for (const o of objects) out.set(`${kind}:${o.id}`, o);
  };
  const lots = ids("lot");
  if (lots.length) keep("lot", lotObjects(deps, lots, view));
  const sales = ids("sale");
  if (sales.length) keep("sale", saleObjects(deps, sales, view));
  const artworks = ids("artwork");
  if (artworks.length) keep("artwork", artworksByIds(deps, view, artworks));
  const artists = ids("artist");
  if (artists.length) keep("artist", artistsByIds(deps.market, artists, { ...view, signer: deps.signer, accounts: deps.accounts }));
  return out;
}

/** How a recipient sees objects outside a request: their schema, their follows, full images, the service's public address. */
export function recipientView(deps: AppDeps, userId: number, schema: Schema): CallerView {
  return { schema, userId, image: "full", origin: deps.config.publicUrl ?? `http://${deps.config.host}:${deps.config.port}` };
}
