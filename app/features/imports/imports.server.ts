// CSV imports as the screens, the API and `finhub import` run them (docs/imports.md). A file is
// received into DATA_DIR/imports (hashed and measured as it streams, never whole in memory),
// becomes an `imports` row, and is then checked (a dry run: the preview) or imported. A small
// file is run by the process that received it; a bigger one by the csv-import job, whose
// progress the row shows and whose end is notified. The rows themselves are checked and written
// by the generic import (app/platform/resources/import): all of them or none, or the valid ones.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { findResource, RESOURCE_LIST } from '../resources.ts';
import { snakeCase } from '../../platform/lib/names.ts';
import { FIXED_FORMATS, type ValueFormats } from '../../platform/lib/format.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { dialectOf } from '../../../db/dialect.ts';
import { csvCell } from '../../platform/resources/csv.server.ts';
import {
  importCsv,
  type CsvImportOutcome,
  type ImportMode,
} from '../../platform/resources/import/csv-import.server.ts';
import type { ImportMapping } from '../../platform/resources/import/import-columns.ts';
import { authorize } from '../../platform/resources/resource-rows.server.ts';
import type { ResourceDef } from '../../platform/resources/define.ts';
import {
  actingUser,
  actorCompanyScope,
  actorLabel,
  actorUserId,
  type Db,
  type ServiceContext,
} from '../../platform/context.ts';
import { conflict, DomainError, invalid, isDomainError, notFound, refusalLine } from '../../platform/errors.ts';
import { ENGLISH, otherReaders, wordsIn, type OtherWords, type Reader } from '../../platform/i18n/refusal-words.ts';
import { INTL_LOCALES } from '../../platform/i18n/locales.ts';
import { importFinished } from '../notifications/index.server.ts';
import { findUserById } from '../users/index.server.ts';
import type { Selectable } from 'kysely';
import type { ImportsTable } from '../../../db/types.ts';
import type { ImportAnswerType } from './answers.ts';
import { REASONS, reasonWith } from '../../platform/audit-reasons.ts';

export interface ImportSettings {
  dataDir: string;
  /** The largest file (IMPORT_MAX_BYTES). */
  maxBytes: number;
  /** Files up to this size run in the receiving process (IMPORT_INLINE_BYTES); bigger ones as a job. */
  inlineBytes: number;
}

export type ImportRow = Selectable<ImportsTable>;

/** The outcome kept with an import for its screen and GET /api/imports/{id}. */
export type StoredOutcome = Pick<CsvImportOutcome, 'headers' | 'columns' | 'missing' | 'errors' | 'sample'>;

export const importsDir = (dataDir: string) => path.join(dataDir, 'imports');

/** A resource a user may import into: declared and written through the generic layer. */
export function importableResource(key: string | undefined | null): ResourceDef {
  const text = (key ?? '').trim();
  // The API's key ('actual-expenses'), or the table's name ('actual_expenses').
  const def = findResource(text) ?? RESOURCE_LIST.find((d) => snakeCase(d.table) === text || d.table === text);
  if (!def || def.readOnly)
    throw invalid([{ field: 'table', message: msg('Choose a table that can be imported into') }]);
  return def;
}

/** A file as received: where it is kept, its SHA-256 and its size. */
export interface StoredFile {
  path: string;
  hash: string;
  size: number;
}

/** Streams an upload into DATA_DIR/imports, hashing and counting; above maxBytes it is refused (and removed). */
/** A file the caller keeps (the command line's): its hash and size, read once. */
export async function measureFile(file: string): Promise<StoredFile> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { path: file, hash: hash.digest('hex'), size };
}

