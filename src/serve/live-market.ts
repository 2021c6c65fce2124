/**
 * The market a worker serves, and its hot swap (issue 33, item 3). A MarketView is one open
 * market.db with everything keyed on it: the connection (its prepared statements), its MarketSnapshot (tables, counts, vector indexes, artist statistics,
 * the snapshot id that ETags and cursors carry), the FX cache and the as-of date. A LiveMarket
 * holds the view that new requests get (`enter`) and the views requests still run on: a swap
 * opens the new view beside the old one, points new requests at it, and closes the old one when
 * its last request leaves (`leave`). A request stays on the view it entered with, whatever
 * swaps meanwhile. The old file's disk space is freed by the kernel once its last connection
 * closes (it was unlinked when the new file was renamed over market.db).
 */
import type { Database } from "bun:sqlite";
import { fileIdentity, type FileIdentity } from "../db/snapshot-check";
import { FxCache } from "../db/fx";
import { marketDbPath, openMarketReader } from "../db/connection";
import { today } from "../market/time";
import type { AppDeps } from "./deps";
import { type MarketSnapshot, snapshotOf } from "./snapshot";

export interface MarketView {
  readonly market: Database;
  readonly snapshot: MarketSnapshot;
  readonly fx: FxCache;
  readonly asOf: string;
}

/** Opens the data directory's market.db for serving, read-only; `file` is the file it opened, as stat saw it just before. */
export function openMarketView(dataDir: string): MarketView & { file: FileIdentity | null } {
  const file = fileIdentity(marketDbPath(dataDir));
  const market = openMarketReader(dataDir);
  try {
    const asOf = market.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()?.value ?? today();
    return { market, snapshot: snapshotOf(market), fx: FxCache.lazy(market), asOf, file };
  } catch (err) {
    market.close();
    throw err;
  }
}

/** A view with the requests running on it now. */
export interface Generation {
  readonly view: MarketView;
  inFlight: number;
}

export class LiveMarket {
  #current: Generation;
  readonly #retired = new Set<Generation>();
  #closed = false;

  constructor(view: MarketView) {
    this.#current = { view, inFlight: 0 };
  }

  /** The view new requests get now. */
  current(): MarketView {
    return this.#current.view;
  }

  /** A request starts: it runs on the current view until `leave`. */
  enter(): Generation {
    const g = this.#current;
    g.inFlight++;
    return g;
  }

  /** A request ends: an old view whose last request this was is closed. */
  leave(g: Generation): void {
    g.inFlight--;
    if (g.inFlight <= 0 && g !== this.#current && this.#retired.delete(g)) g.view.market.close();
  }

  /** Views no longer current with requests still on them. */
  retired(): number {
    return this.#retired.size;
  }

  /** Points new requests at `view`; the previous view is closed now if idle, else when its last request leaves. */
  swap(view: MarketView): void {
    if (this.#closed) {
      view.market.close();
      return;
    }
    const old = this.#current;
    this.#current = { view, inFlight: 0 };
    if (old.inFlight > 0) this.#retired.add(old);
    else old.view.market.close();
  }

  /** Closes every view (the server stops; no request runs any more). */
  close(): void {
    this.#closed = true;
    for (const g of this.#retired) g.view.market.close();
    this.#retired.clear();
    this.#current.view.market.close();
  }
}

/**
 * `deps` whose market follows a LiveMarket: `market`, `snapshot`, `fx` and `asOf` read its
 * current view (what /readyz, /metrics and the image routes see now), `live` is the LiveMarket
 * (the endpoint pipeline pins a request's view with it: src/serve/http/endpoint.ts).
 */
export function withLiveMarket<T extends AppDeps>(deps: T): T & { readonly live: LiveMarket } {
  const live = new LiveMarket({ market: deps.market, snapshot: deps.snapshot, fx: deps.fx, asOf: deps.asOf });
  const current = (k: keyof MarketView) => ({ get: () => live.current()[k], enumerable: true, configurable: true });
  return Object.defineProperties({ ...deps, live }, { market: current("market"), snapshot: current("snapshot"), fx: current("fx"), asOf: current("asOf") });
}
