/**
 * The service answers the same on both account stores: two in-process apps over the same tiny
 * market, one with the SQLite account store (account.db) and one with the PostgreSQL one, are sent
 * the same requests in the same order, and every answer is compared pairwise: the status, the DU
 * headers, the rate-limit policy, the ETag and the JSON body.
 *
 * Each scenario runs on one side at a time and takes what it needs next (a cursor, a share token,
 * a collectable id, an image URL) from that side's own answers, so that both sides follow the same
 * path. Both stores start empty and the keys are made in the same order, so the user ids, and the
 * ids each store generates after them, are the same on both. Both data directories hold the same
 * image secret, so market image URLs and list cursors are the same too. What legitimately differs
 * is normalised before the comparison: the times a store stamps (created_at, updated_at,
 * expires_at), share tokens, collectable uids and image keys, and the cursors of the followed lists
 * (whose keyset is the time of each follow) (random or clock values, replaced per side by aliases
 * in the order met, so that the same value stays the same alias), and the expiry and signature of
 * signed image URLs. Clock-dependent headers (RateLimit, Retry-After) are compared by presence.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { accountDbPath } from "../../src/db/connection";
import { today } from "../../src/market/time";
import { loadSharp } from "../../src/platform/native";
import { PgAccountStore } from "../../src/serve/accounts/pg-store";
import { closeAsyncClient } from "../../src/serve/accounts/pg-hot";
import { closeDeps, createApp, openDeps, type App } from "../../src/serve/app";
import type { AppDeps } from "../../src/serve/deps";
import { checkResponse, tempDataDir, tinyMarketDir } from "../helpers/app";
import { database } from "../helpers/postgres";

type Json = any;
type Bind = string | number | null;

/** One answer as compared: what both stores must agree on. */
interface Entry {
  /** The request, with this side's aliases in place of its random values. */
  label: string;
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
  /** The clock-dependent headers as sent (not compared by `same`; some tests check them apart). */
  raw: Record<string, string | null>;
}

interface Side {
  kind: "sqlite" | "postgres";
  dataDir: string;
  deps: AppDeps;
  app: App;
  /** Keys by name: the three of every test context, then those the scenarios add. */
  keys: Record<string, string>;
  /** Runs a statement on the store as an operator would (SQLite: another connection, as the CLI). */
  exec(sql: string, ...params: Bind[]): void;
  /** Closes what `exec` opened. */
  closeExec(): void;
  log: Entry[];
  /** This side's random values (tokens, uids, image keys) → their aliases, in the order met. */
  aliases: Map<string, string>;
}

interface Send {
  method?: string;
  /** A key's name in side.keys (default "enterprise"), or null for no Authorization header. */
  key?: string | null;
  json?: unknown;
  /** A multipart body (made anew per side: a FormData is consumed by its request). */
  form?: () => FormData | Promise<FormData>;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

const ORIGIN = "http://artmarket.test";
const T0 = Date.now();
/** Headers compared as they are. */
const HEADERS = [
  "content-type",
  "x-service-dataunits",
  "x-service-dataunits-remaining",
  "x-service-dataunits-period-end",
  "x-service-dataunits-quote",
  "ratelimit-policy",
  "etag",
  "allow",
  "vary",
] as const;
/** Headers whose value depends on the clock: compared by presence only. */
const PRESENCE = ["ratelimit", "retry-after"] as const;
/** Fields a store stamps with the clock. */
const TIME_FIELDS = new Set(["created_at", "updated_at", "expires_at", "followed_at"]);
/** Fields holding a random value of the store: aliased (share tokens, collectables' uids). */
const RANDOM_FIELDS = new Set(["token", "uid"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let sqlite: Side;
let postgres: Side;
const sides = () => [sqlite, postgres] as const;

// ---------------------------------------------------------------- normalising

function alias(side: Side, value: string, kind: string): string {
  let a = side.aliases.get(value);
  if (!a) {
    a = `<${kind}#${[...side.aliases.values()].filter((v) => v.startsWith(`<${kind}#`)).length + 1}>`;
    side.aliases.set(value, a);
  }
  return a;
}

/**
 * Records the random values of a body (share tokens, uids) as aliases before anything is rewritten;
 * with `followed`, the next_cursor too (a followed list's keyset is the time of each follow).
 */
function collectRandom(side: Side, v: unknown, followed: boolean): void {
  if (Array.isArray(v)) for (const x of v) collectRandom(side, x, followed);
  else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      // a market record's uid is the market's; a collectable's is a random UUID
      if (RANDOM_FIELDS.has(k) && typeof x === "string" && (k !== "uid" || UUID.test(x))) alias(side, x, k);
      else if (followed && k === "next_cursor" && typeof x === "string") alias(side, x, "cursor");
      else collectRandom(side, x, followed);
    }
  }
}

/** A string with this side's random values replaced by their aliases and URL signatures blanked. */
function normaliseText(side: Side, s: string): string {
  let out = s.replace(/\/images\/(c[0-9a-f]{24})\//g, (_, key: string) => `/images/${alias(side, key, "image")}/`);
  out = out.replace(/exp=\d+&sig=[0-9a-f]{64}/g, "exp=<exp>&sig=<sig>");
  for (const [value, a] of side.aliases) if (value.length >= 8 && out.includes(value)) out = out.split(value).join(a);
  return out;
}

/** A time the store stamped during this test run (ISO text or epoch ms), a share's expiry included. */
function isRecentStamp(v: unknown): boolean {
  const t = typeof v === "number" ? v : typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : Number.NaN;
  return Number.isFinite(t) && t >= T0 - 60_000 && t <= Date.now() + 31 * 86_400_000;
}

function normalise(side: Side, v: unknown, key?: string): unknown {
  if (key !== undefined && TIME_FIELDS.has(key) && isRecentStamp(v)) return "<time>";
  if (typeof v === "string") return normaliseText(side, v);
  if (Array.isArray(v)) return v.map((x) => normalise(side, x));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalise(side, x, k)]));
  return v;
}

