// Restoring a backup (docs/security.md, docs/writes.md, docs/decisions.md): all or nothing, in one transaction.
// - Without overwrite: the backup's rows whose ids are missing are added; existing rows stay.
// - With overwrite: a safety backup of the tables is taken first; then each table ends up
//   holding exactly the backup's rows: rows the backup lacks are deleted (children first),
//   rows it holds are inserted or replaced in place (parents first), so rows of tables not
//   restored keep pointing at the same ids.
// - The audit trail is append-only evidence, overwrite or not: the backup's audit entries and
//   data versions are only added where the database lacks them (skipAuditLogs: not at all);
//   nothing of the trail is deleted or rewritten, and every restore writes its own entry.
// - Who: an owner or admin not limited to one company; an owner when the backup holds tables
//   that give people rights (accounts, their settings). The CLI acts as the operator.
// Rows of an older schema are brought up to date (backup-upgrades.server.ts). Any failure rolls
// everything back and names the table and row. On PostgreSQL identity sequences are moved past
// the restored ids. The restoring user's own sign-in survives; other sessions end when users
// are replaced.
import { once } from 'node:events';
import { z } from 'zod';
import { finished } from 'node:stream/promises';
import { CamelCasePlugin, CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pgPoolOf } from '../../../db/connection-facts.ts';
import type { Database } from '../../../db/types.ts';
import { constraintViolation, dialectOf } from '../../../db/dialect.ts';
import { COUNTED_TABLES } from '../../../db/migrations/0003_row_counts.ts';
import { dayRecountStatements } from '../../../db/day-counts.ts';
import { rebuildAggregates } from '../../../db/aggregates.ts';
import { recountAuditEntries } from '../../../db/audit-counts.ts';
import { rebuildSearchIndex, SEARCH_INDEXES } from '../../../db/search-index.ts';
import { JSON_COLUMNS } from '../../../db/types.ts';
import { createMissingUserSettings } from '../../../db/user-settings-rows.ts';
import { UNIQUE_NAMES } from '../../../db/migrations/0019_unique_names.ts';
import { snakeCase } from '../../platform/lib/names.ts';
import { recordAudit } from '../../platform/audit.server.ts';
import {
  BackupFileError,
  readBackupFile,
  readManifest,
  type BackupManifest,
  type ManifestTable,
} from './backup-file.server.ts';
import { backupTableInfo, BACKUP_TABLES, grantsRights, isAppendOnly, tableLabel } from './backup-tables.server.ts';
import { foldRetiredTables } from './backup-retired.server.ts';
import type { RestoredTable, RestoreResult } from './answers.ts';
import { RETIRED_TABLES, SchemaVersionError, upgradesFrom } from './backup-upgrades.server.ts';
import { checkBackup, createBackupNow, tableColumns, type Backup } from './backups.server.ts';
import { backupRestored } from '../notifications/index.server.ts';
import type { BackupSettings } from '../../platform/config.server.ts';
import { actorUserId, requirePermission, type Db, type ServiceContext } from '../../platform/context.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { singleConnectionPool } from '../../platform/query-types.server.ts';
import { can, type Principal } from '../../platform/lib/permissions.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { carried, marked, readerWords, worded } from '../../platform/i18n/refusal-words.ts';

/** POST /api/backups/{id}/restore's body: the options at the top level or under `options` (either shape), so errors name the option. */
export const RestoreOptions = z.strictObject({
  overwrite: z.boolean().optional(),
  skipAuditLogs: z.boolean().optional(),
});
export const RestoreRequest = z.preprocess(
  (body) =>
    body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).join() === 'options'
      ? (body as { options: unknown }).options
      : body,
  RestoreOptions,
);
/** The body as the route declares it (apiRoute refuses every other field): the options at the top level or under `options`. */
export const RestoreBody = z.union([RestoreOptions, z.strictObject({ options: RestoreOptions })]);

export interface RestoreOptions {
  overwrite?: boolean;
  /** The backup's audit entries and data versions are not imported (the restore is audited all the same). */
  skipAuditLogs?: boolean;
}

export const RIGHTS_RESTORE_REFUSAL = 'Only an owner can restore a backup that holds user accounts or their settings';

/** Restoring is installation-wide: an owner or admin not limited to one company (the CLI: always). */
export const mayRestore = (user: Principal) => can(user, 'installation') && can(user, 'backups', 'edit');

/** Rows that give people rights come back only by an owner's hand. */
export const mayRestoreTables = (user: Principal, tables: readonly string[]) =>
  user.role === 'owner' || !grantsRights(tables);

export type { RestoredTable, RestoreResult };

export type RestoreSource = { backupId: number } | { file: string };

