// Calendar days (YYYY-MM-DD) as the API, the screens, the CLI and the services take them.
// Isomorphic.

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A real calendar day written YYYY-MM-DD (2026-02-30 is not), by the proleptic Gregorian
 * calendar as Date reads it; from the digits, without building a Date (an import checks
 * millions of them).
 */
export function isIsoDay(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DAY.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : MONTH_DAYS[month - 1]);
}

/** The first instant of a day (UTC), as stored instants are written. */
export function dayStart(day: string): string {
  return `${day}T00:00:00.000Z`;
}

/** The first instant after a day (UTC): an inclusive day range ends before it. */
export function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
}

/** The instant `days` days before `now`, as ISO text. */
export function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString();
}
