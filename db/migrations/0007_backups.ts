// Backups: one row per backup file in BACKUP_DIR, with the file's
// SHA-256, size and row counts, so verify can tell a changed or damaged file. The files
// themselves are never in the database and never served over HTTP.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export const BACKUP_TYPES = ['manual', 'automated', 'scheduled'];
export const BACKUP_STATUSES = ['completed', 'failed', 'in_progress'];

const sqlIn = (column: string, values: string[]) => sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('backups')
    .addColumn('id', 'integer', d.id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('type', 'varchar(20)', (c) => c.notNull().check(sqlIn('type', BACKUP_TYPES)))
    .addColumn('status', 'varchar(20)', (c) =>
      c.notNull().defaultTo('in_progress').check(sqlIn('status', BACKUP_STATUSES)),
    )
    // The tables asked for (camelCase); the file's manifest lists what it holds.
    .addColumn('tables', d.json, (c) => c.notNull())
    .addColumn('include_audit_logs', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addColumn('include_versions', d.boolean, (c) => c.notNull().defaultTo(d.false))
    // File name inside BACKUP_DIR (never a path from a request).
    .addColumn('file_name', 'varchar(255)')
    .addColumn('size', d.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('record_count', d.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('table_counts', d.json)
    .addColumn('sha256', 'varchar(64)')
    .addColumn('schema_version', 'varchar(100)')
    .addColumn('error', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('completed_at', d.instant)
    .execute();
  await db.schema.createIndex('backups_created_idx').on('backups').column('created_at').execute();
  await db.schema
    .createIndex('backups_type_status_idx')
    .on('backups')
    .columns(['type', 'status', 'created_at'])
    .execute();
}
