// Loaded before every test file (bunfig.toml): gives the run a temporary folder of its own, removed after the last file (tests/helpers/temp.ts).
import { afterAll } from "bun:test";
import { parallelWorker, removeRegistered, setUpTestTemp } from "./temp";

// the environment of the run and of the processes it starts (ARTMARKET_DATA off the developer's
// own data, no drain delay) comes from .env.test, which `bun test` loads (NODE_ENV=test)
if (process.env.ARTMARKET_DRAIN_DELAY !== "0") throw new Error("the tests run with .env.test's environment: run them with `bun test` from the repository's root");
setUpTestTemp();
// a preload's afterAll runs once, after every file's own: what the run made and did not remove
// (in a `bun test --parallel` worker it runs after each file: there the reaper removes it, temp.ts)
if (!parallelWorker()) afterAll(removeRegistered);
