/** SQL text helpers shared by the queries. */

/** `s` with LIKE's wildcards (% and _) and the escape character (\) escaped, for `LIKE ? ESCAPE '\'`. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching `s` as a plain substring anywhere in the text, for `LIKE ? ESCAPE '\'`. */
export function containsPattern(s: string): string {
  return `%${likeEscape(s)}%`;
}

/** `n` placeholders, comma-separated: `?, ?, ?`. */
export function marks(n: number): string {
  return Array.from({ length: n }, () => "?").join(", ");
}

/** The VALUES list of a multi-row INSERT: `rows` groups of `width` placeholders, `(?, ?), (?, ?)`. */
export function valueRows(rows: number, width: number): string {
  const row = `(${marks(width)})`;
  return Array.from({ length: rows }, () => row).join(", ");
}
