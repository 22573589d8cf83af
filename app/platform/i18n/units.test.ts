import { describe, expect, it } from 'vitest';
import { catalogs } from '../../features/shell/catalogs.server.ts';
import { formatBytes, formatDuration, formatHoursMinutes } from '../lib/format.ts';
import { formatsFor } from './formats.ts';
import type { Locale } from './locales.ts';
import { createTranslate } from './messages.ts';
import { DEFAULT_PREFERENCES, preferencesForGuest } from './preferences.ts';
import { durationText, hoursMinutesText, sizeText } from './units.ts';

const english = { t: createTranslate('en', {}), f: formatsFor(DEFAULT_PREFERENCES) };
/** The reader of one language as the server renders for them, with every area's catalog. */
const reader = (locale: Locale) => ({ t: catalogs.translator(locale), f: formatsFor(preferencesForGuest(locale)) });

/** Sizes and minutes around every unit's edges, at rounding boundaries, large and odd. */
function values(): (number | null | undefined)[] {
  const list: (number | null | undefined)[] = [null, undefined, Number.NaN, Infinity, -Infinity, -1, -0, 0, 0.4, 0.999];
  for (let n = 0; n <= 5000; n++) list.push(n, n + 0.5, n + 0.995);
  for (const unit of [1, 1024, 1024 ** 2, 1024 ** 3]) {
    for (let n = 1; n <= 2100; n++)
      list.push(unit * n - 1, unit * n, unit * n + 1, unit * (n + 0.005), unit * (n + 0.125));
  }
  // A fixed pseudo-random spread from a byte to petabytes (no Math.random: a failure must repeat).
  let seed = 42;
  for (let n = 0; n < 20_000; n++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    list.push((seed / 2 ** 31) * 10 ** ((n % 16) + 1));
  }
  list.push(Number.MAX_SAFE_INTEGER, 2 ** 60);
  return list;
}

describe('units in the reader’s language', () => {
  it('reads in English exactly as format.ts writes for the /api and the CLI', () => {
    const { t, f } = english;
    const differ: string[] = [];
    for (const value of values()) {
      const pairs = [
        [sizeText(t, f, value), formatBytes(value)],
        [durationText(t, f, value), formatDuration(value)],
        [hoursMinutesText(t, f, value), formatHoursMinutes(value)],
      ];
      for (const [screen, fixed] of pairs) if (screen !== fixed) differ.push(`${value}: ${screen} ≠ ${fixed}`);
    }
    expect(differ.slice(0, 10)).toEqual([]);
  });

  it('reads in English the same with the English catalog the server compiles', () => {
    const t = catalogs.translator('en');
    const { f } = english;
    for (const value of [0, 512, 1023, 1536, 5 * 1024 ** 2, 3.25 * 1024 ** 3, 2048 * 1024 ** 3]) {
      expect(sizeText(t, f, value)).toBe(formatBytes(value));
    }
    for (const value of [0, 0.5, 45, 125, 10_000 * 60 + 7]) {
      expect(durationText(t, f, value)).toBe(formatDuration(value));
      expect(hoursMinutesText(t, f, value)).toBe(formatHoursMinutes(value));
    }
  });

  it('keeps English without thousands separators, as format.ts writes it', () => {
    const { t, f } = english;
    expect(sizeText(t, f, 1023)).toBe('1023 Bytes');
    expect(sizeText(t, f, 1024 ** 2 - 1)).toBe('1024 KB');
    expect(sizeText(t, f, 2048 * 1024 ** 3)).toBe('2048 GB');
    expect(hoursMinutesText(t, f, 1234 * 60 + 5)).toBe('1234h 5m');
  });

  it('spells sizes with the language’s decimal separator and unit symbols', () => {
    const sizes = [0, 1023, 1536, 1.25 * 1024 ** 2, 3.75 * 1024 ** 3, 2048 * 1024 ** 3];
    const spell = (locale: Locale) => {
      const { t, f } = reader(locale);
      return sizes.map((size) => sizeText(t, f, size));
    };
    expect(spell('en')).toEqual(['0 Bytes', '1023 Bytes', '1.5 KB', '1.25 MB', '3.75 GB', '2048 GB']);
    expect(spell('es')).toEqual(['0 bytes', '1023 bytes', '1,5 KB', '1,25 MB', '3,75 GB', '2048 GB']);
    expect(spell('fr')).toEqual(['0 octets', '1023 octets', '1,5 Ko', '1,25 Mo', '3,75 Go', '2048 Go']);
    expect(spell('de')).toEqual(['0 Byte', '1023 Byte', '1,5 KB', '1,25 MB', '3,75 GB', '2048 GB']);
  });

  it('spells durations with the language’s units', () => {
    const spell = (locale: Locale) => {
      const { t, f } = reader(locale);
      return [
        ...[0.5, 45, 125, 1500 * 60].map((minutes) => durationText(t, f, minutes)),
        hoursMinutesText(t, f, 45),
        hoursMinutesText(t, f, 125),
      ];
    };
    expect(spell('en')).toEqual(['< 1m', '45m', '2h 5m', '1500h 0m', '0h 45m', '2h 5m']);
    expect(spell('es')).toEqual(['< 1 min', '45 min', '2 h 5 min', '1500 h 0 min', '0 h 45 min', '2 h 5 min']);
    expect(spell('fr')).toEqual(['< 1 min', '45 min', '2 h 5 min', '1500 h 0 min', '0 h 45 min', '2 h 5 min']);
    expect(spell('de')).toEqual([
      '< 1 Min.',
      '45 Min.',
      '2 Std. 5 Min.',
      '1500 Std. 0 Min.',
      '0 Std. 45 Min.',
      '2 Std. 5 Min.',
    ]);
  });
});
