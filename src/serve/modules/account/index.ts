/**
 * The account area (docs/accounts.md): signing in to the console (`/v1/session`), a user's own API
 * keys (`/v1/keys`), and the admin routes (`/v1/admin/…`). Each takes a console session (with its
 * CSRF token on writes) or an API key; all are free. Everything they change goes in the audit log.
 */
import { KeyError } from "../../accounts/keys";
import { cookieOf, hashPassword, openSession, SESSION_COOKIE, sessionCookie, SignInGuard, tokenHash } from "../../accounts/sessions";
import { defineEndpoint, type Endpoint, type RequestContext } from "../../http/endpoint";
import { HttpError, issue, notFound, ValidationFailed } from "../../http/errors";
import { DU } from "../../http/pricing";
import { T } from "../../query/grammar";
import {
  AccountUser,
  AdminUsage,
  AuditPage,
  CreatedKey,
  CreateKeyBody,
  CreateUserBody,
  KeyList,
  PatchUserBody,
  RotatedKey,
  SessionResponse,
  SetPasswordBody,
  SignInBody,
  SignInMethods,
  UserList,
  UserWithLink,
} from "./model";
import { addressOf, auditCall, auditView, idCursor, keyView, passwordLink, userView } from "./service";

/** A rotated key's old one keeps working this long (or until its own earlier expiry). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** The furthest expiry a new key may have. */
const MAX_KEY_LIFETIME_MS = 5 * 366 * 24 * 60 * 60 * 1000;

/** This process's limits on failed sign-ins. */
const signIns = new SignInGuard();

/** Whether the service is reached over https (the cookie is then Secure). */
const secure = (ctx: Pick<RequestContext, "origin">) => ctx.origin.startsWith("https:");

/** Where links the service hands out point: its --public-url, else the origin the request reached. */
const baseUrl = (ctx: Pick<RequestContext, "deps" | "origin">) => ctx.deps.config.publicUrl ?? ctx.origin;

const PAGE = { default: 50, max: 200 } as const;
const cursorParam = { cursor: { type: T.str(200), description: "the `next_cursor` of the page before" } };

function cursorOf(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const id = idCursor.decode(raw);
  if (id === null) throw new ValidationFailed([issue.custom(["query", "cursor"], raw, "not a cursor of this list")]);
  return id;
}

function mustGetUser(ctx: Pick<RequestContext, "deps">, id: number) {
  const user = ctx.deps.accounts.getUser(id);
  if (!user) throw notFound("No such user");
  return user;
}

