// Finance and subscriber figures: budgets, actual expenses, revenue projections, actual
// revenue and subscriber metrics. Money is integer cents, metric values integer hundredths.
// Every row carries company_id (budgets and expenses copy it from their category) so company
// scope and the list screens' filters and sorts are index lookups.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

const PERIODS = ['monthly', 'quarterly', 'annual'];
const STATUSES = ['active', 'pending', 'expired'];
const METRIC_PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'annual'];

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  const company = (c: any) => c.notNull().references('companies.id').onDelete('restrict');
  const department = (c: any) => c.notNull().references('departments.id').onDelete('restrict');
  const category = (c: any) => c.notNull().references('expense_categories.id').onDelete('restrict');
  const createdBy = (c: any) => c.references('users.id').onDelete('set null');
  const positive = (column: string) => (c: any) => c.notNull().check(sql.raw(`${column} > 0`));
  /** Budgets and revenue projections: a period with its dates, a description and a status. */
  const plannedPeriod = (t: CreateTableBuilder<any, any>) =>
    t
      .addColumn('period', 'varchar(20)', (c) => c.notNull().check(sqlIn('period', PERIODS)))
      .addColumn('start_date', d.day, (c) => c.notNull())
      .addColumn('end_date', d.day, (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('active').check(sqlIn('status', STATUSES)));
  /** Who created the row and when it was created and last changed. */
  const rowTracking = (t: CreateTableBuilder<any, any>) =>
    t
      .addColumn('created_by', 'integer', createdBy)
      .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
      .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now));

  await db.schema
    .createTable('budgets')
    .addColumn('id', 'integer', d.id)
    .addColumn('company_id', 'integer', company)
    .addColumn('department_id', 'integer', department)
    .addColumn('category_id', 'integer', category)
    .addColumn('amount_cents', d.bigint, positive('amount_cents'))
    .$call(plannedPeriod)
    .$call(rowTracking)
    .addCheckConstraint('budgets_dates_ck', sql.raw('end_date >= start_date'))
    .execute();
  await indexes(db, 'budgets', [
    ['start_date', 'id'],
    ['company_id', 'start_date', 'id'],
    ['department_id'],
    ['category_id'],
    ['status'],
    ['amount_cents'],
    ['end_date'],
  ]);

  await db.schema
    .createTable('actual_expenses')
    .addColumn('id', 'integer', d.id)
    .addColumn('company_id', 'integer', company)
    .addColumn('department_id', 'integer', department)
    .addColumn('category_id', 'integer', category)
    .addColumn('amount_cents', d.bigint, positive('amount_cents'))
    .addColumn('expense_date', d.day, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('vendor', 'varchar(255)')
    .addColumn('receipt_number', 'varchar(100)')
    .$call(rowTracking)
    .execute();
  await indexes(db, 'actual_expenses', [
    ['expense_date', 'id'],
    ['company_id', 'expense_date', 'id'],
    ['department_id', 'expense_date'],
    ['category_id'],
    ['amount_cents'],
  ]);

  await db.schema
    .createTable('revenue_projections')
    .addColumn('id', 'integer', d.id)
    .addColumn('company_id', 'integer', company)
    .addColumn('source', 'varchar(255)', (c) => c.notNull())
    .addColumn('amount_cents', d.bigint, positive('amount_cents'))
    .$call(plannedPeriod)
    .$call(rowTracking)
    .addCheckConstraint('revenue_projections_dates_ck', sql.raw('end_date >= start_date'))
    .execute();
  await indexes(db, 'revenue_projections', [
    ['start_date', 'id'],
    ['company_id', 'start_date', 'id'],
    ['source', 'start_date'],
    ['status'],
    ['amount_cents'],
    ['end_date'],
  ]);

  await db.schema
    .createTable('actual_revenue')
    .addColumn('id', 'integer', d.id)
    .addColumn('company_id', 'integer', company)
    .addColumn('source', 'varchar(255)', (c) => c.notNull())
    .addColumn('amount_cents', d.bigint, positive('amount_cents'))
    .addColumn('revenue_date', d.day, (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('customer_reference', 'varchar(255)')
    .$call(rowTracking)
    .execute();
  await indexes(db, 'actual_revenue', [
    ['revenue_date', 'id'],
    ['company_id', 'revenue_date', 'id'],
    ['source', 'revenue_date'],
    ['amount_cents'],
  ]);

  await db.schema
    .createTable('subscriber_metrics')
    .addColumn('id', 'integer', d.id)
    .addColumn('company_id', 'integer', company)
    .addColumn('company_type', 'varchar(20)', (c) => c.notNull().check(sqlIn('company_type', ['mobile', 'fintech'])))
    .addColumn('metric_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('metric_value_hundredths', d.bigint, (c) => c.notNull().check(sql.raw('metric_value_hundredths >= 0')))
    .addColumn('period', 'varchar(20)', (c) => c.notNull().check(sqlIn('period', METRIC_PERIODS)))
    .addColumn('record_date', d.day, (c) => c.notNull())
    .addColumn('description', 'text')
    .$call(rowTracking)
    .execute();
  await indexes(db, 'subscriber_metrics', [
    ['company_type', 'record_date', 'id'],
    ['company_id', 'record_date', 'id'],
    ['metric_name', 'record_date'],
    ['record_date', 'id'],
    ['metric_value_hundredths'],
  ]);

  // Category lists, filters and the budget/expense category pickers read by company.
  await db.schema
    .createIndex('expense_categories_company_idx')
    .on('expense_categories')
    .columns(['company_id', 'name'])
    .execute();
  await db.schema.createIndex('departments_created_at_idx').on('departments').column('created_at').execute();
}

async function indexes(db: Kysely<any>, table: string, sets: string[][]): Promise<void> {
  for (const columns of sets) {
    await db.schema
      .createIndex(`${table}_${columns.join('_')}_idx`)
      .on(table)
      .columns(columns)
      .execute();
  }
}

function sqlIn(column: string, values: string[]) {
  // Literal check constraint; values are constants of this migration, never user input.
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}
