/**
 * The market's month calendar: its history starts in January 1986, and month m (an integer, 0 =
 * 1986-01) indexes every monthly series (the market factor, the artist indexes, the art index).
 */

export const FIRST_YEAR = 1986;

/** Month index (0 = 1986-01) of a YYYY-MM-DD or YYYY-MM date; negative before 1986. */
export function monthIndex(date: string): number {
  // digits where a date has them (the derivation's millions of calls): read without making strings
  if (date.length >= 7) {
    const y0 = date.charCodeAt(0) - 48;
    const y1 = date.charCodeAt(1) - 48;
    const y2 = date.charCodeAt(2) - 48;
    const y3 = date.charCodeAt(3) - 48;
    const m0 = date.charCodeAt(5) - 48;
    const m1 = date.charCodeAt(6) - 48;
    if (y0 >>> 0 < 10 && y1 >>> 0 < 10 && y2 >>> 0 < 10 && y3 >>> 0 < 10 && m0 >>> 0 < 10 && m1 >>> 0 < 10)
      return (y0 * 1000 + y1 * 100 + y2 * 10 + y3 - FIRST_YEAR) * 12 + m0 * 10 + m1 - 1;
  }
  return (Number(date.slice(0, 4)) - FIRST_YEAR) * 12 + Number(date.slice(5, 7)) - 1;
}

/** Months whose YYYY-MM-01 monthDate keeps once made: 1986 to 2185. */
const KEPT_MONTHS = 12 * 200;
const monthDates: (string | undefined)[] = [];

/**
 * YYYY-MM-01 of a month index (0 = 1986-01-01). Those of KEPT_MONTHS are made once and kept: a
 * chart's points read one per month, and a string made by concatenation is flattened again by
 * every comparison and serialisation of a new copy.
 */
export function monthDate(m: number): string {
  if (m >= 0 && m < KEPT_MONTHS && Number.isInteger(m)) return (monthDates[m] ??= formatMonthDate(m));
  return formatMonthDate(m);
}

function formatMonthDate(m: number): string {
  const k = FIRST_YEAR * 12 + m;
  const y = Math.floor(k / 12);
  return `${String(y).padStart(4, "0")}-${String(k - y * 12 + 1).padStart(2, "0")}-01`;
}