// ---------------------------------------------------------------- sending

/** Sandbox keys (10 requests a second): their calls, per side, in the current wall-clock second. */
const paced = new Map<string, { second: number; calls: number }>();

/**
 * Keeps a sandbox key under its plan's 10 requests a second: the scenarios would otherwise hit the
 * limit or not depending on where the seconds fall, and the two sides would differ by chance.
 */
async function pace(side: Side, keyName: string | null): Promise<void> {
  if (keyName !== "sandbox" && keyName !== "capped") return;
  const id = `${side.kind}/${keyName}`;
  let now = Date.now();
  const at = paced.get(id);
  if (at && at.second === Math.floor(now / 1000) && at.calls >= 8) {
    await Bun.sleep(1000 - (now % 1000) + 5);
    now = Date.now();
  }
  const second = Math.floor(now / 1000);
  const entry = paced.get(id);
  if (entry && entry.second === second) entry.calls++;
  else paced.set(id, { second, calls: 1 });
}

async function send(side: Side, path: string, init: Send = {}): Promise<Answer> {
  const method = init.method ?? "GET";
  const keyName = init.key === undefined ? "enterprise" : init.key;
  await pace(side, keyName);
  const key = keyName === null ? null : (side.keys[keyName] ?? keyName);
  const headers: Record<string, string> = { ...init.headers };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  let body: string | FormData | undefined;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["Content-Type"] = "application/json";
  } else if (init.form) body = await init.form();
  const res = await side.app.handle(new Request(`${ORIGIN}${path}`, { method, headers, body }));
  await checkResponse(side.app, side.deps, method, path, key, res);
  const type = res.headers.get("content-type") ?? "";
  let parsed: Json = null;
  if (type.startsWith("image/")) {
    const bytes = new Uint8Array(await res.arrayBuffer());
    parsed = { bytes: bytes.length, sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex") };
  } else {
    // a HEAD or a 304 has no body whatever its type
    const text = await res.text();
    parsed = text === "" ? null : type.includes("application/json") ? JSON.parse(text) : text;
  }
  collectRandom(side, parsed, new URL(path, ORIGIN).pathname.endsWith("/followed"));
  const compared: Record<string, string | null> = {};
  for (const h of HEADERS) compared[h] = res.headers.get(h);
  // a collectable image's ETag names its random key, and its version hashes the stored path
  compared.etag = compared.etag?.replace(/^"(c[0-9a-f]{24})-(w\d+(?:-blur)?)-[^"]+"$/, (_, k: string, w: string) => `"${alias(side, k, "image")}-${w}-<version>"`) ?? null;
  for (const h of PRESENCE) compared[h] = res.headers.has(h) ? "<present>" : null;
  side.log.push({
    label: `${method} ${normaliseText(side, path)}${keyName === "enterprise" ? "" : ` [${keyName ?? "no key"}]`}`,
    status: res.status,
    headers: compared,
    body: normalise(side, parsed),
    raw: Object.fromEntries(PRESENCE.map((h) => [h, res.headers.get(h)])),
  });
  return { status: res.status, headers: res.headers, body: parsed };
}

/** The differences between two normalised values, as "path: a ≠ b" lines (at most a few). */
function differences(a: unknown, b: unknown, at = "", out: string[] = []): string[] {
  if (out.length >= 5) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${at || "/"}: length ${a.length} ≠ ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], `${at}/${i}`, out);
  } else if (a !== null && b !== null && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.join() !== kb.join()) out.push(`${at || "/"}: keys ${JSON.stringify(ka)} ≠ ${JSON.stringify(kb)}`);
    for (const k of ka) if (k in (b as object)) differences((a as Json)[k], (b as Json)[k], `${at}/${k}`, out);
  } else if (!Object.is(a, b)) {
    out.push(`${at || "/"}: ${JSON.stringify(a)?.slice(0, 160)} ≠ ${JSON.stringify(b)?.slice(0, 160)}`);
  }
  return out;
}

/**
 * Runs a scenario on SQLite, then on PostgreSQL, and compares the answers it got, one by one;
 * returns the answers of both sides (for checks of their own).
 */
