// A user's settings row as stored, with its defaults: read with every session
// (sessions.server.ts), so the shape lives here. The option lists, labels and forms are the
// settings area's (its user-settings.ts; docs/decisions.md). Isomorphic and free of zod: the
// settings page and the gear's pop-over use these too.

/** 'auto' in a form means 'system' (follow the operating system) and is stored as 'system'. */
export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

export const NOTIFICATION_TYPES = ['system', 'financial', 'api', 'user', 'security'] as const;
export type NotificationTypeFlags = Record<(typeof NOTIFICATION_TYPES)[number], boolean>;

export interface DashboardLayoutValue {
  cards: string[];
  autoRefresh: boolean;
  refreshInterval: number;
}

/** The stored defaults, also the database column defaults. */
export const DEFAULT_SETTINGS = {
  emailNotifications: true,
  pushNotifications: true,
  notificationTypes: { system: true, financial: true, api: true, user: true, security: true } as NotificationTypeFlags,
  theme: 'light' as Theme,
  language: 'en',
  timezone: 'UTC',
  dateFormat: 'MM/dd/yyyy',
  timeFormat: '12h',
  dashboardLayout: {
    cards: ['stats', 'activity', 'health'],
    autoRefresh: true,
    refreshInterval: 30,
  } as DashboardLayoutValue,
  shareActivityStatus: true,
  shareProfileInfo: true,
  autoLogout: 480,
  sessionTimeout: 30,
  defaultCurrency: 'USD',
  reportEmails: true,
  securityAlerts: true,
  compactSidebar: false,
  animations: true,
};

export type UserSettingsValues = typeof DEFAULT_SETTINGS;

export const SETTING_FIELDS = Object.keys(DEFAULT_SETTINGS) as (keyof UserSettingsValues)[];

export type UserSettings = UserSettingsValues & { id: number; userId: number; createdAt: string; updatedAt: string };

/** Old rows or hand edits may hold JSON text or partial objects: always answer full objects. */
function parseJsonValue<T extends object>(value: unknown, fallback: T): T {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = null;
    }
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? { ...fallback, ...(parsed as object) }
    : { ...fallback };
}

/** A settings row as read (also from the session lookup's join), with the defaults filled in. */
export function settingsFromRow(row: Record<string, unknown>): UserSettings {
  const out: Record<string, unknown> = {
    id: row.id,
    userId: row.userId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  for (const field of SETTING_FIELDS) out[field] = row[field] ?? DEFAULT_SETTINGS[field];
  out.notificationTypes = parseJsonValue<NotificationTypeFlags>(
    row.notificationTypes,
    DEFAULT_SETTINGS.notificationTypes,
  );
  out.dashboardLayout = parseJsonValue<DashboardLayoutValue>(row.dashboardLayout, DEFAULT_SETTINGS.dashboardLayout);
  // Rows written before 'auto' was folded into 'system'.
  if (out.theme === 'auto') out.theme = 'system';
  return out as UserSettings;
}
