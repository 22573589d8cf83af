// i18n-area: shell
// The gear's quick settings panel (quick-settings.tsx): it loads the settings while open and
// saves each change on its own through PUT /api/user-settings. A chunk of its own, loaded the
// first time the panel opens.
import { Link, useRevalidator } from '@remix-run/react';
import { useCallback, useEffect, useState } from 'react';
import {
  AUTO_LOGOUT_OPTIONS,
  DATE_FORMATS,
  LANGUAGES,
  REFRESH_INTERVALS,
  SESSION_TIMEOUT_OPTIONS,
  TIME_FORMATS,
} from './user-settings.ts';
import {
  LANGUAGE_LABELS,
  minutesLabel,
  NOTIFICATION_TYPE_LABELS,
  secondsLabel,
  THEME_LABELS,
  TIME_FORMAT_LABELS,
} from './option-labels.ts';
import { useReader } from '../../platform/i18n/i18n-context.tsx';
import { callApi, refusalWords } from '../../platform/i18n/api-refusal.ts';
import { NOTIFICATION_TYPES, THEMES, type UserSettingsValues } from '../../platform/session/user-settings-row.ts';

type Status = { kind: 'saved' | 'error'; title: string; description: string } | null;

export default function QuickSettingsPanel({ onClose }: { onClose: () => void }) {
  const [settings, setSettings] = useState<UserSettingsValues | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const [saving, setSaving] = useState(false);
  const revalidator = useRevalidator();
  const reader = useReader();
  const { t } = reader;

  // Read only while the panel is open.
  useEffect(() => {
    let active = true;
    callApi<UserSettingsValues>('/api/user-settings')
      .then((data) => active && setSettings(data))
      .catch((error: unknown) => active && setLoadError(refusalWords(reader, error)));
    return () => {
      active = false;
    };
  }, [reader]);

  const save = useCallback(
    async (field: keyof UserSettingsValues, value: unknown) => {
      if (!settings) return; // nothing happens before the settings have loaded
      setSaving(true);
      setStatus(null);
      try {
        setSettings(await callApi<UserSettingsValues>('/api/user-settings', { [field]: value }, 'PUT'));
        setStatus({
          kind: 'saved',
          title: t('Settings updated'),
          description: t('Your settings have been saved successfully.'),
        });
        // The theme and the other appearance settings are applied by the root loader.
        if (field === 'theme') revalidator.revalidate();
      } catch (error) {
        setStatus({
          kind: 'error',
          title: t('Error updating settings'),
          description: refusalWords(reader, error) || t('Failed to update settings. Please try again.'),
        });
      } finally {
        setSaving(false);
      }
    },
    [settings, revalidator, t, reader],
  );

  const heading = (
    <div className="flex items-center justify-between">
      <h2 className="font-semibold text-slate-900">{t('Quick Settings')}</h2>
      <Link to="/settings" onClick={onClose} className="text-xs text-blue-700 underline">
        {t('All settings')}
      </Link>
    </div>
  );
  if (loadError)
    return (
      <div className="space-y-3">
        {heading}
        <p role="alert" className="text-red-700">
          {t('Failed to load settings ({error}).', { error: loadError })}
        </p>
      </div>
    );
  if (!settings)
    return (
      <div className="space-y-3">
        {heading}
        <p className="text-slate-500">{t('Loading settings…')}</p>
      </div>
    );

  const select = <V extends string | number>(
    field: keyof UserSettingsValues,
    label: string,
    options: readonly V[],
    format: (v: V) => string = String,
  ) => {
    const current = settings[field] as V;
    const list = options.includes(current) ? options : [current, ...options];
    return (
      <label className="flex items-center justify-between gap-3">
        <span className="text-slate-700">{label}</span>
        <select
          name={field}
          value={String(current)}
          disabled={saving}
          onChange={(e) => save(field, typeof current === 'number' ? Number(e.target.value) : e.target.value)}
          className="w-40 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
        >
          {list.map((v) => (
            <option key={String(v)} value={String(v)}>
              {format(v)}
            </option>
          ))}
        </select>
      </label>
    );
  };
  const toggle = (label: string, checked: boolean, onChange: (next: boolean) => void) => (
    <label className="flex items-center justify-between gap-3">
      <span className="text-slate-700">{label}</span>
      <input
        type="checkbox"
        checked={checked}
        disabled={saving}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4"
      />
    </label>
  );
  const layout = settings.dashboardLayout;

  return (
    <div className="space-y-3">
      {heading}
      {select('theme', t('Theme'), THEMES, (theme) => t(THEME_LABELS[theme as keyof typeof THEME_LABELS]))}
      {select('language', t('Language'), LANGUAGES, (l) => LANGUAGE_LABELS[l as keyof typeof LANGUAGE_LABELS])}
      {select('dateFormat', t('Date format'), DATE_FORMATS)}
      {select('timeFormat', t('Time format'), TIME_FORMATS, (format) =>
        t(TIME_FORMAT_LABELS[format as keyof typeof TIME_FORMAT_LABELS]),
      )}
      {toggle(t('Dashboard auto-refresh'), layout.autoRefresh, (next) =>
        save('dashboardLayout', { autoRefresh: next }),
      )}
      <label className="flex items-center justify-between gap-3">
        <span className="text-slate-700">{t('Refresh interval')}</span>
        <select
          value={String(layout.refreshInterval)}
          disabled={saving || !layout.autoRefresh}
          onChange={(e) => save('dashboardLayout', { refreshInterval: Number(e.target.value) })}
          className="w-40 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
        >
          {REFRESH_INTERVALS.map((v) => (
            <option key={v} value={v}>
              {secondsLabel(v, t)}
            </option>
          ))}
        </select>
      </label>
      {select('autoLogout', t('Auto-logout'), AUTO_LOGOUT_OPTIONS, (v) => minutesLabel(v, t))}
      {select('sessionTimeout', t('Session timeout'), SESSION_TIMEOUT_OPTIONS, (v) => minutesLabel(v, t))}
      <div className="space-y-2 border-t border-slate-200 pt-3">
        {toggle(t('E-mail notifications'), settings.emailNotifications, (next) => save('emailNotifications', next))}
        {toggle(t('Push notifications'), settings.pushNotifications, (next) => save('pushNotifications', next))}
        {toggle(t('Share activity status'), settings.shareActivityStatus, (next) => save('shareActivityStatus', next))}
        {toggle(t('Share profile info'), settings.shareProfileInfo, (next) => save('shareProfileInfo', next))}
      </div>
      <fieldset className="space-y-2 border-t border-slate-200 pt-3">
        <legend className="sr-only">{t('Notification types')}</legend>
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t('Notification types')}</p>
        {NOTIFICATION_TYPES.map((type) => (
          <div key={type}>
            {toggle(t(NOTIFICATION_TYPE_LABELS[type]), settings.notificationTypes[type], (next) =>
              save('notificationTypes', { ...settings.notificationTypes, [type]: next }),
            )}
          </div>
        ))}
      </fieldset>
      {status ? (
        <div
          role={status.kind === 'error' ? 'alert' : 'status'}
          data-testid="quick-settings-status"
          className={`rounded-md border p-2 text-xs ${status.kind === 'error' ? 'border-red-300 bg-red-50 text-red-900' : 'border-green-300 bg-green-50 text-green-900'}`}
        >
          <p className="font-semibold">{status.title}</p>
          <p>{status.description}</p>
        </div>
      ) : null}
    </div>
  );
}
