// The /notifications page and the bell's badge over HTTP, as a browser without JavaScript uses
// them (docs/screens.md): the tabs, paging, read / dismiss / mark all read as forms, another
// user's notification refused without a change or a 500, and the badge rendered by the server.
import { describe, expect, it } from 'vitest';
import { systemActor } from '../../platform/context.ts';
import { notify, type NotifyInput } from './notifications.server.ts';
import { passwordChanged } from './notification-events.server.ts';
import type { NotificationView } from './shared.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { noEngine } from '../../../test/context.ts';

describe.each(TEST_DIALECTS)('notifications page on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');
  const post = (c: TestClient, url: string, fields: Record<string, string>) =>
    c.request(url, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  async function follow(c: TestClient, response: Response) {
    expect(response.status, await response.clone().text()).toBe(302);
    return text(await c.get(response.headers.get('Location')!));
  }
  // People of company 4, which nothing here targets as a whole: their lists hold only what each test sends.
  const person = () => signedIn({ companyId: 4 });
  let counter = 0;
  async function send(userId: number, input: Partial<NotifyInput> = {}) {
    counter += 1;
    const title = `Screen note ${dialect} ${counter}`;
    const row = await notify(
      { db: db(), actor: systemActor('worker'), meta: {}, runtime: noEngine() },
      { category: 'system', title, message: `Message ${counter}`, to: { userId }, ...input },
    );
    return { id: row!.id, title };
  }
  const state = (userId: number, notificationId: number) =>
    db()
      .selectFrom('userNotificationSettings')
      .selectAll()
      .where('userId', '=', userId)
      .where('notificationId', '=', notificationId)
      .executeTakeFirst();

  it('lists the tabs, filters by tab, says when there is nothing, and links to the settings', async () => {
    const { user, c } = await person();
    const empty = await text(await c.get('/notifications'));
    expect(empty).toContain('No notifications found');
    for (const label of ['All', 'Unread', 'System', 'Financial', 'Security']) expect(empty).toContain(`>${label}</a>`);

    const system = await send(user.id, {
      actionUrl: '/backup-recovery',
      actionText: 'Open Backup &amp; Recovery'.replace('&amp;', '&'),
    });
    const financial = await send(user.id, { category: 'financial', type: 'warning', priority: 'high' });
    const all = await text(await c.get('/notifications'));
    expect(all).toContain(system.title);
    expect(all).toContain(financial.title);
    expect(all).toContain('href="/backup-recovery"');
    expect(all).toContain('2 unread of 2');
    const onlyFinancial = await text(await c.get('/notifications?tab=financial'));
    expect(onlyFinancial).toContain(financial.title);
    expect(onlyFinancial).not.toContain(system.title);
    expect(await text(await c.get('/notifications?tab=security'))).toContain('No notifications found');
  });

  it('marks one read, dismisses one and marks all read with forms; the badge follows', async () => {
    const { user, c } = await person();
    const [a, b, third] = [await send(user.id), await send(user.id), await send(user.id)];
    expect(await text(await c.get('/notifications'))).toContain('aria-label="Notifications, 3 unread"');

    const afterRead = await follow(c, await post(c, '/notifications?tab=all', { intent: 'read', id: String(a.id) }));
    expect(afterRead).toContain('Notification marked as read');
    expect(afterRead).toContain('aria-label="Notifications, 2 unread"');
    expect((await state(user.id, a.id))?.isRead).toBe(true);
    const unreadTab = await text(await c.get('/notifications?tab=unread'));
    expect(unreadTab).not.toContain(a.title);
    expect(unreadTab).toContain(b.title);

    const afterDismiss = await follow(
      c,
      await post(c, '/notifications?tab=unread', { intent: 'dismiss', id: String(b.id) }),
    );
    expect(afterDismiss).toContain('Notification dismissed');
    expect(afterDismiss).not.toContain(b.title);
    expect(afterDismiss).toContain('aria-label="Notifications, 1 unread"');

    const afterAll = await follow(c, await post(c, '/notifications', { intent: 'mark-all-read' }));
    expect(afterAll).toContain('All notifications marked as read');
    expect(afterAll).toContain('aria-label="Notifications"');
    expect(afterAll).not.toContain('data-testid="notification-badge"');
    expect((await state(user.id, third.id))?.isRead).toBe(true);
  });

  it("another user's notification, a missing or malformed id: an error on the page, nothing changes, never a 500", async () => {
    const { c } = await person();
    const other = await person();
    const theirs = await send(other.user.id);
    for (const [intentName, id] of [
      ['read', String(theirs.id)],
      ['dismiss', String(theirs.id)],
      ['read', '999999999'],
      ['dismiss', '1e3'],
      ['read', ''],
    ]) {
      const response = await post(c, '/notifications', { intent: intentName, id });
      expect(response.status, `${intentName} ${id}`).toBe(404);
      expect(await text(response)).toMatch(/Failed to (mark the notification as read|dismiss the notification)/);
    }
    expect(await state(other.user.id, theirs.id)).toBeUndefined();
    expect((await post(c, '/notifications', { intent: 'nope' })).status).toBe(400);
  });

  it('pages by 20, and a page beyond the end shows the last one', async () => {
    const { user, c } = await person();
    const sent = [];
    for (let i = 0; i < 23; i += 1) sent.push(await send(user.id));
    const first = await text(await c.get('/notifications'));
    expect(first).toContain('Showing 1 to 20 of 23 results');
    expect(first).toContain(sent[22].title);
    expect(first).not.toContain(`${sent[2].title}<`);
    const second = await text(await c.get('/notifications?page=2'));
    expect(second).toContain('Showing 21 to 23 of 23 results');
    expect(second).toContain(`${sent[0].title}<`);
    expect(await text(await c.get('/notifications?page=9'))).toContain('Showing 21 to 23 of 23 results');
  });

  it('the badge reads 99+ above 99 unread, on every page', async () => {
    const { user, c } = await person();
    const now = new Date().toISOString();
    await db()
      .insertInto('notifications')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          title: `Bulk ${i}`,
          message: 'Bulk',
          category: 'system' as const,
          targetUserId: user.id,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    const html = await text(await c.get('/profile'));
    expect(html).toContain('aria-label="Notifications, 99+ unread"');
    expect(html).toMatch(/data-testid="notification-badge"[^>]*>99\+</);
  });

  it("shows the product's notices in the reader's language and an administrator's as typed; the /api stays English", async () => {
    const { user, c } = await person();
    const ctx = { db: db(), actor: systemActor('worker'), meta: {}, runtime: noEngine() };
    await passwordChanged(ctx, user, false);
    const typed = await send(user.id);
    expect((await c.request('/api/user-settings', { method: 'PUT', json: { language: 'es' } })).status).toBe(200);

    const page = await text(await c.get('/notifications'));
    expect(page).toContain('>Contraseña cambiada</p>');
    expect(page).toContain(
      'el sistema estableció su contraseña; elegirá una nueva la próxima vez que inicie sesión. Si no lo esperaba, avise a su administrador.',
    );
    expect(page).toContain('>Ver perfil</a>');
    // (The hydration data carries the stored English too, for the client to render from.)
    expect(page.split('window.__remixContext')[0]).not.toContain('Password changed');
    // Typed by an administrator: as written, and marked as data for translators.
    expect(page).toContain(`translate="no">${typed.title}</p>`);

    const api = (await (await c.get('/api/notifications')).json()) as NotificationView[];
    const notice = api.find((n) => n.title === 'Password changed')!;
    expect(notice.message).toBe(
      'Your password was set by the system; you will choose a new one when you next sign in. If you did not expect this, tell your administrator.',
    );
    expect(notice.actionText).toBe('View profile');
    expect(notice.texts).toEqual({
      title: { message: 'Password changed' },
      message: {
        message:
          'Your password was set by {who, select, system {the system} other {{by}}}; you will choose a new one when you next sign in. If you did not expect this, tell your administrator.',
        values: { who: 'system', by: '' },
      },
      actionText: { message: 'View profile' },
    });
    expect(api.find((n) => n.title === typed.title)!.texts).toBeNull();
  });
});
