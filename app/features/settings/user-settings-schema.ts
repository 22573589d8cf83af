// The zod schemas of user settings: a partial update (the JSON API and the service) and the
// Settings page's forms. Apart from the option lists in user-settings.ts, which the document
// loads on every page: these are built at module load, so whatever imports them ships zod.
import { z } from 'zod';
import {
  AUTO_LOGOUT_OPTIONS,
  CURRENCIES,
  DASHBOARD_CARDS,
  DATE_FORMATS,
  DEVICE_SWITCHES,
  LANGUAGES,
  REFRESH_INTERVALS,
  SESSION_TIMEOUT_OPTIONS,
  THEME_INPUTS,
  TIME_FORMATS,
  TIMEZONES,
  type SettingsTab,
} from './user-settings.ts';
import {
  NOTIFICATION_TYPES,
  type NotificationTypeFlags,
  type Theme,
} from '../../platform/session/user-settings-row.ts';

const oneOf = <T extends readonly (string | number)[]>(values: T, what: string) =>
  z.custom<T[number]>((v) => (values as readonly unknown[]).includes(v), {
    message: `${what} must be one of: ${values.map((v) => (v === 0 && what === 'Session timeout' ? '0 (never)' : String(v))).join(', ')}`,
  });

const bool = (what: string) => z.boolean({ error: `${what} must be true or false` });

/** Objects may arrive as JSON text. */
const jsonText = (value: unknown) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

const NotificationTypesPatch = z.preprocess(
  jsonText,
  z.strictObject(
    Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, bool(`notificationTypes.${t}`).optional()])) as Record<
      (typeof NOTIFICATION_TYPES)[number],
      z.ZodOptional<z.ZodBoolean>
    >,
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown notification type: ${issue.keys.join(', ')}`
          : 'notificationTypes must be an object of true/false flags',
    },
  ),
);

const DashboardLayoutPatch = z.preprocess(
  jsonText,
  z.strictObject(
    {
      cards: z
        .array(oneOf(DASHBOARD_CARDS, 'Card'), { error: 'cards must be a list of card names' })
        .max(DASHBOARD_CARDS.length)
        .optional(),
      autoRefresh: bool('autoRefresh').optional(),
      refreshInterval: oneOf(REFRESH_INTERVALS, 'Refresh interval').optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown dashboard layout field: ${issue.keys.join(', ')}`
          : 'dashboardLayout must be an object',
    },
  ),
);

/**
 * A partial update: any subset of the fields, unknown fields rejected. notificationTypes and
 * dashboardLayout may be whole or partial objects (merged into the stored ones) or JSON text.
 */
export const UserSettingsPatchSchema = z.strictObject(
  {
    emailNotifications: bool('emailNotifications').optional(),
    pushNotifications: bool('pushNotifications').optional(),
    notificationTypes: NotificationTypesPatch.optional(),
    theme: oneOf(THEME_INPUTS, 'Theme')
      .transform((t): Theme => (t === 'auto' ? 'system' : t))
      .optional(),
    language: oneOf(LANGUAGES, 'Language').optional(),
    timezone: oneOf(TIMEZONES, 'Timezone').optional(),
    dateFormat: oneOf(DATE_FORMATS, 'Date format').optional(),
    timeFormat: oneOf(TIME_FORMATS, 'Time format').optional(),
    dashboardLayout: DashboardLayoutPatch.optional(),
    shareActivityStatus: bool('shareActivityStatus').optional(),
    shareProfileInfo: bool('shareProfileInfo').optional(),
    autoLogout: oneOf(AUTO_LOGOUT_OPTIONS, 'Auto-logout').optional(),
    sessionTimeout: oneOf(SESSION_TIMEOUT_OPTIONS, 'Session timeout').optional(),
    defaultCurrency: oneOf(CURRENCIES, 'Currency').optional(),
    reportEmails: bool('reportEmails').optional(),
    securityAlerts: bool('securityAlerts').optional(),
    compactSidebar: bool('compactSidebar').optional(),
    animations: bool('animations').optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown setting: ${issue.keys.join(', ')}`
        : 'Expected an object of settings',
  },
);

export type UserSettingsPatch = z.output<typeof UserSettingsPatchSchema>;

// ---------------------------------------------------------------------------------------------
// The Settings page's forms, one per tab: conform reads the posted fields (a checked box posts
// 'on', an unchecked one nothing), and each form becomes a partial update (settingsPatch in
// user-settings.ts) that the service validates with UserSettingsPatchSchema, like the API's.

/** A checkbox: checked is true, left out of the post is false. */
const checkbox = z
  .boolean()
  .optional()
  .transform((v) => v === true);
const choice = z.string().optional();
const number = z.number().optional();

export const SETTINGS_FORMS = {
  notifications: z.object({
    pushNotifications: checkbox,
    notificationTypes: z
      .record(z.string(), z.unknown())
      .optional()
      .transform(
        (posted) =>
          Object.fromEntries(
            NOTIFICATION_TYPES.map((t) => [t, posted?.[t] === true || posted?.[t] === 'on']),
          ) as NotificationTypeFlags,
      ),
    ...(Object.fromEntries(DEVICE_SWITCHES.map((name) => [name, checkbox])) as Record<
      (typeof DEVICE_SWITCHES)[number],
      typeof checkbox
    >),
  }),
  appearance: z.object({ theme: choice, compactSidebar: checkbox, animations: checkbox }),
  preferences: z
    .object({
      language: choice,
      timezone: choice,
      dateFormat: choice,
      timeFormat: choice,
      defaultCurrency: choice,
      emailNotifications: checkbox,
      reportEmails: checkbox,
      shareActivityStatus: checkbox,
      shareProfileInfo: checkbox,
      autoRefresh: checkbox,
      refreshInterval: number,
    })
    .transform(({ autoRefresh, refreshInterval, ...rest }) => ({
      ...rest,
      dashboardLayout: { autoRefresh, refreshInterval },
    })),
  security: z.object({ securityAlerts: checkbox, sessionTimeout: number, autoLogout: number }),
} satisfies Record<SettingsTab, z.ZodType>;
