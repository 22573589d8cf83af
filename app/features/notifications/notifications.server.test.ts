// Notifications: targeting and company scope, the type switches, read / dismiss /
// mark-all-read per user, the count, paging, expiry and the producers, on every test dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../test/assertions.ts';
import { userContext, noEngine } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import type { Role } from '../../../db/types.ts';
import { filterOfTab, isSafeActionUrl } from './shared.ts';
import { badgeLabel } from './bell.tsx';
import { formatRelativeTime } from '../../platform/lib/format.ts';
import { detectDeleteAnomalies } from '../audit/anomalies.server.ts';
import { changePassword } from '../auth/auth.server.ts';
import { systemActor, type Db, type ServiceContext } from '../../platform/context.ts';
import { backupFinished, jobDeadLettered } from './notification-events.server.ts';
import {
  countNotifications,
  dismissNotification,
  enabledCategories,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notify,
  parseNotificationQuery,
  purgeExpiredNotifications,
  recipientsOf,
  type NotifyInput,
} from './notifications.server.ts';
import { findUserSettings, updateUserSettings } from '../settings/user-settings.server.ts';
import { createUser, issueTemporaryPassword, setUserActive } from '../users/users.server.ts';

describe('notification helpers', () => {
  it('badge caps at 99+', () => {
    expect(badgeLabel(0)).toBe('');
    expect(badgeLabel(7)).toBe('7');
    expect(badgeLabel(99)).toBe('99');
    expect(badgeLabel(100)).toBe('99+');
  });

  it('relative time: Just now, minutes, hours, days, Unknown time', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(formatRelativeTime('2026-11-23T11:59:30Z', now)).toBe('Just now');
    expect(formatRelativeTime('2026-11-23T11:59:00Z', now)).toBe('1 minute ago');
    expect(formatRelativeTime('2026-11-23T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelativeTime('2026-11-20T12:00:00Z', now)).toBe('3 days ago');
    expect(formatRelativeTime('not a date', now)).toBe('Unknown time');
    expect(formatRelativeTime(null, now)).toBe('Unknown time');
  });

  it('tabs map to the API filters; action links stay on this site', () => {
    expect(filterOfTab('all')).toEqual({});
    expect(filterOfTab('unread')).toEqual({ isRead: false });
    expect(filterOfTab('security')).toEqual({ category: 'security' });
    expect(isSafeActionUrl('/backup-recovery?tab=1')).toBe(true);
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/a b'])
      expect(isSafeActionUrl(bad)).toBe(false);
  });

  it('query: isRead and category from the URL, bad values are field errors', () => {
    expect(parseNotificationQuery({ isRead: 'false', category: 'system', limit: '5' })).toEqual({
      isRead: false,
      category: 'system',
      limit: 5,
    });
    expect(parseNotificationQuery({ isRead: '', category: '' })).toEqual({});
    for (const input of [
      { isRead: 'maybe' },
      { category: 'weather' },
      { limit: '0' },
      { limit: '1001' },
      { offset: '-1' },
    ]) {
      expect(() => parseNotificationQuery(input)).toThrow('Invalid data');
    }
  });
});

describe.each(TEST_DIALECTS)('notifications on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  const system: () => ServiceContext = () => ({ db, actor: systemActor('worker'), meta: {}, runtime: noEngine() });
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  // People of company 4 unless said otherwise, which no role- or company-wide notification here
  // targets: their lists hold only what each test sends them.
  const person = async (options: Parameters<typeof createTestUser>[1] = {}) => {
    const user = await createTestUser(db, {
      ...options,
      companyId: options.companyId === undefined ? 4 : options.companyId,
    });
    return { user, ctx: await userContext(db, user.id) };
  };
  let counter = 0;
  const send = async (input: Partial<NotifyInput> & Pick<NotifyInput, 'to'>) => {
    counter += 1;
    const row = await notify(system(), {
      category: 'system',
      title: `Note ${dialect} ${counter}`,
      message: 'Something happened',
      ...input,
    });
    return { id: row!.id, title: `Note ${dialect} ${counter}` };
  };
  const titles = async (ctx: ServiceContext, query = {}) =>
    (await listNotifications(ctx, query)).rows.map((r) => r.title);

  it('a user notification reaches that user only; another user gets 404 for it and changes nothing', async () => {
    const alice = await person();
    const bob = await person();
    const note = await send({
      to: { userId: alice.user.id },
      actionUrl: '/profile',
      actionText: 'View profile',
      type: 'warning',
      priority: 'high',
    });
    const [row] = (await listNotifications(alice.ctx)).rows;
    expect(row).toMatchObject({
      id: note.id,
      title: note.title,
      message: 'Something happened',
      type: 'warning',
      priority: 'high',
      category: 'system',
      isRead: false,
      actionUrl: '/profile',
      actionText: 'View profile',
    });
    expect(Number.isFinite(Date.parse(row.createdAt))).toBe(true);
    expect(await titles(bob.ctx)).not.toContain(note.title);
    for (const act of [markNotificationRead, dismissNotification]) {
      expect((await rejection(act(bob.ctx, note.id))).status).toBe(404);
    }
    expect((await rejection(markNotificationRead(alice.ctx, 2_000_000_000))).status).toBe(404);
    expect(await countNotifications(alice.ctx)).toEqual({ total: 1, unread: 1 });
  });

  it('read, dismiss and mark-all-read are per user and change the count', async () => {
    const carol = await person({ companyId: 3 });
    const dave = await person({ companyId: 3 });
    const notes = [];
    for (let i = 0; i < 3; i += 1) notes.push(await send({ to: { userId: carol.user.id } }));
    const shared = await send({ to: { role: 'viewer', companyId: 3 } });
    const daveBefore = await countNotifications(dave.ctx);
    expect(await countNotifications(carol.ctx)).toMatchObject({ unread: expect.any(Number) });
    const start = await countNotifications(carol.ctx);

    expect(await markNotificationRead(carol.ctx, notes[0].id)).toEqual({
      total: start.total,
      unread: start.unread - 1,
    });
    // Reading again changes nothing.
    expect(await markNotificationRead(carol.ctx, notes[0].id)).toEqual({
      total: start.total,
      unread: start.unread - 1,
    });
    expect((await listNotifications(carol.ctx, { isRead: false })).rows.map((r) => r.id)).not.toContain(notes[0].id);
    expect((await listNotifications(carol.ctx, { isRead: true })).rows.map((r) => r.id)).toEqual([notes[0].id]);

    expect(await dismissNotification(carol.ctx, notes[1].id)).toEqual({
      total: start.total - 1,
      unread: start.unread - 2,
    });
    expect((await listNotifications(carol.ctx)).rows.map((r) => r.id)).not.toContain(notes[1].id);

    // The shared notification stays unread for Dave when Carol reads everything.
    const all = await markAllNotificationsRead(carol.ctx);
    expect(all).toMatchObject({ total: start.total - 1, unread: 0 });
    expect(all.marked).toBe(start.unread - 2);
    expect(await countNotifications(dave.ctx)).toEqual(daveBefore);
    expect((await listNotifications(dave.ctx)).rows.find((r) => r.id === shared.id)?.isRead).toBe(false);
  });

  it('roles reach themselves and above; company targets stay inside the company; group-wide ones skip scoped users', async () => {
    const viewerA = await person({ role: 'viewer', companyId: 1 });
    const adminA = await person({ role: 'admin', companyId: 1 });
    const adminB = await person({ role: 'admin', companyId: 2 });
    const groupAdmin = await person({ role: 'admin', companyId: null });
    const owner = await person({ role: 'owner', companyId: null });
    const editorA = await person({ role: 'editor', companyId: 1 });

    const forAdminsOfA = await send({ to: { role: 'admin', companyId: 1 } });
    const forGroupAdmins = await send({ to: { role: 'admin', groupWide: true } });
    const forCompanyB = await send({ to: { companyId: 2 } });
    const forEditors = await send({ to: { role: 'editor' } });

    const seen = async (ctx: ServiceContext) => new Set(await titles(ctx));
    const check = async (ctx: ServiceContext, expected: Record<string, boolean>) => {
      const got = await seen(ctx);
      for (const [title, yes] of Object.entries(expected)) expect(got.has(title), title).toBe(yes);
    };
    await check(adminA.ctx, {
      [forAdminsOfA.title]: true,
      [forGroupAdmins.title]: false,
      [forCompanyB.title]: false,
      [forEditors.title]: true,
    });
    await check(adminB.ctx, {
      [forAdminsOfA.title]: false,
      [forGroupAdmins.title]: false,
      [forCompanyB.title]: true,
      [forEditors.title]: true,
    });
    await check(groupAdmin.ctx, {
      [forAdminsOfA.title]: true,
      [forGroupAdmins.title]: true,
      [forCompanyB.title]: true,
      [forEditors.title]: true,
    });
    await check(owner.ctx, {
      [forAdminsOfA.title]: true,
      [forGroupAdmins.title]: true,
      [forCompanyB.title]: true,
      [forEditors.title]: true,
    });
    await check(viewerA.ctx, {
      [forAdminsOfA.title]: false,
      [forGroupAdmins.title]: false,
      [forCompanyB.title]: false,
      [forEditors.title]: false,
    });
    await check(editorA.ctx, { [forAdminsOfA.title]: false, [forEditors.title]: true });
    // A notification outside the reader's reach is a 404, as if it did not exist.
    expect((await rejection(markNotificationRead(adminB.ctx, forAdminsOfA.id))).status).toBe(404);

    const recipients = await recipientsOf(db, forAdminsOfA.id);
    expect(recipients!.userIds).toEqual(expect.arrayContaining([adminA.user.id, groupAdmin.user.id, owner.user.id]));
    expect(recipients!.userIds).not.toContain(adminB.user.id);
    expect(recipients!.userIds).not.toContain(viewerA.user.id);
    const groupRecipients = await recipientsOf(db, forGroupAdmins.id);
    expect(groupRecipients!.userIds).toContain(groupAdmin.user.id);
    expect(groupRecipients!.userIds).not.toContain(adminA.user.id);
  });

  it('the notification-type switches hide a category from the list, the count and push', async () => {
    const erin = await person();
    const financial = await send({ to: { userId: erin.user.id }, category: 'financial' });
    const security = await send({ to: { userId: erin.user.id }, category: 'security' });
    await updateUserSettings(erin.ctx, { notificationTypes: { financial: false } });
    expect(await titles(erin.ctx)).toEqual([security.title]);
    expect(await countNotifications(erin.ctx)).toEqual({ total: 1, unread: 1 });
    // The document loader's count, from the settings row it has read already, is the same.
    expect(await countNotifications(erin.ctx, { settings: await findUserSettings(db, erin.user.id) })).toEqual({
      total: 1,
      unread: 1,
    });
    expect(await countNotifications(erin.ctx, { settings: null })).toEqual({ total: 2, unread: 2 });
    expect((await rejection(markNotificationRead(erin.ctx, 0 + 2_000_000_001))).status).toBe(404);
    expect((await recipientsOf(db, financial.id))!.userIds).toEqual([]);
    expect((await recipientsOf(db, security.id))!.userIds).toEqual([erin.user.id]);
    await updateUserSettings(erin.ctx, { notificationTypes: { financial: true } });
    expect(await titles(erin.ctx, { category: 'financial' })).toEqual([financial.title]);
  });

  it('lists newest first, pages with limit/offset and filters by category', async () => {
    const frank = await person();
    const sent = [];
    for (let i = 0; i < 5; i += 1)
      sent.push(await send({ to: { userId: frank.user.id }, category: i % 2 ? 'financial' : 'system' }));
    const page = await listNotifications(frank.ctx, { limit: 2, offset: 1 });
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.id)).toEqual([sent[3].id, sent[2].id]);
    expect((await listNotifications(frank.ctx, { category: 'financial' })).rows.map((r) => r.id)).toEqual([
      sent[3].id,
      sent[1].id,
    ]);
  });

  it('the whole list and its unread part, merged from each audience of the reader, are what one walk through every notification finds', async () => {
    const readers = [
      await person({ role: 'owner', companyId: null }),
      await person({ role: 'admin', companyId: null }),
      await person({ role: 'admin', companyId: 1 }),
      await person({ role: 'editor', companyId: 1 }),
      await person({ role: 'viewer', companyId: null }),
    ];
    const other = await person({ role: 'admin', companyId: null });
    const [owner, , adminA, , viewer] = readers;
    // Every kind of address, interleaved in time, three at each instant (ties go by id); some
    // inactive, expired or in a category a reader turned off.
    const targets: {
      targetUserId?: number;
      targetUserRole?: Role;
      targetCompanyId?: number;
      targetGroupWide?: boolean;
    }[] = [
      {},
      { targetUserRole: 'viewer' },
      { targetUserRole: 'editor' },
      { targetUserRole: 'admin' },
      { targetUserRole: 'owner' },
      { targetUserRole: 'admin', targetCompanyId: 1 },
      { targetCompanyId: 2 },
      { targetUserRole: 'admin', targetGroupWide: true },
      { targetGroupWide: true },
      { targetUserId: other.user.id },
      { targetUserId: other.user.id, targetUserRole: 'owner' },
      ...readers.map((r) => ({ targetUserId: r.user.id })),
      { targetUserId: owner.user.id, targetUserRole: 'admin' },
      { targetUserId: viewer.user.id, targetUserRole: 'admin' },
    ];
    const categories = ['system', 'financial', 'api', 'user', 'security'] as const;
    const start = Date.now() - 86_400_000;
    const planted = (
      await db
        .insertInto('notifications')
        .values(
          Array.from({ length: 120 }, (_, i) => {
            const at = new Date(start + Math.floor(i / 3) * 1000).toISOString();
            return {
              title: `Audience ${dialect} ${i}`,
              message: 'Addressed',
              category: categories[i % 5],
              targetUserId: null,
              targetUserRole: null,
              targetCompanyId: null,
              targetGroupWide: false,
              ...targets[(i * 7) % targets.length],
              isActive: i % 17 !== 0,
              expiresAt: i % 13 === 0 ? new Date(start).toISOString() : null,
              createdAt: at,
              updatedAt: at,
            };
          }),
        )
        .returning('id')
        .execute()
    ).map((row) => row.id);
    const rank = { viewer: 1, editor: 2, admin: 3, owner: 4 } as const;
    const walked = async (reader: (typeof readers)[number], unread: boolean) => {
      const { id, role, companyId } = reader.user;
      const enabled = enabledCategories((await findUserSettings(db, id))?.notificationTypes);
      const states = new Map(
        (await db.selectFrom('userNotificationSettings').selectAll().where('userId', '=', id).execute()).map((s) => [
          s.notificationId,
          s,
        ]),
      );
      const now = Date.now();
      return (await db.selectFrom('notifications').selectAll().execute())
        .filter(
          (n) =>
            !!n.isActive &&
            (n.expiresAt === null || Date.parse(n.expiresAt) > now) &&
            (n.targetUserId === null || n.targetUserId === id) &&
            (n.targetUserRole === null || rank[n.targetUserRole] <= rank[role]) &&
            (companyId === null ||
              (!n.targetGroupWide && (n.targetCompanyId === null || n.targetCompanyId === companyId))) &&
            enabled.includes(n.category) &&
            !states.get(n.id)?.isDismissed &&
            !(unread && states.get(n.id)?.isRead),
        )
        .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id)
        .map((n) => `${n.id}:${!!states.get(n.id)?.isRead}`);
    };
    try {
      for (const [n, reader] of readers.entries()) {
        const states = planted
          .filter((_, i) => (i + n) % 4 === 0)
          .map((notificationId, i) => ({
            userId: reader.user.id,
            notificationId,
            isRead: true,
            isDismissed: i % 3 === 0,
          }));
        await db.insertInto('userNotificationSettings').values(states).execute();
      }
      await updateUserSettings(viewer.ctx, { notificationTypes: { security: false } });
      await updateUserSettings(adminA.ctx, { notificationTypes: { api: false } });
      for (const reader of readers) {
        // Each reader gets several of the planted ones, from several audiences.
        expect(
          (await walked(reader, false)).filter((row) => planted.includes(Number(row.split(':')[0]))).length,
        ).toBeGreaterThan(5);
        for (const unread of [false, true]) {
          const all = await walked(reader, unread);
          for (const [limit, offset] of [
            [1000, 0],
            [3, 0],
            [4, 2],
            [5, 7],
            [1000, 11],
            [2, all.length - 1],
            [1, all.length],
          ]) {
            const label = `${reader.user.role} of ${reader.user.companyId ?? 'the group'}, ${unread ? 'unread' : 'all'}, limit ${limit} offset ${offset}`;
            const page = await listNotifications(reader.ctx, { ...(unread ? { isRead: false } : {}), limit, offset });
            expect(page.total, label).toBe(all.length);
            expect(
              page.rows.map((r) => `${r.id}:${r.isRead}`),
              label,
            ).toEqual(all.slice(offset, offset + limit));
          }
        }
      }
    } finally {
      // Addressed to everyone and to whole roles: taken away again for the other tests' people.
      await db.deleteFrom('notifications').where('id', 'in', planted).execute();
    }
  });

  it('the all and unread totals (the kept badge) follow reads, dismisses and new notifications', async () => {
    const hana = await person();
    const totals = async () => ({
      all: (await listNotifications(hana.ctx, { limit: 1 })).total,
      unread: (await listNotifications(hana.ctx, { isRead: false, limit: 1 })).total,
      read: (await listNotifications(hana.ctx, { isRead: true, limit: 1 })).total,
    });
    const first = await send({ to: { userId: hana.user.id } });
    const second = await send({ to: { userId: hana.user.id } });
    expect(await totals()).toEqual({ all: 2, unread: 2, read: 0 });
    await markNotificationRead(hana.ctx, first.id);
    expect(await totals()).toEqual({ all: 2, unread: 1, read: 1 });
    await send({ to: { userId: hana.user.id } });
    expect(await totals()).toEqual({ all: 3, unread: 2, read: 1 });
    await dismissNotification(hana.ctx, second.id);
    expect(await totals()).toEqual({ all: 2, unread: 1, read: 1 });
    expect(await countNotifications(hana.ctx)).toEqual({ total: 2, unread: 1 });
  });

  it('expired and inactive notifications are gone; the purge deletes expired ones with their states', async () => {
    const gina = await person();
    const past = new Date(Date.now() - 60_000).toISOString();
    const expired = await send({ to: { userId: gina.user.id }, expiresAt: past });
    const live = await send({
      to: { userId: gina.user.id },
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await markNotificationRead(gina.ctx, live.id);
    expect(await titles(gina.ctx)).toEqual([live.title]);
    expect(await recipientsOf(db, expired.id)).toBeNull();
    const purged = await purgeExpiredNotifications(db);
    expect(purged.deleted).toBeGreaterThanOrEqual(1);
    expect(
      await db.selectFrom('notifications').select('id').where('id', '=', expired.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db.selectFrom('notifications').select('id').where('id', '=', live.id).executeTakeFirst(),
    ).toBeDefined();
    // A default expiry is set 90 days out.
    const row = await db
      .selectFrom('notifications')
      .select('expiresAt')
      .where('id', '=', (await send({ to: { userId: gina.user.id } })).id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expiresAt!) - Date.now()).toBeGreaterThan(89 * 86_400_000);
  });

  it('refuses bad input: unknown category, an action link to another site, an empty title', async () => {
    for (const input of [
      { category: 'weather' },
      { actionUrl: 'https://evil.example/' },
      { title: '  ' },
      { to: { userId: 1, extra: true } },
    ]) {
      const error = await rejection(
        notify(system(), { category: 'system', title: 'x', message: 'y', to: {}, ...input } as NotifyInput),
      );
      expect(error.status).toBe(400);
    }
  });

  it('producers: user created / deactivated reach the admins of that company; password events reach the user', async () => {
    const adminA = await person({ role: 'admin', companyId: 3, flags: { canManageUsers: true } });
    const adminB = await person({ role: 'admin', companyId: 2 });
    const { user } = await createUser(adminA.ctx, {
      username: `newbie-${dialect}`,
      email: `newbie-${dialect}@example.com`,
      role: 'viewer',
      companyId: 3,
      password: 'Newbie-Password-1',
    });
    const created = (await listNotifications(adminA.ctx)).rows.find(
      (r) => r.title === 'User created' && r.message.includes(user.username),
    );
    expect(created).toMatchObject({ category: 'user', actionUrl: `/user-management?q=${user.username}` });
    expect((await listNotifications(adminB.ctx)).rows.some((r) => r.message.includes(user.username))).toBe(false);

    await setUserActive(adminA.ctx, user.id, false);
    expect(
      (await listNotifications(adminA.ctx)).rows.some(
        (r) => r.title === 'User deactivated' && r.message.includes(user.username),
      ),
    ).toBe(true);
    await setUserActive(adminA.ctx, user.id, true);

    await issueTemporaryPassword(adminA.ctx, user.id);
    const newbie = await userContext(db, user.id);
    expect((await listNotifications(newbie, { category: 'security' })).rows.map((r) => r.title)).toEqual([
      'Temporary password issued',
    ]);

    const self = await person();
    await changePassword(self.ctx, self.user.id, {
      currentPassword: 'Test-Password-1',
      newPassword: 'Brand-New-Password-2',
    });
    expect((await listNotifications(self.ctx)).rows.map((r) => r.title)).toEqual(['Password changed']);
  });

  it('a repeat of an event about the same row within the hour updates its unread notification with a count; once read, or later, a repeat is new', async () => {
    const admin = await person({ role: 'admin', companyId: 3, flags: { canManageUsers: true } });
    const other = await person({ role: 'admin', companyId: 3 });
    const { user } = await createUser(admin.ctx, {
      username: `repeat-${dialect}`,
      email: `repeat-${dialect}@example.com`,
      role: 'viewer',
      companyId: 3,
      password: 'Repeat-Password-1',
    });
    const { user: second } = await createUser(admin.ctx, {
      username: `second-${dialect}`,
      email: `second-${dialect}@example.com`,
      role: 'viewer',
      companyId: 3,
      password: 'Repeat-Password-1',
    });
    const deactivations = async (ctx: ServiceContext, username: string) =>
      (await listNotifications(ctx)).rows.filter(
        (r) => r.title === 'User deactivated' && r.message.includes(`account ${username}`),
      );
    const before = await countNotifications(other.ctx);
    for (let i = 0; i < 3; i += 1) {
      await setUserActive(admin.ctx, user.id, false);
      await setUserActive(admin.ctx, user.id, true);
    }
    await setUserActive(admin.ctx, second.id, false);
    const [grouped] = await deactivations(other.ctx, user.username);
    expect(await deactivations(other.ctx, user.username)).toHaveLength(1);
    expect(grouped.repeatCount).toBe(3);
    // Another row is another subject; the bell grew by one per subject.
    expect((await deactivations(other.ctx, second.username)).map((r) => r.repeatCount)).toEqual([1]);
    expect(await countNotifications(other.ctx)).toEqual({ total: before.total + 2, unread: before.unread + 2 });
    expect(
      await db
        .selectFrom('notifications')
        .select('id')
        .where('title', '=', 'User deactivated')
        .where('relatedRecordId', '=', user.id)
        .execute(),
    ).toHaveLength(1);

    // Read by someone: the next repeat is a notification of its own.
    await markNotificationRead(other.ctx, grouped.id);
    await setUserActive(admin.ctx, user.id, false);
    await setUserActive(admin.ctx, user.id, true);
    const afterRead = await deactivations(other.ctx, user.username);
    expect(afterRead.map((r) => [r.repeatCount, r.isRead])).toEqual([
      [1, false],
      [3, true],
    ]);
    // An hour after its last repeat an event is news again.
    await db
      .updateTable('notifications')
      .set({ updatedAt: new Date(Date.now() - 61 * 60_000).toISOString() })
      .where('id', '=', afterRead[0].id)
      .execute();
    await setUserActive(admin.ctx, user.id, false);
    expect((await deactivations(other.ctx, user.username)).map((r) => r.repeatCount)).toEqual([1, 1, 3]);
  });

  it("a notification for one user is not stored when that user's switch for its category is off", async () => {
    const quiet = await person();
    await updateUserSettings(quiet.ctx, { notificationTypes: { security: false } });
    await changePassword(quiet.ctx, quiet.user.id, {
      currentPassword: 'Test-Password-1',
      newPassword: 'Quiet-Password-2',
    });
    expect(await send({ to: { userId: quiet.user.id }, category: 'system' })).toMatchObject({ id: expect.any(Number) });
    expect(
      await notify(system(), {
        category: 'security',
        title: 'Direct',
        message: 'Not wanted',
        to: { userId: quiet.user.id },
      }),
    ).toBeNull();
    const stored = await db
      .selectFrom('notifications')
      .select('title')
      .where('targetUserId', '=', quiet.user.id)
      .execute();
    expect(stored.map((r) => r.title)).toEqual([expect.stringMatching(/^Note /)]);
    // Turned on again, the next one is stored and shown.
    await updateUserSettings(quiet.ctx, { notificationTypes: { security: true } });
    await changePassword(quiet.ctx, quiet.user.id, {
      currentPassword: 'Quiet-Password-2',
      newPassword: 'Quiet-Password-3',
    });
    expect((await listNotifications(quiet.ctx, { category: 'security' })).rows.map((r) => r.title)).toEqual([
      'Password changed',
    ]);
  });

  it('producers: a failed job and a backup outcome reach group-wide admins once; anomalies reach the admins', async () => {
    const groupAdmin = await person({ role: 'admin', companyId: null });
    const scopedAdmin = await person({ role: 'admin', companyId: 1 });
    await jobDeadLettered(system(), 'backup-create', 'disk full', 987_654);
    await jobDeadLettered(system(), 'backup-create', 'disk full', 987_654);
    await jobDeadLettered(system(), 'push-send', 'push failed', 987_655);
    const failed = (await listNotifications(groupAdmin.ctx)).rows.filter((r) => r.title === 'Background job failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].message).toContain('disk full');
    expect((await listNotifications(scopedAdmin.ctx)).rows.some((r) => r.title === 'Background job failed')).toBe(
      false,
    );

    await backupFinished(system(), {
      id: 424_242,
      name: 'Nightly',
      status: 'failed',
      error: 'no space',
      createdBy: null,
    });
    await backupFinished(system(), {
      id: 424_242,
      name: 'Nightly',
      status: 'failed',
      error: 'no space',
      createdBy: null,
    });
    expect(
      (await listNotifications(groupAdmin.ctx)).rows.filter(
        (r) => r.title === 'Backup failed' && r.message.includes('no space'),
      ),
    ).toHaveLength(1);

    // Five deletes by one user within the window make an anomaly.
    const deleter = await person({ role: 'editor', companyId: 2 });
    const now = Date.now();
    for (let i = 0; i < 5; i += 1) {
      await db
        .insertInto('auditLogs')
        .values({
          tableName: 'budgets',
          recordId: 900_000 + i,
          action: 'delete',
          userId: deleter.user.id,
          timestamp: new Date(now - i * 1000).toISOString(),
        })
        .execute();
    }
    await detectDeleteAnomalies(system(), { threshold: 5, windowMinutes: 10, lookbackMinutes: 30 });
    const anomaly = (await listNotifications(groupAdmin.ctx, { category: 'security' })).rows.find((r) =>
      r.message.startsWith(deleter.user.username),
    );
    expect(anomaly).toMatchObject({ title: 'Security anomaly detected', actionUrl: '/audit-trail?tab=anomalies' });
    expect(
      (await listNotifications(scopedAdmin.ctx)).rows.some((r) => r.message.startsWith(deleter.user.username)),
    ).toBe(false);
  });
});
