/**
 * The materials filter resolved once per request. Its values match the medium text as whole words
 * (fields.ts: MEDIUM_WORDS_SQL LIKE materialPattern), which as SQL costs one LIKE per value per
 * row: 1,000 values over the small market's 24,458 works took 33-95 s on one worker. A market
 * has few distinct media (35 on the small market), so the values are matched here against each
 * distinct medium (the snapshot's list, read once), and the list filters on the media that
 * matched: `a.medium IN (…)`, one look-up per row whatever the number of values.
 */
import type { Database } from "bun:sqlite";
import type { Filter, ParsedList } from "../../query/grammar";
import { checkQueryBudget } from "../../query/budget";
import { snapshotOf } from "../../snapshot";

/** The most distinct media kept in memory per connection; a market with more reads them once per request. */
export const MEDIA_CACHE_MAX = 100_000;

/** The internal filter a resolved materials filter becomes (never a query parameter): the matching media, exactly. */
export const MEDIUM_FIELD = "medium";

/** ASCII letters lowered, as SQLite's lower() and LIKE fold case (no other letter). */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** A medium as the filter reads it: MEDIUM_WORDS_SQL (lowered, commas as spaces, a space each side). */
export function mediumWords(medium: string): string {
  return ` ${asciiLower(medium).replaceAll(",", " ")} `;
}

/** The words a materials value matches (materialPattern without its wildcards). */
export function materialPhrase(value: string): string {
  return value.toLowerCase().replace(/_/g, " ").trim().split(/\s+/).join(" ");
}

/**
 * The media that any of `values` matches (as `MEDIUM_WORDS_SQL LIKE materialPattern(value)`
 * would): a value is tried only on the media that hold its first word, so the cost is about the
 * media's words, not media × values. `check` runs every 1,024 media (the time budget).
 */
export function matchMedia(media: Iterable<string>, values: readonly string[], check: () => void = () => {}): string[] {
  // " phrase " by the phrase's first word: a match starts after a space, and that word ends at one
  const byFirst = new Map<string, string[]>();
  for (const value of values) {
    const phrase = materialPhrase(value);
    const first = phrase.split(" ")[0]!;
    let needles = byFirst.get(first);
    if (!needles) byFirst.set(first, (needles = []));
    needles.push(` ${phrase} `);
  }
  const matched: string[] = [];
  let n = 0;
  for (const medium of media) {
    if (++n % 1024 === 0) check();
    const words = mediumWords(medium);
    for (const word of new Set(words.split(" "))) {
      if (byFirst.get(word)?.some((needle) => words.includes(needle))) {
        matched.push(medium);
        break;
      }
    }
  }
  return matched;
}

/**
 * `q` with its materials filters (`materials`, `materials__in`) replaced by the media they match
 * (MEDIUM_FIELD, exact values: fields.ts writes `a.medium IN (…)`); several materials filters
 * each keep their own list (they combine with AND).
 */
export function resolveMaterials(db: Database, q: ParsedList): ParsedList {
  if (!q.filters.some((f) => f.field === "materials")) return q;
  const cached = snapshotOf(db).distinctMedia(MEDIA_CACHE_MAX);
  const filters = q.filters.map((f): Filter => {
    if (f.field !== "materials") return f;
    const values = f.suffix === "__in" ? (f.value as string[]) : [f.value as string];
    const texts = cached ?? mediaOf(db);
    return { field: MEDIUM_FIELD, suffix: "__in", value: matchMedia(texts, values, checkQueryBudget) };
  });
  return { ...q, filters };
}

/** The distinct media read as they come (a market with more than MEDIA_CACHE_MAX of them). */
function* mediaOf(db: Database): Generator<string> {
  for (const r of db.query<{ medium: string }, []>("SELECT DISTINCT medium FROM artworks").iterate()) yield r.medium;
}
