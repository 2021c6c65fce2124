/**
 * The demo console (/console) in a real browser: headless Chromium (@sparticuz/chromium) driven by
 * puppeteer-core against a real `serve` of the tiny market, from source. Each page is opened as a
 * person would, and checked against the API's own answers: the screener's rows and the DU meter,
 * the artist's chart (its points and band), the artwork's signed images and similar works, search
 * by image, and what a sandbox key sees. Every page fails on a console error, a failed request, or
 * a request to any host but the server's; a screenshot of each is saved under test-results/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import chromium from "@sparticuz/chromium";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { openAccountDb } from "../../src/db/connection";
import { createUserWithKey } from "../../src/serve/accounts/keys";
import { accountStore } from "../../src/serve/accounts/store";
import { tempDataDir, tinyMarketDir } from "../helpers/app";

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
  querySelectorAll(selector: string): { length: number };
  images: Iterable<{ loading: string; decode(): Promise<void> }>;
  documentElement: { scrollWidth: number };
};
declare const window: { innerWidth: number };
declare const location: { hash: string };

const root = join(import.meta.dir, "../..");
const SHOTS = join(root, "test-results");

interface Server {
  proc: ReturnType<typeof Bun.spawn>;
  origin: string;
}

async function startServer(dataDir: string): Promise<Server> {
  const proc = Bun.spawn([process.execPath, join(root, "src/cli.ts"), "serve", "--data", dataDir, "--port", "0", "--workers", "1", "--log-format", "off"], {
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
const keys = { enterprise: "", sandbox: "", reader: "" };

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

async function remaining(page: Page): Promise<number> {
  return Number(await page.$eval("#meter", (el) => (el as HTMLElement).dataset.remaining));
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `console-${name}.png`), fullPage: true });
}

async function close(w: Watched): Promise<void> {
  // images still loading when the tab closes are not failures of the page
  w.page.removeAllListeners("requestfailed");
  await w.page.close();
  expect(w.problems).toEqual([]);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = tempDataDir("artmarket-console-");
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  const account = openAccountDb(dataDir);
  accountStore(account).seedPlans();
  keys.enterprise = (await createUserWithKey(account, "enterprise", "console enterprise")).key;
  keys.sandbox = (await createUserWithKey(account, "sandbox", "console sandbox")).key;
  keys.reader = (await createUserWithKey(account, "enterprise", "console test reader")).key;
  account.close();
  const started = startServer(dataDir);
  const launched = (async () =>
    puppeteer.launch({
      executablePath: await chromium.executablePath(),
      // a POSIX locale makes Chromium report "en-US@posix", which Intl refuses
      args: [...chromium.args, "--lang=en-US"],
      headless: true,
    }))();
  [server, browser] = await Promise.all([started, launched]);
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
  series: { id: string; data: { time: string; value: number; value_low?: number; value_high?: number }[] }[];
}
interface ApiArtwork {
  id: number;
  description: { name: string; image: { urls: Record<string, string> } | null; artist: { id: number } };
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
    await signIn(w, keys.enterprise);
    await w.page.goto(`${server.origin}/console#/artist/${top.id}`);
    await w.page.waitForSelector("#artist-chart canvas");
    await w.page.waitForSelector("#artist-related li");
    await w.page.waitForSelector("#artist-sharpe table");
    const drawn = await w.page.$eval("#artist-chart", (el) => (el as unknown as { chartData: (number | null)[][] }).chartData);
    const data = chart.series[0]!.data;
    expect(data.length).toBeGreaterThan(100);
    expect(drawn[0]).toEqual(data.map((p) => Date.parse(`${p.time}T00:00:00Z`) / 1000));
    expect(drawn[1]).toEqual(data.map((p) => p.value));
    expect(drawn[2]).toEqual(data.map((p) => p.value_high ?? null));
    expect(drawn[3]).toEqual(data.map((p) => p.value_low ?? null));
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

  test("artwork page: signed renditions load without layout jump; estimate; similar works with scores", async () => {
    const artist = (await api<{ artists: ApiArtist[] }>("/v1/artists?limit=1")).artists[0]!;
    const work = (await api<{ items: (ApiArtwork & { current_estimated_price: number })[] }>(`/v1/artworks?artist_id=${artist.id}&limit=20`)).items.find(
      (a) => a.description.image,
    )!;
    const similar = await api<{ results: { score: number; artwork: { id: number } }[] }>(`/v1/artworks/${work.id}/similar?limit=12`);
    const w = await openTab();
    await signIn(w, keys.enterprise);
    await w.page.goto(`${server.origin}/console#/artwork/${work.id}`);
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
    await signIn(w, keys.enterprise);
    await w.page.goto(`${server.origin}/console#/search`);
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
    await w.page.waitForFunction(() => document.querySelectorAll("main .locked").length >= 4);
    const locked = await w.page.$$eval("main .locked", (els) => els.map((e) => e.textContent ?? ""));
    expect(locked.some((t) => t.includes("The index chart is locked") && t.includes("does not include analytics"))).toBe(true);
    expect(w.answers.filter((a) => a.status === 403).length).toBeGreaterThanOrEqual(4);
    await shot(w.page, "sandbox-artist");
    await close(w);
  });

  test("phone width: the screener fits the screen", async () => {
    const w = await openTab({ width: 390, height: 844 });
    await signIn(w, keys.enterprise);
    await w.page.waitForSelector("#artists-table tbody tr");
    const overflow = await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(w.page, "artists-phone");
    await close(w);
  });
});
