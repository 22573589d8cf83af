// The demo seed (docs/data-model.md): 36 months of plausible figures for every company, consistent with
// the reference data and the finance tables' constraints; nothing at all with demo off.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, OWNER_PASSWORD, TEST_DIALECTS, type TestDatabase } from '../../test/database.ts';
import { migrateToLatest } from '../migrate.ts';
import { prepareDatabase } from '../../app/features/system/bootstrap.server.ts';
import { buildDemoRows, DEMO_MONTHS, demoMonths, loadDemoReference, revenueSourcesFor } from './demo.ts';
import { seedModules } from './index.ts';
import type { ServiceContext } from '../../app/platform/context.ts';
import { systemActor } from '../../app/platform/context.ts';
import { getRecord, listRecords } from '../../app/platform/resources/resources.server.ts';
import {
  networkAccessRecords,
  networkBroadbandRecords,
  networkSubscriptionPatterns,
} from '../../app/features/company-metrics/one-network.ts';

const FINANCE_TABLES = [
  'budgets',
  'actualExpenses',
  'revenueProjections',
  'actualRevenue',
  'subscriberMetrics',
] as const;
const METRIC_TABLES = [
  'broadbandConnections',
  'mobileSubscriptions',
  'mobileAccessMethods',
  'networkBroadbandRecords',
  'networkSubscriptionPatterns',
  'networkAccessRecords',
  'vultSubscriberMetrics',
  'vultSubscriberLevels',
  'vultCardTypes',
] as const;
type FinanceTable = (typeof FINANCE_TABLES)[number] | (typeof METRIC_TABLES)[number];

const MOBILE_METRICS = [
  'new_subscribers',
  'active_subscribers',
  'churned_subscribers',
  'arpu',
  'data_usage',
  'voice_minutes',
  'sms_count',
  'roaming_revenue',
];
const FINTECH_METRICS = [
  'new_users',
  'active_users',
  'transaction_volume',
  'transaction_count',
  'aum',
  'loan_origination',
  'default_rate',
  'customer_acquisition_cost',
];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const utcToday = () => new Date().toISOString().slice(0, 10);

async function countsByCompany(database: TestDatabase, table: FinanceTable): Promise<Map<number, number>> {
  const rows = await database.db
    .selectFrom(table)
    .select((eb) => ['companyId', eb.fn.countAll().as('n')])
    .groupBy('companyId')
    .execute();
  return new Map(rows.map((r) => [r.companyId, Number(r.n)]));
}

