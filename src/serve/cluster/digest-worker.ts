/**
 * A thread that reads one file whole for its SHA-256 (snapshot-follow.ts sha256OfFile), so that
 * the supervisor's thread is not held while it reads: a stream whose chunks are already read
 * resolves each next chunk as a microtask, and a loop over it keeps the thread's messages (key
 * verification, ledger hand-overs) waiting until the file ends, about 11 s for a full market.
 * Started per file, answers once.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts).
 */
declare const self: Worker;

export {};

self.onmessage = async (event: MessageEvent) => {
  const { path } = event.data as { path: string };
  try {
    const hasher = new Bun.CryptoHasher("sha256");
    for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
    self.postMessage({ sha256: hasher.digest("hex") });
  } catch (err) {
    self.postMessage({ error: (err as Error).message });
  }
};
