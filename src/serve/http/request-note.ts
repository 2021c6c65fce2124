/**
 * What the pipeline learns about a request that the listener cannot see: the route template the
 * request matched, the DU it was charged and the key's id. The access log and the metrics read it
 * when the response leaves (src/serve/http/serve.ts); a request no endpoint handled has none.
 */
export interface RequestNote {
  /** The endpoint's path template (`/v1/artists/{artist_id}`). */
  route: string;
  du: number;
  keyId: number | null;
  plan: string | null;
  /** The market snapshot the request ran on (its X-Market-Snapshot). */
  snapshot?: string;
}

const notes = new WeakMap<Request, RequestNote>();

/** The request's note, made on first use: the pipeline fills it in as it goes. */
export function noteOf(request: Request, route: string): RequestNote {
  let note = notes.get(request);
  if (!note) {
    note = { route, du: 0, keyId: null, plan: null };
    notes.set(request, note);
  }
  return note;
}

export function requestNote(request: Request): RequestNote | undefined {
  return notes.get(request);
}
