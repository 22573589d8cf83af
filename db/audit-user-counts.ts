// Audit entries per signed-in user and action (create and update only, self-service left out), kept by triggers on
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

/**
 * Work on one's own account is not work on the books, so it is neither an entry nor an edit: a
 * user's changes to their own users row (password, profile) and to their settings (which only
 * their owner writes, default row included). Migration 0037.
 */
export const SELF_SERVICE_TABLES = { account: 'users', settings: 'user_settings' } as const;

/** Whether audit row `row` ('new', 'old' or a table alias) counts for its user, as SQL. */
export function countedForUser(row: string): string {
  return `${row}.user_id is not null and ${row}.action in (${COUNTED}) and ${row}.table_name <> '${SELF_SERVICE_TABLES.settings}'
    and (${row}.table_name <> '${SELF_SERVICE_TABLES.account}' or ${row}.record_id is null or ${row}.record_id <> ${row}.user_id)`;
}

/** Creates audit_user_counts, the triggers that keep it and its counts (migration 0035's step). */
export async function createAuditUserCounts(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql
    .raw(
      `create table audit_user_counts (user_id integer not null, action varchar(20) not null, entries bigint not null default 0,
    primary key (user_id, action))`,
    )
    .execute(db);
  await createAuditUserCountTriggers(db, dialect);
  await recountAuditUserCounts(db);
}

/** Replaces the triggers with ones that leave self-service out, and counts again (migration 0037). */
export async function replaceAuditUserCountTriggers(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'sqlite') {
    for (const name of ['audit_logs_users_insert', 'audit_logs_users_delete', 'audit_logs_users_move'])
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
  } else {
    const schema = await triggerSchema(db);
    for (const name of ['audit_logs_users', 'audit_logs_users_moves'])
      await sql.raw(`drop trigger if exists ${name} on ${schema}.audit_logs`).execute(db);
    await sql.raw(`drop function if exists ${schema}.audit_user_counts_track()`).execute(db);
  }
  await createAuditUserCountTriggers(db, dialect);
  await recountAuditUserCounts(db);
}

async function createAuditUserCountTriggers(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'sqlite') {
    const add = (
      row: 'new',
    ) => `insert into audit_user_counts (user_id, action, entries) select ${row}.user_id, ${row}.action, 1
      where ${countedForUser(row)}
      on conflict (user_id, action) do update set entries = entries + 1;`;
    const remove = (
      row: 'old',
    ) => `update audit_user_counts set entries = entries - 1 where user_id = ${row}.user_id and action = ${row}.action
      and ${countedForUser(row)};`;
    await sql
      .raw(`create trigger audit_logs_users_insert after insert on audit_logs begin ${add('new')} end`)
      .execute(db);
    await sql
      .raw(`create trigger audit_logs_users_delete after delete on audit_logs begin ${remove('old')} end`)
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_users_move after update of user_id, action, table_name, record_id on audit_logs
      when old.user_id is not new.user_id or old.action is not new.action or old.table_name is not new.table_name or old.record_id is not new.record_id
      begin ${remove('old')} ${add('new')} end`,
      )
      .execute(db);
  } else {
    // Fired after the other audit_logs triggers (name order): the user's count row is taken last.
    const schema = await triggerSchema(db);
    const table = `${schema}.audit_user_counts`;
    await sql
      .raw(
        `
      create function ${schema}.audit_user_counts_track() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') and ${countedForUser('old')} then
          update ${table} set entries = entries - 1 where user_id = old.user_id and action = old.action;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and ${countedForUser('new')} then
          insert into ${table} (user_id, action, entries) values (new.user_id, new.action, 1)
          on conflict (user_id, action) do update set entries = ${table}.entries + 1;
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_users after insert or delete on audit_logs for each row execute function ${schema}.audit_user_counts_track()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_users_moves after update of user_id, action, table_name, record_id on audit_logs for each row
      when (old.user_id is distinct from new.user_id or old.action is distinct from new.action
        or old.table_name is distinct from new.table_name or old.record_id is distinct from new.record_id)
      execute function ${schema}.audit_user_counts_track()`,
      )
      .execute(db);
  }
}

/** Counts the entries per user and action again from the audit trail. */
export async function recountAuditUserCounts(db: Kysely<any>): Promise<void> {
  await sql`delete from audit_user_counts`.execute(db);
  await sql
    .raw(
      `insert into audit_user_counts (user_id, action, entries)
    select a.user_id, a.action, count(*) from audit_logs a where ${countedForUser('a')} group by a.user_id, a.action`,
    )
    .execute(db);
}
