// The texts the generic resource screens write (toasts, confirmations, form errors) in the
// reader's language (docs/languages.md). Each is an ICU message with its values; the screens
// translate it with the request's `t`, and the API and the services spell it in English, as
// they always have. Isomorphic.
import type { Reader } from '../i18n/refusal-words.ts';
import { nounInText } from './noun.ts';

/**
 * A text of a resource screen: a message (a declaration's `msg('…')`), or one written for a reader
 * (with the resource's noun, `noun` as its declaration spells it).
 */
export type ScreenText = string | ((reader: Reader, noun: string) => string);

/** A screen text in the reader's words. */
export function say(text: ScreenText, reader: Reader, noun: string): string {
  return typeof text === 'string' ? reader.t(text) : text(reader, noun);
}

/**
 * The question before a resource's row is deleted: its declaration's (a message may name the row
 * as `{name}`) in the reader's words.
 */
export function confirmDeleteText(
  def: { noun: string; messages: { confirmDelete: ScreenText } },
  reader: Reader,
  name: string,
): string {
  const text = def.messages.confirmDelete;
  if (typeof text !== 'string') return text(reader, def.noun);
  // A message the catalogs lack comes back as written: its {name} is put in here.
  return reader.t(text, { name }).replace('{name}', name);
}

/** 'budget entry' → 'Budget entry': an English noun starting a sentence. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A noun as an English text names it ('API source', 'mobile metric'), in the reader's sentence:
 * English keeps those words; another language takes the noun's own message when the catalog has
 * one, else the resource's declared noun (`declared`, a message), placed as noun.ts says.
 */
export function nounFor(given: string, reader: Reader, declared: string, start = false): string {
  if (reader.locale === 'en') return start ? capitalised(given) : given;
  const own = reader.t(given);
  return nounInText(own !== given ? own : reader.t(declared), reader.locale, true);
}
