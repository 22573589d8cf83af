// Translation for route modules' `meta` functions, which run outside the components and so
// without `useT()`: the root route's data names the page's language and message files
// (docs/languages.md).
import { createTranslate, type CompiledMessages, type Translate } from './messages.ts';
import { messagesOf, type MessageFile } from './message-files.ts';
import { DEFAULT_PREFERENCES, type Preferences } from './preferences.ts';

interface RootData {
  preferences?: Preferences;
  messageFiles?: MessageFile[];
}

/** One translator per messages object (a meta function runs at every navigation). */
const built = new WeakMap<CompiledMessages, { locale: Preferences['locale']; t: Translate }>();

/** `t` for a meta function: `({ matches }) => [{ title: metaTranslate(matches)(screenTitle('/x')) }]`. */
export function metaTranslate(matches: readonly { id: string; data?: unknown }[]): Translate {
  const data = matches.find((m) => m.id === 'root')?.data as RootData | null | undefined;
  const locale = data?.preferences?.locale ?? DEFAULT_PREFERENCES.locale;
  const messages = messagesOf(data?.messageFiles);
  let entry = built.get(messages);
  if (!entry || entry.locale !== locale) {
    entry = { locale, t: createTranslate(locale, messages) };
    built.set(messages, entry);
  }
  return entry.t;
}
