// My Dashboard (the editor's personal dashboard; docs/decisions.md): the
// signed-in editor's own figures, every one computed. Tiles and goals from the audit trail and
// sessions; the budget status and department variances of the companies they may see, this
// year to date (each month's one plan from the maintained figures, the current month's by the
// share of its days that have passed, against the expenses booked to those months); accuracy =
// the share of their latest entries made 7 to 30 days ago that nobody else corrected within 7
// days. Accuracy and department frequency read at most EXAMINED_ENTRIES entries each, so a busy
// editor's dashboard costs what a quiet one's does.
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { z } from 'zod';
import { dialectOf, filterOnly, jsonInteger } from '../../../db/dialect.ts';
import { companyScope } from '../../platform/lib/permissions.ts';
import { integerParam } from '../../platform/lib/query-params.ts';
import { analyzeBudget, ON_TARGET_PERCENT } from '../ai/index.ts';
import { requireUser, type ServiceContext } from '../../platform/context.ts';
import { SELF_SERVICE_TABLES } from '../../../db/audit-user-counts.ts';
import { selfServiceEntries } from '../users/index.server.ts';
import { editorActivities, type EditorActivity } from '../users/index.server.ts';
import { workOf } from '../users/index.server.ts';
import { budgetFigures } from '../finance/index.server.ts';
import { listVisibleCompanies } from '../../platform/companies.server.ts';
import { ACTIVITY_WINDOW_DAYS, activityLevel, activityScore, toMinutes } from '../users/index.server.ts';
import { daysBefore } from '../../platform/lib/dates.ts';
import { EXAMINED_ENTRIES } from '../users/index.ts';
import type { EditorMetrics } from './answers.ts';
import { createTranslate, msg, type CompiledMessage, type Translate } from '../../platform/i18n/messages.ts';

/** Weekly goals of 50 entries and 40 hours; an accuracy target of 95 %. */
export const WEEKLY_GOALS = { entries: 50, hours: 40, accuracy: 95 } as const;
/** An entry changed by someone else within this many days counts as corrected. */
export const CORRECTION_DAYS = 7;
/** The recent-activity feed shows 10. */
export const RECENT_ACTIVITY = 10;
/** Department variance above +10 % reads red, below −10 % green, otherwise yellow. */
export const VARIANCE_BAND = 10;

export type { EditorMetrics };

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/** The insights' texts (docs/languages.md): the screen's reader's language, English for /api. */
const INSIGHTS = {
  week: msg(
    'In the last 7 days you added {entries, plural, one {# entry} other {# entries}} and made {edits, plural, one {# edit} other {# edits}}: {percent} of the weekly goal of {goal} entries.',
  ),
  busiestLatest: msg('Most of your latest {latest} entries went to {table} ({count} of {total}).'),
  busiestWindow: msg('Most of your entries of the last {days} days went to {table} ({count} of {total}).'),
  overBudget: msg('{department} is {variance} over its budget so far this year.'),
  accuracy: msg('{accuracy} of your {judged} judged entries needed no correction by someone else (target {target}).'),
};

const english: Translate = createTranslate(
  'en',
  Object.fromEntries(Object.values(INSIGHTS).map((text) => [text, compileMessage(text) as CompiledMessage])),
);

