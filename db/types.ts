// Table interfaces (camelCase; the CamelCasePlugin maps them to snake_case columns).
// Booleans, JSON and instants are normalised by PortablePlugin (db/portable.ts) so services
// see the same shapes on SQLite and PostgreSQL: booleans, parsed JSON, ISO strings.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Instant = ColumnType<string, string | undefined, string>;
type Json<T = unknown> = ColumnType<T, string | undefined, string>;

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const COMPANY_TYPES = ['mobile', 'infrastructure', 'fintech', 'marketing'] as const;
export type CompanyType = (typeof COMPANY_TYPES)[number];

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  type: CompanyType;
  description: string | null;
  createdAt: Instant;
  updatedAt: Instant;
}

export interface DepartmentsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  createdAt: Instant;
  updatedAt: Instant;
}

export interface ExpenseCategoriesTable {
  id: Generated<number>;
  companyId: number;
  departmentId: number | null;
  name: string;
  description: string | null;
  createdAt: Instant;
  updatedAt: Instant;
}

export const PERIODS = ['monthly', 'quarterly', 'annual'] as const;
export const STATUSES = ['active', 'pending', 'expired'] as const;
export const METRIC_PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'annual'] as const;
export const METRIC_COMPANY_TYPES = ['mobile', 'fintech'] as const;

interface FinanceRowColumns {
  id: Generated<number>;
  companyId: number;
  createdBy: number | null;
  createdAt: Instant;
  updatedAt: Instant;
}

/** Budgets and revenue projections: a planned amount over a period. */
interface PlannedPeriodColumns {
  period: (typeof PERIODS)[number];
  startDate: string;
  endDate: string;
  description: string | null;
  status: ColumnType<(typeof STATUSES)[number], (typeof STATUSES)[number] | undefined, (typeof STATUSES)[number]>;
}

export interface BudgetsTable extends FinanceRowColumns, PlannedPeriodColumns {
  departmentId: number;
  categoryId: number;
  amountCents: number;
}

export interface ActualExpensesTable extends FinanceRowColumns {
  departmentId: number;
  categoryId: number;
  amountCents: number;
  expenseDate: string;
  description: string;
  vendor: string | null;
  receiptNumber: string | null;
}

export interface RevenueProjectionsTable extends FinanceRowColumns, PlannedPeriodColumns {
  source: string;
  amountCents: number;
}

export interface ActualRevenueTable extends FinanceRowColumns {
  source: string;
  amountCents: number;
  revenueDate: string;
  description: string | null;
  customerReference: string | null;
}

export interface SubscriberMetricsTable extends FinanceRowColumns {
  companyType: (typeof METRIC_COMPANY_TYPES)[number];
  metricName: string;
  metricValueHundredths: number;
  period: (typeof METRIC_PERIODS)[number];
  recordDate: string;
  description: string | null;
}

// Company metrics (migration 0005): counts, percentages in hundredths, revenue in cents.
export const CONNECTION_TYPES = ['fixed_broadband', 'fixed_fiber', 'fixed_fwa_5g'] as const;
export const SUBSCRIPTION_TYPES = ['daily', 'weekly', 'monthly'] as const;
export const ACCESS_METHODS = ['mifi', 'sim', 'esim', 'fwa_mobile'] as const;
export const SUBSCRIBER_LEVELS = ['level_0', 'level_1', 'level_2', 'in_progress'] as const;
/** One card-type list everywhere (docs/decisions.md). */
export const CARD_TYPES = ['platinum', 'gold', 'black', 'aqua', 'plastic', 'virtual'] as const;

/** A company's figures for one month. */
interface MonthRowColumns {
  id: Generated<number>;
  companyId: number;
  year: number;
  month: number;
  createdBy: number | null;
  createdAt: Instant;
  updatedAt: Instant;
}

type Count = ColumnType<number, number | undefined, number>;

export interface BroadbandConnectionsTable extends MonthRowColumns {
  connectionType: (typeof CONNECTION_TYPES)[number];
  activeConnections: Count;
  newThisMonth: Count;
  churnThisMonth: Count;
  revenueCents: number | null;
}

export interface MobileSubscriptionsTable extends MonthRowColumns {
  subscriptionType: (typeof SUBSCRIPTION_TYPES)[number];
  activeSubscriptions: Count;
  newThisMonth: Count;
  churnThisMonth: Count;
  revenueCents: number | null;
}

