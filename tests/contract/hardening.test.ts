/**
 * Inputs that must never knock the service over, in-process (every list parameter at its
 * documented maximum, nested and oversized JSON, the bound on request bodies held at once) and
 * against the real server (Host headers, long URLs, Content-Length, one server per data directory,
 * a graceful stop, start-up under another process's lock).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { connect } from "node:net";
import { createApp } from "../../src/serve/app";
import { accountDbPath } from "../../src/db/connection";
import { type Caller, createUserWithKey } from "../../src/serve/accounts/keys";
import { BodyBudget } from "../../src/serve/http/body-budget";
import { RateLimiter } from "../../src/serve/http/metering";
import { ECHO_LIMITS } from "../../src/serve/http/errors";
import { MAX_HEADER_BYTES, MAX_REQUEST_HEAD, RUNTIME_HEAD_LIMIT } from "../../src/serve/http/serve";
import { loadSharp } from "../../src/platform/native";
import { MAX_JSON_BYTES } from "../../src/serve/http/multipart";
import { createTestContext, tempDataDir, tinyMarketDir, type TestContext } from "../helpers/app";
import { startServer } from "../helpers/server";
import { artmarketCommand } from "../helpers/cli";

const ARTMARKET = await artmarketCommand();

type Json = Record<string, any>;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

function expectErrorShape(status: number, body: Json) {
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
  if (status === 422) {
    expect(Array.isArray(body.detail)).toBe(true);
    for (const i of body.detail) expect(Object.keys(i).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
  } else expect(typeof body.detail).toBe("string");
}

/** `count` values of a parameter's item schema, each as long as the schema allows. */
function maximalValues(items: Json, count: number): string[] {
  if (Array.isArray(items.enum)) return Array.from({ length: count }, (_, i) => items.enum[i % items.enum.length]);
  if (items.type === "integer" || items.type === "number") return Array.from({ length: count }, (_, i) => String(1_000_000_000 + i));
  const len = items.maxLength ?? 200;
  return Array.from({ length: count }, (_, i) => `v${i}`.padEnd(len, "x").slice(0, len));
}

