/**
 * Progress of the long jobs (src/pipeline/progress.ts) on an injected clock and writer: the lines a
 * log gets (one per step as it ends, a progress line at most every 10 s of a long step), the
 * redrawn line of a terminal, and the rate and time-left arithmetic.
 */
import { describe, expect, test } from "bun:test";
import { estimate, formatDuration, Progress } from "../../src/pipeline/progress";

/** A Progress whose clock is set by hand and whose output is kept. */
function harness(options: { tty: boolean; quiet?: boolean }) {
  let now = 0;
  const out: string[] = [];
  const progress = new Progress("seed", { tty: options.tty, quiet: options.quiet, now: () => now, write: (text) => void out.push(text) });
  return {
    progress,
    out,
    at(seconds: number) {
      now = seconds * 1000;
    },
  };
}

describe("not on a terminal", () => {
  test("a step without reports: one line when it ends, with its seconds", () => {
    const h = harness({ tty: false });
    const phase = h.progress.phase("reference data");
    h.at(0.34);
    phase.end();
    expect(h.out).toEqual(["seed: reference data in 0.3s\n"]);
  });

  test("a short step: only its end line, with the count it reached", () => {
    const h = harness({ tty: false });
    const phase = h.progress.phase("artists, artworks, lots", 60_000);
    for (let s = 1; s <= 9; s++) {
      h.at(s);
      phase.tick(s * 6000);
    }
    h.at(9.5);
    phase.tick(60_000);
    phase.end();
    expect(h.out).toEqual(["seed: artists, artworks, lots 60,000 in 9.5s\n"]);
  });

  test("a long step: a progress line at most every 10 s, then its end line", () => {
    const h = harness({ tty: false });
    h.at(100);
    const phase = h.progress.phase("embed images", 24_000);
    // 200 images a second from the start of the step, a report every second
    for (let s = 1; s <= 35; s++) {
      h.at(100 + s);
      phase.tick(200 * s);
    }
    h.at(136.25);
    phase.tick(24_000);
    phase.end();
    expect(h.out).toEqual([
      // at 10 s: 2,000 done, 200/s over the 9 s since the first report, 22,000 left: 110 s
      "seed: embed images 2,000/24,000  200/s  ETA 1m50s (8 %) after 10s\n",
      "seed: embed images 4,000/24,000  200/s  ETA 1m40s (17 %) after 20s\n",
      "seed: embed images 6,000/24,000  200/s  ETA 1m30s (25 %) after 30s\n",
      "seed: embed images 24,000 in 36.3s\n",
    ]);
  });

  test("a long step without a total: counts and rate, no time left", () => {
    const h = harness({ tty: false });
    const phase = h.progress.phase("lots");
    h.at(1);
    phase.tick(1000);
    h.at(12);
    phase.tick(56_000);
    phase.end();
    expect(h.out).toEqual(["seed: lots 56,000  5,000/s after 12s\n", "seed: lots 56,000 in 12.0s\n"]);
  });

  test("a record file: counts in MiB", () => {
    const h = harness({ tty: false });
    const phase = h.progress.phase("lots.jsonl", 100 * 2 ** 20, { unit: "bytes" });
    h.at(1);
    phase.tick(2 ** 20);
    h.at(11);
    phase.tick(41 * 2 ** 20);
    h.at(20);
    phase.tick(100 * 2 ** 20);
    phase.end();
    expect(h.out).toEqual(["seed: lots.jsonl 41.0 MiB/100.0 MiB  4.0 MiB/s  ETA 15s (41 %) after 11s\n", "seed: lots.jsonl 100.0 MiB in 20.0s\n"]);
  });

  test("quiet: nothing", () => {
    const h = harness({ tty: false, quiet: true });
    const phase = h.progress.phase("embed images", 10);
    h.at(30);
    phase.tick(5);
    phase.end();
    expect(h.out).toEqual([]);
  });

  test("elapsed: seconds since the job began", () => {
    const h = harness({ tty: false });
    h.at(12.5);
    expect(h.progress.elapsed()).toBe(12.5);
  });
});