export type RestoreProgress = (done: number, total: number, table: string) => void;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Why one row cannot be written, in words (never the driver's text or SQL). */
function rowProblem(error: unknown): string {
  const kind = constraintViolation(error);
  const message = String((error as Error)?.message ?? '');
  const detail = String((error as { detail?: string })?.detail ?? '');
  if (kind === 'unique') {
    // A unique index on a normalised name (migration 0019) is named, not its columns.
    const index =
      (error as { constraint?: string })?.constraint ?? /UNIQUE constraint failed: index '([^']+)'/.exec(message)?.[1];
    const normalised = UNIQUE_NAMES.find((u) => u.index === index);
    if (normalised) return `another row already has the same ${normalised.column} (ignoring case)`;
    const columns =
      /Key \(([^)]+)\)/.exec(detail)?.[1] ??
      /UNIQUE constraint failed: (.+)$/
        .exec(message)?.[1]
        ?.split(', ')
        .map((c) => c.split('.').pop())
        .join(', ');
    return `another row already has the same ${columns ?? 'unique value'}`;
  }
  if (kind === 'foreignKey') return 'it refers to a row that is neither in the backup nor in the database';
  const code = (error as { code?: string })?.code ?? '';
  if (code === '23502' || code === 'SQLITE_CONSTRAINT_NOTNULL') return 'a required value is missing';
  if (code === '23514' || code === 'SQLITE_CONSTRAINT_CHECK') return 'a value is outside what the table allows';
  if (code.startsWith('22') || code === 'SQLITE_MISMATCH') return 'a value has the wrong type';
  return 'the database refused it';
}

class RestoreFailure extends Error {
  override name = 'RestoreFailure';
}

/** A table's (or one of its rows') refusal, worded for readers of other languages. */
function rowFailure(table: string, id: unknown, problem: string): RestoreFailure {
  const make = (english: string) => new RestoreFailure(english);
  return id === undefined
    ? worded(make, msg('{table} could not be restored: {problem}'), { table, problem }, ['table'])
    : worded(make, msg('{table} row {id} could not be restored: {problem}'), { table, id: String(id), problem }, [
        'table',
      ]);
}

/** Writes rows of one table in batches, each in a savepoint so a failing row can be named. */
interface TableWriter {
  write(rows: Record<string, unknown>[]): Promise<number>;
}

/**
 * What a row whose id exists already does: replaced (overwrite) or left (not). A table that was
 * empty when the restore began cannot have such a row: a plain insert is much cheaper. The audit
 * trail's rows are never replaced: one that clashes with an entry or version the database holds
 * (by id, or a version's record and number) is left out.
 */
function conflictOf(table: string, names: string[], overwrite: boolean, hadRows: boolean): string {
  if (!hadRows) return '';
  if (isAppendOnly(table)) return 'on conflict do nothing';
  return overwrite
    ? `on conflict ("id") do update set ${names
        .filter((n) => n !== 'id')
        .map((n) => `${quote(n)} = excluded.${quote(n)}`)
        .join(', ')}`
    : 'on conflict ("id") do nothing';
}

