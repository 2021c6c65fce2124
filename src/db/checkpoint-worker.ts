/**
 * The thread of a Checkpointer (src/db/checkpointer.ts): a CheckpointLoop (checkpoint-loop.ts)
 * over its own connection, its figures on request.
 *
 * Listed as an entry point of the compiled binary (scripts/build.ts).
 */
import { CheckpointLoop, noCheckpoints } from "./checkpoint-loop";
import type { FromCheckpointer, ToCheckpointer } from "./checkpointer";

declare const self: Worker;

const post = (msg: FromCheckpointer) => self.postMessage(msg);

let loop: CheckpointLoop | null = null;

self.onmessage = (event: MessageEvent<ToCheckpointer>) => {
  const msg = event.data;
  switch (msg.t) {
    case "start":
      try {
        loop = new CheckpointLoop(msg.path, msg.options);
      } catch (err) {
        post({ t: "failed", error: err instanceof Error ? err.message : String(err) });
      }
      return;
    case "stats":
      post({ t: "stats", id: msg.id, stats: loop ? { ...loop.stats } : noCheckpoints("not started") });
      return;
    case "stop":
      loop?.close();
      loop = null;
      post({ t: "stopped" });
      return;
  }
};
