/**
 * Headless Chromium for the browser tests: the binary @sparticuz/chromium ships, driven by
 * puppeteer-core. The pages are drawn in software without the GL emulation (ANGLE on SwiftShader)
 * the package's arguments ask for, which cost about a tenth of the console test's CPU; a POSIX
 * locale would make Chromium report "en-US@posix", which Intl refuses.
 */
import chromium from "@sparticuz/chromium";
import { statSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { cachedFolder } from "./market-cache";
import { memoryTempBase } from "./temp";

/** @sparticuz/chromium's arguments for a GPU emulated in software. */
const SWIFTSHADER = /^--(use-gl|use-angle|enable-unsafe-swiftshader|in-process-gpu|ignore-gpu-blocklist)\b/;

const PACKAGE = join(import.meta.dir, "../../node_modules/@sparticuz/chromium");

let binary: Promise<string> | undefined;

/**
 * The package's Chromium, unpacked once per machine into node_modules/.cache/artmarket-tests/chromium-<key>
 * (its own `executablePath()` unpacks the 64 MB brotli file, 203 MB in all, into each test
 * process's TMPDIR: 1.6-2.2 s of CPU each time). The unpacking runs in a child process whose TMPDIR
 * is the cache folder.
 */
function chromiumBinary(): Promise<string> {
  binary ??= (async () => {
    const packed = statSync(join(PACKAGE, "bin", "chromium.br"));
    const version = (await Bun.file(join(PACKAGE, "package.json")).json()).version as string;
    const key = createHash("sha256").update(`${version} ${packed.size} ${packed.mtimeMs}`).digest("hex").slice(0, 16);
    const { dir } = await cachedFolder(
      "chromium",
      key,
      async (building) => {
        const proc = Bun.spawn([process.execPath, "-e", 'import c from "@sparticuz/chromium"; await c.executablePath();'], {
          cwd: join(import.meta.dir, "../.."),
          env: { ...process.env, TMPDIR: building },
          stdout: "ignore",
          stderr: "pipe",
        });
        const [code, stderr] = [await proc.exited, await new Response(proc.stderr).text()];
        if (code !== 0) throw new Error(`unpacking @sparticuz/chromium failed (${code}): ${stderr}`);
        return { version };
      },
      0,
    );
    return join(dir, "chromium");
  })();
  return binary;
}

export async function launchChromium(): Promise<Browser> {
  const shm = memoryTempBase() === "/dev/shm";
  return puppeteer.launch({
    executablePath: await chromiumBinary(),
    args: [...chromium.args.filter((a) => !SWIFTSHADER.test(a)), "--disable-gpu", "--lang=en-US"],
    // Chromium's shared memory files in /dev/shm when it is a memory file system with room, as Chromium
    // does by default (puppeteer asks for TMPDIR, a disk here: about 2,400 files a console test)
    ignoreDefaultArgs: shm ? ["--disable-dev-shm-usage"] : [],
    headless: true,
  });
}
