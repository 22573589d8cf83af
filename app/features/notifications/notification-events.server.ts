// i18n-area: shell
// The notifications the product sends, worded in one place. Each is sent after the
// event's own write has succeeded and never fails it (notifyQuietly). Targeting rules:
// - a user's own account events go to that user;
// - user-management events go to admins of the user's company (group-wide admins see every
//   company's; a group-wide user's events only reach group-wide admins);
// - events of the whole installation (jobs, backups, restores) go to group-wide admins.
// Their words are messages with values (docs/languages.md): the English is stored as the title
// and message the /api answers, the messages and values beside it, from which the bell (on every
// page: the shell's catalog holds them) and the notifications page speak each reader's language.
import { actorLabel, type AuthUser, type ServiceContext } from '../../platform/context.ts';
import { englishIcu } from '../../platform/i18n/english-icu.server.ts';
import { msg } from '../../platform/i18n/messages.ts';
import type { OtherWords } from '../../platform/i18n/refusal-words.ts';
import { notifyQuietly, type NotificationTarget, type NotifyInput } from './notifications.server.ts';
import type { NoticeText } from './shared.ts';

const adminsOfCompany = (companyId: number | null): NotificationTarget =>
  companyId === null ? { role: 'admin', groupWide: true } : { role: 'admin', companyId };
const installationAdmins: NotificationTarget = { role: 'admin', groupWide: true };

/** Who did it, for a message's `{who, select, system {the system} other {{by}}}`. */
const byWhom = (ctx: ServiceContext) =>
  ctx.actor.kind === 'user' ? { who: 'user', by: ctx.actor.user.username } : { who: 'system', by: '' };

const english = englishIcu();

const text = (message: string, values?: NoticeText['values'], words?: NoticeText['words']): NoticeText =>
  values ? { message, values, ...(words ? { words } : {}) } : { message };

/** A value's words in other languages, cut to the length its English is cut to. */
const cutWords = (key: string, words: OtherWords | undefined, length: number): NoticeText['words'] =>
  words && {
    [key]: Object.fromEntries(Object.entries(words).map(([locale, said]) => [locale, said.slice(0, length)])),
  };

/** A notice's title, message and action text: the English the /api answers, and the texts each reader's is made from. */
function worded(
  title: NoticeText,
  message: NoticeText,
  actionText?: NoticeText,
): Pick<NotifyInput, 'title' | 'message' | 'actionText' | 'texts'> {
  const say = (t: NoticeText) => english(t.message, t.values);
  return {
    title: say(title),
    message: say(message),
    ...(actionText ? { actionText: say(actionText) } : {}),
    texts: { title, message, ...(actionText ? { actionText } : {}) },
  };
}

export function temporaryPasswordIssued(ctx: ServiceContext, user: Pick<AuthUser, 'id'>): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    priority: 'high',
    category: 'security',
    ...worded(
      text(msg('Temporary password issued')),
      text(
        msg(
          'A temporary password was issued for your account by {who, select, system {the system} other {{by}}}. Choose a new password now; if you did not expect this, tell your administrator.',
        ),
        byWhom(ctx),
      ),
      text(msg('View profile')),
    ),
    actionUrl: '/profile',
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
    ...worded(
      text(msg('Password changed')),
      bySelf
        ? text(
            msg(
              'Your password was changed and your other sessions were signed out. If this was not you, tell your administrator at once.',
            ),
          )
        : text(
            msg(
              'Your password was set by {who, select, system {the system} other {{by}}}; you will choose a new one when you next sign in. If you did not expect this, tell your administrator.',
            ),
            byWhom(ctx),
          ),
      text(msg('View profile')),
    ),
    actionUrl: '/profile',
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
    ...worded(
      text(msg('User created')),
      text(msg('{who, select, system {the system} other {{by}}} created the account {username} ({role}).'), {
        ...byWhom(ctx),
        username: user.username,
        role: user.role,
      }),
      text(msg('Open user management')),
    ),
    actionUrl: `/user-management?q=${encodeURIComponent(user.username)}`,
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
    ...worded(
      text(msg('User deactivated')),
      text(
        msg(
          '{who, select, system {the system} other {{by}}} deactivated the account {username}{sessions, plural, =0 {} one {; # active session was ended} other {; # active sessions were ended}}.',
        ),
        { ...byWhom(ctx), username: user.username, sessions: endedSessions },
      ),
      text(msg('Open user management')),
    ),
    actionUrl: `/user-management?q=${encodeURIComponent(user.username)}`,
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
    ...worded(
      text(msg('Background job failed')),
      text(msg('The {job} job failed after all its retries: {error}'), { job, error: message.slice(0, 500) }),
      text(msg('Open system monitoring')),
    ),
    actionUrl: '/system-monitoring',
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
    to: installationAdmins,
    relatedTable: 'api_integration_sync_logs',
    relatedRecordId: logId,
    once: true,
  }) as const;

