// The money figures, one query each (docs/decisions.md), read from the maintained month tables
// (db/aggregates.ts), never from the books: what the dashboard, budget analysis, the editor's
// budget status, predictions and the AI chat show for the same question is the same number.
// - budgetFigures: the plan (the one plan of each month: the most specific active budget) and
//   the actual expenses, summed by month, category and/or department.
// - expenseMonthSeries: the actual expenses of each category, department and month as kept.
// - revenueFigures: projected (the same rule over revenue projections) and actual revenue.
// - expenseTotals / revenueTotals: the AI chat's sums over any day range: its whole months from
//   the month totals, a partial first or last month from the rows (by the date index).
// No permission checks here: callers check and pass the company scope (null: every company).
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { dialectOf } from '../../../db/dialect.ts';
import type { Db } from '../../platform/context.ts';
import type { Database } from '../../../db/types.ts';

export interface MonthRange {
  companyId: number | null;
  /** 'YYYY-MM', inclusive. */
  from: string;
  to: string;
}

export type BudgetDimension = 'month' | 'category' | 'department';

export interface BudgetFigure {
  /** 'YYYY-MM' when grouped by month. */
  month?: string;
  categoryId?: number;
  departmentId?: number;
  planCents: number;
  actualCents: number;
  /** Expense entries summed into actualCents (0: no expenses, not an expense of 0). */
  actualRows: number;
}

const DIMENSION_COLUMNS = {
  month: 'month',
  category: 'categoryId',
  department: 'departmentId',
  source: 'source',
} as const;

/** Plan and actual expenses of the months, summed by the dimensions asked (none: one total row). */
export async function budgetFigures(
  db: Db,
  range: MonthRange & { departmentId?: number; categoryId?: number },
  by: readonly BudgetDimension[],
): Promise<BudgetFigure[]> {
  const plans = db
    .selectFrom('budgetMonthPlans')
    .select([
      'month',
      'categoryId',
      'departmentId',
      'amountCents as planCents',
      sql<number>`0`.as('actualCents'),
      sql<number>`0`.as('actualRows'),
    ])
    .where('month', '>=', range.from)
    .where('month', '<=', range.to)
    .$if(range.companyId !== null, (q) => q.where('companyId', '=', range.companyId!))
    .$if(range.departmentId !== undefined, (q) => q.where('departmentId', '=', range.departmentId!))
    .$if(range.categoryId !== undefined, (q) => q.where('categoryId', '=', range.categoryId!));
  const actuals = db
    .selectFrom('expenseMonthTotals')
    .select([
      'month',
      'categoryId',
      'departmentId',
      sql<number>`0`.as('planCents'),
      'amountCents as actualCents',
      'rowCount as actualRows',
    ])
    .where('month', '>=', range.from)
    .where('month', '<=', range.to)
    .$if(range.companyId !== null, (q) => q.where('companyId', '=', range.companyId!))
    .$if(range.departmentId !== undefined, (q) => q.where('departmentId', '=', range.departmentId!))
    .$if(range.categoryId !== undefined, (q) => q.where('categoryId', '=', range.categoryId!));
  const columns = by.map((d) => DIMENSION_COLUMNS[d]) as ('month' | 'categoryId' | 'departmentId')[];
  const rows = await db
    .selectFrom(plans.unionAll(actuals).as('f'))
    .select((eb) => [
      ...columns.map((c) => `f.${c}` as const),
      eb.fn.sum<number>('f.planCents').as('planCents'),
      eb.fn.sum<number>('f.actualCents').as('actualCents'),
      eb.fn.sum<number>('f.actualRows').as('actualRows'),
    ])
    .$if(columns.length > 0, (q) => q.groupBy(columns.map((c) => `f.${c}` as const)))
    .execute();
  return rows.map((r) => ({
    ...r,
    planCents: Number(r.planCents ?? 0),
    actualCents: Number(r.actualCents ?? 0),
    actualRows: Number(r.actualRows ?? 0),
  }));
}

/**
 * Actual expenses per category, department and month (months without expenses left out): the
 * series predictions forecast from. A category belongs to one company, so each row is one kept
 * total, read as it is.
 */
export async function expenseMonthSeries(
  db: Db,
  range: MonthRange & { departmentId?: number; categoryId?: number },
): Promise<{ categoryId: number; departmentId: number; month: string; cents: number }[]> {
  const rows = await db
    .selectFrom('expenseMonthTotals')
    .select(['categoryId', 'departmentId', 'month', 'amountCents'])
    .where('month', '>=', range.from)
    .where('month', '<=', range.to)
    .$if(range.companyId !== null, (q) => q.where('companyId', '=', range.companyId!))
    .$if(range.departmentId !== undefined, (q) => q.where('departmentId', '=', range.departmentId!))
    .$if(range.categoryId !== undefined, (q) => q.where('categoryId', '=', range.categoryId!))
    .execute();
  return rows.map((r) => ({
    categoryId: r.categoryId,
    departmentId: r.departmentId,
    month: r.month,
    cents: Number(r.amountCents),
  }));
}

