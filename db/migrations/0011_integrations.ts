// API integrations: external sources with their auth type, the
// endpoints that pull data into a table or push a table's changes out, credentials encrypted
// at rest (AES-256-GCM; the key id beside each value so ENCRYPTION_KEY can be rotated), one log
// per sync run, and the link from a remote record's key to the row it became (so a second run
// updates instead of duplicating).
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export const AUTH_TYPES = ['none', 'bearer', 'api_key', 'basic', 'oauth2'];
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
export const DIRECTIONS = ['inbound', 'outbound'];
export const SYNC_STATUSES = ['running', 'success', 'failed'];

const sqlIn = (column: string, values: string[]) => sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('api_integration_sources')
    .addColumn('id', 'integer', d.id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('base_url', 'varchar(500)', (c) => c.notNull())
    .addColumn('auth_type', 'varchar(50)', (c) => c.notNull().defaultTo('none').check(sqlIn('auth_type', AUTH_TYPES)))
    .addColumn('is_active', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();

  await db.schema
    .createTable('api_integration_endpoints')
    .addColumn('id', 'integer', d.id)
    .addColumn('source_id', 'integer', (c) => c.notNull().references('api_integration_sources.id'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('endpoint', 'varchar(500)', (c) => c.notNull())
    .addColumn('method', 'varchar(10)', (c) => c.notNull().defaultTo('GET').check(sqlIn('method', HTTP_METHODS)))
    .addColumn('direction', 'varchar(10)', (c) =>
      c.notNull().defaultTo('inbound').check(sqlIn('direction', DIRECTIONS)),
    )
    .addColumn('target_table', 'varchar(100)', (c) => c.notNull())
    // Inbound: {records, key, fields, pagination}; outbound: {batchSize, fields}. JSON text.
    .addColumn('mapping_config', 'text')
    .addColumn('sync_frequency', 'varchar(50)', (c) => c.notNull().defaultTo('manual'))
    .addColumn('webhook_config', 'text')
    .addColumn('description', 'text')
    .addColumn('is_active', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('last_sync_at', d.instant)
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();
  await db.schema
    .createIndex('api_integration_endpoints_source_idx')
    .on('api_integration_endpoints')
    .column('source_id')
    .execute();

  await db.schema
    .createTable('api_integration_credentials')
    .addColumn('id', 'integer', d.id)
    .addColumn('source_id', 'integer', (c) => c.notNull().references('api_integration_sources.id').onDelete('cascade'))
    .addColumn('credential_key', 'varchar(100)', (c) => c.notNull())
    // base64url(iv ‖ tag ‖ ciphertext) under the key named by key_id; never the plain value.
    .addColumn('credential_value', 'text', (c) => c.notNull())
    .addColumn('key_id', 'varchar(16)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_active', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('expires_at', d.instant)
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();
  await db.schema
    .createIndex('api_integration_credentials_source_idx')
    .on('api_integration_credentials')
    .columns(['source_id', 'credential_key'])
    .execute();

  await db.schema
    .createTable('api_integration_sync_logs')
    .addColumn('id', 'integer', d.id)
    .addColumn('endpoint_id', 'integer', (c) =>
      c.notNull().references('api_integration_endpoints.id').onDelete('cascade'),
    )
    .addColumn('status', 'varchar(20)', (c) => c.notNull().check(sqlIn('status', SYNC_STATUSES)))
    .addColumn('started_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('completed_at', d.instant)
    .addColumn('records_processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
    // Milliseconds: the whole run, and the remote's answers on average.
    .addColumn('sync_duration', 'integer')
    .addColumn('response_time', 'integer')
    .addColumn('error_message', 'text')
    // The first errors of the run: [{record, message}].
    .addColumn('sync_data', 'text')
    .addColumn('triggered_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
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

  await db.schema
    .createTable('api_integration_records')
    .addColumn('id', 'integer', d.id)
    .addColumn('endpoint_id', 'integer', (c) =>
      c.notNull().references('api_integration_endpoints.id').onDelete('cascade'),
    )
    .addColumn('external_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('target_table', 'varchar(100)', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('synced_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();
  await db.schema
    .createIndex('api_integration_records_key_idx')
    .unique()
    .on('api_integration_records')
    .columns(['endpoint_id', 'external_key'])
    .execute();
}
