/**
 * The deployment files in deploy/, checked by the tools that read them:
 * - deploy/nginx.conf: `nginx -t` on a wrapper configuration that includes the site, its
 *   certificate paths pointed at a throwaway self-signed pair (openssl);
 * - deploy/artmarket.service: `systemd-analyze verify --root` on a temp root holding the unit, a
 *   stub at its ExecStart path and this machine's system units (verify needs both; no systemd has to
 *   run as PID 1);
 * - deploy/Dockerfile: the Dockerfile linter of dockerfile-utils (unknown instructions, flags,
 *   malformed arguments).
 * A missing nginx, openssl or systemd-analyze fails the test under CI (CI set; .ci/run installs
 * them) and skips it elsewhere with a printed reason.
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { validate } from "dockerfile-utils";

const ROOT = join(import.meta.dir, "../..");
const DEPLOY = join(ROOT, "deploy");
const CI = !["", "0", "false"].includes((process.env.CI ?? "").toLowerCase());

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A tool on PATH or in the sbin folders (nginx is in /usr/sbin, outside a user's PATH). */
function tool(name: string): string | null {
  return Bun.which(name) ?? ["/usr/sbin", "/sbin"].map((d) => join(d, name)).find((p) => existsSync(p)) ?? null;
}

/** `test` when every tool is there; otherwise a failure under CI, a skip with its reason elsewhere. */
function testWith(tools: string[], name: string, fn: (paths: Record<string, string>) => void | Promise<void>, timeout = 30_000): void {
  const paths: Record<string, string> = {};
  const missing: string[] = [];
  for (const t of tools) {
    const p = tool(t);
    if (p) paths[t] = p;
    else missing.push(t);
  }
  if (missing.length === 0) {
    test(name, () => fn(paths), timeout);
    return;
  }
  const reason = `${missing.join(", ")} not installed (Debian: apt-get install ${missing.map((m) => (m === "systemd-analyze" ? "systemd" : m)).join(" ")})`;
  if (CI) {
    test(name, () => {
      throw new Error(`${reason}: CI must check the deploy files (.ci/run installs these)`);
    });
  } else {
    process.stderr.write(`tests/contract/deploy.test.ts: skipping "${name}": ${reason}\n`);
    test.skip(name, () => {});
  }
}

function runTool(cmd: string[]): { code: number; output: string } {
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, output: `${r.stdout.toString()}${r.stderr.toString()}`.trim() };
}

testWith(["nginx", "openssl"], "deploy/nginx.conf passes nginx -t", ({ nginx, openssl }) => {
  const dir = tempDir("artmarket-nginx-");
  const cert = join(dir, "fullchain.pem");
  const key = join(dir, "privkey.pem");
  const made = runTool([openssl!, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=api.example.com", "-keyout", key, "-out", cert]);
  expect(made.code).toBe(0);

  // the site as shipped, only its certificate paths replaced
  const site = readFileSync(join(DEPLOY, "nginx.conf"), "utf8");
  const certLine = /^(\s*ssl_certificate\s+)(\S+);$/m;
  const keyLine = /^(\s*ssl_certificate_key\s+)(\S+);$/m;
  expect(site).toMatch(certLine);
  expect(site).toMatch(keyLine);
  writeFileSync(join(dir, "site.conf"), site.replace(certLine, `$1${cert};`).replace(keyLine, `$1${key};`));
  // what Debian's /etc/nginx/nginx.conf gives a conf.d file: it is included inside http {}; the
  // temp paths and the pid file in the temp folder, so no root-owned path is needed
  const temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${join(dir, t)};`).join("\n");
  writeFileSync(
    join(dir, "nginx.conf"),
    `pid ${join(dir, "nginx.pid")};\nerror_log stderr;\nevents {}\nhttp {\n  access_log off;\n${temps}\n  include ${join(dir, "site.conf")};\n}\n`,
  );

  const version = runTool([nginx!, "-v"]).output;
  const r = runTool([nginx!, "-t", "-q", "-e", "stderr", "-p", `${dir}/`, "-c", join(dir, "nginx.conf")]);
  // -q: only warnings and errors are printed; a clean configuration prints nothing
  expect({ version, code: r.code, output: r.output }).toEqual({ version, code: 0, output: "" });
});

testWith(["systemd-analyze"], "deploy/artmarket.service passes systemd-analyze verify", ({ "systemd-analyze": analyze }) => {
  const root = tempDir("artmarket-systemd-");
  const unit = readFileSync(join(DEPLOY, "artmarket.service"), "utf8");
  // verify checks that ExecStart's program exists and is executable: a stub where the unit says
  const exec = /^ExecStart=(\/\S+)/m.exec(unit)?.[1];
  expect(exec).toBe("/usr/local/bin/artmarket");
  mkdirSync(join(root, dirname(exec!)), { recursive: true });
  writeFileSync(join(root, exec!), "#!/bin/sh\nexit 0\n");
  chmodSync(join(root, exec!), 0o755);
  mkdirSync(join(root, "etc/systemd/system"), { recursive: true });
  writeFileSync(join(root, "etc/systemd/system/artmarket.service"), unit);
  // the units it names (network-online.target, multi-user.target) and the ones every service
  // depends on (sysinit.target…), from this machine's systemd
  const systemUnits = ["/usr/lib/systemd/system", "/lib/systemd/system"].find((d) => existsSync(join(d, "sysinit.target")));
  expect(systemUnits).toBeDefined();
  cpSync(systemUnits!, join(root, "usr/lib/systemd/system"), { recursive: true, verbatimSymlinks: true });

  const version = runTool([analyze!, "--version"]).output.split("\n")[0];
  const r = runTool([analyze!, "verify", `--root=${root}`, "artmarket.service"]);
  // an unknown key or a bad value is only a warning (exit 0): the output must be empty too
  expect({ version, code: r.code, output: r.output }).toEqual({ version, code: 0, output: "" });
});

test("deploy/Dockerfile passes the Dockerfile linter (dockerfile-utils)", () => {
  const dockerfile = readFileSync(join(DEPLOY, "Dockerfile"), "utf8");
  expect(validate(dockerfile).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  // the linter reads what the file holds: a misspelt instruction and an unknown flag are found
  const broken = dockerfile.replace(/^USER /m, "USR ").replace("COPY --chmod=0755", "COPY --chmod=0755 --owner=1");
  expect(validate(broken).map((d) => d.message)).toEqual(expect.arrayContaining(["Unknown instruction: USR", "Unknown flag: owner"]));
  // the binary is copied where the entrypoint runs it, on the glibc base docs/binary.md names
  expect(dockerfile).toMatch(/^COPY --chmod=0755 artmarket \/usr\/local\/bin\/artmarket$/m);
  expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/local\/bin\/artmarket"\]$/m);
});
