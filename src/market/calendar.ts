/**
 * The market's month calendar: its history starts in January 1986, and month m (an integer, 0 =
 * 1986-01) indexes every monthly series (the market factor, the artist indexes, the art index).
 */

export const FIRST_YEAR = 1986;

/** Month index (0 = 1986-01) of a YYYY-MM-DD or YYYY-MM date; negative before 1986. */
export function monthIndex(date: string): number {
  return (Number(date.slice(0, 4)) - FIRST_YEAR) * 12 + Number(date.slice(5, 7)) - 1;
}

/** YYYY-MM-01 of a month index (0 = 1986-01-01). */
export function monthDate(m: number): string {
  const k = FIRST_YEAR * 12 + m;
  const y = Math.floor(k / 12);
  return `${String(y).padStart(4, "0")}-${String(k - y * 12 + 1).padStart(2, "0")}-01`;
}
