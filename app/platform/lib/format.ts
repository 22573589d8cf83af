// Fixed en-US texts of what is read by programs or kept: the /api, the CLI, CSV files, the AI's
// prompts and stored texts (docs/languages.md). Screens use the reader's formats
// (app/platform/i18n/formats.ts).
import { MONTH_NAMES } from '../../../db/months.ts';
import type { Formats } from '../i18n/formats.ts';

// Formatters are built once: toLocaleDateString with options builds a new one on every call.
const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const day = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
const instant = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : number.format(value);
}

/** A percentage with two decimals ('33.30%'). */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : `${value.toFixed(2)}%`;
}

export function formatMoney(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : money.format(value);
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** A calendar day (YYYY-MM-DD) as e.g. 'Nov 22, 2026', without time-zone shifts. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '';
  // A real day of years 1000-9999 is spelled here, as `day` spells it (a table formats many
  // dates, and Intl is costly per call); anything else goes through Intl.
  const parts = ISO_DAY.exec(value);
  if (parts) {
    const [year, month, date] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
    if (
      year >= 1000 &&
      month >= 1 &&
      month <= 12 &&
      date >= 1 &&
      new Date(Date.UTC(year, month - 1, date)).getUTCDate() === date
    ) {
      return `${SHORT_MONTHS[month - 1]} ${date}, ${year}`;
    }
  }
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : day.format(date);
}

export function truncate(text: string | null | undefined, length: number): string {
  if (!text) return '';
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

/** An instant as date and time in UTC, e.g. 'Nov 22, 2026, 14:05 UTC'. */
export function formatInstant(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : `${instant.format(date)} UTC`;
}

/** Whole minutes (a missing or negative value is 0) as whole hours and the minutes left: 125 → 2, 5. */
export function hoursMinutesParts(minutes: number | null | undefined): { hours: number; minutes: number } {
  const whole = Math.floor(Number.isFinite(minutes) ? Math.max(0, minutes as number) : 0);
  return { hours: Math.floor(whole / 60), minutes: whole % 60 };
}

/** How a duration reads: under a minute, whole minutes under an hour, else hours and minutes. */
export type DurationParts =
  { unit: 'under-a-minute' } | { unit: 'minutes'; minutes: number } | { unit: 'hours'; hours: number; minutes: number };

/** The one place a duration is split; formatDuration and the screens' durationText spell it. */
export function durationParts(minutes: number | null | undefined): DurationParts {
  const parts = hoursMinutesParts(minutes);
  if (parts.hours > 0) return { unit: 'hours', ...parts };
  return parts.minutes === 0 ? { unit: 'under-a-minute' } : { unit: 'minutes', minutes: parts.minutes };
}

/** Under 1 minute '< 1m'; under 60 minutes 'Xm'; longer 'Xh Ym'. */
export function formatDuration(minutes: number | null | undefined): string {
  const parts = durationParts(minutes);
  if (parts.unit === 'under-a-minute') return '< 1m';
  if (parts.unit === 'minutes') return `${parts.minutes}m`;
  return `${parts.hours}h ${parts.minutes}m`;
}

/** The Avg Session card: always 'Xh Ym'. */
export function formatHoursMinutes(minutes: number | null | undefined): string {
  const { hours, minutes: rest } = hoursMinutesParts(minutes);
  return `${hours}h ${rest}m`;
}

export const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

/**
 * A size as a number of up to two decimals in Bytes, KB, MB or GB (units of 1024): 1536 → 1.5 KB;
 * a missing, negative or sub-byte size is 0 Bytes. The one place a size is split; formatBytes and
 * the screens' sizeText spell it.
 */
export function sizeParts(bytes: number | null | undefined): { value: number; unit: SizeUnit } {
  const value = Number.isFinite(bytes) ? Math.max(0, bytes as number) : 0;
  if (value < 1) return { value: 0, unit: 'Bytes' };
  const i = Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log(value) / Math.log(1024)));
  return { value: Number.parseFloat((value / 1024 ** i).toFixed(2)), unit: SIZE_UNITS[i]! };
}

/** A size in Bytes, KB, MB or GB (units of 1024, up to two decimals). */
export function formatBytes(bytes: number | null | undefined): string {
  const { value, unit } = sizeParts(bytes);
  return `${value} ${unit}`;
}

/**
 * 'Just now' under a minute, then minutes, hours, days ago; an invalid date reads
 * 'Unknown time'.
 */
export function formatRelativeTime(value: string | null | undefined, now: number = Date.now()): string {
  const at = value ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(at)) return 'Unknown time';
  const seconds = Math.max(0, Math.floor((now - at) / 1000));
  if (seconds < 60) return 'Just now';
  const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (seconds < 3600) return ago(Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return ago(Math.floor(seconds / 3600), 'hour');
  return ago(Math.floor(seconds / 86_400), 'day');
}

/** The values a text names, formatted as a screen's reader wants (`Formats`) or as the /api keeps them. */
export type ValueFormats = Pick<Formats, 'day' | 'instant' | 'money' | 'number' | 'percent' | 'month'>;

/** The /api's and the CLI's fixed formats: 'Nov 22, 2026', 'Nov 22, 2026, 14:05 UTC', '$1,234.50'. */
export const FIXED_FORMATS: ValueFormats = {
  day: formatDay,
  instant: formatInstant,
  money: formatMoney,
  number: formatNumber,
  percent: formatPercent,
  month: (month) => MONTH_NAMES[month - 1] ?? String(month),
};
