/**
 * Progress for long jobs: a bar redrawn in place when stderr is a terminal, a line per phase
 * otherwise (so logs and CI stay readable), and a summary at the end.
 */
export class Progress {
  private readonly tty = Boolean(process.stderr.isTTY);
  private readonly started = performance.now();
  private phaseStarted = performance.now();
  private lastDraw = 0;

  constructor(
    private readonly title: string,
    private readonly quiet = false,
  ) {}

  phase(name: string, total?: number): PhaseProgress {
    this.phaseStarted = performance.now();
    if (!this.quiet && !this.tty) process.stderr.write(`${this.title}: ${name}${total ? ` (${total.toLocaleString("en-US")})` : ""}\n`);
    return {
      tick: (done: number) => this.draw(name, done, total),
      end: () => {
        if (!this.quiet && this.tty) {
          process.stderr.write(`\r\x1b[K${this.title}: ${name} done in ${this.seconds(this.phaseStarted)}s\n`);
        }
      },
    };
  }

  private seconds(since: number): string {
    return ((performance.now() - since) / 1000).toFixed(1);
  }

  private draw(name: string, done: number, total?: number): void {
    if (this.quiet || !this.tty) return;
    const now = performance.now();
    if (now - this.lastDraw < 100 && done !== total) return;
    this.lastDraw = now;
    const width = 30;
    const frac = total ? Math.min(1, done / total) : 0;
    const bar = total ? `[${"#".repeat(Math.round(frac * width)).padEnd(width, ".")}] ${(frac * 100).toFixed(0).padStart(3)}%` : "";
    process.stderr.write(`\r\x1b[K${this.title}: ${name} ${bar} ${done.toLocaleString("en-US")}${total ? `/${total.toLocaleString("en-US")}` : ""}`);
  }

  /** Total time since the job started, in seconds. */
  elapsed(): number {
    return (performance.now() - this.started) / 1000;
  }
}

export interface PhaseProgress {
  tick(done: number): void;
  end(): void;
}
