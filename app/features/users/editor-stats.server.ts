// Editor figures (every number computed; docs/decisions.md): from the audit trail (entries = creates,
// edits = updates) and the sign-in sessions (weekly hours = session time in the last 7 days).
// Activity score and level as in User Management (user-activity.server.ts). Editor Statistics
// for owners and admins; a company-limited admin sees their company's editors.
import { sql } from 'kysely';
import { actorCompanyScope, requirePermission, type Db, type ServiceContext } from '../../platform/context.ts';
import { editorActivities, type EditorActivity } from './editor-activity.server.ts';
import { ACTIVITY_WINDOW_DAYS, activityLevel, activityScore, type ActivityLevel } from './user-activity.server.ts';
import { daysBefore } from '../../platform/lib/dates.ts';
import { activityWindow, userCounts } from './activity-window.server.ts';
import { selfServiceCounts, selfServiceEntries } from './self-service.server.ts';

export const WEEK_DAYS = 7;
/** An active editor scores above 10. */
export const ACTIVE_SCORE = 10;
export const TOP_PERFORMERS = 5;
/** The feed's heading says the last 100; 50 are shown. */
export const HISTORY_LENGTH = 100;

const hours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;

export interface UserWork {
  userId: number;
  /** Creates and updates over the last 30 days. */
  entries: number;
  edits: number;
  /** Sign-ins over the last 30 days (the score's), and ever. */
  recentLogins: number;
  loginCount: number;
  lastLogin: string | null;
  /** Seconds signed in during the last 7 days. */
  weekSeconds: number;
}

/** One user's creates and updates of the window, counted now from the (user, timestamp) index. */
async function liveCounts(
  db: Db,
  userIds: readonly number[],
  now: Date,
): Promise<Map<number, { entries: number; edits: number }>> {
  const since = daysBefore(now, ACTIVITY_WINDOW_DAYS);
  const [rows, own] = await Promise.all([
    db
      .selectFrom('auditLogs')
      .select((eb) => ['action', 'userId', eb.fn.countAll().as('n')])
      .where('timestamp', '>=', since)
      .where('timestamp', '<=', now.toISOString())
      .where('action', 'in', ['create', 'update'])
      .where('userId', 'in', [...userIds])
      .groupBy(['action', 'userId'])
      .execute(),
    // Work on one's own account is neither an entry nor an edit.
    selfServiceEntries(db, userIds, since, now.toISOString()).then(selfServiceCounts),
  ]);
  const out = new Map<number, { entries: number; edits: number }>();
  for (const row of rows) {
    const c = out.get(row.userId!) ?? { entries: 0, edits: 0 };
    const mine = own.get(row.userId!);
    if (row.action === 'create') c.entries = Math.max(0, Number(row.n) - (mine?.entries ?? 0));
    else c.edits = Math.max(0, Number(row.n) - (mine?.edits ?? 0));
    out.set(row.userId!, c);
  }
  return out;
}

/**
 * Entries, edits, sign-ins and the week's session time of the given users (three grouped
 * queries, whatever their number). A session's time is from sign-in to its end (sign-out or its
 * last request while open), counted only within the last 7 days. Entries and edits are counted
 * now for one user's own dashboard (`live`), and otherwise read from the activity-window job's
 * stored counts, since counting every user's window grows with the book.
 */
export async function workOf(
  db: Db,
  userIds: readonly number[],
  now: Date,
  counts: 'live' | 'stored',
): Promise<Map<number, UserWork>> {
  const out = new Map<number, UserWork>(
    userIds.map((id) => [
      id,
      { userId: id, entries: 0, edits: 0, recentLogins: 0, loginCount: 0, lastLogin: null, weekSeconds: 0 },
    ]),
  );
  if (userIds.length === 0) return out;
  const since = daysBefore(now, ACTIVITY_WINDOW_DAYS);
  const weekAgo = daysBefore(now, WEEK_DAYS);
  const [audit, logins, week] = await Promise.all([
    counts === 'live' ? liveCounts(db, userIds, now) : userCounts(db, userIds),
    db
      .selectFrom('userSessions')
      .select((eb) => [
        'userId',
        eb.fn.countAll().as('n'),
        eb.fn.max('loginAt').as('last'),
        eb.fn.count<number>(sql`case when ${sql.ref('loginAt')} >= ${since} then 1 end`).as('recent'),
      ])
      .where('userId', 'in', [...userIds])
      .groupBy('userId')
      .execute(),
    db
      .selectFrom('userSessions')
      .select(['userId', 'loginAt', 'lastSeenAt', 'logoutAt', 'sessionDuration', 'isActive'])
      .where('userId', 'in', [...userIds])
      .where('lastSeenAt', '>=', weekAgo)
      .execute(),
  ]);
  for (const [userId, c] of audit) Object.assign(out.get(userId)!, c);
  for (const row of logins)
    Object.assign(out.get(row.userId)!, {
      loginCount: Number(row.n),
      recentLogins: Number(row.recent),
      lastLogin: (row.last as string | null) ?? null,
    });
  const from = Date.parse(weekAgo);
  for (const s of week) {
    const start = Date.parse(s.loginAt);
    const end = s.isActive
      ? Date.parse(s.lastSeenAt)
      : s.logoutAt
        ? Date.parse(s.logoutAt)
        : start + Number(s.sessionDuration) * 1000;
    const counted = Math.max(0, Math.min(end, now.getTime()) - Math.max(start, from));
    out.get(s.userId)!.weekSeconds += Math.floor(counted / 1000);
  }
  return out;
}

