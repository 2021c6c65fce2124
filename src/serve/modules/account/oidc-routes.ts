/**
 * The browser's side of single sign-on (src/serve/accounts/oidc.ts), mounted only when `serve`
 * has --oidc-issuer: GET /v1/session/oidc sends the browser to the provider; the provider sends it
 * back to GET /v1/session/oidc/callback, which opens a console session (as POST /v1/session does)
 * and sends it on to the console (`/console#/signed-in`), or to the console with the reason
 * (`/console#sso-error=…`). These are navigations, not API calls: they answer redirects, and are
 * left out of /openapi.json.
 *
 * The user is found by the email the provider vouches for. With --oidc-plan, a user not known yet
 * is made on that plan at their first sign-in; without it, only users who exist sign in. With
 * --oidc-admin-group, each sign-in sets the role from the `groups` claim.
 */
import { Elysia } from "elysia";
import { OidcClient, OidcError } from "../../accounts/oidc";
import { openSession, sessionCookie } from "../../accounts/sessions";
import { requestOrigin } from "../../http/client";
import type { AppDeps } from "../../deps";
import { addressOf } from "./service";

const OIDC_STATE_PURPOSE = "oidc-state";

export function oidcRoutes(deps: AppDeps) {
  const config = deps.config.oidc;
  if (!config) return new Elysia();
  const client = new OidcClient(config, deps.signer.derivedKey(OIDC_STATE_PURPOSE));
  const base = (request: Request) => deps.config.publicUrl ?? requestOrigin(request, new URL(request.url), deps.config.trustProxy);
  const callbackUrl = (request: Request) => `${base(request)}/v1/session/oidc/callback`;
  const secure = (request: Request) => base(request).startsWith("https:");
  const toConsole = (request: Request, fragment: string, cookies: string[]) => {
    const headers = new Headers({ Location: `${base(request)}/console#${fragment}`, "Cache-Control": "no-store" });
    for (const c of cookies) headers.append("Set-Cookie", c);
    return new Response(null, { status: 303, headers });
  };
  const audit = (request: Request, action: string, userId: number | null, detail: Record<string, unknown>) =>
    deps.accounts.audit({
      ts: Date.now(),
      actorUserId: userId,
      actorKeyId: null,
      via: "session",
      action,
      targetKind: userId === null ? null : "user",
      targetId: userId,
      address: addressOf(request, deps),
      detail,
    });

  return new Elysia()
    .get(
      "/v1/session/oidc",
      async ({ request }) => {
        try {
          return await client.start(callbackUrl(request), secure(request));
        } catch (err) {
          if (err instanceof OidcError) return toConsole(request, `sso-error=${encodeURIComponent(err.message)}`, []);
          throw err;
        }
      },
      { detail: { hide: true } },
    )
    .get(
      "/v1/session/oidc/callback",
      async ({ request }) => {
        const clear = OidcClient.clearCookie(secure(request));
        try {
          const who = await client.finish(request, callbackUrl(request));
          let user = deps.accounts.signInRow(who.email);
          if (!user) {
            if (!config.plan) throw new OidcError(`there is no account for ${who.email} here; an admin makes one`);
            const id = deps.accounts.createUser({ email: who.email, plan: config.plan, role: config.adminGroup && who.groups.includes(config.adminGroup) ? "admin" : "member" });
            audit(request, "user.created", id, { email: who.email, plan: config.plan, by: "oidc", subject: who.subject });
            user = deps.accounts.signInRow(who.email)!;
          }
          if (user.disabled_at !== null) throw new OidcError(`the account ${who.email} is disabled here`);
          if (config.adminGroup) {
            const role = who.groups.includes(config.adminGroup) ? "admin" : "member";
            if (role !== user.role) {
              deps.accounts.changeUser(user.id, { role }, Date.now());
              deps.verifier.accountChanged();
              audit(request, "user.changed", user.id, { role: { from: user.role, to: role }, by: "oidc" });
            }
          }
          const session = openSession(deps.accounts, user.id, addressOf(request, deps), "oidc");
          audit(request, "session.signed_in", user.id, { method: "oidc", subject: who.subject });
          return toConsole(request, "/signed-in", [clear, sessionCookie(session.token, secure(request))]);
        } catch (err) {
          if (!(err instanceof OidcError)) throw err;
          audit(request, "session.sign_in_failed", null, { method: "oidc", reason: err.message });
          return toConsole(request, `sso-error=${encodeURIComponent(err.message)}`, [clear]);
        }
      },
      { detail: { hide: true } },
    );
}
