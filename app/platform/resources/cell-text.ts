// A declared resource's cells as text, formatted as the list columns declare: the table shows
// them, and the server names a row with them where a message must say which row.
import type { ColumnDef, ResourceDef } from './define.ts';
import {
  formatDay,
  formatInstantDate,
  formatMoney,
  formatNumber,
  formatPercent,
  MONTH_NAMES,
  truncate,
} from '../lib/format.ts';

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

/**
 * Which row, in words, for a confirmation that must say what it is about: the declaration's
 * option text (`choices.label`) when it has one, else the row's first list columns as the table
 * shows them.
 */
export function rowSummary(
  def: Pick<ResourceDef, 'fields' | 'noun' | 'choices' | 'list'>,
  row: Record<string, unknown>,
): string {
  const label = def.choices ? row[def.choices.label] : undefined;
  const text =
    label !== null && label !== undefined && label !== ''
      ? String(label)
      : def.list.columns
          .slice(0, 4)
          .map((column) => cellText(def, column, row))
          .filter((cell) => cell !== '')
          .join(' · ');
  return `${def.noun} #${String(row.id)}${text ? `: ${text}` : ''}`;
}
