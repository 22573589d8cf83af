// Integration syncs file rows under the right company and say when they skipped records:
// - an endpoint may name the company it files into (company_id, empty: each record names its
//   own), within which its lookups by name resolve;
// - a sync log's status may be 'partial': the run ended but skipped records (their reasons are
//   in its sync_data).
// SQLite cannot change a column's CHECK, so the sync log table is built again with the new one
// (nothing references it); PostgreSQL replaces the constraint.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export const SYNC_STATUSES = ['running', 'success', 'partial', 'failed'];

const statusCheck = sql.raw(`status in (${SYNC_STATUSES.map((s) => `'${s}'`).join(', ')})`);

const LOG_COLUMNS = [
  'id',
  'endpoint_id',
  'status',
  'started_at',
  'completed_at',
  'records_processed',
  'records_created',
  'records_updated',
  'records_skipped',
  'records_failed',
  'requests',
  'sync_duration',
  'response_time',
  'error_message',
  'sync_data',
  'triggered_by',
  'lease_token',
  'lease_expires_at',
].join(', ');

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .alterTable('api_integration_endpoints')
    .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
    .execute();

  if (d.dialect === 'postgres') {
    const { rows } = await sql<{ name: string }>`
      select conname as name from pg_constraint
      where conrelid = 'api_integration_sync_logs'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%status%'`.execute(
      db,
    );
    for (const { name } of rows)
      await sql`alter table api_integration_sync_logs drop constraint ${sql.id(name)}`.execute(db);
    await sql`alter table api_integration_sync_logs add constraint api_integration_sync_logs_status_check check (${statusCheck})`.execute(
      db,
    );
    return;
  }

  await db.schema
    .createTable('api_integration_sync_logs_0036')
    .addColumn('id', 'integer', d.id)
    .addColumn('endpoint_id', 'integer', (c) =>
      c.notNull().references('api_integration_endpoints.id').onDelete('cascade'),
    )
    .addColumn('status', 'varchar(20)', (c) => c.notNull().check(statusCheck))
    .addColumn('started_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('completed_at', d.instant)
    .addColumn('records_processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_duration', 'integer')
    .addColumn('response_time', 'integer')
    .addColumn('error_message', 'text')
    .addColumn('sync_data', 'text')
    .addColumn('triggered_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('lease_token', 'varchar(64)')
    .addColumn('lease_expires_at', d.instant)
    .execute();
  await sql
    .raw(
      `insert into api_integration_sync_logs_0036 (${LOG_COLUMNS}) select ${LOG_COLUMNS} from api_integration_sync_logs`,
    )
    .execute(db);
  await db.schema.dropTable('api_integration_sync_logs').execute();
  await sql`alter table api_integration_sync_logs_0036 rename to api_integration_sync_logs`.execute(db);
  await db.schema
    .createIndex('api_integration_sync_logs_endpoint_idx')
    .on('api_integration_sync_logs')
    .columns(['endpoint_id', 'started_at'])
    .execute();
  await db.schema
    .createIndex('api_integration_sync_logs_started_idx')
    .on('api_integration_sync_logs')
    .column('started_at')
    .execute();
}
