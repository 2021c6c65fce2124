/**
 * Users and their API keys: made (the key shown once, its argon2 hash stored), found by kid,
 * listed and revoked. Key verification is the hot path's (keys.ts's KeyVerifier, over each store's
 * source), not this.
 */
import { today } from "../../../market/time";
import { type CreatedKey, hashKey, isKeyId, KEY_LOOKUP_SQL, KeyError, type KeyListing, type KeyRow, type KeyScope, randomKey } from "../keys";
import type { SqlBase } from "./dialect";

export interface KeyStore {
  /** Creates a user on `planSlug` with one key (argon2 hash stored); the key is returned once. */
  createUserWithKey(planSlug: string, name?: string): Promise<CreatedKey>;
  /** The first user of an empty store (with its key), or null when the store has users: `serve`'s first start, on any node. */
  createFirstUser(planSlug: string, name?: string): Promise<CreatedKey | null>;
  /** The key and its user behind a kid (active or revoked), or null. */
  findKeyByKid(kid: string): KeyRow | null;
  listKeys(): KeyListing[];
  /** Revokes a key by numeric id or kid; false when no active key matched. */
  revokeKey(idOrKid: string): boolean;
  hasUsers(): boolean;
  /** A new key of an existing user (the self-service keys, `POST /v1/keys`): the key is returned once. */
  createKey(userId: number, key: { name: string; scope: KeyScope; expiresAt: number | null }): Promise<CreatedKey & { createdAt: number }>;
  /** A user's keys, by id (revoked ones included). */
  userKeys(userId: number): OwnKeyRow[];
  /** A user's key, or null when the user has no key of that id. */
  userKey(userId: number, keyId: number): OwnKeyRow | null;
  /** Revokes one of a user's keys; false when the user has no active key of that id. */
  revokeUserKey(userId: number, keyId: number, now: number): boolean;
  /**
   * A new key in place of one of the user's (same name and scope): the old one keeps working until
   * `oldExpiresAt` (or its own earlier expiry), then stops. Null when the user has no usable key of that id.
   */
  rotateKey(
    userId: number,
    keyId: number,
    oldExpiresAt: number,
  ): Promise<{ created: CreatedKey & { createdAt: number; name: string; scope: KeyScope; expiresAt: number | null }; oldExpiresAt: number } | null>;
}

