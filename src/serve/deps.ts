/**
 * What every handler can reach (the connections and the process-wide services), defined apart from
 * the HTTP layer so that modules, images and the cluster use it without importing the pipeline.
 */
import type { Database } from "bun:sqlite";
import type { Config } from "../platform/config";
import type { FxCache } from "../db/fx";
import type { AccountStore } from "./accounts/store";
import type { KeyVerifier } from "./accounts/keys";
import type { MeteringLedger } from "./accounts/ledger";
import type { ImageSigner } from "./images/urls";
import type { MarketSnapshot } from "./snapshot";
import type { LiveMarket } from "./live-market";
import type { RequestLimiter } from "./http/metering";
import type { BodyBudget } from "./http/body-budget";
import type { ServiceControl } from "./http/control";
import type { MetricsRegistry } from "./http/metrics";

/** What every handler can reach: the connections and the process-wide services. */
export interface AppDeps {
  readonly config: Config;
  /**
   * The account store (users, keys, plans, the ledger's rows, follows, shares, collectables): over
   * account.db by default, over PostgreSQL with `--account-store postgres://…`.
   */
  readonly accounts: AccountStore;
  /** account.db's writing connection with the SQLite store; null with the PostgreSQL store. */
  readonly account: Database | null;
  /** market.db read-only, with account.db attached as `account`. */
  readonly market: Database;
  /** The facts of `market` found once (indexes, counts, vector indexes…): snapshotOf(market). */
  readonly snapshot: MarketSnapshot;
  readonly verifier: KeyVerifier;
  readonly ledger: MeteringLedger;
  /** The request-rate limits: the workers' shared counters, or PostgreSQL's across nodes (asynchronous). */
  readonly limiter: RequestLimiter;
  /** Daily reference rates of the market, in memory. */
  readonly fx: FxCache;
  readonly signer: ImageSigner;
  /** The market's "today" (market_meta as_of; today for a market without one). */
  readonly asOf: string;
  /** Turns auth and metering off: only for the benchmark's bare baseline. */
  readonly bare?: boolean;
  /** The bound on request-body bytes held at once (default: one process-wide budget). */
  readonly bodies?: BodyBudget;
  /** The server's state, worker count and metrics (/readyz, /metrics); one ready worker when absent. */
  readonly control?: ServiceControl;
  /** This worker's metrics (the listener records into it). */
  readonly metrics?: MetricsRegistry;
  /**
   * A server's worker: the market that moves to each published snapshot (src/serve/live-market.ts).
   * `market`, `snapshot`, `fx` and `asOf` then name its current view; a request runs on the view
   * it started on.
   */
  readonly live?: LiveMarket;
}
