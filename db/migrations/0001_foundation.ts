// Foundation tables: reference data, users and their sessions and settings, the audit trail
// and data versions, and the counters behind sign-in throttling and API rate limits.
// Typed against Kysely<any>: a migration is frozen in time and must not follow db/types.ts.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

const PERMISSION_FLAGS = [
  'can_access_financial_data',
  'can_access_subscriber_data',
  'can_access_api_integrations',
  'can_access_analytics',
  'can_access_audit_logs',
  'can_access_backups',
  'can_create',
  'can_edit',
  'can_delete',
  'can_manage_users',
];

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('companies')
    .addColumn('id', 'integer', d.id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('type', 'varchar(20)', (c) =>
      c.notNull().check(sqlIn('type', ['mobile', 'infrastructure', 'fintech', 'marketing'])),
    )
    .addColumn('description', 'text')
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();
  await db.schema.createIndex('companies_type_idx').on('companies').column('type').execute();
  await db.schema.createIndex('companies_created_at_idx').on('companies').column('created_at').execute();

  await db.schema
    .createTable('departments')
    .addColumn('id', 'integer', d.id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();

  await db.schema
    .createTable('expense_categories')
    .addColumn('id', 'integer', d.id)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('restrict'))
    .addColumn('department_id', 'integer', (c) => c.references('departments.id').onDelete('restrict'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addUniqueConstraint('expense_categories_company_name_uq', ['company_id', 'name'])
    .execute();
  await db.schema
    .createIndex('expense_categories_department_idx')
    .on('expense_categories')
    .column('department_id')
    .execute();
  await db.schema.createIndex('expense_categories_name_idx').on('expense_categories').column('name').execute();

  let users = db.schema
    .createTable('users')
    .addColumn('id', 'integer', d.id)
    .addColumn('username', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('role', 'varchar(20)', (c) =>
      c
        .notNull()
        .defaultTo('viewer')
        .check(sqlIn('role', ['owner', 'admin', 'editor', 'viewer'])),
    )
    .addColumn('full_name', 'varchar(255)')
    .addColumn('position', 'varchar(255)')
    .addColumn('phone_number', 'varchar(50)')
    .addColumn('is_active', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('is_temporary_password', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addColumn('password_change_required', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addColumn('password_changed_at', d.instant)
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('restrict'))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('last_login_at', d.instant)
    .addColumn('last_activity_at', d.instant)
    .addColumn('login_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_session_duration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('average_session_duration', 'integer', (c) => c.notNull().defaultTo(0));
  for (const flag of PERMISSION_FLAGS) {
    users = users.addColumn(flag, d.boolean, (c) => c.notNull().defaultTo(d.false));
  }
  await users.execute();
  for (const column of ['role', 'company_id', 'is_active', 'created_at', 'last_login_at', 'created_by']) {
    await db.schema.createIndex(`users_${column}_idx`).on('users').column(column).execute();
  }

  await db.schema
    .createTable('user_sessions')
    .addColumn('id', 'integer', d.id)
    .addColumn('session_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ip_address', 'varchar(64)')
    .addColumn('user_agent', 'text')
    .addColumn('login_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('last_seen_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('expires_at', d.instant, (c) => c.notNull())
    .addColumn('logout_at', d.instant)
    .addColumn('session_duration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_active', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('remember_me', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addColumn('end_reason', 'varchar(50)')
    .execute();
  await db.schema
    .createIndex('user_sessions_user_active_idx')
    .on('user_sessions')
    .columns(['user_id', 'is_active'])
    .execute();
  await db.schema.createIndex('user_sessions_login_at_idx').on('user_sessions').column('login_at').execute();

  await db.schema
    .createTable('user_settings')
    .addColumn('id', 'integer', d.id)
    .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('email_notifications', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('push_notifications', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('notification_types', d.json, (c) =>
      c.notNull().defaultTo(d.jsonDefault({ system: true, financial: true, api: true, user: true, security: true })),
    )
    .addColumn('theme', 'varchar(20)', (c) => c.notNull().defaultTo('light'))
    .addColumn('language', 'varchar(10)', (c) => c.notNull().defaultTo('en'))
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('date_format', 'varchar(20)', (c) => c.notNull().defaultTo('MM/dd/yyyy'))
    .addColumn('time_format', 'varchar(10)', (c) => c.notNull().defaultTo('12h'))
    .addColumn('dashboard_layout', d.json, (c) =>
      c
        .notNull()
        .defaultTo(d.jsonDefault({ cards: ['stats', 'activity', 'health'], autoRefresh: true, refreshInterval: 30 })),
    )
    .addColumn('share_activity_status', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('share_profile_info', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('auto_logout', 'integer', (c) => c.notNull().defaultTo(480))
    .addColumn('session_timeout', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('default_currency', 'varchar(3)', (c) => c.notNull().defaultTo('USD'))
    .addColumn('report_emails', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('security_alerts', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('compact_sidebar', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addColumn('animations', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();

  await db.schema
    .createTable('audit_logs')
    .addColumn('id', 'integer', d.id)
    .addColumn('table_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('record_id', 'integer')
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    .addColumn('old_data', d.json)
    .addColumn('new_data', d.json)
    .addColumn('changes', d.json)
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_label', 'varchar(255)')
    .addColumn('timestamp', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('ip_address', 'varchar(64)')
    .addColumn('user_agent', 'text')
    .addColumn('reason', 'text')
    .addColumn('session_id', 'varchar(64)')
    .execute();
  await db.schema.createIndex('audit_logs_record_idx').on('audit_logs').columns(['table_name', 'record_id']).execute();
  await db.schema.createIndex('audit_logs_user_time_idx').on('audit_logs').columns(['user_id', 'timestamp']).execute();
  await db.schema.createIndex('audit_logs_timestamp_idx').on('audit_logs').column('timestamp').execute();
  await db.schema.createIndex('audit_logs_action_time_idx').on('audit_logs').columns(['action', 'timestamp']).execute();

  await db.schema
    .createTable('data_versions')
    .addColumn('id', 'integer', d.id)
    .addColumn('table_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('data', d.json)
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('is_active', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addUniqueConstraint('data_versions_record_version_uq', ['table_name', 'record_id', 'version'])
    .execute();
  await db.schema
    .createIndex('data_versions_active_idx')
    .on('data_versions')
    .columns(['table_name', 'record_id', 'is_active'])
    .execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('id', 'integer', d.id)
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('ip_address', 'varchar(64)', (c) => c.notNull())
    .addColumn('succeeded', d.boolean, (c) => c.notNull())
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();
  await db.schema
    .createIndex('login_attempts_email_time_idx')
    .on('login_attempts')
    .columns(['email', 'created_at'])
    .execute();
  await db.schema
    .createIndex('login_attempts_ip_time_idx')
    .on('login_attempts')
    .columns(['ip_address', 'created_at'])
    .execute();

  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('window_start', d.bigint, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['key', 'window_start'])
    .execute();
  await db.schema
    .createIndex('rate_limit_counters_window_idx')
    .on('rate_limit_counters')
    .column('window_start')
    .execute();
}

function sqlIn(column: string, values: string[]) {
  // Literal check constraint; values are constants of this migration, never user input.
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}
