// The audit trail's last 30 days counted once by the activity-window job and stored
// (migration 0033; docs/activity-window.md), so User Management's analytics and statistics and
// Editor Statistics read a few hundred counts whatever the size of the trail. The window's
// entries grow with the book; the stored counts grow only with the people.
// A run does nothing while the trail is unchanged, except that the window slides: a computation
// older than RECOMPUTE_AFTER_MS is done again. Readers show when the counts were computed.
import { auditEntries } from '../../../db/audit-counts.ts';
import { daysBefore } from '../../platform/lib/dates.ts';
import { ACTIVITY_WINDOW_DAYS } from './schemas.ts';
import type { Db } from '../../platform/context.ts';
import { AUDIT_ACTIONS } from '../audit/index.server.ts';
import { selfServiceCounts, selfServiceEntries } from './self-service.server.ts';
import { claimLease } from '../../platform/work-lease.server.ts';

export { ACTIVITY_WINDOW_DAYS };
/** Even with no new entry the window moves on: a computation this old is done again. */
export const RECOMPUTE_AFTER_MS = 60 * 60_000;
/** The company id of the counts over every company (and the events that name no user). */
export const EVERY_COMPANY = 0;

const RUN_ID = 1;
const DAY_MS = 86_400_000;
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
const LEASE_KEY = 'activity-window:all';
const INSERT_BATCH = 200;
/** How long a reader that finds no computation waits for another process's first one. */
const FIRST_RUN_WAIT_MS = 30_000;

export interface ActivityWindow {
  /** The window's first and last instants (ISO). */
  since: string;
  until: string;
  computedAt: string;
}

/** Whether the audit trail changed: its newest id and its kept total (deletes by retention or a restore change it). */
async function auditToken(db: Db): Promise<string> {
  const newest = await db
    .selectFrom('auditLogs')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return `${newest?.id ?? 0}:${await auditEntries(db, null)}`;
}

async function currentRun(db: Db) {
  return db.selectFrom('activityWindowRuns').selectAll().where('id', '=', RUN_ID).executeTakeFirst();
}

export type ActivityRefresh = { skipped: 'unchanged' | 'running' } | { skipped: null; users: number; seconds: number };

/** Counts the window again when the trail changed or the last computation is old (the job). */
export async function refreshActivityWindow(
  db: Db,
  options: { now?: Date; force?: boolean } = {},
): Promise<ActivityRefresh> {
  const now = options.now ?? new Date();
  const token = await auditToken(db);
  const current = await currentRun(db);
  if (
    !options.force &&
    current &&
    current.auditToken === token &&
    now.getTime() - Date.parse(current.computedAt) < RECOMPUTE_AFTER_MS
  ) {
    return { skipped: 'unchanged' };
  }
  const lease = await claimLease(db, LEASE_KEY);
  if (!lease) return { skipped: 'running' };
  try {
    const began = Date.now();
    const since = daysBefore(now, ACTIVITY_WINDOW_DAYS);
    const until = now.toISOString();
    // The window a day at a time from the (action, timestamp) index, counts by action, table and
    // user, with a pause between days: in embedded mode the job shares the web process's event loop.
    const grouped: { action: string; tableName: string; userId: number | null; n: number | string | bigint }[] = [];
    for (let from = since; from <= until;) {
      const to = new Date(Math.min(Date.parse(from) + DAY_MS, Date.parse(until) + 1)).toISOString();
      grouped.push(
        ...(await db
          .selectFrom('auditLogs')
          .select((eb) => ['action', 'tableName', 'userId', eb.fn.countAll().as('n')])
          .where('action', 'in', [...AUDIT_ACTIONS])
          .where('timestamp', '>=', from)
          .where('timestamp', '<', to)
          .groupBy(['action', 'tableName', 'userId'])
          .execute()),
      );
      from = to;
      await pause();
    }
    const users = await db.selectFrom('users').select(['id', 'companyId']).execute();
    const companyOf = new Map(users.map((u) => [u.id, u.companyId]));
    const perUser = new Map<number, { entries: number; edits: number; events: number }>();
    const perScope = new Map<string, { companyId: number; kind: 'action' | 'table'; name: string; events: number }>();
    const add = (companyId: number, kind: 'action' | 'table', name: string, n: number) => {
      const key = `${companyId}|${kind}|${name}`;
      const row = perScope.get(key) ?? { companyId, kind, name, events: 0 };
      row.events += n;
      perScope.set(key, row);
    };
    for (const r of grouped) {
      const n = Number(r.n);
      // Entries keep a user id only while the user exists (deleting one sets it null).
      const known = r.userId !== null && companyOf.has(r.userId);
      const companies = [
        EVERY_COMPANY,
        ...(known && companyOf.get(r.userId!) != null ? [companyOf.get(r.userId!)!] : []),
      ];
      for (const c of companies) {
        add(c, 'action', r.action, n);
        add(c, 'table', r.tableName, n);
      }
      if (!known) continue;
      const w = perUser.get(r.userId!) ?? { entries: 0, edits: 0, events: 0 };
      if (r.action === 'create') w.entries += n;
      if (r.action === 'update') w.edits += n;
      if (r.action !== 'login_failed') w.events += n;
      perUser.set(r.userId!, w);
    }
    // Work on one's own account is neither an entry nor an edit (the events still count).
    for (const [userId, own] of selfServiceCounts(await selfServiceEntries(db, null, since, until))) {
      const w = perUser.get(userId);
      if (!w) continue;
      w.entries = Math.max(0, w.entries - own.entries);
      w.edits = Math.max(0, w.edits - own.edits);
    }
    const userRows = [...perUser.entries()].map(([userId, w]) => ({ userId, ...w }));
    const scopeRows = [...perScope.values()];
    // Readers see the previous counts or these, never a mixture.
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('activityUserWindow').execute();
      await trx.deleteFrom('activityScopeWindow').execute();
      for (let i = 0; i < userRows.length; i += INSERT_BATCH)
        await trx
          .insertInto('activityUserWindow')
          .values(userRows.slice(i, i + INSERT_BATCH))
          .execute();
      for (let i = 0; i < scopeRows.length; i += INSERT_BATCH)
        await trx
          .insertInto('activityScopeWindow')
          .values(scopeRows.slice(i, i + INSERT_BATCH))
          .execute();
      // Counted as of `now`, the window's end (the job's now is the clock's).
      const run = { windowStart: since, windowEnd: until, computedAt: until, auditToken: token };
      await trx
        .insertInto('activityWindowRuns')
        .values({ id: RUN_ID, ...run })
        .onConflict((oc) => oc.column('id').doUpdateSet(run))
        .execute();
    });
    return { skipped: null, users: userRows.length, seconds: (Date.now() - began) / 1000 };
  } finally {
    await lease.release();
  }
}