async function same(scenario: (side: Side) => Promise<void>): Promise<{ sqlite: Entry[]; postgres: Entry[] }> {
  const from = sides().map((s) => s.log.length);
  // both sides run to the end even when one throws, so that the next comparisons start level
  const errors: string[] = [];
  for (const side of sides()) {
    try {
      await scenario(side);
    } catch (err) {
      errors.push(`${side.kind}: ${(err as Error).stack ?? String(err)}`);
    }
  }
  expect(errors).toEqual([]);
  const a = sqlite.log.slice(from[0]);
  const b = postgres.log.slice(from[1]);
  const report: string[] = [];
  if (a.length !== b.length) report.push(`request count: sqlite ${a.length} ≠ postgres ${b.length}`);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    const diffs: string[] = [];
    if (x.label !== y.label) diffs.push(`request: ${x.label} ≠ ${y.label}`);
    if (x.status !== y.status) diffs.push(`status: ${x.status} ≠ ${y.status}`);
    for (const h of Object.keys(x.headers)) if (x.headers[h] !== y.headers[h]) diffs.push(`header ${h}: ${x.headers[h]} ≠ ${y.headers[h]}`);
    diffs.push(...differences(x.body, y.body).map((d) => `body ${d}`));
    if (diffs.length) report.push(`#${i} ${x.label} (sqlite ≠ postgres):\n    ${diffs.join("\n    ")}`);
  }
  expect(report).toEqual([]);
  expect(a.length).toBeGreaterThan(0);
  return { sqlite: a, postgres: b };
}

// ---------------------------------------------------------------- the two apps

async function openSide(kind: Side["kind"], secret: string): Promise<Side> {
  const dataDir = tempDataDir(`artmarket-stores-${kind}-`);
  copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
  // the same image secret on both sides: the same signed URLs and list cursors
  writeFileSync(join(dataDir, "secret"), secret, { mode: 0o600 });
  const url = kind === "postgres" ? await database("stores") : null;
  const deps = openDeps({ dataDir, port: 0, host: "127.0.0.1", publicUrl: ORIGIN, accountStore: url });
  expect(deps.accounts.kind).toBe(kind);
  const keys: Record<string, string> = {};
  for (const plan of ["sandbox", "pro", "enterprise"]) keys[plan] = (await deps.accounts.createUserWithKey(plan, `${plan} tester`)).key;
  // SQLite: a connection of its own, whose commits move the server's PRAGMA data_version as the CLI's would
  const operator = kind === "sqlite" ? new Database(accountDbPath(dataDir)) : null;
  operator?.run("PRAGMA busy_timeout = 5000");
  const exec = (sql: string, ...params: Bind[]) => {
    if (operator) operator.prepare(sql).run(...params);
    else (deps.accounts as PgAccountStore).pg.run(sql, ...params);
  };
  return { kind, dataDir, deps, app: createApp(deps), keys, exec, closeExec: () => operator?.close(), log: [], aliases: new Map() };
}

async function closeSide(side: Side | undefined): Promise<void> {
  if (!side) return;
  await side.deps.ledger.settled();
  side.closeExec();
  if (side.deps.accounts instanceof PgAccountStore) await closeAsyncClient(side.deps.accounts);
  closeDeps(side.deps);
  rmSync(side.dataDir, { recursive: true, force: true });
}

/** Market rows the scenarios use (the market is the same file on both sides). */
let market: {
  artists: number[];
  artworks: { id: number; artist_id: number; category_id: number }[];
  seedArtwork: { id: number; artist_id: number; category_id: number };
};

beforeAll(async () => {
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");
  sqlite = await openSide("sqlite", secret);
  postgres = await openSide("postgres", secret);
  const m = sqlite.deps.market;
  market = {
    artists: m
      .query<{ id: number }, []>("SELECT id FROM artists ORDER BY id LIMIT 12")
      .all()
      .map((r) => r.id),
    artworks: m.query<{ id: number; artist_id: number; category_id: number }, []>("SELECT id, artist_id, category_id FROM artworks ORDER BY id LIMIT 60").all(),
    seedArtwork: m
      .query<{ id: number; artist_id: number; category_id: number }, []>(
        `SELECT a.id, a.artist_id, a.category_id FROM artworks a JOIN images i ON i.id = a.image_id
          WHERE a.estimate_usd IS NOT NULL AND a.height_cm IS NOT NULL AND a.edition_group_id IS NULL ORDER BY a.id LIMIT 1 OFFSET 19`,
      )
      .get()!,
  };
}, 60_000);

afterAll(async () => {
  await closeSide(sqlite);
  await closeSide(postgres);
});

// ---------------------------------------------------------------- scenarios

/** The rows of a market list's page. */
const rowsOf = (body: Json): { id: number }[] => body.artists ?? body.items ?? body.lots ?? body.sales ?? [];