describe("list parameters at their documented maximum", () => {
  test("every __in and repeated parameter of the OpenAPI document, at its maxItems and maxLength: never a 5xx", async () => {
    const doc = (await (await ctx.call("/openapi.json")).json()) as Json;
    const sharp = loadSharp(ctx.dataDir);
    const png = new Uint8Array(
      await sharp({ create: { width: 32, height: 32, channels: 3, background: "#806040" } })
        .png()
        .toBuffer(),
    );
    let walked = 0;
    const failures: string[] = [];
    for (const [path, ops] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(ops)) {
        for (const p of (op.parameters ?? []) as Json[]) {
          if (p.in !== "query" || p.schema?.type !== "array") continue;
          const max = p.schema.maxItems;
          expect(typeof max).toBe("number"); // every list parameter documents its maximum
          const url = `${path.replace(/\{[^}]+\}/g, "1")}?${p.name}=${maximalValues(p.schema.items, max).map(encodeURIComponent).join(",")}`;
          let body: FormData | undefined;
          if (path.endsWith("search-by-image")) {
            body = new FormData();
            body.append("image", new File([png], "q.png", { type: "image/png" }));
          }
          const res = await ctx.app.handle(
            new Request(`http://artmarket.test${url}`, { method: method.toUpperCase(), headers: { Authorization: `Bearer ${ctx.keys.enterprise}` }, body }),
          );
          walked++;
          if (res.status >= 500) failures.push(`${method} ${path} ${p.name}: ${res.status} ${await res.text()}`);
          else if (res.status >= 400 && res.status !== 404) failures.push(`${method} ${path} ${p.name}: ${res.status} ${(await res.text()).slice(0, 300)}`);
          // one value more than the maximum is a 422 at the parameter
          const over = await ctx.app.handle(
            new Request(
              `http://artmarket.test${path.replace(/\{[^}]+\}/g, "1")}?${p.name}=${maximalValues(p.schema.items, max + 1)
                .map(encodeURIComponent)
                .join(",")}`,
              {
                method: method.toUpperCase(),
                headers: { Authorization: `Bearer ${ctx.keys.enterprise}` },
              },
            ),
          );
          if (over.status !== 422) failures.push(`${method} ${path} ${p.name} over the maximum: ${over.status}`);
          else expect(((await over.json()) as Json).detail.some((i: Json) => i.loc[1] === p.name && i.type === "too_long")).toBe(true);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(walked).toBeGreaterThan(40);
  }, 60_000);

  test("materials__in with 1,000 values filters as one value does", async () => {
    const many = ["bronze", ...Array.from({ length: 999 }, (_, i) => `nomaterial${i}`)];
    const one = (await (await ctx.call("/v1/artworks?materials=bronze&limit=100")).json()) as Json;
    const res = await ctx.call(`/v1/artworks?materials__in=${many.join(",")}&limit=100`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.total_count).toBe(one.total_count);
    expect(body.items.map((a: Json) => a.id)).toEqual(one.items.map((a: Json) => a.id));
    expect(one.total_count).toBeGreaterThan(0);
  });
});

describe("JSON bodies", () => {
  test("nested however deep: 422 json_too_deep, on JSON and form routes, nothing written", async () => {
    const before = ctx.deps.account.query("SELECT count(*) AS n FROM shares").get() as { n: number };
    for (const depth of [33, 1000, 100_000]) {
      for (const [path, method] of [
        ["/v1/artworks/share", "POST"],
        ["/v1/collectables", "POST"],
      ] as const) {
        const body = `{"ids": ${"[".repeat(depth)}${"]".repeat(depth)}}`;
        const res = await ctx.app.handle(
          new Request(`http://artmarket.test${path}`, { method, body, headers: { Authorization: `Bearer ${ctx.keys.enterprise}`, "Content-Type": "application/json" } }),
        );
        const json = (await res.json()) as Json;
        expect(res.status).toBe(422);
        expectErrorShape(res.status, json);
        expect(json.detail[0].type).toBe("json_too_deep");
      }
    }
    expect(ctx.deps.account.query("SELECT count(*) AS n FROM shares").get()).toEqual(before);
  });

  test("the echoed input is bounded in length and depth, and exact when small", async () => {
    const long = "é".repeat(300_000);
    const res = await ctx.call("/v1/artworks/share", { method: "POST", body: { ids: [1], title: long } });
    const json = (await res.json()) as Json;
    expect(res.status).toBe(422);
    const input = json.detail[0].input as string;
    expect(input.length).toBeLessThanOrEqual(ECHO_LIMITS.chars + 1);
    expect(long.startsWith(input.slice(0, -1))).toBe(true);
    const nested = { ids: [[[[[[[[[[[[1]]]]]]]]]]]] };
    const res2 = await ctx.call("/v1/artworks/share", { method: "POST", body: nested });
    const body2 = (await res2.json()) as Json;
    expect(res2.status).toBe(422);
    expect(JSON.stringify(body2).length).toBeLessThan(2000);
    const small = await ctx.call("/v1/artworks/share", { method: "POST", body: { ids: ["seven"] } });
    expect(((await small.json()) as Json).detail[0].input).toBe("seven");
  });

  test("the 1 MiB cap counts bytes, not characters, and holds without a Content-Length", async () => {
    // 600,000 two-byte characters: 1.2 MB in UTF-8, 600k UTF-16 units
    const text = JSON.stringify({ ids: [1], title: "é".repeat(600_000) });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(text));
        c.close();
      },
    });
    const res = await ctx.app.handle(
      new Request("http://artmarket.test/v1/artworks/share", {
        method: "POST",
        body: stream,
        headers: { Authorization: `Bearer ${ctx.keys.enterprise}`, "Content-Type": "application/json" },
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expectErrorShape(413, (await res.json()) as Json);
  });
});

describe("JSON bodies on routes that also take forms", () => {
  test("capped at 1 MiB like every JSON body: 413 from Content-Length and while it streams, nothing written", async () => {
    const before = ctx.deps.account.query("SELECT count(*) AS n FROM collectables").get() as { n: number };
    const text = JSON.stringify({ title: "x".repeat(MAX_JSON_BYTES), image_url: "https://example.com/a.png" });
    for (const path of ["/v1/collectables", "/v1/artworks/search-by-image"]) {
      const headers = { Authorization: `Bearer ${ctx.keys.enterprise}`, "Content-Type": "application/json" };
      const declared = await ctx.app.handle(
        new Request(`http://artmarket.test${path}`, { method: "POST", body: text, headers: { ...headers, "Content-Length": String(Buffer.byteLength(text)) } }),
      );
      expect(`${path} ${declared.status}`).toBe(`${path} 413`);
      expect(((await declared.json()) as Json).detail).toContain(`${MAX_JSON_BYTES} bytes`);
      let pulled = 0;
      const chunk = new TextEncoder().encode(text.slice(0, 64 * 1024));
      const stream = new ReadableStream({
        pull(c) {
          // an endless body: the cap must stop reading it
          pulled += chunk.byteLength;
          c.enqueue(chunk);
        },
      });
      const streamed = await ctx.app.handle(new Request(`http://artmarket.test${path}`, { method: "POST", body: stream, headers, duplex: "half" } as RequestInit));
      expect(`${path} ${streamed.status}`).toBe(`${path} 413`);
      expectErrorShape(413, (await streamed.json()) as Json);
      expect(pulled).toBeLessThan(MAX_JSON_BYTES + 4 * chunk.byteLength);
    }
    expect(ctx.deps.account.query("SELECT count(*) AS n FROM collectables").get()).toEqual(before);
  });
});

describe("request bodies held at once", () => {
  test("beyond an account's share 429, beyond the total 503, others served; everything given back", async () => {
    const budget = new BodyBudget({ totalBytes: 3 * 65536, perAccountBytes: 2 * 65536 });
    const app = createApp({ ...ctx.deps, bodies: budget });
    const gates: (() => void)[] = [];
    /** A share request whose body sends `bytes` at once, then waits for its gate before ending. */
    const slow = (key: string, bytes: number) => {
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      gates.push(open);
      const body = new ReadableStream({
        async start(c) {
          c.enqueue(new TextEncoder().encode(`{"ids": [1]${" ".repeat(Math.max(0, bytes - 12))}`));
          await gate;
          c.enqueue(new TextEncoder().encode("}"));
          c.close();
        },
      });
      return app.handle(
        new Request("http://artmarket.test/v1/artworks/share", {
          method: "POST",
          body,
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          duplex: "half",
        } as RequestInit),
      );
    };
    /** Until the budget holds at least `bytes` (the bodies are read on later turns), at most 10 s. */
    const holding = async (bytes: number) => {
      for (let waited = 0; budget.heldBytes() < bytes && waited < 10_000; waited += 2) await Bun.sleep(2);
    };
    const a1 = slow(ctx.keys.pro, 60_000);
    const a2 = slow(ctx.keys.pro, 60_000);
    await holding(110_000);
    expect(budget.heldBytes()).toBeGreaterThanOrEqual(110_000);
    const a3 = await slow(ctx.keys.pro, 60_000); // the third of one account passes its share
    expect(a3.status).toBe(429);
    expect(a3.headers.get("Retry-After")).toBeTruthy();
    expectErrorShape(429, (await a3.json()) as Json);
    const held = budget.heldBytes();
    const b1 = slow(ctx.keys.enterprise, 60_000);
    await holding(held + 55_000);
    expect(budget.heldBytes()).toBeGreaterThanOrEqual(held + 55_000);
    const b2 = await slow(ctx.keys.enterprise, 60_000); // the total is used up
    expect(b2.status).toBe(503);
    expect(b2.headers.get("Retry-After")).toBeTruthy();
    expect(typeof ((await b2.json()) as Json).detail).toBe("string");
    // a read is served meanwhile
    const read = await app.handle(new Request("http://artmarket.test/v1/categories", { headers: { Authorization: `Bearer ${ctx.keys.sandbox}` } }));
    expect(read.status).toBe(200);
    for (const g of gates) g();
    const done = await Promise.all([a1, a2, b1]);
    expect(done.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(budget.heldBytes()).toBe(0);
  });
});

describe("behind a reverse proxy", () => {
  test("with --trust-proxy, X-Forwarded-Proto and X-Forwarded-Host make the URLs; invalid ones are ignored", async () => {
    const app = createApp({ ...ctx.deps, config: { ...ctx.deps.config, publicUrl: null, trustProxy: true } });
    const share = async (headers: Record<string, string>) => {
      const res = await app.handle(
        new Request("http://internal.test:8080/v1/artworks/share", {
          method: "POST",
          body: JSON.stringify({ ids: [1] }),
          headers: { Authorization: `Bearer ${ctx.keys.enterprise}`, "Content-Type": "application/json", ...headers },
        }),
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as Json).url as string;
    };
    expect(await share({ "X-Forwarded-Proto": "https", "X-Forwarded-Host": "api.example.test" })).toStartWith("https://api.example.test/v1/artworks/shared/");
    expect(await share({ "X-Forwarded-Host": "evil.example/path" })).toStartWith("http://internal.test:8080/v1/artworks/shared/");
    expect(await share({ "X-Forwarded-Proto": "gopher" })).toStartWith("http://internal.test:8080/");
    const untrusted = createApp({ ...ctx.deps, config: { ...ctx.deps.config, publicUrl: null, trustProxy: false } });
    const res = await untrusted.handle(
      new Request("http://internal.test:8080/v1/artworks/share", {
        method: "POST",
        body: JSON.stringify({ ids: [1] }),
        headers: { Authorization: `Bearer ${ctx.keys.enterprise}`, "Content-Type": "application/json", "X-Forwarded-Host": "api.example.test" },
      }),
    );
    expect(((await res.json()) as Json).url).toStartWith("http://internal.test:8080/");
  });
});

// ---------------------------------------------------------------- the real server

/** A raw HTTP/1.1 exchange on a loopback port (for Host headers fetch() would not send). */
function raw(port: number, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let out = "";
    socket.on("data", (d) => (out += d.toString()));
    socket.on("end", () => resolve({ status: Number(out.split(" ")[1]), body: out.split("\r\n\r\n").slice(1).join("\r\n\r\n") }));
    socket.on("error", reject);
    socket.write(text);
  });
}

