// What a backup holds (every business table): the tables in
// foreign-key order (a table comes after every table it refers to), so a restore inserts
// parents first and removes children first. A new table must be placed here or in
// NOT_BACKED_UP (backup-tables.server.test.ts fails until it is).
import { wordsLabel } from '../../platform/lib/labels.ts';
import { can, type Area, type Principal } from '../../platform/lib/permissions.ts';
import type { Database } from '../../../db/types.ts';

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
  /** Who may read the table's rows, and so put them in a backup: the area of its screens and /api. */
  area: Area;
  /** Its rows give people rights (accounts, their flags, their settings): only an owner restores them. */
  grantsRights?: boolean;
}

/** 'expenseCategories' → 'Expense Categories', 'apiIntegrationSources' → 'API Integration Sources': how screens and messages name a table. */
export const tableLabel = wordsLabel;

const table = (name: BackupTable, area: Area, extra: Partial<BackupTableInfo> = {}): BackupTableInfo => ({
  name,
  label: tableLabel(name),
  group: 'data',
  area,
  ...extra,
});

export const BACKUP_TABLES: readonly BackupTableInfo[] = [
  table('companies', 'reference'),
  table('departments', 'reference'),
  table('users', 'users', { selfReferences: ['createdBy'], grantsRights: true }),
  table('userSettings', 'users', { follows: 'users', grantsRights: true }),
  table('expenseCategories', 'financial'),
  table('budgets', 'financial'),
  table('actualExpenses', 'financial'),
  table('revenueProjections', 'financial'),
  table('actualRevenue', 'financial'),
  table('subscriberMetrics', 'subscriber'),
  table('broadbandConnections', 'subscriber'),
  table('mobileSubscriptions', 'subscriber'),
  table('mobileAccessMethods', 'subscriber'),
  table('vultSubscriberMetrics', 'subscriber'),
  table('vultSubscriberLevels', 'subscriber'),
  table('vultCardTypes', 'subscriber'),
  table('apiIntegrationSources', 'integrations'),
  // Credentials travel encrypted, as stored: they restore under the same ENCRYPTION_KEY.
  table('apiIntegrationCredentials', 'integrations', { follows: 'apiIntegrationSources' }),
  table('apiIntegrationEndpoints', 'integrations'),
  table('apiIntegrationRecords', 'integrations', { follows: 'apiIntegrationEndpoints' }),
  // The audit trail is append-only evidence: a restore only adds the entries and versions the
  // database lacks (backup-restore.server.ts).
  table('auditLogs', 'auditLogs', { group: 'auditLogs' }),
  table('dataVersions', 'auditLogs', { group: 'versions' }),
];

/** The tables of a selection the user may not read (and so may not put in a backup). */
export function unreadableTables(user: Principal, tables: readonly string[]): BackupTableInfo[] {
  return tables.map((name) => backupTableInfo(name)!).filter((info) => info && !can(user, info.area));
}

/** The data tables a user may choose, those they may read: what "every table" means in their backup. */
export const readableTableInfos = (user: Principal) => SELECTABLE_BACKUP_TABLES.filter((t) => can(user, t.area));
export const readableTables = (user: Principal) => readableTableInfos(user).map((t) => t.name);

/** Whether restoring these tables gives people rights (accounts, flags, settings). */
export const grantsRights = (tables: readonly string[]) => tables.some((name) => backupTableInfo(name)?.grantsRights);

/** The audit trail's tables: never deleted or rewritten by a restore, only added to. */
export function isAppendOnly(name: string): boolean {
  const group = backupTableInfo(name)?.group;
  return group === 'auditLogs' || group === 'versions';
}

