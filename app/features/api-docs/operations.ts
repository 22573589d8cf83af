// The registry of the /api calls that are not declared resources (those come from the resource
// routes themselves, see document.server.ts): method, path, who may call it (the same rule
// objects the routes enforce), the zod schemas the routes validate with, and the answer. The
// OpenAPI document and the API Documentation page are built from it; a test checks it against
// the built routes, rule by rule, so it cannot drift.
import type { z } from 'zod';
import { ChatRequest } from '../ai/index.server.ts';
import { PredictionRequest } from '../ai/index.server.ts';
import { AnomalyRequest } from '../ai/index.server.ts';
import { StreamQuestion } from '../ai/index.server.ts';
import {
  BudgetAnalysisAnswer,
  ChatReplyAnswer,
  ChatStreamAnswer,
  ExpenseAnomalyListAnswer,
  ExpensePredictionListAnswer,
  InsightListAnswer,
} from '../ai/index.server.ts';
import { AuditQuerySchema, VersionQuerySchema } from '../audit/index.server.ts';
import {
  AnomalyListAnswer,
  AuditLogListAnswer,
  DataVersionListAnswer,
  VersionRestoreAnswer,
} from '../audit/index.server.ts';
import { RestoreBody } from '../backups/index.server.ts';
import { ImportAnswer, ImportRequest } from '../imports/index.server.ts';
import { BackupRequest } from '../backups/index.server.ts';
import {
  BackupAnswer,
  BackupListAnswer,
  RestoreResultAnswer,
  TableCsvAnswer,
  VerificationAnswer,
} from '../backups/index.server.ts';
import { ActivitiesQuery } from '../dashboards/index.server.ts';
import {
  DashboardAnswer,
  EditedRowAnswer,
  EditorActivityListAnswer,
  EditorMetricsAnswer,
  EditorStatsAnswer,
} from '../dashboards/index.server.ts';
import { CredentialRequest } from '../integrations/index.server.ts';
import { SyncLogQuery, SyncRequest } from '../integrations/index.server.ts';
import {
  CredentialSummaryAnswer,
  PerformanceAnalysisAnswer,
  RecommendationListAnswer,
  SyncLogListAnswer,
  SyncStartedAnswer,
  TimelineListAnswer,
} from '../integrations/index.server.ts';
import { NotificationQuerySchema } from '../notifications/index.server.ts';
import { SubscribeBody, UnsubscribeSchema } from '../notifications/index.server.ts';
import {
  MarkAllReadAnswer,
  NotificationCountAnswer,
  NotificationListAnswer,
  SubscribedAnswer,
  TestPushAnswer,
  UnsubscribedAnswer,
  VapidKeyAnswer,
} from '../notifications/index.server.ts';
import { ErrorQuery, PageQuery, ResolveRequest } from '../system/index.server.ts';
import {
  RecoveryActionListAnswer,
  SystemErrorAnswer,
  SystemErrorListAnswer,
  SystemHealthAnswer,
} from '../system/index.server.ts';
import { OpenApiDocumentAnswer } from './answers.ts';
import { ChangePasswordSchema, LoginSchema, PasswordChangeBody, TwoFactorSignInSchema } from '../auth/index.ts';
import {
  LoginStepAnswer,
  LogoutAnswer,
  SIGNED_IN_USER_EXAMPLE,
  SignedInUserAnswer,
  TwoFactorSignedInAnswer,
} from '../auth/index.server.ts';
import { ProfileSchema, UserSettingsPatchSchema } from '../settings/index.server.ts';
import {
  ActivityHistoryQuerySchema,
  CreateUserSchema,
  PermissionsSchema,
  UpdateUserSchema,
  UserListQuerySchema,
} from '../users/index.server.ts';
import { UserSettingsAnswer } from '../settings/index.server.ts';
import {
  ActivityAnalyticsAnswer,
  ActivityHistoryAnswer,
  ActivityPatchBody,
  ActivityStatisticsAnswer,
  CreatedUserAnswer,
  PasswordChangedAnswer,
  TemporaryPasswordAnswer,
  UserAnswer,
  UserPageAnswer,
  UserStatsAnswer,
} from '../users/index.server.ts';
import { allow, type AccessRule, type Method } from '../../platform/screen/route-access.ts';
import { msg } from '../../platform/i18n/messages.ts';

