// User settings (docs/decisions.md): the fixed option lists and their labels. The stored shape
// and defaults (THEMES, NOTIFICATION_TYPES, DEFAULT_SETTINGS) come with every session, so they
// are the platform's (app/platform/session/user-settings-row.ts).
// Isomorphic: the settings page, the gear's pop-over, the JSON API and the service all use
// these, and the document (root.tsx) its appearance classes on every page, so it stays free of
// zod: the schemas built from these lists are in user-settings-schema.ts.
import type { Theme } from '../../platform/session/user-settings-row.ts';
import { msg } from '../../platform/i18n/messages.ts';

/**
 * Themes (THEMES): the pop-over offers light/dark/system, the settings page light/dark/auto.
 * 'auto' and 'system' mean the same thing (follow the operating system); 'auto' is stored as 'system'.
 */
export const THEME_INPUTS = ['light', 'dark', 'system', 'auto'] as const;

/** The settings page's list (the pop-over's en/es/fr is a subset). */
export const LANGUAGES = ['en', 'es', 'fr', 'de'] as const;

/** UTC, the US zones, then the zones of the four languages' teams. */
export const TIMEZONES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Madrid',
  'Europe/Paris',
  'Europe/Berlin',
] as const;
export const TIMEZONE_LABELS: Record<(typeof TIMEZONES)[number], string> = {
  UTC: 'UTC',
  'America/New_York': msg('Eastern Time (America/New_York)'),
  'America/Chicago': msg('Central Time (America/Chicago)'),
  'America/Denver': msg('Mountain Time (America/Denver)'),
  'America/Los_Angeles': msg('Pacific Time (America/Los_Angeles)'),
  'Europe/London': msg('United Kingdom (Europe/London)'),
  'Europe/Madrid': msg('Spain (Europe/Madrid)'),
  'Europe/Paris': msg('France (Europe/Paris)'),
  'Europe/Berlin': msg('Germany (Europe/Berlin)'),
};

export const DATE_FORMATS = ['MM/dd/yyyy', 'dd/MM/yyyy', 'yyyy-MM-dd'] as const;
export const TIME_FORMATS = ['12h', '24h'] as const;
export const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD'] as const;

/** Dashboard auto-refresh interval, seconds. */
export const REFRESH_INTERVALS = [15, 30, 60, 300] as const;
/** Auto-logout (absolute session lifetime), minutes. */
export const AUTO_LOGOUT_OPTIONS = [60, 240, 480, 1440] as const;
/**
 * Session (idle) timeout, minutes. The pop-over offers 15/30/60/120 minutes, the security tab
 * 1 h/8 h/24 h/never; both lists are accepted, 0 meaning never. The stored default is 30.
 */
export const SESSION_TIMEOUT_OPTIONS = [15, 30, 60, 120, 480, 1440, 0] as const;
export const NEVER = 0;

/** Dashboard cards a layout may list. */
export const DASHBOARD_CARDS = ['stats', 'activity', 'health', 'access', 'api', 'alerts'] as const;

/** What the shell and the document need on every page. */
export interface AppearanceSettings {
  theme: Theme;
  compactSidebar: boolean;
  animations: boolean;
}

/** Classes on <html> for the appearance settings (read by tailwind.config.ts's rules). */
export function appearanceClasses(appearance: AppearanceSettings | null | undefined): string {
  const classes: string[] = [];
  if (appearance?.theme === 'dark') classes.push('dark');
  if (appearance?.theme === 'system') classes.push('theme-system');
  if (appearance?.compactSidebar) classes.push('compact-sidebar');
  if (appearance && !appearance.animations) classes.push('reduce-motion');
  return classes.join(' ');
}

// ---------------------------------------------------------------------------------------------
// The Settings page's forms (SETTINGS_FORMS in user-settings-schema.ts) each become a partial
// update. The notifications form also carries this device's switches, which live in a cookie,
// not in the settings record.

export const DEVICE_SWITCHES = ['soundEnabled', 'vibrationEnabled', 'showBadge'] as const;

/** The Settings page's tabs that save a form (each one's schema: SETTINGS_FORMS). */
export const SETTINGS_TABS = ['notifications', 'appearance', 'preferences', 'security'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** A tab's parsed form as a settings patch: fields the form did not send stay as they are. */
export function settingsPatch(value: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || (DEVICE_SWITCHES as readonly string[]).includes(key)) continue;
    patch[key] =
      v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([, inner]) => inner !== undefined)) : v;
  }
  return patch;
}
