/**
 * Single sign-on to the console through an OpenID Connect provider (`serve --oidc-issuer URL
 * --oidc-client-id ID --oidc-client-secret S`): the authorization code flow with PKCE (S256),
 * state and nonce, as a confidential client (client_secret_basic).
 *
 * - GET /v1/session/oidc: a 302 to the provider's authorization endpoint. The state, the nonce and
 *   the PKCE verifier go in a short-lived cookie (`artmarket_oidc`: 10 minutes, HttpOnly,
 *   SameSite=Lax so that it comes back with the provider's redirect, Path=/v1/session/oidc), signed
 *   with HMAC-SHA256 under a key derived from the data directory's secret (every node of a
 *   deployment shares it), so that nothing about a sign-in in progress is kept on the server.
 * - GET /v1/session/oidc/callback: the state must equal the cookie's; the code is exchanged for
 *   tokens with the verifier; the ID token is verified: its signature against the issuer's keys
 *   (jwks_uri: RS256, PS256 or ES256; "none" and shared-secret algorithms refused), `iss` exactly
 *   the issuer, `aud` this client (`azp` too when there are several audiences), `exp` and `iat`
 *   (one minute of clock skew), and the nonce. The email comes from the token (or the userinfo
 *   endpoint), refused when the provider says it is not verified.
 *
 * The discovery document is read once (again after a failure), the keys again when a token names
 * a key id they do not have (the provider rotated them), at most once a minute.
 */
import { createHash, createHmac, webcrypto } from "node:crypto";
import type { OidcConfig } from "../../platform/config";
import { cookieOf, randomToken, sameToken } from "./sessions";

export const OIDC_COOKIE = "artmarket_oidc";
const COOKIE_PATH = "/v1/session/oidc";
const PENDING_MS = 10 * 60 * 1000;
const SKEW_S = 60;
const KEYS_REFRESH_MS = 60_000;

/** A sign-in the provider or the token refused: its message is shown to the person signing in. */
export class OidcError extends Error {}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
}

type Jwk = webcrypto.JsonWebKey & { kid?: string; alg?: string; use?: string };

/** Who signed in, as the provider vouches. */
export interface OidcIdentity {
  subject: string;
  email: string;
  groups: string[];
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const decodeJson = (part: string): Record<string, unknown> => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;

/** How WebCrypto verifies each accepted JWS algorithm. */
const ALGORITHMS: Record<
  string,
  { importAs: webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams; verifyAs: webcrypto.AlgorithmIdentifier | webcrypto.RsaPssParams | webcrypto.EcdsaParams }
> = {
  RS256: { importAs: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, verifyAs: { name: "RSASSA-PKCS1-v1_5" } },
  PS256: { importAs: { name: "RSA-PSS", hash: "SHA-256" }, verifyAs: { name: "RSA-PSS", saltLength: 32 } },
  ES256: { importAs: { name: "ECDSA", namedCurve: "P-256" }, verifyAs: { name: "ECDSA", hash: "SHA-256" } },
};

export class OidcClient {
  private discovery: Promise<Discovery> | null = null;
  private keys: Jwk[] = [];
  private keysAt = 0;

