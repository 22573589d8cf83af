// The audit trail's activity index leads with the action (migration 0024 led with the time):
// every count of the activity figures and the integration recommendations names its actions, so
// (action, timestamp, table_name, user_id, company_id) serves them all from the index alone, and
// also gives an action's entries newest first (what audit_logs_action_time_idx did). Leading with
// the time let SQLite, which keeps no statistics here, prefer the (table_name, record_id) index
// for a count of some tables' creates over months, and read a row per entry of those tables.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_logs_activity_idx').execute();
  await db.schema
    .createIndex('audit_logs_activity_idx')
    .on('audit_logs')
    .columns(['action', 'timestamp', 'table_name', 'user_id', 'company_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_logs_activity_idx').execute();
  await db.schema
    .createIndex('audit_logs_activity_idx')
    .on('audit_logs')
    .columns(['timestamp', 'action', 'table_name', 'user_id'])
    .execute();
}
