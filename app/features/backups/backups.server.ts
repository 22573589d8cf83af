// Backups (docs/security.md, docs/jobs.md, docs/decisions.md): the list, creating one (as a job from the web, at
// once from the CLI), the scheduled backup and its retention, verifying and deleting. Restoring
// is in backup-restore.server.ts. Files live in BACKUP_DIR under names the server chooses; a
// request never names a path.
// Who: the backups permission makes backups of the tables its holder may read (and deletes the
// ones they made); the scheduled backup of everything and deleting others' backups are
// installation-wide (owners and admins not limited to one company); safety backups, taken
// before an overwriting restore, are deleted only by owners. Each user keeps at most
// MANUAL_BACKUP_QUOTA manual backups and has one written at a time.
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Selectable } from 'kysely';
import { z } from 'zod';
import { constraintViolation, dialectOf, toJson } from '../../../db/dialect.ts';
import { withSnapshot } from '../../../db/snapshot.ts';
import type { BackupsTable, BackupType } from '../../../db/types.ts';
import { camelCase, snakeCase } from '../../platform/lib/names.ts';
import { can, type Principal } from '../../platform/lib/permissions.ts';
import { recordAudit } from '../../platform/audit.server.ts';
import { backupTablesFor, readableTables, SELECTABLE_BACKUP_TABLES, unreadableTables } from './backup-tables.server.ts';
import {
  BackupFileError,
  hashFile,
  readBackupFile,
  writeBackupFile,
  type BackupManifest,
} from './backup-file.server.ts';
import { SCHEMA_VERSION } from './backup-upgrades.server.ts';
import type { BackupSettings } from '../../platform/config.server.ts';
import {
  actingUser,
  actorUserId,
  requirePermission,
  systemActor,
  type ServiceContext,
} from '../../platform/context.ts';
import { conflict, DomainError, fieldErrorsFromZod, forbidden, invalid, notFound } from '../../platform/errors.ts';
import { backupFinished } from '../notifications/index.server.ts';
import { APP_VERSION } from '../system/index.server.ts';
import type { Backup, Verification } from './answers.ts';
import type { Assert, Same } from '../../platform/lib/type-checks.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { carried, marked, worded } from '../../platform/i18n/refusal-words.ts';

export type { Backup, Verification };

const COLUMNS = [
  'id',
  'name',
  'description',
  'type',
  'status',
  'createdAt',
  'completedAt',
  'size',
  'recordCount',
  'tables',
  'tableCounts',
  'includeAuditLogs',
  'includeVersions',
  'schemaVersion',
  'sha256',
  'error',
  'createdBy',
] as const;
// The columns read are exactly the answer's fields, with the types the database gives them.
type _ColumnsMatch = Assert<Same<Pick<Selectable<BackupsTable>, (typeof COLUMNS)[number]>, Backup>>;

/** Newest first (the list is short: one row per file on disk). */
export async function listBackups(
  ctx: ServiceContext,
  options: { limit?: number; status?: Backup['status'] } = {},
): Promise<Backup[]> {
  requirePermission(ctx, 'backups');
  return (await ctx.db
    .selectFrom('backups')
    .select(COLUMNS)
    .$if(options.status !== undefined, (q) => q.where('status', '=', options.status!))
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit ?? 1000)
    .execute()) as Backup[];
}

