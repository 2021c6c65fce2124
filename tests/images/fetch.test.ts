/**
 * image_url fetching (src/serve/images/fetch.ts) against a local Bun.serve: an image, a slow server
 * (timeout), a huge body (cap, with and without Content-Length), 404, text/html, redirects (kept
 * within the limit, refused beyond it and towards another scheme), ftp:// and malformed URLs, an
 * address nobody listens on, and bytes that are not an image. Every failure is a 422 at the loc
 * given, with the spec's detail fields. Those tests allow 127.0.0.0/8 (`LOOPBACK`); the address
 * guard's own tests refuse loopback (literal, decimal/hex forms, localhost, [::1]) by default,
 * at the first request and at a redirect, with the local server seeing no request.
 *
 * Network rule: only loopback is ever contacted. While this file runs, global fetch is wrapped
 * so that a request to any other host fails the test instead of leaving the machine; the
 * refusals of private and metadata addresses below happen before any connection.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { lookup } from "node:dns/promises";
import { rmSync } from "node:fs";
import { fetchCheckedImage, fetchImage } from "../../src/serve/images/fetch";
import { loadSharp, type Sharp } from "../../src/platform/native";
import { tempDataDir } from "../helpers/app";

let server: ReturnType<typeof Bun.serve>;
let base: string;
let sharp: Sharp;
let jpeg: Uint8Array;
let sharpDir: string;
let slowStarted = 0;
/** The slow routes answer (or end their body) only once this is released, in afterAll: never in time. */
let releaseSlow!: () => void;
const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));
/** Requests the local server has seen, and the Host header of the last one. */
let requests = 0;
let lastHost: string | null = null;
/** Requests global fetch was asked to send anywhere but loopback (must stay empty). */
const offLoopback: string[] = [];
const realFetch = globalThis.fetch;
const LOOPBACK = { allow: ["127.0.0.0/8"] } as const;

