// A declared resource's cells as text, formatted as the list columns declare: the table shows
// them, and the server names a row with them where a message must say which row.
import type { ColumnDef, ResourceDef } from './define.ts';
import type { Formats } from '../i18n/formats.ts';
import { truncate } from '../lib/format.ts';
import type { Translate } from '../i18n/messages.ts';
import { english } from '../i18n/refusal-words.ts';

/** One table cell's text, formatted as the column declares in the reader's formats. */
export function cellText(
  def: Pick<ResourceDef, 'fields'>,
  column: ColumnDef,
  row: Record<string, unknown>,
  formats: Formats,
): string {
  const value = row[column.key];
  if (value === null || value === undefined || value === '') return column.fallback ?? '';
  switch (column.format) {
    case 'money':
      return formats.money(Number(value));
    case 'decimal':
    case 'number':
      return formats.number(Number(value));
    case 'percent':
      return formats.percent(Number(value));
    case 'month':
      return formats.month(Number(value));
    case 'date':
      return formats.day(String(value));
    case 'instant':
      return formats.instantDate(String(value));
    case 'label': {
      const labels = def.fields.find((f) => f.name === column.key)?.optionLabels;
      return labels?.[String(value)] ?? String(value);
    }
    default:
      return column.truncate ? truncate(String(value), column.truncate) : String(value);
  }
}

/**
 * A cell's text in the reader's words: the declaration's words in it (an option's label, the text
 * of an empty value) translated, the data as it is.
 */
export function shownCellText(
  def: Pick<ResourceDef, 'fields'>,
  column: ColumnDef,
  row: Record<string, unknown>,
  formats: Formats,
  t: Translate,
): string {
  const text = cellText(def, column, row, formats);
  const value = row[column.key];
  const declared = column.format === 'label' || value === null || value === undefined || value === '';
  return declared && text ? t(text) : text;
}

/**
 * Which row, in words, for a confirmation that must say what it is about: the declaration's
 * option text (`choices.label`) when it has one, else the row's first list columns as the table
 * shows them; `t`: the reader's translator.
 */
export function rowSummary(
  def: Pick<ResourceDef, 'fields' | 'noun' | 'choices' | 'list'>,
  row: Record<string, unknown>,
  formats: Formats,
  t: Translate = english,
): string {
  const label = def.choices ? row[def.choices.label] : undefined;
  const text =
    label !== null && label !== undefined && label !== ''
      ? String(label)
      : def.list.columns
          .slice(0, 4)
          .map((column) => shownCellText(def, column, row, formats, t))
          .filter((cell) => cell !== '')
          .join(' · ');
  const values = { noun: t(def.noun), id: String(row.id), text };
  return text ? t('{noun} #{id}: {text}', values) : t('{noun} #{id}', values);
}
