// The reader's language, messages and formats for every component, from the document's loader
// data (docs/languages.md). Server and browser build them from the same data, so hydration finds
// the text it expects.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { formatsFor, type Formats } from './formats.ts';
import { createTranslate, type CompiledMessages, type Translate } from './messages.ts';
import { DEFAULT_PREFERENCES, type Preferences } from './preferences.ts';
import type { Reader } from './refusal-words.ts';

interface I18nValue {
  preferences: Preferences;
  t: Translate;
  formats: Formats;
}

const english: I18nValue = {
  preferences: DEFAULT_PREFERENCES,
  t: createTranslate('en', {}),
  formats: formatsFor(DEFAULT_PREFERENCES),
};

const I18nContext = createContext<I18nValue>(english);

export function I18nProvider({
  preferences,
  messages,
  children,
}: {
  preferences: Preferences;
  messages: CompiledMessages;
  children: ReactNode;
}) {
  const value = useMemo(
    () => ({ preferences, t: createTranslate(preferences.locale, messages), formats: formatsFor(preferences) }),
    [preferences, messages],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** `t('Save')`: the reader's text for an English message. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}

/** The reader (translator and language), for texts that keep words per language. */
export function useReader(): Reader {
  const { t, preferences } = useContext(I18nContext);
  const { locale } = preferences;
  // The same object while the language stays: callbacks may depend on it.
  return useMemo(() => ({ t, locale }), [t, locale]);
}

export function useFormats(): Formats {
  return useContext(I18nContext).formats;
}

export function usePreferences(): Preferences {
  return useContext(I18nContext).preferences;
}
