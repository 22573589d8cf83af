// The same question gets the same figure everywhere, on planted books with an annual budget and
// a monthly one for the same month (never added): the dashboard's months, budget analysis, My
// Dashboard's variances and the AI chat's totals; and the chat's sums over ranges that start or
// end inside a month equal the rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { analyzeCompanyBudget } from '../ai/ai-analytics.server.ts';
import { ledgerTotals } from '../ai/ai-books.server.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { dashboardCharts } from '../dashboards/dashboard-charts.server.ts';
import { editorMetrics } from '../dashboards/editor-dashboard.server.ts';
import { splitByMonths } from './figures.server.ts';

describe('splitByMonths', () => {
  it('whole months for the month totals, the days at either end for the rows', () => {
    expect(splitByMonths('2025-01-01', '2025-12-31')).toEqual({ months: { from: '2025-01', to: '2025-12' }, days: [] });
    expect(splitByMonths('2025-03-15', '2025-05-10')).toEqual({
      months: { from: '2025-04', to: '2025-04' },
      days: [
        { from: '2025-03-15', to: '2025-03-31' },
        { from: '2025-05-01', to: '2025-05-10' },
      ],
    });
    expect(splitByMonths('2024-02-01', '2024-02-29')).toEqual({ months: { from: '2024-02', to: '2024-02' }, days: [] });
    expect(splitByMonths('2025-03-02', '2025-03-31')).toEqual({
      months: null,
      days: [{ from: '2025-03-02', to: '2025-03-31' }],
    });
    expect(splitByMonths('2025-03-02', '2025-04-30')).toEqual({
      months: { from: '2025-04', to: '2025-04' },
      days: [{ from: '2025-03-02', to: '2025-03-31' }],
    });
    expect(splitByMonths('2025-12-01', '2026-01-05')).toEqual({
      months: { from: '2025-12', to: '2025-12' },
      days: [{ from: '2026-01-01', to: '2026-01-05' }],
    });
  });
});

