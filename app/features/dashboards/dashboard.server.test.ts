// The dashboard's figures on every test dialect, against rows planted with known answers: the
// tiles, the lists and the charts for an owner (every company) and for a viewer limited to one
// company with no extra flags (who gets only their company's charts and none of the admin
// tiles); the landing page's stats and the uptime from health snapshots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { dashboardCharts } from './dashboard-charts.server.ts';
import { getDashboard } from './dashboard.server.ts';
import { MIN_UPTIME_SNAPSHOTS, uptimePercent } from '../system/health.server.ts';
import type { HealthMeasurement } from '../../platform/health-measure.server.ts';
import { systemHealth } from '../system/system-monitoring.server.ts';
import { landingStats } from './landing-stats.server.ts';

const NOW = new Date('2026-11-20T12:00:00Z');

/** A web process's newest health sample, as the sampler would hand it over. */
const sample = (figures: Partial<HealthMeasurement> = {}): HealthMeasurement => ({
  createdAt: '2026-11-20T11:59:55.000Z',
  cpuUsage: 12,
  loadAverage: [0.1, 0.2, 0.3],
  cpuCount: 2,
  memoryUsed: 1_000,
  memoryTotal: 4_000,
  processRss: 100,
  diskFree: 600,
  diskTotal: 1_000,
  databaseSize: 10,
  databaseResponseMs: 2,
  databaseConnections: null,
  ...figures,
});
const sampled = (figures: Partial<HealthMeasurement> = {}) => ({
  health: { latest: async () => sample(figures) },
  api: null,
});

