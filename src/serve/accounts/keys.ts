/**
 * API keys. A key is `am_<kid>_<secret>`: kid is a public id that finds the row, the secret is 32
 * random bytes. Only an argon2id hash of the whole key is stored. Verification runs argon2 once
 * per key and server; the verdict is cached with the hash it was checked against. Revocation and
 * plan changes: account.db's `account_epoch` counter moves (triggers) whenever a key is revoked or
 * removed or a user's plan or a plan changes, whoever made the change (`artmarket keys revoke`,
 * another worker, another node). Each verifier reads it at most once per event-loop turn (after
 * PRAGMA data_version said account.db changed); when it moved, every cached verdict is checked
 * again on its next use with one indexed lookup, no argon2: a revoked key is refused from the next
 * turn on, a key whose stored hash is still the one verified keeps going with its user's current
 * plan.
 *
 * With several HTTP workers (src/serve/cluster), a worker's verifier asks the supervisor's
 * (`remote`) for every key it has not verified yet: argon2 and the limits below run in one place,
 * once per key for the whole server, and the workers cache the answer.
 *
 * Failed verifications. The kid is public, so anyone can make the server run argon2 (about 10 ms of
 * CPU) by sending a real kid with a random secret. Hence:
 * - Valid verdicts live in their own map, bounded only by the live keys: no number of wrong keys
 *   evicts one. Failed verdicts live in a separate LRU of AUTH_LIMITS.failedCacheSize keys, so a
 *   repeated wrong key costs a map lookup. Unknown, revoked and malformed keys never run argon2 and
 *   are not cached at all. Concurrent requests with one uncached key share one argon2 run.
 * - Failed argon2 runs are limited per kid (10 a minute) and per client address (30 a minute, all
 *   kids together), as token buckets: each verification spends one token of both before argon2
 *   runs, a right secret gives them back, a token returns every window/limit (6 s per kid, 2 s per
 *   address). With an empty bucket a new secret is refused with 429 and Retry-After, without argon2.
 *   A refused attempt spends a token of its address too, down to a debt of one window's tokens: an
 *   address that keeps flooding stays refused until it has been quiet for about a window.
 * - At most AUTH_LIMITS.maxConcurrent argon2 runs at once (4, fewer on small machines), the rest
 *   queue; past AUTH_LIMITS.maxQueued waiting, 503 with Retry-After: 1.
 * Trade-off: without argon2 a valid key cannot be told from a wrong one. A key already verified is
 * served from the valid map before any limit is looked at, so a flood never locks out a client in
 * use. A key not yet verified under an attacked kid (after a restart, say) shares the kid's refill:
 * it gets through with the next token nobody else took, and at the latest once the flood stops for
 * one token interval. A flood from one address soon runs its own bucket into debt and then takes
 * none of the kid's tokens, so the next one goes to another client: only an attack spread over
 * many addresses keeps a kid's new verifications waiting, and only while it lasts. Clients behind
 * one address (NAT, or a reverse proxy without --trust-proxy) share its bucket: an attacker among
 * them delays their keys not yet verified, never those in use.
 */
import type { Database } from "bun:sqlite";
import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";
import { HttpError, unauthorized } from "../http/errors";
import { getPlan, type Plan } from "./plans";
import { accountStore } from "./store";

/** A kid: 16 lowercase hex digits (8 random bytes). */
const KID = "[0-9a-f]{16}";
const KID_PATTERN = new RegExp(`^${KID}$`);
const KEY_PATTERN = new RegExp(`^am_(${KID})_([A-Za-z0-9_-]{43})$`);

