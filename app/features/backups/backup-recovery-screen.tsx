// /backup-recovery: the Create Scheduled Backup button, the four tabs (in the URL),
// the answers of the last post (a failure, the delete or restore confirmation step) and, with
// JavaScript, a refresh every 3 s while a backup is in progress.
import { Form, useLocation } from '@remix-run/react';
import { BACKUP_MESSAGES, BACKUP_TABS, failureText, type BackupTab } from './texts.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { ConfirmDelete } from '../../platform/resources/delete-button.tsx';
import {
  formErrorOf,
  resultFor,
  TabNav,
  useCloseUrl,
  type ActionAnswer,
} from '../../platform/screen/action-result.tsx';
import { Alert, Button } from '../../ui/form.tsx';
import { ClockIcon } from '../../ui/icons.tsx';
import { ToastView } from '../../ui/toast.tsx';
import { useRefreshEvery } from '../../platform/screen/use-refresh.ts';
import { BackupList } from './backup-list.tsx';
import { CreateBackupForm } from './create-backup-form.tsx';
import { ExportLinks } from './export-links.tsx';
import { ConfirmRestore, RestorePanel } from './restore-panel.tsx';
import type { BackupView, TableChoice } from './types.ts';

export interface BackupRecoveryData {
  tab: BackupTab;
  /** The tabs this user has: without create/restore rights, Backups and Export only. */
  tabs: BackupTab[];
  backups: BackupView[];
  /** The Restore tab's backup (?backup=ID), and whether that id named none. */
  selected: BackupView | null;
  selectedMissing: boolean;
  /** The Create tab's choices: the tables the user may read, and whether the audit trail is one. */
  tables: TableChoice[];
  auditTrail: boolean;
  /** Every table a backup can hold, for the Restore tab's summary. */
  tableLabels: TableChoice[];
  exports: TableChoice[];
  can: { create: boolean; scheduled: boolean; restore: boolean };
  /** Limited to one company: lists and exports, never creates, restores or deletes. */
  scoped: boolean;
}

/** What the action answers on the page: a failure, or a confirmation step. */
export type BackupRecoveryAction = ActionAnswer & {
  id?: number;
  message?: string;
  overwrite?: boolean;
  skipAuditLogs?: boolean;
};

export const POLL_MS = 3000;

function ScheduledBackupButton() {
  const t = useT();
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="scheduled" />
      <Button type="submit">
        <ClockIcon className="h-4 w-4" /> {t('Create Scheduled Backup')}
      </Button>
    </Form>
  );
}

export function BackupRecoveryScreen({
  data,
  actionData,
}: {
  data: BackupRecoveryData;
  actionData: BackupRecoveryAction | null;
}) {
  const t = useT();
  const { search } = useLocation();
  const closeTo = useCloseUrl();
  useRefreshEvery(
    POLL_MS,
    data.backups.some((b) => b.status === 'in_progress'),
  );
  const failure = formErrorOf(actionData);
  const tabs = BACKUP_TABS.filter((tab) => data.tabs.includes(tab.key)).map((tab) => ({
    ...tab,
    label: t(tab.label),
    to: tab.key === 'restore' && data.selected ? `?tab=restore&backup=${data.selected.id}` : `?tab=${tab.key}`,
  }));
  return (
    <div>
      <PageHeading title={t('Backup & Recovery')}>{data.can.scheduled ? <ScheduledBackupButton /> : null}</PageHeading>
      {/* Failures are toasts titled Error ('Failed to … backup: {message}'). */}
      {failure ? (
        <ToastView toast={{ type: 'error', title: t('Error'), description: failureText(t, failure) }} />
      ) : null}
      {actionData?.intent === 'confirm-delete' && actionData.id && actionData.message ? (
        <ConfirmDelete id={actionData.id} message={actionData.message} cancelTo={closeTo} />
      ) : null}
      {actionData?.intent === 'confirm-restore' && actionData.id && actionData.message ? (
        <ConfirmRestore
          id={actionData.id}
          message={actionData.message}
          overwrite={!!actionData.overwrite}
          skipAuditLogs={!!actionData.skipAuditLogs}
          cancelTo={`/backup-recovery${search}`}
        />
      ) : null}
      {data.scoped ? (
        <div className="mb-4">
          <Alert tone="info" title={t('Backups of every company')}>
            {t(BACKUP_MESSAGES.scopedNote)}
          </Alert>
        </div>
      ) : null}
      <TabNav tabs={tabs} current={data.tab} label={t('Backup and recovery tabs')} />
      {data.tab === 'backups' ? <BackupList backups={data.backups} /> : null}
      {data.tab === 'create' ? (
        <CreateBackupForm
          tables={data.tables}
          auditTrail={data.auditTrail}
          lastResult={resultFor(actionData, 'create')}
        />
      ) : null}
      {data.tab === 'restore' ? (
        <RestorePanel backup={data.selected} missing={data.selectedMissing} tables={data.tableLabels} />
      ) : null}
      {data.tab === 'export' ? <ExportLinks tables={data.exports} scoped={data.scoped} /> : null}
    </div>
  );
}
