// The pure helpers behind Activity Analytics: durations, scores and levels;
// and, on every test dialect from planted entries and sessions, the activity statistics: the
// window's counts (nothing before it or after now), a company-limited manager's share, the most
// active users, failed sign-ins today and the sessions' figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import {
  ACTIVITY_LEVEL_THRESHOLDS,
  activityLevel,
  activityScore,
  MAX_ACTIVITY_SCORE,
  toMinutes,
  userActivityHistory,
  userActivityStatistics,
} from './user-activity.server.ts';

describe('toMinutes', () => {
  it('seconds become minutes with one decimal', () => {
    expect(toMinutes(0)).toBe(0);
    expect(toMinutes(30)).toBe(0.5);
    expect(toMinutes(3600)).toBe(60);
    expect(toMinutes(100)).toBe(1.7);
  });
});

describe('activityScore', () => {
  it('is 3 per sign-in, 2 per entry and 1 per edit, capped at 100', () => {
    expect(activityScore({ logins: 0, entries: 0, edits: 0 })).toBe(0);
    expect(activityScore({ logins: 1, entries: 0, edits: 0 })).toBe(3);
    expect(activityScore({ logins: 0, entries: 1, edits: 0 })).toBe(2);
    expect(activityScore({ logins: 0, entries: 0, edits: 1 })).toBe(1);
    expect(activityScore({ logins: 3, entries: 5, edits: 4 })).toBe(23);
    expect(activityScore({ logins: 40, entries: 0, edits: 0 })).toBe(MAX_ACTIVITY_SCORE);
    expect(activityScore({ logins: 1000, entries: 1000, edits: 1000 })).toBe(100);
  });
});

describe('activityLevel', () => {
  it('high from 50, medium from 25, low from 10, else inactive', () => {
    expect(ACTIVITY_LEVEL_THRESHOLDS).toEqual({ high: 50, medium: 25, low: 10 });
    expect(activityLevel(100)).toBe('high');
    expect(activityLevel(50)).toBe('high');
    expect(activityLevel(49)).toBe('medium');
    expect(activityLevel(25)).toBe('medium');
    expect(activityLevel(24)).toBe('low');
    expect(activityLevel(10)).toBe('low');
    expect(activityLevel(9)).toBe('inactive');
    expect(activityLevel(0)).toBe('inactive');
  });
});

describe.each(TEST_DIALECTS)('activity statistics on %s', (dialect) => {
  // Far ahead of the rows the database's own set-up writes, so only the planted ones count.
  const NOW = new Date('2031-06-15T12:00:00.000Z');
  const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
  let database: TestDatabase;
  let editorA: number;
  let editorB: number;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    const db = database.db;
    const [a, b] = await db.selectFrom('companies').select('id').orderBy('id').limit(2).execute();
    editorA = (await createTestUser(db, { role: 'editor', companyId: a.id })).id;
    editorB = (await createTestUser(db, { role: 'editor', companyId: b.id })).id;
    const entry = (userId: number | null, action: string, tableName: string, hours: number) => ({
      tableName,
      recordId: 1,
      action,
      userId,
      timestamp: hoursAgo(hours),
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
    await db
      .insertInto('auditLogs')
      .values([
        ...[1, 2, 3].map((h) => entry(editorA, 'create', 'budgets', 24 * h)),
        entry(editorA, 'update', 'companies', 5),
        entry(editorA, 'create', 'budgets', 24 * 40), // before the window
        entry(editorA, 'create', 'budgets', -2), // after now
        entry(editorB, 'delete', 'budgets', 48),
        entry(editorB, 'delete', 'actual_expenses', 49),
        entry(null, 'other', 'backups', 10),
        entry(null, 'login_failed', 'users', 1),
        entry(null, 'login_failed', 'users', 2),
        entry(editorA, 'login_failed', 'users', 3),
        entry(editorB, 'login_failed', 'users', 24 * 3), // in the window, not today
      ])
      .execute();
    const session = (userId: number, loginHours: number, active: boolean, expiresHours: number) => ({
      sessionId: `s-${userId}-${loginHours}`,
      tokenHash: `t-${userId}-${loginHours}`,
      userId,
      ipAddress: null,
      userAgent: null,
      loginAt: hoursAgo(loginHours),
      lastSeenAt: hoursAgo(loginHours - 1),
      expiresAt: hoursAgo(-expiresHours),
      logoutAt: active ? null : hoursAgo(loginHours - 1),
      sessionDuration: active ? 0 : 3600,
      isActive: active,
      rememberMe: false,
      endReason: active ? null : 'logout',
    });
    await db
      .insertInto('userSessions')
      .values([
        session(editorA, 3, true, 5), // today, open
        session(editorB, 24 * 3, true, -1), // this week, open but expired
        session(editorB, 24 * 20, false, -100), // a month ago
      ])
      .execute();
  });
  afterAll(() => database?.destroy());

  it('counts the window by action, table and user; a company-limited manager counts their company only', async () => {
    const owner = await userContext(database.db, await ownerId(database.db));
    const all = await userActivityStatistics(owner, NOW);
    expect(all.eventsByAction).toEqual({ create: 3, update: 1, delete: 2, other: 1, login_failed: 4 });
    expect(all.eventsByTable).toEqual({ budgets: 4, companies: 1, actual_expenses: 1, backups: 1, users: 4 });
    expect(all.totalEvents).toBe(11);
    expect(all.failedLoginsToday).toBe(3);
    // Failed sign-ins do not make anybody active.
    expect(all.mostActiveUsers.map((u) => [u.userId, u.events])).toEqual([
      [editorA, 4],
      [editorB, 2],
    ]);
    expect(all).toMatchObject({ loginsToday: 1, loginsThisWeek: 2, activeUsersThisWeek: 2, activeSessions: 1 });

    const [a] = await database.db.selectFrom('companies').select('id').orderBy('id').limit(1).execute();
    const manager = await userContext(
      database.db,
      (await createTestUser(database.db, { role: 'admin', companyId: a.id, flags: { canManageUsers: true } })).id,
    );
    const mine = await userActivityStatistics(manager, NOW);
    expect(mine.eventsByAction).toEqual({ create: 3, update: 1, login_failed: 1 });
    expect(mine.failedLoginsToday).toBe(1);
    expect(mine.mostActiveUsers.map((u) => u.userId)).toEqual([editorA]);
    expect(mine).toMatchObject({ loginsToday: 1, loginsThisWeek: 1, activeUsersThisWeek: 1, activeSessions: 1 });
  });

  it('history: a company-limited manager pages through their company’s users’ entries, newest first', async () => {
    const [a] = await database.db.selectFrom('companies').select('id').orderBy('id').limit(1).execute();
    const manager = await userContext(
      database.db,
      (await createTestUser(database.db, { role: 'admin', companyId: a.id, flags: { canManageUsers: true } })).id,
    );
    const page = await userActivityHistory(manager, { limit: 3 });
    expect(page.total).toBe(7);
    expect(page.events.map((e) => e.user?.id)).toEqual([editorA, editorA, editorA]);
    const stamps = page.events.map((e) => e.timestamp);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    expect(page.events[0].timestamp).toBe(hoursAgo(-2));
  });
});
