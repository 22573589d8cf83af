// What GET and PUT /api/user-settings answer, as a zod schema: the one description of the
// answer. The stored shape is the platform's (every session reads it: UserSettings in
// app/platform/session/user-settings-row.ts), checked against this schema at compile time; the
// OpenAPI document describes the answer with it (app/features/api-docs).
import { z } from 'zod';
import { instant } from '../../platform/lib/answer-fields.ts';
import type { Assert, Same } from '../../platform/lib/type-checks.ts';
import { NOTIFICATION_TYPES, THEMES, type UserSettings } from '../../platform/session/user-settings-row.ts';
import {
  AUTO_LOGOUT_OPTIONS,
  CURRENCIES,
  DASHBOARD_CARDS,
  DATE_FORMATS,
  LANGUAGES,
  REFRESH_INTERVALS,
  SESSION_TIMEOUT_OPTIONS,
  TIME_FORMATS,
  TIMEZONES,
} from './user-settings.ts';

/** Stored as text: the values a write accepts, in words (a row edited by hand may hold another). */
const oneOf = (values: readonly (string | number)[]) => `One of: ${values.join(', ')}`;

/** The signed-in user's settings record, with the defaults filled in. */
export const UserSettingsAnswer = z.strictObject({
  id: z.number().int(),
  userId: z.number().int(),
  emailNotifications: z.boolean(),
  pushNotifications: z.boolean(),
  notificationTypes: z.strictObject(
    Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, z.boolean()])) as Record<
      (typeof NOTIFICATION_TYPES)[number],
      z.ZodBoolean
    >,
  ),
  theme: z.enum(THEMES).describe('system: follow the operating system (a write may say auto)'),
  language: z.string().describe(oneOf(LANGUAGES)),
  timezone: z.string().describe(oneOf(TIMEZONES)),
  dateFormat: z.string().describe(oneOf(DATE_FORMATS)),
  timeFormat: z.string().describe(oneOf(TIME_FORMATS)),
  dashboardLayout: z.strictObject({
    cards: z.array(z.string().describe(oneOf(DASHBOARD_CARDS))),
    autoRefresh: z.boolean(),
    refreshInterval: z
      .number()
      .int()
      .describe(`Seconds; ${oneOf(REFRESH_INTERVALS)}`),
  }),
  shareActivityStatus: z.boolean(),
  shareProfileInfo: z.boolean(),
  autoLogout: z
    .number()
    .int()
    .describe(`Minutes a session lasts at most; ${oneOf(AUTO_LOGOUT_OPTIONS)}`),
  sessionTimeout: z
    .number()
    .int()
    .describe(`Idle minutes before signing out (0: never); ${oneOf(SESSION_TIMEOUT_OPTIONS)}`),
  defaultCurrency: z.string().describe(oneOf(CURRENCIES)),
  reportEmails: z.boolean(),
  securityAlerts: z.boolean(),
  compactSidebar: z.boolean(),
  animations: z.boolean(),
  createdAt: instant,
  updatedAt: instant,
});
type _SettingsMatch = Assert<Same<z.output<typeof UserSettingsAnswer>, { [K in keyof UserSettings]: UserSettings[K] }>>;
