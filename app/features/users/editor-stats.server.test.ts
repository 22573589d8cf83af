// Editor figures on every test dialect, from planted sessions and audit entries with known
// answers: entries, edits, weekly hours (only the last 7 days of a session count), scores and
// levels, the ranking, distribution and per-company analytics; My Dashboard's goals, accuracy
// (an entry corrected by someone else within 7 days, over a busy editor's latest entries only),
// budget status and department variances;
// the activity feed's descriptions and edit shortcuts; PATCH through an activity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { editorActivities, updateActivityRecord } from './editor-activity.server.ts';
import { editorMetrics } from '../dashboards/editor-dashboard.server.ts';
import { editorActivityHistory, editorStats, workOf } from './editor-stats.server.ts';
import { EXAMINED_ENTRIES } from './schemas.ts';

const NOW = new Date('2026-11-20T12:00:00Z');
const ago = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();

describe.each(TEST_DIALECTS)('editor figures on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let owner: ServiceContext;
  let busy: { id: number; ctx: ServiceContext };
  let quiet: { id: number; ctx: ServiceContext };
  let a: { id: number; name: string };
  let b: { id: number; name: string };
  let departmentId: number;
  let categoryId: number;
  let budgetId: number;

  const audit = (userId: number, action: string, hoursAgo: number, extra: Record<string, unknown> = {}) => ({
    tableName: 'budgets',
    recordId: null as number | null,
    action,
    userId,
    timestamp: ago(hoursAgo),
    companyId: a.id,
    oldData: null,
    changes: null,
    ipAddress: '10.0.0.1',
    userAgent: null,
    reason: null,
    sessionId: null,
    actorLabel: null,
    ...extra,
    newData: extra.newData ? (JSON.stringify(extra.newData) as never) : null,
  });

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    owner = await userContext(db, await ownerId(db));
    [a, b] = (await db.selectFrom('companies').select(['id', 'name']).orderBy('id').execute()).slice(0, 2);
    // A category and its own department: a category of another department is refused.
    const category = await db
      .selectFrom('expenseCategories')
      .select(['id', 'departmentId'])
      .where('companyId', '=', a.id)
      .where('departmentId', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    categoryId = category.id;
    departmentId = category.departmentId!;
    const busyUser = await createTestUser(db, { role: 'editor', companyId: a.id });
    const quietUser = await createTestUser(db, { role: 'editor', companyId: b.id });
    await db.updateTable('users').set({ fullName: 'Busy Editor' }).where('id', '=', busyUser.id).execute();
    await db.updateTable('users').set({ fullName: 'Quiet Editor' }).where('id', '=', quietUser.id).execute();
    busy = { id: busyUser.id, ctx: await userContext(db, busyUser.id) };
    quiet = { id: quietUser.id, ctx: await userContext(db, quietUser.id) };

    // Busy: a 2-hour session 3 days ago, a session of 10 hours that began 8 days ago and ended
    // 7 days ago minus 1 hour (1 hour inside the week), and 4 sign-ins 20 days ago.
    const session = (userId: number, loginHoursAgo: number, lengthHours: number) => ({
      sessionId: `s-${userId}-${loginHoursAgo}`,
      tokenHash: `t-${userId}-${loginHoursAgo}`,
      userId,
      ipAddress: null,
      userAgent: null,
      loginAt: ago(loginHoursAgo),
      lastSeenAt: ago(loginHoursAgo - lengthHours),
      expiresAt: ago(-24),
      logoutAt: ago(loginHoursAgo - lengthHours),
      sessionDuration: lengthHours * 3600,
      isActive: false,
      rememberMe: false,
      endReason: 'logout',
    });
    await db
      .insertInto('userSessions')
      .values([
        session(busy.id, 72, 2),
        session(busy.id, 24 * 8, 25),
        ...[1, 2, 3, 4].map((i) => session(busy.id, 24 * 20 + i, 1)),
      ])
      .execute();

    // A budget row entered by Busy (so the feed can point at it and the dashboard can judge it).
    budgetId = (
      await db
        .insertInto('budgets')
        .values({
          companyId: a.id,
          departmentId,
          categoryId,
          amountCents: 1_000_000,
          period: 'annual',
          startDate: '2026-01-01',
          endDate: '2026-12-31',
          description: 'Team budget',
          status: 'active',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // June has its own monthly budget: it replaces the annual one's June, never added to it.
    await db
      .insertInto('budgets')
      .values({
        companyId: a.id,
        departmentId,
        categoryId,
        amountCents: 500_000,
        period: 'monthly',
        startDate: '2026-06-01',
        endDate: '2026-06-30',
        description: 'June budget',
        status: 'active',
      })
      .execute();
    await db
      .insertInto('actualExpenses')
      .values({
        companyId: a.id,
        departmentId,
        categoryId,
        amountCents: 1_500_000,
        expenseDate: '2026-06-01',
        description: 'Spend',
        vendor: null,
        receiptNumber: null,
      })
      .execute();
    const entries = [
      // 12 creates (3 in the last week), 5 updates, 1 delete; one entry corrected by the owner 1 day later.
      ...Array.from({ length: 12 }, (_, i) =>
        audit(busy.id, 'create', i < 3 ? 24 + i : 24 * 10 + i, {
          recordId: i === 0 ? budgetId : 5000 + i,
          newData: { description: `entry ${i}`, amountCents: 1234, categoryId, departmentId },
        }),
      ),
      ...Array.from({ length: 5 }, (_, i) => audit(busy.id, 'update', 48 + i, { recordId: 6000 + i })),
      audit(busy.id, 'delete', 50, { recordId: 7000 }),
      audit(await ownerId(db), 'update', 24 * 10 + 5 - 24, { recordId: 5005 }),
      // Older than 30 days: not in the score.
      audit(busy.id, 'create', 24 * 40, { recordId: 8000 }),
    ];
    await db.insertInto('auditLogs').values(entries).execute();
  });
  afterAll(() => database?.destroy());

  it('work: 30-day entries and edits, sign-ins, and only the week’s part of each session', async () => {
    const work = (await workOf(db, [busy.id, quiet.id], NOW, 'live')).get(busy.id)!;
    expect(work).toMatchObject({ entries: 12, edits: 5, loginCount: 6, recentLogins: 6 });
    // 2 h three days ago + the last 23 h of the session that began 8 days ago (ended 7 days ago + 23 h... within the week: 24×8−25 = 167 h ago → 168−167 = 1 h).
    expect(work.weekSeconds).toBe(3 * 3600);
    expect((await workOf(db, [quiet.id], NOW, 'live')).get(quiet.id)).toMatchObject({
      entries: 0,
      edits: 0,
      loginCount: 0,
      weekSeconds: 0,
    });
  });

  it('Editor Statistics: ranking, summary, distribution and companies; scoped admins see their company', async () => {
    const stats = await editorStats(owner, NOW);
    const [first, ...rest] = stats.editors;
    // Score = 2 × 12 + 1 × 5 + 3 × 6 = 47 → medium.
    expect(first).toMatchObject({
      userId: busy.id,
      fullName: 'Busy Editor',
      companyName: a.name,
      activityScore: 47,
      activityLevel: 'medium',
      weeklyHours: 3,
      totalEntries: 12,
      totalEdits: 5,
      loginCount: 6,
    });
    expect(rest.find((e) => e.userId === quiet.id)).toMatchObject({ activityScore: 0, activityLevel: 'inactive' });
    expect(stats.summary).toMatchObject({
      totalEditors: stats.editors.length,
      activeEditors: stats.editors.filter((e) => e.activityScore > 10).length,
    });
    expect(stats.distribution.reduce((n, d) => n + d.count, 0)).toBe(stats.editors.length);
    const companyA = stats.companies.find((c) => c.companyName === a.name)!;
    expect(companyA).toMatchObject({
      editors: 1,
      activeEditors: 1,
      entriesPerEditor: 12,
      editsPerEditor: 5,
      editRatio: 0.42,
      activeRate: 100,
    });

    const scopedAdmin = await userContext(db, (await createTestUser(db, { role: 'admin', companyId: b.id })).id);
    expect((await editorStats(scopedAdmin, NOW)).editors.map((e) => e.userId)).toEqual([quiet.id]);
    await expect(editorStats(busy.ctx, NOW)).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'Unable to load editor statistics. Please check your permissions or contact support.',
    });
    const history = await editorActivityHistory(owner);
    expect(history.length).toBeLessThanOrEqual(100);
    expect(history.every((h) => h.userId === busy.id || h.userId === quiet.id)).toBe(true);
  });

  it('the editors’ feed: their writes only, newest first; a company-limited admin sees their company’s editors', async () => {
    const admin = await createTestUser(db, { role: 'admin' });
    await db
      .insertInto('auditLogs')
      .values([
        audit(admin.id, 'create', 1, { recordId: 9001 }),
        audit(quiet.id, 'update', 2, { recordId: 9002 }),
        audit(quiet.id, 'login', 0.5),
      ])
      .execute();
    const history = await editorActivityHistory(owner);
    expect(history.some((h) => h.userId === admin.id || h.action === 'login')).toBe(false);
    expect(history[0]).toMatchObject({ userId: quiet.id, recordId: 9002 });
    const stamps = history.map((h) => h.timestamp);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    expect(history.filter((h) => h.userId === busy.id)).toHaveLength(19);
    const scopedAdmin = await userContext(db, (await createTestUser(db, { role: 'admin', companyId: b.id })).id);
    expect((await editorActivityHistory(scopedAdmin)).map((h) => h.recordId)).toEqual([9002]);
  });

  it('the feed: descriptions, amount, category, company and a shortcut to the row', async () => {
    const [latest] = await editorActivities(db, { userId: busy.id, limit: 50 }).then((rows) =>
      rows.filter((r) => r.recordId === budgetId),
    );
    expect(latest).toMatchObject({
      action: 'create',
      description: `Added Budgets #${budgetId}: entry 0`,
      amount: 12.34,
      company: a.name,
      editUrl: `/budget-planning?edit=${budgetId}`,
      ipAddress: '10.0.0.1',
    });
    expect(latest.category).toEqual(expect.any(String));
    const deleted = (await editorActivities(db, { userId: busy.id, limit: 50 })).find((r) => r.action === 'delete')!;
    expect(deleted.editUrl).toBeNull();
  });

  it('My Dashboard: goals, accuracy, budget status and department variances, all measured', async () => {
    const m = await editorMetrics(busy.ctx, NOW);
    expect(m).toMatchObject({
      totalEntries: 13,
      totalEdits: 5,
      weeklyHours: 3,
      week: { entries: 3, edits: 5 },
      activityScore: 47,
      activityLevel: 'medium',
    });
    expect(m.goals.entries).toEqual({ target: 50, actual: 3, percentage: 6 });
    expect(m.goals.hours).toEqual({ target: 40, actual: 3, percentage: 7.5 });
    // 12 entries within 30 days; the 3 of the last 3 days cannot be judged yet; 1 of 9 corrected.
    expect(m.goals.accuracy).toEqual({ target: 95, actual: 88.9, judged: 9, corrected: 1 });
    expect(m.performance).toEqual({ entries: 66.7, edits: 27.8, other: 5.6, changes: 18 });
    // Planned to 20 November: the annual $10,000 by months (January–October $8,333.33 less June's
    // $833.33, November's $833.33 × 20/30 = $555.55) plus June's own $5,000 = $13,055.55;
    // $15,000 spent: over budget, +14.9 %.
    expect(m.budgetVariances).toMatchObject({ overBudget: 1, underBudget: 0, onTarget: 0, year: 2026 });
    const dept = m.departmentPerformance[0];
    expect(dept.frequency).toBe(12);
    expect(dept.variance).toBe(14.9);
    expect(m.insights.some((t) => t.includes('over its budget'))).toBe(true);
    expect(m.recentActivity.length).toBeLessThanOrEqual(10);
    expect(m.companyAccess).toEqual([a.name]);
  });

  it('My Dashboard of a busy editor: accuracy and department frequency read the latest entries only; a young correction is not judged', async () => {
    const heavy = await createTestUser(db, { role: 'editor', companyId: a.id });
    const other = (
      await db
        .selectFrom('departments')
        .select('id')
        .where('id', '!=', departmentId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    const owners = await ownerId(db);
    const entry = (hoursAgo: number, recordId: number, dept: number) =>
      audit(heavy.id, 'create', hoursAgo, {
        tableName: 'actual_expenses',
        recordId,
        newData: { description: 'x', amountCents: 100, categoryId, departmentId: dept },
      });
    const old = EXAMINED_ENTRIES + 60;
    await db
      .insertInto('auditLogs')
      .values([
        // Made 8 to 19 days ago, newest first: the latest EXAMINED_ENTRIES in the first department.
        ...Array.from({ length: old }, (_, i) =>
          entry(24 * 8 + i, 20_000 + i, i < EXAMINED_ENTRIES ? departmentId : other),
        ),
        // Five of the last two days, in the other department; one corrected an hour later.
        ...Array.from({ length: 5 }, (_, i) => entry(24 + i, 30_000 + i, other)),
        // Corrections: the newest judged entry, one beyond the examined ones, and a young one.
        audit(owners, 'update', 24 * 8 - 1, { tableName: 'actual_expenses', recordId: 20_000 }),
        audit(owners, 'update', 24 * 8 + old - 2, { tableName: 'actual_expenses', recordId: 20_000 + old - 1 }),
        audit(owners, 'update', 23, { tableName: 'actual_expenses', recordId: 30_000 }),
      ])
      .execute();
    const m = await editorMetrics(await userContext(db, heavy.id), NOW);
    expect(m.goals.accuracy).toEqual({ target: 95, actual: 99.5, judged: EXAMINED_ENTRIES, corrected: 1 });
    expect(m.examinedEntries).toBe(EXAMINED_ENTRIES);
    // The latest EXAMINED_ENTRIES of the window: the 5 young ones and the newest 195 older ones.
    expect(m.departmentPerformance.find((d) => d.frequency > 0)).toMatchObject({ frequency: EXAMINED_ENTRIES - 5 });
    expect(
      m.insights.some((t) =>
        t.includes(
          `latest ${EXAMINED_ENTRIES} entries went to actual expenses (${EXAMINED_ENTRIES} of ${EXAMINED_ENTRIES})`,
        ),
      ),
    ).toBe(true);
    // The counts stay whole: every entry of the window, not only the examined ones.
    expect(m.performance.changes).toBe(old + 5);
  });

  it('PATCH through an activity: the caller’s own only, with the resource’s validation', async () => {
    const [activity] = (await editorActivities(db, { userId: busy.id, limit: 50 })).filter(
      (r) => r.recordId === budgetId,
    );
    const updated = await updateActivityRecord(busy.ctx, activity.id, { description: 'Team budget (revised)' });
    expect(updated).toMatchObject({ id: budgetId, description: 'Team budget (revised)' });
    await expect(updateActivityRecord(busy.ctx, activity.id, { amount: -5 })).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(updateActivityRecord(quiet.ctx, activity.id, { description: 'x' })).rejects.toMatchObject({
      kind: 'notFound',
    });
  });
});
