/**
 * A thread that reads one published market snapshot whole so that the supervisor's thread (key
 * verification, ledger commits, /metrics) is not held while it reads; started per file, answers
 * once. Two jobs:
 * - `check`: the snapshot checks (src/db/snapshot-check.ts), for a swap (src/serve/cluster/swap.ts);
 * - `sha256`: the file's SHA-256 (snapshot-follow.ts sha256OfFile), for GET /snapshot and a
 *   follower's download. On the supervisor's own thread, a stream whose chunks are already read
 *   resolves each next chunk as a microtask, and the loop held every message a worker sent until
 *   the file ended: about 11 s for a full market.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts).
 */
import { checkSnapshot } from "../../db/snapshot-check";

declare const self: Worker;

self.onmessage = async (event: MessageEvent) => {
  const { path, job } = event.data as { path: string; job?: "check" | "sha256" };
  if (job !== "sha256") {
    self.postMessage(await checkSnapshot(path));
    return;
  }
  try {
    const hasher = new Bun.CryptoHasher("sha256");
    for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
    self.postMessage({ sha256: hasher.digest("hex") });
  } catch (err) {
    self.postMessage({ error: (err as Error).message });
  }
};
