// Web Push (docs/security.md, docs/jobs.md). A stored notification is pushed by the notification-push
// job, which sends one push-send job per subscribed browser of its recipients; each push-send
// encrypts the message for that browser (RFC 8291, aes128gcm), signs it with the VAPID key
// (RFC 8292) and posts it to the browser's push service, at a public https address only (unless
// ALLOW_PRIVATE_TARGETS), re-checked before every send so a name cannot be turned toward the
// internal network later (DNS rebinding). 404/410 from the push service removes the browser;
// a browser failing for 7 days is removed too. Keys (the browser's p256dh/auth, the VAPID
// private key) are never logged or returned; neither are endpoints (they are capabilities).
// Limits: at most 10 browsers per user (an 11th replaces the one that subscribed
// longest ago); a test push runs one at a time per user and at most 5 a minute; at most 4
// messages are in flight to one push-service host at once from a process.
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import { z } from 'zod';
import { noticeWords, type NotificationView } from './shared.ts';
import { isLocale } from '../../platform/i18n/locales.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { ENGLISH, phrased, type Reader } from '../../platform/i18n/refusal-words.ts';
import { NO_SUBSCRIBED_BROWSER, TEST_PUSH_LIMIT, TEST_PUSH_RUNNING, TEST_PUSHES_PER_MINUTE } from './push-refusals.ts';
import type { Subscribed, TestPushResult, Unsubscribed, VapidKey } from './answers.ts';
import type { PushSettings } from '../../platform/config.server.ts';
import { dialectOf } from '../../../db/dialect.ts';
import { inTransaction, requireUser, type AuthUser, type Db, type ServiceContext } from '../../platform/context.ts';
import { conflict, DomainError, fieldErrorsFromZod, invalid, isDomainError } from '../../platform/errors.ts';
import { recipientsOf } from './notification-recipients.server.ts';
import {
  assertPublicTarget,
  isOutboundTargetError,
  type HostResolver,
} from '../../platform/http/outbound-target.server.ts';
import { consumeRateLimit } from '../../platform/http/throttle.server.ts';
import { oneAtATime } from '../../platform/work-lease.server.ts';

/** Where the job handlers say which attempt this is (pg-boss retryCount, the queue's retryLimit). */
export interface Attempt {
  retryCount: number;
  retryLimit: number;
}

/** Test seams and tuning for delivery (defaults: the system resolver, 10 s). */
export interface PushDeliveryOptions {
  /** Resolves push-service host names (the outbound-target check). */
  resolve?: HostResolver;
  /** Longest wait for a push service's answer, in ms. */
  timeoutMs?: number;
}

export type PushStatus = 'sent' | 'removed' | 'failed' | 'skipped';

/** A subscription failing this long is removed (at its next failure, or by the nightly purge). */
export const PUSH_FAILING_DAYS = 7;
/** How long the push service keeps a message for an offline browser. */
export const PUSH_TTL_SECONDS = 86_400;
/** The JSON message stays under this (Web Push allows 4 KB of ciphertext, encryption adds ~100 bytes). */
export const PUSH_MAX_PAYLOAD_BYTES = 3_000;
const SEND_TIMEOUT_MS = 10_000;
/** Browsers sent to at once when a process sends without the queue. */
const LOCAL_CONCURRENCY = 8;
/** Subscribed browsers kept per user: subscribing one more replaces the one that subscribed longest ago. */
export const MAX_BROWSERS_PER_USER = 10;
/** Messages in flight to one push-service host (scheme, name, port) at once, per process. */
export const PUSH_HOST_CONCURRENCY = 4;
/** Test pushes a user may send a minute (each one at a time). */
/** An attempt that never throws: failures are recorded and answered. */
const FINAL_ATTEMPT: Attempt = { retryCount: 0, retryLimit: 0 };

const UNAVAILABLE_MESSAGE = 'Push notifications are not configured on this server';
const unavailable = () => new DomainError('unavailable', UNAVAILABLE_MESSAGE);

// ---------------------------------------------------------------------------------------------
// Starting delivery

