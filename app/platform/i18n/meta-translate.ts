// Translation for route modules' `meta` functions, which run outside the components and so
// without `useT()`: the root route's data carries the page's language and messages
// (docs/languages.md).
import { createTranslate, type CompiledMessages, type Translate } from './messages.ts';
import { DEFAULT_PREFERENCES, type Preferences } from './preferences.ts';

interface RootData {
  preferences?: Preferences;
  messages?: CompiledMessages;
}

/** One translator per messages object the root's data holds (a meta function runs at every navigation). */
const built = new WeakMap<CompiledMessages, { locale: Preferences['locale']; t: Translate }>();
const NO_MESSAGES: CompiledMessages = {};

/** `t` for a meta function: `({ matches }) => [{ title: metaTranslate(matches)(screenTitle('/x')) }]`. */
export function metaTranslate(matches: readonly { id: string; data?: unknown }[]): Translate {
  const data = matches.find((m) => m.id === 'root')?.data as RootData | null | undefined;
  const locale = data?.preferences?.locale ?? DEFAULT_PREFERENCES.locale;
  const messages = data?.messages ?? NO_MESSAGES;
  let entry = built.get(messages);
  if (!entry || entry.locale !== locale) {
    entry = { locale, t: createTranslate(locale, messages) };
    built.set(messages, entry);
  }
  return entry.t;
}