describe("on a terminal", () => {
  test("one line redrawn in place: bar, done/total, rate and time left; the count and seconds at the end", () => {
    const h = harness({ tty: true });
    const phase = h.progress.phase("embed images", 1000);
    h.at(0.5);
    phase.tick(10);
    h.at(0.55);
    phase.tick(20); // under 100 ms since the last draw: not drawn
    h.at(2.5);
    phase.tick(510);
    h.at(2.52);
    phase.tick(1000); // the last is always drawn
    phase.end();
    expect(h.out).toEqual([
      "\r\x1b[Kseed: embed images [..............................]   0% 0/1,000  ETA --",
      "\r\x1b[Kseed: embed images [..............................]   1% 10/1,000  ETA --",
      // 500 in the 2 s since the first report: 250/s, 490 left
      "\r\x1b[Kseed: embed images [###############...............]  51% 510/1,000  250/s  ETA 2s",
      "\r\x1b[Kseed: embed images [##############################] 100% 1,000/1,000  490/s  ETA 0s",
      "\r\x1b[Kseed: embed images 1,000 in 2.5s\n",
    ]);
  });

  test("the rate follows the last 20 s: a burst at the start (work done before the step) fades out", () => {
    const h = harness({ tty: true });
    const phase = h.progress.phase("embed images", 30_000);
    h.at(0);
    phase.tick(0);
    h.at(0.5);
    phase.tick(12_000); // the batches finished while the step waited
    for (let s = 1; s <= 40; s++) {
      h.at(s);
      phase.tick(12_000 + 100 * s);
    }
    const last = h.out[h.out.length - 1]!;
    // 16,000 done at 40 s; over the last 20 s 100/s, so 14,000 left take 140 s
    expect(last).toBe("\r\x1b[Kseed: embed images [################..............]  53% 16,000/30,000  100/s  ETA 2m20s");
  });

  test("a step that learns its total once under way", () => {
    const h = harness({ tty: true });
    const phase = h.progress.phase("indexes");
    h.at(1);
    phase.tick(1, 4);
    phase.end();
    expect(h.out).toEqual(["\r\x1b[Kseed: indexes", "\r\x1b[Kseed: indexes [########......................]  25% 1/4  ETA --", "\r\x1b[Kseed: indexes 1 in 1.0s\n"]);
  });
});

describe("rate and time left", () => {
  test("the rate between two reports, and the rest at that rate", () => {
    expect(estimate({ at: 0, done: 0 }, { at: 2000, done: 500 }, 1000)).toEqual({ rate: 250, secondsLeft: 2 });
    expect(estimate({ at: 10_000, done: 4000 }, { at: 14_000, done: 5000 }, 25_000)).toEqual({ rate: 250, secondsLeft: 80 });
    expect(estimate({ at: 0, done: 0 }, { at: 3000, done: 1000 }, 1000)).toEqual({ rate: 1000 / 3, secondsLeft: 0 });
  });

  test("unknown under a second apart, without progress, and (the time left) without a total", () => {
    expect(estimate({ at: 0, done: 0 }, { at: 999, done: 500 }, 1000)).toEqual({ rate: null, secondsLeft: null });
    expect(estimate({ at: 0, done: 500 }, { at: 5000, done: 500 }, 1000)).toEqual({ rate: null, secondsLeft: null });
    expect(estimate({ at: 0, done: 0 }, { at: 2000, done: 500 })).toEqual({ rate: 250, secondsLeft: null });
  });

  test("durations", () => {
    expect([0, 4.4, 59.4, 60, 185, 3599, 3600, 3725].map(formatDuration)).toEqual(["0s", "4s", "59s", "1m00s", "3m05s", "59m59s", "1h00m", "1h02m"]);
  });
});
