import type { ColumnDef, ResourceDef } from '../../resources/define.ts';
import { formatDay, formatInstantDate, formatMoney, formatNumber, formatPercent, MONTH_NAMES, truncate } from '../../lib/format.ts';

/** One table cell's text, formatted as the column declares. */
export function cellText(def: Pick<ResourceDef, 'fields'>, column: ColumnDef, row: Record<string, unknown>): string {
  const value = row[column.key];
  if (value === null || value === undefined || value === '') return column.fallback ?? '';
  switch (column.format) {
    case 'money':
      return formatMoney(Number(value));
    case 'decimal':
    case 'number':
      return formatNumber(Number(value));
    case 'percent':
      return formatPercent(Number(value));
    case 'month':
      return MONTH_NAMES[Number(value) - 1] ?? String(value);
    case 'date':
      return formatDay(String(value));
    case 'instant':
      return formatInstantDate(String(value));
    case 'label': {
      const labels = def.fields.find((f) => f.name === column.key)?.optionLabels;
      return labels?.[String(value)] ?? String(value);
    }
    default:
      return column.truncate ? truncate(String(value), column.truncate) : String(value);
  }
}
