// How the AI area words the texts it writes itself (docs/languages.md): in the reader's language
// and formats for a screen, in English with the /api's formats for the /api and for what the jobs
// store (insights, anomalies). English stays as it always was, whoever reads it.
import { formatRelativeTime } from '../../platform/lib/format.ts';
import type { Formats } from '../../platform/i18n/formats.ts';
import type { Locale } from '../../platform/i18n/locales.ts';
import type { Translate } from '../../platform/i18n/messages.ts';
import { englishIcu } from '../../platform/i18n/english-icu.server.ts';
import { MONTH_NAMES } from '../../../db/months.ts';

export interface Wording {
  locale: Locale;
  t: Translate;
  /** US dollars with 0 or 2 decimals: '$1,235', '$1,234.50'. */
  money(amount: number, digits: 0 | 2): string;
  /** A percentage as computed: '12.5%'. */
  percent(value: number): string;
  /** A change in percent with its sign: '+4.1%'. */
  change(value: number): string;
  /** A number with one decimal: '1.3'. */
  tenths(value: number): string;
  /** A calendar day given as 'YYYY-MM-DD'. */
  day(iso: string): string;
  /** Month 1-12 by name. */
  month(month: number): string;
  /** How long ago an instant was, in lower case: '5 minutes ago'. */
  ago(iso: string, now: number): string;
}

const inEnglish = englishIcu();

export const ENGLISH: Wording = {
  locale: 'en',
  t: inEnglish,
  money: (amount, digits) =>
    `$${amount.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`,
  percent: (value) => `${value}%`,
  change: (value) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}%`,
  tenths: (value) => value.toFixed(1),
  day: (iso) => iso,
  month: (month) => MONTH_NAMES[month - 1] ?? String(month),
  ago: (iso, now) => formatRelativeTime(iso, now).toLowerCase(),
};

/** The reader's wording (`requestI18n`): English as above, any other language in the reader's formats. */
export function readerWording(i18n: { preferences: { locale: Locale }; t: Translate; formats: Formats }): Wording {
  const { locale } = i18n.preferences;
  if (locale === 'en') return ENGLISH;
  const f = i18n.formats;
  return {
    locale,
    t: i18n.t,
    money: (amount, digits) => f.money(amount, { min: digits, max: digits }),
    percent: (value) => f.percent(value, Number.isInteger(value) ? 0 : 1),
    change: (value) => `${value >= 0 ? '+' : ''}${f.percent(value, 1)}`,
    tenths: (value) => f.number(value, { min: 1, max: 1 }),
    day: (iso) => f.day(iso),
    month: (month) => f.month(month),
    ago: (iso, now) => f.ago(iso, now) ?? ENGLISH.ago(iso, now),
  };
}

/** The language a language model is asked to answer in (null: English, its default). */
export const MODEL_LANGUAGE: Record<Locale, string | null> = {
  en: null,
  es: 'Spanish',
  fr: 'French',
  de: 'German',
};