/** One of a user's keys as the account area lists it (never its hash). */
export interface OwnKeyRow {
  id: number;
  kid: string;
  name: string;
  scope: KeyScope;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

const OWN_KEY_COLUMNS = "id, kid, name, scope, created_at, expires_at, revoked_at";

export function KeysSql<B extends SqlBase>(Base: B) {
  abstract class Keys extends Base implements KeyStore {
    async createUserWithKey(planSlug: string, name?: string): Promise<CreatedKey> {
      return (await this.insertUserWithKey(planSlug, name, false))!;
    }

    createFirstUser(planSlug: string, name?: string): Promise<CreatedKey | null> {
      return this.insertUserWithKey(planSlug, name, true);
    }

    /** A user and its key; with `onlyIfNoUsers`, none when the store has a user (nodes starting together make one first user). */
    private async insertUserWithKey(planSlug: string, name: string | undefined, onlyIfNoUsers: boolean): Promise<CreatedKey | null> {
      const d = this.sql;
      if (onlyIfNoUsers && this.hasUsers()) return null;
      if (!d.get("SELECT 1 AS one FROM plans WHERE slug = ?", planSlug)) {
        const known = d.all<{ slug: string }>(`SELECT slug FROM plans ORDER BY sort_order, slug${d.bytewise}`);
        throw new KeyError(`unknown plan "${planSlug}" (plans: ${known.map((p) => p.slug).join(", ")})`);
      }
      const { kid, key } = randomKey();
      const keyHash = await hashKey(key);
      const now = Date.now();
      const userName = name?.trim() || `${planSlug} user`;
      const ids = d.transaction(() => {
        if (onlyIfNoUsers) {
          // one first user for all the nodes: the check and the insert under one lock
          if (d.firstUserLock) d.get(d.firstUserLock);
          if (this.hasUsers()) return null;
        }
        const user = d.get<{ id: number }>("INSERT INTO users (name, plan_slug, period_anchor, created_at) VALUES (?, ?, ?, ?) RETURNING id", userName, planSlug, today(now), now)!;
        const row = d.get<{ id: number }>("INSERT INTO api_keys (kid, user_id, name, hash, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id", kid, user.id, userName, keyHash, now)!;
        return { userId: user.id, keyId: row.id };
      });
      return ids && { ...ids, kid, key, plan: planSlug };
    }

    findKeyByKid(kid: string): KeyRow | null {
      return this.sql.get<KeyRow>(KEY_LOOKUP_SQL, kid);
    }

    listKeys(): KeyListing[] {
      return this.sql
        .all<{ id: number; kid: string; user_id: number; name: string; plan: string; created_at: number; revoked_at: number | null }>(
          `SELECT k.id, k.kid, k.user_id, k.name, u.plan_slug AS plan, k.created_at, k.revoked_at
             FROM api_keys k JOIN users u ON u.id = k.user_id ORDER BY k.id`,
        )
        .map((r) => ({
          ...r,
          created_at: new Date(r.created_at).toISOString(),
          revoked_at: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
        }));
    }

    revokeKey(idOrKid: string): boolean {
      const now = Date.now();
      if (isKeyId(idOrKid)) {
        const id = Number(idOrKid);
        // past the ids' range (PostgreSQL's int4 refuses a larger number rather than matching no row)
        if (id > this.sql.maxId) return false;
        return this.sql.run("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", now, id) > 0;
      }
      return this.sql.run("UPDATE api_keys SET revoked_at = ? WHERE kid = ? AND revoked_at IS NULL", now, idOrKid) > 0;
    }

    hasUsers(): boolean {
      return this.sql.get("SELECT 1 AS one FROM users LIMIT 1") !== null;
    }

    async createKey(userId: number, key: { name: string; scope: KeyScope; expiresAt: number | null }): Promise<CreatedKey & { createdAt: number }> {
      const { kid, key: secret } = randomKey();
      const keyHash = await hashKey(secret);
      const now = Date.now();
      const d = this.sql;
      const row = d.get<{ id: number; plan_slug: string }>(
        `INSERT INTO api_keys (kid, user_id, name, hash, created_at, scope, expires_at)
           SELECT ?, u.id, ?, ?, ?, ?, ? FROM users u WHERE u.id = ? RETURNING id, (SELECT plan_slug FROM users WHERE id = ?) AS plan_slug`,
        kid,
        key.name,
        keyHash,
        now,
        key.scope,
        key.expiresAt,
        userId,
        userId,
      );
      if (!row) throw new KeyError(`no user ${userId}`);
      return { userId, keyId: row.id, kid, key: secret, plan: row.plan_slug, createdAt: now };
    }

    userKeys(userId: number): OwnKeyRow[] {
      return this.sql.all<OwnKeyRow>(`SELECT ${OWN_KEY_COLUMNS} FROM api_keys WHERE user_id = ? ORDER BY id`, userId);
    }

    userKey(userId: number, keyId: number): OwnKeyRow | null {
      if (keyId > this.sql.maxId) return null;
      return this.sql.get<OwnKeyRow>(`SELECT ${OWN_KEY_COLUMNS} FROM api_keys WHERE user_id = ? AND id = ?`, userId, keyId);
    }

    revokeUserKey(userId: number, keyId: number, now: number): boolean {
      if (keyId > this.sql.maxId) return false;
      return this.sql.run("UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND id = ? AND revoked_at IS NULL", now, userId, keyId) > 0;
    }

    async rotateKey(userId: number, keyId: number, oldExpiresAt: number) {
      const now = Date.now();
      const old = this.userKey(userId, keyId);
      if (!old || old.revoked_at !== null || (old.expires_at !== null && old.expires_at <= now)) return null;
      const { kid, key: secret } = randomKey();
      const keyHash = await hashKey(secret);
      const d = this.sql;
      return d.transaction(() => {
        // read again in the transaction: a revocation meanwhile wins
        const current = this.userKey(userId, keyId);
        if (!current || current.revoked_at !== null) return null;
        const until = current.expires_at === null ? oldExpiresAt : Math.min(current.expires_at, oldExpiresAt);
        d.run("UPDATE api_keys SET expires_at = ? WHERE id = ?", until, keyId);
        const row = d.get<{ id: number; plan_slug: string }>(
          `INSERT INTO api_keys (kid, user_id, name, hash, created_at, scope, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id, (SELECT plan_slug FROM users WHERE id = ?) AS plan_slug`,
          kid,
          userId,
          current.name,
          keyHash,
          now,
          current.scope,
          current.expires_at,
          userId,
        )!;
        return {
          created: { userId, keyId: row.id, kid, key: secret, plan: row.plan_slug, createdAt: now, name: current.name, scope: current.scope, expiresAt: current.expires_at },
          oldExpiresAt: until,
        };
      });
    }
  }
  return Keys;
}
