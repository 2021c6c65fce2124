/**
 * The account area (docs/accounts.md): users who sign in, console sessions with CSRF, a user's own
 * keys (read scope, expiry, rotation, one pool), the admin routes and the audit log, through the
 * app in-process on the SQLite store (tests/contract/account-store.test.ts runs the store's SQL on
 * both stores).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../helpers/app";
import { hashPassword, SESSION, SESSION_COOKIE, sessionEnded, tokenHash } from "../../src/serve/accounts/sessions";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

let ctx: TestContext;
const PASSWORD = "correct horse battery staple";

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** A user who signs in: made in the store with a password. */
async function member(email: string, role: "member" | "admin" = "member", plan = "pro"): Promise<number> {
  const id = ctx.deps.accounts.createUser({ email, plan, role });
  ctx.deps.accounts.setPasswordHash(id, await hashPassword(PASSWORD));
  return id;
}

interface Session {
  cookie: string;
  csrf: string;
}

/** Signs in; the session's cookie (as a browser sends it back) and CSRF token. */
async function signIn(email: string, password = PASSWORD, headers: Record<string, string> = {}): Promise<Session> {
  const res = await ctx.call("/v1/session", { method: "POST", key: null, body: { email, password }, headers });
  expect(res.status).toBe(200);
  const set = res.headers.get("set-cookie")!;
  expect(set).toContain("HttpOnly");
  expect(set).toContain("SameSite=Strict");
  const body = (await res.json()) as { csrf_token: string };
  return { cookie: set.split(";")[0]!, csrf: body.csrf_token };
}

/** A call made with a session (no key); `csrf` false leaves the token out. */
function withSession(s: Session, path: string, init: { method?: string; body?: unknown; csrf?: boolean } = {}) {
  const headers: Record<string, string> = { Cookie: s.cookie };
  if (init.csrf !== false) headers["X-CSRF-Token"] = s.csrf;
  return ctx.call(path, { method: init.method, body: init.body, key: null, headers });
}

