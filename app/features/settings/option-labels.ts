// i18n-area: shell
// The labels of the settings' options that the gear's pop-over (on every page) and the Settings
// page both show, so their messages are the shell's (docs/languages.md). Isomorphic.
import type { Locale } from '../../platform/i18n/locales.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import type { NOTIFICATION_TYPES, Theme } from '../../platform/session/user-settings-row.ts';
import { NEVER } from './user-settings.ts';

export const THEME_LABELS: Record<Theme, string> = {
  light: msg('Light'),
  dark: msg('Dark'),
  system: msg('Auto (system)'),
};

/** Each language by its own name, never translated. */
export const LANGUAGE_LABELS: Record<Locale, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
};

export const TIME_FORMAT_LABELS: Record<'12h' | '24h', string> = { '12h': msg('12-hour'), '24h': msg('24-hour') };

export const NOTIFICATION_TYPE_LABELS: Record<(typeof NOTIFICATION_TYPES)[number], string> = {
  system: msg('System'),
  financial: msg('Financial'),
  api: msg('API'),
  user: msg('User'),
  security: msg('Security'),
};

/** A duration in minutes: 'Never' for 0, '15 minutes', '8 hours'. */
export function minutesLabel(minutes: number, t: Translate): string {
  if (minutes === NEVER) return t('Never');
  if (minutes < 60) return t('{count, plural, one {# minute} other {# minutes}}', { count: minutes });
  return t('{count, plural, one {# hour} other {# hours}}', { count: minutes / 60 });
}

/** A duration in seconds: '30 seconds', '1 minute', '5 minutes'. */
export function secondsLabel(seconds: number, t: Translate): string {
  if (seconds < 60) return t('{count, plural, one {# second} other {# seconds}}', { count: seconds });
  return t('{count, plural, one {# minute} other {# minutes}}', { count: seconds / 60 });
}
