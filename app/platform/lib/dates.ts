// Calendar days (YYYY-MM-DD) as the API, the screens, the CLI and the services take them.
// Isomorphic.

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not). */
export function isIsoDay(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
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
