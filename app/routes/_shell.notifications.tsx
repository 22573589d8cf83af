// /notifications: the bell's list as a full page, where the bell leads without
// JavaScript. Tabs and page live in the URL; mark read, dismiss and mark all read are forms.
// Every reader sees only the notifications that reach them; another user's id is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { PageHeading } from '../ui/page-heading.tsx';
import { NotificationList } from '../features/notifications/notification-item.tsx';
import { formErrorOf, TabNav, type ActionAnswer } from '../platform/screen/action-result.tsx';
import { Pagination } from '../ui/table/pagination.tsx';
import { Alert } from '../ui/form.tsx';
import { allow, screenAccess } from '../platform/screen/route-access.ts';
import { intent } from '../platform/screen/intent.ts';
import {
  clampedPage,
  formRowId,
  listUrl,
  loadScreen,
  screenAction,
  succeed,
  tabOf,
} from '../platform/screen/screen.server.ts';
import { filterOfTab, NOTIFICATION_TABS } from '../features/notifications/shared.ts';
import { lastPage } from '../platform/lib/paging.ts';
import { positiveIdParam } from '../platform/lib/query.ts';
import {
  countNotifications,
  dismissNotification,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from '../features/notifications/notifications.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';

export const meta: MetaFunction = () => [{ title: `${screenTitle('/notifications')} · Group Finance Hub` }];

const NOTIFICATIONS_PAGE_SIZE = 20;

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
    return json({
      tab,
      page,
      pageCount: lastPage(result.total, NOTIFICATIONS_PAGE_SIZE),
      total: result.total,
      notifications: result.rows,
      count,
    });
  });

const intents = {
  read: intent({
    allow: allow.signedIn,
    failed: 'Failed to mark the notification as read',
    run: async (_value, screen, form) => {
      await markNotificationRead(screen.ctx, formRowId(form));
      return succeed(screen, { type: 'success', title: 'Notification marked as read' }, { to: listUrl(screen.url) });
    },
  }),
  dismiss: intent({
    allow: allow.signedIn,
    failed: 'Failed to dismiss the notification',
    run: async (_value, screen, form) => {
      await dismissNotification(screen.ctx, formRowId(form));
      return succeed(screen, { type: 'success', title: 'Notification dismissed' }, { to: listUrl(screen.url) });
    },
  }),
  'mark-all-read': intent({
    allow: allow.signedIn,
    failed: 'Failed to mark all notifications as read',
    run: async (_value, screen) => {
      const { marked } = await markAllNotificationsRead(screen.ctx);
      return succeed(
        screen,
        { type: 'success', title: 'All notifications marked as read', description: `${marked} marked as read.` },
        { to: listUrl(screen.url) },
      );
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) => screenAction(args, intents);

export default function NotificationsPage() {
  const { tab, page, pageCount, total, notifications, count } = useLoaderData<typeof loader>();
  const failure = formErrorOf(useActionData<ActionAnswer>());
  const { search } = useLocation();
  const here = `/notifications${search}`;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeading title={screenTitle('/notifications')}>
        <div className="flex items-center gap-3">
          <p className="text-sm text-slate-600" data-testid="notification-figures">
            {count.unread} unread of {count.total}
          </p>
          {count.unread > 0 ? (
            <Form method="post" action={here}>
              <input type="hidden" name="intent" value="mark-all-read" />
              <button
                type="submit"
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
              >
                Mark all as read
              </button>
            </Form>
          ) : null}
        </div>
      </PageHeading>
      <TabNav
        label="Notification filters"
        current={tab}
        tabs={NOTIFICATION_TABS.map((t) => ({ ...t, to: `/notifications?tab=${t.key}` }))}
      />
      {failure ? (
        <div className="mb-4">
          <Alert title="Error">{failure}</Alert>
        </div>
      ) : null}
      <section className="rounded-lg border border-slate-200 bg-white" aria-label="Notification list">
        <NotificationList items={notifications} actions={{ kind: 'form', action: here }} emptyClassName="py-10" />
        <Pagination page={page} pageCount={pageCount} total={total} pageSize={NOTIFICATIONS_PAGE_SIZE} />
      </section>
      <p className="mt-4 text-sm text-slate-600">
        Choose which kinds of notification you receive, and turn on push notifications for this browser, in{' '}
        <Link to="/settings?tab=notifications" className="text-blue-700 underline hover:text-blue-900">
          Settings
        </Link>
        .
      </p>
    </div>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
