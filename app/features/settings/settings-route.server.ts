// The /settings route's server half: five tabs in the URL (?tab=…). Every choice is saved to the
// user's settings record with a plain form, not kept in the browser as the old app did
// (docs/decisions.md); the device-only notification switches (sound, vibration, badge) live in a
// cookie of this browser, since they belong to the device.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { SETTINGS_PAGE_TABS, type SettingsData } from './settings-screen.tsx';
import { deviceSettingsCookie, readDeviceSettings } from './device-settings.server.ts';
import { loadScreen, screenAction, succeed, tabOf } from '../../platform/screen/screen.server.ts';
import { intent, type Intent } from '../../platform/screen/intent.ts';
import { settingsPatch, type SettingsTab } from './user-settings.ts';
import { SETTINGS_FORMS } from './settings-forms.server.ts';
import { getSystemFacts } from '../system/index.server.ts';
import { getUserSettings, updateUserSettings } from './user-settings.server.ts';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import { requestI18n } from '../shell/index.server.ts';

function describeDevice(userAgent: string, t: Translate): { label: string; isIos: boolean } {
  const isIos = /iPhone|iPad|iPod/i.test(userAgent);
  const os = isIos
    ? 'iOS'
    : /Android/i.test(userAgent)
      ? 'Android'
      : /Windows/i.test(userAgent)
        ? 'Windows'
        : /Mac OS X/i.test(userAgent)
          ? 'macOS'
          : /Linux/i.test(userAgent)
            ? 'Linux'
            : t('Unknown system');
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : t('Unknown browser');
  return { label: t('{browser} on {system}', { browser, system: os }), isIos };
}

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url, request, context, auth }) => {
    const tab = tabOf(
      url,
      SETTINGS_PAGE_TABS.map((t) => t.key),
    );
    const [settings, device, system] = await Promise.all([
      getUserSettings(ctx),
      readDeviceSettings(request),
      tab === 'system' ? getSystemFacts(ctx, context.config.env) : null,
    ]);
    const { label, isIos } = describeDevice(request.headers.get('User-Agent') ?? '', requestI18n(request, auth).t);
    const data: SettingsData = {
      tab,
      settings,
      device,
      system,
      deviceLabel: label,
      isIos,
      twoFactorEnabled: auth.twoFactorEnabled,
    };
    return json(data);
  });

/** One tab's form: saved to the settings record (the notifications tab also to this device's cookie). */
function saveTab(tab: SettingsTab): Intent {
  return intent({
    allow: allow.signedIn,
    schema: SETTINGS_FORMS[tab],
    invalid: msg('Failed to update settings. Please try again.'),
    run: async (value, screen) => {
      const headers = new Headers();
      if ('soundEnabled' in value) {
        const { soundEnabled, vibrationEnabled, showBadge } = value;
        headers.append(
          'Set-Cookie',
          await deviceSettingsCookie({ soundEnabled, vibrationEnabled, showBadge }, screen.context.secure),
        );
      }
      const updated = await updateUserSettings(screen.ctx, settingsPatch(value));
      // In the language just chosen, like the page it is shown on.
      const { t } = requestI18n(screen.request, screen.auth, updated);
      return succeed(
        screen,
        {
          type: 'success',
          title: t('Settings updated'),
          description: t('Your settings have been saved successfully.'),
        },
        { to: `/settings?tab=${tab}`, headers },
      );
    },
  });
}

const intents = {
  notifications: saveTab('notifications'),
  appearance: saveTab('appearance'),
  preferences: saveTab('preferences'),
  security: saveTab('security'),
  // Asks the browser to drop this site's HTTP and Cache Storage caches (with JavaScript the
  // page has already cleared Cache Storage itself). Settings live on the server: untouched.
  'clear-cache': intent({
    allow: allow.signedIn,
    run: async (_value, screen) => {
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(
        screen,
        {
          type: 'success',
          title: t('Cache cleared'),
          description: t('Cached files of this site were removed from this browser.'),
        },
        {
          to: '/settings?tab=system',
          headers: { 'Clear-Site-Data': '"cache"' },
        },
      );
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { i18n: requestI18n });
