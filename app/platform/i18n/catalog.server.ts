// The message catalogs, compiled once per process (docs/languages.md). Each area keeps one
// messages.json beside its code: English text → { es, fr, de }. The server translates with every
// area; a page sends the browser only its own language's messages of the areas it shows.
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { createHash } from 'node:crypto';
import { LOCALES, type Locale } from './locales.ts';
import { createTranslate, type CompiledMessage, type CompiledMessages, type Translate } from './messages.ts';
import { REGISTRY_GLOBAL, type MessageFile } from './message-files.ts';

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

/**
 * The request header asking an English page for the pseudo-locale (lower case, as Node keeps
 * it). server.ts removes it unless the configuration allows the pseudo-locale (tests only).
 */
export const PSEUDO_LOCALE_HEADER = 'x-pseudo-locale';

/** Whether a request for an English page asks for the pseudo-locale. */
export function pseudoLocaleRequested(request: Request, locale: Locale): boolean {
  return locale === 'en' && request.headers.get(PSEUDO_LOCALE_HEADER) === '1';
}

export interface Catalogs {
  /**
   * The messages of some areas in one language, as the browser needs them; `pseudo`: every
   * English message marked (tests only).
   */
  forBrowser(locale: Locale, areas: readonly string[], pseudo?: boolean): CompiledMessages;
  /** The files that carry those messages, as a document names them (message-files.ts). */
  messageFiles(locale: Locale, areas: readonly string[], pseudo?: boolean): MessageFile[];
  /** A message file's script by its name ('es-finance.1a2b3c4d5e6f.js'); undefined for none. */
  messageFileScript(name: string): string | undefined;
  /** Every file's messages by its key, for the server's own render of a document. */
  fileMessages(): [key: string, messages: CompiledMessages][];
  /** Translates with every area (server-made texts: toasts, errors, notifications). */
  translator(locale: Locale): Translate;
  /** The same in the pseudo-locale: every message marked (tests only). */
  pseudoTranslator(): Translate;
}

/** Where the files are served (server.ts, with the immutable caching of the build's files). */
export const MESSAGE_FILES_PATH = '/i18n';

interface BuiltFile extends MessageFile {
  name: string;
  script: string;
  messages: CompiledMessages;
}

/** One area's messages in one language ('es') or the pseudo-locale, as a script registering them. */
function buildFile(variant: string, area: string, messages: CompiledMessages): BuiltFile {
  const key = `${variant}/${area}`;
  const json = JSON.stringify(messages);
  const hash = createHash('sha256').update(json).digest('hex').slice(0, 12);
  const name = `${variant}-${area}.${hash}.js`;
  const script = `(self.${REGISTRY_GLOBAL}||(self.${REGISTRY_GLOBAL}={}))[${JSON.stringify(key)}]=${json};\n`;
  return { key, src: `${MESSAGE_FILES_PATH}/${name}`, name, script, messages };
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
  const pseudoTranslator = createTranslate('en', Object.assign({}, ...pseudoByArea.values()) as CompiledMessages);
  const sent = new Map<string, CompiledMessages>();
  const built = new Map<string, BuiltFile>();
  const byName = new Map<string, BuiltFile>();
  for (const [area, byLocale] of compiled) {
    const areaFiles = [
      ...LOCALES.map((locale) => buildFile(locale, area, byLocale[locale])),
      buildFile('pseudo', area, pseudoByArea.get(area)!),
    ];
    for (const file of areaFiles) {
      built.set(file.key, file);
      byName.set(file.name, file);
    }
  }
  const fileLists = new Map<string, MessageFile[]>();
  return {
    messageFiles(locale, areas, pseudo = false) {
      const id = `${pseudo ? 'pseudo' : locale}|${areas.join(',')}`;
      let list = fileLists.get(id);
      if (!list) {
        list = areas.flatMap((area) => {
          const file = built.get(`${pseudo ? 'pseudo' : locale}/${area}`);
          return file ? [{ key: file.key, src: file.src }] : [];
        });
        fileLists.set(id, list);
      }
      return list;
    },
    messageFileScript(name) {
      return byName.get(name)?.script;
    },
    fileMessages() {
      return [...built.values()].map((file) => [file.key, file.messages]);
    },
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
    pseudoTranslator() {
      return pseudoTranslator;
    },
  };
}
