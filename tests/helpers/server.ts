/**
 * A real `artmarket serve` (the tests' build of it, tests/helpers/cli.ts), for the tests that need a
 * socket, signals or a second process: started on a free port of 127.0.0.1, waited for until it
 * prints its listening line (and, on an account store without users, its first key).
 */
import { artmarketCommand } from "./cli";

/** Starts `serve` on `dataDir`; on an account store without users it prints a key (`withKey`). `command`: the program (the tests' binary by default). */
export async function startServer(dataDir: string, withKey = true, command?: readonly string[]) {
  const proc = Bun.spawn([...(command ?? (await artmarketCommand())), "serve", "--data", dataDir, "--port", "0"], { stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (withKey ? !/^am_\S+$/m.test(text) : !text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${await new Response(proc.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  const lines = text.split("\n");
  const url = lines[0]!.replace("listening on ", "");
  const key = lines.find((l) => l.startsWith("am_")) ?? "";
  return { proc, url, port: Number(new URL(url).port), key, stderr: () => new Response(proc.stderr).text() };
}

/**
 * Starts `serve` on `dataDir` with `args` (workers, account store, log format…) and reads its
 * stderr as it comes, so that a server that writes much of it never blocks; resolves once it prints
 * its listening line. `stderr()`: what it wrote so far.
 */
export async function spawnServe(dataDir: string, args: string[]) {
  const proc = Bun.spawn([...(await artmarketCommand()), "serve", "--data", dataDir, "--port", "0", ...args], { stdout: "pipe", stderr: "pipe" });
  let errText = "";
  void (async () => {
    const reader = proc.stderr.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      errText += new TextDecoder().decode(value);
    }
  })();
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${errText}`);
    text += new TextDecoder().decode(value);
  }
  return { proc, url: text.split("\n")[0]!.replace("listening on ", ""), stderr: () => errText };
}
