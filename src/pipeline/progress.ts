/**
 * Progress for long jobs (seed, import, export).
 *
 * On a terminal (stderr a TTY) each step is one line redrawn in place: a bar, done/total, the
 * rate and the time left, then the step's count and seconds when it ends. Otherwise (a log, CI)
 * each step writes one line when it ends (name, count, seconds), and a step that reports its
 * progress writes a line at most every 10 s while it runs (done/total, rate, time left), so a log
 * shows life. The caller prints its summary at the end.
 *
 * The clock and the writer can be injected (tests/unit/progress.test.ts).
 */

export interface ProgressOptions {
  /** Write nothing. */
  quiet?: boolean;
  /** Redraw in place (default: whether stderr is a terminal). */
  tty?: boolean;
  /** Milliseconds on a monotonic clock (default performance.now). */
  now?: () => number;
  /** Where the text goes (default stderr). */
  write?: (text: string) => void;
  /** Not on a terminal: the least time between two progress lines of one step (default 10 s). */
  logEveryMs?: number;
}

export interface PhaseOptions {
  /** What the counts are: "bytes" shows them in MiB (an import's record files). */
  unit?: "items" | "bytes";
}

export interface PhaseProgress {
  /** `done` so far (of `total`, where the step learns it only once under way). */
  tick(done: number, total?: number): void;
  end(): void;
}

/** The least time between two redraws on a terminal. */
const DRAW_EVERY_MS = 100;
/** The rate needs this much time between its two reports before the time left is shown. */
const MIN_RATE_MS = 1000;
/**
 * The rate is measured over about the last 20 s of reports (from the step's first report while it
 * is younger): a step that begins with a burst of work done before it (the embedding, whose
 * workers run beside the derivation) or changes pace settles to its present rate.
 */
const RATE_WINDOW_MS = 20_000;
/** Reports kept for the rate: at most one per quarter second. */
const SAMPLE_EVERY_MS = 250;
const BAR_WIDTH = 30;

export class Progress {
  private readonly quiet: boolean;
  private readonly tty: boolean;
  private readonly now: () => number;
  private readonly write: (text: string) => void;
  private readonly logEveryMs: number;
  private readonly started: number;

  constructor(
    private readonly title: string,
    options: boolean | ProgressOptions = false,
  ) {
    const o: ProgressOptions = typeof options === "boolean" ? { quiet: options } : options;
    this.quiet = o.quiet ?? false;
    this.tty = o.tty ?? Boolean(process.stderr.isTTY);
    this.now = o.now ?? (() => performance.now());
    this.write = o.write ?? ((text) => void process.stderr.write(text));
    this.logEveryMs = o.logEveryMs ?? 10_000;
    this.started = this.now();
  }

  phase(name: string, total?: number, options: PhaseOptions = {}): PhaseProgress {
    const bytes = options.unit === "bytes";
    const started = this.now();
    /** Reports of the last RATE_WINDOW_MS, and the last one before (the rate is measured from the oldest). */
    const samples: Sample[] = [];
    let done: number | null = null;
    let lastDraw = Number.NEGATIVE_INFINITY;
    let lastLog = started;
    let ended = false;
    const count = (n: number) => (bytes ? `${(n / 2 ** 20).toFixed(1)} MiB` : n.toLocaleString("en-US"));
    const counts = (n: number) => (total ? `${count(n)}/${count(total)}` : count(n));
    const rateText = (r: number) => (bytes ? `${(r / 2 ** 20).toFixed(1)} MiB/s` : `${formatRate(r)}/s`);
    const status = (at: number): string => {
      const est = samples.length > 0 ? estimate(samples[0]!, { at, done: done! }, total) : null;
      const parts = done === null ? (total ? [counts(0)] : []) : [counts(done)];
      if (est?.rate != null) parts.push(rateText(est.rate));
      if (total) parts.push(est?.secondsLeft != null ? `ETA ${formatDuration(est.secondsLeft)}` : "ETA --");
      return parts.join("  ");
    };
    const draw = (at: number) => {
      const frac = total ? Math.min(1, (done ?? 0) / total) : null;
      const bar = frac === null ? "" : `[${"#".repeat(Math.round(frac * BAR_WIDTH)).padEnd(BAR_WIDTH, ".")}] ${(frac * 100).toFixed(0).padStart(3)}% `;
      this.write(`\r\x1b[K${this.title}: ${name} ${bar}${status(at)}`.trimEnd());
      lastDraw = at;
    };
    if (!this.quiet && this.tty) draw(started);
    return {
      tick: (n: number, of?: number) => {
        if (this.quiet || ended) return;
        if (of !== undefined) total = of;
        const at = this.now();
        done = n;
        if (samples.length === 0 || at - samples[samples.length - 1]!.at >= SAMPLE_EVERY_MS) samples.push({ at, done: n });
        while (samples.length > 1 && at - samples[1]!.at >= RATE_WINDOW_MS) samples.shift();
        if (this.tty) {
          if (at - lastDraw >= DRAW_EVERY_MS || n === total) draw(at);
        } else if (at - lastLog >= this.logEveryMs) {
          const pct = total ? ` (${Math.min(100, (n / total) * 100).toFixed(0)} %)` : "";
          this.write(`${this.title}: ${name} ${status(at)}${pct} after ${formatDuration((at - started) / 1000)}\n`);
          lastLog = at;
        }
      },
      end: () => {
        if (this.quiet || ended) return;
        ended = true;
        const seconds = ((this.now() - started) / 1000).toFixed(1);
        const line = `${this.title}: ${name}${done === null ? "" : ` ${count(done)}`} in ${seconds}s`;
        this.write(this.tty ? `\r\x1b[K${line}\n` : `${line}\n`);
      },
    };
  }

  /** Total time since the job started, in seconds. */
  elapsed(): number {
    return (this.now() - this.started) / 1000;
  }
}

/** A report of a step: `done` at `at` (milliseconds). */
export interface Sample {
  at: number;
  done: number;
}

/**
 * The rate of a step between two reports (per second) and the seconds left at that rate: null
 * where they cannot be known (under a second apart, nothing done in between; no total, for the
 * time left).
 */
export function estimate(from: Sample, to: Sample, total?: number): { rate: number | null; secondsLeft: number | null } {
  const ms = to.at - from.at;
  const gained = to.done - from.done;
  if (ms < MIN_RATE_MS || gained <= 0) return { rate: null, secondsLeft: null };
  const rate = (gained * 1000) / ms;
  if (!total) return { rate, secondsLeft: null };
  return { rate, secondsLeft: Math.max(0, total - to.done) / rate };
}

/** 42s, 3m05s, 1h02m. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** A rate with two significant figures at most below 100 (0.53, 7.4, 215, 12,400). */
function formatRate(r: number): string {
  if (r >= 100) return Math.round(r).toLocaleString("en-US");
  if (r >= 10) return r.toFixed(0);
  return r >= 1 ? r.toFixed(1) : r.toFixed(2);
}