describe("market reads", () => {
  test("lists with filters, sorts and cursor pages; details; reference data; public and sandbox views", async () => {
    await same(async (s) => {
      // each list, a first page and the next by its cursor
      for (const path of ["/v1/artists?limit=4&sort_by=NAME", "/v1/artworks?limit=5&sort=NAME_ASC", "/v1/lots?limit=4", "/v1/sales?limit=3"]) {
        const first = await send(s, path);
        expect(typeof first.body.next_cursor).toBe("string");
        const second = await send(s, `${path}&cursor=${first.body.next_cursor}`);
        await send(s, `${path}&cursor=${second.body.next_cursor}`);
      }
      for (const path of [
        "/v1/artists?sort_by=BIRTH&birth__gte=1900&is_top=false&limit=5",
        "/v1/artists?limit=5&sort_by_market_cap=asc",
        "/v1/artists?limit=3&include_chart=true",
        "/v1/artworks?category_id__in=1,2&limit=5",
        "/v1/artworks?sort=SIZE_ASC&with_images=true&size__in=small,other&limit=5",
        "/v1/artworks?limit=10&sort=NAME_ASC&offset=10",
        "/v1/lots?sort=SALE_DATE_DESC&status=sold&limit=5&preferred_currency=EUR",
        "/v1/lots?sort=CREATION_YEAR_ASC&creation_year__gte=1990&status__in=sold,passed&limit=5",
        "/v1/sales?sort=END_DATETIME_DESC&status=closed&is_online=false&limit=5",
        "/v1/sales?limit=6&status=closed&preferred_currency=CHF",
        `/v1/artists/${market.artists[0]}`,
        `/v1/artists/${market.artists[0]}/related`,
        `/v1/artists/${market.artists[0]}/sales-volume`,
        `/v1/artworks/${market.artworks[0]!.id}`,
        `/v1/artworks/${market.seedArtwork.id}/similar?limit=5`,
        "/v1/artists/stats",
        "/v1/market/index-chart",
        "/v1/categories",
        "/v1/currencies",
        "/v1/plans",
        "/v1/artists/999999999",
        "/v1/artworks?sort=FOO",
      ]) {
        await send(s, path);
      }
      const lot = rowsOf((await send(s, "/v1/lots?limit=1&sort=RAW_LOT_ID_ASC")).body)[0]!;
      await send(s, `/v1/lots/${lot.id}`);
      const sale = rowsOf((await send(s, "/v1/sales?limit=1&sort=ID_ASC")).body)[0]!;
      await send(s, `/v1/sales/${sale.id}`);
      // a revalidation with the ETag this side gave: 304 at the base price
      const tagged = await send(s, "/v1/artworks?limit=3", { key: "pro" });
      await send(s, "/v1/artworks?limit=3", { key: "pro", headers: { "If-None-Match": tagged.headers.get("etag") ?? "" } });
      await send(s, "/v1/artists?limit=3", { method: "HEAD", key: "pro" });
      // the public schema: no key, and the sandbox's
      await send(s, "/v1/artworks?limit=3", { key: null });
      await send(s, "/v1/lots?limit=3", { key: "sandbox" });
      await send(s, "/v1/plans", { key: "sandbox" });
      // refused the same way: a key required, a bad key, analytics outside the sandbox's plan
      await send(s, "/v1/categories", { key: null });
      await send(s, "/v1/categories", { key: "am_0123456789abcdef_notakeynotakeynotakeynotakey" });
      await send(s, `/v1/artists/${market.artists[0]}/sales-volume`, { key: "sandbox" });
      await send(s, `/v1/artworks/${market.seedArtwork.id}/similar`, { key: "sandbox" });
    });
  });
});

describe("follows", () => {
  test("follow and unfollow each kind; the followed lists, followed=true and is_followed", async () => {
    await same(async (s) => {
      for (const plural of ["artists", "artworks", "lots", "sales"]) {
        const page = rowsOf((await send(s, `/v1/${plural}?limit=6`)).body);
        const [a, b, c] = [page[1]!.id, page[3]!.id, page[4]!.id];
        await send(s, `/v1/${plural}/${a}/follow`, { method: "POST" });
        // the followed lists go by follow time (ms), then id: two follows in one millisecond on
        // one side only would order differently there
        await Bun.sleep(3);
        await send(s, `/v1/${plural}/${b}/follow`, { method: "POST" });
        await send(s, `/v1/${plural}/${b}/follow`, { method: "POST" }); // twice: still one
        await send(s, `/v1/${plural}/${c}/follow`, { method: "POST" });
        await send(s, `/v1/${plural}/${c}/follow`, { method: "DELETE" });
        await send(s, `/v1/${plural}/${c}/follow`, { method: "DELETE" }); // again: 204
        await send(s, `/v1/${plural}/999999999/follow`, { method: "POST" });
        await send(s, `/v1/${plural}/${a}/follow`, { method: "POST", key: null });
        // the page again: is_followed on the followed rows
        await send(s, `/v1/${plural}?limit=6`);
        await send(s, `/v1/${plural}/${a}`);
        await send(s, `/v1/${plural}/${c}`);
        await send(s, `/v1/${plural}/followed`);
        await send(s, `/v1/${plural}/followed?limit=1&offset=1`);
        // by cursor: the keyset is each follow's time, which differs between the stores (aliased)
        const first = await send(s, `/v1/${plural}/followed?limit=1`);
        await send(s, `/v1/${plural}/followed?limit=1&cursor=${first.body.next_cursor}`);
        await send(s, `/v1/${plural}/followed`, { key: "pro" }); // another user follows nothing
      }
      await send(s, "/v1/artists?followed=true&sort_by=NAME");
      await send(s, "/v1/artists?followed=true&limit=1");
      await send(s, "/v1/artists?followed=false&limit=5");
      await send(s, "/v1/artists?followed=true", { key: "pro" });
      await send(s, "/v1/lots/followed?sort=CREATION_YEAR_DESC");
      await send(s, "/v1/lots/followed?limit=1&sort=RAW_LOT_ID_ASC");
      await send(s, "/v1/sales/followed?sort=START_DATETIME_ASC");
      await send(s, "/v1/sales/followed?sort=ID_DESC&limit=1&offset=1");
      await send(s, "/v1/artworks/recommended?limit=5");
      // the sandbox's follows and its public view of them
      const lot = rowsOf((await send(s, "/v1/lots?limit=3", { key: "sandbox" })).body)[2]!;
      await send(s, `/v1/lots/${lot.id}/follow`, { method: "POST", key: "sandbox" });
      await send(s, "/v1/lots/followed", { key: "sandbox" });
    });
  });
});

