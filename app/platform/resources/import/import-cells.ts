// A cell of an imported file as the value a form or the API would send for its field, so that
// the same schema (schema.ts) checks it with the same messages. The export's own writing is
// undone: a leading single quote it put before text a spreadsheet would run as a formula is
// removed, amounts are decimals with a point ('1234.50'; thousands separated by commas are
// accepted), booleans 'true'/'false'. A value that is not what its kind needs is passed on as
// text, and the schema says what is wrong with it ('Amount must be a positive number').
import type { FieldDef } from '../define.ts';

// What csvCell (csv.server.ts) guards with a quote: =, +, -, @, tab, CR, LF and their full-width forms.
const GUARDED = /^'[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/** The text a cell held before the export's formula guard. */
export function unguard(text: string): string {
  return GUARDED.test(text) ? text.slice(1) : text;
}

const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const GROUPED = /^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

function numberOf(text: string): number | string {
  const plain = GROUPED.test(text) ? text.replaceAll(',', '') : text;
  return DECIMAL.test(plain) ? Number(plain) : text;
}

const TRUE = new Set(['true', 'yes', '1', 'on']);
const FALSE = new Set(['false', 'no', '0', 'off']);

/** The input value of a field from its cell; undefined for an empty cell (a value nobody gave). */
export function cellInput(field: FieldDef, raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  const text = unguard(raw).trim();
  if (text === '') return undefined;
  switch (field.kind) {
    case 'money':
    case 'decimal':
    case 'percent':
    case 'integer':
      return numberOf(text);
    case 'boolean': {
      const key = text.toLowerCase();
      return TRUE.has(key) ? true : FALSE.has(key) ? false : text;
    }
    case 'enum': {
      // The stored value, or its label ('Monthly' for 'monthly'), in any case.
      const key = text.toLowerCase();
      const option = field.options?.find(
        (o) => o.toLowerCase() === key || field.optionLabels?.[o]?.toLowerCase() === key,
      );
      return option ?? text;
    }
    case 'date':
      return text;
    case 'text':
    case 'textarea':
      // Text keeps its inner spacing; only the guard is undone (the schema trims).
      return unguard(raw);
    case 'reference':
      return text; // resolved by name or id (import-checks.server.ts)
  }
}
