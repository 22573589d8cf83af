// User activity for User Management: analytics from the real sessions in
// user_sessions and the audit trail, activity statistics, and the paged activity history.
import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import { dialectOf, filterOnly } from '../../../db/dialect.ts';
import { auditEntries } from '../../../db/audit-counts.ts';
import type { Database } from '../../../db/types.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import { dayAfter, dayStart, daysBefore } from '../../platform/lib/dates.ts';
import { HISTORY_PAGE_SIZE } from '../../platform/lib/paging.ts';
import { ActivityHistoryQuerySchema } from './schemas.ts';
import { fieldErrorsFromZod, invalid } from '../../platform/errors.ts';
import { userChoices, userNamed, type UserChoice } from './user-filter.server.ts';
import { ACTIVITY_WINDOW_DAYS, activityWindow, mostActive, scopeCounts, userCounts } from './activity-window.server.ts';
import type { ActivityAnalytics, ActivityEvent, ActivityLevel, ActivityStatistics, UserActivity } from './answers.ts';

export { ACTIVITY_WINDOW_DAYS };
export type { ActivityAnalytics, ActivityEvent, ActivityLevel, ActivityStatistics, UserActivity };

// ---------------------------------------------------------------------------------------------
// Pure helpers and the constants behind them.

/** Activity score = 2 × entries (creates) + 1 × edits (updates) + 3 × sign-ins (docs/decisions.md). */
export const ACTIVITY_SCORE_WEIGHTS = { entry: 2, edit: 1, login: 3 } as const;
/** The score bar is capped at 100%. */
export const MAX_ACTIVITY_SCORE = 100;
/** Levels: 50 or more high, 25 or more medium, 10 or more low, else inactive. */
export const ACTIVITY_LEVEL_THRESHOLDS = { high: 50, medium: 25, low: 10 } as const;
/**
 * The "Active Users" card of Activity Analytics (our own definition): active accounts
 * seen (signed in or using the app) within this many days.
 */
export const ACTIVE_USER_WINDOW_DAYS = 7;
/** Activity statistics: how many most active users to list. */
export const TOP_USERS = 5;

export function activityScore(counts: { logins: number; entries: number; edits: number }): number {
  const raw =
    ACTIVITY_SCORE_WEIGHTS.login * counts.logins +
    ACTIVITY_SCORE_WEIGHTS.entry * counts.entries +
    ACTIVITY_SCORE_WEIGHTS.edit * counts.edits;
  return Math.max(0, Math.min(MAX_ACTIVITY_SCORE, Math.round(raw)));
}

export function activityLevel(score: number): ActivityLevel {
  if (score >= ACTIVITY_LEVEL_THRESHOLDS.high) return 'high';
  if (score >= ACTIVITY_LEVEL_THRESHOLDS.medium) return 'medium';
  if (score >= ACTIVITY_LEVEL_THRESHOLDS.low) return 'low';
  return 'inactive';
}

/** Seconds → minutes with one decimal (durations are stored in seconds). */
export const toMinutes = (seconds: number) => Math.round(seconds / 6) / 10;

const startOfUtcDay = (now: Date) => dayStart(now.toISOString().slice(0, 10));
const later = (a: string | null | undefined, b: string | null | undefined) =>
  !a ? (b ?? null) : !b ? a : a > b ? a : b;

// ---------------------------------------------------------------------------------------------
// GET /api/users/activity/analytics

