// Restoring a backup (spec 3 §2.3, DESIGN §10): all or nothing, in one transaction.
// - Without overwrite: the backup's rows whose ids are missing are added; existing rows stay.
// - With overwrite: a safety backup of the tables is taken first; then each table ends up
//   holding exactly the backup's rows: rows the backup lacks are deleted (children first),
//   rows it holds are inserted or replaced in place (parents first), so rows of tables not
//   restored keep pointing at the same ids.
// Rows of an older schema are brought up to date (backup-upgrades.server.ts). Any failure rolls
// everything back and names the table and row. On PostgreSQL identity sequences are moved past
// the restored ids. The restoring user's own sign-in survives; other sessions end when users
// are replaced.
import { CompiledQuery, sql } from 'kysely';
import { constraintViolation, dialectOf, toJson } from '../../db/dialect.ts';
import { COUNTED_TABLES } from '../../db/migrations/0003_row_counts.ts';
import { JSON_COLUMNS } from '../../db/types.ts';
import { snakeCase } from '../lib/names.ts';
import { recordAudit } from './audit.server.ts';
import { BackupFileError, readBackupFile, readManifest, type BackupManifest, type ManifestTable } from './backup-file.server.ts';
import { backupTableInfo, BACKUP_TABLES } from './backup-tables.server.ts';
import { SchemaVersionError, upgradesFrom } from './backup-upgrades.server.ts';
import { authorizeBackups, checkBackup, createBackupNow, tableColumns, type Backup } from './backups.server.ts';
import type { BackupSettings } from './config.server.ts';
import { actorUserId, type Db, type ServiceContext } from './context.ts';
import { conflict, notFound } from './errors.ts';

export interface RestoreOptions {
  overwrite?: boolean;
  /** No audit entry for the restore. */
  skipAuditLogs?: boolean;
}

export interface RestoredTable {
  table: string;
  /** Rows in the backup. */
  rows: number;
  /** Rows written: added (and, with overwrite, replaced). */
  written: number;
  /** Rows removed because the backup does not hold them (overwrite only). */
  deleted: number;
}

export interface RestoreResult {
  backupId: number | null;
  overwrite: boolean;
  tables: RestoredTable[];
  rows: number;
  safetyBackupId: number | null;
}

export type RestoreSource = { backupId: number } | { file: string };

