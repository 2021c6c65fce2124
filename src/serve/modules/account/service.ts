/**
 * The account area's presentation and its audit entries: users, keys and audit rows as the API
 * answers them (timestamps as ISO 8601), and who did what, from where.
 */
import type { Caller } from "../../accounts/keys";
import { PASSWORD_LINK_MS, randomToken, tokenHash } from "../../accounts/sessions";
import type { AccountStore } from "../../accounts/store";
import type { OwnKeyRow } from "../../accounts/sql/keys";
import type { AccountUser, AuditEntry, AuditRow } from "../../accounts/sql/users";
import { clientAddressOf } from "../../http/client";
import type { AppDeps } from "../../deps";

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function userView(u: AccountUser) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    plan: u.plan,
    created_at: iso(u.created_at),
    disabled: u.disabled_at !== null,
    disabled_at: isoOrNull(u.disabled_at),
    has_password: u.has_password,
  };
}

export function keyView(k: OwnKeyRow, now = Date.now()) {
  const status: "active" | "expired" | "revoked" = k.revoked_at !== null ? "revoked" : k.expires_at !== null && k.expires_at <= now ? "expired" : "active";
  return {
    id: k.id,
    name: k.name,
    kid: k.kid,
    scope: k.scope === "read" ? ("read" as const) : ("full" as const),
    status,
    created_at: iso(k.created_at),
    expires_at: isoOrNull(k.expires_at),
    revoked_at: isoOrNull(k.revoked_at),
  };
}

export function auditView(r: AuditRow) {
  let detail: Record<string, unknown> = {};
  try {
    detail = JSON.parse(r.detail) as Record<string, unknown>;
  } catch {}
  return {
    id: r.id,
    at: iso(r.ts),
    actor_user_id: r.actor_user_id,
    actor_key_id: r.actor_key_id,
    via: (r.via === "session" || r.via === "key" ? r.via : "cli") as "session" | "key" | "cli",
    action: r.action,
    target_kind: r.target_kind,
    target_id: r.target_id,
    address: r.address,
    detail,
  };
}

/** The client's address as the audit log records it (X-Forwarded-For with --trust-proxy). */
export function addressOf(request: Request, deps: AppDeps): string {
  return clientAddressOf(request, deps.config.trustProxy ?? false);
}

/** Appends an audit entry for what `caller` did through the API. */
export function auditCall(
  deps: AppDeps,
  request: Request,
  caller: Caller | null,
  action: string,
  target: { kind: AuditEntry["targetKind"]; id: number | null },
  detail: Record<string, unknown> = {},
): void {
  deps.accounts.audit({
    ts: Date.now(),
    actorUserId: caller?.userId ?? null,
    actorKeyId: caller && caller.keyId > 0 ? caller.keyId : null,
    via: caller?.sessionId ? "session" : "key",
    action,
    targetKind: target.kind,
    targetId: target.id,
    address: addressOf(request, deps),
    detail,
  });
}

/**
 * A new one-time set-password link for a user (earlier unused ones stop working): the URL of the
 * console's set-password form, with the token in the fragment (never sent to a server's logs).
 */
export function passwordLink(store: AccountStore, userId: number, baseUrl: string, now = Date.now()): { url: string; expiresAt: number } {
  const token = randomToken();
  const expiresAt = now + PASSWORD_LINK_MS;
  store.addPasswordToken(userId, tokenHash(token), now, expiresAt);
  return { url: `${baseUrl.replace(/\/+$/, "")}/console#set-password=${token}`, expiresAt };
}

/** Cursors of the admin lists: the last id seen, opaque to clients. */
export const idCursor = {
  encode: (id: number) => Buffer.from(`id:${id}`).toString("base64url"),
  decode: (cursor: string): number | null => {
    const m = /^id:(\d{1,12})$/.exec(Buffer.from(cursor, "base64url").toString());
    return m ? Number(m[1]) : null;
  },
};