export async function userActivityAnalytics(ctx: ServiceContext, now = new Date()): Promise<ActivityAnalytics> {
  requirePermission(ctx, 'users');
  const scope = actorCompanyScope(ctx);
  const { db } = ctx;
  const since = daysBefore(now, ACTIVITY_WINDOW_DAYS);
  const activeSince = daysBefore(now, ACTIVE_USER_WINDOW_DAYS);
  const today = startOfUtcDay(now);

  let usersQuery = db
    .selectFrom('users')
    .select(['id', 'username', 'fullName', 'email', 'role', 'isActive', 'lastLoginAt', 'lastActivityAt']);
  if (scope !== null) usersQuery = usersQuery.where('companyId', '=', scope);

  const sessions = () => {
    let q = db.selectFrom('userSessions as s').innerJoin('users as u', 'u.id', 's.userId');
    if (scope !== null) q = q.where('u.companyId', '=', scope);
    return q;
  };
  const totalsQuery = sessions()
    .select((eb) => [
      's.userId',
      eb.fn.countAll().as('logins'),
      eb.fn.sum<number>('s.sessionDuration').as('seconds'),
      eb.fn.max('s.loginAt').as('lastLogin'),
      eb.fn.max('s.lastSeenAt').as('lastSeen'),
      eb.fn.count<number>(sql`case when ${sql.ref('s.loginAt')} >= ${since} then 1 end`).as('recentLogins'),
      eb.fn.count<number>(sql`case when ${sql.ref('s.loginAt')} >= ${today} then 1 end`).as('loginsToday'),
    ])
    .groupBy('s.userId');
  // A session still open has no stored duration yet: it counts up to its last request.
  const openQuery = sessions().select(['s.userId', 's.loginAt', 's.lastSeenAt']).where('s.isActive', '=', true);

  // The window's creates and updates per user, as the activity-window job last counted them.
  const window = await activityWindow(db, now);
  const [users, totals, open, counts] = await Promise.all([
    usersQuery.execute(),
    totalsQuery.execute(),
    openQuery.execute(),
    userCounts(db),
  ]);

  const byUser = new Map(totals.map((t) => [t.userId, { ...t, seconds: Number(t.seconds ?? 0) }]));
  for (const s of open) {
    const t = byUser.get(s.userId);
    if (t) t.seconds += Math.max(0, Math.floor((Date.parse(s.lastSeenAt) - Date.parse(s.loginAt)) / 1000));
  }

  let allLogins = 0;
  let allSeconds = 0;
  let loginsToday = 0;
  let activeUsers = 0;
  const rows: UserActivity[] = users.map((u) => {
    const t = byUser.get(u.id);
    const logins = Number(t?.logins ?? 0);
    const seconds = t?.seconds ?? 0;
    const recentLogins = Number(t?.recentLogins ?? 0);
    const { entries, edits } = counts.get(u.id) ?? { entries: 0, edits: 0 };
    allLogins += logins;
    allSeconds += seconds;
    loginsToday += Number(t?.loginsToday ?? 0);
    const lastLogin = later(t?.lastLogin as string | undefined, u.lastLoginAt);
    const lastActivity = later(later(t?.lastSeen as string | undefined, u.lastActivityAt), lastLogin);
    if (u.isActive && lastActivity && lastActivity >= activeSince) activeUsers += 1;
    const score = activityScore({ logins: recentLogins, entries, edits });
    return {
      userId: u.id,
      username: u.username,
      fullName: u.fullName,
      email: u.email,
      role: u.role,
      isActive: u.isActive,
      activityLevel: activityLevel(score),
      totalLogins: logins,
      totalSessionTime: toMinutes(seconds),
      averageSessionTime: logins ? toMinutes(seconds / logins) : 0,
      lastLogin,
      lastActivity,
      activityScore: score,
      recentLogins,
      recentEntries: entries,
      recentEdits: edits,
    };
  });
  rows.sort(
    (a, b) =>
      b.activityScore - a.activityScore ||
      (b.lastActivity ?? '').localeCompare(a.lastActivity ?? '') ||
      a.userId - b.userId,
  );
  return {
    summary: {
      totalUsers: users.length,
      activeUsers,
      loginsToday,
      averageSessionDuration: allLogins ? toMinutes(allSeconds / allLogins) : 0,
    },
    users: rows,
    computedAt: window.computedAt,
  };
}

// ---------------------------------------------------------------------------------------------
// GET /api/users/activity/statistics

/**
 * Counts over the audit trail of the last ACTIVITY_WINDOW_DAYS days, as the activity-window job
 * last stored them, and over sessions now (the answer's shape is our own). A
 * company-scoped manager counts only their company's users; others also count events without a
 * user (system, CLI, unknown sign-ins).
 */