export interface MobileAccessMethodsTable extends MonthRowColumns {
  accessMethod: (typeof ACCESS_METHODS)[number];
  activeDevices: Count;
  revenueCents: number | null;
}

/**
 * A company's month of the rows above, pivoted by type (views, migration 0040): what the One
 * Network Subscriptions screen reads. `id` is year × 100 + month. Nothing is written to them.
 */
interface MonthViewColumns {
  id: number;
  companyId: number;
  year: number;
  month: number;
  createdAt: Instant;
  updatedAt: Instant;
}

export interface NetworkBroadbandRecordsView extends MonthViewColumns {
  fixedBroadband: number;
  fixedBroadbandNew: number;
  fixedBroadbandChurn: number;
  fixedFiber: number;
  fixedFiberNew: number;
  fixedFiberChurn: number;
  fixedFwa5gRouter: number;
  fixedFwa5gRouterNew: number;
  fixedFwa5gRouterChurn: number;
}

export interface NetworkSubscriptionPatternsView extends MonthViewColumns {
  dailySubscriptions: number;
  dailyNew: number;
  dailyChurn: number;
  weeklySubscriptions: number;
  weeklyNew: number;
  weeklyChurn: number;
  monthlySubscriptions: number;
  monthlyNew: number;
  monthlyChurn: number;
}

export interface NetworkAccessRecordsView extends MonthViewColumns {
  mifiDevices: number;
  simCards: number;
  eSim: number;
  fwaMobile: number;
}

export interface VultSubscriberMetricsTable extends MonthRowColumns {
  totalSubscribers: Count;
  retentionRateHundredths: Count;
  conversionRateHundredths: Count;
  cardHolders: Count;
  cardAdoptionRateHundredths: Count;
}

export interface VultSubscriberLevelsTable extends MonthRowColumns {
  level: (typeof SUBSCRIBER_LEVELS)[number];
  subscriberCount: Count;
  percentageOfTotalHundredths: Count;
  description: string | null;
}

export interface VultCardTypesTable extends MonthRowColumns {
  cardType: (typeof CARD_TYPES)[number];
  cardCount: Count;
  percentageOfCardsHundredths: Count;
  percentageOfUsersHundredths: Count;
  description: string | null;
}

export interface RowCountsTable {
  tableName: string;
  companyId: number;
  rowCount: number;
}

/** Migration 0027 (db/audit-counts.ts): audit entries per company (0: about no company), kept by triggers. */
export interface AuditCountsTable {
  companyId: number;
  entries: number;
}

/** Migration 0028 (db/audit-create-months.ts): creates per table, company (0: none) and UTC month, kept by triggers. */
export interface AuditCreateMonthsTable {
  tableName: string;
  companyId: number;
  /** 'YYYY-MM'. */
  month: string;
  entries: number;
  /** Of them, made by a signed-in user (the entry names a user). */
  byUsers: number;
}

/** Migration 0029 (db/audit-days.ts): audit entries per UTC day and company (0: none), kept by triggers. */
export interface AuditDaysTable {
  /** 'YYYY-MM-DD'. */
  day: string;
  companyId: number;
  entries: number;
}

/** Migration 0035 (db/audit-user-counts.ts): audit entries per signed-in user and action ('create', 'update'), kept by triggers. */
export interface AuditUserCountsTable {
  userId: number;
  action: string;
  entries: number;
}

/** PostgreSQL only (migration 0017): rows per company and day of a big table's date column. */
export interface DayCountsTable {
  tableName: string;
  companyId: number;
  day: string;
  rowCount: number;
}

/** Migration 0022 (db/aggregates.ts): actual expenses per company, department, category and month ('YYYY-MM'). */
export interface ExpenseMonthTotalsTable {
  companyId: number;
  departmentId: number;
  categoryId: number;
  month: string;
  amountCents: number;
  rowCount: number;
}

/** Migration 0022: actual revenue per company, source and month. */
export interface RevenueMonthTotalsTable {
  companyId: number;
  source: string;
  month: string;
  amountCents: number;
  rowCount: number;
}

/** Migration 0022: the one plan of a month per company, department and category, and the budget it comes from. */
export interface BudgetMonthPlansTable {
  companyId: number;
  departmentId: number;
  categoryId: number;
  month: string;
  budgetId: number;
  period: (typeof PERIODS)[number];
  /** The months the chosen budget covers (its amount is spread evenly over them). */
  months: number;
  amountCents: number;
}

