// The /notifications route's server half: the bell's list as a full page, where the bell leads
// without JavaScript. Tabs and page live in the URL; mark read, dismiss and mark all read are forms.
// Every reader sees only the notifications that reach them; another user's id is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { NOTIFICATIONS_PAGE_SIZE, type NotificationsData } from './notifications-screen.tsx';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { intent } from '../../platform/screen/intent.ts';
import {
  clampedPage,
  formRowId,
  listUrl,
  loadScreen,
  screenAction,
  succeed,
  tabOf,
} from '../../platform/screen/screen.server.ts';
import { filterOfTab, NOTIFICATION_TABS } from './shared.ts';
import { lastPage } from '../../platform/lib/paging.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import {
  countNotifications,
  dismissNotification,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from './notifications.server.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { requestI18n } from '../shell/index.server.ts';

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const tab = tabOf(
      url,
      NOTIFICATION_TABS.map((t) => t.key),
    );
    const requested = positiveIdParam(url.searchParams.get('page')) ?? 1;
    const [{ page, result }, count] = await Promise.all([
      clampedPage(
        requested,
        (p) =>
          listNotifications(ctx, {
            ...filterOfTab(tab),
            limit: NOTIFICATIONS_PAGE_SIZE,
            offset: (p - 1) * NOTIFICATIONS_PAGE_SIZE,
          }),
        (r) => lastPage(r.total, NOTIFICATIONS_PAGE_SIZE),
      ),
      countNotifications(ctx),
    ]);
    const data: NotificationsData = {
      tab,
      page,
      pageCount: lastPage(result.total, NOTIFICATIONS_PAGE_SIZE),
      total: result.total,
      notifications: result.rows,
      count,
    };
    return json(data);
  });

const intents = {
  read: intent({
    allow: allow.signedIn,
    failed: msg('Failed to mark the notification as read'),
    run: async (_value, screen, form) => {
      await markNotificationRead(screen.ctx, formRowId(form));
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(screen, { type: 'success', title: t('Notification marked as read') }, { to: listUrl(screen.url) });
    },
  }),
  dismiss: intent({
    allow: allow.signedIn,
    failed: msg('Failed to dismiss the notification'),
    run: async (_value, screen, form) => {
      await dismissNotification(screen.ctx, formRowId(form));
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(screen, { type: 'success', title: t('Notification dismissed') }, { to: listUrl(screen.url) });
    },
  }),
  'mark-all-read': intent({
    allow: allow.signedIn,
    failed: msg('Failed to mark all notifications as read'),
    run: async (_value, screen) => {
      const { marked } = await markAllNotificationsRead(screen.ctx);
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(
        screen,
        {
          type: 'success',
          title: t('All notifications marked as read'),
          description: t('{count} marked as read.', { count: marked }),
        },
        { to: listUrl(screen.url) },
      );
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { i18n: requestI18n });