describe.each(TEST_DIALECTS)('one figure per question on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let analyst: ServiceContext;
  let companyId: number;
  let categoryId: number;
  const expenses: { amountCents: number; expenseDate: string }[] = [];

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    companyId = (await db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const departmentId = (await db.selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    categoryId = (
      await db
        .insertInto('expenseCategories')
        .values({ companyId, departmentId, name: `Figures ${dialect}`, description: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const user = await createTestUser(db, {
      role: 'editor',
      companyId,
      flags: { canAccessFinancialData: true, canAccessAnalytics: true },
    });
    analyst = await userContext(db, user.id);
    const plan = { companyId, departmentId, categoryId, description: null, status: 'active' as const };
    // 2025: $12,000 for the year ($1,000 a month), March planned on its own at $2,000: $13,000.
    await db
      .insertInto('budgets')
      .values([
        { ...plan, period: 'annual', amountCents: 1_200_000, startDate: '2025-01-01', endDate: '2025-12-31' },
        { ...plan, period: 'monthly', amountCents: 200_000, startDate: '2025-03-01', endDate: '2025-03-31' },
        // Withdrawn and proposed budgets are no plan at all.
        {
          ...plan,
          period: 'monthly',
          amountCents: 900_000,
          startDate: '2025-04-01',
          endDate: '2025-04-30',
          status: 'expired',
        },
        {
          ...plan,
          period: 'quarterly',
          amountCents: 900_000,
          startDate: '2025-10-01',
          endDate: '2025-12-31',
          status: 'pending',
        },
      ])
      .execute();
    for (const [day, cents] of [
      ['2025-01-31', 90_000],
      ['2025-03-01', 150_000],
      ['2025-03-14', 20_000],
      ['2025-03-15', 30_000],
      ['2025-03-31', 5_000],
      ['2025-04-10', 80_000],
      ['2025-05-01', 7_000],
      ['2025-05-10', 11_000],
      ['2025-05-11', 13_000],
      ['2025-12-31', 120_000],
    ] as const) {
      expenses.push({ amountCents: cents, expenseDate: day });
    }
    await db
      .insertInto('actualExpenses')
      .values(
        expenses.map((e) => ({
          ...e,
          companyId,
          departmentId,
          categoryId,
          description: 'Planted',
          vendor: null,
          receiptNumber: null,
        })),
      )
      .execute();
    await db
      .insertInto('revenueProjections')
      .values({
        companyId,
        source: 'Figures',
        amountCents: 2_400_000,
        period: 'annual',
        startDate: '2025-01-01',
        endDate: '2025-12-31',
        description: null,
        status: 'active',
      })
      .execute();
    await db
      .insertInto('actualRevenue')
      .values([
        { companyId, source: 'Figures', amountCents: 210_000, revenueDate: '2025-06-30' },
        { companyId, source: 'Figures', amountCents: 190_000, revenueDate: '2025-07-01' },
      ])
      .execute();
  });
  afterAll(() => database?.destroy());

  const spent = (from: string, to: string) =>
    expenses.filter((e) => e.expenseDate >= from && e.expenseDate <= to).reduce((s, e) => s + e.amountCents, 0) / 100;

  it('the dashboard, budget analysis, My Dashboard and the chat agree on 2025', async () => {
    const charts = await dashboardCharts(analyst, new Date('2025-12-15T12:00:00Z'));
    expect(charts.months[0]).toBe('2025-01');
    const planned = charts.budgetVsActual.reduce((s, m) => s + m.planned, 0);
    const actual = charts.budgetVsActual.reduce((s, m) => s + m.actual, 0);
    expect(charts.budgetVsActual.find((m) => m.month === '2025-03')!.planned).toBe(2_000);
    expect(charts.budgetVsActual.find((m) => m.month === '2025-04')!.planned).toBe(1_000);
    expect(charts.budgetVsActual.find((m) => m.month === '2025-11')!.planned).toBe(1_000);
    expect(planned).toBe(13_000);
    expect(actual).toBe(spent('2025-01-01', '2025-12-31'));

    const analysis = await analyzeCompanyBudget(analyst, { companyId, year: 2025 });
    expect(analysis).toMatchObject({ totalBudget: planned, totalActual: actual });
    expect(analysis.categories).toEqual([expect.objectContaining({ budget: 13_000, actual })]);

    // The last day of the year: the whole year is "to date".
    const editor = await editorMetrics(analyst, new Date('2025-12-31T12:00:00Z'));
    expect(editor.departmentPerformance[0].variance).toBe(analysis.variancePercentage);

    const chat = await ledgerTotals(analyst, {
      ledger: 'expenses',
      companyId,
      from: '2025-01-01',
      to: '2025-12-31',
      groupBy: 'month',
    });
    expect(chat.total).toBe(actual);
    for (const group of chat.groups)
      expect(group.amount).toBe(charts.budgetVsActual.find((m) => m.month === group.label)!.actual);

    const revenue = await ledgerTotals(analyst, {
      ledger: 'revenue',
      companyId,
      from: '2025-06-01',
      to: '2025-07-31',
      groupBy: 'none',
    });
    const months = charts.revenue.filter((m) => m.month === '2025-06' || m.month === '2025-07');
    expect(revenue.total).toBe(months.reduce((s, m) => s + m.actual, 0));
    expect(months.map((m) => m.planned)).toEqual([2_000, 2_000]);
  });

  it('the chat sums a range starting or ending inside a month as the rows do, grouped the same way', async () => {
    for (const [from, to] of [
      ['2025-03-15', '2025-05-10'],
      ['2025-03-02', '2025-03-31'],
      ['2025-03-14', '2025-03-14'],
      ['2025-01-31', '2025-12-30'],
      ['2025-02-01', '2025-05-10'],
    ] as const) {
      const totals = await ledgerTotals(analyst, { ledger: 'expenses', companyId, from, to, groupBy: 'none' });
      expect(totals.total, `${from}..${to}`).toBe(spent(from, to));
      expect(totals.count, `${from}..${to}`).toBe(
        expenses.filter((e) => e.expenseDate >= from && e.expenseDate <= to).length,
      );
      const byMonth = await ledgerTotals(analyst, { ledger: 'expenses', companyId, from, to, groupBy: 'month' });
      for (const group of byMonth.groups)
        expect(group.amount, `${group.label} of ${from}..${to}`).toBe(
          spent(
            from < `${group.label}-01` ? `${group.label}-01` : from,
            to > `${group.label}-31` ? `${group.label}-31` : to,
          ),
        );
      const byCategory = await ledgerTotals(analyst, {
        ledger: 'expenses',
        companyId,
        from,
        to,
        groupBy: 'category',
        category: `Figures ${dialect}`,
      });
      expect(byCategory.groups.map((g) => [g.label, g.amount])).toEqual(
        totals.count ? [[`Figures ${dialect}`, spent(from, to)]] : [],
      );
    }
    const revenue = await ledgerTotals(analyst, {
      ledger: 'revenue',
      companyId,
      from: '2025-06-30',
      to: '2025-07-15',
      groupBy: 'source',
    });
    expect(revenue.groups).toEqual([{ label: 'Figures', amount: 4_000, count: 2 }]);
  });
});
