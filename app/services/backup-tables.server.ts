// What a backup holds (spec 3 §2.3 plus every business table since): the tables in
// foreign-key order (a table comes after every table it refers to), so a restore inserts
// parents first and removes children first. A new table must be placed here or in
// NOT_BACKED_UP (backup-tables.server.test.ts fails until it is).
import { snakeCase } from '../lib/names.ts';
import type { Database } from '../../db/types.ts';

export type BackupTable = keyof Database & string;

export interface BackupTableInfo {
  name: BackupTable;
  label: string;
  /** data: chosen in the table selection; auditLogs / versions: the two include options. */
  group: 'data' | 'auditLogs' | 'versions';
  /** Rows of this table travel with another chosen table (a user's settings with users). */
  follows?: BackupTable;
  /** Columns referring to the same table (a user created by a user): filled after the rows. */
  selfReferences?: string[];
}

/** 'expenseCategories' → 'Expense Categories': how screens and messages name a table. */
export const tableLabel = (name: string) => snakeCase(name).split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');

const table = (name: BackupTable, extra: Partial<BackupTableInfo> = {}): BackupTableInfo => ({ name, label: tableLabel(name), group: 'data', ...extra });

export const BACKUP_TABLES: readonly BackupTableInfo[] = [
  table('companies'),
  table('departments'),
  table('users', { selfReferences: ['createdBy'] }),
  table('userSettings', { follows: 'users' }),
  table('expenseCategories'),
  table('budgets'),
  table('actualExpenses'),
  table('revenueProjections'),
  table('actualRevenue'),
  table('subscriberMetrics'),
  table('broadbandConnections'),
  table('mobileSubscriptions'),
  table('mobileAccessMethods'),
  table('networkBroadbandRecords'),
  table('networkSubscriptionPatterns'),
  table('networkAccessRecords'),
  table('vultSubscriberMetrics'),
  table('vultSubscriberLevels'),
  table('vultCardTypes'),
  table('apiIntegrationSources'),
  // Credentials travel encrypted, as stored: they restore under the same ENCRYPTION_KEY.
  table('apiIntegrationCredentials', { follows: 'apiIntegrationSources' }),
  table('apiIntegrationEndpoints'),
  table('apiIntegrationRecords', { follows: 'apiIntegrationEndpoints' }),
  table('auditLogs', { group: 'auditLogs' }),
  table('dataVersions', { group: 'versions' }),
];

/** Tables a backup leaves out, and why (the test checks every table is in one of the lists). */
export const NOT_BACKED_UP: Readonly<Partial<Record<BackupTable, string>>> = {
  userSessions: 'sign-ins are not data: a restore never brings back a session',
  loginAttempts: 'throttling counters, kept for 15 minutes',
  rateLimitCounters: 'throttling counters',
  workLeases: 'work running now (one at a time per user): held by live processes, expiring by itself',
  rowCounts: 'derived: kept by triggers as rows are restored',
  changeTokens: 'PostgreSQL: replaced by every write of their table, and by the restore',
  dayCounts: 'PostgreSQL: derived, kept by triggers and counted again by the restore',
  systemErrors: 'operational history of this installation',
  recoveryActions: 'operational history of this installation',
  healthSnapshots: 'operational history of this installation',
  securityAnomalies: 'derived from the audit trail by the anomaly job',
  backups: 'the list of backup files of this installation',
  notifications: 'messages about events of this installation, purged when they expire',
  userNotificationSettings: 'who read or dismissed which notification: follows the notifications',
  pushSubscriptions: "this installation's browsers and their push keys: each browser subscribes again",
  aiInsights: 'derived from the books by the nightly ai-insights job',
  aiChatMessages: 'a sign-in session\'s chat, gone with the session (sessions end on restore)',
  apiIntegrationSyncLogs: 'operational history of this installation\'s syncs',
};

/** The tables a user picks from (every data table that does not follow another). */
export const SELECTABLE_BACKUP_TABLES = BACKUP_TABLES.filter((t) => t.group === 'data' && !t.follows);

export const backupTableInfo = (name: string) => BACKUP_TABLES.find((t) => t.name === name);

/**
 * The tables of a backup, in foreign-key order: the chosen data tables (none chosen = all),
 * the tables that follow them, and the audit logs and versions when asked for.
 */
export function backupTablesFor(selection: { tables?: readonly string[] | null; includeAuditLogs?: boolean; includeVersions?: boolean }): BackupTable[] {
  const chosen = new Set(selection.tables?.length ? selection.tables : SELECTABLE_BACKUP_TABLES.map((t) => t.name));
  return BACKUP_TABLES.filter((t) => {
    if (t.group === 'auditLogs') return !!selection.includeAuditLogs;
    if (t.group === 'versions') return !!selection.includeVersions;
    return chosen.has(t.follows ?? t.name);
  }).map((t) => t.name);
}
