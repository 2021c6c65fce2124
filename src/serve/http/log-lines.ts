/**
 * The server's own messages (start-up, stop, worker trouble, a first start's seed progress, an
 * error a handler logs) on the log stream. With `--log-format json` every line on stderr is one
 * JSON object, the access log's lines and these alike: `{"time","level","msg"}`. A writer that
 * prints plain text (console.error, process.stderr.write, a progress bar redrawn with `\r`) is
 * turned into such lines: each finished line becomes one object, a redrawn line keeps its last
 * state, terminal escapes are dropped. A line that is already a JSON object passes as it is.
 */

export type LogLevel = "info" | "warn" | "error";

/** One JSON log line (with its newline). */
export function jsonLogLine(level: LogLevel, msg: string, fields: Record<string, unknown> = {}, time = Date.now()): string {
  return `${JSON.stringify({ time: new Date(time).toISOString(), level, msg, ...fields })}\n`;
}

const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]/g;

/**
 * A writer that hands on whole lines as JSON objects. Text without a newline waits for the rest
 * of its line (`flush` hands it on as it is); of a line redrawn with `\r`, the last drawing counts.
 */
export class JsonLines {
  private partial = "";

  constructor(
    private readonly out: (text: string) => void,
    private readonly level: LogLevel = "info",
  ) {}

  write(text: string): void {
    const lines = (this.partial + text).split("\n");
    this.partial = lastDrawing(lines.pop()!);
    let ready = "";
    for (const raw of lines) ready += toJsonLine(raw, this.level);
    if (ready) this.out(ready);
  }

  flush(): void {
    if (this.partial === "") return;
    const rest = this.partial;
    this.partial = "";
    this.out(toJsonLine(rest, this.level));
  }
}

/** What a line redrawn in place shows last, without terminal escapes. */
function lastDrawing(line: string): string {
  const cr = line.lastIndexOf("\r");
  return (cr < 0 ? line : line.slice(cr + 1)).replace(ESCAPES, "");
}

function toJsonLine(raw: string, level: LogLevel): string {
  const line = lastDrawing(raw).trimEnd();
  if (line === "") return "";
  if (line.startsWith("{") && line.endsWith("}")) {
    try {
      if (typeof JSON.parse(line) === "object") return `${line}\n`;
    } catch {
      // not JSON after all: wrapped below
    }
  }
  return jsonLogLine(level, line);
}

/** Formats console arguments as console.log does (strings as they are, the rest inspected). */
function consoleText(args: unknown[]): string {
  return args.map((a) => (typeof a === "string" ? a : a instanceof Error ? (a.stack ?? a.message) : Bun.inspect(a))).join(" ");
}

/**
 * Makes this thread's console (log, info, debug, warn, error) write one JSON line per call, a
 * message of several lines (a stack trace) in one object, through `out`.
 */
export function jsonConsole(out: (text: string) => void): void {
  const to =
    (level: LogLevel) =>
    (...args: unknown[]) =>
      out(jsonLogLine(level, consoleText(args).trimEnd()));
  console.log = to("info");
  console.info = to("info");
  console.debug = to("info");
  console.warn = to("warn");
  console.error = to("error");
}

/**
 * The main thread's stderr as a JSON log stream: every write of plain text becomes JSON lines,
 * and the console writes JSON lines there too. Returns the unwrapped writer, for text that is
 * JSON lines already (the access log) and needs no second look.
 */
export function jsonStderr(): (text: string) => void {
  const stderr = process.stderr;
  const original = stderr.write.bind(stderr) as (chunk: string | Uint8Array) => boolean;
  const raw = (text: string) => void original(text);
  const lines = new JsonLines(raw);
  stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.write(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk));
    const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof stderr.write;
  jsonConsole(raw);
  return raw;
}
