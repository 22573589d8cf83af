// How one reader wants dates, times and numbers: the signed-in user's settings, or for a
// signed-out page what the browser asks for (docs/languages.md). Isomorphic.
import { isLocale, localeFromAcceptLanguage, type Locale } from './locales.ts';

export const DATE_FORMATS = ['MM/dd/yyyy', 'dd/MM/yyyy', 'yyyy-MM-dd'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const TIME_FORMATS = ['12h', '24h'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];

export interface Preferences {
  locale: Locale;
  /** An IANA time zone, e.g. 'Europe/Madrid'. */
  timeZone: string;
  dateFormat: DateFormat;
  timeFormat: TimeFormat;
}

/** What a signed-out reader of each language gets: its usual day order and clock. */
const CUSTOMARY: Record<Locale, Pick<Preferences, 'dateFormat' | 'timeFormat'>> = {
  en: { dateFormat: 'MM/dd/yyyy', timeFormat: '12h' },
  es: { dateFormat: 'dd/MM/yyyy', timeFormat: '24h' },
  fr: { dateFormat: 'dd/MM/yyyy', timeFormat: '24h' },
  de: { dateFormat: 'dd/MM/yyyy', timeFormat: '24h' },
};

export const DEFAULT_PREFERENCES: Preferences = { locale: 'en', timeZone: 'UTC', ...CUSTOMARY.en };

/** Zones already asked about: building a formatter to find out is costly, and every request asks. */
const knownZones = new Map<string, boolean>();

export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value === '') return false;
  let known = knownZones.get(value);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      known = true;
    } catch {
      known = false;
    }
    // Stored settings hold a handful of zones; anything else is not remembered.
    if (knownZones.size < 1000) knownZones.set(value, known);
  }
  return known;
}

interface StoredPreferences {
  language: string;
  timezone: string;
  dateFormat: string;
  timeFormat: string;
}

/** A signed-in user's preferences; a stored value we cannot use falls back to the default. */
export function preferencesOf(settings: StoredPreferences): Preferences {
  return {
    locale: isLocale(settings.language) ? settings.language : DEFAULT_PREFERENCES.locale,
    timeZone: isTimeZone(settings.timezone) ? settings.timezone : DEFAULT_PREFERENCES.timeZone,
    dateFormat: (DATE_FORMATS as readonly string[]).includes(settings.dateFormat)
      ? (settings.dateFormat as DateFormat)
      : DEFAULT_PREFERENCES.dateFormat,
    timeFormat: settings.timeFormat === '24h' ? '24h' : settings.timeFormat === '12h' ? '12h' : '12h',
  };
}

/** A language with its usual formats, in UTC. */
export function languagePreferences(locale: Locale): Preferences {
  return { locale, timeZone: 'UTC', ...CUSTOMARY[locale] };
}

/** A signed-out reader: the browser's language, with that language's usual formats, in UTC. */
export function preferencesForGuest(acceptLanguage: string | null | undefined): Preferences {
  return languagePreferences(localeFromAcceptLanguage(acceptLanguage));
}
