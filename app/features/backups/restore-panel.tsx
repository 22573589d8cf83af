// The Restore tab: the backup chosen on the Backups tab (?backup=ID) with the
// overwrite and skip-audit-logs options, both off. Overwrite shows the warning that existing
// data will be permanently deleted and replaced (as the box is ticked with JavaScript, always
// without). Restoring asks first: confirm() with JavaScript, the server's step without.
import { Link } from '@remix-run/react';
import { useState } from 'react';
import { BACKUP_MESSAGES, BACKUP_TYPE_LABELS, confirmRestoreMessage } from './texts.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { sizeText } from '../../platform/i18n/units.ts';
import { useHydrated } from '../../platform/lib/use-hydrated.ts';
import { ConfirmingForm, ConfirmStep } from '../../platform/screen/confirm.tsx';
import { Alert, Button, Card } from '../../ui/form.tsx';
import { EmptyState } from '../company-metrics/index.ts';
import type { BackupView, TableChoice } from './types.ts';

const RIGHTS_RESTORE_NOTE = msg(
  'It holds user accounts or their settings, which give people rights: restoring them needs an owner.',
);

const checkboxClass = 'mt-0.5 h-4 w-4 rounded border-slate-300 text-blue-700';

function Summary({ backup, labels }: { backup: BackupView; labels: Map<string, string> }) {
  const t = useT();
  const f = useFormats();
  const typeLabel = BACKUP_TYPE_LABELS[backup.type];
  const type = typeLabel ? t(typeLabel) : backup.type;
  /** [term, value, whether the value is data (the backup's name)] */
  const rows: [string, string, boolean][] = [
    [t('Name'), backup.name, true],
    [t('Type'), type.charAt(0).toUpperCase() + type.slice(1), false],
    [t('Created'), f.instant(backup.createdAt), false],
    [t('Size'), sizeText(t, f, backup.size), false],
    [t('Records'), f.number(backup.recordCount), false],
    [t('Tables'), backup.tables.map((name) => t(labels.get(name) ?? name)).join(', '), false],
  ];
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]" data-testid="selected-backup">
      {rows.map(([term, value, data]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-600">{term}</dt>
          <dd className="break-words text-slate-900" translate={data ? 'no' : undefined}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function RestoreForm({ backup }: { backup: BackupView }) {
  const t = useT();
  const hydrated = useHydrated();
  const [overwrite, setOverwrite] = useState(false);
  return (
    <ConfirmingForm
      message={confirmRestoreMessage(t, backup.name, overwrite)}
      fields={{ intent: 'restore', id: backup.id }}
    >
      <fieldset className="mt-5 space-y-3">
        <legend className="text-sm font-medium text-slate-700">{t('Options')}</legend>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            name="overwrite"
            defaultChecked={false}
            onChange={(e) => setOverwrite(e.target.checked)}
            className={checkboxClass}
            aria-describedby="overwrite-warning"
          />
          {t('Overwrite existing data')}
        </label>
        <div id="overwrite-warning" aria-live="polite">
          {!hydrated || overwrite ? (
            <Alert tone="warning" title={hydrated ? t('Warning') : t('Warning when overwriting')}>
              {t(BACKUP_MESSAGES.overwriteWarning)}
            </Alert>
          ) : null}
        </div>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input type="checkbox" name="skipAuditLogs" defaultChecked={false} className={checkboxClass} />
          <span>
            {t('Skip audit logs')}{' '}
            <span className="block text-xs text-slate-500">
              {t(
                'The backup’s audit entries and versions are not brought back. The audit trail is never deleted from, and the restore itself is always recorded.',
              )}
            </span>
          </span>
        </label>
      </fieldset>
      <div className="mt-5">
        <Button type="submit" variant={overwrite ? 'danger' : 'primary'}>
          {t('Restore Backup')}
        </Button>
      </div>
    </ConfirmingForm>
  );
}

export function RestorePanel({
  backup,
  missing,
  tables,
}: {
  backup: BackupView | null;
  missing: boolean;
  tables: TableChoice[];
}) {
  const t = useT();
  if (!backup) {
    return (
      <EmptyState>
        {missing ? t('The selected backup no longer exists.') : t('No backup selected.')} {t('Choose')}{' '}
        <span className="font-medium">{t('Select for restore')}</span> {t('on a completed backup in the')}{' '}
        <Link to="?tab=backups" className="text-blue-700 underline">
          {t('Backups')}
        </Link>
        {t(' tab.')}
      </EmptyState>
    );
  }
  const labels = new Map(tables.map((t) => [t.name, t.label]));
  return (
    <Card title={t('Restore Backup')}>
      <Summary backup={backup} labels={labels} />
      {backup.status === 'completed' && !backup.canRestore ? (
        <div className="mt-4">
          <Alert tone="warning" title={t('Only an owner can restore this backup')}>
            {t(RIGHTS_RESTORE_NOTE)}
          </Alert>
        </div>
      ) : backup.status === 'completed' ? (
        <RestoreForm key={backup.id} backup={backup} />
      ) : (
        <div className="mt-4">
          <Alert tone="warning" title={t('This backup cannot be restored')}>
            {backup.status === 'failed'
              ? t('Only completed backups can be restored; this one is failed.')
              : t('Only completed backups can be restored; this one is still in progress.')}
          </Alert>
        </div>
      )}
    </Card>
  );
}

/** The no-JS confirmation step of a restore: Confirm posts the same options again, confirmed. */
export function ConfirmRestore({
  id,
  message,
  overwrite,
  skipAuditLogs,
  cancelTo,
}: {
  id: number;
  message: string;
  overwrite: boolean;
  skipAuditLogs: boolean;
  cancelTo: string;
}) {
  const t = useT();
  const fields: Record<string, string | number> = { intent: 'restore', id };
  if (overwrite) fields.overwrite = 'on';
  if (skipAuditLogs) fields.skipAuditLogs = 'on';
  return (
    <ConfirmStep
      title={t('Confirm restore')}
      message={message}
      fields={fields}
      cancelTo={cancelTo}
      danger={overwrite}
      testId="confirm-restore"
    />
  );
}
