// i18n-area: shell
// One notification as the bell's panel and the /notifications page show it: type
// icon, priority, title, message, time, the action link; unread ones emphasised. The controls
// (buttons in the panel, forms on the page) come from the caller.
import { Form, Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import {
  noticeWords,
  type NotificationCategory,
  type NotificationPriority,
  type NotificationType,
  type NotificationView,
} from './shared.ts';
import { CheckCircleIcon, InfoIcon, WarningIcon, XCircleIcon } from '../../ui/icons.tsx';
import { useFormats, useReader, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { relativeTime } from '../../platform/i18n/relative-time.ts';

const TYPE_ICON: Record<NotificationType, { Icon: typeof InfoIcon; className: string; label: string }> = {
  info: { Icon: InfoIcon, className: 'text-blue-700', label: msg('Information') },
  warning: { Icon: WarningIcon, className: 'text-amber-700', label: msg('Warning') },
  error: { Icon: XCircleIcon, className: 'text-red-700', label: msg('Error') },
  success: { Icon: CheckCircleIcon, className: 'text-green-700', label: msg('Success') },
};

const PRIORITY_LABELS: Record<NotificationPriority, string> = {
  low: msg('Low'),
  medium: msg('Medium'),
  high: msg('High'),
  critical: msg('Critical'),
};

const CATEGORY_LABELS: Record<NotificationCategory, string> = {
  system: msg('System'),
  financial: msg('Financial'),
  security: msg('Security'),
  api: msg('API'),
  user: msg('User'),
};

const PRIORITY_CLASS: Record<NotificationView['priority'], string> = {
  low: 'border-slate-300 text-slate-600',
  medium: 'border-blue-200 text-blue-800',
  high: 'border-amber-300 text-amber-900',
  critical: 'border-red-300 text-red-700',
};

function NotificationItem({
  notification: n,
  controls,
  onFollow,
}: {
  notification: NotificationView;
  controls: ReactNode;
  onFollow?: () => void;
}) {
  const reader = useReader();
  const { t } = reader;
  const formats = useFormats();
  const { Icon, className, label } = TYPE_ICON[n.type] ?? TYPE_ICON.info;
  const words = noticeWords(n, reader);
  // An administrator's notice is shown as typed (data); the product's are the reader's language.
  const data = words.data ? 'no' : undefined;
  return (
    <li
      className={`flex gap-3 px-4 py-3 ${n.isRead ? '' : 'bg-blue-50'}`}
      data-testid="notification"
      data-notification-id={n.id}
      data-read={n.isRead ? 'true' : 'false'}
    >
      <Icon className={`mt-0.5 h-5 w-5 shrink-0 ${className}`} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="sr-only">
            {n.isRead ? t('{label}:', { label: t(label) }) : t('{label}, unread:', { label: t(label) })}
          </span>
          <p className={`text-sm text-slate-900 ${n.isRead ? 'font-medium' : 'font-semibold'}`} translate={data}>
            {words.title}
          </p>
          <span className={`rounded border px-1.5 text-xs ${PRIORITY_CLASS[n.priority]}`}>
            {t(PRIORITY_LABELS[n.priority])}
          </span>
          <span className="text-xs text-slate-600">{t(CATEGORY_LABELS[n.category])}</span>
          {n.repeatCount > 1 ? (
            <span className="rounded bg-slate-100 px-1.5 text-xs text-slate-700" data-testid="notification-repeats">
              {t('{count, plural, one {# time} other {# times}}', { count: n.repeatCount })}
            </span>
          ) : null}
        </div>
        <p className="mt-0.5 break-words text-sm text-slate-700" translate={data}>
          {words.message}
        </p>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
          {/* The time is relative to now: the client may render a minute later than the server. */}
          <time
            dateTime={Number.isFinite(Date.parse(n.createdAt)) ? n.createdAt : undefined}
            className="text-slate-600"
            suppressHydrationWarning
          >
            {relativeTime(t, formats, n.createdAt)}
          </time>
          {n.actionUrl ? (
            <Link
              to={n.actionUrl}
              onClick={onFollow}
              className="font-medium text-blue-700 underline hover:text-blue-900"
              translate={words.actionText ? data : undefined}
            >
              {words.actionText || t('Open')}
            </Link>
          ) : null}
        </div>
        <div className="mt-2 flex flex-wrap gap-2">{controls}</div>
      </div>
    </li>
  );
}

const ITEM_BUTTON = 'rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50';

type ItemAction = 'read' | 'dismiss';
/** How an item's Mark as read and Dismiss act: forms posted to a page, or calls (the bell's panel). */
export type ItemActions =
  { kind: 'form'; action: string } | { kind: 'call'; run: (notification: NotificationView, what: ItemAction) => void };

const ACTION_TEXT: Record<ItemAction, string> = { read: msg('Mark as read'), dismiss: msg('Dismiss') };

function ItemControl({
  notification: n,
  what,
  actions,
}: {
  notification: NotificationView;
  what: ItemAction;
  actions: ItemActions;
}) {
  const reader = useReader();
  const { t } = reader;
  // The accessible name begins with the visible text and says which notification it acts on.
  const text = t(ACTION_TEXT[what]);
  const label = t('{action}: {title}', { action: text, title: noticeWords(n, reader).title });
  if (actions.kind === 'call') {
    return (
      <button type="button" className={ITEM_BUTTON} onClick={() => actions.run(n, what)} aria-label={label}>
        {text}
      </button>
    );
  }
  return (
    <Form method="post" action={actions.action}>
      <input type="hidden" name="intent" value={what} />
      <input type="hidden" name="id" value={n.id} />
      <button type="submit" className={ITEM_BUTTON} aria-label={label}>
        {text}
      </button>
    </Form>
  );
}

/** The list of the panel and the page, newest first, or 'No notifications found'. */
export function NotificationList({
  items,
  actions,
  onFollow,
  emptyClassName = 'py-6',
}: {
  items: NotificationView[];
  actions: ItemActions;
  onFollow?: () => void;
  emptyClassName?: string;
}) {
  const t = useT();
  if (items.length === 0)
    return <p className={`px-4 text-center text-slate-500 ${emptyClassName}`}>{t('No notifications found')}</p>;
  return (
    <ul className="divide-y divide-slate-200">
      {items.map((n) => (
        <NotificationItem
          key={n.id}
          notification={n}
          onFollow={onFollow}
          controls={
            <>
              {!n.isRead ? <ItemControl notification={n} what="read" actions={actions} /> : null}
              <ItemControl notification={n} what="dismiss" actions={actions} />
            </>
          }
        />
      ))}
    </ul>
  );
}