/**
 * Starts the push delivery of a stored notification: the notification-push job. A web server
 * that reaches no job engine runs it itself (the job is declared runsHereWithoutEngine); a
 * process that cannot (the CLI) leaves the notification in the bell unpushed.
 */
export async function startPushDelivery(ctx: Pick<ServiceContext, 'runtime'>, notificationId: number): Promise<void> {
  await ctx.runtime.jobs
    .enqueue('notification-push', { notificationId }, { singletonKey: `notification-push-${notificationId}` })
    .catch(() => {});
}

// ---------------------------------------------------------------------------------------------
// The jobs

/** The subscriptions of these users whose push switch is on (no settings row: on). */
async function subscriptionIdsOf(db: Db, userIds: number[]): Promise<number[]> {
  const ids: number[] = [];
  // Chunks keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('pushSubscriptions as s')
      .leftJoin('userSettings as us', 'us.userId', 's.userId')
      .select('s.id')
      .where('s.userId', 'in', userIds.slice(i, i + 500))
      .where((eb) => eb.or([eb('us.pushNotifications', 'is', null), eb('us.pushNotifications', '=', true)]))
      .orderBy('s.id')
      .execute();
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/** Runs fn over items, at most `limit` at once. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** What the jobs and sends use of a service context: the database, and the runtime (queue, outbound limiter). */
type PushContext = Pick<ServiceContext, 'db' | 'runtime'>;

/** notification-push job: one push-send job per subscribed browser of the recipients. */
export async function fanOutNotificationPush(
  ctx: PushContext,
  settings: PushSettings,
  notificationId: number,
  attempt: Attempt,
  options: PushDeliveryOptions = {},
): Promise<{ subscriptions: number } | { skipped: string }> {
  if (!settings.vapid) return { skipped: 'push is not configured' };
  const { db } = ctx;
  const found = await recipientsOf(db, notificationId);
  if (!found) {
    const stored = await db
      .selectFrom('notifications')
      .select('id')
      .where('id', '=', notificationId)
      .executeTakeFirst();
    if (stored) return { skipped: 'inactive or expired' };
    // Stored by a transaction that has not committed yet, or rolled back: wait, then give up quietly.
    if (attempt.retryCount < attempt.retryLimit)
      throw new Error(`Notification #${notificationId} not found (not committed yet?)`);
    return { skipped: 'not found' };
  }
  const subscriptionIds = await subscriptionIdsOf(db, found.userIds);
  const local: number[] = [];
  for (const [i, subscriptionId] of subscriptionIds.entries()) {
    if (local.length === 0) {
      try {
        await ctx.runtime.jobs.enqueue(
          'push-send',
          { notificationId, subscriptionId },
          { singletonKey: `push-send-${notificationId}-${subscriptionId}` },
        );
        continue;
      } catch (error) {
        console.error(
          `[push] push-send not enqueued (${(error as Error).message}): notification #${notificationId} is sent to ${subscriptionIds.length - i} browser(s) by this process`,
        );
      }
    }
    local.push(subscriptionId);
  }
  await eachLimited(local, LOCAL_CONCURRENCY, (subscriptionId) =>
    sendToSubscription(ctx, settings, notificationId, subscriptionId, FINAL_ATTEMPT, options).catch((error: unknown) =>
      console.error(
        `[push] notification #${notificationId} to browser #${subscriptionId}: ${(error as Error).message}`,
      ),
    ),
  );
  return { subscriptions: subscriptionIds.length };
}

const SUBSCRIPTION_COLUMNS = ['s.id', 's.userId', 's.endpoint', 's.p256dh', 's.auth', 's.failingSince'] as const;
type SubscriptionRow = {
  id: number;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  failingSince: string | null;
};

/** push-send job: one message to one browser. */
export async function sendToSubscription(
  ctx: PushContext,
  settings: PushSettings,
  notificationId: number,
  subscriptionId: number,
  attempt: Attempt,
  options: PushDeliveryOptions = {},
): Promise<{ status: PushStatus }> {
  if (!settings.vapid) return { status: 'skipped' };
  const { db } = ctx;
  const subscription = await db
    .selectFrom('pushSubscriptions as s')
    .leftJoin('userSettings as us', 'us.userId', 's.userId')
    .select([...SUBSCRIPTION_COLUMNS, 'us.pushNotifications', 'us.language'])
    .where('s.id', '=', subscriptionId)
    .executeTakeFirst();
  if (!subscription || subscription.pushNotifications === false) return { status: 'skipped' };
  // Checked again at sending: the notification may be gone, the user's switches changed, or
  // the browser re-subscribed under another account since the fan-out.
  const found = await recipientsOf(db, notificationId);
  if (!found || !found.userIds.includes(subscription.userId)) return { status: 'skipped' };
  // In the recipient's language, as the bell shows it.
  const payload = notificationPayload(found.notification, readerIn(ctx, subscription.language));
  const urgency =
    found.notification.priority === 'high' || found.notification.priority === 'critical' ? 'high' : 'normal';
  // The Topic lets a push service replace a copy it still holds (a retry after a worker died
  // mid-send) instead of delivering the same notification twice; the tag does so in the browser.
  const message = { payload, urgency, topic: `notification-${notificationId}` } as const;
  return { status: await deliver(ctx, settings, subscription, message, attempt, options) };
}

// ---------------------------------------------------------------------------------------------
// Sending

/** The message a browser's service worker shows: JSON under PUSH_MAX_PAYLOAD_BYTES (the body is shortened when needed). */
function fitPayload(message: { title: string; body: string } & Record<string, unknown>): string {
  const json = JSON.stringify(message);
  if (Buffer.byteLength(json) <= PUSH_MAX_PAYLOAD_BYTES) return json;
  const full = message.body;
  const shortened = (keep: number) => {
    // Never half a surrogate pair.
    const end = keep > 0 && /[\uD800-\uDBFF]/.test(full[keep - 1]) ? keep - 1 : keep;
    return JSON.stringify({ ...message, body: `${full.slice(0, end).trimEnd()}…` });
  };
  // The longest beginning of the body that fits (binary search over its length).
  let low = 0;
  let high = full.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(shortened(mid)) <= PUSH_MAX_PAYLOAD_BYTES) low = mid;
    else high = mid - 1;
  }
  return shortened(low);
}

