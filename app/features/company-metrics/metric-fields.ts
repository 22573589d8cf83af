// Pieces of the company-metric declarations: the month a row is for, counts,
// percentages, the enumerations' display labels, and the list settings every such table shares.
import type { Formats } from '../../platform/i18n/formats.ts';
import type { ColumnDef, FieldDef } from '../../platform/resources/define.ts';
import { companyField } from '../finance/index.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const yearField = {
  name: 'year',
  label: msg('Year'),
  kind: 'integer',
  required: true,
  range: [2020, 2030],
  widget: 'year',
} as const satisfies FieldDef;
export const monthField = {
  name: 'month',
  label: msg('Month'),
  kind: 'integer',
  required: true,
  range: [1, 12],
  widget: 'month',
} as const satisfies FieldDef;
/** A company's row for a month: the first fields of the per-company metric tables. */
export const companyMonthFields = [companyField, yearField, monthField] as const;

/** A non-negative count; new forms start at 0. */
export function count<const N extends string>(name: N, label: string) {
  return { name, label, kind: 'integer', required: true, defaultValue: '0' } as const;
}

/** A percentage 0–100 with two decimals (stored in `<name>Hundredths`); new forms start at 0. */
export function percent<const N extends string>(name: N, label: string) {
  return { name, label, kind: 'percent', required: true, defaultValue: '0' } as const;
}

export const CONNECTION_TYPE_LABELS: Record<string, string> = {
  fixed_broadband: msg('Fixed Broadband'),
  fixed_fiber: msg('Fixed Fiber'),
  fixed_fwa_5g: msg('Fixed FWA 5G Router'),
};
export const SUBSCRIPTION_TYPE_LABELS: Record<string, string> = {
  daily: msg('Daily'),
  weekly: msg('Weekly'),
  monthly: msg('Monthly'),
};
export const ACCESS_METHOD_LABELS: Record<string, string> = {
  mifi: msg('MiFi Devices'),
  sim: msg('SIM Cards'),
  esim: msg('eSIM'),
  fwa_mobile: msg('FWA Mobile'),
};
/** Subscriber levels' display labels and what each level means. */
export const LEVEL_LABELS: Record<string, string> = {
  level_0: msg('Active Sign-ups'),
  level_1: msg('Card Ready'),
  level_2: msg('Enhanced Experience'),
  in_progress: msg('In Verification'),
};
export const LEVEL_MEANINGS: Record<string, string> = {
  level_0: msg('Initial sign-up'),
  level_1: msg('Ready to use cards'),
  level_2: msg('Wallets linked to bank accounts'),
  in_progress: msg('Completing registration and verification'),
};
export const CARD_TYPE_LABELS: Record<string, string> = {
  platinum: msg('Platinum'),
  gold: msg('Gold'),
  black: msg('Black'),
  aqua: msg('Aqua'),
  plastic: msg('Plastic'),
  virtual: msg('Virtual'),
};

/** The year and month columns of a table, newest first. */
export const monthColumns = [
  { key: 'year', label: msg('Year'), format: 'text', sort: 'period' },
  { key: 'month', label: msg('Month'), format: 'month' },
] as const satisfies readonly ColumnDef[];

/** Sorted by month (year, then month), newest first; filtered by year and month in the API. */
export const monthSorts = { period: { column: 'year', then: 'month' } } as const;
export const byMonth = { key: 'period', dir: 'desc' } as const;
export const exactMonth = ['year', 'month'] as const;

/** Churn as a percentage of the active count (two decimals), or null without an active count. */
export function churnRate(churn: string, active: string) {
  return (row: Record<string, unknown>): number | null => {
    const base = Number(row[active]);
    return base > 0 ? Math.round((Number(row[churn]) / base) * 10_000) / 100 : null;
  };
}

/** Another name for a count: integrations written against other names read the same figure. */
export function aliasOf(count: string) {
  return (row: Record<string, unknown>): number => Number(row[count]);
}

/** `part` as a percentage of `whole` with two decimals; 0 of nothing is 0. */
export function shareOf(part: unknown, whole: unknown): number {
  const base = Number(whole);
  return base > 0 ? Math.round((Number(part) / base) * 10_000) / 100 : 0;
}

/** A row's share of its month's total (read with the row as `monthTotal`). */
export function monthShare(count: string) {
  return (row: Record<string, unknown>, read: Record<string, unknown>): number => shareOf(row[count], read.monthTotal);
}

/** The month a row is for, or a screen shows. */
export interface MetricMonth {
  year: number;
  month: number;
}

/** The month of ?year=&month= when both are plain digits within the fields' ranges; otherwise none (the latest). */
export function requestedMonth(params: URLSearchParams): MetricMonth | null {
  const year = params.get('year') ?? '';
  const month = params.get('month') ?? '';
  if (!/^\d{4}$/.test(year) || !/^\d{1,2}$/.test(month)) return null;
  const m = { year: Number(year), month: Number(month) };
  const [first, last] = yearField.range;
  return m.year >= first && m.year <= last && m.month >= 1 && m.month <= 12 ? m : null;
}

/** 'March 2025' ('Mar 2025' short), of a month or a row, in the reader's language. */
export function monthLabel(m: Record<string, unknown> | MetricMonth, formats: Formats, short = false): string {
  const { year, month } = m as Record<string, unknown>;
  return `${formats.month(Number(month), short ? 'short' : 'long')} ${String(year)}`;
}
