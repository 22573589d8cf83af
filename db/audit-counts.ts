// Audit entries per company (0: entries about no company), kept by triggers on audit_logs in the
// writer's transaction (migration 0027), as row_counts keeps the books' rows: the audit trail's
// total without counting a million entries on every page. Loads that drop the table's triggers
// for speed (a bulk restore on SQLite) count them again with recountAuditEntries.
import { sql, type Kysely } from 'kysely';
import { recountAuditCreateMonths } from './audit-create-months.ts';
import { recountAuditDays } from './audit-days.ts';
import { recountAuditUserCounts } from './audit-user-counts.ts';
import { dialectOf, triggerSchema } from './dialect.ts';
import type { Database } from './types.ts';

/** Creates audit_counts, the triggers that keep it and its counts (migration 0027's step). */
export async function createAuditCounts(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql
    .raw(`create table audit_counts (company_id integer not null primary key, entries bigint not null default 0)`)
    .execute(db);
  if (dialect === 'sqlite') {
    const add = (
      row: 'new',
    ) => `insert into audit_counts (company_id, entries) values (coalesce(${row}.company_id, 0), 1)
      on conflict (company_id) do update set entries = entries + 1;`;
    const remove = (row: 'old') =>
      `update audit_counts set entries = entries - 1 where company_id = coalesce(${row}.company_id, 0);`;
    await sql
      .raw(`create trigger audit_logs_count_insert after insert on audit_logs begin ${add('new')} end`)
      .execute(db);
    await sql
      .raw(`create trigger audit_logs_count_delete after delete on audit_logs begin ${remove('old')} end`)
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_count_move after update of company_id on audit_logs
      when coalesce(old.company_id, 0) <> coalesce(new.company_id, 0) begin ${remove('old')} ${add('new')} end`,
      )
      .execute(db);
  } else {
    const schema = await triggerSchema(db);
    await sql
      .raw(
        `
      create function ${schema}.audit_counts_track() returns trigger language plpgsql as $$
      begin
        if tg_op in ('INSERT', 'UPDATE') then
          insert into ${schema}.audit_counts (company_id, entries) values (coalesce(new.company_id, 0), 1)
          on conflict (company_id) do update set entries = ${schema}.audit_counts.entries + 1;
        end if;
        if tg_op in ('DELETE', 'UPDATE') then
          update ${schema}.audit_counts set entries = entries - 1 where company_id = coalesce(old.company_id, 0);
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_count_rows after insert or delete on audit_logs for each row execute function ${schema}.audit_counts_track()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger audit_logs_count_moves after update of company_id on audit_logs for each row
      when (coalesce(old.company_id, 0) <> coalesce(new.company_id, 0)) execute function ${schema}.audit_counts_track()`,
      )
      .execute(db);
  }
  await countEntriesAgain(db);
}

/** Counts the audit entries again from the table (after a load with its triggers off), with the creates per month (db/audit-create-months.ts), the entries per day (db/audit-days.ts) and per user (db/audit-user-counts.ts). */
export async function recountAuditEntries(db: Kysely<any>): Promise<void> {
  await countEntriesAgain(db);
  await recountAuditCreateMonths(db, dialectOf(db));
  await recountAuditDays(db, dialectOf(db));
  await recountAuditUserCounts(db);
}

async function countEntriesAgain(db: Kysely<any>): Promise<void> {
  await sql`delete from audit_counts`.execute(db);
  await sql`insert into audit_counts (company_id, entries) select coalesce(company_id, 0), count(*) from audit_logs group by coalesce(company_id, 0)`.execute(
    db,
  );
}

/** The audit entries about one company, or all of them, as the triggers keep them. */
export async function auditEntries(db: Kysely<Database>, companyId: number | null): Promise<number> {
  const row = await db
    .selectFrom('auditCounts')
    .select((eb) => eb.fn.sum<number>('entries').as('n'))
    .$if(companyId !== null, (q) => q.where('companyId', '=', companyId!))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
