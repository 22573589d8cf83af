// Translated texts (docs/languages.md). A message's id is its English text in ICU MessageFormat
// ('{count, plural, one {# row} other {# rows}}'), so English needs no catalog and the code reads
// as the screen does. @lingui/core interprets the compiled messages on the server and in the
// browser alike. Isomorphic.
import { setupI18n, type I18n } from '@lingui/core';
import type { Locale } from './locales.ts';

/** A message as @lingui/message-utils compiles it (plain text, or parts with placeholders). */
export type CompiledMessage = string | unknown[];
export type CompiledMessages = Record<string, CompiledMessage>;

export type MessageValues = Record<string, string | number | Date | null | undefined>;
export type Translate = (message: string, values?: MessageValues) => string;

/**
 * Marks a text as a message without translating it where it is written (a label in a constant
 * table): whoever shows it passes it through `t`. The catalog check finds messages by `t('…')`
 * and `msg('…')`.
 */
export function msg<T extends string>(message: T): T {
  return message;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** `{name}` replaced by its value: what ICU does for a message with only simple placeholders. */
function substitute(message: string, values: MessageValues): string {
  return message.replace(PLACEHOLDER, (_, name: string) => String(values[name] ?? ''));
}

/**
 * A translator over compiled messages. A message missing from them is its own text: English
 * ids are the text, and English sends compiled only the messages that simple substitution of
 * `{name}` would get wrong (plurals, selects, quotes; see catalog.server.ts).
 */
export function createTranslate(locale: Locale, messages: CompiledMessages): Translate {
  const i18n: I18n = setupI18n({
    locale,
    messages: { [locale]: messages as never },
    missing: (_locale: string, id: string) => id,
  });
  return (message, values) =>
    Object.prototype.hasOwnProperty.call(messages, message)
      ? i18n._(message, values as Record<string, unknown>)
      : values
        ? substitute(message, values)
        : message;
}