/** Whether `key` has the shape of an artmarket key (am_<16 hex>_<43 base64url>), whether or not it exists. */
export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}
const ARGON2 = { algorithm: 2 /* argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** The argon2id hash of a key, as api_keys.hash stores it. */
export function hashKey(key: string): Promise<string> {
  return hash(key, ARGON2);
}

export class KeyError extends Error {}

/** What a key (or a console session) may do: `read` keys make GET and HEAD calls only. */
export type KeyScope = "full" | "read";

/** member | admin: an admin also manages users, reads everyone's usage and the audit log. */
export type Role = "member" | "admin";

export interface Caller {
  readonly userId: number;
  /** The key the call came with; 0 for a console session (src/serve/accounts/sessions.ts). */
  readonly keyId: number;
  readonly userName: string;
  readonly plan: Plan;
  readonly periodAnchor: string;
  readonly scope: KeyScope;
  readonly role: Role;
  /** When the key stops working (ms), or null. */
  readonly expiresAt: number | null;
  /** The console session the call came with (its id, the token's hash), or null for a key. */
  readonly sessionId: string | null;
}

/** The caller behind a key's row and its user's plan. */
function callerOf(row: KeyRow, plan: Plan): Caller {
  return Object.freeze({
    userId: row.user_id,
    keyId: row.key_id,
    userName: row.user_name,
    plan,
    periodAnchor: row.period_anchor,
    scope: row.scope === "read" ? "read" : "full",
    role: row.role === "admin" ? "admin" : "member",
    expiresAt: row.expires_at,
    sessionId: null,
  });
}

/** Whether a key's row no longer admits calls at `now`: revoked, its user disabled, or expired. */
export function keyClosed(row: KeyRow, now: number): "revoked" | "expired" | null {
  if (row.revoked_at !== null || row.disabled_at !== null) return "revoked";
  if (row.expires_at !== null && row.expires_at <= now) return "expired";
  return null;
}

export interface CreatedKey {
  userId: number;
  keyId: number;
  kid: string;
  key: string;
  plan: string;
}

/**
 * Whether `idOrKid` (the argument of `keys revoke`, say) names a key by its numeric id rather than
 * its kid: digits, and not 16 of them. About one kid in 1,800 is all decimal digits; read as an id,
 * it named no key (no id has 16 digits).
 */
export function isKeyId(idOrKid: string): boolean {
  return /^\d+$/.test(idOrKid) && !KID_PATTERN.test(idOrKid);
}

/** A new key and its public id (the key is shown once and never stored). */
export function randomKey(): { kid: string; key: string } {
  const kid = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  return { kid, key: `am_${kid}_${secret}` };
}

/**
 * Creates a user on `planSlug` with one key in account.db; the key is returned once and never
 * stored. The store's SQL (sql/keys.ts), as the next two.
 */
export function createUserWithKey(db: Database, planSlug: string, name?: string): Promise<CreatedKey> {
  return accountStore(db).createUserWithKey(planSlug, name);
}

export interface KeyListing {
  id: number;
  kid: string;
  user_id: number;
  name: string;
  plan: string;
  created_at: string;
  revoked_at: string | null;
}

export function listKeys(db: Database): KeyListing[] {
  return accountStore(db).listKeys();
}

/** Revokes a key by its numeric id or its kid; returns false when no active key matched. */
export function revokeKey(db: Database, idOrKid: string): boolean {
  return accountStore(db).revokeKey(idOrKid);
}

/**
 * The hot path below uses one prepared statement instead of the query builder: it runs on every
 * request whose key is not cached, and the ledger likewise (see ledger.ts).
 */
export interface KeyRow {
  key_id: number;
  hash: string;
  revoked_at: number | null;
  scope: string;
  expires_at: number | null;
  user_id: number;
  user_name: string;
  plan_slug: string;
  period_anchor: string;
  role: string;
  disabled_at: number | null;
}

/** The key row behind a kid, with its user's (one indexed lookup): the same SQL on both stores. */
export const KEY_LOOKUP_SQL = `SELECT k.id AS key_id, k.hash, k.revoked_at, k.scope, k.expires_at, u.id AS user_id, u.name AS user_name, u.plan_slug, u.period_anchor, u.role, u.disabled_at
       FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.kid = ?`;

/** The key row behind a kid, prepared once; shared by KeyVerifier and SqliteAccountStore. */
export function prepareKeyLookup(db: Database) {
  return db.query<KeyRow, [string]>(KEY_LOOKUP_SQL);
}

/** The 401 of a key that expired (its own expiry, or the end of a rotation's overlap). */
export function keyExpired(row: KeyRow): HttpError {
  return unauthorized(`This API key expired at ${new Date(row.expires_at!).toISOString()}; use its replacement, or make a new one (POST /v1/keys).`);
}

/** PRAGMA data_version, prepared once: it changes when another connection commits to account.db. */
export function prepareDataVersion(db: Database) {
  return db.query<{ data_version: number }, []>("PRAGMA data_version");
}

/** The account epoch (migration 0004): it moves when a key is revoked or a plan changes. */
export function prepareEpoch(db: Database) {
  return db.query<{ n: number }, []>("SELECT n FROM account_epoch WHERE id = 1");
}

/**
 * What a KeyVerifier reads: a key's row by kid, a plan, and two counters. `version` is cheap and
 * read at most once per event-loop turn (SQLite: PRAGMA data_version, which moves on any commit
 * by another connection); when it moved, `epoch` is read (it moves only when a key is revoked or
 * a plan changes, see account_epoch).
 */
export interface KeySource {
  lookupKey(kid: string): KeyRow | null;
  plan(slug: string): Plan | null;
  version(): number;
  epoch(): number;
}

/** The KeySource over account.db (statements prepared once). */
export function sqliteKeySource(db: Database): KeySource {
  const lookup = prepareKeyLookup(db);
  const version = prepareDataVersion(db);
  const epoch = prepareEpoch(db);
  return {
    lookupKey: (kid) => lookup.get(kid),
    plan: (slug) => getPlan(db, slug),
    version: () => version.get()!.data_version,
    epoch: () => epoch.get()?.n ?? 0,
  };
}

/** What the supervisor answers a worker's verification: the key is right or wrong, or the limits refused it. */
export type RemoteVerdict = { ok: boolean } | { status: number; message: string; headers: Record<string, string> };

/** The limits on failed verifications; see the module comment. Tests pass smaller ones. */
export const AUTH_LIMITS = {
  /** Failed argon2 verifications one kid may cause per window (a token bucket: one back every window/failures). */
  perKid: { failures: 10, windowMs: 60_000 },
  /** Failed argon2 verifications one client address may cause per window, across all kids. */
  perAddress: { failures: 30, windowMs: 60_000 },
  /** argon2 verifications running at once; more wait in a queue of at most maxQueued, then 503. */
  maxConcurrent: Math.max(1, Math.min(4, availableParallelism())),
  maxQueued: 64,
  /** Failed verdicts remembered (least recently used dropped first); valid ones are never dropped for them. */
  failedCacheSize: 10_000,
  /** Limiter state kept for at most this many kids and addresses (least recently used dropped first). */
  trackedKids: 100_000,
  trackedAddresses: 10_000,
} as const;

export interface KeyVerifierOptions {
  /** The clock of the limits (tests advance their own). */
  now?: () => number;
  /** The argon2 check (tests may stub it). */
  verifyHash?: (hash: string, key: string) => Promise<boolean>;
  perKid?: { failures: number; windowMs: number };
  perAddress?: { failures: number; windowMs: number };
  maxConcurrent?: number;
  maxQueued?: number;
  failedCacheSize?: number;
  /**
   * The supervisor's verification (several workers): runs argon2 and its limits there, once per key
   * for the server. Without it argon2 runs here.
   */
  remote?: (key: string, address: string, refuse: boolean) => Promise<RemoteVerdict>;
}

/**
 * Token buckets by name: `capacity` tokens, refilled evenly over `windowMs`. A failed verification
 * spends one; an empty bucket refuses until the next token. Full buckets are forgotten, and at most
 * `maxEntries` are kept (least recently used dropped first, which forgives that name).
 */
export class Buckets {
  private readonly map = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly capacity: number,
    private readonly windowMs: number,
    private readonly maxEntries: number,
  ) {}

  private level(name: string, now: number): number {
    const b = this.map.get(name);
    if (!b) return this.capacity;
    const refilled = (Math.max(0, now - b.at) * this.capacity) / this.windowMs;
    return Math.min(this.capacity, b.tokens + refilled);
  }

  private set(name: string, tokens: number, now: number): void {
    this.map.delete(name);
    if (tokens >= this.capacity) return;
    if (this.map.size >= this.maxEntries) this.map.delete(this.map.keys().next().value!);
    this.map.set(name, { tokens, at: now });
  }

  /** Milliseconds until `name` has a token (0: it has one now). */
  wait(name: string, now: number): number {
    const tokens = this.level(name, now);
    return tokens >= 1 ? 0 : ((1 - tokens) * this.windowMs) / this.capacity;
  }

  /** Spends a token; `debt` tokens may be owed beyond empty (refused attempts run up a debt). */
  take(name: string, now: number, debt = 0): void {
    this.set(name, Math.max(-debt, this.level(name, now) - 1), now);
  }

  give(name: string, now: number): void {
    this.set(name, this.level(name, now) + 1, now);
  }
}