/** A sync run failed: the installation's admins, once per run. */
export function integrationSyncFailed(
  ctx: ServiceContext,
  run: { logId: number; endpointName: string; sourceName: string; message: string; words?: OtherWords },
): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'error',
    priority: 'high',
    category: 'api',
    ...worded(
      text(msg('API sync failed')),
      text(
        msg('{source} · {endpoint}: {error}'),
        { source: run.sourceName, endpoint: run.endpointName, error: run.message.slice(0, 500) },
        cutWords('error', run.words, 500),
      ),
      text(msg('Open the sync logs')),
    ),
    ...aboutSyncLog(run.logId),
  });
}

export function integrationSyncPartial(
  ctx: ServiceContext,
  run: {
    logId: number;
    endpointName: string;
    sourceName: string;
    skipped: number;
    first: string;
    firstWords?: OtherWords;
  },
): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    priority: 'medium',
    category: 'api',
    ...worded(
      text(msg('API sync skipped records')),
      text(
        msg('{source} · {endpoint}: {skipped, plural, one {# record} other {# records}} skipped; first: {first}'),
        { source: run.sourceName, endpoint: run.endpointName, skipped: run.skipped, first: run.first.slice(0, 400) },
        cutWords('first', run.firstWords, 400),
      ),
      text(msg('Open the sync logs')),
    ),
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
    ...worded(
      text(msg('Security anomaly detected')),
      text(
        msg(
          '{username} deleted {count} records within {minutes} minutes. This may indicate unauthorized access or data manipulation.',
        ),
        { username: anomaly.username, count: anomaly.deleteCount, minutes: anomaly.windowMinutes },
      ),
      text(msg('Review anomalies')),
    ),
    actionUrl: '/audit-trail?tab=anomalies',
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
    ...worded(
      ok ? text(msg('Backup completed')) : text(msg('Backup failed')),
      !ok
        ? text(msg('The backup "{name}" failed: {error}'), {
            name: backup.name,
            error: (backup.error ?? 'unknown error').slice(0, 500),
          })
        : backup.recordCount !== undefined
          ? text(msg('The backup "{name}" is complete ({records, number} records).'), {
              name: backup.name,
              records: backup.recordCount,
            })
          : text(msg('The backup "{name}" is complete.'), { name: backup.name }),
      text(msg('Open Backup & Recovery')),
    ),
    actionUrl: '/backup-recovery',
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
    ...worded(
      text(msg('Backup restored')),
      text(
        msg(
          '{actor} restored {named, select, yes {the backup "{name}"} other {a backup file}}{overwrite, select, yes {, replacing the current data} other {}}: {rows, number} rows in {tables} tables.',
        ),
        {
          actor: actorLabel(ctx.actor),
          named: restore.backupName ? 'yes' : 'no',
          name: restore.backupName ?? '',
          overwrite: restore.overwrite ? 'yes' : 'no',
          rows: restore.rows,
          tables: restore.tables,
        },
      ),
      text(msg('Open Backup & Recovery')),
    ),
    actionUrl: '/backup-recovery',
    to: installationAdmins,
    relatedTable: 'backups',
    relatedRecordId: restore.backupId,
  });
}

