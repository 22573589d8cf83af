// The activity window as the job stores it, on every test dialect from planted entries: the
// stored counts equal a count of the window's entries (per user, and per company by action and
// table), readers see the stored counts until the next computation, a run does nothing while the
// trail is unchanged and its counts are recent, and a new entry or an hour's age makes it count again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import {
  activityWindow,
  EVERY_COMPANY,
  mostActive,
  RECOMPUTE_AFTER_MS,
  refreshActivityWindow,
  scopeCounts,
  userCounts,
} from './activity-window.server.ts';

describe.each(TEST_DIALECTS)('activity window on %s', (dialect) => {
  // Far ahead of the rows the database's own set-up writes, so only the planted ones count.
  const NOW = new Date('2032-03-10T12:00:00.000Z');
  const hoursAgo = (h: number, from = NOW) => new Date(from.getTime() - h * 3_600_000).toISOString();
  let database: TestDatabase;
  let companyA: number;
  let editorA: number;
  let editorB: number;
  const entry = (userId: number | null, action: string, tableName: string, timestamp: string) => ({
    tableName,
    recordId: 1,
    action,
    userId,
    timestamp,
    companyId: null,
    oldData: null,
    newData: null,
    changes: null,
    ipAddress: null,
    userAgent: null,
    reason: null,
    sessionId: null,
    actorLabel: userId === null ? 'system' : null,
  });

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    const db = database.db;
    const [a, b] = await db.selectFrom('companies').select('id').orderBy('id').limit(2).execute();
    companyA = a.id;
    editorA = (await createTestUser(db, { role: 'editor', companyId: a.id })).id;
    editorB = (await createTestUser(db, { role: 'editor', companyId: b.id })).id;
    await db
      .insertInto('auditLogs')
      .values([
        ...[1, 2, 3].map((h) => entry(editorA, 'create', 'budgets', hoursAgo(24 * h))),
        entry(editorA, 'update', 'companies', hoursAgo(5)),
        entry(editorA, 'create', 'budgets', hoursAgo(24 * 31)), // before the window
        entry(editorA, 'create', 'budgets', hoursAgo(-2)), // after now
        entry(editorB, 'delete', 'budgets', hoursAgo(48)),
        entry(editorB, 'update', 'actual_expenses', hoursAgo(49)),
        entry(editorB, 'login_failed', 'users', hoursAgo(3)),
        entry(null, 'other', 'backups', hoursAgo(10)),
      ])
      .execute();
  });
  afterAll(() => database?.destroy());

  it('a reader finding no computation makes it; the stored counts are the window’s, per user and per company', async () => {
    const db = database.db;
    const window = await activityWindow(db, NOW);
    expect(window).toMatchObject({ since: hoursAgo(24 * 30), until: NOW.toISOString() });

    const users = await userCounts(db, [editorA, editorB]);
    expect(users.get(editorA)).toEqual({ entries: 3, edits: 1 });
    expect(users.get(editorB)).toEqual({ entries: 0, edits: 1 });

    expect(await scopeCounts(db, null)).toEqual({
      byAction: { create: 3, update: 2, delete: 1, login_failed: 1, other: 1 },
      byTable: { budgets: 4, companies: 1, actual_expenses: 1, users: 1, backups: 1 },
    });
    // A company's counts are its users' events only (no system entries).
    expect(await scopeCounts(db, companyA)).toEqual({
      byAction: { create: 3, update: 1 },
      byTable: { budgets: 3, companies: 1 },
    });
    // Failed sign-ins make nobody active.
    expect((await mostActive(db, null, 5)).map((u) => [u.userId, Number(u.events)])).toEqual([
      [editorA, 4],
      [editorB, 2],
    ]);
    expect((await mostActive(db, companyA, 5)).map((u) => u.userId)).toEqual([editorA]);
    expect(
      (await db.selectFrom('activityScopeWindow').select('companyId').distinct().execute()).map((r) => r.companyId),
    ).toContain(EVERY_COMPANY);
  });

  it('readers keep the stored counts until a run finds the trail changed or the counts an hour old', async () => {
    const db = database.db;
    const first = await activityWindow(db, NOW);
    expect(await refreshActivityWindow(db, { now: NOW })).toEqual({ skipped: 'unchanged' });

    await db
      .insertInto('auditLogs')
      .values(entry(editorA, 'create', 'budgets', hoursAgo(1)))
      .execute();
    // Stored: the new entry is not counted until the job's next run.
    expect((await userCounts(db, [editorA])).get(editorA)).toEqual({ entries: 3, edits: 1 });
    expect(await activityWindow(db, NOW)).toEqual(first);

    expect(await refreshActivityWindow(db, { now: NOW })).toMatchObject({ skipped: null });
    expect((await userCounts(db, [editorA])).get(editorA)).toEqual({ entries: 4, edits: 1 });
    expect(await refreshActivityWindow(db, { now: NOW })).toEqual({ skipped: 'unchanged' });

    // An hour on, with no new entry, the window has moved: counted again from the new now.
    const almost = new Date(NOW.getTime() + RECOMPUTE_AFTER_MS - 60_000);
    expect(await refreshActivityWindow(db, { now: almost })).toEqual({ skipped: 'unchanged' });
    const later = new Date(NOW.getTime() + RECOMPUTE_AFTER_MS + 60_000);
    expect(await refreshActivityWindow(db, { now: later })).toMatchObject({ skipped: null });
    expect(await activityWindow(db, later)).toMatchObject({
      until: later.toISOString(),
      computedAt: later.toISOString(),
    });
  });

  it('a user deleted since is counted in every company’s totals, not as a person', async () => {
    const db = database.db;
    const gone = await createTestUser(db, { role: 'editor', companyId: companyA });
    await db
      .insertInto('auditLogs')
      .values(entry(gone.id, 'create', 'budgets', hoursAgo(2)))
      .execute();
    await db.updateTable('auditLogs').set({ userId: null }).where('userId', '=', gone.id).execute();
    await db.deleteFrom('users').where('id', '=', gone.id).execute();
    await refreshActivityWindow(db, { now: NOW, force: true });
    expect((await userCounts(db)).has(gone.id)).toBe(false);
    expect((await scopeCounts(db, null)).byAction.create).toBe(5);
    expect((await scopeCounts(db, companyA)).byAction.create).toBe(4);
  });
});
