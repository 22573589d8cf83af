// What the Vult screens show: the rows of Vult's three tables as the API gives
// them, the month a screen is about (?year=&month=, else the latest), and the 12-month trend.
// Isomorphic: the loaders pick the month and the window, the components label them.
import type { RowOf } from '../../platform/resources/define.ts';
import { yearField, type MetricMonth } from './metric-fields.ts';
import type { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics } from './vult.ts';

export { monthLabel, requestedMonth, type MetricMonth as Month } from './metric-fields.ts';
type Month = MetricMonth;

export type MetricsRow = RowOf<typeof vultSubscriberMetrics>;
export type LevelRow = RowOf<typeof vultSubscriberLevels>;
export type CardTypeRow = RowOf<typeof vultCardTypes>;

export const [FIRST_YEAR, LAST_YEAR] = yearField.range;

/** Every month a company can have a row for (one row per month and company, years 2020–2030). */
export const MONTHS_IN_RANGE = (LAST_YEAR - FIRST_YEAR + 1) * 12;

export function monthOf(row: Month | undefined): Month | null {
  return row ? { year: row.year, month: row.month } : null;
}

export function sameMonth(a: Month, b: Month): boolean {
  return a.year === b.year && a.month === b.month;
}

/** The twelve months ending with `last`, oldest first. */
export function twelveMonths(last: Month): Month[] {
  const end = last.year * 12 + (last.month - 1);
  return Array.from({ length: 12 }, (_, i) => {
    const n = end - 11 + i;
    return { year: Math.floor(n / 12), month: (n % 12) + 1 };
  });
}

/** The rows of the twelve months ending with `last` (the chart's data), oldest first. */
export function trendRows<R extends Month>(rows: R[], last: Month): R[] {
  return twelveMonths(last).flatMap((m) => rows.filter((r) => sameMonth(r, m)));
}

/** Rows in the order of their enumeration (levels, card types), whatever order they came in. */
export function inEnumOrder<R>(rows: R[], key: (row: R) => string, order: readonly string[]): R[] {
  const rank = (row: R) => (order.includes(key(row)) ? order.indexOf(key(row)) : order.length);
  return [...rows].sort((a, b) => rank(a) - rank(b));
}
