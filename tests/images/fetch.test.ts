/**
 * image_url fetching (src/images/fetch.ts) against a local Bun.serve: an image, a slow server
 * (timeout), a huge body (cap, with and without Content-Length), 404, text/html, redirects (kept
 * within the limit, refused beyond it and towards another scheme), ftp:// and malformed URLs, an
 * address nobody listens on, and bytes that are not an image. Every failure is a 422 at the loc
 * given, with the spec's detail fields.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fetchCheckedImage, fetchImage } from "../../src/images/fetch";
import { loadSharp, type Sharp } from "../../src/platform/native";
import { tempDataDir } from "../helpers/app";

let server: ReturnType<typeof Bun.serve>;
let base: string;
let sharp: Sharp;
let jpeg: Uint8Array;
let slowStarted = 0;

beforeAll(async () => {
  sharp = loadSharp(tempDataDir());
  jpeg = new Uint8Array(await sharp({ create: { width: 120, height: 80, channels: 3, background: "#3366aa" } }).jpeg().toBuffer());
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      switch (path) {
        case "/image.jpg":
          return new Response(jpeg, { headers: { "Content-Type": "image/jpeg" } });
        case "/untyped":
          return new Response(jpeg);
        case "/slow":
          slowStarted++;
          await Bun.sleep(1500);
          return new Response(jpeg, { headers: { "Content-Type": "image/jpeg" } });
        case "/slow-body":
          return new Response(
            new ReadableStream({
              async pull(c) {
                c.enqueue(jpeg.subarray(0, 100));
                await Bun.sleep(1500);
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
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

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
      const got = await fetchImage(`${base}${path}`);
      expect(got.bytes).toEqual(jpeg);
      expect(got.url).toBe(path === "/untyped" ? `${base}/untyped` : `${base}/image.jpg`);
    }
    const checked = await fetchCheckedImage(`${base}/image.jpg`, sharp);
    expect({ format: checked.format, width: checked.width, height: checked.height }).toEqual({ format: "jpeg", width: 120, height: 80 });
  });

  test("a slow server: 422 fetch_timeout after the timeout, not after the server", async () => {
    let t0 = performance.now();
    const i = await issueOf(fetchImage(`${base}/slow`, ["query", "image_url"], { timeoutMs: 300 }));
    expect(performance.now() - t0).toBeLessThan(1200);
    expect(i).toMatchObject({ loc: ["query", "image_url"], type: "fetch_timeout", input: `${base}/slow`, ctx: { timeout_seconds: 0.3 } });
    expect(slowStarted).toBe(1);
    // headers in time, the body too slow
    t0 = performance.now();
    expect((await issueOf(fetchImage(`${base}/slow-body`, undefined, { timeoutMs: 300 }))).type).toBe("fetch_timeout");
    expect(performance.now() - t0).toBeLessThan(1200);
  });

  test("a huge body: 422 fetch_too_large, by Content-Length and while streaming", async () => {
    expect(await issueOf(fetchImage(`${base}/huge`, undefined, { maxBytes: 1_000_000 }))).toMatchObject({ type: "fetch_too_large", ctx: { max_bytes: 1_000_000 } });
    const t0 = performance.now();
    expect((await issueOf(fetchImage(`${base}/huge-stream`, undefined, { maxBytes: 1_000_000 }))).type).toBe("fetch_too_large");
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  test("404: fetch_status; text/html: fetch_not_image before the body; bytes that are not an image: fetch_not_image", async () => {
    expect(await issueOf(fetchImage(`${base}/missing.jpg`))).toMatchObject({ type: "fetch_status", ctx: { status: 404 }, loc: ["body", "image_url"] });
    expect(await issueOf(fetchImage(`${base}/page`))).toMatchObject({ type: "fetch_not_image", ctx: { content_type: "text/html" } });
    expect(await issueOf(fetchCheckedImage(`${base}/text-as-image`, sharp))).toMatchObject({ type: "fetch_not_image", input: `${base}/text-as-image` });
  });

  test("schemes: ftp://, file://, data:, a redirect to ftp:// are url_scheme; garbage is url_parsing; too many redirects", async () => {
    for (const url of ["ftp://artmarket.test/image.jpg", "file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo="]) {
      expect({ url, type: (await issueOf(fetchImage(url))).type }).toEqual({ url, type: "url_scheme" });
    }
    expect((await issueOf(fetchImage(`${base}/redirect/ftp`))).type).toBe("url_scheme");
    expect((await issueOf(fetchImage("not a url"))).type).toBe("url_parsing");
    expect(await issueOf(fetchImage(`${base}/redirect/loop`))).toMatchObject({ type: "fetch_redirects", ctx: { max_redirects: 3 } });
  });

  test("nobody listening: fetch_failed", async () => {
    const idle = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = idle.port;
    idle.stop(true);
    expect((await issueOf(fetchImage(`http://127.0.0.1:${port}/image.jpg`, undefined, { timeoutMs: 3000 }))).type).toBe("fetch_failed");
  });
});
