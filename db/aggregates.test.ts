// The maintained money figures (db/aggregates.ts) on both databases, against planted rows: the
// plan rule (monthly over quarterly over annual, spread by months, pending and expired left out,
// never two added), month totals following inserts, updates and deletes inside the writer's
// transaction, and a rebuild from the rows giving exactly what the triggers kept.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { aggregatesAgainstRows } from '../test/aggregates.ts';
import { generateData } from './generate.ts';

describe.each(TEST_DIALECTS)('money aggregates on %s', (dialect) => {
  let database: TestDatabase;
  let a: number;
  let b: number;
  let departmentId: number;
  let otherDepartment: number;
  let categoryA: number;
  let otherCategoryA: number;
  let categoryB: number;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    const db = database.db;
    [a, b] = (await db.selectFrom('companies').select('id').orderBy('id').execute()).map((c) => c.id);
    [departmentId, otherDepartment] = (
      await db.selectFrom('departments').select('id').orderBy('id').limit(2).execute()
    ).map((d) => d.id);
    [categoryA, otherCategoryA] = (
      await db.selectFrom('expenseCategories').select('id').where('companyId', '=', a).orderBy('id').limit(2).execute()
    ).map((c) => c.id);
    categoryB = (
      await db
        .selectFrom('expenseCategories')
        .select('id')
        .where('companyId', '=', b)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => database?.destroy());

  type Period = 'monthly' | 'quarterly' | 'annual';
  type Status = 'active' | 'pending' | 'expired';
  const budget = (
    period: Period,
    startDate: string,
    endDate: string,
    amountCents: number,
    status: Status = 'active',
    categoryId = categoryA,
  ) =>
    database.db
      .insertInto('budgets')
      .values({
        companyId: a,
        departmentId,
        categoryId,
        amountCents,
        period,
        startDate,
        endDate,
        description: null,
        status,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => r.id);

  /** The plans of category A's months in a year: month → [cents, period, budget id]. */
  async function plans(year: number, categoryId = categoryA) {
    const rows = await database.db
      .selectFrom('budgetMonthPlans')
      .select(['month', 'amountCents', 'period', 'budgetId', 'months'])
      .where('categoryId', '=', categoryId)
      .where('departmentId', '=', departmentId)
      .where('month', '>=', `${year}-01`)
      .where('month', '<=', `${year}-12`)
      .orderBy('month')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.month, [Number(r.amountCents), r.period, r.budgetId]]));
  }

  it('a month takes the most specific active budget: monthly over quarterly over annual, latest id among equals, never two added', async () => {
    const annual = await budget('annual', '2025-01-01', '2025-12-31', 1_200_000);
    const quarter = await budget('quarterly', '2025-04-01', '2025-06-30', 600_000);
    const may = await budget('monthly', '2025-05-01', '2025-05-31', 50_000);
    const mayAgain = await budget('monthly', '2025-05-01', '2025-05-31', 70_000);
    // Left out: a pending June and a withdrawn (expired) third quarter.
    await budget('monthly', '2025-06-01', '2025-06-30', 999_900, 'pending');
    const q3 = await budget('quarterly', '2025-07-01', '2025-09-30', 999_900, 'expired');
    const months = await plans(2025);
    expect(Object.keys(months)).toHaveLength(12);
    expect(months['2025-01']).toEqual([100_000, 'annual', annual]);
    expect(months['2025-04']).toEqual([200_000, 'quarterly', quarter]);
    expect(months['2025-05']).toEqual([70_000, 'monthly', mayAgain]);
    expect(months['2025-06']).toEqual([200_000, 'quarterly', quarter]);
    expect(months['2025-08']).toEqual([100_000, 'annual', annual]);
    expect(Object.values(months).reduce((s, [c]) => s + (c as number), 0)).toBe(100_000 * 9 + 200_000 * 2 + 70_000);

    // The later May budget goes: the earlier one takes over; withdrawn too: the quarter's share.
    await database.db.deleteFrom('budgets').where('id', '=', mayAgain).execute();
    expect((await plans(2025))['2025-05']).toEqual([50_000, 'monthly', may]);
    await database.db.updateTable('budgets').set({ status: 'expired' }).where('id', '=', may).execute();
    expect((await plans(2025))['2025-05']).toEqual([200_000, 'quarterly', quarter]);
    // The third quarter becomes active again; the quarter moves out of the year.
    await database.db.updateTable('budgets').set({ status: 'active' }).where('id', '=', q3).execute();
    await database.db
      .updateTable('budgets')
      .set({ startDate: '2024-04-01', endDate: '2024-06-30' })
      .where('id', '=', quarter)
      .execute();
    const after = await plans(2025);
    expect(after['2025-05']).toEqual([100_000, 'annual', annual]);
    expect(after['2025-08']).toEqual([333_300, 'quarterly', q3]);
    expect((await plans(2024))['2024-05']).toEqual([200_000, 'quarterly', quarter]);
  });

  it('spreads a budget evenly over its calendar months (not its days), the months adding up to the amount', async () => {
    // Mid-January to mid-March: three months, a third each, whatever their days.
    await budget('quarterly', '2023-01-15', '2023-03-14', 300_000, 'active', otherCategoryA);
    const months = await plans(2023, otherCategoryA);
    expect(Object.values(months).map((m) => m[0])).toEqual([100_000, 100_000, 100_000]);
    // 1,000,001 cents over twelve months: whole cents, no cent lost.
    await budget('annual', '2022-01-01', '2022-12-31', 1_000_001, 'active', otherCategoryA);
    const year = Object.values(await plans(2022, otherCategoryA)).map((m) => m[0] as number);
    expect(year).toHaveLength(12);
    expect(year.reduce((s, c) => s + c, 0)).toBe(1_000_001);
    expect(Math.max(...year) - Math.min(...year)).toBeLessThanOrEqual(1);
    const row = await database.db
      .selectFrom('budgetMonthPlans')
      .select('months')
      .where('categoryId', '=', otherCategoryA)
      .where('month', '=', '2022-06')
      .executeTakeFirstOrThrow();
    expect(row.months).toBe(12);
  });

  it('revenue projections follow the same rule per company and source', async () => {
    const projection = (
      period: Period,
      startDate: string,
      endDate: string,
      amountCents: number,
      status: Status = 'active',
    ) =>
      database.db
        .insertInto('revenueProjections')
        .values({
          companyId: b,
          source: 'Planned Fees',
          amountCents,
          period,
          startDate,
          endDate,
          description: null,
          status,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((r) => r.id);
    const annual = await projection('annual', '2025-01-01', '2025-12-31', 2_400_000);
    const march = await projection('monthly', '2025-03-01', '2025-03-31', 123_400);
    await projection('monthly', '2025-04-01', '2025-04-30', 999_900, 'pending');
    const rows = await database.db
      .selectFrom('projectionMonthPlans')
      .select(['month', 'amountCents', 'projectionId'])
      .where('companyId', '=', b)
      .where('source', '=', 'Planned Fees')
      .orderBy('month')
      .execute();
    expect(rows).toHaveLength(12);
    expect(rows.find((r) => r.month === '2025-03')).toMatchObject({ amountCents: 123_400, projectionId: march });
    expect(rows.find((r) => r.month === '2025-04')).toMatchObject({ amountCents: 200_000, projectionId: annual });
  });

  /** The expense month totals of company a and b, and the same summed from the rows. */
  async function totalsAgainstRows() {
    const month = dialect === 'postgres' ? sql`to_char(expense_date, 'YYYY-MM')` : sql`substr(expense_date, 1, 7)`;
    const kept = await database.db
      .selectFrom('expenseMonthTotals')
      .select(['companyId', 'departmentId', 'categoryId', 'month', 'amountCents', 'rowCount'])
      .orderBy('companyId')
      .orderBy('departmentId')
      .orderBy('categoryId')
      .orderBy('month')
      .execute();
    const summed = await database.db
      .selectFrom('actualExpenses')
      .select((eb) => [
        'companyId',
        'departmentId',
        'categoryId',
        month.as('month'),
        eb.fn.sum<number>('amountCents').as('amountCents'),
        eb.fn.countAll<number>().as('rowCount'),
      ])
      .groupBy(['companyId', 'departmentId', 'categoryId', month])
      .orderBy('companyId')
      .orderBy('departmentId')
      .orderBy('categoryId')
      .orderBy('month')
      .execute();
    const norm = (rows: Record<string, unknown>[]) =>
      rows.map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && k !== 'month' ? Number(v) : v]),
        ),
      );
    return [norm(kept), norm(summed)];
  }
  const total = async (companyId: number, categoryId: number, month: string) =>
    (await database.db
      .selectFrom('expenseMonthTotals')
      .select(['amountCents', 'rowCount'])
      .where('companyId', '=', companyId)
      .where('categoryId', '=', categoryId)
      .where('month', '=', month)
      .executeTakeFirst()) ?? null;

  it("month totals follow inserts, updates (date, company, category, department, amount) and deletes, in the writer's transaction", async () => {
    const db = database.db;
    const expense = {
      companyId: a,
      departmentId,
      categoryId: categoryA,
      description: 'Planted',
      vendor: null,
      receiptNumber: null,
    };
    const ids = await db
      .insertInto('actualExpenses')
      .values([
        { ...expense, amountCents: 1_000, expenseDate: '2025-03-05' },
        { ...expense, amountCents: 2_000, expenseDate: '2025-03-31' },
        { ...expense, amountCents: 4_000, expenseDate: '2025-04-01' },
      ])
      .returning('id')
      .execute()
      .then((rows) => rows.map((r) => r.id));
    expect(await total(a, categoryA, '2025-03')).toEqual({ amountCents: 3_000, rowCount: 2 });

    await db.transaction().execute(async (trx) => {
      await trx.updateTable('actualExpenses').set({ expenseDate: '2025-04-15' }).where('id', '=', ids[0]).execute();
      // Seen inside the transaction, before it commits.
      const inside = await trx
        .selectFrom('expenseMonthTotals')
        .select(['amountCents', 'rowCount'])
        .where('companyId', '=', a)
        .where('categoryId', '=', categoryA)
        .where('month', '=', '2025-04')
        .executeTakeFirstOrThrow();
      expect(inside).toEqual({ amountCents: 5_000, rowCount: 2 });
    });
    expect(await total(a, categoryA, '2025-03')).toEqual({ amountCents: 2_000, rowCount: 1 });

    // A rolled-back write leaves the totals as they were.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('actualExpenses')
          .values({ ...expense, amountCents: 7_777, expenseDate: '2025-03-10' })
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await total(a, categoryA, '2025-03')).toEqual({ amountCents: 2_000, rowCount: 1 });

    await db.updateTable('actualExpenses').set({ amountCents: 2_500 }).where('id', '=', ids[1]).execute();
    expect(await total(a, categoryA, '2025-03')).toEqual({ amountCents: 2_500, rowCount: 1 });
    await db
      .updateTable('actualExpenses')
      .set({ companyId: b, categoryId: categoryB })
      .where('id', '=', ids[1])
      .execute();
    expect(await total(a, categoryA, '2025-03')).toBeNull();
    expect(await total(b, categoryB, '2025-03')).toEqual({ amountCents: 2_500, rowCount: 1 });
    await db
      .updateTable('actualExpenses')
      .set({ categoryId: otherCategoryA, departmentId: otherDepartment })
      .where('id', '=', ids[2])
      .execute();
    expect(await total(a, otherCategoryA, '2025-04')).toEqual({ amountCents: 4_000, rowCount: 1 });
    expect(await total(a, categoryA, '2025-04')).toEqual({ amountCents: 1_000, rowCount: 1 });
    await db.deleteFrom('actualExpenses').where('id', '=', ids[0]).execute();
    expect(await total(a, categoryA, '2025-04')).toBeNull();

    const [kept, summed] = await totalsAgainstRows();
    expect(kept).toEqual(summed);
  });

  it('revenue month totals follow their rows too', async () => {
    const db = database.db;
    const id = (
      await db
        .insertInto('actualRevenue')
        .values({ companyId: b, source: 'Planted', amountCents: 900, revenueDate: '2025-02-28' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .updateTable('actualRevenue')
      .set({ source: 'Planted 2', revenueDate: '2025-03-01', amountCents: 901 })
      .where('id', '=', id)
      .execute();
    const rows = await db
      .selectFrom('revenueMonthTotals')
      .select(['source', 'month', 'amountCents', 'rowCount'])
      .where('companyId', '=', b)
      .where('source', 'like', 'Planted%')
      .execute();
    expect(rows).toEqual([{ source: 'Planted 2', month: '2025-03', amountCents: 901, rowCount: 1 }]);
  });

  it('a statement of many rows (an import batch) keeps what a rebuild gives: plans with ties, totals, counts', async () => {
    const db = database.db;
    const periods: Period[] = ['monthly', 'quarterly', 'annual'];
    const statuses: Status[] = ['active', 'active', 'pending'];
    // Overlapping rows of the same keys, ranks tied within the statement and with earlier rows.
    const budgets = Array.from({ length: 90 }, (_, i) => {
      const period = periods[i % 3];
      const start = `2024-${String((i % 12) + 1).padStart(2, '0')}-${i % 2 ? '15' : '01'}`;
      const months = period === 'monthly' ? 1 : period === 'quarterly' ? 3 : 12;
      const end = new Date(Date.UTC(2024, (i % 12) + months, 0)).toISOString().slice(0, 10);
      return {
        companyId: a,
        departmentId: i % 4 ? departmentId : otherDepartment,
        categoryId: i % 5 ? categoryA : otherCategoryA,
        amountCents: 1_000 + i * 37,
        period,
        startDate: start,
        endDate: end,
        description: null,
        status: statuses[i % 3],
      };
    });
    const projections = budgets.map((row, i) => ({
      companyId: b,
      source: i % 2 ? 'Batch Fees' : 'Planned Fees',
      amountCents: row.amountCents,
      period: row.period,
      startDate: row.startDate,
      endDate: row.endDate,
      description: null,
      status: row.status,
    }));
    const expenses = budgets.map((row, i) => ({
      companyId: a,
      departmentId: row.departmentId,
      categoryId: row.categoryId,
      amountCents: row.amountCents,
      expenseDate: `2024-0${(i % 9) + 1}-1${i % 10}`,
      description: 'Batch',
      vendor: null,
      receiptNumber: null,
    }));
    const countsBefore = await rowCounts();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('budgets').values(budgets).execute();
      await trx.insertInto('revenueProjections').values(projections).execute();
      await trx.insertInto('actualExpenses').values(expenses).execute();
      await trx
        .insertInto('actualRevenue')
        .values(
          expenses.map((e, i) => ({
            companyId: b,
            source: i % 2 ? 'Batch' : 'Planted',
            amountCents: e.amountCents,
            revenueDate: e.expenseDate,
          })),
        )
        .execute();
    });
    const [kept, rebuilt] = await aggregatesAgainstRows(db);
    expect(kept.budget_month_plans.length).toBeGreaterThan(24);
    expect(kept).toEqual(rebuilt);
    const counts = await rowCounts();
    expect(counts.budgets - countsBefore.budgets).toBe(90);
    expect(counts.actual_expenses - countsBefore.actual_expenses).toBe(90);
    for (const table of ['budgets', 'actual_expenses', 'revenue_projections', 'actual_revenue'])
      expect(counts[table]).toBe(await rowsIn(table));
  });

  async function rowCounts(): Promise<Record<string, number>> {
    const rows = await database.db
      .selectFrom('rowCounts')
      .select(['tableName', (eb) => eb.fn.sum<number>('rowCount').as('rows')])
      .groupBy('tableName')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.tableName, Number(r.rows)]));
  }
  const rowsIn = async (table: string) =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(database.db)).rows[0].n);

  it('finhub db generate builds them again after a load with the triggers off', async () => {
    await generateData(database, { rows: 50_000, url: database.url, seed: 11 });
    const [kept, rebuilt] = await aggregatesAgainstRows(database.db);
    expect(kept.expense_month_totals.length).toBeGreaterThan(100);
    expect(kept).toEqual(rebuilt);
  }, 120_000);

  it('a rebuild from the rows gives exactly what the triggers kept', async () => {
    const [kept, rebuilt] = await aggregatesAgainstRows(database.db);
    expect(kept.budget_month_plans.length).toBeGreaterThan(12);
    expect(kept).toEqual(rebuilt);
  });
});