export const accountEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "POST",
    path: "/v1/session",
    operationId: "signIn",
    summary: "Sign in to the console with email and password",
    description:
      "Opens a session: the `artmarket_session` cookie (HttpOnly, SameSite=Strict, Secure over https) and a `csrf_token` that every POST, PATCH, PUT and DELETE made with the session carries in X-CSRF-Token. A wrong email or password is 401; repeated failures for one account or from one address are 429 with Retry-After. The session ends after 2 hours without a call or 12 hours after sign-in. The session opens the account area only (keys, session, admin): market and collectables data need an API key.",
    tag: "Account",
    auth: "public",
    price: DU.FREE,
    body: SignInBody,
    response: { full: SessionResponse },
    handle: async (ctx) => {
      const { deps, request, body } = ctx;
      const address = addressOf(request, deps);
      let user: { id: number };
      try {
        user = await signIns.check(deps.accounts, body.email, body.password, address);
      } catch (err) {
        if (err instanceof HttpError && err.status === 401) {
          const known = deps.accounts.signInRow(body.email);
          deps.accounts.audit({
            ts: Date.now(),
            actorUserId: known?.id ?? null,
            actorKeyId: null,
            via: "session",
            action: "session.sign_in_failed",
            targetKind: known ? "user" : null,
            targetId: known?.id ?? null,
            address,
            detail: { email: body.email.trim().toLowerCase().slice(0, 254) },
          });
        }
        throw err;
      }
      // a session already held by this browser ends: each sign-in makes a new one (no fixation)
      const held = cookieOf(request, SESSION_COOKIE);
      if (held) deps.accounts.endSession(tokenHash(held));
      const session = openSession(deps.accounts, user.id, address, "password");
      ctx.replyHeaders["Set-Cookie"] = sessionCookie(session.token, secure(ctx));
      ctx.replyHeaders["Cache-Control"] = "no-store";
      deps.accounts.audit({
        ts: Date.now(),
        actorUserId: user.id,
        actorKeyId: null,
        via: "session",
        action: "session.signed_in",
        targetKind: "user",
        targetId: user.id,
        address,
        detail: { method: "password" },
      });
      return { user: userView(mustGetUser(ctx, user.id)), csrf_token: session.csrf, expires_at: new Date(session.expiresAt).toISOString() };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/session/methods",
    operationId: "getSignInMethods",
    summary: "How users sign in to this service's console",
    description: "Email and password always; single sign-on when the service runs with --oidc-issuer (then a browser goes to `oidc_url`, and comes back signed in to /console).",
    tag: "Account",
    auth: "public",
    price: DU.FREE,
    response: { full: SignInMethods },
    handle: ({ deps }) => ({ password: true, oidc: deps.config.oidc !== undefined, oidc_url: deps.config.oidc ? "/v1/session/oidc" : null }),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/session",
    operationId: "getSession",
    summary: "The signed-in user and the session's CSRF token",
    description: "For a console that reloads: the session's user and its CSRF token again. 404 for a call made with an API key (no session).",
    tag: "Account",
    auth: "account",
    price: DU.FREE,
    response: { full: SessionResponse },
    handle: (ctx) => {
      const { caller, deps } = ctx;
      if (!caller.sessionId) throw notFound("No session: this call was made with an API key");
      const row = deps.accounts.findSession(caller.sessionId);
      if (!row) throw notFound("No session");
      ctx.replyHeaders["Cache-Control"] = "no-store";
      return { user: userView(mustGetUser(ctx, caller.userId)), csrf_token: row.csrf, expires_at: new Date(row.expires_at).toISOString() };
    },
  }),
  defineEndpoint({
    method: "DELETE",
    path: "/v1/session",
    operationId: "signOut",
    summary: "Sign out (this session, or everywhere)",
    description:
      "Ends the session and removes its cookie; `everywhere=true` ends every session of the user, on every node. With an API key, `everywhere=true` ends the key's user's sessions; without it, 404.",
    tag: "Account",
    auth: "account",
    price: DU.FREE,
    status: 204,
    list: { fields: {}, params: { everywhere: { type: T.bool(), description: "end every session of the user" } } },
    handle: (ctx) => {
      const { caller, deps, request, query } = ctx;
      const everywhere = query.params.everywhere === true;
      if (!everywhere && !caller.sessionId) throw notFound("No session: this call was made with an API key");
      const ended = everywhere ? deps.accounts.endSessions(caller.userId) : deps.accounts.endSession(caller.sessionId!) ? 1 : 0;
      if (caller.sessionId) ctx.replyHeaders["Set-Cookie"] = sessionCookie(null, secure(ctx));
      auditCall(deps, request, caller, "session.signed_out", { kind: "user", id: caller.userId }, { everywhere, sessions: ended });
      return null;
    },
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/session/password",
    operationId: "setPassword",
    summary: "Set a password with a one-time set-password link's token",
    description:
      "The token of a link made by `artmarket users create` or an admin (72 hours, once). The password has 12 to 1,024 characters. Every session of the user ends; sign in with the new password.",
    tag: "Account",
    auth: "public",
    price: DU.FREE,
    status: 204,
    body: SetPasswordBody,
    handle: async ({ deps, request, body }) => {
      const hash = await hashPassword(body.password);
      const userId = deps.accounts.usePasswordToken(tokenHash(body.token), Date.now());
      if (userId === null) throw new ValidationFailed([issue.custom(["body", "token"], "…", "unknown, used or expired set-password link")]);
      deps.accounts.transaction(() => {
        deps.accounts.setPasswordHash(userId, hash);
        deps.accounts.endSessions(userId);
      });
      deps.accounts.audit({
        ts: Date.now(),
        actorUserId: userId,
        actorKeyId: null,
        via: "session",
        action: "user.password_set",
        targetKind: "user",
        targetId: userId,
        address: addressOf(request, deps),
        detail: {},
      });
      return null;
    },
  }),

  // ------------------------------------------------------------------ the caller's own keys
  defineEndpoint({
    method: "GET",
    path: "/v1/keys",
    operationId: "listKeys",
    summary: "The caller's API keys",
    description: "Every key of the signed-in user (or of the calling key's user), revoked and expired ones included; never a key's secret.",
    tag: "Account",
    auth: "account",
    price: DU.FREE,
    response: { full: KeyList },
    handle: ({ caller, deps }) => {
      const now = Date.now();
      return { items: deps.accounts.userKeys(caller.userId).map((k) => keyView(k, now)) };
    },
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/keys",
    operationId: "createKey",
    summary: "Make an API key",
    description:
      "A new key of the caller's user, answered once (only a hash is stored). `scope` read makes GET and HEAD calls only (403 on the others); `expires_at` ends it (401 saying it expired). Every key of a user draws on the user's one Data Unit pool.",
    tag: "Account",
    auth: "account",
    price: DU.FREE,
    status: 201,
    body: CreateKeyBody,
    response: { full: CreatedKey },
    handle: async ({ caller, deps, request, body }) => {
      const now = Date.now();
      let expiresAt: number | null = null;
      if (body.expires_at !== undefined) {
        expiresAt = Date.parse(body.expires_at);
        if (!(expiresAt > now) || expiresAt > now + MAX_KEY_LIFETIME_MS) {
          throw new ValidationFailed([issue.custom(["body", "expires_at"], body.expires_at, "expires_at must be in the future and at most 5 years ahead")]);
        }
      }
      const created = await deps.accounts.createKey(caller.userId, { name: body.name.trim() || "key", scope: body.scope, expiresAt });
      auditCall(deps, request, caller, "key.created", { kind: "key", id: created.keyId }, { name: body.name, scope: body.scope, expires_at: body.expires_at ?? null });
      const row = deps.accounts.userKey(caller.userId, created.keyId)!;
      return { ...keyView(row, now), key: created.key };
    },
  }),
  defineEndpoint({
    method: "DELETE",
    path: "/v1/keys/{key_id}",
    operationId: "revokeKey",
    summary: "Revoke one of the caller's API keys",
    description: "Refused from the next request on, on every node. Another user's key, or one already revoked, is 404.",
    tag: "Account",
    auth: "account",
    price: DU.FREE,
    status: 204,
    pathParams: { key_id: T.int(1) },
    handle: ({ caller, deps, request, params }) => {
      if (!deps.accounts.revokeUserKey(caller.userId, params.key_id, Date.now())) throw notFound("No such active key");
      deps.verifier.accountChanged();
      auditCall(deps, request, caller, "key.revoked", { kind: "key", id: params.key_id });
      return null;
    },
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/keys/{key_id}/rotate",
    operationId: "rotateKey",
    summary: "Replace one of the caller's API keys",
    description:
      "A new key with the old one's name, scope and expiry, answered once; the old key keeps working until `old_key_expires_at` (24 hours, or its own earlier expiry) so that clients can move to the new one, then stops. Another user's key, or one revoked or expired, is 404.",
    tag: "Account",
    auth: "account",
    price: DU.FREE,
    status: 201,
    pathParams: { key_id: T.int(1) },
    response: { full: RotatedKey },
    handle: async ({ caller, deps, request, params }) => {
      const now = Date.now();
      const rotated = await deps.accounts.rotateKey(caller.userId, params.key_id, now + ROTATION_OVERLAP_MS);
      if (!rotated) throw notFound("No such active key");
      deps.verifier.accountChanged();
      const oldExpires = new Date(rotated.oldExpiresAt).toISOString();
      auditCall(deps, request, caller, "key.rotated", { kind: "key", id: params.key_id }, { new_key_id: rotated.created.keyId, old_key_expires_at: oldExpires });
      const row = deps.accounts.userKey(caller.userId, rotated.created.keyId)!;
      return { ...keyView(row, now), key: rotated.created.key, old_key_id: params.key_id, old_key_expires_at: oldExpires };
    },
  }),

  // ------------------------------------------------------------------ admin
  defineEndpoint({
    method: "GET",
    path: "/v1/admin/users",
    operationId: "adminListUsers",
    summary: "Every user (admins only)",
    tag: "Admin",
    auth: "admin",
    price: DU.FREE,
    list: { fields: {}, limit: PAGE, params: cursorParam },
    response: { full: UserList },
    handle: ({ deps, query }) => {
      const after = cursorOf(query.params.cursor as string | undefined) ?? 0;
      const rows = deps.accounts.listUsers(after, query.limit + 1);
      const page = rows.slice(0, query.limit);
      return { items: page.map(userView), next_cursor: rows.length > query.limit ? idCursor.encode(page.at(-1)!.id) : null };
    },
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/admin/users",
    operationId: "adminCreateUser",
    summary: "Make a user who signs in (admins only)",
    description: "Answers a one-time set-password link (72 hours) to hand to the user. An email in use is 409; an unknown plan 422.",
    tag: "Admin",
    auth: "admin",
    price: DU.FREE,
    status: 201,
    body: CreateUserBody,
    response: { full: UserWithLink },
    handle: (ctx) => {
      const { caller, deps, request, body } = ctx;
      if (!deps.accounts.getPlan(body.plan))
        throw new ValidationFailed([
          issue.custom(
            ["body", "plan"],
            body.plan,
            `unknown plan (plans: ${deps.accounts
              .listPlans()
              .map((p) => p.slug)
              .join(", ")})`,
          ),
        ]);
      let id: number;
      try {
        id = deps.accounts.createUser({ email: body.email, plan: body.plan, role: body.role ?? "member", name: body.name });
      } catch (err) {
        if (err instanceof KeyError) throw new HttpError(409, err.message);
        throw err;
      }
      const link = passwordLink(deps.accounts, id, baseUrl(ctx));
      auditCall(deps, request, caller, "user.created", { kind: "user", id }, { email: body.email.trim().toLowerCase(), plan: body.plan, role: body.role ?? "member" });
      return { user: userView(mustGetUser(ctx, id)), set_password_url: link.url, set_password_expires_at: new Date(link.expiresAt).toISOString() };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/admin/users/{user_id}",
    operationId: "adminGetUser",
    summary: "One user (admins only)",
    tag: "Admin",
    auth: "admin",
    price: DU.FREE,
    pathParams: { user_id: T.int(1) },
    response: { full: AccountUser },
    handle: (ctx) => userView(mustGetUser(ctx, ctx.params.user_id)),
  }),
  defineEndpoint({
    method: "PATCH",
    path: "/v1/admin/users/{user_id}",
    operationId: "adminUpdateUser",
    summary: "Change a user's plan, role or access, or reset the password (admins only)",
    description:
      "`disabled: true` refuses every key and session of the user at once, on every node; `reset_password: true` clears the password, ends the user's sessions and answers a new set-password link. An admin cannot demote or disable themselves (409).",
    tag: "Admin",
    auth: "admin",
    price: DU.FREE,
    pathParams: { user_id: T.int(1) },
    body: PatchUserBody,
    response: { full: UserWithLink },
    handle: (ctx) => {
      const { caller, deps, request, body, params } = ctx;
      const id = params.user_id;
      if (id === caller.userId && ((body.role !== undefined && body.role !== "admin") || body.disabled === true)) {
        throw new HttpError(409, "An admin cannot demote or disable themselves; another admin can.");
      }
      if (body.plan !== undefined && !deps.accounts.getPlan(body.plan)) throw new ValidationFailed([issue.custom(["body", "plan"], body.plan, "unknown plan")]);
      const now = Date.now();
      const before = deps.accounts.changeUser(id, { plan: body.plan, role: body.role, disabled: body.disabled }, now);
      if (!before) throw notFound("No such user");
      deps.verifier.accountChanged();
      const changed: Record<string, unknown> = {};
      if (body.plan !== undefined && body.plan !== before.plan) changed.plan = { from: before.plan, to: body.plan };
      if (body.role !== undefined && body.role !== before.role) changed.role = { from: before.role, to: body.role };
      if (body.disabled !== undefined && body.disabled !== (before.disabled_at !== null)) changed.disabled = body.disabled;
      let link: { url: string; expiresAt: number } | null = null;
      if (body.reset_password === true) {
        deps.accounts.transaction(() => {
          deps.accounts.setPasswordHash(id, null);
          deps.accounts.endSessions(id);
        });
        link = passwordLink(deps.accounts, id, baseUrl(ctx), now);
        changed.password_reset = true;
      }
      if (Object.keys(changed).length) auditCall(deps, request, caller, "user.changed", { kind: "user", id }, changed);
      return {
        user: userView(mustGetUser(ctx, id)),
        set_password_url: link?.url ?? null,
        set_password_expires_at: link ? new Date(link.expiresAt).toISOString() : null,
      };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/admin/users/{user_id}/keys",
    operationId: "adminListUserKeys",
    summary: "A user's API keys (admins only)",
    tag: "Admin",
    auth: "admin",
    price: DU.FREE,
    pathParams: { user_id: T.int(1) },
    response: { full: KeyList },
    handle: (ctx) => {
      mustGetUser(ctx, ctx.params.user_id);
      const now = Date.now();
      return { items: ctx.deps.accounts.userKeys(ctx.params.user_id).map((k) => keyView(k, now)) };
    },
  }),
  defineEndpoint({
    method: "DELETE",
    path: "/v1/admin/users/{user_id}/keys/{key_id}",
    operationId: "adminRevokeKey",
    summary: "Revoke any user's API key (admins only)",
    description: "Refused from the next request on, on every node. A key that is not the user's, or already revoked, is 404.",
    tag: "Admin",
    auth: "admin",
    price: DU.FREE,
    status: 204,
    pathParams: { user_id: T.int(1), key_id: T.int(1) },
    handle: ({ caller, deps, request, params }) => {
      if (!deps.accounts.revokeUserKey(params.user_id, params.key_id, Date.now())) throw notFound("No such active key");
      deps.verifier.accountChanged();
      auditCall(deps, request, caller, "key.revoked", { kind: "key", id: params.key_id }, { user_id: params.user_id, by: "admin" });
      return null;
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/admin/usage",
    operationId: "adminUsage",
    summary: "Every user's consumption in the current period, and the allowance notices (admins only)",
    tag: "Admin",
    auth: "admin",
    price: DU.FREE,
    response: { full: AdminUsage },
    handle: async ({ deps }) => {
      await deps.ledger.settled();
      const items = [];
      for (let after = 0; ; ) {
        const users = deps.accounts.listUsers(after, 1000);
        if (!users.length) break;
        after = users.at(-1)!.id;
        for (const u of users) {
          const plan = deps.accounts.getPlan(u.plan);
          if (!plan) continue;
          const w = deps.ledger.windows({
            userId: u.id,
            keyId: 0,
            userName: u.name,
            plan,
            periodAnchor: u.period_anchor,
            scope: "full",
            role: u.role,
            expiresAt: null,
            sessionId: null,
          });
          const limit = plan.du_limit;
          items.push({
            user_id: u.id,
            email: u.email,
            name: u.name,
            plan: u.plan,
            disabled: u.disabled_at !== null,
            period_start: w.period.start,
            period_end: w.period.end,
            du_limit: limit,
            du_consumed: Math.round(w.periodConsumed * 1000) / 1000,
            du_remaining: Math.round(Math.max(0, limit - w.periodConsumed) * 1000) / 1000,
          });
        }
      }
      const notices = deps.accounts.listNotices().map((n) => ({ ...n, created_at: new Date(n.created_at).toISOString() }));
      return { items, notices };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/admin/audit",
    operationId: "adminAudit",
    summary: "The audit log, newest first (admins only)",
    description:
      "Sign-ins and their failures, sign-outs, keys made, rotated and revoked, users made and changed (plan, role, access, password): who (user and key), how (session, key or the CLI), when, from which address. Kept 400 days. `user_id` keeps the entries a user made or that concern them.",
    tag: "Admin",
    auth: "admin",
    price: DU.FREE,
    list: { fields: {}, limit: PAGE, params: { ...cursorParam, user_id: { type: T.int(1) } } },
    response: { full: AuditPage },
    handle: ({ deps, query }) => {
      const before = cursorOf(query.params.cursor as string | undefined);
      const rows = deps.accounts.auditPage(before, query.limit + 1, query.params.user_id as number | undefined);
      const page = rows.slice(0, query.limit);
      return { items: page.map(auditView), next_cursor: rows.length > query.limit ? idCursor.encode(page.at(-1)!.id) : null };
    },
  }),
];
