// A CSV file into a declared resource (docs/imports.md), for every entry point: the screens, the
// API's import jobs and `finhub import`. The file streams through csv-parse, one record at a
// time, so memory does not grow with it. Each row gets the checks a form post of the same record
// gets (import-checks.server.ts); then, unless it is a dry run, the rows are written in one
// transaction, each with its audit entry and its version, all under the import's reason:
// - mode 'all': one refused row and nothing is written (the transaction is rolled back);
// - mode 'valid': the refused rows are left out, the others written.
// New rows are inserted in batches, with their audit entries and versions inserted in batches
// beside them (what writeRecord stores for one row, many at a time); a row whose ID names an
// existing record (`updateById`) is written by the generic update, as an edit would be.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { activeVersionValues, auditValues, companyOfRow, diff, redact } from '../../audit.server.ts';
import { inTransaction, type ServiceContext } from '../../context.ts';
import { type DomainError, fieldError, invalid, isDomainError, type FieldError } from '../../errors.ts';
import { msg } from '../../i18n/messages.ts';
import { carried, wordsFor, type OtherWords, type Reader } from '../../i18n/refusal-words.ts';
import { idNotFound } from '../record-errors.ts';
import { snakeCase } from '../../lib/names.ts';
import type { ResourceDef } from '../define.ts';
import { authorize, baseQuery, dynamic, type Row } from '../resource-rows.server.ts';
import { createRecord, updateRecordIfChanged } from '../resource-writes.server.ts';
import { rowChecker, type CheckedRow } from './import-checks.server.ts';
import { matchColumns, unmappedRequired, type ImportColumns, type ImportMapping } from './import-columns.ts';

export type ImportMode = 'all' | 'valid';

export interface CsvImportOptions {
  mode: ImportMode;
  /** Check every row and write nothing. */
  dryRun?: boolean;
  /** A row whose ID column names an existing record updates it instead of adding a row. */
  updateById?: boolean;
  /** Columns the user chose for fields (field → column index, null: none), over the matched ones. */
  chosen?: ImportMapping;
  /** The audit entries' reason ('CSV import #12: budgets.csv'). */
  reason: string;
  /** Called every PROGRESS_EVERY rows (rows read so far). */
  onProgress?: (rows: number) => void | Promise<void>;
  /** The file's header row, once read. */
  onHeaders?: (headers: string[]) => void;
  /** Every refused row: its line in the file, its cells and what is wrong. */
  onRefused?: (line: number, cells: readonly string[], errors: FieldError[]) => void | Promise<void>;
  /** Valid rows kept for a preview (default 10), and errors kept in the outcome (default 100). */
  sampleSize?: number;
  maxErrors?: number;
  /** Readers of other languages: the kept errors carry their words for each. */
  readers?: readonly Reader[];
}

export interface ImportRowError {
  line: number;
  field: string;
  message: string;
  /** The message in the other languages (CsvImportOptions.readers), for the import's screen. */
  words?: OtherWords;
}

export interface CsvImportOutcome {
  headers: string[];
  columns: ImportColumns;
  /** Labels of required fields that no column feeds. */
  missing: string[];
  rows: number;
  valid: number;
  invalid: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Whether rows were written (false: a dry run, or mode 'all' with refused rows). */
  written: boolean;
  /** The first refused rows' errors, in file order. */
  errors: ImportRowError[];
  /** The first valid rows, field → value as it will be stored (references by their name in the file). */
  sample: { line: number; values: Record<string, unknown> }[];
}

export const PROGRESS_EVERY = 5000;
/** New rows inserted by one statement (with as many audit entries and versions). */
const BATCH_ROWS = 500;

class RolledBack extends Error {}

/** A file's bytes (a stream, a Buffer, text) as csv-parse's records, each with the line it ends on. */
function records(source: AsyncIterable<Buffer | string> | Buffer | string) {
  const input = typeof source === 'string' || Buffer.isBuffer(source) ? Readable.from([source]) : Readable.from(source);
  return input.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, max_record_size: 1 << 20 }),
  ) as AsyncIterable<{ record: string[]; info: { lines: number } }>;
}

