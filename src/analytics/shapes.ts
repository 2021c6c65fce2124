/**
 * The spec's "other analytics shapes": sales volume by outcome and year, lot outcome against the
 * estimate, career path by medium and creation year. Pure, no I/O, imports nothing of the project.
 * docs/formulas.md, "Analytics shapes".
 */

export type LotOutcome = "above" | "within" | "below" | "not_sold";

/**
 * Outcome of a lot against its hammer estimate:
 * - status "passed" → "not_sold";
 * - status "sold" → "above" when hammer > estMax, "below" when hammer < estMin, else "within"
 *   (bounds inclusive). A missing bound takes the other one's value (a point estimate); the
 *   bounds are swapped when estMin > estMax. null when the hammer or both bounds are missing;
 * - any other status (upcoming, withdrawn, unknown) → null: not counted.
 * Hammer and estimates must be in the same currency (both native or both USD).
 */
export function lotOutcome(status: string, hammer: number | null, estMin: number | null, estMax: number | null): LotOutcome | null {
  if (status === "passed") return "not_sold";
  if (status !== "sold") return null;
  if (hammer === null || !Number.isFinite(hammer)) return null;
  let lo = estMin !== null && Number.isFinite(estMin) ? estMin : null;
  let hi = estMax !== null && Number.isFinite(estMax) ? estMax : null;
  if (lo === null && hi === null) return null;
  if (lo === null) lo = hi;
  if (hi === null) hi = lo;
  if ((lo as number) > (hi as number)) [lo, hi] = [hi, lo];
  if (hammer > (hi as number)) return "above";
  if (hammer < (lo as number)) return "below";
  return "within";
}

export interface SalesVolumeItem {
  category_id: number | null;
  /** "YYYY-01-01", one per year, ascending, contiguous. */
  dates: string[];
  lots_above_estimate: number[];
  lots_within_estimate: number[];
  lots_below_estimate: number[];
  lots_not_sold: number[];
}

/**
 * Yearly lot counts per outcome. Years run contiguously from the earliest to the latest lot year
 * (empty years are zeros), and every item carries that same dates array. The overall item
 * (category_id null) comes first and counts every lot; then one item per category id, ascending.
 * Lots with a null category or an unknown outcome count only in the overall item / not at all.
 * No lots → just the overall item with empty arrays.
 */
export function salesVolume(lots: readonly { date: string; categoryId: number | null; outcome: LotOutcome | null }[]): SalesVolumeItem[] {
  let y0 = Infinity;
  let y1 = -Infinity;
  const years = new Int32Array(lots.length);
  for (let i = 0; i < lots.length; i++) {
    const y = yearOf(lots[i]!.date);
    years[i] = y;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  const n = lots.length === 0 ? 0 : y1 - y0 + 1;
  const dates: string[] = [];
  for (let y = 0; y < n; y++) dates.push(`${String(y0 + y).padStart(4, "0")}-01-01`);
  // counts: [above, within, below, not_sold] × n years per key
  const overall = new Float64Array(4 * n);
  const byCat = new Map<number, Float64Array>();
  for (let i = 0; i < lots.length; i++) {
    const l = lots[i]!;
    const o = OUTCOME_SLOT[l.outcome as LotOutcome];
    if (o === undefined) continue;
    const at = o * n + (years[i]! - y0);
    overall[at]!++;
    if (l.categoryId !== null && l.categoryId !== undefined) {
      let c = byCat.get(l.categoryId);
      if (!c) byCat.set(l.categoryId, (c = new Float64Array(4 * n)));
      c[at]!++;
    }
  }
  const item = (category_id: number | null, c: Float64Array): SalesVolumeItem => ({
    category_id,
    dates: dates.slice(),
    lots_above_estimate: Array.from(c.subarray(0, n)),
    lots_within_estimate: Array.from(c.subarray(n, 2 * n)),
    lots_below_estimate: Array.from(c.subarray(2 * n, 3 * n)),
    lots_not_sold: Array.from(c.subarray(3 * n, 4 * n)),
  });
  const out = [item(null, overall)];
  for (const id of [...byCat.keys()].sort((a, b) => a - b)) out.push(item(id, byCat.get(id)!));
  return out;
}

const OUTCOME_SLOT: Record<LotOutcome, number> = { above: 0, within: 1, below: 2, not_sold: 3 };

function yearOf(date: string): number {
  const y = Number(date.slice(0, 4));
  if (!Number.isInteger(y) || date.charCodeAt(4) !== 45) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return y;
}

export interface CareerPathItem {
  medium: string;
  points: { year: number; value: number }[];
}

/**
 * Artworks per medium and creation year (weighted = false), or the sum of valueUsd (weighted =
 * true; artworks with a null / non-finite / negative value add nothing there). Artworks with no
 * creation year, or created before `birth` or after `death` when those are known, are left out.
 * Every medium gets the same contiguous years, from the earliest to the latest year kept over
 * all media, with zeros where it has none. Media are ordered by their total, descending, then
 * by name. No artwork kept → [].
 */
export function careerPath(
  artworks: readonly { creationYear: number | null; medium: string; valueUsd: number | null }[],
  birth: number | null,
  death: number | null,
  weighted: boolean,
): CareerPathItem[] {
  const lo = birth ?? -Infinity;
  const hi = death ?? Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  const kept: number[] = [];
  for (let i = 0; i < artworks.length; i++) {
    const y = artworks[i]!.creationYear;
    if (y === null || !Number.isFinite(y) || y < lo || y > hi) continue;
    kept.push(i);
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (kept.length === 0) return [];
  y0 = Math.floor(y0);
  y1 = Math.floor(y1);
  const n = y1 - y0 + 1;
  const byMedium = new Map<string, Float64Array>();
  const totals = new Map<string, number>();
  for (const i of kept) {
    const a = artworks[i]!;
    let add = 1;
    if (weighted) {
      const v = a.valueUsd;
      add = v !== null && Number.isFinite(v) && v > 0 ? v : 0;
    }
    let arr = byMedium.get(a.medium);
    if (!arr) byMedium.set(a.medium, (arr = new Float64Array(n)));
    arr[Math.floor(a.creationYear as number) - y0]! += add;
    totals.set(a.medium, (totals.get(a.medium) ?? 0) + add);
  }
  const media = [...byMedium.keys()].sort((a, b) => totals.get(b)! - totals.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
  return media.map((medium) => {
    const arr = byMedium.get(medium)!;
    const points: { year: number; value: number }[] = new Array(n);
    for (let j = 0; j < n; j++) points[j] = { year: y0 + j, value: arr[j]! };
    return { medium, points };
  });
}
