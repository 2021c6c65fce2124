/**
 * The account area's rows: users who sign in (email, role, password hash, disabled), their
 * one-time set-password links, their console sessions, and the audit log. Tokens (session,
 * set-password) are stored as their SHA-256 only; the callers hash them (src/serve/accounts/sessions.ts).
 */
import { today } from "../../../market/time";
import { KeyError, type Role } from "../keys";
import type { SqlBase } from "./dialect";

/** A user as the account area shows it. */
export interface AccountUser {
  id: number;
  name: string;
  email: string | null;
  role: Role;
  plan: string;
  created_at: number;
  disabled_at: number | null;
  has_password: boolean;
  /** First day of the user's first entitlement period (the ledger's windows follow from it). */
  period_anchor: string;
}

/** A user's row with what signing in needs (the password hash). */
export interface SignInRow {
  id: number;
  email: string;
  role: string;
  plan_slug: string;
  password_hash: string | null;
  disabled_at: number | null;
}

/** A session's row with its user's (the user must not be disabled). */
export interface SessionRow {
  id: string;
  user_id: number;
  csrf: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  method: string;
  user_name: string;
  email: string | null;
  role: string;
  plan_slug: string;
  period_anchor: string;
}

/** One entry of the audit log. */
export interface AuditEntry {
  ts: number;
  actorUserId: number | null;
  actorKeyId: number | null;
  via: "session" | "key" | "cli";
  action: string;
  targetKind: "user" | "key" | "session" | null;
  targetId: number | null;
  address: string | null;
  detail: Record<string, unknown>;
}

export interface AuditRow {
  id: number;
  ts: number;
  actor_user_id: number | null;
  actor_key_id: number | null;
  via: string;
  action: string;
  target_kind: string | null;
  target_id: number | null;
  address: string | null;
  detail: string;
}

/** What changes on a user (an admin's PATCH, `users disable`); absent: unchanged. */
export interface UserChange {
  plan?: string;
  role?: Role;
  disabled?: boolean;
}

export interface UserStore {
  /** Makes a user who signs in with `email` (lower-cased); KeyError on an unknown plan or an email in use. */
  createUser(user: { email: string; plan: string; role: Role; name?: string }): number;
  /** The user, or null. */
  getUser(id: number): AccountUser | null;
  /** Every user, by id; `afterId` and `limit` page through them. */
  listUsers(afterId?: number, limit?: number): AccountUser[];
  /** The user behind an email (lower-cased), with the password hash, or null. */
  signInRow(email: string): SignInRow | null;
  /** Applies a change; returns the user as it was before, or null when there is no such user. KeyError on an unknown plan. */
  changeUser(id: number, change: UserChange, now: number): AccountUser | null;
  /** Sets (or, with null, clears) a user's password hash. */
  setPasswordHash(userId: number, hash: string | null): void;
  /** Stores a set-password link (its token's hash), valid until `expiresAt`; earlier unused links of the user stop working. */
  addPasswordToken(userId: number, tokenHash: string, now: number, expiresAt: number): void;
  /** Uses a set-password link once: its user, or null when unknown, used or expired. */
  usePasswordToken(tokenHash: string, now: number): number | null;
  addSession(row: { id: string; userId: number; csrf: string; now: number; expiresAt: number; address: string | null; method: "password" | "oidc" }): void;
  /** A session with its user's rows, or null (unknown, or its user disabled); expiry is the caller's to check. */
  findSession(id: string): SessionRow | null;
  touchSession(id: string, now: number): void;
  /** Ends one session; returns whether it existed. */
  endSession(id: string): boolean;
  /** Ends every session of a user (sign-out everywhere, a password reset, a disabled user); returns how many. */
  endSessions(userId: number): number;
  /** Appends one entry to the audit log. */
  audit(entry: AuditEntry): void;
  /** Audit entries, newest first, before `beforeId` (exclusive) when given. */
  auditPage(beforeId: number | null, limit: number, userId?: number): AuditRow[];
}

const USER_COLUMNS = "id, name, email, role, plan_slug, created_at, disabled_at, password_hash, period_anchor";

type UserRowRaw = {
  id: number;
  name: string;
  email: string | null;
  role: string;
  plan_slug: string;
  created_at: number;
  disabled_at: number | null;
  password_hash: string | null;
  period_anchor: string;
};

const userOf = (r: UserRowRaw): AccountUser => ({
  id: r.id,
  name: r.name,
  email: r.email,
  role: r.role === "admin" ? "admin" : "member",
  plan: r.plan_slug,
  created_at: r.created_at,
  disabled_at: r.disabled_at,
  has_password: r.password_hash !== null,
  period_anchor: r.period_anchor,
});

/** Audit entries are kept this long (pruned as new ones are written). */
export const AUDIT_KEPT_MS = 400 * 24 * 60 * 60 * 1000;

