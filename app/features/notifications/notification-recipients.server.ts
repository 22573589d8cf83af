// Who a notification reaches: the role ladder, the notification-type switches, and
// the recipients of one notification for push delivery. Shared by the bell (notifications) and
// push delivery, which notifications.server.ts starts.
import type { Role } from '../../../db/types.ts';
import { noticeTextsOf, type NotificationCategory, type NotificationView } from './shared.ts';
import {
  DEFAULT_SETTINGS,
  NOTIFICATION_TYPES as SWITCHES,
  type NotificationTypeFlags,
} from '../../platform/session/user-settings-row.ts';
import type { Db } from '../../platform/context.ts';

/** A role and every role above it: a notification for admins reaches owners too. */
export const ROLE_RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };
export const rolesAtOrBelow = (role: Role): Role[] =>
  (Object.keys(ROLE_RANK) as Role[]).filter((r) => ROLE_RANK[r] <= ROLE_RANK[role]);

/** The categories a user's notification-type switches let through (all of them by default). */
export function enabledCategories(flags: NotificationTypeFlags | null | undefined): NotificationCategory[] {
  const merged = { ...DEFAULT_SETTINGS.notificationTypes, ...(flags ?? {}) };
  return SWITCHES.filter((key) => merged[key] !== false) as NotificationCategory[];
}

/**
 * The users a notification reaches now, for push delivery: active users matching its targeting
 * whose switches let its category through. Null when the notification is gone or no longer live.
 */
export async function recipientsOf(
  db: Db,
  notificationId: number,
  now = new Date().toISOString(),
): Promise<{ notification: NotificationView; userIds: number[] } | null> {
  const notification = await db
    .selectFrom('notifications')
    .select([
      'id',
      'type',
      'priority',
      'title',
      'message',
      'createdAt',
      'actionUrl',
      'actionText',
      'category',
      'repeatCount',
      'texts',
      'isActive',
      'expiresAt',
      'targetUserId',
      'targetUserRole',
      'targetCompanyId',
      'targetGroupWide',
    ])
    .where('id', '=', notificationId)
    .executeTakeFirst();
  if (!notification || !notification.isActive || (notification.expiresAt && notification.expiresAt <= now)) return null;
  let users = db
    .selectFrom('users')
    .leftJoin('userSettings', 'userSettings.userId', 'users.id')
    .select(['users.id', 'userSettings.notificationTypes'])
    .where('users.isActive', '=', true);
  if (notification.targetUserId !== null) users = users.where('users.id', '=', notification.targetUserId);
  if (notification.targetUserRole !== null)
    users = users.where(
      'users.role',
      'in',
      (Object.keys(ROLE_RANK) as Role[]).filter((r) => ROLE_RANK[r] >= ROLE_RANK[notification.targetUserRole!]),
    );
  if (notification.targetGroupWide) users = users.where('users.companyId', 'is', null);
  if (notification.targetCompanyId !== null)
    users = users.where((eb) =>
      eb.or([eb('users.companyId', 'is', null), eb('users.companyId', '=', notification.targetCompanyId)]),
    );
  const rows = await users.execute();
  const userIds = rows
    .filter((row) => enabledCategories(parseFlags(row.notificationTypes)).includes(notification.category))
    .map((row) => row.id);
  const {
    isActive: _a,
    expiresAt: _e,
    targetUserId: _u,
    targetUserRole: _r,
    targetCompanyId: _c,
    targetGroupWide: _g,
    ...view
  } = notification;
  return { notification: { ...view, isRead: false, texts: noticeTextsOf(view.texts) }, userIds };
}

function parseFlags(value: unknown): NotificationTypeFlags | null {
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as NotificationTypeFlags;
    } catch {
      return null;
    }
  }
  return value && typeof value === 'object' ? (value as NotificationTypeFlags) : null;
}