/** A reader of `language` from the runtime's catalogs (none when the process has no catalogs). */
function readerIn(ctx: PushContext, language: string | null | undefined): Reader | undefined {
  const locale = isLocale(language) ? language : 'en';
  const t = ctx.runtime.translator?.(locale);
  return t && { t, locale };
}

/** The user's language's reader (English when the process has no catalogs). */
async function readerFor(ctx: PushContext, userId: number): Promise<Reader> {
  const row = await ctx.db
    .selectFrom('userSettings')
    .select('language')
    .where('userId', '=', userId)
    .executeTakeFirst();
  return readerIn(ctx, row?.language) ?? ENGLISH;
}

/** A notification's push, in the language of `t` (English without it). */
function notificationPayload(notification: NotificationView, reader: Reader | undefined): string {
  const words = reader
    ? noticeWords(notification, reader)
    : { title: notification.title, message: notification.message };
  return fitPayload({
    title: words.title,
    body: words.message,
    url: notification.actionUrl ?? '/notifications',
    tag: `notification-${notification.id}`,
    notificationId: notification.id,
    type: notification.type,
    priority: notification.priority,
    category: notification.category,
  });
}

type Outcome = { kind: 'answer'; status: number; text: string } | { kind: 'error'; message: string };

/** What one push carries: the encrypted JSON, its urgency and the Topic copies of it share. */
interface PushMessage {
  payload: string;
  urgency: 'high' | 'normal';
  topic?: string;
}

const protocolsFor = (settings: PushSettings) => (settings.allowPrivateTargets ? ['https:', 'http:'] : ['https:']);