/** Migration 0022: the one projected revenue of a month per company and source. */
export interface ProjectionMonthPlansTable {
  companyId: number;
  source: string;
  month: string;
  projectionId: number;
  period: (typeof PERIODS)[number];
  months: number;
  amountCents: number;
}

/** PostgreSQL only (migration 0014): a token each statement writing the table replaces. */
export interface ChangeTokensTable {
  tableName: string;
  token: string;
}

/** SQLite only (migration 0023): a counter every write of the table bumps. */
export interface ChangeCountersTable {
  tableName: string;
  counter: number;
}

/** Migration 0033: the activity window's one current computation (id 1). */
export interface ActivityWindowRunsTable {
  id: number;
  windowStart: string;
  windowEnd: string;
  computedAt: string;
  /** The audit trail's change token it was computed from: an unchanged trail needs no new run. */
  auditToken: string;
}

/** Migration 0033: per user, the window's creates, updates and events other than failed sign-ins. */
export interface ActivityUserWindowTable {
  userId: number;
  entries: number;
  edits: number;
  events: number;
}

/** Migration 0033: per company (0: every company and events without a user), the window's events by action or table. */
export interface ActivityScopeWindowTable {
  companyId: number;
  kind: 'action' | 'table';
  name: string;
  events: number;
}

/** Migration 0023: one computation of the expense anomalies; the latest finished one is read. */
export interface ExpenseAnomalyRunsTable {
  generation: number;
  /** The books' change token the run started from: unchanged books need no new run. */
  booksToken: string;
  /** The first day of the window the run covers ('YYYY-MM-DD'). */
  windowStart: string;
  startedAt: string;
  computedAt: string | null;
  findings: ColumnType<number, number | undefined, number>;
}

/** Migration 0023: a run's findings. */
export interface ExpenseAnomaliesTable {
  generation: number;
  expenseId: number;
  anomalyType: 'unusual_amount' | 'duplicate' | 'new_vendor';
  companyId: number;
  departmentId: number;
  categoryId: number;
  severity: 'critical' | 'high' | 'medium' | 'low';
  /** 0 critical … 3 low: the ranking order. */
  severityRank: number;
  amountCents: number;
  expectedCents: number;
  deviation: number;
  expenseDate: string;
  explanation: string;
  /** Migration 0046: the explanation as a message and its values (JSON; null for older rows). */
  explanationText: string | null;
}

/** Migration 0023: a run's spending per company, department and day, and the day's findings. */
export interface ExpenseAnomalyDaysTable {
  generation: number;
  companyId: number;
  departmentId: number;
  day: string;
  spentCents: number;
  findings: number;
  largestCents: number | null;
}

