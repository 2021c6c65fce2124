/** Calendar helpers on UTC dates written as YYYY-MM-DD. */

const DAY_MS = 86_400_000;

export function today(now: number = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

export function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromDayNumber(dayNumber(date) + days);
}

/**
 * A strict YYYY-MM-DD that names a real calendar day (proleptic Gregorian, years 0000–9999, as
 * Date reads them): by arithmetic, with no Date made (an import checks every record's dates).
 */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const y = Number(value.slice(0, 4));
  const m = Number(value.slice(5, 7));
  const d = Number(value.slice(8, 10));
  if (m < 1 || m > 12 || d < 1) return false;
  if (m === 2) return d <= ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28);
  return d <= (m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface Period {
  /** First day, inclusive. */
  start: string;
  /** Last day, inclusive. */
  end: string;
  days: number;
}

/** The entitlement period containing `day`: periods of `periodDays` days follow back to back from `anchor`. */
export function periodContaining(anchor: string, periodDays: number, day: string): Period {
  const a = dayNumber(anchor);
  const d = dayNumber(day);
  const k = Math.floor((d - a) / periodDays);
  const start = a + k * periodDays;
  return { start: fromDayNumber(start), end: fromDayNumber(start + periodDays - 1), days: periodDays };
}

/** The calendar month containing `day`. */
export function monthContaining(day: string): Period {
  const [y, m] = day.split("-").map(Number) as [number, number];
  const start = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-01`;
  const next = m === 12 ? `${String(y + 1).padStart(4, "0")}-01-01` : `${String(y).padStart(4, "0")}-${String(m + 1).padStart(2, "0")}-01`;
  const end = addDays(next, -1);
  return { start, end, days: dayNumber(end) - dayNumber(start) + 1 };
}

/** Monday of the ISO week containing `day`. */
export function weekStart(day: string): string {
  const n = dayNumber(day);
  const weekday = (n + 3) % 7; // 1970-01-01 was a Thursday; 0 = Monday
  return fromDayNumber(n - weekday);
}

// ---------------------------------------------------------------- lot sale times
// A lot stores its sale's start as whole Unix seconds (UTC): 4 bytes where the ISO text took 20,
// in the table and in each (x, sale_datetime) index.

/** SQL giving the ISO 8601 text (`YYYY-MM-DDTHH:MM:SSZ`) of a column of Unix seconds. */
export const isoOfSecondsSql = (column: string): string => `strftime('%Y-%m-%dT%H:%M:%SZ', ${column}, 'unixepoch')`;

/** Unix seconds of an ISO datetime or date; a lower bound rounds up to the whole second, an upper bound down. */
export function epochSeconds(iso: string, bound: "lower" | "upper" = "upper"): number {
  const ms = Date.parse(iso); // a date alone (YYYY-MM-DD) parses as midnight UTC
  return bound === "lower" ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
}

/** ISO 8601 text (`YYYY-MM-DDTHH:MM:SSZ`) of Unix seconds. */
export function isoOfSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