describe("the real server", () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    dataDir = tempDataDir();
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(dataDir, "market.db"));
    server = await startServer(dataDir);
  });
  afterAll(() => {
    server?.proc.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a second serve on the same data directory exits 2 naming the holder", async () => {
    const second = Bun.spawn([...ARTMARKET, "serve", "--data", dataDir, "--port", "0"], { stdout: "pipe", stderr: "pipe" });
    expect(await second.exited).toBe(2);
    const err = await new Response(second.stderr).text();
    expect(err).toContain(`pid ${server.proc.pid}`);
    expect(err.trim().split("\n").length).toBe(1);
  });

  test("a request without a Host (HTTP/1.0) is served as one to the listening address, each time", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await raw(server.port, `GET /v1/categories HTTP/1.0\r\nAuthorization: Bearer ${server.key}\r\n\r\n`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)[0].name).toBeTruthy();
    }
  });

  test("any valid Host routes on the path; an invalid one is a JSON 400", async () => {
    for (const host of ["x", "ab", "x:1", "[::1]", "artmarket.example.com:8443"]) {
      const res = await raw(server.port, `GET /v1/categories HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${server.key}\r\nConnection: close\r\n\r\n`);
      expect(`${host} ${res.status}`).toBe(`${host} 200`);
      expect(JSON.parse(res.body)[0].name).toBeTruthy();
    }
    for (const host of ["evil.example/x", "a b", "<x>", "user@host", "", "a.0", "1.2.3.999"]) {
      const res = await raw(server.port, `GET /v1/categories HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(`${host} ${res.status}`).toBe(`${host} 400`);
      expect(JSON.parse(res.body).detail).toContain("Host");
    }
  });

  test("signed URLs carry the request's valid Host; X-Forwarded-Host is ignored without --trust-proxy", async () => {
    const res = await raw(
      server.port,
      `POST /v1/artworks/share HTTP/1.1\r\nHost: api.example.test:9000\r\nX-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\n` +
        `Authorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{"ids": [1]}`,
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).url).toStartWith("http://api.example.test:9000/v1/artworks/shared/");
  });

  test("1,000 values of 200 characters fit in a URL; past the limit a JSON 414", async () => {
    const values = Array.from({ length: 1000 }, (_, i) => `u${i}`.padEnd(200, "z")).join(",");
    const ok = await fetch(`${server.url}/v1/artists?uid__in=${values}`, { headers: { Authorization: `Bearer ${server.key}` } });
    expect(ok.status).toBe(200);
    const tooLong = await fetch(`${server.url}/v1/artists?q=${"q".repeat(MAX_REQUEST_HEAD + 10)}`, { headers: { Authorization: `Bearer ${server.key}` } });
    expect(tooLong.status).toBe(414);
    expect(((await tooLong.json()) as Json).detail).toContain("URI");
  });

  test("header fields over 64 KiB are a JSON 431; a URL and header fields each at their limit still reach the service", async () => {
    const head = (target: string, pad: number) =>
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.key}\r\nX-Pad: ${"p".repeat(pad)}\r\nConnection: close\r\n\r\n`;
    // the fields apart from X-Pad's value: Host, Authorization, Connection and "X-Pad: " with their CRLFs
    const others = head("/", 0).length - "GET / HTTP/1.1\r\n".length - 2;
    const fits = await raw(server.port, head("/v1/categories", MAX_HEADER_BYTES - others));
    expect(fits.status).toBe(200);
    const over = await raw(server.port, head("/v1/categories", MAX_HEADER_BYTES - others + 1));
    expect(over.status).toBe(431);
    expect(JSON.parse(over.body).detail).toContain(`${MAX_HEADER_BYTES} bytes`);
    const huge = await raw(server.port, head("/v1/categories", 4 * MAX_HEADER_BYTES));
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body).detail).toContain("header");
    // a URL over its limit beside header fields at theirs: the service's 414, not the runtime's 431
    const both = await raw(server.port, head(`/v1/artists?q=${"q".repeat(MAX_REQUEST_HEAD)}`, MAX_HEADER_BYTES - others));
    expect(both.status).toBe(414);
    expect(JSON.parse(both.body).detail).toContain("URI");
    // past the runtime's own bound on a head: its 431, before the service sees the request
    const beyond = await new Promise<string>((resolve) => {
      const socket = connect(server.port, "127.0.0.1");
      let out = "";
      socket.on("data", (d) => (out += d.toString()));
      socket.on("error", () => {}); // the runtime may close before the whole head is written
      socket.on("close", () => resolve(out));
      socket.write(head("/v1/categories", RUNTIME_HEAD_LIMIT));
    });
    expect(beyond.split(" ")[1]).toBe("431");
    expect(MAX_HEADER_BYTES).toBeLessThanOrEqual(64 * 1024);
    expect(RUNTIME_HEAD_LIMIT).toBeLessThan(MAX_REQUEST_HEAD + 2 * MAX_HEADER_BYTES);
  });

  test("a declared Content-Length over the cap is refused before the body is sent", async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1");
      let out = "";
      socket.on("data", (d) => {
        out += d.toString();
        if (out.includes("\r\n\r\n") && out.includes("}")) {
          resolve({ status: Number(out.split(" ")[1]), body: out.split("\r\n\r\n")[1]! });
          socket.destroy();
        }
      });
      socket.on("error", reject);
      // the head alone: 125 MB announced, not a byte of it sent
      socket.write(
        `PATCH /v1/collectables/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nContent-Length: 125000000\r\n\r\n`,
      );
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).detail).toContain("larger than");
  });

  test("SIGTERM: the request in flight finishes, new connections are refused, exit 0", async () => {
    const dir = tempDataDir();
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(dir, "market.db"));
    const s = await startServer(dir);
    try {
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const body = new ReadableStream({
        async start(c) {
          c.enqueue(new TextEncoder().encode('{"ids": [1'));
          await gate;
          c.enqueue(new TextEncoder().encode("]}"));
          c.close();
        },
      });
      const inFlight = fetch(`${s.url}/v1/artworks/share`, {
        method: "POST",
        body,
        headers: { Authorization: `Bearer ${s.key}`, "Content-Type": "application/json" },
        duplex: "half",
      } as RequestInit);
      await Bun.sleep(500);
      s.proc.kill("SIGTERM");
      // the server says it is stopping, with the upload in flight
      const errReader = s.proc.stderr.getReader();
      let stderrText = "";
      while (!stderrText.includes("stopping")) {
        const { value, done } = await errReader.read();
        if (done) break;
        stderrText += new TextDecoder().decode(value);
      }
      expect(stderrText).toContain("SIGTERM: stopping; 1 request(s) in flight");
      const refused = await fetch(`${s.url}/healthcheck`).then(
        (r) => r.status,
        () => "refused",
      );
      expect(refused).toBe("refused");
      open();
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(((await res.json()) as Json).token).toBeTruthy();
      expect(await s.proc.exited).toBe(0);
      for (;;) {
        const { value, done } = await errReader.read();
        if (done) break;
        stderrText += new TextDecoder().decode(value);
      }
      expect(stderrText).toContain("stopped");
      expect(stderrText).not.toContain("AbortError");
      // the ledger has the call, and the server's lock is gone
      const db = new Database(accountDbPath(dir), { readonly: true });
      expect((db.query("SELECT count(*) AS n FROM du_ledger WHERE route = '/v1/artworks/share'").get() as { n: number }).n).toBe(1);
      db.close();
      expect(existsSync(join(dir, "serve.pid"))).toBe(false);
    } finally {
      s.proc.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe("start-up while another process holds account.db", () => {
  test("serve and the CLI wait for the lock instead of failing", async () => {
    const dir = tempDataDir();
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(dir, "market.db"));
    try {
      // another process made account.db a moment ago and still holds its lock (not yet in WAL:
      // switching to WAL needs the lock too)
      const holder = new Database(accountDbPath(dir), { create: true });
      holder.run("BEGIN EXCLUSIVE");
      holder.run("CREATE TABLE IF NOT EXISTS __probe (x)");
      const keys = Bun.spawn([...ARTMARKET, "keys", "create", "--plan", "sandbox", "--data", dir], { stdout: "pipe", stderr: "pipe" });
      const serve = startServer(dir, false);
      await Bun.sleep(1000);
      expect(keys.exitCode).toBe(null); // still waiting
      holder.run("ROLLBACK");
      holder.close();
      expect(await keys.exited).toBe(0);
      expect(await new Response(keys.stderr).text()).not.toContain("locked");
      const s = await serve;
      const res = await fetch(`${s.url}/healthcheck`);
      expect(res.status).toBe(200);
      s.proc.kill("SIGTERM");
      expect(await s.proc.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("two processes opening a new data directory at once both succeed", async () => {
    const dir = tempDataDir();
    try {
      const procs = Array.from({ length: 4 }, (_, i) =>
        Bun.spawn([...ARTMARKET, "keys", "create", "--plan", "pro", "--name", `n${i}`, "--data", dir], { stdout: "pipe", stderr: "pipe" }),
      );
      const codes = await Promise.all(procs.map((p) => p.exited));
      const errors = await Promise.all(procs.map((p) => new Response(p.stderr).text()));
      expect({ codes, errors: errors.filter(Boolean) }).toEqual({ codes: [0, 0, 0, 0], errors: [] });
      const db = new Database(accountDbPath(dir), { readonly: true });
      expect((db.query("SELECT count(*) AS n FROM api_keys").get() as { n: number }).n).toBe(4);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("HTTP conventions at the edge", () => {
  test("a known path with the wrong method is 405 with Allow; an unknown path stays 404", async () => {
    for (const [method, path, allow] of [
      ["POST", "/v1/categories", "GET, HEAD, OPTIONS"],
      ["DELETE", "/v1/artists", "GET, HEAD, OPTIONS"],
      ["PUT", "/v1/artists/1/follow", "POST, DELETE, OPTIONS"],
      ["PATCH", "/v1/lots/7", "GET, HEAD, OPTIONS"],
    ] as const) {
      const res = await ctx.call(path, { method });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 405`);
      expect(res.headers.get("Allow")).toBe(allow);
      expect(((await res.json()) as Json).detail).toContain(method);
    }
    const unknown = await ctx.call("/v1/nothing-here", { method: "POST" });
    expect(unknown.status).toBe(404);
  });

  test("GET / redirects to the docs page", async () => {
    const res = await ctx.call("/", { key: null });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/docs");
  });

  test("a 401 says what was wrong and how to get a key", async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, "No API key"],
      [{ Authorization: "Token abc" }, "Malformed Authorization header"],
      [{ Authorization: "Bearer not-a-key" }, "Malformed API key"],
      [{ Authorization: `Bearer am_0123456789abcdef_${"x".repeat(43)}` }, "Unknown or revoked API key"],
    ];
    for (const [headers, says] of cases) {
      const res = await ctx.call("/v1/usage", { key: null, headers });
      expect(res.status).toBe(401);
      const detail = ((await res.json()) as Json).detail as string;
      expect(detail).toContain(says);
      expect(detail).toContain("artmarket keys create");
    }
  });
});

describe("request ids on the real server", () => {
  test("every response carries X-Request-Id: the client's safe one, else a new one each time", async () => {
    const dir = tempDataDir();
    copyFileSync(join(await tinyMarketDir(), "market.db"), join(dir, "market.db"));
    const s = await startServer(dir);
    try {
      const kept = await fetch(`${s.url}/v1/categories`, { headers: { Authorization: `Bearer ${s.key}`, "X-Request-Id": "trace-42:abc/1" } });
      expect(kept.headers.get("X-Request-Id")).toBe("trace-42:abc/1");
      const ids = new Set<string | null>();
      for (const path of ["/v1/categories", "/v1/categories", "/healthcheck", "/v1/nowhere", "/docs"]) {
        const res = await fetch(`${s.url}${path}`, { headers: { Authorization: `Bearer ${s.key}`, "X-Request-Id": "bad id with spaces" } });
        ids.add(res.headers.get("X-Request-Id"));
      }
      expect(ids.size).toBe(5);
      for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
      const tooLong = await fetch(`${s.url}/healthcheck`, { headers: { "X-Request-Id": "x".repeat(129) } });
      expect(tooLong.headers.get("X-Request-Id")).not.toBe("x".repeat(129));
      const bad = await raw(s.port, "GET /healthcheck HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n");
      expect(bad.status).toBe(400);
    } finally {
      s.proc.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe("IETF RateLimit headers", () => {
  test("authenticated responses carry RateLimit-Policy and RateLimit; a 429 too", async () => {
    const { key } = await createUserWithKey(ctx.deps.account, "sandbox", "ratelimit headers");
    const plan = (await (await ctx.call("/v1/plans", { key })).json()) as Json[];
    const sandbox = plan.find((p) => p.slug === "sandbox")!;
    const rps = Math.max(1, Math.floor(sandbox.rps_limit * sandbox.throttle_multiplier));
    const rpm = Math.max(1, Math.floor(sandbox.rpm_limit * sandbox.throttle_multiplier));
    // one fixed instant for every call: the second's window is the one that runs out
    const t = Date.UTC(2026, 10, 26, 12, 0, 0, 250);
    class Frozen extends RateLimiter {
      override check(caller: Caller) {
        return super.check(caller, t);
      }
    }
    const app = createApp({ ...ctx.deps, limiter: new Frozen() });
    const get = () => app.handle(new Request("http://artmarket.test/v1/categories", { headers: { Authorization: `Bearer ${key}` } }));
    for (let i = 1; i <= rps; i++) {
      const res = await get();
      expect(res.status).toBe(200);
      expect(res.headers.get("RateLimit-Policy")).toBe(`"second";q=${rps};w=1, "minute";q=${rpm};w=60`);
      expect(res.headers.get("RateLimit")).toBe(`"second";r=${rps - i};t=1`);
    }
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("RateLimit")).toBe(`"second";r=0;t=1`);
    expect(refused.headers.get("Retry-After")).toBe("1");
    // a call without a key carries none
    const anonymous = await app.handle(new Request("http://artmarket.test/v1/artists?limit=1"));
    expect(anonymous.headers.get("RateLimit")).toBeNull();
  });
});

test("/openapi.json documents the RateLimit headers and X-Request-Id", async () => {
  const doc = (await (await ctx.call("/openapi.json")).json()) as Json;
  const op = doc.paths["/v1/categories"].get;
  expect(Object.keys(op.responses["200"].headers)).toEqual(expect.arrayContaining(["X-Request-Id", "RateLimit-Policy", "RateLimit", "X-Service-DataUnits"]));
  expect(Object.keys(op.responses["429"].headers)).toEqual(expect.arrayContaining(["Retry-After", "RateLimit-Policy", "RateLimit"]));
  const health = doc.paths["/healthcheck"].get.responses["200"].headers;
  expect(Object.keys(health)).toContain("X-Request-Id");
  expect(Object.keys(health)).not.toContain("RateLimit");
});
