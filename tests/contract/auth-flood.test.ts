/**
 * Failed key verifications are cheap and limited: a repeated wrong key costs no argon2, wrong keys
 * never evict valid ones, floods per kid and per address are refused with 429 without argon2 while
 * valid keys keep working, and argon2 runs at most a few at a time (503 past the queue).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verify as argon2Verify } from "@node-rs/argon2";
import { AUTH_LIMITS, createUserWithKey, KeyVerifier, type KeyVerifierOptions } from "../../src/serve/accounts/keys";
import { createApp } from "../../src/serve/app";
import { setPeerAddress } from "../../src/serve/http/client";
import { HttpError } from "../../src/serve/http/errors";
import { createTestContext, type TestContext } from "../helpers/app";

let ctx: TestContext;
// the first context of a run builds the tiny market (about 4 s here): more than the default 5 s under load
beforeAll(async () => {
  ctx = await createTestContext();
}, 60_000);
afterAll(() => ctx.close());

/** `key`'s kid with the i-th wrong secret (43 characters of the secret alphabet). */
const wrong = (key: string, i: number) => `${key.slice(0, 20)}${String(i).padStart(43, "W")}`;

/** A fresh verifier (empty caches and limits) over the context's account.db, on a clock the test moves. */
function rig(options: KeyVerifierOptions = {}) {
  const clock = { t: Date.UTC(2026, 0, 1) };
  const verifier = new KeyVerifier(ctx.deps.account, () => ctx.deps.ledger.reset(), { now: () => clock.t, ...options });
  const app = createApp({ ...ctx.deps, verifier });
  const call = (key: string | null, init: { address?: string; path?: string } = {}) => {
    const request = new Request(`http://artmarket.test${init.path ?? "/v1/usage"}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
    if (init.address) setPeerAddress(request, init.address);
    return app.handle(request);
  };
  return { clock, verifier, call };
}

async function expectTooMany(res: Response): Promise<number> {
  expect(res.status).toBe(429);
  const body = (await res.json()) as { detail: string };
  expect(body).toEqual({ detail: expect.stringContaining("Too many failed authentication attempts") });
  const retryAfter = Number(res.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  return retryAfter;
}

async function expectUnauthorized(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ detail: expect.any(String) });
  expect(res.headers.get("WWW-Authenticate")).toContain("Bearer");
}

const PER_KID = AUTH_LIMITS.perKid.failures;
const PER_ADDRESS = AUTH_LIMITS.perAddress.failures;

describe("the verdict caches", () => {
  test("the same wrong secret for a real kid, 50 times (and 20 at once), runs argon2 once", async () => {
    const verifier = ctx.deps.verifier;
    const forged = wrong(ctx.keys.sandbox, 1);
    const before = verifier.argon2Runs;
    for (let i = 0; i < 50; i++) await expectUnauthorized(await ctx.call("/v1/usage", { key: forged }));
    expect(verifier.argon2Runs).toBe(before + 1);
    const again = wrong(ctx.keys.sandbox, 2);
    const responses = await Promise.all(Array.from({ length: 20 }, () => ctx.call("/v1/usage", { key: again })));
    for (const res of responses) await expectUnauthorized(res);
    expect(verifier.argon2Runs).toBe(before + 2);
  });

  test("unknown, revoked and malformed keys stay 401 {detail} and run no argon2", async () => {
    const made = await createUserWithKey(ctx.deps.account, "pro", "revoked at once");
    ctx.deps.account.run("UPDATE api_keys SET revoked_at = ? WHERE id = ?", [Date.now(), made.keyId]);
    const before = ctx.deps.verifier.argon2Runs;
    for (const key of [made.key, `am_${"0".repeat(16)}_${"A".repeat(43)}`, "am_nonsense"]) {
      for (let i = 0; i < 3; i++) await expectUnauthorized(await ctx.call("/v1/usage", { key }));
    }
    expect(ctx.deps.verifier.argon2Runs).toBe(before);
  });

  test("20,000 distinct wrong keys do not evict a valid key", async () => {
    const { key: valid } = await createUserWithKey(ctx.deps.account, "pro", "never evicted");
    const huge = { failures: 1_000_000_000, windowMs: 60_000 };
    const { verifier, call } = rig({
      perKid: huge,
      perAddress: huge,
      // argon2 for real on the valid key only: 20,000 real runs would take minutes
      verifyHash: (hash, key) => (key === valid ? argon2Verify(hash, key) : Promise.resolve(false)),
    });
    expect((await call(valid)).status).toBe(200);
    expect(verifier.argon2Runs).toBe(1);
    for (let i = 0; i < 20_000; i++) expect(await verifier.verify(wrong(valid, i))).toBeNull();
    expect(verifier.argon2Runs).toBe(20_001);
    // the failed verdicts are bounded: the oldest are gone, the newest are remembered
    expect(verifier.cached(wrong(valid, 0))).toBeUndefined();
    expect(verifier.cached(wrong(valid, 19_999))).toBeNull();
    // the valid key is served from its cache: no argon2
    expect(verifier.cached(valid)).toMatchObject({ userName: "never evicted" });
    expect((await call(valid)).status).toBe(200);
    expect(verifier.argon2Runs).toBe(20_001);
  });
});

describe("failed verifications are rate limited", () => {
  test("per kid: past the budget, new wrong secrets are 429 without argon2; valid keys still get in", async () => {
    const { clock, verifier, call } = rig();
    const inUse = (await createUserWithKey(ctx.deps.account, "pro", "in use")).key;
    expect((await call(inUse)).status).toBe(200);
    let runs = verifier.argon2Runs;

    for (let i = 0; i < PER_KID; i++) await expectUnauthorized(await call(wrong(inUse, i)));
    expect(verifier.argon2Runs).toBe(runs + PER_KID);
    runs = verifier.argon2Runs;
    for (let i = PER_KID; i < PER_KID + 5; i++) {
      const retryAfter = await expectTooMany(await call(wrong(inUse, i)));
      expect(retryAfter).toBeLessThanOrEqual(AUTH_LIMITS.perKid.windowMs / 1000);
    }
    expect(verifier.argon2Runs).toBe(runs);
    // a wrong secret already tried is still a plain 401 (its verdict is cached)
    await expectUnauthorized(await call(wrong(inUse, 0)));
    // the valid key, verified before the flood, is served from cache before any limit
    expect((await call(inUse)).status).toBe(200);
    // a public route never refuses a key: a refused verification there is an anonymous call
    const open = await call(wrong(inUse, 99), { path: "/healthcheck" });
    expect(open.status).toBe(200);
    expect(open.headers.get("X-Service-DataUnits")).toBeNull();
    expect(verifier.argon2Runs).toBe(runs);

    // a valid key not verified yet under a flooded kid: refused while the kid's budget is spent,
    // served once the clock has moved past the window
    const fresh = (await createUserWithKey(ctx.deps.account, "pro", "first call after a flood")).key;
    for (let i = 0; i < PER_KID; i++) await expectUnauthorized(await call(wrong(fresh, i), { address: "198.51.100.7" }));
    await expectTooMany(await call(wrong(fresh, PER_KID), { address: "198.51.100.7" }));
    await expectTooMany(await call(fresh, { address: "198.51.100.8" }));
    clock.t += AUTH_LIMITS.perKid.windowMs + 1;
    runs = verifier.argon2Runs;
    expect((await call(fresh, { address: "198.51.100.8" })).status).toBe(200);
    expect(verifier.argon2Runs).toBe(runs + 1);

    // and it waits at most until the kid's next token: Retry-After says when
    const another = (await createUserWithKey(ctx.deps.account, "pro", "next token")).key;
    for (let i = 0; i < PER_KID; i++) await expectUnauthorized(await call(wrong(another, i), { address: "198.51.100.9" }));
    const wait = await expectTooMany(await call(another, { address: "198.51.100.10" }));
    expect(wait).toBeLessThanOrEqual(Math.ceil(AUTH_LIMITS.perKid.windowMs / PER_KID / 1000));
    clock.t += wait * 1000;
    expect((await call(another, { address: "198.51.100.10" })).status).toBe(200);
  });

  test("a flood from one address keeps going: the kid's next token goes to another client", async () => {
    const { clock, verifier, call } = rig();
    const key = (await createUserWithKey(ctx.deps.account, "pro", "flooded from one address")).key;
    const attacker = "203.0.113.5";
    for (let i = 0; i < PER_KID; i++) await expectUnauthorized(await call(wrong(key, i), { address: attacker }));
    for (let i = PER_KID; i < 60; i++) await expectTooMany(await call(wrong(key, i), { address: attacker }));
    const runs = verifier.argon2Runs;
    clock.t += AUTH_LIMITS.perKid.windowMs / PER_KID; // the kid's next token
    for (let i = 60; i < 70; i++) await expectTooMany(await call(wrong(key, i), { address: attacker }));
    expect(verifier.argon2Runs).toBe(runs);
    expect((await call(key, { address: "203.0.113.6" })).status).toBe(200);
  });

  test("per address: wrong keys sprayed over several kids from one address hit 429; another address is unaffected", async () => {
    const { verifier, call } = rig();
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => createUserWithKey(ctx.deps.account, "sandbox", `sprayed ${i}`)));
    const keys = users.map((u) => u.key);
    const attacker = "192.0.2.1";
    const bystander = "192.0.2.2";
    // verified before the spray: stays served to the attacker's address too
    expect((await call(keys[0]!, { address: attacker })).status).toBe(200);
    const runs = verifier.argon2Runs;
    // spread over 4 kids: no kid reaches its own limit (8 each at most), the address does
    for (let i = 0; i < PER_ADDRESS; i++) await expectUnauthorized(await call(wrong(keys[i % 4]!, i), { address: attacker }));
    expect(verifier.argon2Runs).toBe(runs + PER_ADDRESS);
    await expectTooMany(await call(wrong(keys[0]!, 1000), { address: attacker }));
    await expectTooMany(await call(wrong(keys[4]!, 1001), { address: attacker }));
    // a key not verified yet cannot be told apart from a wrong one: refused from that address
    await expectTooMany(await call(keys[3]!, { address: attacker }));
    expect(verifier.argon2Runs).toBe(runs + PER_ADDRESS);
    // the cached valid key is still served there
    expect((await call(keys[0]!, { address: attacker })).status).toBe(200);
    // another address: its own wrong keys are plain 401s, its valid keys get in
    await expectUnauthorized(await call(wrong(keys[1]!, 2000), { address: bystander }));
    await expectUnauthorized(await call(wrong(keys[4]!, 2001), { address: bystander }));
    expect((await call(keys[3]!, { address: bystander })).status).toBe(200);
    expect((await call(keys[2]!, { address: bystander })).status).toBe(200);
  });
});

describe("argon2 concurrency", () => {
  test("at most maxConcurrent run at once, a bounded queue waits, past it 503 with Retry-After", async () => {
    let active = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const huge = { failures: 1_000_000, windowMs: 60_000 };
    const { verifier, call } = rig({
      perKid: huge,
      perAddress: huge,
      maxConcurrent: 2,
      maxQueued: 3,
      verifyHash: () => {
        active++;
        peak = Math.max(peak, active);
        return new Promise<boolean>((resolve) =>
          releases.push(() => {
            active--;
            resolve(false);
          }),
        );
      },
    });
    const key = (await createUserWithKey(ctx.deps.account, "pro", "busy")).key;
    const waiting = Array.from({ length: 5 }, (_, i) => verifier.verify(wrong(key, i)));
    const busy = await call(wrong(key, 5));
    expect(busy.status).toBe(503);
    expect(await busy.json()).toEqual({ detail: expect.any(String) });
    expect(busy.headers.get("Retry-After")).toBe("1");
    await expect(verifier.verify(wrong(key, 6))).rejects.toBeInstanceOf(HttpError);
    for (let done = 0; done < 5; done++) {
      while (releases.length === 0) await new Promise((r) => setImmediate(r));
      releases.shift()!();
    }
    expect(await Promise.all(waiting)).toEqual([null, null, null, null, null]);
    expect(peak).toBe(2);
    expect(verifier.argon2Runs).toBe(5);
  });
});