const ownSecurityNotice = (user: Pick<AuthUser, 'id'>) => ({
  category: 'security' as const,
  actionUrl: '/two-factor',
  to: { userId: user.id },
  relatedTable: 'users',
  relatedRecordId: user.id,
});

export function twoFactorTurnedOn(ctx: ServiceContext, user: Pick<AuthUser, 'id'>): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'success',
    ...worded(
      text(msg('Two-factor authentication turned on')),
      text(
        msg(
          'Signing in to your account now needs a code from your authenticator app. Keep your recovery codes somewhere safe.',
        ),
      ),
      text(msg('Open two-factor settings')),
    ),
    ...ownSecurityNotice(user),
  });
}

export function twoFactorTurnedOff(ctx: ServiceContext, user: Pick<AuthUser, 'id'>): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    priority: 'high',
    ...worded(
      text(msg('Two-factor authentication turned off')),
      text(
        msg('Your account signs in with its password alone now. If this was not you, tell your administrator at once.'),
      ),
      text(msg('Open two-factor settings')),
    ),
    ...ownSecurityNotice(user),
  });
}

export function twoFactorReset(ctx: ServiceContext, user: Pick<AuthUser, 'id'>): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'warning',
    priority: 'high',
    ...worded(
      text(msg('Two-factor authentication reset')),
      text(
        msg(
          'Your second factor was removed by {who, select, system {the system} other {{by}}} and your sessions were signed out. Set it up again now; if you did not ask for this, tell your administrator.',
        ),
        byWhom(ctx),
      ),
      text(msg('Open two-factor settings')),
    ),
    ...ownSecurityNotice(user),
  });
}

export function twoFactorFailures(ctx: ServiceContext, user: Pick<AuthUser, 'id'>, failures: number): Promise<void> {
  return notifyQuietly(ctx, {
    type: 'error',
    priority: 'high',
    ...ownSecurityNotice(user),
    ...worded(
      text(msg('Wrong two-factor codes')),
      text(
        msg(
          'Someone entered your password correctly and then {failures} wrong two-factor codes. If this was not you, change your password now.',
        ),
        { failures },
      ),
      text(msg('Change password')),
    ),
    actionUrl: '/change-password',
  });
}

/** A CSV import that ran as a job ended: its user hears how (a small one was watched on the screen). */
export function importFinished(
  ctx: ServiceContext,
  run: {
    id: number;
    userId: number;
    file: string;
    phase: string;
    status: string;
    rows: { total: number; valid: number; invalid: number; created: number; updated: number; unchanged: number };
    /** Failed because rows were refused (an import of all rows or none). */
    refused: boolean;
  },
): Promise<void> {
  const ok = run.status === 'completed' || run.status === 'checked';
  const checked = run.phase === 'check';
  const { rows } = run;
  const about = (message: string, values: NoticeText['values'] = {}) => text(message, { file: run.file, ...values });
  const message =
    run.status === 'checked'
      ? about(msg('{file}: {valid, number} of {total, number} rows are valid'), rows)
      : run.status === 'completed'
        ? about(
            msg(
              '{file}: {created, number} rows added, {updated, number} updated, {unchanged, number} unchanged, {invalid, number} refused',
            ),
            rows,
          )
        : run.refused
          ? about(msg('{file}: nothing was imported, {invalid, number} of {total, number} rows are invalid'), rows)
          : about(msg('{file} was not imported. Open the import to see why.'));
  return notifyQuietly(ctx, {
    type: ok ? 'success' : 'error',
    priority: ok ? 'low' : 'medium',
    category: 'financial',
    ...worded(
      checked ? text(msg('Import file checked')) : ok ? text(msg('Import completed')) : text(msg('Import failed')),
      message,
      text(msg('Open the import')),
    ),
    actionUrl: `/imports?id=${run.id}`,
    to: { userId: run.userId },
    relatedTable: 'imports',
    relatedRecordId: run.id,
  });
}
