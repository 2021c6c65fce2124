/**
 * Console sessions and passwords: the account area's sign-in (POST /v1/session), the session a
 * cookie carries, and one-time set-password links.
 *
 * - A password is stored as an argon2id hash (the keys' parameters). An unknown email is checked
 *   against a fixed hash, so its answer takes as long as a wrong password's.
 * - Failed sign-ins are limited per account (email) and per client address, as token buckets like
 *   the keys' (SIGN_IN_LIMITS): with an empty bucket a sign-in is refused with 429 and Retry-After
 *   before any password is checked; a right password gives the tokens back. The buckets are each
 *   process's own (a server with several workers or nodes allows that many times more).
 * - The session cookie (`artmarket_session`) holds 32 random bytes; the store keeps their SHA-256.
 *   It is HttpOnly, SameSite=Strict, Path=/, Secure when the service is reached over https.
 *   A session ends after SESSION.idleMs without a call, or SESSION.absoluteMs after it began,
 *   whichever comes first; signing out ends it (or every session of the user), and so does
 *   disabling the user or resetting the password.
 * - CSRF: sign-in answers a `csrf_token`, kept with the session; every POST, PATCH, PUT and DELETE
 *   made with the session (no bearer key) carries it in X-CSRF-Token, else 403. SameSite=Strict
 *   already keeps other sites' requests from carrying the cookie; the token is the second guard.
 * - A new session is made at each sign-in and the token comes only from the server: a session id
 *   planted before sign-in is never adopted (session fixation).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { HttpError, unauthorized } from "../http/errors";
import { Buckets, type Caller } from "./keys";
import type { AccountStore } from "./store";
import type { SessionRow } from "./sql/users";

export const SESSION_COOKIE = "artmarket_session";
export const CSRF_HEADER = "X-CSRF-Token";

/** Session lifetimes (tests pass their own clock). */
export const SESSION = {
  /** A session unused this long ends. */
  idleMs: 2 * 60 * 60 * 1000,
  /** A session ends this long after sign-in, used or not. */
  absoluteMs: 12 * 60 * 60 * 1000,
  /** last_seen_at is written at most this often per session (a write per call would be wasted). */
  touchMs: 60 * 1000,
} as const;

/** A set-password link works this long, once. */
export const PASSWORD_LINK_MS = 72 * 60 * 60 * 1000;

/** Passwords: at least this many characters, at most 1,024 (argon2 hashes any length; the bound keeps a request cheap). */
export const PASSWORD_LENGTH = { min: 12, max: 1024 } as const;

/** Failed sign-ins allowed per window, per account and per address. */
export const SIGN_IN_LIMITS = {
  perAccount: { failures: 10, windowMs: 60_000 },
  perAddress: { failures: 30, windowMs: 60_000 },
} as const;

const ARGON2 = { algorithm: 2 /* argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** SHA-256 of a token, hex: what the store keeps of session and set-password tokens. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** 32 random bytes, base64url: a session, CSRF or set-password token. */
export function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/** Whether two strings are equal, in time that does not depend on where they differ. */
export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of one cookie of a request, or null. */
export function cookieOf(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The Set-Cookie that opens a session (`token`) or, with null, removes it. */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attrs = ["Path=/", "HttpOnly", "SameSite=Strict", ...(secure ? ["Secure"] : [])];
  if (token === null) return [`${SESSION_COOKIE}=`, "Max-Age=0", ...attrs].join("; ");
  return [`${SESSION_COOKIE}=${token}`, `Max-Age=${Math.floor(SESSION.absoluteMs / 1000)}`, ...attrs].join("; ");
}

let dummyHash: Promise<string> | null = null;

/** The sign-in limits of this process. */
export class SignInGuard {
  private readonly accounts: Buckets;
  private readonly addresses: Buckets;

  constructor(
    private readonly now: () => number = Date.now,
    limits: { perAccount: { failures: number; windowMs: number }; perAddress: { failures: number; windowMs: number } } = SIGN_IN_LIMITS,
  ) {
    this.accounts = new Buckets(limits.perAccount.failures, limits.perAccount.windowMs, 100_000);
    this.addresses = new Buckets(limits.perAddress.failures, limits.perAddress.windowMs, 10_000);
  }

  /**
   * The user behind an email and password, or 401; 429 with Retry-After when the account or the
   * address has no failure left. The tokens are spent before the check and given back on success.
   */
  async check(store: AccountStore, email: string, password: string, address: string): Promise<{ id: number }> {
    const account = email.trim().toLowerCase();
    const now = this.now();
    const wait = Math.max(this.accounts.wait(account, now), this.addresses.wait(address, now));
    if (wait > 0) {
      const seconds = String(Math.max(1, Math.ceil(wait / 1000)));
      throw new HttpError(429, `Too many failed sign-ins; retry after ${seconds} seconds`, { "Retry-After": seconds });
    }
    this.accounts.take(account, now);
    this.addresses.take(address, now);
    const row = store.signInRow(account);
    dummyHash ??= hashPassword(randomToken());
    const against = row?.password_hash ?? (await dummyHash);
    const ok = (await verify(against, password).catch(() => false)) && row !== null && row.password_hash !== null && row.disabled_at === null;
    if (!ok) throw unauthorized("Wrong email or password.");
    this.accounts.give(account, this.now());
    this.addresses.give(address, this.now());
    return { id: row.id };
  }
}

/** Opens a session for a user: the cookie's token and the CSRF token (each shown once). */
export function openSession(
  store: AccountStore,
  userId: number,
  address: string | null,
  method: "password" | "oidc",
  now = Date.now(),
): { token: string; csrf: string; expiresAt: number } {
  const token = randomToken();
  const csrf = randomToken();
  const expiresAt = now + SESSION.absoluteMs;
  store.addSession({ id: tokenHash(token), userId, csrf, now, expiresAt, address, method });
  return { token, csrf, expiresAt };
}

/** Whether a session is past its idle or absolute expiry at `now`. */
export function sessionEnded(s: Pick<SessionRow, "last_seen_at" | "expires_at">, now: number): boolean {
  return now >= s.expires_at || now >= s.last_seen_at + SESSION.idleMs;
}

/**
 * The caller behind the request's session cookie and the session's CSRF token, or null when there
 * is none (or it ended, or its user is disabled: an ended session's row is removed). `plan` reads
 * a plan by slug.
 */
export function sessionCaller(store: AccountStore, request: Request, plan: (slug: string) => Caller["plan"] | null, now = Date.now()): { caller: Caller; csrf: string } | null {
  const token = cookieOf(request, SESSION_COOKIE);
  if (!token || token.length > 64) return null;
  const id = tokenHash(token);
  const row = store.findSession(id);
  if (!row) return null;
  if (sessionEnded(row, now)) {
    store.endSession(id);
    return null;
  }
  const p = plan(row.plan_slug);
  if (!p) return null;
  if (now - row.last_seen_at >= SESSION.touchMs) store.touchSession(id, now);
  const caller: Caller = Object.freeze({
    userId: row.user_id,
    keyId: 0,
    userName: row.user_name,
    plan: p,
    periodAnchor: row.period_anchor,
    scope: "full",
    role: row.role === "admin" ? "admin" : "member",
    expiresAt: null,
    sessionId: id,
  });
  return { caller, csrf: row.csrf };
}