export async function userActivityStatistics(ctx: ServiceContext, now = new Date()): Promise<ActivityStatistics> {
  requirePermission(ctx, 'users');
  const scope = actorCompanyScope(ctx);
  const { db } = ctx;
  const weekAgo = daysBefore(now, ACTIVE_USER_WINDOW_DAYS);
  const today = startOfUtcDay(now);

  const sessions = () => {
    let q = db.selectFrom('userSessions as s').innerJoin('users as u', 'u.id', 's.userId');
    if (scope !== null) q = q.where('u.companyId', '=', scope);
    return q;
  };
  const window = await activityWindow(db, now);
  const [counted, top, failedToday, loginCounts, active] = await Promise.all([
    scopeCounts(db, scope),
    mostActive(db, scope, TOP_USERS),
    // Today's failed sign-ins, read now: a day's few entries from the (action, timestamp) index.
    db
      .selectFrom('auditLogs as a')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('a.action', '=', 'login_failed')
      .where('a.timestamp', '>=', today)
      .where('a.timestamp', '<=', now.toISOString())
      .$if(scope !== null, (q) =>
        q.where('a.userId', 'in', (eb) => eb.selectFrom('users').select('id').where('companyId', '=', scope)),
      )
      .executeTakeFirstOrThrow(),
    sessions()
      .select((eb) => [
        eb.fn.count<number>(sql`case when ${sql.ref('s.loginAt')} >= ${today} then 1 end`).as('today'),
        eb.fn.countAll<number>().as('week'),
        eb.fn.count<number>(sql`distinct ${sql.ref('s.userId')}`).as('users'),
      ])
      .where('s.loginAt', '>=', weekAgo)
      .executeTakeFirstOrThrow(),
    sessions()
      .select((eb) => eb.fn.countAll().as('n'))
      .where('s.isActive', '=', true)
      .where('s.expiresAt', '>', now.toISOString())
      .executeTakeFirstOrThrow(),
  ]);

  return {
    windowDays: ACTIVITY_WINDOW_DAYS,
    since: window.since,
    computedAt: window.computedAt,
    totalEvents: Object.values(counted.byAction).reduce((a, b) => a + b, 0),
    eventsByAction: counted.byAction,
    eventsByTable: counted.byTable,
    loginsToday: Number(loginCounts.today),
    loginsThisWeek: Number(loginCounts.week),
    failedLoginsToday: Number(failedToday.n),
    activeSessions: Number(active.n),
    activeUsersThisWeek: Number(loginCounts.users),
    mostActiveUsers: top.map((u) => ({
      userId: u.userId,
      username: u.username,
      fullName: u.fullName,
      email: u.email,
      events: Number(u.events),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// GET /api/users/activity/history

export async function userActivityHistory(
  ctx: ServiceContext,
  rawQuery: unknown,
): Promise<{ events: ActivityEvent[]; total: number; totalPages: number; limit: number; offset: number }> {
  requirePermission(ctx, 'users');
  const parsed = ActivityHistoryQuerySchema.safeParse(rawQuery ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const q = parsed.data;
  const limit = q.limit ?? HISTORY_PAGE_SIZE;
  const offset = q.offset ?? (q.page ? (q.page - 1) * limit : 0);
  const scope = actorCompanyScope(ctx);

  const eb = expressionBuilder<Database & { a: Database['auditLogs'] }, 'a'>();
  // A company-limited manager reads their company's users' entries: counted from those users'
  // entries, while the page filters the newest entries by them (read in time order until full).
  const conditions = (author: Expression<number | null>) => {
    const where: Expression<SqlBool>[] = [];
    if (scope !== null)
      where.push(eb(author, 'in', eb.selectFrom('users').select('users.id').where('users.companyId', '=', scope)));
    if (q.userId) where.push(eb('a.userId', '=', q.userId));
    if (q.startDate) where.push(eb('a.timestamp', '>=', dayStart(q.startDate)));
    if (q.endDate) where.push(eb('a.timestamp', '<', dayAfter(q.endDate)));
    if (q.action) where.push(eb('a.action', '=', q.action));
    if (q.tableName) where.push(eb('a.tableName', '=', q.tableName));
    return eb.and(where);
  };
  const base = () =>
    ctx.db
      .selectFrom('auditLogs as a')
      .leftJoin('users as u', 'u.id', 'a.userId')
      .where(conditions(filterOnly(dialectOf(ctx.db), 'a.userId')));
  // The whole trail is counted as it is written (db/audit-counts.ts); a filtered one without the
  // users' join.
  const unfiltered = scope === null && !q.userId && !q.startDate && !q.endDate && !q.action && !q.tableName;
  const total = unfiltered
    ? await auditEntries(ctx.db, null)
    : Number(
        (
          await ctx.db
            .selectFrom('auditLogs as a')
            .where(conditions(eb.ref('a.userId')))
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
  const rows = await base()
    .select([
      'a.id',
      'a.action',
      'a.tableName',
      'a.recordId',
      'a.timestamp',
      'a.ipAddress',
      'a.reason',
      'a.actorLabel',
      'a.userId',
      'u.id as uid',
      'u.username',
      'u.fullName',
      'u.email',
    ])
    .orderBy('a.timestamp', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const events = rows.map((r) => ({
    id: r.id,
    user:
      r.uid !== null && r.uid !== undefined
        ? { id: r.uid, username: r.username!, fullName: r.fullName ?? null, email: r.email! }
        : null,
    actorLabel: r.actorLabel,
    action: r.action,
    tableName: r.tableName,
    recordId: r.recordId,
    timestamp: r.timestamp,
    ipAddress: r.ipAddress || null,
    reason: r.reason || null,
  }));
  return { events, total, totalPages: Math.ceil(total / limit), limit, offset };
}

/** The users the history may be filtered by (null: too many to list, user-filter.server.ts). */
export async function historyUserChoices(ctx: ServiceContext): Promise<UserChoice[] | null> {
  requirePermission(ctx, 'users');
  return userChoices(ctx.db, actorCompanyScope(ctx));
}

/** The user the history filter's text names (id, username or e-mail) among those it may name. */
export async function historyUserNamed(
  ctx: ServiceContext,
  text: string,
): Promise<(UserChoice & { username: string }) | null> {
  requirePermission(ctx, 'users');
  return userNamed(ctx.db, actorCompanyScope(ctx), text);
}
