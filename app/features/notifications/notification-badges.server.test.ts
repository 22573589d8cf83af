// The bell's kept count (notification_badges): read back in one statement while it holds, and
// equal to a count from scratch after every kind of change: a notification written, a state
// written by any connection, the reader's switches, role or company, expiry and the purge, and a
// state written while a count was running. On every test dialect.
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userContext, noEngine } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { systemActor, type Db, type ServiceContext } from '../../platform/context.ts';
import { keptNotificationCount } from './notification-badges.server.ts';
import {
  countNotifications,
  dismissNotification,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notify,
  purgeExpiredNotifications,
  type NotifyInput,
} from './notifications.server.ts';
import { findUserSettings, updateUserSettings } from '../settings/user-settings.server.ts';

const HOUR = 3_600_000;

describe.each(TEST_DIALECTS)('the bell’s kept count on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let statements = 0;
  const counting: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      statements++;
      return args.result;
    },
  };
  const system = (): ServiceContext => ({ db, actor: systemActor('worker'), meta: {}, runtime: noEngine() });
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  const person = async (options: Parameters<typeof createTestUser>[1] = {}) => {
    const user = await createTestUser(db, { companyId: 4, ...options });
    return { id: user.id, ctx: await userContext(db, user.id) };
  };
  // Each its own event (a title of its own): a repeat of one would update its notification instead.
  let sent = 0;
  const send = (to: NotifyInput['to'], extra: Partial<NotifyInput> = {}) =>
    notify(system(), {
      category: 'system',
      title: `Note ${(sent += 1)}`,
      message: 'Something happened',
      to,
      ...extra,
    }).then((r) => r!.id);
  /** What a count from scratch gives now: the list's totals, which never read the kept row. */
  /** Counted from the rows the list returns (its totals are the kept count itself). */
  const fromScratch = async (ctx: ServiceContext) => {
    const all = (await listNotifications(ctx, { limit: 1000 })).rows;
    const byCategory: Record<string, { total: number; unread: number }> = {};
    for (const row of all) {
      const count = (byCategory[row.category] ??= { total: 0, unread: 0 });
      count.total += 1;
      if (!row.isRead) count.unread += 1;
    }
    return { total: all.length, unread: all.filter((row) => !row.isRead).length, byCategory };
  };
  /** The count as a page's top bar asks it (settings known), and the statements it ran. */
  const topBar = async (ctx: ServiceContext, now?: Date) => {
    const settings = await findUserSettings(db, ctx.actor.kind === 'user' ? ctx.actor.user.id : 0);
    statements = 0;
    const count = await countNotifications({ ...ctx, db: db.withPlugin(counting) }, { settings }, now);
    return { count, statements };
  };

  it('is read back in one statement while nothing changed, and follows every change', async () => {
    const ann = await person({ role: 'admin' });
    for (let i = 0; i < 3; i++) await send({ userId: ann.id });
    await send({ role: 'admin', companyId: 4 });

    const first = await topBar(ann.ctx);
    expect(first.count).toEqual({ total: 4, unread: 4 });
    expect(await topBar(ann.ctx)).toEqual({ count: { total: 4, unread: 4 }, statements: 1 });

    // A notification written (by notify, here the system's).
    const fifth = await send({ userId: ann.id });
    expect((await topBar(ann.ctx)).count).toEqual({ total: 5, unread: 5 });
    // The user's own state, through the service and written directly (another process).
    await markNotificationRead(ann.ctx, fifth);
    expect((await topBar(ann.ctx)).count).toEqual({ total: 5, unread: 4 });
    const [other] = (await listNotifications(ann.ctx, { isRead: false, limit: 1 })).rows;
    await db
      .insertInto('userNotificationSettings')
      .values({ userId: ann.id, notificationId: other.id, isDismissed: true, dismissedAt: new Date().toISOString() })
      .execute();
    expect((await topBar(ann.ctx)).count).toEqual({ total: 4, unread: 3 });
    await db
      .deleteFrom('userNotificationSettings')
      .where('userId', '=', ann.id)
      .where('notificationId', '=', other.id)
      .execute();
    expect((await topBar(ann.ctx)).count).toEqual({ total: 5, unread: 4 });
    // A notification changed in place.
    await db.updateTable('notifications').set({ isActive: false }).where('id', '=', other.id).execute();
    expect((await topBar(ann.ctx)).count).toEqual({ total: 4, unread: 3 });
    await markAllNotificationsRead(ann.ctx);
    expect((await topBar(ann.ctx)).count).toEqual({ total: 4, unread: 0 });
    const scratch = await fromScratch(ann.ctx);
    expect((await topBar(ann.ctx)).count).toEqual({ total: scratch.total, unread: scratch.unread });
  });

  it('another user’s states leave a kept count alone; the reader’s switches, role and company are part of it', async () => {
    const bea = await person({ role: 'editor' });
    const cal = await person({ role: 'editor' });
    await send({ companyId: 4 });
    await send({ companyId: 4 }, { category: 'security' });
    const adminsOnly = await send({ role: 'admin', companyId: 4 });
    expect((await topBar(bea.ctx)).count).toEqual({ total: 2, unread: 2 });
    const [note] = (await listNotifications(cal.ctx, { limit: 1 })).rows;
    await markNotificationRead(cal.ctx, note.id);
    expect(await topBar(bea.ctx)).toEqual({ count: { total: 2, unread: 2 }, statements: 1 });

    // Security notifications switched off.
    await updateUserSettings(bea.ctx, { notificationTypes: { security: false } });
    expect((await topBar(bea.ctx)).count).toEqual({ total: 1, unread: 1 });
    // Promoted to admin: the admins' notification reaches her.
    await db.updateTable('users').set({ role: 'admin' }).where('id', '=', bea.id).execute();
    const promoted = await userContext(db, bea.id);
    expect((await topBar(promoted)).count).toEqual({ total: 2, unread: 2 });
    expect((await listNotifications(promoted, {})).rows.map((r) => r.id)).toContain(adminsOnly);
    // Moved to another company: none of company 4's.
    await db.updateTable('users').set({ companyId: 3 }).where('id', '=', bea.id).execute();
    expect((await topBar(await userContext(db, bea.id))).count).toEqual({ total: 0, unread: 0 });
  });

  it('takes off what expired since it was counted, and follows the purge', async () => {
    const dee = await person({ companyId: 1 });
    const now = Date.now();
    const at = (hours: number) => new Date(now + hours * HOUR).toISOString();
    await send({ userId: dee.id }, { expiresAt: at(1) });
    const soonRead = await send({ userId: dee.id }, { expiresAt: at(2) });
    await send({ userId: dee.id }, { expiresAt: at(3) });
    await send({ userId: dee.id }, { expiresAt: null });
    await markNotificationRead(dee.ctx, soonRead);
    expect((await topBar(dee.ctx, new Date(now))).count).toEqual({ total: 4, unread: 3 });
    expect((await topBar(dee.ctx, new Date(now + 0.5 * HOUR))).statements).toBe(1);
    // Two of them expired: what expired is counted, not everything.
    const later = await topBar(dee.ctx, new Date(now + 2.5 * HOUR));
    expect(later.count).toEqual({ total: 2, unread: 2 });
    expect(await topBar(dee.ctx, new Date(now + 2.6 * HOUR))).toEqual({
      count: { total: 2, unread: 2 },
      statements: 1,
    });
    expect((await topBar(dee.ctx, new Date(now + 4 * HOUR))).count).toEqual({ total: 1, unread: 1 });
    // The purge deletes expired rows of everybody: counted again, the same.
    await purgeExpiredNotifications(db, new Date(now + 4 * HOUR));
    expect((await topBar(dee.ctx, new Date(now + 4 * HOUR))).count).toEqual({ total: 1, unread: 1 });
  });

  it('keeps the split by category that the page’s tabs total, through reads, dismisses, new notifications and expiry', async () => {
    const fay = await person({ companyId: 3 });
    const now = Date.now();
    const tabs = async () => {
      const out: Record<string, { total: number; unread: number; read: number }> = {};
      for (const category of ['system', 'financial', 'security', 'api', 'user'] as const) {
        const [total, unread, read] = await Promise.all(
          [undefined, false, true].map(
            async (isRead) => (await listNotifications(fay.ctx, { category, isRead, limit: 1 })).total,
          ),
        );
        if (total) out[category] = { total, unread, read };
      }
      return out;
    };
    const expected = async () =>
      Object.fromEntries(
        Object.entries((await fromScratch(fay.ctx)).byCategory).map(([c, n]) => [
          c,
          { ...n, read: n.total - n.unread },
        ]),
      );
    const soon = await send({ userId: fay.id }, { expiresAt: new Date(now + HOUR).toISOString() });
    const kept = await send({ userId: fay.id });
    await send({ userId: fay.id }, { category: 'security' });
    await send({ userId: fay.id }, { category: 'financial' });
    expect(await tabs()).toEqual(await expected());
    expect((await tabs()).system).toEqual({ total: 2, unread: 2, read: 0 });
    await markNotificationRead(fay.ctx, kept);
    expect((await tabs()).system).toEqual({ total: 2, unread: 1, read: 1 });
    expect(await tabs()).toEqual(await expected());
    await dismissNotification(fay.ctx, kept);
    await send({ userId: fay.id }, { category: 'api' });
    expect(await tabs()).toEqual(await expected());
    expect((await tabs()).system).toEqual({ total: 1, unread: 1, read: 0 });
    // An hour and a half on, the expired one is taken off its category too.
    await topBar(fay.ctx, new Date(now + 1.5 * HOUR));
    const row = await db
      .selectFrom('notificationBadges')
      .select('byCategory')
      .where('userId', '=', fay.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.byCategory!).system).toEqual({ total: 0, unread: 0 });
    expect(soon).toBeGreaterThan(0);
  });

  it('a state written while a count runs is not lost: the count is not kept and the next reader counts again', async () => {
    const eve = await person({ companyId: 2 });
    const first = await send({ userId: eve.id });
    await send({ userId: eve.id });
    expect((await topBar(eve.ctx)).count).toEqual({ total: 2, unread: 2 });
    await send({ userId: eve.id });
    const { scope } = await db
      .selectFrom('notificationBadges')
      .select('scope')
      .where('userId', '=', eve.id)
      .executeTakeFirstOrThrow();
    // The count runs, then the state is written before the count is stored.
    const racing = await keptNotificationCount(db, eve.id, scope!, async () => {
      const before = await fromScratch(eve.ctx);
      await markNotificationRead(eve.ctx, first);
      return before;
    });
    expect(racing).toMatchObject({ total: 3, unread: 3 });
    expect((await topBar(eve.ctx)).count).toEqual({ total: 3, unread: 2 });
    expect(await topBar(eve.ctx)).toEqual({ count: { total: 3, unread: 2 }, statements: 1 });
  });
});
