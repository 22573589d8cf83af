// The Backups tab: the history newest first in a 600px scroll area (focusable,
// so keyboard users can scroll it), each backup with its status, type, size, records and tables,
// and its actions: Verify, Select for restore (completed ones) and Delete (confirm() with
// JavaScript, the server's confirmation step without).
import { Form, Link } from '@remix-run/react';
import { BACKUP_MESSAGES, BACKUP_TYPE_LABELS } from './texts.ts';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { sizeText } from '../../platform/i18n/units.ts';
import { useHydrated } from '../../platform/lib/use-hydrated.ts';
import { DeleteButton } from '../../platform/resources/delete-button.tsx';
import { CheckCircleIcon, ClockIcon, TrashIcon, XCircleIcon } from '../../ui/icons.tsx';
import { EmptyState } from '../company-metrics/index.ts';
import type { BackupView } from './types.ts';

const STATUS = {
  completed: { label: msg('Completed'), Icon: CheckCircleIcon, className: 'text-green-700' },
  failed: { label: msg('Failed'), Icon: XCircleIcon, className: 'text-red-700' },
  in_progress: { label: msg('In progress'), Icon: ClockIcon, className: 'text-amber-700' },
} as const;

const TYPE_BADGE: Record<string, string> = {
  manual: 'bg-blue-100 text-blue-800',
  scheduled: 'bg-purple-100 text-purple-800',
  automated: 'bg-slate-100 text-slate-700',
};

const actionClass =
  'inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50';

function StatusIcon({ status }: { status: BackupView['status'] }) {
  const t = useT();
  const { Icon, className } = STATUS[status];
  const label = t(STATUS[status].label);
  return (
    <span className={`mt-0.5 shrink-0 ${className}`} title={label} data-testid="backup-status">
      <Icon className="h-5 w-5" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

function Actions({ backup }: { backup: BackupView }) {
  const t = useT();
  if (backup.status === 'in_progress') return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="verify" />
        <input type="hidden" name="id" value={backup.id} />
        <button type="submit" className={actionClass} aria-label={t('Verify {name}', { name: backup.name })}>
          {t('Verify')}
        </button>
      </Form>
      {backup.canRestore && backup.status === 'completed' ? (
        <Link to={`?tab=restore&backup=${backup.id}`} className={actionClass}>
          {t('Select for restore')}
          <span className="sr-only" translate="no">
            : {backup.name}
          </span>
        </Link>
      ) : null}
      {backup.canDelete ? (
        <DeleteButton id={backup.id} label={backup.name} message={t(BACKUP_MESSAGES.confirmDelete)}>
          <span className="inline-flex items-center gap-1 text-xs font-medium">
            <TrashIcon className="h-4 w-4" />
            {t('Delete')}
          </span>
        </DeleteButton>
      ) : null}
    </div>
  );
}

function Entry({ backup, hydrated }: { backup: BackupView; hydrated: boolean }) {
  const t = useT();
  const f = useFormats();
  const type = BACKUP_TYPE_LABELS[backup.type];
  return (
    <li className="flex flex-wrap items-start gap-3 px-4 py-3" data-testid="backup" data-status={backup.status}>
      <StatusIcon status={backup.status} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="break-words font-medium text-slate-900" data-testid="backup-name" translate="no">
            {backup.name}
          </span>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${TYPE_BADGE[backup.type] ?? TYPE_BADGE.automated}`}
          >
            {type ? t(type) : backup.type}
          </span>
        </div>
        {backup.description ? (
          <p className="mt-1 break-words text-sm text-slate-700" translate="no">
            {backup.description}
          </p>
        ) : null}
        <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
          <span>
            {t('Created')} <DateTime value={backup.createdAt} kind="instant" />
          </span>
          <span>{t('Size: {size}', { size: sizeText(t, f, backup.size) })}</span>
          <span>{t('Records: {count}', { count: f.number(backup.recordCount) })}</span>
          <span>{t('Tables: {count}', { count: backup.tables.length })}</span>
        </p>
        {backup.status === 'failed' ? (
          <p className="mt-1 break-words text-sm text-red-700">
            {backup.error ? t('Failed: {reason}', { reason: backup.error }) : t('Failed: no reason was recorded')}
          </p>
        ) : null}
        {backup.status === 'in_progress' ? (
          <p className="mt-1 text-sm text-amber-700" data-testid="backup-in-progress">
            {hydrated
              ? t('In progress — the status updates by itself')
              : t('In progress — reload the page to see the result')}
          </p>
        ) : null}
      </div>
      <Actions backup={backup} />
    </li>
  );
}

export function BackupList({ backups }: { backups: BackupView[] }) {
  const t = useT();
  const hydrated = useHydrated();
  if (backups.length === 0) return <EmptyState>{t('No backups found')}</EmptyState>;
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="max-h-[600px] overflow-y-auto" tabIndex={0} role="region" aria-label={t('Backup history')}>
        <ul className="divide-y divide-slate-100">
          {backups.map((backup) => (
            <Entry key={backup.id} backup={backup} hydrated={hydrated} />
          ))}
        </ul>
      </div>
    </section>
  );
}
