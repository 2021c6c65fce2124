/**
 * What a worker knows of the whole server, for /readyz and /metrics: the server's state (set by
 * the supervisor in memory every worker shares), its worker count, and the metrics of all workers
 * added up (the supervisor collects them). The in-process app of the tests, which has no
 * supervisor, uses `localControl`: always ready, one worker, its own registry.
 */
import { type MetricsRegistry, mergeSnapshots, processStats, renderMetrics } from "./metrics";
import type { PublishedFile } from "./snapshot-routes";

export type ServerState = "starting" | "ready" | "draining";

export interface ServiceControl {
  readonly workers: number;
  state(): ServerState;
  /** The whole server's metrics, Prometheus text format 0.0.4. */
  metrics(): Promise<string>;
  /**
   * The snapshot served, with its SHA-256 once computed, for the nodes that follow this one
   * (./snapshot-routes.ts): null until then (asking starts the computation); absent: none published.
   */
  published?(): PublishedFile | null;
}

/** The states as the shared Int32 holds them. */
export const STATES: readonly ServerState[] = ["starting", "ready", "draining"];

export function localControl(registry: MetricsRegistry, extra: () => { keyCacheHits: number; ledgerPending: number; keyVerifications: number }, version: string): ServiceControl {
  return {
    workers: 1,
    state: () => "ready",
    metrics: async () => {
      const { keyVerifications, ...counts } = extra();
      return renderMetrics(mergeSnapshots([registry.snapshot(counts)]), { version, workers: 1, keyVerifications, process: processStats() });
    },
  };
}
