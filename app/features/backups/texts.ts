// The Backup & Recovery screen's fixed texts and tabs. Isomorphic: the route's
// action answers with them and the page asks confirm() with the same words.
import { msg, type Translate } from '../../platform/i18n/messages.ts';

export const BACKUP_TABS = [
  { key: 'backups', label: msg('Backups') },
  { key: 'create', label: msg('Create Backup') },
  { key: 'restore', label: msg('Restore') },
  { key: 'export', label: msg('Export') },
] as const;
export type BackupTab = (typeof BACKUP_TABS)[number]['key'];

export const BACKUP_MESSAGES = {
  created: msg('Backup created successfully'),
  createFailed: msg('Failed to create backup'),
  invalidData: msg('Invalid data'),
  scheduled: msg('Scheduled backup created successfully'),
  scheduledFailed: msg('Failed to create scheduled backup'),
  restored: msg('Backup restored successfully'),
  restoreFailed: msg('Failed to restore backup'),
  deleted: msg('Backup deleted successfully'),
  deleteFailed: msg('Failed to delete backup'),
  verifyFailed: msg('Failed to verify backup'),
  verified: { title: msg('Verified'), description: msg('Backup integrity verified') },
  invalid: { title: msg('Invalid'), description: msg('Backup integrity check failed') },
  confirmDelete: msg('Are you sure you want to delete this backup? This action cannot be undone.'),
  overwriteWarning: msg(
    'Existing data in the restored tables will be permanently deleted and replaced with the data from this backup.',
  ),
  /** Why a user limited to one company sees no create, restore or delete controls. */
  scopedNote: msg(
    'Backups hold the data of every company, so only users who are not limited to one company can create, restore or delete them. You can list the backups and export your company’s data.',
  ),
} as const;

/** The prefixes of the failures the route answers ('Failed to delete backup: …'). */
const FAILURES = [
  BACKUP_MESSAGES.createFailed,
  BACKUP_MESSAGES.scheduledFailed,
  BACKUP_MESSAGES.restoreFailed,
  BACKUP_MESSAGES.deleteFailed,
  BACKUP_MESSAGES.verifyFailed,
];

/** A failure the route answered ('<failed>: <reason>') in the reader's words; the reason as the service gave it. */
export function failureText(t: Translate, text: string): string {
  const failed = FAILURES.find((prefix) => text.startsWith(`${prefix}: `));
  if (!failed) return t(text);
  return t('{failed}: {reason}', { failed: t(failed), reason: t(text.slice(failed.length + 2)) });
}

/** The question before a restore (confirm() with JavaScript, the server's step without). */
export function confirmRestoreMessage(t: Translate, name: string, overwrite: boolean): string {
  return overwrite
    ? t(
        'Restore the backup "{name}"? Existing data in the restored tables will be permanently deleted and replaced with the data from this backup.',
        { name },
      )
    : t('Restore the backup "{name}"? Rows missing from the database are added back; existing rows are kept.', {
        name,
      });
}

/** A backup's type as its badge words it (lower case, capitalised by CSS). */
export const BACKUP_TYPE_LABELS: Record<string, string> = {
  manual: msg('manual'),
  scheduled: msg('scheduled'),
  automated: msg('automated'),
};

/**
 * The tables' labels as backup-tables.server.ts and the exports word them, as messages: the
 * screen shows every table label through `t`.
 */
export const TABLE_LABELS = [
  msg('Companies'),
  msg('Departments'),
  msg('Users'),
  msg('User Settings'),
  msg('Expense Categories'),
  msg('Budgets'),
  msg('Actual Expenses'),
  msg('Revenue Projections'),
  msg('Actual Revenue'),
  msg('Subscriber Metrics'),
  msg('Broadband Connections'),
  msg('Mobile Subscriptions'),
  msg('Mobile Access Methods'),
  msg('Network Broadband Records'),
  msg('Network Subscription Patterns'),
  msg('Network Access Records'),
  msg('Vult Subscriber Metrics'),
  msg('Vult Subscriber Levels'),
  msg('Vult Card Types'),
  msg('API Integration Sources'),
  msg('API Integration Credentials'),
  msg('API Integration Endpoints'),
  msg('API Integration Records'),
  msg('Audit Logs'),
  msg('Data Versions'),
] as const;