export interface PermissionFlagColumns {
  canAccessFinancialData: ColumnType<boolean, boolean | undefined, boolean>;
  canAccessSubscriberData: ColumnType<boolean, boolean | undefined, boolean>;
  canAccessApiIntegrations: ColumnType<boolean, boolean | undefined, boolean>;
  canAccessAnalytics: ColumnType<boolean, boolean | undefined, boolean>;
  canAccessAuditLogs: ColumnType<boolean, boolean | undefined, boolean>;
  canAccessBackups: ColumnType<boolean, boolean | undefined, boolean>;
  canCreate: ColumnType<boolean, boolean | undefined, boolean>;
  canEdit: ColumnType<boolean, boolean | undefined, boolean>;
  canDelete: ColumnType<boolean, boolean | undefined, boolean>;
  canManageUsers: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface UsersTable extends PermissionFlagColumns {
  id: Generated<number>;
  username: string;
  email: string;
  passwordHash: string;
  role: Role;
  fullName: string | null;
  position: string | null;
  phoneNumber: string | null;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  isTemporaryPassword: ColumnType<boolean, boolean | undefined, boolean>;
  passwordChangeRequired: ColumnType<boolean, boolean | undefined, boolean>;
  passwordChangedAt: string | null;
  companyId: number | null;
  createdBy: number | null;
  createdAt: Instant;
  updatedAt: Instant;
  lastLoginAt: string | null;
  lastActivityAt: string | null;
  loginCount: ColumnType<number, number | undefined, number>;
  totalSessionDuration: ColumnType<number, number | undefined, number>;
  averageSessionDuration: ColumnType<number, number | undefined, number>;
}

export interface UserSessionsTable {
  id: Generated<number>;
  sessionId: string;
  tokenHash: string;
  userId: number;
  ipAddress: string | null;
  userAgent: string | null;
  loginAt: Instant;
  lastSeenAt: Instant;
  expiresAt: string;
  logoutAt: string | null;
  sessionDuration: ColumnType<number, number | undefined, number>;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  rememberMe: ColumnType<boolean, boolean | undefined, boolean>;
  endReason: string | null;
}

/** A CSV import (migration 0043, docs/imports.md). */
export interface ImportsTable {
  id: Generated<number>;
  userId: number | null;
  actorLabel: string;
  /** The resource's key ('budgets'). */
  resource: string;
  fileName: string;
  fileHash: string;
  fileSize: number;
  /** The uploaded file under DATA_DIR/imports, while the import is open. */
  filePath: string | null;
  updateById: ColumnType<boolean, boolean | undefined, boolean>;
  /** JSON: field → column index the user chose. */
  chosenColumns: string | null;
  /** 'check' (a dry run) or 'import'. */
  phase: string;
  /** 'all' or 'valid' once an import was asked for. */
  mode: string | null;
  /** 'queued', 'running', 'checked', 'completed' or 'failed'. */
  status: string;
  /** Run by the process that received it (a small file), not by a job. */
  runHere: ColumnType<boolean, boolean | undefined, boolean>;
  rowsRead: ColumnType<number, number | undefined, number>;
  rowsTotal: number | null;
  rowsValid: number | null;
  rowsInvalid: number | null;
  rowsCreated: number | null;
  rowsUpdated: number | null;
  rowsUnchanged: number | null;
  /** JSON: the matched columns, the first errors and the preview rows. */
  outcome: string | null;
  error: string | null;
  /** JSON: `error` in each language other than English (migration 0047). */
  errorTexts: string | null;
  /** The refused rows with their reasons (CSV) under DATA_DIR/imports. */
  refusedPath: string | null;
  createdAt: Instant;
  startedAt: string | null;
  finishedAt: string | null;
  /** When its rows were written (completed with rows written). */
  importedAt: string | null;
}

export interface UserTwoFactorTable {
  userId: number;
  /** The authenticator secret sealed under ENCRYPTION_KEY (app/platform/secret-box.server.ts). */
  secretSealed: string;
  keyId: string;
  /** Null while the setup waits for its first code. */
  enabledAt: string | null;
  lastUsedStep: number | null;
  /** SHA-256 hashes of the unused recovery codes, comma-separated. */
  recoveryHashes: ColumnType<string, string | undefined, string>;
  createdAt: Instant;
  updatedAt: Instant;
}

export interface TwoFactorChallengesTable {
  id: Generated<number>;
  tokenHash: string;
  userId: number;
  rememberMe: ColumnType<boolean, boolean | undefined, boolean>;
  ipAddress: string | null;
  failures: ColumnType<number, number | undefined, number>;
  createdAt: Instant;
  expiresAt: string;
}

export interface SystemSettingsTable {
  id: number;
  requireTwoFactorForAdmins: ColumnType<boolean, boolean | undefined, boolean>;
  updatedAt: Instant;
  updatedBy: number | null;
}

export interface NotificationTypes {
  system: boolean;
  financial: boolean;
  api: boolean;
  user: boolean;
  security: boolean;
}

export interface DashboardLayout {
  cards: string[];
  autoRefresh: boolean;
  refreshInterval: number;
}

export interface UserSettingsTable {
  id: Generated<number>;
  userId: number;
  emailNotifications: ColumnType<boolean, boolean | undefined, boolean>;
  pushNotifications: ColumnType<boolean, boolean | undefined, boolean>;
  notificationTypes: Json<NotificationTypes>;
  theme: ColumnType<string, string | undefined, string>;
  language: ColumnType<string, string | undefined, string>;
  timezone: ColumnType<string, string | undefined, string>;
  dateFormat: ColumnType<string, string | undefined, string>;
  timeFormat: ColumnType<string, string | undefined, string>;
  dashboardLayout: Json<DashboardLayout>;
  shareActivityStatus: ColumnType<boolean, boolean | undefined, boolean>;
  shareProfileInfo: ColumnType<boolean, boolean | undefined, boolean>;
  autoLogout: ColumnType<number, number | undefined, number>;
  sessionTimeout: ColumnType<number, number | undefined, number>;
  defaultCurrency: ColumnType<string, string | undefined, string>;
  reportEmails: ColumnType<boolean, boolean | undefined, boolean>;
  securityAlerts: ColumnType<boolean, boolean | undefined, boolean>;
  compactSidebar: ColumnType<boolean, boolean | undefined, boolean>;
  animations: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: Instant;
  updatedAt: Instant;
}

export interface AuditLogsTable {
  id: Generated<number>;
  tableName: string;
  recordId: number | null;
  action: string;
  oldData: Json<Record<string, unknown> | null> | null;
  newData: Json<Record<string, unknown> | null> | null;
  changes: Json<Record<string, { old: unknown; new: unknown }> | null> | null;
  userId: number | null;
  actorLabel: string | null;
  timestamp: Instant;
  ipAddress: string | null;
  userAgent: string | null;
  reason: string | null;
  sessionId: string | null;
  /** The company of the row the entry is about (its own id for a company), if any. */
  companyId: number | null;
}

export interface DataVersionsTable {
  id: Generated<number>;
  tableName: string;
  recordId: number;
  version: number;
  data: Json<Record<string, unknown> | null> | null;
  createdBy: number | null;
  createdAt: Instant;
  action: string;
  comment: string | null;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  /** The company of the versioned row (its own id for a company), if any. */
  companyId: number | null;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  ipAddress: string;
  succeeded: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: Instant;
}

export interface RateLimitCountersTable {
  key: string;
  windowStart: number;
  count: number;
}

/** Work running one at a time per user (app/platform/work-lease.server.ts); times in epoch ms. */
export interface WorkLeasesTable {
  key: string;
  holder: string;
  acquiredAt: number;
  expiresAt: number;
}

export type ErrorSeverity = 'low' | 'medium' | 'high' | 'critical';
export type RecoveryStatus = 'executing' | 'completed' | 'failed' | 'other';

export interface SystemErrorsTable {
  id: Generated<number>;
  severity: ColumnType<ErrorSeverity, ErrorSeverity | undefined, ErrorSeverity>;
  errorType: string;
  message: string;
  endpoint: string | null;
  method: string | null;
  stack: string | null;
  occurrenceCount: ColumnType<number, number | undefined, number>;
  affectedUsers: ColumnType<number, number | undefined, number>;
  details: Json<Record<string, unknown> | null> | null;
  firstOccurrence: Instant;
  lastOccurrence: Instant;
  isResolved: ColumnType<boolean, boolean | undefined, boolean>;
  resolvedAt: string | null;
  resolvedBy: number | null;
  resolution: string | null;
  /** sha-256 of the type, method, endpoint and the message without its varying parts (null: before 0012). */
  fingerprint: string | null;
}

export interface RecoveryActionsTable {
  id: Generated<number>;
  actionType: string;
  status: ColumnType<RecoveryStatus, RecoveryStatus | undefined, RecoveryStatus>;
  description: string | null;
  result: string | null;
  systemErrorId: number | null;
  createdAt: Instant;
  updatedAt: Instant;
  completedAt: string | null;
}

export interface HealthSnapshotsTable {
  id: Generated<number>;
  createdAt: Instant;
  /** Percent of all CPUs busy over a short sample. */
  cpuUsage: number;
  loadAverage: Json<number[]>;
  cpuCount: number;
  memoryUsed: number;
  memoryTotal: number;
  processRss: number;
  /** Bytes free/total on the file system holding DATA_DIR. */
  diskFree: number | null;
  diskTotal: number | null;
  databaseSize: number | null;
  databaseResponseMs: number;
  databaseConnections: number | null;
}

export interface SecurityAnomaliesTable {
  id: Generated<number>;
  userId: number | null;
  username: string;
  anomalyType: ColumnType<string, string | undefined, string>;
  deleteCount: number;
  windowStart: string;
  windowEnd: string;
  description: string;
  createdAt: Instant;
}

export type BackupType = 'manual' | 'automated' | 'scheduled';
export type BackupStatus = 'completed' | 'failed' | 'in_progress';

export interface BackupsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  type: BackupType;
  status: ColumnType<BackupStatus, BackupStatus | undefined, BackupStatus>;
  /** The tables asked for (camelCase). */
  tables: Json<string[]>;
  includeAuditLogs: ColumnType<boolean, boolean | undefined, boolean>;
  includeVersions: ColumnType<boolean, boolean | undefined, boolean>;
  /** The file's name inside BACKUP_DIR. */
  fileName: string | null;
  size: ColumnType<number, number | undefined, number>;
  recordCount: ColumnType<number, number | undefined, number>;
  tableCounts: Json<Record<string, number> | null> | null;
  sha256: string | null;
  schemaVersion: string | null;
  /** Why a failed backup failed. */
  error: string | null;
  createdBy: number | null;
  createdAt: Instant;
  updatedAt: Instant;
  completedAt: string | null;
}

