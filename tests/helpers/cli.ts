/**
 * The command line the tests start `artmarket` with (serve, keys, backup, import…): the binary
 * `bun run build` makes, built once for the sources of the run and kept between runs in
 * node_modules/.cache/artmarket-tests/cli-<hash>/artmarket (market-cache.ts), the hash covering
 * src/, the build script, package.json, the lock file and Bun's version. The binary's code is
 * bytecode: a `serve` listens in about 0.14 s and 0.3 s of CPU, against 0.37 s and 0.6 s from
 * source, and a run starts about 175 of these processes.
 *
 * `ARTMARKET_TEST_CLI=source` starts `bun src/cli.ts` instead (a platform the build does not
 * support, or to time the two). `cliFromSource` is that command line always, for the tests of
 * the source start itself.
 */
import { join } from "node:path";
import { cachedFolder, hashOfSources } from "./market-cache";

const ROOT = join(import.meta.dir, "../..");

/** `bun src/cli.ts`. */
export const cliFromSource: readonly string[] = [process.execPath, join(ROOT, "src/cli.ts")];

async function build(dir: string): Promise<object> {
  const outfile = join(dir, "artmarket");
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts/build.ts"), "--outfile", outfile], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`the tests' binary was not built (scripts/build.ts exit ${code}; ARTMARKET_TEST_CLI=source runs them from source):\n${out}${err}`);
  return {};
}

let command: Promise<readonly string[]> | null = null;

/** The command line that starts `artmarket`; its arguments follow. */
export function artmarketCommand(): Promise<readonly string[]> {
  if (process.env.ARTMARKET_TEST_CLI === "source") return Promise.resolve(cliFromSource);
  command ??= cachedFolder("cli", hashOfSources(["src", "scripts/build.ts", "package.json"]), build, 600_000).then(({ dir }) => [join(dir, "artmarket")]);
  return command;
}