/** Tables a backup leaves out, and why (the test checks every table is in one of the lists). */
export const NOT_BACKED_UP: Readonly<Partial<Record<BackupTable, string>>> = {
  userSessions: 'sign-ins are not data: a restore never brings back a session',
  loginAttempts: 'throttling counters, kept for 15 minutes',
  userTwoFactor:
    "a second factor belongs to the account on this installation: a restore keeps each account's own (docs/security.md)",
  twoFactorChallenges: 'sign-ins waiting for their second factor, for 5 minutes',
  systemSettings: "this installation's security policy: a restore keeps it",
  rateLimitCounters: 'throttling counters',
  workLeases: 'work running now (one at a time per user): held by live processes, expiring by itself',
  rowCounts: 'derived: kept by triggers as rows are restored',
  auditCounts: 'derived: kept by triggers as audit entries are restored, counted again after a bulk load',
  auditDays: 'derived: kept by triggers as audit entries are restored, counted again after a bulk load',
  auditCreateMonths: 'derived: kept by triggers as audit entries are restored, counted again after a bulk load',
  auditUserCounts: 'derived: kept by triggers as audit entries are restored, counted again after a bulk load',
  changeTokens: 'PostgreSQL: replaced by every write of their table, and by the restore',
  dayCounts: 'PostgreSQL: derived, kept by triggers and counted again by the restore',
  expenseMonthTotals: 'derived: kept by triggers, built again by the restore',
  activityWindowRuns: 'derived: the activity-window job computes it again from the audit trail',
  activityUserWindow: 'derived: the activity-window job computes it again from the audit trail',
  activityScopeWindow: 'derived: the activity-window job computes it again from the audit trail',
  revenueMonthTotals: 'derived: kept by triggers, built again by the restore',
  budgetMonthPlans: 'derived from budgets: kept by triggers, built again by the restore',
  projectionMonthPlans: 'derived from revenue projections: kept by triggers, built again by the restore',
  systemErrors: 'operational history of this installation',
  imports: "this installation's uploaded files and their checks; the rows they wrote are in their tables",
  recoveryActions: 'operational history of this installation',
  healthSnapshots: 'operational history of this installation',
  securityAnomalies: 'derived from the audit trail by the anomaly job',
  backups: 'the list of backup files of this installation',
  notifications: 'messages about events of this installation, purged when they expire',
  userNotificationSettings: 'who read or dismissed which notification: follows the notifications',
  notificationBadges: "derived: each user's bell count, counted again from the notifications when read",
  pushSubscriptions: "this installation's browsers and their push keys: each browser subscribes again",
  aiInsights: 'derived from the books by the nightly ai-insights job',
  expenseAnomalyRuns: 'derived from the books by the expense-anomalies job',
  expenseAnomalies: 'derived from the books by the expense-anomalies job',
  expenseAnomalyDays: 'derived from the books by the expense-anomalies job',
  changeCounters: 'SQLite: bumped by every write of their table',
  aiChatMessages: "a sign-in session's chat, gone with the session (sessions end on restore)",
  apiIntegrationSyncLogs: "operational history of this installation's syncs",
  networkBroadbandRecords: 'a view: broadband connections by month',
  networkSubscriptionPatterns: 'a view: mobile subscriptions by month',
  networkAccessRecords: 'a view: mobile access methods by month',
};

/** The tables a user picks from (every data table that does not follow another). */
export const SELECTABLE_BACKUP_TABLES = BACKUP_TABLES.filter((t) => t.group === 'data' && !t.follows);

export const backupTableInfo = (name: string) => BACKUP_TABLES.find((t) => t.name === name);

/**
 * The tables of a backup, in foreign-key order: the chosen data tables (none chosen = all),
 * the tables that follow them, and the audit logs and versions when asked for.
 */
export function backupTablesFor(selection: {
  tables?: readonly string[] | null;
  includeAuditLogs?: boolean;
  includeVersions?: boolean;
}): BackupTable[] {
  const chosen = new Set(selection.tables?.length ? selection.tables : SELECTABLE_BACKUP_TABLES.map((t) => t.name));
  return BACKUP_TABLES.filter((t) => {
    if (t.group === 'auditLogs') return !!selection.includeAuditLogs;
    if (t.group === 'versions') return !!selection.includeVersions;
    return chosen.has(t.follows ?? t.name);
  }).map((t) => t.name);
}
