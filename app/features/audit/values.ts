// What the Audit Trail shows of stored values: table labels, the screen a record opens on,
// readable old/new values and the differences of two versions. Isomorphic, no React.
import { msg } from '../../platform/i18n/messages.ts';
import { wordsLabel } from '../../platform/lib/labels.ts';
import { AUDITED_TABLES } from '../resources.ts';

export const LONG_VALUE = 120;

/** 'budgets' → 'Budgets' (the table filter's label), else the name as words ('user_settings' → 'User Settings'). */
export function tableLabel(tableName: string): string {
  return AUDITED_TABLES.find((t) => t.value === tableName)?.label ?? wordsLabel(tableName);
}

/**
 * The table filter's labels that are not a screen's title (resources.ts: users and the
 * declarations' `auditLabel`), as messages: the screen shows every table label through `t`.
 */
export const AUDIT_TABLE_LABELS = [
  msg('Users'),
  msg('Expenses'),
  msg('Budgets'),
  msg('One Network Broadband'),
  msg('One Network Subscription Patterns'),
  msg('One Network Mobile Access'),
  msg('Vult Subscriber Metrics'),
  msg('Vult Subscriber Levels'),
  msg('Vult Card Types'),
  msg('API Integration Sources'),
  msg('API Integration Endpoints'),
  // Tables written by settings and backups, labelled from their names.
  msg('User Settings'),
  msg('Backups'),
  msg('System Settings'),
] as const;

/** Columns of users, their settings and the system settings, named from their names ('email' → 'Email'). */
export const AUDIT_FIELD_LABELS = [
  msg('ID'),
  msg('API Integration Credentials'),
  msg('Source ID'),
  msg('Credential Key'),
  msg('Credential Value'),
  msg('Key ID'),
  msg('Expires At'),
  msg('Origin'),
  msg('Seal Version'),
  msg('Email'),
  msg('Username'),
  msg('Role'),
  msg('Full Name'),
  msg('Position'),
  msg('Phone Number'),
  msg('Is Active'),
  msg('Is Temporary Password'),
  msg('Password Change Required'),
  msg('Password Changed At'),
  msg('Company ID'),
  msg('Created By'),
  msg('Last Login At'),
  msg('User ID'),
  msg('Email Notifications'),
  msg('Push Notifications'),
  msg('Notification Types'),
  msg('Theme'),
  msg('Language'),
  msg('Timezone'),
  msg('Date Format'),
  msg('Time Format'),
  msg('Dashboard Layout'),
  msg('Share Activity Status'),
  msg('Share Profile Info'),
  msg('Auto Logout'),
  msg('Session Timeout'),
  msg('Default Currency'),
  msg('Report Emails'),
  msg('Security Alerts'),
  msg('Compact Sidebar'),
  msg('Animations'),
  msg('Require Two Factor For Admins'),
  // A user's permission flags.
  msg('Can Access Financial Data'),
  msg('Can Access Subscriber Data'),
  msg('Can Access API Integrations'),
  msg('Can Access Analytics'),
  msg('Can Access Audit Logs'),
  msg('Can Access Backups'),
  msg('Can Create'),
  msg('Can Edit'),
  msg('Can Delete'),
  msg('Can Manage Users'),
] as const;

/** The screens that open one record of a table (`?edit=ID`). */
const RECORD_SCREENS: Record<string, string> = {
  budgets: '/budget-planning',
  actual_expenses: '/actual-expenses',
  revenue_projections: '/revenue-projections',
  actual_revenue: '/actual-revenue',
  departments: '/departments',
  companies: '/companies',
  expense_categories: '/expense-categories',
  users: '/user-management',
};

/** Where an entry's record opens, unless the entry deleted it (or its table has no screen). */
export function recordHref(entry: { tableName: string; recordId: number | null; action: string }): string | null {
  const path = RECORD_SCREENS[entry.tableName];
  if (!path || entry.recordId === null || entry.action === 'delete') return null;
  return `${path}?edit=${entry.recordId}`;
}

/** A stored value as text: strings as they are, nothing as '—', anything else as JSON. */
export function readableValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export const ACTION_BADGE: Record<string, string> = {
  create: 'bg-green-100 text-green-800',
  update: 'bg-blue-100 text-blue-800',
  delete: 'bg-red-100 text-red-800',
};
export const OTHER_BADGE = 'bg-slate-200 text-slate-700';

/** The actions entries and versions record, as their badges word them (lower case, capitalised by CSS). */
export const ACTION_LABELS: Record<string, string> = {
  create: msg('create'),
  update: msg('update'),
  delete: msg('delete'),
  restore: msg('restore'),
  baseline: msg('baseline'),
  login: msg('login'),
  login_failed: msg('login failed'),
  logout: msg('logout'),
  other: msg('other'),
};

/** The fields whose values differ between a version's data and the current one's, sorted. */
export function differences(
  data: Record<string, unknown> | null,
  current: Record<string, unknown> | null,
): { field: string; mine: unknown; current: unknown }[] {
  const a = data ?? {};
  const b = current ?? {};
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return fields
    .filter((field) => JSON.stringify(a[field] ?? null) !== JSON.stringify(b[field] ?? null))
    .map((field) => ({ field, mine: a[field], current: b[field] }));
}
