/**
 * The OpenID Connect client (src/serve/accounts/oidc.ts) against a stub provider on loopback that
 * signs ID tokens with keys of its own: the happy path, and each thing a forged or stray answer
 * gets wrong refused (signature, algorithm, issuer, audience, expiry, nonce, state, an unverified
 * email). The whole flow with a real provider and a browser: tests/browser/sso.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { webcrypto } from "node:crypto";
import { OIDC_COOKIE, OidcClient, OidcError } from "../../src/serve/accounts/oidc";
import { serveConfig } from "../../src/platform/config";

const CLIENT = "artmarket";
const REDIRECT = "http://127.0.0.1:1/v1/session/oidc/callback";

let stub: ReturnType<typeof Bun.serve>;
let issuer: string;
let signing: webcrypto.CryptoKeyPair;
let stranger: webcrypto.CryptoKeyPair;
/** What the stub's token endpoint answers next: claims to sign (over the defaults) and how. */
let next: { claims?: Record<string, unknown>; alg?: string; key?: webcrypto.CryptoKey; raw?: string; kid?: string } = {};
/** The last token request's form and Authorization header. */
let lastTokenRequest: { form: URLSearchParams; auth: string | null } | null = null;
/** The nonce of the sign-in in progress (read off the authorization URL). */
let nonce = "";

const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");

async function jwt(claims: Record<string, unknown>, alg = "RS256", key = signing.privateKey, kid = "k1"): Promise<string> {
  const head = `${b64({ alg, kid, typ: "JWT" })}.${b64(claims)}`;
  if (alg === "none") return `${head}.`;
  const sig = await webcrypto.subtle.sign({ name: "RSASSA-PKCS1-v1_5" }, key, new TextEncoder().encode(head));
  return `${head}.${Buffer.from(sig).toString("base64url")}`;
}

