// Activity figures without walking the audit trail or every session ever (editor screens, User
// Management's activity, the security anomaly check). Every count they take is over a time
// window by action, table and user, or over one user's entries or sessions.
// - audit_logs_activity_idx (timestamp, action, table_name, user_id): a window's counts are read
//   from the index alone, whatever the trail's size.
// - audit_logs_user_time_idx becomes (user_id, timestamp, action): one user's counts, in a window
//   or ever, from the index alone; their entries still come newest first.
// - audit_logs_action_time_idx goes: the activity index serves a window's entries of an action,
//   and SQLite (which keeps no statistics here) would otherwise pick it for counts over all users
//   and read a row per entry.
// - user_sessions (user_id, login_at, last_seen_at, session_duration): sign-ins and session time
//   per user from the index alone; (is_active, expires_at): the open sessions without a scan.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('audit_logs_activity_idx')
    .on('audit_logs')
    .columns(['timestamp', 'action', 'table_name', 'user_id'])
    .execute();
  await db.schema.dropIndex('audit_logs_user_time_idx').execute();
  await db.schema
    .createIndex('audit_logs_user_time_idx')
    .on('audit_logs')
    .columns(['user_id', 'timestamp', 'action'])
    .execute();
  await db.schema.dropIndex('audit_logs_action_time_idx').execute();
  await db.schema
    .createIndex('user_sessions_user_login_idx')
    .on('user_sessions')
    .columns(['user_id', 'login_at', 'last_seen_at', 'session_duration'])
    .execute();
  await db.schema
    .createIndex('user_sessions_open_idx')
    .on('user_sessions')
    .columns(['is_active', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_sessions_open_idx').execute();
  await db.schema.dropIndex('user_sessions_user_login_idx').execute();
  await db.schema.createIndex('audit_logs_action_time_idx').on('audit_logs').columns(['action', 'timestamp']).execute();
  await db.schema.dropIndex('audit_logs_user_time_idx').execute();
  await db.schema.createIndex('audit_logs_user_time_idx').on('audit_logs').columns(['user_id', 'timestamp']).execute();
  await db.schema.dropIndex('audit_logs_activity_idx').execute();
}
