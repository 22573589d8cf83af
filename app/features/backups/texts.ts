// The Backup & Recovery screen's fixed texts and tabs. Isomorphic: the route's
// action answers with them and the page asks confirm() with the same words.

export const BACKUP_TABS = [
  { key: 'backups', label: 'Backups' },
  { key: 'create', label: 'Create Backup' },
  { key: 'restore', label: 'Restore' },
  { key: 'export', label: 'Export' },
] as const;
export type BackupTab = (typeof BACKUP_TABS)[number]['key'];

export const BACKUP_MESSAGES = {
  created: 'Backup created successfully',
  createFailed: 'Failed to create backup',
  scheduled: 'Scheduled backup created successfully',
  scheduledFailed: 'Failed to create scheduled backup',
  restored: 'Backup restored successfully',
  restoreFailed: 'Failed to restore backup',
  deleted: 'Backup deleted successfully',
  deleteFailed: 'Failed to delete backup',
  verifyFailed: 'Failed to verify backup',
  verified: { title: 'Verified', description: 'Backup integrity verified' },
  invalid: { title: 'Invalid', description: 'Backup integrity check failed' },
  confirmDelete: 'Are you sure you want to delete this backup? This action cannot be undone.',
  overwriteWarning:
    'Existing data in the restored tables will be permanently deleted and replaced with the data from this backup.',
  /** Why a user limited to one company sees no create, restore or delete controls. */
  scopedNote:
    "Backups hold the data of every company, so only users who are not limited to one company can create, restore or delete them. You can list the backups and export your company's data.",
} as const;

/** The question before a restore (confirm() with JavaScript, the server's step without). */
export function confirmRestoreMessage(name: string, overwrite: boolean): string {
  return `Restore the backup "${name}"?${overwrite ? ` ${BACKUP_MESSAGES.overwriteWarning}` : ' Rows missing from the database are added back; existing rows are kept.'}`;
}