async function findBackup(ctx: ServiceContext, id: number): Promise<Backup & { fileName: string | null }> {
  const row = await ctx.db
    .selectFrom('backups')
    .select([...COLUMNS, 'fileName'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row as Backup & { fileName: string | null };
}

export async function getBackup(ctx: ServiceContext, id: number): Promise<Backup> {
  requirePermission(ctx, 'backups');
  const { fileName: _, ...backup } = await findBackup(ctx, id);
  return backup;
}

/** The file of a backup row, inside the backup directory whatever the stored name says. */
export function backupFilePath(settings: Pick<BackupSettings, 'dir'>, fileName: string): string {
  return path.join(settings.dir, path.basename(fileName));
}

/**
 * Where a backup's file is (null until written). Web answers never name a path; the
 * administrator at the command line is told.
 */
export async function backupFileOf(
  ctx: ServiceContext,
  settings: Pick<BackupSettings, 'dir'>,
  id: number,
): Promise<string | null> {
  requirePermission(ctx, 'backups');
  const row = await ctx.db.selectFrom('backups').select('fileName').where('id', '=', id).executeTakeFirst();
  return row?.fileName ? backupFilePath(settings, row.fileName) : null;
}

const SELECTABLE = new Set<string>(SELECTABLE_BACKUP_TABLES.map((t) => t.name));

const flag = z.preprocess(
  (v) => (v === 'on' || v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v),
  z.boolean(),
);

export const BackupRequest = z.strictObject({
  name: z.string().trim().max(255, 'Name must be at most 255 characters').optional().nullable(),
  description: z.string().trim().max(2000, 'Description must be at most 2000 characters').optional().nullable(),
  tables: z
    .array(z.string().max(100))
    .max(SELECTABLE.size + 5, 'Too many tables')
    .optional()
    .nullable()
    .transform((names, ctx) => {
      const tables = [...new Set((names ?? []).map((n) => camelCase(n.trim())))];
      const unknown = tables.filter((t) => !SELECTABLE.has(t));
      if (unknown.length) ctx.addIssue({ code: 'custom', message: `Unknown table: ${unknown.join(', ')}` });
      return tables;
    }),
  includeAuditLogs: flag.optional().default(false),
  includeVersions: flag.optional().default(false),
});

export type BackupRequestInput = z.input<typeof BackupRequest>;
export type BackupRequestValues = z.output<typeof BackupRequest>;

/** The create-backup form or body: no field is required; an empty table selection means all. */
export function parseBackupRequest(input: unknown): BackupRequestValues {
  const parsed = BackupRequest.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  return parsed.data;
}

const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/** Manual backups one user keeps (failed ones do not count): beyond it they delete one first. */
export const MANUAL_BACKUP_QUOTA = 20;
export const BACKUP_QUOTA_REACHED = `You keep ${MANUAL_BACKUP_QUOTA} manual backups, the most one person may: delete one before making another`;
export const BACKUP_ALREADY_RUNNING = msg(
  'A backup you asked for is still being written: try again when it has finished',
);
/** Seconds a user asked to wait for their running backup. */
const BACKUP_RETRY_AFTER = 30;

/**
 * The tables of a new backup, checked against what its maker may read: no selection means every
 * table they may read; a scheduled backup holds everything, so only someone who may read
 * everything (in practice an owner or admin) makes one from the web.
 */
const ONLY_READABLE = msg('You may only back up what you may read, and not: {tables}');

function backupValuesFor(ctx: ServiceContext, values: BackupRequestValues): BackupRequestValues {
  const user = actingUser(ctx);
  if (!user) return values;
  const resolved = values.tables.length ? values : { ...values, tables: readableTables(user) };
  const refused = unreadableTables(user, backupTablesFor(resolved));
  if (refused.length) {
    const labels = refused.map((t) => t.label);
    throw marked(forbidden(ONLY_READABLE, { tables: labels.join(', ') }), (reader) =>
      reader.t(ONLY_READABLE, { tables: labels.map((label) => reader.t(label)).join(', ') }),
    );
  }
  return resolved;
}

/** A user's manual backups: one written at a time, at most MANUAL_BACKUP_QUOTA kept. */
async function checkManualBackups(ctx: ServiceContext): Promise<void> {
  const userId = actorUserId(ctx.actor);
  if (userId === null) return;
  const mine = await ctx.db
    .selectFrom('backups')
    .select(['status'])
    .where('createdBy', '=', userId)
    .where('type', '=', 'manual')
    .where('status', '!=', 'failed')
    .execute();
  if (mine.some((b) => b.status === 'in_progress'))
    throw new DomainError('rateLimited', BACKUP_ALREADY_RUNNING, { retryAfter: BACKUP_RETRY_AFTER });
  if (mine.length >= MANUAL_BACKUP_QUOTA) throw conflict(BACKUP_QUOTA_REACHED);
}

async function insertBackup(ctx: ServiceContext, values: BackupRequestValues, type: BackupType): Promise<Backup> {
  const now = new Date().toISOString();
  const fallback =
    type === 'scheduled' ? 'Scheduled Backup' : type === 'automated' ? 'Automatic Backup' : 'Manual Backup';
  const tables = backupTablesFor(values);
  if (type === 'manual') await checkManualBackups(ctx);
  const row = await ctx.db
    .insertInto('backups')
    .values({
      name: values.name || `${fallback} ${now}`,
      description: values.description || null,
      type,
      status: 'in_progress',
      tables: toJson(tables),
      includeAuditLogs: values.includeAuditLogs,
      includeVersions: values.includeVersions,
      createdBy: actorUserId(ctx.actor),
      createdAt: now,
      updatedAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .catch((error: unknown) => {
      // Two requests at once (PostgreSQL): the index of one running manual backup per user refused the second.
      if (constraintViolation(error) === 'unique')
        throw new DomainError('rateLimited', BACKUP_ALREADY_RUNNING, { retryAfter: BACKUP_RETRY_AFTER });
      throw error;
    });
  await recordAudit(ctx, {
    tableName: 'backups',
    recordId: row.id,
    action: 'create',
    newData: { name: values.name || `${fallback} ${now}`, type, tables },
  });
  return getBackupUnchecked(ctx, row.id);
}

async function getBackupUnchecked(ctx: ServiceContext, id: number): Promise<Backup> {
  const { fileName: _, ...backup } = await findBackup(ctx, id);
  return backup;
}

/**
 * From the web: the row now (in progress), the file by the backup-create job. When this process
 * can reach no job engine (EMBEDDED_JOBS=0, an engine that failed to start) it writes the file
 * itself in the background rather than refuse: the backup still happens, and its row tells how
 * it ended.
 */
export async function requestBackup(
  ctx: ServiceContext,
  settings: BackupSettings,
  input: unknown,
  type: 'manual' | 'scheduled' = 'manual',
): Promise<Backup> {
  const backup = await newBackup(ctx, input, type);
  try {
    await ctx.runtime.jobs.enqueue('backup-create', { backupId: backup.id }, { singletonKey: `backup-${backup.id}` });
  } catch (error) {
    console.error(
      `[backups] no job engine (${(error as Error).message}): backup #${backup.id} is written by this process`,
    );
    void runBackup(ctx, settings, backup.id).catch((failure: unknown) =>
      console.error(`[backups] backup #${backup.id} failed: ${(failure as Error).message}`),
    );
  }
  return backup;
}

/** A scheduled backup holds everything: every table, the audit logs and the versions. */
const scheduledValues = (): BackupRequestValues => ({
  name: null,
  description: 'Made by the backup schedule',
  tables: [],
  includeAuditLogs: true,
  includeVersions: true,
});

/** From the CLI, the schedule and the safety backup of a restore: made now, in this process. */
export async function createBackupNow(
  ctx: ServiceContext,
  settings: BackupSettings,
  input: unknown,
  type: BackupType = 'manual',
  onProgress?: (done: number, total: number) => void,
): Promise<Backup> {
  const backup = await newBackup(ctx, input, type);
  return runBackup(ctx, settings, backup.id, onProgress);
}

/** The checked request as a backup row, in progress (its file is written next). */
async function newBackup(ctx: ServiceContext, input: unknown, type: BackupType): Promise<Backup> {
  requirePermission(ctx, 'backups', 'create');
  if (type === 'scheduled') requirePermission(ctx, 'installation');
  const values = backupValuesFor(ctx, type === 'scheduled' ? scheduledValues() : parseBackupRequest(input));
  return ctx.db.transaction().execute((trx) => insertBackup({ ...ctx, db: trx }, values, type));
}

async function markFailed(ctx: ServiceContext, id: number, reason: string): Promise<void> {
  const now = new Date().toISOString();
  await ctx.db
    .updateTable('backups')
    .set({ status: 'failed', error: reason.slice(0, 2000), updatedAt: now, completedAt: now })
    .where('id', '=', id)
    .execute();
}

/**
 * The camelCase columns of each table, as the database has them now, in their order. On
 * PostgreSQL only the connection's own schema is read: Kysely's introspection reads every
 * schema of the database, which mixed in same-named tables of other schemas and failed when
 * one was dropped meanwhile ('relation … does not exist').
 */
export async function tableColumns(ctx: ServiceContext, tables: readonly string[]): Promise<Map<string, string[]>> {
  const wanted = new Map(tables.map((t) => [snakeCase(t), t]));
  const metadata =
    dialectOf(ctx.db) === 'postgres'
      ? await ownSchemaColumns(ctx, [...wanted.keys()])
      : (await ctx.db.introspection.getTables()).map((table) => ({
          name: table.name,
          columns: table.columns.map((c) => c.name),
        }));
  const result = new Map<string, string[]>();
  for (const table of metadata) {
    const name = wanted.get(table.name);
    if (name)
      result.set(
        name,
        table.columns.map((c) => camelCase(c)),
      );
  }
  for (const t of tables) if (!result.has(t)) throw new Error(`Table ${t} does not exist in this database`);
  return result;
}

async function ownSchemaColumns(ctx: ServiceContext, names: string[]): Promise<{ name: string; columns: string[] }[]> {
  if (names.length === 0) return [];
  const { rows } = await sql<{ tableName: string; columnName: string }>`
    select table_name as "tableName", column_name as "columnName" from information_schema.columns
    where table_schema = current_schema() and table_name in (${sql.join(names)})
    order by table_name, ordinal_position`.execute(ctx.db);
  const byTable = new Map<string, string[]>();
  for (const row of rows) byTable.set(row.tableName, [...(byTable.get(row.tableName) ?? []), row.columnName]);
  return [...byTable].map(([name, columns]) => ({ name, columns }));
}

/**
 * Writes the backup's file and marks it completed (or failed, with the reason). Safe to run
 * twice: a completed backup is left as it is; anything else is written again from scratch.
 */
export async function runBackup(
  ctx: ServiceContext,
  settings: BackupSettings,
  id: number,
  onProgress?: (done: number, total: number) => void,
): Promise<Backup> {
  const backup = await findBackup(ctx, id);
  if (backup.status === 'completed') return getBackupUnchecked(ctx, id);
  const fileName = `finhub-backup-${id}-${stamp(backup.createdAt)}.jsonl.gz`;
  const file = backupFilePath(settings, fileName);
  try {
    // Inside the try: whatever fails before the first row is written (a backup folder that is
    // a file, no permission) fails the backup at once, with its reason.
    removeLeftovers(settings, fileName);
    const columns = await tableColumns(ctx, backup.tables);
    const written = await withSnapshot(ctx.db, (snapshot) =>
      writeBackupFile(
        file,
        {
          appVersion: APP_VERSION,
          schemaVersion: SCHEMA_VERSION,
          dialect: dialectOf(ctx.db),
          createdAt: backup.createdAt,
          name: backup.name,
        },
        backup.tables.map((name) => ({ name, columns: columns.get(name)! })),
        snapshot,
        onProgress,
      ),
    );
    const now = new Date().toISOString();
    await ctx.db
      .updateTable('backups')
      .set({
        status: 'completed',
        fileName,
        size: written.size,
        sha256: written.sha256,
        recordCount: written.manifest.rows,
        tableCounts: toJson(Object.fromEntries(written.manifest.tables.map((t) => [t.name, t.rows]))),
        schemaVersion: written.manifest.schemaVersion,
        error: null,
        updatedAt: now,
        completedAt: now,
      })
      .where('id', '=', id)
      .execute();
  } catch (error) {
    await markFailed(ctx, id, (error as Error).message);
    await backupFinished(ctx, {
      id,
      name: backup.name,
      status: 'failed',
      error: (error as Error).message,
      createdBy: backup.createdBy,
    });
    throw error;
  }
  if (backup.type === 'scheduled') await pruneScheduledBackups(ctx, settings);
  const done = await getBackupUnchecked(ctx, id);
  await backupFinished(ctx, done);
  return done;
}

/** Temporary files of an earlier run of the same backup that was killed while writing. */
function removeLeftovers(settings: BackupSettings, fileName: string): void {
  if (!fs.existsSync(settings.dir)) return;
  for (const name of fs.readdirSync(settings.dir)) {
    if (name.startsWith(`.${fileName}.`) && name.endsWith('.tmp'))
      fs.rmSync(path.join(settings.dir, name), { force: true });
  }
}

/** Keeps the newest `settings.keep` completed scheduled backups; older ones (rows and files) go. */
export async function pruneScheduledBackups(ctx: ServiceContext, settings: BackupSettings): Promise<number[]> {
  const old = await ctx.db
    .selectFrom('backups')
    .select(['id', 'fileName'])
    .where('type', '=', 'scheduled')
    .where('status', '=', 'completed')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .offset(settings.keep)
    .limit(10_000)
    .execute();
  for (const row of old) {
    await ctx.db.deleteFrom('backups').where('id', '=', row.id).execute();
    if (row.fileName) fs.rmSync(backupFilePath(settings, row.fileName), { force: true });
  }
  return old.map((r) => r.id);
}

/** Checks a file on its own: every line parses and the counts match its manifest. */
export async function verifyBackupFile(file: string): Promise<Verification & { manifest?: BackupManifest }> {
  if (!fs.existsSync(file)) return { valid: false, reason: msg('The backup file is missing') };
  try {
    let manifest: BackupManifest | undefined;
    for await (const event of readBackupFile(file, 5000)) if (event.kind === 'end') manifest = event.manifest;
    return { valid: true, manifest };
  } catch (error) {
    if (error instanceof BackupFileError) return carried(error, { valid: false, reason: error.message });
    throw error;
  }
}

/** Recomputes the file's SHA-256 against the stored one, then reads every row (answers valid true/false). */
export async function verifyBackup(ctx: ServiceContext, settings: BackupSettings, id: number): Promise<Verification> {
  requirePermission(ctx, 'backups');
  const backup = await findBackup(ctx, id);
  const { valid, reason } = await checkBackup(backup, settings);
  return valid ? { valid } : { valid, reason };
}

export async function checkBackup(
  backup: Backup & { fileName: string | null },
  settings: BackupSettings,
): Promise<Verification & { file?: string; manifest?: BackupManifest }> {
  if (backup.status === 'in_progress') return { valid: false, reason: msg('The backup is still in progress') };
  if (backup.status === 'failed' || !backup.fileName || !backup.sha256)
    return backup.error
      ? worded((reason) => ({ valid: false, reason }), msg('The backup failed: {error}'), { error: backup.error })
      : { valid: false, reason: msg('The backup failed') };
  const file = backupFilePath(settings, backup.fileName);
  if (!fs.existsSync(file)) return { valid: false, reason: msg('The backup file is missing') };
  if ((await hashFile(file)) !== backup.sha256)
    return { valid: false, reason: msg('The file has changed since the backup was made (SHA-256 differs)') };
  const read = await verifyBackupFile(file);
  if (!read.valid) return read;
  const counts = Object.fromEntries(read.manifest!.tables.map((t) => [t.name, t.rows]));
  const recorded = backup.tableCounts ?? {};
  const sameCounts =
    Object.keys(counts).length === Object.keys(recorded).length &&
    Object.entries(counts).every(([t, n]) => recorded[t] === n);
  if (read.manifest!.rows !== backup.recordCount || !sameCounts) {
    return { valid: false, reason: msg('The file does not hold the row counts recorded for this backup') };
  }
  return { valid: true, file, manifest: read.manifest };
}

export const SAFETY_BACKUP_DELETE_REFUSAL = 'Only an owner can delete a safety backup';
export const OTHERS_BACKUP_DELETE_REFUSAL = 'You can only delete the backups you made';

/** Why this holder of the backups permission may not delete this backup (null: they may). */
export function deleteRefusal(user: Principal, backup: Pick<Backup, 'type' | 'createdBy'>): string | null {
  // A safety backup is what an overwriting restore can be undone with.
  if (backup.type === 'automated' && user.role !== 'owner') return SAFETY_BACKUP_DELETE_REFUSAL;
  if (!can(user, 'installation') && !(backup.type === 'manual' && backup.createdBy === user.id))
    return OTHERS_BACKUP_DELETE_REFUSAL;
  return null;
}

/** The row and its file. A backup still being written cannot be deleted. */
export async function deleteBackup(ctx: ServiceContext, settings: BackupSettings, id: number): Promise<void> {
  const user = requirePermission(ctx, 'backups', 'delete');
  const backup = await findBackup(ctx, id);
  const refusal = user ? deleteRefusal(user, backup) : null;
  if (refusal) throw forbidden(refusal);
  if (backup.status === 'in_progress') throw conflict(msg('A backup in progress cannot be deleted'));
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('backups').where('id', '=', id).execute();
    await recordAudit(
      { ...ctx, db: trx },
      {
        tableName: 'backups',
        recordId: id,
        action: 'delete',
        oldData: { name: backup.name, type: backup.type, createdAt: backup.createdAt },
      },
    );
  });
  if (backup.fileName) fs.rmSync(backupFilePath(settings, backup.fileName), { force: true });
}

/**
 * Backups a crash left in progress (docs/jobs.md) are marked failed, and the half-written files
 * they left in `dir` are removed; `olderThan` spares ones other workers may own.
 */
export async function failInterruptedBackups(
  ctx: Pick<ServiceContext, 'db' | 'runtime'>,
  reason: string,
  options: { olderThan?: Date; dir?: string } = {},
): Promise<number[]> {
  const now = new Date().toISOString();
  let update = ctx.db
    .updateTable('backups')
    .set({ status: 'failed', error: reason, updatedAt: now, completedAt: now })
    .where('status', '=', 'in_progress');
  if (options.olderThan) update = update.where('updatedAt', '<', options.olderThan.toISOString());
  const failed = await update.returning(['id', 'name', 'createdBy']).execute();
  const ids = failed.map((r) => r.id);
  for (const row of failed) {
    await backupFinished(
      { db: ctx.db, actor: systemActor('worker'), meta: {}, runtime: ctx.runtime },
      { ...row, status: 'failed', error: reason },
    );
  }
  if (options.dir && ids.length && fs.existsSync(options.dir)) {
    const prefixes = ids.map((id) => `.finhub-backup-${id}-`);
    for (const name of fs.readdirSync(options.dir)) {
      if (name.endsWith('.tmp') && prefixes.some((p) => name.startsWith(p)))
        fs.rmSync(path.join(options.dir, name), { force: true });
    }
  }
  return ids;
}
