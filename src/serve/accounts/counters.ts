/**
 * The per-account counters every HTTP worker of a server shares: the request windows of the rate
 * limits (second and minute), the DU consumption of the three allowance windows (entitlement
 * period, UTC day, calendar month) and the hard cap's admissions in flight. They live in one
 * SharedArrayBuffer: the supervisor makes it and posts it to each worker, so a limit or a cap is
 * per account across workers, not per worker (src/serve/cluster). One server with one worker, and
 * the in-process app of the tests, use the same table in a buffer of their own. The table also
 * holds each account's follows version, which account.db's store copies of a user's follows are
 * checked against (src/serve/accounts/sql/dialect.ts).
 *
 * Layout: an open-addressing hash table of `capacity` slots keyed by user id. Each slot has an
 * Int32 spin lock, the Int32 user id (0: free; claimed once with compareExchange, never freed) and
 * FIELDS Float64 values. Every read-modify-write of a slot's values runs under its lock
 * (`withSlot`); the critical sections are a few arithmetic steps (plus, once per account and
 * server, the read of its consumption from the ledger), so a spin lock costs less than anything
 * that sleeps. Atomics on the lock order the plain Float64 accesses between threads.
 */

import { HttpError } from "../http/errors";

/** What a slot holds, by index into its values. */
export const F = {
  /** Rate limits: the current second and minute (epoch numbers) and the requests counted in each. */
  second: 0,
  perSecond: 1,
  minute: 2,
  perMinute: 3,
  /** 1 once the allowance windows below were loaded from the ledger. */
  loaded: 4,
  /** The entitlement period (day numbers, inclusive) and its consumption. */
  periodStart: 5,
  periodEnd: 6,
  periodConsumed: 7,
  /** The UTC day (day number) and its consumption. */
  day: 8,
  dayConsumed: 9,
  /** The calendar month's first day (day number) and its consumption. */
  monthStart: 10,
  monthConsumed: 11,
  /** Hard-cap admissions in flight, and the most DU they may still add (see Ledger.admit). */
  inFlight: 12,
  reserved: 13,
  /** The account's follows version: moved by each follow or unfollow on any thread (touchFollows). */
  followsVersion: 14,
} as const;

const FIELDS = 16;
/** Bytes per slot in the values array. */
const SLOT_BYTES = FIELDS * 8;

export class AccountCounters {
  readonly capacity: number;
  private readonly locks: Int32Array;
  private readonly ids: Int32Array;
  /** The values: slot s holds values[s * FIELDS + field]. */
  readonly values: Float64Array;

  /** A new table for `capacity` accounts (a power of two; about 136 bytes each). */
  static create(capacity = 1 << 16): AccountCounters {
    if (capacity <= 0 || (capacity & (capacity - 1)) !== 0) throw new Error(`capacity must be a power of two, got ${capacity}`);
    return new AccountCounters(new SharedArrayBuffer(capacity * (8 + SLOT_BYTES)));
  }

  /** The table over a buffer another thread made (create(…).buffer). */
  constructor(readonly buffer: SharedArrayBuffer) {
    this.capacity = buffer.byteLength / (8 + SLOT_BYTES);
    this.values = new Float64Array(buffer, 0, this.capacity * FIELDS);
    this.locks = new Int32Array(buffer, this.capacity * SLOT_BYTES, this.capacity);
    this.ids = new Int32Array(buffer, this.capacity * SLOT_BYTES + this.capacity * 4, this.capacity);
  }

  /** The slot of a user, claimed on first use (linear probing from the id's hash). */
  slotOf(userId: number): number {
    const mask = this.capacity - 1;
    let i = (Math.imul(userId, 0x9e3779b1) >>> 0) & mask;
    for (let probes = 0; probes < this.capacity; probes++, i = (i + 1) & mask) {
      const id = Atomics.load(this.ids, i);
      if (id === userId) return i;
      if (id === 0) {
        const was = Atomics.compareExchange(this.ids, i, 0, userId);
        if (was === 0 || was === userId) return i;
      }
    }
    throw new HttpError(503, `More than ${this.capacity} accounts have called this server since it started; retry later`, { "Retry-After": "60" });
  }

  /** Runs `fn` with the user's slot locked; `base` indexes the slot's values (values[base + F.x]). */
  withSlot<T>(userId: number, fn: (base: number) => T): T {
    const slot = this.slotOf(userId);
    const locks = this.locks;
    let spins = 0;
    while (Atomics.compareExchange(locks, slot, 0, 1) !== 0) {
      // another thread holds it for a few arithmetic steps: spin, then yield the core now and then
      if (++spins % 1024 === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 0);
    }
    try {
      return fn(slot * FIELDS);
    } finally {
      Atomics.store(locks, slot, 0);
    }
  }

  /** Marks every account's allowance windows for a reload from the ledger (after a plan change). */
  unloadAll(): void {
    for (let slot = 0; slot < this.capacity; slot++) {
      if (Atomics.load(this.ids, slot) === 0) continue;
      this.withSlot(Atomics.load(this.ids, slot), (base) => {
        this.values[base + F.loaded] = 0;
      });
    }
  }

  /** The account's follows version: a store's copy of the user's follows serves while it stands. */
  followsVersion(userId: number): number {
    return this.withSlot(userId, (base) => this.values[base + F.followsVersion]!);
  }

  /** Moves the account's follows version (a follow or an unfollow, on any of the server's threads). */
  touchFollows(userId: number): void {
    this.withSlot(userId, (base) => {
      this.values[base + F.followsVersion]! += 1;
    });
  }

  /** Marks one account's allowance windows for a reload (a failed ledger write). */
  unload(userId: number): void {
    this.withSlot(userId, (base) => {
      this.values[base + F.loaded] = 0;
    });
  }
}
