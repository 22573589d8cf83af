import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDay,
  formatDuration,
  formatHoursMinutes,
  formatInstant,
  formatMoney,
  formatNumber,
  formatPercent,
  FIXED_FORMATS,
  truncate,
} from './format.ts';

describe('format', () => {
  it('shows money with a dollar sign and thousands separators', () => {
    expect(formatMoney(1234567.5)).toBe('$1,234,567.50');
    expect(formatMoney(0.01)).toBe('$0.01');
  });
  it('shows numbers with thousands separators and up to two decimals', () => {
    expect(formatNumber(2144)).toBe('2,144');
    expect(formatNumber(12.345)).toBe('12.35');
    expect(formatNumber(null)).toBe('');
  });
  it('shows calendar days without shifting them across time zones', () => {
    expect(formatDay('2026-01-01')).toBe('Jan 1, 2026');
  });
  it('spells every day as Intl does, and leaves what is not a day to it', () => {
    const intl = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
    const viaIntl = (value: string) => {
      const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
      return Number.isNaN(date.getTime()) ? value : intl.format(date);
    };
    for (let t = Date.UTC(1999, 0, 1); t <= Date.UTC(2031, 11, 31); t += 86_400_000) {
      const iso = new Date(t).toISOString();
      expect(formatDay(iso.slice(0, 10))).toBe(viaIntl(iso.slice(0, 10)));
      expect(formatDay(iso)).toBe(viaIntl(iso));
    }
    for (const odd of [
      '2024-02-29',
      '2023-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '0999-12-31',
      '1000-01-01',
      '9999-12-31',
      '2026-1-1',
      'soon',
      '2026-06-01T23:59:59Z',
    ]) {
      expect(formatDay(odd), odd).toBe(viaIntl(odd));
    }
    expect(formatDay('')).toBe('');
    expect(formatDay(null)).toBe('');
  });
  it('truncates at the given length with an ellipsis', () => {
    expect(truncate('a'.repeat(50), 50)).toBe('a'.repeat(50));
    expect(truncate('a'.repeat(51), 50)).toBe(`${'a'.repeat(50)}...`);
    expect(truncate(null, 5)).toBe('');
  });
});

describe('formatDuration', () => {
  it("shows '< 1m' under a minute, 'Xm' under an hour, 'Xh Ym' beyond", () => {
    expect(formatDuration(0)).toBe('< 1m');
    expect(formatDuration(0.99)).toBe('< 1m');
    expect(formatDuration(1)).toBe('1m');
    expect(formatDuration(59.9)).toBe('59m');
    expect(formatDuration(60)).toBe('1h 0m');
    expect(formatDuration(61.5)).toBe('1h 1m');
    expect(formatDuration(125)).toBe('2h 5m');
    expect(formatDuration(24 * 60 + 7)).toBe('24h 7m');
  });

  it('treats missing, negative and non-finite values as no time', () => {
    expect(formatDuration(null)).toBe('< 1m');
    expect(formatDuration(undefined)).toBe('< 1m');
    expect(formatDuration(-5)).toBe('< 1m');
    expect(formatDuration(Number.NaN)).toBe('< 1m');
  });

  it("the Avg Session card is always 'Xh Ym'", () => {
    expect(formatHoursMinutes(0)).toBe('0h 0m');
    expect(formatHoursMinutes(45.7)).toBe('0h 45m');
    expect(formatHoursMinutes(135)).toBe('2h 15m');
    expect(formatHoursMinutes(null)).toBe('0h 0m');
  });
});

describe('formatInstant', () => {
  it('shows date and time in UTC, and passes through what it cannot read', () => {
    expect(formatInstant('2026-11-22T14:05:09.000Z')).toBe('Nov 22, 2026, 14:05 UTC');
    expect(formatInstant('')).toBe('');
    expect(formatInstant('not a date')).toBe('not a date');
  });
});

describe('FIXED_FORMATS', () => {
  it('keeps the /api and CLI texts in fixed English whatever the reader chose', () => {
    expect(formatPercent(33.3)).toBe('33.30%');
    expect(FIXED_FORMATS.day('2026-11-22')).toBe('Nov 22, 2026');
    expect(FIXED_FORMATS.instant('2026-11-22T14:05:09.000Z')).toBe('Nov 22, 2026, 14:05 UTC');
    expect(FIXED_FORMATS.money(1234.5)).toBe('$1,234.50');
    expect(FIXED_FORMATS.number(2144)).toBe('2,144');
    expect(FIXED_FORMATS.month(11)).toBe('November');
    expect(FIXED_FORMATS.month(13)).toBe('13');
  });
});

describe('formatBytes', () => {
  it('gives Bytes, KB, MB or GB in units of 1024 with up to two decimals', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(null)).toBe('0 Bytes');
    expect(formatBytes(512)).toBe('512 Bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 2 + 1234)).toBe('5 MB');
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.25 GB');
    expect(formatBytes(2048 * 1024 ** 3)).toBe('2048 GB');
  });
});
