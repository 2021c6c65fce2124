/**
 * Unknown query parameters. An endpoint's query parameters are exactly those of its grammar
 * (`parameterNames`: the filters with their suffixes, the declared params, `sort`, `limit`,
 * `offset`); an endpoint without a grammar takes none. Anything else is refused (422
 * `extra_forbidden` at ["query", name], the nearest known name suggested) before the handler runs,
 * so a typo never costs DU nor silently changes the answer (docs/decisions.md, Errors).
 */
import { issue, type ValidationIssue } from "../http/errors";
import { type ListSpec, parameterNames } from "./grammar";

/** The names an endpoint's query string may carry (none without a grammar). */
export function knownParameters(spec: ListSpec | undefined): ReadonlySet<string> {
  return new Set(spec ? parameterNames(spec) : []);
}

/** The edit distance suggestions are made within (a name of 3 characters or fewer: 1). */
const MAX_DISTANCE = 2;

/**
 * Damerau–Levenshtein distance (optimal string alignment: insertions, deletions, substitutions and
 * transpositions of two adjacent characters), or `limit + 1` as soon as it must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let prevBest = 0;
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < best) best = d;
    }
    // every later cell builds on this row or the one before (a transposition): past the limit for good
    if (best > limit && prevBest > limit) return limit + 1;
    prevBest = best;
    prev2 = prev;
    prev = row;
  }
  return Math.min(prev[b.length]!, limit + 1);
}

/**
 * The known name `name` most likely meant, or null: the nearest by edit distance, case aside (at
 * most 2, 1 for names of up to 3 characters, never all of the name: `x` is not `q`); else the longest known name that `name` extends
 * after a separator (`sort_by` → `sort`) or that extends `name` (at least 3 characters: `pref` →
 * `preferred_currency`), when only one does. Ties go to the name first in alphabetical order.
 */
export function nearestName(name: string, known: Iterable<string>): string | null {
  const lower = name.toLowerCase();
  const limit = lower.length <= 3 ? 1 : MAX_DISTANCE;
  const sorted = [...known].sort();
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const k of sorted) {
    const d = editDistance(lower, k.toLowerCase(), limit);
    if (d < bestDistance && d < lower.length) {
      best = k;
      bestDistance = d;
    }
  }
  if (best !== null) return best;
  const extended = sorted.filter((k) => lower.startsWith(k.toLowerCase()) && /^[_\-.[]/.test(lower.slice(k.length)));
  if (extended.length) return extended.reduce((a, b) => (b.length > a.length ? b : a));
  if (lower.length >= 3) {
    const extending = sorted.filter((k) => k.toLowerCase().startsWith(lower));
    if (extending.length === 1) return extending[0]!;
  }
  return null;
}

/** One issue per query parameter that is not in `known`, in the order they were sent. */
export function unknownParameters(known: ReadonlySet<string>, query: URLSearchParams): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const name of query.keys()) {
    if (known.has(name) || seen.has(name)) continue;
    seen.add(name);
    const values = query.getAll(name);
    const suggestion = known.size ? nearestName(name, known) : null;
    const why = known.size === 0 ? "this endpoint takes no query parameters" : suggestion !== null ? `did you mean '${suggestion}'?` : "not a parameter of this endpoint";
    issues.push(
      issue.custom(
        ["query", name],
        values.length === 1 ? values[0] : values,
        `Extra inputs are not permitted: unknown query parameter '${name}'; ${why}`,
        "extra_forbidden",
        suggestion !== null ? { suggestion } : {},
      ),
    );
  }
  return issues;
}
