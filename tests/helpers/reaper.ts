/**
 * Not a test: the clean-up of one `bun test --parallel` worker (tests/helpers/temp.ts starts it,
 * detached). A worker ends without an "exit" event or a last afterAll of its own, so this process
 * waits for it to end, then sweeps what it left: its temporary folder, and its PostgreSQL staging
 * folder with the server stopped first (sweepDeadRuns).
 *
 *   bun tests/helpers/reaper.ts <pid> <folder>…
 */
import { processRuns, sweepDeadRuns } from "./temp";

const [pid, ...bases] = process.argv.slice(2);
while (processRuns(Number(pid))) await Bun.sleep(200);
for (const base of new Set(bases)) sweepDeadRuns(base);
