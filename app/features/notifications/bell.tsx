// i18n-area: shell
// The bell of the top bar. Without JavaScript it is a link to /notifications with
// the unread badge the server rendered; with JavaScript it opens a panel that loads
// the list only while open (bell-panel.tsx, a chunk loaded the first time it opens), and the
// badge refreshes every 30 s while the tab is visible.
import { AppLink } from '../../ui/app-link.tsx';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { NotificationCount } from './shared.ts';
import { useHydrated } from '../../platform/lib/use-hydrated.ts';
import { BellIcon } from '../../ui/icons.tsx';
import { Popover } from '../../ui/popover.tsx';
import { useEveryWhileVisible } from '../../platform/screen/use-refresh.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import type { Translate } from '../../platform/i18n/messages.ts';

const NotificationPanel = lazy(() => import('./bell-panel.tsx'));

/** The notification count is polled every 30 s. */
export const COUNT_REFRESH_MS = 30_000;
const BELL_CLASS = 'relative rounded p-2 text-slate-600 hover:bg-slate-100';

/**
 * The badge caps at '99+'; nothing when there is nothing unread. Kept here, not in shared.ts: the
 * bell on every page then needs nothing at run time that its lazily loaded panel needs too, which
 * would put that module in a chunk of its own.
 */
export function badgeLabel(unread: number): string {
  return unread > 99 ? '99+' : unread > 0 ? String(unread) : '';
}

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
      {(close) => (
        <Suspense fallback={<PanelLoading />}>
          <NotificationPanel onCount={(next) => setUnread(next.unread)} onClose={close} />
        </Suspense>
      )}
    </Popover>
  );
}

function PanelLoading() {
  const t = useT();
  return <p className="px-4 py-6 text-center text-slate-500">{t('Loading notifications...')}</p>;
}
