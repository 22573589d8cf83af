// Audit entries per UTC day and company (0: about no company), kept by triggers on audit_logs in
// the writer's transaction (migration 0029), as audit_counts keeps them per company: a deep page
// of the trail, newest first, then knows which day it starts on and how far into that day
// (app/features/audit/audit-pages.server.ts) instead of walking half a million entries. Loads that
// drop the table's triggers count them again with recountAuditDays (called by recountAuditEntries).
import { sql, type Kysely } from 'kysely';
import { triggerSchema } from './dialect.ts';

/** An entry's day ('YYYY-MM-DD', UTC) from its timestamp, as the triggers and the recount compute it. */
export const AUDIT_DAY = {
  sqlite: (row: string) => `substr(${row}.timestamp, 1, 10)`,
  postgres: (row: string) => `to_char(${row}.timestamp at time zone 'UTC', 'YYYY-MM-DD')`,
};

/** Creates audit_days, the triggers that keep it and its counts (migration 0029's step). */
export async function createAuditDays(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  // Keyed by day first: the days come in order from the key's index, with no sort.
  await sql
    .raw(
      `create table audit_days (day varchar(10) not null, company_id integer not null, entries bigint not null default 0,
    primary key (day, company_id))`,
    )
    .execute(db);
  const day = AUDIT_DAY[dialect];
  if (dialect === 'sqlite') {
    const add = (
      row: 'new',
    ) => `insert into audit_days (day, company_id, entries) values (${day(row)}, coalesce(${row}.company_id, 0), 1)
      on conflict (day, company_id) do update set entries = entries + 1;`;
    const remove = (row: 'old') =>
      `update audit_days set entries = entries - 1 where day = ${day(row)} and company_id = coalesce(${row}.company_id, 0);`;
    await sql
      .raw(`create trigger audit_logs_days_insert after insert on audit_logs begin ${add('new')} end`)
      .execute(db);
    await sql
      .raw(`create trigger audit_logs_days_delete after delete on audit_logs begin ${remove('old')} end`)
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_days_move after update of timestamp, company_id on audit_logs
      when ${day('old')} <> ${day('new')} or coalesce(old.company_id, 0) <> coalesce(new.company_id, 0) begin ${remove('old')} ${add('new')} end`,
      )
      .execute(db);
  } else {
    // Fired after audit_logs_count_rows (triggers fire in name order): a writer takes its
    // company's count row before that company's day row, so no new lock order.
    const schema = await triggerSchema(db);
    await sql
      .raw(
        `
      create function ${schema}.audit_days_track() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then
          update ${schema}.audit_days set entries = entries - 1 where day = ${day('old')} and company_id = coalesce(old.company_id, 0);
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          insert into ${schema}.audit_days (day, company_id, entries) values (${day('new')}, coalesce(new.company_id, 0), 1)
          on conflict (day, company_id) do update set entries = ${schema}.audit_days.entries + 1;
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_days after insert or delete on audit_logs for each row execute function ${schema}.audit_days_track()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_days_moves after update of timestamp, company_id on audit_logs for each row
      when (${day('old')} <> ${day('new')} or coalesce(old.company_id, 0) <> coalesce(new.company_id, 0)) execute function ${schema}.audit_days_track()`,
      )
      .execute(db);
  }
  await recountAuditDays(db, dialect);
}

/** Counts the entries per day and company again from the audit trail. */
export async function recountAuditDays(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql`delete from audit_days`.execute(db);
  const day = sql.raw(AUDIT_DAY[dialect]('a'));
  await sql`insert into audit_days (day, company_id, entries)
    select ${day}, coalesce(a.company_id, 0), count(*) from audit_logs as a group by ${day}, coalesce(a.company_id, 0)`.execute(
    db,
  );
}