export interface ApiOperation {
  method: Method;
  /** OpenAPI spelling: '/api/users/{id}'. */
  path: string;
  tag: string;
  summary: string;
  /** The rule the route enforces (app/platform/screen/route-access.ts). */
  rule: AccessRule;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Several bodies are accepted (oneOf). */
  bodies?: z.ZodType[];
  success: {
    status: number;
    description: string;
    example?: unknown;
    contentType?: string;
    /** What the answer holds: the zod schema the code builds it by, or a reference to a component schema. */
    schema?: z.ZodType | { $ref: string } | { type: 'array'; items: { $ref: string } };
  };
  /** A paged list: limit/offset, X-Total-Count and Link headers. */
  paged?: boolean;
  /** What it reads or writes belongs to one company: a user limited to another gets a 404. */
  oneCompany?: boolean;
  /** A sign-in step: wrong credentials, or a challenge that has ended, answer 401. */
  signIn?: boolean;
  /** The request body is a file (an import's CSV), not JSON. */
  upload?: true;
}

const ok = (description: string, example?: unknown) => ({ status: 200, description, example });
const created = (description: string, example?: unknown) => ({ status: 201, description, example });
const noContent = { status: 204, description: 'Done; no body' };

export const OPERATIONS: readonly ApiOperation[] = [
  // Authentication
  {
    method: 'POST',
    path: '/api/auth/login',
    tag: msg('Authentication'),
    summary: msg(
      'Sign in: sets the session cookie; for a user with two-factor, answers twoFactorRequired and a challenge instead (no session yet)',
    ),
    rule: allow.public,
    signIn: true,
    body: LoginSchema,
    success: {
      ...ok('The signed-in user, or the second factor needed', { success: true, user: SIGNED_IN_USER_EXAMPLE }),
      schema: LoginStepAnswer,
    },
  },
  {
    method: 'POST',
    path: '/api/auth/two-factor',
    tag: msg('Authentication'),
    summary: msg(
      'Finish a sign-in with an authenticator code or a recovery code: sets the session cookie (401 when the challenge has ended)',
    ),
    rule: allow.public,
    signIn: true,
    body: TwoFactorSignInSchema,
    success: {
      ...ok('The signed-in user', { success: true, user: SIGNED_IN_USER_EXAMPLE, recoveryCodesLeft: 10 }),
      schema: TwoFactorSignedInAnswer,
    },
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    tag: msg('Authentication'),
    summary: msg('Sign out: ends the session'),
    rule: allow.public,
    success: { ...ok('Signed out', { success: true }), schema: LogoutAnswer },
  },
  {
    method: 'GET',
    path: '/api/auth/me',
    tag: msg('Authentication'),
    summary: msg('The signed-in user'),
    rule: allow.signedIn,
    success: { ...ok('The user', SIGNED_IN_USER_EXAMPLE), schema: SignedInUserAnswer },
  },
  {
    method: 'GET',
    path: '/api/auth/user',
    tag: msg('Authentication'),
    summary: msg('The signed-in user (same as /api/auth/me)'),
    rule: allow.signedIn,
    success: { ...ok('The user', SIGNED_IN_USER_EXAMPLE), schema: SignedInUserAnswer },
  },
  {
    method: 'POST',
    path: '/api/auth/change-password',
    tag: msg('Authentication'),
    summary: msg('Change one’s own password (ends the other sessions)'),
    rule: allow.signedIn,
    body: ChangePasswordSchema,
    success: { ...ok('Changed'), schema: PasswordChangedAnswer },
  },

  // Dashboard and system
  {
    method: 'GET',
    path: '/api/dashboard',
    tag: msg('Dashboard'),
    summary: msg('The dashboard: userAccess and every figure the user may see (null otherwise)'),
    rule: allow.signedIn,
    success: { ...ok('The dashboard'), schema: DashboardAnswer },
  },
  {
    method: 'GET',
    path: '/api/system/health',
    tag: msg('System'),
    summary: msg('Health measured now, this process’s traffic and 24 hours of snapshots'),
    rule: allow.to('installation'),
    success: { ...ok('System health'), schema: SystemHealthAnswer },
  },
  {
    method: 'GET',
    path: '/api/system/errors',
    tag: msg('System'),
    summary: msg('Captured server errors and job failures, unresolved first'),
    rule: allow.to('installation'),
    query: ErrorQuery,
    paged: true,
    success: { ...ok('Errors'), schema: SystemErrorListAnswer },
  },
  {
    method: 'POST',
    path: '/api/system/errors/{id}/resolve',
    tag: msg('System'),
    summary: msg('Resolve an error with notes (409 when already resolved)'),
    rule: allow.to('installation'),
    body: ResolveRequest,
    success: { ...ok('The resolved error'), schema: SystemErrorAnswer },
  },
  {
    method: 'GET',
    path: '/api/system/recovery-actions',
    tag: msg('System'),
    summary: msg('Recovery actions, newest first'),
    rule: allow.to('installation'),
    query: PageQuery,
    paged: true,
    success: { ...ok('Recovery actions'), schema: RecoveryActionListAnswer },
  },
  {
    method: 'GET',
    path: '/api/openapi.json',
    tag: msg('System'),
    summary: msg('This document'),
    rule: allow.signedIn,
    success: { ...ok('OpenAPI 3.1'), schema: OpenApiDocumentAnswer },
  },

  // Users
  {
    method: 'GET',
    path: '/api/users',
    tag: msg('Users'),
    summary: msg('Users, paged'),
    rule: allow.to('users'),
    query: UserListQuerySchema,
    success: { ...ok('{ users, total, totalPages }'), schema: UserPageAnswer },
  },
  {
    method: 'POST',
    path: '/api/users',
    tag: msg('Users'),
    summary: msg('Create a user'),
    rule: allow.to('users', 'create'),
    body: CreateUserSchema,
    success: {
      ...created('The user (and the generated password, once, when the body said temporaryPassword: true)'),
      schema: CreatedUserAnswer,
    },
  },
  {
    method: 'GET',
    path: '/api/users/{id}',
    tag: msg('Users'),
    summary: msg('One user (oneself, or a user manager)'),
    rule: allow.self({ area: 'users', action: 'read' }),
    success: { ...ok('The user'), schema: UserAnswer },
  },
  {
    method: 'PUT',
    path: '/api/users/{id}',
    tag: msg('Users'),
    summary: msg('Edit a user'),
    rule: allow.to('users', 'edit'),
    body: UpdateUserSchema,
    success: { ...ok('The user'), schema: UserAnswer },
  },
  {
    method: 'PATCH',
    path: '/api/users/{id}',
    tag: msg('Users'),
    summary: msg('Edit one’s own profile'),
    rule: allow.self(undefined),
    body: ProfileSchema,
    success: { ...ok('The user, with the changed profile'), schema: UserAnswer },
  },
  {
    method: 'DELETE',
    path: '/api/users/{id}',
    tag: msg('Users'),
    summary: msg('Delete a user'),
    rule: allow.to('users', 'delete'),
    success: noContent,
  },
  {
    method: 'PUT',
    path: '/api/users/{id}/permissions',
    tag: msg('Users'),
    summary: msg('Set the ten permission flags'),
    rule: allow.to('users', 'edit'),
    body: PermissionsSchema,
    success: { ...ok('The user'), schema: UserAnswer },
  },
  {
    method: 'PUT',
    path: '/api/users/{id}/deactivate',
    tag: msg('Users'),
    summary: msg('Deactivate (ends the user’s sessions)'),
    rule: allow.to('users', 'edit'),
    success: { ...ok('The user'), schema: UserAnswer },
  },
  {
    method: 'PUT',
    path: '/api/users/{id}/reactivate',
    tag: msg('Users'),
    summary: msg('Reactivate'),
    rule: allow.to('users', 'edit'),
    success: { ...ok('The user'), schema: UserAnswer },
  },
  {
    method: 'POST',
    path: '/api/users/{id}/temporary-password',
    tag: msg('Users'),
    summary: msg('Issue a temporary password (shown once)'),
    rule: allow.to('users', 'edit'),
    success: { ...ok('{ temporaryPassword }'), schema: TemporaryPasswordAnswer },
  },
  {
    method: 'POST',
    path: '/api/users/{id}/change-password',
    tag: msg('Users'),
    summary: msg('Change one’s own password, or (a manager) another user’s'),
    rule: allow.self({ area: 'users', action: 'edit' }),
    body: PasswordChangeBody,
    success: { ...ok('Changed'), schema: PasswordChangedAnswer },
  },
  {
    method: 'GET',
    path: '/api/users/stats',
    tag: msg('Users'),
    summary: '{ totalUsers, activeUsers, inactiveUsers, usersByRole }',
    rule: allow.to('users'),
    success: { ...ok('User statistics'), schema: UserStatsAnswer },
  },
  {
    method: 'GET',
    path: '/api/users/activity/analytics',
    tag: msg('Users'),
    summary: msg(
      'Activity analytics from sessions and the audit trail (entries and edits as the activity-window job last counted them: computedAt)',
    ),
    rule: allow.to('users'),
    success: { ...ok('{ summary, users }'), schema: ActivityAnalyticsAnswer },
  },
  {
    method: 'GET',
    path: '/api/users/activity/statistics',
    tag: msg('Users'),
    summary: msg('Counts over the audit trail (as last counted: computedAt, since) and sessions'),
    rule: allow.to('users'),
    success: { ...ok('Statistics'), schema: ActivityStatisticsAnswer },
  },
  {
    method: 'GET',
    path: '/api/users/activity/history',
    tag: msg('Users'),
    summary: msg('Activity events, 25 a page'),
    rule: allow.to('users'),
    query: ActivityHistoryQuerySchema,
    success: { ...ok('{ events, total, totalPages }'), schema: ActivityHistoryAnswer },
  },
  {
    method: 'GET',
    path: '/api/user-settings',
    tag: msg('Users'),
    summary: msg('One’s own settings'),
    rule: allow.signedIn,
    success: { ...ok('Settings'), schema: UserSettingsAnswer },
  },
  {
    method: 'PUT',
    path: '/api/user-settings',
    tag: msg('Users'),
    summary: msg('Change any subset of one’s settings'),
    rule: allow.signedIn,
    body: UserSettingsPatchSchema,
    success: { ...ok('Settings'), schema: UserSettingsAnswer },
  },

  // Editors
  {
    method: 'GET',
    path: '/api/editor/metrics',
    tag: msg('Editors'),
    summary: msg('The signed-in editor’s own figures'),
    rule: allow.to('financial', 'create'),
    success: { ...ok('Editor metrics'), schema: EditorMetricsAnswer },
  },
  {
    method: 'GET',
    path: '/api/editor/activities',
    tag: msg('Editors'),
    summary: msg('The caller’s latest writes'),
    rule: allow.to('financial', 'create'),
    query: ActivitiesQuery,
    success: { ...ok('Activities'), schema: EditorActivityListAnswer },
  },
  {
    method: 'PATCH',
    path: '/api/editor/activities/{id}',
    tag: msg('Editors'),
    summary: msg('Change the row one of the caller’s activities is about (that resource’s rules apply)'),
    rule: allow.to('financial', 'edit'),
    body: ActivityPatchBody,
    success: { ...ok('The updated row (as its resource answers it)'), schema: EditedRowAnswer },
  },
  {
    method: 'GET',
    path: '/api/admin/editor-stats',
    tag: msg('Editors'),
    summary: msg(
      'Every editor ranked by activity score, with the summary and analytics (entries and edits as last counted: computedAt)',
    ),
    rule: allow.to('admin'),
    success: { ...ok('Editor statistics'), schema: EditorStatsAnswer },
  },
  {
    method: 'GET',
    path: '/api/admin/editor-activity-history',
    tag: msg('Editors'),
    summary: msg('The editors’ last 100 writes'),
    rule: allow.to('admin'),
    success: { ...ok('Activities'), schema: EditorActivityListAnswer },
  },

  // Audit trail
  {
    method: 'GET',
    path: '/api/audit-logs',
    tag: msg('Audit'),
    summary: msg('Audit entries, newest first'),
    rule: allow.to('auditLogs'),
    query: AuditQuerySchema,
    paged: true,
    success: { ...ok('Entries'), schema: AuditLogListAnswer },
  },
  {
    method: 'GET',
    path: '/api/audit-logs/anomalies',
    tag: msg('Audit'),
    summary: msg('Recorded security anomalies'),
    rule: allow.to('auditLogs'),
    success: { ...ok('Anomalies, newest first'), schema: AnomalyListAnswer },
  },
  {
    method: 'GET',
    path: '/api/data-versions',
    tag: msg('Audit'),
    summary: msg('The versions of one record'),
    rule: allow.to('auditLogs'),
    query: VersionQuerySchema,
    success: { ...ok('Versions, newest first'), schema: DataVersionListAnswer },
  },
  {
    method: 'POST',
    path: '/api/data-versions/{id}/restore',
    tag: msg('Audit'),
    summary: msg('Restore a record to a version (audited)'),
    rule: allow.to('auditLogs'),
    success: { ...ok('{ restored, created, record }'), schema: VersionRestoreAnswer },
  },

  // Backups
  {
    method: 'GET',
    path: '/api/backups',
    tag: msg('Backups'),
    summary: msg('Every backup, newest first'),
    rule: allow.to('backups'),
    success: { ...ok('Backups'), schema: BackupListAnswer },
  },
  {
    method: 'POST',
    path: '/api/backups',
    tag: msg('Backups'),
    summary: msg('Create a backup (written by a job)'),
    rule: allow.to('backups', 'create'),
    body: BackupRequest,
    success: { ...created('The backup, in progress'), schema: BackupAnswer },
  },
  {
    method: 'POST',
    path: '/api/backups/scheduled',
    tag: msg('Backups'),
    summary: msg('A scheduled backup now'),
    rule: allow.to('installation', 'create'),
    success: { ...created('The backup, in progress'), schema: BackupAnswer },
  },
  {
    method: 'GET',
    path: '/api/backups/{id}',
    tag: msg('Backups'),
    summary: msg('One backup'),
    rule: allow.to('backups'),
    success: { ...ok('The backup'), schema: BackupAnswer },
  },
  {
    method: 'DELETE',
    path: '/api/backups/{id}',
    tag: msg('Backups'),
    summary: msg('Delete a backup and its file'),
    rule: allow.to('backups', 'delete'),
    success: noContent,
  },
  {
    method: 'GET',
    path: '/api/backups/{id}/verify',
    tag: msg('Backups'),
    summary: msg('Check the file against its stored SHA-256'),
    rule: allow.to('backups'),
    success: { ...ok('{ valid, reason? }'), schema: VerificationAnswer },
  },
  {
    method: 'POST',
    path: '/api/backups/{id}/restore',
    tag: msg('Backups'),
    summary: msg('Restore, all or nothing'),
    rule: allow.to('installation', 'edit'),
    body: RestoreBody,
    success: { ...ok('What was restored per table'), schema: RestoreResultAnswer },
  },
  {
    method: 'GET',
    path: '/api/export/{table}/csv',
    tag: msg('Backups'),
    summary: msg('One table as CSV'),
    rule: allow.to('backups'),
    success: { status: 200, description: 'CSV', contentType: 'text/csv', schema: TableCsvAnswer },
  },

  // Imports
  {
    method: 'POST',
    path: '/api/imports',
    tag: msg('Imports'),
    summary:
      'Import a CSV file into a table (its check with dryRun=true): a small file is done when this answers, a bigger one runs as a job (follow GET /api/imports/{id})',
    rule: allow.signedIn,
    query: ImportRequest,
    upload: true,
    success: { status: 202, description: 'The import', schema: ImportAnswer },
  },
  {
    method: 'GET',
    path: '/api/imports/{id}',
    tag: msg('Imports'),
    summary: msg('One of the caller’s imports: where it stands, its counts and the first refused rows'),
    rule: allow.signedIn,
    success: { ...ok('The import'), schema: ImportAnswer },
  },

  // Notifications
  {
    method: 'GET',
    path: '/api/notifications',
    tag: msg('Notifications'),
    summary: msg('The caller’s notifications'),
    rule: allow.signedIn,
    query: NotificationQuerySchema,
    paged: true,
    success: { ...ok('Notifications, newest first'), schema: NotificationListAnswer },
  },
  {
    method: 'GET',
    path: '/api/notifications/count',
    tag: msg('Notifications'),
    summary: '{ total, unread }',
    rule: allow.signedIn,
    success: { ...ok('Counts', { total: 4, unread: 1 }), schema: NotificationCountAnswer },
  },
  {
    method: 'POST',
    path: '/api/notifications/{id}/read',
    tag: msg('Notifications'),
    summary: msg('Mark as read'),
    rule: allow.signedIn,
    success: { ...ok('The new counts'), schema: NotificationCountAnswer },
  },
  {
    method: 'POST',
    path: '/api/notifications/{id}/dismiss',
    tag: msg('Notifications'),
    summary: msg('Dismiss'),
    rule: allow.signedIn,
    success: { ...ok('The new counts'), schema: NotificationCountAnswer },
  },
  {
    method: 'POST',
    path: '/api/notifications/mark-all-read',
    tag: msg('Notifications'),
    summary: msg('Mark all as read'),
    rule: allow.signedIn,
    success: { ...ok('{ total, unread, marked }'), schema: MarkAllReadAnswer },
  },
  {
    method: 'GET',
    path: '/api/notifications/vapid-public-key',
    tag: msg('Notifications'),
    summary: msg('The Web Push public key'),
    rule: allow.signedIn,
    success: { ...ok('{ publicKey }'), schema: VapidKeyAnswer },
  },
  {
    method: 'POST',
    path: '/api/notifications/subscribe',
    tag: msg('Notifications'),
    summary: msg('Subscribe this browser to Web Push'),
    rule: allow.signedIn,
    body: SubscribeBody,
    success: { ...created('{ subscribed }'), schema: SubscribedAnswer },
  },
  {
    method: 'POST',
    path: '/api/notifications/unsubscribe',
    tag: msg('Notifications'),
    summary: msg('Unsubscribe a browser (all without a body)'),
    rule: allow.signedIn,
    body: UnsubscribeSchema,
    success: { ...ok('{ removed }'), schema: UnsubscribedAnswer },
  },
  {
    method: 'POST',
    path: '/api/notifications/test',
    tag: msg('Notifications'),
    summary: msg('A test push to the caller’s browsers'),
    rule: allow.signedIn,
    success: { ...ok('{ sent, failed, removed }'), schema: TestPushAnswer },
  },

  // AI
  {
    method: 'POST',
    path: '/api/ai/predict-expenses',
    tag: msg('AI'),
    summary: msg('Expense predictions'),
    rule: allow.to('analytics'),
    body: PredictionRequest,
    success: { ...ok('Predictions, largest first'), schema: ExpensePredictionListAnswer },
  },
  {
    method: 'POST',
    path: '/api/ai/detect-anomalies',
    tag: msg('AI'),
    summary: msg(
      'Unusual expenses of the window as last computed, most severe first (X-Total-Count, X-Computed-At; 429 with Retry-After while the first computation runs)',
    ),
    rule: allow.to('analytics'),
    body: AnomalyRequest,
    success: { ...ok('Anomalies'), schema: ExpenseAnomalyListAnswer },
  },
  {
    method: 'GET',
    path: '/api/ai/budget-analysis/{id}/{year}',
    tag: msg('AI'),
    summary: msg('Budget against actual for a company and year'),
    rule: allow.to('analytics'),
    success: { ...ok('Budget analysis'), schema: BudgetAnalysisAnswer },
  },
  {
    method: 'GET',
    path: '/api/ai/insights',
    tag: msg('AI'),
    summary: msg('Stored insights, most pressing first'),
    rule: allow.to('analytics'),
    success: { ...ok('Insights'), schema: InsightListAnswer },
  },
  {
    method: 'POST',
    path: '/api/ai/chat',
    tag: msg('AI'),
    summary: msg('Ask a question about the books'),
    rule: allow.to('analytics'),
    body: ChatRequest,
    success: { ...ok('{ response, context }'), schema: ChatReplyAnswer },
  },
  {
    method: 'POST',
    path: '/api/ai/chat/stream',
    tag: msg('AI'),
    summary: msg('Ask in the session’s conversation; newline-delimited JSON'),
    rule: allow.to('analytics'),
    body: StreamQuestion,
    success: {
      status: 200,
      description: '{"delta"}… then {"done"} or {"error"}',
      contentType: 'application/x-ndjson',
      schema: ChatStreamAnswer,
    },
  },

  // API integrations (sources and endpoints are resources)
  {
    method: 'POST',
    path: '/api/api-integration-credentials',
    tag: msg('Integrations'),
    summary: msg('Add a credential (stored encrypted, never returned)'),
    rule: allow.to('integrations', 'create'),
    body: CredentialRequest,
    success: { ...created('The credential without its value'), schema: CredentialSummaryAnswer },
  },
  {
    method: 'POST',
    path: '/api/api-integration-sync/{id}',
    tag: msg('Integrations'),
    summary: msg('Start a sync run of an endpoint'),
    rule: allow.to('integrations', 'create'),
    body: SyncRequest,
    success: { status: 202, description: '{ message, syncLog }', schema: SyncStartedAnswer },
  },
  {
    method: 'GET',
    path: '/api/api-integration-sync-logs',
    tag: msg('Integrations'),
    summary: msg('Sync runs, newest first'),
    rule: allow.to('integrations'),
    query: SyncLogQuery,
    paged: true,
    success: { ...ok('Sync logs'), schema: SyncLogListAnswer },
  },
  {
    method: 'GET',
    path: '/api/api-integrations/sync-logs',
    tag: msg('Integrations'),
    summary: msg('Sync runs (the dashboard’s spelling)'),
    rule: allow.to('integrations'),
    query: SyncLogQuery,
    paged: true,
    success: { ...ok('Sync logs'), schema: SyncLogListAnswer },
  },
  {
    method: 'GET',
    path: '/api/api-performance-analysis',
    tag: msg('Integrations'),
    summary: msg('Success rate, answer time and score over 30 days'),
    rule: allow.to('integrations'),
    success: { ...ok('Performance'), schema: PerformanceAnalysisAnswer },
  },
  {
    method: 'GET',
    path: '/api/api-activity-timeline',
    tag: msg('Integrations'),
    summary: msg('The latest runs'),
    rule: allow.to('integrations'),
    success: { ...ok('Timeline'), schema: TimelineListAnswer },
  },
  {
    method: 'GET',
    path: '/api/api-recommendations',
    tag: msg('Integrations'),
    summary: msg('Recommendations from the runs and the audit trail'),
    rule: allow.to('integrations'),
    success: { ...ok('Recommendations, most pressing first'), schema: RecommendationListAnswer },
  },
];