beforeAll(async () => {
  const params = { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" };
  signing = (await webcrypto.subtle.generateKey(params, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  stranger = (await webcrypto.subtle.generateKey(params, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const jwk = await webcrypto.subtle.exportKey("jwk", signing.publicKey);
  stub = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      const url = new URL(req.url);
      if (url.pathname === "/.well-known/openid-configuration")
        return Response.json({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` });
      if (url.pathname === "/jwks") return Response.json({ keys: [{ ...jwk, kid: "k1", use: "sig", alg: "RS256" }] });
      if (url.pathname === "/token") {
        lastTokenRequest = { form: new URLSearchParams(await req.text()), auth: req.headers.get("authorization") };
        const now = Math.floor(Date.now() / 1000);
        const claims = { iss: issuer, aud: CLIENT, sub: "u1", exp: now + 300, iat: now, nonce, email: "Ada@Example.com", email_verified: true, groups: ["staff"], ...next.claims };
        const idToken = next.raw ?? (await jwt(claims, next.alg, next.key, next.kid));
        return Response.json({ id_token: idToken, access_token: "at", token_type: "Bearer" });
      }
      return new Response("no", { status: 404 });
    },
  });
  issuer = `http://127.0.0.1:${stub.port}`;
});

afterAll(() => stub?.stop(true));

function client(): OidcClient {
  return new OidcClient({ issuer, clientId: CLIENT, clientSecret: "s e/cret", adminGroup: null, plan: null }, Buffer.alloc(32, 7));
}

/** Starts a sign-in; the callback request the provider's redirect would make (its state and the cookie), with `tamper` applied. */
async function callback(c: OidcClient, tamper: { state?: string; cookie?: string | null } = {}): Promise<Request> {
  const started = await c.start(REDIRECT, false);
  expect(started.status).toBe(302);
  const location = new URL(started.headers.get("location")!);
  nonce = location.searchParams.get("nonce")!;
  const cookie = started.headers.get("set-cookie")!.split(";")[0]!;
  const state = tamper.state ?? location.searchParams.get("state")!;
  const headers: Record<string, string> = {};
  if (tamper.cookie !== null) headers.Cookie = tamper.cookie ?? cookie;
  return new Request(`http://127.0.0.1:1/v1/session/oidc/callback?code=c1&state=${encodeURIComponent(state)}`, { headers });
}

async function refusal(c: OidcClient, req: Request): Promise<string> {
  try {
    await c.finish(req, REDIRECT);
  } catch (err) {
    expect(err).toBeInstanceOf(OidcError);
    return (err as Error).message;
  }
  throw new Error("the sign-in was accepted");
}

describe("the OpenID Connect client", () => {
  test("start: the authorization URL asks for a code with PKCE S256, state and nonce; the cookie is HttpOnly, Lax, short", async () => {
    const started = await client().start(REDIRECT, true);
    const url = new URL(started.headers.get("location")!);
    expect(url.origin + url.pathname).toBe(`${issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: CLIENT,
      redirect_uri: REDIRECT,
      scope: "openid email",
      code_challenge_method: "S256",
    });
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = started.headers.get("set-cookie")!;
    expect(cookie).toStartWith(`${OIDC_COOKIE}=`);
    for (const part of ["HttpOnly", "SameSite=Lax", "Secure", "Path=/v1/session/oidc", "Max-Age=600"]) expect(cookie).toContain(part);
  });

  test("finish: the code exchanged with the verifier and the client's secret; the identity from a good token", async () => {
    next = {};
    const c = client();
    const who = await c.finish(await callback(c), REDIRECT);
    expect(who).toEqual({ subject: "u1", email: "ada@example.com", groups: ["staff"] });
    expect(lastTokenRequest!.form.get("code")).toBe("c1");
    expect(lastTokenRequest!.form.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(lastTokenRequest!.auth).toBe(`Basic ${Buffer.from("artmarket:s%20e%2Fcret").toString("base64")}`);
  });

  test("refused: a state not this browser's, no cookie, a forged cookie", async () => {
    next = {};
    const c = client();
    expect(await refusal(c, await callback(c, { state: "another" }))).toContain("not started here");
    expect(await refusal(c, await callback(c, { cookie: null }))).toContain("not started here");
    const req = await callback(c);
    const [payload] = req.headers.get("cookie")!.split("=")[1]!.split(".");
    expect(await refusal(c, await callback(c, { cookie: `${OIDC_COOKIE}=${payload}.${"A".repeat(43)}` }))).toContain("not started here");
  });

  const cases: [string, () => typeof next, string][] = [
    ["a signature by another key", () => ({ key: stranger.privateKey }), "signature"],
    ["alg none", () => ({ alg: "none" }), "not accepted"],
    ["HS256", () => ({ raw: `${b64({ alg: "HS256", kid: "k1" })}.${b64({ iss: issuer })}.x` }), "not accepted"],
    ["an unknown key id", () => ({ kid: "k9" }), "does not publish"],
    ["another issuer", () => ({ claims: { iss: "http://127.0.0.1:9" } }), "another issuer"],
    ["another audience", () => ({ claims: { aud: "someone-else" } }), "another client"],
    ["several audiences without azp", () => ({ claims: { aud: [CLIENT, "x"] } }), "another client"],
    ["expired", () => ({ claims: { exp: Math.floor(Date.now() / 1000) - 3600 } }), "expired"],
    ["issued in the future", () => ({ claims: { iat: Math.floor(Date.now() / 1000) + 3600 } }), "future"],
    ["another nonce", () => ({ claims: { nonce: "replayed" } }), "nonce"],
    ["an unverified email", () => ({ claims: { email_verified: false } }), "not verified"],
    ["no email", () => ({ claims: { email: undefined } }), "no email"],
  ];
  for (const [name, make, words] of cases) {
    test(`refused: ${name}`, async () => {
      next = make();
      const c = client();
      expect(await refusal(c, await callback(c))).toContain(words);
      next = {};
    });
  }
});

describe("serve's single sign-on options", () => {
  const flags = (f: Record<string, string>) => serveConfig(f, {});
  test("all three or none; an issuer that is a URL; the secret from the environment", () => {
    expect(flags({}).oidc).toBeUndefined();
    expect(() => flags({ "oidc-issuer": "https://id.example.com" })).toThrow("all three");
    expect(() => flags({ "oidc-plan": "pro" })).toThrow("need --oidc-issuer");
    expect(() => flags({ "oidc-issuer": "id.example.com", "oidc-client-id": "a", "oidc-client-secret": "b" })).toThrow("--oidc-issuer must be");
    const c = serveConfig(
      { "oidc-issuer": "https://id.example.com/realms/acme/", "oidc-client-id": "a" },
      { ARTMARKET_OIDC_CLIENT_SECRET: "b", ARTMARKET_OIDC_ADMIN_GROUP: "ops" },
    );
    expect(c.oidc).toEqual({ issuer: "https://id.example.com/realms/acme", clientId: "a", clientSecret: "b", adminGroup: "ops", plan: null });
  });
});
