/**
 * The access log: one line per answered request on stderr, JSON (the default) or text
 * (`--log-format`). A worker gathers its lines during an event-loop turn and hands them over at
 * its end (`sink`): the supervisor is stderr's one writer, so the lines of several workers never
 * interleave inside a line, and a slow reader of stderr never blocks a worker.
 */

export type LogFormat = "json" | "text";

export interface AccessRecord {
  time: number;
  id: string;
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
  du: number;
  keyId: number | null;
  /** The response body's bytes as sent (its Content-Length, or measured); null when unknown. */
  bytes: number | null;
  /** The client's address: the peer's, or with --trust-proxy the first of X-Forwarded-For. */
  client: string;
  worker: number;
}

export function formatAccess(r: AccessRecord, format: LogFormat): string {
  const time = new Date(r.time).toISOString();
  const ms = Math.round(r.durationMs * 1000) / 1000;
  if (format === "text") {
    return `${time} ${r.status} ${r.method} ${r.path} ${ms}ms route=${r.route} du=${r.du} key=${r.keyId ?? "-"} bytes=${r.bytes ?? "-"} client=${r.client} id=${r.id} worker=${r.worker}`;
  }
  return JSON.stringify({
    time,
    request_id: r.id,
    method: r.method,
    route: r.route,
    path: r.path,
    status: r.status,
    duration_ms: ms,
    du: r.du,
    key_id: r.keyId,
    bytes: r.bytes,
    client: r.client,
    worker: r.worker,
  });
}

export class AccessLog {
  private lines: string[] = [];
  private scheduled = false;

  constructor(
    readonly format: LogFormat,
    /** Where a turn's lines go (the supervisor's stderr). */
    private readonly sink: (text: string) => void,
  ) {}

  write(record: AccessRecord): void {
    // a path longer than 1 KiB is cut (the line stays short)
    this.lines.push(`${formatAccess(record.path.length > 1024 ? { ...record, path: `${record.path.slice(0, 1024)}…` } : record, this.format)}\n`);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Hands the gathered lines over. */
  flush(): void {
    this.scheduled = false;
    if (this.lines.length === 0) return;
    const text = this.lines.join("");
    this.lines = [];
    this.sink(text);
  }
}
