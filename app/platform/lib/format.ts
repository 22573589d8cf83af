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

/** Under 1 minute '< 1m'; under 60 minutes 'Xm'; longer 'Xh Ym'. */
export function formatDuration(minutes: number | null | undefined): string {
  const m = Number.isFinite(minutes) ? Math.max(0, minutes as number) : 0;
  if (m < 1) return '< 1m';
  const whole = Math.floor(m);
  if (whole < 60) return `${whole}m`;
  return `${Math.floor(whole / 60)}h ${whole % 60}m`;
}

/** The Avg Session card: always 'Xh Ym'. */
export function formatHoursMinutes(minutes: number | null | undefined): string {
  const whole = Math.floor(Number.isFinite(minutes) ? Math.max(0, minutes as number) : 0);
  return `${Math.floor(whole / 60)}h ${whole % 60}m`;
}

/** A size in Bytes, KB, MB or GB (units of 1024, up to two decimals). */
export function formatBytes(bytes: number | null | undefined): string {
  const value = Number.isFinite(bytes) ? Math.max(0, bytes as number) : 0;
  if (value < 1) return '0 Bytes';
  const units = ['Bytes', 'KB', 'MB', 'GB'];
  const i = Math.min(units.length - 1, Math.floor(Math.log(value) / Math.log(1024)));
  return `${Number.parseFloat((value / 1024 ** i).toFixed(2))} ${units[i]}`;
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
