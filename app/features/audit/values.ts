// What the Audit Trail shows of stored values: table labels, the screen a record opens on,
// readable old/new values and the differences of two versions. Isomorphic, no React.
import { wordsLabel } from '../../platform/lib/labels.ts';
import { AUDITED_TABLES } from '../resources.ts';

export const LONG_VALUE = 120;

/** 'budgets' → 'Budgets' (the table filter's label), else the name as words ('user_settings' → 'User Settings'). */
export function tableLabel(tableName: string): string {
  return AUDITED_TABLES.find((t) => t.value === tableName)?.label ?? wordsLabel(tableName);
}

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
