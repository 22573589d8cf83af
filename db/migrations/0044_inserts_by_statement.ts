// Inserts cost the same however many rows the books hold, and a statement of many rows (an
// import's batch, a restore) updates each derived row once:
// - Both dialects: a new plan row is compared with the chosen row of each month it covers
//   instead of choosing every covered month again from all rows of its key (db/aggregates.ts).
// - PostgreSQL: the INSERT side of every counting trigger on the tables imports write (row_counts,
//   the month totals and plans, day_counts, and the audit trail's counts per company, day,
//   creating month and user) becomes a statement trigger that groups the statement's rows
//   (db/statement-inserts.ts). Deletes and updates keep their row triggers.
import type { Kysely } from 'kysely';
import { aggregateInsertsByStatement } from '../aggregates.ts';
import { AUDIT_MONTH } from '../audit-create-months.ts';
import { AUDIT_DAY } from '../audit-days.ts';
import { countedForUser } from '../audit-user-counts.ts';
import { DAY_COUNTED } from '../day-counts.ts';
import { triggerSchema, type DialectHelpers } from '../dialect.ts';
import { insertsByStatement, type StatementInsert } from '../statement-inserts.ts';
import { COUNTED_TABLES } from './0003_row_counts.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await aggregateInsertsByStatement(db, d.dialect);
  if (d.dialect !== 'postgres') return;
  const schema = await triggerSchema(db);
  const company = 'coalesce(company_id, 0)';
  const counters: StatementInsert[] = [
    ...COUNTED_TABLES.map((table) => ({
      table,
      trigger: `${table}_count_rows`,
      rowFunction: `${schema}.row_counts_track`,
      statementFunction: `${schema}.row_counts_inserted`,
      body: `insert into ${schema}.row_counts as t (table_name, company_id, row_count)
        select tg_table_name, company_id, count(*) from inserted group by company_id order by company_id
        on conflict (table_name, company_id) do update set row_count = t.row_count + excluded.row_count`,
    })),
    ...Object.entries(DAY_COUNTED).map(([table, column]) => ({
      table,
      trigger: `${table}_count_days`,
      rowFunction: `${schema}.${table}_count_days`,
      statementFunction: `${schema}.${table}_count_days_inserted`,
      body: `insert into ${schema}.day_counts as t (table_name, company_id, day, row_count)
        select '${table}', company_id, ${column}, count(*) from inserted group by company_id, ${column} order by company_id, ${column}
        on conflict (table_name, company_id, day) do update set row_count = t.row_count + excluded.row_count`,
    })),
    {
      table: 'audit_logs',
      trigger: 'audit_logs_count_rows',
      rowFunction: `${schema}.audit_counts_track`,
      statementFunction: `${schema}.audit_counts_inserted`,
      body: `insert into ${schema}.audit_counts as t (company_id, entries)
        select ${company}, count(*) from inserted group by ${company} order by ${company}
        on conflict (company_id) do update set entries = t.entries + excluded.entries`,
    },
    {
      table: 'audit_logs',
      trigger: 'audit_logs_create_months',
      rowFunction: `${schema}.audit_create_months_track`,
      statementFunction: `${schema}.audit_create_months_inserted`,
      body: `insert into ${schema}.audit_create_months as t (table_name, company_id, month, entries, by_users)
        select table_name, ${company}, ${AUDIT_MONTH.postgres('inserted')}, count(*), count(user_id) from inserted
        where action = 'create' group by 1, 2, 3 order by 1, 2, 3
        on conflict (table_name, company_id, month) do update set entries = t.entries + excluded.entries, by_users = t.by_users + excluded.by_users`,
    },
    {
      table: 'audit_logs',
      trigger: 'audit_logs_days',
      rowFunction: `${schema}.audit_days_track`,
      statementFunction: `${schema}.audit_days_inserted`,
      body: `insert into ${schema}.audit_days as t (day, company_id, entries)
        select ${AUDIT_DAY.postgres('inserted')}, ${company}, count(*) from inserted group by 1, 2 order by 2, 1
        on conflict (day, company_id) do update set entries = t.entries + excluded.entries`,
    },
    {
      table: 'audit_logs',
      trigger: 'audit_logs_users',
      rowFunction: `${schema}.audit_user_counts_track`,
      statementFunction: `${schema}.audit_user_counts_inserted`,
      body: `insert into ${schema}.audit_user_counts as t (user_id, action, entries)
        select user_id, action, count(*) from inserted where ${countedForUser('inserted')} group by 1, 2 order by 1, 2
        on conflict (user_id, action) do update set entries = t.entries + excluded.entries`,
    },
  ];
  for (const counter of counters) await insertsByStatement(db, schema, counter);
}
