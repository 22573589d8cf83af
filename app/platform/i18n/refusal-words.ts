// A refusal's words for readers of other languages (docs/languages.md). The services refuse in
// English, which the /api answers as it always has; an error they word here also carries its
// text as a message with values, kept beside the error object (the /api never sees it), and a
// screen shows it in its reader's language. Isomorphic.
import { INTL_LOCALES, LOCALES, type Locale } from './locales.ts';
import type { MessageValues, Translate } from './messages.ts';

/** Who a text is written for: their language's translator and the language. */
export interface Reader {
  t: Translate;
  locale: Locale;
}

/**
 * English with its values in place, without a catalog: the /api's and the services' texts (a
 * message's id is its English). Only plain `{name}` placeholders; an unknown one stays as written.
 */
export const english: Translate = (message, values) =>
  values
    ? message.replace(/\{(\w+)\}/g, (whole, key: string) => {
        const value = values[key];
        return value === undefined || value === null ? whole : String(value);
      })
    : message;

export const ENGLISH: Reader = { t: english, locale: 'en' };

/** The reader of a request's translator and language (what requestI18n gives). */
export const asReader = ({ t, preferences }: { t: Translate; preferences: { locale: Locale } }): Reader => ({
  t,
  locale: preferences.locale,
});

const words = new WeakMap<object, (reader: Reader) => string>();

/** Marks an error (a DomainError, or a FieldError of one) with its text for any reader. */
export function marked<T extends object>(error: T, text: (reader: Reader) => string): T {
  words.set(error, text);
  return error;
}

/**
 * An error object whose English is `message` with `values` put in, marked with the same
 * message for other readers. The values named in `messages` are messages themselves (a table's
 * label), translated too.
 */
export function worded<T extends object>(
  make: (english: string) => T,
  message: string,
  values: MessageValues | undefined,
  messages: readonly string[] = [],
): T {
  const error = make(english(message, values));
  if (!values) return error;
  return marked(error, (reader) => {
    const said = { ...values };
    for (const key of messages) if (typeof said[key] === 'string') said[key] = reader.t(said[key]);
    return reader.t(message, said);
  });
}

/** A value of a phrased text: a number, written in each reader's format; an error (a cause), in its words. */
export type PhraseValue = string | number | Error;

/**
 * An error whose English is `message` with `values` put in (numbers as en-US writes them), marked
 * with the same message for other readers: each value in the reader's format or words.
 */
export function phrased<T extends object>(
  make: (english: string) => T,
  message: string,
  values: Record<string, PhraseValue> = {},
): T {
  const say = (reader: Reader) =>
    reader.t(
      message,
      Object.fromEntries(
        Object.entries(values).map(([key, value]) => [
          key,
          typeof value === 'number'
            ? value.toLocaleString(INTL_LOCALES[reader.locale])
            : typeof value === 'string'
              ? value
              : readerWords(value, value.message, reader),
        ]),
      ),
    );
  return marked(make(say(ENGLISH)), say);
}

/** `to` (an error made from `from`'s message) with `from`'s words for other readers. */
export function carried<T extends object>(from: object, to: T): T {
  const text = words.get(from);
  return text ? marked(to, text) : to;
}

/**
 * An error's text for a reader: its marked words, else its message through the reader's
 * catalog (a `msg('…')` text is translated, any other text comes back as written).
 */
export function readerWords(error: object, message: string, reader: Reader): string {
  return words.get(error)?.(reader) ?? reader.t(message);
}

/** A stored text in each language other than English, as its readers' words (JSON beside the English). */
export type OtherWords = Partial<Record<Exclude<Locale, 'en'>, string>>;

/** The readers of every language other than English, where the process has the catalogs. */
export function otherReaders(translator: ((locale: Locale) => Translate) | undefined): Reader[] {
  if (!translator) return [];
  return LOCALES.filter((locale) => locale !== 'en').map((locale) => ({ t: translator(locale), locale }));
}

/** A text for each of `readers`, kept where they will read it later (none: no catalogs here). */
export function wordsIn(readers: readonly Reader[], say: (reader: Reader) => string): OtherWords | undefined {
  return readers.length ? Object.fromEntries(readers.map((reader) => [reader.locale, say(reader)])) : undefined;
}

/** An error's words for each of `readers`, kept with it where the error itself is not (a stored outcome). */
export const wordsFor = (error: object, message: string, readers: readonly Reader[]) =>
  wordsIn(readers, (reader) => readerWords(error, message, reader));

/** Stored words (JSON); anything unreadable counts as none. */
export function parsedWords(stored: string | null | undefined): OtherWords | null {
  if (!stored) return null;
  try {
    const words = JSON.parse(stored) as unknown;
    return words && typeof words === 'object' && !Array.isArray(words) ? (words as OtherWords) : null;
  } catch {
    return null;
  }
}

/** A stored text for a reader: its words in the reader's language where kept, else the English. */
export function storedWords(english: string, words: OtherWords | null | undefined, locale: Locale): string {
  return locale === 'en' ? english : (words?.[locale] ?? english);
}

/**
 * A translator for building messages in English (a schema's) that remembers each text's words:
 * `mark` gives an error carrying such a text its words for any reader. A value that is itself a
 * text it built (a field's label) is translated too.
 */
export function recordingEnglish(): { t: Translate; mark<T extends { message: string }>(error: T): T } {
  const built = new Map<string, (reader: Reader) => string>();
  const t: Translate = (message, values) => {
    const text = english(message, values);
    if (!built.has(text))
      built.set(text, (reader) => {
        if (!values) return reader.t(message);
        const said = { ...values };
        for (const [key, value] of Object.entries(values))
          if (typeof value === 'string' && built.has(value) && value !== text) said[key] = built.get(value)!(reader);
        return reader.t(message, said);
      });
    return text;
  };
  return {
    t,
    mark: (error) => {
      const words = built.get(error.message);
      return words ? marked(error, words) : error;
    },
  };
}
