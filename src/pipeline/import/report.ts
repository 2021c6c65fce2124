/**
 * The report of rejected records, `<data>/import-report-<timestamp>.jsonl`: one line per record
 * (file, line, reason, the record), the file made on the first.
 */
import type { FileSink } from "bun";
import { existsSync } from "node:fs";
import { join } from "node:path";

export class Report {
  path: string | null = null;
  private sink: FileSink | null = null;
  count = 0;
  constructor(private readonly dataDir: string) {}

  add(file: string, line: number, reason: string, row: unknown): void {
    if (!this.sink) {
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      let path = join(this.dataDir, `import-report-${stamp}.jsonl`);
      for (let k = 2; existsSync(path); k++) path = join(this.dataDir, `import-report-${stamp}-${k}.jsonl`);
      this.path = path;
      this.sink = Bun.file(path).writer();
    }
    this.count++;
    this.sink.write(`${JSON.stringify({ file, line, reason, row })}\n`);
  }

  async close(): Promise<void> {
    if (this.sink) await this.sink.end();
    this.sink = null;
  }
}
