// Audit entries per signed-in user and action (create and update only), kept by triggers on
// audit_logs in the writer's transaction (migration 0035), as audit_counts keeps them per company:
// My Dashboard's all-time entries and edits without counting a user's whole history on every
// visit. An entry whose user is deleted (the foreign key sets user_id to null: an update) leaves
// its user's count. Loads that drop the table's triggers count them again with
// recountAuditUserCounts (called by recountAuditEntries).
import { sql, type Kysely } from 'kysely';
import { triggerSchema } from './dialect.ts';

/** The actions counted per user. */
export const USER_COUNTED_ACTIONS = ['create', 'update'] as const;
const COUNTED = USER_COUNTED_ACTIONS.map((a) => `'${a}'`).join(', ');

/** Creates audit_user_counts, the triggers that keep it and its counts (migration 0035's step). */
export async function createAuditUserCounts(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql.raw(`create table audit_user_counts (user_id integer not null, action varchar(20) not null, entries bigint not null default 0,
    primary key (user_id, action))`).execute(db);
  if (dialect === 'sqlite') {
    // A row not counted (no user, another action) matches no count row, so taking it off does nothing.
    const add = (row: 'new') => `insert into audit_user_counts (user_id, action, entries) select ${row}.user_id, ${row}.action, 1
      where ${row}.user_id is not null and ${row}.action in (${COUNTED})
      on conflict (user_id, action) do update set entries = entries + 1;`;
    const remove = (row: 'old') => `update audit_user_counts set entries = entries - 1 where user_id = ${row}.user_id and action = ${row}.action;`;
    await sql.raw(`create trigger audit_logs_users_insert after insert on audit_logs begin ${add('new')} end`).execute(db);
    await sql.raw(`create trigger audit_logs_users_delete after delete on audit_logs begin ${remove('old')} end`).execute(db);
    await sql.raw(`create trigger audit_logs_users_move after update of user_id, action on audit_logs
      when old.user_id is not new.user_id or old.action is not new.action begin ${remove('old')} ${add('new')} end`).execute(db);
  } else {
    // Fired after the other audit_logs triggers (name order): the user's count row is taken last.
    const schema = await triggerSchema(db);
    const table = `${schema}.audit_user_counts`;
    await sql.raw(`
      create function ${schema}.audit_user_counts_track() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') and old.user_id is not null and old.action in (${COUNTED}) then
          update ${table} set entries = entries - 1 where user_id = old.user_id and action = old.action;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.user_id is not null and new.action in (${COUNTED}) then
          insert into ${table} (user_id, action, entries) values (new.user_id, new.action, 1)
          on conflict (user_id, action) do update set entries = ${table}.entries + 1;
        end if;
        return null;
      end $$`).execute(db);
    await sql.raw(`create trigger audit_logs_users after insert or delete on audit_logs for each row execute function ${schema}.audit_user_counts_track()`).execute(db);
    await sql.raw(`create trigger audit_logs_users_moves after update of user_id, action on audit_logs for each row
      when (old.user_id is distinct from new.user_id or old.action is distinct from new.action) execute function ${schema}.audit_user_counts_track()`).execute(db);
  }
  await recountAuditUserCounts(db);
}

/** Counts the entries per user and action again from the audit trail. */
export async function recountAuditUserCounts(db: Kysely<any>): Promise<void> {
  await sql`delete from audit_user_counts`.execute(db);
  await sql.raw(`insert into audit_user_counts (user_id, action, entries)
    select user_id, action, count(*) from audit_logs where user_id is not null and action in (${COUNTED}) group by user_id, action`).execute(db);
}
