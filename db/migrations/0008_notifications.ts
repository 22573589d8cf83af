// Notifications: the notifications themselves with their
// targeting (a user, a role and above, a company, a department, or everyone), each user's read
// and dismissed state, and the browsers subscribed to Web Push.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export const NOTIFICATION_TYPES = ['info', 'warning', 'error', 'success'];
export const NOTIFICATION_PRIORITIES = ['low', 'medium', 'high', 'critical'];
export const NOTIFICATION_CATEGORIES = ['system', 'financial', 'security', 'api', 'user'];
const ROLES = ['owner', 'admin', 'editor', 'viewer'];

const sqlIn = (column: string, values: string[]) => sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', d.id)
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('type', 'varchar(20)', (c) => c.notNull().defaultTo('info').check(sqlIn('type', NOTIFICATION_TYPES)))
    .addColumn('priority', 'varchar(20)', (c) =>
      c.notNull().defaultTo('medium').check(sqlIn('priority', NOTIFICATION_PRIORITIES)),
    )
    .addColumn('category', 'varchar(20)', (c) =>
      c.notNull().defaultTo('system').check(sqlIn('category', NOTIFICATION_CATEGORIES)),
    )
    // Targeting: every column that is set must match; none set means everyone.
    .addColumn('target_company_id', 'integer', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('target_department_id', 'integer', (c) => c.references('departments.id').onDelete('cascade'))
    .addColumn('target_user_role', 'varchar(20)', (c) => c.check(sqlIn('target_user_role', ROLES)))
    .addColumn('target_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    // Only users without a company scope (events of the whole installation: jobs, backups).
    .addColumn('target_group_wide', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addColumn('action_url', 'varchar(500)')
    .addColumn('action_text', 'varchar(100)')
    .addColumn('related_table', 'varchar(100)')
    .addColumn('related_record_id', 'integer')
    .addColumn('is_active', d.boolean, (c) => c.notNull().defaultTo(d.true))
    .addColumn('expires_at', d.instant)
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();
  await db.schema.createIndex('notifications_created_idx').on('notifications').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('notifications_target_user_idx')
    .on('notifications')
    .columns(['target_user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('notifications_expires_idx').on('notifications').column('expires_at').execute();

  await db.schema
    .createTable('user_notification_settings')
    .addColumn('id', 'integer', d.id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('notification_id', 'integer', (c) => c.notNull().references('notifications.id').onDelete('cascade'))
    .addColumn('is_read', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addColumn('read_at', d.instant)
    .addColumn('is_dismissed', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .addColumn('dismissed_at', d.instant)
    .addUniqueConstraint('user_notification_settings_user_notification_key', ['user_id', 'notification_id'])
    .execute();
  await db.schema
    .createIndex('user_notification_settings_notification_idx')
    .on('user_notification_settings')
    .column('notification_id')
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'integer', d.id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // One row per browser: the push service's URL identifies it.
    .addColumn('endpoint', 'varchar(1000)', (c) => c.notNull().unique())
    .addColumn('p256dh', 'varchar(200)', (c) => c.notNull())
    .addColumn('auth', 'varchar(100)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(500)')
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('last_success_at', d.instant)
    // Set at the first failure after a success; a subscription failing for 7 days is removed.
    .addColumn('failing_since', d.instant)
    .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'varchar(500)')
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute();
}
