// The /settings page: five tabs (?tab=…), each a plain form saved to the user's settings
// record; the notifications tab also shows this browser's push state and device switches, and
// the system tab the system's facts with the report download and Clear cache.
import { Form, Link, useNavigation } from '@remix-run/react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { fieldErrorsOf, formErrorOf, TabNav, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { SelectField, SettingsForm, StatusBadge, Switch } from './controls.tsx';
import { NotificationDevice, type DeviceSwitches } from './notification-device.tsx';
import { SystemInformation, SystemStatuses, type SystemFactsView } from '../system/index.ts';
import { Alert, Card } from '../../ui/form.tsx';
import {
  AUTO_LOGOUT_OPTIONS,
  CURRENCIES,
  DATE_FORMATS,
  LANGUAGES,
  REFRESH_INTERVALS,
  SESSION_TIMEOUT_OPTIONS,
  TIME_FORMATS,
  TIMEZONE_LABELS,
  TIMEZONES,
} from './user-settings.ts';
import { LANGUAGE_LABELS, minutesLabel, secondsLabel, THEME_LABELS, TIME_FORMAT_LABELS } from './option-labels.ts';
import { NOTIFICATION_TYPES, type UserSettings } from '../../platform/session/user-settings-row.ts';
import { screenTitle } from '../../platform/screen/navigation.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';

export const SETTINGS_PAGE_TABS = [
  { key: 'notifications', label: msg('Notifications') },
  { key: 'appearance', label: msg('Appearance') },
  { key: 'preferences', label: msg('Preferences') },
  { key: 'security', label: msg('Security') },
  { key: 'system', label: msg('System') },
] as const;

/** Each notification type's switch on this page. */
const NOTIFICATION_TYPE_SWITCHES: Record<(typeof NOTIFICATION_TYPES)[number], string> = {
  system: msg('System notifications'),
  financial: msg('Financial notifications'),
  api: msg('API notifications'),
  user: msg('User notifications'),
  security: msg('Security notifications'),
};

const THEME_CHOICES = [
  { value: 'light', label: THEME_LABELS.light },
  { value: 'dark', label: THEME_LABELS.dark },
  { value: 'auto', label: msg('Auto (follow system)') },
] as const;

export type SettingsPageTab = (typeof SETTINGS_PAGE_TABS)[number]['key'];

/** What the screen's loader gives it. */
export interface SettingsData {
  tab: SettingsPageTab;
  settings: UserSettings;
  device: DeviceSwitches;
  /** The system tab's facts (null on the other tabs). */
  system: SystemFactsView | null;
  deviceLabel: string;
  isIos: boolean;
  twoFactorEnabled: boolean;
}

function clearClientCaches() {
  try {
    if (typeof caches !== 'undefined')
      void caches.keys().then((keys) => Promise.all(keys.map((key) => caches.delete(key))));
    sessionStorage.clear();
  } catch {
    // Nothing cached, or storage not available: nothing to clear.
  }
}

