// Calendar days as a reader types them into a form: in the chosen date format (docs/languages.md),
// the ISO form always accepted. Isomorphic: the form's checks in the browser and the server's
// parse of the same post agree.
import { isIsoDay } from '../lib/dates.ts';
import { msg, type Translate } from './messages.ts';
import type { DateFormat } from './preferences.ts';

/** What a day field shows as its placeholder and names in its error, per date format. */
export const DAY_PATTERNS: Record<DateFormat, string> = {
  'MM/dd/yyyy': msg('MM/DD/YYYY'),
  'dd/MM/yyyy': msg('DD/MM/YYYY'),
  'yyyy-MM-dd': msg('YYYY-MM-DD'),
};

// Day and month of one or two digits; slashes, dots or dashes between (31.12.2026 is common too).
const NUMERIC_DAY = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;

/**
 * The ISO day ('2026-12-31') a reader's text names: 'yyyy-MM-dd' in any format, else day and
 * month in the order of `format`. Undefined when the text is no real calendar day.
 */
export function parseDayInput(text: string, format: DateFormat): string | undefined {
  const value = text.trim();
  if (isIsoDay(value)) return value;
  const parts = format === 'yyyy-MM-dd' ? null : NUMERIC_DAY.exec(value);
  if (!parts) return undefined;
  const [first, second, year] = [parts[1]!, parts[2]!, parts[3]!];
  const [month, day] = format === 'dd/MM/yyyy' ? [second, first] : [first, second];
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return isIsoDay(iso) ? iso : undefined;
}

/**
 * Days a reader typed into a filter (label → text): each as ISO ('' stays ''), or the first
 * refusal in the reader's words.
 */
export function readTypedDays<K extends string>(
  t: Translate,
  format: DateFormat,
  typed: Record<K, { label: string; text: string }>,
): { days: Record<K, string>; error: string | null } {
  const days = {} as Record<K, string>;
  let error: string | null = null;
  for (const key of Object.keys(typed) as K[]) {
    const { label, text } = typed[key];
    const day = text.trim() === '' ? '' : parseDayInput(text, format);
    if (day === undefined) {
      error ??= t('{label} must be a valid date ({format})', { label, format: t(DAY_PATTERNS[format]) });
      days[key] = text;
    } else days[key] = day;
  }
  return { days, error };
}
