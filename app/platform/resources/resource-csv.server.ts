// CSV columns of a declared resource: id, company, every field (references by name as well
// as id), money as decimals with two places, then the timestamps. And the whole export of a
// resource's filtered list (resourceCsv), written on SQLite by csv.server.ts from a cursor's
// rows, on PostgreSQL by the database itself (COPY, db/pg-copy-csv.ts) with the same cells.
import { sql, type RawBuilder } from 'kysely';
import { dialectOf } from '../../../db/dialect.ts';
import { copyCsv } from '../../../db/pg-copy-csv.ts';
import { pgPoolOf } from '../../../db/connection-facts.ts';
import { companyCopiedFrom, companyNamed, type FieldDef, type ResourceDef } from './define.ts';
import type { ServiceContext } from '../context.ts';
import { csvChunks, csvHeader, type CsvColumn, type CsvOptions } from './csv.server.ts';
import { recordBatches, recordQuery, type ListQuery } from './resource-list.server.ts';
import { authorizeRead, columnOf, type ApiRow } from './resource-rows.server.ts';

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
      columns.push({
        header: field.label,
        value: (row) =>
          typeof row[field.name] === 'number' ? (row[field.name] as number).toFixed(2) : row[field.name],
      });
    } else {
      columns.push({ header: field.label, value: (row) => row[field.name] });
    }
  }
  columns.push(
    { header: 'Created At', value: (row) => row.createdAt },
    { header: 'Updated At', value: (row) => row.updatedAt },
  );
  return columns;
}

// ---------------------------------------------------------------------------------------------
// The same cells in PostgreSQL's SQL, column for column with exportColumns: what csvCell makes
// of the value the cursor path would hold (toApiRow's), as text for COPY's CSV to quote.

/**
 * csvCell's text: '' as NULL (COPY writes NULL bare and '' as `""`; csvCell writes both bare),
 * and a leading single quote before text a spreadsheet would run as a formula (=, +, -, @, tab,
 * CR, LF and their full-width forms), unless it is a plain decimal such as '-12.50'.
 * `ascii()` (the first character's code point; 0 for '') keeps the common case to one cheap
 * test a cell.
 */
function textCell(x: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`case when ascii(${x}) in (61, 43, 45, 64, 9, 13, 10, 65309, 65291, 65293, 65312) then case when ascii(${x}) = 45 and ${x} ~ '^-([0-9]+(\\.[0-9]+)?|\\.[0-9]+)$' then ${x} else '''' || ${x} end else nullif(${x}, '') end`;
}

/**
 * A scaled integer (cents, hundredths) as toApiRow's number `n / 100` printed by toFixed(2).
 * Below 2^46 units that double is within 2^-8 of the exact value, so toFixed(2) gives the exact
 * decimal: `n * 0.01` (numeric, two places, no division). Above, the double is a multiple of
 * 2^-6 (a bigint ≤ 2^63 over 100 is below 2^57): its exact value is (d * 64) / 64, rounded half
 * away from zero as toFixed does.
 */
function hundredthsCell(column: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`case when abs(${column}) < 7036874417766400 then (${column} * 0.01)::text else round(((${column}::float8 / 100) * 64)::bigint::numeric / 64, 2)::text end`;
}