describe("notifications", () => {
  test("the feed, its filters, its public cut and the unread count", async () => {
    await same(async (s) => {
      const day = Date.parse("2026-11-20T00:00:00Z");
      const data = JSON.stringify({ status: "sold", currency: "EUR", hammer: 100 });
      for (const [i, type] of ["lot.sold", "lot.passed", "lot.sold"].entries()) {
        for (const user of [1, 3]) {
          s.deps.accounts.notify(
            { user_id: user, event_id: `evt_${i}`, type, occurred_at: day + i * 86_400_000, snapshot_id: "s", subject_kind: "lot", subject_id: 7 + i, data },
            Date.now(),
          );
        }
      }
      await send(s, "/v1/notifications");
      await send(s, "/v1/notifications?type=lot.sold");
      await send(s, "/v1/notifications?limit=1");
      await send(s, "/v1/notifications", { key: "sandbox" });
      expect((await send(s, "/v1/notifications/unread")).body).toEqual({ unread: 3 });
      expect((await send(s, "/v1/notifications/unread?after=evt_0")).body).toEqual({ unread: 2 });
      expect((await send(s, "/v1/notifications/unread?after=evt_2")).body).toEqual({ unread: 0 });
    });
  });
});

describe("shares", () => {
  test("create, read by token (no key, a key, pages), another kind's token and unknown ones, bad bodies", async () => {
    await same(async (s) => {
      const w = market.artworks;
      const artworks = await send(s, "/v1/artworks/share", { method: "POST", key: "pro", json: { ids: [w[30]!.id, w[5]!.id, w[50]!.id, w[5]!.id], title: "For the board" } });
      const path = new URL(artworks.body.url as string).pathname;
      await send(s, path, { key: null });
      await send(s, path, { key: "enterprise" });
      await send(s, `${path}?limit=1&offset=1`, { key: null });
      const lotIds = rowsOf((await send(s, "/v1/lots?limit=8&sort=RAW_LOT_ID_DESC")).body).map((r) => r.id);
      const lots = await send(s, "/v1/lots/share", { method: "POST", json: { ids: [lotIds[6], lotIds[1], lotIds[4]] } });
      await send(s, `/v1/lots/shared/${lots.body.token}`, { key: null });
      await send(s, `/v1/lots/shared/${lots.body.token}?limit=2`, { key: null });
      await send(s, `/v1/lots/shared/${artworks.body.token}`, { key: null });
      await send(s, `/v1/artworks/shared/${lots.body.token}`, { key: null });
      await send(s, "/v1/lots/shared/unknownunknownunknown", { key: null });
      await send(s, "/v1/artworks/share", { method: "POST", json: { ids: [w[0]!.id, 999999991] } });
      await send(s, "/v1/lots/share", { method: "POST", json: { ids: [] } });
      await send(s, "/v1/lots/share", { method: "POST", json: { ids: [1] }, key: null });
    });
  });
});

/** A small PNG of one colour with a stripe (colours give different embeddings). */
async function png(dataDir: string, rgb: [number, number, number], width = 96, height = 64): Promise<Uint8Array> {
  const sharp = loadSharp(dataDir);
  const stripe = await sharp({ create: { width: Math.floor(width / 3), height, channels: 3, background: { r: 255 - rgb[0], g: 255 - rgb[1], b: 255 - rgb[2] } } })
    .png()
    .toBuffer();
  const buf = await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .composite([{ input: stripe, left: 0, top: 0 }])
    .png()
    .toBuffer();
  return new Uint8Array(buf);
}

function form(fields: Record<string, string | number>, image?: Uint8Array): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, String(v));
  if (image) f.set("image", new File([image], "work.png", { type: "image/png" }));
  return f;
}