export type RevenueDimension = 'month' | 'source';

export interface RevenueFigure {
  month?: string;
  source?: string;
  projectedCents: number;
  actualCents: number;
  actualRows: number;
}

/** Projected and actual revenue of the months, summed by the dimensions asked. */
export async function revenueFigures(
  db: Db,
  range: MonthRange,
  by: readonly RevenueDimension[],
): Promise<RevenueFigure[]> {
  const plans = db
    .selectFrom('projectionMonthPlans')
    .select([
      'month',
      'source',
      'amountCents as projectedCents',
      sql<number>`0`.as('actualCents'),
      sql<number>`0`.as('actualRows'),
    ])
    .where('month', '>=', range.from)
    .where('month', '<=', range.to)
    .$if(range.companyId !== null, (q) => q.where('companyId', '=', range.companyId!));
  const actuals = db
    .selectFrom('revenueMonthTotals')
    .select([
      'month',
      'source',
      sql<number>`0`.as('projectedCents'),
      'amountCents as actualCents',
      'rowCount as actualRows',
    ])
    .where('month', '>=', range.from)
    .where('month', '<=', range.to)
    .$if(range.companyId !== null, (q) => q.where('companyId', '=', range.companyId!));
  const columns = by.map((d) => DIMENSION_COLUMNS[d]) as ('month' | 'source')[];
  const rows = await db
    .selectFrom(plans.unionAll(actuals).as('f'))
    .select((eb) => [
      ...columns.map((c) => `f.${c}` as const),
      eb.fn.sum<number>('f.projectedCents').as('projectedCents'),
      eb.fn.sum<number>('f.actualCents').as('actualCents'),
      eb.fn.sum<number>('f.actualRows').as('actualRows'),
    ])
    .$if(columns.length > 0, (q) => q.groupBy(columns.map((c) => `f.${c}` as const)))
    .execute();
  return rows.map((r) => ({
    ...r,
    projectedCents: Number(r.projectedCents ?? 0),
    actualCents: Number(r.actualCents ?? 0),
    actualRows: Number(r.actualRows ?? 0),
  }));
}

// ---------------------------------------------------------------------------------------------
// Sums over any day range (the AI chat)

export const TOTAL_GROUPINGS = ['none', 'category', 'department', 'source', 'company', 'month'] as const;
export type TotalGrouping = (typeof TOTAL_GROUPINGS)[number];
export interface DayRange {
  /** 'YYYY-MM-DD', inclusive. */
  from: string;
  to: string;
  groupBy: TotalGrouping;
  /** Expenses of the categories with this name only. */
  category?: string;
}
export type Sums = { label: string; cents: number; count: number }[];

const pad = (n: number) => String(n).padStart(2, '0');
const lastDayOf = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}`;
};
const shiftMonth = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number);
  const at = new Date(Date.UTC(y, m - 1 + n, 1));
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}`;
};

/**
 * A day range as whole months (for the month totals) and the days left at its ends (for the rows).
 * Exported for its test.
 */
export function splitByMonths(
  from: string,
  to: string,
): { months: { from: string; to: string } | null; days: { from: string; to: string }[] } {
  const first = from.endsWith('-01') ? from.slice(0, 7) : shiftMonth(from.slice(0, 7), 1);
  const last = to === lastDayOf(to.slice(0, 7)) ? to.slice(0, 7) : shiftMonth(to.slice(0, 7), -1);
  if (first > last) return { months: null, days: [{ from, to }] };
  const days: { from: string; to: string }[] = [];
  if (from < `${first}-01`) days.push({ from, to: lastDayOf(shiftMonth(first, -1)) });
  if (to > lastDayOf(last)) days.push({ from: `${shiftMonth(last, 1)}-01`, to });
  return { months: { from: first, to: last }, days };
}

const monthOfDay = (db: Db, column: 'expense_date' | 'revenue_date'): RawBuilder<string> =>
  dialectOf(db) === 'postgres'
    ? sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM')`
    : sql<string>`substr(${sql.ref(column)}, 1, 7)`;