export function SettingsScreen({
  data: { tab, settings, device, system, deviceLabel, isIos, twoFactorEnabled },
  actionData,
}: {
  data: SettingsData;
  actionData: ActionAnswer | undefined;
}) {
  const t = useT();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const ours = actionData?.intent === tab ? actionData : null;
  const errors = fieldErrorsOf(ours);
  const failure = formErrorOf(ours);
  const theme = settings.theme === 'system' ? 'auto' : settings.theme;

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeading title={t(screenTitle('/settings'))} />
      <TabNav
        label={t('Settings sections')}
        current={tab}
        tabs={SETTINGS_PAGE_TABS.map((s) => ({ ...s, label: t(s.label), to: `/settings?tab=${s.key}` }))}
      />

      {failure ? (
        <div className="mb-4">
          <Alert title={t('Error updating settings')}>{t(failure)}</Alert>
        </div>
      ) : null}

      {tab === 'notifications' ? (
        <div className="space-y-6">
          <Card title={t('Push Notifications')}>
            <NotificationDevice deviceLabel={deviceLabel} isIos={isIos} device={device} />
          </Card>
          <Card title={t('Notification Settings')}>
            <SettingsForm tab="notifications" busy={busy}>
              <Switch
                name="pushNotifications"
                label={t('Push notifications')}
                description={t(
                  'Send new notifications to the browsers you turned push on in (above). Off: they stay in the bell only.',
                )}
                defaultChecked={settings.pushNotifications}
                error={errors.pushNotifications}
              />
              <Switch
                name="soundEnabled"
                label={t('Sound')}
                description={t('Play a sound with notifications on this device.')}
                defaultChecked={device.soundEnabled}
              />
              <Switch
                name="vibrationEnabled"
                label={t('Vibration')}
                description={t('Vibrate on notifications (mobile devices).')}
                defaultChecked={device.vibrationEnabled}
              />
              <Switch
                name="showBadge"
                label={t('Badge')}
                description={t('Show the unread count on the app icon.')}
                defaultChecked={device.showBadge}
              />
              <div className="pt-3">
                <fieldset>
                  <legend className="text-sm font-semibold text-slate-900">{t('Notification types')}</legend>
                  {NOTIFICATION_TYPES.map((type) => (
                    <Switch
                      key={type}
                      name={`notificationTypes.${type}`}
                      label={t(NOTIFICATION_TYPE_SWITCHES[type])}
                      defaultChecked={settings.notificationTypes[type]}
                      error={errors[`notificationTypes.${type}`]}
                    />
                  ))}
                </fieldset>
              </div>
            </SettingsForm>
          </Card>
        </div>
      ) : null}

      {tab === 'appearance' ? (
        <Card title={t('Appearance')}>
          <SettingsForm tab="appearance" busy={busy}>
            <div className="py-3">
              <fieldset>
                <legend className="text-sm font-medium text-slate-800">{t('Theme')}</legend>
                <div className="mt-2 flex flex-wrap gap-3">
                  {THEME_CHOICES.map(({ value, label }) => (
                    <label
                      key={value}
                      className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm text-slate-800"
                    >
                      <input
                        type="radio"
                        name="theme"
                        value={value}
                        defaultChecked={theme === value}
                        className="accent-blue-700"
                      />
                      {t(label)}
                    </label>
                  ))}
                </div>
                {errors.theme ? (
                  <p className="mt-1 text-sm text-red-700" data-testid="setting-theme-error">
                    {errors.theme}
                  </p>
                ) : null}
              </fieldset>
            </div>
            <Switch
              name="compactSidebar"
              label={t('Compact sidebar')}
              description={t('A narrower navigation with tighter rows.')}
              defaultChecked={settings.compactSidebar}
              error={errors.compactSidebar}
            />
            <Switch
              name="animations"
              label={t('Animations')}
              description={t('Turn off to remove transitions and animations.')}
              defaultChecked={settings.animations}
              error={errors.animations}
            />
          </SettingsForm>
        </Card>
      ) : null}

      {tab === 'preferences' ? (
        <Card title={t('Preferences')}>
          <SettingsForm tab="preferences" busy={busy}>
            <SelectField
              name="language"
              label={t('Language')}
              options={LANGUAGES}
              value={settings.language as (typeof LANGUAGES)[number]}
              format={(l) => LANGUAGE_LABELS[l]}
              error={errors.language}
            />
            <SelectField
              name="timezone"
              label={t('Timezone')}
              options={TIMEZONES}
              value={settings.timezone as (typeof TIMEZONES)[number]}
              format={(z) => t(TIMEZONE_LABELS[z])}
              error={errors.timezone}
            />
            <SelectField
              name="dateFormat"
              label={t('Date format')}
              options={DATE_FORMATS}
              value={settings.dateFormat as (typeof DATE_FORMATS)[number]}
              error={errors.dateFormat}
            />
            <SelectField
              name="timeFormat"
              label={t('Time format')}
              options={TIME_FORMATS}
              value={settings.timeFormat as (typeof TIME_FORMATS)[number]}
              format={(format) => t(TIME_FORMAT_LABELS[format])}
              error={errors.timeFormat}
            />
            <SelectField
              name="defaultCurrency"
              label={t('Default currency')}
              options={CURRENCIES}
              value={settings.defaultCurrency as (typeof CURRENCIES)[number]}
              error={errors.defaultCurrency}
              hint={t('Amounts are kept and shown in US dollars, the books’ currency; nothing is converted.')}
            />
            <Switch
              name="autoRefresh"
              label={t('Dashboard auto-refresh')}
              defaultChecked={settings.dashboardLayout.autoRefresh}
              error={errors['dashboardLayout.autoRefresh']}
            />
            <SelectField
              name="refreshInterval"
              label={t('Refresh interval')}
              options={REFRESH_INTERVALS}
              value={settings.dashboardLayout.refreshInterval as (typeof REFRESH_INTERVALS)[number]}
              format={(seconds) => secondsLabel(seconds, t)}
              error={errors['dashboardLayout.refreshInterval']}
            />
            <Switch
              name="emailNotifications"
              label={t('E-mail notifications')}
              defaultChecked={settings.emailNotifications}
              error={errors.emailNotifications}
            />
            <Switch
              name="reportEmails"
              label={t('Report e-mails')}
              description={t('Receive scheduled reports by e-mail.')}
              defaultChecked={settings.reportEmails}
              error={errors.reportEmails}
            />
            <Switch
              name="shareActivityStatus"
              label={t('Share activity status')}
              defaultChecked={settings.shareActivityStatus}
              error={errors.shareActivityStatus}
            />
            <Switch
              name="shareProfileInfo"
              label={t('Share profile info')}
              defaultChecked={settings.shareProfileInfo}
              error={errors.shareProfileInfo}
            />
          </SettingsForm>
        </Card>
      ) : null}

      {tab === 'security' ? (
        <div className="space-y-6">
          <Card title={t('Security')}>
            <SettingsForm tab="security" busy={busy}>
              <Switch
                name="securityAlerts"
                label={t('Security alerts')}
                description={t('Be told about sign-ins and security events on your account.')}
                defaultChecked={settings.securityAlerts}
                error={errors.securityAlerts}
              />
              <SelectField
                name="sessionTimeout"
                label={t('Session timeout')}
                options={SESSION_TIMEOUT_OPTIONS}
                value={settings.sessionTimeout as (typeof SESSION_TIMEOUT_OPTIONS)[number]}
                format={(minutes) => minutesLabel(minutes, t)}
                error={errors.sessionTimeout}
                hint={t('You are signed out after this long without activity (not with Remember me).')}
              />
              <SelectField
                name="autoLogout"
                label={t('Auto-logout')}
                options={AUTO_LOGOUT_OPTIONS}
                value={settings.autoLogout as (typeof AUTO_LOGOUT_OPTIONS)[number]}
                format={(minutes) => minutesLabel(minutes, t)}
                error={errors.autoLogout}
                hint={t('The longest a sign-in lasts; applies from your next sign-in.')}
              />
            </SettingsForm>
          </Card>
          <Card title={t('Password and sign-in')}>
            <div className="flex flex-wrap items-center justify-between gap-3 py-2">
              <div>
                <p className="text-sm font-medium text-slate-800">{t('Password')}</p>
                <p className="text-xs text-slate-500">{t('Change the password you sign in with.')}</p>
              </div>
              <Link
                to="/profile?password=1"
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
              >
                {t('Change Password')}
              </Link>
            </div>
            <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 py-2">
              <div>
                <p className="text-sm font-medium text-slate-800">{t('Two-factor authentication')}</p>
                <p className="text-xs text-slate-500">{t('An extra code at sign-in.')}</p>
              </div>
              <div className="flex items-center gap-3">
                <StatusBadge status={twoFactorEnabled ? 'ok' : 'warning'}>
                  {twoFactorEnabled ? t('On') : t('Off')}
                </StatusBadge>
                <Link to="/two-factor" className="text-sm font-medium text-blue-700 hover:underline">
                  {twoFactorEnabled ? t('Manage') : t('Set up')}
                </Link>
              </div>
            </div>
          </Card>
        </div>
      ) : null}

      {tab === 'system' && system ? (
        <div className="space-y-6">
          <SystemInformation system={system} />
          <SystemStatuses system={system} />
          <Card title={t('Maintenance')}>
            <div className="flex flex-wrap gap-3">
              <a href="/settings-report" download className="btn-secondary">
                {t('Download report')}
              </a>
              <Form method="post" action="/settings?tab=system" onSubmit={clearClientCaches}>
                <input type="hidden" name="intent" value="clear-cache" />
                <button type="submit" className="btn-secondary">
                  {t('Clear cache')}
                </button>
              </Form>
            </div>
            <p className="mt-3 text-xs text-slate-500">
              {t(
                'The report is a JSON summary of the version, statuses and your settings. Clearing the cache removes files this browser keeps for the site; your settings are stored on the server and stay as they are.',
              )}
            </p>
          </Card>
        </div>
      ) : null}
    </div>
  );
}