export const NOTIFICATION_TYPES = ['info', 'warning', 'error', 'success'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];
export const NOTIFICATION_CATEGORIES = ['system', 'financial', 'security', 'api', 'user'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

export interface NotificationsTable {
  id: Generated<number>;
  title: string;
  message: string;
  type: ColumnType<NotificationType, NotificationType | undefined, NotificationType>;
  priority: ColumnType<NotificationPriority, NotificationPriority | undefined, NotificationPriority>;
  category: ColumnType<NotificationCategory, NotificationCategory | undefined, NotificationCategory>;
  targetCompanyId: number | null;
  targetDepartmentId: number | null;
  /** This role and every role above it (owner > admin > editor > viewer). */
  targetUserRole: Role | null;
  targetUserId: number | null;
  /** Only users without a company scope. */
  targetGroupWide: ColumnType<boolean, boolean | undefined, boolean>;
  actionUrl: string | null;
  actionText: string | null;
  relatedTable: string | null;
  relatedRecordId: number | null;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  expiresAt: string | null;
  createdBy: number | null;
  updatedBy: number | null;
  createdAt: Instant;
  updatedAt: Instant;
  /** How many times the event happened: a repeat within the window updates the unread notification (migration 0037). */
  repeatCount: ColumnType<number, number | undefined, number>;
  /** The words as messages and values (JSON of NoticeTexts), for each reader's language; null when typed by an admin (migration 0045). */
  texts: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface UserNotificationSettingsTable {
  id: Generated<number>;
  userId: number;
  notificationId: number;
  isRead: ColumnType<boolean, boolean | undefined, boolean>;
  readAt: string | null;
  isDismissed: ColumnType<boolean, boolean | undefined, boolean>;
  dismissedAt: string | null;
}

/** Migration 0025: a user's bell count as last computed, and what it was computed from. */
export interface NotificationBadgesTable {
  userId: number;
  /** Bumped by every write of the user's notification states. */
  stateVersion: Generated<number>;
  countedStateVersion: number | null;
  /** The notifications' change token the count was computed from. */
  countedToken: string | null;
  /** The reader's role, company and enabled categories the count was computed for. */
  scope: string | null;
  total: Generated<number>;
  unread: Generated<number>;
  /** The count per category as JSON (CategoryCounts), null until counted so (migration 0030). */
  byCategory: string | null;
  countedAt: string | null;
  /** The first expiry of any notification after countedAt (null: none). */
  nextExpiry: string | null;
}

export interface PushSubscriptionsTable {
  id: Generated<number>;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
  createdAt: Instant;
  updatedAt: Instant;
  lastSuccessAt: string | null;
  failingSince: string | null;
  failureCount: ColumnType<number, number | undefined, number>;
  lastError: string | null;
}

export const INSIGHT_TYPES = ['trend', 'forecast', 'optimization', 'alert'] as const;
export type InsightType = (typeof INSIGHT_TYPES)[number];
export type InsightPriority = 'critical' | 'high' | 'medium' | 'low';
export type InsightImpact = 'positive' | 'negative' | 'neutral';

export interface AiInsightsTable {
  id: Generated<number>;
  /** null: the whole group. */
  companyId: number | null;
  type: InsightType;
  priority: InsightPriority;
  impact: InsightImpact;
  title: string;
  description: string;
  actionItems: Json<string[]>;
  generatedAt: Instant;
  /** Written by the language model (a summary of the computed insights). */
  narrated: ColumnType<boolean, boolean | undefined, boolean>;
  /** Migration 0046: title, description and action items in each other language (JSON by language). */
  texts: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AiChatMessagesTable {
  id: Generated<number>;
  /** The sign-in session (user_sessions.session_id) the conversation belongs to. */
  sessionId: string;
  userId: number;
  type: 'user' | 'assistant';
  content: string;
  companyId: number | null;
  topic: string | null;
  createdAt: ColumnType<string, string | undefined, never>;
}

export const AUTH_TYPES = ['none', 'bearer', 'api_key', 'basic', 'oauth2'] as const;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export const SYNC_DIRECTIONS = ['inbound', 'outbound'] as const;
/** partial: the run ended but skipped records (their reasons are in its syncData). */
export type SyncStatus = 'running' | 'success' | 'partial' | 'failed';

export interface ApiIntegrationSourcesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  baseUrl: string;
  authType: ColumnType<
    (typeof AUTH_TYPES)[number],
    (typeof AUTH_TYPES)[number] | undefined,
    (typeof AUTH_TYPES)[number]
  >;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  createdBy: number | null;
  createdAt: Instant;
  updatedAt: Instant;
}

export interface ApiIntegrationEndpointsTable {
  id: Generated<number>;
  sourceId: number;
  name: string;
  endpoint: string;
  method: ColumnType<
    (typeof HTTP_METHODS)[number],
    (typeof HTTP_METHODS)[number] | undefined,
    (typeof HTTP_METHODS)[number]
  >;
  direction: ColumnType<
    (typeof SYNC_DIRECTIONS)[number],
    (typeof SYNC_DIRECTIONS)[number] | undefined,
    (typeof SYNC_DIRECTIONS)[number]
  >;
  targetTable: string;
  /** JSON text (see app/features/integrations/integration-mapping.ts). */
  mappingConfig: string | null;
  syncFrequency: ColumnType<string, string | undefined, string>;
  webhookConfig: string | null;
  description: string | null;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  lastSyncAt: string | null;
  /** The company the endpoint files rows into and resolves names within; null: each record names its own. */
  companyId: number | null;
  createdBy: number | null;
  createdAt: Instant;
  updatedAt: Instant;
}

export interface ApiIntegrationCredentialsTable {
  id: Generated<number>;
  sourceId: number;
  credentialKey: string;
  /** Encrypted: base64url(iv ‖ tag ‖ ciphertext). */
  credentialValue: string;
  keyId: string;
  description: string | null;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  expiresAt: string | null;
  createdBy: number | null;
  createdAt: Instant;
  /** scheme://host[:port] the credential was entered for; it is sent nowhere else. */
  origin: string | null;
  /** 1: sealed without associated data (before migration 0018); 2: the origin sealed in as associated data. */
  sealVersion: ColumnType<number, number | undefined, number>;
}

export interface ApiIntegrationSyncLogsTable {
  id: Generated<number>;
  endpointId: number;
  status: SyncStatus;
  startedAt: Instant;
  completedAt: string | null;
  recordsProcessed: ColumnType<number, number | undefined, number>;
  recordsCreated: ColumnType<number, number | undefined, number>;
  recordsUpdated: ColumnType<number, number | undefined, number>;
  recordsSkipped: ColumnType<number, number | undefined, number>;
  recordsFailed: ColumnType<number, number | undefined, number>;
  requests: ColumnType<number, number | undefined, number>;
  syncDuration: number | null;
  responseTime: number | null;
  errorMessage: string | null;
  /** JSON: `errorMessage` in each language other than English (migration 0047). */
  errorTexts: string | null;
  syncData: string | null;
  triggeredBy: number | null;
  /** The run holding the log (one worker at a time), until lease_expires_at unless renewed. */
  leaseToken: string | null;
  leaseExpiresAt: string | null;
}

export interface ApiIntegrationRecordsTable {
  id: Generated<number>;
  endpointId: number;
  externalKey: string;
  targetTable: string;
  recordId: number;
  syncedAt: Instant;
}

export interface Database {
  companies: CompaniesTable;
  departments: DepartmentsTable;
  expenseCategories: ExpenseCategoriesTable;
  users: UsersTable;
  userSessions: UserSessionsTable;
  userSettings: UserSettingsTable;
  userTwoFactor: UserTwoFactorTable;
  twoFactorChallenges: TwoFactorChallengesTable;
  systemSettings: SystemSettingsTable;
  imports: ImportsTable;
  auditLogs: AuditLogsTable;
  dataVersions: DataVersionsTable;
  loginAttempts: LoginAttemptsTable;
  rateLimitCounters: RateLimitCountersTable;
  workLeases: WorkLeasesTable;
  budgets: BudgetsTable;
  actualExpenses: ActualExpensesTable;
  revenueProjections: RevenueProjectionsTable;
  actualRevenue: ActualRevenueTable;
  subscriberMetrics: SubscriberMetricsTable;
  broadbandConnections: BroadbandConnectionsTable;
  mobileSubscriptions: MobileSubscriptionsTable;
  mobileAccessMethods: MobileAccessMethodsTable;
  networkBroadbandRecords: NetworkBroadbandRecordsView;
  networkSubscriptionPatterns: NetworkSubscriptionPatternsView;
  networkAccessRecords: NetworkAccessRecordsView;
  vultSubscriberMetrics: VultSubscriberMetricsTable;
  vultSubscriberLevels: VultSubscriberLevelsTable;
  vultCardTypes: VultCardTypesTable;
  rowCounts: RowCountsTable;
  auditCounts: AuditCountsTable;
  auditDays: AuditDaysTable;
  auditCreateMonths: AuditCreateMonthsTable;
  auditUserCounts: AuditUserCountsTable;
  changeTokens: ChangeTokensTable;
  dayCounts: DayCountsTable;
  expenseMonthTotals: ExpenseMonthTotalsTable;
  revenueMonthTotals: RevenueMonthTotalsTable;
  budgetMonthPlans: BudgetMonthPlansTable;
  projectionMonthPlans: ProjectionMonthPlansTable;
  systemErrors: SystemErrorsTable;
  recoveryActions: RecoveryActionsTable;
  healthSnapshots: HealthSnapshotsTable;
  securityAnomalies: SecurityAnomaliesTable;
  backups: BackupsTable;
  notifications: NotificationsTable;
  userNotificationSettings: UserNotificationSettingsTable;
  notificationBadges: NotificationBadgesTable;
  pushSubscriptions: PushSubscriptionsTable;
  aiInsights: AiInsightsTable;
  aiChatMessages: AiChatMessagesTable;
  changeCounters: ChangeCountersTable;
  expenseAnomalyRuns: ExpenseAnomalyRunsTable;
  activityWindowRuns: ActivityWindowRunsTable;
  activityUserWindow: ActivityUserWindowTable;
  activityScopeWindow: ActivityScopeWindowTable;
  expenseAnomalies: ExpenseAnomaliesTable;
  expenseAnomalyDays: ExpenseAnomalyDaysTable;
  apiIntegrationSources: ApiIntegrationSourcesTable;
  apiIntegrationEndpoints: ApiIntegrationEndpointsTable;
  apiIntegrationCredentials: ApiIntegrationCredentialsTable;
  apiIntegrationSyncLogs: ApiIntegrationSyncLogsTable;
  apiIntegrationRecords: ApiIntegrationRecordsTable;
}

export type Company = Selectable<CompaniesTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type UserSession = Selectable<UserSessionsTable>;
export type AuditLog = Selectable<AuditLogsTable>;

/** Column names (camelCase) stored as 0/1 on SQLite; read back as booleans. */
export const BOOLEAN_COLUMNS = new Set<string>([
  'isActive',
  'isTemporaryPassword',
  'passwordChangeRequired',
  'rememberMe',
  'requireTwoFactorForAdmins',
  'updateById',
  'runHere',
  'succeeded',
  'emailNotifications',
  'pushNotifications',
  'shareActivityStatus',
  'shareProfileInfo',
  'reportEmails',
  'securityAlerts',
  'compactSidebar',
  'animations',
  'canAccessFinancialData',
  'canAccessSubscriberData',
  'canAccessApiIntegrations',
  'canAccessAnalytics',
  'canAccessAuditLogs',
  'canAccessBackups',
  'canCreate',
  'canEdit',
  'canDelete',
  'canManageUsers',
  'isResolved',
  'isRead',
  'isDismissed',
  'targetGroupWide',
  'includeAuditLogs',
  'includeVersions',
  'narrated',
]);

/** Column names (camelCase) holding JSON: text on SQLite, jsonb on PostgreSQL. */
export const JSON_COLUMNS = new Set<string>([
  'notificationTypes',
  'dashboardLayout',
  'oldData',
  'newData',
  'changes',
  'data',
  'details',
  'loadAverage',
  'tables',
  'tableCounts',
  'actionItems',
]);