/** Expense sums of one company (null: every company) over a day range, with a label per group. */
export async function expenseTotals(
  db: Db,
  companyId: number | null,
  { from, to, groupBy, category }: DayRange,
): Promise<Sums> {
  const split = splitByMonths(from, to);
  // Whole months from the totals, each partial month summed from its rows (a range of the date
  // index each), in the totals' shape; then labelled and summed as one.
  const parts: SelectQueryBuilder<Database, 'expenseMonthTotals' | 'actualExpenses', Database['expenseMonthTotals']>[] =
    [];
  if (split.months) {
    parts.push(
      db
        .selectFrom('expenseMonthTotals')
        .select(['companyId', 'departmentId', 'categoryId', 'month', 'amountCents', 'rowCount'])
        .where('month', '>=', split.months.from)
        .where('month', '<=', split.months.to)
        .$if(companyId !== null, (q) => q.where('companyId', '=', companyId!)),
    );
  }
  for (const days of split.days) {
    const month = monthOfDay(db, 'expense_date');
    parts.push(
      db
        .selectFrom('actualExpenses')
        .select((eb) => [
          'companyId',
          'departmentId',
          'categoryId',
          month.as('month'),
          eb.fn.sum<number>('amountCents').as('amountCents'),
          eb.fn.countAll<number>().as('rowCount'),
        ])
        .where('expenseDate', '>=', days.from)
        .where('expenseDate', '<=', days.to)
        .$if(companyId !== null, (q) => q.where('companyId', '=', companyId!))
        .groupBy(['companyId', 'departmentId', 'categoryId', month]),
    );
  }
  const label = {
    none: sql<string>`''`,
    category: sql<string>`c.name`,
    department: sql<string>`d.name`,
    company: sql<string>`co.name`,
    month: sql<string>`t.month`,
    source: sql<string>`''`,
  }[groupBy];
  const rows = await db
    .selectFrom(parts.reduce((all, part) => all.unionAll(part)).as('t'))
    .innerJoin('expenseCategories as c', 'c.id', 't.categoryId')
    .innerJoin('departments as d', 'd.id', 't.departmentId')
    .innerJoin('companies as co', 'co.id', 't.companyId')
    .select((eb) => [
      label.as('label'),
      eb.fn.sum<number>('t.amountCents').as('cents'),
      eb.fn.sum<number>('t.rowCount').as('count'),
    ])
    .$if(category !== undefined, (q) => q.where('c.name', '=', category!))
    .groupBy('label')
    .execute();
  return rows.map((r) => ({ label: String(r.label ?? ''), cents: Number(r.cents ?? 0), count: Number(r.count ?? 0) }));
}

/** Revenue sums of one company (null: every company) over a day range, with a label per group. */
export async function revenueTotals(db: Db, companyId: number | null, { from, to, groupBy }: DayRange): Promise<Sums> {
  const split = splitByMonths(from, to);
  const parts: SelectQueryBuilder<Database, 'revenueMonthTotals' | 'actualRevenue', Database['revenueMonthTotals']>[] =
    [];
  if (split.months) {
    parts.push(
      db
        .selectFrom('revenueMonthTotals')
        .select(['companyId', 'source', 'month', 'amountCents', 'rowCount'])
        .where('month', '>=', split.months.from)
        .where('month', '<=', split.months.to)
        .$if(companyId !== null, (q) => q.where('companyId', '=', companyId!)),
    );
  }
  for (const days of split.days) {
    const month = monthOfDay(db, 'revenue_date');
    parts.push(
      db
        .selectFrom('actualRevenue')
        .select((eb) => [
          'companyId',
          'source',
          month.as('month'),
          eb.fn.sum<number>('amountCents').as('amountCents'),
          eb.fn.countAll<number>().as('rowCount'),
        ])
        .where('revenueDate', '>=', days.from)
        .where('revenueDate', '<=', days.to)
        .$if(companyId !== null, (q) => q.where('companyId', '=', companyId!))
        .groupBy(['companyId', 'source', month]),
    );
  }
  const label = {
    none: sql<string>`''`,
    source: sql<string>`t.source`,
    company: sql<string>`co.name`,
    month: sql<string>`t.month`,
    category: sql<string>`''`,
    department: sql<string>`''`,
  }[groupBy];
  const rows = await db
    .selectFrom(parts.reduce((all, part) => all.unionAll(part)).as('t'))
    .innerJoin('companies as co', 'co.id', 't.companyId')
    .select((eb) => [
      label.as('label'),
      eb.fn.sum<number>('t.amountCents').as('cents'),
      eb.fn.sum<number>('t.rowCount').as('count'),
    ])
    .groupBy('label')
    .execute();
  return rows.map((r) => ({ label: String(r.label ?? ''), cents: Number(r.cents ?? 0), count: Number(r.count ?? 0) }));
}