/** The generic writes (a row at a time) where inserting in batches would not be the same write. */
const writesOneByOne = (def: ResourceDef) => def.pivot !== undefined;

export async function importCsv(
  ctx: ServiceContext,
  def: ResourceDef,
  source: AsyncIterable<Buffer | string> | Buffer | string,
  options: CsvImportOptions,
): Promise<CsvImportOutcome> {
  authorize(ctx, def, 'create');
  if (options.updateById) authorize(ctx, def, 'edit');
  const parsed = records(source)[Symbol.asyncIterator]();
  let first: IteratorResult<{ record: string[]; info: { lines: number } }>;
  try {
    first = await parsed.next();
  } catch (error) {
    throw invalid([
      fieldError('file', msg('The file is not readable CSV: {problem}'), { problem: (error as Error).message }),
    ]);
  }
  if (first.done) throw invalid([fieldError('file', msg('The file is empty'))]);
  const headers = first.value.record.map((h) => h.trim());
  options.onHeaders?.(headers);
  const columns = matchColumns(def, headers, options.chosen);
  if (Object.values(columns.mapping).every((at) => at === null))
    throw invalid([
      fieldError(
        'file',
        msg('No column of the file matches a field of {title}: the first row must name them'),
        { title: def.title },
        ['title'],
      ),
    ]);
  const outcome: CsvImportOutcome = {
    headers,
    columns,
    missing: unmappedRequired(def, columns).map((f) => f.label),
    rows: 0,
    valid: 0,
    invalid: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    written: false,
    errors: [],
    sample: [],
  };
  const rest = { [Symbol.asyncIterator]: () => parsed };
  const run = (tx: ServiceContext) => importRows(tx, def, columns, rest, options, outcome);
  if (options.dryRun) {
    await run(ctx);
    return outcome;
  }
  try {
    await inTransaction(ctx.db, async (db) => {
      await run({ ...ctx, db });
      if (options.mode === 'all' && outcome.invalid > 0) throw new RolledBack();
    });
    outcome.written = true;
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
    outcome.created = outcome.updated = outcome.unchanged = 0;
  }
  return outcome;
}

