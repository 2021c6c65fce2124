/**
 * A thread that checks one published market snapshot (src/db/snapshot-check.ts) so that the
 * supervisor's thread (key verification, ledger commits, /metrics) is not blocked while SQLite
 * reads the whole file: started per check by src/serve/cluster/swap.ts, answers once.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts).
 */
import { checkSnapshot } from "../../db/snapshot-check";

declare const self: Worker;

self.onmessage = async (event: MessageEvent) => {
  const { path } = event.data as { path: string };
  self.postMessage(await checkSnapshot(path));
};
