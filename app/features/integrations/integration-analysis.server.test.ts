// Integration analysis on every test dialect, from planted sync logs, endpoints and audit entries
// with known answers: the tiles and the score formula, the issues, the timeline and each kind of
// recommendation (and a scoped reader's view of them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { apiIntegrationEndpoints, apiIntegrationSources } from './resources.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import {
  activityTimeline,
  analyzePerformance,
  performanceScore,
  recommendations,
  speedScore,
} from './integration-analysis.server.ts';
import { createRecord } from '../../platform/resources/resource-writes.server.ts';
import { expectAnswer } from '../../../test/assertions.ts';
import { PerformanceAnalysisAnswer, RecommendationListAnswer, TimelineListAnswer } from './answers.ts';

const NOW = new Date('2026-11-20T12:00:00Z');

describe('the performance score', () => {
  it('weighs success 0.7 and speed 0.3; speed is 100 up to 1 s and 0 from 10 s', () => {
    expect(speedScore(800)).toBe(100);
    expect(speedScore(5_500)).toBe(50);
    expect(speedScore(12_000)).toBe(0);
    expect(performanceScore(100, 1000)).toBe(100);
    expect(performanceScore(50, 5_500)).toBe(50);
    expect(performanceScore(0, 20_000)).toBe(0);
  });
});

describe.each(TEST_DIALECTS)('integration analysis on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let owner: ServiceContext;
  let good: number;
  let bad: number;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    owner = await userContext(db, await ownerId(db));
    const source = (
      await createRecord(owner, apiIntegrationSources, {
        name: 'Ledger API',
        baseUrl: 'https://ledger.example.com',
        authType: 'bearer',
      })
    ).id;
    const endpoint = async (name: string) =>
      (
        await createRecord(owner, apiIntegrationEndpoints, {
          sourceId: source,
          name,
          endpoint: `/${name}`,
          targetTable: 'actual_revenue',
        })
      ).id;
    good = await endpoint('good');
    bad = await endpoint('bad');
    const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();
    const log = (
      endpointId: number,
      status: 'success' | 'failed',
      responseTime: number,
      minutesAgo: number,
      requests = 2,
    ) => ({
      endpointId,
      status,
      startedAt: at(minutesAgo),
      completedAt: at(minutesAgo - 1),
      requests,
      responseTime,
      recordsProcessed: 10,
    });
    await db
      .insertInto('apiIntegrationSyncLogs')
      .values([
        log(good, 'success', 500, 100),
        log(good, 'success', 1500, 90),
        log(good, 'success', 1000, 80),
        log(bad, 'failed', 7000, 70),
        log(bad, 'failed', 7000, 60),
        log(bad, 'failed', 7000, 50),
        log(bad, 'success', 7000, 40),
        // Older than the 30-day window: not in the tiles.
        { ...log(good, 'failed', 60_000, 60 * 24 * 40) },
      ])
      .execute();
    // Budgets typed in by hand for the first company in four of the last six months.
    const company = await db.selectFrom('companies').select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow();
    const userId = await ownerId(db);
    await db
      .insertInto('auditLogs')
      .values(
        ['2026-06-10', '2026-07-10', '2026-09-10', '2026-11-02', '2026-11-03'].map((day, i) => ({
          tableName: 'budgets',
          recordId: 1000 + i,
          action: 'create',
          userId,
          actorLabel: null,
          timestamp: `${day}T09:00:00.000Z`,
          companyId: company.id,
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
  });
  afterAll(() => database?.destroy());

  it('tiles: requests, success rate to one decimal, the weighted average answer time, the score; the issues', async () => {
    const analysis = await analyzePerformance(owner, NOW);
    expectAnswer(PerformanceAnalysisAnswer, analysis);
    // 7 runs in the window: 4 successes (57.1 %); 14 requests averaging (500+1500+1000)·2 + 7000·8 over 14 = 4428.6 ms.
    expect(analysis).toMatchObject({ totalRequests: 14, successRate: 57.1, avgResponseTime: 4429, windowDays: 30 });
    expect(analysis.performanceScore).toBe(performanceScore(57.1, 4429));
    expect(analysis.scoreFormula).toContain('0.7 × success rate + 0.3 × speed');
    expect(analysis.issues).toEqual([
      expect.objectContaining({ type: 'failing', severity: 'high', affectedEndpoints: ['bad'] }),
      expect.objectContaining({ type: 'slow', severity: 'medium', affectedEndpoints: ['bad'] }),
    ]);
  });

  it('timeline: newest first, each run with its own score', async () => {
    const timeline = await activityTimeline(owner);
    expectAnswer(TimelineListAnswer, timeline);
    expect(timeline[0]).toMatchObject({
      endpointName: 'bad',
      status: 'success',
      method: 'GET',
      direction: 'inbound',
      responseTime: 7000,
      recordsProcessed: 10,
      performanceScore: performanceScore(100, 7000),
    });
    expect(timeline[1].performanceScore).toBe(performanceScore(0, 7000));
    expect(timeline).toHaveLength(8);
  });

  it('recommends automating a table typed in by hand, repairing a failing endpoint, and credentials for a bare source', async () => {
    const found = await recommendations(owner, NOW);
    expectAnswer(RecommendationListAnswer, found);
    expect(found.map((r) => [r.type, r.priority])).toEqual([
      ['configuration', 'critical'],
      ['reliability', 'high'],
      ['automation', 'medium'],
    ]);
    const automation = found.find((r) => r.type === 'automation')!;
    expect(automation).toMatchObject({
      title: 'Import budgets automatically',
      confidence: 67,
      apiEndpoints: [
        { method: 'GET', endpoint: '/budgets', direction: 'inbound', targetTable: 'budgets', frequency: 'daily' },
      ],
    });
    expect(automation.description).toContain('5 budgets entries were typed in by hand in 4 of the last 6 months');
    expect(automation.estimatedImpact.timesSaved).toBeGreaterThanOrEqual(0);
    expect(found.find((r) => r.type === 'reliability')).toMatchObject({ title: 'Repair the bad sync', confidence: 75 });
    expect(found[0]).toMatchObject({ title: 'Add credentials for Ledger API', confidence: 100 });
    // A reader limited to another company does not see the first company's hand-made entries.
    const companies = await db.selectFrom('companies').select('id').orderBy('id').execute();
    const scoped = await userContext(
      db,
      (
        await createTestUser(db, {
          role: 'viewer',
          companyId: companies[1].id,
          flags: { canAccessApiIntegrations: true },
        })
      ).id,
    );
    expect((await recommendations(scoped, NOW)).some((r) => r.type === 'automation')).toBe(false);
    const plain = await userContext(db, (await createTestUser(db, { role: 'viewer' })).id);
    await expect(recommendations(plain, NOW)).rejects.toMatchObject({ kind: 'forbidden' });
  });
});
