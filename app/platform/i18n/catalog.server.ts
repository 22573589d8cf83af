// The message catalogs, compiled once per process (docs/languages.md). Each area keeps one
// messages.json beside its code: English text → { es, fr, de }. The server translates with every
// area; a page sends the browser only its own language's messages of the areas it shows.
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { LOCALES, type Locale } from './locales.ts';
import { createTranslate, type CompiledMessage, type CompiledMessages, type Translate } from './messages.ts';

export type Translation = Record<Exclude<Locale, 'en'>, string>;
export type CatalogFile = Record<string, Translation>;

/**
 * An English message the browser can show from its id alone: text and simple `{name}`
 * placeholders that read back as the message itself (no plural, select or quote).
 */
function plain(compiled: CompiledMessage, message: string): boolean {
  if (!Array.isArray(compiled)) return compiled === message;
  const spelled = compiled.map((part) =>
    typeof part === 'string' ? part : Array.isArray(part) && part.length === 1 ? `{${String(part[0])}}` : null,
  );
  return !spelled.includes(null) && spelled.join('') === message;
}

/** The pseudo-locale's marks around every message (docs/languages.md). */
export const PSEUDO_MARKS = ['⟦', '⟧'] as const;

export interface Catalogs {
  /**
   * The messages of some areas in one language, as the browser needs them; `pseudo`: every
   * English message marked (tests only).
   */
  forBrowser(locale: Locale, areas: readonly string[], pseudo?: boolean): CompiledMessages;
  /** Translates with every area (server-made texts: toasts, errors, notifications). */
  translator(locale: Locale): Translate;
}

export function compileCatalogs(files: Record<string, CatalogFile>): Catalogs {
  const compiled = new Map<string, Record<Locale, CompiledMessages>>();
  const pseudoByArea = new Map<string, CompiledMessages>();
  const all = Object.fromEntries(LOCALES.map((locale) => [locale, {} as CompiledMessages])) as Record<
    Locale,
    CompiledMessages
  >;
  for (const [area, file] of Object.entries(files)) {
    const byLocale = Object.fromEntries(LOCALES.map((locale) => [locale, {} as CompiledMessages])) as Record<
      Locale,
      CompiledMessages
    >;
    const marked: CompiledMessages = {};
    for (const [message, translation] of Object.entries(file)) {
      const english = compileMessage(message) as CompiledMessage;
      marked[message] = [PSEUDO_MARKS[0], ...(english as unknown[]), PSEUDO_MARKS[1]];
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
    pseudoByArea.set(area, marked);
  }
  const translators = new Map<Locale, Translate>(
    LOCALES.map((locale) => [locale, createTranslate(locale, all[locale])]),
  );
  const sent = new Map<string, CompiledMessages>();
  return {
    forBrowser(locale, areas, pseudo = false) {
      const key = `${locale}|${areas.join(',')}|${pseudo}`;
      let messages = sent.get(key);
      if (!messages) {
        const of = (area: string) => (pseudo ? pseudoByArea.get(area) : compiled.get(area)?.[locale]) ?? {};
        messages = Object.assign({}, ...areas.map(of)) as CompiledMessages;
        sent.set(key, messages);
      }
      return messages;
    },
    translator(locale) {
      return translators.get(locale)!;
    },
  };
}
