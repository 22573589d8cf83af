// CSV imports (docs/imports.md): one row per uploaded file, its checks and its run. The file
// itself is kept under DATA_DIR/imports while the import is open (file_path); its SHA-256 is how
// the same file imported twice into the same table is recognised. The outcome column holds what
// the screens show (the matched columns, the first errors and the preview rows) as JSON.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', 'integer', d.id)
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_label', 'varchar(100)', (c) => c.notNull())
    .addColumn('resource', 'varchar(100)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_size', d.bigint, (c) => c.notNull())
    .addColumn('file_path', 'text')
    .addColumn('update_by_id', d.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('chosen_columns', 'text')
    .addColumn('phase', 'varchar(20)', (c) => c.notNull())
    .addColumn('mode', 'varchar(20)')
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('run_here', d.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('rows_read', d.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('rows_total', d.bigint)
    .addColumn('rows_valid', d.bigint)
    .addColumn('rows_invalid', d.bigint)
    .addColumn('rows_created', d.bigint)
    .addColumn('rows_updated', d.bigint)
    .addColumn('rows_unchanged', d.bigint)
    .addColumn('outcome', 'text')
    .addColumn('error', 'text')
    .addColumn('refused_path', 'text')
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('started_at', d.instant)
    .addColumn('finished_at', d.instant)
    .addColumn('imported_at', d.instant)
    .execute();
  await db.schema.createIndex('imports_user').on('imports').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('imports_file').on('imports').columns(['resource', 'file_hash']).execute();
}
