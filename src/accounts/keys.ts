/**
 * API keys. A key is `am_<kid>_<secret>`: kid is a public id that finds the row, the secret is 32
 * random bytes. Only an argon2id hash of the whole key is stored. Verification runs argon2 once
 * per key and process; the result is cached, and the cache is dropped whenever another process
 * (for example `artmarket keys revoke`) commits to account.db, so a revocation takes effect at once.
 */
import type { Database } from "bun:sqlite";
import { hash, verify } from "@node-rs/argon2";
import { and, asc, eq, isNull } from "drizzle-orm";
import { accountOrm } from "../db/connection";
import { apiKeys, plans, users } from "../db/schema/account";
import { getPlan, type Plan } from "./plans";
import { today } from "../time";

const KEY_PATTERN = /^am_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const ARGON2 = { algorithm: 2 /* argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export class KeyError extends Error {}

export interface Caller {
  readonly userId: number;
  readonly keyId: number;
  readonly userName: string;
  readonly plan: Plan;
  readonly periodAnchor: string;
}

export interface CreatedKey {
  userId: number;
  keyId: number;
  kid: string;
  key: string;
  plan: string;
}

function randomKey(): { kid: string; key: string } {
  const kid = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  return { kid, key: `am_${kid}_${secret}` };
}

/** Creates a user on `planSlug` with one key; the key is returned once and never stored. */
export async function createUserWithKey(db: Database, planSlug: string, name?: string): Promise<CreatedKey> {
  const orm = accountOrm(db);
  if (!getPlan(db, planSlug)) {
    const known = orm.select({ slug: plans.slug }).from(plans).orderBy(asc(plans.sortOrder)).all();
    throw new KeyError(`unknown plan "${planSlug}" (plans: ${known.map((p) => p.slug).join(", ")})`);
  }
  const { kid, key } = randomKey();
  const keyHash = await hash(key, ARGON2);
  const now = Date.now();
  const userName = name?.trim() || `${planSlug} user`;
  const ids = orm.transaction((tx) => {
    const user = tx
      .insert(users)
      .values({ name: userName, planSlug, periodAnchor: today(now), createdAt: now })
      .returning({ id: users.id })
      .get();
    const row = tx
      .insert(apiKeys)
      .values({ kid, userId: user.id, name: userName, hash: keyHash, createdAt: now })
      .returning({ id: apiKeys.id })
      .get();
    return { userId: user.id, keyId: row.id };
  });
  return { ...ids, kid, key, plan: planSlug };
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
  return accountOrm(db)
    .select({
      id: apiKeys.id,
      kid: apiKeys.kid,
      user_id: apiKeys.userId,
      name: apiKeys.name,
      plan: users.planSlug,
      created_at: apiKeys.createdAt,
      revoked_at: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .orderBy(asc(apiKeys.id))
    .all()
    .map((r) => ({
      ...r,
      created_at: new Date(r.created_at).toISOString(),
      revoked_at: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
    }));
}

/** Revokes a key by its numeric id or its kid; returns false when no active key matched. */
export function revokeKey(db: Database, idOrKid: string): boolean {
  const match = /^\d+$/.test(idOrKid) ? eq(apiKeys.id, Number(idOrKid)) : eq(apiKeys.kid, idOrKid);
  const revoked = accountOrm(db)
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(match, isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
    .all();
  return revoked.length > 0;
}

/**
 * The hot path below uses one prepared statement instead of the query builder: it runs on every
 * request whose key is not cached, and the ledger likewise (see ledger.ts).
 */
interface KeyRow {
  key_id: number;
  hash: string;
  revoked_at: number | null;
  user_id: number;
  user_name: string;
  plan_slug: string;
  period_anchor: string;
}

/** Resolves bearer keys to callers, with argon2 run once per distinct key. */
export class KeyVerifier {
  private readonly cache = new Map<string, Caller | null>();
  private dataVersion = -1;
  /** How many times argon2 verification ran (tests hold this to one per key). */
  argon2Runs = 0;
  private readonly lookup;
  private readonly version;

  constructor(
    private readonly db: Database,
    /** Called when another process changed account.db (a key revoked, a plan edited). */
    private readonly onChange: () => void = () => {},
  ) {
    this.lookup = db.query<KeyRow, [string]>(
      `SELECT k.id AS key_id, k.hash, k.revoked_at, u.id AS user_id, u.name AS user_name, u.plan_slug, u.period_anchor
       FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.kid = ?`,
    );
    this.version = db.query<{ data_version: number }, []>("PRAGMA data_version");
  }

  /** Drops every cached verdict (called when account.db changed under us). */
  invalidate(): void {
    this.cache.clear();
  }

  private versionCheckedThisTurn = false;

  /**
   * Reads PRAGMA data_version at most once per event-loop turn: requests handled in the same turn
   * share the answer, and a change made by another process is seen from the next turn on.
   */
  private checkVersion(): void {
    if (this.versionCheckedThisTurn) return;
    this.versionCheckedThisTurn = true;
    setImmediate(() => {
      this.versionCheckedThisTurn = false;
    });
    const v = this.version.get()!.data_version;
    if (v !== this.dataVersion) {
      const first = this.dataVersion === -1;
      this.dataVersion = v;
      this.cache.clear();
      if (!first) this.onChange();
    }
  }

  /**
   * The cached verdict for a key without waiting: a Caller, null (known bad), or undefined when
   * the key has not been verified yet in this process (then call verify()).
   */
  cached(key: string): Caller | null | undefined {
    this.checkVersion();
    return this.cache.get(key);
  }

  /** The caller for a key, or null when the key is malformed, unknown, wrong or revoked. */
  async verify(key: string): Promise<Caller | null> {
    const cached = this.cached(key);
    if (cached !== undefined) return cached;
    const match = KEY_PATTERN.exec(key);
    if (!match) return null; // not cached: malformed keys cost nothing to reject
    const row = this.lookup.get(match[1]!);
    let caller: Caller | null = null;
    if (row && row.revoked_at === null) {
      this.argon2Runs++;
      const ok = await verify(row.hash, key).catch(() => false);
      const plan = ok ? getPlan(this.db, row.plan_slug) : null;
      if (ok && plan) {
        caller = Object.freeze({
          userId: row.user_id,
          keyId: row.key_id,
          userName: row.user_name,
          plan,
          periodAnchor: row.period_anchor,
        });
      }
    }
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, caller);
    return caller;
  }
}
