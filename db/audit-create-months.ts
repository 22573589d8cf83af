// Creates recorded in the audit trail per table, company (0: about no company) and month (UTC
// 'YYYY-MM'), with how many of them a signed-in user made: what the integration recommendations
// read ("typed in by hand in N of the last 6 months") without grouping months of audit entries
// on every visit. Kept by triggers on audit_logs in the writer's transaction (migration 0028);
// an entry's user set to null (the user deleted) moves it out of the users' count, as a count of
// the rows would. Loads that drop the table's triggers count them again with
// recountAuditCreateMonths (called by recountAuditEntries).
import { sql, type Kysely } from 'kysely';
import { triggerSchema } from './dialect.ts';

export const AUDIT_MONTH = {
  sqlite: (row: string) => `substr(${row}.timestamp, 1, 7)`,
  postgres: (row: string) => `to_char(${row}.timestamp at time zone 'UTC', 'YYYY-MM')`,
};

/** Creates audit_create_months, the triggers that keep it and its counts (migration 0028's step). */
export async function createAuditCreateMonths(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql
    .raw(
      `create table audit_create_months (
    table_name varchar(100) not null, company_id integer not null, month varchar(7) not null,
    entries bigint not null default 0, by_users bigint not null default 0,
    primary key (table_name, company_id, month))`,
    )
    .execute(db);
  const month = AUDIT_MONTH[dialect];
  if (dialect === 'sqlite') {
    const add = (row: 'new') => `insert into audit_create_months (table_name, company_id, month, entries, by_users)
      values (${row}.table_name, coalesce(${row}.company_id, 0), ${month(row)}, 1, ${row}.user_id is not null)
      on conflict (table_name, company_id, month) do update set entries = entries + 1, by_users = by_users + excluded.by_users;`;
    const remove = (
      row: 'old',
    ) => `update audit_create_months set entries = entries - 1, by_users = by_users - (${row}.user_id is not null)
      where table_name = ${row}.table_name and company_id = coalesce(${row}.company_id, 0) and month = ${month(row)};`;
    await sql
      .raw(
        `create trigger audit_logs_create_month_insert after insert on audit_logs when new.action = 'create' begin ${add('new')} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_create_month_delete after delete on audit_logs when old.action = 'create' begin ${remove('old')} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_create_month_remove after update of table_name, company_id, action, user_id, timestamp on audit_logs
      when old.action = 'create' begin ${remove('old')} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_create_month_add after update of table_name, company_id, action, user_id, timestamp on audit_logs
      when new.action = 'create' begin ${add('new')} end`,
      )
      .execute(db);
  } else {
    const schema = await triggerSchema(db);
    const table = `${schema}.audit_create_months`;
    await sql
      .raw(
        `
      create function ${schema}.audit_create_months_track() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') and old.action = 'create' then
          update ${table} set entries = entries - 1, by_users = by_users - (old.user_id is not null)::int
          where table_name = old.table_name and company_id = coalesce(old.company_id, 0) and month = ${month('old')};
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.action = 'create' then
          insert into ${table} (table_name, company_id, month, entries, by_users)
          values (new.table_name, coalesce(new.company_id, 0), ${month('new')}, 1, (new.user_id is not null)::int)
          on conflict (table_name, company_id, month) do update set entries = ${table}.entries + 1, by_users = ${table}.by_users + excluded.by_users;
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_create_months after insert or delete on audit_logs for each row execute function ${schema}.audit_create_months_track()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_create_month_moves after update of table_name, company_id, action, user_id, timestamp on audit_logs for each row
      execute function ${schema}.audit_create_months_track()`,
      )
      .execute(db);
  }
  await recountAuditCreateMonths(db, dialect);
}

/** Counts the creates per table, company and month again from the audit trail. */
export async function recountAuditCreateMonths(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const month = AUDIT_MONTH[dialect]('a');
  await sql`delete from audit_create_months`.execute(db);
  await sql
    .raw(
      `insert into audit_create_months (table_name, company_id, month, entries, by_users)
    select a.table_name, coalesce(a.company_id, 0), ${month}, count(*), count(a.user_id)
    from audit_logs a where a.action = 'create' group by a.table_name, coalesce(a.company_id, 0), ${month}`,
    )
    .execute(db);
}
