/**
 * Users and their API keys: made (the key shown once, its argon2 hash stored), found by kid,
 * listed and revoked. Key verification is the hot path's (keys.ts's KeyVerifier, over each store's
 * source), not this.
 */
import { today } from "../../../market/time";
import { type CreatedKey, hashKey, KeyError, type KeyListing, type KeyRow, randomKey } from "../keys";
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
}

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
      return this.sql.get<KeyRow>(
        `SELECT k.id AS key_id, k.hash, k.revoked_at, u.id AS user_id, u.name AS user_name, u.plan_slug, u.period_anchor
           FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.kid = ?`,
        kid,
      );
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
      if (/^\d+$/.test(idOrKid)) {
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
  }
  return Keys;
}
