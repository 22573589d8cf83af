// PostgreSQL `timestamptz` text to the ISO-8601 UTC string the app uses everywhere. A session in
// UTC sends `2026-11-27 23:20:27.474+00`, which is rearranged as text; anything else (another
// time zone, BC, odd years) goes through Date as before. Parsing every value through Date was
// a large share of a big export's time (two instants per row).
const UTC_TEXT = /^([1-9]\d{3}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

export function pgInstantToIso(text: string): string {
  const match = UTC_TEXT.exec(text);
  if (!match) return new Date(text).toISOString();
  // Milliseconds as Date keeps them: the first three digits, the rest dropped (not rounded).
  const fraction = (match[3] ?? '').slice(0, 3).padEnd(3, '0');
  return `${match[1]}T${match[2]}.${fraction}Z`;
}