/** At most `max` tasks at once, at most `maxQueued` waiting; `enter` is null when the queue is full. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly max: number,
    private readonly maxQueued: number,
  ) {}

  enter(): Promise<void> | null {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxQueued) return null;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes to the next in line
    else this.active--;
  }
}

const retryAfter = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/** Resolves bearer keys to callers, with argon2 run once per distinct key. */
export class KeyVerifier {
  /** Verified keys (with the hash they matched and the epoch they were last checked in): bounded by the live keys, never evicted by failed ones. */
  private readonly valid = new Map<string, { caller: Caller; hash: string; epoch: number }>();
  /** Keys whose argon2 check failed, least recently used first (bounded). */
  private readonly failed = new Map<string, true>();
  /** Verifications running now, so concurrent requests with one key share one argon2 run. */
  private readonly pending = new Map<string, Promise<Caller | null>>();
  /** Bumped whenever the verdicts are dropped: a verification that straddles it caches nothing. */
  private generation = 0;
  private dataVersion = -1;
  private epoch = -1;
  /** Lookups a verified key was served from the cache with (the metrics' key cache hits). */
  cacheHits = 0;
  /** How many times argon2 verification ran (tests hold this to one per key). */
  argon2Runs = 0;
  private readonly remote: KeyVerifierOptions["remote"];
  private readonly now: () => number;
  private readonly verifyHash: (hash: string, key: string) => Promise<boolean>;
  private readonly failedCacheSize: number;
  private readonly kids: Buckets;
  private readonly addresses: Buckets;
  private readonly gate: Gate;

