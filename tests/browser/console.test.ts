/**
 * The demo console (/console) in a real browser: headless Chromium (@sparticuz/chromium) driven by
 * puppeteer-core against a real `serve` of the tiny market (the tests' binary). Each page is opened as a
 * person would, and checked against the API's own answers: the screener's rows and the DU meter,
 * the artist's chart (its points and band), the artwork's signed images and similar works, search
 * by image, and what a sandbox key sees. Every page fails on a console error, a failed request, or
 * a request to any host but the server's. With ARTMARKET_SCREENSHOTS=1 a screenshot of each is saved
 * under test-results/ (about 8 s of a 2-core machine's 45, so the suite leaves them out).
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { openAccountDb } from "../../src/db/connection";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { accountStore } from "../../src/serve/accounts/store";
import { tempDataDir, tinyMarketDir } from "../helpers/app";
import { launchChromium } from "../helpers/browser";
import { passwordLink } from "../../src/serve/modules/account/service";
import { hashPassword } from "../../src/serve/accounts/sessions";
import { webhookReceiver } from "../helpers/webhook-receiver";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

/** The browser's globals that the page.evaluate callbacks below use (the repository's tsconfig has no DOM library). */
interface BrowserElement {
  id: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  blur(): void;
  dataset: Record<string, string | undefined>;
}
type HTMLElement = BrowserElement;
interface HTMLCanvasElement {
  width: number;
  height: number;
  getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}
declare const document: {
  activeElement: BrowserElement | null;
  querySelector(selector: string): BrowserElement | null;
  querySelectorAll(selector: string): { length: number } & Iterable<BrowserElement>;
  images: Iterable<{ loading: string; decode(): Promise<void> }>;
  documentElement: { scrollWidth: number };
};
declare const window: { innerWidth: number; scrollTo(x: number, y: number): void };
declare const location: { hash: string };

const root = join(import.meta.dir, "../..");
const SHOTS = join(root, "test-results");
/** Screenshots on request only (ARTMARKET_SCREENSHOTS=1): each full page is encoded as a PNG. */
const SCREENSHOTS = process.env.ARTMARKET_SCREENSHOTS === "1";

interface Server {
  proc: ReturnType<typeof Bun.spawn>;
  origin: string;
}

async function startServer(dataDir: string): Promise<Server> {
  // --fetch-allow: search by image_url may fetch the server's own signed renditions (loopback)
  const args = ["serve", "--data", dataDir, "--port", "0", "--workers", "1", "--log-format", "off", "--fetch-allow", "127.0.0.0/8", "--webhook-allow", "127.0.0.0/8"];
  const proc = Bun.spawn([...ARTMARKET, ...args], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${await new Response(proc.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, origin: text.split("\n")[0]!.replace("listening on ", "").trim() };
}

let dataDir: string;
let server: Server;
let browser: Browser;
/** The browser signs in with enterprise or sandbox; the test reads what the pages must show with reader (another user, so the browser's DU are its own). */
const keys = { enterprise: "", sandbox: "", reader: "", viewer: "" };
/** The token of member@example.com's set-password link. */
let setPasswordToken = "";
/** root@example.com's password: an admin. */
const ADMIN_PASSWORD = "the admin's own password";

/** GET on the API with a key, from the test (not the browser): the values the page must show. */
async function api<T>(path: string, key = keys.reader): Promise<T> {
  const res = await fetch(`${server.origin}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

interface Watched {
  page: Page;
  problems: string[];
  /** API answers seen by the page: path and query, status, X-Service-DataUnits. */
  answers: { path: string; status: number; du: number | null }[];
}

/**
 * A new tab (its own session storage) that records every problem: a console error, a failed
 * request, a request to another host. `allowStatus` lists API statuses the page is expected to get
 * (a sandbox key's 403s), whose console lines are then not problems.
 */
async function openTab(viewport = { width: 1280, height: 800 }, allowStatus: number[] = []): Promise<Watched> {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  page.setDefaultTimeout(10_000);
  const host = new URL(server.origin).host;
  const w: Watched = { page, problems: [], answers: [] };
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol !== "blob:" && url.protocol !== "data:" && url.host !== host) w.problems.push(`request to another host: ${r.url()}`);
  });
  page.on("requestfailed", (r) => w.problems.push(`failed request: ${r.url()} ${r.failure()?.errorText}`));
  page.on("pageerror", (e) => w.problems.push(`page error: ${e}`));
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    const allowed = allowStatus.some((s) => m.text().includes(`status of ${s}`));
    if (!allowed) w.problems.push(`console error: ${m.text()} at ${m.location().url}`);
  });
  page.on("response", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/v1/")) {
      const du = r.headers()["x-service-dataunits"];
      w.answers.push({ path: url.pathname + url.search, status: r.status(), du: du === undefined ? null : Number(du) });
    } else if (r.status() >= 400) w.problems.push(`${r.status()} for ${r.url()}`);
  });
  return w;
}

async function signIn(w: Watched, key: string): Promise<void> {
  await w.page.goto(`${server.origin}/console`, { waitUntil: "load" });
  await w.page.waitForSelector("#key");
  await w.page.type("#key", key);
  await Promise.all([w.page.waitForFunction(() => location.hash === "#/artists"), w.page.keyboard.press("Enter")]);
  await w.page.waitForFunction(() => document.querySelector("#meter")?.getAttribute("data-plan") !== "");
}

/**
 * Opens the console at `hash` signed in with `key`, as a reload of a signed-in tab does: the key
 * in the tab's session storage before the page's script runs (the sign-in form, and the screener
 * it lands on, are the screener test's).
 */
async function openSignedIn(w: Watched, key: string, hash: string): Promise<void> {
  const { identifier } = await w.page.evaluateOnNewDocument((k) => sessionStorage.setItem("artmarket.console.key", k), key);
  await w.page.goto(`${server.origin}/console#${hash}`, { waitUntil: "load" });
  await w.page.removeScriptToEvaluateOnNewDocument(identifier);
  await w.page.waitForFunction(() => document.querySelector("#meter")?.getAttribute("data-plan") !== "");
}

async function remaining(page: Page): Promise<number> {
  return Number(await page.$eval("#meter", (el) => (el as HTMLElement).dataset.remaining));
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  // from the top: the sticky header stays where it belongs in the full-page picture
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, `console-${name}.png`), fullPage: true });
}

async function close(w: Watched): Promise<void> {
  // images still loading when the tab closes are not failures of the page
  w.page.removeAllListeners("requestfailed");
  await w.page.close();
  expect(w.problems).toEqual([]);
}

beforeAll(async () => {
  if (SCREENSHOTS) mkdirSync(SHOTS, { recursive: true });
  dataDir = tempDataDir("artmarket-console-");
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  const account = openAccountDb(dataDir);
  accountStore(account).seedPlans();
  keys.enterprise = (await createUserWithKey(account, "enterprise", "console enterprise")).key;
  keys.sandbox = (await createUserWithKey(account, "sandbox", "console sandbox")).key;
  keys.reader = (await createUserWithKey(account, "enterprise", "console test reader")).key;
  // an operator's plan without the collectables entitlement (plans are rows an operator may add)
  const viewer = { schema: "full", analytics: true, collectables: false, api: true, cap: "soft", daily_du_limit: 10_000, monthly_du_limit: 100_000 };
  account
    .query("INSERT INTO plans (slug, display_name, du_limit, period_days, rps_limit, rpm_limit, price_usd, features) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    .run("viewer", "Viewer", 100_000, 30, 50, 3000, 0, JSON.stringify(viewer));
  keys.viewer = (await createUserWithKey(account, "viewer", "console viewer")).key;
  // a user who signs in with email and password: the link a `users create` would print
  const member = accountStore(account).createUser({ email: "member@example.com", plan: "pro", role: "member" });
  setPasswordToken = passwordLink(accountStore(account), member, "http://unused.example").url.split("#set-password=")[1]!;
  const admin = accountStore(account).createUser({ email: "root@example.com", plan: "enterprise", role: "admin" });
  accountStore(account).setPasswordHash(admin, await hashPassword(ADMIN_PASSWORD));
  account.close();
  const started = startServer(dataDir);
  [server, browser] = await Promise.all([started, launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  server?.proc.kill("SIGKILL");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface ApiArtist {
  id: number;
  name: string;
  market_cap: number;
  artist_index_chart: { value: number }[] | null;
}
interface ApiChart {
  resolution: string;
  series: { id: string; data: { time: string; value: number; value_low?: number; value_high?: number; extrapolated?: boolean }[] }[];
}
interface ApiArtwork {
  id: number;
  description: { name: string; image: { urls: Record<string, string> } | null; artist: { id: number; name: string } };
}
interface ApiSale {
  id: number;
  name: string;
  status: string;
  auction_house: { id: number; name: string };
  lots_count: number;
  lots_count_not_sold: number | null;
  lots_count_sold_above_estimations: number | null;
  lots_count_sold_within_estimations: number | null;
  lots_count_sold_below_estimations: number | null;
  hammer_total: number | null;
  currency: string;
}
interface ApiLot {
  id: number;
  status: string;
  sale: { id: number };
  price: { currency: string; hammer: number | null; hammer_estimate_min: number | null; hammer_estimate_max: number | null };
  sale_probability: number | null;
  expected_hammer_usd: number | null;
  expected_hammer_usd_low: number | null;
  expected_hammer_usd_high: number | null;
}
interface ApiCollectable {
  id: number;
  title: string;
  artist_id: number;
  current_estimated_price: number | null;
  machine_estimated_price: number | null;
  image_url: string | null;
  appraisals: { id: number; value: number; currency: string; value_usd: number }[];
  provenance: { id: number; owner: string; year_from: number | null; is_up_to_present: boolean }[];
}
/** The market index as the artist page reads it: the global index and every benchmark, in one call. */
const INDEX_CHART = `/v1/market/index-chart?${new URLSearchParams({ finance: "SNP500,DOW_JONES,MSCI_WORLD_REAL_ESTATE,GOLD,BITCOIN_USD" })}`;
interface ApiMarketIndex {
  art_data: { time: string; value: number }[];
  finance_data: { id: string; label: string; data: { time: string; value: number }[] }[];
}
interface ApiArtistChartPoint {
  time: string;
  value: number;
  extrapolated?: boolean;
}
interface ApiSalesVolume {
  items: {
    category_id: number | null;
    dates: string[];
    lots_above_estimate: number[];
    lots_within_estimate: number[];
    lots_below_estimate: number[];
    lots_not_sold: number[];
  }[];
}
interface ApiCareerPath {
  unit: string;
  items: { medium: string; points: { year: number; value: number }[] }[];
}
interface ApiEditions {
  edition_size: number | null;
  editions: {
    artwork: { id: number; current_estimated_price?: number | null; description: { edition: { edition_number: number | null } } };
    lots: { id: number; status: string; sale_datetime: string; price?: { hammer: number | null; hammer_usd: number | null } }[];
  }[];
}
interface ApiUsage {
  from: string;
  to: string;
  du_consumed: number;
  breakdown: { label: string; du_consumed: number; requests: number }[];
}

const money = (v: number, currency = "USD") => new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 0 }).format(v);

/** Loads every image of the page now (lazy ones included) and waits for them. */
async function loadImages(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all([...document.images].map((img) => ((img.loading = "eager"), img.decode().catch(() => undefined)))));
}

/** The heights of the picture boxes matching `selector`. */
async function boxHeights(page: Page, selector: string): Promise<number[]> {
  return page.$$eval(selector, (els) => els.map((el) => el.getBoundingClientRect().height));
}

/** A work of the top artist with a picture and an estimate. */
async function pictureWork(): Promise<ApiArtwork & { current_estimated_price: number }> {
  const artist = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=1")).artists[0]!;
  return (await api<{ items: (ApiArtwork & { current_estimated_price: number })[] }>(`/v1/artworks?artist_id=${artist.id}&limit=20`)).items.find(
    (a) => a.description.image && a.current_estimated_price,
  )!;
}

/** Presses Tab until `id` has the focus (at most `max` times); whether it got there. */
async function tabTo(page: Page, id: string, max = 30): Promise<boolean> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((want) => document.activeElement?.id === want, id)) return true;
  }
  return false;
}