async function importRows(
  ctx: ServiceContext,
  def: ResourceDef,
  columns: ImportColumns,
  rows: AsyncIterable<{ record: string[]; info: { lines: number } }>,
  options: CsvImportOptions,
  outcome: CsvImportOutcome,
): Promise<void> {
  const checker = await rowChecker(ctx, def, columns, { updateById: options.updateById });
  const sampleSize = options.sampleSize ?? 10;
  const maxErrors = options.maxErrors ?? 100;
  const dryRun = options.dryRun === true;
  const meta = { reason: options.reason };
  let batch: Row[] = [];
  let shape = '';
  // Rows with an ID, in a dry run: that the record exists is checked a batch at a time.
  let pendingIds: { line: number; cells: readonly string[]; row: CheckedRow }[] = [];

  const refuse = async (line: number, cells: readonly string[], errors: FieldError[]) => {
    outcome.invalid++;
    for (const error of errors) {
      if (outcome.errors.length >= maxErrors) break;
      const words = wordsFor(error, error.message, options.readers ?? []);
      outcome.errors.push({ line, field: error.field, message: error.message, ...(words ? { words } : {}) });
    }
    await options.onRefused?.(line, cells, errors);
  };
  const accept = (line: number, cells: readonly string[], row: CheckedRow) => {
    outcome.valid++;
    if (outcome.sample.length < sampleSize)
      outcome.sample.push({ line, values: sampleValues(def, columns, cells, row) });
  };
  // A batch is written while the next one is read and checked: the database and the checks
  // work at the same time (PostgreSQL is another process). One batch is in flight at a time.
  let writing: Promise<void> | null = null;
  const settle = async () => {
    const pending = writing;
    writing = null;
    await pending;
  };
  const flush = async () => {
    if (batch.length === 0) return;
    await settle();
    writing = insertBatch(ctx, def, batch, options.reason);
    writing.catch(() => {}); // its failure is thrown where it is awaited (settle)
    outcome.created += batch.length;
    batch = [];
  };
  const checkIds = async () => {
    if (pendingIds.length === 0) return;
    const ids = pendingIds.map((p) => p.row.id!);
    const found = new Set(
      (await baseQuery(ctx, def, false).select('t.id as id').where('t.id', 'in', ids).execute()).map((r) =>
        Number(r.id),
      ),
    );
    for (const { line, cells, row } of pendingIds) {
      if (found.has(row.id!)) accept(line, cells, row);
      else await refuse(line, cells, [idNotFound(row.id)]);
    }
    pendingIds = [];
  };

  for await (const { record: cells, info } of rows) {
    const line = info.lines;
    outcome.rows++;
    if (options.onProgress && outcome.rows % PROGRESS_EVERY === 0) await options.onProgress(outcome.rows);
    const checked = checker.check(cells);
    if (!checked.ok) {
      await refuse(line, cells, checked.errors);
      continue;
    }
    const { row } = checked;
    if (dryRun) {
      if (row.id !== null) {
        pendingIds.push({ line, cells, row });
        if (pendingIds.length >= BATCH_ROWS) await checkIds();
      } else accept(line, cells, row);
      continue;
    }
    if (options.mode === 'all' && outcome.invalid > 0) {
      accept(line, cells, row); // checked, never written: the import is rolled back
      continue;
    }
    if (row.id !== null || writesOneByOne(def)) {
      await flush(); // what the generic write reads includes the rows before this one
      await settle();
      try {
        if (row.id !== null) {
          const { changed } = await updateRecordIfChanged(ctx, def, row.id, row.value, meta);
          if (changed) outcome.updated++;
          else outcome.unchanged++;
        } else {
          await createRecord(ctx, def, row.value, meta);
          outcome.created++;
        }
        accept(line, cells, row);
      } catch (error) {
        if (!isDomainError(error)) throw error;
        await refuse(line, cells, domainErrors(error, row));
      }
      continue;
    }
    accept(line, cells, row);
    const rowShape = Object.keys(row.columns).join(',');
    if (rowShape !== shape || batch.length >= BATCH_ROWS) {
      await flush();
      shape = rowShape;
    }
    batch.push(row.columns);
  }
  await checkIds();
  await flush();
  await settle();
  await options.onProgress?.(outcome.rows);
}

/** What a refused generic write says, as a row's field errors. */
function domainErrors(error: DomainError, row: CheckedRow): FieldError[] {
  if (error.errors?.length) return error.errors;
  if (error.kind === 'notFound') return [idNotFound(row.id)];
  return [carried(error, { field: 'body', message: error.message })];
}

/** A valid row for the preview: its fields as stored, a reference as the file names it. */
function sampleValues(
  def: ResourceDef,
  columns: ImportColumns,
  cells: readonly string[],
  row: CheckedRow,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of def.fields) {
    const at = columns.mapping[field.name];
    values[field.name] =
      field.kind === 'reference' && at !== null && row.value[field.name] != null
        ? (cells[at] ?? '').trim()
        : (row.value[field.name] ?? null);
  }
  return values;
}

/**
 * New rows with their audit entries and versions: what writeRecord stores for each, three
 * statements for the whole batch. The rows as stored (RETURNING) are what the entries hold.
 */
async function insertBatch(ctx: ServiceContext, def: ResourceDef, batch: Row[], reason: string): Promise<void> {
  const tableName = snakeCase(def.table);
  const stored = await dynamic(ctx.db).insertInto(def.table).values(batch).returningAll().execute();
  const now = new Date().toISOString();
  const audits = [];
  const versions = [];
  for (const row of stored) {
    const recordId = Number(row.id);
    const companyId = companyOfRow(tableName, row);
    audits.push(
      auditValues(
        ctx,
        {
          tableName,
          recordId,
          action: 'create',
          oldData: null,
          newData: row,
          changes: diff(null, redact(row)),
          reason,
          companyId,
        },
        now,
      ),
    );
    versions.push(
      activeVersionValues(
        ctx,
        { tableName, recordId, version: 1, action: 'create', data: row, comment: reason, companyId },
        now,
      ),
    );
  }
  await ctx.db.insertInto('auditLogs').values(audits).execute();
  await ctx.db.insertInto('dataVersions').values(versions).execute();
}