beforeAll(async () => {
  globalThis.fetch = Object.assign(
    (input: string | URL | Request, init?: RequestInit) => {
      const host = new URL(input instanceof Request ? input.url : String(input)).hostname;
      if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(host)) {
        offLoopback.push(String(input));
        return Promise.reject(new Error(`test network rule: no request to ${host}`));
      }
      return realFetch(input, init);
    },
    { preconnect: realFetch.preconnect },
  ) as typeof fetch;
  sharpDir = tempDataDir();
  sharp = loadSharp(sharpDir);
  jpeg = new Uint8Array(
    await sharp({ create: { width: 120, height: 80, channels: 3, background: "#3366aa" } })
      .jpeg()
      .toBuffer(),
  );
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      requests++;
      lastHost = req.headers.get("host");
      const path = new URL(req.url).pathname;
      switch (path) {
        case "/image.jpg":
          return new Response(jpeg, { headers: { "Content-Type": "image/jpeg" } });
        case "/untyped":
          return new Response(jpeg);
        case "/slow":
          slowStarted++;
          await slowReleased;
          return new Response(jpeg, { headers: { "Content-Type": "image/jpeg" } });
        case "/slow-body":
          return new Response(
            new ReadableStream({
              async pull(c) {
                c.enqueue(jpeg.subarray(0, 100));
                await slowReleased;
                c.close();
              },
            }),
            { headers: { "Content-Type": "image/jpeg" } },
          );
        case "/huge":
          return new Response(new Uint8Array(3_000_000), { headers: { "Content-Type": "image/jpeg" } });
        case "/huge-stream": {
          let sent = 0;
          return new Response(
            new ReadableStream({
              pull(c) {
                if (sent >= 50_000_000) return c.close();
                c.enqueue(new Uint8Array(65_536));
                sent += 65_536;
              },
            }),
            { headers: { "Content-Type": "image/jpeg" } },
          );
        }
        case "/page":
          return new Response("<!doctype html><html><body>an image gallery</body></html>", { headers: { "Content-Type": "text/html; charset=utf-8" } });
        case "/text-as-image":
          return new Response("this is not a picture", { headers: { "Content-Type": "image/jpeg" } });
        case "/redirect/1":
          return Response.redirect(`${base}/image.jpg`, 302);
        case "/redirect/2":
          return Response.redirect(`${base}/redirect/1`, 301);
        case "/redirect/loop":
          return Response.redirect(`${base}/redirect/loop`, 302);
        case "/redirect/ftp":
          return new Response(null, { status: 302, headers: { Location: "ftp://artmarket.test/image.jpg" } });
        case "/redirect/other-loopback":
          return new Response(null, { status: 302, headers: { Location: `http://127.0.0.2:${server.port}/image.jpg` } });
        case "/redirect/metadata":
          return new Response(null, { status: 302, headers: { Location: "http://169.254.169.254/latest/meta-data/" } });
        case "/redirect/mapped":
          return new Response(null, { status: 307, headers: { Location: `http://[::ffff:127.0.0.2]:${server.port}/image.jpg` } });
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => {
  releaseSlow();
  server.stop(true);
  globalThis.fetch = realFetch;
  rmSync(sharpDir, { recursive: true, force: true });
});

/** The ValidationFailed a call throws, as its first issue. */
async function issueOf(p: Promise<unknown>): Promise<Record<string, any>> {
  const err = (await p.then(
    () => null,
    (e) => e,
  )) as { status?: number; issues?: Record<string, any>[] } | null;
  expect(err).not.toBeNull();
  expect(err!.status).toBe(422);
  const i = err!.issues![0]!;
  expect(Object.keys(i).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
  return i;
}

describe("fetchImage", () => {
  test("an image, with or without a Content-Type, and after two redirects", async () => {
    for (const path of ["/image.jpg", "/untyped", "/redirect/2"]) {
      const got = await fetchImage(`${base}${path}`, undefined, LOOPBACK);
      expect(got.bytes).toEqual(jpeg);
      expect(got.url).toBe(path === "/untyped" ? `${base}/untyped` : `${base}/image.jpg`);
    }
    const checked = await fetchCheckedImage(`${base}/image.jpg`, sharp, undefined, LOOPBACK);
    expect({ format: checked.format, width: checked.width, height: checked.height }).toEqual({ format: "jpeg", width: 120, height: 80 });
  });

  test("a slow server: 422 fetch_timeout after the timeout, not after the server", async () => {
    // the slow routes never answer in time (slowReleased): a result at all is the timeout's; the
    // bounds are loose, only against a timeout far longer than the 300 ms asked for
    let t0 = performance.now();
    const i = await issueOf(fetchImage(`${base}/slow`, ["query", "image_url"], { ...LOOPBACK, timeoutMs: 300 }));
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(i).toMatchObject({ loc: ["query", "image_url"], type: "fetch_timeout", input: `${base}/slow`, ctx: { timeout_seconds: 0.3 } });
    expect(slowStarted).toBe(1);
    // headers in time, the body too slow
    t0 = performance.now();
    expect((await issueOf(fetchImage(`${base}/slow-body`, undefined, { ...LOOPBACK, timeoutMs: 300 }))).type).toBe("fetch_timeout");
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  test("a huge body: 422 fetch_too_large, by Content-Length and while streaming", async () => {
    expect(await issueOf(fetchImage(`${base}/huge`, undefined, { ...LOOPBACK, maxBytes: 1_000_000 }))).toMatchObject({ type: "fetch_too_large", ctx: { max_bytes: 1_000_000 } });
    const t0 = performance.now();
    expect((await issueOf(fetchImage(`${base}/huge-stream`, undefined, { ...LOOPBACK, maxBytes: 1_000_000 }))).type).toBe("fetch_too_large");
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  test("404: fetch_status; text/html: fetch_not_image before the body; bytes that are not an image: fetch_not_image", async () => {
    expect(await issueOf(fetchImage(`${base}/missing.jpg`, undefined, LOOPBACK))).toMatchObject({ type: "fetch_status", ctx: { status: 404 }, loc: ["body", "image_url"] });
    expect(await issueOf(fetchImage(`${base}/page`, undefined, LOOPBACK))).toMatchObject({ type: "fetch_not_image", ctx: { content_type: "text/html" } });
    expect(await issueOf(fetchCheckedImage(`${base}/text-as-image`, sharp, undefined, LOOPBACK))).toMatchObject({ type: "fetch_not_image", input: `${base}/text-as-image` });
  });

  test("schemes: ftp://, file://, data:, a redirect to ftp:// are url_scheme; garbage is url_parsing; too many redirects", async () => {
    for (const url of ["ftp://artmarket.test/image.jpg", "file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo="]) {
      expect({ url, type: (await issueOf(fetchImage(url))).type }).toEqual({ url, type: "url_scheme" });
    }
    expect((await issueOf(fetchImage(`${base}/redirect/ftp`, undefined, LOOPBACK))).type).toBe("url_scheme");
    expect((await issueOf(fetchImage("not a url"))).type).toBe("url_parsing");
    expect(await issueOf(fetchImage(`${base}/redirect/loop`, undefined, LOOPBACK))).toMatchObject({ type: "fetch_redirects", ctx: { max_redirects: 3 } });
  });

  test("nobody listening: fetch_failed", async () => {
    const idle = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = idle.port;
    idle.stop(true);
    expect((await issueOf(fetchImage(`http://127.0.0.1:${port}/image.jpg`, undefined, { ...LOOPBACK, timeoutMs: 3000 }))).type).toBe("fetch_failed");
  });
});

describe("fetchImage: internal addresses (SSRF)", () => {
  /** The refusal of `url` with `limits`: fetch_forbidden_address naming `address`, and no request reached the local server. */
  async function refused(url: string, limits: Parameters<typeof fetchImage>[2] = {}, loc?: (string | number)[]): Promise<Record<string, any>> {
    const before = requests;
    const i = await issueOf(fetchImage(url, loc, limits));
    expect({ url, type: i.type }).toEqual({ url, type: "fetch_forbidden_address" });
    expect(i.input).toBe(url);
    expect(Object.keys(i.ctx)).toEqual(["address"]);
    expect(requests).toBe(before);
    return i;
  }

  test("by default 127.0.0.1 is refused with 422 fetch_forbidden_address at the loc, and the server sees no request", async () => {
    const url = `${base}/image.jpg`;
    expect(await refused(url)).toMatchObject({ loc: ["body", "image_url"], input: url, ctx: { address: "127.0.0.1" } });
    expect((await refused(url, {}, ["query", "image_url"])).loc).toEqual(["query", "image_url"]);
    expect((await refused(url, { allow: ["10.0.0.0/8", "127.0.0.2/32"] })).ctx).toEqual({ address: "127.0.0.1" });
    // allowed, the same address is fetched
    const before = requests;
    expect((await fetchImage(url, undefined, { allow: ["127.0.0.1/32"] })).bytes).toEqual(jpeg);
    expect(requests).toBe(before + 1);
  });

  test("other spellings of loopback, normalised by the URL parser: 2130706433, 0x7f.1, 127.1, 0177.0.0.1, [::1], [::ffff:127.0.0.1], https", async () => {
    const port = server.port;
    for (const host of ["2130706433", "0x7f.1", "127.1", "0177.0.0.1", "0x7f000001"]) {
      expect((await refused(`http://${host}:${port}/image.jpg`)).ctx).toEqual({ address: "127.0.0.1" });
    }
    expect((await refused(`http://[::1]:${port}/image.jpg`)).ctx).toEqual({ address: "::1" });
    expect((await refused(`http://[::ffff:127.0.0.1]:${port}/image.jpg`)).ctx).toEqual({ address: "::ffff:7f00:1" });
    expect((await refused(`http://[::1]:${port}/image.jpg`, LOOPBACK)).ctx).toEqual({ address: "::1" });
    expect((await refused(`https://127.0.0.1:${port}/image.jpg`)).ctx).toEqual({ address: "127.0.0.1" });
    expect((await refused(`http://0.0.0.0:${port}/image.jpg`)).ctx).toEqual({ address: "0.0.0.0" });
  });

  test("localhost is resolved and refused as loopback; allowed, the request goes to the checked IP with the original Host header", async () => {
    const url = `http://localhost:${server.port}/image.jpg`;
    expect(["127.0.0.1", "::1"]).toContain((await refused(url)).ctx.address);
    expect(["127.0.0.1", "::1"]).toContain((await refused(`https://localhost:${server.port}/image.jpg`)).ctx.address);
    const resolved = await lookup("localhost", { all: true });
    if (resolved[0]?.family === 4) {
      const got = await fetchImage(url, undefined, { allow: ["127.0.0.0/8", "::1/128"] });
      expect(got.bytes).toEqual(jpeg);
      expect(got.url).toBe(url);
      expect(lastHost).toBe(`localhost:${server.port}`);
    }
  });

  test("a redirect is checked again: an allowed first hop sent to 127.0.0.2, [::ffff:127.0.0.2] or the cloud metadata address is refused there", async () => {
    const only = { allow: ["127.0.0.1/32"] };
    for (const [path, address] of [
      ["/redirect/other-loopback", "127.0.0.2"],
      ["/redirect/mapped", "::ffff:7f00:2"],
      ["/redirect/metadata", "169.254.169.254"],
    ] as const) {
      const before = requests;
      const i = await issueOf(fetchImage(`${base}${path}`, undefined, only));
      expect({ path, type: i.type, ctx: i.ctx, input: i.input }).toEqual({ path, type: "fetch_forbidden_address", ctx: { address }, input: `${base}${path}` });
      expect(i.msg).toContain("after a redirect");
      expect(requests).toBe(before + 1); // the first hop only
    }
    // allowing all of loopback does not allow the metadata address
    expect((await issueOf(fetchImage(`${base}/redirect/metadata`, undefined, LOOPBACK))).ctx).toEqual({ address: "169.254.169.254" });
  });

  test("private, CGNAT, link-local, unique-local and NAT64/6to4 literals are refused before any connection", async () => {
    const cases: [string, string][] = [
      ["http://10.0.0.1/x.jpg", "10.0.0.1"],
      ["http://192.168.1.10/x.jpg", "192.168.1.10"],
      ["http://172.16.0.1/x.jpg", "172.16.0.1"],
      ["http://100.64.0.1/x.jpg", "100.64.0.1"],
      ["http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
      ["https://169.254.169.254/latest/meta-data/", "169.254.169.254"],
      ["http://[fd00::1]/x.jpg", "fd00::1"],
      ["http://[fe80::1]/x.jpg", "fe80::1"],
      ["http://[::ffff:169.254.169.254]/x.jpg", "::ffff:a9fe:a9fe"],
      ["http://[64:ff9b::10.0.0.1]/x.jpg", "64:ff9b::a00:1"],
      ["http://[2002:a9fe:a9fe::1]/x.jpg", "2002:a9fe:a9fe::1"],
      ["http://224.0.0.1/x.jpg", "224.0.0.1"],
      ["http://255.255.255.255/x.jpg", "255.255.255.255"],
    ];
    for (const [url, address] of cases) expect({ url, ctx: (await refused(url, LOOPBACK)).ctx }).toEqual({ url, ctx: { address } });
  });

  test("fetchCheckedImage refuses the same way", async () => {
    const url = `${base}/image.jpg`;
    const before = requests;
    expect(await issueOf(fetchCheckedImage(url, sharp))).toMatchObject({ type: "fetch_forbidden_address", input: url, ctx: { address: "127.0.0.1" } });
    expect(requests).toBe(before);
  });

  test("no request of this file left loopback", () => {
    expect(offLoopback).toEqual([]);
  });
});
