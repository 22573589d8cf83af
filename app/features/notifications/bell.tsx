// i18n-area: shell
// The bell of the top bar. Without JavaScript it is a link to /notifications with
// the unread badge the server rendered; with JavaScript it opens a panel that loads
// the list only while open, and the badge refreshes every 30 s while the tab is visible.
import { Link } from '@remix-run/react';
import { AppLink } from '../../ui/app-link.tsx';
import { useCallback, useEffect, useState } from 'react';
import {
  badgeLabel,
  filterOfTab,
  NOTIFICATION_TABS,
  type NotificationCount,
  type NotificationTab,
  type NotificationView,
} from './shared.ts';
import { useHydrated } from '../../platform/lib/use-hydrated.ts';
import { BellIcon } from '../../ui/icons.tsx';
import { Popover } from '../../ui/popover.tsx';
import { NotificationList } from './notification-item.tsx';
import { useEveryWhileVisible } from '../../platform/screen/use-refresh.ts';
import { useReader, useT } from '../../platform/i18n/i18n-context.tsx';
import { callApi, refusalWords } from '../../platform/i18n/api-refusal.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';

/** The notification count is polled every 30 s. */
export const COUNT_REFRESH_MS = 30_000;
const PANEL_LIMIT = 20;
const BELL_CLASS = 'relative rounded p-2 text-slate-600 hover:bg-slate-100';

/** The panel's filters, as the bell names them (NOTIFICATION_TABS). */
const TAB_LABELS: Record<NotificationTab, string> = {
  all: msg('All'),
  unread: msg('Unread'),
  system: msg('System'),
  financial: msg('Financial'),
  security: msg('Security'),
};

function bellLabel(unread: number, t: Translate): string {
  return unread > 0 ? t('Notifications, {count} unread', { count: badgeLabel(unread) }) : t('Notifications');
}

function Badge({ unread }: { unread: number }) {
  if (unread <= 0) return null;
  return (
    <span data-testid="notification-badge" aria-hidden="true" className="count-badge">
      {badgeLabel(unread)}
    </span>
  );
}

export function NotificationBell({ count }: { count: NotificationCount }) {
  const hydrated = useHydrated();
  const t = useT();
  const [unread, setUnread] = useState(count.unread);
  // A navigation brings a fresh count from the server.
  useEffect(() => setUnread(count.unread), [count.unread]);

  const refreshCount = useCallback(async () => {
    const response = await fetch('/api/notifications/count', { credentials: 'same-origin' }).catch(() => null);
    if (!response?.ok) return;
    const body = (await response.json().catch(() => null)) as NotificationCount | null;
    if (body && typeof body.unread === 'number') setUnread(body.unread);
  }, []);

  useEveryWhileVisible(() => void refreshCount(), COUNT_REFRESH_MS, hydrated);

  if (!hydrated) {
    return (
      <AppLink
        to="/notifications"
        className={BELL_CLASS}
        title={t('Notifications')}
        aria-label={bellLabel(unread, t)}
        data-testid="notification-bell"
      >
        <BellIcon />
        <Badge unread={unread} />
      </AppLink>
    );
  }
  return (
    <Popover
      button={{
        className: BELL_CLASS,
        title: t('Notifications'),
        label: bellLabel(unread, t),
        testId: 'notification-bell',
        content: (
          <>
            <BellIcon />
            <Badge unread={unread} />
          </>
        ),
      }}
      panel={{
        className:
          'absolute right-0 top-full z-50 mt-1 w-96 max-w-[calc(100vw-1rem)] rounded-lg border border-slate-200 bg-white text-sm shadow-lg',
        label: t('Notifications'),
        testId: 'notification-panel',
      }}
    >
      {(close) => <NotificationPanel onCount={(next) => setUnread(next.unread)} onClose={close} />}
    </Popover>
  );
}

function NotificationPanel({ onCount, onClose }: { onCount: (count: NotificationCount) => void; onClose: () => void }) {
  const reader = useReader();
  const { t } = reader;
  const [tab, setTab] = useState<NotificationTab>('all');
  const [items, setItems] = useState<NotificationView[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (which: NotificationTab) => {
      const params = new URLSearchParams({ limit: String(PANEL_LIMIT) });
      const filter = filterOfTab(which);
      if (filter.isRead === false) params.set('isRead', 'false');
      if (filter.category) params.set('category', filter.category);
      try {
        setItems(await callApi<NotificationView[]>(`/api/notifications?${params}`));
        setError(null);
      } catch (failure) {
        setError(refusalWords(reader, failure));
        setItems([]);
      }
    },
    [reader],
  );

  useEffect(() => {
    setItems(null);
    void load(tab);
  }, [tab, load]);

  // Each action refreshes the list and the count.
  const act = async (path: string) => {
    try {
      onCount(await callApi<NotificationCount>(path, {}));
      setError(null);
    } catch (failure) {
      setError(refusalWords(reader, failure));
    }
    await load(tab);
  };

  return (
    <div>
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <h2 className="font-semibold text-slate-900">{t('Notifications')}</h2>
        <button
          type="button"
          onClick={() => void act('/api/notifications/mark-all-read')}
          className="text-xs font-medium text-blue-700 hover:text-blue-900"
        >
          {t('Mark all as read')}
        </button>
      </div>
      <div
        role="group"
        aria-label={t('Notification filters')}
        className="flex flex-wrap gap-1 border-b border-slate-200 px-2"
      >
        {NOTIFICATION_TABS.map((item) => (
          <button
            key={item.key}
            type="button"
            aria-pressed={tab === item.key}
            onClick={() => setTab(item.key)}
            className={`-mb-px border-b-2 px-2 py-1.5 text-xs font-medium ${tab === item.key ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {t(TAB_LABELS[item.key])}
          </button>
        ))}
      </div>
      <div className="max-h-[60vh] overflow-y-auto" data-testid="notification-list" aria-busy={items === null}>
        {error ? (
          <p role="alert" className="px-4 py-2 text-xs text-red-700">
            {error}
          </p>
        ) : null}
        {items === null ? (
          <p className="px-4 py-6 text-center text-slate-500">{t('Loading notifications...')}</p>
        ) : (
          <NotificationList
            items={items}
            onFollow={onClose}
            actions={{ kind: 'call', run: (n, what) => void act(`/api/notifications/${n.id}/${what}`) }}
          />
        )}
      </div>
      <div className="border-t border-slate-200 px-4 py-2 text-center">
        <Link to="/notifications" onClick={onClose} className="text-xs font-medium text-blue-700 hover:text-blue-900">
          {t('View all notifications')}
        </Link>
      </div>
    </div>
  );
}
