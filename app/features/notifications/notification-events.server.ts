// The notifications the product sends, worded in one place. Each is sent after the
// event's own write has succeeded and never fails it (notifyQuietly). Targeting rules:
// - a user's own account events go to that user;
// - user-management events go to admins of the user's company (group-wide admins see every
//   company's; a group-wide user's events only reach group-wide admins);
// - events of the whole installation (jobs, backups, restores) go to group-wide admins.
import { actorLabel, type AuthUser, type ServiceContext } from '../../platform/context.ts';
import { notifyQuietly, type NotificationTarget } from './notifications.server.ts';

const adminsOfCompany = (companyId: number | null): NotificationTarget =>
  companyId === null ? { role: 'admin', groupWide: true } : { role: 'admin', companyId };
const installationAdmins: NotificationTarget = { role: 'admin', groupWide: true };

const byWhom = (ctx: ServiceContext) => (ctx.actor.kind === 'user' ? ctx.actor.user.username : 'the system');

export function temporaryPasswordIssued(ctx: ServiceContext, user: Pick<AuthUser, 'id'>): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    priority: 'high',
    category: 'security',
    title: 'Temporary password issued',
    message: `A temporary password was issued for your account by ${byWhom(ctx)}. Choose a new password now; if you did not expect this, tell your administrator.`,
    actionUrl: '/profile',
    actionText: 'View profile',
    to: { userId: user.id },
    relatedTable: 'users',
    relatedRecordId: user.id,
  });
}

export function passwordChanged(ctx: ServiceContext, user: Pick<AuthUser, 'id'>, bySelf: boolean): Promise<void> {
  return notifyQuietly(ctx, {
    type: bySelf ? 'success' : 'warning',
    priority: bySelf ? 'medium' : 'high',
    category: 'security',
    title: 'Password changed',
    message: bySelf
      ? 'Your password was changed and your other sessions were signed out. If this was not you, tell your administrator at once.'
      : `Your password was set by ${byWhom(ctx)}; you will choose a new one when you next sign in. If you did not expect this, tell your administrator.`,
    actionUrl: '/profile',
    actionText: 'View profile',
    to: { userId: user.id },
    relatedTable: 'users',
    relatedRecordId: user.id,
  });
}

export function userCreated(
  ctx: ServiceContext,
  user: Pick<AuthUser, 'id' | 'username' | 'role' | 'companyId'>,
): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'info',
    category: 'user',
    title: 'User created',
    message: `${byWhom(ctx)} created the account ${user.username} (${user.role}).`,
    actionUrl: `/user-management?q=${encodeURIComponent(user.username)}`,
    actionText: 'Open user management',
    to: adminsOfCompany(user.companyId),
    relatedTable: 'users',
    relatedRecordId: user.id,
  });
}

export function userDeactivated(
  ctx: ServiceContext,
  user: Pick<AuthUser, 'id' | 'username' | 'companyId'>,
  endedSessions: number,
): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    category: 'user',
    title: 'User deactivated',
    message: `${byWhom(ctx)} deactivated the account ${user.username}${endedSessions ? `; ${endedSessions} active session${endedSessions === 1 ? ' was' : 's were'} ended` : ''}.`,
    actionUrl: `/user-management?q=${encodeURIComponent(user.username)}`,
    actionText: 'Open user management',
    to: adminsOfCompany(user.companyId),
    relatedTable: 'users',
    relatedRecordId: user.id,
  });
}

/** Jobs whose failure must not notify: their notification would be pushed by the failing job itself. */
const PUSH_JOBS = new Set(['notification-push', 'push-send']);

export function jobDeadLettered(
  ctx: ServiceContext,
  job: string,
  message: string,
  systemErrorId: number | null,
): Promise<void> {
  if (PUSH_JOBS.has(job)) return Promise.resolve();
  return notifyQuietly(ctx, {
    type: 'error',
    priority: 'high',
    category: 'system',
    title: 'Background job failed',
    message: `The ${job} job failed after all its retries: ${message.slice(0, 500)}`,
    actionUrl: '/system-monitoring',
    actionText: 'Open system monitoring',
    to: installationAdmins,
    relatedTable: systemErrorId ? 'system_errors' : null,
    relatedRecordId: systemErrorId,
    once: true,
  });
}

/** Where a sync run's notices lead and whom they reach: the installation's admins, once per run. */
const aboutSyncLog = (logId: number) =>
  ({
    actionUrl: '/api-integrations?tab=logs',
    actionText: 'Open the sync logs',
    to: installationAdmins,
    relatedTable: 'api_integration_sync_logs',
    relatedRecordId: logId,
    once: true,
  }) as const;

/** A sync run failed: the installation's admins, once per run. */
export function integrationSyncFailed(
  ctx: ServiceContext,
  run: { logId: number; endpointName: string; sourceName: string; message: string },
): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'error',
    priority: 'high',
    category: 'api',
    title: 'API sync failed',
    message: `${run.sourceName} · ${run.endpointName}: ${run.message.slice(0, 500)}`,
    ...aboutSyncLog(run.logId),
  });
}

export function integrationSyncPartial(
  ctx: ServiceContext,
  run: { logId: number; endpointName: string; sourceName: string; skipped: number; first: string },
): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    priority: 'medium',
    category: 'api',
    title: 'API sync skipped records',
    message: `${run.sourceName} · ${run.endpointName}: ${run.skipped} record${run.skipped === 1 ? '' : 's'} skipped; first: ${run.first.slice(0, 400)}`,
    ...aboutSyncLog(run.logId),
  });
}