function pgWriter(trx: Db, table: string, columns: string[], overwrite: boolean, hadRows: boolean): TableWriter {
  const names = columns.map(snakeCase);
  const conflictClause = conflictOf(table, names, overwrite, hadRows);
  // The whole batch as one JSON parameter, turned into rows of the table's own type by
  // PostgreSQL (json_populate_recordset): one statement for thousands of rows, no per-value
  // escaping here, each value read by its column's type.
  const list = names.map(quote).join(', ');
  const text = `insert into ${quote(snakeCase(table))} (${list}) select ${list} from json_populate_recordset(null::${quote(snakeCase(table))}, $1::json) ${conflictClause}`;
  return {
    async write(rows) {
      const records = rows.map((row) => {
        const record: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) record[names[i]] = row[columns[i]] ?? null;
        return record;
      });
      const result = await trx.executeQuery(CompiledQuery.raw(text, [JSON.stringify(records)]));
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

function sqliteWriter(trx: Db, table: string, columns: string[], overwrite: boolean, hadRows: boolean): TableWriter {
  const names = columns.map(snakeCase);
  const conflictClause = conflictOf(table, names, overwrite, hadRows);
  const head = `insert into ${quote(snakeCase(table))} (${names.map(quote).join(', ')}) values `;
  const tuple = `(${names.map(() => '?').join(', ')})`;
  const texts = new Map<number, string>();
  const json = columns.map((c) => JSON_COLUMNS.has(c));
  return {
    async write(rows) {
      let text = texts.get(rows.length);
      if (!text) {
        text = `${head}${Array.from({ length: rows.length }, () => tuple).join(', ')} ${conflictClause}`;
        texts.set(rows.length, text);
      }
      const params: unknown[] = [];
      for (const row of rows) {
        for (let i = 0; i < columns.length; i++) {
          const v = row[columns[i]];
          params.push(
            v === undefined || v === null
              ? null
              : json[i]
                ? JSON.stringify(v)
                : typeof v === 'boolean'
                  ? v
                    ? 1
                    : 0
                  : v,
          );
        }
      }
      const result = await trx.executeQuery(CompiledQuery.raw(text, params));
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

async function inSavepoint<T>(trx: Db, fn: () => Promise<T>): Promise<T> {
  await sql.raw('savepoint restore_batch').execute(trx);
  try {
    const result = await fn();
    await sql.raw('release savepoint restore_batch').execute(trx);
    return result;
  } catch (error) {
    await sql.raw('rollback to savepoint restore_batch').execute(trx);
    await sql.raw('release savepoint restore_batch').execute(trx);
    throw error;
  }
}

/** Writes a batch; when it fails, finds the first row that fails alone and names it. */
async function writeBatch(
  trx: Db,
  writer: TableWriter,
  table: string,
  rows: Record<string, unknown>[],
): Promise<number> {
  try {
    return await inSavepoint(trx, () => writer.write(rows));
  } catch (error) {
    for (const row of rows) {
      try {
        await inSavepoint(trx, () => writer.write([row]));
      } catch (rowError) {
        throw rowFailure(label(table), row.id, rowProblem(rowError));
      }
    }
    throw rowFailure(label(table), undefined, rowProblem(error));
  }
}

const label = tableLabel;

/** Rows per statement: SQLite allows 32,766 parameters; PostgreSQL gets one array per column. */
const batchRows = (dialect: string, columns: number) =>
  dialect === 'postgres' ? 5000 : Math.max(1, Math.min(500, Math.floor(30_000 / columns)));

interface Plan {
  manifest: BackupManifest;
  /** The tables restored, in foreign-key order (the audit trail's left out when not imported). */
  tables: {
    table: ManifestTable;
    columns: string[];
    upgrade: ((row: Record<string, unknown>) => Record<string, unknown>) | null;
  }[];
  /** Rows of those tables in the file. */
  rows: number;
}

/**
 * Checks the manifest against this database: known tables, a schema it can bring up to date,
 * columns that exist. `importAuditTrail` false leaves the backup's audit entries and versions out.
 */
async function plan(ctx: ServiceContext, manifest: BackupManifest, importAuditTrail: boolean): Promise<Plan> {
  let upgrades;
  try {
    upgrades = upgradesFrom(manifest.schemaVersion);
  } catch (error) {
    if (error instanceof SchemaVersionError) throw carried(error, conflict(error.message));
    throw error;
  }
  // Tables a later migration retired are not restored as such: their rows are folded into the
  // tables that replaced them once the rest is in (backup-retired.server.ts).
  const retired = (name: string) => Object.hasOwn(RETIRED_TABLES, name);
  const unknown = manifest.tables.filter((t) => !backupTableInfo(t.name) && !retired(t.name));
  if (unknown.length)
    throw conflict(msg('The backup holds tables this version does not know: {tables}'), {
      tables: unknown.map((t) => t.name).join(', '),
    });
  const order = BACKUP_TABLES.map((t) => t.name as string);
  const tables = manifest.tables
    .filter((t) => !retired(t.name) && (importAuditTrail || !isAppendOnly(t.name)))
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  const current = await tableColumns(
    ctx,
    tables.map((t) => t.name),
  );
  return {
    manifest,
    rows: tables.reduce((sum, t) => sum + t.rows, 0),
    tables: tables.map((table) => {
      const steps = upgrades.get(table.name) ?? [];
      const upgrade = steps.length ? (row: Record<string, unknown>) => steps.reduce((r, step) => step(r), row) : null;
      const produced = Object.keys((upgrade ?? ((r) => r))(Object.fromEntries(table.columns.map((c) => [c, null]))));
      const have = new Set(current.get(table.name));
      const extra = produced.filter((c) => !have.has(c));
      if (extra.length)
        throw conflict(
          msg('Column {columns} of {table} is not in this database (schema {version})'),
          { columns: extra.join(', '), table: label(table.name), version: manifest.schemaVersion },
          ['table'],
        );
      return { table, columns: produced, upgrade };
    }),
  };
}

const INTEGRITY_FAILED = msg('Backup integrity check failed: {reason}');

/** The file to restore: a backup's file after its integrity check, or a file given to the CLI. */
async function sourceFile(
  ctx: ServiceContext,
  settings: BackupSettings,
  source: RestoreSource,
): Promise<{ file: string; backup: Backup | null }> {
  if ('file' in source) return { file: source.file, backup: null };
  const row = await ctx.db.selectFrom('backups').selectAll().where('id', '=', source.backupId).executeTakeFirst();
  if (!row) throw notFound();
  const check = await checkBackup(row, settings);
  if (!check.valid) {
    const reason = check.reason ?? '';
    throw marked(conflict(INTEGRITY_FAILED, { reason }), (reader) =>
      reader.t(INTEGRITY_FAILED, { reason: readerWords(check, reason, reader) }),
    );
  }
  return { file: check.file!, backup: row };
}

export async function restoreBackup(
  ctx: ServiceContext,
  settings: BackupSettings,
  source: RestoreSource,
  options: RestoreOptions = {},
  onProgress?: RestoreProgress,
): Promise<RestoreResult> {
  // mayRestore: installation-wide, and the backups permission to write.
  requirePermission(ctx, 'installation');
  const user = requirePermission(ctx, 'backups', 'edit');
  const overwrite = options.overwrite === true;
  const importAuditTrail = options.skipAuditLogs !== true;
  const { file, backup } = await sourceFile(ctx, settings, source);
  let manifest: BackupManifest;
  try {
    manifest = await readManifest(file);
  } catch (error) {
    if (error instanceof BackupFileError) throw carried(error, conflict(error.message));
    throw error;
  }
  if (
    user &&
    !mayRestoreTables(
      user,
      manifest.tables.map((t) => t.name),
    )
  )
    throw forbidden(RIGHTS_RESTORE_REFUSAL);
  const steps = await plan(ctx, manifest, importAuditTrail);

  let safetyBackupId: number | null = null;
  // Only data tables are replaced: the audit trail is never removed from, so it needs no copy.
  const replaced = steps.tables
    .map((t) => backupTableInfo(t.table.name)!)
    .filter((t) => t.group === 'data' && !t.follows)
    .map((t) => t.name);
  if (overwrite && replaced.length) {
    const safety = await createBackupNow(
      ctx,
      settings,
      {
        name: `Safety backup before restoring ${backup ? `"${backup.name}"` : 'a backup file'}`,
        description: `Taken automatically before an overwriting restore${backup ? ` of backup #${backup.id}` : ''}`,
        tables: replaced,
      },
      'automated',
    );
    safetyBackupId = safety.id;
  }

  const dialect = dialectOf(ctx.db);
  const restorer = actorUserId(ctx.actor);
  try {
    const { result: tables, folded } = await withRestoreConnection(ctx.db, (db, copyClient) =>
      db.transaction().execute(async (trx) => {
        const t = { ...ctx, db: trx };
        const counted = steps.tables.map((s) => snakeCase(s.table.name)).filter((n) => COUNTED_TABLES.includes(n));
        // PostgreSQL: the row-count triggers would fire once per row; counts are recomputed below.
        if (dialect === 'postgres')
          for (const name of counted) await sql.raw(`alter table ${quote(name)} disable trigger user`).execute(trx);
        const filled = await tablesWithRows(trx, steps);
        const restoresUsers = steps.tables.some((s) => s.table.name === 'users');
        const secondFactors = restoresUsers ? await noteSecondFactors(trx) : null;
        const { deleted, users: removedUsers } = overwrite
          ? await removeRowsNotInBackup(trx, file, steps, filled, restorer)
          : { deleted: new Map<string, number>(), users: [] };
        const bulk = steps.tables.filter((s) => s.table.rows >= BULK_ROWS).map((s) => s.table.name);
        const restoreBulkTables = await relaxForBulkLoad(trx, bulk);
        const versionsAdded = filled.has('dataVersions') ? await rememberActiveVersions(trx) : null;
        const copied = new Set<string>();
        const written = await writeRows(trx, file, steps, overwrite, filled, copyClient, copied, onProgress);
        await versionsAdded?.();
        await restoreBulkTables();
        if (dialect === 'postgres') {
          for (const name of counted) {
            await sql.raw(`alter table ${quote(name)} enable trigger user`).execute(trx);
            await recountRows(trx, name);
          }
          for (const s of steps.tables) {
            const name = snakeCase(s.table.name);
            await sql
              .raw(
                `select setval(pg_get_serial_sequence('${name}', 'id'), coalesce((select max(id) from ${quote(name)}), 0) + 1, false)`,
              )
              .execute(trx);
          }
        }
        // After the sequences: a fold adds rows with new ids.
        const folded = await foldRetiredTables(trx, file, manifest);
        const secondFactorsRemoved = secondFactors ? await secondFactors() : [];
        // Every user has a settings row: users of a backup made before that rule may come without.
        const defaultSettingsAdded = restoresUsers ? await createMissingUserSettings(trx) : 0;
        if (restoresUsers && overwrite) {
          await trx
            .updateTable('userSessions')
            .set({ isActive: false, logoutAt: new Date().toISOString(), endReason: 'restored' })
            .where('isActive', '=', true)
            .$if(!!ctx.meta.sessionId, (q) => q.where('sessionId', '!=', ctx.meta.sessionId!))
            .execute();
        }
        const result: RestoredTable[] = steps.tables.map((s) => ({
          table: s.table.name,
          rows: s.table.rows,
          written: written.get(s.table.name) ?? 0,
          deleted: deleted.get(s.table.name) ?? 0,
          via: copied.has(s.table.name) ? 'copy' : 'insert',
        }));
        // Always, whoever restores: the restore is part of the evidence.
        await recordAudit(t, {
          tableName: 'backups',
          recordId: backup?.id ?? null,
          action: 'restore',
          newData: {
            backup: backup?.name ?? null,
            overwrite,
            importedAuditTrail: importAuditTrail,
            safetyBackupId,
            schemaVersion: manifest.schemaVersion,
            rows: steps.rows,
            tables: result.map(({ table, rows, written, deleted }) => ({ table, rows, written, deleted })),
            ...(removedUsers.length ? { removedUsers } : {}),
            ...(secondFactorsRemoved.length ? { secondFactorsRemoved } : {}),
            ...(folded.length ? { folded } : {}),
            ...(defaultSettingsAdded ? { defaultSettingsAdded } : {}),
          },
          reason: backup ? `Restored backup #${backup.id}` : 'Restored a backup file',
        });
        return { result, folded };
      }),
    );
    await backupRestored(ctx, {
      backupId: backup?.id ?? null,
      backupName: backup?.name ?? null,
      overwrite,
      rows: steps.rows,
      tables: tables.length,
    });
    return { backupId: backup?.id ?? null, overwrite, tables, rows: steps.rows, safetyBackupId, folded };
  } catch (error) {
    if (error instanceof RestoreFailure || error instanceof BackupFileError)
      throw carried(error, conflict(error.message));
    throw error;
  }
}

/**
 * Second factors are not in backups (backup-tables.server.ts): each account keeps its own through
 * a restore. Noted before the users are written, checked after: an account that now holds another
 * e-mail address under the same id is another person (a backup of another installation), so the
 * second factor that was set up here is removed, and the restore's audit entry names whose.
 */
async function noteSecondFactors(trx: Db): Promise<() => Promise<{ id: number; username: string }[]>> {
  const before = await trx
    .selectFrom('userTwoFactor as tf')
    .innerJoin('users as u', 'u.id', 'tf.userId')
    .select(['tf.userId', 'u.email'])
    .execute();
  return async () => {
    if (!before.length) return [];
    const now = await trx
      .selectFrom('users')
      .select(['id', 'email', 'username'])
      .where(
        'id',
        'in',
        before.map((b) => b.userId),
      )
      .execute();
    const emailOf = new Map(before.map((b) => [b.userId, b.email]));
    const other = now.filter((u) => emailOf.get(u.id) !== u.email);
    if (other.length)
      await trx
        .deleteFrom('userTwoFactor')
        .where(
          'userId',
          'in',
          other.map((u) => u.id),
        )
        .execute();
    return other.map((u) => ({ id: u.id, username: u.username }));
  };
}

/** Overwrite, step 1: the ids each table keeps (the backup's), then everything else goes, children first. */
/** The restored tables that hold rows now (the others need no removals and no conflict checks). */
async function tablesWithRows(trx: Db, steps: Plan): Promise<Set<string>> {
  const filled = new Set<string>();
  for (const step of steps.tables) {
    const { rows } = await sql
      .raw<{ one: number }>(`select 1 as one from ${quote(snakeCase(step.table.name))} limit 1`)
      .execute(trx);
    if (rows.length) filled.add(step.table.name);
  }
  return filled;
}

/** What an overwrite removed: rows per table, and the accounts by name (their audit entries keep the name only). */
interface Removed {
  deleted: Map<string, number>;
  users: { id: number; username: string }[];
}

async function removeRowsNotInBackup(
  trx: Db,
  file: string,
  steps: Plan,
  filled: Set<string>,
  restorer: number | null,
): Promise<Removed> {
  const postgres = dialectOf(trx) === 'postgres';
  const deleted = new Map<string, number>();
  const users: Removed['users'] = [];
  // An empty table has nothing to remove: its ids need not be collected (a restore into a new
  // database skips this step entirely).
  if (filled.size === 0) return { deleted, users };
  await sql
    .raw(
      postgres
        ? 'create temp table restore_keep (table_name text not null, id bigint not null, primary key (table_name, id)) on commit drop'
        : 'create temp table restore_keep (table_name text not null, id integer not null, primary key (table_name, id)) without rowid',
    )
    .execute(trx);
  for await (const event of readBackupFile(file, postgres ? 10_000 : 500)) {
    if (event.kind !== 'rows' || !filled.has(event.table.name) || isAppendOnly(event.table.name)) continue;
    const idIndex = event.table.columns.indexOf('id');
    const ids = event.rows.map((r) => r[idIndex]);
    if (postgres) {
      await trx.executeQuery(
        CompiledQuery.raw(
          'insert into restore_keep (table_name, id) select $1, unnest($2::bigint[]) on conflict do nothing',
          [event.table.name, ids],
        ),
      );
    } else {
      await trx.executeQuery(
        CompiledQuery.raw(
          `insert or ignore into restore_keep (table_name, id) values ${ids.map(() => '(?, ?)').join(', ')}`,
          ids.flatMap((id) => [event.table.name, id]),
        ),
      );
    }
  }
  for (const step of [...steps.tables].reverse()) {
    if (!filled.has(step.table.name) || isAppendOnly(step.table.name)) continue;
    const name = snakeCase(step.table.name);
    const spare =
      step.table.name === 'users' && restorer !== null ? ` and ${quote(name)}.id <> ${Number(restorer)}` : '';
    const notKept = `not exists (select 1 from restore_keep k where k.table_name = '${step.table.name}' and k.id = ${quote(name)}.id)${spare}`;
    // Deleting an account unlinks its audit entries and versions (they keep the name they were
    // made under): the restore's own entry names whom it removed.
    if (step.table.name === 'users') {
      const { rows } = await trx.executeQuery<{ id: number; username: string }>(
        CompiledQuery.raw(`select id, username from ${quote(name)} where ${notKept} order by id`, []),
      );
      users.push(...rows.map((r) => ({ id: Number(r.id), username: r.username })));
    }
    try {
      const result = await inSavepoint(trx, () =>
        trx.executeQuery(CompiledQuery.raw(`delete from ${quote(name)} where ${notKept}`, [])),
      );
      deleted.set(step.table.name, Number(result.numAffectedRows ?? 0));
    } catch (error) {
      if (constraintViolation(error) === 'foreignKey') {
        throw worded(
          (english) => new RestoreFailure(english),
          msg(
            '{table} cannot be replaced: rows of a table that is not being restored still refer to rows the backup does not hold. Restore those tables too, or restore without overwrite.',
          ),
          { table: label(step.table.name) },
          ['table'],
        );
      }
      throw error;
    }
  }
  await sql.raw(postgres ? 'drop table restore_keep' : 'drop table temp.restore_keep').execute(trx);
  return { deleted, users };
}

/**
 * A record has exactly one active version. Versions a restore adds to a table that already held
 * some may belong to records that have their active version here already (a backup of another
 * installation): before the load the active versions are noted; the returned step, run after
 * it, leaves those active and switches the added ones off. Versions already here are never
 * touched.
 */
async function rememberActiveVersions(trx: Db): Promise<() => Promise<void>> {
  const postgres = dialectOf(trx) === 'postgres';
  await sql
    .raw(
      postgres
        ? 'create temp table restore_active_versions (id bigint primary key, table_name text not null, record_id bigint not null) on commit drop'
        : 'create temp table restore_active_versions (id integer primary key, table_name text not null, record_id integer not null)',
    )
    .execute(trx);
  await sql
    .raw('create index temp_restore_active_versions_record on restore_active_versions (table_name, record_id)')
    .execute(trx);
  await sql
    .raw(
      'insert into restore_active_versions (id, table_name, record_id) select id, table_name, record_id from data_versions where is_active',
    )
    .execute(trx);
  return async () => {
    await sql
      .raw(
        `update data_versions set is_active = ${postgres ? 'false' : '0'} where is_active and exists (select 1 from restore_active_versions a where a.table_name = data_versions.table_name and a.record_id = data_versions.record_id) and not exists (select 1 from restore_active_versions a where a.id = data_versions.id)`,
      )
      .execute(trx);
    await sql
      .raw(postgres ? 'drop table restore_active_versions' : 'drop table temp.restore_active_versions')
      .execute(trx);
  };
}

/** From this many rows a table is bulk-loaded: indexes built once after, not row by row. */
const BULK_ROWS = 10_000;

/**
 * Prepares tables that receive many rows as pg_restore does: their non-unique indexes (and on
 * SQLite their triggers; on PostgreSQL their foreign keys) go for the load and come back once
 * at the end, each built or checked in one pass instead of once per row. All of it inside the
 * restore's transaction, so a failure or a kill brings the schema back with the data. Returns
 * what puts them back (and recounts row_counts where SQLite triggers were off).
 */
async function relaxForBulkLoad(trx: Db, tables: string[]): Promise<() => Promise<void>> {
  if (tables.length === 0) return async () => {};
  const postgres = dialectOf(trx) === 'postgres';
  const restore: string[] = [];
  const foreignKeys: { table: string; name: string; def: string }[] = [];
  const recount: string[] = [];
  const rebuild: string[] = [];
  for (const table of tables) {
    const name = snakeCase(table);
    if (postgres) {
      const { rows: indexes } = await sql<{ name: string; def: string }>`
        select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
        where x.indrelid = ${name}::regclass and not x.indisunique and not x.indisprimary`.execute(trx);
      for (const index of indexes) {
        await sql.raw(`drop index ${quote(index.name)}`).execute(trx);
        restore.push(index.def);
      }
      const { rows: keys } = await sql<{ name: string; def: string }>`
        select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where contype = 'f' and conrelid = ${name}::regclass`.execute(
        trx,
      );
      for (const key of keys) {
        await sql.raw(`alter table ${quote(name)} drop constraint ${quote(key.name)}`).execute(trx);
        foreignKeys.push({ table, name: key.name, def: key.def });
      }
    } else {
      const { rows } = await sql<{ type: string; name: string; sql: string }>`
        select type, name, sql from sqlite_master where tbl_name = ${name} and sql is not null
        and (type = 'trigger' or (type = 'index' and sql not like 'CREATE UNIQUE%'))`.execute(trx);
      for (const row of rows) {
        await sql.raw(`drop ${row.type} ${quote(row.name)}`).execute(trx);
        restore.push(row.sql);
        if (
          row.type === 'trigger' &&
          (COUNTED_TABLES.includes(name) || name === 'audit_logs') &&
          !recount.includes(name)
        )
          recount.push(name);
        if (row.type === 'trigger' && SEARCH_INDEXES[name] && !rebuild.includes(name)) rebuild.push(name);
      }
    }
  }
  return async () => {
    for (const statement of restore) await sql.raw(statement).execute(trx);
    for (const name of recount) await recountRows(trx, name);
    // SQLite: the search indexes' triggers were off with the others.
    for (const name of rebuild) await rebuildSearchIndex(trx, 'sqlite', name);
    for (const key of foreignKeys) {
      try {
        await inSavepoint(trx, () =>
          sql
            .raw(`alter table ${quote(snakeCase(key.table))} add constraint ${quote(key.name)} ${key.def}`)
            .execute(trx),
        );
      } catch (error) {
        if (constraintViolation(error) !== 'foreignKey') throw error;
        throw new RestoreFailure(await danglingRow(trx, key.table, error));
      }
    }
  };
}

/** The row a foreign key check refused (PostgreSQL names the key and value), in words. */
async function danglingRow(trx: Db, table: string, error: unknown): Promise<string> {
  const match = /Key \((\w+)\)=\(([^)]*)\)/.exec(String((error as { detail?: string }).detail ?? ''));
  if (match) {
    const { rows } = await sql
      .raw<{ id: number }>(
        `select id from ${quote(snakeCase(table))} where ${quote(match[1])}::text = '${match[2].replaceAll("'", "''")}' order by id limit 1`,
      )
      .execute(trx);
    if (rows[0])
      return `${label(table)} row ${rows[0].id} could not be restored: it refers to a row that is neither in the backup nor in the database`;
  }
  return `${label(table)} could not be restored: a row refers to a row that is neither in the backup nor in the database`;
}

/**
 * What a counted table's triggers keep, made again after a load with them off (the audit
 * trail's: its entries per company, db/audit-counts.ts): its row_counts
 * and month totals or plans (db/aggregates.ts) from the table itself and, on PostgreSQL, a new
 * change token (migration 0014: the rows changed), its day counts (migration 0017) and its
 * search table (migration 0015).
 */
async function recountRows(trx: Db, name: string): Promise<void> {
  if (name === 'audit_logs') return recountAuditEntries(trx);
  await sql.raw(`delete from row_counts where table_name = '${name}'`).execute(trx);
  await sql
    .raw(
      `insert into row_counts (table_name, company_id, row_count) select '${name}', company_id, count(*) from ${quote(name)} group by company_id`,
    )
    .execute(trx);
  await rebuildAggregates(trx, [name]);
  if (dialectOf(trx) === 'postgres') {
    await sql`update change_tokens set token = gen_random_uuid() where table_name = ${name}`.execute(trx);
    for (const statement of dayRecountStatements(name)) await sql.raw(statement).execute(trx);
    await rebuildSearchIndex(trx, 'postgres', name);
  }
}

/** Step 2: the backup's rows, parents first; self-references are filled in once the table is in. */
async function writeRows(
  trx: Db,
  file: string,
  steps: Plan,
  overwrite: boolean,
  filled: Set<string>,
  copyClient: pg.PoolClient | null,
  copied: Set<string>,
  onProgress?: RestoreProgress,
): Promise<Map<string, number>> {
  const dialect = dialectOf(trx);
  const written = new Map<string, number>();
  const byName = new Map(steps.tables.map((s) => [s.table.name, s]));
  let done = 0;
  let current: {
    name: string;
    writer: TableWriter;
    size: number;
    pending: Record<string, unknown>[];
    selfRefs: string[];
    later: { id: unknown; column: string; value: unknown }[];
    /** Without overwrite: rows that were already there keep their own references. */
    kept: Set<unknown>;
    /** PostgreSQL, a big table that was empty: its rows stream in by COPY. */
    copy?: CopyLoad;
  } | null = null;

  // One batch is written while the next is read and parsed: the database and this process
  // work at the same time. Statements still run one after another on the one connection.
  let inflight: Promise<void> | null = null;
  const settle = async () => {
    const pending = inflight;
    inflight = null;
    await pending;
  };
  const flush = async () => {
    if (!current || current.pending.length === 0) return;
    const table = current;
    const rows = table.pending;
    table.pending = [];
    if (table.copy) {
      await table.copy.write(rows);
      written.set(table.name, (written.get(table.name) ?? 0) + rows.length);
      return;
    }
    await settle();
    const write = async () => {
      if (!overwrite && table.selfRefs.length) {
        const existing = await (trx as Db)
          .selectFrom(table.name as 'users')
          .select('id')
          .where(
            'id',
            'in',
            rows.map((r) => r.id as number),
          )
          .execute();
        for (const r of existing) table.kept.add(r.id);
      }
      written.set(table.name, (written.get(table.name) ?? 0) + (await writeBatch(trx, table.writer, table.name, rows)));
    };
    inflight = write();
    // Awaited by the next flush or at the table's end; marked handled so a failure waits there.
    inflight.catch(() => {});
  };
  const finishTable = async () => {
    if (!current) return;
    await flush();
    await settle();
    if (current.copy) {
      const copy = current.copy;
      current.copy = undefined;
      await copy.finish();
    }
    // Self-references (a user created by a user) point at rows that are all in now.
    for (const ref of current.later) {
      if (current.kept.has(ref.id)) continue;
      try {
        await inSavepoint(trx, () =>
          trx.executeQuery(
            CompiledQuery.raw(
              `update ${quote(snakeCase(current!.name))} set ${quote(snakeCase(ref.column))} = ${dialect === 'postgres' ? '$1' : '?'} where id = ${dialect === 'postgres' ? '$2' : '?'}`,
              [ref.value, ref.id],
            ),
          ),
        );
      } catch (error) {
        throw rowFailure(label(current.name), ref.id, rowProblem(error));
      }
    }
    current = null;
  };

  try {
    await readRows();
  } catch (error) {
    // A COPY still open holds the connection: end it first, or the rollback would wait forever.
    await (current as { copy?: CopyLoad } | null)?.copy?.abort();
    await (inflight as Promise<void> | null)?.catch(() => {});
    throw error;
  }
  return written;

  async function readRows() {
    for await (const event of readBackupFile(file, 1000)) {
      if (event.kind === 'table') {
        await finishTable();
        const step = byName.get(event.table.name);
        // A table of the file left out of the restore (the audit trail with skipAuditLogs).
        if (!step) continue;
        const writer =
          dialect === 'postgres'
            ? pgWriter(trx, event.table.name, step.columns, overwrite, filled.has(event.table.name))
            : sqliteWriter(trx, event.table.name, step.columns, overwrite, filled.has(event.table.name));
        // A big table that was empty: nothing to conflict with, so PostgreSQL's bulk COPY.
        const copy =
          copyClient && !filled.has(event.table.name) && event.table.rows >= BULK_ROWS
            ? await startCopy(trx, copyClient, file, event.table.name, step.columns)
            : undefined;
        if (copy) copied.add(event.table.name);
        current = {
          name: event.table.name,
          writer,
          size: batchRows(dialect, step.columns.length),
          pending: [],
          selfRefs: backupTableInfo(event.table.name)?.selfReferences ?? [],
          later: [],
          kept: new Set(),
          copy,
        };
        written.set(event.table.name, 0);
      } else if (event.kind === 'rows' && current) {
        const step = byName.get(event.table.name)!;
        const columns = event.table.columns;
        for (const values of event.rows) {
          let row: Record<string, unknown> = {};
          for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
          if (step.upgrade) row = step.upgrade(row);
          for (const column of current.selfRefs) {
            if (row[column] !== null && row[column] !== undefined) {
              current.later.push({ id: row.id, column, value: row[column] });
              row[column] = null;
            }
          }
          current.pending.push(row);
          if (current.pending.length >= current.size) await flush();
        }
        done += event.rows.length;
        onProgress?.(done, steps.rows, event.table.name);
      }
    }
    await finishTable();
  }
}

interface CopyLoad {
  write(rows: Record<string, unknown>[]): Promise<void>;
  /** Ends the COPY; a refused row is named (found again in the file by its line). */
  finish(): Promise<void>;
  /** Cancels a COPY in progress (CopyFail) and undoes what it wrote. */
  abort(): Promise<void>;
}

/** A value in COPY's text format: \N for null, backslash escapes for the separators. */
function copyText(value: unknown, json: boolean): string {
  if (value === null || value === undefined) return '\\N';
  const text = json ? JSON.stringify(value) : typeof value === 'boolean' ? (value ? 't' : 'f') : String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : text;
}

async function startCopy(
  trx: Db,
  client: pg.PoolClient,
  file: string,
  table: string,
  columns: string[],
): Promise<CopyLoad> {
  await sql.raw('savepoint restore_copy').execute(trx);
  const stream = client.query(
    copyFrom(`copy ${quote(snakeCase(table))} (${columns.map((c) => quote(snakeCase(c))).join(', ')}) from stdin`),
  );
  let failure: Error | null = null;
  const failed = new Promise<never>((_, reject) => stream.once('error', (error: Error) => reject((failure = error))));
  failed.catch(() => {});
  const json = columns.map((c) => JSON_COLUMNS.has(c));
  let open = true;
  const undo = async () => {
    open = false;
    await sql.raw('rollback to savepoint restore_copy').execute(trx);
  };
  /** PostgreSQL refused a row: undo the COPY and name the row (its line in the COPY). */
  const refused = async (error: unknown): Promise<RestoreFailure> => {
    await Promise.race([finished(stream), failed]).catch(() => {});
    await undo();
    const line = Number(/line (\d+)/.exec(String((error as { where?: string }).where ?? ''))?.[1]);
    const id = Number.isInteger(line) ? await nthRowId(file, table, line) : undefined;
    return rowFailure(label(table), id, rowProblem(error));
  };
  return {
    async write(rows) {
      if (failure) throw await refused(failure);
      let text = '';
      for (const row of rows) {
        for (let i = 0; i < columns.length; i++) text += (i ? '\t' : '') + copyText(row[columns[i]], json[i]);
        text += '\n';
      }
      try {
        if (!stream.write(text)) await Promise.race([once(stream, 'drain'), failed]);
      } catch (error) {
        throw await refused(error);
      }
    },
    async finish() {
      stream.end();
      try {
        await Promise.race([finished(stream), failed]);
      } catch (error) {
        throw await refused(error);
      }
      open = false;
      await sql.raw('release savepoint restore_copy').execute(trx);
    },
    async abort() {
      if (!open) return;
      stream.destroy(new Error('restore stopped'));
      await Promise.race([finished(stream), failed]).catch(() => {});
      await undo().catch(() => {});
    },
  };
}

/** The id of the n-th row (from 1) of a table in a backup file. */
async function nthRowId(file: string, table: string, n: number): Promise<unknown> {
  let seen = 0;
  for await (const event of readBackupFile(file, 1000)) {
    if (event.kind !== 'rows' || event.table.name !== table) continue;
    if (seen + event.rows.length >= n) return event.rows[n - seen - 1][event.table.columns.indexOf('id')];
    seen += event.rows.length;
  }
  return undefined;
}

/**
 * PostgreSQL: the restore's transaction runs on one connection of its own, held for the whole
 * restore, so a COPY can stream into the same transaction as the statements around it.
 */
async function withRestoreConnection<T>(
  db: Db,
  fn: (db: Db, copyClient: pg.PoolClient | null) => Promise<T>,
): Promise<T> {
  const pool = dialectOf(db) === 'postgres' ? pgPoolOf(db) : undefined;
  if (!pool) return fn(db, null);
  const client = await pool.connect();
  // Kysely releases its connection after the transaction: this one is released here instead.
  const held = new Proxy(client, {
    get(target, property) {
      if (property === 'release') return () => {};
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const single = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: singleConnectionPool(held) }),
    plugins: [new CamelCasePlugin()],
  });
  let broken = false;
  try {
    return await fn(single, client);
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // After a failure the connection may be mid-protocol: it is closed rather than reused.
    client.release(broken);
  }
}

/** The Backup & Recovery screen's restore form (intent restore): its two options, unticked when not posted. */
export const RestoreForm = z.object({
  overwrite: z.boolean().optional().default(false),
  skipAuditLogs: z.boolean().optional().default(false),
});