export function UsersSql<B extends SqlBase>(Base: B) {
  abstract class Users extends Base implements UserStore {
    private knownPlan(slug: string): void {
      if (!this.sql.get("SELECT 1 AS one FROM plans WHERE slug = ?", slug)) throw new KeyError(`unknown plan "${slug}"`);
    }

    createUser(user: { email: string; plan: string; role: Role; name?: string }): number {
      const d = this.sql;
      const email = user.email.trim().toLowerCase();
      return d.transaction(() => {
        this.knownPlan(user.plan);
        if (d.get("SELECT 1 AS one FROM users WHERE email = ?", email)) throw new KeyError(`a user with the email ${email} exists`);
        const now = Date.now();
        const name = user.name?.trim() || email;
        return d.get<{ id: number }>(
          "INSERT INTO users (name, plan_slug, period_anchor, created_at, email, role) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
          name,
          user.plan,
          today(now),
          now,
          email,
          user.role,
        )!.id;
      });
    }

    getUser(id: number): AccountUser | null {
      if (id > this.sql.maxId) return null;
      const r = this.sql.get<UserRowRaw>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, id);
      return r && userOf(r);
    }

    listUsers(afterId = 0, limit = 1000): AccountUser[] {
      return this.sql.all<UserRowRaw>(`SELECT ${USER_COLUMNS} FROM users WHERE id > ? ORDER BY id LIMIT ?`, afterId, limit).map(userOf);
    }

    signInRow(email: string): SignInRow | null {
      return this.sql.get<SignInRow>("SELECT id, email, role, plan_slug, password_hash, disabled_at FROM users WHERE email = ?", email.trim().toLowerCase());
    }

    changeUser(id: number, change: UserChange, now: number): AccountUser | null {
      const d = this.sql;
      return d.transaction(() => {
        const before = this.getUser(id);
        if (!before) return null;
        if (change.plan !== undefined && change.plan !== before.plan) {
          this.knownPlan(change.plan);
          d.run("UPDATE users SET plan_slug = ? WHERE id = ?", change.plan, id);
        }
        if (change.role !== undefined && change.role !== before.role) d.run("UPDATE users SET role = ? WHERE id = ?", change.role, id);
        if (change.disabled !== undefined && change.disabled !== (before.disabled_at !== null)) {
          d.run("UPDATE users SET disabled_at = ? WHERE id = ?", change.disabled ? now : null, id);
          if (change.disabled) d.run("DELETE FROM sessions WHERE user_id = ?", id);
        }
        return before;
      });
    }

    setPasswordHash(userId: number, hash: string | null): void {
      this.sql.run("UPDATE users SET password_hash = ? WHERE id = ?", hash, userId);
    }

    addPasswordToken(userId: number, tokenHash: string, now: number, expiresAt: number): void {
      this.sql.transaction(() => {
        this.sql.run("UPDATE password_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL", now, userId);
        this.sql.run("INSERT INTO password_tokens (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)", tokenHash, userId, now, expiresAt);
      });
    }

    usePasswordToken(tokenHash: string, now: number): number | null {
      const row = this.sql.get<{ user_id: number }>(
        "UPDATE password_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id",
        now,
        tokenHash,
        now,
      );
      return row?.user_id ?? null;
    }

    addSession(row: { id: string; userId: number; csrf: string; now: number; expiresAt: number; address: string | null; method: "password" | "oidc" }): void {
      this.sql.run(
        "INSERT INTO sessions (id, user_id, csrf, created_at, last_seen_at, expires_at, address, method) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        row.id,
        row.userId,
        row.csrf,
        row.now,
        row.now,
        row.expiresAt,
        row.address,
        row.method,
      );
    }

    findSession(id: string): SessionRow | null {
      return this.sql.get<SessionRow>(
        `SELECT s.id, s.user_id, s.csrf, s.created_at, s.last_seen_at, s.expires_at, s.method, u.name AS user_name, u.email, u.role, u.plan_slug, u.period_anchor
           FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ? AND u.disabled_at IS NULL`,
        id,
      );
    }

    touchSession(id: string, now: number): void {
      this.sql.run("UPDATE sessions SET last_seen_at = ? WHERE id = ?", now, id);
    }

    endSession(id: string): boolean {
      return this.sql.run("DELETE FROM sessions WHERE id = ?", id) > 0;
    }

    endSessions(userId: number): number {
      return this.sql.run("DELETE FROM sessions WHERE user_id = ?", userId);
    }

    audit(e: AuditEntry): void {
      const row = this.sql.get<{ id: number }>(
        "INSERT INTO audit_log (ts, actor_user_id, actor_key_id, via, action, target_kind, target_id, address, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        e.ts,
        e.actorUserId,
        e.actorKeyId,
        e.via,
        e.action,
        e.targetKind,
        e.targetId,
        e.address,
        JSON.stringify(e.detail),
      );
      // every 256th entry prunes what is past AUDIT_KEPT_MS (one range of the ts index)
      if (row && row.id % 256 === 0) this.sql.run("DELETE FROM audit_log WHERE ts < ?", e.ts - AUDIT_KEPT_MS);
    }

    auditPage(beforeId: number | null, limit: number, userId?: number): AuditRow[] {
      const where: string[] = [];
      const params: (number | string)[] = [];
      if (beforeId !== null) {
        where.push("id < ?");
        params.push(beforeId);
      }
      if (userId !== undefined) {
        where.push("(actor_user_id = ? OR (target_kind = 'user' AND target_id = ?))");
        params.push(userId, userId);
      }
      return this.sql.all<AuditRow>(
        `SELECT id, ts, actor_user_id, actor_key_id, via, action, target_kind, target_id, address, detail FROM audit_log${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`,
        ...params,
        limit,
      );
    }
  }
  return Users;
}
