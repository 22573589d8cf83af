// What the bell, the /notifications page and the API share about notifications: the kinds,
// the tabs, the badge text. Isomorphic.
import { NOTIFICATION_CATEGORIES, NOTIFICATION_PRIORITIES, NOTIFICATION_TYPES } from '../../../db/types.ts';
import type { NotificationCategory, NotificationPriority, NotificationType } from '../../../db/types.ts';
import type { z } from 'zod';
import { msg } from '../../platform/i18n/messages.ts';
import type { Reader } from '../../platform/i18n/refusal-words.ts';
import type { NoticeTextsAnswer, NotificationAnswer, NotificationCountAnswer } from './answers.ts';

export { NOTIFICATION_CATEGORIES, NOTIFICATION_PRIORITIES, NOTIFICATION_TYPES };
export type { NotificationCategory, NotificationPriority, NotificationType };

/** A notification as the API and screens show it. */
export type NotificationView = z.output<typeof NotificationAnswer>;

/** A notification's words as messages and values (the product's own notices). */
export type NoticeTexts = z.output<typeof NoticeTextsAnswer>;
export type NoticeText = NoticeTexts['title'];

/** The stored texts (JSON in notifications.texts); anything unreadable counts as none. */
export function noticeTextsOf(stored: string | null | undefined): NoticeTexts | null {
  if (!stored) return null;
  try {
    const texts = JSON.parse(stored) as NoticeTexts;
    return texts && typeof texts.title?.message === 'string' && typeof texts.message?.message === 'string'
      ? texts
      : null;
  } catch {
    return null;
  }
}

/**
 * What a reader sees of a notification: the product's notices in the reader's language (`data`
 * false), an administrator's as they were typed (`data` true: marked translate="no").
 */
export function noticeWords(
  n: Pick<NotificationView, 'title' | 'message' | 'actionText' | 'texts'>,
  { t, locale }: Reader,
): { title: string; message: string; actionText: string | null; data: boolean } {
  if (!n.texts) return { title: n.title, message: n.message, actionText: n.actionText, data: true };
  // A value the event worded itself (a run's error) is taken in the reader's language where kept.
  const say = (text: NoticeText) => {
    const values = text.values && { ...text.values };
    if (values && text.words && locale !== 'en')
      for (const [key, words] of Object.entries(text.words)) {
        const said = words[locale];
        if (said !== undefined && key in values) values[key] = said;
      }
    return t(text.message, values);
  };
  return {
    title: say(n.texts.title),
    message: say(n.texts.message),
    actionText: n.texts.actionText ? say(n.texts.actionText) : n.actionText,
    data: false,
  };
}

export type NotificationCount = z.output<typeof NotificationCountAnswer>;

/** The count per category (a category with none is left out): what the page's tabs total. */
export type CategoryCounts = Partial<Record<NotificationCategory, NotificationCount>>;

/** The reader's count with its split by category, as kept per user. */
export interface KeptNotificationCount extends NotificationCount {
  byCategory: CategoryCounts;
}

/** The bell's and the page's tabs: each is a filter of the list. */
export const NOTIFICATION_TABS = [
  { key: 'all', label: msg('All') },
  { key: 'unread', label: msg('Unread') },
  { key: 'system', label: msg('System') },
  { key: 'financial', label: msg('Financial') },
  { key: 'security', label: msg('Security') },
] as const;
export type NotificationTab = (typeof NOTIFICATION_TABS)[number]['key'];

export interface NotificationFilter {
  isRead?: boolean;
  category?: NotificationCategory;
}

export function filterOfTab(tab: NotificationTab): NotificationFilter {
  if (tab === 'unread') return { isRead: false };
  if (tab === 'all') return {};
  return { category: tab };
}

/** An action link stays on this site: a path, never another origin or a script. */
export function isSafeActionUrl(url: string): boolean {
  return /^\/(?![/\\])[^\s]*$/.test(url) && url.length <= 500;
}
