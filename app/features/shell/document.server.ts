// What every page's document needs, loaded once by the root route: the signed-in user's shell
// (whether the password must be changed first, sidebar, the bell's count; only what the shell
// renders, as every page carries it in its hydration data), the flash toast (cleared once shown) and the appearance
// settings applied in the server render, so a page never flashes the wrong theme.
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { buildSidebar, sidebarLinks } from '../../platform/screen/navigation.ts';
import type { AppearanceSettings } from '../settings/index.ts';
import { listVisibleCompanies } from '../../platform/companies.server.ts';
import { countNotifications } from '../notifications/index.server.ts';
import { appearanceOf, findUserSettings } from '../settings/index.server.ts';
import { getAuth, requiredStep, serviceContext } from '../../platform/session/session.server.ts';
import { takeToast } from '../../platform/session/toast.server.ts';
import { DEFAULT_SETTINGS } from '../../platform/session/user-settings-row.ts';
import { preferencesForGuest, preferencesOf, type Preferences } from '../../platform/i18n/preferences.ts';
import { catalogs } from './catalogs.server.ts';
import { pseudoLocaleRequested } from '../../platform/i18n/catalog.server.ts';
import { documentAreas } from './page-areas.ts';

export async function documentLoader({ request, context }: LoaderFunctionArgs) {
  const [auth, { toast, clear }] = await Promise.all([getAuth(request, context), takeToast(request, context)]);
  let shell = null;
  let appearance: AppearanceSettings | null = null;
  let preferences: Preferences = preferencesForGuest(request.headers.get('Accept-Language'));
  if (auth) {
    const ctx = serviceContext(request, context, auth);
    // One read of the settings row serves the appearance and the bell's notification switches:
    // the session lookup's, unless this request ran an action (it may have changed them).
    const read = request.method === 'GET' || request.method === 'HEAD';
    // Until a required step (a new password, a second factor) is done, nothing else is offered.
    const restricted = requiredStep(auth) !== null;
    const [companies, settings] = await Promise.all([
      restricted ? [] : listVisibleCompanies(ctx),
      read ? auth.settings : findUserSettings(ctx.db, auth.user.id),
    ]);
    const notifications = restricted ? { total: 0, unread: 0 } : await countNotifications(ctx, { settings });
    appearance = appearanceOf(settings);
    preferences = preferencesOf(settings ?? DEFAULT_SETTINGS);
    shell = {
      restricted,
      sidebar: restricted ? [] : sidebarLinks(buildSidebar(auth.user, companies)),
      // The bell's badge, rendered by the server on every page.
      notifications,
    };
  }
  // The page's language and formats, and the files of its own messages in that language.
  const pseudo = pseudoLocaleRequested(request, preferences.locale);
  const messageFiles = catalogs.messageFiles(preferences.locale, documentAreas(new URL(request.url).pathname), pseudo);
  // A Response only when a cookie must be cleared (Remix wraps a plain object in json() itself).
  return clear
    ? json({ shell, toast, appearance, preferences, messageFiles }, { headers: { 'Set-Cookie': clear } })
    : { shell, toast, appearance, preferences, messageFiles };
}