describe.each(TEST_DIALECTS)('dashboard on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let owner: ServiceContext;
  let scoped: ServiceContext;
  let a: number;
  let b: number;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    owner = await userContext(db, await ownerId(db));
    [a, b] = (await db.selectFrom('companies').select('id').orderBy('id').execute()).slice(0, 2).map((c) => c.id);
    scoped = await userContext(db, (await createTestUser(db, { role: 'viewer', companyId: b })).id);
    const departmentId = (await db.selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const category = async (companyId: number) =>
      (
        await db
          .selectFrom('expenseCategories')
          .select('id')
          .where('companyId', '=', companyId)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id;
    const plan = { period: 'quarterly' as const, description: null, status: 'active' as const };
    // A: a quarter's budget (Oct–Dec 2026, $9,000: $3,000 a month whatever the days) over the
    // year's ($120,000: $10,000 a month), never added to it, and expenses in October and November.
    await db
      .insertInto('budgets')
      .values({
        ...plan,
        companyId: a,
        departmentId,
        categoryId: await category(a),
        amountCents: 900_000,
        startDate: '2026-10-01',
        endDate: '2026-12-31',
      })
      .execute();
    await db
      .insertInto('budgets')
      .values({
        ...plan,
        period: 'annual',
        companyId: a,
        departmentId,
        categoryId: await category(a),
        amountCents: 12_000_000,
        startDate: '2026-01-01',
        endDate: '2026-12-31',
      })
      .execute();
    await db
      .insertInto('actualExpenses')
      .values([
        {
          companyId: a,
          departmentId,
          categoryId: await category(a),
          amountCents: 250_000,
          expenseDate: '2026-10-15',
          description: 'October',
          vendor: null,
          receiptNumber: null,
        },
        {
          companyId: a,
          departmentId,
          categoryId: await category(a),
          amountCents: 100_050,
          expenseDate: '2026-11-02',
          description: 'November',
          vendor: null,
          receiptNumber: null,
        },
        // Before the 12 months: left out.
        {
          companyId: a,
          departmentId,
          categoryId: await category(a),
          amountCents: 999_999,
          expenseDate: '2025-11-30',
          description: 'Old',
          vendor: null,
          receiptNumber: null,
        },
      ])
      .execute();
    // B: a projection for November and revenue in November.
    await db
      .insertInto('revenueProjections')
      .values({
        ...plan,
        period: 'monthly',
        companyId: b,
        source: 'Fees',
        amountCents: 500_000,
        startDate: '2026-11-01',
        endDate: '2026-11-30',
      })
      .execute();
    await db
      .insertInto('actualRevenue')
      .values({
        companyId: b,
        source: 'Fees',
        amountCents: 420_000,
        revenueDate: '2026-11-10',
        description: null,
        customerReference: null,
      })
      .execute();
    await db
      .insertInto('actualExpenses')
      .values({
        companyId: b,
        departmentId,
        categoryId: await category(b),
        amountCents: 12_300,
        expenseDate: '2026-11-03',
        description: 'B',
        vendor: null,
        receiptNumber: null,
      })
      .execute();
  });
  afterAll(() => database?.destroy());

  it('charts: the last 12 months; each month its one plan (monthly over quarterly over annual, spread by months); actuals summed; a scoped user sees their company only', async () => {
    const all = await dashboardCharts(owner, NOW);
    expect(all.months).toHaveLength(12);
    expect(all.months[0]).toBe('2025-12');
    expect(all.months[11]).toBe('2026-11');
    const month = (rows: typeof all.budgetVsActual, m: string) => rows.find((r) => r.month === m)!;
    expect(month(all.budgetVsActual, '2026-09')).toEqual({ month: '2026-09', planned: 10_000, actual: 0 });
    expect(month(all.budgetVsActual, '2026-10')).toEqual({ month: '2026-10', planned: 3000, actual: 2500 });
    expect(month(all.budgetVsActual, '2026-11')).toEqual({ month: '2026-11', planned: 3000, actual: 1000.5 + 123 });
    expect(month(all.budgetVsActual, '2025-12')).toEqual({ month: '2025-12', planned: 0, actual: 0 });
    expect(month(all.revenue, '2026-11')).toEqual({ month: '2026-11', planned: 5000, actual: 4200 });

    const mine = await dashboardCharts(scoped, NOW);
    expect(mine.companyId).toBe(b);
    expect(month(mine.budgetVsActual, '2026-10')).toEqual({ month: '2026-10', planned: 0, actual: 0 });
    expect(month(mine.budgetVsActual, '2026-11')).toEqual({ month: '2026-11', planned: 0, actual: 123 });
    expect(month(mine.revenue, '2026-11')).toEqual({ month: '2026-11', planned: 5000, actual: 4200 });
  });

  it('the owner gets every tile and list, with the database’s figures', async () => {
    const userId = await ownerId(db);
    await db
      .insertInto('auditLogs')
      .values(
        Array.from({ length: 10 }, (_, i) => ({
          tableName: 'budgets',
          recordId: 100 + i,
          action: 'update',
          userId,
          actorLabel: null,
          timestamp: new Date(NOW.getTime() - (10 - i) * 60_000).toISOString(),
          companyId: a,
          oldData: null,
          newData: null,
          changes: null,
          ipAddress: null,
          userAgent: null,
          reason: null,
          sessionId: null,
        })),
      )
      .execute();
    await db
      .insertInto('backups')
      .values([
        {
          name: 'older',
          description: null,
          type: 'manual',
          status: 'completed',
          error: null,
          tables: JSON.stringify(['companies']) as never,
          size: 1,
          recordCount: 1,
          createdAt: '2026-11-18T10:00:00.000Z',
        },
        {
          name: 'newer failed',
          description: null,
          type: 'manual',
          status: 'failed',
          error: 'x',
          tables: JSON.stringify(['companies']) as never,
          size: 0,
          recordCount: 0,
          createdAt: '2026-11-19T10:00:00.000Z',
        },
      ])
      .execute();
    await db
      .insertInto('securityAnomalies')
      .values([
        {
          userId,
          username: 'owner',
          anomalyType: 'bulk_delete',
          deleteCount: 12,
          windowStart: '2026-11-19T09:00:00.000Z',
          windowEnd: '2026-11-19T09:10:00.000Z',
          description: 'Recent bulk delete',
        },
        {
          userId,
          username: 'owner',
          anomalyType: 'bulk_delete',
          deleteCount: 12,
          windowStart: '2026-10-01T09:00:00.000Z',
          windowEnd: '2026-10-01T09:10:00.000Z',
          description: 'Old bulk delete',
        },
      ])
      .execute();

    const dashboard = await getDashboard(owner, sampled(), NOW);
    const users = await db.selectFrom('users').select(['isActive']).execute();
    expect(dashboard.userStats).toEqual({
      activeUsers: users.filter((u) => u.isActive).length,
      totalUsers: users.length,
    });
    expect(dashboard.api).toEqual({ successRate: 0, runs: 0, windowDays: 30 });
    expect(dashboard.systemHealth).toEqual({ timestamp: '2026-11-20T11:59:55.000Z', overall: 'healthy', reasons: [] });
    expect(dashboard.alerts!.map((x) => x.description)).toEqual(['Recent bulk delete']);
    expect(dashboard.lastBackup!.backup!.name).toBe('older');
    expect(dashboard.recentActivity).toHaveLength(8);
    const newest = await db
      .selectFrom('auditLogs')
      .select(['id', 'action', 'tableName'])
      .orderBy('timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(8)
      .execute();
    expect(dashboard.recentActivity!.map((r) => ({ id: r.id, action: r.action, tableName: r.tableName }))).toEqual(
      newest,
    );
    expect(dashboard.apiActivity).toEqual([]);
    expect(dashboard.charts!.months).toHaveLength(12);
    expect(dashboard.userAccess.companyName).toBe('All Companies');
  });

  it('System Health is System Monitoring’s verdict: a sampled CPU at 100 % reads Critical in both, with the same reason', async () => {
    for (const [figures, overall, reasons] of [
      [{ cpuUsage: 100 }, 'critical', ['CPU at 100%']],
      [{ cpuUsage: 80, memoryUsed: 3_500 }, 'warning', ['CPU at 80%', 'Memory at 87.5%']],
      [{ cpuUsage: 3, databaseResponseMs: 1_200 }, 'critical', ['Database answered in 1200 ms']],
      [{ cpuUsage: 3 }, 'healthy', []],
    ] as const) {
      const options = sampled(figures);
      const dashboard = await getDashboard(owner, options, NOW);
      const monitoring = await systemHealth(owner, options, NOW);
      expect(dashboard.systemHealth).toEqual({ timestamp: '2026-11-20T11:59:55.000Z', overall, reasons });
      expect({ timestamp: monitoring.timestamp, overall: monitoring.overall, reasons: monitoring.reasons }).toEqual(
        dashboard.systemHealth,
      );
    }
    // A recent security anomaly (planted above) is a System Alert, not a health verdict of its own.
    const calm = await getDashboard(owner, sampled({ cpuUsage: 3 }), NOW);
    expect(calm.alerts!.length).toBeGreaterThan(0);
    expect(calm.systemHealth!.overall).toBe('healthy');
  });

  it('a scoped viewer without extra flags: the access card and their company’s charts, nothing else', async () => {
    const dashboard = await getDashboard(scoped, sampled(), NOW);
    expect(dashboard).toMatchObject({
      userStats: null,
      api: null,
      systemHealth: null,
      lastBackup: null,
      recentActivity: null,
      apiActivity: null,
      alerts: null,
    });
    expect(dashboard.userAccess.availableCompanies.map((c) => c.id)).toEqual([b]);
    expect(dashboard.charts!.companyId).toBe(b);
  });

  it('a viewer limited to company B with audit access gets no entry about company A', async () => {
    const auditor = await userContext(
      db,
      (await createTestUser(db, { role: 'viewer', companyId: b, flags: { canAccessAuditLogs: true } })).id,
    );
    const dashboard = await getDashboard(auditor, sampled(), NOW);
    // The planted entries are about company A: none for a reader limited to B.
    expect(dashboard.recentActivity!.some((r) => r.tableName === 'budgets' && r.action === 'update')).toBe(false);
    // System health is installation-wide: not for a user limited to one company.
    expect(dashboard.systemHealth).toBeNull();
    expect(dashboard.userStats).toBeNull();
  });

  it('landing stats count the companies, departments and records; uptime needs an hour of snapshots', async () => {
    const stats = await landingStats(db, NOW);
    const companies = (await db.selectFrom('companies').select('id').execute()).length;
    const departments = (await db.selectFrom('departments').select('id').execute()).length;
    const records = (
      await Promise.all(
        (['budgets', 'actualExpenses', 'revenueProjections', 'actualRevenue', 'subscriberMetrics'] as const).map((t) =>
          db.selectFrom(t).select('id').execute(),
        ),
      )
    ).reduce((n, rows) => n + rows.length, 0);
    expect(stats).toEqual({ companies, departments, dataPoints: records, uptime: null });

    const snapshot = (minutesAgo: number) => ({
      createdAt: new Date(NOW.getTime() - minutesAgo * 60_000).toISOString(),
      cpuUsage: 1,
      loadAverage: JSON.stringify([0, 0, 0]) as never,
      cpuCount: 2,
      memoryUsed: 1,
      memoryTotal: 2,
      processRss: 1,
      diskFree: 1,
      diskTotal: 2,
      databaseSize: 1,
      databaseResponseMs: 1,
      databaseConnections: null,
    });
    // 120 minutes since the first snapshot, 90 of them with a snapshot: 90 / 120 = 75 %.
    await db
      .insertInto('healthSnapshots')
      .values(Array.from({ length: MIN_UPTIME_SNAPSHOTS + 30 }, (_, i) => snapshot(119 - i)))
      .execute();
    expect(await uptimePercent(db, NOW)).toBe(75);
    expect((await landingStats(db, NOW)).uptime).toBe(75);
  });
});