  private readonly source: KeySource;

  constructor(
    /** Where keys, plans and the change counters are read: account.db, or a KeySource (PostgreSQL). */
    source: Database | KeySource,
    /** Called when another process changed account.db (a key revoked, a plan edited). */
    private readonly onChange: () => void = () => {},
    options: KeyVerifierOptions = {},
  ) {
    this.source = "lookupKey" in source ? source : sqliteKeySource(source);
    this.remote = options.remote;
    this.now = options.now ?? Date.now;
    this.verifyHash = options.verifyHash ?? ((h, key) => verify(h, key));
    this.failedCacheSize = options.failedCacheSize ?? AUTH_LIMITS.failedCacheSize;
    const perKid = options.perKid ?? AUTH_LIMITS.perKid;
    const perAddress = options.perAddress ?? AUTH_LIMITS.perAddress;
    this.kids = new Buckets(perKid.failures, perKid.windowMs, AUTH_LIMITS.trackedKids);
    this.addresses = new Buckets(perAddress.failures, perAddress.windowMs, AUTH_LIMITS.trackedAddresses);
    this.gate = new Gate(options.maxConcurrent ?? AUTH_LIMITS.maxConcurrent, options.maxQueued ?? AUTH_LIMITS.maxQueued);
  }

  /** Drops every cached verdict. */
  invalidate(): void {
    this.valid.clear();
    this.failed.clear();
    this.pending.clear();
    this.generation++;
  }

  private versionCheckedThisTurn = false;

  /**
   * This process changed keys or users itself (the account area's routes): PRAGMA data_version
   * moves only for other connections' commits, so the next use reads the epoch again (which the
   * change moved) and checks the cached verdicts against their rows.
   */
  accountChanged(): void {
    this.dataVersion = -1;
    this.versionCheckedThisTurn = false;
  }

  /**
   * Reads PRAGMA data_version at most once per event-loop turn, and the account epoch when it
   * changed: requests handled in the same turn share the answer, and a revocation or plan change
   * made anywhere is seen from the next turn on. When the epoch moved, failed verdicts are dropped
   * and valid ones are checked again on their next use (`cached`).
   */
  private checkVersion(): void {
    if (this.versionCheckedThisTurn) return;
    this.versionCheckedThisTurn = true;
    setImmediate(() => {
      this.versionCheckedThisTurn = false;
    });
    const v = this.source.version();
    if (v === this.dataVersion) return;
    this.dataVersion = v;
    const epoch = this.source.epoch();
    if (epoch === this.epoch) return;
    const first = this.epoch === -1;
    this.epoch = epoch;
    this.failed.clear();
    this.pending.clear();
    this.generation++;
    if (!first) this.onChange();
  }

  /** A verified key's entry brought to the current epoch: its row read again, no argon2; null once revoked or changed, undefined once expired. */
  private recheck(key: string, entry: { caller: Caller; hash: string; epoch: number }): Caller | null | undefined {
    const kid = KEY_PATTERN.exec(key)![1]!;
    const row = this.source.lookupKey(kid);
    const plan = row && keyClosed(row, this.now()) === null && row.hash === entry.hash ? this.source.plan(row.plan_slug) : null;
    if (!row || !plan) {
      this.valid.delete(key);
      // an expired key is answered by verify(), which says so
      return row && row.hash === entry.hash && keyClosed(row, this.now()) === "expired" ? undefined : null;
    }
    entry.caller = callerOf(row, plan);
    entry.epoch = this.epoch;
    return entry.caller;
  }

  /**
   * The cached verdict for a key without waiting: a Caller, null (known bad), or undefined when
   * the key has not been verified yet in this process (then call verify()).
   */
  cached(key: string): Caller | null | undefined {
    this.checkVersion();
    const entry = this.valid.get(key);
    if (entry) {
      const { expiresAt } = entry.caller;
      if (expiresAt !== null && expiresAt <= this.now()) {
        // expired since it was verified: verify() answers with the 401 that says so
        this.valid.delete(key);
        return undefined;
      }
      this.cacheHits++;
      return entry.epoch === this.epoch ? entry.caller : this.recheck(key, entry);
    }
    if (!this.failed.has(key)) return undefined;
    this.failed.delete(key); // touched: now the most recently used
    this.failed.set(key, true);
    return null;
  }