describe("sign-in and sessions", () => {
  test("a right password opens a session; a wrong one, an unknown email, a disabled user: 401, the same words", async () => {
    await member("ada@example.com");
    const s = await signIn("ADA@example.com ");
    const me = await withSession(s, "/v1/session");
    expect(me.status).toBe(200);
    const body = (await me.json()) as { user: { email: string; role: string; plan: string; has_password: boolean }; csrf_token: string };
    expect(body.user).toMatchObject({ email: "ada@example.com", role: "member", plan: "pro", has_password: true });
    expect(body.csrf_token).toBe(s.csrf);
    const wrong = await ctx.call("/v1/session", { method: "POST", key: null, body: { email: "ada@example.com", password: "not the password" } });
    const unknown = await ctx.call("/v1/session", { method: "POST", key: null, body: { email: "nobody@example.com", password: PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  test("the session opens the account area only: market data stays bearer-key only", async () => {
    const s = await signIn("ada@example.com");
    expect((await withSession(s, "/v1/keys")).status).toBe(200);
    expect((await withSession(s, "/v1/usage")).status).toBe(401);
    expect((await withSession(s, "/v1/collectables")).status).toBe(401);
  });

  test("CSRF: a session's write without X-CSRF-Token, or with another session's, is 403 and changes nothing", async () => {
    const s = await signIn("ada@example.com");
    const other = await signIn("ada@example.com");
    const before = ctx.deps.accounts.userKeys(ctx.deps.accounts.signInRow("ada@example.com")!.id).length;
    const none = await withSession(s, "/v1/keys", { method: "POST", body: { name: "x", scope: "full" }, csrf: false });
    expect(none.status).toBe(403);
    const crossed = await ctx.call("/v1/keys", { method: "POST", key: null, body: { name: "x", scope: "full" }, headers: { Cookie: s.cookie, "X-CSRF-Token": other.csrf } });
    expect(crossed.status).toBe(403);
    expect(ctx.deps.accounts.userKeys(ctx.deps.accounts.signInRow("ada@example.com")!.id).length).toBe(before);
    const ok = await withSession(s, "/v1/keys", { method: "POST", body: { name: "x", scope: "full" } });
    expect(ok.status).toBe(201);
  });

  test("session fixation: a cookie planted before sign-in is never adopted, and is ended by the sign-in", async () => {
    const planted = await signIn("ada@example.com");
    const s = await signIn("ada@example.com", PASSWORD, { Cookie: planted.cookie });
    expect(s.cookie).not.toBe(planted.cookie);
    expect((await withSession(planted, "/v1/session")).status).toBe(401);
    expect((await withSession(s, "/v1/session")).status).toBe(200);
    const forged = { cookie: `${SESSION_COOKIE}=made-up-by-an-attacker`, csrf: "x" };
    expect((await withSession(forged, "/v1/session")).status).toBe(401);
  });

  test("sign-out ends the session and clears the cookie; everywhere ends every session of the user", async () => {
    const a = await signIn("ada@example.com");
    const b = await signIn("ada@example.com");
    const out = await withSession(a, "/v1/session", { method: "DELETE" });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await withSession(a, "/v1/session")).status).toBe(401);
    expect((await withSession(b, "/v1/session")).status).toBe(200);
    const c = await signIn("ada@example.com");
    expect((await withSession(c, "/v1/session?everywhere=true", { method: "DELETE" })).status).toBe(204);
    expect((await withSession(b, "/v1/session")).status).toBe(401);
  });

  test("idle and absolute expiry", () => {
    const t = 1_000_000_000_000;
    expect(sessionEnded({ last_seen_at: t, expires_at: t + SESSION.absoluteMs }, t + SESSION.idleMs - 1)).toBe(false);
    expect(sessionEnded({ last_seen_at: t, expires_at: t + SESSION.absoluteMs }, t + SESSION.idleMs)).toBe(true);
    expect(sessionEnded({ last_seen_at: t + SESSION.absoluteMs - 1000, expires_at: t + SESSION.absoluteMs }, t + SESSION.absoluteMs)).toBe(true);
  });

  test("an ended session's row is removed at its next use", async () => {
    const s = await signIn("ada@example.com");
    const id = tokenHash(s.cookie.split("=")[1]!);
    ctx.otherConnection().run("UPDATE sessions SET last_seen_at = last_seen_at - ? WHERE id = ?", [SESSION.idleMs, id]);
    expect((await withSession(s, "/v1/session")).status).toBe(401);
    expect(ctx.deps.accounts.findSession(id)).toBeNull();
  });

  test("repeated failures for one account are 429 with Retry-After, before any password is checked", async () => {
    await member("bo@example.com");
    let last: Response | null = null;
    for (let i = 0; i < 11; i++) last = await ctx.call("/v1/session", { method: "POST", key: null, body: { email: "bo@example.com", password: `wrong ${i}` } });
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    // the right password is refused too until a token comes back
    const right = await ctx.call("/v1/session", { method: "POST", key: null, body: { email: "bo@example.com", password: PASSWORD } });
    expect(right.status).toBe(429);
  });

  test("a set-password link works once; the new password signs in", async () => {
    const id = ctx.deps.accounts.createUser({ email: "cy@example.com", plan: "sandbox", role: "member" });
    const { passwordLink } = await import("../../src/serve/modules/account/service");
    const link = passwordLink(ctx.deps.accounts, id, "http://artmarket.test");
    const token = link.url.split("#set-password=")[1]!;
    const short = await ctx.call("/v1/session/password", { method: "POST", key: null, body: { token, password: "short" } });
    expect(short.status).toBe(422);
    const set = await ctx.call("/v1/session/password", { method: "POST", key: null, body: { token, password: "a long enough password" } });
    expect(set.status).toBe(204);
    const again = await ctx.call("/v1/session/password", { method: "POST", key: null, body: { token, password: "another long password" } });
    expect(again.status).toBe(422);
    await signIn("cy@example.com", "a long enough password");
  });
});

describe("a user's own keys", () => {
  test("made with a session, listed without secrets, every key of the user on one pool", async () => {
    const userId = await member("di@example.com", "member", "pro");
    const s = await signIn("di@example.com");
    const made = await withSession(s, "/v1/keys", { method: "POST", body: { name: "desk", scope: "full" } });
    expect(made.status).toBe(201);
    const one = (await made.json()) as { id: number; key: string; scope: string; status: string };
    expect(one).toMatchObject({ scope: "full", status: "active" });
    const second = (await (await ctx.call("/v1/keys", { method: "POST", key: one.key, body: { name: "batch", scope: "read" } })).json()) as { id: number; key: string };
    const list = (await (await withSession(s, "/v1/keys")).json()) as { items: Record<string, unknown>[] };
    expect(list.items.map((k) => k.id)).toEqual([one.id, second.id]);
    expect(JSON.stringify(list)).not.toContain(one.key.slice(20));
    // both keys draw on the user's one pool
    const a = await ctx.call("/v1/artists?limit=3", { key: one.key });
    const b = await ctx.call("/v1/artists?limit=2", { key: second.key });
    const du = Number(a.headers.get("x-service-dataunits")) + Number(b.headers.get("x-service-dataunits"));
    await ctx.deps.ledger.settled();
    const usage = (await (await ctx.call("/v1/usage", { key: second.key })).json()) as { du_consumed: number };
    expect(usage.du_consumed).toBe(du);
    expect(ctx.deps.accounts.consumedBetween(userId, "2000-01-01", "2100-01-01")).toBe(du);
    // and the pool broken down by key: each key's own calls
    const byKey = (await (await ctx.call("/v1/usage?group_by=key", { key: one.key })).json()) as {
      breakdown: { label: string; key_id: number; du_consumed: number; requests: number }[];
    };
    expect(byKey.breakdown.map((b) => [b.key_id, b.du_consumed, b.requests])).toEqual([
      [one.id, Number(a.headers.get("x-service-dataunits")), 2],
      [second.id, Number(b.headers.get("x-service-dataunits")) + 0, 2],
    ]);
    expect(byKey.breakdown[0]!.label).toBe(/^am_([0-9a-f]+)_/.exec(one.key)![1]!);
  });

  test("a read key: GET answers, a write is 403 and changes nothing", async () => {
    const s = await signIn("di@example.com");
    const read = (await (await withSession(s, "/v1/keys", { method: "POST", body: { name: "reader", scope: "read" } })).json()) as { key: string };
    expect((await ctx.call("/v1/artists?limit=1", { key: read.key })).status).toBe(200);
    const follow = await ctx.call("/v1/artists/1/follow", { method: "POST", key: read.key });
    expect(follow.status).toBe(403);
    expect(((await follow.json()) as { detail: string }).detail).toContain("read-only");
    expect((await ctx.call("/v1/keys", { method: "POST", key: read.key, body: { name: "x", scope: "full" } })).status).toBe(403);
  });

  test("expiry: a past or far expires_at is 422; an expired key is 401 saying so", async () => {
    const s = await signIn("di@example.com");
    const past = await withSession(s, "/v1/keys", { method: "POST", body: { name: "old", scope: "full", expires_at: "2020-01-01T00:00:00Z" } });
    expect(past.status).toBe(422);
    expect(((await past.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["body", "expires_at"]);
    const soon = new Date(Date.now() + 60_000).toISOString();
    const made = (await (await withSession(s, "/v1/keys", { method: "POST", body: { name: "brief", scope: "full", expires_at: soon } })).json()) as { id: number; key: string };
    expect((await ctx.call("/v1/artists?limit=1", { key: made.key })).status).toBe(200);
    ctx.otherConnection().run("UPDATE api_keys SET expires_at = ? WHERE id = ?", [Date.now() - 1, made.id]);
    await Bun.sleep(1);
    const res = await ctx.call("/v1/artists?limit=1", { key: made.key });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toContain("expired");
  });

  test("rotation: a new key at once, the old one until old_key_expires_at, then 401", async () => {
    const s = await signIn("di@example.com");
    const old = (await (await withSession(s, "/v1/keys", { method: "POST", body: { name: "rotating", scope: "read" } })).json()) as { id: number; key: string };
    expect((await ctx.call("/v1/artists?limit=1", { key: old.key })).status).toBe(200);
    const t0 = Date.now();
    const res = await withSession(s, `/v1/keys/${old.id}/rotate`, { method: "POST" });
    expect(res.status).toBe(201);
    const rotated = (await res.json()) as { id: number; key: string; name: string; scope: string; old_key_id: number; old_key_expires_at: string };
    expect(rotated).toMatchObject({ name: "rotating", scope: "read", old_key_id: old.id });
    const until = Date.parse(rotated.old_key_expires_at);
    expect(until).toBeGreaterThanOrEqual(t0 + 24 * 3600_000 - 5000);
    expect((await ctx.call("/v1/artists?limit=1", { key: rotated.key })).status).toBe(200);
    expect((await ctx.call("/v1/artists?limit=1", { key: old.key })).status).toBe(200);
    ctx.otherConnection().run("UPDATE api_keys SET expires_at = ? WHERE id = ?", [Date.now() - 1, old.id]);
    await Bun.sleep(1); // a server sees another process's change from its next event-loop turn
    expect((await ctx.call("/v1/artists?limit=1", { key: old.key })).status).toBe(401);
    expect((await withSession(s, `/v1/keys/${old.id}/rotate`, { method: "POST" })).status).toBe(404);
  });

  test("isolation: another user's key is 404 to revoke or rotate, and never listed", async () => {
    const s = await signIn("di@example.com");
    const mine = ctx.deps.accounts.userKeys(ctx.deps.accounts.signInRow("di@example.com")!.id).map((k) => k.id);
    const theirs = ctx.deps.accounts.findKeyByKid(/^am_([0-9a-f]+)_/.exec(ctx.keys.pro)![1]!)!.key_id;
    expect(mine).not.toContain(theirs);
    expect((await withSession(s, `/v1/keys/${theirs}`, { method: "DELETE" })).status).toBe(404);
    expect((await withSession(s, `/v1/keys/${theirs}/rotate`, { method: "POST" })).status).toBe(404);
    expect((await ctx.call("/v1/artists?limit=1", { key: ctx.keys.pro })).status).toBe(200);
  });

  test("revoked: 204, then 401 on the next call; revoking again is 404", async () => {
    const s = await signIn("di@example.com");
    const k = (await (await withSession(s, "/v1/keys", { method: "POST", body: { name: "gone", scope: "full" } })).json()) as { id: number; key: string };
    expect((await ctx.call("/v1/artists?limit=1", { key: k.key })).status).toBe(200);
    expect((await withSession(s, `/v1/keys/${k.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await ctx.call("/v1/artists?limit=1", { key: k.key })).status).toBe(401);
    expect((await withSession(s, `/v1/keys/${k.id}`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("admin", () => {
  test("a member, a member's key and no credentials are refused every admin route", async () => {
    const s = await signIn("ada@example.com");
    for (const path of ["/v1/admin/users", "/v1/admin/users/1", "/v1/admin/usage", "/v1/admin/audit"]) {
      expect((await withSession(s, path)).status).toBe(403);
      expect((await ctx.call(path, { key: ctx.keys.enterprise })).status).toBe(403);
      expect((await ctx.call(path, { key: null })).status).toBe(401);
    }
    expect((await withSession(s, "/v1/admin/users", { method: "POST", body: { email: "x@example.com", plan: "pro" } })).status).toBe(403);
  });

  test("an admin makes a user, changes the plan, disables them: their keys and sessions are refused at once", async () => {
    await member("root@example.com", "admin", "enterprise");
    const admin = await signIn("root@example.com");
    const made = await withSession(admin, "/v1/admin/users", { method: "POST", body: { email: "ed@example.com", plan: "sandbox" } });
    expect(made.status).toBe(201);
    const { user, set_password_url } = (await made.json()) as { user: { id: number; has_password: boolean }; set_password_url: string };
    expect(user.has_password).toBe(false);
    expect(set_password_url).toStartWith("http://artmarket.test/console#set-password=");
    expect((await withSession(admin, "/v1/admin/users", { method: "POST", body: { email: "ED@example.com", plan: "pro" } })).status).toBe(409);
    const token = set_password_url.split("=")[1]!;
    expect((await ctx.call("/v1/session/password", { method: "POST", key: null, body: { token, password: PASSWORD } })).status).toBe(204);
    const ed = await signIn("ed@example.com");
    const key = (await (await withSession(ed, "/v1/keys", { method: "POST", body: { name: "k", scope: "full" } })).json()) as { key: string };
    const patched = await withSession(admin, `/v1/admin/users/${user.id}`, { method: "PATCH", body: { plan: "pro" } });
    expect(((await patched.json()) as { user: { plan: string } }).user.plan).toBe("pro");
    expect((await ctx.call("/v1/usage", { key: key.key })).status).toBe(200);
    expect((await withSession(admin, `/v1/admin/users/${user.id}`, { method: "PATCH", body: { disabled: true } })).status).toBe(200);
    expect((await ctx.call("/v1/usage", { key: key.key })).status).toBe(401);
    expect((await withSession(ed, "/v1/session")).status).toBe(401);
    expect((await ctx.call("/v1/session", { method: "POST", key: null, body: { email: "ed@example.com", password: PASSWORD } })).status).toBe(401);
    // an admin revokes any user's key; another user's id with it is 404
    const listed = (await (await withSession(admin, `/v1/admin/users/${user.id}/keys`)).json()) as { items: { id: number; status: string }[] };
    expect(listed.items.map((k) => k.status)).toEqual(["active"]);
    const theirKey = listed.items[0]!.id;
    expect((await withSession(admin, `/v1/admin/users/${user.id + 1000}/keys/${theirKey}`, { method: "DELETE" })).status).toBe(404);
    expect((await withSession(admin, `/v1/admin/users/${user.id}/keys/${theirKey}`, { method: "DELETE" })).status).toBe(204);
    expect(ctx.deps.accounts.userKey(user.id, theirKey)!.revoked_at).not.toBeNull();
    expect((await withSession(admin, `/v1/admin/users/${user.id}/keys/${theirKey}`, { method: "DELETE" })).status).toBe(404);
    // an admin cannot lock themselves out
    const self = ctx.deps.accounts.signInRow("root@example.com")!.id;
    expect((await withSession(admin, `/v1/admin/users/${self}`, { method: "PATCH", body: { disabled: true } })).status).toBe(409);
  });

  test("the audit log: who did what, from where, newest first, by cursor", async () => {
    const admin = await signIn("root@example.com");
    const first = (await (await withSession(admin, "/v1/admin/audit?limit=5")).json()) as { items: { id: number; action: string; via: string }[]; next_cursor: string };
    expect(first.items).toHaveLength(5);
    expect(first.items[0]!.action).toBe("session.signed_in");
    const ids = first.items.map((i) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const next = (await (await withSession(admin, `/v1/admin/audit?limit=5&cursor=${first.next_cursor}`)).json()) as { items: { id: number }[] };
    expect(next.items[0]!.id).toBeLessThan(ids.at(-1)!);
    const all = ctx.deps.accounts.auditPage(null, 10_000);
    const actions = new Set(all.map((r) => r.action));
    for (const a of [
      "session.signed_in",
      "session.sign_in_failed",
      "session.signed_out",
      "key.created",
      "key.rotated",
      "key.revoked",
      "user.created",
      "user.changed",
      "user.password_set",
    ]) {
      expect(actions).toContain(a);
    }
    const disabled = all.find((r) => r.action === "user.changed" && r.detail.includes("disabled"))!;
    expect(disabled.via).toBe("session");
    expect(disabled.address).not.toBeNull();
    expect((await withSession(admin, "/v1/admin/audit?cursor=nonsense")).status).toBe(422);
  });

  test("admin usage: every user's period consumption and the notices", async () => {
    const admin = await signIn("root@example.com");
    const res = await withSession(admin, "/v1/admin/usage");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { user_id: number; du_consumed: number; du_limit: number; du_remaining: number }[] };
    const di = ctx.deps.accounts.signInRow("di@example.com")!.id;
    const row = body.items.find((i) => i.user_id === di)!;
    expect(row.du_consumed).toBeGreaterThan(0);
    expect(row.du_remaining).toBe(Math.max(0, row.du_limit - row.du_consumed));
  });
});

describe("artmarket users", () => {
  const cli = (args: string[], stdin?: string) => {
    const r = Bun.spawnSync([...ARTMARKET, "users", ...args, "--data", ctx.dataDir], {
      cwd: `${import.meta.dir}/../..`,
      stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
      env: { ...process.env, ARTMARKET_PUBLIC_URL: "https://art.example.com" },
    });
    return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
  };

  test("create prints a one-time link on its last line, or sets the password from stdin; list; disable", async () => {
    const linked = cli(["create", "--email", "Fay@Example.com", "--plan", "pro"]);
    expect({ code: linked.code, err: linked.err }).toEqual({ code: 0, err: "" });
    const link = linked.out.trim().split("\n").at(-1)!;
    expect(link).toMatch(/^https:\/\/art\.example\.com\/console#set-password=[A-Za-z0-9_-]{43}$/);
    const token = link.split("=")[1]!;
    expect((await ctx.call("/v1/session/password", { method: "POST", key: null, body: { token, password: PASSWORD } })).status).toBe(204);
    await signIn("fay@example.com");

    const typed = cli(["create", "--email", "gus@example.com", "--plan", "enterprise", "--admin", "--password-stdin"], `${PASSWORD}\n`);
    expect({ code: typed.code, err: typed.err }).toEqual({ code: 0, err: "" });
    const gus = await signIn("gus@example.com");
    expect((await withSession(gus, "/v1/admin/users?limit=200")).status).toBe(200);
    expect(cli(["create", "--email", "gus@example.com", "--plan", "pro"]).code).not.toBe(0);
    expect(cli(["create", "--email", "hal@example.com", "--plan", "pro", "--password-stdin"], "short\n").code).toBe(2);

    const list = cli(["list", "--json"]);
    const users = JSON.parse(list.out) as { id: number; email: string | null; role: string }[];
    const fay = users.find((u) => u.email === "fay@example.com")!;
    expect(users.find((u) => u.email === "gus@example.com")!.role).toBe("admin");
    const off = cli(["disable", String(fay.id)]);
    expect(off.code).toBe(0);
    await Bun.sleep(1);
    expect((await ctx.call("/v1/session", { method: "POST", key: null, body: { email: "fay@example.com", password: PASSWORD } })).status).toBe(401);
    const actions = ctx.deps.accounts
      .auditPage(null, 1000)
      .filter((r) => r.via === "cli")
      .map((r) => r.action);
    expect(actions).toEqual(["user.changed", "user.created", "user.created"]);
    // keys create and keys revoke are audited too
    const made = Bun.spawnSync([...ARTMARKET, "keys", "create", "--plan", "pro", "--data", ctx.dataDir], { cwd: `${import.meta.dir}/../..` });
    const kid = /\(([0-9a-f]{16})\)/.exec(made.stdout.toString())![1]!;
    expect(Bun.spawnSync([...ARTMARKET, "keys", "revoke", kid, "--data", ctx.dataDir], { cwd: `${import.meta.dir}/../..` }).exitCode).toBe(0);
    const byCli = ctx.deps.accounts.auditPage(null, 2);
    expect(byCli.map((r) => [r.via, r.action])).toEqual([
      ["cli", "key.revoked"],
      ["cli", "key.created"],
    ]);
    expect(byCli[0]!.target_id).toBe(byCli[1]!.target_id);
  }, 60_000);
});
