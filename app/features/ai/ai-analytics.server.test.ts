// The AI analytics services over real books on every test dialect: a predictable category, a
// planted outlier and duplicate, a budget overrun, the analytics permission and company scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer, rejection } from '../../../test/assertions.ts';
import { userContext, systemContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { analyzeCompanyBudget, predictExpenses, SELECT_COMPANY } from './ai-analytics.server.ts';
import { dailyExpenses, detectExpenseAnomalies } from './ai-anomalies.server.ts';
import { generateAllInsights, generateInsights, listInsights } from './ai-insights.server.ts';
import { addMonths } from './stats/forecast.ts';
import {
  BudgetAnalysisAnswer,
  ExpenseAnomalyListAnswer,
  ExpensePredictionListAnswer,
  InsightListAnswer,
} from './answers.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { refreshExpenseAnomalies } from './expense-anomalies.server.ts';
import { createRuntime } from '../../platform/runtime.ts';
import { catalogTranslator } from '../shell/catalog-files.server.ts';

const NOW = new Date('2026-11-20T12:00:00Z');

describe.each(TEST_DIALECTS)('AI analytics on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let analyst: ServiceContext;
  let scoped: ServiceContext;
  let plain: ServiceContext;
  let companyId: number;
  let otherCompanyId: number;
  let departmentId: number;
  let categoryId: number;
  let otherCategoryId: number;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    const companies = await db.selectFrom('companies').select(['id', 'name']).orderBy('id').execute();
    companyId = companies[2].id;
    otherCompanyId = companies[3].id;
    departmentId = (await db.selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const category = async (company: number, name: string) =>
      (
        await db
          .insertInto('expenseCategories')
          .values({ companyId: company, departmentId, name })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    categoryId = await category(companyId, `AI Cloud ${dialect}`);
    otherCategoryId = await category(otherCompanyId, `AI Other ${dialect}`);
    const expense = (
      company: number,
      category: number,
      amountCents: number,
      expenseDate: string,
      vendor = 'Cloud Inc',
    ) => ({
      companyId: company,
      departmentId,
      categoryId: category,
      amountCents,
      expenseDate,
      description: 'AI test',
      vendor,
    });
    // 18 months of one $1,000 invoice growing by $40 a month, the last in October 2026.
    const rows = Array.from({ length: 18 }, (_, i) =>
      expense(companyId, categoryId, 100_000 + 4_000 * i, `${addMonths('2025-05', i)}-15`),
    );
    // November 2026: an outlier and the same charge twice.
    rows.push(expense(companyId, categoryId, 2_000_000, '2026-11-10'));
    rows.push(
      expense(companyId, categoryId, 50_000, '2026-11-12', 'Coffee Co'),
      expense(companyId, categoryId, 50_000, '2026-11-12', 'Coffee Co'),
    );
    rows.push(
      expense(otherCompanyId, otherCategoryId, 20_000, '2026-10-11', 'Elsewhere'),
      expense(otherCompanyId, otherCategoryId, 9_999_999, '2026-11-11', 'Elsewhere'),
    );
    await db.insertInto('actualExpenses').values(rows).execute();
    await db
      .insertInto('budgets')
      .values({
        companyId,
        departmentId,
        categoryId,
        amountCents: 1_000_000,
        period: 'annual',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        description: 'AI test',
        status: 'active',
      })
      .execute();

    analyst = await userContext(
      db,
      (await createTestUser(db, { role: 'viewer', flags: { canAccessAnalytics: true } })).id,
    );
    scoped = await userContext(
      db,
      (await createTestUser(db, { role: 'viewer', companyId: otherCompanyId, flags: { canAccessAnalytics: true } })).id,
    );
    plain = await userContext(db, (await createTestUser(db, { role: 'viewer' })).id);
    // Anomalies are read from what the job stored: computed here for the test's day.
    await refreshExpenseAnomalies(db, { now: NOW, force: true });
  });
  afterAll(() => database?.destroy());

  it('predicts the next months of a steady rise from the books', async () => {
    const predictions = await predictExpenses(analyst, { companyId, categoryId, months: 3 }, NOW);
    expectAnswer(ExpensePredictionListAnswer, predictions);
    const [prediction] = predictions;
    expect(prediction).toMatchObject({
      categoryName: `AI Cloud ${dialect}`,
      trend: 'increasing',
      seasonalPattern: false,
      months: 3,
    });
    // November is still being booked (its outlier included): the history ends with October and
    // the prediction starts with November, on the line: $1,720, $1,760, $1,800.
    expect(prediction.history.at(-1)!.month).toBe('2026-10');
    expect(prediction.forecast.map((f) => f.month)).toEqual(['2026-11', '2026-12', '2027-01']);
    expect(prediction.forecast.map((f) => f.amount)).toEqual([1_720, 1_760, 1_800]);
    expect(prediction.predictedAmount).toBe(5_280);
    expect(prediction.confidence).toBe(1);
    expect(prediction.factors[0]).toMatch(/^18-month upward trend/);
  });

  it("finds the planted outlier and duplicate in the last 30 days, none of another company's", async () => {
    const found = (await detectExpenseAnomalies(analyst, { companyId, lookbackDays: '30' }, NOW)).anomalies;
    expectAnswer(ExpenseAnomalyListAnswer, found);
    expect(found.map((f) => [f.anomalyType, f.amount])).toEqual(
      expect.arrayContaining([
        ['unusual_amount', 20_000],
        ['duplicate', 500],
      ]),
    );
    expect(found.every((f) => f.categoryName === `AI Cloud ${dialect}`)).toBe(true);
    expect((await detectExpenseAnomalies(analyst, { companyId, lookbackDays: 7 }, NOW)).anomalies).toEqual([]);
  });

  it('gives the daily totals of an anomaly window, every day, within scope', async () => {
    const days = await dailyExpenses(analyst, { companyId, lookbackDays: 14 }, NOW);
    expect(days).toHaveLength(14);
    expect(days[0].date).toBe('2026-11-07');
    expect(days.at(-1)!.date).toBe('2026-11-20');
    expect(days.filter((d) => d.amount > 0)).toEqual([
      { date: '2026-11-10', amount: 20_000, flagged: 20_000 },
      { date: '2026-11-12', amount: 1_000, flagged: 500 },
    ]);
    expect((await dailyExpenses(scoped, { lookbackDays: 14 }, NOW)).filter((d) => d.amount > 0)).toEqual([
      { date: '2026-11-11', amount: 99_999.99, flagged: null },
    ]);
    await expect(dailyExpenses(scoped, { companyId, lookbackDays: 14 }, NOW)).rejects.toMatchObject({
      kind: 'notFound',
    });
  });

  it("analyzes the budget of a company's year; a company is required", async () => {
    const analysis = await analyzeCompanyBudget(analyst, { companyId: String(companyId), year: '2026' });
    expectAnswer(BudgetAnalysisAnswer, analysis);
    expect(analysis).toMatchObject({ companyId, year: 2026, totalBudget: 10_000 });
    expect(analysis.totalActual).toBeGreaterThan(20_000);
    expect(analysis.variance).toBeCloseTo(analysis.totalActual - 10_000, 2);
    expect(analysis.recommendations[0]).toMatch(
      new RegExp(`^AI Cloud ${dialect} is \\$[\\d,]+ \\(\\d+(\\.\\d)?%\\) over budget`),
    );
    const missing = await rejection(analyzeCompanyBudget(analyst, { year: '2026' }));
    expect(missing.status).toBe(400);
    expect(missing.errors[0].message).toBe(SELECT_COMPANY);
    expect((await rejection(analyzeCompanyBudget(analyst, { companyId, year: '2023' }))).status).toBe(400);
  });

  it('needs the analytics permission; a scoped user sees their own company only (another is a 404)', async () => {
    expect((await rejection(predictExpenses(plain, {}, NOW))).status).toBe(403);
    expect((await rejection(detectExpenseAnomalies(scoped, { companyId }, NOW))).status).toBe(404);
    expect((await rejection(analyzeCompanyBudget(scoped, { companyId, year: 2026 }))).status).toBe(404);
    // Without a company they get their own.
    const own = (await detectExpenseAnomalies(scoped, { lookbackDays: 90 }, NOW)).anomalies;
    expect(own.every((f) => f.categoryName === `AI Other ${dialect}`)).toBe(true);
    const predictions = await predictExpenses(scoped, {}, NOW);
    expect(predictions.map((p) => p.categoryName)).toEqual([`AI Other ${dialect}`]);
  });

  it('refuses bad input with field errors', async () => {
    for (const input of [{ months: 5 }, { months: 'x' }, { companyId: 'abc' }, { departmentId: -1 }]) {
      expect((await rejection(predictExpenses(analyst, input, NOW))).status).toBe(400);
    }
    expect((await rejection(detectExpenseAnomalies(analyst, { lookbackDays: 31 }, NOW))).status).toBe(400);
    expect((await rejection(predictExpenses(analyst, { companyId: 999_999 }, NOW))).status).toBe(404);
  });

  it('insights: computed from the books, stored per company (a new run replaces them), read within scope', async () => {
    const insights = await generateInsights(analyst, companyId, NOW);
    expectAnswer(InsightListAnswer, insights);
    const byType = Object.fromEntries(insights.map((i) => [i.type + (i.title.includes('budget') ? '-budget' : ''), i]));
    expect(byType.forecast.title).toMatch(/^Expenses of the next 3 months: about \$[\d,]+$/);
    expect(byType.trend).toMatchObject({ title: `AI Cloud ${dialect} spending is rising`, impact: 'negative' });
    expect(byType.alert).toMatchObject({ priority: 'critical', title: '1 unusual expense in the last 30 days' });
    expect(byType['alert-budget'].title).toMatch(/^\$[\d,]+ over the 2026 budget$/);
    expect(insights[0].priority).toBe('critical');
    expect(
      insights.every(
        (i) => i.companyId === companyId && i.actionItems.length > 0 && i.generatedAt === NOW.toISOString(),
      ),
    ).toBe(true);

    // Again: replaced, not added.
    await generateInsights(analyst, companyId, NOW);
    expect(await listInsights(analyst, { companyId })).toHaveLength(insights.length);
    // The nightly job: the group and every company; a scoped reader sees their own company's only.
    await generateAllInsights(systemContext(db), NOW);
    expect((await listInsights(analyst, { group: true })).every((i) => i.companyId === null)).toBe(true);
    const own = await listInsights(scoped);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((i) => i.companyId === otherCompanyId)).toBe(true);
    expect((await rejection(listInsights(scoped, { companyId }))).status).toBe(404);
    expect((await rejection(generateInsights(scoped, companyId, NOW))).status).toBe(404);
    expect((await rejection(listInsights(plain))).status).toBe(403);
  });

  it('insights are written in every language when the process has the catalogs; the /api reads English', async () => {
    const withCatalogs = { ...analyst, runtime: createRuntime(undefined, { translator: catalogTranslator() }) };
    const english = await generateInsights(withCatalogs, companyId, NOW);
    const german = await listInsights(analyst, { companyId }, 'de');
    expect(german.map((i) => i.type)).toEqual(english.map((i) => i.type));
    const title = (list: typeof english, type: string) => list.find((i) => i.type === type)!.title;
    expect(title(german, 'trend')).toBe(`Die Ausgaben für AI Cloud ${dialect} steigen`);
    expect(title(german, 'forecast')).toMatch(/^Ausgaben der nächsten 3 Monate: etwa [\d.]+\s\$$/);
    const alert = german.find((i) => i.type === 'alert' && !i.title.includes('Budget'))!;
    expect(alert.title).toBe('1 ungewöhnliche Ausgabe in den letzten 30 Tagen');
    // The stored anomaly's explanation in German too, and its advice.
    expect(alert.description).toMatch(
      /^Am dringendsten: 20\.000\s\$ in AI Cloud \w+ am 10\/11\/2026\. .*liegt weit über/,
    );
    expect(alert.actionItems[0]).toBe('Öffnen Sie Anomalien und prüfen Sie jede markierte Ausgabe');
    // English readers and the /api: the English, unchanged.
    expect(await listInsights(analyst, { companyId })).toEqual(english);
    expect(await listInsights(analyst, { companyId }, 'en')).toEqual(english);
    // Without the catalogs (a process that has none), English only: every reader reads it.
    await generateInsights(analyst, companyId, NOW);
    expect(title(await listInsights(analyst, { companyId }, 'de'), 'trend')).toBe(
      `AI Cloud ${dialect} spending is rising`,
    );
  });

  it('group-wide insights are group totals or name the company their one series belongs to', async () => {
    await generateAllInsights(systemContext(db), NOW);
    const companyName = (
      await db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow()
    ).name;
    const group = await listInsights(analyst, { group: true });
    const rising = group.find((i) => i.title.startsWith(`AI Cloud ${dialect} spending is rising`))!;
    expect(rising.title).toBe(`AI Cloud ${dialect} spending is rising at ${companyName}`);
    expect(rising.description.startsWith(`${companyName}: AI Cloud ${dialect} (`)).toBe(true);
    const alert = group.find((i) => i.type === 'alert')!;
    expect(alert.description).toMatch(
      new RegExp(`^The most pressing: \\$20,000 in AI Cloud ${dialect} at ${companyName} on 2026-11-10\\.`),
    );
    // A company's own insights need no name; the group's forecast is the sum of the companies'.
    const own = await listInsights(analyst, { companyId });
    expect(own.find((i) => i.type === 'trend')!.title).toBe(`AI Cloud ${dialect} spending is rising`);
    const amount = (title: string) => Number(/about \$([\d,]+)/.exec(title)![1].replaceAll(',', ''));
    const forecastOf = async (filter: { group: true } | { companyId: number }) =>
      (await listInsights(analyst, filter)).find((i) => i.type === 'forecast');
    const parts = await Promise.all([companyId, otherCompanyId].map((id) => forecastOf({ companyId: id })));
    const sum = parts.reduce((s, p) => s + (p ? amount(p.title) : 0), 0);
    expect(Math.abs(amount((await forecastOf({ group: true }))!.title) - sum)).toBeLessThanOrEqual(2);
  });
});
