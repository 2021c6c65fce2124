// Loaded before every test file (bunfig.toml): keeps test runs off the developer's own data, and
// gives the run a temporary folder of its own, removed after the last file (tests/helpers/temp.ts).
import { afterAll } from "bun:test";
import { parallelWorker, removeRegistered, setUpTestTemp } from "./temp";

process.env.ARTMARKET_DATA ??= "/nonexistent-artmarket-data-for-tests";
// a stopped server exits at once (tests that check the drain delay pass --drain-delay)
process.env.ARTMARKET_DRAIN_DELAY ??= "0";
setUpTestTemp();
// a preload's afterAll runs once, after every file's own: what the run made and did not remove
// (in a `bun test --parallel` worker it runs after each file: there the reaper removes it, temp.ts)
if (!parallelWorker()) afterAll(removeRegistered);
