/**
 * Streaming readers for the import files: a file is read chunk by chunk from
 * `Bun.file(path).stream()` and handed on a record at a time, so memory holds one chunk and the
 * record being parsed, never the file.
 */

/** One record as read: its first line number (1-based) and its text or its CSV fields. */
export type Handler<T> = (record: T, line: number) => void | Promise<void>;

/** Bytes read so far (for progress). */
export type OnBytes = (bytes: number) => void;

/**
 * Calls `onLine` with every non-blank line of a UTF-8 text file (LF or CRLF; a BOM is dropped).
 * The handler may return a promise: reading waits for it.
 */
export async function forEachLine(path: string, onLine: Handler<string>, onBytes?: OnBytes): Promise<void> {
  const decoder = new TextDecoder("utf-8");
  let rest = "";
  let line = 0;
  let bytes = 0;
  let first = true;
  const emit = (text: string): void | Promise<void> => {
    line++;
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    return onLine(text, line);
  };
  for await (const chunk of Bun.file(path).stream()) {
    bytes += chunk.byteLength;
    const text = rest + decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      const r = emit(text.slice(start, nl));
      // a promise only when the handler returns one: the fast path awaits nothing
      if (r) await r;
      start = nl + 1;
    }
    rest = text.slice(start);
    onBytes?.(bytes);
  }
  rest += decoder.decode();
  if (rest.length) {
    const r = emit(rest);
    if (r) await r;
  }
}

export interface CsvRecord {
  fields: string[];
  /** Set when the record is malformed (e.g. a quote never closed). */
  error?: string;
}

/**
 * Calls `onRecord` with every record of an RFC 4180 CSV file: fields separated by commas, a field
 * in double quotes may hold commas, line breaks and doubled quotes. Blank lines are skipped; the
 * line number is the line the record starts on.
 */
export async function forEachCsvRecord(path: string, onRecord: Handler<CsvRecord>, onBytes?: OnBytes): Promise<void> {
  const decoder = new TextDecoder("utf-8");
  let fields: string[] = [];
  let field = "";
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // the current field was quoted (its text is final)
  let pendingQuote = false; // a quote inside a quoted field: the end, or the first of a doubled pair
  let line = 1;
  let recordLine = 1;
  let bytes = 0;
  let first = true;
  let empty = true; // nothing read for the current record yet

  const endRecord = (error?: string): void | Promise<void> => {
    fields.push(field);
    const blank = empty && fields.length === 1 && fields[0] === "";
    const rec: CsvRecord = error ? { fields, error } : { fields };
    fields = [];
    field = "";
    wasQuoted = false;
    empty = true;
    if (!blank) return onRecord(rec, recordLine);
  };

  for await (const chunk of Bun.file(path).stream()) {
    bytes += chunk.byteLength;
    let text = decoder.decode(chunk, { stream: true });
    if (first && text.length) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (quoted) {
        if (pendingQuote) {
          pendingQuote = false;
          if (text.charCodeAt(i) === 34) {
            field += '"';
            i++;
            continue;
          }
          quoted = false;
          continue; // re-read this character outside the quotes
        }
        const q = text.indexOf('"', i);
        if (q < 0) {
          const part = text.slice(i);
          for (let k = 0; k < part.length; k++) if (part.charCodeAt(k) === 10) line++;
          field += part;
          i = n;
          break;
        }
        const part = text.slice(i, q);
        for (let k = 0; k < part.length; k++) if (part.charCodeAt(k) === 10) line++;
        field += part;
        pendingQuote = true;
        i = q + 1;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 44) {
        // ,
        fields.push(field);
        field = "";
        wasQuoted = false;
        empty = false;
        i++;
      } else if (c === 10) {
        // \n (a \r before it was dropped below)
        line++;
        i++;
        const r = endRecord();
        recordLine = line;
        if (r) await r;
      } else if (c === 13) {
        i++;
      } else if (c === 34 && field === "" && !wasQuoted) {
        quoted = true;
        wasQuoted = true;
        empty = false;
        i++;
      } else {
        // plain run up to the next special character
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === 44 || d === 10 || d === 13) break;
          j++;
        }
        field += text.slice(i, j);
        empty = false;
        i = j;
      }
    }
    onBytes?.(bytes);
  }
  const tail = decoder.decode();
  if (tail.length) field += tail;
  let r: void | Promise<void> = undefined;
  if (quoted && !pendingQuote) r = endRecord("a quoted field is never closed");
  else if (!empty || field !== "" || fields.length > 0) r = endRecord();
  if (r) await r;
}