  constructor(
    readonly config: OidcConfig,
    /** The HMAC key of the pending sign-in cookie. */
    private readonly cookieKey: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  private async json(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(10_000) });
    } catch (err) {
      throw new OidcError(`the sign-in provider did not answer (${(err as Error).message})`);
    }
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {}
    if (!res.ok) throw new OidcError(`the sign-in provider refused: ${String(body.error_description ?? body.error ?? res.status)}`);
    return body;
  }

  private discover(): Promise<Discovery> {
    this.discovery ??= this.json(`${this.config.issuer}/.well-known/openid-configuration`).then(
      (d) => {
        for (const field of ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"] as const) {
          if (typeof d[field] !== "string") throw new OidcError(`the provider's discovery document has no ${field}`);
        }
        if (d.issuer !== this.config.issuer) throw new OidcError(`the provider calls itself ${String(d.issuer)}, not ${this.config.issuer}`);
        return d as unknown as Discovery;
      },
      (err) => {
        this.discovery = null;
        throw err;
      },
    );
    return this.discovery;
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.cookieKey).update(`oidc\n${payload}`).digest("base64url");
  }

  /** The 302 to the provider, with the pending sign-in's cookie. */
  async start(redirectUri: string, secure: boolean): Promise<Response> {
    const d = await this.discover();
    const state = randomToken();
    const nonce = randomToken();
    const verifier = randomToken();
    const challenge = b64url(createHash("sha256").update(verifier).digest());
    const payload = b64url(Buffer.from(JSON.stringify({ s: state, n: nonce, v: verifier, e: this.now() + PENDING_MS })));
    const url = new URL(d.authorization_endpoint);
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: this.config.clientId,
      redirect_uri: redirectUri,
      scope: `openid email${this.config.adminGroup ? " groups" : ""}`,
      state,
      nonce,
      code_challenge: challenge,
      code_challenge_method: "S256",
    }))
      url.searchParams.set(k, v);
    const cookie = [
      `${OIDC_COOKIE}=${payload}.${this.sign(payload)}`,
      `Path=${COOKIE_PATH}`,
      `Max-Age=${PENDING_MS / 1000}`,
      "HttpOnly",
      "SameSite=Lax",
      ...(secure ? ["Secure"] : []),
    ];
    return new Response(null, { status: 302, headers: { Location: url.toString(), "Set-Cookie": cookie.join("; "), "Cache-Control": "no-store" } });
  }

  /** The Set-Cookie that removes the pending sign-in's cookie. */
  static clearCookie(secure: boolean): string {
    return [`${OIDC_COOKIE}=`, `Path=${COOKIE_PATH}`, "Max-Age=0", "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])].join("; ");
  }

  /** The provider's answer at the callback: the identity it vouches for, or OidcError. */
  async finish(request: Request, redirectUri: string): Promise<OidcIdentity> {
    const url = new URL(request.url);
    const error = url.searchParams.get("error");
    if (error) throw new OidcError(`the sign-in provider said: ${url.searchParams.get("error_description") ?? error}`);
    const pending = this.pending(request);
    const state = url.searchParams.get("state") ?? "";
    if (!pending || !sameToken(state, pending.s)) throw new OidcError("this sign-in was not started here, or took over 10 minutes; start again");
    const code = url.searchParams.get("code");
    if (!code) throw new OidcError("the provider sent no code");
    const d = await this.discover();
    const basic = Buffer.from(`${encodeURIComponent(this.config.clientId)}:${encodeURIComponent(this.config.clientSecret)}`).toString("base64");
    const tokens = await this.json(d.token_endpoint, {
      method: "POST",
      headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: pending.v }).toString(),
    });
    if (typeof tokens.id_token !== "string") throw new OidcError("the provider sent no ID token");
    const claims = await this.verify(tokens.id_token, d, pending.n);
    let email = claims.email;
    let verified = claims.email_verified;
    let groups = claims.groups;
    if (typeof email !== "string" && d.userinfo_endpoint && typeof tokens.access_token === "string") {
      const info = await this.json(d.userinfo_endpoint, { headers: { Authorization: `Bearer ${tokens.access_token}`, Accept: "application/json" } });
      if (info.sub !== claims.sub) throw new OidcError("the provider's userinfo is about someone else");
      email = info.email;
      verified = info.email_verified;
      groups ??= info.groups;
    }
    if (typeof email !== "string" || !email.includes("@")) throw new OidcError("the provider gave no email address for this account");
    if (verified === false) throw new OidcError("the provider says this email address is not verified");
    return {
      subject: String(claims.sub),
      email: email.trim().toLowerCase(),
      groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === "string") : [],
    };
  }

  /** The pending sign-in of the request's cookie, when its signature holds and it has not expired. */
  private pending(request: Request): { s: string; n: string; v: string } | null {
    const raw = cookieOf(request, OIDC_COOKIE);
    const dot = raw?.lastIndexOf(".") ?? -1;
    if (!raw || dot < 1) return null;
    const payload = raw.slice(0, dot);
    if (!sameToken(raw.slice(dot + 1), this.sign(payload))) return null;
    try {
      const p = decodeJson(payload) as { s: string; n: string; v: string; e: number };
      return p.e > this.now() ? p : null;
    } catch {
      return null;
    }
  }

  /** The ID token's claims once its signature, issuer, audience, times and nonce hold. */
  private async verify(token: string, d: Discovery, nonce: string): Promise<Record<string, unknown>> {
    const parts = token.split(".");
    if (parts.length !== 3) throw new OidcError("the ID token is not a signed JWT");
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = decodeJson(parts[0]!);
      claims = decodeJson(parts[1]!);
    } catch {
      throw new OidcError("the ID token cannot be read");
    }
    const alg = String(header.alg);
    const how = ALGORITHMS[alg];
    if (!how) throw new OidcError(`the ID token's algorithm ${alg} is not accepted (RS256, PS256, ES256)`);
    const jwk = await this.keyFor(d, typeof header.kid === "string" ? header.kid : undefined, alg);
    const key = await webcrypto.subtle.importKey("jwk", { kty: jwk.kty, n: jwk.n, e: jwk.e, crv: jwk.crv, x: jwk.x, y: jwk.y }, how.importAs, false, ["verify"]);
    const ok = await webcrypto.subtle.verify(how.verifyAs, key, Buffer.from(parts[2]!, "base64url"), new TextEncoder().encode(`${parts[0]}.${parts[1]}`));
    if (!ok) throw new OidcError("the ID token's signature does not hold");
    const now = this.now() / 1000;
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (claims.iss !== d.issuer) throw new OidcError("the ID token is from another issuer");
    if (!aud.includes(this.config.clientId) || (aud.length > 1 && claims.azp !== this.config.clientId)) throw new OidcError("the ID token is for another client");
    if (typeof claims.exp !== "number" || claims.exp + SKEW_S < now) throw new OidcError("the ID token expired");
    if (typeof claims.iat === "number" && claims.iat - SKEW_S > now) throw new OidcError("the ID token was issued in the future");
    if (typeof claims.nonce !== "string" || !sameToken(claims.nonce, nonce)) throw new OidcError("the ID token's nonce is not this sign-in's");
    if (typeof claims.sub !== "string" || claims.sub === "") throw new OidcError("the ID token names no subject");
    return claims;
  }

  /** The issuer's signing key of `kid` (the keys read again when it is unknown, at most once a minute). */
  private async keyFor(d: Discovery, kid: string | undefined, alg: string): Promise<Jwk> {
    const kty = alg.startsWith("ES") ? "EC" : "RSA";
    const find = () =>
      this.keys.find((k) => k.kty === kty && (kid === undefined || k.kid === kid) && (k.use === undefined || k.use === "sig") && (k.alg === undefined || k.alg === alg));
    let key = find();
    if (!key && this.now() - this.keysAt >= KEYS_REFRESH_MS) {
      const set = await this.json(d.jwks_uri);
      this.keys = Array.isArray(set.keys) ? (set.keys as Jwk[]) : [];
      this.keysAt = this.now();
      key = find();
    }
    if (!key) throw new OidcError("the ID token is signed with a key the provider does not publish");
    return key;
  }
}
