// Expense anomalies as stored findings (docs/anomalies.md): the expense-anomalies job computes
// them for the longest window and screens and /api read them, so no request scans the books.
// - expense_anomaly_runs: one row per computation (generation), with the books' change token it
//   started from; the latest finished one is what readers see.
// - expense_anomalies: a run's findings, ranked by severity and date per company and group-wide.
// - expense_anomaly_days: a run's spending per company, department and day of the window, with
//   the count and the largest amount of the day's findings (the chart and the totals).
// - SQLite: change_counters, a counter every write of actual_expenses bumps in its own
//   transaction (PostgreSQL has change_tokens, migration 0014), so a run can tell the books did
//   not change and do nothing.
// - Two indexes on actual_expenses make each check a bounded probe: a vendor's earlier payments
//   within a company (normalised name, then date), and a category's most recent expenses.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export const ANOMALY_TYPES = ['unusual_amount', 'duplicate', 'new_vendor'];
export const SEVERITIES = ['critical', 'high', 'medium', 'low'];

const sqlIn = (column: string, values: string[]) => sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  // The same expression as the probes in app/features/ai/expense-anomalies.server.ts.
  await sql
    .raw(
      'create index actual_expenses_vendor_key_idx on actual_expenses (company_id, lower(trim(vendor)), expense_date, id)',
    )
    .execute(db);
  // A category's most recent amounts from the index alone; it leads with category_id, so it also
  // serves everything the single-column index did.
  await db.schema
    .createIndex('actual_expenses_category_recent_idx')
    .on('actual_expenses')
    .columns(['category_id', 'expense_date', 'amount_cents'])
    .execute();
  await db.schema.dropIndex('actual_expenses_category_id_idx').execute();

  await db.schema
    .createTable('expense_anomaly_runs')
    .addColumn('generation', 'integer', (c) => c.primaryKey())
    .addColumn('books_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('window_start', d.day, (c) => c.notNull())
    .addColumn('started_at', d.instant, (c) => c.notNull())
    .addColumn('computed_at', d.instant)
    .addColumn('findings', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('expense_anomalies')
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('expense_id', 'integer', (c) => c.notNull())
    .addColumn('anomaly_type', 'varchar(20)', (c) => c.notNull().check(sqlIn('anomaly_type', ANOMALY_TYPES)))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('department_id', 'integer', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) => c.notNull())
    .addColumn('severity', 'varchar(10)', (c) => c.notNull().check(sqlIn('severity', SEVERITIES)))
    .addColumn('severity_rank', 'smallint', (c) => c.notNull())
    .addColumn('amount_cents', d.bigint, (c) => c.notNull())
    .addColumn('expected_cents', d.bigint, (c) => c.notNull())
    .addColumn('deviation', 'double precision', (c) => c.notNull())
    .addColumn('expense_date', d.day, (c) => c.notNull())
    .addColumn('explanation', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('expense_anomalies_pk', ['generation', 'expense_id', 'anomaly_type'])
    .execute();
  // Most severe first, then the most recent: a page is the first rows of one of these.
  await db.schema
    .createIndex('expense_anomalies_rank_idx')
    .on('expense_anomalies')
    .columns(['generation', 'severity_rank', 'expense_date desc', 'expense_id desc'])
    .execute();
  await db.schema
    .createIndex('expense_anomalies_company_rank_idx')
    .on('expense_anomalies')
    .columns(['generation', 'company_id', 'severity_rank', 'expense_date desc', 'expense_id desc'])
    .execute();

  await db.schema
    .createTable('expense_anomaly_days')
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('department_id', 'integer', (c) => c.notNull())
    .addColumn('day', d.day, (c) => c.notNull())
    .addColumn('spent_cents', d.bigint, (c) => c.notNull())
    .addColumn('findings', 'integer', (c) => c.notNull())
    .addColumn('largest_cents', d.bigint)
    .addPrimaryKeyConstraint('expense_anomaly_days_pk', ['generation', 'day', 'company_id', 'department_id'])
    .execute();

  if (d.dialect === 'sqlite') {
    await db.schema
      .createTable('change_counters')
      .addColumn('table_name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('counter', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql.raw(`insert into change_counters (table_name, counter) values ('actual_expenses', 0)`).execute(db);
    const bump = `update change_counters set counter = counter + 1 where table_name = 'actual_expenses';`;
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(`create trigger actual_expenses_change_${event} after ${event} on actual_expenses begin ${bump} end`)
        .execute(db);
    }
  }
}