/**
 * The stored window readers use. Before the first computation (a new installation, before the
 * job's first run) the reader computes it itself, or waits for the process already doing so.
 */
export async function activityWindow(db: Db, now = new Date()): Promise<ActivityWindow> {
  const deadline = Date.now() + FIRST_RUN_WAIT_MS;
  for (;;) {
    const run = await currentRun(db);
    if (run) return { since: run.windowStart, until: run.windowEnd, computedAt: run.computedAt };
    const result = await refreshActivityWindow(db, { now, force: true });
    if (result.skipped === 'running') {
      if (Date.now() > deadline) throw new Error('The activity counts are still being computed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The window's events by action and by table of one company's users, or of everyone (null). */
export async function scopeCounts(
  db: Db,
  companyId: number | null,
): Promise<{ byAction: Record<string, number>; byTable: Record<string, number> }> {
  const rows = await db
    .selectFrom('activityScopeWindow')
    .select(['kind', 'name', 'events'])
    .where('companyId', '=', companyId ?? EVERY_COMPANY)
    .execute();
  const byAction: Record<string, number> = {};
  const byTable: Record<string, number> = {};
  for (const r of rows) (r.kind === 'action' ? byAction : byTable)[r.name] = Number(r.events);
  return { byAction, byTable };
}

/** The window's creates and updates per user, of the given users (all when omitted). */
export async function userCounts(
  db: Db,
  userIds?: readonly number[],
): Promise<Map<number, { entries: number; edits: number }>> {
  if (userIds && userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('activityUserWindow')
    .select(['userId', 'entries', 'edits'])
    .$if(!!userIds, (q) => q.where('userId', 'in', [...userIds!]))
    .execute();
  return new Map(rows.map((r) => [r.userId, { entries: Number(r.entries), edits: Number(r.edits) }]));
}

/** The most active users of the window (events other than failed sign-ins), of one company or all. */
export async function mostActive(db: Db, companyId: number | null, limit: number) {
  return db
    .selectFrom('activityUserWindow as w')
    .innerJoin('users as u', 'u.id', 'w.userId')
    .select(['u.id as userId', 'u.username', 'u.fullName', 'u.email', 'w.events'])
    .where('w.events', '>', 0)
    .$if(companyId !== null, (q) => q.where('u.companyId', '=', companyId!))
    .orderBy('w.events', 'desc')
    .orderBy('u.id')
    .limit(limit)
    .execute();
}