export type RestoreProgress = (done: number, total: number, table: string) => void;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Why one row cannot be written, in words (never the driver's text or SQL). */
function rowProblem(error: unknown): string {
  const kind = constraintViolation(error);
  const message = String((error as Error)?.message ?? '');
  const detail = String((error as { detail?: string })?.detail ?? '');
  if (kind === 'unique') {
    const columns = /Key \(([^)]+)\)/.exec(detail)?.[1] ?? /UNIQUE constraint failed: (.+)$/.exec(message)?.[1]?.split(', ').map((c) => c.split('.').pop()).join(', ');
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

/** Writes rows of one table in batches, each in a savepoint so a failing row can be named. */
interface TableWriter {
  write(rows: Record<string, unknown>[]): Promise<number>;
}

function pgWriter(trx: Db, table: string, columns: string[], types: Map<string, string>, overwrite: boolean): TableWriter {
  const names = columns.map(snakeCase);
  const conflictClause = overwrite
    ? `on conflict ("id") do update set ${names.filter((n) => n !== 'id').map((n) => `${quote(n)} = excluded.${quote(n)}`).join(', ')}`
    : 'on conflict ("id") do nothing';
  // One array parameter per column (text), cast back to each column's type: one statement for
  // thousands of rows, parsed once (much faster than multi-row VALUES).
  const text =
    `insert into ${quote(snakeCase(table))} (${names.map(quote).join(', ')}) ` +
    `select ${names.map((n, i) => `u.c${i}::${types.get(n)}`).join(', ')} from unnest(${names.map((_, i) => `$${i + 1}::text[]`).join(', ')}) as u(${names.map((_, i) => `c${i}`).join(', ')}) ` +
    conflictClause;
  const json = columns.map((c) => JSON_COLUMNS.has(c));
  return {
    async write(rows) {
      const params = columns.map((c, i) =>
        rows.map((row) => {
          const v = row[c];
          if (v === null || v === undefined) return null;
          if (json[i]) return JSON.stringify(v);
          return typeof v === 'string' ? v : String(v);
        }),
      );
      const result = await trx.executeQuery(CompiledQuery.raw(text, params));
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

function sqliteWriter(trx: Db, table: string, columns: string[], overwrite: boolean): TableWriter {
  const names = columns.map(snakeCase);
  const conflictClause = overwrite
    ? `on conflict ("id") do update set ${names.filter((n) => n !== 'id').map((n) => `${quote(n)} = excluded.${quote(n)}`).join(', ')}`
    : 'on conflict ("id") do nothing';
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
          params.push(v === undefined || v === null ? null : json[i] ? JSON.stringify(v) : typeof v === 'boolean' ? (v ? 1 : 0) : v);
        }
      }
      const result = await trx.executeQuery(CompiledQuery.raw(text, params));
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

/** Column types as PostgreSQL writes them (`integer`, `timestamp with time zone`, …). */
async function pgColumnTypes(trx: Db, table: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; type: string }>`
    select a.attname as name, format_type(a.atttypid, a.atttypmod) as type from pg_attribute a
    where a.attrelid = ${snakeCase(table)}::regclass and a.attnum > 0 and not a.attisdropped`.execute(trx);
  return new Map(rows.map((r) => [r.name, r.type]));
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
async function writeBatch(trx: Db, writer: TableWriter, table: string, rows: Record<string, unknown>[]): Promise<number> {
  try {
    return await inSavepoint(trx, () => writer.write(rows));
  } catch (error) {
    for (const row of rows) {
      try {
        await inSavepoint(trx, () => writer.write([row]));
      } catch (rowError) {
        throw new RestoreFailure(`${label(table)} row ${String(row.id)} could not be restored: ${rowProblem(rowError)}`);
      }
    }
    throw new RestoreFailure(`${label(table)} could not be restored: ${rowProblem(error)}`);
  }
}

const label = (table: string) => backupTableInfo(table)?.label ?? table;

/** Rows per statement: SQLite allows 32,766 parameters; PostgreSQL gets one array per column. */
const batchRows = (dialect: string, columns: number) => (dialect === 'postgres' ? 5000 : Math.max(1, Math.min(500, Math.floor(30_000 / columns))));

interface Plan {
  manifest: BackupManifest;
  tables: { table: ManifestTable; columns: string[]; upgrade: ((row: Record<string, unknown>) => Record<string, unknown>) | null }[];
}

/** Checks the manifest against this database: known tables, a schema it can bring up to date, columns that exist. */
async function plan(ctx: ServiceContext, manifest: BackupManifest): Promise<Plan> {
  let upgrades;
  try {
    upgrades = upgradesFrom(manifest.schemaVersion);
  } catch (error) {
    if (error instanceof SchemaVersionError) throw conflict(error.message);
    throw error;
  }
  const unknown = manifest.tables.filter((t) => !backupTableInfo(t.name));
  if (unknown.length) throw conflict(`The backup holds tables this version does not know: ${unknown.map((t) => t.name).join(', ')}`);
  const order = BACKUP_TABLES.map((t) => t.name as string);
  const tables = [...manifest.tables].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  const current = await tableColumns(ctx, tables.map((t) => t.name));
  return {
    manifest,
    tables: tables.map((table) => {
      const steps = upgrades.get(table.name) ?? [];
      const upgrade = steps.length ? (row: Record<string, unknown>) => steps.reduce((r, step) => step(r), row) : null;
      const produced = Object.keys((upgrade ?? ((r) => r))(Object.fromEntries(table.columns.map((c) => [c, null]))));
      const have = new Set(current.get(table.name));
      const extra = produced.filter((c) => !have.has(c));
      if (extra.length) throw conflict(`Column ${extra.join(', ')} of ${label(table.name)} is not in this database (schema ${manifest.schemaVersion})`);
      return { table, columns: produced, upgrade };
    }),
  };
}

/** The file to restore: a backup's file after its integrity check, or a file given to the CLI. */
async function sourceFile(ctx: ServiceContext, settings: BackupSettings, source: RestoreSource): Promise<{ file: string; backup: Backup | null }> {
  if ('file' in source) return { file: source.file, backup: null };
  const row = await ctx.db.selectFrom('backups').selectAll().where('id', '=', source.backupId).executeTakeFirst();
  if (!row) throw notFound();
  const check = await checkBackup(row as unknown as Backup & { fileName: string | null }, settings);
  if (!check.valid) throw conflict(`Backup integrity check failed: ${check.reason}`);
  return { file: check.file!, backup: row as unknown as Backup };
}

export async function restoreBackup(
  ctx: ServiceContext,
  settings: BackupSettings,
  source: RestoreSource,
  options: RestoreOptions = {},
  onProgress?: RestoreProgress,
): Promise<RestoreResult> {
  authorizeBackups(ctx, 'edit');
  const overwrite = options.overwrite === true;
  const { file, backup } = await sourceFile(ctx, settings, source);
  let manifest: BackupManifest;
  try {
    manifest = await readManifest(file);
  } catch (error) {
    if (error instanceof BackupFileError) throw conflict(error.message);
    throw error;
  }
  const steps = await plan(ctx, manifest);

  let safetyBackupId: number | null = null;
  if (overwrite) {
    const data = steps.tables.map((t) => backupTableInfo(t.table.name)!).filter((t) => t.group === 'data' && !t.follows).map((t) => t.name);
    const safety = await createBackupNow(ctx, settings, {
      name: `Safety backup before restoring ${backup ? `"${backup.name}"` : 'a backup file'}`,
      description: `Taken automatically before an overwriting restore${backup ? ` of backup #${backup.id}` : ''}`,
      tables: data,
      includeAuditLogs: steps.tables.some((t) => t.table.name === 'auditLogs'),
      includeVersions: steps.tables.some((t) => t.table.name === 'dataVersions'),
    }, 'automated');
    safetyBackupId = safety.id;
  }

  const dialect = dialectOf(ctx.db);
  const restorer = actorUserId(ctx.actor);
  try {
    const tables = await ctx.db.transaction().execute(async (trx) => {
      const t = { ...ctx, db: trx };
      const counted = steps.tables.map((s) => snakeCase(s.table.name)).filter((n) => COUNTED_TABLES.includes(n));
      // PostgreSQL: the row-count triggers would fire once per row; counts are recomputed below.
      if (dialect === 'postgres') for (const name of counted) await sql.raw(`alter table ${quote(name)} disable trigger user`).execute(trx);
      const deleted = overwrite ? await removeRowsNotInBackup(trx, file, steps, restorer) : new Map<string, number>();
      const written = await writeRows(trx, file, steps, overwrite, onProgress);
      if (dialect === 'postgres') {
        for (const name of counted) {
          await sql.raw(`alter table ${quote(name)} enable trigger user`).execute(trx);
          await sql.raw(`delete from row_counts where table_name = '${name}'`).execute(trx);
          await sql.raw(`insert into row_counts (table_name, company_id, row_count) select '${name}', company_id, count(*) from ${quote(name)} group by company_id`).execute(trx);
        }
        for (const s of steps.tables) {
          const name = snakeCase(s.table.name);
          await sql.raw(`select setval(pg_get_serial_sequence('${name}', 'id'), coalesce((select max(id) from ${quote(name)}), 0) + 1, false)`).execute(trx);
        }
      }
      if (steps.tables.some((s) => s.table.name === 'users') && overwrite) {
        await trx
          .updateTable('userSessions')
          .set({ isActive: false, logoutAt: new Date().toISOString(), endReason: 'restored' })
          .where('isActive', '=', true)
          .$if(!!ctx.meta.sessionId, (q) => q.where('sessionId', '!=', ctx.meta.sessionId!))
          .execute();
      }
      const result = steps.tables.map((s) => ({ table: s.table.name, rows: s.table.rows, written: written.get(s.table.name) ?? 0, deleted: deleted.get(s.table.name) ?? 0 }));
      if (!options.skipAuditLogs) {
        await recordAudit(t, {
          tableName: 'backups',
          recordId: backup?.id ?? null,
          action: 'restore',
          newData: { backup: backup?.name ?? null, overwrite, safetyBackupId, schemaVersion: manifest.schemaVersion, rows: manifest.rows, tables: result },
          reason: backup ? `Restored backup #${backup.id}` : 'Restored a backup file',
        });
      }
      return result;
    });
    return { backupId: backup?.id ?? null, overwrite, tables, rows: manifest.rows, safetyBackupId };
  } catch (error) {
    if (error instanceof RestoreFailure || error instanceof BackupFileError) throw conflict(error.message);
    throw error;
  }
}

/** Overwrite, step 1: the ids each table keeps (the backup's), then everything else goes, children first. */
async function removeRowsNotInBackup(trx: Db, file: string, steps: Plan, restorer: number | null): Promise<Map<string, number>> {
  const postgres = dialectOf(trx) === 'postgres';
  await sql.raw(
    postgres
      ? 'create temp table restore_keep (table_name text not null, id bigint not null, primary key (table_name, id)) on commit drop'
      : 'create temp table restore_keep (table_name text not null, id integer not null, primary key (table_name, id)) without rowid',
  ).execute(trx);
  for await (const event of readBackupFile(file, postgres ? 10_000 : 500)) {
    if (event.kind !== 'rows') continue;
    const idIndex = event.table.columns.indexOf('id');
    const ids = event.rows.map((r) => r[idIndex]);
    if (postgres) {
      await trx.executeQuery(CompiledQuery.raw('insert into restore_keep (table_name, id) select $1, unnest($2::bigint[]) on conflict do nothing', [event.table.name, ids]));
    } else {
      await trx.executeQuery(CompiledQuery.raw(`insert or ignore into restore_keep (table_name, id) values ${ids.map(() => '(?, ?)').join(', ')}`, ids.flatMap((id) => [event.table.name, id])));
    }
  }
  const deleted = new Map<string, number>();
  for (const step of [...steps.tables].reverse()) {
    const name = snakeCase(step.table.name);
    const spare = step.table.name === 'users' && restorer !== null ? ` and ${quote(name)}.id <> ${Number(restorer)}` : '';
    try {
      const result = await inSavepoint(trx, () =>
        trx.executeQuery(CompiledQuery.raw(
          `delete from ${quote(name)} where not exists (select 1 from restore_keep k where k.table_name = '${step.table.name}' and k.id = ${quote(name)}.id)${spare}`,
          [],
        )),
      );
      deleted.set(step.table.name, Number(result.numAffectedRows ?? 0));
    } catch (error) {
      if (constraintViolation(error) === 'foreignKey') {
        throw new RestoreFailure(`${label(step.table.name)} cannot be replaced: rows of a table that is not being restored still refer to rows the backup does not hold. Restore those tables too, or restore without overwrite.`);
      }
      throw error;
    }
  }
  await sql.raw(postgres ? 'drop table restore_keep' : 'drop table temp.restore_keep').execute(trx);
  return deleted;
}

/** Step 2: the backup's rows, parents first; self-references are filled in once the table is in. */
async function writeRows(trx: Db, file: string, steps: Plan, overwrite: boolean, onProgress?: RestoreProgress): Promise<Map<string, number>> {
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
  } | null = null;

  const flush = async () => {
    if (!current || current.pending.length === 0) return;
    const rows = current.pending;
    current.pending = [];
    if (!overwrite && current.selfRefs.length) {
      const existing = await (trx as Db).selectFrom(current.name as 'users').select('id').where('id', 'in', rows.map((r) => r.id as number)).execute();
      for (const r of existing) current.kept.add(r.id);
    }
    written.set(current.name, (written.get(current.name) ?? 0) + (await writeBatch(trx, current.writer, current.name, rows)));
  };
  const finishTable = async () => {
    if (!current) return;
    await flush();
    // Self-references (a user created by a user) point at rows that are all in now.
    for (const ref of current.later) {
      if (current.kept.has(ref.id)) continue;
      try {
        await inSavepoint(trx, () =>
          trx.executeQuery(CompiledQuery.raw(`update ${quote(snakeCase(current!.name))} set ${quote(snakeCase(ref.column))} = ${dialect === 'postgres' ? '$1' : '?'} where id = ${dialect === 'postgres' ? '$2' : '?'}`, [ref.value, ref.id])),
        );
      } catch (error) {
        throw new RestoreFailure(`${label(current.name)} row ${String(ref.id)} could not be restored: ${rowProblem(error)}`);
      }
    }
    current = null;
  };

  for await (const event of readBackupFile(file, 1000)) {
    if (event.kind === 'table') {
      await finishTable();
      const step = byName.get(event.table.name)!;
      const writer =
        dialect === 'postgres'
          ? pgWriter(trx, event.table.name, step.columns, await pgColumnTypes(trx, event.table.name), overwrite)
          : sqliteWriter(trx, event.table.name, step.columns, overwrite);
      current = { name: event.table.name, writer, size: batchRows(dialect, step.columns.length), pending: [], selfRefs: backupTableInfo(event.table.name)?.selfReferences ?? [], later: [], kept: new Set() };
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
      onProgress?.(done, steps.manifest.rows, event.table.name);
    }
  }
  await finishTable();
  return written;
}