export async function storeUpload(
  settings: ImportSettings,
  data: AsyncIterable<Uint8Array | string>,
): Promise<StoredFile> {
  const dir = importsDir(settings.dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${crypto.randomBytes(12).toString('hex')}.csv`);
  const hash = crypto.createHash('sha256');
  let size = 0;
  // Past the limit the rest is read and dropped (a few KB: the server's body limit stops more),
  // so that the answer can still be sent on this connection.
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > settings.maxBytes) return done();
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(data, measure, fs.createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    fs.rmSync(file, { force: true });
    throw error;
  }
  if (size > settings.maxBytes) {
    fs.rmSync(file, { force: true });
    throw invalid([{ field: 'file', message: new FileTooLarge(settings.maxBytes).message }]);
  }
  if (size === 0) {
    fs.rmSync(file, { force: true });
    throw invalid([{ field: 'file', message: msg('The file is empty') }]);
  }
  return { path: file, hash: hash.digest('hex'), size };
}

class FileTooLarge extends Error {
  constructor(maxBytes: number) {
    super(`The file is larger than ${formatBytes(maxBytes)}, the largest an import takes`);
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

export interface NewImport {
  table: string;
  fileName: string;
  file: StoredFile;
  updateById?: boolean;
  /** 'check': a dry run (the preview); 'import': write, in this mode. */
  phase: 'check' | 'import';
  mode?: ImportMode;
  /** Import a file imported before into the same table all the same. */
  allowDuplicate?: boolean;
  /** The file is the caller's (the command line's own path): never removed. */
  keepFile?: boolean;
  /** Run by this process itself, at once (the command line): a crash leaves it for the recovery sweep. */
  runHere?: boolean;
}

/** A received file as an import, checked or imported next (dispatchImport). */
export async function createImport(ctx: ServiceContext, input: NewImport): Promise<ImportRow> {
  let def: ResourceDef;
  try {
    def = importableResource(input.table);
    authorize(ctx, def, 'create');
    if (input.updateById) authorize(ctx, def, 'edit');
    if (input.phase === 'import' && !input.allowDuplicate) await refuseDuplicate(ctx, def, input.file.hash);
  } catch (error) {
    if (!input.keepFile) fs.rmSync(input.file.path, { force: true });
    throw error;
  }
  const row = await ctx.db
    .insertInto('imports')
    .values({
      userId: actorUserId(ctx.actor),
      actorLabel: actorLabel(ctx.actor),
      resource: def.key,
      fileName: cleanFileName(input.fileName),
      fileHash: input.file.hash,
      fileSize: input.file.size,
      filePath: input.file.path,
      updateById: input.updateById === true,
      phase: input.phase,
      mode: input.phase === 'import' ? (input.mode ?? 'all') : null,
      status: 'queued',
      runHere: input.runHere === true,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return row;
}

function cleanFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255) || 'upload.csv';
}

/** The earlier import that wrote the same file into the same table, if any the actor may know of. */
export async function earlierImport(
  ctx: ServiceContext,
  resource: string,
  hash: string,
  exceptId?: number,
): Promise<{ id: number; importedAt: string } | null> {
  let q = ctx.db
    .selectFrom('imports')
    .select(['id', 'importedAt'])
    .where('resource', '=', resource)
    .where('fileHash', '=', hash)
    .where('importedAt', 'is not', null)
    .orderBy('id', 'asc');
  // A user of one company hears only of their own imports.
  if (actorCompanyScope(ctx) !== null) q = q.where('userId', '=', actorUserId(ctx.actor));
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const row = await q.executeTakeFirst();
  return row?.importedAt ? { id: row.id, importedAt: row.importedAt } : null;
}

async function refuseDuplicate(ctx: ServiceContext, def: ResourceDef, hash: string, exceptId?: number) {
  const earlier = await earlierImport(ctx, def.key, hash, exceptId);
  if (earlier) throw conflict(duplicateMessage(def, earlier));
}

export function duplicateMessage(
  def: ResourceDef,
  earlier: { id: number; importedAt: string },
  formats?: Pick<ValueFormats, 'instant'>,
): string {
  // The /api's and the CLI's text keeps the ISO day and time; a screen shows its reader's.
  const when = formats
    ? formats.instant(earlier.importedAt)
    : `${earlier.importedAt.slice(0, 10)} ${earlier.importedAt.slice(11, 16)} UTC`;
  return `This file was already imported into ${def.title} on ${when} (import #${earlier.id}). Import it again only if its rows are not there yet.`;
}

/** An import of the actor's (a user sees their own; the CLI every one), else 404. */
export async function findImport(ctx: ServiceContext, id: number): Promise<ImportRow> {
  const user = actingUser(ctx);
  let q = ctx.db.selectFrom('imports').selectAll().where('id', '=', id);
  if (user) q = q.where('userId', '=', user.id);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Checks the file again with columns the user chose. */
export async function chooseColumns(
  ctx: ServiceContext,
  settings: ImportSettings,
  id: number,
  chosen: ImportMapping,
): Promise<ImportRow> {
  const row = await findImport(ctx, id);
  if (!row.filePath || row.status === 'running' || row.status === 'queued' || row.importedAt)
    throw conflict(msg('This import can no longer be changed'));
  await ctx.db
    .updateTable('imports')
    .set({ chosenColumns: JSON.stringify(chosen), phase: 'check', mode: null, status: 'queued', error: null })
    .where('id', '=', id)
    .execute();
  return dispatchImport(ctx, settings, id);
}

/** Imports a checked file: all rows or only the valid ones; a file imported before needs `allowDuplicate`. */
export async function startImport(
  ctx: ServiceContext,
  settings: ImportSettings,
  id: number,
  input: { mode: ImportMode; allowDuplicate?: boolean },
): Promise<ImportRow> {
  const row = await findImport(ctx, id);
  const def = importableResource(row.resource);
  authorize(ctx, def, 'create');
  if (!row.filePath || row.status === 'running' || row.status === 'queued' || row.importedAt)
    throw conflict(msg('This import has already run'));
  if (!input.allowDuplicate) await refuseDuplicate(ctx, def, row.fileHash, row.id);
  await ctx.db
    .updateTable('imports')
    .set({ phase: 'import', mode: input.mode, status: 'queued', error: null })
    .where('id', '=', id)
    .execute();
  return dispatchImport(ctx, settings, id);
}

/**
 * Runs a queued import: here when the file is small (the answer then says how it ended), else
 * as a job (the answer is the queued row). Without a job engine the file is run here in the
 * background, as a backup would be.
 */
export async function dispatchImport(ctx: ServiceContext, settings: ImportSettings, id: number): Promise<ImportRow> {
  const row = await findImport(ctx, id);
  if (row.fileSize <= settings.inlineBytes) {
    await ctx.db.updateTable('imports').set({ runHere: true }).where('id', '=', id).execute();
    await performImport(ctx, settings, id);
    return findImport(ctx, id);
  }
  try {
    await ctx.runtime.jobs.enqueue(
      'csv-import',
      { importId: id },
      { singletonKey: `import-${id}-${row.phase}-${Date.now()}` },
    );
  } catch (error) {
    console.error(`[imports] no job engine (${(error as Error).message}): import #${id} runs in this process`);
    void performImport(ctx, settings, id).catch((failure: unknown) =>
      console.error(`[imports] import #${id} failed: ${(failure as Error).message}`),
    );
  }
  return row;
}

/** The context an import's rows are checked and written in: its user's, as they are now. */
async function importerContext(ctx: ServiceContext, row: ImportRow): Promise<ServiceContext> {
  if (row.userId === null) return ctx; // the command line
  const current = actingUser(ctx);
  if (current?.id === row.userId) return ctx;
  const user = await findUserById(ctx.db, row.userId);
  if (!user?.isActive)
    throw new DomainError('forbidden', msg('The user who started this import can no longer sign in'));
  return { ...ctx, actor: { kind: 'user', user }, meta: {} };
}

/** What performImport reports as it goes (the command line's progress bar and refused lines). */
export interface ImportHooks {
  onProgress?: (rows: number) => void;
  onRefused?: (line: number, errors: { field: string; message: string }[]) => void;
}

/**
 * Checks or imports a queued import's file and stores how it ended. Safe to run twice (a job
 * retried after a crash): an import that finished is left alone; one left running starts again,
 * its transaction having been rolled back.
 */
export async function performImport(
  ctx: ServiceContext,
  settings: Pick<ImportSettings, 'dataDir'>,
  id: number,
  hooks: ImportHooks = {},
): Promise<ImportRow> {
  const row = await ctx.db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  if (row.status !== 'queued' && row.status !== 'running') return row;
  const def = importableResource(row.resource);
  const started = new Date().toISOString();
  await ctx.db
    .updateTable('imports')
    .set({ status: 'running', startedAt: started, finishedAt: null, rowsRead: 0 })
    .where('id', '=', id)
    .execute();
  fs.mkdirSync(importsDir(settings.dataDir), { recursive: true, mode: 0o700 });
  const refusedPath = path.join(importsDir(settings.dataDir), `${id}-refused.csv`);
  const refused = new RefusedRows(refusedPath);
  const checking = row.phase === 'check';
  // Progress goes to the row where a write beside the import's transaction cannot wait on it:
  // always while checking; on PostgreSQL while importing too (SQLite has one writer at a time).
  const recordsProgress = checking || dialectOf(ctx.db) === 'postgres';
  let outcome: CsvImportOutcome | null = null;
  let headers: string[] = [];
  let failure: string | null = null;
  let failureWords: OtherWords | undefined;
  // The errors kept for the screen are worded for its readers of every language.
  const readers = otherReaders(ctx.runtime.translator);
  try {
    if (!row.filePath || !fs.existsSync(row.filePath)) throw conflict(msg('The uploaded file is no longer there'));
    const importer = await importerContext(ctx, row);
    outcome = await importCsv(importer, def, fs.createReadStream(row.filePath), {
      mode: (row.mode as ImportMode | null) ?? 'all',
      dryRun: checking,
      updateById: row.updateById,
      readers,
      chosen: row.chosenColumns ? (JSON.parse(row.chosenColumns) as ImportMapping) : undefined,
      reason: reasonWith(REASONS.csvImport, { id, file: row.fileName }),
      onHeaders: (read) => (headers = read),
      onProgress: async (rows) => {
        hooks.onProgress?.(rows);
        if (recordsProgress) await ctx.db.updateTable('imports').set({ rowsRead: rows }).where('id', '=', id).execute();
      },
      onRefused: (line, cells, errors) => {
        hooks.onRefused?.(line, errors);
        return refused.add(headers, line, cells, errors);
      },
    });
  } catch (error) {
    if (!isDomainError(error)) {
      await refused.close();
      throw error; // a crash: the job is retried, the transaction was rolled back
    }
    failure = refusalLine(error, ENGLISH);
    failureWords = wordsIn(readers, (reader) => refusalLine(error, reader));
  }
  await refused.close();
  const finished = new Date().toISOString();
  const status = failure ? 'failed' : checking ? 'checked' : outcome!.written ? 'completed' : 'failed';
  const refusedAll = status === 'failed' && !failure ? nothingImported(outcome!) : null;
  const error = failure ?? (refusedAll ? refusedAll(ENGLISH) : null);
  const errorWords = failureWords ?? (refusedAll ? wordsIn(readers, refusedAll) : undefined);
  const stored: StoredOutcome | null = outcome && {
    headers: outcome.headers,
    columns: outcome.columns,
    missing: outcome.missing,
    errors: outcome.errors,
    sample: outcome.sample,
  };
  await ctx.db
    .updateTable('imports')
    .set({
      status,
      error,
      errorTexts: errorWords ? JSON.stringify(errorWords) : null,
      finishedAt: finished,
      rowsRead: outcome?.rows ?? 0,
      rowsTotal: outcome?.rows ?? null,
      rowsValid: outcome?.valid ?? null,
      rowsInvalid: outcome?.invalid ?? null,
      rowsCreated: outcome && !checking ? outcome.created : null,
      rowsUpdated: outcome && !checking ? outcome.updated : null,
      rowsUnchanged: outcome && !checking ? outcome.unchanged : null,
      outcome: stored ? JSON.stringify(stored) : null,
      refusedPath: refused.rows > 0 ? refusedPath : null,
      importedAt: status === 'completed' ? finished : null,
      // A file whose rows were written is not kept (its hash still tells it apart).
      filePath: status === 'completed' && isOwnFile(settings, row.filePath) ? null : row.filePath,
    })
    .where('id', '=', id)
    .execute();
  if (status === 'completed' && row.filePath && isOwnFile(settings, row.filePath))
    fs.rmSync(row.filePath, { force: true });
  if (refused.rows === 0) fs.rmSync(refusedPath, { force: true });
  const done = await ctx.db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  if (!done.runHere && done.userId !== null)
    await importFinished(ctx, {
      id,
      userId: done.userId,
      file: done.fileName,
      phase: done.phase,
      status: done.status,
      rows: {
        total: done.rowsTotal ?? 0,
        valid: done.rowsValid ?? 0,
        invalid: done.rowsInvalid ?? 0,
        created: done.rowsCreated ?? 0,
        updated: done.rowsUpdated ?? 0,
        unchanged: done.rowsUnchanged ?? 0,
      },
      refused: refusedAll !== null,
    });
  return done;
}

/** Why nothing of an import in one transaction was written, for a reader. */
const nothingImported = (outcome: CsvImportOutcome) => (reader: Reader) => {
  const n = (v: number) => v.toLocaleString(INTL_LOCALES[reader.locale]);
  return reader.t('Nothing was imported: {invalid} of {rows} rows are invalid', {
    invalid: n(outcome.invalid),
    rows: n(outcome.rows),
  });
};

const isOwnFile = (settings: Pick<ImportSettings, 'dataDir'>, file: string | null) =>
  !!file && path.dirname(file) === importsDir(settings.dataDir);

/**
 * One line on how an import ended ('1,200 rows imported, 3 refused'), its numbers in `formats`
 * (a screen's reader's; fixed for the /api, the CLI and stored messages).
 */
export function importSummary(row: ImportRow, formats: Pick<ValueFormats, 'number'> = FIXED_FORMATS): string {
  const n = (v: number | null) => formats.number(v ?? 0);
  if (row.status === 'failed') return row.error ?? 'The import failed';
  if (row.status === 'checked')
    return `${n(row.rowsValid)} of ${n(row.rowsTotal)} rows are valid${row.rowsInvalid ? `, ${n(row.rowsInvalid)} invalid` : ''}`;
  if (row.status === 'completed') {
    const parts = [`${n(row.rowsCreated)} rows added`];
    if (row.rowsUpdated) parts.push(`${n(row.rowsUpdated)} updated`);
    if (row.rowsUnchanged) parts.push(`${n(row.rowsUnchanged)} unchanged`);
    if (row.rowsInvalid) parts.push(`${n(row.rowsInvalid)} refused`);
    return parts.join(', ');
  }
  return row.status === 'running' ? `${n(row.rowsRead)} rows read so far` : 'Waiting to start';
}

/** The refused rows as CSV: the file's own columns, then the line and what is wrong. */
class RefusedRows {
  rows = 0;
  private out: fs.WriteStream | null = null;
  private readonly file: string;
  constructor(file: string) {
    this.file = file;
  }

  async add(
    headers: readonly string[],
    line: number,
    cells: readonly string[],
    errors: { field: string; message: string }[],
  ) {
    if (!this.out) {
      this.out = fs.createWriteStream(this.file, { mode: 0o600 });
      this.write([...headers, 'Line', 'Errors']);
    }
    this.rows++;
    const reasons = errors.map((e) => e.message).join('; ');
    if (!this.write([...cells, String(line), reasons]))
      await new Promise<void>((resolve) => this.out!.once('drain', () => resolve()));
  }

  private write(cells: readonly string[]): boolean {
    const text = cells.map((c) => {
      const cell = csvCell(c);
      return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
    });
    return this.out!.write(`${text.join(',')}\r\n`);
  }

  close(): Promise<void> {
    const out = this.out;
    this.out = null;
    return out ? new Promise((resolve) => out.end(resolve)) : Promise.resolve();
  }
}

/**
 * Marks imports left running by a process that stopped as failed: those it ran itself (a small
 * file; a job's are retried by the engine). Their transaction was rolled back with the process.
 */
export async function failInterruptedImports(
  db: Db,
  reason: string,
  olderThan?: Date,
  readers: readonly Reader[] = [],
): Promise<number[]> {
  const words = wordsIn(readers, (r) => r.t('{reason}: nothing was written', { reason: r.t(reason) }));
  let update = db
    .updateTable('imports')
    .set({
      status: 'failed',
      error: `${reason}: nothing was written`,
      errorTexts: words ? JSON.stringify(words) : null,
      finishedAt: new Date().toISOString(),
    })
    .where('status', '=', 'running')
    .where('runHere', '=', true);
  if (olderThan) update = update.where('startedAt', '<', olderThan.toISOString());
  return (await update.returning('id').execute()).map((r) => r.id);
}

/** An import as the API answers it (answers.ts). */
export function importAnswer(row: ImportRow): ImportAnswerType {
  const outcome = row.outcome ? (JSON.parse(row.outcome) as StoredOutcome) : null;
  const columns = outcome
    ? Object.fromEntries(
        Object.entries(outcome.columns.mapping).map(([field, at]) => [field, at === null ? null : outcome.headers[at]]),
      )
    : null;
  return {
    id: row.id,
    table: row.resource,
    fileName: row.fileName,
    fileSize: row.fileSize,
    sha256: row.fileHash,
    phase: row.phase as ImportAnswerType['phase'],
    mode: row.mode as ImportAnswerType['mode'],
    updateById: row.updateById,
    status: row.status as ImportAnswerType['status'],
    rowsRead: row.rowsRead,
    rows: row.rowsTotal,
    valid: row.rowsValid,
    invalid: row.rowsInvalid,
    created: row.rowsCreated,
    updated: row.rowsUpdated,
    unchanged: row.rowsUnchanged,
    columns,
    missing: outcome?.missing ?? [],
    errors: (outcome?.errors ?? []).map(({ line, field, message }) => ({ line, field, message })),
    error: row.error,
    summary: importSummary(row),
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    importedAt: row.importedAt,
  };
}
