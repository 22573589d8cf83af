// Dates, times, numbers and money as one reader wants them (docs/languages.md). Isomorphic: the
// server renders with the same preferences the browser hydrates with, so the text never changes
// under the reader. Amounts keep the books' currency; only separators follow the language.
import { INTL_LOCALES } from './locales.ts';
import type { DateFormat, Preferences } from './preferences.ts';

/** The currency every amount in the books is kept in. Nothing converts it. */
export const BOOKS_CURRENCY = 'USD';

export interface Formats {
  readonly preferences: Preferences;
  /** A calendar day ('2026-11-22', or the day of a longer ISO text) in the chosen date format, never shifted. */
  day(value: string | null | undefined): string;
  /** The day an instant falls on in the reader's time zone. */
  instantDate(value: string | null | undefined): string;
  /** An instant's time of day in the reader's time zone and clock, with the zone: '2:05 PM EST'. */
  time(value: string | null | undefined): string;
  /** An instant as day and time: '11/22/2026, 2:05 PM EST'. */
  instant(value: string | null | undefined): string;
  /** `grouping: false`: no thousands separators ('2048 GB'). */
  number(value: number | null | undefined, options?: { min?: number; max?: number; grouping?: boolean }): string;
  /** An amount in the books' currency: '$1,234.50', '1234,50 US$', '1.234,50 $'. */
  money(value: number | null | undefined, fractionDigits?: { min?: number; max?: number }): string;
  /** A value already in percent (33.3 → '33.30%', '33,30 %'), two decimals unless told. */
  percent(value: number | null | undefined, fractionDigits?: number): string;
  /** Month 1-12 by name: 'November', 'noviembre'; short: 'Nov', 'nov'. */
  month(value: number, width?: 'long' | 'short'): string;
  /** '5 minutes ago', 'hace 5 minutos'; the largest whole unit of minutes, hours or days. */
  ago(value: string, now?: number): string | null;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

function spellDay(format: DateFormat, year: string, month: string, day: string): string {
  if (format === 'yyyy-MM-dd') return `${year}-${month}-${day}`;
  if (format === 'dd/MM/yyyy') return `${day}/${month}/${year}`;
  return `${month}/${day}/${year}`;
}

function realDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}

function toDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const cache = new Map<string, Formats>();

/** The formats of one set of preferences, built once and shared (Intl formatters are costly to build). */
export function formatsFor(preferences: Preferences): Formats {
  const key = `${preferences.locale}|${preferences.timeZone}|${preferences.dateFormat}|${preferences.timeFormat}`;
  let formats = cache.get(key);
  if (!formats) {
    formats = buildFormats(preferences);
    cache.set(key, formats);
  }
  return formats;
}

function buildFormats(preferences: Preferences): Formats {
  const { dateFormat, timeZone } = preferences;
  const locale = INTL_LOCALES[preferences.locale];
  const dayParts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const clock = new Intl.DateTimeFormat(locale, {
    timeZone,
    hour: 'numeric',
    minute: '2-digit',
    hourCycle: preferences.timeFormat === '24h' ? 'h23' : 'h12',
    timeZoneName: 'short',
  });
  const numbers = new Map<string, Intl.NumberFormat>();
  const numberFormat = (
    style: 'decimal' | 'currency' | 'percent',
    min: number | undefined,
    max: number | undefined,
    grouping = true,
  ) => {
    const cacheKey = `${style}|${min}|${max}|${grouping}`;
    let format = numbers.get(cacheKey);
    if (!format) {
      format = new Intl.NumberFormat(locale, {
        style,
        ...(style === 'currency' ? { currency: BOOKS_CURRENCY } : {}),
        ...(min !== undefined ? { minimumFractionDigits: min } : {}),
        ...(max !== undefined ? { maximumFractionDigits: Math.max(max, min ?? 0) } : {}),
        ...(grouping ? {} : { useGrouping: false }),
      });
      numbers.set(cacheKey, format);
    }
    return format;
  };
  const months = {
    long: new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }),
    short: new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' }),
  };
  const monthNames = {
    long: Array.from({ length: 12 }, (_, i) => months.long.format(Date.UTC(2000, i, 15))),
    short: Array.from({ length: 12 }, (_, i) => months.short.format(Date.UTC(2000, i, 15))),
  };
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });

  const instantDate = (date: Date) => {
    if (timeZone === 'UTC') {
      const iso = date.toISOString();
      return spellDay(dateFormat, iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10));
    }
    const parts = Object.fromEntries(dayParts.formatToParts(date).map((p) => [p.type, p.value]));
    return spellDay(dateFormat, String(parts.year), String(parts.month), String(parts.day));
  };

  return {
    preferences,
    day(value) {
      if (!value) return '';
      const parts = ISO_DAY.exec(value);
      if (!parts || !realDay(Number(parts[1]), Number(parts[2]), Number(parts[3]))) return value;
      return spellDay(dateFormat, parts[1]!, parts[2]!, parts[3]!);
    },
    instantDate(value) {
      const date = toDate(value);
      return date ? instantDate(date) : (value ?? '');
    },
    time(value) {
      const date = toDate(value);
      return date ? clock.format(date) : (value ?? '');
    },
    instant(value) {
      const date = toDate(value);
      return date ? `${instantDate(date)}, ${clock.format(date)}` : (value ?? '');
    },
    number(value, digits) {
      if (value === null || value === undefined || !Number.isFinite(value)) return '';
      return numberFormat('decimal', digits?.min, digits?.max ?? 2, digits?.grouping).format(value);
    },
    money(value, digits) {
      if (value === null || value === undefined || !Number.isFinite(value)) return '';
      return numberFormat('currency', digits?.min, digits?.max).format(value);
    },
    percent(value, fractionDigits = 2) {
      if (value === null || value === undefined || !Number.isFinite(value)) return '';
      return numberFormat('percent', fractionDigits, fractionDigits).format(value / 100);
    },
    month(value, width = 'long') {
      return monthNames[width][value - 1] ?? String(value);
    },
    ago(value, now = Date.now()) {
      const at = Date.parse(value);
      if (!Number.isFinite(at)) return null;
      const minutes = Math.floor(Math.max(0, now - at) / 60_000);
      if (minutes < 60) return relative.format(-minutes, 'minute');
      if (minutes < 1440) return relative.format(-Math.floor(minutes / 60), 'hour');
      return relative.format(-Math.floor(minutes / 1440), 'day');
    },
  };
}
