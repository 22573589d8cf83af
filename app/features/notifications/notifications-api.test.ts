// The notification calls over real HTTP, on every test dialect: the list and its
// filters, the count, read / dismiss / mark-all-read for one's own notifications only, the
// VAPID key, subscribe / unsubscribe, and a test push that really arrives at a push service on
// loopback (ALLOW_PRIVATE_TARGETS=1), where it is decrypted as the browser would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../platform/context.ts';
import { notify, type NotifyInput } from './notifications.server.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { startPushService, type PushService } from '../../../test/support/push-service.ts';
import { browserKeys, decryptPush } from '../../../test/support/web-push-decrypt.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';
import { noEngine } from '../../../test/context.ts';

describe.each(TEST_DIALECTS)('/api/notifications on %s', (dialect) => {
  const { db, client } = useTestServer(dialect, { env: { ALLOW_PRIVATE_TARGETS: '1' } });
  let pushService: PushService;
  beforeAll(async () => {
    pushService = await startPushService();
  });
  afterAll(() => pushService?.close());

  async function signedIn(options: Parameters<typeof createTestUser>[1] = {}) {
    // Company 4 unless said otherwise: no other test here targets it.
    const user = await createTestUser(db(), { companyId: 4, ...options });
    const c = client();
    await c.login(user.email, TEST_PASSWORD);
    return { user, c };
  }
  let counter = 0;
  async function send(userId: number, input: Partial<NotifyInput> = {}) {
    counter += 1;
    const title = `API note ${counter}`;
    const row = await notify(
      { db: db(), actor: systemActor('worker'), meta: {}, runtime: noEngine() },
      { category: 'system', title, message: 'Body text', to: { userId }, ...input },
    );
    return { id: row!.id, title };
  }
  const json = async (response: Response) => ({ status: response.status, body: await response.json() });
  const post = (c: TestClient, path: string, body: unknown = {}) => c.request(path, { method: 'POST', json: body });

  it("lists the caller's notifications with the spec's fields, filters them and pages with X-Total-Count", async () => {
    const { user, c } = await signedIn();
    const system = await send(user.id, {
      actionUrl: '/backup-recovery',
      actionText: 'Open',
      type: 'success',
      priority: 'low',
    });
    const financial = await send(user.id, { category: 'financial' });
    const security = await send(user.id, { category: 'security' });

    const all = await c.get('/api/notifications');
    expect(all.status).toBe(200);
    expect(all.headers.get('X-Total-Count')).toBe('3');
    const rows = await all.json();
    expect(rows.map((r: { title: string }) => r.title)).toEqual([security.title, financial.title, system.title]);
    // The spec's fields, how many times the event happened (repeats update one notification), and
    // the words as messages for other languages (none for a notification written as text).
    expect(Object.keys(rows[2]).sort()).toEqual([
      'actionText',
      'actionUrl',
      'category',
      'createdAt',
      'id',
      'isRead',
      'message',
      'priority',
      'repeatCount',
      'texts',
      'title',
      'type',
    ]);
    expect(rows[2].texts).toBeNull();
    expect(rows[2]).toMatchObject({
      id: system.id,
      type: 'success',
      priority: 'low',
      isRead: false,
      actionUrl: '/backup-recovery',
      actionText: 'Open',
      category: 'system',
      repeatCount: 1,
    });

    expect(
      (await json(await c.get('/api/notifications?category=financial'))).body.map((r: { id: number }) => r.id),
    ).toEqual([financial.id]);
    const paged = await c.get('/api/notifications?limit=1&offset=0');
    expect(paged.headers.get('Link')).toContain('offset=1');
    expect((await paged.json()).map((r: { id: number }) => r.id)).toEqual([security.id]);

    for (const bad of ['isRead=perhaps', 'category=weather', 'limit=0', 'limit=5000', 'offset=-3']) {
      const response = await json(await c.get(`/api/notifications?${bad}`));
      expect(response.status, bad).toBe(400);
      expect(response.body.message).toBe('Invalid data');
      expect(response.body.errors.length).toBeGreaterThan(0);
    }
  });

  it("count, read, dismiss and mark-all-read change only the caller's state; another user's id is a 404", async () => {
    const { user, c } = await signedIn();
    const other = await signedIn();
    const [a, b, third] = [await send(user.id), await send(user.id), await send(user.id)];
    const theirs = await send(other.user.id);
    expect(await json(await c.get('/api/notifications/count'))).toEqual({ status: 200, body: { total: 3, unread: 3 } });

    expect(await json(await post(c, `/api/notifications/${a.id}/read`))).toEqual({
      status: 200,
      body: { total: 3, unread: 2 },
    });
    expect((await json(await c.get('/api/notifications?isRead=false'))).body.map((r: { id: number }) => r.id)).toEqual([
      third.id,
      b.id,
    ]);
    expect(await json(await post(c, `/api/notifications/${b.id}/dismiss`))).toEqual({
      status: 200,
      body: { total: 2, unread: 1 },
    });

    for (const path of [
      `/api/notifications/${theirs.id}/read`,
      `/api/notifications/${theirs.id}/dismiss`,
      '/api/notifications/999999999/read',
      '/api/notifications/abc/read',
      '/api/notifications/0/dismiss',
    ]) {
      expect(await json(await post(c, path)), path).toEqual({ status: 404, body: { message: 'Resource not found' } });
    }
    expect(await json(await other.c.get('/api/notifications/count'))).toEqual({
      status: 200,
      body: { total: 1, unread: 1 },
    });

    expect(await json(await post(c, '/api/notifications/mark-all-read'))).toEqual({
      status: 200,
      body: { total: 2, unread: 0, marked: 1 },
    });
    expect(await json(await other.c.get('/api/notifications/count'))).toEqual({
      status: 200,
      body: { total: 1, unread: 1 },
    });
    // GET is not a way to change state.
    expect((await c.get(`/api/notifications/${third.id}/read`)).status).toBe(405);
  });

  it('refuses the signed out (401), a user who must change the password (403) and a foreign origin (403)', async () => {
    const anonymous = client();
    for (const path of ['/api/notifications', '/api/notifications/count', '/api/notifications/vapid-public-key']) {
      expect(await json(await anonymous.get(path))).toEqual({ status: 401, body: { message: 'Not authenticated' } });
    }
    expect((await post(anonymous, '/api/notifications/mark-all-read')).status).toBe(401);
    const { c } = await signedIn({ isTemporaryPassword: true });
    expect(await json(await c.get('/api/notifications/count'))).toEqual({
      status: 403,
      body: { message: 'Password change required' },
    });
    const { c: fine } = await signedIn();
    const foreign = await fine.request('/api/notifications/mark-all-read', {
      method: 'POST',
      json: {},
      headers: { Origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });

  it("subscribe checks the endpoint and keys; unsubscribe removes the caller's browsers only", async () => {
    const { user, c } = await signedIn();
    const other = await signedIn();
    const keys = browserKeys();
    const bad = [
      [{ endpoint: 'not a url', keys: keys.subscriptionKeys }, 'endpoint'],
      [{ endpoint: 'ftp://127.0.0.1/x', keys: keys.subscriptionKeys }, 'endpoint'],
      [
        { endpoint: `${pushService.url}/bad-key`, keys: { p256dh: 'AAAA', auth: keys.subscriptionKeys.auth } },
        'keys.p256dh',
      ],
      [
        { endpoint: `${pushService.url}/bad-auth`, keys: { p256dh: keys.subscriptionKeys.p256dh, auth: 'short' } },
        'keys.auth',
      ],
      [{ endpoint: `${pushService.url}/no-keys` }, 'keys'],
    ] as const;
    for (const [body, field] of bad) {
      const response = await json(await post(c, '/api/notifications/subscribe', body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        response.body.errors.map((e: { field: string }) => e.field).some((f: string) => f.startsWith(field)),
        JSON.stringify(response.body),
      ).toBe(true);
    }
    const mine = `${pushService.url}/device/${dialect}-mine`;
    expect(
      await json(
        await post(c, '/api/notifications/subscribe', {
          endpoint: mine,
          keys: keys.subscriptionKeys,
          expirationTime: null,
        }),
      ),
    ).toEqual({ status: 201, body: { subscribed: true } });
    await post(other.c, '/api/notifications/subscribe', {
      endpoint: `${pushService.url}/device/${dialect}-theirs`,
      keys: keys.subscriptionKeys,
    });
    const rows = await db()
      .selectFrom('pushSubscriptions')
      .select(['userId', 'endpoint', 'userAgent'])
      .where('endpoint', 'like', `%/device/${dialect}-%`)
      .orderBy('endpoint')
      .execute();
    expect(rows.map((r) => r.userId)).toEqual([user.id, other.user.id]);

    // The subscription's keys never come back in an answer.
    expect(JSON.stringify(await (await c.get('/api/notifications')).json())).not.toContain(keys.subscriptionKeys.auth);

    expect(
      await json(
        await post(c, '/api/notifications/unsubscribe', { endpoint: `${pushService.url}/device/${dialect}-theirs` }),
      ),
    ).toEqual({ status: 200, body: { removed: 0 } });
    expect(await json(await post(c, '/api/notifications/unsubscribe'))).toEqual({ status: 200, body: { removed: 1 } });
    expect(
      await db().selectFrom('pushSubscriptions').select('id').where('userId', '=', other.user.id).execute(),
    ).toHaveLength(1);
  });

  it("the VAPID key, and a test push that arrives encrypted at the browser's push service", async () => {
    const { c } = await signedIn();
    const {
      body: { publicKey },
    } = await json(await c.get('/api/notifications/vapid-public-key'));
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(await json(await post(c, '/api/notifications/test'))).toEqual({
      status: 409,
      body: { message: expect.stringContaining('subscribed') },
    });

    const browser = browserKeys();
    const endpoint = `${pushService.url}/device/${dialect}-test-push`;
    expect((await post(c, '/api/notifications/subscribe', { endpoint, keys: browser.subscriptionKeys })).status).toBe(
      201,
    );
    expect(await json(await post(c, '/api/notifications/test'))).toEqual({
      status: 200,
      body: { sent: 1, failed: 0, removed: 0 },
    });
    const delivered = pushService.requests.filter((r) => r.path === new URL(endpoint).pathname);
    expect(delivered).toHaveLength(1);
    expect(delivered[0].headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`),
    );
    const payload = JSON.parse(decryptPush(delivered[0].body, browser).toString('utf8'));
    expect(payload).toMatchObject({ title: 'Test notification', url: '/settings?tab=notifications' });

    // The push service says the browser is gone: the subscription goes.
    pushService.answer(new URL(endpoint).pathname, 410);
    expect(await json(await post(c, '/api/notifications/test'))).toEqual({
      status: 200,
      body: { sent: 0, failed: 0, removed: 1 },
    });
    expect(
      await db().selectFrom('pushSubscriptions').select('id').where('endpoint', '=', endpoint).execute(),
    ).toHaveLength(0);
  });
});
