// The /notifications page: the figures with Mark all as read, the tabs, the list with its
// read and dismiss forms, paging, and the way to the notification settings.
import { Form, Link, useLocation } from '@remix-run/react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { NotificationList } from './notification-item.tsx';
import { formErrorOf, TabNav, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { Pagination } from '../../ui/table/pagination.tsx';
import { Alert } from '../../ui/form.tsx';
import { NOTIFICATION_TABS, type NotificationCount, type NotificationTab, type NotificationView } from './shared.ts';
import { screenTitle } from '../../platform/screen/navigation.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';

export const NOTIFICATIONS_PAGE_SIZE = 20;
/** Where a sentence's link goes, in its translated text. */
const LINK = '\u0000';

export interface NotificationsData {
  tab: NotificationTab;
  page: number;
  pageCount: number;
  total: number;
  notifications: NotificationView[];
  count: NotificationCount;
}

export function NotificationsScreen({ data, answer }: { data: NotificationsData; answer: ActionAnswer | null }) {
  const { tab, page, pageCount, total, notifications, count } = data;
  const t = useT();
  const failure = formErrorOf(answer);
  const { search } = useLocation();
  const here = `/notifications${search}`;
  // The link sits where the language puts it in the sentence.
  const [before = '', after = ''] = t(
    'Choose which kinds of notification you receive, and turn on push notifications for this browser, in {settings}.',
    { settings: LINK },
  ).split(LINK);
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeading title={t(screenTitle('/notifications'))}>
        <div className="flex items-center gap-3">
          <p className="text-sm text-slate-600" data-testid="notification-figures">
            {t('{unread} unread of {total}', { unread: count.unread, total: count.total })}
          </p>
          {count.unread > 0 ? (
            <Form method="post" action={here}>
              <input type="hidden" name="intent" value="mark-all-read" />
              <button
                type="submit"
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
              >
                {t('Mark all as read')}
              </button>
            </Form>
          ) : null}
        </div>
      </PageHeading>
      <TabNav
        label={t('Notification filters')}
        current={tab}
        tabs={NOTIFICATION_TABS.map((item) => ({
          ...item,
          label: t(item.label),
          to: `/notifications?tab=${item.key}`,
        }))}
      />
      {failure ? (
        <div className="mb-4">
          <Alert title={t('Error')}>{t(failure)}</Alert>
        </div>
      ) : null}
      <section className="rounded-lg border border-slate-200 bg-white" aria-label={t('Notification list')}>
        <NotificationList items={notifications} actions={{ kind: 'form', action: here }} emptyClassName="py-10" />
        <Pagination page={page} pageCount={pageCount} total={total} pageSize={NOTIFICATIONS_PAGE_SIZE} />
      </section>
      <p className="mt-4 text-sm text-slate-600">
        {before}
        <Link to="/settings?tab=notifications" className="text-blue-700 underline hover:text-blue-900">
          {t('Settings')}
        </Link>
        {after}
      </p>
    </div>
  );
}