export function securityAnomaly(
  ctx: ServiceContext,
  anomaly: { id?: number; username: string; companyId: number | null; deleteCount: number; windowMinutes: number },
): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    priority: 'high',
    category: 'security',
    title: 'Security anomaly detected',
    message: `${anomaly.username} deleted ${anomaly.deleteCount} records within ${anomaly.windowMinutes} minutes. This may indicate unauthorized access or data manipulation.`,
    actionUrl: '/audit-trail?tab=anomalies',
    actionText: 'Review anomalies',
    to: adminsOfCompany(anomaly.companyId),
    relatedTable: 'security_anomalies',
    relatedRecordId: anomaly.id ?? null,
  });
}

export function backupFinished(
  ctx: ServiceContext,
  backup: {
    id: number;
    name: string;
    status: string;
    error?: string | null;
    createdBy: number | null;
    recordCount?: number;
  },
): Promise<void> {
  const ok = backup.status === 'completed';
  return notifyQuietly(ctx, {
    type: ok ? 'success' : 'error',
    priority: ok ? 'low' : 'high',
    category: 'system',
    title: ok ? 'Backup completed' : 'Backup failed',
    message: ok
      ? `The backup "${backup.name}" is complete${backup.recordCount !== undefined ? ` (${backup.recordCount.toLocaleString('en-US')} records)` : ''}.`
      : `The backup "${backup.name}" failed: ${(backup.error ?? 'unknown error').slice(0, 500)}`,
    actionUrl: '/backup-recovery',
    actionText: 'Open Backup & Recovery',
    // Whoever asked hears how it ended; a scheduled backup's outcome goes to the admins.
    to: backup.createdBy !== null ? { userId: backup.createdBy } : installationAdmins,
    relatedTable: 'backups',
    relatedRecordId: backup.id,
    // A failed attempt is retried by its job: one failure notice per backup.
    once: true,
  });
}

export function backupRestored(
  ctx: ServiceContext,
  restore: { backupId: number | null; backupName: string | null; overwrite: boolean; rows: number; tables: number },
): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'success',
    priority: 'high',
    category: 'system',
    title: 'Backup restored',
    message: `${actorLabel(ctx.actor)} restored ${restore.backupName ? `the backup "${restore.backupName}"` : 'a backup file'}${restore.overwrite ? ', replacing the current data' : ''}: ${restore.rows.toLocaleString('en-US')} rows in ${restore.tables} tables.`,
    actionUrl: '/backup-recovery',
    actionText: 'Open Backup & Recovery',
    to: installationAdmins,
    relatedTable: 'backups',
    relatedRecordId: restore.backupId,
  });
}

const ownSecurityNotice = (user: Pick<AuthUser, 'id'>) => ({
  category: 'security' as const,
  actionUrl: '/two-factor',
  actionText: 'Open two-factor settings',
  to: { userId: user.id },
  relatedTable: 'users',
  relatedRecordId: user.id,
});

export function twoFactorTurnedOn(ctx: ServiceContext, user: Pick<AuthUser, 'id'>): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'success',
    title: 'Two-factor authentication turned on',
    message:
      'Signing in to your account now needs a code from your authenticator app. Keep your recovery codes somewhere safe.',
    ...ownSecurityNotice(user),
  });
}

export function twoFactorTurnedOff(ctx: ServiceContext, user: Pick<AuthUser, 'id'>): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    priority: 'high',
    title: 'Two-factor authentication turned off',
    message: 'Your account signs in with its password alone now. If this was not you, tell your administrator at once.',
    ...ownSecurityNotice(user),
  });
}

export function twoFactorReset(ctx: ServiceContext, user: Pick<AuthUser, 'id'>): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    priority: 'high',
    title: 'Two-factor authentication reset',
    message: `Your second factor was removed by ${byWhom(ctx)} and your sessions were signed out. Set it up again now; if you did not ask for this, tell your administrator.`,
    ...ownSecurityNotice(user),
  });
}

export function twoFactorFailures(ctx: ServiceContext, user: Pick<AuthUser, 'id'>, failures: number): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'error',
    priority: 'high',
    title: 'Wrong two-factor codes',
    message: `Someone entered your password correctly and then ${failures} wrong two-factor codes. If this was not you, change your password now.`,
    ...ownSecurityNotice(user),
    actionUrl: '/change-password',
    actionText: 'Change password',
  });
}

/** A CSV import that ran as a job ended: its user hears how (a small one was watched on the screen). */
export function importFinished(
  ctx: ServiceContext,
  run: { id: number; userId: number; title: string; phase: string; status: string; message: string },
): Promise<void> {
  const ok = run.status === 'completed' || run.status === 'checked';
  const checked = run.phase === 'check';
  return notifyQuietly(ctx, {
    type: ok ? 'success' : 'error',
    priority: ok ? 'low' : 'medium',
    category: 'financial',
    title: checked ? 'Import file checked' : ok ? 'Import completed' : 'Import failed',
    message: `${run.title}: ${run.message}`,
    actionUrl: `/imports?id=${run.id}`,
    actionText: 'Open the import',
    to: { userId: run.userId },
    relatedTable: 'imports',
    relatedRecordId: run.id,
  });
}
