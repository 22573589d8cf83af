// i18n-area: shell
// The bell's panel: the reader's latest notifications with the tabs and the actions, loaded
// while it is open. A chunk of its own, fetched the first time the bell opens (bell.tsx), so
// every page's JavaScript stays small.
import { Link } from '@remix-run/react';
import { useCallback, useEffect, useState } from 'react';
import {
  filterOfTab,
  NOTIFICATION_TABS,
  type NotificationCount,
  type NotificationTab,
  type NotificationView,
} from './shared.ts';
import { NotificationList } from './notification-item.tsx';
import { useReader } from '../../platform/i18n/i18n-context.tsx';
import { callApi, refusalWords } from '../../platform/i18n/api-refusal.ts';
import { msg } from '../../platform/i18n/messages.ts';

const PANEL_LIMIT = 20;

/** The panel's filters, as the bell names them (NOTIFICATION_TABS). */
const TAB_LABELS: Record<NotificationTab, string> = {
  all: msg('All'),
  unread: msg('Unread'),
  system: msg('System'),
  financial: msg('Financial'),
  security: msg('Security'),
};

export default function NotificationPanel({
  onCount,
  onClose,
}: {
  onCount: (count: NotificationCount) => void;
  onClose: () => void;
}) {
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
