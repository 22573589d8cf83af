// What the notification calls of /api answer, as zod schemas: the one description of these
// answers. The services' and the screens' types are these schemas' outputs, and the OpenAPI
// document describes the answers with them (app/features/api-docs), so the code and the
// document cannot disagree. Isomorphic: the screens take their types from here.
import { z } from 'zod';
import { count } from '../../platform/lib/answer-fields.ts';
import { NOTIFICATION_CATEGORIES, NOTIFICATION_PRIORITIES, NOTIFICATION_TYPES } from '../../../db/types.ts';

/** One of a notification's texts as a catalog message and its values (docs/languages.md). */
export const NoticeTextAnswer = z.strictObject({
  message: z.string().describe('The English message with ICU placeholders: the catalogs translate it'),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  words: z
    .record(z.string(), z.record(z.string(), z.string()))
    .optional()
    .describe(
      'Values the product worded itself (a run’s error), in other languages: per value, its text by language code',
    ),
});

/** The texts of a notification the product sent, for a reader of another language. */
export const NoticeTextsAnswer = z.strictObject({
  title: NoticeTextAnswer,
  message: NoticeTextAnswer,
  actionText: NoticeTextAnswer.optional(),
});

/** A notification as the API and the screens show it. */
export const NotificationAnswer = z.strictObject({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  title: z.string(),
  message: z.string(),
  isRead: z.boolean(),
  createdAt: z.string().describe('ISO 8601 instant'),
  actionUrl: z.string().nullable().describe('A path on this site'),
  actionText: z.string().nullable(),
  category: z.enum(NOTIFICATION_CATEGORIES),
  repeatCount: z
    .number()
    .int()
    .min(1)
    .describe('How many times the event happened (a repeat within an hour updates the unread notice)'),
  texts: NoticeTextsAnswer.nullable().describe(
    'The title, message and action text as messages and values, so a client can show them in the reader’s language; null for a notification an administrator wrote',
  ),
});
export const NotificationListAnswer = z.array(NotificationAnswer);

/** The reader's notifications, and how many of them are unread. */
export const NotificationCountAnswer = z.strictObject({ total: count, unread: count });

/** POST /api/notifications/mark-all-read: the new counts and how many were marked. */
export const MarkAllReadAnswer = NotificationCountAnswer.extend({ marked: count });
export type MarkAllReadResult = z.output<typeof MarkAllReadAnswer>;

/** GET /api/notifications/vapid-public-key. */
export const VapidKeyAnswer = z.strictObject({
  publicKey: z.string().describe('The VAPID public key, URL-safe base64'),
});
export type VapidKey = z.output<typeof VapidKeyAnswer>;

/** POST /api/notifications/subscribe. */
export const SubscribedAnswer = z.strictObject({ subscribed: z.literal(true) });
export type Subscribed = z.output<typeof SubscribedAnswer>;

/** POST /api/notifications/unsubscribe: browsers removed. */
export const UnsubscribedAnswer = z.strictObject({ removed: count });
export type Unsubscribed = z.output<typeof UnsubscribedAnswer>;

/** POST /api/notifications/test: what became of the push to each of the caller's browsers. */
export const TestPushAnswer = z.strictObject({
  sent: count,
  failed: count,
  removed: count.describe('Browsers whose push service said the subscription is gone (removed)'),
});
export type TestPushResult = z.output<typeof TestPushAnswer>;
