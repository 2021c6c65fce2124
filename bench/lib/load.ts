/** What a load generator run is asked to do and what it reports, whichever tool ran it. */

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  /**
   * Authorization values to spread the load over, evenly (several accounts): wrk takes them in
   * turn request by request, the Bun generator one per connection in turn. `headers` then carries
   * no Authorization.
   */
  authorizations?: string[];
  /** Concurrent keep-alive connections. */
  connections: number;
  /** wrk threads (the Bun fallback always uses one process). */
  threads: number;
  seconds: number;
  /** Upper bound on requests (the Bun fallback honours it; wrk is bounded by time only). */
  maxRequests: number;
}

export interface LoadResult {
  tool: "wrk" | "bun";
  /** Responses completed. */
  requests: number;
  seconds: number;
  rps: number;
  p50ms: number;
  p90ms: number;
  p99ms: number;
  /** Responses with status 200. */
  ok200: number;
  /** Responses that were not 2xx/3xx. */
  non2xx: number;
  /** Responses that carried an X-Service-DataUnits header. */
  withDu: number;
  /** Connect/read/write errors and timeouts. */
  socketErrors: number;
}

export const DU_HEADER = "X-Service-DataUnits";
