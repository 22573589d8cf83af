// System Monitoring's services on every test dialect: errors grouped by fingerprint (ids and
// figures in the message do not split them) with their affected users; the list's order and
// filter; Resolve (notes required, 404, 409, audited); the health figures, the 24-hour history
// in 15-minute averages and the overall status from the thresholds, served from the web
// process's background sample with its time; administrators only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { waitFor } from '../../../test/wait.ts';
import { RequestMetrics } from '../../platform/http/request-metrics.ts';
import { HealthSampler } from '../../platform/http/health-sampler.server.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { errorFingerprint, messageShape, recordSystemError } from '../../platform/system-errors.server.ts';
import {
  ALREADY_RESOLVED,
  listRecoveryActions,
  listSystemErrors,
  RESOLUTION_REQUIRED,
  resolveSystemError,
  systemHealth,
} from './system-monitoring.server.ts';

describe('error fingerprints and the request figures', () => {
  it('a message’s ids, figures, quoted values and uuids do not make a new fingerprint', () => {
    expect(messageShape('Row 42 of "budgets" failed after 3.5 s (id 7c9e6679-7425-40de-944b-e07fc1f90ae7)')).toBe(
      'Row # of ? failed after # s (id #)',
    );
    const a = errorFingerprint({
      errorType: 'TypeError',
      message: 'Cannot read row 12',
      endpoint: '/api/users/:id',
      method: 'GET',
    });
    expect(
      errorFingerprint({
        errorType: 'TypeError',
        message: 'Cannot read row 9000',
        endpoint: '/api/users/:id',
        method: 'GET',
      }),
    ).toBe(a);
    expect(
      errorFingerprint({
        errorType: 'TypeError',
        message: 'Cannot read row 12',
        endpoint: '/api/users/:id',
        method: 'PUT',
      }),
    ).not.toBe(a);
  });

  it('requests per minute, the 5xx share and the mean answer time over the window', () => {
    const start = Date.parse('2026-11-20T12:00:00Z');
    const metrics = new RequestMetrics(start - 3_600_000);
    for (let i = 0; i < 30; i++) metrics.record(i % 10 === 0 ? 500 : 200, 100, start + i * 1000);
    metrics.record(200, 400, start - 20 * 60_000); // outside a 15-minute window
    expect(metrics.summary(15, start + 59_000)).toEqual({
      windowMinutes: 15,
      requests: 30,
      requestsPerMinute: 2,
      errorRate: 10,
      responseTime: 100,
    });
    expect(metrics.summary(30, start + 59_000)).toMatchObject({ requests: 31, responseTime: 109.7 });
  });
});

