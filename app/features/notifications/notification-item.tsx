// One notification as the bell's panel and the /notifications page show it: type
// icon, priority, title, message, time, the action link; unread ones emphasised. The controls
// (buttons in the panel, forms on the page) come from the caller.
import { Form, Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { formatRelativeTime } from '../../platform/lib/format.ts';
import {
  CATEGORY_LABELS,
  EMPTY_NOTIFICATIONS,
  PRIORITY_LABELS,
  type NotificationType,
  type NotificationView,
} from './shared.ts';
import { CheckCircleIcon, InfoIcon, WarningIcon, XCircleIcon } from '../../ui/icons.tsx';

const TYPE_ICON: Record<NotificationType, { Icon: typeof InfoIcon; className: string; label: string }> = {
  info: { Icon: InfoIcon, className: 'text-blue-700', label: 'Information' },
  warning: { Icon: WarningIcon, className: 'text-amber-700', label: 'Warning' },
  error: { Icon: XCircleIcon, className: 'text-red-700', label: 'Error' },
  success: { Icon: CheckCircleIcon, className: 'text-green-700', label: 'Success' },
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
  const { Icon, className, label } = TYPE_ICON[n.type] ?? TYPE_ICON.info;
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
            {label}
            {n.isRead ? '' : ', unread'}:
          </span>
          <p className={`text-sm text-slate-900 ${n.isRead ? 'font-medium' : 'font-semibold'}`}>{n.title}</p>
          <span className={`rounded border px-1.5 text-xs ${PRIORITY_CLASS[n.priority]}`}>
            {PRIORITY_LABELS[n.priority]}
          </span>
          <span className="text-xs text-slate-600">{CATEGORY_LABELS[n.category]}</span>
          {n.repeatCount > 1 ? (
            <span
              className="rounded bg-slate-100 px-1.5 text-xs text-slate-700"
              data-testid="notification-repeats"
            >{`${n.repeatCount} times`}</span>
          ) : null}
        </div>
        <p className="mt-0.5 break-words text-sm text-slate-700">{n.message}</p>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
          {/* The time is relative to now: the client may render a minute later than the server. */}
          <time
            dateTime={Number.isFinite(Date.parse(n.createdAt)) ? n.createdAt : undefined}
            className="text-slate-600"
            suppressHydrationWarning
          >
            {formatRelativeTime(n.createdAt)}
          </time>
          {n.actionUrl ? (
            <Link
              to={n.actionUrl}
              onClick={onFollow}
              className="font-medium text-blue-700 underline hover:text-blue-900"
            >
              {n.actionText || 'Open'}
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

const ACTION_TEXT: Record<ItemAction, string> = { read: 'Mark as read', dismiss: 'Dismiss' };

function ItemControl({
  notification: n,
  what,
  actions,
}: {
  notification: NotificationView;
  what: ItemAction;
  actions: ItemActions;
}) {
  // The accessible name begins with the visible text and says which notification it acts on.
  const label = `${ACTION_TEXT[what]}: ${n.title}`;
  if (actions.kind === 'call') {
    return (
      <button type="button" className={ITEM_BUTTON} onClick={() => actions.run(n, what)} aria-label={label}>
        {ACTION_TEXT[what]}
      </button>
    );
  }
  return (
    <Form method="post" action={actions.action}>
      <input type="hidden" name="intent" value={what} />
      <input type="hidden" name="id" value={n.id} />
      <button type="submit" className={ITEM_BUTTON} aria-label={label}>
        {ACTION_TEXT[what]}
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
  if (items.length === 0)
    return <p className={`px-4 text-center text-slate-500 ${emptyClassName}`}>{EMPTY_NOTIFICATIONS}</p>;
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