/** GET /api/editor/metrics (in English), and My Dashboard with `t`, its reader's language. */
export async function editorMetrics(
  ctx: ServiceContext,
  now = new Date(),
  t: Translate = english,
): Promise<EditorMetrics> {
  const user = requireUser(ctx);
  const scope = companyScope(user);
  const db = ctx.db;
  const since = daysBefore(now, ACTIVITY_WINDOW_DAYS);
  const weekAgo = daysBefore(now, 7);
  const year = now.getUTCFullYear();
  const thisMonth = now.toISOString().slice(0, 7);
  // One user's entries come from their own index (user, time, action): the action only filters.
  const action = filterOnly<string>(dialectOf(db), 'action');

  const judgedBefore = daysBefore(now, CORRECTION_DAYS);
  const latestEntries = (from: string, to: string | null) =>
    db
      .selectFrom('auditLogs')
      .select([
        'tableName',
        'recordId',
        'timestamp',
        jsonInteger(dialectOf(db), 'newData', 'departmentId').as('departmentId'),
      ])
      .where('userId', '=', user.id)
      .where(action, '=', 'create')
      // One's own settings row (created on first use) is not an entry.
      .where('tableName', '!=', SELF_SERVICE_TABLES.settings)
      .where('timestamp', '>=', from)
      .$if(to !== null, (q) => q.where('timestamp', '<', to!))
      .orderBy('timestamp', 'desc')
      .limit(EXAMINED_ENTRIES)
      .execute();

  const [
    work,
    totals,
    sessions,
    recentChanges,
    created,
    judgeable,
    figures,
    departments,
    categories,
    companies,
    recentActivity,
    ownAccount,
  ] = await Promise.all([
    workOf(db, [user.id], now, 'live').then((m) => m.get(user.id)!),
    // All-time creates and edits as the triggers keep them (db/audit-user-counts.ts), not counted from the trail.
    db.selectFrom('auditUserCounts').select(['action', 'entries as n']).where('userId', '=', user.id).execute(),
    db
      .selectFrom('userSessions')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>('sessionDuration').as('seconds')])
      .where('userId', '=', user.id)
      .where('isActive', '=', false)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('auditLogs')
      .select((eb) => [
        'action',
        eb.fn.countAll().as('n'),
        eb.fn.count<number>(eb.case().when('timestamp', '>=', weekAgo).then(1).end()).as('week'),
      ])
      .where('userId', '=', user.id)
      .where(action, 'in', ['create', 'update', 'delete', 'restore'])
      .where('timestamp', '>=', since)
      .groupBy('action')
      .execute(),
    latestEntries(since, null),
    // Old enough to be judged: an entry younger than the correction period is not judged yet.
    latestEntries(since, judgedBefore),
    budgetFigures(db, { companyId: scope, from: `${year}-01`, to: thisMonth }, ['category', 'department', 'month']),
    db.selectFrom('departments').select(['id', 'name']).execute(),
    db
      .selectFrom('expenseCategories')
      .select(['id', 'name'])
      .$if(scope !== null, (q) => q.where('companyId', '=', scope!))
      .execute(),
    listVisibleCompanies(ctx),
    editorActivities(db, { userId: user.id, limit: RECENT_ACTIVITY }),
    // Work on one's own account (password, profile, settings) is neither an entry nor an edit.
    selfServiceEntries(db, [user.id], since, now.toISOString()),
  ]);

  const total = (action: string) => Number(totals.find((r) => r.action === action)?.n ?? 0);
  const own = (act: string, key: 'n' | 'week') =>
    ownAccount.filter((e) => e.action === act && (key === 'n' || new Date(e.timestamp).toISOString() >= weekAgo))
      .length;
  const recent = (act: string, key: 'n' | 'week' = 'n') =>
    Math.max(0, Number(recentChanges.find((r) => r.action === act)?.[key] ?? 0) - own(act, key));
  const changes = recentChanges.reduce((s, r) => s + Number(r.n), 0) - ownAccount.length;
  const score = activityScore({ logins: work.recentLogins, entries: work.entries, edits: work.edits });
  const weeklyHours = Math.round((work.weekSeconds / 3600) * 10) / 10;
  const weekEntries = recent('create', 'week');

  // Accuracy: of the entries old enough to be judged, those nobody else changed within 7 days.
  const keys = judgeable.filter((c) => c.recordId !== null);
  const corrections = keys.length
    ? await db
        .selectFrom('auditLogs')
        .select(['tableName', 'recordId', 'timestamp'])
        // By table and record (their index): a correction is an update of that very row.
        .where('tableName', 'in', [...new Set(keys.map((k) => k.tableName))])
        .where('recordId', 'in', [...new Set(keys.map((k) => k.recordId!))])
        .where(action, '=', 'update')
        .where('userId', '!=', user.id)
        .where('timestamp', '>=', since)
        .execute()
    : [];
  const judged = keys.length;
  let corrected = 0;
  for (const entry of keys) {
    const from = Date.parse(entry.timestamp);
    const until = from + CORRECTION_DAYS * 86_400_000;
    if (
      corrections.some(
        (c) =>
          c.tableName === entry.tableName &&
          c.recordId === entry.recordId &&
          Date.parse(c.timestamp) > from &&
          Date.parse(c.timestamp) <= until,
      )
    )
      corrected += 1;
  }
  const accuracy = judged ? Math.round(((judged - corrected) / judged) * 1000) / 10 : null;

  // Plans to date, by category (status counts) and by department (variances): each month's one
  // plan, the current month's by the share of its days that have passed.
  const passed = now.getUTCDate() / new Date(Date.UTC(year, now.getUTCMonth() + 1, 0)).getUTCDate();
  const toDate = figures.map((f) => ({
    ...f,
    budgetCents: f.month === thisMonth ? Math.round(f.planCents * passed) : f.planCents,
  }));
  const byCategory = analyzeBudget(
    year,
    toDate.map((f) => ({ categoryId: f.categoryId!, budgetCents: f.budgetCents, actualCents: f.actualCents })),
    new Map(categories.map((c) => [c.id, c.name])),
  );
  const status = { overBudget: 0, underBudget: 0, onTarget: 0, year };
  for (const c of byCategory.categories) {
    if (c.variancePercentage !== null && Math.abs(c.variancePercentage) <= ON_TARGET_PERCENT) status.onTarget += 1;
    else if (c.varianceCents > 0) status.overBudget += 1;
    else status.underBudget += 1;
  }
  const departmentName = new Map(departments.map((d) => [d.id, d.name]));
  const byDepartment = analyzeBudget(
    year,
    toDate.map((f) => ({ categoryId: f.departmentId!, budgetCents: f.budgetCents, actualCents: f.actualCents })),
    departmentName,
  );
  const frequency = new Map<number, number>();
  for (const c of created) {
    const dept = c.departmentId === null ? null : Number(c.departmentId);
    if (dept !== null) frequency.set(dept, (frequency.get(dept) ?? 0) + 1);
  }
  const departmentPerformance = byDepartment.categories
    .map((d) => ({
      department: d.categoryName,
      variance: d.variancePercentage,
      frequency: frequency.get(d.categoryId) ?? 0,
    }))
    .sort((a, b) => b.frequency - a.frequency || (b.variance ?? 0) - (a.variance ?? 0));

  const insights: string[] = [];
  insights.push(
    t(INSIGHTS.week, {
      entries: weekEntries,
      edits: recent('update', 'week'),
      percent: `${pct(weekEntries, WEEKLY_GOALS.entries)}%`,
      goal: WEEKLY_GOALS.entries,
    }),
  );
  const tables = new Map<string, number>();
  for (const c of created) tables.set(c.tableName, (tables.get(c.tableName) ?? 0) + 1);
  const busiest = [...tables.entries()].sort((a, b) => b[1] - a[1])[0];
  if (busiest)
    insights.push(
      t(created.length === EXAMINED_ENTRIES ? INSIGHTS.busiestLatest : INSIGHTS.busiestWindow, {
        latest: EXAMINED_ENTRIES,
        days: ACTIVITY_WINDOW_DAYS,
        table: busiest[0].replace(/_/g, ' '),
        count: busiest[1],
        total: created.length,
      }),
    );
  const worst = byDepartment.categories.find(
    (d) => d.variancePercentage !== null && d.variancePercentage > VARIANCE_BAND,
  );
  if (worst)
    insights.push(t(INSIGHTS.overBudget, { department: worst.categoryName, variance: `${worst.variancePercentage}%` }));
  if (accuracy !== null)
    insights.push(t(INSIGHTS.accuracy, { accuracy: `${accuracy}%`, judged, target: `${WEEKLY_GOALS.accuracy}%` }));

  const lastLogin = work.lastLogin;
  const endedSessions = Number(sessions.n);
  return {
    totalEntries: total('create'),
    totalEdits: total('update'),
    averageSessionTime: endedSessions ? toMinutes(Number(sessions.seconds ?? 0) / endedSessions) : 0,
    lastLoginDate: lastLogin ? lastLogin.slice(0, 10) : null,
    lastLoginTime: lastLogin ? lastLogin.slice(11, 16) : null,
    weeklyHours,
    week: { entries: weekEntries, edits: recent('update', 'week') },
    activityScore: score,
    activityLevel: activityLevel(score),
    performance: {
      entries: pct(recent('create'), changes),
      edits: pct(recent('update'), changes),
      other: pct(recent('delete') + recent('restore'), changes),
      changes,
    },
    goals: {
      entries: {
        target: WEEKLY_GOALS.entries,
        actual: weekEntries,
        percentage: Math.min(100, pct(weekEntries, WEEKLY_GOALS.entries)),
      },
      hours: {
        target: WEEKLY_GOALS.hours,
        actual: weeklyHours,
        percentage: Math.min(100, pct(weeklyHours, WEEKLY_GOALS.hours)),
      },
      accuracy: { target: WEEKLY_GOALS.accuracy, actual: accuracy, judged, corrected },
    },
    budgetVariances: status,
    departmentPerformance,
    examinedEntries: created.length,
    insights,
    companyAccess: companies.map((c) => c.name),
    recentActivity,
  };
}

/** GET /api/editor/activities?limit (1–100, default 50). */
export const ActivitiesQuery = z.object({ limit: integerParam('limit', 1, 100) });

/** GET /api/editor/activities: the caller's latest writes. */
export async function myActivities(ctx: ServiceContext, limit = 50): Promise<EditorActivity[]> {
  return editorActivities(ctx.db, { userId: requireUser(ctx).id, limit });
}
