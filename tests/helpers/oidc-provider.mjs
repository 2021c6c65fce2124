/**
 * Not a test: a real OpenID Connect provider (the npm package oidc-provider) on loopback, for the
 * single sign-on tests. Run with Node:
 *
 *   node tests/helpers/oidc-provider.mjs PORT CLIENT_ID CLIENT_SECRET REDIRECT_URI
 *
 * Its login form (the package's development interactions) takes any login: the account id is the
 * login, the email `<login>@example.com`, and a login starting with "admin" is in the group
 * `artmarket-admins`. Prints "ready" once it listens on 127.0.0.1:PORT.
 */
import Provider from "oidc-provider";

const [port, clientId, clientSecret, redirectUri] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ],
  scopes: ["openid", "email", "groups"],
  claims: { openid: ["sub"], email: ["email", "email_verified"], groups: ["groups"] },
  // the claims of the scopes asked go into the ID token too (the service reads them there)
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ["artmarket-test-cookie-key"] },
  async findAccount(_ctx, sub) {
    return {
      accountId: sub,
      async claims() {
        return { sub, email: `${sub}@example.com`, email_verified: true, groups: sub.startsWith("admin") ? ["artmarket-admins", "staff"] : ["staff"] };
      },
    };
  },
});
// the development interactions warn on every start; the tests read stdout
provider.on("server_error", (_ctx, err) => console.error("provider error", err));
provider.listen(Number(port), "127.0.0.1", () => console.log("ready"));