async function total(database: TestDatabase, table: FinanceTable): Promise<number> {
  return Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

describe.each(TEST_DIALECTS)('demo seed on %s', (dialect) => {
  let database: TestDatabase;
  let companies: { id: number; name: string; type: string }[];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // createPreparedDatabase seeds without demo figures; this is the same preparation with them.
    const { seeded } = await prepareDatabase(database, {
      seedDemo: true,
      owner: { email: 'owner@example.com', password: OWNER_PASSWORD },
    });
    expect(seeded).toEqual(['reference', 'demo', 'company-metrics']);
    companies = await database.db.selectFrom('companies').select(['id', 'name', 'type']).orderBy('id').execute();
  });
  afterAll(() => database?.destroy());

  it('fills every finance table for every company it applies to', async () => {
    expect(companies.map((c) => c.name)).toEqual(['One Network', 'Vult', 'Atlas Infrastructure', 'Spark Marketing']);
    for (const table of ['budgets', 'actualExpenses', 'revenueProjections', 'actualRevenue'] as const) {
      const counts = await countsByCompany(database, table);
      for (const company of companies)
        expect(counts.get(company.id) ?? 0, `${table} of ${company.name}`).toBeGreaterThan(0);
    }
    const metrics = await countsByCompany(database, 'subscriberMetrics');
    for (const company of companies) {
      const expected = company.type === 'mobile' || company.type === 'fintech' ? 8 * DEMO_MONTHS : 0;
      expect(metrics.get(company.id) ?? 0, `subscriber metrics of ${company.name}`).toBe(expected);
    }
  });

  it('fills the company metric tables: 36 months per company they apply to, one row per month and type', async () => {
    const expected: Record<(typeof METRIC_TABLES)[number], (c: { name: string; type: string }) => number> = {
      broadbandConnections: (c) =>
        c.name === 'One Network' ? 2 : c.type === 'infrastructure' || c.type === 'mobile' ? 3 : 0,
      mobileSubscriptions: (c) => (c.type === 'mobile' ? 3 : 0),
      mobileAccessMethods: (c) => (c.type === 'mobile' ? 4 : 0),
      // Views: a company's month of the rows above.
      networkBroadbandRecords: (c) => (c.type === 'infrastructure' || c.type === 'mobile' ? 1 : 0),
      networkSubscriptionPatterns: (c) => (c.type === 'mobile' ? 1 : 0),
      networkAccessRecords: (c) => (c.type === 'mobile' ? 1 : 0),
      vultSubscriberMetrics: (c) => (c.type === 'fintech' ? 1 : 0),
      vultSubscriberLevels: (c) => (c.type === 'fintech' ? 4 : 0),
      vultCardTypes: (c) => (c.type === 'fintech' ? 6 : 0),
    };
    for (const table of METRIC_TABLES) {
      const counts = await countsByCompany(database, table);
      for (const company of companies)
        expect(counts.get(company.id) ?? 0, `${table} of ${company.name}`).toBe(expected[table](company) * DEMO_MONTHS);
    }
  });

  it("holds the documented broadband figures as One Network's latest month, read the same on both screens' records", async () => {
    const now = new Date();
    const latest = { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
    const ctx = { db: database.db, actor: systemActor(), meta: {} } as unknown as ServiceContext;
    const broadband = await getRecord(ctx, networkBroadbandRecords, latest.year * 100 + latest.month);
    expect([broadband.totalBroadband, broadband.newConnections, broadband.churnConnections]).toEqual([2144, 17, 32]);
    expect(Number(broadband.fixedBroadband) + Number(broadband.fixedFwa5gRouter)).toBe(2144);
    expect(Number(broadband.fixedBroadbandPercentage) + Number(broadband.fixedFwa5gRouterPercentage)).toBeCloseTo(
      100,
      5,
    );
    const access = await getRecord(ctx, networkAccessRecords, latest.year * 100 + latest.month);
    expect(access.mifiDevices).toBe(679);
    // The per-company network data of the same month is what the record reads.
    const oneNetwork = companies.find((c) => c.name === 'One Network')!;
    const connections = await database.db
      .selectFrom('broadbandConnections')
      .selectAll()
      .where('companyId', '=', oneNetwork.id)
      .where('year', '=', latest.year)
      .where('month', '=', latest.month)
      .execute();
    expect(connections.reduce((sum, r) => sum + Number(r.activeConnections), 0)).toBe(2144);
    expect(connections.reduce((sum, r) => sum + Number(r.newThisMonth), 0)).toBe(17);
    expect(connections.reduce((sum, r) => sum + Number(r.churnThisMonth), 0)).toBe(32);
  });

  it("agrees with Mobile Metrics every month: One Network's subscriptions and devices are its active subscribers", async () => {
    const ctx = { db: database.db, actor: systemActor(), meta: {} } as unknown as ServiceContext;
    const oneNetwork = companies.find((c) => c.name === 'One Network')!;
    const metrics = await database.db
      .selectFrom('subscriberMetrics')
      .select(['metricName', 'metricValueHundredths', 'recordDate'])
      .where('companyId', '=', oneNetwork.id)
      .where('metricName', 'in', ['active_subscribers', 'new_subscribers', 'churned_subscribers'])
      .execute();
    const patterns = (await listRecords(ctx, networkSubscriptionPatterns, { limit: 100, offset: 0 })).rows;
    const devices = (await listRecords(ctx, networkAccessRecords, { limit: 100, offset: 0 })).rows;
    expect(patterns).toHaveLength(DEMO_MONTHS);
    expect(devices).toHaveLength(DEMO_MONTHS);
    for (const pattern of patterns) {
      const day = `${pattern.year}-${String(pattern.month).padStart(2, '0')}`;
      const metric = (name: string) =>
        Number(
          metrics.find((m) => m.metricName === name && String(m.recordDate).startsWith(day))?.metricValueHundredths,
        ) / 100;
      expect(metric('active_subscribers'), day).toBeGreaterThan(500_000);
      expect(pattern.totalMobileSubscriptions, day).toBe(metric('active_subscribers'));
      expect(Number(pattern.dailyNew) + Number(pattern.weeklyNew) + Number(pattern.monthlyNew), day).toBe(
        metric('new_subscribers'),
      );
      expect(Number(pattern.dailyChurn) + Number(pattern.weeklyChurn) + Number(pattern.monthlyChurn), day).toBe(
        metric('churned_subscribers'),
      );
      const access = devices.find((d) => d.year === pattern.year && d.month === pattern.month)!;
      expect(access.totalDevices, day).toBe(metric('active_subscribers'));
    }
  });

  it('keeps Vult figures consistent: levels add up to the subscribers, cards to the card holders', async () => {
    const vult = companies.find((c) => c.type === 'fintech')!;
    const metrics = await database.db
      .selectFrom('vultSubscriberMetrics')
      .selectAll()
      .where('companyId', '=', vult.id)
      .execute();
    expect(metrics).toHaveLength(DEMO_MONTHS);
    for (const m of metrics.slice(0, 3)) {
      const levels = await database.db
        .selectFrom('vultSubscriberLevels')
        .select('subscriberCount')
        .where('companyId', '=', vult.id)
        .where('year', '=', m.year)
        .where('month', '=', m.month)
        .execute();
      expect(levels.reduce((sum, r) => sum + Number(r.subscriberCount), 0)).toBe(Number(m.totalSubscribers));
      const cards = await database.db
        .selectFrom('vultCardTypes')
        .select('cardCount')
        .where('companyId', '=', vult.id)
        .where('year', '=', m.year)
        .where('month', '=', m.month)
        .execute();
      expect(cards.reduce((sum, r) => sum + Number(r.cardCount), 0)).toBe(Number(m.cardHolders));
      expect(Number(m.cardAdoptionRateHundredths)).toBeGreaterThan(0);
      expect(Number(m.cardAdoptionRateHundredths)).toBeLessThanOrEqual(10_000);
    }
  });

  it('records actual expenses in each of the 36 months ending with the current one, never after today', async () => {
    const expected = demoMonths(new Date()).map((m) => m.first.slice(0, 7));
    expect(expected).toHaveLength(36);
    const rows = await database.db.selectFrom('actualExpenses').select(['companyId', 'expenseDate']).execute();
    for (const company of companies) {
      const months = new Set(rows.filter((r) => r.companyId === company.id).map((r) => r.expenseDate.slice(0, 7)));
      expect([...months].sort(), company.name).toEqual(expected);
    }
    const today = utcToday();
    for (const r of rows) {
      expect(r.expenseDate).toMatch(DAY);
      expect(r.expenseDate <= today, r.expenseDate).toBe(true);
    }
  });

  it('plans each category one way, never two budgets for one month, every plan in force (active)', async () => {
    const budgets = await database.db.selectFrom('budgets').selectAll().execute();
    for (const b of budgets) {
      expect(b.startDate).toMatch(DAY);
      expect(b.endDate).toMatch(DAY);
      expect(b.endDate >= b.startDate, `${b.startDate}..${b.endDate}`).toBe(true);
      expect(Number.isInteger(b.amountCents) && b.amountCents > 0).toBe(true);
      // Past plans stay the plans of their months: active, not 'expired' (docs/plans.md).
      expect(b.status, `${b.period} ${b.startDate}`).toBe('active');
    }
    const categories = await database.db
      .selectFrom('expenseCategories')
      .select('id')
      .where('departmentId', 'is not', null)
      .execute();
    const window = demoMonths(new Date()).map((m) => m.first.slice(0, 7));
    for (const { id } of categories) {
      const own = budgets.filter((b) => b.categoryId === id);
      expect(new Set(own.map((b) => b.period)).size, `periods of category ${id}`).toBe(1);
      // Every month of the window has exactly one budget covering it.
      for (const month of window) {
        const covering = own.filter((b) => b.startDate.slice(0, 7) <= month && b.endDate.slice(0, 7) >= month);
        expect(covering.length, `budgets of category ${id} covering ${month}`).toBe(1);
      }
    }
    expect(new Set(budgets.map((b) => b.period))).toEqual(new Set(['monthly', 'quarterly', 'annual']));
    // The maintained plans: one per category and month of the window, from those budgets.
    const plans = await database.db
      .selectFrom('budgetMonthPlans')
      .select(['categoryId', 'month'])
      .where('month', '>=', window[0])
      .where('month', '<=', window[window.length - 1])
      .execute();
    expect(plans).toHaveLength(categories.length * DEMO_MONTHS);
  });

  it('gives budgets and expenses the company and department of their category', async () => {
    const columns = [
      'r.companyId',
      'r.departmentId',
      'c.companyId as categoryCompanyId',
      'c.departmentId as categoryDepartmentId',
    ] as const;
    const linked = {
      budgets: await database.db
        .selectFrom('budgets as r')
        .innerJoin('expenseCategories as c', 'c.id', 'r.categoryId')
        .select(columns)
        .execute(),
      actualExpenses: await database.db
        .selectFrom('actualExpenses as r')
        .innerJoin('expenseCategories as c', 'c.id', 'r.categoryId')
        .select(columns)
        .execute(),
    };
    for (const table of ['budgets', 'actualExpenses'] as const) {
      const rows = linked[table];
      expect(rows.length, table).toBe(await total(database, table));
      for (const r of rows) {
        expect(r.companyId, table).toBe(r.categoryCompanyId);
        expect(r.departmentId, table).toBe(r.categoryDepartmentId);
      }
    }
    // Salaries are a large cost and software licences a small one, for every company.
    const byCategory = await database.db
      .selectFrom('actualExpenses as e')
      .innerJoin('expenseCategories as c', 'c.id', 'e.categoryId')
      .select((eb) => ['e.companyId', 'c.name', eb.fn.avg<number>('e.amountCents').as('average')])
      .where('c.name', 'in', ['Salaries & Wages', 'Software Licences'])
      .groupBy(['e.companyId', 'c.name'])
      .execute();
    for (const company of companies) {
      const average = (name: string) =>
        Number(byCategory.find((r) => r.companyId === company.id && r.name === name)?.average);
      expect(average('Salaries & Wages'), company.name).toBeGreaterThan(10 * average('Software Licences'));
    }
    const expenses = await database.db
      .selectFrom('actualExpenses')
      .select(['vendor', 'receiptNumber', 'description'])
      .execute();
    expect(expenses.some((e) => e.vendor === null)).toBe(true);
    expect(expenses.some((e) => e.receiptNumber === null)).toBe(true);
    expect(expenses.every((e) => e.description.length > 0)).toBe(true);
  });

  it('projects and records revenue per source of each company type', async () => {
    const projections = await database.db
      .selectFrom('revenueProjections')
      .select(['companyId', 'source', 'startDate', 'endDate', 'period'])
      .execute();
    const revenue = await database.db
      .selectFrom('actualRevenue')
      .select(['companyId', 'source', 'revenueDate', 'customerReference', 'amountCents'])
      .execute();
    for (const company of companies) {
      const sources = revenueSourcesFor(company.type as never).sort();
      const own = projections.filter((p) => p.companyId === company.id);
      expect([...new Set(own.map((p) => p.source))].sort(), company.name).toEqual(sources);
      expect(own, company.name).toHaveLength(sources.length * DEMO_MONTHS);
      expect(
        [...new Set(revenue.filter((r) => r.companyId === company.id).map((r) => r.source))].sort(),
        company.name,
      ).toEqual(sources);
    }
    for (const p of projections) {
      expect(p.period).toBe('monthly');
      expect(p.endDate >= p.startDate).toBe(true);
    }
    for (const r of revenue) {
      expect(Number.isInteger(r.amountCents) && r.amountCents > 0).toBe(true);
      if (r.customerReference !== null) expect(r.customerReference).toMatch(/^CUST-\d{5}$/);
    }
    expect(revenue.some((r) => r.customerReference === null)).toBe(true);
  });

  it('records monthly subscriber metrics for mobile and fintech companies only', async () => {
    const metrics = await database.db
      .selectFrom('subscriberMetrics as m')
      .innerJoin('companies as c', 'c.id', 'm.companyId')
      .select(['c.type', 'm.companyType', 'm.metricName', 'm.metricValueHundredths', 'm.period', 'm.recordDate'])
      .execute();
    const lastDays = new Set(demoMonths(new Date()).map((m) => m.last));
    for (const m of metrics) {
      expect(m.companyType).toBe(m.type);
      expect(m.period).toBe('monthly');
      expect(lastDays.has(m.recordDate), m.recordDate).toBe(true);
      expect(Number.isInteger(m.metricValueHundredths) && m.metricValueHundredths >= 0).toBe(true);
    }
    expect([...new Set(metrics.filter((m) => m.companyType === 'mobile').map((m) => m.metricName))].sort()).toEqual(
      [...MOBILE_METRICS].sort(),
    );
    expect([...new Set(metrics.filter((m) => m.companyType === 'fintech').map((m) => m.metricName))].sort()).toEqual(
      [...FINTECH_METRICS].sort(),
    );
    // Magnitudes: a default rate is a few percent and an ARPU some dollars.
    const values = (name: string) => metrics.filter((m) => m.metricName === name).map((m) => m.metricValueHundredths);
    for (const value of values('default_rate')) expect(value).toSatisfy((v: number) => v >= 100 && v <= 500);
    for (const value of values('arpu')) expect(value).toSatisfy((v: number) => v >= 500 && v <= 2500);
  });

  it('generates the same figures every time, without Math.random', async () => {
    const reference = await loadDemoReference(database.db);
    const random = vi.spyOn(Math, 'random');
    try {
      const at = new Date(Date.UTC(2026, 10, 14, 9, 30));
      const first = buildDemoRows(reference, at);
      expect(buildDemoRows(reference, at)).toEqual(first);
      expect(random).not.toHaveBeenCalled();
      expect(first.actualExpenses.every((e) => e.expenseDate <= '2026-11-14')).toBe(true);
      expect(new Set(first.actualExpenses.map((e) => e.expenseDate.slice(0, 7))).size).toBe(DEMO_MONTHS);
    } finally {
      random.mockRestore();
    }
  });
});

describe.each(TEST_DIALECTS)('demo seed turned off on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
  });
  afterAll(() => database?.destroy());

  it('runs after the reference seed and inserts nothing with demo off', async () => {
    expect(seedModules.map((m) => m.name)).toEqual(['reference', 'demo', 'company-metrics']);
    await database.db.transaction().execute(async (trx) => {
      for (const module of seedModules) await module.run(trx, { demo: false });
    });
    expect(
      Number(
        (
          await database.db
            .selectFrom('companies')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(4);
    for (const table of [...FINANCE_TABLES, ...METRIC_TABLES]) expect(await total(database, table), table).toBe(0);
  });
});
