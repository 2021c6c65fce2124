/**
 * Single sign-on to the console, end to end in a real browser: a real OpenID Connect provider
 * (the npm package oidc-provider, run by Node on loopback: tests/helpers/oidc-provider.mjs), a
 * real `serve` with --oidc-issuer, and headless Chromium clicking through the provider's login and
 * consent pages back to the console, signed in. A known user keeps their account; a new one is
 * made on --oidc-plan, an admin by the `groups` claim; a callback that this browser did not start
 * is refused; the audit log says how each signed in.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { openAccountDb } from "../../src/db/connection";
import { accountStore } from "../../src/serve/accounts/store";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { launchChromium } from "../helpers/browser";
import { freePort } from "../helpers/postgres";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

declare const document: { querySelector(selector: string): { textContent: string | null } | null };
declare const location: { hash: string };

const root = join(import.meta.dir, "../..");
const CLIENT = { id: "artmarket-console", secret: "a client secret for the tests" };

let dataDir: string;
let provider: ReturnType<typeof Bun.spawn>;
let server: ReturnType<typeof Bun.spawn>;
let origin: string;
let browser: Browser;

/** Reads a child's stdout until a line contains `text`; returns what it read. */
async function readUntil(proc: ReturnType<typeof Bun.spawn>, text: string): Promise<string> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  while (!out.includes(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`exited before "${text}": ${out}${await new Response(proc.stderr as ReadableStream).text()}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return out;
}

beforeAll(async () => {
  dataDir = tempDataDir("artmarket-sso-");
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  const account = openAccountDb(dataDir);
  const store = accountStore(account);
  store.seedPlans();
  store.createUser({ email: "ada@example.com", plan: "enterprise", role: "member" });
  account.close();
  const [providerPort, serverPort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${serverPort}`;
  provider = Bun.spawn(["node", join(root, "tests/helpers/oidc-provider.mjs"), String(providerPort), CLIENT.id, CLIENT.secret, `${origin}/v1/session/oidc/callback`], {
    stdout: "pipe",
    stderr: "pipe",
  });
  await readUntil(provider, "ready");
  server = Bun.spawn(
    [
      ...ARTMARKET,
      "serve",
      ...["--data", dataDir, "--port", String(serverPort), "--workers", "1", "--log-format", "off"],
      ...["--oidc-issuer", `http://127.0.0.1:${providerPort}`, "--oidc-client-id", CLIENT.id, "--oidc-admin-group", "artmarket-admins", "--oidc-plan", "pro"],
    ],
    { stdout: "pipe", stderr: "pipe", env: { ...process.env, ARTMARKET_OIDC_CLIENT_SECRET: CLIENT.secret } },
  );
  await readUntil(server, "listening on");
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.kill("SIGKILL");
  provider?.kill("SIGKILL");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** From the console's sign-in page through the provider's login and consent, back to the console signed in. */
async function signInThroughProvider(page: Page, login: string): Promise<void> {
  await page.goto(`${origin}/console`, { waitUntil: "load" });
  await page.waitForSelector("#sso-link");
  await Promise.all([page.waitForNavigation(), page.click("#sso-link")]);
  await page.waitForSelector("input[name=login]");
  expect(page.url()).toStartWith("http://127.0.0.1:");
  expect(page.url()).not.toStartWith(origin);
  await page.type("input[name=login]", login);
  await page.type("input[name=password]", "anything");
  await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
  // the consent page, where the provider asks
  if (!page.url().startsWith(origin)) await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
  await page.waitForFunction(() => location.hash === "#/artists", { timeout: 15_000 });
}

/**
 * A new tab with no cookies of any site (Chromium's options here run it as one process, without
 * separate browser contexts): no session of the console's, none of the provider's.
 */
async function freshTab(): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  const cdp = await page.createCDPSession();
  await cdp.send("Network.clearBrowserCookies");
  await cdp.detach();
  return page;
}

function rows<T>(sql: string): T[] {
  const db = new Database(join(dataDir, "account.db"), { readonly: true });
  try {
    return db.query(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe("single sign-on through OpenID Connect", () => {
  test("the sign-in page offers it; a known user signs in and keeps their plan and role", async () => {
    const page = await freshTab();
    await signInThroughProvider(page, "ada");
    await page.waitForSelector("#artists-table tbody tr");
    expect(await page.$eval("#plan", (el) => el.textContent)).toMatch(/enterprise/i);
    const [ada] = rows<{ role: string; plan_slug: string }>("SELECT role, plan_slug FROM users WHERE email = 'ada@example.com'");
    expect(ada).toEqual({ role: "member", plan_slug: "enterprise" });
    const [signedIn] = rows<{ detail: string }>("SELECT detail FROM audit_log WHERE action = 'session.signed_in' ORDER BY id DESC LIMIT 1");
    expect(JSON.parse(signedIn!.detail)).toEqual({ method: "oidc", subject: "ada" });
    expect(rows<{ method: string }>("SELECT method FROM sessions")).toEqual([{ method: "oidc" }]);
    await Promise.all([page.waitForFunction(() => location.hash === "#/"), page.click("#sign-out")]);
    expect(rows("SELECT id FROM sessions")).toEqual([]);
    await page.close();
  }, 60_000);

  test("a new user is made on --oidc-plan, an admin by the groups claim, and reaches the admin routes", async () => {
    const page = await freshTab();
    await signInThroughProvider(page, "admin-zoe");
    const [zoe] = rows<{ id: number; role: string; plan_slug: string }>("SELECT id, role, plan_slug FROM users WHERE email = 'admin-zoe@example.com'");
    expect(zoe).toMatchObject({ role: "admin", plan_slug: "pro" });
    const status = await page.evaluate(async () => (await fetch("/v1/admin/users")).status);
    expect(status).toBe(200);
    await page.close();
  }, 60_000);

  test("a callback this browser did not start is refused, back on the sign-in page with the reason", async () => {
    const page = await freshTab();
    await page.goto(`${origin}/v1/session/oidc/callback?code=forged&state=forged`, { waitUntil: "load" });
    await page.waitForSelector("#sso-error");
    expect(await page.$eval("#sso-error", (el) => el.textContent)).toContain("not started here");
    const [failed] = rows<{ detail: string }>("SELECT detail FROM audit_log WHERE action = 'session.sign_in_failed' ORDER BY id DESC LIMIT 1");
    expect(JSON.parse(failed!.detail)).toMatchObject({ method: "oidc" });
    await page.close();
  }, 60_000);
});
