// The bell's count kept per user (app/features/notifications/notification-badges.server.ts), so that the top
// bar of every page reads one row instead of counting every notification that reaches its user
// (tens of thousands for an administrator of a long-running installation).
// - notification_badges: per user, the count as last computed and what it was computed from:
//   the notifications' change token, the user's state version, the user's scope (role, company,
//   enabled categories), the instant and the next expiry after it. A reader recomputes when one
//   of them no longer holds.
// - state_version: bumped in the writing transaction by every write of the user's read and
//   dismissed states (user_notification_settings), whichever process makes it. Only an existing
//   row is bumped: a reader makes the row before it counts.
// - The notifications' change token: SQLite a change_counters row bumped by every row written
//   (with the schema version, which loads that drop triggers change); PostgreSQL a change_tokens
//   row replaced by every statement (migration 0014).
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('notification_badges')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('state_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counted_state_version', 'integer')
    .addColumn('counted_token', 'varchar(64)')
    .addColumn('scope', 'varchar(200)')
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counted_at', d.instant)
    .addColumn('next_expiry', d.instant)
    .execute();

  if (d.dialect === 'sqlite') {
    await sql.raw(`insert into change_counters (table_name, counter) values ('notifications', 0)`).execute(db);
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(
          `create trigger notifications_change_${event} after ${event} on notifications begin
        update change_counters set counter = counter + 1 where table_name = 'notifications'; end`,
        )
        .execute(db);
    }
    const bump = (row: 'new' | 'old') =>
      `update notification_badges set state_version = state_version + 1 where user_id = ${row}.user_id;`;
    await sql
      .raw(
        `create trigger notification_states_badge_insert after insert on user_notification_settings begin ${bump('new')} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger notification_states_badge_update after update on user_notification_settings begin ${bump('new')} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger notification_states_badge_delete after delete on user_notification_settings begin ${bump('old')} end`,
      )
      .execute(db);
    return;
  }

  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = sql.id(rows[0].schema).compile(db).sql;
  await sql`insert into change_tokens (table_name) values ('notifications')`.execute(db);
  await sql
    .raw(
      `create trigger notifications_change_token before insert or update or delete or truncate on notifications
    for each statement execute function ${schema}.change_tokens_bump()`,
    )
    .execute(db);
  // Once per statement, over the users its rows belong to (a mark-all-read writes hundreds).
  await sql
    .raw(
      `
    create function ${schema}.notification_badges_bump() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        update ${schema}.notification_badges set state_version = state_version + 1;
      elsif tg_op = 'DELETE' then
        update ${schema}.notification_badges set state_version = state_version + 1 where user_id in (select user_id from removed_states);
      else
        update ${schema}.notification_badges set state_version = state_version + 1 where user_id in (select user_id from written_states);
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  for (const [event, referencing] of [
    ['insert', 'new table as written_states'],
    ['update', 'new table as written_states'],
    ['delete', 'old table as removed_states'],
  ]) {
    await sql
      .raw(
        `create trigger notification_states_badge_${event} after ${event} on user_notification_settings
      referencing ${referencing} for each statement execute function ${schema}.notification_badges_bump()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create trigger notification_states_badge_truncate after truncate on user_notification_settings
    for each statement execute function ${schema}.notification_badges_bump()`,
    )
    .execute(db);
}