describe("collectables", () => {
  test("create, read, list, update, acquisition, children, comps, image, search by image, delete", async () => {
    const red = await png(sqlite.dataDir, [200, 30, 30]);
    const blue = await png(sqlite.dataDir, [30, 60, 200]);
    const green = await png(sqlite.dataDir, [40, 170, 60], 80, 80);
    const seed = market.seedArtwork;
    const w = market.artworks;
    await same(async (s) => {
      const base = "/v1/collectables";
      const minimal = (await send(s, base, { method: "POST", form: () => form({ artist_id: market.artists[0]!, category_id: 2, edition_unique_type: "unique" }) })).body;
      const edition = (
        await send(s, base, { method: "POST", json: { artist_id: market.artists[1]!, category_id: 3, edition_unique_type: "edition", edition_size: 8, title: "Print" } })
      ).body;
      const seeded = (
        await send(s, base, {
          method: "POST",
          form: () =>
            form(
              { artist_id: seed.artist_id, category_id: seed.category_id, edition_unique_type: "unique", suggested_artwork_id: seed.id, condition: "Mint", creation_year: 1901 },
              red,
            ),
        })
      ).body;
      const pictured = (
        await send(s, base, { method: "POST", form: () => form({ artist_id: market.artists[2]!, category_id: 1, edition_unique_type: "unique", title: "Blue study" }, blue) })
      ).body;
      await send(s, base, { method: "POST", json: { artist_id: market.artists[0]!, category_id: 2 } }); // 422: edition_unique_type missing
      await send(s, base, { method: "POST", form: () => form({ artist_id: 999999, category_id: 2, edition_unique_type: "unique" }) }); // 422: unknown artist
      for (const c of [minimal, edition, seeded, pictured]) await send(s, `${base}/${c.id}`);

      // the list: filters and sorts
      for (const query of [
        "",
        "?sort=TITLE_ASC",
        "?sort=TITLE_DESC",
        "?sort=VALUE_DESC",
        "?sort=VALUE_ASC",
        "?sort=ARTIST_NAME_ASC",
        "?sort=CREATION_YEAR_DESC",
        "?sort=CREATED_AT_ASC&limit=2",
        "?sort=CREATED_AT_ASC&limit=2&offset=2",
        `?artist_id=${market.artists[0]}`,
        `?category_id__in=1,3`,
        "?edition_unique_type=edition",
        "?title__ilike=study",
        "?creation_year__gte=1900",
        "?value__gte=1",
        "?created_at__gte=2000-01-01T00:00:00Z",
        "?created_at__lte=2000-01-01T00:00:00Z",
        "?sort=BOGUS",
      ]) {
        await send(s, `${base}${query}`);
      }
      await send(s, base, { key: "pro" }); // another user's list: empty
      await send(s, `${base}/${minimal.id}`, { key: "pro" }); // another user's record: 404

      // partial update, with a 422 that changes nothing
      await send(s, `${base}/${minimal.id}`, {
        method: "PATCH",
        json: { title: "Renamed", condition: "Good", measurements_unit: "in", measurements_height: 12.5, manual_price_value: 4200, selected_price_type: "manual" },
      });
      await send(s, `${base}/${minimal.id}`, { method: "PATCH", json: { title: 5 } });
      await send(s, `${base}/${minimal.id}`, { method: "PATCH", json: { edition_size: null, creation_year: null } });

      // the acquisition
      await send(s, `${base}/${seeded.id}/acquired`);
      await send(s, `${base}/${seeded.id}/acquired`, { method: "PATCH", json: { date: "2012-03-15", price: 25000, currency: "GBP", source_type: "auction" } });
      await send(s, `${base}/${seeded.id}/acquired`, { method: "PATCH", json: { seller_name: "Estate of X", currency: "EUR", use_instead_of_estimates: true } });
      await send(s, `${base}/${seeded.id}/acquired`, { method: "PATCH", json: { currency: "XYZ" } });
      await send(s, `${base}/${seeded.id}/acquired`);

      // appraisals, provenance, private sales
      for (const [name, create, patch] of [
        [
          "appraisals",
          { type: "insurance", value: 12000, currency: "EUR", date: "2019-05-20", company_name: "Appraisers Ltd", is_best_guess: false },
          { value: 15000, currency: "JPY" },
        ],
        [
          "provenance",
          { owner: "Private collection, Paris", location: "Paris", year_from: 1950, year_to: 1980, is_up_to_present: false },
          { year_to: null, is_up_to_present: true },
        ],
        ["sales", { value: 30000, date: "2016-11-02", location: "Geneva", type: "private", seller_name: "A dealer" }, { currency: "CHF", date: "2017-01-10" }],
      ] as const) {
        const path = `${base}/${seeded.id}/${name}`;
        await send(s, path);
        const one = (await send(s, path, { method: "POST", json: create })).body;
        const two = (await send(s, path, { method: "POST", json: create })).body;
        await send(s, `${path}/${one.id}`, { method: "PATCH", json: patch });
        await send(s, path);
        await send(s, `${path}/${two.id}`, { method: "DELETE" });
        await send(s, `${path}/${two.id}`, { method: "DELETE" }); // again: 404
        await send(s, `${path}/${one.id}`, { method: "PATCH", json: patch, key: "pro" }); // another user's: 404
        await send(s, path, { method: "POST", json: {} }); // 422
      }
      await send(s, `${base}/${seeded.id}`);

      // the comp set
      await send(s, `${base}/${seeded.id}/comps`);
      await send(s, `${base}/${seeded.id}/comps`, {
        method: "PUT",
        json: {
          comps: [
            { artist_id: w[0]!.artist_id, artwork_id: w[0]!.id },
            { artist_id: w[5]!.artist_id, artwork_id: w[5]!.id, weight: 2.5 },
            { artist_id: w[9]!.artist_id, artwork_id: w[9]!.id, weight: 0 },
          ],
        },
      });
      await send(s, `${base}/${seeded.id}/comps`);
      await send(s, `${base}/${seeded.id}`);
      await send(s, `${base}/${pictured.id}/comps`, { method: "PUT", json: { comps: [{ artist_id: w[1]!.artist_id, artwork_id: 987654321 }] } }); // 422
      await send(s, `${base}/${seeded.id}/comps`, { method: "DELETE" });
      await send(s, `${base}/${seeded.id}/comps`);

      // an image for the record without one; its signed rendition; search by the collectable's image
      const withImage = (await send(s, `${base}/${minimal.id}/image`, { method: "PUT", form: () => form({}, green) })).body;
      await send(s, `${base}/${minimal.id}/image`, { method: "PUT", form: () => form({}) }); // 422: no image
      await send(s, new URL(withImage.image_thumbnail_url as string).pathname + new URL(withImage.image_thumbnail_url as string).search, { key: null });
      await send(s, new URL(seeded.image_url as string).pathname + new URL(seeded.image_url as string).search, { key: null });
      for (const c of [minimal, seeded, pictured]) {
        await send(s, "/v1/artworks/search-by-image", { method: "POST", form: () => form({ collectable_id: c.id, limit: 5 }) });
      }
      await send(s, `/v1/artworks/search-by-image?collectable_id=${seeded.id}&limit=3`, { method: "POST" });
      await send(s, "/v1/artworks/search-by-image", { method: "POST", form: () => form({ collectable_id: edition.id }) }); // 422: no image
      await send(s, "/v1/artworks/search-by-image", { method: "POST", form: () => form({ collectable_id: seeded.id }), key: "pro" }); // another user's: 404
      await send(s, "/v1/artworks/search-by-image", { method: "POST", form: () => form({ collectable_id: seeded.id }), key: "sandbox" }); // 403
      await send(s, base);

      // delete (with its children), then again
      await send(s, `${base}/${seeded.id}`, { method: "DELETE" });
      await send(s, `${base}/${seeded.id}`, { method: "DELETE" });
      await send(s, `${base}/${seeded.id}/appraisals`);
      await send(s, `${base}/${edition.id}`, { method: "DELETE", key: "pro" }); // another user's: 404
      await send(s, base);
      // the sandbox has collectables too, on the public plan
      const mine = (await send(s, base, { method: "POST", key: "sandbox", form: () => form({ artist_id: market.artists[3]!, category_id: 1, edition_unique_type: "unique" }) }))
        .body;
      await send(s, `${base}/${mine.id}`, { key: "sandbox" });
      await send(s, base, { key: "sandbox" });
    });
  });
});

