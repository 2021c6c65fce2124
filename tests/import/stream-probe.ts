/**
 * Runs one import in a process of its own and prints, as JSON, how much its memory grew while
 * lots.jsonl was read: the measure is then not disturbed by the rest of the test run.
 *   bun tests/import/stream-probe.ts <import dir> <data dir>
 */
import { runImport } from "../../src/pipeline/import/run";

const [from, dataDir] = process.argv.slice(2) as [string, string];
Bun.gc(true);
let reading = false;
let base = 0;
let peak = 0;
const sample = () => {
  if (reading) peak = Math.max(peak, process.memoryUsage().rss);
};
const timer = setInterval(sample, 5);
const s = await runImport({
  dataDir,
  from,
  quiet: true,
  onPhase: (name) => {
    sample();
    reading = name === "lots.jsonl";
    if (reading) base = peak = process.memoryUsage().rss;
  },
});
clearInterval(timer);
const lots = s.files.find((f) => f.file === "lots.jsonl");
console.log(JSON.stringify({ lots, growth: peak - base, rowsPerSecond: s.rowsPerSecond, seconds: s.seconds }));
