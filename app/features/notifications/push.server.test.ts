// Web Push delivery on every test dialect, against a real HTTP stand-in for the browsers' push
// services on loopback (private targets allowed), decrypting each message as the browser would:
// the fan-out's recipients, what a push looks like on the wire (aes128gcm, VAPID), what the push
// service's answers do to a subscription, subscribe / unsubscribe / test push, the purge, the
// outbound-target check at subscription and at every send, and the whole way through the job
// engine.
import { failureWords } from '../settings/device-api.ts';
import { ApiRefusal } from '../../platform/i18n/api-refusal.ts';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { userContext } from '../../../test/context.ts';
import { startPushService, type PushService } from '../../../test/support/push-service.ts';
import { browserKeys, decryptPush, type BrowserKeys } from '../../../test/support/web-push-decrypt.ts';
import { createTestUser } from '../../../test/users.ts';
import { testConfig, waitFor } from '../../../worker/test-helpers.ts';
import { JobEngine } from '../../platform/jobs/engine.ts';
import { appJobs, JOBS } from '../jobs.ts';
import { runHereLocally, runJobNow } from '../../platform/jobs/run-now.ts';
import { createRuntime } from '../../platform/runtime.ts';
import { catalogTranslator } from '../shell/catalog-files.server.ts';
import type { PushSettings } from '../../platform/config.server.ts';
import { systemActor, type ServiceContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { notify, type NotifyInput } from './notifications.server.ts';
import { TEST_PUSH_RUNNING, TEST_PUSHES_PER_MINUTE } from './push-refusals.ts';
import {
  fanOutNotificationPush,
  MAX_BROWSERS_PER_USER,
  PUSH_HOST_CONCURRENCY,
  purgeFailingSubscriptions,
  sendTestPush,
  sendToSubscription,
  startPushDelivery,
  subscribePush,
  unsubscribePush,
  vapidPublicKey,
  type Attempt,
} from './push.server.ts';
import { updateUserSettings } from '../settings/user-settings.server.ts';
import type { HostResolver } from '../../platform/http/outbound-target.server.ts';

const FINAL: Attempt = { retryCount: 0, retryLimit: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts in a fresh minute when the current one is nearly over (the per-minute counters' windows). */
async function notNearTheMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second >= 50) await sleep((61 - second) * 1000);
}
const FIRST: Attempt = { retryCount: 0, retryLimit: 5 };
const DAY = 86_400_000;

/** A resolver for names the tests use (no network). */
const fakeDns =
  (table: Record<string, string>): HostResolver =>
  async (hostname) => {
    const address = table[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

function compressedKey(): string {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return ecdh.getPublicKey(null, 'compressed').toString('base64url');
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** A VAPID JWT (ES256) checked against the public key it names. */
function verifyVapid(header: string | undefined, publicKey: string): Record<string, unknown> {
  const match = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(header ?? '');
  expect(match, header).not.toBeNull();
  const [, head, claims, signature, key] = match!;
  expect(key).toBe(publicKey);
  const raw = Buffer.from(publicKey, 'base64url');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: raw.subarray(1, 33).toString('base64url'),
    y: raw.subarray(33).toString('base64url'),
  };
  const verified = crypto.verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: crypto.createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  expect(verified).toBe(true);
  expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toMatchObject({ typ: 'JWT', alg: 'ES256' });
  return JSON.parse(Buffer.from(claims, 'base64url').toString());
}

describe.each(TEST_DIALECTS)('Web Push on %s', (dialect) => {
  let database: TestDatabase;
  let service: PushService;
  let settings: PushSettings;
  let counter = 0;
  // This process's runtime: the notifications made here start their push on its queue.
  const runtime = createRuntime();
  const system = (): ServiceContext => ({ db: database.db, actor: systemActor('worker'), meta: {}, runtime });
  /** What a push job runs with. */
  const job = () => ({ db: database.db, runtime });

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    service = await startPushService();
    const keys = webpush.generateVAPIDKeys();
    settings = {
      vapid: { publicKey: keys.publicKey, privateKey: keys.privateKey, subject: 'mailto:push-test@example.com' },
      allowPrivateTargets: true,
    };
  });
  afterAll(async () => {
    await service?.close();
    await database?.destroy();
  });

  async function user(options: Parameters<typeof createTestUser>[1] = {}) {
    const row = await createTestUser(database.db, options);
    return { ...row, ctx: await userContext(database.db, row.id) };
  }

  /** A browser of this user subscribed at the stand-in. */
  async function browser(
    ctx: ServiceContext,
    name = `browser-${++counter}`,
  ): Promise<{ keys: BrowserKeys; endpoint: string; id: number }> {
    const keys = browserKeys();
    const endpoint = `${service.url}/${dialect}/${name}`;
    expect(await subscribePush(ctx, settings, { endpoint, keys: keys.subscriptionKeys, expirationTime: null })).toEqual(
      { subscribed: true },
    );
    const row = await database.db
      .selectFrom('pushSubscriptions')
      .select('id')
      .where('endpoint', '=', endpoint)
      .executeTakeFirstOrThrow();
    return { keys, endpoint, id: row.id };
  }

  async function note(input: Partial<NotifyInput> & Pick<NotifyInput, 'to'>) {
    counter += 1;
    const title = `Push note ${counter}`;
    const row = await notify(system(), { category: 'system', title, message: `Message ${counter}`, ...input });
    return { id: row!.id, title };
  }

  const subscription = (id: number) =>
    database.db.selectFrom('pushSubscriptions').selectAll().where('id', '=', id).executeTakeFirst();

  it("a notification reaches its user's browser encrypted for it and signed with the VAPID key", async () => {
    const alice = await user();
    const device = await browser(alice.ctx);
    expect((await subscription(device.id))?.userAgent).toBe('vitest');
    const { id, title } = await note({
      to: { userId: alice.id },
      priority: 'high',
      category: 'financial',
      type: 'warning',
      actionUrl: '/budgets?year=2025',
    });
    const started = Date.now();
    expect(await fanOutNotificationPush(job(), settings, id, FINAL)).toEqual({ subscriptions: 1 });

    const [push] = service.requestsTo(device.endpoint);
    expect(service.requestsTo(device.endpoint)).toHaveLength(1);
    expect(push.method).toBe('POST');
    expect(push.headers).toMatchObject({
      ttl: '86400',
      urgency: 'high',
      // A copy sent again (a retry after a crash) replaces this one at the push service.
      topic: `notification-${id}`,
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
    });
    const claims = verifyVapid(push.headers.authorization, settings.vapid!.publicKey);
    expect(claims).toMatchObject({ aud: service.url, sub: 'mailto:push-test@example.com' });
    expect(claims.exp as number).toBeGreaterThan(started / 1000);
    expect(claims.exp as number).toBeLessThanOrEqual(started / 1000 + 24 * 3600 + 5);

    // Only this browser's keys open it.
    expect(() => decryptPush(push.body, browserKeys())).toThrow();
    const payload = JSON.parse(decryptPush(push.body, device.keys).toString('utf8'));
    expect(payload).toEqual({
      title,
      body: expect.stringMatching(/^Message \d+$/),
      url: '/budgets?year=2025',
      tag: `notification-${id}`,
      notificationId: id,
      type: 'warning',
      priority: 'high',
      category: 'financial',
    });
    // The private key and the browser's secrets are nowhere on the wire in clear.
    const wire = JSON.stringify(push.headers) + push.body.toString('latin1');
    expect(wire).not.toContain(settings.vapid!.privateKey);
    expect(wire).not.toContain(device.keys.subscriptionKeys.auth);

    const row = await subscription(device.id);
    expect(row).toMatchObject({ failureCount: 0, failingSince: null, lastError: null });
    expect(Date.parse(row!.lastSuccessAt!)).toBeGreaterThanOrEqual(started - 1000);
  });

  it('a normal notification without a link opens the list, and a long message is shortened to fit', async () => {
    const bob = await user();
    const device = await browser(bob.ctx);
    const { id } = await note({ to: { userId: bob.id }, message: 'é'.repeat(4999) + '!' });
    expect(await sendToSubscription(job(), settings, id, device.id, FINAL)).toEqual({ status: 'sent' });
    const [push] = service.requestsTo(device.endpoint);
    expect(push.headers.urgency).toBe('normal');
    const text = decryptPush(push.body, device.keys).toString('utf8');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(3000);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2990);
    const payload = JSON.parse(text);
    expect(payload).toMatchObject({ url: '/notifications', priority: 'medium' });
    expect(payload.body).toMatch(/^é+…$/);
  });

  it('410 and 404 from the push service remove the subscription', async () => {
    const carol = await user();
    const gone = await browser(carol.ctx);
    const missing = await browser(carol.ctx);
    const { id } = await note({ to: { userId: carol.id } });
    service.answer(gone.endpoint, 410);
    service.answer(missing.endpoint, 404);
    expect(await sendToSubscription(job(), settings, id, gone.id, FIRST)).toEqual({ status: 'removed' });
    expect(await sendToSubscription(job(), settings, id, missing.id, FIRST)).toEqual({ status: 'removed' });
    expect(await subscription(gone.id)).toBeUndefined();
    expect(await subscription(missing.id)).toBeUndefined();
    // Sending again to a removed browser is nothing to do.
    expect(await sendToSubscription(job(), settings, id, gone.id, FIRST)).toEqual({ status: 'skipped' });
  });

  it('another failure throws while retries remain, and the last attempt records it and ends normally', async () => {
    const dave = await user();
    const device = await browser(dave.ctx);
    const { id } = await note({ to: { userId: dave.id } });
    service.answer(device.endpoint, 500);
    await expect(sendToSubscription(job(), settings, id, device.id, { retryCount: 0, retryLimit: 5 })).rejects.toThrow(
      `Push to browser #${device.id} failed: HTTP 500 Internal Server Error`,
    );
    const first = await subscription(device.id);
    expect(first).toMatchObject({ failureCount: 1, lastError: 'HTTP 500 Internal Server Error' });
    expect(first!.failingSince).not.toBeNull();
    expect(await sendToSubscription(job(), settings, id, device.id, { retryCount: 5, retryLimit: 5 })).toEqual({
      status: 'failed',
    });
    const last = await subscription(device.id);
    // The first failure's time stays: it is when the browser started failing.
    expect(last).toMatchObject({
      failureCount: 2,
      failingSince: first!.failingSince,
      lastError: 'HTTP 500 Internal Server Error',
    });
    expect(service.requestsTo(device.endpoint)).toHaveLength(2);
    expect(service.requestsTo(device.endpoint).map((r) => r.headers.topic)).toEqual([
      `notification-${id}`,
      `notification-${id}`,
    ]);

    // A success clears the record.
    service.answer(device.endpoint, 201);
    expect(await sendToSubscription(job(), settings, id, device.id, FINAL)).toEqual({ status: 'sent' });
    expect(await subscription(device.id)).toMatchObject({ failureCount: 0, failingSince: null, lastError: null });
  });

  it('a network error is a failure too, and a browser failing for more than 7 days is removed at its next failure', async () => {
    const erin = await user();
    const device = await browser(erin.ctx);
    const { id } = await note({ to: { userId: erin.id } });
    // Nothing listens at port 9 on loopback (discard): the connection is refused.
    await database.db
      .updateTable('pushSubscriptions')
      .set({ endpoint: 'http://127.0.0.1:9/nobody' })
      .where('id', '=', device.id)
      .execute();
    expect(await sendToSubscription(job(), settings, id, device.id, FINAL)).toEqual({ status: 'failed' });
    expect((await subscription(device.id))?.lastError).toMatch(/ECONNREFUSED/);

    const old = await browser(erin.ctx);
    service.answer(old.endpoint, 503);
    await database.db
      .updateTable('pushSubscriptions')
      .set({ failingSince: new Date(Date.now() - 8 * DAY).toISOString(), failureCount: 40 })
      .where('id', '=', old.id)
      .execute();
    expect(await sendToSubscription(job(), settings, id, old.id, FIRST)).toEqual({ status: 'removed' });
    expect(await subscription(old.id)).toBeUndefined();
  });

  it('purges subscriptions failing for 7 days, and the nightly job purges expired notifications too', async () => {
    const frank = await user();
    const [old, recent, fine] = [await browser(frank.ctx), await browser(frank.ctx), await browser(frank.ctx)];
    const now = new Date();
    await database.db
      .updateTable('pushSubscriptions')
      .set({ failingSince: new Date(now.getTime() - 8 * DAY).toISOString() })
      .where('id', '=', old.id)
      .execute();
    await database.db
      .updateTable('pushSubscriptions')
      .set({ failingSince: new Date(now.getTime() - 6 * DAY).toISOString() })
      .where('id', '=', recent.id)
      .execute();
    expect(await purgeFailingSubscriptions(database.db, now)).toEqual({ removed: 1 });
    expect(await subscription(old.id)).toBeUndefined();
    expect(await subscription(recent.id)).toBeDefined();
    expect(await subscription(fine.id)).toBeDefined();

    await database.db
      .updateTable('pushSubscriptions')
      .set({ failingSince: new Date(now.getTime() - 9 * DAY).toISOString() })
      .where('id', '=', recent.id)
      .execute();
    const expired = await notify(system(), {
      category: 'system',
      title: 'Expired',
      message: 'Old news',
      to: { userId: frank.id },
      expiresAt: new Date(now.getTime() - 1000).toISOString(),
    });
    const logs: string[] = [];
    const result = await runJobNow(
      JOBS,
      'notifications-purge',
      {},
      {
        db: database.db,
        settings: { ...testConfig(database.dataDir), push: settings },
        runtime,
        log: (m) => logs.push(m),
      },
    );
    expect(result).toMatchObject({ subscriptions: 1 });
    expect((result as { notifications: number }).notifications).toBeGreaterThanOrEqual(1);
    expect(await subscription(recent.id)).toBeUndefined();
    expect(
      await database.db.selectFrom('notifications').select('id').where('id', '=', expired!.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(logs.join('\n')).toMatch(/failing push subscription/);
  });

  it('reaches only the recipients whose switches let it through', async () => {
    const muted = await user();
    await updateUserSettings(muted.ctx, { pushNotifications: false });
    const noFinance = await user();
    await updateUserSettings(noFinance.ctx, { notificationTypes: { financial: false } });
    const company1 = await user({ companyId: 1 });
    const company2 = await user({ companyId: 2 });
    const groupWide = await user({ role: 'admin' });
    const [mutedDevice, noFinanceDevice, c1Device, c2Device, gwDevice] = [
      await browser(muted.ctx),
      await browser(noFinance.ctx),
      await browser(company1.ctx),
      await browser(company2.ctx),
      await browser(groupWide.ctx),
    ];
    const received = (device: { endpoint: string }) => service.requestsTo(device.endpoint).length;

    // The push switch off: the bell has it, no browser gets it.
    const a = await note({ to: { userId: muted.id } });
    expect(await fanOutNotificationPush(job(), settings, a.id, FINAL)).toEqual({ subscriptions: 0 });
    // The category switched off: not even stored for them, so nothing to push.
    expect(
      await notify(system(), {
        category: 'financial',
        title: 'Push note muted',
        message: 'Muted',
        to: { userId: noFinance.id },
      }),
    ).toBeNull();
    const b2 = await note({ to: { userId: noFinance.id }, category: 'security' });
    expect(await fanOutNotificationPush(job(), settings, b2.id, FINAL)).toEqual({ subscriptions: 1 });
    // Company-targeted: that company's users and group-wide ones, never another company's.
    const c = await note({ to: { companyId: 1 } });
    await fanOutNotificationPush(job(), settings, c.id, FINAL);
    // Group-wide: users without a company scope only.
    const d = await note({ to: { groupWide: true, role: 'admin' } });
    await fanOutNotificationPush(job(), settings, d.id, FINAL);

    expect(received(mutedDevice)).toBe(0);
    expect(received(noFinanceDevice)).toBe(2); // b2 and c
    expect(received(c1Device)).toBe(1);
    expect(received(c2Device)).toBe(0);
    expect(received(gwDevice)).toBe(2);
    const tags = (device: { endpoint: string; keys: BrowserKeys }) =>
      service.requestsTo(device.endpoint).map((r) => JSON.parse(decryptPush(r.body, device.keys).toString()).tag);
    expect(tags(c1Device)).toEqual([`notification-${c.id}`]);
    expect(tags(gwDevice)).toEqual([`notification-${c.id}`, `notification-${d.id}`]);

    // A push-send that was queued before the switch went off, or before the browser moved to
    // another account, sends nothing.
    const e = await note({ to: { userId: company1.id } });
    await updateUserSettings(company1.ctx, { pushNotifications: false });
    expect(await sendToSubscription(job(), settings, e.id, c1Device.id, FINAL)).toEqual({ status: 'skipped' });
    await updateUserSettings(company1.ctx, { pushNotifications: true });
    await subscribePush(company2.ctx, settings, { endpoint: c1Device.endpoint, keys: c1Device.keys.subscriptionKeys });
    expect(await sendToSubscription(job(), settings, e.id, c1Device.id, FINAL)).toEqual({ status: 'skipped' });
    expect(received(c1Device)).toBe(1);
  });

  it('the fan-out waits for a notification not visible yet, and skips one that is gone, inactive, or when push is off', async () => {
    await expect(fanOutNotificationPush(job(), settings, 987654, { retryCount: 0, retryLimit: 3 })).rejects.toThrow(
      /not found/,
    );
    await expect(fanOutNotificationPush(job(), settings, 987654, { retryCount: 2, retryLimit: 3 })).rejects.toThrow(
      /not found/,
    );
    expect(await fanOutNotificationPush(job(), settings, 987654, { retryCount: 3, retryLimit: 3 })).toEqual({
      skipped: 'not found',
    });
    const gina = await user();
    const device = await browser(gina.ctx);
    const { id } = await note({ to: { userId: gina.id } });
    await database.db.updateTable('notifications').set({ isActive: false }).where('id', '=', id).execute();
    expect(await fanOutNotificationPush(job(), settings, id, FIRST)).toEqual({ skipped: 'inactive or expired' });
    expect(await sendToSubscription(job(), settings, id, device.id, FIRST)).toEqual({ status: 'skipped' });
    await database.db.updateTable('notifications').set({ isActive: true }).where('id', '=', id).execute();
    const off = { vapid: null, allowPrivateTargets: true };
    expect(await fanOutNotificationPush(job(), off, id, FIRST)).toEqual({ skipped: 'push is not configured' });
    expect(await sendToSubscription(job(), off, id, device.id, FIRST)).toEqual({ status: 'skipped' });
    expect(service.requestsTo(device.endpoint)).toHaveLength(0);
  });

  it('subscribe checks the endpoint (https, public) and the keys', async () => {
    const hank = await user();
    const keys = browserKeys().subscriptionKeys;
    const strict: PushSettings = { ...settings, allowPrivateTargets: false };
    const dns = fakeDns({
      'push.example.com': '93.184.216.34',
      'internal.example.com': '10.1.2.3',
      'v6.example.com': 'fd00::1',
    });
    const refused = async (input: unknown, field: string, options = strict) => {
      const error = await failure(subscribePush(hank.ctx, options, input, { resolve: dns }));
      expect(error.status, JSON.stringify(input)).toBe(400);
      expect(
        error.errors?.map((e) => e.field),
        JSON.stringify(input),
      ).toContain(field);
      return error;
    };
    expect((await refused({ endpoint: 'http://push.example.com/x', keys }, 'endpoint')).errors).toEqual([
      { field: 'endpoint', message: 'Only https addresses are allowed' },
    ]);
    await refused({ endpoint: 'https://localhost/x', keys }, 'endpoint');
    await refused({ endpoint: 'https://127.0.0.1/x', keys }, 'endpoint');
    await refused({ endpoint: 'https://10.0.0.8/x', keys }, 'endpoint');
    await refused({ endpoint: 'https://[::1]/x', keys }, 'endpoint');
    await refused({ endpoint: 'https://internal.example.com/x', keys }, 'endpoint');
    await refused({ endpoint: 'https://v6.example.com/x', keys }, 'endpoint');
    await refused({ endpoint: 'https://nowhere.example.com/x', keys }, 'endpoint');
    await refused({ endpoint: `${service.url}/x`, keys }, 'endpoint');
    await refused({ endpoint: 'ftp://push.example.com/x', keys }, 'endpoint', settings);
    await refused({ endpoint: 'not a url', keys }, 'endpoint');
    await refused({ endpoint: `https://push.example.com/${'x'.repeat(1000)}`, keys }, 'endpoint');
    await refused({ keys }, 'endpoint');
    await refused({ endpoint: 'https://push.example.com/x', keys: { ...keys, p256dh: 'AAAA' } }, 'keys.p256dh');
    // 65 bytes that start like a key but are no point on the curve.
    await refused(
      {
        endpoint: 'https://push.example.com/x',
        keys: { ...keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url') },
      },
      'keys.p256dh',
    );
    // A compressed point (33 bytes) is not what browsers send.
    await refused(
      { endpoint: 'https://push.example.com/x', keys: { ...keys, p256dh: compressedKey() } },
      'keys.p256dh',
    );
    await refused(
      { endpoint: 'https://push.example.com/x', keys: { ...keys, p256dh: keys.p256dh.replace(/^./, '+') } },
      'keys.p256dh',
    );
    await refused(
      { endpoint: 'https://push.example.com/x', keys: { ...keys, auth: crypto.randomBytes(15).toString('base64url') } },
      'keys.auth',
    );
    await refused({ endpoint: 'https://push.example.com/x', keys: { p256dh: keys.p256dh } }, 'keys.auth');
    const noKeys = await refused({ endpoint: 'https://push.example.com/x' }, 'keys.p256dh');
    expect(noKeys.errors?.map((e) => e.field)).toEqual(['keys.p256dh', 'keys.auth']);
    // Nothing of the refused ones was stored.
    expect(
      await database.db.selectFrom('pushSubscriptions').select('id').where('userId', '=', hank.id).execute(),
    ).toEqual([]);

    // A public https endpoint (resolved by the injected resolver, no network), padding and extra keys allowed.
    const endpoint = `https://push.example.com/send/${dialect}-${crypto.randomUUID()}`;
    expect(
      await subscribePush(
        hank.ctx,
        strict,
        { endpoint, keys: { ...keys, auth: `${keys.auth}==` }, expirationTime: null },
        { resolve: dns },
      ),
    ).toEqual({ subscribed: true });
    const row = await database.db
      .selectFrom('pushSubscriptions')
      .selectAll()
      .where('endpoint', '=', endpoint)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ userId: hank.id, p256dh: keys.p256dh, auth: keys.auth, userAgent: 'vitest' });

    // Only a signed-in user subscribes.
    expect((await failure(subscribePush(system(), settings, { endpoint, keys }))).kind).toBe('forbidden');
  });

  it('the same browser subscribing under another account moves to that account', async () => {
    const ian = await user();
    const jane = await user();
    const first = await browser(ian.ctx, `shared-${crypto.randomUUID()}`);
    const newKeys = browserKeys();
    await subscribePush({ ...jane.ctx, meta: { userAgent: 'x'.repeat(600) } }, settings, {
      endpoint: first.endpoint,
      keys: newKeys.subscriptionKeys,
    });
    const rows = await database.db
      .selectFrom('pushSubscriptions')
      .selectAll()
      .where('endpoint', '=', first.endpoint)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: first.id,
      userId: jane.id,
      p256dh: newKeys.subscriptionKeys.p256dh,
      auth: newKeys.subscriptionKeys.auth,
    });
    expect(rows[0].userAgent).toHaveLength(500);
    // Pushes for the new account arrive, readable with the new keys.
    const { id, title } = await note({ to: { userId: jane.id } });
    expect(await sendToSubscription(job(), settings, id, first.id, FINAL)).toEqual({ status: 'sent' });
    expect(JSON.parse(decryptPush(service.requestsTo(first.endpoint).at(-1)!.body, newKeys).toString()).title).toBe(
      title,
    );
  });

  it("unsubscribe removes one endpoint or all of the caller's, never another user's", async () => {
    const kate = await user();
    const leo = await user();
    const [k1, k2, l1] = [await browser(kate.ctx), await browser(kate.ctx), await browser(leo.ctx)];
    expect(await unsubscribePush(kate.ctx, { endpoint: l1.endpoint })).toEqual({ removed: 0 });
    expect(await unsubscribePush(kate.ctx, { endpoint: k1.endpoint })).toEqual({ removed: 1 });
    expect(await subscription(k1.id)).toBeUndefined();
    expect(await unsubscribePush(kate.ctx, {})).toEqual({ removed: 1 });
    expect(await subscription(k2.id)).toBeUndefined();
    expect(await unsubscribePush(kate.ctx, undefined)).toEqual({ removed: 0 });
    expect(await subscription(l1.id)).toBeDefined();
    expect((await failure(unsubscribePush(kate.ctx, { endpoint: 42 }))).errors?.[0].field).toBe('endpoint');
    expect((await failure(unsubscribePush(system(), {}))).kind).toBe('forbidden');
  });

  it("a test push goes to the caller's browsers now; 409 without one", async () => {
    const mia = await user();
    expect(await failure(sendTestPush(mia.ctx, settings))).toMatchObject({
      kind: 'conflict',
      status: 409,
      message: 'No browser of yours is subscribed to push notifications',
    });
    const [ok, gone, broken] = [await browser(mia.ctx), await browser(mia.ctx), await browser(mia.ctx)];
    const other = await browser((await user()).ctx);
    service.answer(gone.endpoint, 410);
    service.answer(broken.endpoint, 500);
    expect(await sendTestPush(mia.ctx, settings)).toEqual({ sent: 1, failed: 1, removed: 1 });
    expect(JSON.parse(decryptPush(service.requestsTo(ok.endpoint)[0].body, ok.keys).toString())).toMatchObject({
      title: 'Test notification',
      body: 'Push notifications work on this device.',
      url: '/settings?tab=notifications',
    });
    expect(await subscription(gone.id)).toBeUndefined();
    expect(await subscription(broken.id)).toMatchObject({
      failureCount: 1,
      lastError: 'HTTP 500 Internal Server Error',
    });
    expect(service.requestsTo(other.endpoint)).toHaveLength(0);
  });

  it("pushes the product's notices and the test push in the recipient's language; a typed notice as typed", async () => {
    // A process with the catalogs, as server.ts and the worker build their runtimes.
    const withCatalogs = createRuntime(undefined, { translator: catalogTranslator() });
    const sent = (device: { endpoint: string; keys: BrowserKeys }) =>
      JSON.parse(decryptPush(service.requestsTo(device.endpoint).at(-1)!.body, device.keys).toString());
    const ana = await user();
    await updateUserSettings(ana.ctx, { language: 'es' });
    const english = await user();
    const [spanishBrowser, englishBrowser] = [await browser(ana.ctx), await browser(english.ctx)];
    const texts = {
      title: { message: 'Password changed' },
      message: {
        message:
          'Your password was changed and your other sessions were signed out. If this was not you, tell your administrator at once.',
      },
    };
    for (const [who, device] of [
      [ana, spanishBrowser],
      [english, englishBrowser],
    ] as const) {
      const { id } = await note({
        to: { userId: who.id },
        title: 'Password changed',
        message: texts.message.message,
        texts,
      });
      expect(
        await sendToSubscription({ db: database.db, runtime: withCatalogs }, settings, id, device.id, FINAL),
      ).toEqual({ status: 'sent' });
    }
    expect(sent(spanishBrowser)).toMatchObject({
      title: 'Contraseña cambiada',
      body: 'Su contraseña se cambió y se cerraron sus otras sesiones. Si no fue usted, avise a su administrador de inmediato.',
    });
    expect(sent(englishBrowser)).toMatchObject({ title: 'Password changed', body: texts.message.message });

    // An administrator's notice has no texts: it goes as it was typed.
    const typed = await note({ to: { userId: ana.id } });
    await sendToSubscription({ db: database.db, runtime: withCatalogs }, settings, typed.id, spanishBrowser.id, FINAL);
    expect(sent(spanishBrowser)).toMatchObject({ title: typed.title });

    await sendTestPush({ ...ana.ctx, runtime: withCatalogs }, settings);
    expect(sent(spanishBrowser)).toMatchObject({
      title: 'Notificación de prueba',
      body: 'Las notificaciones push funcionan en este dispositivo.',
    });
  });

  it('without VAPID keys push is unavailable (503)', async () => {
    const nina = await user();
    const off: PushSettings = { vapid: null, allowPrivateTargets: true };
    const keys = browserKeys().subscriptionKeys;
    for (const call of [
      () => subscribePush(nina.ctx, off, { endpoint: `${service.url}/off`, keys }),
      () => sendTestPush(nina.ctx, off),
      async () => vapidPublicKey(off),
    ]) {
      expect(await failure(call())).toMatchObject({
        kind: 'unavailable',
        status: 503,
        message: 'Push notifications are not configured on this server',
      });
    }
    expect(vapidPublicKey(settings)).toEqual({ publicKey: settings.vapid!.publicKey });
  });

  it('every send checks the target again: a name now resolving to a private address is refused', async () => {
    const olga = await user();
    const device = await browser(olga.ctx);
    const strict: PushSettings = { ...settings, allowPrivateTargets: false };
    const { id } = await note({ to: { userId: olga.id } });
    // Subscribed when push.example.com was public; it now answers with the stand-in's loopback address.
    const endpoint = `https://push.example.com/${dialect}/rebound-${crypto.randomUUID()}`;
    await database.db.updateTable('pushSubscriptions').set({ endpoint }).where('id', '=', device.id).execute();
    const before = service.requests.length;
    const result = await sendToSubscription(job(), strict, id, device.id, FINAL, {
      resolve: fakeDns({ 'push.example.com': '127.0.0.1' }),
    });
    expect(result).toEqual({ status: 'failed' });
    expect((await subscription(device.id))?.lastError).toBe(
      'Refused target: The address is on a private or local network; only public addresses are allowed',
    );
    // An http or loopback endpoint left in the table is refused the same way.
    await database.db
      .updateTable('pushSubscriptions')
      .set({ endpoint: `${service.url}/${dialect}/plain-http` })
      .where('id', '=', device.id)
      .execute();
    expect(await sendToSubscription(job(), strict, id, device.id, FINAL)).toEqual({ status: 'failed' });
    expect((await subscription(device.id))?.lastError).toBe('Refused target: Only https addresses are allowed');
    expect(service.requests.length).toBe(before);
  });

  it('without a job engine, a web process pushes by itself; the CLI does not', async () => {
    const paul = await user();
    const device = await browser(paul.ctx);
    const { id, title } = await note({ to: { userId: paul.id } });
    // notify() found no engine, and this runtime runs no job itself (as in the CLI): nothing was sent.
    await sleep(200);
    expect(service.requestsTo(device.endpoint)).toHaveLength(0);
    // A web process's runtime runs notification-push itself when it reaches no engine.
    const web = createRuntime();
    const config = { ...testConfig(database.dataDir), push: settings };
    web.jobs.runHereWithoutEngine(runHereLocally(JOBS, { db: database.db, settings: config, runtime: web }));
    await startPushDelivery({ runtime: web }, id);
    const [push] = await waitFor(
      () => (service.requestsTo(device.endpoint).length ? service.requestsTo(device.endpoint) : null),
      'the push to arrive',
    );
    expect(JSON.parse(decryptPush(push.body, device.keys).toString()).title).toBe(title);
  });

  it('with the job engine, notify() ends with the push at the browser (notification-push → push-send)', async () => {
    const quinn = await user();
    const device = await browser(quinn.ctx);
    const config = testConfig(database.dataDir);
    const engine = new JobEngine({
      role: 'embedded',
      db: database.db,
      queueDir: null,
      ...appJobs(config),
      settings: { ...config, push: settings },
      schedules: false,
      pollingIntervalSeconds: 0.5,
      runtime,
      log: () => {},
    });
    runtime.jobs.host(engine);
    await engine.start();
    try {
      const { id, title } = await note({ to: { userId: quinn.id }, priority: 'critical' });
      const [push] = await waitFor(
        () => (service.requestsTo(device.endpoint).length ? service.requestsTo(device.endpoint) : null),
        'the push to arrive through the queue',
        30_000,
      );
      expect(push.headers.urgency).toBe('high');
      expect(JSON.parse(decryptPush(push.body, device.keys).toString())).toMatchObject({ title, notificationId: id });
      // One job per notification and per browser, under their singleton keys.
      const fanOut = await engine.boss.findJobs('notification-push', { key: `notification-push-${id}` });
      expect(fanOut.map((job) => job.data)).toEqual([{ notificationId: id }]);
      const sends = await engine.boss.findJobs('push-send', { key: `push-send-${id}-${device.id}` });
      expect(sends.map((job) => job.data)).toEqual([{ notificationId: id, subscriptionId: device.id }]);
    } finally {
      runtime.jobs.host(null);
      await engine.stop({ graceful: false });
    }
  }, 60_000);

  it('keeps at most 10 browsers per user: subscribing more replaces the ones that subscribed longest ago', async () => {
    expect(MAX_BROWSERS_PER_USER).toBe(10);
    const rita = await user();
    const sam = await user();
    const theirs = await browser(sam.ctx);
    const devices = [];
    for (let i = 0; i < 12; i++) {
      devices.push(await browser(rita.ctx));
      await sleep(2);
    }
    const kept = async () =>
      (
        await database.db
          .selectFrom('pushSubscriptions')
          .select('id')
          .where('userId', '=', rita.id)
          .orderBy('id')
          .execute()
      ).map((row) => row.id);
    expect(await kept()).toEqual(devices.slice(2).map((d) => d.id));
    // A browser renewing its subscription is recent again: the next newcomer replaces another.
    await subscribePush(rita.ctx, settings, { endpoint: devices[2].endpoint, keys: devices[2].keys.subscriptionKeys });
    await sleep(2);
    const newcomer = await browser(rita.ctx);
    expect(await kept()).toEqual([devices[2], ...devices.slice(4), newcomer].map((d) => d.id));
    // Another user's browsers are not touched.
    expect(await subscription(theirs.id)).toBeDefined();
  });

  it('keeps at most 10 browsers per user when 15 of them subscribe at the same moment, round after round', async () => {
    const wren = await user();
    const xavi = await user();
    const theirs = await browser(xavi.ctx);
    const kept = async () =>
      (
        await database.db.selectFrom('pushSubscriptions').select('endpoint').where('userId', '=', wren.id).execute()
      ).map((row) => row.endpoint);
    for (let round = 0; round < 10; round++) {
      const endpoints = Array.from({ length: 15 }, (_, i) => `${service.url}/${dialect}/wren-${round}-${i}`);
      // wren.ctx holds the database, not a transaction: every call runs its own transaction,
      // on its own pooled connection on PostgreSQL, so the 15 race each other.
      const results = await Promise.all(
        endpoints.map((endpoint) =>
          subscribePush(wren.ctx, settings, { endpoint, keys: browserKeys().subscriptionKeys }),
        ),
      );
      expect(results).toEqual(endpoints.map(() => ({ subscribed: true })));
      const stored = await kept();
      expect(stored, `after round ${round}`).toHaveLength(MAX_BROWSERS_PER_USER);
      // The previous rounds' browsers subscribed longer ago than any of this round's.
      expect(
        stored.filter((endpoint) => !endpoints.includes(endpoint)),
        `after round ${round}`,
      ).toEqual([]);
    }
    expect(await subscription(theirs.id)).toBeDefined();
  });

  it('never more than 4 messages in flight to one push service from a process: test pushes and fan-outs together', async () => {
    expect(PUSH_HOST_CONCURRENCY).toBe(4);
    const slow = await startPushService({ delayMs: 150 });
    try {
      const tess = await user();
      for (let i = 0; i < 10; i++) {
        const keys = browserKeys();
        await subscribePush(tess.ctx, settings, {
          endpoint: `${slow.url}/${dialect}/tess-${i}`,
          keys: keys.subscriptionKeys,
        });
      }
      // A request's test push and a job's fan-out (without a job engine it sends from this
      // process) at the same time, through the process's one runtime: 4 in flight at most.
      const { id } = await note({ to: { userId: tess.id } });
      const [tested, fannedOut] = await Promise.all([
        sendTestPush({ ...tess.ctx, runtime }, settings),
        fanOutNotificationPush(job(), settings, id, FINAL),
      ]);
      expect(tested).toEqual({ sent: 10, failed: 0, removed: 0 });
      expect(fannedOut).toEqual({ subscriptions: 10 });
      expect(slow.requests).toHaveLength(20);
      expect(slow.maxInFlight).toBe(PUSH_HOST_CONCURRENCY);
      expect(slow.inFlight).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it('a test push runs one at a time per user, and at most 5 a minute', async () => {
    expect(TEST_PUSHES_PER_MINUTE).toBe(5);
    await notNearTheMinute();
    const slow = await startPushService({ delayMs: 400 });
    try {
      const uma = await user();
      await subscribePush(uma.ctx, settings, {
        endpoint: `${slow.url}/${dialect}/uma`,
        keys: browserKeys().subscriptionKeys,
      });
      const first = sendTestPush(uma.ctx, settings);
      await waitFor(() => (slow.inFlight > 0 ? true : null), 'the first test push to reach the push service');
      expect(await failure(sendTestPush(uma.ctx, settings))).toMatchObject({
        kind: 'rateLimited',
        status: 429,
        message: TEST_PUSH_RUNNING,
        retryAfter: 5,
      });
      expect(await first).toEqual({ sent: 1, failed: 0, removed: 0 });
      expect(slow.requests).toHaveLength(1);

      slow.delayMs = 0;
      // Every attempt counts, the refused one too: three more make five this minute.
      for (let i = 0; i < 3; i++)
        expect(await sendTestPush(uma.ctx, settings)).toEqual({ sent: 1, failed: 0, removed: 0 });
      const over = await failure(sendTestPush(uma.ctx, settings));
      expect(over).toMatchObject({ kind: 'rateLimited', status: 429 });
      expect(over.message).toMatch(/^Too many test notifications: at most 5 a minute\. Try again in \d+ seconds\.$/);
      expect(over.retryAfter).toBeGreaterThan(0);
      expect(over.retryAfter).toBeLessThanOrEqual(60);
      // The settings page's device panel words the /api's English again for its reader.
      const refusal = new ApiRefusal(over.message, 429, over.retryAfter!);
      expect(failureWords({ t: catalogTranslator()('de'), locale: 'de' }, refusal)).toBe(
        `Zu viele Testbenachrichtigungen: höchstens 5 pro Minute. Versuchen Sie es in ${over.retryAfter} Sekunden erneut.`,
      );
      expect(
        failureWords({ t: catalogTranslator()('fr'), locale: 'fr' }, new ApiRefusal(TEST_PUSH_RUNNING, 429, 5)),
      ).toBe('Une notification de test est déjà en cours d’envoi. Réessayez dans quelques secondes.');
      expect(slow.requests).toHaveLength(4);

      // Somebody else's test push is not held up.
      const vic = await user();
      await subscribePush(vic.ctx, settings, {
        endpoint: `${slow.url}/${dialect}/vic`,
        keys: browserKeys().subscriptionKeys,
      });
      expect(await sendTestPush(vic.ctx, settings)).toEqual({ sent: 1, failed: 0, removed: 0 });
    } finally {
      await slow.close();
    }
  });
});