/** One encrypted, VAPID-signed POST to the browser's push service (no retries here). */
async function postPush(
  ctx: PushContext,
  settings: PushSettings & { vapid: NonNullable<PushSettings['vapid']> },
  subscription: SubscriptionRow,
  message: PushMessage,
  options: PushDeliveryOptions,
): Promise<Outcome> {
  let target;
  try {
    target = await assertPublicTarget(subscription.endpoint, {
      allowPrivate: settings.allowPrivateTargets,
      protocols: protocolsFor(settings),
      resolve: options.resolve,
    });
  } catch (error) {
    if (isOutboundTargetError(error)) return { kind: 'error', message: `Refused target: ${error.message}` };
    throw error;
  }
  let details;
  try {
    details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      message.payload,
      {
        vapidDetails: settings.vapid,
        TTL: PUSH_TTL_SECONDS,
        urgency: message.urgency,
        ...(message.topic ? { topic: message.topic } : {}),
        contentEncoding: 'aes128gcm',
      },
    );
  } catch {
    // web-push's messages may quote the subscription: say only what failed.
    return { kind: 'error', message: 'The message could not be encrypted or signed for this browser' };
  }
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const transport = target.url.protocol === 'http:' ? http : https;
  return ctx.runtime.outbound.run(
    `${target.url.protocol}//${target.url.host}`,
    PUSH_HOST_CONCURRENCY,
    () =>
      new Promise<Outcome>((resolve) => {
        const request = transport.request(
          target.url,
          {
            method: 'POST',
            headers: details.headers,
            agent: false,
            ...(target.lookup ? { lookup: target.lookup } : {}),
          },
          (response) => {
            response.resume();
            resolve({ kind: 'answer', status: response.statusCode ?? 0, text: response.statusMessage ?? '' });
          },
        );
        const timer = setTimeout(
          () => request.destroy(new Error(`No answer within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
        request.on('close', () => clearTimeout(timer));
        request.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ kind: 'error', message: error.message || error.code || 'Network error' }),
        );
        request.end(details.body ?? undefined);
      }),
  );
}

/** Sends, then records the outcome on the subscription; throws (for a retry) only while retries remain. */
async function deliver(
  ctx: PushContext,
  settings: PushSettings,
  subscription: SubscriptionRow,
  message: PushMessage,
  attempt: Attempt,
  options: PushDeliveryOptions,
): Promise<Exclude<PushStatus, 'skipped'>> {
  if (!settings.vapid) throw unavailable();
  const outcome = await postPush(ctx, { ...settings, vapid: settings.vapid }, subscription, message, options);
  const { db } = ctx;
  const now = new Date();
  if (outcome.kind === 'answer' && outcome.status >= 200 && outcome.status < 300) {
    await db
      .updateTable('pushSubscriptions')
      .set({ lastSuccessAt: now.toISOString(), failureCount: 0, failingSince: null, lastError: null })
      .where('id', '=', subscription.id)
      .execute();
    return 'sent';
  }
  // The push service says this browser is gone (unsubscribed, expired).
  if (outcome.kind === 'answer' && (outcome.status === 404 || outcome.status === 410)) {
    await db.deleteFrom('pushSubscriptions').where('id', '=', subscription.id).execute();
    return 'removed';
  }
  const reason = (
    outcome.kind === 'answer' ? `HTTP ${outcome.status}${outcome.text ? ` ${outcome.text}` : ''}` : outcome.message
  )
    .replace(/\s+/g, ' ')
    .slice(0, 200);
  const failingSince = subscription.failingSince ?? now.toISOString();
  if (now.getTime() - Date.parse(failingSince) > PUSH_FAILING_DAYS * 86_400_000) {
    await db.deleteFrom('pushSubscriptions').where('id', '=', subscription.id).execute();
    return 'removed';
  }
  await db
    .updateTable('pushSubscriptions')
    .set((eb) => ({
      failureCount: eb('failureCount', '+', 1),
      failingSince: eb.fn.coalesce('failingSince', eb.val(now.toISOString())),
      lastError: reason,
    }))
    .where('id', '=', subscription.id)
    .execute();
  if (attempt.retryCount < attempt.retryLimit) throw new Error(`Push to browser #${subscription.id} failed: ${reason}`);
  return 'failed';
}

// ---------------------------------------------------------------------------------------------
// The API

/** GET /api/notifications/vapid-public-key → { publicKey }; 503 when push is not configured. */
export function vapidPublicKey(settings: PushSettings): VapidKey {
  if (!settings.vapid) throw unavailable();
  return { publicKey: settings.vapid.publicKey };
}

/** URL-safe base64 (padding allowed) → bytes, or null. */
function base64urlBytes(value: string): Buffer | null {
  return /^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value.replace(/=+$/, ''), 'base64url') : null;
}

/** An uncompressed P-256 point (0x04 ‖ x ‖ y) on the curve. */
function isP256PublicKey(value: string): boolean {
  const bytes = base64urlBytes(value);
  if (!bytes || bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    crypto.ECDH.convertKey(bytes, 'prime256v1', undefined, undefined, 'compressed');
    return true;
  } catch {
    return false;
  }
}

const isAuthSecret = (value: string) => base64urlBytes(value)?.length === 16;

/** A browser's PushSubscription.toJSON(); other keys (expirationTime) are allowed and ignored. */
export const SubscribeSchema = z.object({
  endpoint: z
    .string({ error: 'The endpoint is required' })
    .min(1, 'The endpoint is required')
    .max(1000, 'The endpoint is at most 1000 characters')
    .refine((value) => URL.canParse(value), 'The endpoint must be a URL'),
  keys: z.preprocess(
    (value) => value ?? {},
    z.object(
      {
        p256dh: z
          .string({ error: 'keys.p256dh is required' })
          .refine(
            isP256PublicKey,
            'keys.p256dh must be an uncompressed P-256 public key (65 bytes) in URL-safe base64',
          ),
        auth: z
          .string({ error: 'keys.auth is required' })
          .refine(isAuthSecret, 'keys.auth must be a 16-byte secret in URL-safe base64'),
      },
      { error: 'keys must be an object with p256dh and auth' },
    ),
  ),
});

/**
 * POST /api/notifications/subscribe's body as the route declares it: a browser's
 * PushSubscription.toJSON() as it comes, with its expirationTime and whatever keys the push
 * service adds beside p256dh and auth (ignored).
 */
export const SubscribeBody = SubscribeSchema.extend({
  expirationTime: z.number().nullish(),
  keys: z.looseObject({ p256dh: z.string(), auth: z.string() }),
});

/** POST /api/notifications/subscribe: endpoint, keys { p256dh, auth } (this browser, for the caller). */
export async function subscribePush(
  ctx: ServiceContext,
  settings: PushSettings,
  input: unknown,
  options: PushDeliveryOptions = {},
): Promise<Subscribed> {
  const user = requireUser(ctx);
  if (!settings.vapid) throw unavailable();
  const parsed = SubscribeSchema.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const { endpoint, keys } = parsed.data;
  try {
    await assertPublicTarget(endpoint, {
      allowPrivate: settings.allowPrivateTargets,
      protocols: protocolsFor(settings),
      resolve: options.resolve,
    });
  } catch (error) {
    if (isOutboundTargetError(error)) throw invalid([{ field: 'endpoint', message: error.message }]);
    throw error;
  }
  const now = new Date().toISOString();
  const values = {
    userId: user.id,
    p256dh: base64urlBytes(keys.p256dh)!.toString('base64url'),
    auth: base64urlBytes(keys.auth)!.toString('base64url'),
    userAgent: ctx.meta.userAgent ? ctx.meta.userAgent.slice(0, 500) : null,
    updatedAt: now,
  };
  await inTransaction(ctx.db, async (trx) => {
    // One subscriber of this user at a time, so that the cap holds on PostgreSQL too.
    if (dialectOf(trx) === 'postgres')
      await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute();
    // One row per browser: the same browser subscribing again (under this or another account)
    // takes the row over, with its new keys and a clean record.
    await trx
      .insertInto('pushSubscriptions')
      .values({ ...values, endpoint, createdAt: now })
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet({ ...values, failingSince: null, failureCount: 0, lastError: null }),
      )
      .execute();
    // At most MAX_BROWSERS_PER_USER: the browsers that subscribed (or renewed) longest ago go.
    const kept = await trx
      .selectFrom('pushSubscriptions')
      .select('id')
      .where('userId', '=', user.id)
      .orderBy('updatedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(MAX_BROWSERS_PER_USER)
      .execute();
    await trx
      .deleteFrom('pushSubscriptions')
      .where('userId', '=', user.id)
      .where(
        'id',
        'not in',
        kept.map((row) => row.id),
      )
      .execute();
  });
  return { subscribed: true };
}

export const UnsubscribeSchema = z.object({
  endpoint: z
    .string({ error: 'The endpoint must be a string' })
    .max(1000, 'The endpoint is at most 1000 characters')
    .nullish(),
});

/** POST /api/notifications/unsubscribe: { endpoint } removes that browser; nothing removes all the caller's. */
export async function unsubscribePush(ctx: ServiceContext, input: unknown): Promise<Unsubscribed> {
  const user = requireUser(ctx);
  const parsed = UnsubscribeSchema.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  let query = ctx.db.deleteFrom('pushSubscriptions').where('userId', '=', user.id);
  if (parsed.data.endpoint) query = query.where('endpoint', '=', parsed.data.endpoint);
  const result = await query.executeTakeFirst();
  return { removed: Number(result.numDeletedRows ?? 0) };
}

/** Counts a test push of this user: TEST_PUSHES_PER_MINUTE, in the database (every process). */
async function countTestPush(db: Db, userId: number): Promise<void> {
  try {
    await consumeRateLimit(db, `test-push:user:${userId}`, [{ seconds: 60, max: TEST_PUSHES_PER_MINUTE }]);
  } catch (error) {
    if (!isDomainError(error) || !error.retryAfter) throw error;
    const { retryAfter } = error;
    throw phrased((english) => new DomainError('rateLimited', english, { retryAfter }), TEST_PUSH_LIMIT, {
      max: TEST_PUSHES_PER_MINUTE,
      seconds: retryAfter,
    });
  }
}

/**
 * POST /api/notifications/test: a test push to the caller's own browsers, sent now; one at a
 * time per user (429 while one is being sent) and TEST_PUSHES_PER_MINUTE.
 */
export async function sendTestPush(
  ctx: ServiceContext,
  settings: PushSettings,
  options: PushDeliveryOptions = {},
): Promise<TestPushResult> {
  const user = requireUser(ctx);
  if (!settings.vapid) throw unavailable();
  await countTestPush(ctx.db, user.id);
  return oneAtATime(ctx, 'test-push', () => sendTestPushNow(ctx, user, settings, options), {
    busyMessage: TEST_PUSH_RUNNING,
  });
}

async function sendTestPushNow(
  ctx: ServiceContext,
  user: AuthUser,
  settings: PushSettings,
  options: PushDeliveryOptions,
): Promise<TestPushResult> {
  const subscriptions = await ctx.db
    .selectFrom('pushSubscriptions as s')
    .select(SUBSCRIPTION_COLUMNS)
    .where('s.userId', '=', user.id)
    .orderBy('s.updatedAt', 'desc')
    .orderBy('s.id', 'desc')
    .limit(MAX_BROWSERS_PER_USER)
    .execute();
  if (subscriptions.length === 0) throw conflict(NO_SUBSCRIBED_BROWSER);
  const { t } = await readerFor(ctx, user.id);
  const payload = fitPayload({
    title: t(msg('Test notification')),
    body: t(msg('Push notifications work on this device.')),
    url: '/settings?tab=notifications',
    tag: 'push-test',
    type: 'info',
    priority: 'low',
    category: 'system',
  });
  const results = await Promise.all(
    subscriptions.map((subscription) =>
      deliver(ctx, settings, subscription, { payload, urgency: 'normal' }, FINAL_ATTEMPT, options),
    ),
  );
  return {
    sent: results.filter((r) => r === 'sent').length,
    failed: results.filter((r) => r === 'failed').length,
    removed: results.filter((r) => r === 'removed').length,
  };
}

/** Nightly: subscriptions failing for 7 days. */
export async function purgeFailingSubscriptions(db: Db, now = new Date()): Promise<{ removed: number }> {
  const cutoff = new Date(now.getTime() - PUSH_FAILING_DAYS * 86_400_000).toISOString();
  const result = await db.deleteFrom('pushSubscriptions').where('failingSince', '<', cutoff).executeTakeFirst();
  return { removed: Number(result.numDeletedRows ?? 0) };
}
