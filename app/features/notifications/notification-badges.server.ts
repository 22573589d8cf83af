// The bell's count as kept per user (notification_badges, migration 0025). Counting every
// notification that reaches a user costs a row lookup per notification (tens of thousands for an
// administrator), and every page's top bar shows it; so the count is kept with what it was
// counted from and read back while that still holds:
// - the notifications' change token (any notification written, by any process),
// - the user's state version (their read and dismissed states, bumped by triggers),
// - the reader's scope (role, company, enabled categories),
// - time: until the first expiry after the count, after which the notifications that expired
//   since are counted and taken off (a few rows through the expiry index), not all again.
// The count is kept split by category too (by_category, migration 0030): the Notifications
// page's category tabs total from it.
// A reader whose row no longer holds counts again and stores the count only if the state version
// it read first is still the row's: a state written meanwhile leaves the row for the next reader.
import { sql } from 'kysely';
import { runCompiled } from '../../../db/compiled-cache.ts';
import { dialectOf } from '../../../db/dialect.ts';
import type { CategoryCounts, KeptNotificationCount, NotificationCategory } from './shared.ts';
import type { Db } from '../../platform/context.ts';

/** Counts the reader's notifications: live at `now`, or those that expired in (after, now]. */
export type CountReaching = (now: string, expiredAfter?: string) => Promise<KeptNotificationCount>;

interface BadgeRow {
  stateVersion: number;
  countedStateVersion: number | null;
  countedToken: string | null;
  scope: string | null;
  total: number;
  unread: number;
  byCategory: string | null;
  countedAt: string | null;
  nextExpiry: string | null;
  token: string | null;
}

/** The notifications' change token (see migration 0025), as text. */
function tokenOf(db: Db) {
  return dialectOf(db) === 'postgres'
    ? sql<string>`(select token::text from change_tokens where table_name = 'notifications')`
    : sql<string>`((select counter from change_counters where table_name = 'notifications') || ':' || (select schema_version from pragma_schema_version))`;
}

/** The user's kept row with the current token; undefined when the user has none yet. */
async function readBadge(db: Db, userId: number): Promise<BadgeRow | undefined> {
  // On every page: compiled once.
  const [row] = await runCompiled(db, 'notificationBadge', [userId], ([id]) =>
    db
      .selectFrom('notificationBadges')
      .select([
        'stateVersion',
        'countedStateVersion',
        'countedToken',
        'scope',
        'total',
        'unread',
        'byCategory',
        'countedAt',
        'nextExpiry',
        tokenOf(db).as('token'),
      ])
      .where('userId', '=', id as number),
  );
  return row;
}

async function nextExpiryAfter(db: Db, instant: string): Promise<string | null> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.min('expiresAt').as('next'))
    .where('expiresAt', '>', instant)
    .executeTakeFirst();
  return (row?.next as string | null | undefined) ?? null;
}

/**
 * The reader's unread and total notifications, from the kept row while it holds (see the top of
 * the file), else counted by `count` and kept. `scope` names everything besides the
 * notifications and the user's states that decides what reaches the reader.
 */
/** The kept split, or null when the row was counted before it was kept (a count is due). */
function categoriesOf(row: BadgeRow): CategoryCounts | null {
  if (row.byCategory === null) return null;
  try {
    return JSON.parse(row.byCategory) as CategoryCounts;
  } catch {
    return null;
  }
}

/** `kept` less what expired since (per category too). */
function without(kept: KeptNotificationCount, gone: KeptNotificationCount): KeptNotificationCount {
  const byCategory: CategoryCounts = { ...kept.byCategory };
  for (const [category, count] of Object.entries(gone.byCategory) as [
    NotificationCategory,
    { total: number; unread: number },
  ][]) {
    const before = byCategory[category] ?? { total: 0, unread: 0 };
    byCategory[category] = { total: before.total - count.total, unread: before.unread - count.unread };
  }
  return { total: kept.total - gone.total, unread: kept.unread - gone.unread, byCategory };
}

/**
 * The reader's unread and total notifications (and per category), from the kept row while it
 * holds (see the top of the file), else counted by `count` and kept. `scope` names everything
 * besides the notifications and the user's states that decides what reaches the reader.
 */
export async function keptNotificationCount(
  db: Db,
  userId: number,
  scope: string,
  count: CountReaching,
  now = new Date(),
): Promise<KeptNotificationCount> {
  const nowIso = now.toISOString();
  let row = await readBadge(db, userId);
  const categories = row ? categoriesOf(row) : null;
  if (
    row &&
    categories &&
    row.countedStateVersion === row.stateVersion &&
    row.countedToken === row.token &&
    row.scope === scope &&
    row.countedAt !== null
  ) {
    const held: KeptNotificationCount = { total: row.total, unread: row.unread, byCategory: categories };
    if (row.nextExpiry === null || now.getTime() < Date.parse(row.nextExpiry)) return held;
    // Only time passed: take off what expired since the count.
    const kept = without(held, await count(nowIso, row.countedAt));
    const nextExpiry = await nextExpiryAfter(db, nowIso);
    await db
      .updateTable('notificationBadges')
      .set({
        total: kept.total,
        unread: kept.unread,
        byCategory: JSON.stringify(kept.byCategory),
        countedAt: nowIso,
        nextExpiry,
      })
      .where('userId', '=', userId)
      .where('stateVersion', '=', row.stateVersion)
      .where('countedStateVersion', '=', row.stateVersion)
      .where('countedToken', '=', row.countedToken)
      .where('countedAt', '=', row.countedAt)
      .execute();
    return kept;
  }

  if (!row) {
    // The row first, so that a state written while counting bumps it.
    await db
      .insertInto('notificationBadges')
      .values({ userId })
      .onConflict((oc) => oc.column('userId').doNothing())
      .execute();
    row = (await readBadge(db, userId))!;
  }
  const counted = await count(nowIso);
  const nextExpiry = await nextExpiryAfter(db, nowIso);
  await db
    .updateTable('notificationBadges')
    .set({
      countedStateVersion: row.stateVersion,
      countedToken: row.token,
      scope,
      total: counted.total,
      unread: counted.unread,
      byCategory: JSON.stringify(counted.byCategory),
      countedAt: nowIso,
      nextExpiry,
    })
    .where('userId', '=', userId)
    .where('stateVersion', '=', row.stateVersion)
    .execute();
  return counted;
}