describe.each(TEST_DIALECTS)('system monitoring on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let owner: ServiceContext;
  let admin: ServiceContext;
  let viewer: ServiceContext;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    owner = await userContext(db, await ownerId(db));
    admin = await userContext(db, (await createTestUser(db, { role: 'admin' })).id);
    viewer = await userContext(
      db,
      (await createTestUser(db, { role: 'viewer', flags: { canManageUsers: true, canAccessAuditLogs: true } })).id,
    );
  });
  afterAll(() => database?.destroy());

  it('repeats of one fault are one row: occurrences and distinct affected users counted', async () => {
    const base = { errorType: 'TypeError', endpoint: '/api/budgets/:id', method: 'GET' };
    const first = await recordSystemError(db, { ...base, message: 'Cannot read budget 1', userId: 1 });
    expect(await recordSystemError(db, { ...base, message: 'Cannot read budget 2', userId: 2 })).toBe(first);
    expect(await recordSystemError(db, { ...base, message: 'Cannot read budget 3', userId: 1 })).toBe(first);
    expect(await recordSystemError(db, { ...base, message: 'Cannot read budget 4' })).toBe(first);
    const other = await recordSystemError(db, { ...base, errorType: 'RangeError', message: 'Cannot read budget 1' });
    expect(other).not.toBe(first);
    const { rows, total } = await listSystemErrors(owner, {});
    const row = rows.find((r) => r.id === first)!;
    expect(row).toMatchObject({
      occurrenceCount: 4,
      affectedUsers: 2,
      message: 'Cannot read budget 4',
      isResolved: false,
    });
    expect(total).toBeGreaterThanOrEqual(2);
  });

  it('Resolve: notes required, unknown is 404, twice is 409; audited; resolved errors sort last and a repeat opens a new row', async () => {
    const id = await recordSystemError(db, {
      errorType: 'Error',
      message: 'Queue stalled',
      endpoint: 'job:x',
      method: 'JOB',
    });
    await expect(resolveSystemError(admin, id, { resolution: '  ' })).rejects.toMatchObject({
      kind: 'invalid',
      errors: [{ field: 'resolution', message: RESOLUTION_REQUIRED }],
    });
    await expect(resolveSystemError(admin, id, {})).rejects.toMatchObject({ kind: 'invalid' });
    await expect(resolveSystemError(admin, 999_999, { resolution: 'x' })).rejects.toMatchObject({ kind: 'notFound' });
    await expect(resolveSystemError(viewer, id, { resolution: 'x' })).rejects.toMatchObject({ kind: 'forbidden' });
    const resolved = await resolveSystemError(admin, id, { resolution: 'Restarted the worker' });
    expect(resolved).toMatchObject({
      id,
      isResolved: true,
      resolution: 'Restarted the worker',
      resolvedByName: expect.any(String),
      resolvedAt: expect.any(String),
    });
    await expect(resolveSystemError(admin, id, { resolution: 'again' })).rejects.toMatchObject({
      kind: 'conflict',
      message: ALREADY_RESOLVED,
    });
    const audit = await db
      .selectFrom('auditLogs')
      .select(['action', 'reason', 'changes'])
      .where('tableName', '=', 'system_errors')
      .where('recordId', '=', id)
      .execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'update', reason: 'Error resolved' })]);

    const open = await listSystemErrors(owner, { status: 'open' });
    expect(open.rows.every((r) => !r.isResolved)).toBe(true);
    const all = await listSystemErrors(owner, {});
    const firstResolved = all.rows.findIndex((r) => r.isResolved);
    expect(all.rows.slice(firstResolved).every((r) => r.isResolved)).toBe(true);
    expect(
      await recordSystemError(db, { errorType: 'Error', message: 'Queue stalled', endpoint: 'job:x', method: 'JOB' }),
    ).not.toBe(id);
    await expect(listSystemErrors(owner, { status: 'maybe' })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(listSystemErrors(viewer, {})).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('recovery actions, newest first', async () => {
    await db
      .insertInto('recoveryActions')
      .values([
        {
          actionType: 'older',
          status: 'completed',
          createdAt: '2026-11-01T00:00:00.000Z',
          updatedAt: '2026-11-01T00:00:00.000Z',
          result: 'ok',
        },
        {
          actionType: 'newer',
          status: 'failed',
          createdAt: '2026-11-02T00:00:00.000Z',
          updatedAt: '2026-11-02T00:00:00.000Z',
          result: 'no',
        },
      ])
      .execute();
    const { rows } = await listRecoveryActions(owner, { limit: 2 });
    expect(rows.map((r) => r.actionType)).toEqual(['newer', 'older']);
    await expect(listRecoveryActions(viewer, {})).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('health: live figures, the 24-hour history in 15-minute averages, the overall status', async () => {
    const now = new Date();
    const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
    const snapshot = (minutesAgo: number, cpu: number) => ({
      createdAt: at(minutesAgo),
      cpuUsage: cpu,
      loadAverage: JSON.stringify([0.1, 0.2, 0.3]) as never,
      cpuCount: 2,
      memoryUsed: 50,
      memoryTotal: 100,
      processRss: 1,
      diskFree: 1,
      diskTotal: 2,
      databaseSize: 1,
      databaseResponseMs: 2,
      databaseConnections: null,
    });
    await db
      .insertInto('healthSnapshots')
      .values([snapshot(60 * 25, 99), snapshot(120, 10), snapshot(119, 20), snapshot(30, 40)])
      .execute();
    const sampler = new HealthSampler(db, os.tmpdir());
    const health = await systemHealth(owner, {
      health: sampler,
      api: { requests: 10, requestsPerMinute: 1, errorRate: 20, responseTime: 30, windowMinutes: 15 },
    });
    expect(health.details.memory.total).toBe(os.totalmem());
    expect(health.details.database.dialect).toBe(dialect);
    expect(health.details.disk!.total).toBeGreaterThan(0);
    // The 25-hour-old snapshot is out; 120 and 119 minutes ago may share a 15-minute bucket.
    const cpus = health.history.map((h) => h.cpu);
    expect(cpus).not.toContain(99);
    expect(cpus[cpus.length - 1]).toBe(40);
    expect(cpus.length === 2 ? cpus[0] === 15 : cpus.slice(0, 2).join() === '10,20').toBe(true);
    // A 20 % error rate is critical whatever else is measured.
    expect(health.overall).toBe('critical');
    expect(health.reasons).toContain('20% of requests failed');
    const calm = await systemHealth(admin, { health: sampler, api: null });
    expect(calm.reasons).not.toContain('20% of requests failed');
    // The figures are the background sample's: a second call measures nothing and gives its time.
    expect(calm.timestamp).toBe(health.timestamp);
    expect(calm.timestamp).toBe((await sampler.latest()).createdAt);
    await expect(systemHealth(viewer, { health: sampler, api: null })).rejects.toMatchObject({ kind: 'forbidden' });
    sampler.stop();
  });

  it('the sampler takes its samples in the background, without waiting for a CPU sample', async () => {
    const sampler = new HealthSampler(db, os.tmpdir(), 30);
    const first = await sampler.latest();
    expect(first.cpuUsage).toBeGreaterThanOrEqual(0);
    expect(first.cpuUsage).toBeLessThanOrEqual(100);
    // A later sample arrives by itself (a sample's database figures can take longer than the period).
    const later = await waitFor(
      async () => {
        const latest = await sampler.latest();
        return Date.parse(latest.createdAt) > Date.parse(first.createdAt) ? latest : null;
      },
      { what: 'a background sample' },
    );
    sampler.stop();
    expect(later.cpuUsage).toBeGreaterThanOrEqual(0);
  });
});
