/**
 * Metering around a handled request: request-rate limits, the hard cap of plans that have one,
 * and the DU headers. Pricing itself is src/serve/http/pricing.ts; the durable record is the Ledger.
 */
import type { Caller } from "../accounts/keys";
import type { Windows } from "../accounts/ledger";
import { addDays } from "../../market/time";
import { formatDu } from "./pricing";
import { HttpError } from "./errors";
import { AccountCounters, F } from "../accounts/counters";

export const DU_HEADERS = ["X-Service-DataUnits", "X-Service-DataUnits-Remaining", "X-Service-DataUnits-Period-End"] as const;

/** An account's request windows after a call: each window's quota, what is left, seconds to its reset. */
export interface RateState {
  second: { quota: number; remaining: number; reset: number };
  minute: { quota: number; remaining: number; reset: number };
}

/**
 * The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers): the policy of both windows,
 * and the state of the window nearest to running out (the smaller share left).
 */
export function rateLimitHeaders(state: RateState): Record<string, string> {
  const { second: s, minute: m } = state;
  const nearest = m.remaining / m.quota < s.remaining / s.quota ? (["minute", m] as const) : (["second", s] as const);
  return {
    "RateLimit-Policy": `"second";q=${s.quota};w=1, "minute";q=${m.quota};w=60`,
    RateLimit: `"${nearest[0]}";r=${nearest[1].remaining};t=${nearest[1].reset}`,
  };
}

/** Counts a call against its account's request-rate limits, or throws 429 (RateLimiter; PgRateLimiter across nodes). */
export interface RequestLimiter {
  check(caller: Caller, now?: number): RateState | Promise<RateState>;
}

/** A plan's request limits per second and per minute, its throttle applied (at least 1 each). */
export function rateLimitsOf(caller: Caller): { rps: number; rpm: number } {
  const plan = caller.plan;
  return {
    rps: Math.max(1, Math.floor(plan.rps_limit * plan.throttle_multiplier)),
    rpm: Math.max(1, Math.floor(plan.rpm_limit * plan.throttle_multiplier)),
  };
}

/** The windows' state at `now` (ms) with `perSecond` and `perMinute` calls counted in the current second and minute. */
export function rateState(rps: number, rpm: number, perSecond: number, perMinute: number, now: number): RateState {
  const second = Math.floor(now / 1000);
  const minute = Math.floor(now / 60_000);
  return {
    second: { quota: rps, remaining: Math.max(0, rps - perSecond), reset: Math.max(1, Math.ceil(((second + 1) * 1000 - now) / 1000)) },
    minute: { quota: rpm, remaining: Math.max(0, rpm - perMinute), reset: Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000)) },
  };
}

/** The 429 of a full window, with Retry-After to its reset and the RateLimit headers. */
export function rateLimited(state: RateState, window: "second" | "minute"): HttpError {
  const w = state[window];
  return new HttpError(429, `Rate limit exceeded: ${w.quota} requests per ${window}`, { "Retry-After": String(w.reset), ...rateLimitHeaders(state) });
}

/**
 * Fixed-window request counters per account, across every worker of the server: rps_limit ×
 * throttle_multiplier per second and rpm_limit × throttle_multiplier per minute. A refused
 * request does not count.
 */
export class RateLimiter implements RequestLimiter {
  /** The counters shared by every worker of the server (a table of its own by default). */
  constructor(readonly counters: AccountCounters = AccountCounters.create()) {}

  /** Counts the call, or throws 429 (with Retry-After and the RateLimit headers); returns the windows' state. */
  check(caller: Caller, now: number = Date.now()): RateState {
    const { rps, rpm } = rateLimitsOf(caller);
    const second = Math.floor(now / 1000);
    const minute = Math.floor(now / 60_000);
    const v = this.counters.values;
    // the windows' counts after this call (or as they stand, when it is refused)
    const [perSecond, perMinute, refused] = this.counters.withSlot(caller.userId, (b): [number, number, "second" | "minute" | null] => {
      if (v[b + F.second] !== second) {
        v[b + F.second] = second;
        v[b + F.perSecond] = 0;
      }
      if (v[b + F.minute] !== minute) {
        v[b + F.minute] = minute;
        v[b + F.perMinute] = 0;
      }
      if (v[b + F.perSecond]! >= rps) return [v[b + F.perSecond]!, v[b + F.perMinute]!, "second"];
      if (v[b + F.perMinute]! >= rpm) return [v[b + F.perSecond]!, v[b + F.perMinute]!, "minute"];
      v[b + F.perSecond]!++;
      v[b + F.perMinute]!++;
      return [v[b + F.perSecond]!, v[b + F.perMinute]!, null];
    });
    const state = rateState(rps, rpm, perSecond, perMinute, now);
    if (refused) throw rateLimited(state, refused);
    return state;
  }
}

/** The hard cap: a plan whose cap is hard answers 429 once its period allowance is used up. */
export function enforceCap(caller: Caller, w: Windows, now: number = Date.now()): void {
  if (caller.plan.features.cap !== "hard") return;
  if (w.periodConsumed < caller.plan.du_limit) return;
  const resetAt = Date.parse(`${addDays(w.period.end, 1)}T00:00:00Z`);
  throw new HttpError(429, `Data Unit allowance of ${caller.plan.du_limit} for the period ${w.period.start} to ${w.period.end} is used up`, {
    "Retry-After": String(Math.max(1, Math.ceil((resetAt - now) / 1000))),
  });
}

/** Sets the three DU headers: this call's cost, what remains of the period, the period's last day. */
export function setDuHeaders(headers: Record<string, string>, caller: Caller, du: number, charged: { periodConsumed: number; periodEnd: string }): void {
  headers["X-Service-DataUnits"] = formatDu(du);
  headers["X-Service-DataUnits-Remaining"] = formatDu(Math.max(0, caller.plan.du_limit - charged.periodConsumed));
  headers["X-Service-DataUnits-Period-End"] = charged.periodEnd;
}