export interface EditorStat {
  userId: number;
  fullName: string;
  email: string;
  companyName: string;
  isActive: boolean;
  activityScore: number;
  activityLevel: ActivityLevel;
  /** Hours, one decimal. */
  weeklyHours: number;
  totalEntries: number;
  totalEdits: number;
  lastLoginDate: string | null;
  loginCount: number;
}

export interface EditorStats {
  windowDays: number;
  /** When the activity-window job counted the entries and edits (ISO). */
  computedAt: string;
  summary: {
    totalEditors: number;
    activeEditors: number;
    weeklyHours: number;
    totalEntries: number;
    totalEdits: number;
    averageScore: number;
  };
  editors: EditorStat[];
  topPerformers: EditorStat[];
  distribution: { level: ActivityLevel; count: number; percentage: number }[];
  companies: {
    companyName: string;
    editors: number;
    activeEditors: number;
    weeklyHours: number;
    averageScore: number;
    entriesPerEditor: number;
    editsPerEditor: number;
    hoursPerEditor: number;
    /** Edits ÷ entries (null without entries). */
    editRatio: number | null;
    /** Percent of the company's editors who are active. */
    activeRate: number;
  }[];
}

/** Owners and admins (the 'admin' area); the company the reader is limited to (null: all). */
function editorStatsScope(ctx: ServiceContext): number | null {
  requirePermission(ctx, 'admin', 'read', {
    message: 'Unable to load editor statistics. Please check your permissions or contact support.',
  });
  return actorCompanyScope(ctx);
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** GET /api/admin/editor-stats: every editor ranked by activity score. */
export async function editorStats(ctx: ServiceContext, now = new Date()): Promise<EditorStats> {
  const scope = editorStatsScope(ctx);
  const users = await ctx.db
    .selectFrom('users as u')
    .leftJoin('companies as c', 'c.id', 'u.companyId')
    .select(['u.id', 'u.username', 'u.fullName', 'u.email', 'u.isActive', 'c.name as companyName'])
    .where('u.role', '=', 'editor')
    .$if(scope !== null, (q) => q.where('u.companyId', '=', scope!))
    .execute();
  const window = await activityWindow(ctx.db, now);
  const work = await workOf(
    ctx.db,
    users.map((u) => u.id),
    now,
    'stored',
  );
  const editors: EditorStat[] = users
    .map((u) => {
      const w = work.get(u.id)!;
      const score = activityScore({ logins: w.recentLogins, entries: w.entries, edits: w.edits });
      return {
        userId: u.id,
        fullName: u.fullName || u.username,
        email: u.email,
        companyName: u.companyName ?? 'All Companies',
        isActive: u.isActive,
        activityScore: score,
        activityLevel: activityLevel(score),
        weeklyHours: hours(w.weekSeconds),
        totalEntries: w.entries,
        totalEdits: w.edits,
        lastLoginDate: w.lastLogin,
        loginCount: w.loginCount,
      };
    })
    .sort(
      (a, b) =>
        b.activityScore - a.activityScore || b.weeklyHours - a.weeklyHours || a.fullName.localeCompare(b.fullName),
    );
  const active = editors.filter((e) => e.activityScore > ACTIVE_SCORE);
  const sum = (list: EditorStat[], key: 'weeklyHours' | 'totalEntries' | 'totalEdits' | 'activityScore') =>
    list.reduce((s, e) => s + e[key], 0);
  const levels: ActivityLevel[] = ['high', 'medium', 'low', 'inactive'];
  const byCompany = new Map<string, EditorStat[]>();
  for (const e of editors) byCompany.set(e.companyName, [...(byCompany.get(e.companyName) ?? []), e]);
  return {
    windowDays: ACTIVITY_WINDOW_DAYS,
    computedAt: window.computedAt,
    summary: {
      totalEditors: editors.length,
      activeEditors: active.length,
      weeklyHours: round1(sum(editors, 'weeklyHours')),
      totalEntries: sum(editors, 'totalEntries'),
      totalEdits: sum(editors, 'totalEdits'),
      averageScore: editors.length ? Math.round(sum(editors, 'activityScore') / editors.length) : 0,
    },
    editors,
    topPerformers: editors.slice(0, TOP_PERFORMERS),
    distribution: levels.map((level) => {
      const count = editors.filter((e) => e.activityLevel === level).length;
      return { level, count, percentage: editors.length ? round1((count / editors.length) * 100) : 0 };
    }),
    companies: [...byCompany.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([companyName, list]) => {
        const entries = sum(list, 'totalEntries');
        const edits = sum(list, 'totalEdits');
        const activeCount = list.filter((e) => e.activityScore > ACTIVE_SCORE).length;
        return {
          companyName,
          editors: list.length,
          activeEditors: activeCount,
          weeklyHours: round1(sum(list, 'weeklyHours')),
          averageScore: Math.round(sum(list, 'activityScore') / list.length),
          entriesPerEditor: round1(entries / list.length),
          editsPerEditor: round1(edits / list.length),
          hoursPerEditor: round1(sum(list, 'weeklyHours') / list.length),
          editRatio: entries ? Math.round((edits / entries) * 100) / 100 : null,
          activeRate: round1((activeCount / list.length) * 100),
        };
      }),
  };
}

/** GET /api/admin/editor-activity-history: the editors' last 100 writes, newest first. */
export async function editorActivityHistory(ctx: ServiceContext): Promise<EditorActivity[]> {
  const scope = editorStatsScope(ctx);
  return editorActivities(ctx.db, { editorsOnly: true, companyId: scope, limit: HISTORY_LENGTH });
}
