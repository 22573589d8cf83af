// The language and formats of whoever sent a request, for texts the server writes (toasts,
// messages in action data): the signed-in user's settings, else the browser's language.
import type { Auth } from '../../platform/session/session.server.ts';
import { formatsFor, type Formats } from '../../platform/i18n/formats.ts';
import type { Translate } from '../../platform/i18n/messages.ts';
import { preferencesForGuest, preferencesOf, type Preferences } from '../../platform/i18n/preferences.ts';
import { DEFAULT_SETTINGS, type UserSettings } from '../../platform/session/user-settings-row.ts';
import { catalogs } from './catalogs.server.ts';
import { pseudoLocaleRequested } from '../../platform/i18n/catalog.server.ts';

export interface RequestI18n {
  preferences: Preferences;
  t: Translate;
  formats: Formats;
}

/**
 * `settings` when the request has just changed them (the session's copy is from before), or
 * when it has just signed somebody in (there is no session yet).
 */
export function requestI18n(request: Request, auth: Auth | null, settings?: UserSettings | null): RequestI18n {
  const preferences =
    auth || settings
      ? preferencesOf(settings ?? auth?.settings ?? DEFAULT_SETTINGS)
      : preferencesForGuest(request.headers.get('Accept-Language'));
  const t = pseudoLocaleRequested(request, preferences.locale)
    ? catalogs.pseudoTranslator()
    : catalogs.translator(preferences.locale);
  return { preferences, t, formats: formatsFor(preferences) };
}
