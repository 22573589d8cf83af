// The message catalogs, compiled once per process (docs/languages.md). Each area keeps one
// messages.json beside its code: English text → { es, fr, de }. The server translates with every
// area; a page sends the browser only its own language's messages of the areas it shows.
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { LOCALES, type Locale } from './locales.ts';
import { createTranslate, type CompiledMessage, type CompiledMessages, type Translate } from './messages.ts';

export type Translation = Record<Exclude<Locale, 'en'>, string>;
export type CatalogFile = Record<string, Translation>;

/** A message the browser can show as its id, in English: plain text, no placeholder or quote. */
function plain(compiled: CompiledMessage, message: string): boolean {
  return Array.isArray(compiled) && compiled.length === 1 && compiled[0] === message;
}

export interface Catalogs {
  /** The messages of some areas in one language, as the browser needs them. */
  forBrowser(locale: Locale, areas: readonly string[]): CompiledMessages;
  /** Translates with every area (server-made texts: toasts, errors, notifications). */
  translator(locale: Locale): Translate;
}

export function compileCatalogs(files: Record<string, CatalogFile>): Catalogs {
  const compiled = new Map<string, Record<Locale, CompiledMessages>>();
  const all = Object.fromEntries(LOCALES.map((locale) => [locale, {} as CompiledMessages])) as Record<
    Locale,
    CompiledMessages
  >;
  for (const [area, file] of Object.entries(files)) {
    const byLocale = Object.fromEntries(LOCALES.map((locale) => [locale, {} as CompiledMessages])) as Record<
      Locale,
      CompiledMessages
    >;
    for (const [message, translation] of Object.entries(file)) {
      const english = compileMessage(message) as CompiledMessage;
      if (!plain(english, message)) byLocale.en[message] = english;
      all.en[message] = english;
      for (const locale of LOCALES) {
        if (locale === 'en') continue;
        const text = compileMessage(translation[locale]) as CompiledMessage;
        byLocale[locale][message] = text;
        all[locale][message] = text;
      }
    }
    compiled.set(area, byLocale);
  }
  const translators = new Map<Locale, Translate>(
    LOCALES.map((locale) => [locale, createTranslate(locale, all[locale])]),
  );
  const sent = new Map<string, CompiledMessages>();
  return {
    forBrowser(locale, areas) {
      const key = `${locale}|${areas.join(',')}`;
      let messages = sent.get(key);
      if (!messages) {
        messages = Object.assign({}, ...areas.map((area) => compiled.get(area)?.[locale] ?? {})) as CompiledMessages;
        sent.set(key, messages);
      }
      return messages;
    },
    translator(locale) {
      return translators.get(locale)!;
    },
  };
}