describe("the console in a browser", () => {
  test("served from this process: the page, its chunks, no other origin allowed", async () => {
    const res = await fetch(`${server.origin}/console`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    const chunks = [...html.matchAll(/(?:src|href)="(\/console\/chunk-[\w-]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(chunks.length).toBe(2);
    for (const chunk of chunks) {
      const c = await fetch(`${server.origin}${chunk}`);
      expect(c.status).toBe(200);
      expect(c.headers.get("cache-control")).toContain("immutable");
      expect((await c.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    expect((await fetch(`${server.origin}/console/chunk-nothere.js`)).status).toBe(404);
  });

  test("the API reference (/docs) renders under its Content-Security-Policy: no violation, no other host", async () => {
    const w = await openTab();
    const violations: string[] = [];
    w.page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    const res = await w.page.goto(`${server.origin}/docs`, { waitUntil: "load" });
    expect(res!.headers()["content-security-policy"]).toContain("default-src 'none'");
    expect(res!.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(res!.headers()["x-content-type-options"]).toBe("nosniff");
    // the reference is drawn from the document: its title and the key section appear as headings
    await w.page.waitForFunction(() => [...document.querySelectorAll("h1, h2")].some((el) => el.textContent?.trim() === "API keys"), { timeout: 30_000 });
    expect(await w.page.$$eval("h1", (hs) => hs.map((x) => x.textContent?.trim()))).toContain("artmarket");
    expect(violations).toEqual([]);
    await close(w);
  });

  test("sign-in page without a key: where keys come from, the public views; keyboard reaches the key field", async () => {
    const w = await openTab();
    await w.page.goto(`${server.origin}/console`, { waitUntil: "load" });
    await w.page.waitForSelector("#key-help");
    const text = await w.page.$eval("main", (el) => el.textContent ?? "");
    expect(text).toContain("artmarket keys create --plan SLUG");
    expect(text).toContain("The first start");
    expect(text).toContain("public schema");
    // keyboard: from the top of the page, Tab reaches the key field
    await w.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await w.page.keyboard.press("Tab");
      reached = await w.page.evaluate(() => document.activeElement?.id === "key");
    }
    expect(reached).toBe(true);
    expect(await w.page.evaluate(() => sessionStorage.length)).toBe(0);
    await shot(w.page, "sign-in");
    // a wrong key is refused and not kept
    await w.page.type("#key", "am_nope_nope");
    await w.page.keyboard.press("Enter");
    await w.page.waitForFunction(() => document.querySelector("#sign-in-message")?.textContent?.includes("refused"));
    expect(await w.page.evaluate(() => sessionStorage.length)).toBe(0);
    await close({ ...w, problems: w.problems.filter((p) => !p.includes("status of 401")) });
  });

  test("artists screener: rows, sparklines and the DU meter moving by the list's cost", async () => {
    const w = await openTab();
    await signIn(w, keys.enterprise);
    // the key is in session storage, never in the URL
    expect(w.page.url()).not.toContain(keys.enterprise);
    expect(await w.page.evaluate(() => Object.values(sessionStorage))).toContain(keys.enterprise);
    await w.page.waitForSelector("#artists-table tbody tr");
    await w.page.waitForFunction(() => document.querySelector("#calls li .du")?.textContent?.includes("DU"));
    const list = w.answers.find((a) => a.path.startsWith("/v1/artists?"))!;
    const rows = await w.page.$$eval("#artists-table tbody tr", (trs) =>
      trs.map((tr) => ({
        id: Number(tr.getAttribute("data-artist-id")),
        cells: [...tr.children].map((td) => td.textContent),
        points: Number(tr.querySelector("svg.spark")?.getAttribute("data-points") ?? 0),
      })),
    );
    expect(rows.length).toBe(20);
    // the list's price: 2 + 1 per row, shown in the call log and taken off the meter
    expect(list.du).toBe(2 + rows.length);
    expect(await w.page.$eval("#calls li", (li) => li.textContent)).toContain(`${list.du} DU`);
    const usage = await api<{ du_remaining: number }>("/v1/usage", keys.enterprise);
    expect(await remaining(w.page)).toBe(usage.du_remaining);
    const expected = await api<{ artists: ApiArtist[] }>("/v1/artists?limit=20&offset=0&include_chart=true");
    expect(rows.map((r) => r.id)).toEqual(expected.artists.map((a) => a.id));
    expect(rows[0]!.cells[3]).toBe(new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(expected.artists[0]!.market_cap));
    expect(rows.map((r) => r.points)).toEqual(expected.artists.map((a) => Math.min(120, a.artist_index_chart?.length ?? 0)));
    await shot(w.page, "artists");

    // a sort from the form: by name, ascending; the meter moves by that call's cost exactly
    const before = await remaining(w.page);
    await w.page.select("select[name=sort_by]", "NAME");
    await w.page.select("select[name=limit]", "10");
    const answered = w.page.waitForResponse((r) => r.url().includes("sort_by=NAME"));
    await w.page.click("#screener button[type=submit]");
    const du = Number((await answered).headers()["x-service-dataunits"]);
    await w.page.waitForFunction((n) => document.querySelectorAll("#artists-table tbody tr").length === n, {}, 10);
    await w.page.waitForFunction((r) => document.querySelector("#meter")?.getAttribute("data-remaining") === String(r), {}, before - du);
    expect(du).toBe(12);
    const byName = await api<{ artists: ApiArtist[] }>("/v1/artists?limit=10&sort_by=NAME");
    expect(await w.page.$$eval("#artists-table tbody tr td:first-child", (tds) => tds.map((td) => td.textContent))).toEqual(byName.artists.map((a) => a.name));
    // paging: the next page starts at offset 10
    await w.page.click("a[rel=next]");
    await w.page.waitForFunction(() => location.hash.includes("offset=10") && document.querySelectorAll("#artists-table tbody tr").length === 10);
    await close(w);
  });

  test("artist page: the index chart has the artist's points and the 80 % band; events, analytics, related", async () => {
    const top = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=1")).artists[0]!;
    const chart = await api<ApiChart>(`/v1/artists/${top.id}/chart`);
    const related = await api<{ artists: { id: number }[] }>(`/v1/artists/${top.id}/related?limit=8`);
    const events = await api<{ events: unknown[] }>(`/v1/artists/${top.id}/events`);
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/artist/${top.id}`);
    await w.page.waitForSelector("#artist-chart canvas");
    await w.page.waitForSelector("#artist-related li");
    await w.page.waitForSelector("#artist-sharpe table");
    const drawn = await w.page.$eval("#artist-chart", (el) => (el as unknown as { chartData: (number | null)[][] }).chartData);
    const data = chart.series[0]!.data;
    expect(data.length).toBeGreaterThan(100);
    expect(drawn[0]).toEqual(data.map((p) => Date.parse(`${p.time}T00:00:00Z`) / 1000));
    // observed points on the line and in the band; extrapolated ones (if any) on a dashed line of their own
    expect(drawn[1]).toEqual(data.map((p) => (p.extrapolated ? null : p.value)));
    expect(drawn[2]).toEqual(data.map((p) => (p.extrapolated ? null : (p.value_high ?? null))));
    expect(drawn[3]).toEqual(data.map((p) => (p.extrapolated ? null : (p.value_low ?? null))));
    expect(drawn[3]!.filter((v) => v !== null).length).toBeGreaterThan(100);
    // the canvas is painted: the line's blue and the band's fill are there
    const painted = await w.page.$eval("#artist-chart canvas", (c) => {
      const canvas = c as HTMLCanvasElement;
      const px = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      let line = 0;
      let band = 0;
      for (let i = 0; i < px.length; i += 4) {
        if (px[i]! < 60 && px[i + 1]! < 110 && px[i + 2]! > 180 && px[i + 3]! > 200) line++;
        else if (px[i + 3]! > 10 && px[i + 3]! < 80) band++;
      }
      return { line, band };
    });
    expect(painted.line).toBeGreaterThan(200);
    expect(painted.band).toBeGreaterThan(1000);
    expect(await w.page.$$eval("#artist-related li", (lis) => lis.length)).toBe(related.artists.length);
    expect(await w.page.$$eval("#artist-events li", (lis) => lis.length)).toBe(events.events.length);
    expect(await w.page.$eval("#artist-head h1", (h) => h.textContent)).toBe(top.name);
    await shot(w.page, "artist");
    // the resolution switch: yearly points
    const yearly = await api<ApiChart>(`/v1/artists/${top.id}/chart?resolution=yearly`);
    await w.page.click("a[href$='resolution=yearly']");
    await w.page.waitForFunction((n) => document.querySelector("#artist-chart")?.getAttribute("data-points") === String(n), {}, yearly.series[0]!.data.length);
    await close(w);
  });

  test("artist page: extrapolated index points are drawn apart, dashed, with a legend entry; the solid line starts at the first observation", async () => {
    // an artist whose index begins with extrapolated points (born or first sold after the index starts)
    const list = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=40")).artists;
    let found: { id: number; data: ApiChart["series"][number]["data"] } | null = null;
    for (const a of list) {
      const data = (await api<ApiChart>(`/v1/artists/${a.id}/chart`)).series[0]!.data;
      if (data.some((p) => p.extrapolated) && data.some((p) => !p.extrapolated)) {
        found = { id: a.id, data };
        break;
      }
    }
    expect(found).not.toBeNull();
    const { id, data } = found!;
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/artist/${id}`);
    await w.page.waitForSelector("#artist-chart canvas");
    const drawn = await w.page.$eval("#artist-chart", (el) => (el as unknown as { chartData: (number | null)[][] }).chartData);
    const guessed = data.filter((p) => p.extrapolated);
    const firstObserved = data.findIndex((p) => !p.extrapolated);
    // the solid line and the band hold no extrapolated point
    expect(drawn[1]!.slice(0, firstObserved).every((v) => v === null)).toBe(true);
    expect(drawn[1]![firstObserved]).toBe(data[firstObserved]!.value);
    // the last series is the extrapolated part, meeting the line at its first observation
    const dashed = drawn.at(-1)!;
    expect(dashed.slice(0, firstObserved)).toEqual(data.slice(0, firstObserved).map((p) => (p.extrapolated ? p.value : null)));
    expect(dashed[firstObserved]).toBe(data[firstObserved]!.value);
    expect(Number(await w.page.$eval("#artist-chart", (el) => el.getAttribute("data-extrapolated")))).toBe(guessed.length + 1);
    const legend = await w.page.$$eval("#artist-chart .u-legend .u-series", (rows) => rows.map((r) => r.textContent ?? ""));
    expect(legend.some((t) => t.includes("extrapolated"))).toBe(true);
    await shot(w.page, "artist-extrapolated");
    await close(w);
  });

  test("artwork page: signed renditions load without layout jump; estimate; similar works with scores", async () => {
    const artist = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=1")).artists[0]!;
    const work = (await api<{ items: (ApiArtwork & { current_estimated_price: number })[] }>(`/v1/artworks?artist_id=${artist.id}&limit=20`)).items.find(
      (a) => a.description.image,
    )!;
    const similar = await api<{ results: { score: number; artwork: { id: number } }[] }>(`/v1/artworks/${work.id}/similar?limit=12`);
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/artwork/${work.id}`);
    await w.page.waitForSelector("#artwork-head .hero img");
    // the picture's box has its height before the image arrives (the work's proportions)
    const box = await w.page.$eval("#artwork-head .hero .pic", (el) => el.getBoundingClientRect().height);
    expect(box).toBeGreaterThan(100);
    await w.page.waitForSelector("#artwork-similar .card");
    await w.page.waitForSelector("#artwork-chart canvas");
    await w.page.evaluate(() => Promise.all([...document.images].map((img) => ((img.loading = "eager"), img.decode().catch(() => undefined)))));
    const images = await w.page.$$eval("img", (imgs) => imgs.map((i) => ({ src: i.currentSrc, w: i.naturalWidth, complete: i.complete })));
    expect(images.length).toBe(1 + similar.results.length);
    for (const img of images) {
      expect(img.complete).toBe(true);
      expect(img.w).toBeGreaterThan(0);
      expect(img.src).toMatch(/\/images\/\d+\/w\d+\.jpg\?exp=\d+&sig=[0-9a-f]{64}$/);
    }
    expect(await w.page.$eval("#artwork-head .hero .pic", (el) => el.getBoundingClientRect().height)).toBe(box);
    expect(await w.page.$eval("#estimate dd", (dd) => Number(dd.getAttribute("data-value")))).toBe(work.current_estimated_price);
    // the chart draws every series of the API's chart, the estimate as served among them
    const chart = await api<{ series: { id: string; label: string }[] }>(`/v1/artworks/${work.id}/chart`);
    expect(chart.series.map((x) => x.id)).toContain("estimate_history");
    const legend = await w.page.$eval("#artwork-chart .u-legend", (el) => el.textContent ?? "");
    for (const x of chart.series) expect(legend).toContain(x.label);
    const cards = await w.page.$$eval("#artwork-similar .card", (cs) =>
      cs.map((c) => ({ id: Number(c.getAttribute("data-artwork-id")), score: Number(c.querySelector(".score")?.getAttribute("data-score")) })),
    );
    expect(cards).toEqual(similar.results.map((r) => ({ id: r.artwork.id, score: r.score })));
    await shot(w.page, "artwork");
    await close(w);
  });

  test("search by image: an artwork's own picture finds that artwork first", async () => {
    const work = (await api<{ items: ApiArtwork[] }>("/v1/artworks?limit=20")).items.find((a) => a.description.image)!;
    const picture = await fetch(work.description.image!.urls.w480!);
    expect(picture.status).toBe(200);
    const file = join(dataDir, "upload.jpg");
    writeFileSync(file, new Uint8Array(await picture.arrayBuffer()));
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, "/search");
    const input = await w.page.waitForSelector("#search-file");
    await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
    await w.page.waitForSelector("#search-results .card");
    const first = await w.page.$eval("#search-results .card", (c) => ({
      id: Number(c.getAttribute("data-artwork-id")),
      score: Number(c.querySelector(".score")?.getAttribute("data-score")),
    }));
    expect(first.id).toBe(work.id);
    // the rendition is a re-encoded JPEG, so not quite 1
    expect(first.score).toBeGreaterThan(0.95);
    const search = w.answers.find((a) => a.path.startsWith("/v1/artworks/search-by-image"))!;
    const results = await w.page.$$eval("#search-results .card", (cs) => cs.length);
    expect(search.du).toBe(10 + 1.5 * results);
    // the Search button after the pick does not search (and charge) the same picture again...
    await w.page.click("#search button[type=submit]");
    await new Promise((r) => setTimeout(r, 500));
    expect(w.answers.filter((a) => a.path.startsWith("/v1/artworks/search-by-image")).length).toBe(1);
    // ...but it does once an option changed
    await w.page.type("#search-min-score", "0.5");
    await w.page.click("#search button[type=submit]");
    await w.page.waitForFunction(() => document.querySelector("#search-results")?.getAttribute("aria-busy") === null);
    await new Promise((r) => setTimeout(r, 300));
    const searches = w.answers.filter((a) => a.path.startsWith("/v1/artworks/search-by-image"));
    expect(searches.length).toBe(2);
    expect(await w.page.$$eval("#search-results .card .score", (ss) => ss.every((s) => Number(s.getAttribute("data-score")) >= 0.5))).toBe(true);
    await w.page.evaluate(() => Promise.all([...document.images].map((img) => ((img.loading = "eager"), img.decode().catch(() => undefined)))));
    await shot(w.page, "search");
    await close(w);
  });

  test("a sandbox key: the public schema, and the analytics say why they are locked", async () => {
    const top = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=1")).artists[0]!;
    const w = await openTab({ width: 1280, height: 800 }, [403]);
    await signIn(w, keys.sandbox);
    expect(await w.page.$eval("#plan", (el) => el.textContent)).toBe("sandbox");
    await w.page.waitForSelector("#artists-table tbody tr");
    expect(await w.page.$eval("#artists-results", (el) => el.textContent)).toContain("public schema");
    await w.page.goto(`${server.origin}/console#/artist/${top.id}`);
    await w.page.waitForFunction(() => document.querySelectorAll("main .locked").length >= 6);
    const locked = await w.page.$$eval("main .locked", (els) => els.map((e) => e.textContent ?? ""));
    expect(locked.some((t) => t.includes("The index chart is locked") && t.includes("does not include analytics"))).toBe(true);
    // the sales volume and the career path say so in place, with the API's reason; no switch to press
    for (const section of ["#artist-volume", "#artist-career"]) {
      await w.page.waitForSelector(`${section} .locked`);
      expect(await w.page.$eval(`${section} .locked`, (el) => el.textContent ?? "")).toMatch(/is locked for this key\. Your plan \(sandbox\) does not include analytics/);
    }
    expect(await w.page.$("#career-value")).toBeNull();
    expect(w.answers.filter((a) => a.status === 403).length).toBeGreaterThanOrEqual(6);
    // the chart's controls go with the chart
    expect(await w.page.$eval("fieldset.overlays", (el) => (el as unknown as { hidden: boolean }).hidden)).toBe(true);
    await w.page.waitForSelector("#artist-related .locked");
    await w.page.waitForSelector("#artist-works .card");
    // more calls than the plan's 10 a second, paced by the page: none refused for the rate
    expect(w.answers.length).toBeGreaterThan(10);
    expect(w.answers.filter((a) => a.status === 429)).toEqual([]);
    await shot(w.page, "sandbox-artist");
    await close(w);
  });

  test("sales: the list with its filters as form controls, and the rows the API gives", async () => {
    const expected = await api<{ sales: ApiSale[]; total: number }>("/v1/sales?limit=20&offset=0");
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, "/sales");
    await w.page.waitForSelector("#sales-table tbody tr");
    const ids = await w.page.$$eval("#sales-table tbody tr", (trs) => trs.map((tr) => Number(tr.getAttribute("data-sale-id"))));
    expect(ids).toEqual(expected.sales.map((x) => x.id));
    const list = w.answers.find((a) => a.path.startsWith("/v1/sales?"))!;
    expect(list.du).toBe(2 + expected.sales.length);
    // upcoming and concluded both there, newest first
    const statuses = new Set(await w.page.$$eval("#sales-table tbody tr", (trs) => trs.map((tr) => tr.getAttribute("data-status"))));
    expect(statuses.has("closed")).toBe(true);
    expect(statuses.has("upcoming")).toBe(true);
    // a concluded sale's row: its hammer total in the sale's currency
    const closed = expected.sales.find((x) => x.status === "closed")!;
    const row = await w.page.$eval(`#sales-table tr[data-sale-id='${closed.id}']`, (tr) => tr.textContent ?? "");
    expect(row).toContain(money(closed.hammer_total!, closed.currency));
    // the filters: concluded sales of one house (the house list fills the select)
    await w.page.waitForFunction(() => document.querySelectorAll("select[name=auction_house_id] option").length > 1);
    await w.page.select("select[name=status__in]", "closed");
    await w.page.select("select[name=auction_house_id]", String(closed.auction_house.id));
    const answered = w.page.waitForResponse((r) => r.url().includes("status__in=closed"));
    await w.page.click("#sales-filters button[type=submit]");
    await answered;
    const filtered = await api<{ sales: ApiSale[] }>(`/v1/sales?status__in=closed&auction_house_id=${closed.auction_house.id}&sort=DATE_DESC&limit=20`);
    expect(filtered.sales.length).toBeGreaterThan(0);
    await w.page.waitForFunction(
      (want) => JSON.stringify([...document.querySelectorAll("#sales-table tbody tr")].map((tr) => Number(tr.getAttribute("data-sale-id")))) === want,
      {},
      JSON.stringify(filtered.sales.map((x) => x.id)),
    );
    expect(await w.page.$eval("select[name=auction_house_id]", (el) => (el as unknown as { value: string }).value)).toBe(String(closed.auction_house.id));
    await shot(w.page, "sales");
    await close(w);
  });

  test("a concluded sale: its aggregates, and its lots as a catalogue grid with estimates and hammers", async () => {
    const sale = (await api<{ sales: ApiSale[] }>("/v1/sales?status__in=closed&limit=1")).sales[0]!;
    const detail = await api<ApiSale>(`/v1/sales/${sale.id}`);
    const page1 = await api<{ lots: ApiLot[]; has_more: boolean }>(`/v1/lots?sale_id=${sale.id}&sort=NUMBER_ASC&limit=48&offset=0`);
    expect(page1.lots.length).toBeGreaterThan(10);
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/sale/${sale.id}`);
    await w.page.waitForSelector("#sale-facts");
    await w.page.waitForSelector("#sale-lots .catalogue .card");
    // the picture boxes have their size before the pictures arrive
    const before = await boxHeights(w.page, "#sale-lots .pic");
    expect(before.every((x) => x > 50)).toBe(true);
    const cards = await w.page.$$eval("#sale-lots .card", (cs) =>
      cs.map((c) => ({
        id: Number(c.getAttribute("data-lot-id")),
        min: c.getAttribute("data-estimate-min"),
        max: c.getAttribute("data-estimate-max"),
        hammer: c.querySelector("[data-hammer]")?.getAttribute("data-hammer") ?? null,
        text: c.textContent ?? "",
      })),
    );
    expect(cards.map((c) => c.id)).toEqual(page1.lots.map((l) => l.id));
    for (const [i, l] of page1.lots.entries()) {
      const c = cards[i]!;
      expect(c.min).toBe(String(l.price.hammer_estimate_min ?? ""));
      expect(c.max).toBe(String(l.price.hammer_estimate_max ?? ""));
      expect(c.text).toContain(`${money(l.price.hammer_estimate_min!, l.price.currency)}–${money(l.price.hammer_estimate_max!, l.price.currency)}`);
      if (l.status === "sold") expect(Number(c.hammer)).toBe(l.price.hammer!);
      else expect(c.text).toContain(l.status === "passed" ? "Bought in" : "");
    }
    // the aggregates as the sale detail gives them
    const sold = detail.lots_count_sold_above_estimations! + detail.lots_count_sold_within_estimations! + detail.lots_count_sold_below_estimations!;
    expect(await w.page.$eval("#sale-sold", (dd) => Number(dd.getAttribute("data-sold")))).toBe(sold);
    expect(await w.page.$eval("#sale-sold", (dd) => dd.textContent)).toContain(`${sold} of ${detail.lots_count} (${Math.round((sold / detail.lots_count) * 100)} %)`);
    expect(await w.page.$eval("#sale-hammer-total", (dd) => dd.textContent)).toBe(money(detail.hammer_total!, detail.currency));
    expect(await w.page.$eval("#sale-outcomes", (f) => f.textContent)).toContain(`${detail.lots_count_not_sold} bought in`);
    // the catalogue's price: 2 + 1 per lot
    expect(w.answers.find((a) => a.path.startsWith(`/v1/lots?sale_id=${sale.id}`))!.du).toBe(2 + page1.lots.length);
    await loadImages(w.page);
    expect(await boxHeights(w.page, "#sale-lots .pic")).toEqual(before);
    await shot(w.page, "sale");
    // the next page of the catalogue
    if (page1.has_more) {
      await w.page.click("#sale-lots a[rel=next]");
      await w.page.waitForFunction((n) => location.hash.includes("offset=48") && document.querySelectorAll("#sale-lots .card").length === n, {}, detail.lots_count - 48);
    }
    await close(w);
  });

  test("an upcoming sale: each lot's chance of selling and expected hammer with its band; a lot's page", async () => {
    const sale = (await api<{ sales: ApiSale[] }>("/v1/sales?status__in=upcoming&limit=50")).sales.find((x) => x.lots_count > 1)!;
    const lots = (await api<{ lots: ApiLot[] }>(`/v1/lots?sale_id=${sale.id}&sort=NUMBER_ASC&limit=48`)).lots;
    expect(lots.every((l) => l.sale_probability !== null && l.expected_hammer_usd !== null)).toBe(true);
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/sale/${sale.id}`);
    await w.page.waitForSelector("#sale-lots .card [data-probability]");
    const cards = await w.page.$$eval("#sale-lots .card", (cs) =>
      cs.map((c) => {
        const e = c.querySelector("[data-expected]");
        return {
          id: Number(c.getAttribute("data-lot-id")),
          p: Number(c.querySelector("[data-probability]")?.getAttribute("data-probability")),
          expected: [e?.getAttribute("data-expected"), e?.getAttribute("data-expected-low"), e?.getAttribute("data-expected-high")].map(Number),
          text: c.textContent ?? "",
        };
      }),
    );
    expect(cards.map((c) => c.id)).toEqual(lots.map((l) => l.id));
    for (const [i, l] of lots.entries()) {
      expect(cards[i]!.p).toBe(l.sale_probability!);
      expect(cards[i]!.expected).toEqual([l.expected_hammer_usd!, l.expected_hammer_usd_low!, l.expected_hammer_usd_high!]);
      expect(cards[i]!.text).toContain(`${Math.round(l.sale_probability! * 100)} % chance of selling`);
      expect(cards[i]!.text).toContain(`(80 %: ${money(l.expected_hammer_usd_low!)}–${money(l.expected_hammer_usd_high!)})`);
    }
    const total = Math.round(lots.reduce((sum, l) => sum + l.sale_probability! * l.expected_hammer_usd!, 0));
    expect(await w.page.$eval("#sale-expected b", (b) => Number(b.getAttribute("data-value")))).toBe(total);
    await loadImages(w.page);
    await shot(w.page, "sale-upcoming");
    // a lot's page from its card
    await w.page.click(`#sale-lots .card[data-lot-id='${lots[0]!.id}'] a.title`);
    await w.page.waitForSelector("#lot-facts");
    expect(w.page.url()).toContain(`#/lot/${lots[0]!.id}`);
    const facts = await w.page.$eval("#lot-facts", (dl) => dl.textContent ?? "");
    expect(facts).toContain(`${Math.round(lots[0]!.sale_probability! * 100)} %`);
    expect(facts).toContain(`${money(lots[0]!.price.hammer_estimate_min!, lots[0]!.price.currency)}–`);
    expect(await w.page.$eval("#lot-head a[href^='#/sale/']", (a) => a.getAttribute("href"))).toBe(`#/sale/${sale.id}`);
    await loadImages(w.page);
    await shot(w.page, "lot");
    await close(w);
  });

  test("the preferred currency: a lot's estimate and forecast both in it, converted by the API, the sale's own beside", async () => {
    // an upcoming lot with an estimate in a currency other than euros
    const sales = (await api<{ sales: ApiSale[] }>("/v1/sales?status__in=upcoming&limit=50")).sales.filter((x) => x.lots_count > 1 && x.currency !== "EUR");
    expect(sales.length).toBeGreaterThan(0);
    const sale = sales[0]!;
    type Converted = ApiLot & { price: ApiLot["price"] & { hammer_estimate_min_usd: number; hammer_estimate_min_preferred: number; hammer_estimate_max_preferred: number } };
    const lots = (await api<{ lots: Converted[] }>(`/v1/lots?sale_id=${sale.id}&sort=NUMBER_ASC&limit=48&preferred_currency=EUR`)).lots;
    const lot = lots.find((l) => l.price.hammer_estimate_min_usd && l.expected_hammer_usd !== null)!;
    const rate = lot.price.hammer_estimate_min_preferred / lot.price.hammer_estimate_min_usd;
    const w = await openTab();
    await signIn(w, keys.enterprise);
    await w.page.waitForSelector("#currency");
    await w.page.select("#currency", "EUR");
    try {
      await w.page.goto(`${server.origin}/console#/sale/${sale.id}`);
      await w.page.waitForSelector("#sale-lots .card [data-probability]");
      // the catalogue asked for euros
      expect(w.answers.some((a) => a.path.startsWith(`/v1/lots?sale_id=${sale.id}`) && a.path.includes("preferred_currency=EUR"))).toBe(true);
      const text = await w.page.$eval(`#sale-lots .card[data-lot-id='${lot.id}']`, (c) => c.textContent ?? "");
      const eur = (v: number) => money(v, "EUR");
      // the estimate in euros, then in the sale's own currency
      expect(text).toContain(
        `${eur(lot.price.hammer_estimate_min_preferred)}–${eur(lot.price.hammer_estimate_max_preferred)} (${money(lot.price.hammer_estimate_min!, lot.price.currency)}`,
      );
      // the forecast in euros too, at the rate the lot's converted estimate shows
      expect(text).toContain(
        `median if sold ${eur(lot.expected_hammer_usd! * rate)} (80 %: ${eur(lot.expected_hammer_usd_low! * rate)}–${eur(lot.expected_hammer_usd_high! * rate)})`,
      );
      // the lot's page keeps the choice
      await w.page.goto(`${server.origin}/console#/lot/${lot.id}`);
      await w.page.waitForSelector("#lot-forecast");
      expect(await w.page.$eval("#lot-forecast", (dd) => dd.textContent)).toBe(
        `${eur(lot.expected_hammer_usd! * rate)} (80 %: ${eur(lot.expected_hammer_usd_low! * rate)}–${eur(lot.expected_hammer_usd_high! * rate)})`,
      );
    } finally {
      // the choice is the browser's (local storage): the other tests see USD
      await w.page.evaluate(() => localStorage.removeItem("artmarket.currency"));
    }
    await close(w);
  });

  test("follow and share: the buttons change, the followed lists follow; the artwork's lots link their sales", async () => {
    // a work sold at auction (it has lots to link)
    const sold = (await api<{ lots: (ApiLot & { artwork: { id: number }; image: unknown })[] }>("/v1/lots?status=sold&limit=20")).lots.find((l) => l.image)!;
    const work = await api<ApiArtwork>(`/v1/artworks/${sold.artwork.id}`);
    const artistId = work.description.artist.id;
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/artist/${artistId}`);
    await w.page.waitForSelector("#follow[aria-pressed=false]");
    // keyboard: from the page's start, Tab reaches the button; Enter presses it
    await w.page.focus("main");
    expect(await tabTo(w.page, "follow")).toBe(true);
    await w.page.keyboard.press("Enter");
    await w.page.waitForSelector("#follow[aria-pressed=true]");
    expect(await w.page.$eval("#follow", (b) => b.textContent)).toBe("Following");
    const followed = await api<{ artists: { id: number }[] }>("/v1/artists/followed", keys.enterprise);
    expect(followed.artists.map((a) => a.id)).toContain(artistId);
    await w.page.goto(`${server.origin}/console#/followed`);
    await w.page.waitForSelector(`#followed-artists li[data-artist-id='${artistId}']`);
    await shot(w.page, "followed");
    await w.page.goto(`${server.origin}/console#/artist/${artistId}`);
    await w.page.waitForSelector("#follow[aria-pressed=true]");
    await w.page.click("#follow");
    await w.page.waitForSelector("#follow[aria-pressed=false]");
    expect((await api<{ artists: { id: number }[] }>("/v1/artists/followed", keys.enterprise)).artists.map((a) => a.id)).not.toContain(artistId);

    // the artwork: follow, share
    await w.page.goto(`${server.origin}/console#/artwork/${work.id}`);
    await w.page.waitForSelector("#follow[aria-pressed=false]");
    await w.page.click("#follow");
    await w.page.waitForSelector("#follow[aria-pressed=true]");
    expect((await api<{ items: { id: number }[] }>("/v1/artworks/followed", keys.enterprise)).items.map((a) => a.id)).toContain(work.id);
    await w.page.click("#share");
    await w.page.waitForSelector("#share-url");
    const url = await w.page.$eval("#share-url", (el) => (el as unknown as { value: string }).value);
    const shared = await fetch(url);
    expect(shared.status).toBe(200);
    expect(((await shared.json()) as { items: { id: number }[] }).items.map((a) => a.id)).toEqual([work.id]);
    expect(w.answers.find((a) => a.path === "/v1/artworks/share")!.du).toBe(0);
    // the artwork's lots, each linked to its sale
    const lots = await api<{ lots: ApiLot[] }>(`/v1/lots?artwork_id=${work.id}&sort=SALE_DATE_DESC&limit=20`);
    expect(lots.lots.length).toBeGreaterThan(0);
    await w.page.waitForSelector("#artwork-lots tbody tr");
    expect(await w.page.$$eval("#artwork-lots a[href^='#/sale/']", (as) => as.map((a) => a.getAttribute("href")))).toEqual(lots.lots.map((l) => `#/sale/${l.sale.id}`));
    // the pictures loaded before the page is left (a picture still loading would be cut off)
    await loadImages(w.page);
    await shot(w.page, "artwork-actions");
    // the shared list as a page of the console
    await w.page.click("#share-page");
    await w.page.waitForSelector(`#shared-list .card[data-artwork-id='${work.id}']`);
    await loadImages(w.page);
    await shot(w.page, "shared");
    await close(w);
  });

  test("artist page: the global index toggles as a second series, scaled to the artist's index", async () => {
    const top = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=1")).artists[0]!;
    const chart = await api<ApiChart>(`/v1/artists/${top.id}/chart`);
    const global = await api<ApiMarketIndex>(INDEX_CHART);
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/artist/${top.id}`);
    await w.page.waitForSelector("#artist-chart canvas");
    expect(await w.page.$eval("#artist-chart", (el) => el.getAttribute("data-series"))).toBe("1");
    // keyboard: Tab reaches the toggle, Space turns it on
    await w.page.waitForSelector("#follow");
    await w.page.focus("main");
    expect(await tabTo(w.page, "overlay-global")).toBe(true);
    await w.page.keyboard.press("Space");
    await w.page.waitForFunction(() => document.querySelector("#artist-chart")?.getAttribute("data-series") === "2");
    const drawn = await w.page.$eval("#artist-chart", (el) => (el as unknown as { chartData: (number | null)[][] }).chartData);
    const base = await w.page.$eval("#artist-chart", (el) => el.getAttribute("data-overlay-base"));
    const times = drawn[0]!;
    const at = (time: string) => times.indexOf(Date.parse(`${time}T00:00:00Z`) / 1000);
    // the artist's series is unchanged; the overlay is the global index times one factor
    const artist = chart.series[0]!.data;
    expect(artist.filter((p) => !p.extrapolated).map((p) => drawn[1]![at(p.time)])).toEqual(artist.filter((p) => !p.extrapolated).map((p) => p.value));
    const g = new Map(global.art_data.map((p) => [p.time, p.value]));
    const factor = artist.find((p) => p.time === base)!.value / g.get(base!)!;
    const inRange = global.art_data.filter((p) => p.time >= artist[0]!.time && p.time <= artist[artist.length - 1]!.time);
    expect(inRange.length).toBeGreaterThan(100);
    for (const p of inRange) expect(drawn[4]![at(p.time)]!).toBeCloseTo(p.value * factor, 6);
    expect(w.answers.filter((a) => a.path.startsWith("/v1/market/index-chart")).map((a) => [a.path, a.du])).toEqual([[INDEX_CHART, 10]]);
    // the overlay is painted: its amber line is on the canvas
    const amber = await w.page.$eval("#artist-chart canvas", (c) => {
      const canvas = c as HTMLCanvasElement;
      const px = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i]! > 150 && px[i + 1]! > 60 && px[i + 1]! < 110 && px[i + 2]! < 40 && px[i + 3]! > 200) n++;
      return n;
    });
    expect(amber).toBeGreaterThan(100);
    expect(await w.page.$eval("#overlay-note", (el) => el.textContent)).toContain(`scaled to the artist's index at ${base!.slice(0, 7)}`);
    await shot(w.page, "artist-overlay");
    // off again; on again without a second call (read once)
    await w.page.click("#overlay-global");
    await w.page.waitForFunction(() => document.querySelector("#artist-chart")?.getAttribute("data-series") === "1");
    await w.page.click("#overlay-global");
    await w.page.waitForFunction(() => document.querySelector("#artist-chart")?.getAttribute("data-series") === "2");
    expect(w.answers.filter((a) => a.path.startsWith("/v1/market/index-chart")).length).toBe(1);
    await close(w);
  });

  test("artist page: the finance benchmarks as overlays, each scaled like the global index, from one read; a log scale", async () => {
    const top = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=1")).artists[0]!;
    const artist = (await api<{ series: { data: ApiArtistChartPoint[] }[] }>(`/v1/artists/${top.id}/chart`)).series[0]!.data;
    const market = await api<ApiMarketIndex>(INDEX_CHART);
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/artist/${top.id}`);
    await w.page.waitForSelector("#artist-chart canvas");
    await w.page.click("#overlay-SNP500");
    await w.page.waitForFunction(() => document.querySelector("#artist-chart")?.getAttribute("data-overlays") === "SNP500");
    await w.page.click("#overlay-GOLD");
    await w.page.click("#overlay-BITCOIN_USD");
    await w.page.waitForFunction(() => document.querySelector("#artist-chart")?.getAttribute("data-overlays") === "SNP500,GOLD,BITCOIN_USD");
    const chart = await w.page.$eval("#artist-chart", (el) => ({
      data: (el as unknown as { chartData: (number | null)[][] }).chartData,
      series: el.getAttribute("data-series"),
      bases: (el.getAttribute("data-overlay-bases") ?? "").split(","),
      legend: el.querySelector(".u-legend")?.textContent ?? "",
    }));
    expect(chart.series).toBe("4");
    const at = (time: string) => chart.data[0]!.indexOf(Date.parse(`${time}T00:00:00Z`) / 1000);
    // the artist's index and its band come first (columns 1 to 3), the overlays after, in the order of the controls;
    // extrapolated points are on a dashed series of their own, last
    expect(artist.map((p) => chart.data[1]![at(p.time)])).toEqual(artist.map((p) => (p.extrapolated ? null : p.value)));
    if (artist.some((p) => p.extrapolated))
      expect(artist.filter((p) => p.extrapolated).map((p) => chart.data.at(-1)![at(p.time)])).toEqual(artist.filter((p) => p.extrapolated).map((p) => p.value));
    for (const [n, id] of ["SNP500", "GOLD", "BITCOIN_USD"].entries()) {
      const bench = market.finance_data.find((f) => f.id === id)!;
      const levels = new Map(bench.data.map((p) => [p.time, p.value]));
      // the base: the artist's first month not extrapolated that the benchmark has (Bitcoin's series starts late)
      const base = artist.find((p) => !p.extrapolated && levels.get(p.time))!.time;
      expect(chart.bases[n]).toBe(base);
      const factor = artist.find((p) => p.time === base)!.value / levels.get(base)!;
      const inRange = bench.data.filter((p) => p.time >= artist[0]!.time && p.time <= artist[artist.length - 1]!.time);
      expect(inRange.length).toBeGreaterThan(100);
      for (const p of inRange) expect(chart.data[4 + n]![at(p.time)]!).toBeCloseTo(p.value * factor, 6);
      // the legend names the API's label, which says the series is synthetic
      expect(chart.legend).toContain(`${bench.label}, scaled`);
    }
    expect(chart.bases[2]! > chart.bases[0]!).toBe(true);
    expect(await w.page.$eval("#overlay-note", (el) => el.textContent)).toBe(
      `scaled to the artist's index at ${chart.bases[0]!.slice(0, 7)} (S&P 500, Gold), ${chart.bases[2]!.slice(0, 7)} (Bitcoin)`,
    );
    // the gold line is painted
    const gold = await w.page.$eval("#artist-chart canvas", (c) => {
      const canvas = c as HTMLCanvasElement;
      const px = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i]! > 180 && px[i + 1]! > 115 && px[i + 1]! < 160 && px[i + 2]! < 50 && px[i + 3]! > 200) n++;
      return n;
    });
    expect(gold).toBeGreaterThan(30);
    // Bitcoin grows by orders of magnitude: the log scale keeps the artist's index readable
    await w.page.click("#log-scale");
    await w.page.waitForFunction(() => document.querySelector("#artist-chart")?.getAttribute("data-scale") === "log");
    expect(await w.page.$eval("#artist-chart", (el) => (el as unknown as { plot: { scales: { y: { distr: number } } } }).plot.scales.y.distr)).toBe(3);
    await shot(w.page, "artist-benchmarks");
    // the global index joins from the same answer; the overlays and the scale stay on another artist's page
    await w.page.click("#overlay-global");
    await w.page.waitForFunction(() => document.querySelector("#artist-chart")?.getAttribute("data-overlays") === "global,SNP500,GOLD,BITCOIN_USD");
    const second = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=2")).artists[1]!;
    await w.page.goto(`${server.origin}/console#/artist/${second.id}`);
    await w.page.waitForFunction(
      (id) => location.hash === `#/artist/${id}` && document.querySelector("#artist-chart")?.getAttribute("data-overlays") === "global,SNP500,GOLD,BITCOIN_USD",
      {},
      second.id,
    );
    expect(await w.page.$eval("#artist-chart", (el) => el.getAttribute("data-scale"))).toBe("log");
    expect(w.answers.filter((a) => a.path.startsWith("/v1/market/index-chart")).map((a) => [a.path, a.du])).toEqual([[INDEX_CHART, 10]]);
    // all off again: the artist's index alone
    for (const id of ["global", "SNP500", "GOLD", "BITCOIN_USD"]) await w.page.click(`#overlay-${id}`);
    await w.page.waitForFunction(() => document.querySelector("#artist-chart")?.getAttribute("data-series") === "1");
    await close(w);
  });

  test("artist page: the sales volume by year and outcome, the career path by count and by estimate, as the API gives them", async () => {
    const top = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=1")).artists[0]!;
    const volume = await api<ApiSalesVolume>(`/v1/artists/${top.id}/sales-volume`);
    const count = await api<ApiCareerPath>(`/v1/artists/${top.id}/career-path-count`);
    const lae = await api<ApiCareerPath>(`/v1/artists/${top.id}/career-path-lae`);
    const categories = await api<{ id: number; name: string }[]>("/v1/categories");
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/artist/${top.id}`);
    await w.page.waitForSelector("#artist-volume-chart svg");
    await w.page.waitForSelector("#artist-career-chart svg");
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const drawn = (selector: string) => w.page.$eval(selector, (el) => (el as unknown as { chartData: number[][] }).chartData);

    // the sales volume: all lots by year, stacked by outcome; a row per category
    const all = volume.items.find((i) => i.category_id === null)!;
    expect(sum(all.lots_within_estimate)).toBeGreaterThan(0);
    expect(await drawn("#artist-volume-chart")).toEqual([
      all.dates.map((d) => Number(d.slice(0, 4))),
      all.lots_above_estimate,
      all.lots_within_estimate,
      all.lots_below_estimate,
      all.lots_not_sold,
    ]);
    expect(await w.page.$$eval("#artist-volume-chart svg g", (gs) => gs.length)).toBe(all.dates.length);
    const rows = await w.page.$$eval("#artist-volume-table tbody tr", (trs) =>
      trs.map((tr) => ({
        id: tr.getAttribute("data-category-id"),
        offered: Number(tr.getAttribute("data-offered")),
        sold: Number(tr.getAttribute("data-sold")),
        text: tr.textContent ?? "",
      })),
    );
    expect(rows.map((r) => r.id)).toEqual(volume.items.map((i) => (i.category_id === null ? "all" : String(i.category_id))));
    for (const [n, item] of volume.items.entries()) {
      const sold = sum(item.lots_above_estimate) + sum(item.lots_within_estimate) + sum(item.lots_below_estimate);
      expect([rows[n]!.offered, rows[n]!.sold]).toEqual([sold + sum(item.lots_not_sold), sold]);
      if (item.category_id !== null) expect(rows[n]!.text).toContain(categories.find((c) => c.id === item.category_id)!.name);
    }

    // the career path by count: a stack per medium (the largest seven, the rest together), a row per medium
    const stacks = (path: ApiCareerPath) => {
      const values = path.items.map((m) => m.points.map((p) => p.value));
      const rest = values.slice(7);
      return [path.items[0]!.points.map((p) => p.year), ...values.slice(0, 7), ...(rest.length ? [values[0]!.map((_v, i) => sum(rest.map((r) => r[i]!)))] : [])];
    };
    const table = () => w.page.$$eval("#artist-career-table tbody tr", (trs) => trs.map((tr) => [tr.getAttribute("data-medium"), Number(tr.getAttribute("data-total"))]));
    const totals = (path: ApiCareerPath) => path.items.map((m) => [m.medium, sum(m.points.map((p) => p.value))]);
    expect(count.items.length).toBeGreaterThan(0);
    expect(await drawn("#artist-career-chart")).toEqual(stacks(count));
    expect(await table()).toEqual(totals(count));
    await shot(w.page, "artist-analytics");
    // by estimate: read when asked, once
    await w.page.click("#career-value");
    await w.page.waitForFunction(() => document.querySelector("#artist-career-chart")?.getAttribute("data-unit") === "USD");
    expect(await drawn("#artist-career-chart")).toEqual(stacks(lae));
    const byValue = await table();
    expect(byValue.map((r) => r[0])).toEqual(lae.items.map((m) => m.medium));
    for (const [n, [, total]] of totals(lae).entries()) expect(byValue[n]![1] as number).toBeCloseTo(total as number, 6);
    expect(await w.page.$eval("#artist-career-table tbody tr td", (td) => td.textContent)).toBe(money(byValue[0]![1] as number));
    await w.page.click("#career-count");
    await w.page.waitForFunction(() => document.querySelector("#artist-career-chart")?.getAttribute("data-unit") === "artworks");
    await w.page.click("#career-value");
    await w.page.waitForFunction(() => document.querySelector("#artist-career-chart")?.getAttribute("data-unit") === "USD");
    const reads = (what: string) => w.answers.filter((a) => a.path.startsWith(`/v1/artists/${top.id}/${what}`)).map((a) => a.du);
    expect([reads("sales-volume"), reads("career-path-count"), reads("career-path-lae")]).toEqual([[10], [10], [10]]);
    await close(w);
  });

  test("artwork page: an edition's copies with their estimates and lots as the editions endpoint gives them; a unique work has none", async () => {
    const market = new Database(join(dataDir, "market.db"), { readonly: true });
    // an edition with three copies or more, two of them sold at auction
    const group = market
      .query<{ id: number }, []>(
        `SELECT min(a.id) AS id FROM artworks a WHERE a.edition_group_id IS NOT NULL GROUP BY a.edition_group_id
         HAVING count(*) >= 3 AND (SELECT count(DISTINCT l.artwork_id) FROM lots l JOIN artworks b ON b.id = l.artwork_id
           WHERE b.edition_group_id = a.edition_group_id AND l.status = 'sold') >= 2 ORDER BY id LIMIT 1`,
      )
      .get()!;
    market.close();
    const editions = await api<ApiEditions>(`/v1/artworks/${group.id}/editions`);
    // the copy of the group that was sold at auction, the page opened on it
    const copy = editions.editions.find((e) => e.lots.some((l) => l.status === "sold"))!;
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/artwork/${copy.artwork.id}`);
    await w.page.waitForSelector("#editions-table tbody tr");
    await w.page.waitForSelector("#editions-chart canvas");
    expect(await w.page.$eval("#edition-facts", (dd) => dd.textContent)).toBe(`copy ${copy.artwork.description.edition.edition_number} of ${editions.edition_size}`);
    const rows = await w.page.$$eval("#editions-table tbody tr", (trs) =>
      trs.map((tr) => ({
        id: Number(tr.getAttribute("data-artwork-id")),
        current: tr.getAttribute("aria-current") === "true",
        estimate: tr.querySelector("td[data-value]")?.getAttribute("data-value"),
        lots: [...tr.querySelectorAll("li[data-lot-id]")].map((li) => [Number(li.getAttribute("data-lot-id")), li.getAttribute("data-hammer")]),
      })),
    );
    expect(rows).toEqual(
      editions.editions.map((e) => ({
        id: e.artwork.id,
        current: e.artwork.id === copy.artwork.id,
        estimate: String(e.artwork.current_estimated_price ?? ""),
        lots: e.lots.map((l) => [l.id, l.price?.hammer == null ? "" : String(l.price.hammer)]),
      })),
    );
    const lots = editions.editions.flatMap((e) => e.lots);
    expect(await w.page.$eval("#editions-summary", (p) => p.textContent)).toContain(`${editions.editions.length} copies tracked, ${lots.length} lots`);
    // the chart: this copy's hammers and the other copies', in USD, by sale day
    const series = (mine: boolean) => {
      const byDay = new Map<number, number>();
      for (const e of editions.editions.filter((x) => (x.artwork.id === copy.artwork.id) === mine))
        for (const l of e.lots) if (l.price?.hammer_usd != null) byDay.set(Date.parse(`${l.sale_datetime.slice(0, 10)}T00:00:00Z`) / 1000, l.price.hammer_usd);
      return byDay;
    };
    const chart = await w.page.$eval("#editions-chart", (el) => (el as unknown as { chartData: (number | null)[][] }).chartData);
    for (const [n, mine] of [true, false].entries()) {
      const expected = series(mine);
      expect(expected.size).toBeGreaterThan(0);
      expect(chart[0]!.map((t, i) => [t, chart[1 + n]![i]]).filter(([, v]) => v !== null)).toEqual([...expected].sort((a, b) => a[0] - b[0]));
    }
    // its price: 2 DU and 1.5 a copy
    expect(w.answers.filter((a) => a.path.startsWith(`/v1/artworks/${copy.artwork.id}/editions`)).map((a) => a.du)).toEqual([2 + 1.5 * editions.editions.length]);
    await shot(w.page, "artwork-editions");
    // another copy from the table: its page, its row the current one
    const other = editions.editions.find((e) => e.artwork.id !== copy.artwork.id)!;
    await w.page.click(`#editions-table tr[data-artwork-id='${other.artwork.id}'] th a`);
    await w.page.waitForSelector(`#editions-table tr[data-artwork-id='${other.artwork.id}'][aria-current=true]`);
    // a unique work: its edition in the facts, no section and no call
    const unique = (await api<{ items: { id: number }[] }>("/v1/artworks?without_editions=true&limit=1")).items[0]!;
    await w.page.goto(`${server.origin}/console#/artwork/${unique.id}`);
    await w.page.waitForFunction(() => document.querySelector("#edition-facts")?.textContent === "unique work");
    expect(await w.page.$eval("#artwork-editions", (el) => (el.parentElement as unknown as { hidden: boolean }).hidden)).toBe(true);
    await close(w);
    expect(w.answers.some((a) => a.path.startsWith(`/v1/artworks/${unique.id}/editions`))).toBe(false);

    // a sandbox key: the copies and their lots in the public schema, the prices' absence said
    const s = await openTab({ width: 1280, height: 800 }, [403]);
    await openSignedIn(s, keys.sandbox, `/artwork/${copy.artwork.id}`);
    await s.page.waitForSelector("#editions-table tbody tr");
    expect(await s.page.$$eval("#editions-table tbody tr", (trs) => trs.map((tr) => Number(tr.getAttribute("data-lots"))))).toEqual(editions.editions.map((e) => e.lots.length));
    expect(await s.page.$eval("#artwork-editions .locked", (el) => el.textContent)).toContain("come with a pro or enterprise key");
    expect(await s.page.$("#editions-chart")).toBeNull();
    await close(s);
  });

  test("my collection: an artwork added from its page, with its value; appraisals, provenance; a work added from a picture", async () => {
    const work = await pictureWork();
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, `/artwork/${work.id}`);
    await w.page.waitForSelector("#add-to-collection");
    await w.page.click("#add-to-collection");
    const link = await w.page.waitForSelector("#add-to-collection-status a[data-collectable-id]");
    const id = Number(await link!.evaluate((a) => a.getAttribute("data-collectable-id")));
    expect(w.answers.find((a) => a.path === "/v1/collectables")!.du).toBe(1);
    const c = await api<ApiCollectable>(`/v1/collectables/${id}`, keys.enterprise);
    expect(c.title).toBe(work.description.name);
    // seeded from the artwork: its estimate is the market's value of the collectable
    expect(c.machine_estimated_price).toBe(work.current_estimated_price);
    expect(c.current_estimated_price).toBe(work.current_estimated_price);

    await w.page.goto(`${server.origin}/console#/collection`);
    await w.page.waitForSelector(`#collection-table tr[data-collectable-id='${id}']`);
    const row = await w.page.$eval(`#collection-table tr[data-collectable-id='${id}']`, (tr) => ({
      value: Number(tr.getAttribute("data-value")),
      machine: Number(tr.getAttribute("data-machine")),
      text: tr.textContent ?? "",
    }));
    expect(row.value).toBe(c.current_estimated_price!);
    expect(row.machine).toBe(c.machine_estimated_price!);
    expect(row.text).toContain(c.title);
    expect(row.text).toContain(money(c.current_estimated_price!));
    expect(row.text).toContain("the market estimate");
    await loadImages(w.page);
    await shot(w.page, "collection");

    // the detail: add an appraisal and an owner
    await w.page.click(`#collection-table tr[data-collectable-id='${id}'] a`);
    await w.page.waitForSelector("#appraisal-form");
    expect(await w.page.$eval("#collectable-values dd", (dd) => Number(dd.getAttribute("data-value")))).toBe(c.current_estimated_price!);
    await w.page.type("#appraisal-form input[name=type]", "insurance");
    await w.page.type("#appraisal-form input[name=value]", "30000");
    await w.page.$eval("#appraisal-form input[name=currency]", (el) => ((el as unknown as { value: string }).value = "EUR"));
    await w.page.$eval("#appraisal-form input[name=date]", (el) => ((el as unknown as { value: string }).value = "2026-03-02"));
    await w.page.type("#appraisal-form input[name=company_name]", "Nordlicht Appraisals");
    await w.page.click("#appraisal-form button[type=submit]");
    await w.page.waitForSelector("#appraisals-table tr[data-appraisal-id]");
    await w.page.type("#provenance-form input[name=owner]", "Galerie Nord");
    await w.page.type("#provenance-form input[name=location]", "Berlin");
    await w.page.type("#provenance-form input[name=year_from]", "2011");
    await w.page.click("#provenance-form input[name=is_up_to_present]");
    await w.page.click("#provenance-form button[type=submit]");
    await w.page.waitForSelector("#provenance-list li[data-provenance-id]");
    const after = await api<ApiCollectable>(`/v1/collectables/${id}`, keys.enterprise);
    expect(after.appraisals.map((a) => [a.value, a.currency])).toEqual([[30000, "EUR"]]);
    expect(after.provenance.map((p) => [p.owner, p.year_from, p.is_up_to_present])).toEqual([["Galerie Nord", 2011, true]]);
    const appraisal = await w.page.$eval("#appraisals-table tr[data-appraisal-id]", (tr) => tr.textContent ?? "");
    expect(appraisal).toContain(money(30000, "EUR"));
    expect(appraisal).toContain(money(after.appraisals[0]!.value_usd));
    expect(await w.page.$eval("#provenance-list li", (li) => li.textContent)).toBe("Galerie Nord, Berlin (2011–present)");
    await loadImages(w.page);
    await shot(w.page, "collectable");

    // a work from a picture: the upload form
    const file = join(dataDir, "collectable.jpg");
    writeFileSync(file, new Uint8Array(await (await fetch(work.description.image!.urls.w480!)).arrayBuffer()));
    await w.page.goto(`${server.origin}/console#/collection`);
    const input = await w.page.waitForSelector("#upload-file");
    await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
    await w.page.type("#upload-title", "Studio sketch");
    await w.page.type("#upload-artist-q", work.description.artist.name);
    await w.page.keyboard.press("Enter");
    await w.page.waitForSelector(`#upload-artist option[value='${work.description.artist.id}']`);
    await w.page.select("#upload-artist", String(work.description.artist.id));
    await w.page.waitForFunction(() => document.querySelectorAll("#upload-category option").length > 1);
    await w.page.select("#upload-category", "1");
    await w.page.click("#collection-upload button[type=submit]");
    await w.page.waitForFunction(() => /^#\/collectable\/\d+$/.test(location.hash) && document.querySelector("#collectable-values") !== null);
    const made = Number(w.page.url().split("/").at(-1));
    const uploaded = await api<ApiCollectable>(`/v1/collectables/${made}`, keys.enterprise);
    expect(uploaded.title).toBe("Studio sketch");
    expect(uploaded.artist_id).toBe(work.description.artist.id);
    expect(uploaded.image_url).toMatch(/\/images\/\w+\/w1200\.jpg\?exp=\d+&sig=[0-9a-f]{64}$/);
    await loadImages(w.page);
    expect(await w.page.$eval("#collectable-head .hero img", (img) => img.naturalWidth)).toBeGreaterThan(0);
    // the picture is the market artwork's own: offered as a match (not linked); one click links it and shows the new estimate
    const offered = await api<{ suggested_artwork_id: number | null; suggested_matches: { artwork_id: number; score: number }[] }>(`/v1/collectables/${made}`, keys.enterprise);
    expect(offered.suggested_artwork_id).toBeNull();
    expect(offered.suggested_matches[0]!.artwork_id).toBe(work.id);
    const offer = await w.page.waitForSelector(`#collectable-matches li[data-artwork-id='${work.id}']`);
    expect(await offer!.evaluate((li) => li.textContent)).toContain(`This looks like ${work.description.name}`);
    await w.page.click(`#collectable-matches li[data-artwork-id='${work.id}'] button`);
    await w.page.waitForSelector("#collectable-linked");
    const linked = await api<ApiCollectable & { suggested_artwork_id: number | null }>(`/v1/collectables/${made}`, keys.enterprise);
    expect(linked.suggested_artwork_id).toBe(work.id);
    expect(linked.machine_estimated_price).toBe(work.current_estimated_price);
    expect(await w.page.$eval("#collectable-linked b", (b) => Number(b.getAttribute("data-value")))).toBe(work.current_estimated_price);
    expect(await w.page.$eval("#collectable-values dd", (dd) => Number(dd.getAttribute("data-value")))).toBe(linked.current_estimated_price!);
    expect(await w.page.$("#collectable-matches")).toBeNull();
    const list = await api<{ total_count: number }>("/v1/collectables", keys.enterprise);
    expect(list.total_count).toBe(2);
    await close(w);
  });

  test("my collection on a plan without the collectables entitlement says why it is locked", async () => {
    const work = await pictureWork();
    const w = await openTab({ width: 1280, height: 800 }, [403]);
    await openSignedIn(w, keys.viewer, "/collection");
    await w.page.waitForSelector("#collection-list .locked");
    const text = await w.page.$eval("#collection-list .locked", (el) => el.textContent ?? "");
    expect(text).toContain("My collection is locked for this key.");
    expect(text).toContain("Your plan (viewer) does not include collectables");
    expect(await w.page.$("#collection-upload")).toBeNull();
    await shot(w.page, "collection-locked");
    // the artwork page's action says the same where it is pressed
    await w.page.goto(`${server.origin}/console#/artwork/${work.id}`);
    await w.page.waitForSelector("#add-to-collection");
    await w.page.click("#add-to-collection");
    await w.page.waitForSelector("#add-to-collection-status .locked");
    expect(await w.page.$eval("#add-to-collection-status", (el) => el.textContent)).toContain("does not include collectables");
    await close(w);
  });

  test("usage: one bar a day that sums to the DU the usage endpoint reports; by endpoint; the plan's windows", async () => {
    const w = await openTab();
    await signIn(w, keys.enterprise);
    // the list's call answered before the usage is read
    await w.page.waitForSelector("#artists-table tbody tr");
    await w.page.goto(`${server.origin}/console#/usage?range=7`);
    await w.page.waitForSelector("#usage-chart canvas");
    await w.page.waitForSelector("#usage-endpoints-table");
    await w.page.waitForSelector("#usage-windows");
    const drawn = await w.page.$eval("#usage-chart", (el) => (el as unknown as { chartData: number[][] }).chartData);
    const from = (await w.page.$eval("#usage-chart", (el) => el.getAttribute("data-from")))!;
    const today = new Date().toISOString().slice(0, 10);
    expect(drawn[0]!.length).toBe(7);
    expect(drawn[0]!.at(-1)).toBe(Date.parse(`${today}T00:00:00Z`) / 1000);
    expect(drawn[0]!.slice(1).map((t, i) => t - drawn[0]![i]!)).toEqual(Array(6).fill(86_400));
    const byDay = await api<ApiUsage>(`/v1/usage?group_by=day&from=${from}`, keys.enterprise);
    expect(byDay.du_consumed).toBeGreaterThan(0);
    expect(drawn[1]!.reduce((a, b) => a + b, 0)).toBeCloseTo(byDay.du_consumed, 6);
    const perDay = new Map(byDay.breakdown.map((b) => [Date.parse(`${b.label}T00:00:00Z`) / 1000, b.du_consumed]));
    expect(drawn[1]).toEqual(drawn[0]!.map((t) => perDay.get(t) ?? 0));
    expect(await w.page.$eval("#usage-total b", (b) => Number(b.getAttribute("data-value")))).toBe(byDay.du_consumed);
    const byEndpoint = await api<ApiUsage>(`/v1/usage?group_by=endpoint&from=${from}`, keys.enterprise);
    expect(await w.page.$$eval("#usage-endpoints-table tr[data-label]", (trs) => trs.map((tr) => tr.getAttribute("data-label")))).toEqual(byEndpoint.breakdown.map((b) => b.label));
    const windows = await w.page.$eval("#usage-windows", (t) => t.textContent ?? "");
    expect(windows).toContain("200,000");
    expect(windows).toContain("API pool");
    // the usage calls are free
    expect(w.answers.filter((a) => a.path.startsWith("/v1/usage?")).map((a) => a.du)).toEqual([0, 0]);
    await shot(w.page, "usage");
    await close(w);
  });

  test("search by image: a pasted image address finds that artwork first", async () => {
    const work = await pictureWork();
    const w = await openTab();
    await openSignedIn(w, keys.enterprise, "/search");
    await w.page.waitForSelector("#search-url");
    await w.page.type("#search-url", work.description.image!.urls.w480!);
    await w.page.keyboard.press("Enter");
    await w.page.waitForSelector("#search-results .card");
    const first = await w.page.$eval("#search-results .card", (c) => ({
      id: Number(c.getAttribute("data-artwork-id")),
      score: Number(c.querySelector(".score")?.getAttribute("data-score")),
    }));
    expect(first.id).toBe(work.id);
    expect(first.score).toBeGreaterThan(0.95);
    // the server fetched the picture; the page showed no preview of it
    expect(await w.page.$(".preview img")).toBeNull();
    const search = w.answers.find((a) => a.path.startsWith("/v1/artworks/search-by-image"))!;
    expect(search.du).toBe(10 + 1.5 * (await w.page.$$eval("#search-results .card", (cs) => cs.length)));
    await loadImages(w.page);
    await shot(w.page, "search-url");
    await close(w);
  });

  test("a sandbox key: a sale's catalogue in the public schema says what a full key adds", async () => {
    const sale = (await api<{ sales: ApiSale[] }>("/v1/sales?status__in=upcoming&limit=50")).sales.find((x) => x.lots_count > 1)!;
    const w = await openTab();
    await openSignedIn(w, keys.sandbox, `/sale/${sale.id}`);
    await w.page.waitForSelector("#sale-lots .card");
    expect(await w.page.$eval("#sale-lots .locked", (el) => el.textContent)).toContain("the house's estimates, the hammers and the forecasts come with a pro or enterprise key");
    expect(await w.page.$$eval("#sale-lots .card", (cs) => cs.length)).toBe(Math.min(48, sale.lots_count));
    expect(await w.page.$("#sale-lots [data-probability]")).toBeNull();
    await close(w);
  });

  test("phone width: the screener, a sale's catalogue, the usage page and an artist's page fit the screen", async () => {
    const w = await openTab({ width: 390, height: 844 });
    await signIn(w, keys.enterprise);
    await w.page.waitForSelector("#artists-table tbody tr");
    const overflow = await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(w.page, "artists-phone");
    // a sale's catalogue and the usage page fit too
    const sale = (await api<{ sales: ApiSale[] }>("/v1/sales?status__in=closed&limit=1")).sales[0]!;
    await w.page.goto(`${server.origin}/console#/sale/${sale.id}`);
    await w.page.waitForSelector("#sale-lots .card");
    await loadImages(w.page);
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(w.page, "sale-phone");
    await w.page.goto(`${server.origin}/console#/usage`);
    await w.page.waitForSelector("#usage-chart canvas");
    await w.page.waitForSelector("#usage-endpoints-table");
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(w.page, "usage-phone");
    // the artist page with its overlays' controls, the sales volume and the career path
    const top = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=1")).artists[0]!;
    await w.page.goto(`${server.origin}/console#/artist/${top.id}`);
    await w.page.waitForSelector("#artist-chart canvas");
    await w.page.waitForSelector("#artist-volume-chart svg");
    await w.page.waitForSelector("#artist-career-chart svg");
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(w.page, "artist-phone");
    await close(w);
  });

  test("email sign-in: a set-password link, the password, the keys page (made once, rotated, revoked); sign-out ends the session and its key", async () => {
    const w = await openTab();
    const password = "a console password of some length";
    await w.page.goto(`${server.origin}/console#set-password=${setPasswordToken}`, { waitUntil: "load" });
    await w.page.waitForSelector("#new-password");
    await w.page.type("#new-password", password);
    await w.page.keyboard.press("Enter");
    await w.page.waitForFunction(() => (document.querySelector("#set-password-message")?.textContent ?? "").includes("password is set"));
    await w.page.goto(`${server.origin}/console#/`);
    await w.page.waitForSelector("#email");
    await w.page.type("#email", "member@example.com");
    await w.page.type("#password", password);
    await Promise.all([w.page.waitForFunction(() => location.hash === "#/artists"), w.page.keyboard.press("Enter")]);
    await w.page.waitForSelector("#artists-table tbody tr");
    // the tab's market calls go with a key made for it at sign-in, ending with the session at the latest
    await w.page.goto(`${server.origin}/console#/keys`);
    await w.page.waitForSelector("#keys-rows tr");
    expect(await w.page.$$eval("#keys-rows tr td:first-child", (tds) => tds.map((td) => td.textContent))).toEqual(["console (signed in)"]);
    await w.page.type("#key-name", "robot");
    await w.page.select("#key-scope", "read");
    await w.page.click("#key-create button[type=submit]");
    await w.page.waitForSelector("#new-key-secret");
    const secret = (await w.page.$eval("#new-key-secret", (el) => el.textContent))!;
    expect(secret).toMatch(/^am_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    await w.page.waitForFunction(() => document.querySelectorAll("#keys-rows tr").length === 2);
    // the key works, read-only
    expect((await fetch(`${server.origin}/v1/categories`, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(200);
    expect((await fetch(`${server.origin}/v1/artists/1/follow`, { method: "POST", headers: { Authorization: `Bearer ${secret}` } })).status).toBe(403);
    await shot(w.page, "keys");
    // rotate it: a new secret, the old one until the overlap ends
    await w.page.click("#keys-rows tr:nth-child(2) button.rotate");
    await w.page.waitForSelector("#old-key-until");
    const rotated = (await w.page.$eval("#new-key-secret", (el) => el.textContent))!;
    expect(rotated).not.toBe(secret);
    await w.page.waitForFunction(() => document.querySelectorAll("#keys-rows tr").length === 3);
    expect((await fetch(`${server.origin}/v1/categories`, { headers: { Authorization: `Bearer ${rotated}` } })).status).toBe(200);
    expect((await fetch(`${server.origin}/v1/categories`, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(200);
    // revoke the new one
    await w.page.click("#keys-rows tr:nth-child(3) button.revoke");
    await w.page.waitForFunction(() => document.querySelector("#keys-rows tr:nth-child(3)")?.getAttribute("data-status") === "revoked");
    expect((await fetch(`${server.origin}/v1/categories`, { headers: { Authorization: `Bearer ${rotated}` } })).status).toBe(401);
    // sign out: the console's key is revoked and the session ended
    await Promise.all([w.page.waitForFunction(() => location.hash === "#/"), w.page.click("#sign-out")]);
    const db = new Database(join(dataDir, "account.db"), { readonly: true });
    try {
      const consoleKey = db.query("SELECT revoked_at FROM api_keys WHERE name = 'console (signed in)'").get() as { revoked_at: number | null };
      expect(consoleKey.revoked_at).not.toBeNull();
      expect(db.query("SELECT count(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = 'member@example.com'").get()).toEqual({ n: 0 });
      const actions = (db.query("SELECT action FROM audit_log ORDER BY id").all() as { action: string }[]).map((r) => r.action);
      expect(actions).toEqual(["user.password_set", "session.signed_in", "key.created", "key.created", "key.rotated", "key.revoked", "key.revoked", "session.signed_out"]);
    } finally {
      db.close();
    }
    await close(w);
  });

  test("admin: the nav shows it to an admin; a user made (its link shown), disabled; usage and the audit log", async () => {
    const w = await openTab();
    await w.page.goto(`${server.origin}/console#/`, { waitUntil: "load" });
    await w.page.waitForSelector("#email");
    await w.page.type("#email", "root@example.com");
    await w.page.type("#password", ADMIN_PASSWORD);
    await Promise.all([w.page.waitForFunction(() => location.hash === "#/artists"), w.page.keyboard.press("Enter")]);
    await w.page.waitForFunction(() => document.querySelector("#nav-admin")?.getAttribute("hidden") === null);
    await w.page.goto(`${server.origin}/console#/admin`);
    await w.page.waitForSelector("#admin-users tr[data-email='root@example.com']");
    await w.page.type("#new-user-email", "newbie@example.com");
    await w.page.select("#new-user-plan", "sandbox");
    await w.page.click("#new-user button[type=submit]");
    await w.page.waitForSelector("#set-password-link pre");
    expect(await w.page.$eval("#set-password-link pre", (el) => el.textContent)).toStartWith(`${server.origin}/console#set-password=`);
    const row = "#admin-users tr[data-email='newbie@example.com']";
    await w.page.waitForSelector(row);
    expect(await w.page.$eval(`${row} .status`, (el) => el.textContent)).toBe("no password yet");
    await w.page.click(`${row} button.toggle-disabled`);
    await w.page.waitForFunction((sel: string) => document.querySelector(`${sel} .status`)?.textContent === "disabled", {}, row);
    await w.page.waitForFunction(() => document.querySelector("#admin-audit tr")?.getAttribute("data-action") === "user.changed");
    const actions = await w.page.$$eval("#admin-audit tr", (trs) => trs.map((tr) => tr.getAttribute("data-action")));
    expect(actions.slice(0, 3)).toEqual(["user.changed", "user.created", "key.created"]);
    expect(await w.page.$$eval("#admin-usage tr", (trs) => trs.length)).toBeGreaterThan(3);
    await shot(w.page, "admin");
    await close(w);
  });

  test("notifications and webhooks: the feed's events in words; a destination added, its test event delivered, signed", async () => {
    // a notification of the enterprise key's user, as a fan-out writes it
    const kid = /^am_([0-9a-f]+)_/.exec(keys.enterprise)![1]!;
    const db = new Database(join(dataDir, "account.db"));
    db.run("PRAGMA busy_timeout = 5000");
    const { user_id } = db.query("SELECT user_id FROM api_keys WHERE kid = ?").get(kid) as { user_id: number };
    db.run(
      "INSERT INTO notifications (user_id, event_id, type, occurred_at, snapshot_id, subject_kind, subject_id, data, created_at) VALUES (?, 'evt_000000000000000000000001', 'lot.sold', ?, 's', 'lot', 7, ?, ?)",
      [
        user_id,
        Date.parse("2026-11-20T00:00:00Z"),
        JSON.stringify({ status: "sold", currency: "EUR", hammer: 12000, estimate_min: 8000, estimate_max: 10000, against_estimate: "above" }),
        Date.now(),
      ],
    );
    db.close();
    const receiver = webhookReceiver();
    try {
      const w = await openTab();
      await signIn(w, keys.enterprise);
      // the header's badge: one unread, from a free call that the call log leaves out
      await w.page.waitForFunction(() => document.querySelector("#unread:not([hidden])")?.textContent === "1");
      expect(await w.page.$$eval("#calls li code", (c) => c.map((x) => x.textContent).filter((t) => t?.includes("/unread")))).toEqual([]);
      await w.page.goto(`${server.origin}/console#/notifications`);
      await w.page.waitForSelector("#notifications li");
      expect(await w.page.$eval("#notifications li", (li) => li.textContent)).toContain("Sold for 12,000 EUR (above the estimate)");
      // read: the badge goes, and stays gone in a new load of the page
      expect(await w.page.$eval("#unread", (b) => b.hidden)).toBe(true);
      await w.page.goto(`${server.origin}/console#/artists`);
      const counted = w.page.waitForResponse((r) => r.url().includes("/v1/notifications/unread?after=evt_000000000000000000000001"));
      await w.page.reload();
      expect(await (await counted).json()).toEqual({ unread: 0 });
      await w.page.waitForSelector("#artists-table tbody tr");
      expect(await w.page.$eval("#unread", (b) => b.hidden)).toBe(true);
      await w.page.goto(`${server.origin}/console#/webhooks`);
      await w.page.waitForSelector("#webhook-url");
      await w.page.type("#webhook-url", receiver.url());
      await w.page.click("#webhook-create button[type=submit]");
      await w.page.waitForSelector("#webhook-secret");
      const secret = (await w.page.$eval("#webhook-secret", (el) => el.textContent))!;
      expect(secret).toMatch(/^whsec_/);
      receiver.useSecret(secret);
      await w.page.waitForSelector("#webhooks-rows tr button.send-test");
      await w.page.click("#webhooks-rows tr button.send-test");
      await w.page.waitForSelector("#webhook-test-sent");
      await receiver.waitFor(1);
      expect(receiver.got.map((r) => r.verified)).toEqual([true]);
      // the receiver has the request before its answer reaches the dispatcher, which then records
      // the success: wait for that record, or the list below may be read before it (a busy machine)
      const store = new Database(join(dataDir, "account.db"), { readonly: true });
      try {
        const until = Date.now() + 10_000;
        while (!store.query("SELECT 1 FROM webhook_deliveries WHERE status = 'succeeded'").get() && Date.now() < until) await Bun.sleep(20);
      } finally {
        store.close();
      }
      // the rows are drawn again once the test event's call returns: a locator finds the button
      // anew when the one it had is gone
      await w.page.locator("#webhooks-rows tr button.deliveries").click();
      await w.page.waitForSelector("#webhook-deliveries tr[data-status=succeeded]");
      await shot(w.page, "webhooks");
      await close(w);
    } finally {
      receiver.stop();
    }
  });
});
