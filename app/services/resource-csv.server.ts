// CSV columns of a declared resource: id, company, every field (references by name as well
// as id), money as decimals with two places, then the timestamps.
import { companyCopiedFrom, companyNamed, type ResourceDef } from '../resources/define.ts';
import type { CsvColumn } from './csv.server.ts';
import type { ApiRow } from './resources.server.ts';

export function exportColumns(def: ResourceDef): CsvColumn<ApiRow>[] {
  const columns: CsvColumn<ApiRow>[] = [{ header: 'ID', value: (row) => row.id }];
  const joined = new Map(def.joins.map((j) => [j.on, j]));
  // A row that copies its company from a reference (or belongs to a named company) has no
  // company field: name it here.
  if (companyCopiedFrom(def) || companyNamed(def)) columns.push({ header: 'Company', value: (row) => row.companyName });
  for (const field of def.fields) {
    const join = joined.get(field.name);
    if (join) {
      const [key] = Object.keys(join.select);
      columns.push({ header: field.label, value: (row) => row[key] });
      continue;
    }
    if (field.kind === 'money' || field.kind === 'decimal' || field.kind === 'percent') {
      columns.push({ header: field.label, value: (row) => (typeof row[field.name] === 'number' ? (row[field.name] as number).toFixed(2) : row[field.name]) });
    } else {
      columns.push({ header: field.label, value: (row) => row[field.name] });
    }
  }
  columns.push({ header: 'Created At', value: (row) => row.createdAt }, { header: 'Updated At', value: (row) => row.updatedAt });
  return columns;
}
