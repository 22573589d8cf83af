// The audit trail's last 30 days of activity counted by the activity-window job
// (app/features/users/activity-window.server.ts), so User Management's analytics and statistics and
// Editor Statistics read a few hundred stored counts instead of the window's entries, which grow
// with the book. Derived, never backed up; the screens say when they were computed.
// - activity_window_runs: the one current computation (id 1): its window, when, and the audit
//   trail's change token it was computed from.
// - activity_user_window: per user, the window's creates (entries), updates (edits) and events
//   other than failed sign-ins.
// - activity_scope_window: per company (0: every company, with events that name no user), the
//   window's events by action and by table.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('activity_window_runs')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('window_start', d.instant, (c) => c.notNull())
    .addColumn('window_end', d.instant, (c) => c.notNull())
    .addColumn('computed_at', d.instant, (c) => c.notNull())
    .addColumn('audit_token', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('activity_user_window')
    .addColumn('user_id', 'integer', (c) => c.primaryKey())
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addColumn('edits', 'integer', (c) => c.notNull())
    .addColumn('events', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('activity_scope_window')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('events', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('activity_scope_window_pk', ['company_id', 'kind', 'name'])
    .execute();
}