/** A timestamptz as the ISO-8601 UTC text the app shows (pgInstantToIso: milliseconds, truncated). */
function instantCell(column: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

function fieldCell(field: FieldDef): RawBuilder<unknown> {
  const column = sql.ref(`t.${columnOf(field)}`);
  switch (field.kind) {
    case 'money':
    case 'decimal':
    case 'percent':
      return hundredthsCell(column);
    case 'boolean':
      return sql`case when ${column} then 'true' when not ${column} then 'false' end`;
    case 'integer':
    case 'reference':
    case 'date':
      // Integers print as JavaScript prints them (below 2^53); a day as pg gives it to the cursor.
      return sql`${column}`;
    default:
      return textCell(sql`${column}`);
  }
}

/** The SQL cells of exportColumns(def), in its order, over recordQuery's `t` and joins. */
export function exportCells(def: ResourceDef): RawBuilder<unknown>[] {
  const cells: RawBuilder<unknown>[] = [sql`${sql.ref('t.id')}`];
  const joinOf = (key: string) => def.joins.find((j) => Object.hasOwn(j.select, key));
  const joinedText = (key: string) => {
    const join = joinOf(key);
    return join ? textCell(sql.ref(`${join.alias}.${(join.select as Record<string, string>)[key]}`)) : sql`null`;
  };
  if (companyCopiedFrom(def) || companyNamed(def)) cells.push(joinedText('companyName'));
  const joined = new Map(def.joins.map((j) => [j.on, j]));
  for (const field of def.fields) {
    const join = joined.get(field.name);
    cells.push(join ? joinedText(Object.keys(join.select)[0]) : fieldCell(field));
  }
  cells.push(instantCell(sql.ref('t.createdAt')), instantCell(sql.ref('t.updatedAt')));
  return cells;
}

// ---------------------------------------------------------------------------------------------

export interface ResourceCsv {
  /** The CSV: the header row, then one record per row. Read it once. */
  chunks: AsyncGenerator<string | Uint8Array, void, undefined>;
  /** Rows written so far. */
  rows(): number;
}

/**
 * A resource's filtered list (the list's conditions, company scope and order) as CSV: the web
 * export and `finhub export`. The same bytes on either database; on PostgreSQL the database
 * writes the records, much faster for big lists (bench/README.md).
 */
export function resourceCsv(
  ctx: ServiceContext,
  def: ResourceDef,
  query: Omit<ListQuery, 'limit' | 'offset'>,
  options: CsvOptions = {},
): ResourceCsv {
  return dialectOf(ctx.db) === 'postgres'
    ? copiedResourceCsv(ctx, def, query, options)
    : cursorResourceCsv(ctx, def, query, options);
}

/** Rows read in batches (a cursor) written by csv.server.ts, counted as they go. */
export function csvOfBatches<Row>(
  columns: CsvColumn<Row>[],
  batches: AsyncIterable<Row[]>,
  options: CsvOptions = {},
): ResourceCsv {
  let count = 0;
  async function* counted() {
    for await (const batch of batches) {
      count += batch.length;
      yield batch;
    }
  }
  return { chunks: csvChunks(columns, { batches: counted() }, options), rows: () => count };
}

/** The cursor path (SQLite): rows through toApiRow and csv.server.ts. Exported for the tests, which compare the two on PostgreSQL. */
export function cursorResourceCsv(
  ctx: ServiceContext,
  def: ResourceDef,
  query: Omit<ListQuery, 'limit' | 'offset'>,
  options: CsvOptions = {},
): ResourceCsv {
  return csvOfBatches(exportColumns(def), recordBatches(ctx, def, query), options);
}

/** The PostgreSQL path: the header from csv.server.ts, the records from COPY. */
export function copiedResourceCsv(
  ctx: ServiceContext,
  def: ResourceDef,
  query: Omit<ListQuery, 'limit' | 'offset'>,
  options: CsvOptions = {},
): ResourceCsv {
  let count = 0;
  const pool = pgPoolOf(ctx.db);
  async function* chunks(): AsyncGenerator<string | Uint8Array, void, undefined> {
    await authorizeRead(ctx, def);
    if (!pool) throw new Error('The PostgreSQL export needs a database opened by createDatabase');
    const columns = exportColumns(def);
    const cells = exportCells(def);
    if (cells.length !== columns.length || cells.length < 2)
      throw new Error(`The SQL cells of ${def.key} do not match its CSV columns`);
    yield csvHeader(columns, options);
    const compiled = (await recordQuery(ctx, def, query)).select(cells.map((cell, i) => cell.as(`c${i}`))).compile();
    yield* copyCsv(pool, compiled, (records) => (count = records));
  }
  return { chunks: chunks(), rows: () => count };
}