describe("usage", () => {
  test("/v1/usage windows and breakdowns of everything above", async () => {
    await same(async (s) => {
      for (const key of ["enterprise", "pro", "sandbox"]) {
        await send(s, "/v1/usage", { key });
        for (const groupBy of ["day", "week", "month", "endpoint"]) await send(s, `/v1/usage?group_by=${groupBy}`, { key });
      }
      await send(s, "/v1/usage?from=2001-01-01&to=2001-12-31");
      await send(s, `/v1/usage?from=${today()}&to=${today()}&group_by=endpoint`);
      await send(s, "/v1/usage?from=yesterday&group_by=year");
      await send(s, "/v1/usage?from=2026-02-01&to=2026-01-01");
    });
  });
});

describe("the sandbox's hard cap", () => {
  test("9999 DU booked: the same calls served, then 429 with the same headers; 0-DU calls served on", async () => {
    for (const side of sides()) {
      const { key, userId } = await side.deps.accounts.createUserWithKey("sandbox", "capped");
      side.keys.capped = key;
      // consumption booked before the server met the account (as a ledger of an earlier run holds it)
      side.exec("INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, ?, ?, ?)", userId, today(), "GET /v1/artworks", 9999, 1);
      side.deps.ledger.reset();
    }
    const { sqlite: a, postgres: b } = await same(async (s) => {
      await send(s, "/v1/usage", { key: "capped" });
      for (let i = 0; i < 5; i++) {
        const res = await send(s, "/v1/artists?limit=3", { key: "capped" });
        if (res.status === 429) break;
      }
      await send(s, "/v1/categories", { key: "capped" });
      await send(s, "/v1/usage", { key: "capped" });
      await send(s, `/v1/artists/${market.artists[5]}/follow`, { method: "POST", key: "capped" });
      await send(s, "/v1/categories", { key: "sandbox" }); // another sandbox user: unaffected
    });
    // one call crossed the cap, the next was refused
    expect(a.map((e) => e.status)).toEqual([200, 200, 429, 429, 200, 204, 200]);
    expect(b.map((e) => e.status)).toEqual([200, 200, 429, 429, 200, 204, 200]);
    expect(a[1]!.headers["x-service-dataunits-remaining"]).toBe("0");
    // Retry-After: the seconds to the period's end, the same but for the time between the two runs
    const retry = (e: Entry) => Number(e.raw["retry-after"]);
    expect(retry(a[2]!)).toBeGreaterThan(0);
    expect(Math.abs(retry(a[2]!) - retry(b[2]!))).toBeLessThanOrEqual(5);
  });
});

describe("allowance notices", () => {
  test("a soft-capped account's calls crossing 80 % of its allowance: the same notice on both stores", async () => {
    const users: Record<string, number> = {};
    for (const side of sides()) {
      const { key, userId } = await side.deps.accounts.createUserWithKey("pro", "noticed");
      side.keys.noticed = key;
      users[side.kind] = userId;
      // five DU short of the 80 % line of pro's 1,200,000 (as a ledger of an earlier run holds it)
      side.exec("INSERT INTO du_daily (user_id, day, endpoint, du, requests) VALUES (?, ?, ?, ?, ?)", userId, today(), "GET /v1/artworks", 959_995, 1);
      side.deps.ledger.reset();
    }
    const { sqlite: a } = await same(async (s) => {
      for (let i = 0; i < 8; i++) await send(s, "/v1/categories", { key: "noticed" });
    });
    expect(a.map((e) => e.status)).toEqual(Array(8).fill(200));
    await Promise.all(sides().map((s) => s.deps.ledger.settled()));
    const [sqliteNotices, pgNotices] = sides().map((s) =>
      s.deps.accounts
        .listNotices()
        .filter((n) => n.user_id === users[s.kind])
        .map(({ id: _, user_id: __, created_at: ___, ...n }) => n),
    );
    // the fifth call (1 DU each) reached the line: one notice, its consumption the line itself
    expect(sqliteNotices).toEqual([expect.objectContaining({ plan: "pro", pool: "main", threshold: 80, du_limit: 1_200_000, du_consumed: 960_000, period_start: today() })]);
    expect(pgNotices).toEqual(sqliteNotices!);
  });
});

