// Security anomalies (docs/writes.md): 5 or more deletes by one user within 10 minutes, stored once
// per user and window, on a known set of audit rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../test/assertions.ts';
import { userContext, noEngine } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { ANOMALY_TEXT, detectDeleteAnomalies } from './anomalies.server.ts';
import { systemActor, type ServiceContext } from '../../platform/context.ts';

const MINUTE = 60_000;
const DEFAULTS = { threshold: 5, windowMinutes: 10, lookbackMinutes: 60 };
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(TEST_DIALECTS)('delete anomalies on %s', (dialect) => {
  let database: TestDatabase;
  let ctx: ServiceContext;
  let recordId = 5000;
  const now = Date.parse('2026-03-02T12:00:00.000Z');

  async function audit(userId: number, action: 'create' | 'update' | 'delete', minutesAgo: number[]) {
    await database.db
      .insertInto('auditLogs')
      .values(
        minutesAgo.map((m) => ({
          tableName: 'budgets',
          recordId: ++recordId,
          action,
          userId,
          timestamp: iso(now - m * MINUTE),
        })),
      )
      .execute();
  }

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    ctx = { db: database.db, actor: systemActor('worker'), meta: {}, runtime: noEngine() };
  });
  afterAll(() => database?.destroy());

  it('flags 5 deletes within 10 minutes once, and ignores slower, fewer, older deletes and other actions', async () => {
    const busy = await createTestUser(database.db, { role: 'editor' });
    const few = await createTestUser(database.db, { role: 'editor' });
    const slow = await createTestUser(database.db, { role: 'editor' });
    const old = await createTestUser(database.db, { role: 'editor' });
    const updater = await createTestUser(database.db, { role: 'editor' });
    await audit(busy.id, 'delete', [40, 39, 38, 37, 36, 20]); // five in 4 minutes, then one more 16 minutes later
    await audit(few.id, 'delete', [30, 29, 28, 27]); // four
    await audit(slow.id, 'delete', [45, 42, 39, 36, 33]); // five, but spread over 12 minutes
    await audit(old.id, 'delete', [130, 129, 128, 127, 126]); // before the 60-minute look-back
    await audit(updater.id, 'update', [10, 9, 8, 7, 6, 5]);

    const result = await detectDeleteAnomalies(ctx, { ...DEFAULTS, now: new Date(now) });
    expect(result).toEqual({ users: 3, created: 1 });
    const anomalies = await database.db.selectFrom('securityAnomalies').selectAll().execute();
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]).toMatchObject({
      userId: busy.id,
      username: busy.username,
      anomalyType: 'multiple_deletes',
      deleteCount: 5,
      windowStart: iso(now - 40 * MINUTE),
      windowEnd: iso(now - 36 * MINUTE),
      description: ANOMALY_TEXT,
    });

    // Running again (at-least-once delivery, or the next run's overlapping look-back) adds nothing.
    expect(await detectDeleteAnomalies(ctx, { ...DEFAULTS, now: new Date(now + 5 * MINUTE) })).toEqual({
      users: 3,
      created: 0,
    });
    expect(await database.db.selectFrom('securityAnomalies').selectAll().execute()).toHaveLength(1);
  });

  it('records a later burst of the same user as a new window, without counting recorded deletes again', async () => {
    const user = await createTestUser(database.db, { role: 'editor' });
    await audit(user.id, 'delete', [50, 49, 48, 47, 46]);
    expect((await detectDeleteAnomalies(ctx, { ...DEFAULTS, now: new Date(now) })).created).toBe(1);
    // Four more right after the first window: with the recorded five they would make nine,
    // but recorded deletes do not count again.
    await audit(user.id, 'delete', [45, 44, 43, 42]);
    await detectDeleteAnomalies(ctx, { ...DEFAULTS, now: new Date(now) });
    await audit(user.id, 'delete', [41]);
    await detectDeleteAnomalies(ctx, { ...DEFAULTS, now: new Date(now) });
    const rows = await database.db
      .selectFrom('securityAnomalies')
      .selectAll()
      .where('userId', '=', user.id)
      .orderBy('windowStart')
      .execute();
    expect(rows.map((r) => [r.deleteCount, r.windowStart, r.windowEnd])).toEqual([
      [5, iso(now - 50 * MINUTE), iso(now - 46 * MINUTE)],
      [5, iso(now - 45 * MINUTE), iso(now - 41 * MINUTE)],
    ]);
  });

  it('follows the threshold and window it is given', async () => {
    const user = await createTestUser(database.db, { role: 'editor' });
    await audit(user.id, 'delete', [15, 14, 13]);
    await detectDeleteAnomalies(ctx, { ...DEFAULTS, threshold: 3, windowMinutes: 2, now: new Date(now) });
    const rows = await database.db.selectFrom('securityAnomalies').selectAll().where('userId', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      deleteCount: 3,
      windowStart: iso(now - 15 * MINUTE),
      windowEnd: iso(now - 13 * MINUTE),
    });
  });

  it('may be run by the system or a reader of audit logs, not by other users', async () => {
    const viewer = await createTestUser(database.db, { role: 'viewer' });
    const auditor = await createTestUser(database.db, { role: 'viewer', flags: { canAccessAuditLogs: true } });
    expect((await rejection(detectDeleteAnomalies(await userContext(database.db, viewer.id), DEFAULTS))).status).toBe(
      403,
    );
    await expect(
      detectDeleteAnomalies(await userContext(database.db, auditor.id), { ...DEFAULTS, now: new Date(now) }),
    ).resolves.toMatchObject({ created: 0 });
  });
});
