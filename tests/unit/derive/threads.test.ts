import { expect, test } from "bun:test";
import { defaultDeriveThreads, PARALLEL_MIN_ARTISTS, PARALLEL_MIN_CPUS, PARALLEL_MIN_SOLD } from "../../../src/pipeline/derive/artist-pass";
import { defaultEarlyLotIndexes, EARLY_LOT_INDEXES_MIN_LOTS } from "../../../src/pipeline/derive/snapshot";

test("pass 2's default threads: none for a small market or one CPU, one per CPU but one from 4 CPUs, one per CPU on 2-3 CPUs for a large market", () => {
  const big = PARALLEL_MIN_SOLD;
  const artists = PARALLEL_MIN_ARTISTS;
  expect(defaultDeriveThreads(artists - 1, big, 8)).toBe(0);
  expect(defaultDeriveThreads(artists, big, 1)).toBe(0);
  expect(defaultDeriveThreads(artists, big - 1, 2)).toBe(0);
  expect(defaultDeriveThreads(artists, big, 2)).toBe(2);
  expect(defaultDeriveThreads(artists, big, 3)).toBe(3);
  expect(defaultDeriveThreads(artists, 0, PARALLEL_MIN_CPUS)).toBe(PARALLEL_MIN_CPUS - 1);
  expect(defaultDeriveThreads(artists, big, 16)).toBe(15);
});

test("the lots' read indexes beside the derivation by default: from EARLY_LOT_INDEXES_MIN_LOTS lots on 2 CPUs or more", () => {
  const big = EARLY_LOT_INDEXES_MIN_LOTS;
  expect(defaultEarlyLotIndexes(big, 1)).toBe(false);
  expect(defaultEarlyLotIndexes(big - 1, 2)).toBe(false);
  expect(defaultEarlyLotIndexes(big, 2)).toBe(true);
  expect(defaultEarlyLotIndexes(30_000_000, 16)).toBe(true);
});