/** Waits until the PostgreSQL store has heard the account epoch move (SQLite sees it on the next turn). */
async function epochMoved(side: Side, before: number): Promise<void> {
  const until = Date.now() + 5000;
  while (side.kind === "postgres" && side.deps.accounts.dataVersion() === before && Date.now() < until) await Bun.sleep(10);
  await Bun.sleep(1);
}

describe("key revocation", () => {
  test("a cached key revoked on the store is refused the same way", async () => {
    for (const side of sides()) side.keys.revoked = (await side.deps.accounts.createUserWithKey("pro", "revoked")).key;
    const { sqlite: a } = await same(async (s) => {
      await send(s, "/v1/categories", { key: "revoked" });
      const before = s.deps.accounts.dataVersion();
      s.exec("UPDATE api_keys SET revoked_at = ? WHERE kid = ?", Date.now(), s.keys.revoked!.slice(3, 19));
      await epochMoved(s, before);
      await send(s, "/v1/categories", { key: "revoked" });
      await send(s, "/v1/usage", { key: "revoked" });
    });
    expect(a.map((e) => e.status)).toEqual([200, 401, 401]);
  });
});

describe("request-rate limits", () => {
  test("a plan's rpm lowered on the store reaches the cached key; the same 200/429 sequence", async () => {
    for (const side of sides()) side.keys.burst = (await side.deps.accounts.createUserWithKey("pro", "burst")).key;
    const rates: string[][] = [];
    const { sqlite: a, postgres: b } = await same(async (s) => {
      // the whole sequence within one minute window
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 57_000) await Bun.sleep(60_000 - intoMinute + 50);
      await send(s, "/v1/categories", { key: "burst" }); // the key verified and cached on the old plan
      const before = s.deps.accounts.dataVersion();
      s.exec("UPDATE plans SET rpm_limit = ? WHERE slug = ?", 4, "pro");
      await epochMoved(s, before);
      const mine: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await send(s, "/v1/categories", { key: "burst" });
        mine.push(`${res.status} ${(res.headers.get("ratelimit") ?? "").replace(/;t=\d+$/, "")}`);
      }
      rates.push(mine);
      s.exec("UPDATE plans SET rpm_limit = ? WHERE slug = ?", 6000, "pro");
    });
    // 1 call before the change + 3 after = the 4 a minute allows; then refused
    expect(a.map((e) => e.status)).toEqual([200, 200, 200, 200, 429, 429, 429]);
    expect(b.map((e) => e.status)).toEqual(a.map((e) => e.status));
    // the key was cached on the plan as it was, and saw the change without a restart
    expect(a[0]!.headers["ratelimit-policy"]).toBe('"second";q=100;w=1, "minute";q=6000;w=60');
    expect(a[1]!.headers["ratelimit-policy"]).toBe('"second";q=100;w=1, "minute";q=4;w=60');
    for (const e of [...a, ...b].filter((x) => x.status === 429)) expect(Number(e.raw["retry-after"])).toBeLessThanOrEqual(60);
    // the nearest window's state (the seconds to its reset aside) is the same too
    expect(rates[1]).toEqual(rates[0]!);
  }, 30_000);

  test("three accounts' calls at once: each account counted in its own second, on both stores", async () => {
    const statuses: Record<string, number[][]> = {};
    for (const side of sides()) {
      const keys = await Promise.all([1, 2, 3].map(async (i) => (await side.deps.accounts.createUserWithKey("pro", `turn ${i}`)).key));
      for (const key of keys) expect((await send(side, "/v1/categories", { key })).status).toBe(200); // verified and cached
      const before = side.deps.accounts.dataVersion();
      side.exec("UPDATE plans SET rps_limit = ? WHERE slug = ?", 3, "pro");
      await epochMoved(side, before);
      try {
        // a fresh second for the burst: five calls of each account, all sent at once
        await Bun.sleep(1000 - (Date.now() % 1000) + 20);
        const burst = keys.map((key) =>
          Promise.all(Array.from({ length: 5 }, () => side.app.handle(new Request(`${ORIGIN}/v1/categories`, { headers: { Authorization: `Bearer ${key}` } })))),
        );
        statuses[side.kind] = (await Promise.all(burst)).map((answers) => answers.map((r) => r.status).sort());
      } finally {
        side.exec("UPDATE plans SET rps_limit = ? WHERE slug = ?", 100, "pro");
      }
    }
    const each = [200, 200, 200, 429, 429];
    expect(statuses).toEqual({ sqlite: [each, each, each], postgres: [each, each, each] });
  }, 30_000);
});
