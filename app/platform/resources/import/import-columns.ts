// Which column of an imported file feeds which field of a declared resource (docs/imports.md).
// A file's headers are matched to the fields by the headers our own export writes (the field's
// label: 'Amount', 'Category') and by the field's name as the API spells it ('amount',
// 'categoryId', 'category_id'), case and spacing aside. The export's other columns are known too:
// 'ID' (the key when rows update existing ones), 'Company' (a row copying its company from a
// reference names it, which tells two categories of the same name apart), and the times, which
// an import never sets.
import { companyCopiedFrom, companyNamed, type FieldDef, type ResourceDef } from '../define.ts';
import { snakeCase } from '../../lib/names.ts';

/** Field name → index of the file's column (0-based), or null: not taken from the file. */
export type ImportMapping = Record<string, number | null>;

/** The columns an import reads besides the fields. */
export interface ImportColumns {
  mapping: ImportMapping;
  /** The 'ID' column: the key of rows that update existing ones. */
  id: number | null;
  /** The 'Company' column of a resource whose rows copy their company (its name). */
  company: number | null;
}

const headerKey = (text: string) =>
  text
    .normalize('NFKC')
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, '');

/** The headers that name a field: its label, its name and the name in snake_case. */
function headersOf(field: FieldDef): string[] {
  return [field.label, field.name, snakeCase(field.name)].map(headerKey);
}

/** Where a resource's company column is read from, when the export writes one. */
export const hasCompanyColumn = (def: ResourceDef) => companyCopiedFrom(def) !== null || companyNamed(def) !== null;

/**
 * The columns of a file's header row: each field takes the first column whose header names it,
 * then any column the user chose (`chosen`, field → index or null) replaces the match.
 */
export function matchColumns(def: ResourceDef, headers: readonly string[], chosen: ImportMapping = {}): ImportColumns {
  const keys = headers.map(headerKey);
  const find = (names: string[]) => {
    const index = keys.findIndex((key) => names.includes(key));
    return index === -1 ? null : index;
  };
  const mapping: ImportMapping = {};
  for (const field of def.fields) {
    const own = chosen[field.name];
    mapping[field.name] =
      own === undefined ? find(headersOf(field)) : own !== null && own >= 0 && own < headers.length ? own : null;
  }
  return {
    mapping,
    id: find(['id']),
    company: hasCompanyColumn(def) && !def.fields.some((f) => f.label === 'Company') ? find(['company']) : null,
  };
}

/** Required fields no column feeds: every row would miss them. */
export function unmappedRequired(def: ResourceDef, columns: ImportColumns): FieldDef[] {
  return def.fields.filter(
    (f) => f.required && f.kind !== 'boolean' && f.defaultValue === undefined && columns.mapping[f.name] === null,
  );
}
