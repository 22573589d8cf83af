import { describe, expect, it } from 'vitest';
import { formatsFor } from './formats.ts';
import { localeFromAcceptLanguage } from './locales.ts';
import { preferencesForGuest, preferencesOf, type Preferences } from './preferences.ts';

const prefs = (over: Partial<Preferences>): Preferences => ({
  locale: 'en',
  timeZone: 'UTC',
  dateFormat: 'MM/dd/yyyy',
  timeFormat: '12h',
  ...over,
});

/** Intl separates with no-break spaces; the tests spell them as spaces. */
const spaced = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ');

describe('formats', () => {
  it('spells a calendar day in each date format, never shifted by the time zone', () => {
    const day = '2026-01-31';
    expect(formatsFor(prefs({ timeZone: 'Pacific/Kiritimati' })).day(day)).toBe('01/31/2026');
    expect(formatsFor(prefs({ dateFormat: 'dd/MM/yyyy', timeZone: 'America/Los_Angeles' })).day(day)).toBe(
      '31/01/2026',
    );
    expect(formatsFor(prefs({ dateFormat: 'yyyy-MM-dd' })).day(`${day}T23:59:59Z`)).toBe('2026-01-31');
    expect(formatsFor(prefs({})).day('2026-02-30')).toBe('2026-02-30');
    expect(formatsFor(prefs({})).day('soon')).toBe('soon');
    expect(formatsFor(prefs({})).day(null)).toBe('');
  });

  it('shows an instant in the reader’s time zone and clock', () => {
    const at = '2026-01-01T03:05:00.000Z';
    expect(formatsFor(prefs({})).instant(at)).toBe('01/01/2026, 3:05 AM UTC');
    expect(formatsFor(prefs({ timeZone: 'America/New_York' })).instant(at)).toBe('12/31/2025, 10:05 PM EST');
    expect(formatsFor(prefs({ timeZone: 'America/New_York' })).instantDate(at)).toBe('12/31/2025');
    const berlin = formatsFor(
      prefs({ locale: 'de', timeZone: 'Europe/Berlin', dateFormat: 'dd/MM/yyyy', timeFormat: '24h' }),
    );
    expect(berlin.instant(at)).toBe('01/01/2026, 04:05 MEZ');
    expect(berlin.time('2026-07-01T12:00:00Z')).toBe('14:00 MESZ');
    expect(formatsFor(prefs({})).instant('never')).toBe('never');
  });

  it('formats numbers and money with the language’s separators, always in the books’ currency', () => {
    expect(formatsFor(prefs({})).money(1234567.5)).toBe('$1,234,567.50');
    expect(spaced(formatsFor(prefs({ locale: 'de' })).money(1234567.5))).toBe('1.234.567,50 $');
    expect(spaced(formatsFor(prefs({ locale: 'es' })).money(1234.5))).toBe('1234,50 US$');
    expect(spaced(formatsFor(prefs({ locale: 'fr' })).number(1234567.891))).toBe('1 234 567,89');
    expect(formatsFor(prefs({})).number(2144)).toBe('2,144');
    expect(formatsFor(prefs({})).percent(33.3)).toBe('33.30%');
    expect(spaced(formatsFor(prefs({ locale: 'de' })).percent(33.3))).toBe('33,30 %');
    expect(formatsFor(prefs({})).money(null)).toBe('');
  });

  it('names months and says how long ago, in the language', () => {
    expect(formatsFor(prefs({ locale: 'es' })).month(11)).toBe('noviembre');
    expect(formatsFor(prefs({})).month(11, 'short')).toBe('Nov');
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(formatsFor(prefs({})).ago('2026-11-29T11:55:00Z', now)).toBe('5 minutes ago');
    expect(spaced(formatsFor(prefs({ locale: 'fr' })).ago('2026-11-27T12:00:00Z', now))).toBe('il y a 2 jours');
    expect(formatsFor(prefs({})).ago('never', now)).toBeNull();
  });
});

describe('preferences', () => {
  it('picks the best language the browser asks for, English when none', () => {
    expect(localeFromAcceptLanguage('de-CH,de;q=0.9,en;q=0.5')).toBe('de');
    expect(localeFromAcceptLanguage('ja,fr;q=0.4,es;q=0.6')).toBe('es');
    expect(localeFromAcceptLanguage('fr;q=0,ja')).toBe('en');
    expect(localeFromAcceptLanguage(undefined)).toBe('en');
    expect(preferencesForGuest('es-ES')).toEqual({
      locale: 'es',
      timeZone: 'UTC',
      dateFormat: 'dd/MM/yyyy',
      timeFormat: '24h',
    });
  });

  it('falls back to the defaults for stored values it cannot use', () => {
    expect(
      preferencesOf({ language: 'xx', timezone: 'Mars/Olympus', dateFormat: 'dd.MM.yy', timeFormat: '7h' }),
    ).toEqual({
      locale: 'en',
      timeZone: 'UTC',
      dateFormat: 'MM/dd/yyyy',
      timeFormat: '12h',
    });
  });
});

describe('messages', () => {
  it('English without a catalog entry substitutes simple placeholders as ICU does', async () => {
    const { createTranslate } = await import('./messages.ts');
    const { compileCatalogs } = await import('./catalog.server.ts');
    const catalogs = compileCatalogs({
      area: {
        'Showing {from} to {to}': { es: 'Mostrando {from} a {to}', fr: 'De {from} à {to}', de: '{from} bis {to}' },
        '{count, plural, one {# row} other {# rows}}': {
          es: '{count, plural, one {# fila} other {# filas}}',
          fr: '{count, plural, one {# ligne} other {# lignes}}',
          de: '{count, plural, one {# Zeile} other {# Zeilen}}',
        },
      },
    });
    const sent = catalogs.forBrowser('en', ['area']);
    expect(Object.keys(sent)).toEqual(['{count, plural, one {# row} other {# rows}}']);
    const t = createTranslate('en', sent);
    expect(t('Showing {from} to {to}', { from: 1, to: 1234 })).toBe(
      catalogs.translator('en')('Showing {from} to {to}', { from: 1, to: 1234 }),
    );
    expect(t('Showing {from} to {to}', { from: 1, to: 1234 })).toBe('Showing 1 to 1234');
    expect(t('{count, plural, one {# row} other {# rows}}', { count: 1 })).toBe('1 row');
    const es = createTranslate('es', catalogs.forBrowser('es', ['area']));
    expect(es('{count, plural, one {# row} other {# rows}}', { count: 2 })).toBe('2 filas');
    expect(es('Showing {from} to {to}', { from: 1, to: 2 })).toBe('Mostrando 1 a 2');
  });
});