  /**
   * The caller for a key, or null when the key is malformed, unknown, wrong or revoked. `address`
   * is the client's (see http/client.ts). A verification the limits refuse throws 429 (too many
   * failures for the kid or the address) or 503 (too many argon2 runs queued), or resolves to null
   * when `refuse` is false (public routes never refuse a key: the call is then anonymous).
   */
  async verify(key: string, address = "local", refuse = true): Promise<Caller | null> {
    const cached = this.cached(key);
    if (cached !== undefined) return cached;
    const running = this.pending.get(key);
    if (running) return running;
    const match = KEY_PATTERN.exec(key);
    if (!match) return null; // malformed keys cost nothing to reject
    const kid = match[1]!;
    const row = this.source.lookupKey(kid);
    const closed = row === null ? "revoked" : keyClosed(row, this.now());
    if (row === null || closed === "revoked") return null; // unknown, revoked or its user disabled: one indexed lookup, no argon2
    if (closed === "expired") {
      // said whatever the secret: the kid is public, and an expired key admits nothing
      if (!refuse) return null;
      throw keyExpired(row);
    }
    if (this.remote) return this.share(key, this.checkRemote(row, key, address, refuse));
    const now = this.now();
    if (this.kids.wait(kid, now) > 0 || this.addresses.wait(address, now) > 0) {
      // a refused attempt costs its address a token too, down to a debt of one window: an address
      // that keeps trying stays refused and never takes the kid's next token from a real client
      this.addresses.take(address, now, this.addresses.capacity);
      const wait = Math.max(this.kids.wait(kid, now), this.addresses.wait(address, now));
      if (!refuse) return null;
      throw new HttpError(429, `Too many failed authentication attempts; retry after ${retryAfter(wait)} seconds`, { "Retry-After": retryAfter(wait) });
    }
    const entered = this.gate.enter();
    if (!entered) {
      if (!refuse) return null;
      throw new HttpError(503, "Too many authentication attempts in progress; retry shortly", { "Retry-After": "1" });
    }
    // the tokens are spent before argon2 runs, so a burst of concurrent wrong keys cannot overdraw them
    this.kids.take(kid, now);
    this.addresses.take(address, now);
    return this.share(key, this.check(entered, row, key, kid, address));
  }

  /** Lets concurrent requests with the same key wait on one verification. */
  private async share(key: string, run: Promise<Caller | null>): Promise<Caller | null> {
    this.pending.set(key, run);
    try {
      return await run;
    } finally {
      if (this.pending.get(key) === run) this.pending.delete(key);
    }
  }

  /** The supervisor's verdict on a key this worker has not verified, cached like a local one. */
  private async checkRemote(row: KeyRow, key: string, address: string, refuse: boolean): Promise<Caller | null> {
    const generation = this.generation;
    const verdict = await this.remote!(key, address, refuse);
    if ("status" in verdict) throw new HttpError(verdict.status, verdict.message, verdict.headers);
    const plan = verdict.ok ? this.source.plan(row.plan_slug) : null;
    const caller: Caller | null = plan ? callerOf(row, plan) : null;
    this.remember(generation, key, row.hash, caller);
    return caller;
  }

  private remember(generation: number, key: string, hash: string, caller: Caller | null): void {
    if (generation !== this.generation) return;
    if (caller) this.valid.set(key, { caller, hash, epoch: this.epoch });
    else {
      if (this.failed.size >= this.failedCacheSize) this.failed.delete(this.failed.keys().next().value!);
      this.failed.set(key, true);
    }
  }

  private async check(entered: Promise<void>, row: KeyRow, key: string, kid: string, address: string): Promise<Caller | null> {
    const generation = this.generation;
    await entered;
    let ok: boolean;
    try {
      this.argon2Runs++;
      ok = await this.verifyHash(row.hash, key).catch(() => false);
    } finally {
      this.gate.leave();
    }
    const plan = ok ? this.source.plan(row.plan_slug) : null;
    const caller: Caller | null = ok && plan ? callerOf(row, plan) : null;
    if (ok) {
      // the right secret is no failure: its tokens come back
      const now = this.now();
      this.kids.give(kid, now);
      this.addresses.give(address, now);
    }
    this.remember(generation, key, row.hash, caller);
    return caller;
  }
}
