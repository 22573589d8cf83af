// Background-job tables: system errors and recovery actions (shown by System Monitoring),
// health snapshots (kept 7 days) and security anomalies (shown by the Audit Trail). The job
// queue itself lives in pg-boss's own schema, not here.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export const ERROR_SEVERITIES = ['low', 'medium', 'high', 'critical'];
export const RECOVERY_STATUSES = ['executing', 'completed', 'failed', 'other'];

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('system_errors')
    .addColumn('id', 'integer', d.id)
    .addColumn('severity', 'varchar(10)', (c) =>
      c.notNull().defaultTo('medium').check(sqlIn('severity', ERROR_SEVERITIES)),
    )
    .addColumn('error_type', 'varchar(100)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    // For a job: 'job:<queue>' and method 'JOB'; for a request: the path and HTTP method.
    .addColumn('endpoint', 'varchar(255)')
    .addColumn('method', 'varchar(10)')
    .addColumn('stack', 'text')
    .addColumn('occurrence_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('affected_users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('details', d.json)
    .addColumn('first_occurrence', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('last_occurrence', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('is_resolved', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addColumn('resolved_at', d.instant)
    .addColumn('resolved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolution', 'text')
    .execute();
  await db.schema
    .createIndex('system_errors_open_idx')
    .on('system_errors')
    .columns(['is_resolved', 'last_occurrence'])
    .execute();
  await db.schema
    .createIndex('system_errors_type_idx')
    .on('system_errors')
    .columns(['error_type', 'is_resolved'])
    .execute();

  await db.schema
    .createTable('recovery_actions')
    .addColumn('id', 'integer', d.id)
    .addColumn('action_type', 'varchar(100)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) =>
      c.notNull().defaultTo('executing').check(sqlIn('status', RECOVERY_STATUSES)),
    )
    .addColumn('description', 'text')
    .addColumn('result', 'text')
    .addColumn('system_error_id', 'integer', (c) => c.references('system_errors.id').onDelete('set null'))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('completed_at', d.instant)
    .execute();
  await db.schema.createIndex('recovery_actions_created_idx').on('recovery_actions').column('created_at').execute();
  await db.schema.createIndex('recovery_actions_status_idx').on('recovery_actions').column('status').execute();

  await db.schema
    .createTable('health_snapshots')
    .addColumn('id', 'integer', d.id)
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('cpu_usage', 'real', (c) => c.notNull())
    .addColumn('load_average', d.json, (c) => c.notNull())
    .addColumn('cpu_count', 'integer', (c) => c.notNull())
    .addColumn('memory_used', d.bigint, (c) => c.notNull())
    .addColumn('memory_total', d.bigint, (c) => c.notNull())
    .addColumn('process_rss', d.bigint, (c) => c.notNull())
    .addColumn('disk_free', d.bigint)
    .addColumn('disk_total', d.bigint)
    .addColumn('database_size', d.bigint)
    .addColumn('database_response_ms', 'real', (c) => c.notNull())
    .addColumn('database_connections', 'integer')
    .execute();
  await db.schema.createIndex('health_snapshots_created_idx').on('health_snapshots').column('created_at').execute();

  await db.schema
    .createTable('security_anomalies')
    .addColumn('id', 'integer', d.id)
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('username', 'varchar(255)', (c) => c.notNull())
    .addColumn('anomaly_type', 'varchar(50)', (c) => c.notNull().defaultTo('multiple_deletes'))
    .addColumn('delete_count', 'integer', (c) => c.notNull())
    .addColumn('window_start', d.instant, (c) => c.notNull())
    .addColumn('window_end', d.instant, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    // One anomaly per user and window, whatever runs overlap.
    .addUniqueConstraint('security_anomalies_user_window_uq', ['username', 'window_start'])
    .execute();
  await db.schema.createIndex('security_anomalies_created_idx').on('security_anomalies').column('created_at').execute();
  await db.schema
    .createIndex('security_anomalies_user_idx')
    .on('security_anomalies')
    .columns(['user_id', 'window_end'])
    .execute();
}

function sqlIn(column: string, values: string[]) {
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}
